/**
 * Bernoulli Naive Bayes over binary features (Han et al. 2010 eq. 2, docs/algorithms.md#nb-link), two classes.
 *
 *   P(F_j | c) = (Count(F_j, c) + 1) / (n_c + 2)      Laplace smoothing
 *   P(+)       = (n₊ + 1) / (n₊ + n₋ + 2)              (also Laplace, so an
 *                                                        empty class is not log 0)
 * where Count(F_j, c) is the number of class-c training examples that have
 * F_j and n_c the number of class-c examples. Every vocabulary feature
 * counts, present or absent:
 *
 *   log-odds(x) = ln P(+)/P(−) + Σ_j [x_j ln(p₊ⱼ/p₋ⱼ) + (1 − x_j) ln((1−p₊ⱼ)/(1−p₋ⱼ))]
 *               = base + Σ_{j present} w_j,
 *   base = ln P(+)/P(−) + Σ_j ln((1−p₊ⱼ)/(1−p₋ⱼ)),
 *   w_j  = ln(p₊ⱼ/p₋ⱼ) − ln((1−p₊ⱼ)/(1−p₋ⱼ)),
 *
 * so the absent-feature sum is precomputed and a prediction costs
 * O(present features). Features outside the vocabulary are ignored.
 * P(+|x) = σ(log-odds), computed without overflow or underflow.
 */
import { informationGain } from './metrics.ts';

/** The serialised model: the class sizes and, per kept feature, [count in +, count in −]. */
export interface BernoulliNBJSON {
  type: 'bernoulli-nb';
  nPos: number;
  nNeg: number;
  features: Record<string, [number, number]>;
  /** class-balanced likelihoods (see BernoulliNBOptions.balanced); absent: false */
  balanced?: boolean;
}

/** Options of BernoulliNB.train. */
export interface BernoulliNBOptions {
  /** drop features seen in fewer training examples (both classes together); default 2 */
  minCount?: number;
  /** keep at most this many features, the most informative by information gain; default 20000 */
  maxFeatures?: number;
  /**
   * Class-balanced likelihoods (default false): each class's counts are
   * scaled to half the examples before Laplace smoothing,
   *   P(F_j | c) = (Count(F_j, c)·N/(2n_c) + 1) / (N/2 + 2),  N = n₊ + n₋,
   * as if trained on a balanced set (Han et al. trained on one, docs/algorithms.md#nb-link). With
   * unbalanced classes plain Laplace smoothing gives the small class the
   * larger floor, so every rare feature (even one seen only in negatives)
   * counts as evidence for the small class, and a link with many rare
   * words outranks one with a few telling words. The prior P(+) stays the
   * class frequency.
   */
  balanced?: boolean;
}

/** Logistic function, stable for any finite z. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}

/** A trained two-class Bernoulli Naive Bayes model (immutable). */
export class BernoulliNB {
  /** positive training examples */
  readonly nPos: number;
  /** negative training examples */
  readonly nNeg: number;
  readonly #counts: ReadonlyMap<string, readonly [number, number]>;
  /** class-balanced likelihoods */
  readonly balanced: boolean;
  readonly #weights = new Map<string, number>();
  readonly #base: number;

  private constructor(nPos: number, nNeg: number, counts: ReadonlyMap<string, readonly [number, number]>, balanced = false) {
    this.nPos = nPos;
    this.nNeg = nNeg;
    this.#counts = counts;
    this.balanced = balanced;
    let base = Math.log((nPos + 1) / (nNeg + 1)); // ln P(+)/P(−); the common denominator cancels
    const half = (nPos + nNeg) / 2;
    const scalePos = balanced && nPos > 0 ? half / nPos : 1;
    const scaleNeg = balanced && nNeg > 0 ? half / nNeg : 1;
    const sizePos = balanced ? half : nPos;
    const sizeNeg = balanced ? half : nNeg;
    for (const [f, [cPos, cNeg]] of counts) {
      const pPos = (cPos * scalePos + 1) / (sizePos + 2);
      const pNeg = (cNeg * scaleNeg + 1) / (sizeNeg + 2);
      const absent = Math.log((1 - pPos) / (1 - pNeg));
      base += absent;
      this.#weights.set(f, Math.log(pPos / pNeg) - absent);
    }
    this.#base = base;
  }

  /**
   * Trains on `examples` (each: its features, repeats counted once, and its
   * label 0/1). Features in fewer than `minCount` examples are dropped; of
   * the rest the `maxFeatures` with the highest information gain are kept
   * (ties: more examples first, then the feature name). Throws TypeError
   * for a label other than 0/1 or bad options.
   */
  static train(
    examples: Iterable<{ features: readonly string[]; label: 0 | 1 }>,
    opts: BernoulliNBOptions = {},
  ): BernoulliNB {
    const minCount = opts.minCount ?? 2;
    const maxFeatures = opts.maxFeatures ?? 20_000;
    if (!Number.isInteger(minCount) || minCount < 0) throw new TypeError(`minCount must be a non-negative integer, got ${minCount}`);
    if (!Number.isInteger(maxFeatures) || maxFeatures < 0) throw new TypeError(`maxFeatures must be a non-negative integer, got ${maxFeatures}`);
    let nPos = 0;
    let nNeg = 0;
    const all = new Map<string, [number, number]>();
    for (const { features, label } of examples) {
      if (label !== 0 && label !== 1) throw new TypeError(`label must be 0 or 1, got ${String(label)}`);
      if (label === 1) nPos++;
      else nNeg++;
      const side = label === 1 ? 0 : 1;
      for (const f of new Set(features)) {
        let c = all.get(f);
        if (!c) all.set(f, (c = [0, 0]));
        c[side]++;
      }
    }
    const ranked: [string, [number, number], number][] = [];
    for (const [f, c] of all) {
      if (c[0] + c[1] >= minCount) ranked.push([f, c, informationGain(nPos, nNeg, c[0], c[1])]);
    }
    ranked.sort((a, b) => b[2] - a[2] || b[1][0] + b[1][1] - (a[1][0] + a[1][1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const counts = new Map<string, [number, number]>();
    for (const [f, c] of ranked.slice(0, maxFeatures)) counts.set(f, c);
    return new BernoulliNB(nPos, nNeg, counts, opts.balanced === true);
  }

  /** Number of vocabulary features. */
  get size(): number {
    return this.#counts.size;
  }

  /** ln P(+|x)/P(−|x) for the example with exactly these features present (repeats counted once). */
  logOdds(features: readonly string[]): number {
    let z = this.#base;
    const seen = new Set<string>();
    for (const f of features) {
      const w = this.#weights.get(f);
      if (w === undefined || seen.has(f)) continue;
      seen.add(f);
      z += w;
    }
    return z;
  }

  /** P(+ | features), in [0, 1]. */
  probability(features: readonly string[]): number {
    return sigmoid(this.logOdds(features));
  }

  /**
   * The `k` features whose presence most favours the positive class
   * (largest weight w_j, ties by feature name), only those with w_j > 0.
   */
  topFeatures(k: number): string[] {
    return [...this.#weights]
      .filter(([, w]) => w > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, Math.max(0, k))
      .map(([f]) => f);
  }

  /** Plain JSON (JSON.stringify-able); fromJSON(toJSON()) predicts identically. */
  toJSON(): BernoulliNBJSON {
    return {
      type: 'bernoulli-nb',
      nPos: this.nPos,
      nNeg: this.nNeg,
      features: Object.fromEntries([...this.#counts].map(([f, [p, n]]) => [f, [p, n]])),
      ...(this.balanced ? { balanced: true } : {}),
    };
  }

  /**
   * Rebuilds a model from toJSON() output (e.g. after JSON.parse). Throws
   * TypeError naming the problem when `json` is not such an object: wrong
   * type tag, class sizes not non-negative integers, or a feature entry not
   * a pair of non-negative integer counts within the class sizes.
   */
  static fromJSON(json: unknown): BernoulliNB {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new TypeError('bernoulli-nb model: expected an object');
    const o = json as Record<string, unknown>;
    if (o.type !== 'bernoulli-nb') throw new TypeError(`bernoulli-nb model: "type" must be "bernoulli-nb", got ${JSON.stringify(o.type)}`);
    if (!isCount(o.nPos) || !isCount(o.nNeg)) throw new TypeError('bernoulli-nb model: "nPos" and "nNeg" must be non-negative integers');
    const nPos = o.nPos;
    const nNeg = o.nNeg;
    if (typeof o.features !== 'object' || o.features === null || Array.isArray(o.features)) {
      throw new TypeError('bernoulli-nb model: "features" must be an object');
    }
    const counts = new Map<string, [number, number]>();
    for (const [f, c] of Object.entries(o.features)) {
      if (!Array.isArray(c) || c.length !== 2 || !isCount(c[0]) || !isCount(c[1]) || c[0] > nPos || c[1] > nNeg) {
        throw new TypeError(`bernoulli-nb model: feature ${JSON.stringify(f)} must be [count+ <= nPos, count- <= nNeg], got ${JSON.stringify(c)}`);
      }
      counts.set(f, [c[0], c[1]]);
    }
    if (o.balanced !== undefined && typeof o.balanced !== 'boolean') throw new TypeError(`bernoulli-nb model: "balanced" must be a boolean, got ${JSON.stringify(o.balanced)}`);
    return new BernoulliNB(nPos, nNeg, counts, o.balanced === true);
  }
}
