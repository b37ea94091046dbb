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
 * page judge plays no part in these AUCs. Prints one row per (U, target),
 * with the λ its site-grouped cross-validation chose.
 *
 *   node --import tsx bench/webkb-link-auc.ts [--targets course,student,faculty]
 *        [--universities cornell,texas,washington] [--min-df N] [--write]
 *
 * `--min-df N`: the linear classifier's LinearOptions.minDf.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fitModel, linkGrams, trainLinearLink } from '../src/relevance/model.ts';
import { binaryMetrics } from '../src/relevance/learn/metrics.ts';
import { readWarc } from '../src/relevance/train/from-warc.ts';
import { writeSection } from './lib/sections.ts';
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
const sums = { nb: 0, linear: 0, n: 0 };
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
    const { link } = trainLinearLink(train.links, flags.group, values['min-df'] === undefined ? undefined : { minDf: Number(values['min-df']) });
    auc.linear = binaryMetrics(test.links.map((l) => link.probability(linkGrams(l.anchor, l.context, { group: flags.group, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant }))), labels).auc;
    const chose = `λ ${link.lambda}, ${link.size} features`;
    sums.nb += auc.nb;
    sums.linear += auc.linear;
    sums.n++;
    const row = `| ${target} | ${u} | ${test.links.length} (${labels.filter((y) => y === 1).length} +) | ${auc.nb.toFixed(3)} | ${auc.linear.toFixed(3)} | ${chose} |`;
    process.stderr.write(`${row}\n`);
    rows.push(row);
  }
}
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
const section = [
  '## WebKB link classifier, leave one university out: NB vs linear (issue 24)',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores, shared), Node ${process.version}, commit ${commit}; ` +
    `${((Date.now() - started) / 60000).toFixed(1)} min. Command: \`node --import tsx bench/webkb-link-auc.ts ${process.argv.slice(2).join(' ')}\`. ` +
    `Training flags \`${WEBKB_TRAIN_FLAGS}\` on the other universities' labelled pages (misc included); AUC of linkProbability on the held-out university's link examples (parent relevance: the parent's label).`,
  '',
  '| target | held out | test links | NB AUC | linear AUC | linear: chosen by site-grouped CV |',
  '|---|---|---|---|---|---|',
  ...rows,
  `| mean | | | ${(sums.nb / sums.n).toFixed(3)} | ${(sums.linear / sums.n).toFixed(3)} | |`,
].join('\n');
process.stdout.write(`${section}\n`);
if (values.write) await writeSection(path.join(ROOT, 'RESULTS.md'), 'webkb-link-auc', section);
