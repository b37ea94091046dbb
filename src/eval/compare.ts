/**
 * `focuscrawl compare`: crawl the same archived web once per strategy
 * through one in-process replay proxy, score every run against the labels,
 * print the summaries (NDJSON, stdout), a markdown table (stderr), and plot
 * all runs in one SVG.
 *
 * Each crawl is the real CLI in a child process (`focuscrawl crawl ...
 * --strategy S --proxy URL --store TMP --fresh --quiet`), run one after the
 * other so they do not compete for the proxy or the CPU.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { helpText, parseCommand, type CommandSpec } from '../args.ts';
import { UsageError } from '../errors.ts';
import { parseWhere } from '../train/where.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from '../term.ts';
import { createReplayServer } from '../replay/server.ts';
import {
  atFlag, emit, loadLabels, loadReachable, reportError, scoreRun, summaryLine, writePlot,
  type ScoreConfig, type ScoredRun,
} from './command.ts';
import type { EvalSummary } from './metrics.ts';
import { graphOracle, layerOracle, linkOracle, readLinkGraph, seedIds, simulateCrawl, type Policy } from './oracle.ts';
import { readSeedsFile } from '../seeds.ts';

const BIN = fileURLToPath(new URL('../../bin/focuscrawl', import.meta.url));

export const COMPARE_SPEC: CommandSpec = {
  name: 'compare',
  usage: ['compare --warc FILE... --labels FILE --target LABEL (--seed URL... | --seeds FILE) --strategies S,S,... [options] [-- CRAWL-FLAGS]'],
  summary: 'Crawl a WARC web once per strategy through one replay proxy, score each run against the labels (as focuscrawl eval does) and compare. The first strategy is the baseline.',
  positionals: true,
  flags: [
    { group: 'Options', name: 'warc', type: 'string', value: 'FILE', multiple: true, help: 'WARC file to replay (at least one)' },
    { group: 'Options', name: 'labels', type: 'string', value: 'FILE', help: 'labels TSV with a header row: url<TAB>label[<TAB>...]' },
    { group: 'Options', name: 'where', type: 'string', value: 'COL=VAL', multiple: true, help: "score against the rows whose column COL is VAL only (COL!=VAL: is not VAL); other rows' URLs count as unlabelled" },
    { group: 'Options', name: 'target', type: 'string', value: 'LABEL', help: 'the label of on-topic pages' },
    { group: 'Options', name: 'seed', type: 'string', value: 'URL', multiple: true, help: 'a start URL' },
    { group: 'Options', name: 'seeds', type: 'string', value: 'FILE', help: 'start URLs, one a line' },
    { group: 'Options', name: 'strategies', type: 'string', value: 'LIST', help: 'comma-separated strategy names, e.g. bfs,best-first' },
    { group: 'Options', name: 'topic', type: 'string', value: 'FILE', help: 'passed to every crawl' },
    { group: 'Options', name: 'model', type: 'string', value: 'FILE', help: 'passed to every crawl' },
    { group: 'Options', name: 'max-pages', type: 'int', min: 1, max: 1e12, zeroIsNoLimit: true, help: 'passed to every crawl' },
    { group: 'Options', name: 'concurrency', type: 'int', min: 1, max: 10_000, help: 'passed to every crawl' },
    { group: 'Options', name: 'status', type: 'int', min: 100, max: 599, help: 'also score counting only pages with HTTP status N' },
    { group: 'Options', name: 'reachable', type: 'string', value: 'FILE', help: 'recall counts only target URLs listed in FILE' },
    { group: 'Options', name: 'at', type: 'string', value: 'K,K,...', default: '100,200,500,1000,2000', help: 'harvest@K checkpoints' },
    { group: 'Options', name: 'out-dir', type: 'string', value: 'DIR', help: "keep each run's NDJSON as DIR/<strategy>.ndjson (and the plot as DIR/compare.svg)" },
    { group: 'Options', name: 'plot', type: 'string', value: 'FILE', help: 'write the SVG of all runs here' },
    { group: 'Options', name: 'oracle', type: 'boolean', help: "also score simulated crawls that know the answers, on the archive's link graph, from the same seeds: oracle-link (a perfect judge of whether a link's target is on topic), oracle-layer1 and oracle-layer2 (also knows the pages one or two links from an on-topic page), oracle-graph (knows the whole graph). They obey the archived robots.txt but fetch only archived pages (no 404s): compare them with the crawls in the --status 200 view" },
  ],
  notes: `Flags after \`--\` go to every crawl as they are (e.g. -- --max-depth 6).

stdout: one {"type":"summary",...} line per run (and view). stderr: the table.
Exit 0 when every crawl succeeded, 1 when one failed (its stderr is shown),
2 for bad usage.`,
  exitCodes: [
    [0, 'every crawl succeeded; also --help'],
    [1, 'a crawl failed (its stderr is shown), an internal error'],
    [2, 'bad input: FC_USAGE'],
  ],
};

/** Most bytes of a crawl's stderr kept for the report of a failed run. */
const STDERR_CAP = 16 * 1024;

/** Streams of the command (tests pass their own; defaults: the process's). */
export interface CompareIo {
  stdout?: Writable;
  stderr?: Writable;
}

interface CrawlOutcome {
  code: number;
  stderr: string;
}

/** Run one crawl as a child process, its stdout into `outFile`. */
async function crawl(args: string[], outFile: string): Promise<CrawlOutcome> {
  const child = spawn(process.execPath, [BIN, 'crawl', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-STDERR_CAP);
  });
  const exited = new Promise<number>((resolve) => {
    child.on('error', (err) => {
      stderr += `cannot start the crawler: ${err.message}`;
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
  await pipeline(child.stdout!, createWriteStream(outFile));
  return { code: await exited, stderr };
}

function fmtPct(x: number | null): string {
  return x === null ? '—' : `${(100 * x).toFixed(1)}%`;
}

function fmtInt(x: number | null): string {
  return x === null ? '—' : String(x);
}

/** The markdown table of one view of every run; the first run is the baseline. */
export function markdownTable(rows: { run: string; summary: EvalSummary }[], at: number[]): string {
  const reached = at.filter((k) => rows.some((r) => r.summary.pages >= k));
  const base = rows[0]?.summary.pagesTo80 ?? null;
  const baseName = rows[0]?.run ?? '';
  const head = ['run', 'pages', 'relevant', 'to 50%', 'to 80%', 'to 90%', ...reached.map((k) => `harvest@${k}`), 'harvest', 'recall', 'F1', `to 80% vs ${baseName}`];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const { run, summary: s } of rows) {
    const ratio = base === null || s.pagesTo80 === null ? '—' : `${(s.pagesTo80 / base).toFixed(2)}×`;
    const cells = [
      run, String(s.pages), String(s.relevant), fmtInt(s.pagesTo50), fmtInt(s.pagesTo80), fmtInt(s.pagesTo90),
      ...reached.map((k) => fmtPct(s.harvestAt[String(k)] ?? null)), fmtPct(s.harvest), fmtPct(s.recall), s.f1.toFixed(3), ratio,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** Above this many target pages × (pages + links) the graph oracle is left out (it renews its distances per target). */
export const GRAPH_ORACLE_MAX_WORK = 500_000_000;

/**
 * The oracle runs of --oracle (src/eval/oracle.ts), scored like crawls: the
 * pages each simulated crawl fetches, as page records with their archived
 * status, at most `maxPages` of them.
 */
async function oracleRuns(warcs: string[], seedUrls: string[], cfg: ScoreConfig, maxPages: number, warn: (line: string) => void): Promise<ScoredRun[]> {
  const t0 = Date.now();
  const graph = await readLinkGraph(warcs);
  const seeds = seedIds(graph, seedUrls);
  if (seeds.length === 0) {
    warn('--oracle: no seed is an archived page; no oracle runs');
    return [];
  }
  const targets = graph.urls.flatMap((u, id) => (cfg.labels.get(u) === cfg.target ? [id] : []));
  const isTarget = new Set(targets);
  const edges = graph.out.reduce((n, e) => n + e.length, 0);
  const policies: [string, Policy][] = [
    ['oracle-link', linkOracle((v) => isTarget.has(v))],
    ['oracle-layer1', layerOracle(graph.out, targets, 1)],
    ['oracle-layer2', layerOracle(graph.out, targets, 2)],
  ];
  if (targets.length * (graph.urls.length + edges) <= GRAPH_ORACLE_MAX_WORK) policies.push(['oracle-graph', graphOracle(graph.out, targets)]);
  else warn(`--oracle: oracle-graph left out: ${targets.length} targets × ${graph.urls.length + edges} pages and links is too much work`);
  const runs: ScoredRun[] = [];
  for (const [name, policy] of policies) {
    const order = simulateCrawl(graph.out, seeds, policy).slice(0, maxPages);
    const records = order.map((v) => `${JSON.stringify({ type: 'page', url: graph.urls[v], finalUrl: graph.urls[v], status: graph.status[v] })}\n`);
    runs.push(await scoreRun(name, Readable.from(records), cfg, warn));
  }
  warn(`oracles: ${graph.htmlPages} archived HTML pages, ${edges} links between archived pages, ${targets.length} ${cfg.target} pages; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return runs;
}

/**
 * Run `focuscrawl compare` with its own arguments (after the subcommand).
 * Returns the exit code: 0 when every crawl succeeded, 1 when any failed
 * (the others still run and are reported), 2 for bad usage.
 */
export async function runCompare(argv: string[], io: CompareIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  // lines quote malformed records and a failed crawl's own stderr (kept multi-line)
  const warn = (text: string): void =>
    void stderr.write(`focuscrawl compare: ${text.split('\n').map((line) => sanitizeForTerminal(line, LOG_LINE_MAX)).join('\n')}\n`);
  let tmp: string | null = null;
  let replay: Awaited<ReturnType<typeof createReplayServer>> | null = null;
  try {
    const { help, args } = parseCommand(COMPARE_SPEC, argv);
    if (help) {
      await emit(stdout, helpText(COMPARE_SPEC));
      return 0;
    }
    const positionals = args.positionals;
    const maxPages = args.number('max-pages');
    const concurrency = args.number('concurrency');
    const values = {
      warc: args.strings('warc'),
      labels: args.string('labels'),
      where: args.strings('where'),
      target: args.string('target'),
      seed: args.strings('seed'),
      seeds: args.string('seeds'),
      strategies: args.string('strategies'),
      topic: args.string('topic'),
      model: args.string('model'),
      'max-pages': maxPages === undefined ? undefined : String(Number.isFinite(maxPages) ? maxPages : 0),
      concurrency: concurrency === undefined ? undefined : String(concurrency),
      reachable: args.string('reachable'),
      'out-dir': args.string('out-dir'),
      plot: args.string('plot'),
      oracle: args.bool('oracle'),
    };
    const dashDash = argv.indexOf('--');
    if (positionals.length > 0 && (dashDash < 0 || argv.length - dashDash - 1 !== positionals.length)) {
      throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (crawl flags go after --)`);
    }
    const warcs = values.warc ?? [];
    if (warcs.length === 0) throw new UsageError('--warc FILE is required');
    if (values.labels === undefined) throw new UsageError('--labels FILE is required');
    if (values.target === undefined || values.target === '') throw new UsageError('--target LABEL is required');
    if ((values.seed ?? []).length === 0 && values.seeds === undefined) throw new UsageError('give --seed URL or --seeds FILE');
    const strategies = (values.strategies ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (strategies.length === 0) throw new UsageError('--strategies S,S,... is required');
    if (new Set(strategies).size !== strategies.length) throw new UsageError(`--strategies repeats a name: ${strategies.join(',')}`);
    const status = args.number('status') ?? null;
    const at = atFlag(args.string('at'));
    const reachable = await loadReachable(values.reachable);
    const cfg: ScoreConfig = { labels: await loadLabels(values.labels, values.target, warn, parseWhere(values.where ?? [])), target: values.target, status, reachable, at, every: null };
    const outDir = values['out-dir'];
    if (outDir !== undefined) await mkdir(outDir, { recursive: true });
    const plotFile = values.plot ?? (outDir === undefined ? undefined : path.join(outDir, 'compare.svg'));

    const common: string[] = [];
    for (const s of values.seed ?? []) common.push('--seed', s);
    if (values.seeds !== undefined) common.push('--seeds', values.seeds);
    if (values.topic !== undefined) common.push('--topic', values.topic);
    if (values.model !== undefined) common.push('--model', values.model);
    if (values['max-pages'] !== undefined) common.push('--max-pages', values['max-pages']);
    if (values.concurrency !== undefined) common.push('--concurrency', values.concurrency);
    common.push(...positionals);

    try {
      replay = await createReplayServer({ warcs });
    } catch (err) {
      throw new UsageError(`cannot replay ${warcs.join(', ')}: ${(err as Error).message}`, { cause: err });
    }
    tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-compare-'));
    warn(`replaying ${replay.records} archived URLs at ${replay.url}`);

    const runs: ScoredRun[] = [];
    let failed = 0;
    for (const strategy of strategies) {
      const file = path.join(outDir ?? tmp, `${strategy.replace(/[^A-Za-z0-9._-]/g, '_')}.ndjson`);
      const store = path.join(tmp, `store-${runs.length + failed}`);
      const t0 = Date.now();
      const out = await crawl([...common, '--strategy', strategy, '--proxy', replay.url, '--store', store, '--fresh', '--quiet'], file);
      await rm(store, { recursive: true, force: true });
      if (out.code !== 0) {
        failed++;
        warn(`${strategy}: the crawl failed (exit ${out.code}):\n${out.stderr.trimEnd()}`);
        continue;
      }
      const run = await scoreRun(strategy, createReadStream(file), cfg, warn);
      warn(`${strategy}: ${run.views[0].summary.pages} pages in ${((Date.now() - t0) / 1000).toFixed(1)} s${outDir === undefined ? '' : ` -> ${file}`}`);
      for (const v of run.views) await emit(stdout, summaryLine(strategy, run.malformed, v.summary));
      runs.push(run);
    }
    if (values.oracle === true) {
      const seeds = [...(values.seed ?? []), ...(values.seeds === undefined ? [] : await readSeedsFile(values.seeds))];
      for (const run of await oracleRuns(warcs, seeds, cfg, maxPages ?? Infinity, warn)) {
        for (const v of run.views) await emit(stdout, summaryLine(run.name, run.malformed, v.summary));
        runs.push(run);
      }
    }
    if (runs.length > 0) {
      const views = runs[0].views.length;
      for (let i = 0; i < views; i++) {
        const status = runs[0].views[i].summary.status;
        const caption = status === null ? 'all pages' : `pages with status ${status}`;
        stderr.write(`\n${cfg.target}, ${caption}:\n\n${markdownTable(runs.map((r) => ({ run: r.name, summary: r.views[i].summary })), cfg.at)}\n`);
      }
      if (plotFile !== undefined) {
        await writePlot(plotFile, runs, `${cfg.target}: ${runs.map((r) => r.name).join(' vs ')}`);
        warn(`plot -> ${plotFile}`);
      }
    }
    return failed === 0 ? 0 : 1;
  } catch (err) {
    return reportError(err, 'compare', stderr);
  } finally {
    await replay?.close();
    if (tmp !== null) await rm(tmp, { recursive: true, force: true });
  }
}
