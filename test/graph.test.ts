// The pure link-graph layer: LinkGraph (ids, caps, eviction), HITS and
// IPageRank against closed-form values, largestK, UrlFilter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlGraph, LinkGraph, UrlFilter, largestK, smallestK } from '../src/relevance/graph/link-graph.ts';
import { hits } from '../src/relevance/graph/hits.ts';
import { VectorPool } from '../src/relevance/graph/vector-pool.ts';
import { ipagerank } from '../src/relevance/graph/ipagerank.ts';

/** A graph from "a>b" edge specs (weight after ':'), nodes in order of appearance. */
function build(specs: string[], caps = { maxNodes: 100, maxEdges: 1000 }): LinkGraph {
  const g = new LinkGraph(caps);
  for (const spec of specs) {
    const [edge, w] = spec.split(':');
    const [s, d] = edge.split('>');
    g.addEdge(g.add(s), g.add(d), w === undefined ? 1 : Number(w));
  }
  return g;
}

/** `edges` random "nA>nB" edge specs over `nodes` nodes, from a small LCG seeded with `seed`. */
function randomSpecs(edges: number, nodes: number, seed: number): string[] {
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
  const specs: string[] = [];
  for (let i = 0; i < edges; i++) specs.push(`n${rnd(nodes)}>n${rnd(nodes)}`);
  return specs;
}

const close = (actual: number, expected: number, what: string, eps = 1e-6): void =>
  assert.ok(Math.abs(actual - expected) < eps, `${what}: ${actual} != ${expected}`);

const l2 = (v: Float64Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

test('LinkGraph maps URLs to ids, aliases, degrees', () => {
  const g = build(['a>b', 'a>c', 'b>c']);
  assert.equal(g.size, 3);
  assert.equal(g.edgeCount, 3);
  const [a, b, c] = ['a', 'b', 'c'].map((u) => g.id(u)!);
  assert.deepEqual([a, b, c], [0, 1, 2]);
  assert.equal(g.url(c), 'c');
  assert.equal(g.add('b'), b, 'add is idempotent');
  assert.equal(g.outDegree(a), 2);
  assert.equal(g.inDegree(c), 2);
  g.alias('c2', c);
  assert.equal(g.id('c2'), c);
  assert.equal(g.size, 3, 'an alias is not a node');
});

test('LinkGraph.reserve evicts the lowest keys with their edges and reuses ids; add without room throws', () => {
  const g = build(['a>b', 'a>c', 'b>c', 'c>d'], { maxNodes: 4, maxEdges: 100 });
  assert.throws(() => g.add('e'), RangeError);
  const key: Record<string, number> = { a: 5, b: 1, c: 9, d: 2 };
  const evicted = g.reserve(1, 0, (id) => key[g.url(id)!]);
  // room for 1 more, and down to 90% of 4 = 3 nodes: b goes (lowest key)
  assert.deepEqual([...evicted], [1]);
  assert.equal(g.id('b'), undefined);
  assert.equal(g.size, 3);
  assert.equal(g.edgeCount, 2, 'a>b and b>c went with b');
  assert.equal(g.outDegree(g.id('a')!), 1);
  assert.equal(g.inDegree(g.id('c')!), 1);
  assert.equal(g.add('e'), 1, 'the freed id is reused');
  assert.equal(g.reserve(0, 0, () => 0).length, 0, 'no eviction when there is room');
});

test('LinkGraph.reserve evicts for edge room too, and caps hold under heavy insertion', () => {
  const g = new LinkGraph({ maxNodes: 50, maxEdges: 120 });
  let worstNodes = 0;
  let worstEdges = 0;
  let next = 0;
  for (let page = 0; page < 2000; page++) {
    g.reserve(11, 10, (id) => id); // oldest-first by id is as good a key as any here
    const src = g.add(`p${page}`);
    for (let k = 0; k < 10; k++) g.addEdge(src, g.add(`t${next++ % 300}`));
    worstNodes = Math.max(worstNodes, g.size);
    worstEdges = Math.max(worstEdges, g.edgeCount);
  }
  assert.ok(worstNodes <= 50 && worstEdges <= 120, `${worstNodes} nodes, ${worstEdges} edges`);
  // every edge joins live nodes and the degree counts agree with the edge list
  const out = new Map<number, number>();
  for (let e = 0; e < g.edgeCount; e++) {
    assert.ok(g.has(g.src[e]) && g.has(g.dst[e]));
    out.set(g.src[e], (out.get(g.src[e]) ?? 0) + 1);
  }
  for (const [id, n] of out) assert.equal(g.outDegree(id), n);
});

test('HITS on a star: the centre holds all authority, the leaves share the hub score', () => {
  const g = build(['l1>c', 'l2>c', 'l3>c', 'l4>c']);
  const r = hits(g, null);
  const c = g.id('c')!;
  close(r.authority[c], 1, 'authority of the centre');
  for (const leaf of ['l1', 'l2', 'l3', 'l4']) {
    close(r.authority[g.id(leaf)!], 0, `authority of ${leaf}`);
    close(r.hub[g.id(leaf)!], 0.5, `hub of ${leaf}`);
  }
  close(r.hub[c], 0, 'hub of the centre');
});

test('HITS matches the principal eigenvectors of AᵀA and AAᵀ, L2-normalised', () => {
  // h1 -> a1, a2; h2 -> a1. AᵀA = [[2,1],[1,1]]: λ = (3+√5)/2, authority ∝ (1, λ-2)
  const g = build(['h1>a1', 'h1>a2', 'h2>a1']);
  const r = hits(g, null, { iterations: 200, tol: 1e-12 });
  const lambda = (3 + Math.sqrt(5)) / 2;
  const norm = Math.hypot(1, lambda - 2);
  close(r.authority[g.id('a1')!], 1 / norm, 'a1');
  close(r.authority[g.id('a2')!], (lambda - 2) / norm, 'a2');
  // hub = A·a, normalised: h1 ∝ a1 + a2, h2 ∝ a1
  const h1 = (1 + lambda - 2) / norm;
  const h2 = 1 / norm;
  const hn = Math.hypot(h1, h2);
  close(r.hub[g.id('h1')!], h1 / hn, 'h1');
  close(r.hub[g.id('h2')!], h2 / hn, 'h2');
  close(l2(r.authority), 1, '|a|');
  close(l2(r.hub), 1, '|h|');
});

test('HITS: a warm start reaches the cold-start result, from a converged start at once', () => {
  const g = build(randomSpecs(300, 60, 7));
  const cold = hits(g, null, { iterations: 500, tol: 1e-12 });
  // a perturbed previous vector, with some nodes unknown (NaN: new since the last round)
  const authority = cold.authority.map((x, i) => (i % 7 === 0 ? NaN : x * (1 + 0.3 * Math.sin(i))));
  const hub = cold.hub.map((x, i) => (i % 5 === 0 ? NaN : x * (1 + 0.3 * Math.cos(i))));
  const warm = hits(g, { authority, hub }, { iterations: 500, tol: 1e-12 });
  for (let i = 0; i < g.idLimit; i++) {
    close(warm.authority[i], cold.authority[i], `authority ${i}`, 1e-6);
    close(warm.hub[i], cold.hub[i], `hub ${i}`, 1e-6);
  }
  const again = hits(g, cold, { iterations: 500, tol: 1e-9 });
  assert.equal(again.iterations, 1, 'the converged vectors are a fixed point');
  assert.ok(hits(g, null, { iterations: 3 }).iterations === 3, 'the iteration cap holds');
});

test('HITS on a graph without edges gives zeros', () => {
  const g = new LinkGraph({ maxNodes: 10, maxEdges: 10 });
  g.add('x');
  const r = hits(g, null);
  assert.deepEqual([...r.authority, ...r.hub], [0, 0]);
});

test('IPageRank matches a hand computation on a small weighted graph', () => {
  // A -> B (RW 1), A -> C (RW 3), B -> A, C -> A; d = 0.85
  //   xA = .15 + .85 (xB + xC), xB = .15 + .85·xA/4, xC = .15 + .85·3xA/4
  //   => xA = 0.405 / 0.2775
  const g = build(['A>B:1', 'A>C:3', 'B>A:1', 'C>A:1']);
  const r = ipagerank(g, null, { iterations: 500, tol: 1e-13 });
  const xA = 0.405 / 0.2775;
  close(r.rank[g.id('A')!], xA, 'A');
  close(r.rank[g.id('B')!], 0.15 + (0.85 * xA) / 4, 'B');
  close(r.rank[g.id('C')!], 0.15 + (0.85 * 3 * xA) / 4, 'C');
  close(r.rank.reduce((s, x) => s + x, 0), 3, 'a closed graph keeps n');
});

test('IPageRank: dangling targets, zero weights pass nothing (or split evenly with evenSplit), warm start', () => {
  const chain = build(['A>B']);
  const r = ipagerank(chain, null);
  close(r.rank[0], 0.15, 'no in-link: 1 - d');
  close(r.rank[1], 0.15 + 0.85 * 0.15, 'one in-link');
  // a page whose links all weigh 0 passes nothing; with evenSplit it behaves as plain PageRank
  const zero = build(['A>B:0', 'A>C:0']);
  const none = ipagerank(zero, null);
  close(none.rank[1], 0.15, 'B: no share of A');
  close(none.rank[2], 0.15, 'C: no share of A');
  const z = ipagerank(zero, null, { evenSplit: true });
  close(z.rank[1], 0.15 + 0.85 * 0.15 * 0.5, 'B');
  close(z.rank[2], z.rank[1], 'C');
  // only relevance-weighted links receive rank when some weigh more than 0
  const mixed = ipagerank(build(['A>B:0', 'A>C:0.5']), null);
  close(mixed.rank[1], 0.15, 'B gets nothing');
  close(mixed.rank[2], 0.15 + 0.85 * 0.15, 'C gets all');
  // warm start from the converged vector: one iteration
  const g = build(['A>B:1', 'A>C:3', 'B>A:1', 'C>A:1']);
  const cold = ipagerank(g, null, { iterations: 500, tol: 1e-12 });
  assert.equal(ipagerank(g, cold.rank, { tol: 1e-9 }).iterations, 1);
  assert.throws(() => ipagerank(g, null, { damping: 1 }), RangeError);
});

test('largestK returns the indices of the k largest values', () => {
  let seed = 3;
  const rnd = (): number => ((seed = (seed * 1664525 + 1013904223) >>> 0) % 50) / 7;
  for (const [n, k] of [[0, 3], [5, 0], [5, 5], [40, 7], [1000, 100], [1000, 999]]) {
    const v = Float64Array.from({ length: n + 5 }, rnd); // values beyond n are ignored
    const got = [...largestK(v, n, k)].map((i) => v[i]).sort((a, b) => b - a);
    const want = [...v.slice(0, n)].sort((a, b) => b - a).slice(0, Math.min(n, k));
    assert.deepEqual(got, want, `n=${n} k=${k}`);
    assert.equal(new Set(largestK(v, n, k)).size, Math.min(n, k), 'distinct indices');
  }
});

test('smallestK returns the indices of the k smallest values, the lower indices among equal values at the cut', () => {
  let seed = 5;
  const rnd = (): number => ((seed = (seed * 1664525 + 1013904223) >>> 0) % 50) / 7;
  for (const [n, k] of [[0, 3], [5, 0], [5, 5], [40, 7], [1000, 100], [1000, 999]]) {
    const v = Float64Array.from({ length: n + 5 }, rnd); // values beyond n are ignored
    const got = [...smallestK(v, n, k)];
    // what a full sort by (value, index) takes first
    const want = Array.from({ length: n }, (_, i) => i).sort((a, b) => v[a] - v[b] || a - b).slice(0, Math.min(n, k));
    assert.deepEqual(got.sort((a, b) => a - b), want.sort((a, b) => a - b), `n=${n} k=${k}`);
  }
  assert.deepEqual([...smallestK(Float64Array.of(-Infinity, 2, -Infinity, 1), 4, 3)].sort(), [0, 2, 3]);
});

test('LinkGraph.reserve evicts what a full sort by (key, id) would, also when the edge cap asks for more victims than the node cap', () => {
  let seed = 11;
  const rnd = (m: number): number => (seed = (seed * 1664525 + 1013904223) >>> 0) % m;
  for (let trial = 0; trial < 20; trial++) {
    const g = new LinkGraph({ maxNodes: 300, maxEdges: 600 });
    const key = new Map<number, number>();
    const keyOf = (id: number) => key.get(id)!;
    const snapshot = () => Array.from({ length: g.idLimit }, (_, id) => id).filter((id) => g.has(id));
    for (let step = 0; step < 400; step++) {
      const before = snapshot();
      const outDeg = before.map((id) => g.outDegree(id) + g.inDegree(id));
      const edges = g.edgeCount;
      const got = [...g.reserve(3, 6, keyOf)];
      if (got.length > 0) {
        // the reference: victims in (key, id) order until both targets hold (edge counts over-subtract shared edges)
        const order = [...before].sort((a, b) => keyOf(a) - keyOf(b) || a - b);
        const want: number[] = [];
        let nodesLeft = before.length;
        let edgesLeft = edges;
        const nodeTarget = Math.min(300 - 3, 270);
        const edgeTarget = Math.min(600 - 6, 540);
        for (const id of order) {
          if (!(nodesLeft > nodeTarget || edgesLeft > edgeTarget)) break;
          want.push(id);
          nodesLeft--;
          edgesLeft -= outDeg[before.indexOf(id)];
        }
        assert.deepEqual(got.slice(0, want.length), want, `trial ${trial} step ${step}`);
      }
      const ids = Array.from({ length: 3 }, () => g.add(`http://x.test/${trial}/${step}/${rnd(1e9)}`));
      for (const id of ids) key.set(id, rnd(7)); // few distinct keys: many ties
      for (let e = 0; e < 6; e++) g.addEdge(ids[rnd(3)], snapshot()[rnd(g.size)], 1);
    }
  }
});

test('UrlFilter has no false negatives and few false positives', () => {
  const f = new UrlFilter(16, 3);
  for (let i = 0; i < 2000; i++) f.add(`http://h${i % 37}.test/p/${i}`);
  for (let i = 0; i < 2000; i++) assert.ok(f.has(`http://h${i % 37}.test/p/${i}`));
  let fp = 0;
  for (let i = 0; i < 2000; i++) if (f.has(`http://other.test/q/${i}`)) fp++;
  assert.ok(fp < 20, `${fp} false positives of 2000`);
});

test('CrawlGraph: fetched pages are never re-scored; changes are capped to the largest', () => {
  const crawl = new CrawlGraph({ maxNodes: 20, maxEdges: 50 }, () => {});
  crawl.markFetched(['http://x.test/old']);
  const page = crawl.pageNode(['http://x.test/p', 'http://x.test/p2']);
  assert.equal(crawl.graph.id('http://x.test/p2'), page, 'final URL aliased');
  const ids = ['a', 'b', 'c', 'old'].map((s) => crawl.target(`http://x.test/${s}`));
  for (const id of ids) crawl.queued(id, 0.1);
  crawl.queued(ids[0], 0.05); // a lower score does not lower the frontier's priority
  assert.equal(crawl.sent[ids[0]], 0.1);
  assert.equal(crawl.fetched[ids[3]], 1, 'known as fetched through the filter');
  const next: Record<number, number> = { [ids[0]]: 0.1, [ids[1]]: 0.5, [ids[2]]: 0.9, [ids[3]]: 5 };
  const changes = crawl.changes((id) => next[id], 1e-3, 1);
  assert.deepEqual(changes, [{ url: 'http://x.test/c', score: 0.9 }]);
  assert.deepEqual(crawl.changes((id) => next[id], 1e-3, 10), [{ url: 'http://x.test/b', score: 0.5 }]);
  assert.deepEqual(crawl.changes((id) => next[id], 1e-3, 10), []);
});

test('CrawlGraph.changes with a floor: a move between two priorities below it waits, and stays a candidate until the floor comes down', () => {
  const crawl = new CrawlGraph({ maxNodes: 20, maxEdges: 50 }, () => {});
  const [a, b, c] = ['a', 'b', 'c'].map((s) => crawl.target(`http://x.test/${s}`));
  crawl.queued(a, 0.1);
  crawl.queued(b, 0.1);
  crawl.queued(c, 0.6);
  const next: Record<number, number> = { [a]: 0.2, [b]: 0.9, [c]: 0.1 };
  const urls = (changes: { url: string }[]) => changes.map((x) => x.url).sort();
  // b rises above the floor, c falls from above it; a moves below it
  assert.deepEqual(urls(crawl.changes((id) => next[id], 1e-3, 10, 0.5)), ['http://x.test/b', 'http://x.test/c']);
  assert.equal(crawl.sent[a], 0.1, 'a keeps its old priority');
  assert.deepEqual(crawl.changes((id) => next[id], 1e-3, 10, 0.5), []);
  assert.deepEqual(crawl.changes((id) => next[id], 1e-3, 10, 0.15), [{ url: 'http://x.test/a', score: 0.2 }]);
});

test('HITS with reused buffers: the same vectors as without, round after round, and no new arrays once the size is stable', () => {
  const g = build(randomSpecs(400, 80, 11));
  const buffers = new VectorPool();
  let plain = hits(g, null, { iterations: 3 });
  let pooled = hits(g, null, { iterations: 3, buffers });
  const seen = new Set<Float64Array>([pooled.authority, pooled.hub]);
  for (let round = 0; round < 5; round++) {
    plain = hits(g, plain, { iterations: 3 });
    pooled = hits(g, pooled, { iterations: 3, buffers });
    assert.deepEqual([...pooled.authority], [...plain.authority], `authority, round ${round}`);
    assert.deepEqual([...pooled.hub], [...plain.hub], `hub, round ${round}`);
    seen.add(pooled.authority).add(pooled.hub);
  }
  assert.ok(seen.size <= 4, `${seen.size} distinct arrays over 6 rounds`);
});

test('IPageRank with reused buffers: the same ranks as without, round after round, and no new arrays once the size is stable', () => {
  const g = build(randomSpecs(400, 80, 12));
  const buffers = new VectorPool();
  let plain = ipagerank(g, null, { iterations: 3 });
  let pooled = ipagerank(g, null, { iterations: 3, buffers });
  const seen = new Set<Float64Array>([pooled.rank]);
  for (let round = 0; round < 5; round++) {
    plain = ipagerank(g, plain.rank, { iterations: 3 });
    pooled = ipagerank(g, pooled.rank, { iterations: 3, buffers });
    assert.deepEqual([...pooled.rank], [...plain.rank], `round ${round}`);
    seen.add(pooled.rank);
  }
  assert.ok(seen.size <= 2, `${seen.size} distinct rank arrays over 6 rounds`);
  assert.ok(buffers.size <= 8);
});

test('VectorPool: hands back a zeroed vector of the asked length, keeps the most recent ones', () => {
  const pool = new VectorPool(2);
  const a = pool.take(3);
  a.fill(7);
  pool.give(a, a);
  assert.equal(pool.size, 1, 'a vector is held once');
  const b = pool.take(3);
  assert.equal(b, a);
  assert.deepEqual([...b], [0, 0, 0]);
  assert.notEqual(pool.take(4), a, 'no vector of that length: a new one');
  const [x, y, z] = [new Float64Array(1), new Float64Array(2), new Float64Array(5)];
  pool.give(x, y, z);
  assert.equal(pool.size, 2);
  assert.notEqual(pool.take(1), x, 'the oldest was dropped');
  assert.equal(pool.take(5), z);
});

test('HITS tolMax: a warm round stops once no entry moves by more than tolMax of its vector\'s largest, and says how far the last step moved', () => {
  const g = build(randomSpecs(500, 90, 5));
  const start = hits(g, null, { iterations: 3 });
  const full = hits(g, start, { iterations: 200, tol: 0 });
  assert.equal(full.iterations, 200);
  const bounded = hits(g, start, { iterations: 200, tol: 0, tolMax: 1e-3 });
  assert.ok(bounded.iterations < 200 && bounded.maxChange < 1e-3, `${bounded.iterations} iterations, last change ${bounded.maxChange}`);
  // one iteration fewer had not reached it
  const before = hits(g, start, { iterations: bounded.iterations - 1, tol: 0 });
  assert.ok(before.maxChange >= 1e-3, `${before.maxChange}`);
});
