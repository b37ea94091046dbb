// Bounded retries with backoff (src/frontier/retry.ts): Retry-After parsing, the
// retry decision and host backoff, the sink's retry commit, the store's
// retry batch (also replayed from the journal), and end-to-end crawls of
// servers that fail and recover, always fail, or ask us to wait.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { MemoryLevel } from 'memory-level';
import type { ErrorCode } from '../src/errors.ts';
import { loopbackLookup } from '../src/fetch/lookup.ts';
import type { CrawlConfig } from '../src/crawl/config.ts';
import { runCrawl } from '../src/pipeline.ts';
import { HostScheduler } from '../src/frontier/politeness.ts';
import { seededRandom } from '../src/util/random.ts';
import { hostBackoffMs, isRetryable, parseRetryAfter, shouldRetry, type RetryPolicy } from '../src/frontier/retry.ts';
import { sinkStage } from '../src/stages/sink.ts';
import { CrawlStore } from '../src/store/level.ts';
import type { CrawlItem, FetchResult, FrontierEntry } from '../src/types.ts';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';
import { serve } from './helpers/serve.ts';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const POLICY: RetryPolicy = { retries: 2, baseMs: 1000, maxRetryAfterMs: 120_000, now: () => NOW, random: () => 0.5 };

function fetched(status: number, headers: Record<string, string> = {}): FetchResult {
  return {
    url: 'http://a.test/p', finalUrl: 'http://a.test/p', redirects: ['http://a.test/p'], status, headers,
    contentType: 'text/html', headerCharset: null, body: null, bytes: 0, truncated: false,
    fetchedAt: new Date(NOW).toISOString(), ms: 1, replay: false,
  };
}

function entry(over: Partial<FrontierEntry> = {}): FrontierEntry {
  return { url: 'http://a.test/p', score: 1, depth: 1, parent: 'http://a.test/', ...over };
}

function withStatus(status: number, headers: Record<string, string> = {}, attempts?: number): CrawlItem {
  return { entry: entry({ attempts }), fetch: fetched(status, headers) };
}

function withError(code: string, attempts?: number): CrawlItem {
  return { entry: entry({ attempts }), error: { code: code as ErrorCode, message: code } };
}

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    assert.equal(parseRetryAfter('1', NOW), 1000);
    assert.equal(parseRetryAfter(' 120 ', NOW), 120_000);
    assert.equal(parseRetryAfter('0', NOW), 0);
  });
  it('reads the three HTTP-date forms; a past date is 0', () => {
    assert.equal(parseRetryAfter(new Date(NOW + 5000).toUTCString(), NOW), 5000);
    assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', NOW), 0);
    assert.equal(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', NOW), 0);
    assert.equal(parseRetryAfter('Sun Nov  6 08:49:37 1994', NOW), 0);
  });
  it('is null when absent or malformed', () => {
    for (const v of [undefined, null, '', 'soon', '-1', '1.5', '1e3', '0x10']) {
      assert.equal(parseRetryAfter(v, NOW), null, String(v));
    }
  });
});

describe('retry decision and host backoff', () => {
  it('retries network errors, timeouts and 429/500/502/503/504 only', () => {
    for (const code of ['FC_NETWORK', 'FC_TIMEOUT']) assert.ok(isRetryable(withError(code)), code);
    for (const code of ['FC_DECODE', 'FC_TOO_MANY_REDIRECTS', 'FC_ROBOTS_UNAVAILABLE', 'FC_BAD_REDIRECT', 'FC_INTERNAL']) {
      assert.ok(!isRetryable(withError(code)), code);
    }
    for (const s of [429, 500, 502, 503, 504]) assert.ok(isRetryable(withStatus(s)), String(s));
    for (const s of [200, 204, 301, 400, 403, 404, 410, 501, 505]) assert.ok(!isRetryable(withStatus(s)), String(s));
  });

  it('does not retry a status served by a replay proxy (an archive answers the same every time)', () => {
    const replayed = withStatus(503);
    replayed.fetch!.replay = true;
    assert.ok(!isRetryable(replayed));
    assert.ok(!shouldRetry(replayed, POLICY));
  });

  it('retries while attempts are left', () => {
    assert.ok(shouldRetry(withStatus(503), POLICY));
    assert.ok(shouldRetry(withStatus(503, {}, 1), POLICY));
    assert.ok(!shouldRetry(withStatus(503, {}, 2), POLICY), 'third attempt is the last with retries 2');
    assert.ok(!shouldRetry(withError('FC_TIMEOUT'), { ...POLICY, retries: 0 }));
    assert.ok(!shouldRetry(withStatus(404), POLICY));
  });

  it('does not retry when Retry-After exceeds the cap', () => {
    assert.ok(shouldRetry(withStatus(503, { 'retry-after': '120' }), POLICY));
    assert.ok(!shouldRetry(withStatus(503, { 'retry-after': '121' }), POLICY));
    assert.ok(!shouldRetry(withStatus(429, { 'retry-after': new Date(NOW + 3_600_000).toUTCString() }), POLICY));
  });

  it('backs off exponentially with ±25% jitter, capped', () => {
    const at = (attempts: number | undefined, r: number, p: Partial<RetryPolicy> = {}): number =>
      hostBackoffMs(withError('FC_NETWORK', attempts), { ...POLICY, random: () => r, ...p });
    assert.equal(at(undefined, 0.5), 1000);
    assert.equal(at(1, 0.5), 2000);
    assert.equal(at(2, 0.5), 4000);
    assert.equal(at(undefined, 0), 750);
    assert.equal(at(2, 0.999999), 5000);
    assert.equal(at(20, 0.5, { maxRetryAfterMs: 9000 }), 9000);
    assert.equal(hostBackoffMs(withStatus(200), POLICY), 0);
    assert.equal(hostBackoffMs(withError('FC_DECODE'), POLICY), 0);
    const rnd = seededRandom(5);
    for (let i = 0; i < 200; i++) {
      const ms = hostBackoffMs(withError('FC_TIMEOUT', 1), { ...POLICY, random: rnd });
      assert.ok(ms >= 1500 && ms <= 2500, String(ms));
    }
  });

  it('honours Retry-After (capped) instead of the exponential backoff', () => {
    assert.equal(hostBackoffMs(withStatus(503, { 'retry-after': '3' }, 2), POLICY), 3000);
    assert.equal(hostBackoffMs(withStatus(429, { 'retry-after': '86400' }), POLICY), 120_000);
    assert.equal(hostBackoffMs(withStatus(503, { 'retry-after': new Date(NOW + 7000).toUTCString() }), POLICY), 7000);
  });

  it('HostScheduler.backoff holds the host, replayed or not', () => {
    let now = 1000;
    const s = new HostScheduler({ perHost: 2, delayMs: 0, now: () => now });
    s.start('a.test');
    s.finish('a.test', 'http://a.test/p', true);
    s.backoff('a.test', 1500);
    assert.equal(s.ready('a.test'), false);
    assert.equal(s.msUntilNextReady(), 1500);
    s.backoff('a.test', 100); // a shorter backoff does not shorten the wait
    now += 1499;
    assert.equal(s.ready('a.test'), false);
    now += 1;
    assert.equal(s.ready('a.test'), true);
    s.backoff('b.test', 0);
    assert.equal(s.msUntilNextReady(), Infinity);
  });
});

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function* items(...list: CrawlItem[]): AsyncGenerator<CrawlItem> {
  yield* list;
}

describe('sink and store', () => {
  it('puts a retryable failure back in the frontier with attempts, writes no record; the last attempt is recorded', async () => {
    const store = await CrawlStore.open(new MemoryLevel({ valueEncoding: 'json' }));
    const url = 'http://a.test/p';
    await store.addSeeds([{ url, score: 5, depth: 0, parent: null }]);
    const [stored] = await all(store.frontier());
    const lines: string[] = [];
    const retried: string[] = [];
    const logged: string[] = [];
    const opts = {
      store, strategy: 'bfs', maxDepth: 5, retry: { ...POLICY, retries: 1 },
      emit: (l: string) => void lines.push(l), onRetry: (i: CrawlItem) => void retried.push(i.entry.url), log: (l: string) => void logged.push(l),
    };
    await sinkStage(items({ entry: stored.entry, error: { code: 'FC_TIMEOUT', message: 'slow' } }), opts);
    assert.deepEqual(lines, []);
    assert.deepEqual(retried, [url]);
    assert.match(logged[0], /FC_TIMEOUT .*attempt 2 of 2/);
    assert.equal(store.committed, 0);
    const [again] = await all(store.frontier());
    assert.equal(again.key, stored.key, 'same score and seq: same place in the frontier');
    assert.deepEqual(again.entry, { ...stored.entry, attempts: 1 });
    assert.equal(await store.status(url), 'queued');

    await sinkStage(items({ entry: again.entry, error: { code: 'FC_TIMEOUT', message: 'slow again' } }), opts);
    const records = parseLines(lines.join(''));
    assert.equal(records.length, 1);
    assert.equal(records[0].code, 'FC_TIMEOUT');
    assert.equal(records[0].attempts, 2);
    assert.equal(store.frontierSize, 0);
    assert.equal(store.errors, 1);
    await store.close();
  });

  it('a retry does not mark redirect hops done (the retry follows them again)', async () => {
    const store = await CrawlStore.open(new MemoryLevel({ valueEncoding: 'json' }));
    await store.addSeeds([{ url: 'http://a.test/old', score: 1, depth: 0, parent: null }]);
    const [e] = await all(store.frontier());
    const f = { ...fetched(503), url: 'http://a.test/old', finalUrl: 'http://a.test/new', redirects: ['http://a.test/old', 'http://a.test/new'] };
    await sinkStage(items({ entry: e.entry, fetch: f }), { store, strategy: 'bfs', maxDepth: 1, retry: POLICY, emit: () => undefined });
    assert.equal(await store.status('http://a.test/new'), null);
    assert.equal(await store.status('http://a.test/old'), 'queued');
    await store.close();
  });

  it('keeps the attempt count across a reopen, and the journal replays a retry batch', async (t) => {
    const { dir, cleanup } = await tempDir();
    t.after(cleanup);
    const url = 'http://a.test/p';
    const seed = { url, score: 2, depth: 0, parent: null };
    const a = await CrawlStore.open(path.join(dir, 'a'));
    await a.addSeeds([seed]);
    await a.retry({ ...seed, attempts: 1 });
    const journal = (await readFile(path.join(dir, 'a', 'focuscrawl.journal'), 'utf8')).trim().split('\n');
    await a.close();
    const reopened = await CrawlStore.open(path.join(dir, 'a'));
    assert.deepEqual((await all(reopened.frontier())).map((e) => e.entry.attempts), [1]);
    await reopened.close();

    // a crash right after the journal append: LevelDB has only the seeds
    const b = await CrawlStore.open(path.join(dir, 'b'));
    await b.addSeeds([seed]);
    await b.close();
    await appendFile(path.join(dir, 'b', 'focuscrawl.journal'), `${journal[journal.length - 1]}\n`);
    const replayed = await CrawlStore.open(path.join(dir, 'b'));
    t.after(() => replayed.close());
    const entries = await all(replayed.frontier());
    assert.deepEqual(entries.map((e) => [e.entry.url, e.entry.attempts]), [[url, 1]]);
    assert.equal(replayed.frontierSize, 1);
    assert.equal(replayed.committed, 0);
  });
});

/** runCrawl in-process against 127.0.0.1, collecting records. */
async function crawl(seeds: string[], over: Partial<CrawlConfig> = {}): Promise<any[]> {
  const { dir, cleanup } = await tempDir();
  let text = '';
  const output = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk);
      cb();
    },
  });
  try {
    await runCrawl({
      seeds, topic: null, strategy: 'bfs', storeDir: dir, fresh: false, maxPages: Infinity, maxDepth: 0,
      maxFrontier: Infinity, dropIndex: true, allowPrivate: true, concurrency: 4, perHost: 1, delayMs: 0,
      delayExplicit: true, hostDiversity: 0, maxBytes: 1 << 20, auth: {}, quiet: true, output, log: () => {},
      retry: { retries: 2, baseMs: 20, maxRetryAfterMs: 5000, random: seededRandom(1) },
      lookup: loopbackLookup(),
      ...over,
    });
  } finally {
    await cleanup();
  }
  return parseLines(text);
}

test('e2e: 503 twice then 200 gives one page record with attempts 3', async (t) => {
  let hits = 0;
  const base = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    hits++;
    res.writeHead(hits <= 2 ? 503 : 200, { 'content-type': 'text/html' });
    res.end(hits <= 2 ? 'busy' : '<title>finally</title>');
  });
  const records = await crawl([`${base}/p`]);
  assert.equal(hits, 3);
  assert.equal(records.length, 1);
  assert.equal(records[0].type, 'page');
  assert.equal(records[0].status, 200);
  assert.equal(records[0].title, 'finally');
  assert.equal(records[0].attempts, 3);
});

test('e2e: retries are bounded: a server that always answers 500 is asked retries + 1 times', async (t) => {
  let hits = 0;
  const base = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    hits++;
    res.writeHead(500, { 'content-type': 'text/html' }).end('broken');
  });
  const records = await crawl([`${base}/p`], { retry: { retries: 3, baseMs: 10, maxRetryAfterMs: 5000 } });
  assert.equal(hits, 4);
  assert.deepEqual(records.map((r) => [r.type, r.status, r.attempts]), [['page', 500, 4]]);
  hits = 0;
  const once = await crawl([`${base}/q`], { retry: { retries: 0, baseMs: 10, maxRetryAfterMs: 5000 } });
  assert.equal(hits, 1);
  assert.equal(once[0].attempts, undefined, 'attempts only when more than one');
});

test('e2e: Retry-After: 1 holds the whole host for a second; a Retry-After beyond the cap is final', async (t) => {
  const seen: { path: string; at: number }[] = [];
  let busy = 0;
  const base = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    seen.push({ path: req.url ?? '', at: Date.now() });
    if (req.url === '/busy' && busy++ === 0) return void res.writeHead(503, { 'retry-after': '1' }).end('wait');
    if (req.url === '/never') return void res.writeHead(503, { 'retry-after': '3600' }).end('tomorrow');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>ok</title>');
  });
  const records = await crawl([`${base}/busy`, `${base}/other`, `${base}/never`], { concurrency: 1 });
  // the first answer (503, Retry-After: 1) is followed by a one-second pause for the host
  assert.equal(seen[0].path, '/busy');
  assert.ok(seen[1].at - seen[0].at >= 990, `next request to the host after ${seen[1].at - seen[0].at} ms`);
  const byPath = new Map(records.map((r) => [new URL(r.url).pathname, r]));
  assert.equal(byPath.get('/busy').status, 200);
  assert.equal(byPath.get('/busy').attempts, 2);
  assert.equal(byPath.get('/never').status, 503);
  assert.equal(byPath.get('/never').attempts, undefined);
  assert.equal(seen.filter((s) => s.path === '/never').length, 1);
  assert.equal(records.length, 3);
});

test('e2e: a trickling body hits the whole-request deadline (FC_TIMEOUT), retried once', async (t) => {
  let hits = 0;
  const timers = new Set<NodeJS.Timeout>();
  t.after(() => timers.forEach(clearInterval));
  const base = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    hits++;
    res.writeHead(200, { 'content-type': 'text/html' });
    const timer = setInterval(() => res.write('x'), 100);
    timers.add(timer);
    res.on('close', () => clearInterval(timer));
  });
  const records = await crawl([`${base}/drip`], {
    timeouts: { connectMs: 1000, headersMs: 1000, bodyMs: 1000, fetchMs: 600 },
    retry: { retries: 1, baseMs: 10, maxRetryAfterMs: 1000 },
  });
  assert.equal(hits, 2);
  assert.equal(records.length, 1);
  assert.equal(records[0].code, 'FC_TIMEOUT');
  assert.equal(records[0].attempts, 2);
  assert.match(records[0].message, /within 600 ms/);
});

test('CLI: retry and timeout flags are validated', async () => {
  for (const args of [['--retries=-1'], ['--fetch-timeout-ms', '0']]) {
    const r = await runMain(['crawl', '--seed', 'http://127.0.0.1:9/', '--store', '/nonexistent/never-created', ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /--(retries|timeout-ms|fetch-timeout-ms|max-retry-after): must be/);
  }
});
