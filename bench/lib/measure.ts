/**
 * Shared pieces of the throughput benchmarks (crawl-bench.ts, side-by-side.ts):
 * timing a child process under GNU time, starting a forward proxy child,
 * reading a focuscrawl run's NDJSON, medians and table cells.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** GNU time: CPU and peak RSS of a child process. */
export const GNU_TIME = '/usr/bin/time';

/** Runs the compiled CLI (dist/cli.js) as bin/focuscrawl does in an installed package. */
export const RUN_DIST = path.join(REPO, 'bench/lib/run-dist.mjs');

/**
 * The environment and node flags on bin/focuscrawl's first line
 * (`#!/usr/bin/env -S NAME=VALUE node --flag ...`), read from the file so
 * the bench runs the build with exactly what the bin gives it.
 */
export function binNodeSetup(repo = REPO): { env: Record<string, string>; flags: string[] } {
  const shebang = readFileSync(path.join(repo, 'bin/focuscrawl'), 'utf8').split('\n', 1)[0];
  const words = shebang.replace(/^#!\S*env -S /, '').split(/\s+/).filter(Boolean);
  const node = words.indexOf('node');
  if (!shebang.startsWith('#!') || node < 0) throw new Error(`bin/focuscrawl: unexpected first line ${JSON.stringify(shebang)}`);
  const env = Object.fromEntries(words.slice(0, node).map((w) => w.split('=', 2) as [string, string]));
  return { env, flags: words.slice(node + 1) };
}

/** Child stderr lines already echoed (pid left out), so a warning shows once per bench. */
const echoed = new Set<string>();

/** One timed child process. */
export interface Measured {
  /** spawn to exit, seconds */
  wall: number;
  /** user + sys CPU seconds (GNU time %U + %S) */
  cpu: number;
  /** peak resident set size, MB (GNU time %M) */
  rssMb: number;
  stdout: string;
  stderr: string;
}

/** One run of one contender. */
export interface RunResult {
  /** pages counted for pages/s */
  pages: number;
  /** of them, answered 200 with text/html (when the contender counts them) */
  html?: number;
  wall: number;
  cpu: number;
  rssMb: number;
}

/** Median, min and max of a list of numbers. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** Median, min and max of `values` (not empty). */
export function spread(values: number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, min: s[0], max: s[s.length - 1] };
}

/** Options of {@link measure}. */
export interface MeasureOptions {
  /** a child running longer than this is killed as stalled and the measure rejects */
  timeoutMs: number;
  /** extra environment variables for the child */
  env?: Record<string, string>;
  /** stderr lines for which this returns false are not echoed (they are still in `stderr`) */
  echo?: (line: string) => boolean;
}

/**
 * Run `argv` under GNU time; resolve with its timing and stdout. Rejects
 * (naming the tail of its stderr) when it exits non-zero or runs longer
 * than `timeoutMs`. Stderr lines not seen before are echoed to ours,
 * prefixed with `label`.
 */
export async function measure(argv: string[], timeFile: string, label: string, opts: MeasureOptions): Promise<Measured> {
  const started = performance.now();
  const child = spawn(GNU_TIME, ['-f', '%e %U %S %M', '-o', timeFile, ...argv], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: opts.env === undefined ? process.env : { ...process.env, ...opts.env },
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  const wall = (performance.now() - started) / 1000;
  clearTimeout(timer);
  const stderr = Buffer.concat(err).toString('utf8');
  for (const line of stderr.split('\n')) {
    const key = line.replace(/^\(node:\d+\)/, '(node)');
    if (line.trim() === '' || /^Command (exited|terminated)/.test(line) || echoed.has(key) || opts.echo?.(line) === false) continue;
    echoed.add(key);
    process.stderr.write(`  [${label}] ${line}\n`);
  }
  if (code !== 0) {
    const why = signal === 'SIGKILL' ? `killed after ${opts.timeoutMs / 1000} s (stalled?)` : `exit code ${code ?? signal}`;
    throw new Error(`${label}: ${why}\n${stderr.slice(-2000)}`);
  }
  const [, user, sys, maxKb] = (await readFile(timeFile, 'utf8')).trim().split('\n').pop()!.split(' ').map(Number);
  return { wall, cpu: user + sys, rssMb: maxKb / 1024, stdout: Buffer.concat(out).toString('utf8'), stderr };
}

/** The code measured: `commit abc1234`, plus a note when src/ or bin/ differ from it; 'unknown' outside git. */
export function codeVersion(): string {
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const dirty = git('status', '--porcelain', '--', 'src', 'bin') !== '';
    return `commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in src/ or bin/' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

/** A proxy child process: its address and how to stop it. */
export interface ProxyChild {
  url: string;
  /** the child's process id (its CPU: {@link processCpuSeconds}) */
  pid: number;
  stop: () => Promise<void>;
}

/**
 * Start a forward-proxy child (`bin/focuscrawl replay ...`,
 * `fixtures/serve-synthetic.ts ...`) whose first stdout line is
 * `{"listening": URL, ...}`; resolves once it is printed.
 */
export async function startProxy(name: string, argv: string[]): Promise<ProxyChild> {
  const child = spawn(process.execPath, argv, { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${name} exited early (code ${code})`);
  });
  const first = (async () => {
    for await (const line of lines) return (JSON.parse(line) as { listening: string }).listening;
    throw new Error(`${name} closed its stdout without an address`);
  })();
  const url = await Promise.race([first, exited]);
  exited.catch(() => {});
  // Keep draining stdout so the child never blocks on a full pipe.
  child.stdout.resume();
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const done = once(child, 'exit');
      child.kill('SIGTERM');
      await done;
    },
  };
}

/** user + system CPU seconds a live process has used so far (Linux /proc/PID/stat; 100 ticks a second). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after the command name, which is in parentheses and may hold spaces
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Start `bin/focuscrawl replay` on `warc`. */
export function startReplay(warc: string): Promise<ProxyChild> {
  return startProxy('replay proxy', [path.join(REPO, 'bin/focuscrawl'), 'replay', '--warc', warc]);
}

/** What a focuscrawl run printed, beyond its timing. */
export interface CrawlOutput {
  /** the `url` of every record, in order */
  urls: string[];
  /** page records (any HTTP status) */
  pages: number;
  /** page records answered 200 with text/html */
  html: number;
  relevant: number;
  /** error records */
  errors: number;
  statuses: Map<number, number>;
}

/** Count the records of a focuscrawl run's NDJSON output. */
export function readCrawlOutput(ndjson: string): CrawlOutput {
  const result: CrawlOutput = { urls: [], pages: 0, html: 0, relevant: 0, errors: 0, statuses: new Map() };
  for (const line of ndjson.split('\n')) {
    if (line === '') continue;
    const r = JSON.parse(line) as { type: string; url: string; status?: number; relevant?: boolean; contentType?: string | null };
    result.urls.push(r.url);
    if (r.type === 'page') {
      result.pages++;
      if (r.status === 200 && (r.contentType ?? '').startsWith('text/html')) result.html++;
      if (r.relevant === true) result.relevant++;
      result.statuses.set(r.status!, (result.statuses.get(r.status!) ?? 0) + 1);
    } else {
      result.errors++;
    }
  }
  return result;
}

/** `n` with thousands separators and `digits` decimals. */
export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `median (min–max)`. */
export const cell = (s: Spread, digits = 0): string =>
  `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;

/** Pages/s, CPU s per 1,000 pages, peak RSS and pages over the runs of one contender. */
export function summarise(runs: RunResult[]): { pps: Spread; htmlPps: Spread; htmlCpuMs: Spread; cpuPerK: Spread; rss: Spread; pages: Spread } {
  return {
    pps: spread(runs.map((r) => r.pages / r.wall)),
    // HTML pages (200, text/html) per wall second and CPU ms per HTML page; NaN when not counted
    htmlPps: spread(runs.map((r) => (r.html ?? NaN) / r.wall)),
    htmlCpuMs: spread(runs.map((r) => (r.cpu / (r.html ?? NaN)) * 1000)),
    cpuPerK: spread(runs.map((r) => (r.cpu / Math.max(r.pages, 1)) * 1000)),
    rss: spread(runs.map((r) => r.rssMb)),
    pages: spread(runs.map((r) => r.pages)),
  };
}

/** `Intel ..., 2 cores, 23.6 GiB RAM, Linux ..., Node v20...`. */
export function machine(): string {
  const cpu = os.cpus();
  return `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${fmt(os.totalmem() / 2 ** 30, 1)} GiB RAM, ` +
    `${os.type()} ${os.release()}, Node ${process.version}`;
}
