// Live statistics (issue 4): the collector's counts, harvest, error codes,
// t-digest percentiles and their merge across a resume; the text and
// progress formats and the stderr log (JSON mode, a TTY progress line); and
// end to end: stats records on stderr while a replayed crawl runs, the final
// record in the store's meta, `focuscrawl stats` on a finished, running and
// killed store, and a resumed crawl continuing the totals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryLevel } from 'memory-level';
import { CrawlLog } from '../src/output/crawl-log.ts';
import { CrawlStats, formatProgress, formatStatsLine, MAX_ERROR_CODES, OTHER_ERRORS, parseSavedStats, type StatsSnapshot } from '../src/output/stats.ts';
import { runStats, storeStats } from '../src/commands/stats.ts';
import { LIVE_STATS_FILE, loadCrawlStats, StatsReporter, STATS_META_KEY } from '../src/output/stats-live.ts';
import { CrawlStore } from '../src/store/level.ts';
import type { ErrorRecord, PageRecord } from '../src/types.ts';
import { BIN, ROOT, fixtureReplay, parseLines, spawnCli, tempDir, runMain } from './helpers/cli.ts';

function page(i: number, over: Partial<PageRecord> = {}): PageRecord {
  return {
    type: 'page', url: `http://h.example/${i}`, finalUrl: `http://h.example/${i}`, status: 200, fetchedAt: new Date(0).toISOString(),
    depth: 1, parent: null, host: 'h.example', contentType: 'text/html', charset: 'utf-8', bytes: 100, truncated: false,
    title: null, score: 0, relevance: 0, relevant: false, links: 0, strategy: 'bfs', ms: 10, ...over,
  };
}

function error(i: number, code: string): ErrorRecord {
  return { type: 'error', url: `http://h.example/e${i}`, code, message: 'x', fetchedAt: new Date(0).toISOString(), depth: 1, parent: null, strategy: 'bfs' };
}

const SAMPLE = { frontier: 7, activeHosts: 2 };

/** A fake clock the test moves by hand. */
function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** Exact quantile by the nearest-rank method. */
function exactQuantile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

/** A deterministic pseudo-random sequence in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

test('collector: counts pages, relevant, bytes, errors by code; harvest is relevant / pages', () => {
  const c = clock();
  const stats = new CrawlStats({ now: c.now });
  stats.startRun();
  for (let i = 0; i < 8; i++) stats.observe(page(i, { relevant: i < 2, bytes: 1000 }));
  stats.observe(error(1, 'FC_TIMEOUT'));
  stats.observe(error(2, 'FC_TIMEOUT'));
  stats.observe(error(3, 'FC_NETWORK'));
  c.advance(2000);
  const s = stats.snapshot({ ...SAMPLE, maxPages: 100 });
  assert.equal(s.type, 'stats');
  assert.equal(s.pages, 8);
  assert.equal(s.relevant, 2);
  assert.equal(s.harvest, 0.25);
  assert.equal(s.bytes, 8000);
  assert.deepEqual(s.errors, { FC_NETWORK: 1, FC_TIMEOUT: 2 });
  assert.equal(s.frontier, 7);
  assert.equal(s.hostsActive, 2);
  assert.equal(s.maxPages, 100);
  assert.equal(s.elapsed, 2);
  assert.equal(s.runPages, 8);
  assert.equal(s.pagesPerSec.overall, 4);
  assert.equal(s.final, false);
  assert.equal(stats.records, 11);
  assert.ok(!Number.isNaN(Date.parse(s.at)));
  // no limit -> null; an empty collector reports zeros and null latencies
  const empty = new CrawlStats({ now: c.now }).snapshot({ frontier: 0, activeHosts: 0 });
  assert.equal(empty.maxPages, null);
  assert.equal(empty.harvest, 0);
  assert.deepEqual(empty.latencyMs, { p50: null, p95: null, p99: null });
  assert.deepEqual(empty.pagesPerSec, { recent: 0, overall: 0 });
});

test('collector: the recent rate covers the last 10 s, the overall rate the whole run', () => {
  const c = clock(5_000_000);
  const stats = new CrawlStats({ now: c.now });
  stats.startRun();
  // 10 s at 10 pages/s, then 10 s at 2 pages/s
  for (let i = 0; i < 100; i++) {
    c.advance(100);
    stats.observe(page(i));
  }
  for (let i = 0; i < 20; i++) {
    c.advance(500);
    stats.observe(page(100 + i));
  }
  const s = stats.snapshot(SAMPLE);
  assert.equal(s.pagesPerSec.overall, 6); // 120 pages in 20 s
  assert.ok(Math.abs(s.pagesPerSec.recent - 2) <= 0.25, `recent ${s.pagesPerSec.recent}`);
  // records counted before startRun (a resumed store's log) are totals only
  const resumed = new CrawlStats({ now: c.now });
  resumed.observe(page(1));
  resumed.startRun();
  c.advance(1000);
  assert.deepEqual([resumed.snapshot(SAMPLE).pages, resumed.snapshot(SAMPLE).runPages], [1, 0]);
});

test('collector: latency percentiles are near the exact ones (uniform and long-tailed)', () => {
  const rand = lcg(42);
  const uniform = Array.from({ length: 20_000 }, () => Math.round(rand() * 2000));
  const tailed = Array.from({ length: 20_000 }, () => Math.round(-200 * Math.log(1 - rand())));
  for (const values of [uniform, tailed]) {
    const stats = new CrawlStats();
    values.forEach((ms, i) => stats.observe(page(i, { ms })));
    const { latencyMs } = stats.snapshot(SAMPLE);
    const sorted = [...values].sort((a, b) => a - b);
    for (const [p, got] of [[0.5, latencyMs.p50], [0.95, latencyMs.p95], [0.99, latencyMs.p99]] as const) {
      const want = exactQuantile(sorted, p);
      assert.ok(Math.abs(got! - want) <= Math.max(0.03 * want, 3), `p${p * 100}: ${got} vs exact ${want}`);
    }
  }
});

test('collector: saved state (JSON) resumes the totals and the digest', () => {
  const rand = lcg(7);
  const values = Array.from({ length: 6000 }, () => Math.round(rand() * 500));
  const all = new CrawlStats();
  const first = new CrawlStats();
  values.forEach((ms, i) => {
    const r = page(i, { ms, relevant: i % 3 === 0, bytes: i });
    all.observe(r);
    if (i < 4000) first.observe(r);
  });
  all.observe(error(1, 'FC_DECODE'));
  first.observe(error(1, 'FC_DECODE'));
  const saved = parseSavedStats(JSON.parse(JSON.stringify(first.toSaved(SAMPLE))));
  assert.ok(saved !== null);
  const second = new CrawlStats({ saved });
  assert.equal(second.records, 4001);
  values.slice(4000).forEach((ms, j) => second.observe(page(4000 + j, { ms, relevant: (4000 + j) % 3 === 0, bytes: 4000 + j })));
  const [a, b] = [all.snapshot(SAMPLE), second.snapshot(SAMPLE)];
  assert.deepEqual([b.pages, b.relevant, b.bytes, b.errors], [a.pages, a.relevant, a.bytes, a.errors]);
  for (const k of ['p50', 'p95', 'p99'] as const) assert.ok(Math.abs(a.latencyMs[k]! - b.latencyMs[k]!) <= 10, `${k}: ${a.latencyMs[k]} vs ${b.latencyMs[k]}`);
  // malformed saved states are refused
  for (const bad of [null, 5, {}, { ...saved, pages: -1 }, { ...saved, digest: [{ mean: 'x', n: 1 }] }, { ...saved, type: 'page' }, { ...saved, relevant: saved.pages + 1 }]) {
    assert.equal(parseSavedStats(bad), null, JSON.stringify(bad).slice(0, 80));
  }
});

test('collector: error codes are capped; the rest are counted under "other"', () => {
  const stats = new CrawlStats();
  for (let i = 0; i < MAX_ERROR_CODES + 5; i++) stats.observe(error(i, `FC_X${i}`));
  const { errors } = stats.snapshot(SAMPLE);
  assert.equal(Object.keys(errors).length, MAX_ERROR_CODES + 1);
  assert.equal(errors[OTHER_ERRORS], 5);
  assert.equal(stats.records, MAX_ERROR_CODES + 5);
});

function snapshotOf(over: Partial<StatsSnapshot> = {}): StatsSnapshot {
  return {
    type: 'stats', at: new Date(0).toISOString(), final: false, elapsed: 12.3, pages: 120, relevant: 30, harvest: 0.25, runPages: 100,
    pagesPerSec: { recent: 8.5, overall: 8.13 }, maxPages: 500, frontier: 900, hostsActive: 3, errors: { FC_TIMEOUT: 2 },
    latencyMs: { p50: 40.2, p95: 300, p99: 1200.7 }, bytes: 3 * 1024 * 1024, ...over,
  };
}

test('formatting: a readable stats line and a numbers-only progress line', () => {
  const line = formatStatsLine(snapshotOf());
  assert.equal(
    line,
    'focuscrawl: stats: 120/500 pages, 8.5 pages/s (run 8.1), harvest 25.0% (30 relevant), frontier 900, hosts active 3, ' +
      'errors 2 (FC_TIMEOUT 2), latency p50 40 ms, p95 300 ms, p99 1201 ms, 3.0 MB, 12.3 s',
  );
  assert.match(formatStatsLine(snapshotOf({ final: true, maxPages: null, errors: {}, latencyMs: { p50: null, p95: null, p99: null } })), /^focuscrawl: final stats: 120 pages, .*errors 0, latency -,/);
  // a code read back from a store is not trusted to be printable
  assert.doesNotMatch(formatStatsLine(snapshotOf({ errors: { 'FC_\x1b[2J': 1 } })), /\x1b/);
  assert.equal(formatProgress(snapshotOf()), '120/500 pages  8.5 pages/s  harvest 25.0%  frontier 900');
  assert.equal(formatProgress(snapshotOf({ maxPages: null })), '120 pages  8.5 pages/s  harvest 25.0%  frontier 900');
});

/** A fake stderr. */
function fakeStream(isTTY: boolean): { isTTY: boolean; write: (s: string) => boolean; text: () => string } {
  let out = '';
  return { isTTY, write: (s) => ((out += s), true), text: () => out };
}

test('stderr log: a TTY progress line is throttled, erased before other lines and at exit', () => {
  const c = clock();
  const tty = fakeStream(true);
  const log = new CrawlLog(tty, { format: 'text', progress: true, now: c.now });
  log.progress(snapshotOf({ pages: 1 }));
  c.advance(100);
  log.progress(snapshotOf({ pages: 2 })); // too soon: skipped
  c.advance(200);
  log.progress(snapshotOf({ pages: 3 }));
  log.line('focuscrawl: hello \x1b]0;title\x07');
  log.progress(snapshotOf({ pages: 4 })); // too soon after the last draw
  c.advance(300);
  log.progress(snapshotOf({ pages: 5 }));
  log.clear();
  log.clear();
  const CL = '\r\x1b[2K';
  assert.equal(
    tty.text(),
    `${CL}1/500 pages  8.5 pages/s  harvest 25.0%  frontier 900` +
      `${CL}3/500 pages  8.5 pages/s  harvest 25.0%  frontier 900` +
      `${CL}focuscrawl: hello \\x1b]0;title\\x07\n` +
      `${CL}5/500 pages  8.5 pages/s  harvest 25.0%  frontier 900${CL}`,
  );
  // no TTY (or progress off): never a progress line
  const pipe = fakeStream(false);
  const quiet = new CrawlLog(pipe, { format: 'text', progress: true, now: c.now });
  quiet.progress(snapshotOf());
  quiet.clear();
  assert.equal(pipe.text(), '');
});

test('stderr log: JSON mode writes one JSON object a line', () => {
  const err = fakeStream(false);
  const log = new CrawlLog(err, { format: 'json', progress: false });
  log.line('focuscrawl: retrying http://x.example/\x1b[31m');
  log.line(JSON.stringify({ type: 'summary', pages: 3 }));
  log.stats(snapshotOf());
  log.fatal('FC_STORE_LOCKED', 'store s is in use');
  const lines = parseLines(err.text());
  assert.equal(lines.length, 4);
  assert.deepEqual(lines[0], { type: 'log', message: 'focuscrawl: retrying http://x.example/\\x1b[31m' });
  assert.deepEqual(lines[1], { type: 'summary', pages: 3 });
  assert.deepEqual(lines[2], snapshotOf());
  assert.deepEqual(lines[3], { type: 'fatal', code: 'FC_STORE_LOCKED', message: 'store s is in use' });
});

test('loadCrawlStats: saved meta plus the log records committed after it; inconsistent meta is rebuilt', async () => {
  const store = await CrawlStore.open(new MemoryLevel<string, any>());
  try {
    const urls = Array.from({ length: 6 }, (_, i) => `http://h.example/${i}`);
    await store.addSeeds(urls.map((url) => ({ url, score: 1, depth: 0, parent: null })));
    const live = new CrawlStats();
    for (const [i, url] of urls.entries()) {
      const record = i === 5 ? { ...error(i, 'FC_NETWORK'), url } : { ...page(i, { relevant: i % 2 === 0, ms: 10 * i }), url };
      await store.commit({ entry: { url, score: 1, depth: 0, parent: null }, record, countsAsPage: record.type === 'page', links: [] });
      live.observe(record);
      if (i === 2) await store.putMeta(STATS_META_KEY, live.toSaved(SAMPLE)); // a save, then 3 more commits (a kill)
    }
    const want = live.snapshot(SAMPLE);
    const loaded = await loadCrawlStats(store);
    assert.equal(loaded.replayed, 3);
    assert.ok(loaded.saved !== null);
    const got = loaded.stats.snapshot(SAMPLE);
    assert.deepEqual([got.pages, got.relevant, got.errors, got.bytes, got.latencyMs], [want.pages, want.relevant, want.errors, want.bytes, want.latencyMs]);
    // meta claiming more records than the log holds is not trusted: rebuilt from the whole log
    await store.putMeta(STATS_META_KEY, { ...live.toSaved(SAMPLE), pages: 50 });
    const rebuilt = await loadCrawlStats(store);
    assert.equal(rebuilt.saved, null);
    assert.equal(rebuilt.replayed, 6);
    assert.equal(rebuilt.stats.snapshot(SAMPLE).pages, 5);
  } finally {
    await store.close();
  }
});

test('StatsReporter: records every interval, then the final one to the callback, meta and stats.json', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const meta = new Map<string, unknown>();
  const records: StatsSnapshot[] = [];
  const stats = new CrawlStats();
  const reporter = new StatsReporter({
    stats, store: { putMeta: async (k, v) => void meta.set(k, v) }, dir, intervalMs: 20,
    sample: () => ({ frontier: 3, activeHosts: 1, maxPages: Infinity }), onStats: (s) => records.push(s),
  });
  reporter.start();
  reporter.observe(page(1, { relevant: true }));
  for (let i = 0; i < 200 && records.length < 2; i++) await sleep(10);
  assert.ok(records.length >= 2, `${records.length} interval records`);
  assert.ok(records.every((r) => !r.final && !('digest' in r)));
  const final = await reporter.stop();
  assert.equal(final.final, true);
  assert.deepEqual(records.at(-1), final);
  const n = records.length;
  await sleep(60);
  assert.equal(records.length, n, 'no record after stop');
  const saved = parseSavedStats(meta.get(STATS_META_KEY));
  assert.ok(saved !== null && saved.final && saved.pages === 1 && saved.relevant === 1);
  assert.deepEqual(JSON.parse(await readFile(path.join(dir, LIVE_STATS_FILE), 'utf8')), final);
});

const CRAWL = ['crawl', '--seeds', 'fixtures/demo-seeds.txt', '--topic', 'fixtures/demo-topic.json', '--concurrency', '2'];

test('e2e: stats records on stderr (JSON), the final one in meta, `focuscrawl stats`, resume continues', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const store = path.join(dir, 'store');
  // replayed answers skip the politeness delay unless --delay-ms is given: it
  // makes the crawl last several intervals (60 ms with 0.2 s intervals gave one
  // interval record in a CI run: the crawl can finish in under 0.4 s)
  const r = await runMain([...CRAWL, '--proxy', replayUrl, '--store', store, '--max-pages', '30', '--delay-ms', '150', '--stats-interval', '0.1', '--log-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /[\r\x1b]/, 'no progress line: stderr is a pipe');
  const lines = parseLines(r.stderr); // every stderr line is one JSON object
  const stats = lines.filter((l) => l.type === 'stats');
  const interval = stats.filter((s) => !s.final);
  assert.ok(interval.length >= 2, `${interval.length} interval records`);
  for (const s of stats) {
    for (const k of ['at', 'elapsed', 'pages', 'harvest', 'pagesPerSec', 'frontier', 'hostsActive', 'errors', 'latencyMs', 'bytes']) assert.ok(k in s, `${k} in ${JSON.stringify(s)}`);
    assert.deepEqual(Object.keys(s.pagesPerSec), ['recent', 'overall']);
    assert.deepEqual(Object.keys(s.latencyMs), ['p50', 'p95', 'p99']);
  }
  const final = stats.at(-1);
  assert.equal(final.final, true);
  assert.equal(lines.at(-1).type, 'summary');
  // the final totals are the records on stdout
  const out = parseLines(r.stdout);
  const pages = out.filter((x) => x.type === 'page');
  const errors: Record<string, number> = {};
  for (const e of out.filter((x) => x.type === 'error')) errors[e.code] = (errors[e.code] ?? 0) + 1;
  assert.equal(final.pages, 30);
  assert.equal(final.relevant, pages.filter((p) => p.relevant).length);
  assert.equal(final.bytes, pages.reduce((n, p) => n + p.bytes, 0));
  assert.deepEqual(final.errors, errors);
  assert.ok(final.latencyMs.p50 > 0 && final.latencyMs.p50 <= final.latencyMs.p99);

  // meta holds it (with the digest); `focuscrawl stats` prints the same
  const s = await CrawlStore.open(store);
  const meta = await s.getMeta(STATS_META_KEY);
  await s.close();
  assert.deepEqual({ ...(meta as object), digest: undefined }, { ...final, digest: undefined });
  const cli = await runMain(['stats', '--store', store, '--log-format', 'json']);
  assert.equal(cli.code, 0, cli.stderr);
  assert.deepEqual(JSON.parse(cli.stdout), { ...final, state: 'finished' });
  const text = await captureStats(['--store', store]);
  assert.match(text, /^focuscrawl: stats \(finished\): 30\/30 pages, .*harvest .*latency p50 \d+ ms/);

  // a resumed crawl continues the totals
  const again = await runMain(['crawl', '--proxy', replayUrl, '--store', store, '--max-pages', '40', '--stats-interval', '0', '--log-format', 'json']);
  assert.equal(again.code, 0, again.stderr);
  const againLines = parseLines(again.stderr);
  assert.equal(againLines.filter((l) => l.type === 'stats').length, 0, '--stats-interval 0: no stats records');
  const resumed = await storeStats(store);
  const added = parseLines(again.stdout);
  assert.equal(resumed.pages, 40);
  assert.equal(resumed.runPages, 10);
  assert.equal(resumed.bytes, final.bytes + added.filter((x) => x.type === 'page').reduce((n, p) => n + p.bytes, 0));
});

test('e2e: running a finished crawl again keeps its saved clock and rates', async (t) => {
  // What broke (issue 21): the rerun, which commits nothing, saved its own
  // final stats over the crawl's: `0.0 pages/s ... 0.0 s`, runPages 0.
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const store = path.join(dir, 'store');
  const args = [...CRAWL, '--proxy', replayUrl, '--store', store, '--max-pages', '5', '--stats-interval', '0', '--quiet'];
  const first = await runMain(args);
  assert.equal(first.code, 0, first.stderr);
  const before = await storeStats(store);
  assert.equal(before.runPages, 5);
  const again = await runMain(args);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, '', 'nothing left to do');
  const after = await storeStats(store);
  assert.equal(after.state, 'finished');
  assert.deepEqual(
    [after.pages, after.runPages, after.elapsed, after.pagesPerSec, after.latencyMs],
    [before.pages, before.runPages, before.elapsed, before.pagesPerSec, before.latencyMs],
  );
  const live = JSON.parse(await readFile(path.join(store, 'stats.json'), 'utf8'));
  assert.equal(live.runPages, 5, 'stats.json too');
});

/** `focuscrawl stats` in process; its stdout. */
async function captureStats(argv: string[]): Promise<string> {
  let out = '';
  const stdout = { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream;
  assert.equal(await runStats(argv, { stdout: stdout as never }), 0);
  return out;
}

test('stats command: a missing or non-store directory is FC_USAGE', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  await mkdir(path.join(dir, 'plain'));
  await writeFile(path.join(dir, 'plain', 'x.txt'), 'x');
  for (const store of [path.join(dir, 'missing'), path.join(dir, 'plain'), path.join(dir, 'plain', 'x.txt')]) {
    await assert.rejects(runStats(['--store', store]), { code: 'FC_USAGE' }, store);
  }
  await assert.rejects(runStats(['--store', dir, '--log-format', 'yaml']), { code: 'FC_USAGE' });
  assert.equal(existsSync(path.join(dir, 'missing')), false, 'stats does not create a store');
});

// A file named CURRENT does not make a store: stats refuses the directory
// and writes nothing into it (no LOCK, no LOG among the user's files).
test('stats command: a user directory with a stray CURRENT file is FC_USAGE and left untouched', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  await writeFile(path.join(dir, 'CURRENT'), 'my notes\n');
  await writeFile(path.join(dir, 'thesis.tex'), '\\documentclass{article}\n');
  await assert.rejects(runStats(['--store', dir]), { code: 'FC_USAGE', message: /not a focuscrawl store/ });
  assert.deepEqual((await readdir(dir)).sort(), ['CURRENT', 'thesis.tex']);
});

test('e2e: `stats` on a running crawl reads stats.json; after SIGKILL it rebuilds the totals from the log', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const store = path.join(dir, 'store');
  const child = spawnCli([...CRAWL, '--proxy', replayUrl, '--store', store, '--delay-ms', '150', '--concurrency', '1', '--stats-interval', '0.2', '--quiet']);
  const exited = new Promise((resolve) => child.on('close', resolve));
  t.after(() => child.kill('SIGKILL'));
  let running = null;
  for (let i = 0; i < 300 && (running === null || running.pages < 3); i++) {
    await sleep(100);
    if (existsSync(path.join(store, LIVE_STATS_FILE))) running = await storeStats(store);
  }
  assert.ok(running !== null && running.pages >= 3, 'the crawl wrote live stats');
  assert.equal(running.state, 'running');
  assert.equal(running.final, false);
  child.kill('SIGKILL');
  await exited;
  const after = await storeStats(store);
  assert.equal(after.state, 'interrupted');
  const s = await CrawlStore.open(store);
  const [pages, errors] = [s.pages, s.errors];
  await s.close();
  assert.equal(after.pages, pages, 'every committed page is counted, also those after the last save');
  assert.equal(Object.values(after.errors).reduce((n, c) => n + c, 0), errors);
  assert.ok(after.pages >= running.pages);
});

test('e2e: on a terminal (pseudo-TTY via script) stderr shows a progress line, erased at exit', { skip: !existsSync('/usr/bin/script') && 'needs script(1) from util-linux' }, async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
  // the crawl must outlast the first progress tick (250 ms) by a margin: with
  // --delay-ms 100 it took 0.3-0.4 s and once, on a loaded machine, drew no line
  const cmd = [process.execPath, BIN, ...CRAWL, '--proxy', replayUrl, '--store', path.join(dir, 'store'), '--max-pages', '15', '--delay-ms', '300', '--stats-interval', '0']
    .map(q).join(' ') + ` > ${q(path.join(dir, 'out.ndjson'))}`;
  const child = spawn('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let tty = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (tty += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0, tty);
  assert.match(tty, /\r\x1b\[2K\d+\/15 pages {2}[\d.]+ pages\/s {2}harvest [\d.]+% {2}frontier \d+/);
  // the summary starts on a cleared line and nothing is drawn after it
  assert.match(tty, /\r\x1b\[2Kfocuscrawl: 15 pages [^\r\x1b]*\r?\n$/);
  assert.equal(parseLines(await readFile(path.join(dir, 'out.ndjson'), 'utf8')).filter((x) => x.type === 'page').length, 15);
});
