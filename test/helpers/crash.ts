/**
 * Crash-and-resume harness shared by test/long/resume.test.ts, test/long/crash.test.ts,
 * test/long/store-failure.test.ts and bench/crash-bench.ts: run the real CLI,
 * SIGKILL it at chosen moments, resume on the same store, then check the
 * union of all outputs against the final store.
 *
 * The checks (checkUnion) are exact and each can fail:
 * - no URL has two stdout records (a committed URL fetched again);
 * - every stdout record is in the final store's log, byte for byte (a
 *   record whose commit was lost);
 * - log records without a stdout record ("missing") are at most one per
 *   kill: the documented window between the journal append and the stdout
 *   write (src/stages/sink.ts), or a record torn by the kill;
 * - the store's page counter equals the page records in its log, which
 *   equal the page records on stdout plus the missing ones;
 * - every run either was killed by us or exited 0 (the store opened);
 * - the frontier counter equals the stored frontier and every entry is
 *   queued in the seen set.
 * checkRequests adds the server's view (a counting proxy), checkClosure the
 * frontier's: no link of a committed page was lost.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Level } from 'level';
import { compileSkipExtensions } from '../../src/urls/extensions.ts';
import { HttpClient } from '../../src/fetch/http.ts';
import { classifyStage } from '../../src/stages/classify.ts';
import { parseBody } from '../../src/parse/body.ts';
import { linksToQueue } from '../../src/stages/sink.ts';
import { CrawlStore } from '../../src/store/level.ts';
import type { CrawlItem, FetchResult, OutputRecord, Scorer } from '../../src/types.ts';
import { canonicalize } from '../../src/urls/canonical.ts';
import { BIN, ROOT } from './cli.ts';

/**
 * When to SIGKILL a run: `startup` ms after spawn (module loading, store
 * open, journal replay); `time` ms after the run's first stdout line;
 * `line`: synchronously when the run's n-th stdout line arrives, which is
 * while the sink's LevelDB batch for that record is being written.
 */
export type KillAt = { kind: 'startup'; ms: number } | { kind: 'time'; ms: number } | { kind: 'line'; line: number };

/** What the store directory held right after a kill (read from a copy). */
export interface StoreSnapshot {
  /** number of the last batch LevelDB holds (its `_counters.b`) */
  leveldbBatch: number;
  /** number of the last complete journal entry, or null when the journal is empty */
  journalBatch: number | null;
  /** journaled batches LevelDB had not applied: the next open replays them */
  pending: number;
  /** the journal ends in a partial line (the kill fell inside an append) */
  tornJournal: boolean;
}

/** One run of the CLI. */
export interface CrawlRun {
  index: number;
  kill: KillAt | null;
  /** the SIGKILL was sent (false: the run ended first) */
  killed: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** complete stdout lines */
  lines: string[];
  /** stdout after the last newline: a record the kill tore ('' normally) */
  torn: string;
  stderr: string;
  /** spawn to exit, ms */
  ms: number;
  /** spawn to the first stdout line, ms; null when nothing was printed */
  firstLineMs: number | null;
  /** after a kill, when asked for (crashAndResume's `inspect`); null: killed before the store existed */
  snapshot?: StoreSnapshot | null;
}

/** A run that had not ended after this long is killed and reported as a failure. */
const RUN_TIMEOUT_MS = 300_000;

/**
 * Run `bin/focuscrawl ...args`, SIGKILLing it at `kill` (null: let it
 * finish). `wrap` turns the command line (node, bin, ...args) into the one
 * to spawn, e.g. under `unshare` or `ulimit`.
 */
export function runUntilKilled(args: string[], kill: KillAt | null, index = 0, wrap?: (argv: string[]) => string[]): Promise<CrawlRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const argv = [process.execPath, BIN, ...args];
    const [file, ...rest] = wrap === undefined ? argv : wrap(argv);
    const child = spawn(file, rest, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const run: CrawlRun = { index, kill, killed: false, code: null, signal: null, lines: [], torn: '', stderr: '', ms: 0, firstLineMs: null };
    const chunks: Buffer[] = [];
    let newlines = 0;
    const timers: NodeJS.Timeout[] = [];
    const killNow = (): void => {
      if (run.killed || child.exitCode !== null || child.signalCode !== null) return;
      run.killed = child.kill('SIGKILL');
    };
    const at = (ms: number): void => {
      timers.push(setTimeout(killNow, ms));
    };
    if (kill?.kind === 'startup') at(kill.ms);
    timers.push(setTimeout(() => {
      run.stderr += `\n[crash harness: run ${index} did not end within ${RUN_TIMEOUT_MS} ms; killed]`;
      child.kill('SIGKILL');
    }, RUN_TIMEOUT_MS));
    child.stdout!.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const before = newlines;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
      if (kill?.kind === 'line' && before < kill.line && newlines >= kill.line) killNow();
      if (before === 0 && newlines > 0) {
        run.firstLineMs = Date.now() - started;
        if (kill?.kind === 'time') at(kill.ms);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (run.stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const t of timers) clearTimeout(t);
      run.code = code;
      run.signal = signal;
      run.ms = Date.now() - started;
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      run.lines = text.slice(0, end).split('\n').filter((l) => l !== '');
      run.torn = text.slice(end);
      resolve(run);
    });
  });
}

/** Read a killed crawl's store from a copy (opening it in place would replay the journal); null when it has no store yet. */
export async function inspectStore(storeDir: string): Promise<StoreSnapshot | null> {
  if (!existsSync(path.join(storeDir, 'CURRENT'))) return null;
  const copy = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-inspect-'));
  try {
    await cp(storeDir, copy, { recursive: true });
    let journal = '';
    try {
      journal = await readFile(path.join(copy, 'focuscrawl.journal'), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const complete = journal.slice(0, journal.lastIndexOf('\n') + 1).split('\n').filter((l) => l !== '');
    const journalBatch = complete.length === 0 ? null : (JSON.parse(complete[complete.length - 1]) as { b: number }).b;
    const db = new Level<string, any>(copy, { valueEncoding: 'json' });
    await db.open();
    let leveldbBatch: number;
    try {
      const counters = (await db.sublevel<string, any>('meta', { valueEncoding: 'json' }).get('_counters')) as { b?: number } | undefined;
      leveldbBatch = counters?.b ?? 0;
    } finally {
      await db.close();
    }
    return {
      leveldbBatch,
      journalBatch,
      pending: journalBatch === null ? 0 : Math.max(0, journalBatch - leveldbBatch),
      tornJournal: !journal.endsWith('\n') && journal !== '',
    };
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

export interface CrashOptions {
  /** CLI arguments of every run (the same --store each time) */
  args: string[];
  /** how many runs to kill before the final one */
  kills: number;
  /** when to kill run i; `done` holds the runs so far */
  plan: (i: number, done: readonly CrawlRun[]) => KillAt;
  /** snapshot the store after each kill (see inspectStore); needs the store dir */
  inspect?: string;
  /** called before run i starts (e.g. to tag a counting proxy's requests) */
  beforeRun?: (i: number) => void;
  /** called after each run */
  afterRun?: (run: CrawlRun) => void;
}

/** Run `kills` runs killed as `plan` says, then one run to the end, all with the same args. */
export async function crashAndResume(opts: CrashOptions): Promise<CrawlRun[]> {
  const runs: CrawlRun[] = [];
  for (let i = 0; i <= opts.kills; i++) {
    opts.beforeRun?.(i);
    const run = await runUntilKilled(opts.args, i < opts.kills ? opts.plan(i, runs) : null, i);
    if (run.killed && opts.inspect !== undefined) run.snapshot = await inspectStore(opts.inspect);
    runs.push(run);
    opts.afterRun?.(run);
  }
  return runs;
}

/** Every record of the store's log, in commit order. */
export async function readLog(store: CrawlStore): Promise<OutputRecord[]> {
  const records: OutputRecord[] = [];
  for await (const r of store.log()) records.push(r as OutputRecord);
  return records;
}

/** Outcome of checkUnion; `violations` is empty when every check passed. */
export interface UnionReport {
  runs: number;
  /** runs that received our SIGKILL */
  kills: number;
  /** stdout records over all runs */
  records: number;
  /** records in the final store's log */
  logged: number;
  /** the final store's page counter */
  storePages: number;
  /** page records on stdout over all runs */
  stdoutPages: number;
  /** URLs with a log record and no stdout record (allowed: at most one per kill) */
  missing: string[];
  /** records torn by a kill (partial last stdout line) */
  torn: number;
  /** URLs with two or more stdout records */
  duplicates: string[];
  /** stdout records that are not in the log as written */
  lost: string[];
  /** every failed check, one line each */
  violations: string[];
}

/**
 * The checks listed in the module comment, over `runs` and the final store.
 * Runs listed in `failing` must have exited with code 1 (a store failure)
 * instead of 0.
 */
export async function checkUnion(runs: readonly CrawlRun[], store: CrawlStore, opts: { failing?: readonly number[] } = {}): Promise<UnionReport> {
  const violations: string[] = [];
  const lines = runs.flatMap((r) => r.lines);
  const byUrl = new Map<string, string[]>();
  for (const line of lines) {
    const url = (JSON.parse(line) as OutputRecord).url;
    byUrl.set(url, [...(byUrl.get(url) ?? []), line]);
  }
  const duplicates = [...byUrl].filter(([, l]) => l.length > 1).map(([u]) => u);
  const log = await readLog(store);
  const logByUrl = new Map<string, string>();
  const logDuplicates: string[] = [];
  for (const r of log) {
    if (logByUrl.has(r.url)) logDuplicates.push(r.url);
    logByUrl.set(r.url, JSON.stringify(r));
  }
  const lost = [...byUrl].filter(([u, l]) => !l.includes(logByUrl.get(u) ?? '\0')).map(([u]) => u);
  const missing = [...logByUrl.keys()].filter((u) => !byUrl.has(u));
  const kills = runs.filter((r) => r.killed).length;
  const torn = runs.filter((r) => r.torn !== '').length;
  const stdoutPages = lines.filter((l) => (JSON.parse(l) as OutputRecord).type === 'page').length;
  const logPages = log.filter((r) => r.type === 'page').length;
  const missingPages = log.filter((r) => r.type === 'page' && missing.includes(r.url)).length;

  if (duplicates.length > 0) violations.push(`${duplicates.length} URLs have two or more stdout records, e.g. ${duplicates[0]}`);
  if (logDuplicates.length > 0) violations.push(`${logDuplicates.length} URLs were committed twice, e.g. ${logDuplicates[0]}`);
  if (lost.length > 0) violations.push(`${lost.length} stdout records are not in the store's log, e.g. ${lost[0]}`);
  if (missing.length > kills) violations.push(`${missing.length} committed records are missing from stdout, more than the ${kills} kills explain`);
  if (store.pages !== logPages) violations.push(`store counts ${store.pages} pages, its log holds ${logPages}`);
  if (store.pages !== stdoutPages + missingPages) {
    violations.push(`store counts ${store.pages} pages; stdout had ${stdoutPages} and ${missingPages} are missing`);
  }
  for (const r of runs) {
    const expected = opts.failing?.includes(r.index) ? 1 : 0;
    if (r.killed || (r.code === expected && r.signal === null)) continue;
    violations.push(`run ${r.index} exited with ${r.code ?? r.signal}, not ${expected}: ${r.stderr.trim().split('\n')[0]}`);
  }
  let entries = 0;
  for await (const { entry } of store.frontier()) {
    entries++;
    if ((await store.status(entry.url)) !== 'queued') violations.push(`frontier entry ${entry.url} is not queued in the seen set`);
  }
  if (entries !== store.frontierSize) violations.push(`frontier counter ${store.frontierSize} != ${entries} stored entries`);
  for (const url of logByUrl.keys()) {
    if ((await store.status(url)) !== 'done') violations.push(`logged URL ${url} is not done in the seen set`);
  }
  return {
    runs: runs.length,
    kills,
    records: lines.length,
    logged: log.length,
    storePages: store.pages,
    stdoutPages,
    missing,
    torn,
    duplicates,
    lost,
    violations,
  };
}

/** Every URL a set of records reached: each record's url and each page's finalUrl. */
export function reachedUrls(records: readonly OutputRecord[]): Set<string> {
  const urls = new Set<string>();
  for (const r of records) {
    urls.add(r.url);
    if (r.type === 'page') urls.add(r.finalUrl);
  }
  return urls;
}

/** One request seen by a counting proxy. */
export interface CountedRequest {
  /** canonical target URL */
  url: string;
  /** the run it came in, as set on the proxy */
  run: number;
}

/** A forward proxy in front of another (the replay proxy) that records every request but robots.txt. */
export interface CountingProxy {
  url: string;
  /** tag of the requests that follow; requests while it is negative are not recorded */
  run: number;
  readonly requests: CountedRequest[];
  /** every request received, robots.txt included */
  received: number;
  close(): Promise<void>;
}

/**
 * Start a counting proxy on 127.0.0.1 port 0 that forwards plain-http
 * requests to `upstream`; with `hold`, each request waits for it first.
 */
export async function startCountingProxy(upstream: string, opts: { hold?: Promise<void> } = {}): Promise<CountingProxy> {
  const up = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set<Socket>();
  const runOf = new WeakMap<Socket, number>();
  const proxy: CountingProxy = { url: '', run: 0, requests: [], received: 0, close: async () => {} };
  const server = http.createServer(async (req, res) => {
    proxy.received++;
    const target = canonicalize(req.url ?? '');
    // the run of the connection, not of the moment: a killed run's last request can be
    // read from its socket after the next run has started
    const run = runOf.get(req.socket) ?? proxy.run;
    if (target !== null && run >= 0 && new URL(target).pathname !== '/robots.txt') {
      proxy.requests.push({ url: target, run });
    }
    await opts.hold;
    const fwd = http.request(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    fwd.on('error', () => res.destroy());
    res.on('close', () => fwd.destroy());
    req.pipe(fwd);
  });
  server.on('connection', (s: Socket) => {
    runOf.set(s, proxy.run);
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (_req, socket: Socket) => {
    socket.on('error', () => {});
    socket.end('HTTP/1.1 501 Not Implemented\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      agent.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

/** The server's view of a crash campaign (checkRequests). */
export interface RequestReport {
  /** requests recorded (robots.txt not counted) */
  requests: number;
  /** distinct URLs requested */
  urls: number;
  /** URLs requested in two or more runs (allowed: each earlier run was killed before the commit) */
  refetchedAfterKill: number;
  /** URLs requested in a run after the run that printed their record */
  afterCommit: string[];
  /** URLs requested twice within one run with no redirect or retry to explain it */
  twiceInRun: string[];
  /** page records whose final URL was not requested in the run that printed them */
  unrequested: string[];
  violations: string[];
}

/**
 * Check the counting proxy's log against the runs: once a run printed a
 * URL's record, no later run requests it; within a run a URL is requested
 * once unless a redirect or a retry explains more; every page record was
 * fetched in the run that printed it.
 */
export function checkRequests(requests: readonly CountedRequest[], runs: readonly CrawlRun[]): RequestReport {
  const printedIn = new Map<string, number>();
  const explained = new Set<string>();
  const unrequested: string[] = [];
  const requestedIn = new Map<string, Map<number, number>>();
  for (const q of requests) {
    const perRun = requestedIn.get(q.url) ?? new Map<number, number>();
    perRun.set(q.run, (perRun.get(q.run) ?? 0) + 1);
    requestedIn.set(q.url, perRun);
  }
  for (const run of runs) {
    for (const line of run.lines) {
      const r = JSON.parse(line) as OutputRecord & { attempts?: number };
      for (const u of r.type === 'page' ? [r.url, r.finalUrl] : [r.url]) if (!printedIn.has(u)) printedIn.set(u, run.index);
      if (r.type === 'page' && r.url !== r.finalUrl) explained.add(r.url).add(r.finalUrl);
      if ((r.attempts ?? 1) > 1) explained.add(r.url);
      const robots = r.type === 'page' && new URL(r.finalUrl).pathname === '/robots.txt'; // not recorded
      if (r.type === 'page' && !robots && !requestedIn.get(r.finalUrl)?.has(run.index)) unrequested.push(r.finalUrl);
    }
  }
  const afterCommit: string[] = [];
  const twiceInRun: string[] = [];
  let refetchedAfterKill = 0;
  for (const [url, perRun] of requestedIn) {
    const printed = printedIn.get(url);
    if (printed !== undefined && [...perRun.keys()].some((run) => run > printed)) afterCommit.push(url);
    if (perRun.size > 1) refetchedAfterKill++;
    if (!explained.has(url) && [...perRun.values()].some((n) => n > 1)) twiceInRun.push(url);
  }
  const violations: string[] = [];
  if (afterCommit.length > 0) violations.push(`${afterCommit.length} URLs were requested again after their record was printed, e.g. ${afterCommit[0]}`);
  if (twiceInRun.length > 0) violations.push(`${twiceInRun.length} URLs were requested twice in one run, e.g. ${twiceInRun[0]}`);
  if (unrequested.length > 0) violations.push(`${unrequested.length} page records were not fetched in their run, e.g. ${unrequested[0]}`);
  return { requests: requests.length, urls: requestedIn.size, refetchedAfterKill, afterCommit, twiceInRun, unrequested, violations };
}

/** Outcome of checkClosure. */
export interface ClosureReport {
  /** committed 2xx pages re-fetched and re-parsed */
  pages: number;
  /** links those pages queue (after the sink's filters) */
  links: number;
  /** links that are neither queued nor done in the store: lost from the frontier */
  lost: string[];
  /** pages whose re-parse found a different link count than their record: the re-parse is not what the crawl saw */
  mismatched: string[];
  violations: string[];
}

async function* once<T>(value: T): AsyncGenerator<T> {
  yield value;
}

/** The breadth-first scorer the CLI uses without a topic. */
const BFS: Scorer = { name: 'bfs', pageRelevance: () => 0, linkScore: () => 0 };

// the crawl's default: links to files that are not pages are not queued (src/urls/extensions.ts)
const DEFAULT_SKIP = compileSkipExtensions()!;

/**
 * No URL lost from the frontier: re-fetch every committed 2xx page of an
 * unfocused (bfs) crawl through `proxy`, re-parse it with the crawler's own
 * parse, classify and sink filters, and check that every link it queues is
 * queued or done in the store. Each page's link count must equal its
 * record's `links`, so a re-parse that differs from the crawl is reported,
 * not silently trusted. Default scope only (no --max-depth, no --tunnel; the
 * default --skip-extensions).
 */
export async function checkClosure(store: CrawlStore, proxy: string): Promise<ClosureReport> {
  const client = new HttpClient({ proxy });
  const report: ClosureReport = { pages: 0, links: 0, lost: [], mismatched: [], violations: [] };
  try {
    for (const r of await readLog(store)) {
      if (r.type !== 'page' || r.status < 200 || r.status >= 300) continue;
      // a near-duplicate's links are not queued (see src/stages/dedup.ts)
      if (r.duplicateOf !== undefined) continue;
      const hop = await client.get(r.finalUrl, { maxBytes: 1024 * 1024 });
      const fetch: FetchResult = {
        url: r.url, finalUrl: r.finalUrl, redirects: [r.url], status: hop.status, headers: hop.headers,
        contentType: hop.contentType, headerCharset: hop.headerCharset, body: hop.body, bytes: hop.bytes,
        truncated: hop.truncated, fetchedAt: r.fetchedAt, ms: 0, replay: hop.replay,
      };
      const item: CrawlItem = { entry: { url: r.url, score: r.score, depth: r.depth, parent: r.parent }, fetch };
      if (hop.body !== null) item.page = parseBody(hop.body, r.finalUrl, hop.headerCharset);
      await classifyStage(once(item), { scorer: BFS, threshold: Infinity }).next();
      report.pages++;
      if ((item.outlinks?.length ?? 0) !== r.links) report.mismatched.push(r.url);
      for (const link of linksToQueue(item, Infinity, undefined, Infinity, { skipExtension: DEFAULT_SKIP })) {
        report.links++;
        if ((await store.status(link.url)) === null) report.lost.push(link.url);
      }
    }
  } finally {
    await client.close();
  }
  if (report.lost.length > 0) report.violations.push(`${report.lost.length} links of committed pages are neither queued nor done, e.g. ${report.lost[0]}`);
  if (report.mismatched.length > 0) report.violations.push(`${report.mismatched.length} pages re-parsed to a different link count, e.g. ${report.mismatched[0]}`);
  return report;
}
