/**
 * Issue 21 ("Trust"), items 2 and 12: a crawl that gets no answer at all
 * (proxy down, no DNS) must not use up its URLs, and name lookups go through
 * one injectable lookup that tests keep on the machine.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { HttpClient } from '../src/fetch/http.ts';
import { isValidHostname, loopbackLookup } from '../src/fetch/lookup.ts';
import type { CrawlConfig } from '../src/crawl/config.ts';
import { runCrawl } from '../src/pipeline.ts';
import { createReplayServer } from '../src/replay/server.ts';
import { parseLines, ROOT, tempDir, runMain } from './helpers/cli.ts';
import { serve } from './helpers/serve.ts';

/** A port nothing listens on (just freed; the test then starts its proxy there). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function store(t: TestContext): Promise<string> {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  return path.join(dir, 'store');
}

// What broke (issue 21 item 2): with the proxy not started, the crawl exited
// 0 with FC_ROBOTS_UNAVAILABLE records and marked its seeds done; the rerun
// once the proxy was up fetched nothing (0 pages, exit 0); only --fresh helped.
test('proxy down: exit 1 with FC_NETWORK naming the proxy; the rerun without --fresh fetches the seeds', async (t) => {
  const dir = await store(t);
  const port = await freePort();
  const seeds = ['http://www.webdir.example/', 'http://news.example.cn/'];
  const args = [
    'crawl', ...seeds.flatMap((s) => ['--seed', s]), '--store', dir, '--proxy', `http://127.0.0.1:${port}`,
    '--max-depth', '0', '--delay-ms', '0', '--retries', '1', '--retry-base-ms', '10',
  ];
  const down = await runMain(args);
  assert.equal(down.code, 1, down.stderr);
  assert.match(down.stderr, new RegExp(`focuscrawl: FC_NETWORK: could not reach any seed \\(proxy 127\\.0\\.0\\.1:${port} refused the connection\\)`));
  const failed = parseLines(down.stdout);
  assert.deepEqual(failed.map((r) => [r.url, r.type, r.code, r.attempts]).sort(), seeds.map((s) => [s, 'error', 'FC_NETWORK', 2]).sort());

  const replay = await createReplayServer({ warcs: [path.join(ROOT, 'fixtures', 'web.warc.gz')], port });
  t.after(() => replay.close());
  const up = await runMain(args);
  assert.equal(up.code, 0, up.stderr);
  assert.match(up.stderr, /2 URLs that got no answer in an earlier run are queued again/);
  const pages = parseLines(up.stdout);
  assert.deepEqual(pages.map((r) => [r.url, r.type, r.status]).sort(), seeds.map((s) => [s, 'page', 200]).sort());

  // fetched now: done for good, a third run has nothing to do
  const again = await runMain(args);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, '');
});

function crawlConfig(dir: string, seeds: string[], over: Partial<CrawlConfig>): { cfg: CrawlConfig; records: () => any[] } {
  let text = '';
  const output = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk);
      cb();
    },
  });
  const cfg: CrawlConfig = {
    seeds, topic: null, strategy: 'bfs', storeDir: dir, fresh: false, maxPages: Infinity, maxDepth: 1,
    maxFrontier: Infinity, dropIndex: true, allowPrivate: true, concurrency: 4, perHost: 2, delayMs: 0,
    delayExplicit: true, hostDiversity: 0, maxBytes: 1 << 20, auth: {}, quiet: true, output, log: () => {},
    retry: { retries: 1, baseMs: 5, maxRetryAfterMs: 1000, random: () => 0.5 },
    lookup: loopbackLookup(),
    ...over,
  };
  return { cfg, records: () => parseLines(text) };
}

// What broke (issue 21 item 12): links with malformed hosts such as
// http://a..b/ and http://-a-.test/ made the crawler ask the system resolver
// (a name lookup leaving the machine from a test), and there was no way to
// give the crawl another lookup.
test('malformed hosts are FC_BAD_HOST without any lookup; other names go through the injected lookup only', async (t) => {
  const base = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<a href="http://a..b/">1</a> <a href="http://-a-.test/">2</a> <a href="http://named.test/">3</a>');
  });
  const asked: string[] = [];
  const { cfg, records } = crawlConfig(await store(t), [`${base}/`], { lookup: loopbackLookup((h) => asked.push(h)) });
  await runCrawl(cfg);
  const byUrl = new Map(records().map((r) => [r.url, r]));
  assert.equal(byUrl.get(`${base}/`)?.status, 200);
  assert.equal(byUrl.get('http://a..b/')?.code, 'FC_BAD_HOST');
  assert.equal(byUrl.get('http://-a-.test/')?.code, 'FC_BAD_HOST');
  // the loopback-only lookup refuses other names: FC_NETWORK, retried once
  assert.equal(byUrl.get('http://named.test/')?.code, 'FC_NETWORK');
  assert.equal(byUrl.get('http://named.test/')?.attempts, 2);
  assert.ok(!asked.some((h) => h.includes('a..b') || h.includes('-a-')), `looked up: ${asked.join(', ')}`);
  assert.ok(asked.includes('named.test'), `looked up: ${asked.join(', ')}`);
});

test('HttpClient: the injected lookup is what connects (guard on and off); malformed names never reach it', async (t) => {
  const base = await serve(t, (_req, res) => res.end('ok'));
  const port = new URL(base).port;
  const asked: string[] = [];
  const toLoopback = (hostname: string, _o: unknown, cb: (e: NodeJS.ErrnoException | null, a: { address: string; family: number }[]) => void) => {
    asked.push(hostname);
    process.nextTick(() => cb(null, [{ address: '127.0.0.1', family: 4 }]));
  };
  const open = new HttpClient({ allowPrivate: true, lookup: toLoopback });
  const guarded = new HttpClient({ lookup: toLoopback });
  t.after(() => Promise.all([open.close(), guarded.close()]));
  // a made-up name reaches the test server only through the injected lookup
  assert.equal((await open.get(`http://made-up.test:${port}/`, { maxBytes: 100, accept: 'any' })).status, 200);
  assert.deepEqual(asked, ['made-up.test']);
  // with the private-address guard, the same lookup answers the guard (127.0.0.1 is refused)
  await assert.rejects(guarded.get(`http://other.test:${port}/`, { maxBytes: 100 }), { code: 'FC_PRIVATE_ADDRESS' });
  assert.equal((await guarded.checkAddress(`http://third.test:${port}/`))?.code, 'FC_PRIVATE_ADDRESS');
  asked.length = 0;
  for (const c of [open, guarded]) {
    for (const url of ['http://a..b/', 'http://-a-.test/', `http://x.${'a'.repeat(64)}.test/`]) {
      await assert.rejects(c.get(url, { maxBytes: 100 }), { code: 'FC_BAD_HOST' }, url);
      assert.equal(await c.checkAddress(url), null);
    }
  }
  assert.deepEqual(asked, []);
});

test('loopbackLookup answers IP literals and localhost, refuses other names with FC_NETWORK', async () => {
  const ask = (h: string) =>
    new Promise<{ err: any; addresses: unknown }>((resolve) => loopbackLookup()(h, { all: true }, (err, addresses) => resolve({ err, addresses })));
  assert.deepEqual((await ask('127.0.0.1')).addresses, [{ address: '127.0.0.1', family: 4 }]);
  assert.deepEqual((await ask('::1')).addresses, [{ address: '::1', family: 6 }]);
  assert.deepEqual((await ask('localhost')).addresses, [{ address: '127.0.0.1', family: 4 }]);
  const { err } = await ask('example.com');
  assert.equal(err?.code, 'FC_NETWORK');
  assert.match(err.message, /ENOTFOUND example\.com/);
});

test('isValidHostname', () => {
  for (const h of ['example.com', 'a.b', 'x_y.test', 'example.com.', '127.0.0.1', '[::1]', 'xn--bcher-kva.example', `${'a'.repeat(63)}.test`]) {
    assert.ok(isValidHostname(h), h);
  }
  for (const h of ['a..b', '-a-.test', 'a-.test', '-a.test', '.a', '', '.', 'a!b.test', `${'a'.repeat(64)}.test`, `${'a.'.repeat(127)}ab`]) {
    assert.ok(!isValidHostname(h), h);
  }
});

test('runCrawl: a run in which no request got an answer rejects with FC_NETWORK; the next run asks for its URLs again', async (t) => {
  const dir = await store(t);
  const port = await freePort();
  const seed = `http://127.0.0.1:${port}/`;
  const first = crawlConfig(dir, [seed], { maxDepth: 0 });
  await assert.rejects(runCrawl(first.cfg), (err: any) => {
    assert.equal(err.code, 'FC_NETWORK');
    assert.match(err.message, /could not reach any seed \(FC_NETWORK: .*ECONNREFUSED/);
    return true;
  });
  assert.deepEqual(first.records().map((r) => [r.url, r.code]), [[seed, 'FC_NETWORK']]);
  // still nothing listens: the store offers the URL again, and the run says so again
  const second = crawlConfig(dir, [], { maxDepth: 0 });
  await assert.rejects(runCrawl(second.cfg), /could not reach any queued URL/);
  assert.deepEqual(second.records().map((r) => r.url), [seed]);
});

test('CLI children of the tests resolve loopback only: a DNS failure is FC_NETWORK, exit 1, and the URL is kept', async (t) => {
  const dir = await store(t);
  const args = ['crawl', '--seed', 'http://named.test/', '--store', dir, '--allow-private', '--delay-ms', '0', '--retries', '0'];
  const r = await runMain(args);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /FC_NETWORK: could not reach any seed \(FC_NETWORK: .*ENOTFOUND named\.test \(tests resolve only IP literals and localhost\)/);
  assert.deepEqual(parseLines(r.stdout).map((x) => [x.url, x.code]), [['http://named.test/', 'FC_NETWORK']]);
  const again = await runMain(args);
  assert.equal(again.code, 1, again.stderr);
  assert.match(again.stderr, /1 URL that got no answer in an earlier run is queued again/);
});
