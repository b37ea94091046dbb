/**
 * HITS (Kleinberg 1998) by power iteration over an edge list, warm-startable
 * and bounded. Pure: no I/O.
 *
 * One iteration: a(v) = Σ_{u→v} h(u), L2-normalise a; then
 * h(u) = Σ_{u→v} a(v), L2-normalise h. The cold start is all ones (Liu & Li
 * 2017, docs/algorithms.md#hits); a warm start continues from the previous round's vectors, with
 * nodes that have no previous value (NaN, negative, or beyond the previous
 * vector) starting at 1/sqrt(n), what a uniform unit vector holds. Stops
 * after `iterations`, or earlier once the L1 change of both vectors in one
 * iteration is below `tol`, or once no entry moved by more than `tolMax`
 * of its vector's largest entry. The cost is O(iterations x edges),
 * whatever the history.
 *
 * Known HITS property (the "tightly-knit community" effect): when the graph
 * has several weakly joined communities, the principal eigenvector
 * concentrates on the one with the largest eigenvalue and the others decay
 * towards 0 as iterations accumulate.
 */
import type { EdgeList } from './link-graph.ts';
import { VectorPool } from './vector-pool.ts';

export interface HitsVectors {
  authority: Float64Array;
  hub: Float64Array;
}

export interface HitsOptions {
  /** maximum iterations (default 20) */
  iterations?: number;
  /** stop when Σ|Δa| + Σ|Δh| of one iteration is below this (default 1e-6) */
  tol?: number;
  /**
   * also stop when no entry moved by more than this in one iteration,
   * measured against its vector's largest entry (default 0: off). The
   * crawl divides both vectors by their largest entry, so this bounds how
   * far one more iteration would move any node's normalised score.
   */
  tolMax?: number;
  /**
   * vectors to reuse instead of allocating four per call (see VectorPool);
   * with it, `prev`'s arrays go back into the pool: do not read them after
   */
  buffers?: VectorPool;
}

export interface HitsResult extends HitsVectors {
  /** iterations run */
  iterations: number;
  /** L1 change of the last iteration */
  delta: number;
  /** largest change of an entry in the last iteration, relative to its vector's largest entry (the larger of the two vectors') */
  maxChange: number;
}

/**
 * Authority and hub vectors (length `graph.idLimit`, each with L2 norm 1,
 * or all 0 when the graph has no edge), starting from `prev` (null: cold
 * start, all ones). Entries of ids that are not nodes stay 0.
 *
 * Each iteration is two passes over the edges and three over the nodes:
 * the hub step reads the authority step's unnormalised sums (normalising
 * the hub vector removes that scale), and one pass then normalises both,
 * sums the change, and zeroes the previous vectors for the next iteration.
 */
export function hits(graph: EdgeList, prev: HitsVectors | null, opts: HitsOptions = {}): HitsResult {
  const maxIter = opts.iterations ?? 20;
  const tol = opts.tol ?? 1e-6;
  const pool = opts.buffers ?? new VectorPool();
  const n = graph.idLimit;
  const E = graph.edgeCount;
  const { src, dst } = graph;
  const init = n > 0 ? 1 / Math.sqrt(n) : 0;
  let a = start(pool.take(n), prev?.authority, init);
  let h = start(pool.take(n), prev?.hub, init);
  if (prev !== null && opts.buffers !== undefined) pool.give(prev.authority, prev.hub);
  if (!hasMass(h, src, E)) h.fill(1);
  let na = pool.take(n);
  let nh = pool.take(n);
  const tolMax = opts.tolMax ?? 0;
  let iterations = 0;
  let delta = Infinity;
  let maxChange = Infinity;
  while (iterations < maxIter && E > 0) {
    // na and nh are all zeros here
    for (let e = 0; e < E; e++) na[dst[e]] += h[src[e]];
    for (let e = 0; e < E; e++) nh[src[e]] += na[dst[e]];
    const ka = scaleToUnit(na);
    const kh = scaleToUnit(nh);
    delta = 0;
    let da = 0;
    let dh = 0;
    let ma = 0;
    let mh = 0;
    for (let i = 0; i < n; i++) {
      const x = na[i] * ka;
      const y = nh[i] * kh;
      const dx = Math.abs(x - a[i]);
      const dy = Math.abs(y - h[i]);
      delta += dx + dy;
      if (dx > da) da = dx;
      if (dy > dh) dh = dy;
      if (x > ma) ma = x;
      if (y > mh) mh = y;
      na[i] = x;
      nh[i] = y;
      a[i] = 0;
      h[i] = 0;
    }
    [a, na] = [na, a];
    [h, nh] = [nh, h];
    iterations++;
    maxChange = Math.max(ma > 0 ? da / ma : 0, mh > 0 ? dh / mh : 0);
    if (delta < tol || maxChange < tolMax) break;
  }
  if (E === 0) {
    a.fill(0);
    h.fill(0);
    delta = 0;
    maxChange = 0;
  }
  pool.give(na, nh);
  return { authority: a, hub: h, iterations, delta, maxChange };
}

/** `v` holding `prev` with missing, NaN or negative entries set to `init`; all ones when there is no prev. */
function start(v: Float64Array, prev: Float64Array | undefined, init: number): Float64Array {
  if (prev === undefined) return v.fill(1);
  const n = v.length;
  for (let i = 0; i < n; i++) {
    const x = i < prev.length ? prev[i] : NaN;
    v[i] = x >= 0 ? x : init;
  }
  return v;
}

/** Does any edge source carry hub weight? (Otherwise the first authority step would be all zero.) */
function hasMass(h: Float64Array, src: Int32Array, E: number): boolean {
  for (let e = 0; e < E; e++) if (h[src[e]] > 0) return true;
  return false;
}

/** The factor that scales `v` to unit L2 norm (1 for a zero vector, which stays zero). */
function scaleToUnit(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return s === 0 ? 1 : 1 / Math.sqrt(s);
}
