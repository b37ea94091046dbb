/**
 * The focus experiment of RESULTS.md: every strategy against breadth-first on
 * the WebKB replay, for the targets course, student and faculty.
 *
 *   node --import tsx bench/webkb-results.ts [--targets course,student,faculty]
 *        [--strategies bfs,...] [--train-flags "..."] [--crawl-flags "..."]
 *        [--out DIR] [--write]
 *
 * Quick runs: `--targets course --strategies bfs,nb-link,online` (the first
 * strategy is the baseline of the ratio column). `--train-flags` replaces
 * the flags the models are trained with (default WEBKB_TRAIN_FLAGS, bench/lib/webkb.ts); models are
 * cached in DIR per target and flags. `--crawl-flags` go to every crawl
 * (e.g. "--param parentWeight=0.3").
 *
 * 1. Train one model per target on the *misc* university pages only
 *    (`focuscrawl train --where university=misc`), so the crawled
 *    universities (Cornell, Texas, Washington) are unseen.
 * 2. Crawl exhaustively with bfs from the three department home pages; the
 *    archive pages it reaches (status 200) are the reachable set, the
 *    denominator of recall.
 * 3. `focuscrawl compare` per target with every strategy (the model passed to
 *    all), counting only archived pages (--status 200): the replay answers
 *    404 for the ~86% of 1997 links that leave the archive; with --oracle,
 *    so the oracles' rows sit under the strategies'.
 * 4. With --write, the table goes into RESULTS.md between the markers and the
 *    plots into docs/results/.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile, copyFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { focusCells, runFocuscrawl, summariesOf } from './lib/focus.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';
import { WEBKB_LABELS, WEBKB_SEEDS, WEBKB_TRAIN_FLAGS, WEBKB_WARC } from './lib/webkb.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'focuscrawl');
const ALL = 'bfs,best-first,best-n-first,nb-link,bayes-kde,etfl,hits,ipagerank,online';
const CRAWL_FLAGS = ['--concurrency', '16', '--per-host', '8'];

const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: 'course,student,faculty' },
    strategies: { type: 'string', default: ALL },
    'train-flags': { type: 'string', default: WEBKB_TRAIN_FLAGS },
    'crawl-flags': { type: 'string', default: '' },
    out: { type: 'string', default: path.join(os.tmpdir(), 'focuscrawl-webkb-results') },
    write: { type: 'boolean', default: false },
  },
});
if (!existsSync(WEBKB_WARC)) {
  process.stderr.write(`webkb-results: ${WEBKB_WARC} is missing (../shared/corpora beside the repo)\n`);
  process.exit(2);
}
const out = values.out!;
const trainFlags = values['train-flags']!.split(/\s+/).filter(Boolean);
const extraCrawlFlags = values['crawl-flags']!.split(/\s+/).filter(Boolean);
const crawlFlags = [...CRAWL_FLAGS, ...extraCrawlFlags];
// a model is reused across runs only when trained with the same flags by the
// same training code (a changed src/relevance/train, src/relevance/learn or src/relevance/model.ts retrains)
const trainingCode = ['src/relevance/model.ts', ...['src/relevance/train', 'src/relevance/learn'].flatMap((d) => readdirSync(path.join(ROOT, d)).sort().map((f) => path.join(d, f)))];
const flagsTag = createHash('sha256')
  .update(trainFlags.join(' '))
  .update(trainingCode.map((f) => readFileSync(path.join(ROOT, f))).join('\0'))
  .digest('hex')
  .slice(0, 8);
await mkdir(out, { recursive: true });


// 2. the reachable set: exhaustive breadth-first crawl through one replay proxy
const reachableFile = path.join(out, 'reachable.txt');
if (!existsSync(reachableFile)) {
  process.stderr.write('webkb-results: exhaustive bfs crawl for the reachable set...\n');
  const replay = spawn(process.execPath, [BIN, 'replay', '--warc', WEBKB_WARC], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve) => replay.stdout.once('data', (d: Buffer) => resolve(d.toString())));
  const proxy = (JSON.parse(first.split('\n')[0]) as { listening: string }).listening;
  const bfsOut = path.join(out, 'bfs-exhaustive.ndjson');
  await writeFile(bfsOut, await runFocuscrawl(['crawl', ...WEBKB_SEEDS.flatMap((s) => ['--seed', s]), '--proxy', proxy, '--store', path.join(out, 'bfs-store'), '--fresh', '--quiet', ...CRAWL_FLAGS]));
  replay.kill('SIGTERM');
  const urls = new Set<string>();
  for (const line of readFileSync(bfsOut, 'utf8').split('\n')) {
    if (line === '') continue;
    const r = JSON.parse(line) as { type: string; status?: number; finalUrl?: string };
    if (r.type === 'page' && r.status === 200 && r.finalUrl) urls.add(r.finalUrl);
  }
  await writeFile(reachableFile, `${[...urls].sort().join('\n')}\n`);
  process.stderr.write(`webkb-results: ${urls.size} archived pages reachable from the seeds\n`);
}


const rows: string[] = [];
const started = Date.now();
for (const target of values.targets!.split(',')) {
  // 1. the model, trained on misc pages only
  const model = path.join(out, `${target}.${flagsTag}.model.json`);
  if (!existsSync(model)) {
    process.stderr.write(`webkb-results: training ${target} on misc pages...\n`);
    await runFocuscrawl(['train', '--warc', WEBKB_WARC, '--labels', WEBKB_LABELS, '--where', 'university=misc', '--target', target, ...trainFlags, '--out', model]);
  }
  // 3. every strategy on the same replay
  process.stderr.write(`webkb-results: compare for ${target}...\n`);
  const dir = path.join(out, target);
  const text = await runFocuscrawl([
    'compare', '--warc', WEBKB_WARC, '--labels', WEBKB_LABELS, '--target', target, ...WEBKB_SEEDS.flatMap((s) => ['--seed', s]),
    '--strategies', values.strategies!, '--model', model, '--status', '200', '--reachable', reachableFile,
    '--at', '200,500,1000', '--oracle', '--out-dir', dir, '--plot', path.join(dir, `${target}.svg`), '--', ...crawlFlags,
  ]);
  const summaries = summariesOf(text, 200);
  const bfs = summaries.find((s) => s.run === 'bfs');
  for (const s of summaries) rows.push(`| ${target} | ${s.run} | ${focusCells(s, bfs)} |`);
  if (values.write) {
    await mkdir(path.join(ROOT, 'docs', 'results'), { recursive: true });
    await copyFile(path.join(dir, `${target}.svg`), path.join(ROOT, 'docs', 'results', `webkb-${target}.svg`));
  }
}

const commit = (await promisify(execFile)('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })).stdout.trim();
const table = [
  '## Focus on the WebKB web (course, student, faculty)',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores), Node ${process.version}, commit ${commit}; ` +
    `${((Date.now() - started) / 60000).toFixed(1)} min. Command: \`node --import tsx bench/webkb-results.ts${extraCrawlFlags.length > 0 ? ` --crawl-flags="${extraCrawlFlags.join(' ')}"` : ''} --write\`. One crawl per cell ` +
    `(crawl flags \`${CRAWL_FLAGS.join(' ')}\`${extraCrawlFlags.length > 0 ? `, then \`${extraCrawlFlags.join(' ')}\`, which win` : ''}: the order of completions varies a little between runs).`,
  '',
  'Pages are archived pages fetched (status 200); recall is over the target pages reachable from the seeds ' +
    `(found by an exhaustive breadth-first crawl). Models: trained on the misc universities only (\`focuscrawl train --where university=misc ${trainFlags.join(' ')}\`)` +
    '. ' +
    `1-minute load average ${os.loadavg()[0].toFixed(1)} at the end (other work shared the machine: crawls were slower, and the orders vary). ` +
    'The oracle-* rows are not crawls: `compare --oracle` simulates crawlers that know the labels on the archive\'s link graph (oracle-link: whether each link\'s target is a target page; oracle-layer1/2: also which pages are one or two links from one; oracle-graph: the whole graph, greedily), what knowing the answers buys.',
  '',
  '| target | strategy | pages to 50% | pages to 80% | vs bfs | pages to 90% | harvest@200 | harvest@500 | harvest@1000 | found |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'Plots: `docs/results/webkb-course.svg`, `webkb-student.svg`, `webkb-faculty.svg`.',
].join('\n');
process.stdout.write(`${table}\n`);
if (values.write) await writeSection(resultsDoc('webkb-focus'), 'webkb-focus', table, '# Focus on the WebKB web: every cell'); // RESULTS.md keeps a summary
