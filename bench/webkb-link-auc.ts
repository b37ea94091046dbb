/**
 * Leave one university out on WebKB for the link classifier (issue 24):
 * for each held-out university U and target, `train --warc` (WEBKB_TRAIN_FLAGS:
 * feature group 4, balanced links, hub links) on every labelled page but
 * U's, once with `--classifier nb` and once with `--classifier linear`, and
 * the held-out AUC of Model.linkProbability on U's link examples (read the
 * same way, `--where university=U`: links to U's labelled pages, hub links
 * positive). Group 4's parent relevance is the parent page's label, as
 * training reads it (an oracle judge: the same for both classifiers).
 * The linear classifier is trainLinearLink's (what fitModel's
 * `classifier: 'linear'` stores as the link classifier), trained alone: the
 * page judge plays no part in these AUCs. The blend is fitModel's
 * `classifier: 'blend'` link classifier (fitBlendLink: NB and that linear
 * classifier stacked, weights fitted on their out-of-fold predictions on
 * site folds of the training universities); its linear part is the linear
 * column's classifier. Prints one row per (U, target), with the λ its
 * site-grouped cross-validation chose, the stacking weights and the
 * inner (out-of-fold) AUCs the blend was fitted on. With --write the table
 * goes to docs/results/webkb-link-auc.md.
 *
 *   node --import tsx bench/webkb-link-auc.ts [--targets course,student,faculty]
 *        [--universities cornell,texas,washington] [--min-df N] [--write]
 *
 * `--min-df N`: the linear classifier's LinearOptions.minDf.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fitModel, linkGrams } from '../src/relevance/model.ts';
import { LinearClassifier } from '../src/relevance/learn/linear.ts';
import { logit } from '../src/relevance/learn/blend.ts';
import { binaryMetrics } from '../src/relevance/learn/metrics.ts';
import { readWarc } from '../src/relevance/train/from-warc.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';
import { parseTrainFlags } from './lib/simulate.ts';
import { WEBKB_LABELS, WEBKB_TRAIN_FLAGS, WEBKB_UNIVERSITIES, WEBKB_WARC } from './lib/webkb.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { targets: { type: 'string', default: 'course,student,faculty' }, universities: { type: 'string', default: Object.keys(WEBKB_UNIVERSITIES).join(',') }, 'min-df': { type: 'string' }, write: { type: 'boolean', default: false } } });
if (!existsSync(WEBKB_WARC) || !existsSync(WEBKB_LABELS)) {
  process.stderr.write(`webkb-link-auc: ${WEBKB_WARC} or its labels are missing\n`);
  process.exit(2);
}
const flags = parseTrainFlags(WEBKB_TRAIN_FLAGS);
const started = Date.now();
const rows: string[] = [];
const sums = { nb: 0, linear: 0, blend: 0, mix: 0, n: 0 };
const wins = { linear: 0, blend: 0, mix: 0 };
for (const target of values.targets!.split(',')) {
  for (const u of values.universities!.split(',')) {
    if (WEBKB_UNIVERSITIES[u] === undefined) {
      process.stderr.write(`webkb-link-auc: unknown university ${u}\n`);
      process.exit(2);
    }
    const train = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: [{ column: 'university', value: u, negate: true }], hubLinks: flags.hubLinks });
    const test = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: [{ column: 'university', value: u }], hubLinks: flags.hubLinks });
    const labels = test.links.map((l) => l.label);
    const auc: Record<string, number> = {};
    const model = fitModel(train, { target, group: flags.group, balancedLinks: flags.balancedLinks, classifier: 'nb' }).model;
    auc.nb = binaryMetrics(test.links.map((l) => model.linkProbability(l.anchor, l.context, l.url, { url: l.parentUrl ?? '', title: l.parentTitle ?? '', relevant: l.parentRelevant ?? false })), labels).auc;
    const blended = fitModel(train, { target, group: flags.group, balancedLinks: flags.balancedLinks, classifier: 'blend', ...(values['min-df'] === undefined ? {} : { linearOptions: { minDf: Number(values['min-df']) } }) });
    const blend = blended.json.blend!;
    auc.blend = binaryMetrics(test.links.map((l) => blended.model.linkProbability(l.anchor, l.context, l.url, { url: l.parentUrl ?? '', title: l.parentTitle ?? '', relevant: l.parentRelevant ?? false })), labels).auc;
    // the blend's linear part is trainLinearLink's classifier, as `classifier: 'linear'` stores it (6-digit JSON rounding)
    const link = LinearClassifier.fromJSON(blend.link);
    auc.linear = binaryMetrics(test.links.map((l) => link.probability(linkGrams(l.anchor, l.context, { group: flags.group, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant }))), labels).auc;
    // the convex mix of standardised logits, α chosen by out-of-fold AUC (fitBlendLink's inner.mixAlpha): ranking only
    const alpha = blend.inner!.mixAlpha;
    auc.mix = binaryMetrics(
      test.links.map((l) => {
        const zNb = logit(model.linkProbability(l.anchor, l.context, l.url, { url: l.parentUrl ?? '', title: l.parentTitle ?? '', relevant: l.parentRelevant ?? false }));
        const zLin = logit(link.probability(linkGrams(l.anchor, l.context, { group: flags.group, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant })));
        return (alpha * zNb) / blend.inner!.sdNb + ((1 - alpha) * zLin) / blend.inner!.sdLinear;
      }),
      labels,
    ).auc;
    const w = blend.weights.map((x) => x.toFixed(2)).join(', ');
    const inner = `${blend.inner!.nb.toFixed(3)} / ${blend.inner!.linear.toFixed(3)} / ${blend.inner!.blend.toFixed(3)} / ${blend.inner!.mix.toFixed(3)}`;
    sums.nb += auc.nb;
    sums.linear += auc.linear;
    sums.blend += auc.blend;
    sums.mix += auc.mix;
    sums.n++;
    if (auc.linear > auc.nb) wins.linear++;
    if (auc.blend > auc.nb) wins.blend++;
    if (auc.mix > auc.nb) wins.mix++;
    const row = `| ${target} | ${u} | ${test.links.length} (${labels.filter((y) => y === 1).length} +) | ${auc.nb.toFixed(3)} | ${auc.linear.toFixed(3)} | ${auc.blend.toFixed(3)} | ${auc.mix.toFixed(3)} (α ${alpha}) | λ ${link.lambda} | ${w} | ${inner} |`;
    process.stderr.write(`${row}\n`);
    rows.push(row);
  }
}
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
const section = [
  '## WebKB link classifier, leave one university out: NB, linear and blend (issue 24)',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores, shared), Node ${process.version}, commit ${commit}; ` +
    `${((Date.now() - started) / 60000).toFixed(1)} min. Command: \`node --import tsx bench/webkb-link-auc.ts ${process.argv.slice(2).join(' ')}\`. ` +
    `Training flags \`${WEBKB_TRAIN_FLAGS}\` on the other universities' labelled pages (misc included); AUC of linkProbability on the held-out university's link examples (parent relevance: the parent's label). ` +
    "blend: `train --classifier blend`'s link classifier, σ(a·logit(P_nb) + b·logit(P_lin) + c), the weights a, b, c a logistic regression on both classifiers' out-of-fold predictions over site folds of the training universities only; mix: not shipped, a ranking-only variant, α·logit(P_nb)/sd + (1 − α)·logit(P_lin)/sd (standardised on the out-of-fold logits) with α the step of 0.05 whose out-of-fold AUC is highest. inner: the out-of-fold AUCs (nb / linear / blend / mix), what the weights and α were chosen on.",
  '',
  '| target | held out | test links | NB AUC | linear AUC | blend AUC | mix AUC (α) | linear λ (site-grouped CV) | blend a, b, c | inner AUC nb / linear / blend / mix |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows,
  `| mean | | | ${(sums.nb / sums.n).toFixed(3)} | ${(sums.linear / sums.n).toFixed(3)} | ${(sums.blend / sums.n).toFixed(3)} | ${(sums.mix / sums.n).toFixed(3)} | | | |`,
  '',
  `Above NB's AUC: linear in ${wins.linear} of ${sums.n} cells, blend in ${wins.blend} of ${sums.n}, mix in ${wins.mix} of ${sums.n}.`,
].join('\n');
process.stdout.write(`${section}\n`);
if (values.write) await writeSection(resultsDoc('webkb-link-auc'), 'webkb-link-auc', section, '# WebKB link classifier, leave one university out');
