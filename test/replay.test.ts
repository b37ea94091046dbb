import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, access, mkdir, copyFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { ProxyAgent, request } from 'undici';
import { WARCRecord, WARCSerializer } from 'warcio';
import { buildIndex, readResponse } from '../src/replay/warc-index.ts';
import { createReplayServer, type ReplayServer } from '../src/replay/server.ts';
import { runReplay } from '../src/replay/command.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const WEBKB = fileURLToPath(new URL('../../shared/corpora/webkb/webkb.warc.gz', import.meta.url));

const LATIN1_BODY = Buffer.from('<p>caf\u00e9 \u00fcber \u00e0 la cr\u00e8me</p>', 'latin1');
const PAGE_BODY = '<html><head><title>Page</title></head><body><a href="/dir/">dir</a></body></html>';
const ROBOTS_BODY = 'User-agent: *\nDisallow: /private/\n';

interface Rec {
  type: 'response' | 'request' | 'metadata' | 'warcinfo';
  url: string;
  statusline?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

async function serialize(recs: Rec[], gzip: boolean): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for (const r of recs) {
    const body = r.body === undefined ? [] : [typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body];
    const record = WARCRecord.create(
      {
        url: r.url,
        type: r.type,
        warcVersion: 'WARC/1.1',
        statusline: r.statusline ?? (r.type === 'request' ? 'GET / HTTP/1.1' : 'HTTP/1.1 200 OK'),
        httpHeaders: r.headers ?? {},
      },
      body,
    );
    parts.push(await WARCSerializer.serialize(record, { gzip }));
  }
  return Buffer.concat(parts);
}

const MAIN_RECORDS: Rec[] = [
  { type: 'warcinfo', url: '', body: 'software: focuscrawl-test\r\n' },
  { type: 'request', url: 'http://site.test/page.html', headers: { Host: 'site.test' } },
  { type: 'response', url: 'http://site.test/page.html', headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': '999', Connection: 'close' }, body: PAGE_BODY },
  { type: 'response', url: 'http://site.test/robots.txt', headers: { 'Content-Type': 'text/plain' }, body: ROBOTS_BODY },
  { type: 'response', url: 'http://site.test/old', statusline: 'HTTP/1.1 301 Moved Permanently', headers: { Location: 'http://site.test/page.html', 'Content-Type': 'text/html' }, body: 'moved' },
  { type: 'response', url: 'http://site.test/latin1.html', headers: { 'Content-Type': 'text/html; charset=iso-8859-1' }, body: LATIN1_BODY },
  { type: 'response', url: 'http://site.test/dir/index.html', headers: { 'Content-Type': 'text/html' }, body: 'dir index' },
  { type: 'response', url: 'http://site.test/chunked', headers: { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' }, body: '4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n' },
  { type: 'response', url: 'http://site.test/page.html#later', headers: { 'Content-Type': 'text/html' }, body: 'second copy' },
  { type: 'metadata', url: 'http://site.test/meta', body: 'outlinks: none\r\n' },
];

const OTHER_RECORDS: Rec[] = [
  { type: 'response', url: 'http://other.test/a', headers: { 'Content-Type': 'text/plain' }, body: 'other a' },
  { type: 'response', url: 'http://site.test/robots.txt', headers: { 'Content-Type': 'text/plain' }, body: 'User-agent: *\nDisallow: /\n' },
];

let dir: string;
let mainWarc: string;
let otherWarc: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fc-replay-'));
  mainWarc = join(dir, 'main.warc.gz');
  otherWarc = join(dir, 'other.warc');
  await writeFile(mainWarc, await serialize(MAIN_RECORDS, true));
  await writeFile(otherWarc, await serialize(OTHER_RECORDS, false));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('warc index', () => {
  test('indexes response records only, first canonical URL wins across files', async () => {
    const index = await buildIndex([mainWarc, otherWarc]);
    assert.deepEqual([...index.entries.keys()].sort(), [
      'http://other.test/a',
      'http://site.test/chunked',
      'http://site.test/dir/',
      'http://site.test/latin1.html',
      'http://site.test/old',
      'http://site.test/page.html',
      'http://site.test/robots.txt',
    ]);
    assert.equal(index.responseRecords, 9);
    const page = index.entries.get('http://site.test/page.html')!;
    assert.equal(page.gzip, true);
    assert.equal(index.entries.get('http://other.test/a')!.gzip, false);
    const first = await readResponse(index, 'http://site.test/page.html');
    assert.equal(first!.body.toString('utf8'), PAGE_BODY);
    const robots = await readResponse(index, 'http://site.test/robots.txt');
    assert.equal(robots!.body.toString('utf8'), ROBOTS_BODY);
    assert.equal(await readResponse(index, 'http://site.test/meta'), null);
  });

  test('de-chunks a chunked payload and drops Transfer-Encoding', async () => {
    const index = await buildIndex([mainWarc]);
    const res = await readResponse(index, 'http://site.test/chunked');
    assert.equal(res!.body.toString('latin1'), 'Wikipedia');
    assert.ok(!res!.headers.some(([k]) => k.toLowerCase() === 'transfer-encoding'));
  });

  test('caps the body with FC_CAP_EXCEEDED', async () => {
    const index = await buildIndex([mainWarc]);
    await assert.rejects(readResponse(index, 'http://site.test/page.html', 10), { code: 'FC_CAP_EXCEEDED' });
  });

  test('uncompressed record offsets are exact', async () => {
    const index = await buildIndex([otherWarc]);
    const a = await readResponse(index, 'http://other.test/a');
    assert.equal(a!.status, 200);
    assert.equal(a!.body.toString(), 'other a');
  });

  test('a revisit record serves the response it refers to, by URL or by payload digest', async () => {
    const digest = 'sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH';
    const make = async (url: string, type: 'response' | 'revisit', warcHeaders: Record<string, string>, body: string): Promise<Uint8Array> =>
      WARCSerializer.serialize(
        WARCRecord.create(
          { url, type, warcVersion: 'WARC/1.1', statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/html' }, warcHeaders },
          body === '' ? [] : [Buffer.from(body)],
        ),
        { gzip: true },
      );
    const file = join(dir, 'dedup.warc.gz');
    await writeFile(file, Buffer.concat([
      await make('http://dedup.test/original', 'response', { 'WARC-Payload-Digest': digest }, 'the original page'),
      await make('http://dedup.test/by-url', 'revisit', { 'WARC-Refers-To-Target-URI': 'http://dedup.test/original', 'WARC-Payload-Digest': 'sha1:OTHER' }, ''),
      await make('http://dedup.test/by-digest', 'revisit', { 'WARC-Payload-Digest': digest }, ''),
      await make('http://dedup.test/lost', 'revisit', { 'WARC-Refers-To-Target-URI': 'http://dedup.test/never-archived', 'WARC-Payload-Digest': 'sha1:NONE' }, ''),
      await make('http://dedup.test/own', 'revisit', { 'WARC-Payload-Digest': digest }, ''),
      await make('http://dedup.test/own', 'response', {}, 'its own response'),
    ]));
    const index = await buildIndex([file]);
    assert.equal(index.responseRecords, 2);
    assert.equal(index.revisitsResolved, 2);
    for (const url of ['http://dedup.test/by-url', 'http://dedup.test/by-digest']) {
      assert.equal((await readResponse(index, url))!.body.toString(), 'the original page', url);
    }
    assert.equal(await readResponse(index, 'http://dedup.test/lost'), null);
    assert.equal((await readResponse(index, 'http://dedup.test/own'))!.body.toString(), 'its own response', 'a URL\'s own response wins');
  });

  // a whole-file gzip WARC (gzip of the whole file, as `gzip x.warc` makes)
  // used to be refused with FC_USAGE; it is read through an inflated copy
  test('reads a whole-file gzip through an inflated temporary copy; one that does not inflate is FC_USAGE', async () => {
    const whole = join(dir, 'whole.warc.gz');
    await writeFile(whole, gzipSync(await serialize(MAIN_RECORDS, false)));
    const index = await buildIndex([whole, otherWarc]);
    assert.equal(index.responseRecords, 9);
    assert.deepEqual(index.files, [whole, otherWarc]);
    const page = index.entries.get('http://site.test/page.html')!;
    assert.equal(page.gzip, false);
    assert.notEqual(page.file, whole);
    assert.ok(existsSync(page.file), 'the inflated copy is there while the process runs');
    assert.equal((await readResponse(index, 'http://site.test/page.html'))!.body.toString('utf8'), PAGE_BODY);
    assert.equal((await readResponse(index, 'http://site.test/chunked'))!.body.toString('latin1'), 'Wikipedia');
    assert.equal((await readResponse(index, 'http://other.test/a'))!.body.toString(), 'other a');
    const again = await buildIndex([whole]);
    assert.equal(again.entries.get('http://site.test/page.html')!.file, page.file, 'inflated once per file');
    // garbage after the member: gunzip fails while inflating the copy
    const broken = join(dir, 'broken.warc.gz');
    await writeFile(broken, Buffer.concat([gzipSync(await serialize(MAIN_RECORDS, false)), Buffer.from('not gzip at all')]));
    await assert.rejects(buildIndex([broken]), { code: 'FC_USAGE', message: /broken\.warc\.gz: not a readable gzip file/ });
  });
});

describe('replay proxy', () => {
  let server: ReplayServer;
  let agent: ProxyAgent;

  before(async () => {
    server = await createReplayServer({ warcs: [mainWarc, otherWarc], port: 0 });
    agent = new ProxyAgent({ uri: server.url, proxyTunnel: false });
  });

  after(async () => {
    await agent.close();
    await server.close();
  });

  const get = async (url: string, method: 'GET' | 'HEAD' = 'GET') => {
    const res = await request(url, { dispatcher: agent, method });
    const body = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, body };
  };

  test('reports its address and record count', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(server.records, 7);
  });

  test('serves a page with exact bytes, content-type and recomputed length', async () => {
    const res = await get('http://site.test/page.html');
    assert.equal(res.status, 200);
    assert.equal(res.body.toString('utf8'), PAGE_BODY);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(PAGE_BODY)));
    assert.equal(res.headers['x-focuscrawl-replay'], '1');
  });

  test('serves latin-1 bytes untouched', async () => {
    const res = await get('http://site.test/latin1.html');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, LATIN1_BODY);
    assert.equal(res.headers['content-type'], 'text/html; charset=iso-8859-1');
  });

  test('unknown URL answers 404 with the replay header', async () => {
    const res = await get('http://site.test/nope.html');
    assert.equal(res.status, 404);
    assert.equal(res.headers['x-focuscrawl-replay'], '1');
    assert.equal((await get('http://other.test/robots.txt')).status, 404);
    assert.equal((await get('http://site.test/meta')).status, 404);
  });

  test('/dir/ matches /dir/index.html', async () => {
    const res = await get('http://site.test/dir/');
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), 'dir index');
  });

  test('robots.txt is served from the archive (first file wins)', async () => {
    const res = await get('http://site.test/robots.txt');
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), ROBOTS_BODY);
  });

  test('redirect keeps status and Location', async () => {
    const res = await get('http://site.test/old');
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, 'http://site.test/page.html');
    assert.equal(res.body.toString(), 'moved');
  });

  test('HEAD answers headers without a body', async () => {
    const res = await get('http://site.test/page.html', 'HEAD');
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 0);
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(PAGE_BODY)));
    assert.equal(res.headers['x-focuscrawl-replay'], '1');
  });

  const raw = (options: http.RequestOptions) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; reused: boolean }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, ...options }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString(), reused: req.reusedSocket }));
      });
      req.on('error', reject);
      req.end();
    });

  test('origin-form with a Host header and absolute-form both work', async () => {
    const origin = await raw({ path: '/dir/index.html', headers: { host: 'site.test' } });
    assert.equal(origin.status, 200);
    assert.equal(origin.body, 'dir index');
    const absolute = await raw({ path: 'http://other.test/a', headers: { host: 'other.test' } });
    assert.equal(absolute.status, 200);
    assert.equal(absolute.body, 'other a');
  });

  test('a non-http(s) URL answers 400, a POST 405', async () => {
    const ftp = await raw({ path: 'ftp://site.test/page.html' });
    assert.equal(ftp.status, 400);
    assert.equal(ftp.headers['x-focuscrawl-replay'], '1');
    const post = await raw({ path: 'http://site.test/page.html', method: 'POST' });
    assert.equal(post.status, 405);
  });

  test('keep-alive reuses the connection', async () => {
    const keepAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const a = await raw({ path: 'http://site.test/page.html', agent: keepAgent });
      const b = await raw({ path: 'http://site.test/robots.txt', agent: keepAgent });
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.equal(b.body, ROBOTS_BODY);
      assert.equal(b.reused, true);
    } finally {
      keepAgent.destroy();
    }
  });

  test('CONNECT answers 501', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, method: 'CONNECT', path: 'site.test:443' });
      req.on('connect', (res: http.IncomingMessage, socket) => {
        socket.destroy();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 501);
  });
});

describe('runReplay', () => {
  const capture = () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (c: Buffer) => (text += c.toString()));
    return { stream, text: () => text };
  };

  test('bad arguments: one stderr line, exit 2', async () => {
    for (const argv of [[], ['--warc', join(dir, 'missing.warc')], ['--warc', mainWarc, '--port', '70000'], ['--bogus']]) {
      const out = capture();
      const err = capture();
      const code = await runReplay(argv, { stdout: out.stream, stderr: err.stream });
      assert.equal(code, 2, `argv ${argv.join(' ')}`);
      assert.equal(out.text(), '');
      assert.match(err.text(), /^focuscrawl replay: [^\n]+\n$/);
    }
  });

  test('a file that is not a WARC (JSON, empty, gzipped JSON): FC_BAD_WARC naming it, exit 2, nothing served', async () => {
    // What broke (issue 21): `replay --warc topic.json` logged "0 records from 1 files" and served forever.
    const json = join(dir, 'topic.json');
    await writeFile(json, '{"name": "x", "terms": ["a"]}\n');
    const empty = join(dir, 'empty.warc');
    await writeFile(empty, '');
    const gz = join(dir, 'topic.json.gz');
    await writeFile(gz, gzipSync('{"name": "x"}\n'));
    for (const file of [json, empty, gz]) {
      const out = capture();
      const err = capture();
      const stop = new AbortController();
      const done = runReplay(['--warc', mainWarc, '--warc', file], { stdout: out.stream, stderr: err.stream, signal: stop.signal });
      let finished = false;
      void done.finally(() => (finished = true));
      // the old code started serving: stop it, so the assertions below fail instead of the test hanging
      while (!out.text().includes('\n') && !finished) await new Promise((r) => setTimeout(r, 10));
      stop.abort();
      assert.equal(await done, 2, file);
      assert.equal(out.text(), '', file);
      assert.ok(err.text().startsWith(`focuscrawl replay: FC_BAD_WARC: ${file}: not a WARC file (`), err.text());
      assert.equal(err.text().split('\n').length, 2, 'one line');
    }
    await assert.rejects(buildIndex([json]), { code: 'FC_BAD_WARC' });
  });

  test('--help prints usage on stdout, exit 0', async () => {
    const out = capture();
    assert.equal(await runReplay(['--help'], { stdout: out.stream, stderr: capture().stream }), 0);
    assert.match(out.text(), /^Usage: focuscrawl replay --warc FILE/);
  });

  test('in process: first stdout line, serves, stops on abort', async () => {
    const out = capture();
    const err = capture();
    const stop = new AbortController();
    const done = runReplay(['--warc', mainWarc, '--warc', otherWarc], { stdout: out.stream, stderr: err.stream, signal: stop.signal });
    let finished = false;
    void done.finally(() => (finished = true));
    try {
      while (!out.text().includes('\n') && !finished) await new Promise((r) => setTimeout(r, 10));
      const first = out.text().split('\n')[0]!;
      assert.match(first, /^\{"listening":"http:\/\/127\.0\.0\.1:\d+"\}$/);
      assert.equal(err.text(), 'replay: 7 records from 2 files\n');
      const agent = new ProxyAgent({ uri: JSON.parse(first).listening, proxyTunnel: false });
      try {
        const res = await request('http://site.test/robots.txt', { dispatcher: agent });
        assert.equal(res.statusCode, 200);
        assert.equal(await res.body.text(), ROBOTS_BODY);
      } finally {
        await agent.close();
      }
    } finally {
      stop.abort();
    }
    assert.equal(await done, 0);
  });

  test('--warc DIR serves the closed WARC files in it; a directory without any is exit 2', async () => {
    const warcDir = join(dir, 'warc-out');
    await mkdir(warcDir, { recursive: true });
    await copyFile(mainWarc, join(warcDir, 'a.warc.gz'));
    await copyFile(otherWarc, join(warcDir, 'b.warc'));
    await copyFile(otherWarc, join(warcDir, 'c.warc.gz.open')); // still being written: left out
    await writeFile(join(warcDir, 'notes.txt'), 'not a WARC');
    const out = capture();
    const err = capture();
    const stop = new AbortController();
    const done = runReplay(['--warc', warcDir], { stdout: out.stream, stderr: err.stream, signal: stop.signal });
    let finished = false;
    void done.finally(() => (finished = true));
    try {
      while (!out.text().includes('\n') && !finished) await new Promise((r) => setTimeout(r, 10));
      assert.equal(err.text(), 'replay: 7 records from 2 files\n');
    } finally {
      stop.abort();
    }
    assert.equal(await done, 0);

    const empty = join(dir, 'no-warcs');
    await mkdir(empty, { recursive: true });
    await writeFile(join(empty, 'x.warc.gz.open'), '');
    const err2 = capture();
    assert.equal(await runReplay(['--warc', empty], { stdout: capture().stream, stderr: err2.stream }), 2);
    assert.match(err2.text(), /^focuscrawl replay: .*no-warcs holds no \.warc or \.warc\.gz file\n$/);
  });

  test('as a process: first stdout line is the listening address, SIGTERM exits 0', { timeout: 20_000 }, async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '-e',
        "import('./src/replay/command.ts').then(async (m) => { process.exitCode = await m.runReplay(process.argv.slice(1)); })",
        '--', '--warc', mainWarc],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const lines = createInterface({ input: child.stdout! });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', () => reject(new Error('replay exited before listening')));
      });
      assert.match(first, /^\{"listening":"http:\/\/127\.0\.0\.1:\d+"\}$/);
      const agent = new ProxyAgent({ uri: JSON.parse(first).listening, proxyTunnel: false });
      const res = await request('http://site.test/page.html', { dispatcher: agent });
      assert.equal(res.statusCode, 200);
      assert.equal(await res.body.text(), PAGE_BODY);
      await agent.close();
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });
});

describe('WebKB archive', async () => {
  const present = await access(WEBKB).then(() => true, () => false);
  const skip = present ? false : `${WEBKB} is absent`;

  test('indexes all responses and serves gistabs.html', { skip }, async (t) => {
    const t0 = performance.now();
    const server = await createReplayServer({ warcs: [WEBKB] });
    t.diagnostic(`webkb index built in ${Math.round(performance.now() - t0)} ms`);
    const agent = new ProxyAgent({ uri: server.url, proxyTunnel: false });
    try {
      // 6,973 response records; 17 collapse onto another record's canonical URL
      // (host without '/', ':80', '#fragment', '/index.html' variants).
      assert.equal(server.index.responseRecords, 6973);
      assert.equal(server.records, 6956);
      const res = await request('http://GiST.CS.Berkeley.EDU:8000/gist/gistabs.html', { dispatcher: agent });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.equal(res.headers['x-focuscrawl-replay'], '1');
      assert.match(await res.body.text(), /Generalized Search Trees/);
    } finally {
      await agent.close();
      await server.close();
    }
  });
});
