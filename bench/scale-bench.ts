/**
 * Scale benchmark (issue 4): frontier cost against frontier size, and the
 * crawler's memory while its frontier grows to a million URLs.
 *
 *   node --import tsx bench/scale-bench.ts [--part all|frontier|crawl] [--write]
 *     frontier: [--sizes 10000,100000,1000000] [--runs 3] [--ops 2000]
 *     crawl:    [--web 1:20000000:200000] [--target 1000000] [--crawl-runs 1]
 *               [--variants tsx,tsx+heap,js+arena+ldb+heap] [--topic astronomy]
 *               [--concurrency 16] [--heap-snapshot]
 *               [--heap-flags='--max-semi-space-size=2 ...'] [--ldb-options='{"maxOpenFiles":1000}']
 *               [--series FILE]
 *   (--ldb-options: LevelDB options over the store's own, src/store/options.ts,
 *   for the `ldb` change of a crawl variant and for every store of the
 *   frontier part; KEEP_SNAPSHOT=dir keeps --heap-snapshot files there)
 *
 * --write puts each part's section (scale-bench-frontier, scale-bench-crawl)
 * into BENCHMARKS.md. The default web has 20,000,000 pages on 200,000 hosts:
 * a frontier of 10^6 URLs needs a web much larger than that.
 *
 * (a) frontier: a CrawlStore (real LevelDB in a temp dir) with its
 * FrontierHead wired as src/pipeline.ts wires them, filled to each size,
 * then `--ops` crawl steps: take the best entry (head.refill + head.take)
 * and commit it with 20 links (1 new URL, 19 already seen), which keeps the
 * frontier at its size. Per-operation times, median over the ops of a run,
 * then median (min-max) over the runs, each on a fresh store.
 *
 * (b) crawl: `bin/focuscrawl crawl --proxy <synthetic web proxy> ...` until
 * its stats records report a frontier of `--target` URLs, sampling the
 * child's memory every 0.5 s: VmRSS/VmHWM and RssAnon/RssFile/RssShmem from
 * /proc/PID/status, and from /proc/PID/smaps the resident pages of the node
 * executable and of LevelDB's memory-mapped *.ldb tables; plus its
 * process.memoryUsage() and V8 heap spaces (a `--import` probe). A progress
 * line on stderr gives the breakdown at each checkpoint (10k, 100k, 250k,
 * 500k, 1M frontier URLs); the tables give RSS at each checkpoint, median
 * (min–max) over `--crawl-runs`, and the peak. For each variant (see BASES); with
 * --heap-snapshot, the last run of each variant writes a heap snapshot at
 * the target, summarised by kind of object. With --series FILE every sample
 * (RSS parts, the brk heap, V8's spaces, the child's CPU seconds from
 * /proc/PID/stat) goes to FILE as NDJSON: when the peak happens and what
 * made it. The synthetic web's proxy runs
 * in its own process.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Level } from 'level';
import { parseWebSpec, SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { DEFAULT_HEAD_CAPACITY, FrontierHead } from '../src/frontier/head.ts';
import { firstN } from '../src/util/iter.ts';
import { Rng } from '../src/util/random.ts';
import { CrawlStore } from '../src/store/level.ts';
import type { CommitLink } from '../src/store/types.ts';
import { STORE_LEVELDB_OPTIONS } from '../src/store/options.ts';
import type { FrontierEntry } from '../src/types.ts';
import { REPO, RUN_DIST, binNodeSetup } from './lib/measure.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';

const BIN = path.join(REPO, 'bin', 'focuscrawl');
const BENCHMARKS_MD = path.join(REPO, 'BENCHMARKS.md');
/** Links per committed page in the frontier benchmark; one of them is new. */
const LINKS_PER_PAGE = 20;
/** "Recently seen" links of the frontier benchmark come from the last this many URLs queued. */
const RECENT = 1000;
/** Entries per addSeeds batch while filling a store. */
const FILL_BATCH = 10_000;
/** Heap snapshots larger than this are not read (JSON.parse of one string). */
const MAX_SNAPSHOT_BYTES = 400 * 2 ** 20;
/** Clock ticks per second of /proc/PID/stat's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;
/** The RSS limit of the issue. */
const RSS_LIMIT_MB = 150;
/**
 * Prints process.memoryUsage() of the crawler as one JSON line on stderr
 * every second (loaded with --import before bin/focuscrawl).
 */
const MEM_PROBE =
  'data:text/javascript,import v8 from "node:v8";setInterval(()=>{const m=process.memoryUsage();' +
  'const spaces=Object.fromEntries(v8.getHeapSpaceStatistics().map((x)=>[x.space_name.replace(/_space$/,""),Math.round(x.space_size/1048576)]));' +
  'process.stderr.write(JSON.stringify({type:"mem",rss:m.rss,heapTotal:m.heapTotal,heapUsed:m.heapUsed,external:m.external,arrayBuffers:m.arrayBuffers,spaces})+"\\n")},500).unref()';

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(values: number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, min: s[0], max: s[s.length - 1] };
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function cell(s: Spread, digits = 0): string {
  return `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
}

// ---- (a) frontier push/pop ----------------------------------------------------

/** A frontier entry of realistic size for fill number k. */
function fillEntry(k: number, rng: Rng): FrontierEntry {
  return {
    url: `http://h${k % 5000}.fill/d${k % 97}/p${k}.html`,
    score: rng.next() * 2,
    depth: 3,
    parent: `http://h${(k * 7) % 5000}.fill/d1/p${k * 7}.html`,
    anchor: 'About telescope galaxy nebula',
    context: 'Notes on planet comet asteroid orbit stellar supernova cosmology quasar pulsar eclipse constellation observatory meteor '.repeat(2),
  };
}

interface FrontierRun {
  /** seconds to fill the store to its size */
  fillS: number;
  /** seconds to compact it after the fill */
  compactS: number;
  /** median µs of one head.refill + head.take */
  takeUs: number;
  /** median µs of one commit (1 entry out, 20 links in: 1 new, 19 seen recently) */
  commitLocalUs: number;
  /** the same with the 19 seen links drawn from every URL seen */
  commitAnyUs: number;
  /** mean µs of a whole step (take + commit), refills included */
  stepUs: number;
}

/** Fill a new store at `location` with `size` entries; resolves with the seconds it took. */
async function fillStore(location: string, size: number, rng: Rng): Promise<number> {
  const store = await CrawlStore.open(location);
  try {
    const started = performance.now();
    for (let k = 0; k < size; k += FILL_BATCH) {
      const batch: FrontierEntry[] = [];
      for (let i = k; i < Math.min(size, k + FILL_BATCH); i++) batch.push(fillEntry(i, rng));
      await store.addSeeds(batch);
    }
    if (store.frontierSize !== size) throw new Error(`filled ${store.frontierSize} entries, wanted ${size}`);
    return (performance.now() - started) / 1000;
  } finally {
    await store.close();
  }
}

/**
 * Compact the whole LevelDB at `location` (all keys start with a sublevel
 * prefix '!name!'): a bulk fill writes far faster than any crawl grows its
 * frontier, and the compaction backlog it leaves (write stalls) is not a
 * cost of the frontier's size.
 */
async function compactStore(location: string): Promise<number> {
  const started = performance.now();
  const db = new Level<string, string>(location);
  await db.open();
  try {
    // in Node, `level` is classic-level, whose compactRange its types do not declare
    await (db as unknown as { compactRange(start: string, end: string): Promise<void> }).compactRange('!', '~');
  } finally {
    await db.close();
  }
  return (performance.now() - started) / 1000;
}

async function frontierRun(size: number, ops: number, runSeed: number): Promise<FrontierRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'scale-bench-'));
  const location = path.join(dir, 'store');
  const rng = new Rng(runSeed);
  const fillS = await fillStore(location, size, rng);
  const compactS = await compactStore(location);
  // wired as in src/pipeline.ts
  const head = new FrontierHead({ capacity: DEFAULT_HEAD_CAPACITY, load: (gt, limit) => firstN(store.frontier({ gt }), limit) });
  const store: CrawlStore = await CrawlStore.open(location, { onFrontierChange: (change) => head.apply(change) });
  try {
    let next = size;
    const takes: number[] = [];
    const commits: [number[], number[]] = [[], []];
    const warmup = Math.min(200, ops);
    let stepsStarted = 0;
    for (let op = 0; op < warmup + ops; op++) {
      if (op === warmup) stepsStarted = performance.now();
      const t0 = performance.now();
      await head.refill();
      const taken = head.take(() => 'take');
      if (taken === null) throw new Error('the frontier head ran dry');
      const t1 = performance.now();
      const links: CommitLink[] = [];
      const fresh = fillEntry(next++, rng);
      links.push({ url: fresh.url, score: fresh.score, depth: 4, parent: taken.entry.url, anchor: fresh.anchor, context: fresh.context });
      // even steps link to URLs seen recently (a site's navigation), odd ones to any URL seen
      const local = op % 2 === 0;
      for (let i = 1; i < LINKS_PER_PAGE; i++) {
        // already seen (queued or done): score 0 never raises a queued entry
        const known = fillEntry(local ? next - 1 - rng.int(Math.min(next, RECENT)) : rng.int(next), rng);
        links.push({ url: known.url, score: 0, depth: 4, parent: taken.entry.url, anchor: known.anchor, context: known.context });
      }
      await store.commit({ entry: taken.entry, record: { type: 'page', url: taken.entry.url }, countsAsPage: true, links });
      const t2 = performance.now();
      if (op >= warmup) {
        takes.push((t1 - t0) * 1000);
        commits[local ? 0 : 1].push((t2 - t1) * 1000);
      }
    }
    const stepUs = ((performance.now() - stepsStarted) * 1000) / ops;
    if (store.frontierSize !== size) throw new Error(`frontier drifted to ${store.frontierSize} entries`);
    return { fillS, compactS, takeUs: spread(takes).median, commitLocalUs: spread(commits[0]).median, commitAnyUs: spread(commits[1]).median, stepUs };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function frontierBench(sizes: number[], runs: number, ops: number): Promise<string> {
  const rows: string[] = [];
  for (const size of sizes) {
    const results: FrontierRun[] = [];
    for (let r = 0; r < runs; r++) {
      const res = await frontierRun(size, ops, 1000 * r + 1);
      process.stderr.write(
        `scale-bench: frontier ${fmt(size)} run ${r + 1}: fill ${fmt(res.fillS, 1)} s, compact ${fmt(res.compactS, 1)} s, take ${fmt(res.takeUs, 1)} µs, ` +
          `commit ${fmt(res.commitLocalUs)} / ${fmt(res.commitAnyUs)} µs, step ${fmt(res.stepUs)} µs\n`,
      );
      results.push(res);
    }
    const pick = (f: (r: FrontierRun) => number) => spread(results.map(f));
    const fill = pick((r) => size / r.fillS);
    rows.push(
      `| ${fmt(size)} | ${cell(pick((r) => r.takeUs), 1)} | ${cell(pick((r) => r.commitLocalUs))} | ${cell(pick((r) => r.commitAnyUs))} | ` +
        `${cell(pick((r) => r.stepUs))} | ${cell(fill)} |`,
    );
  }
  return [
    `| frontier entries | take µs (refill + take) | commit µs, seen links recent | commit µs, seen links any | whole step µs (mean) | fill entries/s |`,
    `|---|---|---|---|---|---|`,
    ...rows,
  ].join('\n');
}

// ---- (b) crawl memory -----------------------------------------------------------

/**
 * How the crawler is run: a base, then any of the changes, e.g.
 * `js+arena`. Bases: `tsx`, bin/focuscrawl as shipped (TypeScript compiled
 * at load time by tsx); `js`, the same CLI bundled to one ESM file by
 * esbuild first (packages stay external) and run by plain node. Changes:
 * `arena`, MALLOC_ARENA_MAX=2 (glibc keeps fewer malloc arenas for the
 * LevelDB and libuv threads); `ldb`, a preload opens LevelDB with other
 * options than the store's (LDB_SMALL); `heap`, V8 flags for a smaller heap
 * (HEAP_FLAGS: the live heap is ~40 MB, but V8 lets heapTotal grow to
 * several times that); `uv`, UV_THREADPOOL_SIZE=2. `dist` is the compiled
 * dist/ (`npm run build` first) run by plain node, and `bin` the node flags
 * and environment on bin/focuscrawl's first line: `dist+bin` is what an
 * installed package runs.
 */
const BASES = ['tsx', 'js', 'dist'] as const;
const CHANGES = ['arena', 'ldb', 'heap', 'uv', 'bin'] as const;
type Variant = string;
const DEFAULT_VARIANTS = 'tsx,tsx+arena+heap,js+arena+heap';

/**
 * Node flags of the `heap` change (--heap-flags replaces them): a young
 * generation of 2 × 1 MB instead of up to 2 × 16 MB, and an old-space limit
 * under 256 MB, below which V8 grows the old space by ~1.3× the live size
 * after a full GC instead of up to 4× (the live heap is ~40 MB).
 */
let HEAP_FLAGS = ['--max-semi-space-size=1', '--max-old-space-size=256'];

/**
 * LevelDB options of the `ldb` change (--ldb-options replaces them): they
 * override whatever the store opens LevelDB with (src/store/options.ts).
 * By default classic-level's own defaults, i.e. the store as it was before
 * it had options of its own.
 */
let LDB_SMALL: Record<string, number> = { cacheSize: 8 * 2 ** 20, writeBufferSize: 4 * 2 ** 20, maxOpenFiles: 1000, maxFileSize: 2 * 2 ** 20 };

/** UV_THREADPOOL_SIZE of the `uv` change (libuv's default is 4). */
const UV_THREADS = '2';

/** Throws for a variant that is not a base followed by distinct changes. */
function checkVariant(v: string): void {
  const [base, ...changes] = v.split('+');
  const ok = (BASES as readonly string[]).includes(base) && changes.every((c) => (CHANGES as readonly string[]).includes(c)) && new Set(changes).size === changes.length;
  if (!ok) throw new Error(`bad variant ${JSON.stringify(v)}: a base (${BASES.join(', ')}) then +changes (${CHANGES.join(', ')})`);
}

/** Whether variant `v` has change `c`. */
function has(v: Variant, c: (typeof CHANGES)[number]): boolean {
  return v.split('+').slice(1).includes(c);
}

/** bin/focuscrawl's environment and node flags as one line (`NAME=VALUE ... --flag ...`). */
function binLine(): string {
  const { env, flags } = binNodeSetup();
  return [...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...flags].join(' ');
}

/** An --import preload for the `ldb` change: every LevelDB is opened with LDB_SMALL. */
function ldbPreload(): string {
  const classic = pathToFileURL(path.join(REPO, 'node_modules', 'classic-level', 'index.js')).href;
  const code = `import c from ${JSON.stringify(classic)};
const open = c.ClassicLevel.prototype._open;
c.ClassicLevel.prototype._open = function (options) { return open.call(this, { ...options, ...${JSON.stringify(LDB_SMALL)} }); };`;
  return `data:text/javascript,${encodeURIComponent(code)}`;
}

/** Bundle src/cli.ts with esbuild into `dir`/js/cli.mjs (node_modules and package.json linked beside it); returns the file. */
async function bundleCli(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  await symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  await symlink(path.join(REPO, 'package.json'), path.join(dir, 'package.json')); // src/util/version.ts reads ../package.json
  const entry = path.join(dir, 'entry.ts');
  await writeFile(entry, `import { main } from ${JSON.stringify(path.join(REPO, 'src', 'cli.ts'))};\nprocess.exitCode = await main(process.argv.slice(2));\n`);
  const outfile = path.join(dir, 'js', 'cli.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile, logLevel: 'error' });
  return outfile;
}

/** One sample of the crawler while it runs. */
interface Sample {
  /** seconds since spawn */
  t: number;
  mem: ProcMemory;
  /** the last stats record's frontier and pages before this sample */
  frontier: number;
  pages: number;
  /** distinct hosts in the page records so far */
  hosts: number;
  /** the last memoryUsage() line before this sample, MB */
  heapTotalMb: number;
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
}

/** Self size of the heap by kind of object: [type/name, MB, count], largest first, plus the total. */
interface HeapSummary {
  totalMb: number;
  rows: [string, number, number][];
}

interface CrawlRun {
  samples: Sample[];
  /** peak RSS (VmHWM) before any heap snapshot */
  peakMb: number;
  /** the heap snapshot's self sizes, when one was taken ('too large': past MAX_SNAPSHOT_BYTES) */
  heap: HeapSummary | 'too large' | null;
  pages: number;
  frontier: number;
  harvest: number;
  seconds: number;
  hostsActive: number[];
}

/** A process's memory from /proc, MB. */
interface ProcMemory {
  rss: number;
  /** peak RSS */
  hwm: number;
  /** anonymous (private) pages: V8's heap, malloc arenas, thread stacks */
  anon: number;
  /** file-backed pages: the node binary, shared libraries, LevelDB's memory-mapped tables */
  file: number;
  /** shared memory pages */
  shmem: number;
  /** of `file`, LevelDB's table files (*.ldb) */
  ldb: number;
  /** of `file`, the node executable */
  nodeBin: number;
  /** *.ldb files mapped (LevelDB's table cache) */
  ldbMaps: number;
  /** of `anon`, the brk heap (glibc's main malloc arena) */
  brk: number;
  /** user + system CPU seconds of the process so far (/proc/PID/stat) */
  cpu: number;
}

/** Memory of process `pid` (null once it is gone): /proc/PID/status for the totals, /proc/PID/smaps per mapping. */
async function procMemory(pid: number): Promise<ProcMemory | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    let ldb = 0;
    let nodeBin = 0;
    let ldbMaps = 0;
    let brk = 0;
    let kind: 'ldb' | 'node' | 'brk' | null = null;
    for (const line of (await readFile(`/proc/${pid}/smaps`, 'utf8')).split('\n')) {
      if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
        kind = line.endsWith('.ldb') ? 'ldb' : line.endsWith(`/${path.basename(process.execPath)}`) ? 'node' : line.endsWith('[heap]') ? 'brk' : null;
        if (kind === 'ldb') ldbMaps++;
      } else if (kind !== null && line.startsWith('Rss:')) {
        const n = Number(/(\d+) kB/.exec(line)?.[1] ?? 0);
        if (kind === 'ldb') ldb += n;
        else if (kind === 'brk') brk += n;
        else nodeBin += n;
      }
    }
    // utime and stime are fields 14 and 15, after the command name in parentheses
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    return {
      rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024, anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024, shmem: kb('RssShmem') / 1024,
      ldb: ldb / 1024, nodeBin: nodeBin / 1024, ldbMaps, brk: brk / 1024, cpu,
    };
  } catch {
    return null;
  }
}

/** Children still running: killed when the bench itself is interrupted. */
const children = new Set<ChildProcess>();

/** spawn, remembering the child until it exits. */
function spawnChild(...args: Parameters<typeof spawn>): ChildProcess {
  const child = spawn(...args);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(sig === 'SIGINT' ? 130 : 143);
  });
}

/** Start the synthetic-web proxy in its own process; resolves with its URL. */
async function startProxy(spec: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawnChild(process.execPath, ['--import', 'tsx', path.join(REPO, 'fixtures', 'serve-synthetic.ts'), spec], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    lines.close();
    return { url: (JSON.parse(line) as { listening: string }).listening, child };
  }
  throw new Error('the synthetic proxy exited before listening');
}

/**
 * Sum the self sizes of a V8 heap snapshot by node type and, for objects
 * and closures, constructor name (native and code objects by type only).
 */
function summariseHeap(snapshot: {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}): HeapSummary {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [fType, fName, fSize] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byKind = new Map<string, [number, number]>();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + fType]];
    const size = snapshot.nodes[i + fSize];
    const kind = type === 'object' || type === 'closure' ? `${type} ${snapshot.strings[snapshot.nodes[i + fName]]}` : type;
    const acc = byKind.get(kind) ?? [0, 0];
    acc[0] += size;
    acc[1]++;
    byKind.set(kind, acc);
    total += size;
  }
  const rows = [...byKind].sort((a, b) => b[1][0] - a[1][0]).slice(0, 10).map(([k, [size, n]]): [string, number, number] => [k, size / 2 ** 20, n]);
  return { totalMb: total / 2 ** 20, rows };
}

/** Resolves with the path of the first *.heapsnapshot in `dir` once its size stops changing. */
async function finishedSnapshot(dir: string): Promise<string> {
  let last = -1;
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    const file = (await readdir(dir)).find((f) => f.endsWith('.heapsnapshot'));
    if (file === undefined) continue;
    const size = (await stat(path.join(dir, file))).size;
    if (size > 0 && size === last) return path.join(dir, file);
    last = size;
  }
}

/** Run one crawl until its frontier reaches `target`, sampling its memory. */
async function crawlRun(opts: {
  /** node arguments before the crawl arguments (preloads, the script) */
  node: string[];
  /** extra environment variables */
  env: Record<string, string>;
  proxy: string;
  seeds: string[];
  topicFile: string;
  store: string;
  target: number;
  concurrency: number;
  /** more crawl flags (--crawl-arg) */
  crawlArgs: string[];
  snapshotDir: string | null;
  /** names the run in progress lines */
  label: string;
  /** collects every sample as a JSON line (--series), or null */
  series: string[] | null;
}): Promise<CrawlRun> {
  const args = [
    ...(opts.snapshotDir === null ? [] : ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${opts.snapshotDir}`]),
    '--import', MEM_PROBE, ...opts.node, 'crawl', '--proxy', opts.proxy, ...opts.seeds.flatMap((s) => ['--seed', s]),
    '--topic', opts.topicFile, '--strategy', 'best-first', '--concurrency', String(opts.concurrency),
    '--store', opts.store, '--fresh', '--stats-interval', '1', '--log-format', 'json', ...opts.crawlArgs,
  ];
  const started = performance.now();
  const child = spawnChild(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  const pid = child.pid!;
  let frontier = 0;
  let pages = 0;
  let harvest = 0;
  let heapTotalMb = 0;
  let heapUsedMb = 0;
  let externalMb = 0;
  let arrayBuffersMb = 0;
  /** V8's heap spaces (MB), for the progress lines */
  let spaces = '';
  let stopping = false;
  const marks = checkpoints(opts.target);
  let last: Sample | null = null;
  let peakBeforeSnapshot = 0;
  let snapshot: Promise<string> | null = null;
  const hosts = new Set<string>();
  const hostsActive: number[] = [];
  const samples: Sample[] = [];
  const errors: string[] = [];
  const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const host = /"host":"([^"]*)"/.exec(line)?.[1];
    if (host !== undefined) hosts.add(host);
  });
  createInterface({ input: child.stderr! }).on('line', (line) => {
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      errors.push(line);
      return;
    }
    if (rec.type === 'mem') {
      heapTotalMb = (rec.heapTotal as number) / 2 ** 20;
      heapUsedMb = (rec.heapUsed as number) / 2 ** 20;
      externalMb = (rec.external as number) / 2 ** 20;
      arrayBuffersMb = (rec.arrayBuffers as number) / 2 ** 20;
      spaces = JSON.stringify(rec.spaces).replace(/["{}]/g, '');
    } else if (rec.type === 'stats') {
      frontier = rec.frontier as number;
      pages = rec.pages as number;
      harvest = rec.harvest as number;
      hostsActive.push(rec.hostsActive as number);
      if (frontier >= opts.target && !stopping) {
        stopping = true;
        // the last /proc reading (at most 0.5 s old) stands for the target
        if (last !== null) {
          samples.push({ ...last, frontier, pages, hosts: hosts.size, heapTotalMb, heapUsedMb, externalMb, arrayBuffersMb });
          progress(samples.at(-1)!);
        }
        peakBeforeSnapshot = Math.max(0, ...samples.map((s) => s.mem.hwm));
        if (opts.snapshotDir === null) child.kill('SIGTERM');
        else {
          // a heap snapshot first (it takes memory of its own), then stop
          child.kill('SIGUSR2');
          snapshot = finishedSnapshot(opts.snapshotDir);
          void snapshot.then(() => child.kill('SIGTERM'));
        }
      }
    } else if (rec.type !== 'summary') errors.push(line);
  });
  const sampler = setInterval(() => {
    void procMemory(pid).then((mem) => {
      if (mem === null || stopping) return;
      last = { t: (performance.now() - started) / 1000, mem, frontier, pages, hosts: hosts.size, heapTotalMb, heapUsedMb, externalMb, arrayBuffersMb };
      samples.push(last);
      if (opts.series !== null) opts.series.push(JSON.stringify({ run: opts.label, ...last, spaces }));
      progress(last);
    });
  }, 500);
  /** A progress line for each checkpoint the frontier has passed. */
  function progress(s: Sample): void {
    const m = s.mem;
    while (marks.length > 0 && frontier >= marks[0]) {
      process.stderr.write(
        `scale-bench: ${opts.label} frontier ${fmt(marks.shift()!)} (${fmt(frontier)}, ${fmt(pages)} pages, ${fmt(s.t)} s): RSS ${fmt(m.rss)} MB = ` +
          `anon ${fmt(m.anon)} + file ${fmt(m.file)} (node ${fmt(m.nodeBin)}, ldb ${fmt(m.ldb)} in ${m.ldbMaps} maps) + shmem ${fmt(m.shmem)}; ` +
          `brk ${fmt(m.brk)}; heapTotal ${fmt(heapTotalMb)}, heapUsed ${fmt(heapUsedMb)}, external ${fmt(externalMb)} (arrayBuffers ${fmt(arrayBuffersMb)}); spaces ${spaces}; ` +
          `CPU ${fmt(m.cpu, 1)} s; peak ${fmt(m.hwm)}\n`,
      );
    }
  }
  const [code, signal] = await closed;
  clearInterval(sampler);
  if (!stopping) throw new Error(`the crawl ended (exit ${code ?? signal}) before its frontier reached ${opts.target}: ${errors.slice(-5).join('\n')}`);
  const seconds = (performance.now() - started) / 1000;
  let heap: CrawlRun['heap'] = null;
  if (snapshot !== null) {
    const file = await snapshot;
    heap = (await stat(file)).size > MAX_SNAPSHOT_BYTES ? 'too large' : summariseHeap(JSON.parse(await readFile(file, 'utf8')));
  }
  if (snapshot === null) peakBeforeSnapshot = Math.max(peakBeforeSnapshot, ...samples.map((s) => s.mem.hwm));
  return { samples, peakMb: peakBeforeSnapshot, heap, pages, frontier, harvest, seconds, hostsActive };
}

/** The first sample at or past a frontier size, or null. */
function sampleAt(run: CrawlRun, frontier: number): Sample | null {
  return run.samples.find((s) => s.frontier >= frontier) ?? null;
}

async function crawlBench(opts: {
  spec: string;
  target: number;
  runs: number;
  variants: Variant[];
  topic: string;
  concurrency: number;
  crawlArgs: string[];
  heapSnapshot: boolean;
  /** collects every sample as a JSON line (--series), or null */
  series: string[] | null;
}): Promise<string> {
  const web = new SyntheticWeb(parseWebSpec(opts.spec));
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'scale-bench-crawl-'));
  const proxy = await startProxy(opts.spec);
  const results = new Map<Variant, CrawlRun[]>();
  try {
    const topicFile = path.join(tmp, 'topic.json');
    await writeFile(topicFile, JSON.stringify(web.topicFile(opts.topic)));
    const seeds = web.seeds(opts.topic, 3);
    const bundled = opts.variants.some((v) => v.startsWith('js')) ? await bundleCli(tmp) : '';
    if (opts.variants.some((v) => v.startsWith('dist'))) execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO, stdio: 'inherit' });
    for (const variant of opts.variants) {
      const bin = has(variant, 'bin') ? binNodeSetup() : { flags: [], env: {} };
      const node = [
        ...bin.flags,
        ...(has(variant, 'heap') ? HEAP_FLAGS : []),
        ...(has(variant, 'ldb') ? ['--import', ldbPreload()] : []),
        variant.startsWith('js') ? bundled : variant.startsWith('dist') ? RUN_DIST : BIN,
      ];
      const env: Record<string, string> = { ...bin.env };
      if (has(variant, 'arena')) env.MALLOC_ARENA_MAX = '2';
      if (has(variant, 'uv')) env.UV_THREADPOOL_SIZE = UV_THREADS;
      const runs: CrawlRun[] = [];
      for (let r = 0; r < opts.runs; r++) {
        const snapshotDir = opts.heapSnapshot && r === opts.runs - 1 ? await mkdtemp(path.join(tmp, 'heap-')) : null;
        const store = path.join(tmp, 'store');
        const run = await crawlRun({ node, env, proxy: proxy.url, seeds, topicFile, store, target: opts.target, concurrency: opts.concurrency, crawlArgs: opts.crawlArgs, snapshotDir, label: `${variant} run ${r + 1}`, series: opts.series });
        const top = run.samples.reduce((a, b) => (b.mem.rss > a.mem.rss ? b : a));
        const cpu = run.samples.at(-1)!.mem.cpu;
        process.stderr.write(
          `scale-bench: crawl ${variant} run ${r + 1}: frontier ${fmt(run.frontier)} after ${fmt(run.pages)} pages in ${fmt(run.seconds)} s, ` +
            `CPU ${fmt(cpu, 1)} s (${fmt(run.pages / cpu)} pages per CPU-second), peak RSS ${fmt(run.peakMb)} MB ` +
            `(highest sample ${fmt(top.mem.rss)} MB at ${fmt(top.t)} s, frontier ${fmt(top.frontier)}: anon ${fmt(top.mem.anon)}, brk ${fmt(top.mem.brk)}, ` +
            `JS heap ${fmt(top.heapTotalMb)}, file ${fmt(top.mem.file)}, ldb ${fmt(top.mem.ldb)} in ${top.mem.ldbMaps} maps)\n`,
        );
        runs.push(run);
        await rm(store, { recursive: true, force: true });
        if (snapshotDir !== null) {
          // KEEP_SNAPSHOT=dir keeps the heap snapshot there (for a closer look in DevTools)
          const keep = process.env.KEEP_SNAPSHOT;
          const file = keep === undefined ? undefined : (await readdir(snapshotDir)).find((f) => f.endsWith('.heapsnapshot'));
          if (keep !== undefined && file !== undefined) await copyFile(path.join(snapshotDir, file), path.join(keep, `${variant}.heapsnapshot`));
          await rm(snapshotDir, { recursive: true, force: true });
        }
      }
      results.set(variant, runs);
    }
  } finally {
    proxy.child.kill('SIGTERM');
    await rm(tmp, { recursive: true, force: true });
  }
  return crawlTables(results, opts.target);
}

/** Frontier sizes the crawl tables report: 10k, 100k, 250k, 500k, 1M up to the target, and the target. */
function checkpoints(target: number): number[] {
  const marks = [10_000, 100_000, 250_000, 500_000, 1_000_000].filter((m) => m < target);
  return [...marks, target];
}

/** Median (min–max) over the runs of `f` at the first sample at or past `mark` (runs without one left out). */
function atMark(runs: CrawlRun[], mark: number, f: (s: Sample) => number): Spread | null {
  const values = runs.map((r) => sampleAt(r, mark)).filter((s): s is Sample => s !== null).map(f);
  return values.length === 0 ? null : spread(values);
}

/** Markdown tables of the crawl runs: RSS against frontier size per variant, then where the memory is. */
function crawlTables(results: Map<Variant, CrawlRun[]>, target: number): string {
  const variants = [...results.keys()];
  const nRuns = results.get(variants[0])!.length;
  const lastRun = (v: Variant) => results.get(v)!.at(-1)!;
  const marks = checkpoints(target);
  const short = (x: Spread | null) => (x === null ? '–' : nRuns === 1 ? fmt(x.median) : cell(x));
  const out: string[] = [
    `RSS MB against frontier size: total = anonymous + file-backed (of it LevelDB tables); median (min–max) over ${nRuns} run(s) of the first sample at or past each size.`,
    '',
    `| frontier URLs | pages, hosts (${variants[0]}) | ${variants.map((v) => `${v}: RSS | anon | file (ldb)`).join(' | ')} |`,
    `|---|---|${variants.map(() => '---|---|---|').join('')}`,
  ];
  for (const mark of marks) {
    const first = sampleAt(lastRun(variants[0]), mark);
    const cells = variants.map((v) => {
      const runs = results.get(v)!;
      return `${short(atMark(runs, mark, (s) => s.mem.rss))} | ${short(atMark(runs, mark, (s) => s.mem.anon))} | ` +
        `${short(atMark(runs, mark, (s) => s.mem.file))} (${short(atMark(runs, mark, (s) => s.mem.ldb))})`;
    });
    out.push(`| ${fmt(mark)} | ${first === null ? '–' : `${fmt(first.pages)}, ${fmt(first.hosts)}`} | ${cells.join(' | ')} |`);
  }
  const peaks = variants.map((v) => spread(results.get(v)!.map((r) => r.peakMb)));
  const anonPeaks = variants.map((v) => spread(results.get(v)!.map((r) => Math.max(...r.samples.map((s) => s.mem.anon)))));
  const filePeaks = variants.map((v) => spread(results.get(v)!.map((r) => Math.max(...r.samples.map((s) => s.mem.file)))));
  out.push(
    `| **peak** (VmHWM; anon, file: highest sample) | | ` +
      variants.map((_, i) => `**${short(peaks[i])}** | ${short(anonPeaks[i])} | ${short(filePeaks[i])}`).join(' | ') + ' |',
    `| peak RSS ≤ ${RSS_LIMIT_MB} MB? | | ${peaks.map((p) => `${p.max <= RSS_LIMIT_MB ? 'yes' : p.median <= RSS_LIMIT_MB ? 'median yes, not every run' : 'no'} | | |`).join(' ')}`,
    '',
    'Where the memory is at the last frontier size above and at the sample of highest RSS (last run of each variant, MB). RSS = anonymous + file-backed (+ shared) pages ' +
      '(/proc/PID/status RssAnon, RssFile, RssShmem); file-backed pages are the node binary ("node") and shared libraries plus the LevelDB ' +
      'table files LevelDB memory-maps for reading (`*.ldb` mappings in /proc/PID/smaps; "maps": how many): clean page cache the kernel could drop, ' +
      'but counted in RSS. "JS heap" is V8\'s heapTotal (heapUsed counts garbage not yet collected: the heap snapshots give the live size); ' +
      '"native" is anonymous memory minus heapTotal and external: Node internals, LevelDB\'s block cache and memtables, malloc arenas, thread stacks.',
    '',
    '| variant | RSS | anonymous | file-backed | of it node | of it LevelDB tables (maps) | JS heap | of it used | external (arrayBuffers) | native | pages | hosts fetched | s | hosts in flight (median) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  const rows: [string, CrawlRun, Sample][] = [];
  for (const v of variants) {
    const run = lastRun(v);
    rows.push([v, run, sampleAt(run, marks.at(-1)!) ?? run.samples.at(-1)!]);
    // the sample of the highest RSS (a GC cycle's top)
    rows.push([`${v}, highest sample`, run, run.samples.reduce((a, b) => (b.mem.rss > a.mem.rss ? b : a))]);
  }
  for (const [v, run, s] of rows) {
    const m = s.mem;
    out.push(
      `| ${v} | ${fmt(m.rss)} | ${fmt(m.anon)} | ${fmt(m.file)} | ${fmt(m.nodeBin)} | ${fmt(m.ldb)} (${m.ldbMaps}) | ${fmt(s.heapTotalMb)} | ${fmt(s.heapUsedMb)} | ` +
        `${fmt(s.externalMb)} (${fmt(s.arrayBuffersMb)}) | ${fmt(m.anon - s.heapTotalMb - s.externalMb)} | ${fmt(s.pages)} | ${fmt(s.hosts)} | ${fmt(s.t)} | ` +
        `${fmt(spread(run.hostsActive).median)} |`,
    );
  }
  for (const v of variants) {
    const heap = lastRun(v).heap;
    if (heap === null) continue;
    if (heap === 'too large') {
      out.push('', `Heap snapshot, ${v}: larger than ${fmt(MAX_SNAPSHOT_BYTES / 2 ** 20)} MB, not summarised.`);
      continue;
    }
    out.push(
      '',
      `Heap snapshot, ${v}, at a frontier of ${fmt(target)} (\`--heap-snapshot\`): ${fmt(heap.totalMb, 1)} MB of live objects; the largest kinds by self size:`,
      '',
      '| kind | MB | count |',
      '|---|---|---|',
      ...heap.rows.map(([kind, mb, n]) => `| ${kind.replace(/\|/g, '\\|')} | ${fmt(mb, 1)} | ${fmt(n)} |`),
    );
  }
  const harvest = variants.map((v) => `${v} ${fmt(lastRun(v).harvest * 100, 1)}%`).join(', ');
  const secs = variants.map((v) => `${v} ${short(spread(results.get(v)!.map((r) => r.seconds)))} s`).join(', ');
  out.push('', `Seconds to the target frontier (wall, a loaded machine): ${secs}. Harvest rate of the last runs (pages of the topic, as the crawler judged them): ${harvest}.`);
  return out.join('\n');
}

// ---- main -------------------------------------------------------------------------

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      part: { type: 'string', default: 'all' },
      sizes: { type: 'string', default: '10000,100000,1000000' },
      runs: { type: 'string', default: '3' },
      ops: { type: 'string', default: '2000' },
      web: { type: 'string', default: '1:20000000:200000' },
      target: { type: 'string', default: '1000000' },
      'crawl-runs': { type: 'string', default: '1' },
      variants: { type: 'string', default: DEFAULT_VARIANTS },
      topic: { type: 'string', default: 'astronomy' },
      concurrency: { type: 'string', default: '16' },
      // one more crawl flag a time, e.g. --crawl-arg=--explore --crawl-arg=0
      'crawl-arg': { type: 'string', multiple: true, default: [] },
      'heap-snapshot': { type: 'boolean', default: false },
      'heap-flags': { type: 'string' },
      'ldb-options': { type: 'string' },
      // every 0.5 s sample of every crawl run as NDJSON into this file (a time series of the memory)
      series: { type: 'string' },
      write: { type: 'boolean', default: false },
    },
  });
  const part = values.part!;
  if (!['all', 'frontier', 'crawl'].includes(part)) throw new Error(`--part must be all, frontier or crawl, got ${part}`);
  const variants = values.variants!.split(',');
  variants.forEach(checkVariant);
  if (values['heap-flags'] !== undefined) HEAP_FLAGS = values['heap-flags'].split(/\s+/).filter((f) => f !== '');
  if (values['ldb-options'] !== undefined) LDB_SMALL = JSON.parse(values['ldb-options']) as Record<string, number>;
  const command = `node --import tsx bench/scale-bench.ts ${process.argv.slice(2).join(' ')}`.trim();
  if (part !== 'crawl') {
    if (values['ldb-options'] !== undefined) {
      // the frontier part runs in this process: open every LevelDB with --ldb-options over the store's own
      const { ClassicLevel } = await import('classic-level');
      const proto = ClassicLevel.prototype as unknown as { _open(options: object): Promise<void> };
      const open = proto._open;
      proto._open = function (options: object) {
        return open.call(this, { ...options, ...LDB_SMALL });
      };
    }
    const sizes = values.sizes!.split(',').map(Number);
    const loadBefore = os.loadavg()[0];
    const body = [
      `### Frontier cost against frontier size`,
      '',
      `CrawlStore (LevelDB in a temp dir) + FrontierHead (capacity ${fmt(DEFAULT_HEAD_CAPACITY)}), wired as the crawl wires them. ` +
        `Each run fills a fresh store (addSeeds, batches of ${fmt(FILL_BATCH)}), compacts it (classic-level compactRange: a bulk fill leaves ` +
        'a compaction backlog, and LevelDB\'s write stalls, that a crawl growing its frontier page by page does not), reopens it and ' +
        `times ${values.ops} crawl steps after 200 warm-up steps: ` +
        `take = head.refill() + head.take() of the best entry; commit = store.commit of that page with ${LINKS_PER_PAGE} links ` +
        `(1 new URL, ${LINKS_PER_PAGE - 1} already seen), so the frontier stays at its size. The seen links of every other step are ` +
        `among the last ${fmt(RECENT)} URLs queued (a site's navigation: the store's in-memory seen cache answers), of the others ` +
        'drawn from every URL seen (no locality: LevelDB reads). Per run: the median step (whole step: the mean, refills included); ' +
        'the table gives the median (min–max) over the runs. LevelDB options: ' +
        `\`${JSON.stringify(values['ldb-options'] !== undefined ? LDB_SMALL : STORE_LEVELDB_OPTIONS)}\`` +
        `${values['ldb-options'] !== undefined ? ' (--ldb-options)' : ' (the store\'s, src/store/options.ts)'}.`,
      '',
      await frontierBench(sizes, Number(values.runs), Number(values.ops)),
    ];
    await report('scale-bench-frontier', body, loadBefore, command, values.write!);
  }
  if (part !== 'frontier') {
    const loadBefore = os.loadavg()[0];
    const series = values.series === undefined ? null : ([] as string[]);
    const body = [
      `### Crawler memory against frontier size`,
      '',
      `\`bin/focuscrawl crawl --proxy <synthetic web ${values.web}> --seed <3 ${values.topic} homes> --topic <${values.topic}> ` +
        `--strategy best-first --concurrency ${values.concurrency} --stats-interval 1 --log-format json\` against ` +
        `\`fixtures/serve-synthetic.ts ${values.web}\` (a separate process), stopped with SIGTERM when a stats record reports ` +
        `a frontier of ${fmt(Number(values.target))} URLs; ${values['crawl-runs']} run(s) per variant. RSS from /proc/PID/status every 0.5 s. ` +
        'Variants: **tsx** is bin/focuscrawl run from a checkout (TypeScript through tsx); **js** the same CLI bundled by esbuild and run by plain node (no tsx); ' +
        '**dist** the compiled dist/ run by plain node; **+bin** the node flags and environment of bin/focuscrawl\'s first line ' +
        `(\`${binLine()}\`): **dist+bin** is what an installed package runs; ` +
        '**+arena** sets MALLOC_ARENA_MAX=2; ' +
        `**+ldb** preloads a patch that opens LevelDB with \`${JSON.stringify(LDB_SMALL)}\` over the store's own options ` +
        `(src/store/options.ts); **+heap** runs node with \`${HEAP_FLAGS.join(' ')}\`; **+uv** sets UV_THREADPOOL_SIZE=${UV_THREADS}. ` +
        'Each cell is the first sample at or past the frontier size, of the last run.',
      '',
      await crawlBench({
        spec: values.web!,
        target: Number(values.target),
        runs: Number(values['crawl-runs']),
        variants,
        topic: values.topic!,
        concurrency: Number(values.concurrency),
        crawlArgs: values['crawl-arg']!,
        heapSnapshot: values['heap-snapshot']!,
        series,
      }),
    ];
    if (series !== null) await writeFile(values.series!, `${series.join('\n')}\n`);
    await report('scale-bench-crawl', body, loadBefore, command, values.write!);
  }
  return 0;
}

/** The code measured: `abc1234`, or `abc1234-dirty` when src/, bin/, bench/ or fixtures/ differ from that commit. */
function codeVersion(): string {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const dirty = git('status', '--porcelain', '--', 'src', 'bin', 'bench', 'fixtures') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? '-dirty (uncommitted changes in src/, bin/, bench/ or fixtures/)' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

/** Print a part's section (heading, results, machine, command); with `write`, put it into BENCHMARKS.md. */
async function report(name: string, body: string[], loadBefore: number, command: string, write: boolean): Promise<void> {
  const cpu = os.cpus();
  const section = [
    ...body,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ` +
      `${fmt(os.totalmem() / 2 ** 30, 1)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}; ` +
      `1-minute load average ${fmt(loadBefore, 2)} before, ${fmt(os.loadavg()[0], 2)} after ` +
      '(a machine shared with other work: times are noisy, memory much less so). ' +
      `Code version: ${codeVersion()}. Command: \`${command}\`.`,
  ].join('\n');
  process.stdout.write(`${section}\n\n`);
  if (write) {
    // the million-URL memory stays in BENCHMARKS.md; the frontier's per-step cost is in docs/results
    const file = name === 'scale-bench-frontier' ? resultsDoc(name) : BENCHMARKS_MD;
    await writeSection(file, name, section, name === 'scale-bench-frontier' ? '# Frontier cost against frontier size' : '# Benchmarks');
    process.stderr.write(`scale-bench: wrote ${name} into ${path.relative(REPO, file)}\n`);
  }
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`scale-bench: ${(err as Error)?.stack ?? String(err)}\n`);
  return 1;
});
