// Sitemaps as a seed source (src/seeds/sitemap.ts): the streaming parser, gzip and
// its cap, indexes, the cross-host rule, and crawls seeded by --sitemap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { HttpClient } from '../src/fetch/http.ts';
import {
  loadSitemaps,
  parseSitemapText,
  readSitemapBytes,
  SitemapParser,
  sitemapsFromRobots,
  type SitemapFetch,
  type SitemapUrl,
} from '../src/seeds/sitemap.ts';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';

const SEED = 20261122;

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>http://a.example/one?x=1&amp;y=2</loc><lastmod>2005-01-01</lastmod><priority>0.8</priority></url>
  <url>
    <loc><![CDATA[http://a.example/two]]></loc>
    <image:image><image:loc>http://img.example/pic.jpg</image:loc></image:image>
  </url>
  <url><loc>/relative</loc><priority>7</priority></url>
  <url><loc>mailto:x@a.example</loc></url>
  <url><lastmod>2005</lastmod></url>
</urlset>`;

const INDEX = `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://a.example/s1.xml</loc><lastmod>2004-10-01</lastmod></sitemap>
<sitemap><loc>http://a.example/s2.xml.gz</loc></sitemap></sitemapindex>`;

test('urlset: loc, lastmod, priority; entities, CDATA, relative locs; extension locs ignored', () => {
  const r = parseSitemapText(URLSET, { base: 'http://a.example/sitemap.xml' });
  assert.equal(r.kind, 'urlset');
  assert.deepEqual(r.urls, [
    { url: 'http://a.example/one?x=1&y=2', lastmod: '2005-01-01', priority: 0.8 },
    { url: 'http://a.example/two' },
    { url: 'http://a.example/relative' },
  ]);
  assert.equal(r.invalid, 2, 'mailto: and a missing <loc>');
  assert.deepEqual(r.sitemaps, []);
});

test('sitemapindex: nested sitemap locs', () => {
  const r = parseSitemapText(INDEX);
  assert.equal(r.kind, 'sitemapindex');
  assert.deepEqual(r.sitemaps, ['http://a.example/s1.xml', 'http://a.example/s2.xml.gz']);
  assert.deepEqual(r.urls, []);
});

test('plain-text sitemap: one URL a line, comments and blanks skipped, bad lines counted', () => {
  const r = parseSitemapText('\uFEFFhttp://a.example/1\r\n\n# comment\nhttps://a.example/2 \nnot a url\nftp://a.example/x\nhttp://a.example/3');
  assert.equal(r.kind, 'text');
  assert.deepEqual(r.urls.map((u) => u.url), ['http://a.example/1', 'https://a.example/2', 'http://a.example/3']);
  assert.equal(r.invalid, 2);
});

test('malformed XML: entries before the damage are kept, a cut-off <loc> is not taken', () => {
  const cut = URLSET.slice(0, URLSET.indexOf('/two]]>'));
  const r = parseSitemapText(cut);
  assert.deepEqual(r.urls.map((u) => u.url), ['http://a.example/one?x=1&y=2']);
  const junk = parseSitemapText('<urlset><url><loc>http://a.example/ok</loc></url><url><loc>http://a.example/b</lo></url><<<&&& </urlset>');
  assert.ok(junk.urls.some((u) => u.url === 'http://a.example/ok'));
  assert.throws(() => parseSitemapText('<html><body><a href="http://a.example/">x</a></body></html>'), { code: 'FC_SITEMAP' });
  assert.throws(() => parseSitemapText('<?xml version="1.0"?>'), { code: 'FC_SITEMAP' });
});

test('caps: URLs past maxUrls are counted, not kept; an overlong <loc> is invalid', () => {
  const many = `<urlset>${Array.from({ length: 30 }, (_, i) => `<url><loc>http://a.example/${i}</loc></url>`).join('')}</urlset>`;
  const r = parseSitemapText(many, { maxUrls: 10 });
  assert.equal(r.urls.length, 10);
  assert.equal(r.overCap, 20);
  const long = parseSitemapText(`<urlset><url><loc>http://a.example/${'x'.repeat(5000)}</loc></url></urlset>`);
  assert.equal(long.urls.length, 0);
  assert.equal(long.invalid, 1);
});

const DOCS = [
  URLSET,
  INDEX,
  'http://a.example/1\nhttp://a.example/2\r\n# c\n  \nbad\n',
  URLSET.slice(0, 300),
  '<urlset><url><loc>http://a.example/é?q=&#233;</loc></url><url><loc>http://a.example/中文</loc></url></urlset>',
];

test('one character (or byte) at a time gives the same result as the whole document', async () => {
  fc.assert(
    fc.property(fc.constantFrom(...DOCS), fc.array(fc.nat(), { maxLength: 20 }), (doc, cuts) => {
      const whole = parseSitemapText(doc);
      const points = [...new Set(cuts.map((c) => c % (doc.length + 1)))].sort((a, b) => a - b);
      const p = new SitemapParser();
      let last = 0;
      for (const c of points) {
        p.write(doc.slice(last, c));
        last = c;
      }
      p.write(doc.slice(last));
      assert.deepEqual(p.end(), whole);
    }),
    { seed: SEED, numRuns: 200 },
  );
  for (const doc of DOCS) {
    const whole = parseSitemapText(doc);
    const p = new SitemapParser();
    for (const ch of doc) p.write(ch);
    assert.deepEqual(p.end(), whole, 'one character at a time');
    const bytes = Buffer.from(doc);
    const oneByte = [...bytes].map((b) => Buffer.from([b]));
    assert.deepEqual(await readSitemapBytes(oneByte), whole, 'one byte at a time (UTF-8 split inside characters)');
    const gz = zlib.gzipSync(bytes);
    assert.deepEqual(await readSitemapBytes([...gz].map((b) => Buffer.from([b]))), whole, 'gzip, one byte at a time');
  }
});

test('gzip: decompressed by its magic bytes; a gzip bomb is FC_CAP_EXCEEDED; corrupt gzip is FC_SITEMAP', async () => {
  const r = await readSitemapBytes([zlib.gzipSync(URLSET)], { base: 'http://a.example/s.xml' });
  assert.equal(r.urls.length, 3);
  const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, '<'));
  assert.ok(bomb.length < 100 * 1024);
  await assert.rejects(readSitemapBytes([bomb], { maxBytes: 1024 * 1024 }), { code: 'FC_CAP_EXCEEDED' });
  // also with the default cap (50 MiB): the bomb stops there, it is never inflated whole
  await assert.rejects(readSitemapBytes([bomb]), { code: 'FC_CAP_EXCEEDED' });
  const broken = zlib.gzipSync(URLSET);
  broken[broken.length - 6] ^= 0xff; // CRC
  await assert.rejects(readSitemapBytes([broken]), { code: 'FC_SITEMAP' });
  await assert.rejects(readSitemapBytes([Buffer.from(URLSET)], { maxBytes: 100 }), { code: 'FC_CAP_EXCEEDED' });
});

test('loader: cross-host entries dropped unless a robots.txt of that host lists the sitemap', async () => {
  const docs: Record<string, string> = {
    'http://a.example/s.xml': '<urlset><url><loc>http://a.example/1</loc></url><url><loc>http://b.example/2</loc></url><url><loc>http://a.example:8080/3</loc></url></urlset>',
    'http://a.example/index.xml': '<sitemapindex><sitemap><loc>http://c.example/s.xml</loc></sitemap><sitemap><loc>http://a.example/s.xml</loc></sitemap></sitemapindex>',
  };
  const fetch: SitemapFetch = async (url) =>
    docs[url] === undefined ? { status: 404, location: null, body: null, truncated: false } : { status: 200, location: null, body: Buffer.from(docs[url]), truncated: false };
  const got: SitemapUrl[] = [];
  const r = await loadSitemaps(['http://a.example/index.xml'], { fetch, onUrls: (u) => void got.push(...u) });
  assert.deepEqual(got.map((u) => u.url), ['http://a.example/1']);
  assert.equal(got[0].sitemap, 'http://a.example/s.xml');
  assert.equal(r.crossHost, 3, 'c.example sitemap, b.example and a.example:8080 entries');
  assert.equal(r.sitemaps, 2);
  const granted = new Map([['http://a.example/s.xml', new Set(['b.example'])]]);
  const got2: SitemapUrl[] = [];
  const r2 = await loadSitemaps(['http://a.example/s.xml'], { fetch, granted, onUrls: (u) => void got2.push(...u) });
  assert.deepEqual(got2.map((u) => u.url), ['http://a.example/1', 'http://b.example/2']);
  assert.equal(r2.crossHost, 1);
  const r3 = await loadSitemaps(['http://a.example/missing.xml'], { fetch, onUrls: () => {} });
  assert.deepEqual(r3.failed.map((f) => f.code), ['FC_SITEMAP']);
  const found = await sitemapsFromRobots(['http://b.example'], async () => ({ status: 200, body: 'User-agent: *\nDisallow: /x\nSitemap: http://a.example/s.xml\n' }));
  assert.deepEqual([...found].map(([k, v]) => [k, [...v]]), [['http://a.example/s.xml', ['b.example']]]);
});

/** A local web with sitemaps; `hits` counts requests by path. */
async function sitemapWeb(t: import('node:test').TestContext): Promise<{ base: string; hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  let base = '';
  const routes: Record<string, () => { type: string; body: Buffer | string; headers?: Record<string, string> }> = {
    '/robots.txt': () => ({ type: 'text/plain', body: `User-agent: *\nDisallow: /private/\nSitemap: ${base}/index.xml\n` }),
    '/index.xml': () => ({
      type: 'application/xml',
      body: `<sitemapindex><sitemap><loc>${base}/s1.xml</loc></sitemap><sitemap><loc>${base}/s2.xml.gz</loc></sitemap></sitemapindex>`,
    }),
    '/s1.xml': () => ({
      type: 'application/xml',
      body: `<urlset><url><loc>${base}/a</loc></url><url><loc>${base}/private/p</loc></url><url><loc>${base.replace('127.0.0.1', 'localhost')}/x</loc></url></urlset>`,
    }),
    '/s2.xml.gz': () => ({ type: 'application/x-gzip', body: zlib.gzipSync(`${base}/b\n${base}/a/a/a/a/trap\n`) }),
    '/bomb.xml.gz': () => ({ type: 'application/x-gzip', body: zlib.gzipSync(Buffer.alloc(60 * 1024 * 1024, ' ')) }),
    '/encoded.xml': () => ({ type: 'application/xml', body: zlib.gzipSync(`<urlset><url><loc>${base}/b</loc></url></urlset>`), headers: { 'content-encoding': 'gzip' } }),
    '/moved.xml': () => ({ type: 'text/html', body: '', headers: { location: '/s1.xml' } }),
    '/': () => ({ type: 'text/html', body: '<p>home</p>' }),
    '/a': () => ({ type: 'text/html', body: '<p>page a</p><a href="/c">c</a>' }),
    '/b': () => ({ type: 'text/html', body: '<p>page b</p>' }),
    '/c': () => ({ type: 'text/html', body: '<p>page c</p>' }),
  };
  const server = http.createServer((req, res) => {
    const p = req.url ?? '/';
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const route = routes[p];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const r = route();
    res.writeHead(r.headers?.location !== undefined ? 301 : 200, { 'content-type': r.type, ...r.headers }).end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, hits };
}

function httpFetch(client: HttpClient): SitemapFetch {
  return async (url, maxBytes) => {
    const hop = await client.get(url, { maxBytes, accept: 'any' });
    return { status: hop.status, location: hop.location, body: hop.body, truncated: hop.truncated };
  };
}

test('loader over HTTP: index -> 2 sitemaps (one gzip), redirects, Content-Encoding, bomb, 404', async (t) => {
  const { base } = await sitemapWeb(t);
  const client = new HttpClient({ allowPrivate: true });
  t.after(() => client.close());
  const got: SitemapUrl[] = [];
  const r = await loadSitemaps([`${base}/index.xml`, `${base}/moved.xml`, `${base}/encoded.xml`, `${base}/bomb.xml.gz`, `${base}/nope.xml`], {
    fetch: httpFetch(client),
    onUrls: (u) => void got.push(...u),
    maxBytes: 8 * 1024 * 1024,
  });
  assert.deepEqual(got.map((u) => new URL(u.url).pathname), [
    '/a', '/private/p', // /moved.xml -> /s1.xml
    '/b', // encoded.xml
    '/a', '/private/p', // s1.xml, via the index
    '/b', '/a/a/a/a/trap', // s2.xml.gz, via the index
  ]);
  assert.equal(r.crossHost, 2, 'localhost entries of s1.xml (read twice)');
  assert.deepEqual(
    r.failed.map((f) => [new URL(f.sitemap).pathname, f.code]),
    [['/bomb.xml.gz', 'FC_CAP_EXCEEDED'], ['/nope.xml', 'FC_SITEMAP']],
  );
});

const crawl = (store: string, ...more: string[]) => ['crawl', '--store', store, '--allow-private', '--delay-ms', '0', '--concurrency', '1', ...more];

test('crawl seeded only by --sitemap: URLs at depth 1, robots and trap rules apply, cross-host dropped', async (t) => {
  const { base, hits } = await sitemapWeb(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runMain(crawl(path.join(dir, 's'), '--sitemap', `${base}/index.xml`));
  assert.equal(r.code, 0, r.stderr);
  const records = parseLines(r.stdout);
  const byPath = new Map(records.map((x) => [new URL(x.url).pathname, x]));
  assert.deepEqual([...byPath.keys()].sort(), ['/a', '/b', '/c', '/private/p']);
  assert.equal(byPath.get('/a').depth, 1);
  assert.equal(byPath.get('/a').parent, `${base}/s1.xml`);
  assert.equal(byPath.get('/b').parent, `${base}/s2.xml.gz`);
  assert.equal(byPath.get('/c').depth, 2);
  assert.equal(byPath.get('/private/p').code, 'FC_ROBOTS_DISALLOWED');
  assert.equal(hits.get('/private/p'), undefined);
  assert.equal(hits.get('/a/a/a/a/trap'), undefined, 'trap rule');
  assert.equal(hits.get('/'), undefined, 'no seed but the sitemap');
  assert.match(r.stderr, /sitemaps: 3 sitemaps read, 4 URLs listed, 3 queued, 1 cross-host dropped, 1 dropped by trap rules/);
});

test('crawl: --sitemap FILE (gzip) and --sitemaps-from-robots; a missing file is exit 2', async (t) => {
  const { base, hits } = await sitemapWeb(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const file = path.join(dir, 'list.txt.gz');
  // a local file may list any host (the user vouches for it)
  await writeFile(file, zlib.gzipSync(`${base}/b\n${base.replace('127.0.0.1', 'localhost')}/c\n`));
  const r = await runMain(crawl(path.join(dir, 's1'), '--sitemap', file, '--max-depth', '1'));
  assert.equal(r.code, 0, r.stderr);
  const urls = parseLines(r.stdout).map((x) => x.url);
  assert.deepEqual(urls, [`${base}/b`, `${base.replace('127.0.0.1', 'localhost')}/c`]);
  const r2 = await runMain(crawl(path.join(dir, 's2'), '--seed', `${base}/`, '--sitemaps-from-robots'));
  assert.equal(r2.code, 0, r2.stderr);
  const paths = parseLines(r2.stdout).map((x) => new URL(x.url).pathname);
  assert.deepEqual(paths[0], '/', 'the seed comes first');
  assert.deepEqual(new Set(paths), new Set(['/', '/a', '/b', '/c', '/private/p']));
  assert.ok((hits.get('/index.xml') ?? 0) >= 1);
  const missing = await runMain(crawl(path.join(dir, 's3'), '--sitemap', path.join(dir, 'nope.xml')));
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /FC_USAGE: --sitemap .*nope\.xml/);
});

test('loader: an abort (Ctrl-C) stops reading sitemaps and returns what it has', async () => {
  const ac = new AbortController();
  let calls = 0;
  const fetch: SitemapFetch = async (url, _max, signal) => {
    calls++;
    if (url.endsWith('/1.xml')) return { status: 200, location: null, body: Buffer.from('http://a.example/x\n'), truncated: false };
    ac.abort();
    signal?.throwIfAborted();
    return { status: 200, location: null, body: Buffer.from('http://a.example/y\n'), truncated: false };
  };
  const got: SitemapUrl[] = [];
  const r = await loadSitemaps(['http://a.example/1.xml', 'http://a.example/2.xml', 'http://a.example/3.xml'], {
    fetch,
    signal: ac.signal,
    onUrls: (u) => void got.push(...u),
  });
  assert.deepEqual(got.map((u) => u.url), ['http://a.example/x']);
  assert.equal(calls, 2, 'nothing is fetched after the abort');
  assert.deepEqual(r.failed, []);
});
