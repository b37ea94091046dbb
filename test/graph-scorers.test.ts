// The link-graph strategies (docs/algorithms.md#hits, docs/algorithms.md#ipagerank)
// driven through pageRelevance / linkScore / observe / rescore with fake
// pages, as the classify stage and the frontier sink call them.
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../src/errors.ts';
import type { GraphScorer } from '../src/relevance/graph/periodic.ts';
import { createHitsScorer, HITS_DEFAULTS } from '../src/relevance/scorers/hits.ts';
import { createIPageRankScorer } from '../src/relevance/scorers/ipagerank.ts';
import type { ScorerContext } from '../src/relevance/scorers/context.ts';
import { classifyStage } from '../src/stages/classify.ts';
import { linksToQueue } from '../src/stages/sink.ts';
import type { CanonOptions } from '../src/urls/canonical.ts';
import { TopicModel, parseTopic } from '../src/relevance/topic.ts';
import type { CrawlItem, FetchResult, PageLink, ParsedPage, QueuedLink, Rescore } from '../src/types.ts';

const TOPIC = parseTopic({ name: 'solar', terms: ['solar energy', 'photovoltaic'] }, 'test');

/** A context whose judge returns the relevance each test gives the page. */
function context(params: Record<string, number> = {}): { ctx: ScorerContext; judged: WeakMap<ParsedPage, number> } {
  const judged = new WeakMap<ParsedPage, number>();
  const ctx: ScorerContext = {
    topic: new TopicModel(TOPIC),
    model: null,
    judge: (page) => judged.get(page) ?? 0,
    params: { threshold: 0.2, ...params },
  };
  return { ctx, judged };
}

function page(title: string, links: Array<[url: string, anchor: string]>): ParsedPage {
  const pageLinks: PageLink[] = links.map(([url, anchor]) => ({ url, anchor, context: '', tag: 'a', nofollow: false, block: 'content' }));
  return {
    title,
    charset: 'utf-8',
    blocks: { title, heading: '', content: '', navigation: '', anchor: '', other: '', },
    links: pageLinks,
    base: 'http://t.test/',
    noindex: false,
    nofollow: false,
    lang: null,
  };
}

function fetched(url: string): FetchResult {
  return {
    url, finalUrl: url, redirects: [url], status: 200, headers: {}, contentType: 'text/html', headerCharset: null,
    body: null, bytes: 0, truncated: false, fetchedAt: new Date(0).toISOString(), ms: 1, replay: false,
  };
}

interface Visit {
  scores: number[];
  links: QueuedLink[];
  updates: Rescore[] | null;
}

/** One page through the strategy, as classify and the sink drive it. */
async function visit(scorer: GraphScorer, judged: WeakMap<ParsedPage, number>, url: string, p: ParsedPage, relevance: number): Promise<Visit> {
  judged.set(p, relevance);
  const item: CrawlItem = { entry: { url, score: 0, depth: 0, parent: null }, fetch: fetched(url), page: p };
  item.relevance = scorer.pageRelevance(p, item);
  item.relevant = item.relevance >= 0.2;
  const scores = p.links.map((l) => scorer.linkScore(l, p, item.relevance!));
  item.outlinks = p.links.map((l, i) => ({ url: l.url, score: scores[i], anchor: l.anchor, context: l.context }));
  const links = linksToQueue(item, 10);
  scorer.observe!(item, links);
  const updates = await scorer.rescore!(async function* () {});
  return { scores, links, updates };
}

const scoreOf = (updates: Rescore[] | null, url: string): number | undefined => updates?.find((u) => u.url === url)?.score;

test('hits: eq. 1 (scaled by A) until p relevant pages, then HITS rounds re-score what relevant hubs point to', async () => {
  const { ctx, judged } = context({ p: 5 });
  const scorer = createHitsScorer(ctx);
  const { A, B, C, alpha } = HITS_DEFAULTS;
  const hub = (i: number): ParsedPage =>
    page(`hub ${i}`, [
      ['http://t.test/popular', 'read more'],
      [`http://t.test/single${i}`, 'read more'],
      [`http://t.test/solar${i}`, 'photovoltaic'],
    ]);
  // an irrelevant page pointing at `ignored` adds no edge
  const off = await visit(scorer, judged, 'http://t.test/off', page('off', [['http://t.test/ignored', 'read more']]), 0.05);
  assert.equal(off.updates, null);
  for (let i = 0; i < 4; i++) {
    const v = await visit(scorer, judged, `http://t.test/hub${i}`, hub(i), 0.8);
    assert.equal(v.updates, null, `no round before p pages (page ${i + 2})`);
    close(v.scores[0], A * 0.8, 'eq. 1 with Sim(anchor) = 0, times A');
    assert.ok(v.scores[2] > v.scores[0], 'a topical anchor scores higher');
  }
  // 5 pages observed but only 4 relevant: still eq. 1
  assert.equal(scorer.stats().rounds, 0);
  const fifth = await visit(scorer, judged, 'http://t.test/hub4', hub(4), 0.8);
  assert.equal(fifth.updates, null, 'pages 6..9 make no round');
  for (let i = 5; i < 8; i++) await visit(scorer, judged, `http://t.test/hub${i}`, hub(i), 0.8);
  const round = await visit(scorer, judged, 'http://t.test/hub8', hub(8), 0.8);
  assert.equal(scorer.stats().rounds, 1);
  assert.ok(round.updates !== null && round.updates.length > 0);
  for (const u of round.updates) assert.ok(Number.isFinite(u.score), `${u.url} ${u.score}`);
  assert.equal(scoreOf(round.updates, 'http://t.test/ignored'), undefined, 'not in the graph');
  assert.equal(scoreOf(round.updates, 'http://t.test/hub3'), undefined, 'fetched pages are not re-scored');
  const popular = scoreOf(round.updates, 'http://t.test/popular')!;
  const single = scoreOf(round.updates, 'http://t.test/single3')!;
  assert.ok(popular > single, `co-cited target (${popular}) above a single-parent one (${single})`);
  // popular holds the maximum authority; every parent is an equally good hub
  close(popular, A * 0.8 + C * (alpha * 1 + HITS_DEFAULTS.beta * 1), 'eq. 2 for the top authority');
  assert.ok(scoreOf(round.updates, 'http://t.test/solar3')! > single, 'Sim(anchor) still counts, weighted by B');
  close(scoreOf(round.updates, 'http://t.test/solar3')! - single, A * B * (fifth.scores[2] / A - 0.8), 'the B-weighted anchor term');
  // after the round, a newly found link to the authority carries the structure term at once
  const late = await visit(scorer, judged, 'http://t.test/late', page('late', [['http://t.test/popular', 'read more'], ['http://t.test/new', 'read more']]), 0.8);
  close(late.scores[0] - late.scores[1], C * (alpha + HITS_DEFAULTS.beta), 'authority and best-parent hub of the target');
});

/** One page through the classify stage and the sink's link filter with the crawl's canonicalisation options. */
async function visitStaged(scorer: GraphScorer, judged: WeakMap<ParsedPage, number>, url: string, p: ParsedPage, relevance: number, canon: CanonOptions): Promise<Visit> {
  judged.set(p, relevance);
  const item: CrawlItem = { entry: { url, score: 0, depth: 0, parent: null }, fetch: fetched(url), page: p };
  for await (const _ of classifyStage((async function* () { yield item; })(), { scorer, threshold: 0.2, canonOptions: canon }));
  const links = linksToQueue(item, 10, canon);
  scorer.observe!(item, links);
  const updates = await scorer.rescore!(async function* () {});
  return { scores: item.outlinks!.map((o) => o.score), links, updates };
}

// What broke: hits and ipagerank canonicalised a link in linkScore with the
// default options, the sink with the crawl's. With --keep-index-html the
// graph's node was `…/index.html` and linkScore looked up `…/`, so a link
// to the strongest authority got no structure term at all.
test('hits and ipagerank look links up by the canonical URL the classify stage made with the crawl\'s options', async () => {
  const canon: CanonOptions = { dropIndex: false };
  const popular = 'http://t.test/popular/index.html';
  for (const make of [createHitsScorer, createIPageRankScorer]) {
    const { ctx, judged } = context({ p: 3 });
    const scorer = make(ctx);
    for (let i = 0; i < 6; i++) {
      await visitStaged(scorer, judged, `http://t.test/hub${i}`, page(`solar energy hub ${i}`, [[popular, 'photovoltaic'], [`http://t.test/s${i}`, 'photovoltaic']]), 0.8, canon);
    }
    assert.ok(scorer.stats().rounds > 0, make.name);
    const late = await visitStaged(scorer, judged, 'http://t.test/late', page('solar energy late', [[popular, 'photovoltaic'], ['http://t.test/new', 'photovoltaic']]), 0.8, canon);
    assert.deepEqual(late.links.map((l) => l.url).sort(), [popular, 'http://t.test/new'].sort(), make.name);
    assert.ok(late.scores[0] > late.scores[1] + 0.01, `${make.name}: the known authority ${late.scores[0]} above an unknown page ${late.scores[1]}`);
  }
});

test('hits: the graph stays within its caps over 100,000 observed links', () => {
  const { ctx } = context({ p: 50, maxNodes: 500, maxEdges: 2000, maxOutEdges: 40 });
  const scorer = createHitsScorer(ctx);
  let maxNodes = 0;
  let maxEdges = 0;
  let rounds = 0;
  for (let i = 0; i < 1000; i++) {
    const url = `http://h${i % 13}.test/p${i}`;
    const links: QueuedLink[] = [];
    for (let k = 0; k < 100; k++) {
      const t = (i * 37 + k * 101) % 20_000;
      links.push({ url: `http://h${t % 13}.test/p${t}`, score: 0.3, depth: 1, parent: url, anchor: `item ${k}`, context: '', offTopicHops: 0 });
    }
    const item: CrawlItem = { entry: { url, score: 0, depth: 0, parent: null }, fetch: fetched(url), page: page('x', []), relevance: i % 3 === 0 ? 0.1 : 0.7 };
    scorer.observe!(item, links);
    const updates = scorer.rescore!(async function* () {}) as Rescore[] | null;
    if (updates !== null) {
      rounds++;
      assert.ok(updates.length <= HITS_DEFAULTS.maxRescore);
      for (const u of updates) assert.ok(Number.isFinite(u.score));
    }
    const s = scorer.stats();
    maxNodes = Math.max(maxNodes, s.nodes);
    maxEdges = Math.max(maxEdges, s.edges);
  }
  assert.ok(maxNodes <= 500, `nodes ${maxNodes}`);
  assert.ok(maxEdges <= 2000, `edges ${maxEdges}`);
  assert.ok(maxNodes > 400, 'the graph does fill up');
  assert.ok(rounds > 0);
});

test('hits: parameters are checked', () => {
  assert.throws(() => createHitsScorer(context({ A: 0.5, B: 0.5, C: 0.5 }).ctx), UsageError);
  assert.throws(() => createHitsScorer(context({ alpha: 0.2, beta: 0.3 }).ctx), UsageError);
  assert.throws(() => createHitsScorer(context({ p: 0 }).ctx), UsageError);
  assert.equal(createHitsScorer(context({ A: 0.5, B: 0.25, C: 0.25 }).ctx).name, 'hits');
});

test('ipagerank: RW from topic terms, the page passes its IPR in proportion, c prunes', async () => {
  const { ctx, judged } = context();
  const scorer = createIPageRankScorer(ctx);
  const p = page('seed', [
    ['http://t.test/pv', 'photovoltaic cells'], // whole term: RW 1
    ['http://t.test/solar', 'solar roofs'], // a token of "solar energy": RW 0.5
    ['http://t.test/food', 'recipes'], // RW 0
  ]);
  const v = await visit(scorer, judged, 'http://t.test/', p, 0.5);
  const share = 0.85 * 0.15; // the seed is not a node yet: IPR 1 - d
  close(v.scores[0], 0.15 + share * (1 / 1.5), 'pv');
  close(v.scores[1], 0.15 + share * (0.5 / 1.5), 'solar');
  close(v.scores[2], 0.15, 'food');

  const pruning = createIPageRankScorer(context({ c: 0.75 }).ctx);
  const q = page('seed', [['http://t.test/pv', 'photovoltaic'], ['http://t.test/solar', 'solar'], ['http://t.test/food', 'recipes']]);
  const w = await visit(pruning, context().judged, 'http://t.test/', q, 0.5);
  assert.deepEqual(w.scores.map((s) => s < 0), [false, true, true]);
  close(w.scores[0], 0.15 + share, 'pruned links take no share');
});

// What broke (focus, not a crash): on the synthetic web a keyword
// ipagerank crawl of 20,000 pages was 45% relevant (best-first 99.9%). A
// link's context (in a list: its neighbours' anchors) counted as much as its
// anchor, and a page whose links all had RW 0 split its IPR evenly over them
// as plain PageRank, so rank flowed into off-topic regions.
test('ipagerank: a topic term only in the context counts contextWeight; a page without relevant links passes no IPR', async () => {
  const { ctx, judged } = context();
  const scorer = createIPageRankScorer(ctx);
  const p = page('seed', [['http://t.test/pv', 'photovoltaic cells'], ['http://t.test/next', 'recipes']]);
  p.links[1].context = 'photovoltaic cells'; // the neighbour's anchor
  const v = await visit(scorer, judged, 'http://t.test/', p, 0.5);
  const share = 0.85 * 0.15;
  close(v.scores[0], 0.15 + share * (1 / 1.5), 'anchor: RW 1');
  close(v.scores[1], 0.15 + share * (0.5 / 1.5), 'context only: RW 0.5');
  const off = await visit(scorer, judged, 'http://t.test/off', page('off', [['http://t.test/a', 'recipes'], ['http://t.test/b', 'knitting']]), 0);
  for (const x of off.scores) close(x, 0.15, 'RW 0 everywhere: no share');

  const old = createIPageRankScorer(context({ contextWeight: 1, evenSplit: 1 }).ctx);
  const w = await visit(old, judged, 'http://t.test/', p, 0.5);
  close(w.scores[1], 0.15 + share * (1 / 2), 'contextWeight 1: the neighbour\'s term counts in full');
  const o = await visit(old, judged, 'http://t.test/off', page('off', [['http://t.test/a', 'recipes'], ['http://t.test/b', 'knitting']]), 0);
  close(o.scores[0], 0.15 + share / 2, 'evenSplit 1: plain PageRank shares');
});

test('ipagerank: words of relevant titles become near-synonyms (RW 0.5), learnt online', async () => {
  const { ctx, judged } = context({ c: 0.4 });
  const scorer = createIPageRankScorer(ctx);
  const probe = async (): Promise<number> => (await visit(scorer, judged, 'http://t.test/probe', page('probe', [['http://t.test/w', 'inverter guide']]), 0)).scores[0];
  assert.equal(await probe(), -1, 'unknown word: pruned');
  for (let i = 0; i < 3; i++) await visit(scorer, judged, `http://t.test/r${i}`, page(`photovoltaic inverter ${i}`, []), 0.9);
  for (let i = 0; i < 3; i++) await visit(scorer, judged, `http://t.test/o${i}`, page(`cooking show ${i}`, []), 0.0);
  assert.ok((await probe()) >= 0, 'inverter is now related to the topic');
});

test('ipagerank: rounds every p pages raise targets with many weighted in-links', async () => {
  const { ctx, judged } = context({ p: 4 });
  const scorer = createIPageRankScorer(ctx);
  const results: Visit[] = [];
  for (let i = 0; i < 8; i++) {
    results.push(
      await visit(scorer, judged, `http://t.test/h${i}`, page(`h${i}`, [['http://t.test/popular', 'photovoltaic'], [`http://t.test/s${i}`, 'photovoltaic'], [`http://t.test/x${i}`, 'misc']]), 0.5),
    );
  }
  assert.deepEqual(results.slice(0, 3).map((r) => r.updates), [null, null, null], 'no round before p pages');
  const updates = results[3].updates;
  assert.ok(updates !== null);
  const popular = scoreOf(updates, 'http://t.test/popular')!;
  // 4 parents, each with IPR 0.15 passing half of its share: 0.15 + 4·0.85·0.15/2
  close(popular, 0.15 + (4 * 0.85 * 0.15) / 2, 'IPR of the co-cited target');
  for (const u of updates) assert.ok(Number.isFinite(u.score));
  assert.equal(scoreOf(updates, 'http://t.test/s1'), undefined, 'a single-parent target already holds its IPR');
  assert.equal(scoreOf(updates, 'http://t.test/x1'), undefined, 'RW 0 links get no share: nothing changed');
  assert.equal(scorer.stats().rounds, 2);
});

test('hits: maxWork bounds the iterations of a warm round by the graph\'s edges; the cold first round runs all', () => {
  for (const maxWork of [20_000, 0]) {
    const { ctx } = context({ p: 50, maxNodes: 500, maxEdges: 2000, maxOutEdges: 40, tol: 0, maxWork });
    const scorer = createHitsScorer(ctx);
    const budgets = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const url = `http://h${i % 13}.test/p${i}`;
      const links: QueuedLink[] = [];
      for (let k = 0; k < 30; k++) {
        const t = (i * 37 + k * 101) % 5_000;
        links.push({ url: `http://h${t % 13}.test/p${t}`, score: 0.3, depth: 1, parent: url, anchor: 'misc', context: '', offTopicHops: 0 });
      }
      const item: CrawlItem = { entry: { url, score: 0, depth: 0, parent: null }, fetch: fetched(url), page: page('x', []), relevance: 0.5 };
      scorer.observe!(item, links);
      const before = scorer.stats();
      scorer.rescore!(async function* () {});
      const after = scorer.stats();
      if (after.rounds === before.rounds) continue;
      const cold = before.rounds === 0;
      const expected = cold || maxWork === 0 ? HITS_DEFAULTS.iterations : Math.min(HITS_DEFAULTS.iterations, Math.max(1, Math.floor(maxWork / (2 * after.edges))));
      assert.equal(after.iterations - before.iterations, expected, `maxWork ${maxWork}, round ${after.rounds}, ${after.edges} edges`);
      budgets.add(expected);
    }
    if (maxWork > 0) assert.ok(budgets.has(10) && [...budgets].some((b) => b < 10), `both regimes met: ${[...budgets]}`);
  }
});

test('ipagerank: the graph stays within its caps over 100,000 observed links', () => {
  const { ctx } = context({ p: 50, maxNodes: 500, maxEdges: 2000, maxOutEdges: 40 });
  const scorer = createIPageRankScorer(ctx);
  let maxNodes = 0;
  let maxEdges = 0;
  for (let i = 0; i < 1000; i++) {
    const url = `http://h${i % 13}.test/p${i}`;
    const links: QueuedLink[] = [];
    for (let k = 0; k < 100; k++) {
      const t = (i * 37 + k * 101) % 20_000;
      links.push({ url: `http://h${t % 13}.test/p${t}`, score: 0.3, depth: 1, parent: url, anchor: k % 4 === 0 ? 'photovoltaic' : 'misc', context: '', offTopicHops: 0 });
    }
    const item: CrawlItem = { entry: { url, score: 0, depth: 0, parent: null }, fetch: fetched(url), page: page('x', []), relevance: 0.5 };
    scorer.observe!(item, links);
    const updates = scorer.rescore!(async function* () {}) as Rescore[] | null;
    for (const u of updates ?? []) assert.ok(Number.isFinite(u.score) && u.score > 0);
    const s = scorer.stats();
    maxNodes = Math.max(maxNodes, s.nodes);
    maxEdges = Math.max(maxEdges, s.edges);
  }
  assert.ok(maxNodes <= 500 && maxNodes > 400, `nodes ${maxNodes}`);
  assert.ok(maxEdges <= 2000, `edges ${maxEdges}`);
});

function close(actual: number, expected: number, what: string, eps = 1e-9): void {
  assert.ok(Math.abs(actual - expected) < eps, `${what}: ${actual} != ${expected}`);
}

/**
 * A fingerprint of everything a graph scorer hands out on a small, capped
 * graph (evictions included): every link score and every re-score, to the
 * last bit (JSON keeps a double exactly).
 */
async function fingerprint(make: (ctx: ScorerContext) => GraphScorer): Promise<{ digest: string; rounds: number; updates: number; nodes: number }> {
  const { ctx, judged } = context({ p: 4, maxNodes: 60, maxEdges: 120, maxOutEdges: 6 });
  const scorer = make(ctx);
  const anchors = ['photovoltaic', 'solar energy', 'solar', 'read more', 'recipes', 'photovoltaic panels'];
  const out: unknown[] = [];
  let updates = 0;
  for (let i = 0; i < 60; i++) {
    const links: Array<[string, string]> = [];
    for (let k = 0; k < 7; k++) {
      const t = (i * 7 + k * 13) % 97;
      links.push([`http://t${t % 5}.test/p${t}`, anchors[(i + k) % anchors.length]]);
    }
    const v = await visit(scorer, judged, `http://t${i % 5}.test/p${(i * 31) % 97}`, page(i % 4 === 0 ? 'cooking' : `solar energy ${i}`, links), ((i * 17) % 10) / 10);
    updates += v.updates?.length ?? 0;
    out.push(v.scores, v.updates);
  }
  return { digest: createHash('sha256').update(JSON.stringify(out)).digest('hex').slice(0, 16), rounds: scorer.stats().rounds, updates, nodes: scorer.stats().nodes };
}

// Guards the extraction of the round machinery both graph scorers share
// (src/relevance/graph/periodic.ts): the digests were recorded before it.
test('hits and ipagerank hand out the same scores and re-scores as before the shared round helper', async () => {
  const hits = await fingerprint(createHitsScorer);
  const ipr = await fingerprint(createIPageRankScorer);
  for (const r of [hits, ipr]) assert.ok(r.rounds > 3 && r.updates > 0 && r.nodes > 50, `rounds, re-scores and a full graph: ${JSON.stringify({ hits, ipr })}`);
  assert.equal(hits.digest, '33929a1ca7994afb');
  assert.equal(ipr.digest, '09df83c7790fe588');
});
