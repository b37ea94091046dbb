/**
 * CPU of what happens to a page after classify (issue 23 item 1): the sink
 * stage (the record, its NDJSON line, the links to queue) and a journaled
 * LevelDB store's commit (seen reads, the plan, the journal append, the
 * write-behind groups), on the pages of a real crawl, without fetching or
 * parsing.
 *
 *   node --max-semi-space-size=1 --no-allocation-site-pretenuring --import tsx \
 *     bench/sink-commit.ts --records FILE [--rounds 9] [--repo DIR ...]
 *
 * (the V8 flags of bin/focuscrawl's first line, so the heap behaves as in a
 * crawl). FILE is the NDJSON of a crawl run with `--outlinks`, e.g.
 * best-first on the synthetic web (bench/politeness-cpu.ts's crawl, with
 * `--outlinks`). Its records are turned back into the items the sink got
 * (entry, fetch result, title, relevance, SimHash, each distinct outlink
 * with its canonical URL and score; best-first keeps no link text), and
 * each round runs `sinkStage` over all of them into a new store in a
 * temporary directory, in record order (each item made as the sink asks
 * for it), each line written to /dev/null
 * with one `writeSync` (the pipe's kernel time is not measured). A round
 * ends when the store is closed (every group written).
 *
 * `--repo DIR` (repeatable; default this checkout) loads src/stages/sink.ts
 * and src/store/level.ts of each checkout into this one process (a `git
 * archive` of an older commit, with node_modules linked); rounds alternate
 * between them after one warm-up round each. Reported per checkout: CPU
 * (process.cpuUsage, user + sys, LevelDB's threads included) per round and
 * per record, and scavenges and mark-compacts per 1,000 records (the
 * process's counts during the round), medians (min–max).
 */
import { closeSync, openSync, writeSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { codeVersion, fmt, machine } from './lib/measure.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string' },
    rounds: { type: 'string', default: '9' },
    repo: { type: 'string', multiple: true, default: [path.resolve(import.meta.dirname, '..')] },
  },
  strict: true,
});
if (values.records === undefined) throw new Error('--records FILE (NDJSON of a crawl run with --outlinks) is required');
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a positive integer');

interface Rec {
  type: 'page' | 'error';
  url: string;
  finalUrl?: string;
  status?: number;
  fetchedAt: string;
  depth: number;
  parent: string | null;
  contentType?: string | null;
  charset?: string | null;
  bytes?: number;
  truncated?: boolean;
  title?: string | null;
  score?: number;
  relevance?: number;
  relevant?: boolean;
  ms?: number;
  simhash?: string;
  outlinks?: { url: string; anchor: string; score: number }[];
  code?: string;
  message?: string;
}
const records = readFileSync(values.records, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Rec);
if (!records.some((r) => r.outlinks !== undefined)) throw new Error(`${values.records}: no record lists its outlinks (crawl with --outlinks)`);

/** The item the sink got for a record, rebuilt (made as the sink asks for it, as a crawl's items come). */
function itemOf(r: Rec): any {
  {
    const entry = { url: r.url, score: r.score ?? 0, depth: r.depth, parent: r.parent, offTopicHops: 0 };
    if (r.type === 'error') return { entry, error: { code: r.code, message: r.message } };
    return {
      entry,
      fetch: {
        url: r.url, finalUrl: r.finalUrl, redirects: r.finalUrl === r.url ? [r.url] : [r.url, r.finalUrl], status: r.status, headers: {},
        contentType: r.contentType, headerCharset: r.charset, body: null, bytes: r.bytes, truncated: r.truncated, fetchedAt: r.fetchedAt, ms: r.ms, replay: true,
      },
      page: { title: r.title, charset: r.charset },
      relevance: r.relevance,
      relevant: r.relevant,
      simhash: r.simhash,
      outlinks: (r.outlinks ?? []).map((o) => ({ url: o.url, canonical: o.url, score: o.score, anchor: o.anchor, context: '' })),
    };
  }
}

const gc = { minor: 0, major: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.minor++;
    else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
  }
}).observe({ entryTypes: ['gc'] });

interface Contender {
  repo: string;
  sinkStage: (source: AsyncIterable<any>, opts: any) => Promise<void>;
  CrawlStore: { open: (dir: string) => Promise<any> };
  cpu: number[];
  minor: number[];
  major: number[];
}
const contenders: Contender[] = [];
for (const repo of values.repo) {
  const dir = path.resolve(repo);
  const { sinkStage } = await import(path.join(dir, 'src/stages/sink.ts'));
  const { CrawlStore } = await import(path.join(dir, 'src/store/level.ts'));
  contenders.push({ repo: dir, sinkStage, CrawlStore, cpu: [], minor: [], major: [] });
}

const devNull = openSync('/dev/null', 'w');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-sink-commit-'));

async function round(c: Contender, n: number): Promise<{ cpu: number; minor: number; major: number }> {
  async function* source() {
    for (const r of records) yield itemOf(r);
  }
  const dir = path.join(tmp, `store-${n}`);
  const before = { ...gc };
  const t0 = process.cpuUsage();
  const store = await c.CrawlStore.open(dir);
  await c.sinkStage(source(), {
    store,
    strategy: 'best-first',
    maxDepth: 1_000_000,
    emit: (line: string) => {
      writeSync(devNull, line);
      return undefined;
    },
    scorer: { readsQueuedText: false },
    linkGuard: {},
  });
  await store.close();
  const t = process.cpuUsage(t0);
  const out = { cpu: (t.user + t.system) / 1000, minor: gc.minor - before.minor, major: gc.major - before.major };
  await rm(dir, { recursive: true, force: true });
  return out;
}

const loadBefore = os.loadavg()[0];
let n = 0;
try {
  for (const c of contenders) await round(c, n++);
  for (let r = 0; r < rounds; r++) {
    for (const c of contenders) {
      const m = await round(c, n++);
      c.cpu.push(m.cpu);
      c.minor.push(m.minor);
      c.major.push(m.major);
      process.stderr.write(`sink-commit: round ${r + 1}/${rounds}, ${c.repo}: ${fmt(m.cpu, 0)} CPU ms, ${m.minor} scavenges, ${m.major} mark-compacts\n`);
    }
  }
} finally {
  closeSync(devNull);
  await rm(tmp, { recursive: true, force: true });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const spread = (xs: number[], digits: number, scale = 1): string =>
  `${fmt(median(xs) * scale, digits)} (${fmt(Math.min(...xs) * scale, digits)}–${fmt(Math.max(...xs) * scale, digits)})`;
const pages = records.length;
const links = records.reduce((s, r) => s + (r.outlinks?.length ?? 0), 0);
console.log(
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; code ${codeVersion()}; 1-minute load average ${fmt(loadBefore, 1)} before, ${fmt(os.loadavg()[0], 1)} after. ` +
    `Command: \`node ${process.execArgv.join(' ')} bench/sink-commit.ts ${process.argv.slice(2).join(' ')}\`.\n\n` +
    `${fmt(pages)} records (${fmt(links)} distinct outlinks), sinkStage into a journaled store, median (min–max) of ${rounds} rounds after a warm-up, checkouts alternating.\n`,
);
console.log('| checkout | CPU ms per round | µs per record | scavenges per 1,000 records | mark-compacts per 1,000 |');
console.log('|---|---|---|---|---|');
for (const c of contenders) {
  console.log(`| ${path.basename(c.repo)} | ${spread(c.cpu, 0)} | ${spread(c.cpu, 1, 1000 / pages)} | ${spread(c.minor, 0, 1000 / pages)} | ${spread(c.major, 1, 1000 / pages)} |`);
}
