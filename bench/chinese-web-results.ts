/**
 * The Chinese focus experiment of RESULTS.md: every strategy against
 * breadth-first on a portal web generated from TNEWS headlines, target
 * news_finance.
 *
 *   node --import tsx bench/chinese-web-results.ts [--strategies bfs,...] [--out DIR] [--write]
 *
 * The TNEWS dev set is split in two by line parity: the even lines train the
 * model (`focuscrawl train --texts`, headline as anchor, keywords as
 * context), the odd lines become the web (`focuscrawl gen-web`), so no
 * headline the model saw is on the crawled web. Links of the web are
 * synthetic (see src/tools/genweb/portal.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile, copyFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { focusCells, runFocuscrawl, summariesOf } from './lib/focus.ts';
import { writeSection } from './lib/sections.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TNEWS = path.resolve(ROOT, '..', 'shared', 'corpora', 'tnews', 'tnews-dev.ndjson');
const TARGET = 'news_finance';
const ALL = 'bfs,best-first,best-n-first,nb-link,bayes-kde,etfl,hits,ipagerank,online';

const { values } = parseArgs({
  options: {
    strategies: { type: 'string', default: ALL },
    out: { type: 'string', default: path.join(os.tmpdir(), 'focuscrawl-chinese-results') },
    write: { type: 'boolean', default: false },
  },
});
if (!existsSync(TNEWS)) {
  process.stderr.write(`chinese-web-results: ${TNEWS} is missing (../shared/corpora beside the repo)\n`);
  process.exit(2);
}
const out = values.out!;
await mkdir(out, { recursive: true });


const started = Date.now();
const lines = readFileSync(TNEWS, 'utf8').split('\n').filter((l) => l.trim() !== '');
const trainFile = path.join(out, 'train.ndjson');
const webFile = path.join(out, 'web.ndjson');
await writeFile(trainFile, `${lines.filter((_, i) => i % 2 === 0).join('\n')}\n`);
await writeFile(webFile, `${lines.filter((_, i) => i % 2 === 1).join('\n')}\n`);
const warc = path.join(out, 'web.warc.gz');
const labels = path.join(out, 'web-labels.tsv');
const seeds = path.join(out, 'web-seeds.txt');
await runFocuscrawl(['gen-web', '--headlines', webFile, '--out', warc, '--labels-out', labels, '--seeds-out', seeds, '--seed', '1']);
const model = path.join(out, `${TARGET}.model.json`);
await runFocuscrawl(['train', '--texts', trainFile, '--text-field', 'sentence', '--label-field', 'label_desc', '--context-field', 'keywords', '--target', TARGET, '--out', model]);
const text = await runFocuscrawl([
  'compare', '--warc', warc, '--labels', labels, '--target', TARGET, '--seeds', seeds, '--strategies', values.strategies!,
  '--model', model, '--status', '200', '--at', '200,500,1000', '--out-dir', path.join(out, 'runs'), '--plot', path.join(out, 'chinese.svg'),
  '--', '--concurrency', '16', '--per-host', '8',
]);

const summaries = summariesOf(text, 200);
const bfs = summaries.find((s) => s.run === 'bfs');
const rows = summaries.map((s) => `| ${s.run} | ${focusCells(s, bfs)} |`);
const commit = (await promisify(execFile)('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })).stdout.trim();
const table = [
  `## Focus on a generated Chinese portal web (${TARGET})`,
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores), Node ${process.version}, commit ${commit}; ` +
    `${((Date.now() - started) / 60000).toFixed(1)} min. Command: \`node --import tsx bench/chinese-web-results.ts ${process.argv.slice(2).join(' ')}\`. One crawl per row.`,
  '',
  `Web: \`focuscrawl gen-web --seed 1\` from the odd lines of TNEWS dev (synthetic links); model: \`focuscrawl train --texts\` on the even lines. ` +
    `Target ${TARGET}; pages = archived pages fetched (status 200); recall over all ${bfs?.targets ?? '?'} ${TARGET} articles of the web.`,
  '',
  '| strategy | pages to 50% | pages to 80% | vs bfs | pages to 90% | harvest@200 | harvest@500 | harvest@1000 | found |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'Plot: `docs/results/chinese-portal.svg`.',
].join('\n');
process.stdout.write(`${table}\n`);
if (values.write) {
  await mkdir(path.join(ROOT, 'docs', 'results'), { recursive: true });
  await copyFile(path.join(out, 'chinese.svg'), path.join(ROOT, 'docs', 'results', 'chinese-portal.svg'));
  await writeSection(path.join(ROOT, 'RESULTS.md'), 'chinese-web', table);
}
