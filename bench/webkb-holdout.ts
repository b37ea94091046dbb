/**
 * Leave one university out: how the learned strategies do on a university
 * whose pages they were not trained on, crawled from its own home page. This
 * is the situation of the judged run (another university's web) and of a user
 * who trains on what they have and crawls something new; RESULTS.md's main
 * table trains on the misc universities and crawls all three together.
 *
 *   node --import tsx bench/webkb-holdout.ts [--universities cornell,texas,washington]
 *        [--targets course,student,faculty] [--strategies nb-link,bayes-kde,best-first,etfl,online]
 *        [--train-on others|misc] [--scope domain|web] [--in-flight 8,16,24] [--train-flags "..."] [--param K=V]...
 *        [--skip-extensions LIST|none] [--write]
 *
 * For each held-out university U and target: a model trained on every
 * labelled page but U's (`focuscrawl train --where university!=U`; with
 * `--train-on misc`, on the misc universities only, as RESULTS.md's table),
 * then crawls simulated on the archive's link graph from U's home page
 * alone, within U's domain as `crawl --allow-domain` keeps a crawl (with
 * `--scope web`, anywhere the links lead: the three universities link to
 * each other, so such a crawl spends pages on the others' sites, whose
 * targets do not count here). Simulated as bench/webkb-oracle.ts simulates
 * (src/eval/oracle.ts: the strategy's own scorer, `--in-flight` pages taken
 * ahead, the links the archive lacks fetched as 404s). Recall is over U's
 * target pages reachable from U's home page; pages counted are archived
 * pages fetched. Next to them breadth-first and two oracles (a perfect link
 * classifier; a perfect context-graph classifier, layer 1).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { parseParams } from '../src/cli.ts';
import { NOT_ARCHIVED, fifo, layerOracle, linkOracle, pagesToShare, readLinkGraph, seedIds, simulateCrawl } from '../src/eval/oracle.ts';
import { fitModel } from '../src/model.ts';
import { parseSkipExtensions } from '../src/extensions.ts';
import { compileScope } from '../src/scope.ts';
import { readLabels, readWarc, type WhereFilter } from '../src/train/from-warc.ts';
import { writeSection } from './lib/sections.ts';
import { median, medianOrNull, parseTrainFlags, scopeGraph, simulateStrategy } from './lib/simulate.ts';
import { WEBKB_LABELS, WEBKB_TRAIN_FLAGS, WEBKB_UNIVERSITIES, WEBKB_WARC } from './lib/webkb.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values } = parseArgs({
  options: {
    universities: { type: 'string', default: Object.keys(WEBKB_UNIVERSITIES).join(',') },
    targets: { type: 'string', default: 'course,student,faculty' },
    strategies: { type: 'string', default: 'nb-link,bayes-kde,best-first,etfl,online' },
    'train-on': { type: 'string', default: 'others' },
    scope: { type: 'string', default: 'domain' },
    'in-flight': { type: 'string', default: '8,16,24' },
    'train-flags': { type: 'string', default: WEBKB_TRAIN_FLAGS },
    param: { type: 'string', multiple: true },
    'skip-extensions': { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const fail = (message: string): never => {
  process.stderr.write(`webkb-holdout: ${message}\n`);
  process.exit(2);
};
const universities = values.universities!.split(',').filter(Boolean);
for (const u of universities) if (WEBKB_UNIVERSITIES[u] === undefined) fail(`unknown university ${u} (one of ${Object.keys(WEBKB_UNIVERSITIES).join(', ')})`);
const targets = values.targets!.split(',').filter(Boolean);
const strategies = values.strategies!.split(',').filter(Boolean);
if (values['train-on'] !== 'others' && values['train-on'] !== 'misc') fail(`--train-on is others or misc, got ${values['train-on']}`);
if (values.scope !== 'domain' && values.scope !== 'web') fail(`--scope is domain or web, got ${values.scope}`);
if (!/^[1-9][0-9]*(,[1-9][0-9]*)*$/.test(values['in-flight']!)) fail(`--in-flight must be positive integers separated by commas, got ${values['in-flight']}`);
const inFlights = values['in-flight']!.split(',').map(Number);
if (!existsSync(WEBKB_WARC)) fail(`${WEBKB_WARC} is missing (../shared/corpora beside the repo)`);
const flags = parseTrainFlags(values['train-flags']!);
const params = parseParams(values.param ?? []);
let skipExtensions: string[] | undefined;
try {
  skipExtensions = values['skip-extensions'] === undefined ? undefined : parseSkipExtensions(values['skip-extensions']);
} catch (err) {
  fail((err as Error).message);
}

const started = Date.now();
const web = await readLinkGraph([WEBKB_WARC], { keepPages: true, missing: true, skipExtensions });
const { urls, status } = web;
const archived = (v: number): boolean => status[v] !== NOT_ARCHIVED;
const labels = (await readLabels(WEBKB_LABELS)).labels;

/** The label rows a model for held-out `u` is trained on. */
const trainWhere = (u: string): WhereFilter[] =>
  values['train-on'] === 'misc' ? [{ column: 'university', value: 'misc' }] : [{ column: 'university', value: u, negate: true }];

const fmt = (n: number | null): string => (n === null ? 'not reached' : String(n));
const rows: string[] = [];
/** pages to 80% / bfs's, per strategy, over every cell */
const ratios = new Map<string, number[]>();
/** the same for requests to 80% (every request, 404s too) */
const requestRatios = new Map<string, number[]>();
for (const u of universities) {
  const { seed, domain } = WEBKB_UNIVERSITIES[u]!;
  const inDomain = compileScope({ domains: [domain] })!;
  const graph = values.scope === 'web' ? web : scopeGraph(web, (v) => inDomain(urls[v]!));
  const { out } = graph;
  const seeds = seedIds(graph, [seed]);
  const own = new Set((await readLabels(WEBKB_LABELS, [{ column: 'university', value: u }])).labels.keys());
  const reach = new Set(simulateCrawl(out, seeds, fifo).filter(archived));
  for (const target of targets) {
    const isTarget = (v: number): boolean => labels.get(urls[v]!) === target && own.has(urls[v]!);
    const goals = [...reach].filter(isTarget);
    const data = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: trainWhere(u), hubLinks: flags.hubLinks });
    const model = fitModel(data, { target, group: flags.group, balancedLinks: flags.balancedLinks }).model;
    const runs: [string, number[][]][] = [
      ['bfs', [simulateCrawl(out, seeds, fifo)]],
      ...(await Promise.all(strategies.map(async (s) => [s, await Promise.all(inFlights.map((w) => simulateStrategy(graph, seeds, s, model, params, w)))] as [string, number[][]]))),
      ['oracle-link', [simulateCrawl(out, seeds, linkOracle(isTarget))]],
      ['oracle-layer1', [simulateCrawl(out, seeds, layerOracle(out, goals, 1))]],
    ];
    let bfs80 = 0;
    let bfsRequests80 = 0;
    for (const [name, crawls] of runs) {
      const orders = crawls.map((fetched) => fetched.filter(archived));
      const to = (share: number): number | null => medianOrNull(orders.map((o) => pagesToShare(o, isTarget, goals.length, share)));
      const at80 = to(0.8);
      if (name === 'bfs') bfs80 = at80 ?? 0;
      const ratio = at80 === null || bfs80 === 0 ? null : at80 / bfs80;
      if (ratio !== null && name !== 'bfs') ratios.set(name, [...(ratios.get(name) ?? []), ratio]);
      const each = orders.map((o) => pagesToShare(o, isTarget, goals.length, 0.8) ?? Infinity);
      const spread = orders.length > 1 ? ` (${Math.min(...each)}–${Math.max(...each)})` : '';
      const harvest = median(orders.map((o) => (100 * o.slice(0, 500).filter(isTarget).length) / Math.min(500, o.length)));
      // every request, the 404s of links out of the archive too
      const requests80 = medianOrNull(crawls.map((fetched) => pagesToShare(fetched, isTarget, goals.length, 0.8)));
      if (name === 'bfs') bfsRequests80 = requests80 ?? 0;
      else if (requests80 !== null && bfsRequests80 > 0) requestRatios.set(name, [...(requestRatios.get(name) ?? []), requests80 / bfsRequests80]);
      rows.push(`| ${u} | ${target} | ${name} | ${fmt(to(0.5))} | ${fmt(at80)}${spread} | ${ratio === null ? '–' : ratio.toFixed(2)} | ${fmt(requests80)} | ${harvest.toFixed(1)}% | ${goals.length} of ${reach.size} |`);
    }
    process.stderr.write(`webkb-holdout: ${u} ${target} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
}

const summary = [...ratios].map(([name, r]) => {
  const q = requestRatios.get(name) ?? [];
  const requests = q.length === 0 ? '–' : `${median(q).toFixed(2)} (${Math.min(...q).toFixed(2)}–${Math.max(...q).toFixed(2)})`;
  return `| ${name} | ${median(r).toFixed(2)} | ${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)} | ${r.filter((x) => x <= 0.5).length} of ${r.length} | ${r.filter((x) => x < 1).length} of ${r.length} | ${requests} |`;
});
const commit = (await promisify(execFile)('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })).stdout.trim();
const defaults = values['train-flags'] === WEBKB_TRAIN_FLAGS && values['in-flight'] === '8,16,24' && values['train-on'] === 'others' && values.scope === 'domain' && skipExtensions === undefined;
const table = [
  '## Leave one university out (WebKB, simulated)',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores), Node ${process.version}, commit ${commit}; ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s. Command: \`node --import tsx bench/webkb-holdout.ts${defaults ? '' : ` --train-on ${values['train-on']} --scope ${values.scope} --in-flight ${values['in-flight']} --train-flags '${values['train-flags']}'${values['skip-extensions'] === undefined ? '' : ` --skip-extensions ${values['skip-extensions']}`}`}${(values.param ?? []).map((p) => ` --param ${p}`).join('')} --write\`.`,
  '',
  `Each university crawled alone from its home page, ${values.scope === 'web' ? 'following links anywhere' : 'within its own domain (as `crawl --allow-domain` keeps it)'}, with models trained ${values['train-on'] === 'misc' ? 'on the misc universities only' : 'on every other university (misc and the other two: `train --where university!=U`)'}, ` +
    `flags \`${values['train-flags']}\`. Crawls simulated on the archive's link graph as in "How few pages an oracle needs" (${inFlights.join(', ')} pages in flight, one simulation each: the row gives the median and range of pages to 80%). ` +
    "Recall is over the held-out university's own target pages reachable from its home page; pages are archived pages fetched. " +
    `Requests to 80% counts every request, the 404s of links the archive lacks too (median over the in-flight values; links to files that are not pages are ${skipExtensions === undefined ? 'not requested, as the crawl\'s default `--skip-extensions`' : skipExtensions.length === 0 ? 'requested: `--skip-extensions none`' : `not requested for \`--skip-extensions ${skipExtensions.join(',')}\``}). ` +
    'harvest@500 is the share of the first 500 pages that are such targets. See bench/webkb-holdout.ts.',
  '',
  '| held out | target | crawl | pages to 50% | pages to 80% | vs bfs | requests to 80% | harvest@500 | targets of reachable |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'Pages to 80% against breadth-first over the cells above:',
  '',
  '| crawl | median | range | cells at ≤ ½ of bfs | cells better than bfs | requests to 80% vs bfs\'s: median (range) |',
  '|---|---|---|---|---|---|',
  ...summary,
].join('\n');
process.stdout.write(`${table}\n`);
if (values.write) await writeSection(path.join(ROOT, 'RESULTS.md'), 'webkb-holdout', table);
