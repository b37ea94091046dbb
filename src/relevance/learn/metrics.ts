/**
 * Evaluation and selection helpers shared by the learners and the offline
 * benchmarks: binary classification metrics (precision, recall, F1, ROC
 * AUC), seeded k-fold splits, a seeded PRNG, and the information gain of a
 * binary feature (used to pick features).
 */
import { seededRandom } from '../../util/random.ts';

/** Precision, recall, F1 and AUC of a binary scorer on labelled examples. */
export interface BinaryMetrics {
  /** TP / (TP + FP); 0 when nothing is predicted positive */
  precision: number;
  /** TP / (TP + FN); 0 when there are no positives */
  recall: number;
  /** 2PR / (P + R); 0 when both are 0 */
  f1: number;
  /** ROC AUC (Mann-Whitney, tied scores count ½); NaN when only one class is present */
  auc: number;
  /** examples */
  n: number;
  /** positive examples */
  positives: number;
}

/**
 * Metrics of `scores` (higher = more positive) against `labels`. An example
 * is predicted positive iff its score is strictly above `threshold`
 * (default 0.5: "+ iff P(+|x) > P(−|x)", docs/algorithms.md#bayes-kde). AUC is threshold-free:
 * the probability that a random positive scores above a random negative,
 * ties counting ½ (average ranks). Throws TypeError when the lengths differ,
 * a score is NaN or a label is not 0/1.
 */
export function binaryMetrics(scores: readonly number[], labels: readonly (0 | 1)[], threshold = 0.5): BinaryMetrics {
  if (scores.length !== labels.length) {
    throw new TypeError(`binaryMetrics: ${scores.length} scores but ${labels.length} labels`);
  }
  let tp = 0;
  let fp = 0;
  let positives = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i];
    const y = labels[i];
    if (Number.isNaN(s)) throw new TypeError(`binaryMetrics: score ${i} is NaN`);
    if (y !== 0 && y !== 1) throw new TypeError(`binaryMetrics: label ${i} must be 0 or 1, got ${String(y)}`);
    if (y === 1) positives++;
    if (s > threshold) {
      if (y === 1) tp++;
      else fp++;
    }
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = positives === 0 ? 0 : tp / positives;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, auc: auc(scores, labels, positives), n: scores.length, positives };
}

/** Mann-Whitney AUC with average ranks for ties. */
function auc(scores: readonly number[], labels: readonly (0 | 1)[], positives: number): number {
  const n = scores.length;
  const negatives = n - positives;
  if (positives === 0 || negatives === 0) return NaN;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let rankSum = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && scores[order[j + 1]] === scores[order[i]]) j++;
    const rank = (i + j) / 2 + 1; // average 1-based rank of the tie group
    for (let k = i; k <= j; k++) if (labels[order[k]] === 1) rankSum += rank;
    i = j + 1;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export { seededRandom } from '../../util/random.ts';

/**
 * The test folds of a k-fold cross-validation of n examples: the indices
 * 0..n-1 shuffled (Fisher-Yates with seededRandom(seed)) and dealt into k
 * folds whose sizes differ by at most one; each fold is sorted ascending.
 * Every index is in exactly one fold. Same (n, k, seed) → same folds.
 * Throws TypeError unless n ≥ 0 and 1 ≤ k ≤ max(n, 1) are integers.
 */
export function kFoldIndices(n: number, k: number, seed: number): number[][] {
  if (!Number.isInteger(n) || n < 0) throw new TypeError(`kFoldIndices: n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(k) || k < 1 || k > Math.max(n, 1)) {
    throw new TypeError(`kFoldIndices: k must be an integer in 1..${Math.max(n, 1)}, got ${k}`);
  }
  const random = seededRandom(seed);
  const idx = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  const folds: number[][] = Array.from({ length: k }, () => []);
  idx.forEach((v, i) => folds[i % k].push(v));
  for (const f of folds) f.sort((a, b) => a - b);
  return folds;
}

/**
 * The test folds of a grouped k-fold cross-validation: every example of a
 * group falls in the same fold, so a fold's examples come from groups its
 * training part never saw (as scikit-learn's GroupKFold). Groups are dealt
 * largest first (ties by name) to the fold with the fewest examples so far
 * (ties: the lower fold). Deterministic; each fold sorted ascending.
 * Returns null when there are fewer than k distinct groups (no such
 * cross-validation exists). Throws TypeError unless k ≥ 1 is an integer.
 */
export function groupKFold(groups: readonly string[], k: number): number[][] | null {
  if (!Number.isInteger(k) || k < 1) throw new TypeError(`groupKFold: k must be a positive integer, got ${k}`);
  const members = new Map<string, number[]>();
  groups.forEach((g, i) => {
    const m = members.get(g);
    if (m === undefined) members.set(g, [i]);
    else m.push(i);
  });
  if (members.size < k) return null;
  const order = [...members].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const folds: number[][] = Array.from({ length: k }, () => []);
  for (const [, idx] of order) {
    let f = 0;
    for (let j = 1; j < k; j++) if (folds[j].length < folds[f].length) f = j;
    folds[f].push(...idx);
  }
  for (const f of folds) f.sort((a, b) => a - b);
  return folds;
}

/**
 * Information gain (mutual information, nats) between the class and the
 * presence of a binary feature: H(C) − H(C | F). `nPos`/`nNeg` are the
 * examples per class, `fPos`/`fNeg` those of each class that have the
 * feature. 0 when the feature tells nothing; at most H(C).
 */
export function informationGain(nPos: number, nNeg: number, fPos: number, fNeg: number): number {
  const n = nPos + nNeg;
  if (n === 0) return 0;
  // I(C;F) = Σ_{c,f} p(c,f) ln(p(c,f) / (p(c) p(f))) = (1/n) Σ n_cf ln(n·n_cf / (n_c·n_f))
  const nF = fPos + fNeg;
  const nNotF = n - nF;
  const cells: [number, number, number][] = [
    [fPos, nPos, nF],
    [fNeg, nNeg, nF],
    [nPos - fPos, nPos, nNotF],
    [nNeg - fNeg, nNeg, nNotF],
  ];
  let s = 0;
  for (const [ncf, nc, nf] of cells) {
    if (ncf > 0) s += ncf * Math.log((n * ncf) / (nc * nf));
  }
  return Math.max(0, s / n);
}
