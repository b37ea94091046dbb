/**
 * Where a simulated WebKB leave-one-out crawl loses its last targets, by URL
 * directory (issue 22 item 3, the path units of the site lane): for one held-out
 * university and target, the strategy's crawl (bench/lib/simulate.ts, the
 * crawl's defaults, `--param` as bench/webkb-holdout.ts) and, for the targets
 * fetched after `--from` (0.5) of them, their host + first path segment
 * ("unit"), the best score a link to them had, and how many pages of that
 * unit (and of the host) the crawl had fetched before them and judged
 * relevant (page relevance ≥ 0.2 as the site lane counts it).
 *
 *   node --import tsx bench/dir-diagnosis.ts [--university washington] [--target course]
 *        [--strategy nb-link] [--in-flight 16] [--from 0.5] [--param K=V]... [--gap A-B]
 *
 * Prints a summary to stdout (data), nothing else.
 */
import { parseArgs } from 'node:util';
import { parseParams } from '../src/commands/crawl.ts';
import { NOT_ARCHIVED, fifo, readLinkGraph, seedIds, simulateCrawl, simulateLearning, simulateScored } from '../src/tools/eval/oracle.ts';
import { fitModel } from '../src/relevance/model.ts';
import { compileScope } from '../src/urls/scope.ts';
import { readLabels, readWarc } from '../src/relevance/train/from-warc.ts';
import { createScorer } from '../src/relevance/scorers/index.ts';
import { defaultSiteLane } from '../src/relevance/scorers/site-lane.ts';
import { dirUnitOf, type SiteLaneScorer } from '../src/relevance/scorers/site-lane.ts';
import { scorerSimulation } from '../src/tools/eval/sim-scorer.ts';
import { median, parseTrainFlags, scopeGraph } from './lib/simulate.ts';
import { WEBKB_LABELS, WEBKB_TRAIN_FLAGS, WEBKB_UNIVERSITIES, WEBKB_WARC } from './lib/webkb.ts';
import type { Scorer } from '../src/types.ts';

const { values } = parseArgs({
  options: {
    university: { type: 'string', default: 'washington' },
    target: { type: 'string', default: 'course' },
    strategy: { type: 'string', default: 'nb-link' },
    'in-flight': { type: 'string', default: '16' },
    from: { type: 'string', default: '0.5' },
    param: { type: 'string', multiple: true },
    gap: { type: 'string' },
  },
});
const u = values.university!;
const target = values.target!;
const { seed, domain } = WEBKB_UNIVERSITIES[u]!;
const web = await readLinkGraph([WEBKB_WARC], { keepPages: true, missing: true });
const inDomain = compileScope({ domains: [domain] })!;
const graph = scopeGraph(web, (v) => inDomain(web.urls[v]!));
const { urls, status, out } = graph;
const archived = (v: number): boolean => status[v] !== NOT_ARCHIVED;
const labels = (await readLabels(WEBKB_LABELS)).labels;
const own = new Set((await readLabels(WEBKB_LABELS, [{ column: 'university', value: u }])).labels.keys());
const seeds = seedIds(graph, [seed]);
const reach = new Set(simulateCrawl(out, seeds, fifo).filter(archived));
const isTarget = (v: number): boolean => labels.get(urls[v]!) === target && own.has(urls[v]!);
const goals = [...reach].filter(isTarget);
const flags = parseTrainFlags(WEBKB_TRAIN_FLAGS);
const data = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: [{ column: 'university', value: u, negate: true }], hubLinks: flags.hubLinks });
const { model } = fitModel(data, { target, group: flags.group, balancedLinks: flags.balancedLinks });
const { siteLane, ...rest } = parseParams(values.param ?? []);
const scorer: Scorer = createScorer(values.strategy!, null, { model, params: rest, siteLane: siteLane === undefined ? defaultSiteLane(values.strategy!, true) : Number(siteLane) });
// record each page's relevance and each node's best in-link score
const relevance = new Map<string, number>();
const inner = scorer.pageRelevance.bind(scorer);
scorer.pageRelevance = (page, item) => {
  const r = inner(page, item);
  relevance.set(item.entry.url, r);
  return r;
};
const sim = scorerSimulation(graph, scorer, seeds);
/** the best score of a link to each page from a page fetched before it */
const bestIn = new Map<number, number>();
const done = new Set<number>();
const score = (from: number, i: number): number | null => {
  done.add(from);
  const s = sim.score(from, i);
  const to = out[from]![i]!;
  if (!done.has(to) && s !== null && s !== Infinity && s > (bestIn.get(to) ?? -Infinity)) bestIn.set(to, s);
  return s;
};
const inFlight = Number(values['in-flight']);
const order = (sim.learn === null ? simulateScored(out, seeds, score, { inFlight }) : await simulateLearning(out, seeds, score, sim.learn, { inFlight })).filter(archived);

const lane = (scorer as Partial<SiteLaneScorer>).siteStats?.();
if (lane !== undefined) process.stdout.write(`site lane: ${lane.lifted} links lifted, ${lane.pages} pages fetched through it, ${lane.relevant} judged relevant\n`);
const from = Number(values.from);
// what the crawl fetched between two targets far apart: --gap A-B prints those pages' units (depth 3), judged relevance
if (values.gap !== undefined) {
  const [a, b] = values.gap.split('-').map(Number) as [number, number];
  const byUnit = new Map<string, { n: number; rel: number; targets: number }>();
  for (const v of order.slice(a, b - 1)) {
    const k = dirUnitOf(urls[v]!, 3);
    const c = byUnit.get(k) ?? { n: 0, rel: 0, targets: 0 };
    c.n++;
    if ((relevance.get(urls[v]!) ?? 0) >= 0.2) c.rel++;
    if (isTarget(v)) c.targets++;
    byUnit.set(k, c);
  }
  process.stdout.write(`pages ${a + 1}–${b - 1} by unit (depth 3): pages, judged relevant, targets\n`);
  for (const [k, c] of [...byUnit].sort((x, y) => y[1].n - x[1].n)) process.stdout.write(`  ${k}: ${c.n}, ${c.rel}, ${c.targets}\n`);
}
const need = Math.ceil(from * goals.length);
let found = 0;
const unitOf = (v: number): string => dirUnitOf(urls[v]!, 1);
const hostOf = (v: number): string => dirUnitOf(urls[v]!, 0);
const early: number[] = [];
const late: { v: number; at: number }[] = [];
order.forEach((v, at) => {
  if (!isTarget(v)) return;
  found++;
  if (found <= need) early.push(v);
  else late.push({ v, at: at + 1 });
});
const judgedBefore = (key: (v: number) => string, k: string, at: number): { n: number; rel: number } => {
  let n = 0;
  let rel = 0;
  for (const w of order.slice(0, at - 1)) {
    if (key(w) !== k) continue;
    n++;
    if ((relevance.get(urls[w]!) ?? 0) >= 0.2) rel++;
  }
  return { n, rel };
};
const pct = (a: number, b: number): string => (b === 0 ? '–' : `${Math.round((100 * a) / b)}%`);
process.stdout.write(`${u} ${target} ${values.strategy} in-flight ${inFlight}${(values.param ?? []).map((p) => ` --param ${p}`).join('')}: ${goals.length} targets, ${order.length} archived pages; ${from * 100}% at page ${late[0] === undefined ? '–' : order.indexOf(early.at(-1)!) + 1}\n`);
const units = new Map<string, { early: number; late: number }>();
for (const v of early) units.set(unitOf(v), { early: (units.get(unitOf(v))?.early ?? 0) + 1, late: units.get(unitOf(v))?.late ?? 0 });
for (const { v } of late) units.set(unitOf(v), { early: units.get(unitOf(v))?.early ?? 0, late: (units.get(unitOf(v))?.late ?? 0) + 1 });
process.stdout.write(`targets by unit (first ${from * 100}% / rest), with the unit's archived pages and targets reachable:\n`);
for (const [k, c] of [...units].sort((a, b) => b[1].late - a[1].late || b[1].early - a[1].early)) {
  const all = [...reach].filter((v) => unitOf(v) === k);
  process.stdout.write(`  ${k}: ${c.early} / ${c.late}; ${all.length} pages, ${all.filter(isTarget).length} targets\n`);
}
process.stdout.write(`best in-link score, median: first ${median(early.map((v) => bestIn.get(v) ?? 0)).toFixed(3)}, rest ${median(late.map(({ v }) => bestIn.get(v) ?? 0)).toFixed(3)}; all links' median ${median([...bestIn.values()]).toFixed(3)}\n`);
// when each page was first linked from a fetched page, and from which
const position = new Map(order.map((v, i) => [v, i + 1]));
const firstParent = new Map<number, number>();
for (const v of order) for (const t of out[v] ?? []) if (!firstParent.has(t)) firstParent.set(t, v);
process.stdout.write(`late targets (page, url, best in-link score, page its first fetched parent came at and that parent (relevance), unit fetched before: judged relevant / pages, host: relevant / pages):\n`);
const waits: number[] = [];
for (const { v, at } of late) {
  const d = judgedBefore(unitOf, unitOf(v), at);
  const h = judgedBefore(hostOf, hostOf(v), at);
  const par = firstParent.get(v);
  const parAt = par === undefined ? null : position.get(par) ?? null;
  if (parAt !== null) waits.push(at - parAt);
  process.stdout.write(`  ${at} ${urls[v]} ${(bestIn.get(v) ?? 0).toFixed(3)} found@${parAt ?? '–'} from ${par === undefined ? '–' : `${urls[par]} (${(relevance.get(urls[par]!) ?? 0).toFixed(2)})`} unit ${d.rel}/${d.n} (${pct(d.rel, d.n)}) host ${h.rel}/${h.n} (${pct(h.rel, h.n)})\n`);
}
process.stdout.write(`pages from the first fetched parent to the late target, median ${waits.length === 0 ? '–' : median(waits)}\n`);
