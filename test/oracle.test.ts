// The simulated crawls of `focuscrawl compare --oracle` and bench/webkb-oracle.ts (RESULTS.md's oracle table).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './helpers/cli.ts';
import { NOT_ARCHIVED, distanceTo, fifo, graphOracle, layerOracle, linkOracle, pagesToShare, readLinkGraph, simulateCrawl, simulateLearning, simulateScored } from '../src/tools/eval/oracle.ts';
import { scorerSimulation } from '../src/tools/eval/sim-scorer.ts';
import type { CrawlItem, FrontierEntry, QueuedLink, Scorer } from '../src/types.ts';

// 0 is the seed; 4 and 6 are targets; 7 is not reachable; 3 leads only to 4
const OUT = [[1, 2], [3, 4], [5], [4], [], [6], [], [0]];
const TARGETS = new Set([4, 6]);
const isTarget = (v: number): boolean => TARGETS.has(v);

test('simulateCrawl: breadth-first fetches the reachable pages first in, first out', () => {
  assert.deepEqual(simulateCrawl(OUT, [0], fifo), [0, 1, 2, 3, 4, 5, 6]);
});

test('linkOracle: a discovered target page comes first, the rest in discovery order', () => {
  assert.deepEqual(simulateCrawl(OUT, [0], linkOracle(isTarget)), [0, 1, 4, 2, 3, 5, 6]);
});

test('graphOracle: the page nearest a target not yet fetched, distances renewed as targets are fetched', () => {
  // after 4 is fetched, 3 leads to no remaining target and waits until the end
  // (with the distances of the start, 3 would come right after 4)
  assert.deepEqual(simulateCrawl(OUT, [0], graphOracle(OUT, TARGETS)), [0, 1, 4, 2, 5, 6, 3]);
});

test('layerOracle: targets first, then pages linking to one, then the rest; layers do not change as targets are fetched', () => {
  // layers: 4 and 6 are 0; 1, 3 and 5 are 1; 0 and 2 are 2 (beyond layer 1: last)
  assert.deepEqual(simulateCrawl(OUT, [0], layerOracle(OUT, TARGETS, 1)), [0, 1, 4, 3, 2, 5, 6]);
  assert.deepEqual(simulateCrawl(OUT, [0], layerOracle(OUT, TARGETS, 0)), simulateCrawl(OUT, [0], linkOracle(isTarget)));
});

test('distanceTo: links to the nearest goal over the reversed graph; Infinity when none', () => {
  const into: number[][] = OUT.map(() => []);
  OUT.forEach((links, from) => links.forEach((t) => into[t]!.push(from)));
  assert.deepEqual([...distanceTo(into, TARGETS)], [2, 1, 2, 1, 0, 1, 0, 3]);
  assert.deepEqual([...distanceTo(into, [])], OUT.map(() => Infinity));
});

test('pagesToShare: pages fetched until a share of the targets is found, null when never', () => {
  const bfs = simulateCrawl(OUT, [0], fifo);
  const oracle = simulateCrawl(OUT, [0], graphOracle(OUT, TARGETS));
  assert.equal(pagesToShare(bfs, isTarget, 2, 0.5), 5);
  assert.equal(pagesToShare(oracle, isTarget, 2, 0.5), 3);
  assert.equal(pagesToShare(bfs, isTarget, 2, 1), 7);
  assert.equal(pagesToShare(oracle, isTarget, 2, 1), 6);
  assert.equal(pagesToShare(bfs, isTarget, 3, 1), null);
});

test('simulateScored: highest score first, raised when found again, first discovered among equals', () => {
  // 0 -> 1 (0.2), 2 (0.5); 2 -> 1 (0.9), 3 (0.5); 1 -> 4 (0.5)
  const out = [[1, 2], [4], [1, 3], [], []];
  const scores: Record<string, number> = { '0:0': 0.2, '0:1': 0.5, '2:0': 0.9, '2:1': 0.5, '1:0': 0.5 };
  const order = simulateScored(out, [0], (from, i) => scores[`${from}:${i}`]!);
  // 1 is raised to 0.9 by page 2; then 3 (0.5, found before 4) before 4 (0.5)
  assert.deepEqual(order, [0, 2, 1, 3, 4]);
  // a pruned link (null) does not queue its target: 3 is only reachable through one
  assert.deepEqual(simulateScored(out, [0], (from, i) => (from === 2 && i === 1 ? null : scores[`${from}:${i}`]!)), [0, 2, 1, 4]);
  // with equal scores it is breadth-first
  assert.deepEqual(simulateScored(OUT, [0], () => 1), simulateCrawl(OUT, [0], fifo));
});

test('readLinkGraph: archived pages and followable links of the fixture web; robots.txt, nofollow and redirects as the crawler sees them', async () => {
  const g = await readLinkGraph([path.join(ROOT, 'fixtures', 'web.warc.gz')], { keepPages: true });
  const inDegree = new Map<number, number>();
  g.out.forEach((targets) => targets.forEach((t) => inDegree.set(t, (inDegree.get(t) ?? 0) + 1)));
  // news.example.cn's robots.txt disallows /archive/: archived, but no link leads there
  const archive = g.urls.filter((u) => u.startsWith('http://news.example.cn/archive/'));
  assert.ok(archive.length > 0);
  for (const u of archive) assert.equal(inDegree.get(g.ids.get(u)!) ?? 0, 0, u);
  // <meta name=robots content=nofollow>: no out-links
  const tag = g.ids.get('http://blog.windandsun.example/tags/solar/')!;
  assert.ok(g.pages![tag]!.links.length > 0);
  assert.deepEqual(g.out[tag], []);
  // a redirect record has one edge, to the page it points to
  const redirects = g.urls.flatMap((_, id) => (g.status[id]! >= 300 && g.status[id]! < 400 ? [id] : []));
  assert.ok(redirects.length > 0);
  for (const r of redirects) assert.ok(g.out[r]!.length <= 1 && g.out[r]!.every((t) => g.status[t]! > 0));
  // every edge leads to an archived record, and keepPages keeps the links behind each edge
  g.out.forEach((targets, from) => {
    for (const t of targets) assert.ok(g.status[t]! > 0, g.urls[t]);
    if (g.pages![from] !== undefined) assert.equal(g.edgeLinks![from]!.length, targets.length);
  });
  assert.equal(g.htmlPages, g.pages!.filter(Boolean).length);
});

test('simulateLearning: re-scores after a page move queued pages up or down; fetched and unknown pages are left alone', async () => {
  // 0 -> 1 (0.5), 2 (0.4), 3 (0.3)
  const out = [[1, 2, 3], [], [], []];
  const score = (_from: number, i: number): number => [0.5, 0.4, 0.3][i]!;
  const seen: [number, number][][] = [];
  const order = await simulateLearning(out, [0], score, (v, queued) => {
    seen.push([...queued()]);
    // after the seed: 3 up, 1 down, and the fetched seed and a page never queued ignored
    return v === 0 ? [[3, 0.9], [1, 0.1], [0, 5], [9, 5]] : null;
  });
  assert.deepEqual(order, [0, 3, 2, 1]);
  assert.deepEqual(seen[0], [[1, 0.5], [2, 0.4], [3, 0.3]], 'queued pages best first, with their scores');
  assert.deepEqual(seen[1], [[2, 0.4], [1, 0.1]]);
  // without re-scores it is simulateScored
  assert.deepEqual(await simulateLearning(OUT, [0], () => 1, () => null), simulateScored(OUT, [0], () => 1));
});

test('scorerSimulation: a learning strategy is told each commit with the links queued from it, and its re-scores reorder the frontier', async () => {
  const g = await readLinkGraph([path.join(ROOT, 'fixtures', 'web.warc.gz')], { keepPages: true });
  const seed = g.ids.get('http://www.webdir.example/')!;
  assert.ok(seed !== undefined);
  const observed: { item: CrawlItem; links: readonly QueuedLink[] }[] = [];
  let promoted: string | null = null;
  const scorer: Scorer = {
    name: 'test',
    pageRelevance: () => 0.5,
    linkScore: (link) => (link.anchor === '' ? 0.1 : 0.2),
    observe: (item, links) => void observed.push({ item, links }),
    async rescore(frontier: () => AsyncIterable<FrontierEntry>) {
      if (promoted !== null) return null;
      // after the seed, the last queued page goes to the front
      let last: FrontierEntry | undefined;
      for await (const e of frontier()) last = e;
      if (last === undefined) return null;
      promoted = last.url;
      return [{ url: last.url, score: 10 }];
    },
  };
  const { score, learn } = scorerSimulation(g, scorer, [seed]);
  assert.ok(learn !== null);
  const order = await simulateLearning(g.out, [seed], score, learn);
  assert.deepEqual(new Set(order), new Set(simulateCrawl(g.out, [seed], fifo)), 'the same pages as breadth-first');
  assert.equal(g.urls[order[1]!], promoted, 'the re-scored page is fetched next');
  assert.deepEqual(observed.map((o) => o.item.entry.url), order.map((v) => g.urls[v]));
  observed.forEach(({ item, links }, k) => {
    const v = order[k]!;
    assert.equal(item.page, g.pages![v]);
    // one queued link per out-edge, canonical, with the text of the best link behind it
    assert.deepEqual(links.map((l) => l.url), g.out[v]!.filter((_, i) => g.edgeLinks![v]![i]!.length > 0).map((t) => g.urls[t]));
    for (const l of links) {
      assert.equal(l.parent, item.entry.url);
      assert.equal(l.score, l.anchor === '' ? 0.1 : 0.2);
    }
  });
  // a page's entry keeps the discovering link's text and depth
  const second = observed[2]!.item.entry;
  assert.ok(second.depth >= 1 && second.parent !== null);
  // a strategy that does not learn gets no learner
  assert.equal(scorerSimulation(g, { name: 'plain', pageRelevance: () => 0, linkScore: () => 0 }, [seed]).learn, null);
});

test('simulateScored / simulateLearning inFlight: pages taken ahead of completion complete first taken, first done', async () => {
  // 0 -> 1 (0.9), 2 (0.8), 3 (0.1); 1 -> 4 (0.95)
  const out = [[1, 2, 3], [4], [], [], []];
  const scores: Record<string, number> = { '0:0': 0.9, '0:1': 0.8, '0:2': 0.1, '1:0': 0.95 };
  const score = (from: number, i: number): number => scores[`${from}:${i}`]!;
  assert.deepEqual(simulateScored(out, [0], score), [0, 1, 4, 2, 3]);
  // with two in flight, 2 was taken with 1, before 1's link to 4 was known
  assert.deepEqual(simulateScored(out, [0], score, { inFlight: 2 }), [0, 1, 2, 4, 3]);
  assert.deepEqual(await simulateLearning(out, [0], score, () => null, { inFlight: 2 }), [0, 1, 2, 4, 3]);
  assert.deepEqual(simulateScored(out, [0], score, { inFlight: 100 }), [0, 1, 2, 3, 4]);
});

test('readLinkGraph missing: links to URLs the archive lacks become nodes of status NOT_ARCHIVED without links; the archived part is unchanged', async () => {
  const warc = path.join(ROOT, 'fixtures', 'web.warc.gz');
  const plain = await readLinkGraph([warc]);
  const withMissing = await readLinkGraph([warc], { keepPages: true, missing: true });
  const missing = withMissing.urls.filter((_, v) => withMissing.status[v] === NOT_ARCHIVED);
  assert.ok(missing.length > 0, 'the fixture web links to pages it does not hold');
  for (const u of missing) {
    assert.equal(plain.ids.get(u), undefined, u);
    assert.deepEqual(withMissing.out[withMissing.ids.get(u)!], []);
  }
  // every archived page keeps its archived edges, in order, and gains only edges to missing pages
  plain.urls.forEach((u, v) => {
    const w = withMissing.ids.get(u)!;
    assert.equal(withMissing.status[w], plain.status[v]);
    const archivedTargets = withMissing.out[w]!.filter((t) => withMissing.status[t] !== NOT_ARCHIVED).map((t) => withMissing.urls[t]);
    assert.deepEqual(archivedTargets, plain.out[v]!.map((t) => plain.urls[t]), u);
    assert.equal(withMissing.edgeLinks![w]?.length ?? 0, withMissing.out[w]!.length);
  });
  // robots.txt still holds: news.example.cn/archive/ is disallowed, archived or not
  assert.ok(!withMissing.urls.some((u, v) => u.startsWith('http://news.example.cn/archive/') && withMissing.status[v] === NOT_ARCHIVED));
});
