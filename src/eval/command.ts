/**
 * `focuscrawl eval`: score crawl output (NDJSON page/error records) against
 * ground-truth labels. Prints curve checkpoints and one summary per run as
 * NDJSON on stdout, optionally an SVG plot of the curves.
 *
 * Malformed input lines (not JSON, or JSON that is not an object) are
 * counted, reported on stderr and skipped; they never stop the evaluation.
 */
import { constants, createReadStream } from 'node:fs';
import { access, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { helpText, parseCommand, type CommandSpec } from '../args.ts';
import ndjson from 'ndjson';
import { UsageError } from '../errors.ts';
import { parseWhere, whereText, type WhereFilter } from '../train/where.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from '../term.ts';
import { CurveSampler, DEFAULT_AT, Evaluator, parseLabels, type CurvePoint, type EvalSummary, type Labels } from './metrics.ts';
import { plotCurves, type PlotSeries } from './plot.ts';

export const EVAL_SPEC: CommandSpec = {
  name: 'eval',
  usage: ['eval --labels FILE --target LABEL [options] < pages.ndjson'],
  summary: 'Score crawl output against labels: harvest rate and target recall after every N pages, pages needed to reach 50/80/90 % of the targets, harvest@K.',
  flags: [
    { group: 'Options', name: 'labels', type: 'string', value: 'FILE', help: 'labels TSV with a header row: url<TAB>label[<TAB>...]' },
    { group: 'Options', name: 'where', type: 'string', value: 'COL=VAL', multiple: true, help: "score against the rows whose column COL is VAL only (COL!=VAL: is not VAL); other rows' URLs count as unlabelled" },
    { group: 'Options', name: 'target', type: 'string', value: 'LABEL', help: 'the label of on-topic pages' },
    { group: 'Options', name: 'input', type: 'string', value: 'FILE', multiple: true, defaultText: 'stdin', help: 'crawl NDJSON to score (several: several runs)' },
    { group: 'Options', name: 'name', type: 'string', value: 'RUN', multiple: true, defaultText: 'the file name', help: "the run's name, one per --input" },
    { group: 'Options', name: 'status', type: 'int', min: 100, max: 599, help: 'also score counting only pages with HTTP status N (both views are printed)' },
    { group: 'Options', name: 'reachable', type: 'string', value: 'FILE', help: 'recall counts only target URLs listed in FILE (one URL a line)' },
    { group: 'Options', name: 'at', type: 'string', value: 'K,K,...', default: DEFAULT_AT.join(','), help: 'harvest@K checkpoints' },
    { group: 'Options', name: 'every', type: 'int', min: 1, max: 1e12, defaultText: '25 to 50 evenly spaced lines per run', help: 'a curve line every N pages' },
    { group: 'Options', name: 'plot', type: 'string', value: 'FILE', help: 'write an SVG of harvest and recall against pages' },
    { group: 'Options', name: 'title', type: 'string', value: 'TEXT', help: 'title of the plot' },
  ],
  notes: `Pages: every {"type":"page"} record, any status, each URL once (first
occurrence); error records are not pages. Output: {"type":"curve",...}
lines, then one {"type":"summary",...} line per run and view.`,
  exitCodes: [
    [0, 'done (malformed input lines included); also --help'],
    [1, 'the plot cannot be written, an internal error'],
    [2, 'bad input: FC_USAGE (a bad flag, unreadable labels or input)'],
  ],
};

/** Streams of a command (tests pass their own; defaults: the process's). */
export interface EvalIo {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
}

/** How one run is scored (shared with `focuscrawl compare`). */
export interface ScoreConfig {
  labels: Labels;
  target: string;
  /** the extra status-filtered view, or null for the all-pages view only */
  status: number | null;
  reachable: string[] | null;
  at: number[];
  /** a curve point every N pages; null: about `CURVE_POINTS` evenly spaced points */
  every: number | null;
}

/** One view (all pages, or one status) of a scored run. */
export interface ScoredView {
  summary: EvalSummary;
  /** the curve checkpoints to print (empty when `every` streamed them) */
  curve: CurvePoint[];
  /** at most ~PLOT_POINTS points for the plot */
  plot: CurvePoint[];
}

/** A scored run. */
export interface ScoredRun {
  name: string;
  /** input lines skipped as malformed */
  malformed: number;
  /** the all-pages view first, then the status view when asked */
  views: ScoredView[];
}

/** Curve lines per run and view when --every is not given. */
export const CURVE_POINTS = 50;
/** Points per run and view kept for the plot. */
export const PLOT_POINTS = 500;
/**
 * Longest line buffered while reading NDJSON, in characters; a longer line
 * is skipped and reported as malformed. A page record with `--text` and
 * `--outlinks` can pass 1 MiB (a page with thousands of links).
 */
export const MAX_LINE = 64 * 1024 * 1024;
/** Malformed lines reported one by one per run; the rest are only counted. */
const REPORT_MALFORMED = 5;

/** Resolves on `event`, or when the emitter closes or errors (never rejects). */
function settle(emitter: NodeJS.EventEmitter, event: string): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      emitter.off(event, done);
      emitter.off('close', done);
      emitter.off('error', done);
      resolve();
    };
    emitter.on(event, done);
    emitter.on('close', done);
    emitter.on('error', done);
  });
}

/**
 * Parse NDJSON from `input` with ndjson.parse(), calling `onRecord` for each
 * JSON object and `onMalformed` for each line that is not one. The parser's
 * per-line errors are events, not failures, so it is fed by hand (pipe()
 * would unpipe at the first one). An error of `input` itself rejects.
 */
export async function readRecords(input: Readable, onRecord: (rec: object) => void, onMalformed: (why: string) => void, maxLine = MAX_LINE): Promise<void> {
  const parser = ndjson.parse({ strict: true, maxLength: maxLine, skipOverflow: true } as ndjson.ParseOptions);
  parser.on('data', (v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) onRecord(v);
    else onMalformed(`not a JSON object: ${JSON.stringify(v).slice(0, 50)}`);
  });
  parser.on('error', (err: Error) => {
    // ndjson hands a line `null` to split2 as end-of-stream; later lines then fail with this message.
    onMalformed(err.message === 'stream.push() after EOF' ? 'line after a `null` line (the parser stopped there)' : err.message);
  });
  // split2 (under ndjson) drops a line past maxLength without a word; its
  // `overflow` flag says when it starts dropping one. The transform runs
  // within write() while 'data' takes every row at once, so a look after
  // each write sees each such line.
  let overflowing = false;
  const checkOverflow = (): void => {
    const now = (parser as unknown as { overflow?: boolean }).overflow === true;
    if (now && !overflowing) onMalformed(`a line longer than ${maxLine} characters (skipped)`);
    overflowing = now;
  };
  const ended = settle(parser, 'end');
  for await (const chunk of input) {
    const more = parser.write(chunk);
    checkOverflow();
    if (!more) {
      await settle(parser, 'drain');
      checkOverflow();
    }
  }
  parser.end();
  await ended;
}

/** Score one run read from `input`. `onCurve` receives the checkpoints as they happen when `every` is set. */
export async function scoreRun(
  name: string,
  input: Readable,
  cfg: ScoreConfig,
  warn: (line: string) => void,
  onCurve?: (status: number | null, p: CurvePoint) => void,
): Promise<ScoredRun> {
  const statuses = cfg.status === null ? [null] : [null, cfg.status];
  const views = statuses.map((status) => ({
    status,
    ev: new Evaluator(cfg.labels, { target: cfg.target, status, reachable: cfg.reachable, at: cfg.at }),
    grid: cfg.every === null ? new CurveSampler(CURVE_POINTS) : null,
    plot: new CurveSampler(PLOT_POINTS),
    last: null as CurvePoint | null,
  }));
  let malformed = 0;
  await readRecords(
    input,
    (rec) => {
      for (const v of views) {
        const p = v.ev.add(rec);
        if (p === null) continue;
        v.last = p;
        v.plot.add(p);
        if (v.grid !== null) v.grid.add(p);
        else if (p.n % cfg.every! === 0) onCurve?.(v.status, p);
      }
    },
    (why) => {
      malformed++;
      if (malformed <= REPORT_MALFORMED) warn(`${name}: skipped a malformed line: ${why}`);
    },
  );
  if (malformed > REPORT_MALFORMED) warn(`${name}: ${malformed} malformed lines skipped in all`);
  return {
    name,
    malformed,
    views: views.map((v) => {
      // the final point closes a streamed grid too
      if (v.grid === null && v.last !== null && v.last.n % cfg.every! !== 0) onCurve?.(v.status, v.last);
      return { summary: v.ev.summary(), curve: v.grid?.points() ?? [], plot: v.plot.points() };
    }),
  };
}

/** The NDJSON line of a curve checkpoint. */
export function curveLine(run: string, status: number | null, p: CurvePoint): string {
  return `${JSON.stringify({ type: 'curve', run, status, n: p.n, harvest: p.harvest, recall: p.recall, relevant: p.relevant, found: p.found })}\n`;
}

/** The NDJSON line of a summary. */
export function summaryLine(run: string, malformed: number, s: EvalSummary): string {
  return `${JSON.stringify({ type: 'summary', run, ...s, malformed })}\n`;
}

/** Name of a plotted series: the run, with the status of a filtered view. */
export function seriesName(run: string, status: number | null): string {
  return status === null ? run : `${run} [status ${status}]`;
}

/**
 * Plot every run into one SVG file. With --status, only the filtered view of
 * each run is drawn (the all-pages view runs on a different page count and
 * would squash it); both views stay in the NDJSON output.
 */
export async function writePlot(file: string, runs: ScoredRun[], title: string): Promise<void> {
  const series: PlotSeries[] = [];
  for (const r of runs) {
    const filtered = r.views.filter((v) => v.summary.status !== null);
    if (filtered.length > 0) for (const v of filtered) series.push({ name: r.name, points: v.plot });
    else for (const v of r.views) series.push({ name: seriesName(r.name, v.summary.status), points: v.plot });
  }
  const status = runs.flatMap((r) => r.views).find((v) => v.summary.status !== null)?.summary.status;
  await writeFile(file, await plotCurves(series, { title: status === undefined ? title : `${title} (pages with status ${status})` }));
}

/** Write `text` and wait while `out` is full. */
export async function emit(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await settle(out, 'drain');
}

/** Parse a non-negative integer flag; throws a UsageError. */
export function intFlag(name: string, value: string, min = 0): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** Parse `--at K,K,...`. */
export function atFlag(value: string | undefined): number[] {
  if (value === undefined) return DEFAULT_AT;
  return [...new Set(value.split(',').map((k) => intFlag('at', k.trim(), 1)))].sort((a, b) => a - b);
}

/** Read and parse the labels file; a UsageError when unreadable, malformed, or without the target label. */
export async function loadLabels(file: string, target: string, warn: (line: string) => void, where: readonly WhereFilter[] = []): Promise<Labels> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read labels ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
  let parsed;
  try {
    parsed = parseLabels(text, where, file);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${file}: ${(err as Error).message}`, { cause: err });
  }
  const known = new Set(parsed.labels.values());
  if (!known.has(target)) {
    throw new UsageError(`no URL in ${file} has the label ${JSON.stringify(target)} (labels: ${[...known].slice(0, 20).join(', ')})`);
  }
  if (parsed.badRows > 0) warn(`${file}: ${parsed.badRows} rows without an http(s) URL or a label skipped`);
  if (parsed.duplicates > 0) warn(`${file}: ${parsed.duplicates} repeated URLs (the first label counts)`);
  if (where.length > 0) warn(`${file}: ${parsed.labels.size} labelled URLs kept by ${where.map((w) => `--where ${whereText(w)}`).join(' ')}, ${parsed.filteredOut} rows left out`);
  return parsed.labels;
}

/** Read a --reachable file: one URL a line, `#` comments and blank lines allowed. */
export async function loadReachable(file: string | undefined): Promise<string[] | null> {
  if (file === undefined) return null;
  try {
    const text = await readFile(file, 'utf8');
    return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  } catch (err) {
    throw new UsageError(`cannot read --reachable ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
}

/** Throw a UsageError when `file` is not a readable file. */
async function checkInput(file: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
    if (!(await stat(file)).isFile()) throw Object.assign(new Error('not a file'), { code: 'not a file' });
  } catch (err) {
    throw new UsageError(`cannot read --input ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
}

/** Exit code and one stderr line for an error escaping a command: 2 for bad usage, 1 otherwise. */
export function reportError(err: unknown, cmd: string, stderr: Writable): number {
  const e = err as { code?: unknown; message?: unknown; stack?: unknown };
  const oneLine = (s: unknown): string => sanitizeForTerminal(String(s).replace(/\s*\n\s*/g, ' '), LOG_LINE_MAX);
  if (typeof e?.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS')) {
    stderr.write(`focuscrawl ${cmd}: ${oneLine(e.message)} (try focuscrawl ${cmd} --help)\n`);
    return 2;
  }
  if (err instanceof UsageError) {
    stderr.write(`focuscrawl ${cmd}: ${err.code}: ${oneLine(err.message)}\n`);
    return 2;
  }
  stderr.write(`focuscrawl ${cmd}: ${oneLine(e?.stack ?? err)}\n`);
  return 1;
}

/**
 * Run `focuscrawl eval` with its own arguments (after the subcommand).
 * Returns the exit code: 0 done (malformed input lines included), 2 bad
 * usage or unreadable labels/input (one line on stderr), 1 other failures
 * (e.g. the plot cannot be written).
 */
export async function runEval(argv: string[], io: EvalIo = {}): Promise<number> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  // lines quote malformed input and URLs from crawl records
  const warn = (line: string): void => void stderr.write(`focuscrawl eval: ${sanitizeForTerminal(line, LOG_LINE_MAX)}\n`);
  try {
    const { help, args } = parseCommand(EVAL_SPEC, argv);
    if (help) {
      await emit(stdout, helpText(EVAL_SPEC));
      return 0;
    }
    const values = {
      labels: args.string('labels'),
      where: args.strings('where'),
      target: args.string('target'),
      input: args.strings('input'),
      name: args.strings('name'),
      reachable: args.string('reachable'),
      plot: args.string('plot'),
      title: args.string('title'),
    };
    if (values.labels === undefined) throw new UsageError('--labels FILE is required');
    if (values.target === undefined || values.target === '') throw new UsageError('--target LABEL is required');
    const inputs = values.input ?? [];
    const names = values.name ?? [];
    if (names.length > Math.max(1, inputs.length) || (inputs.length > 1 && names.length > 0 && names.length !== inputs.length)) {
      throw new UsageError(`give one --name per --input (${inputs.length} inputs, ${names.length} names)`);
    }
    const runNames = inputs.length === 0 ? [names[0] ?? 'run'] : inputs.map((f, i) => names[i] ?? path.basename(f).replace(/\.(nd)?jsonl?$/i, ''));
    if (new Set(runNames).size !== runNames.length) throw new UsageError(`run names must differ: ${runNames.join(', ')}`);
    if (inputs.length === 0 && (stdin as { isTTY?: boolean }).isTTY === true) throw new UsageError('no input: pipe crawl NDJSON to stdin or give --input FILE');
    const status = args.number('status') ?? null;
    const at = atFlag(args.string('at'));
    const every = args.number('every') ?? null;
    for (const f of inputs) await checkInput(f);
    const reachable = await loadReachable(values.reachable);
    const where = parseWhere(values.where ?? []);
    const cfg: ScoreConfig = { labels: await loadLabels(values.labels, values.target, warn, where), target: values.target, status, reachable, at, every };
    const runs: ScoredRun[] = [];
    for (let i = 0; i < runNames.length; i++) {
      const name = runNames[i];
      const input = inputs.length === 0 ? stdin : createReadStream(inputs[i]);
      // --every streams checkpoints as they come; write errors surface at the final emit
      const run = await scoreRun(name, input, cfg, warn, (status, p) => void stdout.write(curveLine(name, status, p)));
      for (const v of run.views) for (const p of v.curve) await emit(stdout, curveLine(name, v.summary.status, p));
      for (const v of run.views) await emit(stdout, summaryLine(name, run.malformed, v.summary));
      runs.push(run);
    }
    if (values.plot !== undefined) await writePlot(values.plot, runs, values.title ?? `target: ${values.target}`);
    return 0;
  } catch (err) {
    return reportError(err, 'eval', stderr);
  }
}
