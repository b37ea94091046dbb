/**
 * HITS (Kleinberg 1998) by power iteration over an edge list, warm-startable
 * and bounded. Pure: no I/O.
 *
 * One iteration: a(v) = Σ_{u→v} h(u), L2-normalise a; then
 * h(u) = Σ_{u→v} a(v), L2-normalise h. The cold start is all ones (seed
 * 003); a warm start continues from the previous round's vectors, with
 * nodes that have no previous value (NaN, negative, or beyond the previous
 * vector) starting at 1/sqrt(n), what a uniform unit vector holds. Stops
 * after `iterations`, or earlier once the L1 change of both vectors in one
 * iteration is below `tol`. The cost is O(iterations x edges), whatever
 * the history.
 *
 * Known HITS property (the "tightly-knit community" effect): when the graph
 * has several weakly joined communities, the principal eigenvector
 * concentrates on the one with the largest eigenvalue and the others decay
 * towards 0 as iterations accumulate.
 */
import type { EdgeList } from './link-graph.ts';

export interface HitsVectors {
  authority: Float64Array;
  hub: Float64Array;
}

export interface HitsOptions {
  /** maximum iterations (default 20) */
  iterations?: number;
  /** stop when Σ|Δa| + Σ|Δh| of one iteration is below this (default 1e-6) */
  tol?: number;
}

export interface HitsResult extends HitsVectors {
  /** iterations run */
  iterations: number;
  /** L1 change of the last iteration */
  delta: number;
}

/**
 * Authority and hub vectors (length `graph.idLimit`, each with L2 norm 1,
 * or all 0 when the graph has no edge), starting from `prev` (null: cold
 * start, all ones). Entries of ids that are not nodes stay 0.
 */
export function hits(graph: EdgeList, prev: HitsVectors | null, opts: HitsOptions = {}): HitsResult {
  const maxIter = opts.iterations ?? 20;
  const tol = opts.tol ?? 1e-6;
  const n = graph.idLimit;
  const E = graph.edgeCount;
  const { src, dst } = graph;
  const init = n > 0 ? 1 / Math.sqrt(n) : 0;
  let a = start(prev?.authority, n, init);
  let h = start(prev?.hub, n, init);
  if (!hasMass(h, src, E)) h.fill(1);
  let na: Float64Array = new Float64Array(n);
  let nh: Float64Array = new Float64Array(n);
  let iterations = 0;
  let delta = Infinity;
  while (iterations < maxIter && E > 0) {
    na.fill(0);
    for (let e = 0; e < E; e++) na[dst[e]] += h[src[e]];
    normalise(na);
    nh.fill(0);
    for (let e = 0; e < E; e++) nh[src[e]] += na[dst[e]];
    normalise(nh);
    delta = 0;
    for (let i = 0; i < n; i++) delta += Math.abs(na[i] - a[i]) + Math.abs(nh[i] - h[i]);
    [a, na] = [na, a];
    [h, nh] = [nh, h];
    iterations++;
    if (delta < tol) break;
  }
  if (E === 0) {
    a.fill(0);
    h.fill(0);
    delta = 0;
  }
  return { authority: a, hub: h, iterations, delta };
}

/** A length-n copy of `prev` with missing, NaN or negative entries set to `init`; all `init` when there is no prev. */
function start(prev: Float64Array | undefined, n: number, init: number): Float64Array {
  const v = new Float64Array(n);
  if (prev === undefined) return v.fill(1);
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

/** Scales `v` to unit L2 norm (a zero vector stays zero). */
function normalise(v: Float64Array): void {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  if (s === 0) return;
  const k = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i] *= k;
}
