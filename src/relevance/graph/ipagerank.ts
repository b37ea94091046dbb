/**
 * IPageRank (Li, Zhao & Yu, reconstructed: docs/algorithms.md#ipagerank): PageRank whose
 * random surfer follows each link of a page with probability proportional
 * to the link's relevance weight RW (the edge weight):
 *
 *   IPR(A) = (1 − d) + d · Σ_{T→A} IPR(T) · RW(T→A) / Σ_{l ∈ links(T)} RW(l)
 *
 * Power (Jacobi) iteration over an edge list, warm-startable and bounded.
 * Pure: no I/O. A page whose links all weigh 0 passes no rank (the
 * formula's 0/0: the surfer, who follows links in proportion to their
 * relevance, has no relevant link to follow and jumps away); with
 * `evenSplit` it spreads its rank evenly over them, as plain PageRank. Nodes
 * without out-links (the unfetched frontier) keep their rank: the
 * unnormalised form of the formula lets it leak, so values are not a
 * probability distribution (a node with no in-link is 1 − d; a node in a
 * closed cycle tends to 1). Nodes with no previous value (NaN, negative or
 * beyond `prev`) start at 1 − d. The cost is O(iterations x edges).
 */
import type { EdgeList } from './link-graph.ts';
import { VectorPool } from './vector-pool.ts';

/** Damping factor of SkyReach's IPageRank (docs/algorithms.md#ipagerank). */
export const DAMPING = 0.85;

export interface IPageRankOptions {
  /** damping d in (0, 1) (default 0.85) */
  damping?: number;
  /** maximum iterations (default 20) */
  iterations?: number;
  /** stop when Σ|Δ| of one iteration is below this (default 1e-6) */
  tol?: number;
  /** a page whose links all weigh 0 passes its rank evenly over them instead of none (default false) */
  evenSplit?: boolean;
  /**
   * vectors to reuse instead of allocating five per call; with it, `prev`
   * goes back into the pool: do not read it after
   */
  buffers?: VectorPool;
}

export interface IPageRankResult {
  /** IPR per id (length graph.idLimit); ids that are not nodes hold 1 − d */
  rank: Float64Array;
  iterations: number;
  /** L1 change of the last iteration */
  delta: number;
}

/** IPageRank of every node of `graph` (edge weights = RW), from `prev` (null: cold start at 1 − d). */
export function ipagerank(graph: EdgeList, prev: Float64Array | null, opts: IPageRankOptions = {}): IPageRankResult {
  const d = opts.damping ?? DAMPING;
  if (!(d > 0 && d < 1)) throw new RangeError(`damping must be in (0, 1), got ${d}`);
  const maxIter = opts.iterations ?? 20;
  const tol = opts.tol ?? 1e-6;
  const n = graph.idLimit;
  const E = graph.edgeCount;
  const { src, dst, weight } = graph;
  const base = 1 - d;

  const pool = opts.buffers ?? new VectorPool();
  // per-edge share of its source's rank: RW / Σ RW (Σ RW = 0: none, or an even split)
  const even = opts.evenSplit === true;
  const outWeight = pool.take(n);
  const outCount = pool.take(n);
  for (let e = 0; e < E; e++) {
    outWeight[src[e]] += Math.max(0, weight[e]);
    outCount[src[e]]++;
  }
  const share = pool.take(E);
  for (let e = 0; e < E; e++) {
    const s = src[e];
    share[e] = outWeight[s] > 0 ? (d * Math.max(0, weight[e])) / outWeight[s] : even ? d / outCount[s] : 0;
  }

  let x = pool.take(n);
  for (let i = 0; i < n; i++) {
    const v = prev !== null && i < prev.length ? prev[i] : NaN;
    x[i] = v >= 0 ? v : base;
  }
  if (prev !== null && opts.buffers !== undefined) pool.give(prev);
  let next = pool.take(n);
  let iterations = 0;
  let delta = 0;
  while (iterations < maxIter) {
    next.fill(base);
    for (let e = 0; e < E; e++) next[dst[e]] += x[src[e]] * share[e];
    delta = 0;
    for (let i = 0; i < n; i++) delta += Math.abs(next[i] - x[i]);
    [x, next] = [next, x];
    iterations++;
    if (delta < tol) break;
  }
  pool.give(outWeight, outCount, share, next);
  return { rank: x, iterations, delta };
}
