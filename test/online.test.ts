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
