/**
 * 5-fold cross-validation of the calibrated linear link classifier (issue
 * 24) on TNEWS dev: headline textGrams + keyword textGrams ('c:'), one
 * class against the rest, LinearClassifier defaults (λ by inner 3-fold CV,
 * Platt on out-of-fold margins). Prints per fold: AUC / precision /
 * recall at 0.5 / chosen λ, and the time per task (noisy: shared CPU).
 *
 *   node --import tsx bench/linear-cv.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LinearClassifier, textGrams } from '../src/learn/linear.ts';
import { binaryMetrics, kFoldIndices } from '../src/learn/metrics.ts';

const CORPUS = fileURLToPath(new URL('../../shared/corpora/tnews/tnews-dev.ndjson', import.meta.url));
if (!existsSync(CORPUS)) {
  process.stderr.write(`linear-cv: ${CORPUS} is missing\n`);
  process.exit(2);
}
const rows = readFileSync(CORPUS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { sentence: string; label_desc: string; keywords?: string });
const feats = rows.map((r) => [...textGrams(r.sentence), ...textGrams((r.keywords ?? '').replace(/,/g, ' '), 'c:')]);
for (const task of ['news_finance', 'news_sports', 'news_tech']) {
  const labels = rows.map((r) => (r.label_desc === task ? 1 : 0) as 0 | 1);
  const folds = kFoldIndices(rows.length, 5, 1);
  const res: number[][] = [];
  const t0 = performance.now();
  for (const test of folds) {
    const inTest = new Set(test);
    const train = rows.map((_, i) => i).filter((i) => !inTest.has(i));
    const clf = LinearClassifier.train(train.map((i) => ({ features: feats[i], label: labels[i] })));
    const m = binaryMetrics(test.map((i) => clf.probability(feats[i])), test.map((i) => labels[i]));
    res.push([m.auc, m.precision, m.recall, clf.lambda]);
  }
  const mean = (k: number): string => (res.reduce((s, r) => s + r[k], 0) / res.length).toFixed(3);
  process.stdout.write(`${task} AUC ${mean(0)} P@0.5 ${mean(1)} R@0.5 ${mean(2)} | folds ${res.map((r) => r.map((x) => x.toFixed(3)).join('/')).join('  ')} | ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}
