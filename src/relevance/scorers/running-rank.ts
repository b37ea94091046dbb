/**
 * The running rank of a score in (0, 1) among the scores seen so far in a
 * crawl: the share of them that are lower, ties (the same bin) counting
 * half. Used by context-graph's `combine` rules (issue 22) to put two
 * scores on one scale: nb-link's t, a saturating Naive Bayes posterior, and
 * the layered classifier's discounted value, in [γ³, 1].
 *
 * A fixed histogram of BINS bins over logit(x) clamped to [−LOGIT_MAX,
 * LOGIT_MAX] (so the resolution is where NB posteriors pile up, near 0 and
 * 1), kept as a Fenwick tree: O(log BINS) an add or a rank, 16 KiB, no
 * growth, deterministic. Not the tdigest package: its compression picks
 * centroids with Math.random, which would make crawls unrepeatable.
 */

/** Bins of the histogram. */
export const RANK_BINS = 2048;
/** |logit| at which scores are clamped (e^−40 ≈ 4e−18: below it NB posteriors are all "no") */
export const LOGIT_MAX = 40;

export class RunningRank {
  /** Fenwick tree of bin counts, 1-based */
  private readonly tree = new Float64Array(RANK_BINS + 1);
  private readonly counts = new Float64Array(RANK_BINS);
  private total = 0;

  /** The bin of x: logit(x) on a uniform grid over [−LOGIT_MAX, LOGIT_MAX]; NaN counts as 0. */
  static binOf(x: number): number {
    const p = Number.isNaN(x) ? 0 : Math.min(1, Math.max(0, x));
    const l = Math.min(LOGIT_MAX, Math.max(-LOGIT_MAX, Math.log(p) - Math.log1p(-p)));
    return Math.min(RANK_BINS - 1, Math.floor(((l + LOGIT_MAX) / (2 * LOGIT_MAX)) * RANK_BINS));
  }

  /** Scores seen. */
  get size(): number {
    return this.total;
  }

  add(x: number): void {
    const b = RunningRank.binOf(x);
    this.counts[b]! += 1;
    this.total += 1;
    for (let i = b + 1; i <= RANK_BINS; i += i & -i) this.tree[i]! += 1;
  }

  /** The share of the scores seen below x's bin plus half the share in it; ½ before any. */
  rank(x: number): number {
    if (this.total === 0) return 0.5;
    const b = RunningRank.binOf(x);
    let below = 0;
    for (let i = b; i > 0; i -= i & -i) below += this.tree[i]!;
    return (below + this.counts[b]! / 2) / this.total;
  }

  /** add(x), then its rank among the scores seen with it. */
  addAndRank(x: number): number {
    this.add(x);
    return this.rank(x);
  }
}
