// Issue 24's link-AUC target read two ways over leave-one-university-out
// cells (bench/lib/link-auc.ts, rendered by bench/webkb-holdout.ts
// --section classifier): the mean of the universities' AUCs, and the AUC
// of their links pooled, where models whose scores sit at different
// levels per university lose pairs across universities.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkAucReadings, type HeldOutLinks } from '../bench/lib/link-auc.ts';

const cells: HeldOutLinks[] = [
  // model "shifted" ranks each university perfectly, but scores university b lower throughout
  { u: 'a', target: 'course', links: { labels: '0011', scores: { shifted: [0.6, 0.7, 0.8, 0.9], level: [0.1, 0.2, 0.3, 0.4] } } },
  { u: 'b', target: 'course', links: { labels: '0011', scores: { shifted: [0.1, 0.2, 0.3, 0.4], level: [0.1, 0.2, 0.3, 0.4] } } },
  { u: 'a', target: 'student', links: { labels: '01', scores: { shifted: [0.9, 0.1], level: [0.1, 0.9] } } },
];

test('per cell AUC, and per target the mean of the cells and the pooled AUC', () => {
  const r = linkAucReadings(cells, ['shifted', 'level']);
  assert.deepEqual(
    r.cells.map((c) => [c.u, c.target, c.links, c.positives, c.auc]),
    [
      ['a', 'course', 4, 2, [1, 1]],
      ['b', 'course', 4, 2, [1, 1]],
      ['a', 'student', 2, 1, [0, 1]],
    ],
  );
  assert.deepEqual(r.targets.map((t) => t.target), ['course', 'student']);
  const course = r.targets[0]!;
  assert.deepEqual(course.universities, ['a', 'b']);
  assert.equal(course.links, 8);
  assert.deepEqual(course.mean, [1, 1]);
  // pooled, "shifted": a's positives beat all 4 negatives, b's positives only b's 2: 12 of 16 pairs
  assert.deepEqual(course.pooled, [0.75, 1]);
  assert.deepEqual(r.targets[1]!.mean, [0, 1]);
  assert.deepEqual(r.targets[1]!.pooled, [0, 1]);
});

test('a model that did not score every link of a cell is refused', () => {
  const short: HeldOutLinks[] = [{ u: 'a', target: 'course', links: { labels: '01', scores: { nb: [0.5] } } }];
  assert.throws(() => linkAucReadings(short, ['nb']), /a course: model nb scored 1 of 2 links/);
  assert.throws(() => linkAucReadings(short, ['blend']), /model blend scored no of 2 links/);
});
