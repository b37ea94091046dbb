// The `online` strategy learns link scores from the crawl's own outcomes:
// anchors that led to relevant pages rise, others fall, and queued URLs are
// re-scored after each retraining.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createScorer } from '../src/scorers/index.ts';
import { parseTopic } from '../src/topic.ts';
import type { CrawlItem, FrontierEntry, PageLink, ParsedPage } from '../src/types.ts';
import { makePage } from './helpers/pages.ts';

const TOPIC = parseTopic({ name: 'courses', terms: ['course', 'syllabus', 'lecture'] }, 'test');

const page = (text: string): ParsedPage => makePage('', { content: text });

function link(anchor: string): PageLink {
  return { url: 'http://x.test/l', anchor, context: '', tag: 'a', nofollow: false, block: 'content' };
}

test('online: anchors that led to relevant pages rise after retraining; queued URLs are re-scored', async () => {
  const s = createScorer('online', TOPIC, { params: { retrain: 40, priorWeight: 10 } });
  const hub = page('a department page');
  // Before learning: the keyword model. "homework" is not a topic term.
  const before = s.linkScore(link('homework solutions'), hub, 0);
  assert.ok(before >= 0 && before <= 1);
  assert.equal(await s.rescore!(async function* () {}), null, 'nothing learnt yet');
  for (let i = 0; i < 40; i++) {
    const good = i % 2 === 0;
    const item: CrawlItem = {
      entry: { url: `http://x.test/${i}`, score: 0, depth: 1, parent: null, anchor: good ? `homework set ${i}` : `photo album ${i}` },
      page: page(good ? 'course syllabus lecture notes' : 'pictures of the summer party'),
    };
    item.relevance = s.pageRelevance(item.page!, item);
    s.observe!(item, []);
  }
  const queued: FrontierEntry[] = [
    { url: 'http://x.test/q1', score: 0.1, depth: 2, parent: null, anchor: 'homework set 99' },
    { url: 'http://x.test/q2', score: 0.1, depth: 2, parent: null, anchor: 'photo album 99' },
  ];
  const updates = await s.rescore!(async function* () {
    yield* queued;
  });
  assert.ok(updates !== null && updates.length === 2);
  const [hw, photo] = updates!;
  assert.ok(hw.score > photo.score, `homework ${hw.score} vs photo ${photo.score}`);
  assert.ok(s.linkScore(link('homework solutions'), hub, 0) > before, 'a new link with a learnt-good anchor scores higher than before');
  for (const u of updates!) assert.ok(u.score >= 0 && u.score <= 1);
  assert.equal(await s.rescore!(async function* () {}), null, 'no retraining until `retrain` more pages');
});

test('online (group 4 default): the target URL is learnt, so links with empty anchors to /courses/ rise', async () => {
  const s = createScorer('online', TOPIC, { params: { retrain: 40, priorWeight: 10 } });
  for (let i = 0; i < 40; i++) {
    const good = i % 2 === 0;
    const item: CrawlItem = {
      entry: { url: good ? `http://x.test/courses/c${i}/` : `http://x.test/photos/p${i}.jpg.html`, score: 0, depth: 1, parent: 'http://x.test/', anchor: '', context: '' },
      page: page(good ? 'course syllabus lecture notes' : 'pictures of the summer party'),
    };
    item.relevance = s.pageRelevance(item.page!, item);
    s.observe!(item, []);
  }
  const queued: FrontierEntry[] = [
    { url: 'http://x.test/courses/c99/', score: 0.1, depth: 2, parent: 'http://x.test/', anchor: '' },
    { url: 'http://x.test/photos/p99.jpg.html', score: 0.1, depth: 2, parent: 'http://x.test/', anchor: '' },
  ];
  const updates = await s.rescore!(async function* () {
    yield* queued;
  });
  assert.ok(updates !== null && updates.length === 2, 'retrained on examples without anchors (URL features)');
  assert.ok(updates![0].score > updates![1].score, `course ${updates![0].score} vs photo ${updates![1].score}`);
});

test('online: the group parameter is checked; group 2 ignores links without anchor or context (as before)', async () => {
  assert.throws(() => createScorer('online', TOPIC, { params: { group: 7 } }), { code: 'FC_USAGE', message: /group must be 1, 2, 3 or 4/ });
  const s = createScorer('online', TOPIC, { params: { retrain: 10, group: 2 } });
  for (let i = 0; i < 20; i++) {
    const item: CrawlItem = { entry: { url: `http://x.test/courses/${i}`, score: 0, depth: 1, parent: null }, page: page(i % 2 ? 'course syllabus' : 'party') };
    item.relevance = s.pageRelevance(item.page!, item);
    s.observe!(item, []);
  }
  assert.equal(await s.rescore!(async function* () {}), null, 'no examples: nothing learnt');
});

test('nb-link passes the link URL and its page (URL, title, relevance) to the model; parentWeight mixes in the page relevance', () => {
  const calls: unknown[][] = [];
  const model = {
    target: 'course',
    terms: ['course'],
    threshold: 0.5,
    pageProbability: () => 0.9,
    linkProbability: (...args: unknown[]) => (calls.push(args), 0.2),
    kdeProbability: () => 0,
  };
  const p = makePage('Course list');
  const l: PageLink = { url: 'http://x.test/courses/', anchor: 'a', context: 'c', tag: 'a', nofollow: false, block: 'content' };
  assert.equal(createScorer('nb-link', null, { model }).linkScore(l, p, 0.9), 0.2);
  assert.deepEqual(calls[0], ['a', 'c', 'http://x.test/courses/', { url: p.base, title: 'Course list', relevant: true }]);
  assert.equal(createScorer('nb-link', null, { model }).linkScore(l, p, 0.1), 0.2);
  assert.equal((calls[1][3] as { relevant: boolean }).relevant, false);
  const mixed = createScorer('nb-link', null, { model, params: { parentWeight: 1 } }).linkScore(l, p, 0.9);
  assert.ok(Math.abs(mixed - (0.2 + 0.9) / 2) < 1e-12);
});
