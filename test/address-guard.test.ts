/**
 * The private-address guard (issue 5): the address check as a pure function
 * over a table, and the connection path against loopback servers of the
 * test's own that count hits. No test sends traffic to a non-loopback address.
 */
import assert from 'node:assert/strict';
import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { PrivateAddressError } from '../src/errors.ts';
import { HttpClient, toFetchError, type HttpClientOptions } from '../src/fetch/http.ts';
import { addressRange, checkHost, checkHostname, guardedLookup, isLocalhostName, type Resolver } from '../src/fetch/address-guard.ts';
import { addressGuardStage } from '../src/stages/address-guard.ts';
import { fetchStage } from '../src/stages/fetch.ts';
import type { CrawlItem } from '../src/types.ts';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';
import { rejectsWithCode } from './helpers/assert.ts';

// ---- the pure check -------------------------------------------------------

const TABLE: Array<[string, string | null]> = [
  // IPv4
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['100.128.0.1', null],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'metadata'],
  ['172.15.255.255', null],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.1', null],
  ['192.0.0.8', 'reserved'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmark'],
  ['198.19.255.255', 'benchmark'],
  ['198.20.0.1', null],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['8.8.8.8', null],
  ['1.1.1.1', null],
  ['93.184.215.14', null],
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['fd00:ec2::254', 'metadata'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['ff02::1', 'multicast'],
  ['2606:4700::1111', null],
  ['2001:4860:4860::8888', null],
  // IPv4 inside IPv6: mapped, NAT64, IPv4-compatible, 6to4
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:8.8.8.8', null],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::192.168.0.1', 'private'],
  ['64:ff9b::808:808', null],
  ['::127.0.0.1', 'loopback'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:a9fe:a9fe::1', 'metadata'],
  ['2002:808:808::1', null],
];

test('addressRange: v4, v6, and v4 embedded in v6, against the table', () => {
  for (const [ip, want] of TABLE) assert.equal(addressRange(ip), want, ip);
});

test('addressRange: a name is a TypeError, not an answer', () => {
  assert.throws(() => addressRange('example.com'), TypeError);
  assert.throws(() => addressRange(''), TypeError);
});

test('URL host forms (decimal, octal, hex, short, mapped) reach the check as dotted IPv4', () => {
  const refused: Array<[string, string]> = [
    ['http://2130706433/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://0/', 'unspecified'],
    ['http://0xa9fea9fe/', 'metadata'],
    ['http://2852039166/', 'metadata'],
    ['http://0251.0376.0251.0376/', 'metadata'],
    ['http://10.1/', 'private'],
    ['http://[::1]:8080/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', 'metadata'],
    ['http://[fd00:ec2::254]/latest/meta-data/', 'metadata'],
    ['http://localhost:3000/', 'loopback'],
    ['http://LOCALHOST./', 'loopback'],
    ['http://api.localhost/', 'loopback'],
  ];
  for (const [url, range] of refused) {
    const err = checkHostname(new URL(url).hostname);
    assert.ok(err instanceof PrivateAddressError, url);
    assert.equal(err.code, 'FC_PRIVATE_ADDRESS');
    assert.equal(err.range, range, url);
  }
  for (const url of ['http://8.8.8.8/', 'http://[2606:4700::1111]/', 'http://example.com/', 'http://localhost.example/', 'http://mylocalhost/']) {
    assert.equal(checkHostname(new URL(url).hostname), null, url);
  }
  assert.equal(isLocalhostName('foo.localhost'), true);
  assert.equal(isLocalhostName('localhostx'), false);
});

/** A resolver answering from a table; unknown names fail with ENOTFOUND. */
function fakeResolver(table: Record<string, string[]>): Resolver {
  return (hostname, _options, callback) => {
    const found = table[hostname];
    if (found === undefined) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      return;
    }
    callback(null, found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
}

const DNS = fakeResolver({
  'public.test': ['93.184.215.14', '2606:4700::1111'],
  'mixed.test': ['93.184.215.14', '10.0.0.7'],
  'meta.test': ['169.254.169.254'],
});

/** Call a LookupFunction and collect what it answers. */
function lookup(fn: ReturnType<typeof guardedLookup>, host: string, all: boolean): Promise<{ err: Error | null; address: unknown; family?: number }> {
  return new Promise((resolve) => fn(host, { all } as dns.LookupOptions, (err, address, family) => resolve({ err, address, family })));
}

test('guardedLookup: refuses when any address is forbidden, answers both lookup forms otherwise', async () => {
  const fn = guardedLookup(addressRange, DNS);
  const mixed = await lookup(fn, 'mixed.test', true);
  assert.ok(mixed.err instanceof PrivateAddressError);
  assert.equal(mixed.err.address, '10.0.0.7');
  assert.equal(mixed.err.range, 'private');
  assert.match(mixed.err.message, /mixed\.test \(10\.0\.0\.7\): private/);
  assert.equal(((await lookup(fn, 'meta.test', false)).err as PrivateAddressError).range, 'metadata');
  const all = await lookup(fn, 'public.test', true);
  assert.equal(all.err, null);
  assert.deepEqual(all.address, [{ address: '93.184.215.14', family: 4 }, { address: '2606:4700::1111', family: 6 }]);
  assert.deepEqual(await lookup(fn, 'public.test', false), { err: null, address: '93.184.215.14', family: 4 });
  const missing = await lookup(fn, 'nowhere.test', false);
  assert.equal((missing.err as NodeJS.ErrnoException).code, 'ENOTFOUND');
});

test('checkHost: names by their addresses, literals and localhost without DNS', async () => {
  assert.equal((await checkHost('mixed.test', addressRange, DNS))?.range, 'private');
  assert.equal(await checkHost('public.test', addressRange, DNS), null);
  assert.equal(await checkHost('nowhere.test', addressRange, DNS), null, 'an unresolvable name is the request\'s failure to report');
  const never: Resolver = () => assert.fail('no DNS for a literal or localhost');
  assert.equal((await checkHost('[::1]', addressRange, never))?.range, 'loopback');
  assert.equal((await checkHost('localhost', addressRange, never))?.range, 'loopback');
  assert.equal(await checkHost('8.8.8.8', addressRange, never), null);
});

// ---- the connection path, against loopback servers that count hits ---------

/** A server on `host` (127.0.0.1 or 127.0.0.2) counting requests; answers with `handler` or a small page. */
async function counter(
  t: TestContext,
  host: string,
  handler?: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ port: number; base: string; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (handler !== undefined) return handler(req, res);
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const port = (server.address() as AddressInfo).port;
  return { port, base: `http://${host}:${port}`, hits };
}

/** Loopback is reachable, but 127.0.0.2 stands for a forbidden address. */
const ONLY_127_0_0_2 = (ip: string): string | null => (ip === '127.0.0.2' ? 'loopback' : null);

function client(t: TestContext, opts: HttpClientOptions): HttpClient {
  const c = new HttpClient(opts);
  t.after(() => c.close());
  return c;
}

const MAX = 1 << 20;

test('HttpClient: a redirect to a forbidden address is refused, the target gets no request', async (t) => {
  const target = await counter(t, '127.0.0.2');
  const origin = await counter(t, '127.0.0.1', (req, res) => res.writeHead(302, { location: `${target.base}/secret` }).end());
  const c = client(t, { addressPolicy: ONLY_127_0_0_2 });
  // robots.txt path: getText follows redirects itself
  const err = await rejectsWithCode(c.getText(`${origin.base}/robots.txt`, { maxBytes: MAX }), 'FC_PRIVATE_ADDRESS');
  assert.ok(err instanceof PrivateAddressError && err.address === '127.0.0.2');
  // page path: the fetch stage follows redirects through get()
  const items: CrawlItem[] = [];
  const source = async function* (): AsyncGenerator<CrawlItem> {
    yield { entry: { url: `${origin.base}/page`, score: 0, depth: 0, parent: null } };
  };
  for await (const item of fetchStage(source(), { client: c, concurrency: 2, maxBytes: MAX })) items.push(item);
  assert.equal(items[0].error?.code, 'FC_PRIVATE_ADDRESS');
  // the pipeline's checkHop vets the hop with checkAddress before robots and get
  const vetted: CrawlItem[] = [];
  const checkHop = async (url: string) => {
    const refused = await c.checkAddress(url);
    return refused === null ? null : { code: refused.code, message: refused.message };
  };
  for await (const item of fetchStage(source(), { client: c, concurrency: 2, maxBytes: MAX, checkHop })) vetted.push(item);
  assert.equal(vetted[0].error?.code, 'FC_PRIVATE_ADDRESS');
  assert.deepEqual(target.hits, []);
  assert.deepEqual(origin.hits, ['/robots.txt', '/page', '/page']);
});

test('HttpClient: names are checked on every address they resolve to, at connect time', async (t) => {
  const allowed = await counter(t, '127.0.0.1');
  const forbidden = await counter(t, '127.0.0.2');
  const resolver = fakeResolver({ 'ok.test': ['127.0.0.1'], 'evil.test': ['127.0.0.2'], 'mixed.test': ['127.0.0.1', '127.0.0.2'] });
  const c = client(t, { addressPolicy: ONLY_127_0_0_2, resolver });
  const hop = await c.get(`http://ok.test:${allowed.port}/`, { maxBytes: MAX });
  assert.equal(hop.status, 200);
  // the coded error survives undici's connect path (not FC_NETWORK)
  const err = await rejectsWithCode(c.get(`http://mixed.test:${allowed.port}/`, { maxBytes: MAX }), 'FC_PRIVATE_ADDRESS');
  assert.match(err.message, /mixed\.test \(127\.0\.0\.2\)/);
  await rejectsWithCode(c.get(`http://evil.test:${forbidden.port}/`, { maxBytes: MAX }), 'FC_PRIVATE_ADDRESS');
  assert.equal((await c.checkAddress(`http://evil.test:${forbidden.port}/x`))?.code, 'FC_PRIVATE_ADDRESS');
  assert.equal(await c.checkAddress(`http://ok.test:${allowed.port}/x`), null);
  assert.deepEqual(allowed.hits, ['/']);
  assert.deepEqual(forbidden.hits, []);
});

test('toFetchError keeps a wrapped PrivateAddressError coded', () => {
  const inner = new PrivateAddressError('evil.test', '10.0.0.1', 'private');
  assert.equal(toFetchError(new Error('connect failed', { cause: inner })), inner);
  assert.equal(toFetchError(new Error('plain')).code, 'FC_NETWORK');
});

test('HttpClient: allowPrivate and proxy switch the guard off', async (t) => {
  const site = await counter(t, '127.0.0.1');
  const open = client(t, { allowPrivate: true });
  assert.equal((await open.get(`${site.base}/a`, { maxBytes: MAX })).status, 200);
  assert.equal(await open.checkAddress(`${site.base}/a`), null);
  // the proxy (on loopback itself) answers; a loopback target name is the proxy's business
  const proxy = await counter(t, '127.0.0.1');
  const proxied = client(t, { proxy: proxy.base });
  assert.equal((await proxied.get('http://127.0.0.1:9/b', { maxBytes: MAX })).status, 200);
  assert.equal((await proxied.get('http://localhost:9/c', { maxBytes: MAX })).status, 200);
  assert.deepEqual(site.hits, ['/a']);
  assert.deepEqual(proxy.hits, ['http://127.0.0.1:9/b', 'http://localhost:9/c']);
});

test('addressGuardStage: refused items get an error, others and already failed ones pass in order', async () => {
  const items: CrawlItem[] = ['http://a.test/', 'http://127.0.0.1/', 'http://b.test/'].map((url) => ({ entry: { url, score: 0, depth: 0, parent: null } }));
  items[2].error = { code: 'FC_NETWORK', message: 'earlier' };
  const checked: string[] = [];
  const check = async (url: string) => {
    checked.push(url);
    return checkHostname(new URL(url).hostname);
  };
  const source = async function* (): AsyncGenerator<CrawlItem> {
    yield* items;
  };
  const out: CrawlItem[] = [];
  for await (const item of addressGuardStage(source(), { check })) out.push(item);
  assert.deepEqual(out.map((i) => [i.entry.url, i.error?.code]), [
    ['http://a.test/', undefined],
    ['http://127.0.0.1/', 'FC_PRIVATE_ADDRESS'],
    ['http://b.test/', 'FC_NETWORK'],
  ]);
  assert.deepEqual(checked, ['http://a.test/', 'http://127.0.0.1/']);
});

// ---- the CLI ---------------------------------------------------------------

test('crawl: loopback seeds are refused by default with zero requests, and fetched with --allow-private', async (t) => {
  const site = await counter(t, '127.0.0.1');
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const seeds = [`${site.base}/`, `http://localhost:${site.port}/x`, `http://2130706433:${site.port}/y`, `http://[::1]:${site.port}/z`];
  const args = ['crawl', ...seeds.flatMap((s) => ['--seed', s]), '--delay-ms', '0', '--quiet'];
  const refused = await runMain([...args, '--store', path.join(dir, 'a')]);
  assert.equal(refused.code, 0, refused.stderr);
  const records = parseLines(refused.stdout);
  assert.equal(records.length, 4);
  for (const r of records) {
    assert.equal(r.type, 'error', JSON.stringify(r));
    assert.equal(r.code, 'FC_PRIVATE_ADDRESS');
    assert.match(r.message, /loopback/);
  }
  assert.deepEqual(site.hits, [], 'not even robots.txt');

  // [::1] is left out: the server listens on 127.0.0.1 only
  const reachable = seeds.slice(0, 3).flatMap((s) => ['--seed', s]);
  const allowed = await runMain(['crawl', ...reachable, '--delay-ms', '0', '--quiet', '--allow-private', '--store', path.join(dir, 'b')]);
  assert.equal(allowed.code, 0, allowed.stderr);
  const pages = parseLines(allowed.stdout).filter((r) => r.type === 'page');
  assert.deepEqual(pages.map((p) => p.url).sort(), [`${site.base}/`, `${site.base}/y`, `http://localhost:${site.port}/x`]);
  assert.deepEqual(site.hits.filter((h) => h !== '/robots.txt').sort(), ['/', '/x', '/y']);
});

test('crawl --proxy: the guard is off, the proxy on loopback resolves target names', async (t) => {
  const proxy = await counter(t, '127.0.0.1', (req, res) => {
    if (req.url?.endsWith('/robots.txt') === true) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>via proxy</p>');
  });
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runMain(['crawl', '--seed', 'http://127.0.0.1:9/', '--seed', 'http://localhost:9/', '--proxy', proxy.base, '--store', dir, '--delay-ms', '0', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const records = parseLines(r.stdout);
  assert.deepEqual(records.map((x) => [x.type, x.url]).sort(), [['page', 'http://127.0.0.1:9/'], ['page', 'http://localhost:9/']]);
  assert.ok(proxy.hits.includes('http://127.0.0.1:9/') && proxy.hits.includes('http://localhost:9/'));
});

// checkAddressNow lets the address-guard stage pass a known host at once (no
// promise, so nothing is pulled from the frontier ahead of need) and makes a
// new host's DNS lookup a slow call that does not hold up the next URL
// (issue 23 item 3).
test('HttpClient.checkAddressNow: at once for a settled check or with the guard off, a promise otherwise', async (t) => {
  const resolver = fakeResolver({ 'ok.test': ['127.0.0.1'], 'evil.test': ['127.0.0.2'] });
  const c = client(t, { addressPolicy: ONLY_127_0_0_2, resolver });
  const first = c.checkAddressNow('http://ok.test/a');
  assert.ok(first instanceof Promise);
  assert.equal(await first, null);
  assert.equal(c.checkAddressNow('http://ok.test/b'), null, 'settled: at once');
  assert.ok(c.checkAddressNow('http://evil.test/') instanceof Promise);
  await c.checkAddress('http://evil.test/');
  assert.equal((c.checkAddressNow('http://evil.test/x') as PrivateAddressError).code, 'FC_PRIVATE_ADDRESS');
  const off = client(t, { proxy: 'http://127.0.0.1:9/' });
  assert.equal(off.checkAddressNow('http://evil.test/'), null, 'behind a proxy the guard is off');
});
