/**
 * Naive Bayes over continuous features (Zou et al. 2009, docs/algorithms.md#bayes-kde): each feature's density
 * per class is either
 *
 * - **gaussian**: N(x; μ_cj, σ²_cj), mean and variance by maximum likelihood
 *   over all class-c training vectors (absent features count as 0), the
 *   variance floored at 1/n_c, the squared kernel bandwidth below, so a
 *   feature that is constant in one class (usually: always 0) does not
 *   become an infinitely sharp spike; or
 * - **kernel** (John & Langley 1995): p(x_j | c) = (1/m_c) Σ_i N(x_j; x_ij, σ_c),
 *   σ_c = 1/sqrt(m_c), over m_c stored training points of class c. At most
 *   `maxPoints` points per class are stored (a reservoir sample with a fixed
 *   seed, so training is deterministic); equal values of a feature are kept
 *   once with a count (most values are 0), and the sum is exact.
 *
 * Classification uses a fixed feature subset: the `maxFeatures` features
 * with the highest information gain of their presence (x ≠ 0) in training.
 * Every selected feature counts in every prediction, absent ones with value
 * 0; the log-density at 0 is precomputed per feature and class, so a
 * prediction costs O(present features) (gaussian) or O(Σ distinct stored
 * values of the present features) (kernel). Work is in log space;
 * P(+ | x) = σ(ln P(+)/P(−) + ln p(x|+) − ln p(x|−)), priors Laplace-smoothed:
 * P(+) = (n₊ + 1) / (n + 2).
 *
 * Class-indexed arrays below are [positive, negative].
 */
import type { SparseVector } from '../text/vector.ts';
import { sigmoid } from './bernoulli-nb.ts';
import { informationGain, seededRandom } from './metrics.ts';

/** Seed of the reservoir sample of kernel points. */
const RESERVOIR_SEED = 0x5eed001;

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** The serialised model. */
export interface ContinuousNBJSON {
  type: 'continuous-nb';
  density: 'gaussian' | 'kernel';
  /** the selected features, in model order */
  features: string[];
  /** P(+) */
  prior: number;
  /** gaussian: per class, per feature mean and (floored) variance */
  gaussian?: { mean: [number[], number[]]; variance: [number[], number[]] };
  /** kernel: per class the bandwidth, the stored points, and per feature the distinct values with their counts */
  kernel?: { sigma: [number, number]; points: [number, number]; values: [[number, number][][], [number, number][][]] };
}

/** Options of ContinuousNB.train. */
export interface ContinuousNBOptions {
  density: 'gaussian' | 'kernel';
  /** features used for classification (default 200) */
  maxFeatures?: number;
  /** kernel: training points stored per class (default 2000) */
  maxPoints?: number;
}

type PerClass<T> = [T, T];

/** One class's density over one feature: log p(x | c). */
type LogDensity = (x: number) => number;

function gaussianLog(mean: number, variance: number): LogDensity {
  const c = -0.5 * Math.log(variance) - LOG_SQRT_2PI;
  return (x) => c - ((x - mean) * (x - mean)) / (2 * variance);
}

function kernelLog(values: readonly [number, number][], sigma: number, points: number): LogDensity {
  const logCounts = values.map(([, n]) => Math.log(n));
  const c = -Math.log(points) - Math.log(sigma) - LOG_SQRT_2PI;
  const twoVar = 2 * sigma * sigma;
  return (x) => {
    let max = -Infinity;
    const terms = new Array<number>(values.length);
    for (let k = 0; k < values.length; k++) {
      const d = x - values[k][0];
      terms[k] = logCounts[k] - (d * d) / twoVar;
      if (terms[k] > max) max = terms[k];
    }
    let s = 0;
    for (const t of terms) s += Math.exp(t - max);
    return c + max + Math.log(s);
  };
}

function isFiniteNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** A trained continuous Naive Bayes model (immutable). */
export class ContinuousNB {
  readonly density: 'gaussian' | 'kernel';
  /** P(+) */
  readonly prior: number;
  readonly #json: ContinuousNBJSON;
  readonly #index = new Map<string, number>();
  /** per class, per feature: log-density */
  readonly #log: PerClass<LogDensity[]>;
  /** per class, per feature: log-density at 0 */
  readonly #zero: PerClass<number[]>;
  /** ln P(+)/P(−) + Σ_j (ln p(0|+) − ln p(0|−)) */
  readonly #base: number;

  private constructor(json: ContinuousNBJSON) {
    this.#json = json;
    this.density = json.density;
    this.prior = json.prior;
    json.features.forEach((f, j) => this.#index.set(f, j));
    const make = (c: 0 | 1): LogDensity[] =>
      json.features.map((_, j) =>
        json.density === 'gaussian'
          ? gaussianLog(json.gaussian!.mean[c][j], json.gaussian!.variance[c][j])
          : kernelLog(json.kernel!.values[c][j], json.kernel!.sigma[c], json.kernel!.points[c]),
      );
    this.#log = [make(0), make(1)];
    this.#zero = [this.#log[0].map((f) => f(0)), this.#log[1].map((f) => f(0))];
    let base = Math.log(json.prior / (1 - json.prior));
    for (let j = 0; j < json.features.length; j++) base += this.#zero[0][j] - this.#zero[1][j];
    this.#base = base;
  }

  /**
   * Trains on `vectors` with `labels` (0/1, same length). Both classes must
   * be present. Throws TypeError for mismatched lengths, a label other
   * than 0/1, a missing class, a non-finite weight or bad options.
   */
  static train(vectors: readonly SparseVector[], labels: readonly (0 | 1)[], opts: ContinuousNBOptions): ContinuousNB {
    const density = opts.density;
    if (density !== 'gaussian' && density !== 'kernel') throw new TypeError(`density must be 'gaussian' or 'kernel', got ${String(density)}`);
    const maxFeatures = opts.maxFeatures ?? 200;
    const maxPoints = opts.maxPoints ?? 2000;
    if (!Number.isInteger(maxFeatures) || maxFeatures < 0) throw new TypeError(`maxFeatures must be a non-negative integer, got ${maxFeatures}`);
    if (!Number.isInteger(maxPoints) || maxPoints < 1) throw new TypeError(`maxPoints must be a positive integer, got ${maxPoints}`);
    if (vectors.length !== labels.length) throw new TypeError(`${vectors.length} vectors but ${labels.length} labels`);
    const n: PerClass<number> = [0, 0];
    const presence = new Map<string, PerClass<number>>();
    vectors.forEach((v, i) => {
      const y = labels[i];
      if (y !== 0 && y !== 1) throw new TypeError(`label ${i} must be 0 or 1, got ${String(y)}`);
      const c = y === 1 ? 0 : 1;
      n[c]++;
      for (const [t, x] of v) {
        if (!Number.isFinite(x)) throw new TypeError(`vector ${i}: weight of ${JSON.stringify(t)} is not finite`);
        if (x === 0) continue;
        let p = presence.get(t);
        if (!p) presence.set(t, (p = [0, 0]));
        p[c]++;
      }
    });
    if (n[0] === 0 || n[1] === 0) throw new TypeError('training needs examples of both classes');
    const features = [...presence]
      .map(([t, [p, q]]) => [t, p + q, informationGain(n[0], n[1], p, q)] as const)
      .sort((a, b) => b[2] - a[2] || b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, maxFeatures)
      .map(([t]) => t);
    const json: ContinuousNBJSON = {
      type: 'continuous-nb',
      density,
      features,
      prior: (n[0] + 1) / (n[0] + n[1] + 2),
    };
    const byClass: PerClass<SparseVector[]> = [[], []];
    vectors.forEach((v, i) => byClass[labels[i] === 1 ? 0 : 1].push(v));
    if (density === 'gaussian') {
      const g = byClass.map((vs) => gaussianParams(vs, features)) as PerClass<{ mean: number[]; variance: number[] }>;
      json.gaussian = { mean: [g[0].mean, g[1].mean], variance: [g[0].variance, g[1].variance] };
    } else {
      const random = seededRandom(RESERVOIR_SEED);
      const samples = byClass.map((vs) => reservoir(vs, maxPoints, random)) as PerClass<SparseVector[]>;
      json.kernel = {
        sigma: [1 / Math.sqrt(samples[0].length), 1 / Math.sqrt(samples[1].length)],
        points: [samples[0].length, samples[1].length],
        values: [groupValues(samples[0], features), groupValues(samples[1], features)],
      };
    }
    return new ContinuousNB(json);
  }

  /** The selected features, in model order. */
  get features(): readonly string[] {
    return this.#json.features;
  }

  /** ln P(+|x)/P(−|x). Weights of features outside the selected set are ignored. */
  logOdds(v: SparseVector): number {
    let z = this.#base;
    for (const [t, x] of v) {
      const j = this.#index.get(t);
      if (j === undefined || x === 0) continue;
      z += this.#log[0][j](x) - this.#zero[0][j] - (this.#log[1][j](x) - this.#zero[1][j]);
    }
    return z;
  }

  /** P(+ | x), in [0, 1]. */
  probability(v: SparseVector): number {
    return sigmoid(this.logOdds(v));
  }

  /** Plain JSON; fromJSON(toJSON()) predicts identically. */
  toJSON(): ContinuousNBJSON {
    return structuredClone(this.#json);
  }

  /**
   * Rebuilds a model from toJSON() output. Throws TypeError naming the
   * problem when the shape is wrong: type/density tags, prior in (0, 1),
   * features distinct strings, per-class arrays of the features' length,
   * finite means, positive variances and bandwidths, kernel counts positive
   * integers summing to the class's points.
   */
  static fromJSON(json: unknown): ContinuousNB {
    const bad = (what: string): never => {
      throw new TypeError(`continuous-nb model: ${what}`);
    };
    if (typeof json !== 'object' || json === null || Array.isArray(json)) bad('expected an object');
    const o = json as Record<string, unknown>;
    if (o.type !== 'continuous-nb') bad(`"type" must be "continuous-nb", got ${JSON.stringify(o.type)}`);
    if (o.density !== 'gaussian' && o.density !== 'kernel') bad(`"density" must be "gaussian" or "kernel", got ${JSON.stringify(o.density)}`);
    if (!isFiniteNumber(o.prior) || o.prior <= 0 || o.prior >= 1) bad('"prior" must be a number in (0, 1)');
    if (!Array.isArray(o.features) || !o.features.every((f) => typeof f === 'string') || new Set(o.features).size !== o.features.length) {
      bad('"features" must be an array of distinct strings');
    }
    const features = o.features as string[];
    const k = features.length;
    const pair = (x: unknown, name: string): [unknown, unknown] => {
      if (!Array.isArray(x) || x.length !== 2) bad(`${name} must be a [positive, negative] pair`);
      return x as [unknown, unknown];
    };
    const numbers = (x: unknown, name: string, ok: (v: number) => boolean): number[] => {
      if (!Array.isArray(x) || x.length !== k || !x.every((v) => isFiniteNumber(v) && ok(v))) bad(`${name} must be ${k} valid numbers`);
      return x as number[];
    };
    const out: ContinuousNBJSON = { type: 'continuous-nb', density: o.density as 'gaussian' | 'kernel', features: [...features], prior: o.prior as number };
    if (o.density === 'gaussian') {
      const g = o.gaussian as Record<string, unknown> | undefined;
      if (typeof g !== 'object' || g === null) bad('"gaussian" must be an object');
      const mean = pair(g!.mean, 'gaussian.mean');
      const variance = pair(g!.variance, 'gaussian.variance');
      out.gaussian = {
        mean: [numbers(mean[0], 'gaussian.mean[0]', () => true), numbers(mean[1], 'gaussian.mean[1]', () => true)],
        variance: [numbers(variance[0], 'gaussian.variance[0]', (v) => v > 0), numbers(variance[1], 'gaussian.variance[1]', (v) => v > 0)],
      };
    } else {
      const kd = o.kernel as Record<string, unknown> | undefined;
      if (typeof kd !== 'object' || kd === null) bad('"kernel" must be an object');
      const sigma = pair(kd!.sigma, 'kernel.sigma');
      const points = pair(kd!.points, 'kernel.points');
      const values = pair(kd!.values, 'kernel.values');
      /** Validates class c's bandwidth, point count and grouped values; returns [sigma, points]. */
      const check = (c: 0 | 1): [number, number] => {
        const s = sigma[c];
        const m = points[c];
        if (!isFiniteNumber(s) || s <= 0) bad(`kernel.sigma[${c}] must be a positive number`);
        if (!Number.isInteger(m) || (m as number) < 1) bad(`kernel.points[${c}] must be a positive integer`);
        const vs = values[c];
        if (!Array.isArray(vs) || vs.length !== k) bad(`kernel.values[${c}] must have ${k} entries`);
        (vs as unknown[]).forEach((list, j) => {
          if (!Array.isArray(list) || list.length === 0) bad(`kernel.values[${c}][${j}] must be a non-empty array`);
          let total = 0;
          for (const e of list as unknown[]) {
            if (!Array.isArray(e) || e.length !== 2 || !isFiniteNumber(e[0]) || !Number.isInteger(e[1]) || e[1] < 1) {
              bad(`kernel.values[${c}][${j}] entries must be [value, count >= 1]`);
            }
            total += (e as [number, number])[1];
          }
          if (total !== m) bad(`kernel.values[${c}][${j}] counts sum to ${total}, not kernel.points[${c}] = ${String(m)}`);
        });
        return [s as number, m as number];
      };
      const [s0, m0] = check(0);
      const [s1, m1] = check(1);
      const copy = (c: 0 | 1): [number, number][][] => (values[c] as [number, number][][]).map((list) => list.map(([v, n]) => [v, n]));
      out.kernel = { sigma: [s0, s1], points: [m0, m1], values: [copy(0), copy(1)] };
    }
    return new ContinuousNB(out);
  }
}

/** ML mean and variance of each feature over `vectors` (absent = 0), variance floored at 1/n. */
function gaussianParams(vectors: readonly SparseVector[], features: readonly string[]): { mean: number[]; variance: number[] } {
  const n = vectors.length;
  const floor = 1 / n;
  const mean = features.map((f) => {
    let s = 0;
    for (const v of vectors) s += v.get(f) ?? 0;
    return s / n;
  });
  const variance = features.map((f, j) => {
    const m = mean[j];
    let s = 0;
    let present = 0;
    for (const v of vectors) {
      const x = v.get(f);
      if (x === undefined || x === 0) continue;
      present++;
      s += (x - m) * (x - m);
    }
    s += (n - present) * m * m;
    return Math.max(s / n, floor);
  });
  return { mean, variance };
}

/** A uniform sample of at most `size` items (algorithm R); all items when there are few enough. */
function reservoir<T>(items: readonly T[], size: number, random: () => number): T[] {
  const out = items.slice(0, size);
  for (let i = size; i < items.length; i++) {
    const j = Math.floor(random() * (i + 1));
    if (j < size) out[j] = items[i];
  }
  return out;
}

/** Per feature: the distinct values over `points` (absent = 0) with their counts, ascending by value. */
function groupValues(points: readonly SparseVector[], features: readonly string[]): [number, number][][] {
  return features.map((f) => {
    const counts = new Map<number, number>();
    for (const v of points) {
      const x = v.get(f) ?? 0;
      counts.set(x, (counts.get(x) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => a[0] - b[0]);
  });
}
