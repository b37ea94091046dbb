/**
 * How few pages could any crawler need? Two oracles on the WebKB link graph,
 * next to breadth-first, for the targets of RESULTS.md (course, student,
 * faculty): the yardstick the issue's "at most half of bfs's pages" is
 * measured against.
 *
 *   node --import tsx bench/webkb-oracle.ts [--targets course,student,faculty]
 *        [--simulate nb-link,best-first,... [--in-flight 16[,8,24...]] [--train-flags "..."] [--param K=V]...] [--write]
 *
 * The graph: every archived page (status 2xx, HTML) parsed as the crawler
 * parses it (parseBody), its followable links canonicalised; an edge when the
 * link's target is archived too. The replay answers 404 for the rest, which
 * the table of RESULTS.md does not count as pages either. Crawls are
 * simulated on this graph from the three seeds, one page at a time, counting
 * archived pages fetched:
 *
 * - bfs: first in, first out (the real crawl runs 16 requests at once, so
 *   its order differs a little);
 * - link oracle: a perfect link classifier. A link whose target is a target
 *   page comes first, other links first in, first out. The best that a
 *   strategy scoring each link by its own target (nb-link, bayes-kde) can do;
 * - layer oracles: a perfect context-graph classifier (Diligenti et al.,
 *   2000): target pages first, then pages linking to one (layer 1), then
 *   (layer 2) pages two links away; the rest first in, first out;
 * - graph oracle: knows every label and the whole graph. It fetches the
 *   discovered page nearest (in links) to a target not yet fetched, first
 *   in, first out among equals. Not guaranteed optimal (that is a Steiner
 *   problem), but no crawler that learns as it goes knows as much.
 *
 * With --simulate, also the strategies named simulated the same way, their
 * own scorers scoring each link (the frontier raising a URL found again with
 * a higher score; a strategy that learns as it crawls is told each commit
 * and its re-scores applied; `--in-flight` pages, 16 as in the real crawls,
 * are taken ahead of their completion; with several values, one simulation
 * each, and the row gives medians and the range of pages to 80%: a crawl's
 * figures move with its order as much as with a small change of a scorer,
 * so judge a change by the median over several), with a model trained per target on
 * the misc universities as bench/webkb-results.ts trains it: a quick loop
 * (seconds, not the half hour of real crawls) for trying a change to a
 * scorer or the link classifier; check a result with real crawls.
 *
 * Recall is over the target pages reachable from the seeds in this graph
 * (readLinkGraph obeys archived robots.txt as the crawler does): on
 * 2026-11-25 the same 187 course, 463 student and 224 faculty pages that the
 * exhaustive crawl of bench/webkb-results.ts found.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { readLabels, readWarc } from '../src/relevance/train/from-warc.ts';
import { fitModel, type Model } from '../src/relevance/model.ts';
import { parseParams } from '../src/commands/crawl.ts';
import { NOT_ARCHIVED, fifo, graphOracle, layerOracle, linkOracle, pagesToShare, readLinkGraph, seedIds, simulateCrawl } from '../src/tools/eval/oracle.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';
import { median, medianOrNull, parseTrainFlags, simulateStrategy } from './lib/simulate.ts';
import { WEBKB_LABELS, WEBKB_SEEDS, WEBKB_TRAIN_FLAGS, WEBKB_WARC } from './lib/webkb.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AT = [200, 500, 1000];
const SHARES = [0.5, 0.8, 0.9];

const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: 'course,student,faculty' },
    // also simulate these strategies with a model trained as bench/webkb-results.ts trains it
    simulate: { type: 'string', default: '' },
    // pages in flight at once in the simulated strategies' crawls (the real crawls run 16)
    'in-flight': { type: 'string', default: '16' },
    param: { type: 'string', multiple: true },
    'train-flags': { type: 'string', default: WEBKB_TRAIN_FLAGS },
    write: { type: 'boolean', default: false },
  },
});
const simulate = values.simulate!.split(',').filter(Boolean);
if (!/^[1-9][0-9]*(,[1-9][0-9]*)*$/.test(values['in-flight']!)) {
  process.stderr.write(`webkb-oracle: --in-flight must be positive integers separated by commas, got ${values['in-flight']}\n`);
  process.exit(2);
}
const inFlights = values['in-flight']!.split(',').map(Number);
if (!existsSync(WEBKB_WARC)) {
  process.stderr.write(`webkb-oracle: ${WEBKB_WARC} is missing (../shared/corpora beside the repo)\n`);
  process.exit(2);
}

// the graph: node ids for archived HTML pages, out-edges to archived pages,
// and (missing) to the link targets the replay answers 404 for, which a
// crawl fetches too: they take fetch slots and teach the learning strategies
const started = Date.now();
const graph = await readLinkGraph([WEBKB_WARC], { keepPages: true, missing: true });
const { urls, out, htmlPages, status } = graph;
const archived = (v: number): boolean => status[v] !== NOT_ARCHIVED;
const seeds = seedIds(graph, WEBKB_SEEDS);
const edgeCount = out.reduce((n, e) => n + e.filter(archived).length, 0);

const labels = (await readLabels(WEBKB_LABELS)).labels;

/**
 * The simulated crawl of `strategy` on the graph: its own scorer scores the
 * links and, for a strategy that learns as it crawls (online, hits,
 * ipagerank), is told each page's commit and asked for re-scores
 * (src/tools/eval/sim-scorer.ts). The model is trained on the misc universities
 * only, with the flags of bench/webkb-results.ts (--train-flags), and passed
 * to the scorer as `crawl --model` does; the page relevance is the scorer's
 * own judge.
 */
async function simulated(strategy: string, target: string, inFlight: number): Promise<number[]> {
  return simulateStrategy(graph, seeds, strategy, await modelFor(target), parseParams(values.param ?? []), inFlight);
}

/**
 * The model of `target`, trained once: the promise is kept, so the
 * simulations started together (every strategy, every --in-flight) share
 * one training instead of each starting its own.
 */
function modelFor(target: string): Promise<Model> {
  let model = models.get(target);
  if (model === undefined) {
    const flags = parseTrainFlags(values['train-flags']!);
    model = readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: [{ column: 'university', value: 'misc' }], hubLinks: flags.hubLinks }).then(
      (data) => fitModel(data, { target, group: flags.group, balancedLinks: flags.balancedLinks }).model,
    );
    models.set(target, model);
  }
  return model;
}
const models = new Map<string, Promise<Model>>();

const reach = new Set(simulateCrawl(out, seeds, fifo).filter(archived));
const commit = (await promisify(execFile)('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })).stdout.trim();
const rows: string[] = [];
const fmt = (n: number | null): string => (n === null ? 'not reached' : String(n));
for (const target of values.targets!.split(',')) {
  const isTarget = (id: number): boolean => labels.get(urls[id]!) === target;
  const goals = [...reach].filter(isTarget);
  // each simulated strategy once per --in-flight value; the row gives medians
  const runs: [string, number[][]][] = [
    ['bfs (simulated, FIFO)', [simulateCrawl(out, seeds, fifo)]],
    ...(await Promise.all(
      simulate.map(async (strategy) => [`${strategy} (simulated, model trained on misc)`, await Promise.all(inFlights.map((w) => simulated(strategy, target, w)))] as [string, number[][]]),
    )),
    ['link oracle (perfect link classifier)', [simulateCrawl(out, seeds, linkOracle(isTarget))]],
    ['layer oracle, 1 (targets, then pages linking to one)', [simulateCrawl(out, seeds, layerOracle(out, goals, 1))]],
    ['layer oracle, 2 (... then pages two links away)', [simulateCrawl(out, seeds, layerOracle(out, goals, 2))]],
    ['graph oracle (labels + whole graph)', [simulateCrawl(out, seeds, graphOracle(out, goals))]],
  ];
  let bfsAt80 = 0;
  for (const [name, crawls] of runs) {
    // pages counted as the real crawls' table counts them: archived ones
    const orders = crawls.map((fetched) => fetched.filter(archived));
    const toShare = SHARES.map((share) => medianOrNull(orders.map((order) => pagesToShare(order, isTarget, goals.length, share))));
    if (name.startsWith('bfs')) bfsAt80 = toShare[1] ?? 0;
    const harvest = AT.map((n) => `${median(orders.map((order) => (100 * order.slice(0, n).filter(isTarget).length) / Math.min(n, order.length))).toFixed(1)}%`);
    const ratio = toShare[1] === null || bfsAt80 === 0 ? '–' : (toShare[1] / bfsAt80).toFixed(2);
    const at80 = orders.map((order) => pagesToShare(order, isTarget, goals.length, 0.8) ?? Infinity);
    const spread = orders.length > 1 ? ` (${Math.min(...at80)}–${Math.max(...at80)})` : '';
    rows.push(`| ${target} | ${name} | ${fmt(toShare[0]!)} | ${fmt(toShare[1]!)}${spread} | ${ratio} | ${fmt(toShare[2]!)} | ${harvest.join(' | ')} | ${goals.length} |`);
  }
}

const table = [
  '## How few pages an oracle needs (WebKB)',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores), Node ${process.version}, commit ${commit}; ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s. Command: \`node --import tsx bench/webkb-oracle.ts${simulate.length > 0 ? ` --simulate ${simulate.join(',')}${values['in-flight'] === '16' ? '' : ` --in-flight ${values['in-flight']}`}${values['train-flags'] === WEBKB_TRAIN_FLAGS ? '' : ` --train-flags '${values['train-flags']}'`}` : ''}${(values.param ?? []).map((p) => ` --param ${p}`).join('')} --write\`.`,
  '',
  `Simulated crawls on the archive's link graph (${htmlPages} archived HTML pages, ${edgeCount} links between them, ${reach.size} reachable from the three seeds), ` +
    `one page at a time (the simulated strategies: ${inFlights.join(', ')} in flight${inFlights.length > 1 ? ', one simulation each; the row gives the medians and the range of pages to 80%' : ''}, as the real crawls' concurrency, and fetching the link targets the archive lacks as 404s, as the real crawls do), counting archived pages fetched as the table above does. ` +
    'The link oracle fetches the target pages among the discovered ones first (a perfect link classifier: it knows for each link whether its target is a target page). ' +
    'A layer oracle knows, in addition, which pages link to a target page (layer 1) or are two links from one (layer 2), and fetches lower layers first (a perfect context-graph classifier, Diligenti et al. 2000). ' +
    'The graph oracle fetches the discovered page fewest links away from a target not yet fetched (it knows every label and the whole graph). ' +
    'See bench/webkb-oracle.ts.',
  '',
  '| target | crawl | pages to 50% | pages to 80% | vs bfs | pages to 90% | harvest@200 | harvest@500 | harvest@1000 | reachable targets |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows,
].join('\n');
process.stdout.write(`${table}\n`);
if (values.write) await writeSection(resultsDoc('webkb-oracle'), 'webkb-oracle', table, '# How few pages an oracle needs: every cell'); // RESULTS.md keeps a summary
