/**
 * How far `hits`' scores are from HITS' fixed point when a round runs fewer
 * power iterations (`--param maxWork`, or `iterations`), on a graph as large
 * as a long crawl makes it. WebKB cannot tell: its crawl graph never passes
 * 6,200 edges, where every setting runs the same iterations.
 *
 *   node --import tsx bench/hits-convergence.ts [--pages 50000] [--max-work 100000,200000,500000] [--write]
 *
 * The web is graph-bench's (bench/lib/graph-web.ts), fetched in the same
 * breadth-first order by every contender, so all of them see the same
 * pages; only their graphs' evictions (which depend on the scores) differ.
 * Contenders: maxWork 0 (up to 10 iterations every round), each `maxWork`
 * (the default is 500,000),
 * and the reference: 200 iterations a round (tol 0), warm-started, which is
 * HITS' fixed point for the graph of the moment as far as it converges.
 *
 * At each checkpoint the probes are the distinct link targets of the last
 * 500 pages (the URLs a crawl is deciding about just then) that have a
 * structure term in some contender's graph (others score 0 in all). A probe's
 * structure term, α·Authority + β·Hub (normalised as the scorer does), is
 * read through linkScore itself: a link with no topic word from a page of
 * relevance 0 scores exactly C times it. Reported against the reference:
 * the mean absolute difference of the structure term (its range is
 * 0..α+β = 0..1), and the share of the reference's top tenth of the probes
 * that the contender also puts in its top tenth.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { GraphScorer } from '../src/relevance/graph/periodic.ts';
import { createHitsScorer, HITS_DEFAULTS } from '../src/relevance/scorers/hits.ts';
import { linksToQueue } from '../src/stages/sink.ts';
import type { CrawlItem, PageLink, ParsedPage } from '../src/types.ts';
import { UNIVERSE, breadthFirst, fetched, graphWebContext, outlinks, pageOf, relevanceOf, urlOf } from './lib/graph-web.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHECKPOINTS = [2_000, 5_000, 10_000, 20_000, 30_000, 40_000, 50_000];
const RECENT = 500;

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '50000' },
    'max-work': { type: 'string', default: '100000,200000,500000' },
    write: { type: 'boolean', default: false },
  },
});
const pages = Number(values.pages);
const works = values['max-work']!.split(',').map(Number);
if (!Number.isInteger(pages) || pages < 1 || works.some((w) => !Number.isFinite(w) || w <= 0)) {
  process.stderr.write('hits-convergence: --pages must be a positive integer and --max-work positive numbers separated by commas\n');
  process.exit(2);
}

interface Contender {
  name: string;
  scorer: GraphScorer;
  judged: WeakMap<ParsedPage, number>;
  ms: number;
}

function contender(name: string, params: Record<string, number>): Contender {
  const { ctx, judged } = graphWebContext(params);
  return { name, scorer: createHitsScorer(ctx), judged, ms: 0 };
}

const contenders = [
  contender('maxWork 0 (off: up to 10 iterations every round)', { maxWork: 0 }),
  ...works.map((w) => contender(`maxWork ${w.toLocaleString('en-US')}`, { maxWork: w })),
];
const reference = contender('reference', { iterations: 200, tol: 0 });
const all = [...contenders, reference];

const PROBE_PAGE = pageOf(UNIVERSE - 1);
const probeLink = (url: string): PageLink => ({ url, anchor: 'zzz', context: '', tag: 'a', nofollow: false, block: 'content' });
const structure = (c: Contender, url: string): number => c.scorer.linkScore(probeLink(url), PROBE_PAGE, 0, url) / HITS_DEFAULTS.C;

/** Share of `ref`'s top tenth (by value) that `x` also ranks in its top tenth. */
function topTenthOverlap(ref: number[], x: number[]): number {
  const k = Math.max(1, Math.floor(ref.length / 10));
  const top = (v: number[]): Set<number> => new Set(v.map((s, i) => [s, i] as const).sort((a, b) => b[0] - a[0]).slice(0, k).map(([, i]) => i));
  const a = top(ref);
  let both = 0;
  for (const i of top(x)) if (a.has(i)) both++;
  return both / k;
}

interface Row {
  pages: number;
  edges: number;
  probes: number;
  /** the reference's mean structure term over the probes */
  mean: number;
  /** per contender: mean |Δ structure|, top-tenth overlap, round ms (mean since the last row) */
  cells: Array<{ mae: number; overlap: number; ms: number }>;
}

const recent: number[] = [];
const rows: Row[] = [];
const roundsAt = all.map(() => 0);
const msAt = all.map(() => 0);
const empty = async function* (): AsyncGenerator<never> {};
let n = 0;
for (const i of breadthFirst(pages)) {
  n++;
  const url = urlOf(i);
  for (const c of all) {
    const page = pageOf(i);
    c.judged.set(page, relevanceOf(i));
    const item: CrawlItem = { entry: { url, score: 0, depth: 0, parent: null }, fetch: fetched(url), page };
    item.relevance = c.scorer.pageRelevance(page, item);
    item.relevant = item.relevance >= 0.2;
    item.outlinks = page.links.map((l) => ({ url: l.url, canonical: l.url, score: c.scorer.linkScore(l, page, item.relevance!, l.url), anchor: l.anchor, context: l.context }));
    c.scorer.observe!(item, linksToQueue(item, 1000));
    const t = process.hrtime.bigint();
    await c.scorer.rescore!(empty);
    c.ms += Number(process.hrtime.bigint() - t) / 1e6;
  }
  recent.push(i);
  if (recent.length > RECENT) recent.shift();
  if (CHECKPOINTS.includes(n) || n === pages) {
    const targets = [...new Set(recent.flatMap((p) => outlinks(p)))].map(urlOf);
    // probes with a structure term somewhere (a URL the graph does not hold scores 0 in all)
    const values = all.map((c) => targets.map((u) => structure(c, u)));
    const keep = targets.map((_, j) => values.some((v) => v[j] > 0));
    const pick = (v: number[]): number[] => v.filter((_, j) => keep[j]);
    const ref = pick(values[all.length - 1]);
    const probes = ref.length;
    const cells = contenders.map((c, k) => {
      const x = pick(values[k]);
      const mae = x.reduce((s, v, j) => s + Math.abs(v - ref[j]), 0) / Math.max(1, probes);
      const rounds = c.scorer.stats().rounds - roundsAt[k];
      const ms = rounds > 0 ? (c.ms - msAt[k]) / rounds : NaN;
      roundsAt[k] = c.scorer.stats().rounds;
      msAt[k] = c.ms;
      return { mae, overlap: topTenthOverlap(ref, x), ms };
    });
    const mean = ref.reduce((s, v) => s + v, 0) / Math.max(1, probes);
    rows.push({ pages: n, edges: contenders[0].scorer.stats().edges, probes, mean, cells });
    process.stderr.write(`${n} pages\n`);
  }
}

const fmt = (x: number, d: number): string => (Number.isNaN(x) ? '–' : x.toFixed(d));
const cpu = os.cpus();
const body = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, Node ${process.version}. Command: \`node --import tsx bench/hits-convergence.ts --pages ${pages} --max-work ${works.join(',')}\` (one run: the crawl order and the web are fixed, only timing varies). Each cell: mean absolute difference of the structure term α·Authority + β·Hub from the reference's (range 0..1) / share of the reference's top tenth of the probes also in the contender's top tenth / wall ms per round since the previous row. Edges: the first contender's graph. The default is maxWork 500,000.`,
  '',
  `| pages | edges | probes | reference's mean | ${contenders.map((c) => c.name).join(' | ')} |`,
  `|---|---|---|---|${contenders.map(() => '---|').join('')}`,
  ...rows.map((r) => `| ${r.pages.toLocaleString('en-US')} | ${r.edges.toLocaleString('en-US')} | ${r.probes.toLocaleString('en-US')} | ${fmt(r.mean, 4)} | ${r.cells.map((c) => `${fmt(c.mae, 4)} / ${fmt(100 * c.overlap, 0)}% / ${fmt(c.ms, 2)}`).join(' | ')} |`),
].join('\n');
console.log(body);
if (values.write) {
  const file = resultsDoc('hits-convergence');
  await writeSection(file, 'hits-convergence', body, '# hits: fewer iterations on a full graph');
  process.stderr.write(`wrote ${file}\n`);
}
