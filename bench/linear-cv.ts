/**
 * 5-fold cross-validation of the calibrated linear link classifier (issue
 * 24) on TNEWS dev: the link classifier's features (linkGrams, group 2)
 * of headline as anchor and keywords as context, one class against the rest, LinearClassifier defaults (λ by inner 3-fold CV,
 * Platt on out-of-fold margins, the F1-maximising threshold on them).
 * `--words`: also jieba words of the headline (search mode, 'w:' prefix,
 * src/relevance/text/tokenize.ts with the node-rs segmenter) beside the character
 * n-grams. Prints per task: mean AUC, precision / recall at 0.5 and at the
 * classifier's held-out threshold, per fold AUC / λ, and the time per task
 * (noisy: shared CPU).
 *
 * `--min-df N`: LinearOptions.minDf (the vocabulary's minimum document count).
 *
 *   node --import tsx bench/linear-cv.ts [--words] [--min-df N]
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LinearClassifier } from '../src/relevance/learn/linear.ts';
import { linkGrams } from '../src/relevance/model.ts';
import { binaryMetrics, kFoldIndices } from '../src/relevance/learn/metrics.ts';
import { tokenize } from '../src/relevance/text/tokenize.ts';
import { getSegmenter } from '../src/relevance/text/segmenter.ts';
import { precisionRecallAt } from './lib/judge.ts';

const { values } = parseArgs({ options: { words: { type: 'boolean', default: false }, 'min-df': { type: 'string' } } });
const CORPUS = fileURLToPath(new URL('../../shared/corpora/tnews/tnews-dev.ndjson', import.meta.url));
if (!existsSync(CORPUS)) {
  process.stderr.write(`linear-cv: ${CORPUS} is missing\n`);
  process.exit(2);
}
const segmenter = getSegmenter('node-rs');
const rows = readFileSync(CORPUS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { sentence: string; label_desc: string; keywords?: string });
const feats = rows.map((r) => [
  ...linkGrams(r.sentence, (r.keywords ?? '').replace(/,/g, ' '), { group: 2 }),
  ...(values.words ? tokenize(r.sentence, { segmenter }).map((w) => `w:${w}`) : []),
]);
const prAt = (p: number[], y: (0 | 1)[], t: number): [number, number] => {
  const { p: precision, r: recall } = precisionRecallAt(p, y, t);
  return [precision, recall];
};
for (const task of ['news_finance', 'news_sports', 'news_tech']) {
  const labels = rows.map((r) => (r.label_desc === task ? 1 : 0) as 0 | 1);
  const folds = kFoldIndices(rows.length, 5, 1);
  const res: number[][] = [];
  let nFeatures = 0;
  const t0 = performance.now();
  for (const test of folds) {
    const inTest = new Set(test);
    const train = rows.map((_, i) => i).filter((i) => !inTest.has(i));
    const clf = LinearClassifier.train(train.map((i) => ({ features: feats[i], label: labels[i] })), values['min-df'] === undefined ? {} : { minDf: Number(values['min-df']) });
    nFeatures = clf.size;
    const p = test.map((i) => clf.probability(feats[i]));
    const y = test.map((i) => labels[i]);
    res.push([binaryMetrics(p, y).auc, ...prAt(p, y, 0.5), ...prAt(p, y, clf.threshold), clf.threshold, clf.lambda]);
  }
  const mean = (k: number): string => (res.reduce((s, r) => s + r[k], 0) / res.length).toFixed(3);
  process.stdout.write(
    `${task}${values.words ? ' +words' : ''}${values['min-df'] === undefined ? '' : ` minDf ${values['min-df']}`} features ${nFeatures} AUC ${mean(0)} P@0.5 ${mean(1)} R@0.5 ${mean(2)} P@t ${mean(3)} R@t ${mean(4)} t ${mean(5)} | folds AUC ${res.map((r) => r[0].toFixed(3)).join(' ')} | λ ${res.map((r) => r[6]).join(' ')} | ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );
}
