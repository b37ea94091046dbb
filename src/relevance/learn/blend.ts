/**
 * Stacking of link classifiers (issue 24): a blended probability
 *   P = σ(a·logit(P_nb) + b·logit(P_lin) + c)
 * whose weights are a logistic regression fitted on the out-of-fold
 * predictions of both classifiers (each example scored by fits that did not
 * see it; for WARC links, folds that hold out whole sites), so the weights
 * say how much each classifier is worth on data it did not see.
 *
 * fitStacking is a plain, unweighted logistic regression on a few columns
 * (Newton's method, a small ridge on the column weights only): the blended
 * probability is calibrated on the class frequencies of the examples.
 */
import { sigmoid } from './bernoulli-nb.ts';
import { softplus } from './linear.ts';

/** |logit| above this is clipped: Naive Bayes log odds reach hundreds on long contexts, which would let one example steer the fit. */
export const LOGIT_CAP = 30;

/** Default ridge on the column weights of fitStacking (not on the intercept). */
export const DEFAULT_STACK_L2 = 1e-4;

/** ln(p / (1 − p)) clipped to ±LOGIT_CAP. */
export function logit(p: number): number {
  if (!(p > 0)) return -LOGIT_CAP;
  if (!(p < 1)) return LOGIT_CAP;
  return clipLogit(Math.log(p / (1 - p)));
}

/** A log odds clipped to ±LOGIT_CAP. */
export function clipLogit(z: number): number {
  return z > LOGIT_CAP ? LOGIT_CAP : z < -LOGIT_CAP ? -LOGIT_CAP : z;
}

/**
 * The weights [w₁ … w_d, c] maximising Σ log σ(±(w·x + c)) − l2/2·|w|²
 * over examples x_i = (columns[0][i], …, columns[d−1][i]). Newton's method
 * with backtracking; deterministic. Throws TypeError when the columns and
 * labels differ in length or the labels lack a class.
 */
export function fitStacking(columns: readonly ArrayLike<number>[], labels: readonly (0 | 1)[], opts: { l2?: number; maxIterations?: number } = {}): number[] {
  const d = columns.length;
  const n = labels.length;
  for (const c of columns) if (c.length !== n) throw new TypeError(`fitStacking: every column needs ${n} values, got ${c.length}`);
  const nPos = labels.reduce<number>((s, y) => s + y, 0);
  if (nPos === 0 || nPos === n) throw new TypeError('fitStacking needs examples of both classes');
  const l2 = opts.l2 ?? DEFAULT_STACK_L2;
  const D = d + 1;
  const x = (i: number, j: number): number => (j === d ? 1 : columns[j][i]);
  const w = new Array<number>(D).fill(0);
  w[d] = Math.log(nPos / (n - nPos));
  const loss = (v: readonly number[]): number => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < D; j++) z += v[j] * x(i, j);
      s += softplus(labels[i] === 1 ? -z : z);
    }
    for (let j = 0; j < d; j++) s += (l2 / 2) * v[j] * v[j];
    return s;
  };
  let f = loss(w);
  for (let it = 0; it < (opts.maxIterations ?? 100); it++) {
    const g = new Array<number>(D).fill(0);
    const H = Array.from({ length: D }, () => new Array<number>(D).fill(0));
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < D; j++) z += w[j] * x(i, j);
      const p = sigmoid(z);
      const r = p - labels[i];
      const h = Math.max(p * (1 - p), 1e-12);
      for (let j = 0; j < D; j++) {
        const xj = x(i, j);
        g[j] += r * xj;
        for (let k = 0; k <= j; k++) H[j][k] += h * xj * x(i, k);
      }
    }
    for (let j = 0; j < D; j++) for (let k = 0; k < j; k++) H[k][j] = H[j][k];
    for (let j = 0; j < d; j++) {
      g[j] += l2 * w[j];
      H[j][j] += l2;
    }
    H[d][d] += 1e-12;
    if (Math.max(...g.map(Math.abs)) < 1e-9 * n) break;
    const step = solve(H, g);
    let t = 1;
    let moved = false;
    while (t >= 1e-10) {
      const next = w.map((v, j) => v - t * step[j]);
      const nf = loss(next);
      if (nf <= f) {
        for (let j = 0; j < D; j++) w[j] = next[j];
        moved = f - nf > 1e-12 * Math.max(1, f);
        f = nf;
        break;
      }
      t /= 2;
    }
    if (!moved) break;
  }
  return w;
}

/** The population standard deviation of `z` (non-empty). */
export function populationSd(z: ArrayLike<number>): number {
  const n = z.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += z[i];
  m /= n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (z[i] - m) ** 2;
  return Math.sqrt(v / n);
}

/** The range `sharpenFromLogits` clamps K to (nb-link-layers' `sharpen` range). */
export const SHARPEN_RANGE = [1, 100] as const;

/**
 * K of `sharpen=auto` (issue 24; docs/results/webkb-classifier.md):
 * sd(zNb) ÷ sd(zBlend), population sds over the same examples' out-of-fold
 * log odds (NB's, clipped, and the blend's own), the factor that makes the
 * blend's log odds spread like NB's; clamped to SHARPEN_RANGE (1 when
 * zBlend does not vary), rounded to 4 decimals. Throws TypeError when the
 * two differ in length or are empty.
 */
export function sharpenFromLogits(zNb: ArrayLike<number>, zBlend: ArrayLike<number>): number {
  const n = zNb.length;
  if (n === 0 || zBlend.length !== n) throw new TypeError(`sharpenFromLogits needs two equally long non-empty columns, got ${n} and ${zBlend.length}`);
  const below = populationSd(zBlend);
  if (!(below > 0)) return 1;
  const k = populationSd(zNb) / below;
  return Math.round(Math.min(SHARPEN_RANGE[1], Math.max(SHARPEN_RANGE[0], k)) * 10000) / 10000;
}

/** Solves A·s = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
function solve(A: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    const piv = M[c][c] === 0 ? 1e-12 : M[c][c];
    for (let r = c + 1; r < n; r++) {
      const k = M[r][c] / piv;
      for (let j = c; j <= n; j++) M[r][j] -= k * M[c][j];
    }
  }
  const s = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let v = M[r][n];
    for (let j = r + 1; j < n; j++) v -= M[r][j] * s[j];
    s[r] = v / (M[r][r] === 0 ? 1e-12 : M[r][r]);
  }
  return s;
}
