/**
 * Cost of the link-graph strategies (`hits`, `ipagerank`) as a crawl grows:
 * a synthetic, deterministic crawl-like graph is fed through the scorers
 * exactly as the classify stage and the frontier sink call them
 * (pageRelevance, linkScore, observe, rescore), and the time of every
 * round (rescore call that runs HITS / IPageRank) and of observe() is
 * recorded as the graph grows to `--pages` fetched pages.
 *
 *   node --import tsx bench/graph-bench.ts [--pages 50000] [--runs 3] [--warmup 1] [--write]
 *
 * The synthetic web (bench/lib/graph-web.ts; PRNG seeded, identical in every run): 1,000,000 URLs
 * in 50 topic clusters (URL i is in cluster i mod 50; clusters 0–9 are on
 * topic). A page links to 10 (6–14) URLs, 80% in its own cluster, drawn
 * with a skew towards low-numbered (popular) URLs; anchors name the
 * target's cluster ("photovoltaic" for on-topic clusters). Pages are
 * fetched breadth-first from 5 seeds; an on-topic page has relevance 0.6,
 * another 0.05 (threshold 0.2). Round length p = 100 pages.
 *
 * Contenders, each run in its own child process:
 * - `hits` and `ipagerank` with their defaults (warm start, at most 10
 *   iterations per round, graph capped at 50,000 nodes / 100,000 edges);
 * - the same strategy run the paper's way for comparison: cold start every
 *   round, iterated to convergence (up to 100 iterations, tol 1e-8), no
 *   practical cap (1,000,000 nodes and edges); one run, no warm-up.
 * Times are CPU ms of the child (process.cpuUsage), so other work on the
 * machine inflates them less than wall time. Each figure is the median over
 * runs of a per-run value; the per-run value of "ms per round" is the
 * median of the rounds in the window ending at the row's page count.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { GraphScorer } from '../src/relevance/graph/periodic.ts';
import { createHitsScorer } from '../src/relevance/scorers/hits.ts';
import { createIPageRankScorer } from '../src/relevance/scorers/ipagerank.ts';
import { linksToQueue } from '../src/stages/sink.ts';
import type { CrawlItem } from '../src/types.ts';
import { resultsDoc } from './lib/sections.ts';
import { breadthFirst, fetched, graphWebContext, pageOf, relevanceOf, urlOf } from './lib/graph-web.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCHMARKS_MD = resultsDoc('graph-bench'); // moved out of BENCHMARKS.md (issue 26 item 5: ≤ 20 KB)
const START_MARK = '<!-- graph-bench:start -->';
const END_MARK = '<!-- graph-bench:end -->';
const CHECKPOINTS = [1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 40_000, 50_000];

/** `paper`: the comparison run the paper's way, measured once (it is slow) without a warm-up run. */
const CONTENDERS: Record<string, { strategy: 'hits' | 'ipagerank'; params: Record<string, number>; paper: boolean }> = {
  hits: { strategy: 'hits', params: {}, paper: false },
  'hits, paper-style (cold start, to convergence, uncapped)': {
    strategy: 'hits',
    params: { warm: 0, iterations: 100, tol: 1e-8, tolMax: 0, maxNodes: 1_000_000, maxEdges: 1_000_000 },
    paper: true,
  },
  ipagerank: { strategy: 'ipagerank', params: {}, paper: false },
  'ipagerank, paper-style (cold start, to convergence, uncapped)': {
    strategy: 'ipagerank',
    params: { warm: 0, iterations: 100, tol: 1e-8, maxNodes: 1_000_000, maxEdges: 1_000_000 },
    paper: true,
  },
};

/** Per-checkpoint figures of one run. */
interface Row {
  pages: number;
  nodes: number;
  edges: number;
  /** median ms of the rounds since the previous checkpoint */
  roundMs: number;
  /** observe() ms per 1,000 pages since the previous checkpoint */
  observeMs: number;
  /** linkScore() ms per 1,000 pages since the previous checkpoint */
  linkScoreMs: number;
}


/** One run of one contender in this process: the rows at the checkpoints up to `pages`. */
async function runChild(name: string, pages: number): Promise<Row[]> {
  const { strategy, params } = CONTENDERS[name];
  const { ctx, judged } = graphWebContext(params);
  const scorer: GraphScorer = strategy === 'hits' ? createHitsScorer(ctx) : createIPageRankScorer(ctx);
  const rows: Row[] = [];
  let rounds: number[] = [];
  let roundsRun = 0;
  let observeMs = 0;
  let linkScoreMs = 0;
  let since = 0;
  let n = 0;
  const empty = async function* (): AsyncGenerator<never> {};
  for (const i of breadthFirst(pages)) {
    n++;
    const url = urlOf(i);
    const page = pageOf(i);
    judged.set(page, relevanceOf(i));
    const item: CrawlItem = { entry: { url, score: 0, depth: 0, parent: null }, fetch: fetched(url), page };
    item.relevance = scorer.pageRelevance(page, item);
    item.relevant = item.relevance >= 0.2;
    let t = process.cpuUsage();
    item.outlinks = page.links.map((l) => ({ url: l.url, score: scorer.linkScore(l, page, item.relevance!), anchor: l.anchor, context: l.context }));
    linkScoreMs += cpuMs(t);
    const links = linksToQueue(item, 1000);
    t = process.cpuUsage();
    scorer.observe!(item, links);
    observeMs += cpuMs(t);
    t = process.cpuUsage();
    await scorer.rescore!(empty);
    const ms = cpuMs(t);
    const ran = scorer.stats().rounds;
    if (ran > roundsRun) rounds.push(ms);
    roundsRun = ran;
    since++;
    if (CHECKPOINTS.includes(n)) {
      const s = scorer.stats();
      rows.push({ pages: n, nodes: s.nodes, edges: s.edges, roundMs: median(rounds), observeMs: (observeMs / since) * 1000, linkScoreMs: (linkScoreMs / since) * 1000 });
      rounds = [];
      observeMs = 0;
      linkScoreMs = 0;
      since = 0;
    }
  }
  return rows;
}

/** CPU ms (user + system) of this process since `start`: unlike wall time, not inflated by other work on the machine. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const fmt = (x: number, digits = 1): string => (Number.isNaN(x) ? '–' : x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));

/** "median (min–max)" of one field over runs. */
function cell(runs: Row[][], k: number, field: keyof Row, digits = 1): string {
  const xs = runs.map((r) => r[k][field]).filter((x) => !Number.isNaN(x));
  if (xs.length === 0) return '–';
  return `${fmt(median(xs), digits)} (${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)})`;
}

function table(name: string, paper: string, a: Row[][], b: Row[][]): string {
  const lines = [
    `**${name}**: defaults vs ${paper} (one run)`,
    '',
    '| pages observed | graph nodes / edges | ms per round | observe() ms per 1,000 pages | linkScore() ms per 1,000 pages | paper-style: graph nodes / edges | paper-style: ms per round |',
    '|---|---|---|---|---|---|---|',
  ];
  for (let k = 0; k < a[0].length; k++) {
    const r = a[0][k];
    const q = b[0][k];
    lines.push(
      `| ${r.pages.toLocaleString('en-US')} | ${r.nodes.toLocaleString('en-US')} / ${r.edges.toLocaleString('en-US')} | ${cell(a, k, 'roundMs', 2)} | ${cell(a, k, 'observeMs')} | ${cell(a, k, 'linkScoreMs')} | ${q.nodes.toLocaleString('en-US')} / ${q.edges.toLocaleString('en-US')} | ${cell(b, k, 'roundMs', 2)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '50000' },
      runs: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1' },
      write: { type: 'boolean', default: false },
      child: { type: 'string' },
    },
  });
  const pages = Number(values.pages);
  if (values.child !== undefined) {
    process.stdout.write(JSON.stringify(await runChild(values.child, pages)));
    return;
  }
  const runs = Number(values.runs);
  const warmup = Number(values.warmup);
  const load0 = os.loadavg()[0];
  const results: Record<string, Row[][]> = {};
  for (const name of Object.keys(CONTENDERS)) {
    results[name] = [];
    const paper = CONTENDERS[name].paper;
    const warm = paper ? 0 : warmup;
    for (let r = 0; r < warm + (paper ? 1 : runs); r++) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', name, '--pages', String(pages)], {
        cwd: REPO,
        maxBuffer: 1 << 24,
        encoding: 'utf8',
      });
      if (r >= warm) results[name].push(JSON.parse(out) as Row[]);
      process.stderr.write(`${name}: run ${r + 1}${r < warm ? ' (warm-up)' : ''} done\n`);
    }
  }
  const load1 = os.loadavg()[0];
  const cpu = os.cpus();
  const names = Object.keys(CONTENDERS);
  const body = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, Linux ${os.release()}, Node ${process.version}; 1-minute load average ${load0.toFixed(2)} before, ${load1.toFixed(2)} after.`,
    '',
    `Command: \`node --import tsx bench/graph-bench.ts --write\` (pages ${pages.toLocaleString('en-US')}, runs ${runs}, warm-up runs ${warmup}; p = 100, so a round every 100 pages). All times are CPU ms of the child process (user + system), not wall time. Median (min–max) over the runs; "ms per round" is, within each run, the median of the rounds since the previous row; observe() and linkScore() are totals over the pages since the previous row, per 1,000 pages. The paper-style contender runs once.`,
    '',
    table('hits', names[1], results[names[0]], results[names[1]]),
    '',
    table('ipagerank', names[3], results[names[2]], results[names[3]]),
  ].join('\n');
  console.log(body);
  if (values.write) {
    let md = existsSync(BENCHMARKS_MD) ? await readFile(BENCHMARKS_MD, 'utf8') : '# Graph strategies: cost of a round\n';
    if (!md.includes(START_MARK) || !md.includes(END_MARK)) md = `${md.replace(/\n*$/, '\n')}\n${START_MARK}\n${END_MARK}\n`;
    const before = md.slice(0, md.indexOf(START_MARK) + START_MARK.length);
    const after = md.slice(md.indexOf(END_MARK));
    await writeFile(BENCHMARKS_MD, `${before}\n${body}\n${after}`);
    console.error(`wrote ${BENCHMARKS_MD}`);
  }
}

await main();
