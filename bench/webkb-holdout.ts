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
 *        [--skip-extensions LIST|none] [--section holdout|context-graph|explore|classifier] [--explore 0,0.2]
 *        [--classifier nb|linear|blend or a list: nb,linear,blend] [--replay STDERR_LOG] [--write]
 *
 * For each held-out university U and target: a model trained on every
 * labelled page but U's (`focuscrawl train --where university!=U`; with
 * `--train-on misc`, on the misc universities only, as RESULTS.md's table),
 * then crawls simulated on the archive's link graph from U's home page
 * alone, within U's domain as `crawl --allow-domain` keeps a crawl (with
 * `--scope web`, anywhere the links lead: the three universities link to
 * each other, so such a crawl spends pages on the others' sites, whose
 * targets do not count here). Simulated as bench/webkb-oracle.ts simulates
 * (src/tools/eval/oracle.ts: the strategy's own scorer, `--in-flight` pages taken
 * ahead, the links the archive lacks fetched as 404s). Recall is over U's
 * target pages reachable from U's home page; pages counted are archived
 * pages fetched. Next to them breadth-first and two oracles (a perfect link
 * classifier; a perfect context-graph classifier, layer 1).
 *
 * A strategy may carry its own parameters: `context-graph:value=discounted`
 * (NAME:K=V,K=V), and run only with some of `--classifier`'s models
 * (NAME...@blend, or @linear+blend; the per-model tables then set such a
 * run against the strategy's run without its own parameters with the NB
 * model). Models are trained with `--layers` when a context-graph
 * strategy runs. `--section context-graph` prints (and with --write writes)
 * the context-graph table instead: pages to 50/80/90% as × bfs and × the
 * graph oracle (labels and whole graph known), the oracle-layer row (the
 * layer order with the held-out university's true layers 0, 1, 2, 3+, as
 * a perfect layer classifier would give), harvest in the first 200 pages,
 * medians with their range over the cells and each strategy's worst cell.
 * `--explore E,...` runs every strategy at each exploration share (crawl
 * --explore; default 0: the strategy alone) and `--section explore` prints
 * (and with --write writes) that table: × bfs and × oracle at 50/80/90%,
 * the worst cell, the cells above 1.1× bfs, harvest@200 against the same
 * strategy without exploration (issue 22 items 2 and 3).
 * `--classifier nb,linear` trains one model per learner (fitModel's
 * `classifier`, as `train --classifier`; default nb) and runs every
 * strategy with each, labelled "NAME [linear]"; `--section classifier`
 * prints (and with --write writes) that comparison (issue 24): pages to
 * 50/80/90% × bfs, harvest@200, each run's worst cell, linear against nb
 * per cell at 80%, and how many of the held-out targets the linear page
 * judge calls hubs (link density above its hubDensity: never relevant);
 * also × the graph oracle at 90%, each model ÷ nb per cell, and the AUC of
 * each model's link classifier on the held-out university's link examples
 * (per cell; per target the mean over the universities and the links
 * pooled). The linear model's page judge is trained with
 * DEFAULT_WARC_PAGE_MIN_DF, as `train --warc`'s; `nb-link-layers` (as
 * context-graph) trains with layers and writes its own section,
 * webkb-classifier-layers.
 * `--replay LOG` simulates nothing and prints the section's tables from
 * the per-cell JSON an earlier run gave on stderr.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { parseParams } from '../src/commands/crawl.ts';
import { NOT_ARCHIVED, fifo, graphOracle, layerOracle, linkOracle, pagesToShare, readLinkGraph, seedIds, simulateCrawl } from '../src/tools/eval/oracle.ts';
import { DEFAULT_HUB_DENSITY, DEFAULT_WARC_PAGE_MIN_DF, fitModel, type ClassifierKind, type Model } from '../src/relevance/model.ts';
import { linkDensity } from '../src/relevance/learn/features.ts';
import { parseSkipExtensions } from '../src/urls/extensions.ts';
import { compileScope } from '../src/urls/scope.ts';
import { readLabels, readWarc, type WhereFilter } from '../src/relevance/train/from-warc.ts';
import { linkAucReadings } from './lib/link-auc.ts';
import { resultsDoc, writeSection, writeSplitSection } from './lib/sections.ts';
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
    section: { type: 'string', default: 'holdout' },
    explore: { type: 'string', default: '0' },
    classifier: { type: 'string', default: 'nb' },
    write: { type: 'boolean', default: false },
    replay: { type: 'string' },
  },
});
const fail = (message: string): never => {
  process.stderr.write(`webkb-holdout: ${message}\n`);
  process.exit(2);
};
const universities = values.universities!.split(',').filter(Boolean);
for (const u of universities) if (WEBKB_UNIVERSITIES[u] === undefined) fail(`unknown university ${u} (one of ${Object.keys(WEBKB_UNIVERSITIES).join(', ')})`);
const targets = values.targets!.split(',').filter(Boolean);
/** NAME or NAME:K=V,... (the strategy's own parameters over --param's) — split on commas not inside a parameter list */
const strategies = values.strategies!
  .split(/,(?![^:,]*=)/)
  .filter(Boolean)
  .map((whole) => {
    // NAME...@c1+c2: that run only with those classifiers' models
    const [spec, only] = whole.split('@', 2) as [string, string | undefined];
    const [name, own] = spec.split(':', 2) as [string, string | undefined];
    const label = own === undefined ? name : `${name} (${own})`;
    return { name, label, params: parseParams(own === undefined ? [] : own.split(',')), only: only?.split('+') };
  });
const needsLayers = strategies.some((s) => s.name === 'context-graph' || s.name === 'nb-link-layers');
if (values.section !== 'holdout' && values.section !== 'context-graph' && values.section !== 'explore' && values.section !== 'classifier') fail(`--section is holdout, context-graph, explore or classifier, got ${values.section}`);
const classifiers = values.classifier!.split(',').filter(Boolean) as ClassifierKind[];
for (const c of classifiers) if (c !== 'nb' && c !== 'linear' && c !== 'blend') fail(`--classifier is nb, linear, blend or a list of them, got ${values.classifier}`);
if (classifiers.length === 0 || new Set(classifiers).size !== classifiers.length) fail(`--classifier is nb, linear, blend or a list of them, got ${values.classifier}`);
/** a run's label: the strategy's, with " [C]" when more than one classifier runs */
const withClassifier = (label: string, c: ClassifierKind): string => (classifiers.length > 1 ? `${label} [${c}]` : label);
if (!/^(0|1|0?\.[0-9]+)(,(0|1|0?\.[0-9]+))*$/.test(values.explore!)) fail(`--explore must be shares from 0 to 1 separated by commas, got ${values.explore}`);
const explores = values.explore!.split(',').map(Number);
/** each strategy at each --explore value: "NAME" at 0 when that is the only value, else "NAME x=E" */
const runsOf = strategies.flatMap((s) => explores.map((e) => ({ ...s, explore: e, label: explores.length === 1 && e === 0 ? s.label : `${s.label} x=${e}` })));
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
// --replay simulates nothing: no graph to read
const web = values.replay === undefined ? await readLinkGraph([WEBKB_WARC], { keepPages: true, missing: true, skipExtensions }) : ({ urls: [], ids: new Map(), out: [], status: [], htmlPages: 0 } as unknown as Awaited<ReturnType<typeof readLinkGraph>>);
const { urls, status } = web;
const archived = (v: number): boolean => status[v] !== NOT_ARCHIVED;
const labels = (await readLabels(WEBKB_LABELS)).labels;

/** The label rows a model for held-out `u` is trained on. */
const trainWhere = (u: string): WhereFilter[] =>
  values['train-on'] === 'misc' ? [{ column: 'university', value: 'misc' }] : [{ column: 'university', value: u, negate: true }];

const fmt = (n: number | null): string => (n === null ? 'not reached' : String(n));
const SHARES = [0.5, 0.8, 0.9];
interface CgCell {
  u: string;
  target: string;
  /** pages to each share */
  bfs: (number | null)[];
  oracle: (number | null)[];
  bfsHarvest?: number;
  rows: { name: string; pages: (number | null)[]; harvest: number }[];
  /** targets reachable; per classifier: targets its page judge calls relevant (≥ 0.5), and (linear) hubs */
  goals?: number;
  judged?: { classifier: ClassifierKind; relevant: number; hubs: number | null }[];
  /** --section classifier: the held-out university's link examples, their labels ('0'/'1' per link) and each model's linkProbability (for per-class AUCs, pooled too) */
  links?: { labels: string; scores: Partial<Record<ClassifierKind, number[]>> };
}
const cgCells: CgCell[] = [];
const rows: string[] = [];
/** pages to 80% / bfs's, per strategy, over every cell */
const ratios = new Map<string, number[]>();
/** the same for requests to 80% (every request, 404s too) */
const requestRatios = new Map<string, number[]>();
/** with --replay: the seconds the replayed run took */
let replaySeconds = 0;
if (values.replay !== undefined) {
  // --replay LOG: the cells of an earlier run, from the JSON its stderr gave after each "done" (tables only, no simulation)
  for (const line of readFileSync(values.replay, 'utf8').split('\n')) {
    const at = line.indexOf(' {');
    if (line.startsWith('webkb-holdout: ') && at >= 0) cgCells.push(JSON.parse(line.slice(at + 1)) as CgCell);
    replaySeconds = Number(/ done \(([0-9]+) s\)/.exec(line)?.[1] ?? replaySeconds);
  }
  if (cgCells.length === 0) fail(`--replay ${values.replay}: no cells in it`);
}
for (const u of values.replay === undefined ? universities : []) {
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
    const data = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: trainWhere(u), hubLinks: flags.hubLinks, layers: needsLayers });
    const models = classifiers.map((c) => {
      // as `train --warc`: the linear page judge keeps features of ≥ DEFAULT_WARC_PAGE_MIN_DF pages
      const { json, model } = fitModel(data, { target, group: flags.group, balancedLinks: flags.balancedLinks, classifier: c, ...(c === 'linear' ? { pageMinDf: DEFAULT_WARC_PAGE_MIN_DF } : {}) });
      // sharpen=auto's K (issue 24), logged per cell for the results doc
      if (json.blend?.sharpen !== undefined) process.stderr.write(`${u} ${target} [${c}] sharpen K = ${json.blend.sharpen} (sdNb ${json.blend.inner?.sdNb}, sdLinear ${json.blend.inner?.sdLinear})\n`);
      return { c, model, hubDensity: json.linear?.hubDensity ?? null };
    });
    // how each page judge sees the held-out targets (the linear one: hubs are never relevant)
    const judged = models.map(({ c, model, hubDensity }: { c: ClassifierKind; model: Model; hubDensity: number | null }) => {
      const parsed = goals.map((v) => web.pages?.[v]).filter((p) => p !== undefined);
      return { classifier: c, relevant: parsed.filter((p) => model.pageProbability(p) >= 0.5).length, hubs: hubDensity === null ? null : parsed.filter((p) => linkDensity(p) > hubDensity).length };
    });
    // the link classifiers on the held-out university's link examples (as bench/webkb-link-auc.ts reads them)
    let links: CgCell['links'];
    if (values.section === 'classifier') {
      const test = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: [{ column: 'university', value: u }], hubLinks: flags.hubLinks });
      const scores = Object.fromEntries(models.map(({ c, model }) => [c, test.links.map((l) => model.linkProbability(l.anchor, l.context, l.url, { url: l.parentUrl ?? '', title: l.parentTitle ?? '', relevant: l.parentRelevant ?? false }))]));
      links = { labels: test.links.map((l) => l.label).join(''), scores };
    }
    const runs: [string, number[][]][] = [
      ['bfs', [simulateCrawl(out, seeds, fifo)]],
      ...(await Promise.all(models.flatMap(({ c, model }) => runsOf.filter((s) => s.only === undefined || s.only.includes(c)).map(async (s) => [withClassifier(s.label, c), await Promise.all(inFlights.map((w) => simulateStrategy(graph, seeds, s.name, model, { ...params, ...s.params }, w, s.explore)))] as [string, number[][]])))),
      ['oracle-link', [simulateCrawl(out, seeds, linkOracle(isTarget))]],
      ['oracle-layer1', [simulateCrawl(out, seeds, layerOracle(out, goals, 1))]],
      ['oracle-layer', [simulateCrawl(out, seeds, layerOracle(out, goals, 2))]],
      ['oracle', [simulateCrawl(out, seeds, graphOracle(out, goals))]],
    ];
    // the context-graph table: pages to 50/80/90% against bfs's and the graph oracle's
    const cellTo = (crawls: number[][], share: number): number | null =>
      medianOrNull(crawls.map((fetched) => pagesToShare(fetched.filter(archived), isTarget, goals.length, share)));
    const base = (name: string): number[][] => runs.find(([n]) => n === name)![1];
    const cgCell: CgCell = { u, target, bfs: SHARES.map((x) => cellTo(base('bfs'), x)), oracle: SHARES.map((x) => cellTo(base('oracle'), x)), rows: [], goals: goals.length, judged, ...(links === undefined ? {} : { links }) };
    for (const [name, crawls] of runs) {
      if (name === 'bfs' || name === 'oracle-link' || name === 'oracle-layer1') continue;
      const harvest = median(crawls.map((f) => f.filter(archived)).map((o) => (100 * o.slice(0, 200).filter(isTarget).length) / Math.min(200, o.length)));
      cgCell.rows.push({ name, pages: SHARES.map((x) => cellTo(crawls, x)), harvest });
    }
    cgCell.bfsHarvest = median(base('bfs').map((f) => f.filter(archived)).map((o) => (100 * o.slice(0, 200).filter(isTarget).length) / Math.min(200, o.length)));
    cgCells.push(cgCell);
    if (values.section !== 'holdout') {
      process.stderr.write(`webkb-holdout: ${u} ${target} done (${((Date.now() - started) / 1000).toFixed(0)} s) ${JSON.stringify(cgCell)}\n`);
      continue;
    }
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
if (values.section === 'classifier') {
  // issue 24: each strategy with the NB and the linear model, cell by cell
  const ratio = (a: number | null, b: number | null): number => (a === null ? Infinity : b === null || b === 0 ? NaN : a / b);
  const x = (r: number): string => (Number.isFinite(r) ? r.toFixed(2) : r === Infinity ? '∞' : '–');
  const spread = (v: number[]): string => `${x(median(v))} (${x(Math.min(...v))}–${x(Math.max(...v))})`;
  const names = (cgCells[0]?.rows.map((r) => r.name) ?? []).filter((n) => !n.startsWith('oracle'));
  const cellRows: string[] = [];
  for (const c of cgCells) {
    cellRows.push(`| ${c.u} | ${c.target} | bfs | ${c.bfs.map(fmt).join(' / ')} | 1.00 / 1.00 / 1.00 | ${x(ratio(c.bfs[2]!, c.oracle[2]!))} | ${c.bfsHarvest!.toFixed(1)}% |`);
    for (const r of c.rows.filter((r) => names.includes(r.name))) {
      cellRows.push(`| ${c.u} | ${c.target} | ${r.name} | ${r.pages.map(fmt).join(' / ')} | ${r.pages.map((p, i) => x(ratio(p, c.bfs[i]!))).join(' / ')} | ${x(ratio(r.pages[2]!, c.oracle[2]!))} | ${r.harvest.toFixed(1)}% |`);
    }
  }
  // each other model against nb per cell: pages to 50 / 80 / 90% ÷ nb's, harvest@200 difference
  // the NB run a run is compared with: the same label with [nb], else (a run only some models have, `@blend`) the strategy's label without its own parameters
  const nbOf = (n: string): string => {
    const same = n.replace(/ \[[a-z]+\]$/, ' [nb]');
    return names.includes(same) ? same : n.replace(/ \([^)]*\)/, '').replace(/ \[[a-z]+\]$/, ' [nb]');
  };
  const otherNames = names.filter((n) => !n.endsWith(' [nb]') && names.includes(nbOf(n)));
  const perCellRows = cgCells.flatMap((c) =>
    otherNames.map((n) => {
      const r = c.rows.find((row) => row.name === n)!;
      const nb = c.rows.find((row) => row.name === nbOf(n))!;
      const d = r.harvest - nb.harvest;
      return `| ${c.u} | ${c.target} | ${n} | ${r.pages.map((p, i) => x(ratio(p, nb.pages[i]!))).join(' / ')} | ${d >= 0 ? '+' : ''}${d.toFixed(1)} |`;
    }),
  );
  // link AUC of each model on the held-out links: per cell, the mean of a class's cells, and the class's cells pooled
  const readings = linkAucReadings(
    cgCells.filter((c) => c.links !== undefined).map((c) => ({ u: c.u, target: c.target, links: c.links! })),
    classifiers,
  );
  const aucRows = [
    ...readings.cells.map((c) => `| ${c.target} | ${c.u} | ${c.links} (${c.positives} +) | ${c.auc.map((v) => v.toFixed(3)).join(' | ')} |`),
    ...readings.targets.flatMap((t) => [
      `| ${t.target} | mean of ${t.universities.length} | | ${t.mean.map((v) => v.toFixed(3)).join(' | ')} |`,
      `| ${t.target} | pooled ${t.universities.join(' + ')} | ${t.links} | ${t.pooled.map((v) => v.toFixed(3)).join(' | ')} |`,
    ]),
  ];
  const summaryRows = names.map((name) => {
    const rowsOf = cgCells.map((c) => ({ c, r: c.rows.find((r) => r.name === name)! }));
    const vsBfs = SHARES.map((_, i) => rowsOf.map(({ c, r }) => ratio(r.pages[i]!, c.bfs[i]!)));
    const worst = rowsOf.reduce((w, cur) => (ratio(cur.r.pages[1]!, cur.c.bfs[1]!) > ratio(w.r.pages[1]!, w.c.bfs[1]!) ? cur : w));
    return `| ${name} | ${vsBfs.map(spread).join(' · ')} | ${worst.c.u} ${worst.c.target} (${x(ratio(worst.r.pages[1]!, worst.c.bfs[1]!))}) | ${median(rowsOf.map(({ r }) => r.harvest)).toFixed(1)}% |`;
  });
  // linear (and blend) against nb, strategy by strategy: pages to 80% (and 50, 90) in each cell
  const versus = otherNames
    .map((n) => ({ nb: nbOf(n), linear: n, name: n }))
    .map((p) => {
      const per = SHARES.map((_, i) =>
        cgCells.map((c) => ratio(c.rows.find((r) => r.name === p.linear)!.pages[i]!, c.rows.find((r) => r.name === p.nb)!.pages[i]!)),
      );
      const worseList = cgCells
        .map((c, k) => ({ c, r: per[1]![k]! }))
        .filter(({ r }) => !(r <= 1))
        .map(({ c, r }) => `${c.u} ${c.target} ${x(r)}`);
      const harvestDiff = cgCells.map((c) => c.rows.find((r) => r.name === p.linear)!.harvest - c.rows.find((r) => r.name === p.nb)!.harvest);
      return `| ${p.name} | ${per.map(spread).join(' · ')} | ${cgCells.length - worseList.length} of ${cgCells.length} | ${worseList.length === 0 ? 'none' : worseList.join('; ')} | ${median(harvestDiff) >= 0 ? '+' : ''}${median(harvestDiff).toFixed(1)} (${Math.min(...harvestDiff).toFixed(1)} to ${Math.max(...harvestDiff).toFixed(1)}) |`;
    });
  const judgeRows = cgCells.map((c) => {
    const of = (k: ClassifierKind) => c.judged?.find((j) => j.classifier === k);
    const nb = of('nb');
    const lin = of('linear');
    return `| ${c.u} | ${c.target} | ${c.goals ?? '–'} | ${nb?.relevant ?? '–'} | ${lin?.relevant ?? '–'} | ${lin?.hubs ?? '–'} |`;
  });
  const hubTotal = cgCells.reduce((t, c) => t + (c.judged?.find((j) => j.classifier === 'linear')?.hubs ?? 0), 0);
  const goalTotal = cgCells.reduce((t, c) => t + (c.goals ?? 0), 0);
  const doc = [
    `## NB against linear and blended models in the crawl${needsLayers ? ' with layers' : ''}, leave one university out (WebKB, simulated)`,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores), Node ${process.version}, commit ${commit}; ${values.replay === undefined ? `${((Date.now() - started) / 1000).toFixed(0)} s` : `${replaySeconds} s (the tables rendered afterwards from its stderr with \`--replay LOG\`)`}. ` +
      `Command: \`node --import tsx bench/webkb-holdout.ts --section classifier --classifier ${values.classifier} --strategies ${values.strategies}${values['in-flight'] === '8,16,24' ? '' : ` --in-flight ${values['in-flight']}`}${(values.param ?? []).map((p) => ` --param ${p}`).join('')} --write\`.`,
    '',
    `The simulation of "Leave one university out" (models trained on every other university with \`${values['train-flags']}\`${needsLayers ? ' and `--layers`' : ''}, the linear page judge with \`--page-min-df ${DEFAULT_WARC_PAGE_MIN_DF}\` as \`train --warc\`, once with each of ${classifiers.map((c) => `\`--classifier ${c}\``).join(', ')}: fitModel's \`classifier\`; ${inFlights.join(', ')} pages in flight, the median of the runs). ` +
      'With a linear model both the link classifier and the page judge (nb-link\'s parent relevance, online\'s labels) are the linear ones, the judge with its hub rule; a blend model has the NB page judge and the stacked NB + linear link classifier. ' +
      "Pages are archived pages fetched until 50 / 80 / 90% of the held-out university's reachable targets; × bfs divides them by breadth-first's; × oracle at 90% by the graph oracle's (labels and whole graph known). harvest@200: targets among the first 200 pages. ∞: never reached.",
    '',
    '| held out | target | crawl | pages to 50 / 80 / 90% | × bfs | × oracle, 90% | harvest@200 |',
    '|---|---|---|---|---|---|---|',
    ...cellRows,
    '',
    'Over the cells: median (range) of × bfs at 50 · 80 · 90%, the worst cell (× bfs at 80%), harvest@200 (median):',
    '',
    '| crawl | × bfs, 50 · 80 · 90% | worst cell at 80% | harvest@200 |',
    '|---|---|---|---|',
    ...summaryRows,
    '',
    'Each other model against NB, the same strategy in the same cell: pages to 50 · 80 · 90% with that model (in brackets) divided by those with the NB model (median and range over the cells; below 1: it needs fewer); cells where it is no worse at 80%; the cells where it is worse; harvest@200 difference in points, it minus NB (median, range):',
    '',
    '| strategy [model] | model ÷ nb, 50 · 80 · 90% | no worse at 80% | worse at 80% (model ÷ nb) | harvest@200, model − nb |',
    '|---|---|---|---|---|',
    ...versus,
    '',
    'Per cell: pages to 50 / 80 / 90% with the model divided by those with the NB model, the same strategy (below 1: fewer pages); harvest@200, the model minus NB in points:',
    '',
    '| held out | target | crawl | model ÷ nb, 50 / 80 / 90% | harvest@200 − nb |',
    '|---|---|---|---|---|',
    ...perCellRows,
    '',
    ...(aucRows.length === 0
      ? []
      : [
          `Link classifiers on the held-out university's link examples (links to its labelled pages, hub links positive, parent relevance the parent's label, as bench/webkb-link-auc.ts): AUC of each model's linkProbability per cell; per class the mean of the held-out universities' AUCs and the AUC of their links pooled (each link scored by the model that did not see its university):`,
          '',
          `| target | held out | links | ${classifiers.map((k) => `${k} AUC`).join(' | ')} |`,
          `|---|---|---|${classifiers.map(() => '---|').join('')}`,
          ...aucRows,
          '',
        ]),
    `The page judges on the held-out targets (reachable target pages of the cell): how many each judge calls relevant (P ≥ 0.5), and how many the linear judge calls hubs (link density above its hubDensity, ${DEFAULT_HUB_DENSITY}: relevance 0 whatever the text); ${hubTotal} of ${goalTotal} over the cells:`,
    '',
    '| held out | target | targets | NB judge: relevant | linear judge: relevant | linear: hubs |',
    '|---|---|---|---|---|---|',
    ...judgeRows,
  ].join('\n');
  process.stdout.write(`${doc}\n`);
  // nb-link-layers (issue 24 with the default strategy) has its own section beside nb-link's
  if (values.write) await writeSection(resultsDoc('webkb-classifier'), strategies.some((s) => s.name === 'nb-link-layers') ? 'webkb-classifier-layers' : 'webkb-classifier', doc);
  process.exit(0);
}
if (values.section === 'explore') {
  // issue 22 items 2 and 3: every strategy at each --explore value against bfs and the graph oracle
  const ratio = (a: number | null, b: number | null): number => (a === null ? Infinity : b === null || b === 0 ? NaN : a / b);
  const x = (r: number): string => (Number.isFinite(r) ? r.toFixed(2) : r === Infinity ? '∞' : '–');
  const spread = (v: number[]): string => `${x(median(v))} (${x(Math.min(...v))}–${x(Math.max(...v))})`;
  const labels = runsOf.map((r) => r.label);
  const cellRows: string[] = [];
  for (const c of cgCells) {
    cellRows.push(`| ${c.u} | ${c.target} | bfs | ${c.bfs.map(fmt).join(' / ')} | ${c.bfs.map((p, i) => x(ratio(p, c.oracle[i]!))).join(' / ')} | ${c.bfsHarvest!.toFixed(1)}% |`);
    for (const r of c.rows.filter((r) => labels.includes(r.name) || r.name === 'oracle')) {
      cellRows.push(`| ${c.u} | ${c.target} | ${r.name} | ${r.pages.map(fmt).join(' / ')} (${r.pages.map((p, i) => x(ratio(p, c.bfs[i]!))).join(' / ')}) | ${r.pages.map((p, i) => x(ratio(p, c.oracle[i]!))).join(' / ')} | ${r.harvest.toFixed(1)}% |`);
    }
  }
  const summaryRows = runsOf.map((run) => {
    const rowsOf = cgCells.map((c) => ({ c, r: c.rows.find((r) => r.name === run.label)! }));
    const vsBfs = SHARES.map((_, i) => rowsOf.map(({ c, r }) => ratio(r.pages[i]!, c.bfs[i]!)));
    const vsOracle = SHARES.map((_, i) => rowsOf.map(({ c, r }) => ratio(r.pages[i]!, c.oracle[i]!)));
    const worstOf = ({ c, r }: (typeof rowsOf)[number]): number => Math.max(ratio(r.pages[0]!, c.bfs[0]!), ratio(r.pages[1]!, c.bfs[1]!));
    const worst = rowsOf.reduce((w, cur) => (worstOf(cur) > worstOf(w) ? cur : w));
    const over = rowsOf.filter((cell) => worstOf(cell) > 1.1).length;
    // harvest@200 against the same strategy without exploration, when it ran
    const plain = runsOf.find((o) => o.name === run.name && o.label.startsWith(run.name) && o.explore === 0 && JSON.stringify(o.params) === JSON.stringify(run.params));
    const diffs = plain === undefined || plain === run ? null : rowsOf.map(({ c, r }) => r.harvest - c.rows.find((p) => p.name === plain.label)!.harvest);
    const harvest = `${median(rowsOf.map(({ r }) => r.harvest)).toFixed(1)}%${diffs === null ? '' : ` (${median(diffs) >= 0 ? '+' : ''}${median(diffs).toFixed(1)}, worst ${Math.min(...diffs).toFixed(1)})`}`;
    return `| ${run.label} | ${vsBfs.map(spread).join(' · ')} | ${vsOracle.map(spread).join(' · ')} | ${worst.c.u} ${worst.c.target} (${x(worstOf(worst))}) | ${over} of ${rowsOf.length} | ${harvest} |`;
  });
  const exploreSummary = [
    'Over the nine cells: median (range) of × bfs and × oracle at 50 · 80 · 90%; the worst cell (the larger × bfs of 50% and 80%); cells where that is above 1.1; harvest@200, median (against the same strategy without exploration: median change and the worst, in points):',
    '',
    '| crawl | × bfs, 50 · 80 · 90% | × oracle, 50 · 80 · 90% | worst cell, 50/80% | cells > 1.1× bfs | harvest@200 |',
    '|---|---|---|---|---|---|',
    ...summaryRows,
  ];
  const doc = [
    '## Exploration and the tail, leave one university out (WebKB, simulated)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores), Node ${process.version}, commit ${commit}; ${values.replay === undefined ? `${((Date.now() - started) / 1000).toFixed(0)} s` : `${replaySeconds} s (the tables rendered afterwards from its stderr with \`--replay LOG\`)`}. ` +
      `Command: \`node --import tsx bench/webkb-holdout.ts --section explore --strategies ${values.strategies} --explore ${values.explore}${values['in-flight'] === '8,16,24' ? '' : ` --in-flight ${values['in-flight']}`}${(values.param ?? []).map((p) => ` --param ${p}`).join('')} --write\`.`,
    '',
    `The simulation of "Leave one university out" (models trained on every other university with \`${values['train-flags']}\`; ${inFlights.join(', ')} pages in flight, the median of the runs), each strategy with \`--explore\` at ${explores.join(' and ')} (x=E: src/relevance/scorers/explore.ts; 0: the strategy alone). ` +
      "Pages are archived pages fetched until 50 / 80 / 90% of the held-out university's reachable targets, then (× bfs) divided by breadth-first's; × oracle divides by the graph oracle's (labels and whole graph known). harvest@200: targets among the first 200 pages. ∞: never reached.",
    '',
    '| held out | target | crawl | pages to 50 / 80 / 90% (× bfs) | × oracle | harvest@200 |',
    '|---|---|---|---|---|---|',
    ...cellRows,
    '',
    ...exploreSummary,
  ].join('\n');
  process.stdout.write(`${doc}\n`);
  // RESULTS.md keeps the summary; the per-cell table goes to docs/results/webkb-explore.md
  if (values.write) await writeSplitSection('RESULTS.md', 'webkb-explore', doc, [...doc.split('\n').slice(0, 3), '', ...exploreSummary].join('\n'), '# Exploration and the tail: every cell');
  process.exit(0);
}
if (values.section === 'context-graph') {
  const ratio = (a: number | null, b: number | null): number => (a === null ? Infinity : b === null || b === 0 ? NaN : a / b);
  const x = (r: number): string => (Number.isFinite(r) ? r.toFixed(2) : r === Infinity ? '∞' : '–');
  const cellRows: string[] = [];
  const names = cgCells[0]?.rows.map((r) => r.name) ?? [];
  for (const c of cgCells) {
    cellRows.push(`| ${c.u} | ${c.target} | bfs | ${c.bfs.map(fmt).join(' / ')} | 1.00 / 1.00 / 1.00 | ${c.bfs.map((p, i) => x(ratio(p, c.oracle[i]!))).join(' / ')} | ${c.bfsHarvest!.toFixed(1)}% |`);
    for (const r of c.rows) {
      cellRows.push(`| ${c.u} | ${c.target} | ${r.name} | ${r.pages.map(fmt).join(' / ')} | ${r.pages.map((p, i) => x(ratio(p, c.bfs[i]!))).join(' / ')} | ${r.pages.map((p, i) => x(ratio(p, c.oracle[i]!))).join(' / ')} | ${r.harvest.toFixed(1)}% |`);
    }
  }
  const spread = (v: number[]): string => `${x(median(v))} (${x(Math.min(...v))}–${x(Math.max(...v))})`;
  const summaryRows = names.map((name) => {
    const rowsOf = cgCells.map((c) => ({ c, r: c.rows.find((r) => r.name === name)! }));
    const vsBfs = SHARES.map((_, i) => rowsOf.map(({ c, r }) => ratio(r.pages[i]!, c.bfs[i]!)));
    const vsOracle = SHARES.map((_, i) => rowsOf.map(({ c, r }) => ratio(r.pages[i]!, c.oracle[i]!)));
    const worst = rowsOf.reduce((w, cur) => (ratio(cur.r.pages[1]!, cur.c.bfs[1]!) > ratio(w.r.pages[1]!, w.c.bfs[1]!) ? cur : w));
    const harvestDiff = rowsOf.map(({ c, r }) => r.harvest - c.bfsHarvest!);
    return `| ${name} | ${vsBfs.map(spread).join(' · ')} | ${vsOracle.map(spread).join(' · ')} | ${worst.c.u} ${worst.c.target} (${x(ratio(worst.r.pages[1]!, worst.c.bfs[1]!))}) | ${median(rowsOf.map(({ r }) => r.harvest)).toFixed(1)}% (${harvestDiff.filter((d) => d >= 0).length} of ${rowsOf.length} ≥ bfs) |`;
  });
  const cgSummary = [
    'Over the nine cells: median (range) of × bfs and × oracle at 50 · 80 · 90%, the worst cell (× bfs at 80%), harvest@200:',
    '',
    '| crawl | × bfs, 50 · 80 · 90% | × oracle, 50 · 80 · 90% | worst cell at 80% | harvest@200: median (cells ≥ bfs) |',
    '|---|---|---|---|---|',
    ...summaryRows,
  ];
  const cg = [
    '## Context graph, leave one university out (WebKB, simulated)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores), Node ${process.version}, commit ${commit}; ${((Date.now() - started) / 1000).toFixed(0)} s. ` +
      `Command: \`node --import tsx bench/webkb-holdout.ts --section context-graph --strategies ${values.strategies}${(values.param ?? []).map((p) => ` --param ${p}`).join('')} --write\`.`,
    '',
    `The simulation of "Leave one university out" (models trained on every other university with \`${values['train-flags']}\` and \`--layers\`; ${inFlights.join(', ')} pages in flight, the median of the runs). ` +
      'Pages are archived pages fetched until 50 / 80 / 90% of the held-out university\'s reachable targets; × bfs and × oracle divide them by breadth-first\'s and by the graph oracle\'s (labels and whole graph known). ' +
      '`oracle-layer` is the context-graph order with the true layers (0, 1, 2, 3+) of the held-out university: a perfect layer classifier. harvest@200: targets among the first 200 pages. ∞: never reached.',
    '',
    '| held out | target | crawl | pages to 50 / 80 / 90% | × bfs | × oracle | harvest@200 |',
    '|---|---|---|---|---|---|---|',
    ...cellRows,
    '',
    ...cgSummary,
  ].join('\n');
  process.stdout.write(`${cg}\n`);
  // RESULTS.md keeps the summary; the per-cell table goes to docs/results/webkb-context-graph.md
  if (values.write) await writeSplitSection('RESULTS.md', 'webkb-context-graph', cg, [...cg.split('\n').slice(0, 3), '', ...cgSummary].join('\n'), '# Context graph: every cell');
  process.exit(0);
}
const defaults = values['train-flags'] === WEBKB_TRAIN_FLAGS && values['in-flight'] === '8,16,24' && values['train-on'] === 'others' && values.scope === 'domain' && skipExtensions === undefined;
const holdoutSummary = [
  'Pages to 80% against breadth-first over the nine cells (three universities × three targets):',
  '',
  '| crawl | median | range | cells at ≤ ½ of bfs | cells better than bfs | requests to 80% vs bfs\'s: median (range) |',
  '|---|---|---|---|---|---|',
  ...summary,
];
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
  ...holdoutSummary,
].join('\n');
process.stdout.write(`${table}\n`);
// RESULTS.md keeps the summary; the per-cell table goes to docs/results/webkb-holdout.md
if (values.write) await writeSplitSection('RESULTS.md', 'webkb-holdout', table, [...table.split('\n').slice(0, 3), '', ...holdoutSummary].join('\n'), '# Leave one university out: every cell');
