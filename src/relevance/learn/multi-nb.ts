/**
 * Multi-class Bernoulli Naive Bayes over binary features: the layered link
 * classifier of a context graph (Diligenti et al. 2000; one model over the
 * classes 0..C-1 instead of one per layer). The two-class model of docs/algorithms.md#nb-link
 * (bernoulli-nb.ts) generalised:
 *
 *   P(F_j | c) = (Count(F_j, c)·s_c + 1) / (n_c·s_c + 2)     Laplace smoothing
 *   log P(c | x) ∝ ln π_c + Σ_j [x_j ln p_cj + (1 − x_j) ln(1 − p_cj)]
 *
 * with s_c = 1 and π_c = (n_c + 1)/(N + C) by default; `balanced` scales
 * every class's counts to N/C examples (s_c = N/(C·n_c)) and makes the
 * prior uniform, as if trained on a balanced set: the far layer is most
 * links, and with its own prior it would win almost every prediction.
 * The absent-feature sums are precomputed, so a prediction costs
 * O(C × present features).
 */

export interface MultiNBJSON {
  type: 'multi-bernoulli-nb';
  /** examples per class */
  classCounts: number[];
  /** per kept feature, its count in each class */
  features: Record<string, number[]>;
  /** class-balanced likelihoods and a uniform prior; absent: false */
  balanced?: boolean;
}

export interface MultiNBOptions {
  /** drop features seen in fewer examples (all classes); default 2 */
  minCount?: number;
  /** keep at most this many features, by information gain about the class; default 20000 */
  maxFeatures?: number;
  /** see the module doc; default false */
  balanced?: boolean;
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}

function entropy(counts: readonly number[], n: number): number {
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / n) * Math.log(c / n);
  return h;
}

/** A trained multi-class Bernoulli Naive Bayes model (immutable). */
export class MultiNB {
  readonly classCounts: readonly number[];
  readonly balanced: boolean;
  readonly #counts: ReadonlyMap<string, readonly number[]>;
  readonly #weights = new Map<string, Float64Array>();
  readonly #base: Float64Array;

  private constructor(classCounts: readonly number[], counts: ReadonlyMap<string, readonly number[]>, balanced: boolean) {
    const C = classCounts.length;
    const N = classCounts.reduce((a, b) => a + b, 0);
    this.classCounts = Object.freeze([...classCounts]);
    this.balanced = balanced;
    this.#counts = counts;
    const scale = classCounts.map((n) => (balanced && n > 0 ? N / C / n : 1));
    const size = classCounts.map((n, c) => n * scale[c]!);
    this.#base = new Float64Array(C);
    for (let c = 0; c < C; c++) this.#base[c] = balanced ? 0 : Math.log((classCounts[c]! + 1) / (N + C));
    for (const [f, cs] of counts) {
      const w = new Float64Array(C);
      for (let c = 0; c < C; c++) {
        const p = (cs[c]! * scale[c]! + 1) / (size[c]! + 2);
        const absent = Math.log(1 - p);
        this.#base[c]! += absent;
        w[c] = Math.log(p) - absent;
      }
      this.#weights.set(f, w);
    }
  }

  /** Number of classes. */
  get classes(): number {
    return this.classCounts.length;
  }

  /** Number of vocabulary features. */
  get size(): number {
    return this.#counts.size;
  }

  /**
   * Trains on `examples` (features, repeats counted once; label 0..classes-1).
   * Throws TypeError for a label out of range or bad options.
   */
  static train(examples: Iterable<{ features: readonly string[]; label: number }>, classes: number, opts: MultiNBOptions = {}): MultiNB {
    const minCount = opts.minCount ?? 2;
    const maxFeatures = opts.maxFeatures ?? 20_000;
    if (!Number.isInteger(classes) || classes < 2) throw new TypeError(`classes must be an integer ≥ 2, got ${classes}`);
    const classCounts = new Array<number>(classes).fill(0);
    const all = new Map<string, number[]>();
    for (const { features, label } of examples) {
      if (!Number.isInteger(label) || label < 0 || label >= classes) throw new TypeError(`label must be an integer 0..${classes - 1}, got ${String(label)}`);
      classCounts[label]!++;
      for (const f of new Set(features)) {
        let c = all.get(f);
        if (c === undefined) all.set(f, (c = new Array<number>(classes).fill(0)));
        c[label]!++;
      }
    }
    const N = classCounts.reduce((a, b) => a + b, 0);
    const h = entropy(classCounts, N);
    const ranked: [string, number[], number, number][] = [];
    for (const [f, c] of all) {
      const n = c.reduce((a, b) => a + b, 0);
      if (n < minCount) continue;
      const rest = classCounts.map((k, i) => k - c[i]!);
      const gain = h - (n / N) * entropy(c, n) - (N - n > 0 ? ((N - n) / N) * entropy(rest, N - n) : 0);
      ranked.push([f, c, gain, n]);
    }
    ranked.sort((a, b) => b[2] - a[2] || b[3] - a[3] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const counts = new Map<string, number[]>();
    for (const [f, c] of ranked.slice(0, maxFeatures)) counts.set(f, c);
    return new MultiNB(classCounts, counts, opts.balanced === true);
  }

  /** ln P(c | x) + const for each class (unnormalised). */
  logScores(features: readonly string[]): Float64Array {
    const z = Float64Array.from(this.#base);
    const seen = new Set<string>();
    for (const f of features) {
      const w = this.#weights.get(f);
      if (w === undefined || seen.has(f)) continue;
      seen.add(f);
      for (let c = 0; c < z.length; c++) z[c]! += w[c]!;
    }
    return z;
  }

  /** P(c | x) for each class, summing to 1. */
  probabilities(features: readonly string[]): number[] {
    const z = this.logScores(features);
    const max = Math.max(...z);
    const e = [...z].map((v) => Math.exp(v - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / sum);
  }

  toJSON(): MultiNBJSON {
    return {
      type: 'multi-bernoulli-nb',
      classCounts: [...this.classCounts],
      features: Object.fromEntries([...this.#counts].map(([f, c]) => [f, [...c]])),
      ...(this.balanced ? { balanced: true } : {}),
    };
  }

  /** Rebuilds a model from toJSON() output; throws TypeError naming the problem. */
  static fromJSON(json: unknown): MultiNB {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new TypeError('multi-bernoulli-nb model: expected an object');
    const o = json as Record<string, unknown>;
    if (o.type !== 'multi-bernoulli-nb') throw new TypeError(`multi-bernoulli-nb model: "type" must be "multi-bernoulli-nb", got ${JSON.stringify(o.type)}`);
    const cc = o.classCounts;
    if (!Array.isArray(cc) || cc.length < 2 || !cc.every(isCount)) throw new TypeError('multi-bernoulli-nb model: "classCounts" must be at least two non-negative integers');
    if (typeof o.features !== 'object' || o.features === null || Array.isArray(o.features)) throw new TypeError('multi-bernoulli-nb model: "features" must be an object');
    const counts = new Map<string, number[]>();
    for (const [f, c] of Object.entries(o.features)) {
      if (!Array.isArray(c) || c.length !== cc.length || !c.every((x, i) => isCount(x) && x <= (cc[i] as number))) {
        throw new TypeError(`multi-bernoulli-nb model: feature ${JSON.stringify(f)} must have one count ≤ its class size per class, got ${JSON.stringify(c)}`);
      }
      counts.set(f, [...(c as number[])]);
    }
    if (o.balanced !== undefined && typeof o.balanced !== 'boolean') throw new TypeError(`multi-bernoulli-nb model: "balanced" must be a boolean, got ${JSON.stringify(o.balanced)}`);
    return new MultiNB(cc as number[], counts, o.balanced === true);
  }
}

