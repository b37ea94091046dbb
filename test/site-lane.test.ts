// The site lane (src/relevance/scorers/site-lane.ts, `crawl --site-lane`), issue 22
// item 3: the tail of a generated portal web was lost because links on a host whose
// pages were mostly judged relevant waited behind higher-scored off-topic links
// (bench/tail-diagnosis.ts). A host with many relevant pages must get its queued links
// lifted ahead of equal-scored links elsewhere; one relevant page alone must not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createScorer } from '../src/relevance/scorers/index.ts';
import { LIFT_SCORE } from '../src/relevance/scorers/explore.ts';
import { dirUnitOf, withSiteLane, type SiteLaneScorer } from '../src/relevance/scorers/site-lane.ts';
import { hostOfCanonical } from '../src/urls/canonical.ts';
import type { ScorerContext } from '../src/relevance/scorers/context.ts';
import { parseTopic } from '../src/relevance/topic.ts';
import type { CrawlItem, ParsedPage, QueuedLink, Scorer } from '../src/types.ts';
import { makePage } from './helpers/pages.ts';

const PAGE: ParsedPage = makePage('', { content: 'x' });
const plain: Scorer = { name: 'plain', pageRelevance: () => 0, linkScore: () => 0 };
const ctx = (params: Record<string, number> = {}): ScorerContext => ({ params: { threshold: 0.5, ...params } }) as unknown as ScorerContext;
const link = (url: string, score = 0.5): QueuedLink => ({ url, score, depth: 1, parent: 'http://x.test/', anchor: '', context: '', offTopicHops: 0 });

/** The page `url` fetched and judged (relevant or not), queuing `links`. */
function fetch(s: Scorer, url: string, relevant: boolean, links: QueuedLink[] = []): void {
  const item: CrawlItem = { entry: { url, score: 0, depth: 1, parent: null }, page: PAGE, relevance: relevant ? 1 : 0 };
  s.observe!(item, links);
}

async function lifts(s: Scorer): Promise<string[]> {
  const out = (await s.rescore!(async function* () {})) ?? [];
  for (const r of out) assert.equal(r.score, LIFT_SCORE);
  return out.map((r) => r.url);
}

/**
 * A crawl of 60 judged pages on off-topic hosts (a harvest of 1 in 10), plus
 * `good` pages on good.test of which `goodRelevant` are relevant; good.test,
 * lone.test and far.test each have two queued links of the same score.
 */
function scenario(s: Scorer, good: number, goodRelevant: number): void {
  for (let i = 0; i < 60; i++) fetch(s, `http://off${i % 6}.test/p${i}`, i % 10 === 0, i === 0 ? [link('http://far.test/a'), link('http://far.test/b')] : []);
  fetch(s, 'http://lone.test/only', true, [link('http://lone.test/a'), link('http://lone.test/b')]);
  for (let i = 0; i < good; i++) fetch(s, `http://good.test/p${i}`, i < goodRelevant, i === 0 ? [link('http://good.test/a'), link('http://good.test/b')] : []);
}

test('a host with many relevant pages gets its links lifted; equal-scored links elsewhere do not', async () => {
  const s = withSiteLane(plain, ctx(), 1);
  scenario(s, 6, 6);
  const first = await lifts(s);
  assert.equal(first.length, 1, 'share 1: one lift per page');
  assert.equal(hostOfCanonical(first[0]!), 'good.test');
  const stats = s.siteStats();
  assert.equal(stats.best?.host, 'good.test');
  assert.ok(stats.best!.mean > stats.recent);
  // the second good link next; then good.test has nothing queued, and no other host beats the recent harvest
  assert.deepEqual(await lifts(s), first[0] === 'http://good.test/a' ? ['http://good.test/b'] : ['http://good.test/a']);
  assert.deepEqual(await lifts(s), []);
});

test('one relevant page alone does not lift its host', async () => {
  const s = withSiteLane(plain, ctx(), 1);
  scenario(s, 0, 0);
  assert.deepEqual(await lifts(s), []);
  assert.equal(s.siteStats().best, null);
  assert.equal(s.siteStats().lifted, 0);
});

test('a host whose pages are judged off topic is not lifted, however many', async () => {
  const s = withSiteLane(plain, ctx(), 1);
  scenario(s, 20, 1);
  assert.deepEqual(await lifts(s), []);
});

test('within the host, the link of the highest strategy score goes first; fetched links are not lifted', async () => {
  const s = withSiteLane(plain, ctx(), 1);
  for (let i = 0; i < 60; i++) fetch(s, `http://off.test/p${i}`, i % 10 === 0);
  fetch(s, 'http://good.test/p0', true, [link('http://good.test/low', 0.1), link('http://good.test/high', 0.9), link('http://good.test/done', 0.95)]);
  for (let i = 1; i < 6; i++) fetch(s, `http://good.test/p${i}`, true);
  fetch(s, 'http://good.test/done', true);
  assert.deepEqual(await lifts(s), ['http://good.test/high']);
});

test('the share: 0.5 lifts on every other page', async () => {
  const s = withSiteLane(plain, ctx(), 0.5);
  scenario(s, 6, 6);
  const got = [(await lifts(s)).length, (await lifts(s)).length, (await lifts(s)).length];
  assert.deepEqual(got, [0, 1, 0]);
});

test('site lane 0 does not wrap; > 0 keeps the strategy\'s link scores; a bad share is FC_USAGE', () => {
  const solar = parseTopic({ name: 'solar', terms: ['solar energy', 'photovoltaic'] }, 'test');
  const off = createScorer('best-first', solar, { siteLane: 0 });
  const on = createScorer('best-first', solar, { siteLane: 0.5 }) as SiteLaneScorer;
  assert.equal(off.rescore, undefined);
  assert.equal(typeof on.siteStats, 'function');
  const page = makePage('', { content: 'solar energy photovoltaic panels' });
  const l = { url: 'http://a.test/pv', anchor: 'photovoltaic cells', context: 'solar energy', tag: 'a', nofollow: false, block: 'content' as const };
  assert.equal(on.linkScore(l, page, 0.7), off.linkScore(l, page, 0.7));
  assert.throws(() => createScorer('best-first', solar, { siteLane: 2 }), { code: 'FC_USAGE' });
  assert.throws(() => withSiteLane(plain, ctx({ siteWeight: -1 }), 0.5), { code: 'FC_USAGE' });
});

test('a crawl gets the site lane by default for nb-link and online with a model, else not', async () => {
  const { defaultSiteLane, DEFAULT_SITE_LANE } = await import('../src/relevance/scorers/site-lane.ts');
  assert.ok(DEFAULT_SITE_LANE > 0);
  assert.equal(defaultSiteLane('nb-link', true), DEFAULT_SITE_LANE);
  assert.equal(defaultSiteLane('online', true), DEFAULT_SITE_LANE);
  assert.equal(defaultSiteLane('online', false), 0, 'no model: off');
  assert.equal(defaultSiteLane('best-first', true), 0, 'a paper strategy stays as its paper defines it');
  assert.equal(defaultSiteLane('bfs', true), 0);
});

test('bounded: maxQueued URLs in all, the least recently seen host\'s queue goes first', () => {
  const s = withSiteLane(plain, ctx({ maxQueued: 4, maxPerHost: 3, maxHosts: 3 }), 1);
  fetch(s, 'http://a.test/', false, [link('http://a.test/1'), link('http://a.test/2')]);
  fetch(s, 'http://b.test/', false, [link('http://b.test/1'), link('http://b.test/2')]);
  assert.equal(s.siteStats().queued, 4);
  // full: a.test (least recently seen) loses its queue for c.test's link
  fetch(s, 'http://c.test/', false, [link('http://c.test/1')]);
  assert.equal(s.siteStats().queued, 3);
  // per host: the lowest score goes for a higher one, a lower one is dropped
  fetch(s, 'http://b.test/3', false, [link('http://b.test/4', 0.9), link('http://b.test/5', 0.1)]);
  assert.equal(s.siteStats().queued, 4, 'b.test/4 in, b.test/5 (below b.test\'s lowest) dropped');
  // fetched links leave the queue
  fetch(s, 'http://c.test/1', false);
  assert.equal(s.siteStats().queued, 3);
  // a fourth host: the least recently seen host (b.test, 3 queued) goes with its queue (maxHosts 3)
  fetch(s, 'http://c.test/2', false);
  fetch(s, 'http://a.test/3', false);
  fetch(s, 'http://d.test/', false, [link('http://d.test/1')]);
  assert.equal(s.siteStats().queued, 1);
});

// siteDepth (path units below the host): on WebKB a held-out university is one host
// whose pages are mixed, so the host lane took the host's best-scored link, mostly the
// strategy's own pick, and washington course's last targets (all under
// www.cs.washington.edu/education/, 45% judged relevant while the host fell to 20%)
// waited (bench/dir-diagnosis.ts). A directory of relevant pages on a mixed host must be
// the unit its links are taken from.
test('dirUnitOf: the host and the first directories of the path', () => {
  assert.equal(dirUnitOf('http://h.test/a/b/c.html', 0), 'h.test');
  assert.equal(dirUnitOf('http://h.test/a/b/c.html', 1), 'h.test/a/');
  assert.equal(dirUnitOf('http://h.test/a/b/c.html', 2), 'h.test/a/b/');
  assert.equal(dirUnitOf('http://h.test/a/b/c.html', 3), 'h.test/a/b/', 'fewer directories than the depth: the deepest');
  assert.equal(dirUnitOf('http://h.test/~u/', 1), 'h.test/~u/');
  assert.equal(dirUnitOf('http://h.test/index.html', 1), 'h.test', 'no directory: the host');
  assert.equal(dirUnitOf('http://h.test', 1), 'h.test');
  assert.equal(dirUnitOf('http://h.test/a?x=/b/c', 1), 'h.test', 'a query is no directory');
});

/**
 * 60 off-topic pages (a harvest of 1 in 10), then on mix.test 8 relevant pages
 * under /good/ and 30 off-topic ones under /bad/, then 20 more off-topic pages;
 * mix.test has a queued link under /bad/ of score 0.9 and one under /good/ of 0.3.
 */
function mixed(s: Scorer): void {
  for (let i = 0; i < 60; i++) fetch(s, `http://off${i % 6}.test/p${i}`, i % 10 === 0);
  fetch(s, 'http://mix.test/good/p0', true, [link('http://mix.test/bad/next', 0.9), link('http://mix.test/good/next', 0.3)]);
  for (let i = 1; i < 8; i++) fetch(s, `http://mix.test/good/p${i}`, true);
  for (let i = 0; i < 30; i++) fetch(s, `http://mix.test/bad/p${i}`, false);
  for (let i = 60; i < 80; i++) fetch(s, `http://off${i % 6}.test/p${i}`, i % 10 === 0);
}

test('siteDepth 1: a directory of relevant pages gets its links lifted while its host is mixed', async () => {
  const host = withSiteLane(plain, ctx(), 1);
  mixed(host);
  assert.deepEqual(await lifts(host), ['http://mix.test/bad/next'], 'the host alone: its best-scored link, in the off-topic directory');
  const dir = withSiteLane(plain, ctx({ siteDepth: 1 }), 1);
  mixed(dir);
  assert.equal(dir.siteStats().best?.host, 'mix.test/good/');
  assert.deepEqual(await lifts(dir), ['http://mix.test/good/next']);
  // taken from the directory, the link leaves the host's queue too; the host still beats the recent harvest
  assert.deepEqual(await lifts(dir), ['http://mix.test/bad/next']);
  assert.deepEqual(await lifts(dir), []);
});

test('siteDepth 1 backs off to the host when its directories hold one page each', async () => {
  const s = withSiteLane(plain, ctx({ siteDepth: 1 }), 1);
  for (let i = 0; i < 60; i++) fetch(s, `http://off${i % 6}.test/p${i}`, i % 10 === 0);
  // date directories, one relevant article each (the generated portal webs' /yyyy/mmdd/ at depth 2)
  for (let i = 0; i < 6; i++) fetch(s, `http://news.test/d${i}/a.html`, true, i === 0 ? [link('http://news.test/d9/b.html', 0.2), link('http://news.test/d8/c.html', 0.4)] : []);
  assert.equal(s.siteStats().best?.host, 'news.test', 'no directory is confident alone: the host is the unit');
  assert.deepEqual(await lifts(s), ['http://news.test/d8/c.html']);
  assert.deepEqual(await lifts(s), ['http://news.test/d9/b.html']);
  const deep = withSiteLane(plain, ctx({ siteDepth: 2 }), 1);
  for (let i = 0; i < 60; i++) fetch(deep, `http://off${i % 6}.test/p${i}`, i % 10 === 0);
  for (let i = 0; i < 6; i++) fetch(deep, `http://news.test/2026/d${i}/a.html`, true, i === 0 ? [link('http://news.test/2026/d9/b.html')] : []);
  assert.ok(['news.test', 'news.test/2026/'].includes(deep.siteStats().best?.host ?? ''), 'the year directory or the host, not a date directory');
  assert.deepEqual(await lifts(deep), ['http://news.test/2026/d9/b.html']);
});
