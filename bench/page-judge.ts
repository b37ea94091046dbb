/**
 * The page judge of a texts-trained model on whole pages (issue 21 item 3):
 * precision and recall of `relevant` against the labels of generated
 * portal webs, for the Naive Bayes judge (model versions 1-2, `train
 * --classifier nb`), the calibrated linear target-vs-rest judge (version 3)
 * and the one-vs-rest judge (version 5, `--classifier linear` on texts of
 * several labels: the target's share of the squares of every class's
 * probability; version 4 took the share of the probabilities).
 *
 *   node --import tsx bench/page-judge.ts [--targets news_finance,...] [--seeds 1,2,3] [--write]
 *
 * TNEWS dev is split by line parity; each split trains on one half and
 * builds webs (`generatePortalWeb`, the code behind `focuscrawl gen-web`,
 * one per seed) from the other, so no headline of a web was trained on.
 * Every HTML page answered 200 is parsed as the crawler parses it and
 * judged; a page is a positive iff its label is the target (articles
 * only: hubs, homes and forum threads are negatives). Exits 2 when the
 * corpus is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Headline } from '../src/tools/genweb/portal.ts';
import { fitModel, type Model } from '../src/relevance/model.ts';
import { readTexts } from '../src/relevance/train/from-texts.ts';
import { linkDensity } from '../src/relevance/learn/features.ts';
import { binaryMetrics } from '../src/relevance/learn/metrics.ts';
import { bestF1Threshold } from '../src/relevance/learn/linear.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';
import { labelledPages, precisionRecallAt } from './lib/judge.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TNEWS = path.resolve(ROOT, '..', 'shared', 'corpora', 'tnews', 'tnews-dev.ndjson');

const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: 'news_finance,news_sports,news_tech' },
    seeds: { type: 'string', default: '1,2,3' },
    write: { type: 'boolean', default: false },
  },
});
if (!existsSync(TNEWS)) {
  process.stderr.write(`page-judge: ${TNEWS} is missing (../shared/corpora beside the repo)\n`);
  process.exit(2);
}
const targets = values.targets!.split(',');
const seeds = values.seeds!.split(',').map(Number);
const started = Date.now();
const lines = readFileSync(TNEWS, 'utf8').split('\n').filter((l) => l.trim() !== '');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'page-judge-'));

type Cell = { p: number; r: number; auc: number; bestP: number; bestR: number; t: number };
/** false positives of the linear judges at the model's threshold, by page label, over all webs (key target|judge) */
const confusion = new Map<string, Map<string, number>>();
const results = new Map<string, Cell[]>(); // `${target}|${judge}` -> one cell per web
const density = new Map<string, number[]>();
const kindOf = (label: string): string => (label.includes(':') ? label.split(':')[0] : label === 'home' ? 'home' : 'article');

for (const parity of [0, 1]) {
  const trainLines = lines.filter((_, i) => i % 2 === parity);
  const webLines = lines.filter((_, i) => i % 2 !== parity);
  const trainFile = path.join(tmp, `train-${parity}.ndjson`);
  await writeFile(trainFile, `${trainLines.join('\n')}\n`);
  const headlines: Headline[] = webLines.map((l) => {
    const o = JSON.parse(l) as { sentence: string; label_desc: string; keywords?: string };
    return { sentence: o.sentence, label: o.label_desc, keywords: o.keywords };
  });
  const models = new Map<string, Model>();
  for (const target of targets) {
    const data = await readTexts({ files: [trainFile], textField: 'sentence', labelField: 'label_desc', contextField: 'keywords', target });
    models.set(`${target}|nb`, fitModel(data, { target, classifier: 'nb' }).model);
    models.set(`${target}|linear`, fitModel(data, { target, classifier: 'linear', rivals: false }).model);
    models.set(`${target}|ovr`, fitModel(data, { target, classifier: 'linear' }).model);
    process.stderr.write(`page-judge: trained ${target} on ${parity === 0 ? 'even' : 'odd'} lines\n`);
  }
  for (const seed of seeds) {
    const pages = labelledPages(headlines, seed);
    if (parity === 0 && seed === seeds[0]) {
      for (const { page, label } of pages) {
        const k = kindOf(label);
        density.set(k, [...(density.get(k) ?? []), linkDensity(page)]);
      }
    }
    for (const [key, model] of models) {
      const target = key.split('|')[0];
      const probs = pages.map(({ page }) => model.pageProbability(page));
      const ys = pages.map(({ label }) => (label === target ? 1 : 0) as 0 | 1);
      const count = (t: number): { p: number; r: number } => precisionRecallAt(probs, ys, t);
      // the best F1 point at any threshold, chosen on this web itself (an oracle bound, not a result)
      const best = count(bestF1Threshold(probs, ys));
      const cell = { ...count(model.threshold), auc: binaryMetrics(probs, ys).auc, bestP: best.p, bestR: best.r, t: model.threshold };
      if (!key.endsWith('|nb')) {
        const conf = confusion.get(key) ?? new Map<string, number>();
        probs.forEach((pr, i) => {
          if (pr >= model.threshold && !ys[i]) conf.set(pages[i].label, (conf.get(pages[i].label) ?? 0) + 1);
        });
        confusion.set(key, conf);
      }
      results.set(key, [...(results.get(key) ?? []), cell]);
      process.stderr.write(`page-judge: split ${parity} web ${seed} ${key}: P ${cell.p.toFixed(3)} R ${cell.r.toFixed(3)} at ${cell.t.toFixed(3)}, AUC ${cell.auc.toFixed(3)}, best F1 point P ${cell.bestP.toFixed(3)} R ${cell.bestR.toFixed(3)} (${pages.length} pages)\n`);
    }
  }
}
await rm(tmp, { recursive: true, force: true });

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const span = (xs: number[]): string => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
const JUDGES: Record<string, string> = {
  nb: 'Naive Bayes, whole page',
  linear: 'linear target vs rest (v3), main text, hub rule',
  ovr: '**linear one vs rest (v5): target\'s share of squares**, main text, hub rule',
};
const rows: string[] = [];
for (const target of targets) {
  for (const judge of ['nb', 'linear', 'ovr']) {
    const cells = results.get(`${target}|${judge}`)!;
    rows.push(
      `| ${target.replace('news_', '')} | ${JUDGES[judge]} | ${span(cells.map((c) => c.t))} | ${span(cells.map((c) => c.p))} | ${span(cells.map((c) => c.r))} | ` +
        `${span(cells.map((c) => c.auc))} | ${span(cells.map((c) => c.bestP))} / ${span(cells.map((c) => c.bestR))} |`,
    );
  }
}
const densityRows = [...density].map(([k, xs]) => `| ${k} | ${xs.length} | ${median(xs).toFixed(2)} | ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)} |`);
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
const section = [
  '## Page judge of a texts-trained model on whole pages (issue 21 item 3)',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores, shared), Node ${process.version}, commit ${commit}; ` +
    `${((Date.now() - started) / 60000).toFixed(1)} min. Command: \`node --import tsx bench/page-judge.ts ${process.argv.slice(2).join(' ')}\`.`,
  '',
  `TNEWS dev split by line parity: each half trains (\`train --texts\`, sentence + keywords, as bench/chinese-web-results.ts) and the other half builds ` +
    `webs with \`gen-web --seed\` ${seeds.join(', ')}: ${2 * seeds.length} webs, no web headline trained on. Every HTML page answered 200 is judged; ` +
    'positive iff its label is the target (articles; hubs, homes and forum threads of the target are negatives). `relevant` = P ≥ the model\'s threshold ' +
    '(NB: 0.5; linear: the precision = recall cut on held-out training examples, chosen inside `train`; one vs rest: the same cut of the target\'s share ' +
    'P_t² / (P_t² + Σ P_other²) of the out-of-fold probabilities of every class). The oracle column picks the threshold on the web itself: the best any threshold could do with this ranking. ' +
    `Median over the ${2 * seeds.length} webs (min–max).` +
    (seeds.includes(1) ? '' : ' Seed 1 (split 0) was the dev web on which the judge\'s design was chosen (one vs rest; whole main text rather than per-sentence aggregation; the share of squares); it is not reported here.'),
  '',
  '| target | judge | threshold | precision | recall | page AUC | best F1 point at any threshold (oracle): P / R |',
  '|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'False positives of the linear judges at their threshold, summed over the webs, by the page\'s label (top 4):',
  '',
  ...[...confusion].map(([t, m]) => `- ${t.replace('news_', '').replace('|linear', ', target vs rest').replace('|ovr', ', one vs rest')}: ${[...m].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([l, c]) => `${l} ${c}`).join(', ')} (all: ${[...m.values()].reduce((a, b) => a + b, 0)})`),
  '',
  `Link density (anchor + navigation characters / visible characters) by page kind, split 0, web ${seeds[0]}; the linear judge calls a page above 0.8 (DEFAULT_HUB_DENSITY) a hub:`,
  '',
  '| kind | pages | median | range |',
  '|---|---|---|---|',
  ...densityRows,
].join('\n');
process.stdout.write(`${section}\n`);
if (values.write) await writeSection(resultsDoc('page-judge'), 'page-judge', section, '# Page judge'); // RESULTS.md keeps a summary
