/**
 * --warc-out: the WARC writer (src/output/warc.ts), the stage that feeds it
 * (src/stages/warc-out.ts), a crawl of a live server that sends gzip and
 * chunked answers, and the round trip crawl -> WARC -> replay -> crawl on
 * the bundled fixture web.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gzipSync, gunzipSync } from 'node:zlib';
import { WARCParser } from 'warcio';
import { createReplayServer } from '../src/replay/server.ts';
import { buildIndex, readResponse } from '../src/replay/warc-index.ts';
import { exchangesOf, warcOutStage } from '../src/stages/warc-out.ts';
import { pageFilePath } from '../src/stages/pages-out.ts';
import type { CrawlItem, FetchResult } from '../src/types.ts';
import { archivedResponseHeaders, WarcWriter, type WarcPage } from '../src/output/warc.ts';
import { fixtureReplay, parseLines, ROOT, spawnCli, tempDir, runMain } from './helpers/cli.ts';
import { serve } from './helpers/serve.ts';

const execFileAsync = promisify(execFile);

interface ParsedRecord {
  type: string;
  url: string | null;
  warc: Map<string, string>;
  statusline: string | null;
  http: Map<string, string>;
  /** the whole block (HTTP header block + payload) */
  block: Buffer;
  /** byte offset and length of the gzip member */
  offset: number;
  length: number;
}

/** Every record of a WARC file, via warcio's parser (block read raw, HTTP headers parsed from it). */
async function readWarc(file: string, out: ParsedRecord[] = []): Promise<ParsedRecord[]> {
  const parser = new WARCParser(createReadStream(file), { parseHttp: false, keepHeadersCase: true });
  for await (const record of parser) {
    const block = Buffer.from(await record.readFully());
    const warc = new Map<string, string>();
    for (const [k, v] of record.warcHeaders.headers) warc.set(k, v);
    let statusline: string | null = null;
    const http = new Map<string, string>();
    if (record.warcType === 'response' || record.warcType === 'request') {
      const end = block.indexOf('\r\n\r\n');
      const lines = block.subarray(0, end).toString('utf8').split('\r\n');
      statusline = lines[0];
      for (const line of lines.slice(1)) {
        const i = line.indexOf(':');
        http.set(line.slice(0, i), line.slice(i + 1).trim());
      }
    }
    out.push({ type: record.warcType ?? '', url: record.warcTargetURI ?? null, warc, statusline, http, block, offset: parser.offset, length: parser.recordLength });
  }
  return out;
}

/** The payload of a response/request record (after the HTTP header block). */
function payloadOf(r: ParsedRecord): Buffer {
  return r.block.subarray(r.block.indexOf('\r\n\r\n') + 4);
}

function sha256(b: Buffer): string {
  return `sha256:${createHash('sha256').update(b).digest('hex')}`;
}

function page(url: string, body: string | null, extra: Partial<WarcPage['exchanges'][0]> = {}): WarcPage {
  return {
    exchanges: [{
      url,
      date: '2026-01-02T03:04:05.678Z',
      requestHeaders: { host: new URL(url).host, 'user-agent': 'test-agent' },
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'transfer-encoding': 'chunked', 'content-length': '17', server: 'x' },
      body: body === null ? null : Buffer.from(body, 'utf8'),
      ...extra,
    }],
    metadata: { score: 1.5, relevance: 0.25, relevant: false, depth: 2, parent: 'http://a.example/', strategy: 'best-first' },
  };
}

test('archivedResponseHeaders renames the transport headers and writes the real Content-Length', () => {
  assert.deepEqual(
    archivedResponseHeaders({ 'content-type': 'text/html', 'content-encoding': 'br', 'transfer-encoding': 'chunked', 'content-length': '99', etag: '"x"' }, 1234),
    [
      ['Content-Type', 'text/html'],
      ['X-Crawler-Content-Encoding', 'br'],
      ['X-Crawler-Transfer-Encoding', 'chunked'],
      ['X-Crawler-Content-Length', '99'],
      ['Etag', '"x"'],
      ['Content-Length', '1234'],
    ],
  );
});

test('writer: records are WARC/1.1, one gzip member each, headers renamed, digests right, .open renamed on close', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const w = await WarcWriter.create({ dir, info: { software: 'focuscrawl/test' } });
  assert.deepEqual(await readdir(dir), [], 'no file before the first page');
  const body = '<html><title>Héllo</title>' + 'x'.repeat(500) + '</html>';
  await w.writePage(page('http://a.example/p?q=1', body));
  await w.writePage(page('http://a.example/cut', 'partial', { truncated: 'length' }));
  const open = await readdir(dir);
  assert.equal(open.length, 1);
  assert.match(open[0], /^focuscrawl-\d{17}-00000\.warc\.gz\.open$/);
  await w.close();
  await w.close(); // idempotent
  const names = await readdir(dir);
  assert.deepEqual(names, [open[0].replace(/\.open$/, '')]);
  assert.deepEqual(w.files, [path.join(dir, names[0])]);

  const file = path.join(dir, names[0]);
  const raw = await readFile(file);
  assert.equal(w.bytes, raw.length);
  const records = await readWarc(file);
  assert.deepEqual(records.map((r) => r.type), ['warcinfo', 'request', 'response', 'metadata', 'request', 'response', 'metadata']);
  // each record is its own gzip member: the slice inflates alone to exactly one record
  for (const r of records) {
    const member = gunzipSync(raw.subarray(r.offset, r.offset + r.length)).toString('latin1');
    assert.ok(member.startsWith('WARC/1.1\r\n'), `member at ${r.offset}`);
    assert.equal(member.split('WARC/1.1\r\nWARC-Record-ID').length, 2, 'one record per member');
  }
  const info = records[0];
  assert.match(info.block.toString(), /^software: focuscrawl\/test\r\nformat: WARC File Format 1\.1\r\n/);
  assert.equal(info.warc.get('WARC-Filename'), names[0]);
  const [req, res, meta] = records.slice(1, 4);
  for (const r of records.slice(1)) {
    assert.equal(r.warc.get('WARC-Warcinfo-ID'), info.warc.get('WARC-Record-ID'));
    assert.equal(r.warc.get('WARC-Block-Digest'), sha256(r.block), `block digest of ${r.type}`);
  }
  assert.equal(req.statusline, 'GET /p?q=1 HTTP/1.1');
  assert.equal(req.http.get('User-Agent'), 'test-agent');
  assert.equal(req.warc.get('WARC-Concurrent-To'), res.warc.get('WARC-Record-ID'));
  assert.equal(res.url, 'http://a.example/p?q=1');
  assert.equal(res.warc.get('WARC-Date'), '2026-01-02T03:04:05.678Z');
  assert.equal(res.warc.get('Content-Type'), 'application/http; msgtype=response');
  assert.equal(res.statusline, 'HTTP/1.1 200 OK');
  assert.equal(res.http.get('X-Crawler-Content-Encoding'), 'gzip');
  assert.equal(res.http.get('X-Crawler-Transfer-Encoding'), 'chunked');
  assert.equal(res.http.get('X-Crawler-Content-Length'), '17');
  assert.equal(res.http.has('Content-Encoding'), false);
  assert.equal(res.http.has('Transfer-Encoding'), false);
  assert.equal(res.http.get('Content-Length'), String(Buffer.byteLength(body)), 'the real, decoded length');
  assert.equal(payloadOf(res).toString('utf8'), body);
  assert.equal(res.warc.get('WARC-Payload-Digest'), sha256(Buffer.from(body)));
  assert.equal(res.warc.has('WARC-Truncated'), false);
  assert.equal(records[5].warc.get('WARC-Truncated'), 'length');
  assert.equal(meta.warc.get('Content-Type'), 'application/warc-fields');
  assert.equal(meta.warc.get('WARC-Concurrent-To'), res.warc.get('WARC-Record-ID'));
  assert.equal(meta.warc.get('WARC-Refers-To'), res.warc.get('WARC-Record-ID'));
  assert.equal(meta.block.toString(), 'score: 1.5\r\nrelevance: 0.25\r\nrelevant: false\r\ndepth: 2\r\nparent: http://a.example/\r\nstrategy: best-first\r\n');

  // the replay index reads the file (it insists on one gzip member per record) and serves the decoded body
  const index = await buildIndex([file]);
  assert.equal(index.entries.size, 2);
  const served = await readResponse(index, 'http://a.example/p?q=1');
  assert.equal(served?.status, 200);
  assert.equal(served?.body.toString('utf8'), body);
});

test('writer: rolls over by size; every file starts with its own warcinfo; a page never splits', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const w = await WarcWriter.create({ dir, maxSize: 3000, now: () => new Date('2026-03-04T05:06:07.089Z') });
  const body = (i: number): string => `<html><title>p${i}</title>${createHash('sha256').update(String(i)).digest('hex').repeat(8)}</html>`;
  for (let i = 0; i < 12; i++) await w.writePage(page(`http://a.example/p${i}`, body(i)));
  await w.close();
  const names = (await readdir(dir)).sort();
  assert.ok(names.length >= 3, `several files: ${names.join(' ')}`);
  assert.deepEqual(names, names.map((_n, i) => `focuscrawl-20260304050607089-${String(i).padStart(5, '0')}.warc.gz`));
  const seen: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const records = await readWarc(file);
    assert.equal(records[0].type, 'warcinfo', `${name} opens with warcinfo`);
    assert.equal(records.filter((r) => r.type === 'warcinfo').length, 1);
    assert.equal((records.length - 1) % 3, 0, 'whole pages only (request, response, metadata)');
    for (const r of records.slice(1)) assert.equal(r.warc.get('WARC-Warcinfo-ID'), records[0].warc.get('WARC-Record-ID'));
    for (const r of records) if (r.type === 'response') seen.push(payloadOf(r).toString('utf8'));
    const size = (await readFile(file)).length;
    assert.ok(size <= 3000 || records.length === 4, `${name}: ${size} bytes`);
  }
  assert.deepEqual(seen, Array.from({ length: 12 }, (_v, i) => body(i)));
});

test('writer: an unusable directory is FC_WARC', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const file = path.join(dir, 'a-file');
  await writeFile(file, 'x');
  await assert.rejects(WarcWriter.create({ dir: file }), { code: 'FC_WARC' });
  await assert.rejects(WarcWriter.create({ dir: path.join(file, 'sub') }), { code: 'FC_WARC' });
});

test('writer: a write cut short by the file size limit fails with FC_WARC and stays failed; the file keeps .open', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const script = path.join(dir, 'fill.mts');
  await writeFile(
    script,
    `import { WarcWriter } from ${JSON.stringify(path.join(ROOT, 'src', 'output', 'warc.ts'))};\n` +
      `const w = await WarcWriter.create({ dir: process.argv[2] });\n` +
      `const body = Buffer.from(Array.from({ length: 3000 }, (_v, i) => String((i * 7919) % 10007)).join(' '));\n` +
      `let ok = 0; let code = null; let again = null;\n` +
      `const page = (i) => ({ exchanges: [{ url: 'http://a.example/' + i, date: new Date().toISOString(), requestHeaders: {}, status: 200, headers: {}, body }] });\n` +
      `try { for (;;) { await w.writePage(page(ok)); ok++; } } catch (e) { code = e.code; }\n` +
      `try { await w.writePage(page(0)); } catch (e) { again = e.code; }\n` +
      `await w.close();\n` +
      `console.log(JSON.stringify({ ok, code, again }));\n`,
  );
  const out = path.join(dir, 'warcs');
  // 64 KiB per file; SIGXFSZ ignored, so a write past the limit is short or fails with EFBIG
  const { stdout } = await execFileAsync('bash', ['-c', 'trap "" XFSZ; ulimit -f 64; exec "$@"', 'bash', process.execPath, '--import', 'tsx', script, out], { cwd: ROOT });
  const { ok, code, again } = JSON.parse(stdout) as { ok: number; code: string; again: string };
  assert.equal(code, 'FC_WARC');
  assert.equal(again, 'FC_WARC');
  assert.ok(ok > 0);
  const names = await readdir(out);
  assert.equal(names.length, 1);
  assert.match(names[0], /\.warc\.gz\.open$/, 'an incomplete file is not renamed');
  const records: ParsedRecord[] = [];
  await readWarc(path.join(out, names[0]), records).catch(() => {});
  assert.equal(records.filter((r) => r.type === 'response').length, ok, 'every page whose write resolved is readable');
});

function fetchResult(over: Partial<FetchResult>): FetchResult {
  return {
    url: 'http://a.example/x', finalUrl: 'http://a.example/x', redirects: ['http://a.example/x'], status: 200,
    headers: { 'content-type': 'text/html' }, contentType: 'text/html', headerCharset: null, body: Buffer.from('abc'),
    bytes: 3, truncated: false, fetchedAt: '2026-01-01T00:00:00.000Z', ms: 5, replay: false, ...over,
  };
}

test('exchangesOf: redirect hops first with empty bodies, the final answer with its body; truncation marked', () => {
  const hopHeaders = { location: '/y', 'content-length': '20' };
  const finalHeaders = { 'content-type': 'text/html' };
  const f = fetchResult({
    url: 'http://a.example/x', finalUrl: 'http://a.example/y', redirects: ['http://a.example/x', 'http://a.example/y'],
    headers: finalHeaders, body: Buffer.alloc(100, 97), bytes: 100, truncated: true,
    hops: [
      { url: 'http://a.example/x', status: 301, headers: hopHeaders, fetchedAt: '2026-01-01T00:00:00.000Z' },
      { url: 'http://a.example/y', status: 200, headers: finalHeaders, fetchedAt: '2026-01-01T00:00:00.010Z' },
    ],
  });
  const ex = exchangesOf(f, { maxBytes: 100, userAgent: 'ua' });
  assert.equal(ex.length, 2);
  assert.deepEqual([ex[0].url, ex[0].status, ex[0].body, ex[0].truncated, ex[0].date], ['http://a.example/x', 301, null, 'length', '2026-01-01T00:00:00.000Z']);
  assert.deepEqual([ex[1].url, ex[1].status, ex[1].body?.length, ex[1].truncated, ex[1].date], ['http://a.example/y', 200, 100, 'length', '2026-01-01T00:00:00.010Z']);
  assert.equal(ex[1].requestHeaders['User-Agent'], 'ua');
  assert.equal(ex[1].requestHeaders.Host, 'a.example');
  // a body not kept (a type focuscrawl does not parse) is stored empty and marked; an announced empty body is not
  assert.equal(exchangesOf(fetchResult({ body: null, bytes: 0, headers: { 'content-type': 'image/png' } }), { maxBytes: 9 })[0].truncated, 'length');
  assert.equal(exchangesOf(fetchResult({ body: null, bytes: 0, headers: { 'content-length': '0' } }), { maxBytes: 9 })[0].truncated, null);
  assert.equal(exchangesOf(fetchResult({ body: null, bytes: 0, status: 304 }), { maxBytes: 9 })[0].truncated, null);
  // cut by a corrupt compressed stream, not the cap
  assert.equal(exchangesOf(fetchResult({ truncated: true }), { maxBytes: 9 })[0].truncated, 'unspecified');
});

test('warcOutStage: writes before yielding, drops the body after, passes unfetched items through', async () => {
  const written: WarcPage[] = [];
  const order: string[] = [];
  const writer = {
    writePage: async (p: WarcPage): Promise<number> => {
      await new Promise((r) => setTimeout(r, 5));
      written.push(p);
      order.push(`write ${p.exchanges[0].url}`);
      return 1;
    },
  };
  const items: CrawlItem[] = [
    { entry: { url: 'http://a.example/x', score: 2, depth: 1, parent: 'http://a.example/' }, fetch: fetchResult({}), relevance: 0.5, relevant: true },
    { entry: { url: 'http://a.example/r', score: 1, depth: 1, parent: null }, error: { code: 'FC_ROBOTS_DISALLOWED', message: 'no' } },
    {
      entry: { url: 'http://a.example/d', score: 1, depth: 1, parent: null }, error: { code: 'FC_REDIRECT_SEEN', message: 'seen' },
      refusedHops: [{ url: 'http://a.example/d', status: 301, headers: { location: '/d/' }, fetchedAt: '2026-01-01T00:00:00.000Z' }],
    },
  ];
  async function* source(): AsyncGenerator<CrawlItem> {
    yield* items;
  }
  for await (const item of warcOutStage(source(), { writer, strategy: 'bfs', maxBytes: 1000 })) {
    order.push(`yield ${item.entry.url}`);
    if (item.fetch) assert.equal(item.fetch.body, null, 'body dropped after writing');
  }
  assert.deepEqual(order, ['write http://a.example/x', 'yield http://a.example/x', 'yield http://a.example/r', 'write http://a.example/d', 'yield http://a.example/d']);
  assert.deepEqual(written[0].metadata, { url: 'http://a.example/x', score: 2, relevance: 0.5, relevant: true, depth: 1, parent: 'http://a.example/', strategy: 'bfs', title: null, error: null });
  assert.equal(written[0].exchanges[0].body?.toString(), 'abc');
  assert.equal(written[1].exchanges[0].status, 301);
  assert.equal(written[1].metadata?.error, 'FC_REDIRECT_SEEN');
});

test('crawl --warc-out: a gzip, chunked answer is stored decoded with X-Crawler-* headers; redirects and the byte cap', async (t) => {
  const html = (title: string, links: string): string => `<html><head><title>${title}</title></head><body>${links}${'<p>filler text</p>'.repeat(40)}</body></html>`;
  const base = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(404).end();
    } else if (req.url === '/') {
      const gz = gzipSync(html('Home', '<a href="/old">old</a> <a href="/big">big</a> <a href="/img">img</a>'));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' });
      res.write(gz.subarray(0, 10));
      res.end(gz.subarray(10));
    } else if (req.url === '/old') {
      res.writeHead(301, { location: '/new', 'content-type': 'text/html', 'content-length': '9' }).end('moved....');
    } else if (req.url === '/new') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(html('New', ''));
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(html('Big', '') + 'y'.repeat(5000));
    } else if (req.url === '/img') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' }).end('\x89PNG');
    } else res.writeHead(404).end();
  });
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const out = path.join(dir, 'warcs');
  const r = await runMain(['crawl', '--seed', `${base}/`, '--allow-private', '--store', path.join(dir, 'store'), '--delay-ms', '0',
    '--max-bytes', '3000', '--warc-out', out, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const recs = parseLines(r.stdout);
  assert.equal(recs.length, 4, r.stdout);
  const names = await readdir(out);
  assert.equal(names.length, 1);
  assert.match(names[0], /\.warc\.gz$/, 'closed file, no .open left');
  const records = await readWarc(path.join(out, names[0]));
  const responses = new Map(records.filter((x) => x.type === 'response').map((x) => [x.url, x]));
  assert.deepEqual([...responses.keys()].sort(), [`${base}/`, `${base}/big`, `${base}/img`, `${base}/new`, `${base}/old`].sort());
  const home = responses.get(`${base}/`)!;
  assert.equal(home.http.get('X-Crawler-Content-Encoding'), 'gzip');
  assert.equal(home.http.get('X-Crawler-Transfer-Encoding'), 'chunked');
  assert.equal(home.http.has('Content-Encoding'), false);
  assert.equal(home.http.get('Content-Length'), String(payloadOf(home).length));
  assert.match(payloadOf(home).toString('utf8'), /^<html><head><title>Home<\/title>/);
  const old = responses.get(`${base}/old`)!;
  assert.equal(old.statusline, 'HTTP/1.1 301 Moved Permanently');
  assert.equal(old.http.get('Location'), '/new');
  assert.equal(old.warc.get('WARC-Truncated'), 'length', 'the redirect body was not read');
  assert.equal(old.http.get('X-Crawler-Content-Length'), '9');
  assert.equal(payloadOf(old).length, 0);
  const big = responses.get(`${base}/big`)!;
  assert.equal(big.warc.get('WARC-Truncated'), 'length');
  assert.equal(payloadOf(big).length, 3000);
  assert.equal(recs.find((x) => x.url === `${base}/big`).truncated, true);
  assert.equal(responses.get(`${base}/img`)!.warc.get('WARC-Truncated'), 'length', 'a body focuscrawl does not read');
  // one metadata record per page, pointing at the final response
  const metas = records.filter((x) => x.type === 'metadata');
  assert.equal(metas.length, 4);
  const newMeta = metas.find((m) => m.url === `${base}/new`)!;
  assert.equal(newMeta.warc.get('WARC-Concurrent-To'), responses.get(`${base}/new`)!.warc.get('WARC-Record-ID'));
  assert.match(newMeta.block.toString(), new RegExp(`^url: ${base}/old\r\nscore: 0\r\n.*depth: 1\r\nparent: ${base}/\r\nstrategy: bfs\r\ntitle: New\r\n$`, 's'));
  // every request record is concurrent to a response
  const ids = new Set([...responses.values()].map((x) => x.warc.get('WARC-Record-ID')));
  for (const req of records.filter((x) => x.type === 'request')) assert.ok(ids.has(req.warc.get('WARC-Concurrent-To')!));
});

test('crawl --warc-out bad values: --warc-max-size is FC_USAGE (exit 2), an unusable directory FC_WARC (exit 1)', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const bad = await runMain(['crawl', '--seed', 'http://a.example/', '--store', path.join(dir, 's'), '--warc-out', dir, '--warc-max-size', '12X']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--warc-max-size/);
  const file = path.join(dir, 'f');
  await writeFile(file, 'x');
  const r = await runMain(['crawl', '--seed', 'http://a.example/', '--store', path.join(dir, 's2'), '--warc-out', file, '--quiet']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /FC_WARC/);
});

test('round trip: a bfs crawl of the fixture web written as WARC, replayed, crawled again best-first: same answers', async (t) => {
  const { url: proxy, dir } = await fixtureReplay(t);
  const warcDir = path.join(dir, 'warcs');
  const pages1 = path.join(dir, 'pages1');
  const pages2 = path.join(dir, 'pages2');
  const seeds = path.join(ROOT, 'fixtures', 'demo-seeds.txt');
  const first = await runMain(['crawl', '--seeds', seeds, '--strategy', 'bfs', '--proxy', proxy, '--store', path.join(dir, 's1'),
    '--max-pages', '200', '--warc-out', warcDir, '--warc-max-size', '100k', '--pages-out', pages1, '--quiet']);
  assert.equal(first.code, 0, first.stderr);
  const files = (await readdir(warcDir)).sort();
  assert.ok(files.length >= 3, `rolled over: ${files.join(' ')}`);
  assert.ok(files.every((f) => f.endsWith('.warc.gz')), 'every file closed and renamed');

  const replay = await createReplayServer({ warcs: files.map((f) => path.join(warcDir, f)) });
  t.after(() => replay.close());
  const second = await runMain(['crawl', '--seeds', seeds, '--topic', path.join(ROOT, 'fixtures', 'demo-topic.json'), '--strategy', 'best-first',
    '--proxy', replay.url, '--store', path.join(dir, 's2'), '--max-pages', '200', '--pages-out', pages2, '--quiet']);
  assert.equal(second.code, 0, second.stderr);

  const run1 = new Map(parseLines(first.stdout).map((r) => [r.url, r]));
  const run2 = new Map(parseLines(second.stdout).map((r) => [r.url, r]));
  const pagesOf1 = [...run1.values()].filter((r) => r.type === 'page');
  assert.equal(pagesOf1.length, 200);
  let both = 0;
  for (const [url, b] of run2) {
    const a = run1.get(url);
    if (a === undefined || a.type !== 'page') continue;
    both++;
    assert.equal(b.type, 'page', `${url}: ${JSON.stringify(b)}`);
    const fields = (r: any): unknown[] => [r.status, r.finalUrl, r.contentType, r.charset, r.bytes, r.truncated, r.title];
    assert.deepEqual(fields(b), fields(a), url);
    if (a.bytes > 0) {
      const [x, y] = await Promise.all([readFile(pageFilePath(pages1, url)), readFile(pageFilePath(pages2, url))]);
      assert.ok(x.equals(y), `${url}: same body bytes`);
    }
  }
  assert.ok(both >= 100, `${both} URLs fetched by both crawls`);
  // a redirect answered in the first crawl (to a page already fetched: an error record) is archived and replayed
  const redirected = [...run1.values()].filter((r) => r.type === 'page' && r.finalUrl !== r.url);
  assert.ok(redirected.length >= 1, 'the fixture web has redirects');
  for (const r of redirected) {
    const b = run2.get(r.url);
    if (b !== undefined && b.type === 'page') assert.equal(b.finalUrl, r.finalUrl);
  }
  // a redirect the first crawl did not follow (its target already fetched) was archived too: no 404 for it
  for (const a of run1.values()) {
    const b = a.type === 'error' && a.code === 'FC_REDIRECT_SEEN' ? run2.get(a.url) : undefined;
    if (b === undefined) continue;
    assert.ok(b.type === 'error' ? b.code === 'FC_REDIRECT_SEEN' : b.status === 200 && b.finalUrl !== a.url, JSON.stringify(b));
  }
});

/** Records of a WARC file up to the first unreadable one (a file a kill left behind). */
async function readWarcPrefix(file: string): Promise<ParsedRecord[]> {
  const out: ParsedRecord[] = [];
  try {
    await readWarc(file, out);
  } catch {
    // a cut last gzip member: the records before it are whole (checked by the caller)
  }
  return out;
}

test('crawl --warc-out killed with SIGKILL: every page on stdout is in the .open file; the resumed crawl writes a new file', async (t) => {
  const { url: proxy, dir } = await fixtureReplay(t);
  const warcDir = path.join(dir, 'warcs');
  const store = path.join(dir, 'store');
  const args = ['crawl', '--seeds', path.join(ROOT, 'fixtures', 'demo-seeds.txt'), '--strategy', 'bfs', '--proxy', proxy, '--store', store,
    '--delay-ms', '30', '--concurrency', '4', '--per-host', '2', '--max-pages', '80', '--warc-out', warcDir, '--quiet'];
  const child = spawnCli(args);
  let stdout = '';
  await new Promise<void>((resolve) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (stdout.split('\n').length > 30 && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('close', () => resolve());
  });
  assert.equal(child.signalCode, 'SIGKILL', 'killed mid-crawl');
  const killedLines = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
  const firstRun = parseLines(killedLines);
  const names = await readdir(warcDir);
  assert.equal(names.length, 1);
  assert.match(names[0], /\.warc\.gz\.open$/, 'the file being written keeps its .open name');
  const archived = await readWarcPrefix(path.join(warcDir, names[0]));
  const finals = new Set(archived.filter((r) => r.type === 'response').map((r) => r.url));
  const pages = firstRun.filter((r) => r.type === 'page');
  assert.ok(pages.length >= 25);
  for (const p of pages) assert.ok(finals.has(p.finalUrl), `${p.finalUrl} committed but not archived`);

  const resumed = await runMain(args);
  assert.equal(resumed.code, 0, resumed.stderr);
  const after = (await readdir(warcDir)).sort();
  assert.equal(after.length, 2);
  assert.ok(after.includes(names[0]), 'a crashed file is left as it is');
  const closed = after.find((n) => n.endsWith('.warc.gz'))!;
  const second = await readWarc(path.join(warcDir, closed));
  assert.equal(second[0].type, 'warcinfo');
  const finals2 = new Set(second.filter((r) => r.type === 'response').map((r) => r.url));
  for (const p of parseLines(resumed.stdout)) if (p.type === 'page') assert.ok(finals2.has(p.finalUrl), p.finalUrl);
});

// Regression (issue 21, item 7): the file was created (0 bytes, `.open`)
// before its warcinfo record was built and written, so a crawl killed or
// failing in between left a 0-byte .open file with no warcinfo record.
test('writer: a file gets its name only with its warcinfo record in it; a failure before leaves no file', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  // the clock fails on its second call: after the file name, while the warcinfo record is built
  let calls = 0;
  const w = await WarcWriter.create({ dir, now: () => {
    if (++calls === 2) throw new Error('clock stopped');
    return new Date('2026-01-02T03:04:05.678Z');
  } });
  await assert.rejects(w.writePage(page('http://a.example/', 'hello')), { code: 'FC_WARC' });
  await w.close();
  assert.deepEqual(await readdir(dir), [], 'no empty or headless file left');
  // a working writer: the .open file starts with the warcinfo record before the first page is in it
  const ok = await WarcWriter.create({ dir: path.join(dir, 'ok') });
  await ok.writePage(page('http://a.example/', 'hello'));
  assert.deepEqual((await readdir(path.join(dir, 'ok'))).map((n) => n.replace(/^.*\.warc\.gz/, '')), ['.open'], 'no temporary file left');
  const records = await readWarc(path.join(dir, 'ok', (await readdir(path.join(dir, 'ok')))[0]));
  assert.deepEqual(records.map((r) => r.type), ['warcinfo', 'request', 'response', 'metadata']);
  await ok.close();
});

// Regression (issue 21, item 7): redirect loops, chains past the hop cap,
// redirects to file:/javascript:/data: and FC_DECODE bodies were answers
// the crawler received but never archived, so a replay answered 404 there.
test('crawl --warc-out: every answer the server gave is archived, whatever became of the URL', async (t) => {
  const answered: string[] = [];
  const base = await serve(t, (req, res) => {
    const p = req.url ?? '/';
    if (p === '/robots.txt') return void res.writeHead(404).end();
    answered.push(p);
    const go = (location: string) => void res.writeHead(302, { location, 'content-length': '0' }).end();
    if (p === '/') {
      const links = ['/loop-a', '/chain/0', '/to-file', '/to-js', '/to-data', '/bad-gzip', '/fine'].map((l) => `<a href="${l}">${l}</a>`).join(' ');
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`);
    }
    if (p === '/loop-a') return go('/loop-b');
    if (p === '/loop-b') return go('/loop-a');
    if (p.startsWith('/chain/')) return go(`/chain/${Number(p.slice(7)) + 1}`);
    if (p === '/to-file') return go('file:///etc/passwd');
    if (p === '/to-js') return go('javascript:alert(1)');
    if (p === '/to-data') return go('data:text/html,hi');
    if (p === '/bad-gzip') return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end('this is not gzip at all');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><title>fine</title></html>');
  });
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const out = path.join(dir, 'warcs');
  const r = await runMain(['crawl', '--seed', `${base}/`, '--allow-private', '--store', path.join(dir, 'store'), '--delay-ms', '0',
    '--warc-out', out, '--quiet', '--retries', '0']);
  assert.equal(r.code, 0, r.stderr);
  const codes = Object.fromEntries(parseLines(r.stdout).map((x) => [new URL(x.url).pathname, x.code ?? x.status]));
  assert.deepEqual(codes, {
    '/': 200, '/fine': 200, '/loop-a': 'FC_TOO_MANY_REDIRECTS', '/chain/0': 'FC_TOO_MANY_REDIRECTS',
    '/to-file': 'FC_BAD_REDIRECT', '/to-js': 'FC_BAD_REDIRECT', '/to-data': 'FC_BAD_REDIRECT', '/bad-gzip': 'FC_DECODE',
  });
  const names = await readdir(out);
  const records = (await Promise.all(names.map((n) => readWarc(path.join(out, n))))).flat();
  const responses = records.filter((x) => x.type === 'response').map((x) => new URL(x.url!).pathname);
  assert.deepEqual(responses.sort(), answered.sort(), 'one response record per answer');
  assert.ok(answered.includes('/chain/5') && answered.includes('/loop-b'));
  const decode = records.find((x) => x.type === 'response' && x.url === `${base}/bad-gzip`)!;
  assert.equal(decode.statusline, 'HTTP/1.1 200 OK');
  assert.equal(decode.http.get('X-Crawler-Content-Encoding'), 'gzip');
  const loop = records.find((x) => x.type === 'response' && x.url === `${base}/loop-b`)!;
  assert.equal(loop.http.get('Location'), '/loop-a');
  // the metadata record of a failed URL names its error
  const meta = records.find((x) => x.type === 'metadata' && x.url === `${base}/to-js`)!;
  assert.match(meta.block.toString(), /error: FC_BAD_REDIRECT/);
});
