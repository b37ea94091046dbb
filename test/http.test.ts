import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import zlib from 'node:zlib';
import { DEFAULT_USER_AGENT, HttpClient, isParseable, parseContentType } from '../src/fetch/http.ts';
import { serve } from './helpers/serve.ts';
import { rejectsWithCode } from './helpers/assert.ts';


function client(t: TestContext, opts: ConstructorParameters<typeof HttpClient>[0] = {}): HttpClient {
  const c = new HttpClient({ allowPrivate: true, ...opts });
  t.after(() => c.close());
  return c;
}

const MAX = 1 << 20;

test('plain 200 HTML: status, headers, type, charset, body, user-agent', async (t) => {
  let ua: string | undefined;
  let accept: string | undefined;
  let acceptEncoding: string | undefined;
  const base = await serve(t, (req, res) => {
    ua = req.headers['user-agent'];
    accept = req.headers.accept;
    acceptEncoding = req.headers['accept-encoding'];
    res.setHeader('Content-Type', 'text/html; charset="UTF-8"');
    res.setHeader('X-Thing', 'Yes');
    res.setHeader('Set-Cookie', ['a=1', 'b=2']);
    res.end('<title>hi</title>');
  });
  const hop = await client(t).get(`${base}/`, { maxBytes: MAX });
  assert.equal(hop.status, 200);
  assert.equal(hop.contentType, 'text/html');
  assert.equal(hop.headerCharset, 'utf-8');
  assert.equal(hop.body?.toString(), '<title>hi</title>');
  assert.equal(hop.bytes, 17);
  assert.equal(hop.truncated, false);
  assert.equal(hop.location, null);
  assert.equal(hop.replay, false);
  assert.equal(hop.headers['x-thing'], 'Yes');
  assert.equal(hop.headers['set-cookie'], 'a=1, b=2');
  assert.equal(ua, DEFAULT_USER_AGENT);
  assert.match(ua ?? '', /^focuscrawl\/\d+\.\d+\.\d+ \(\+https:\/\/github\.com\/focuscrawl\/focuscrawl\)$/);
  assert.equal(accept, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1');
  assert.equal(acceptEncoding, 'gzip, deflate, br');
});

test('custom user-agent and replay header', async (t) => {
  let ua: string | undefined;
  const base = await serve(t, (req, res) => {
    ua = req.headers['user-agent'];
    res.setHeader('Content-Type', 'text/html');
    res.setHeader('X-Focuscrawl-Replay', '1');
    res.end('x');
  });
  const hop = await client(t, { userAgent: 'TestBot/1.0' }).get(`${base}/`, { maxBytes: MAX });
  assert.equal(ua, 'TestBot/1.0');
  assert.equal(hop.replay, true);
});

test('gzip, x-gzip, deflate (zlib and raw) and br bodies are decoded', async (t) => {
  const text = '<p>' + 'héllo wörld '.repeat(500) + '</p>';
  const plain = Buffer.from(text);
  const bodies: Record<string, [string, Buffer]> = {
    '/gzip': ['gzip', zlib.gzipSync(plain)],
    '/xgzip': ['x-gzip', zlib.gzipSync(plain)],
    '/deflate': ['deflate', zlib.deflateSync(plain)],
    '/rawdeflate': ['deflate', zlib.deflateRawSync(plain)],
    '/br': ['br', zlib.brotliCompressSync(plain)],
    '/identity': ['identity', plain],
  };
  const base = await serve(t, (req, res) => {
    const [enc, body] = bodies[req.url ?? ''];
    res.setHeader('Content-Type', 'text/html');
    res.setHeader('Content-Encoding', enc);
    res.end(body);
  });
  const c = client(t);
  for (const path of Object.keys(bodies)) {
    const hop = await c.get(base + path, { maxBytes: MAX });
    assert.equal(hop.body?.toString(), text, path);
    assert.equal(hop.bytes, plain.length, path);
    assert.equal(hop.truncated, false, path);
  }
});

test('maxBytes truncates the decoded body; exactly maxBytes is not truncated', async (t) => {
  const base = await serve(t, (req, res) => {
    res.setHeader('Content-Type', 'text/html');
    if (req.url === '/gz') res.setHeader('Content-Encoding', 'gzip');
    const body = Buffer.alloc(10_000, 'a');
    res.end(req.url === '/gz' ? zlib.gzipSync(body) : body);
  });
  const c = client(t);
  const cut = await c.get(`${base}/`, { maxBytes: 1000 });
  assert.equal(cut.bytes, 1000);
  assert.equal(cut.body?.length, 1000);
  assert.equal(cut.truncated, true);
  const cutGz = await c.get(`${base}/gz`, { maxBytes: 1000 });
  assert.equal(cutGz.bytes, 1000);
  assert.equal(cutGz.truncated, true);
  const exact = await c.get(`${base}/`, { maxBytes: 10_000 });
  assert.equal(exact.bytes, 10_000);
  assert.equal(exact.truncated, false);
});

test('gzip bomb: 50 MB of zeros stops at maxBytes without inflating it all', async (t) => {
  // compress 50 MB of zeros chunk by chunk, never holding the plain text
  const gz = zlib.createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gz.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise((resolve) => gz.on('end', resolve));
  const mib = Buffer.alloc(MAX);
  for (let i = 0; i < 50; i++) gz.write(mib);
  gz.end();
  await done;
  const bomb = Buffer.concat(parts);
  assert.ok(bomb.length < 200_000);
  let served = 0;
  const base = await serve(t, (_req, res) => {
    served++;
    res.setHeader('Content-Type', 'text/html');
    res.setHeader('Content-Encoding', 'gzip');
    res.end(bomb);
  });
  global.gc?.();
  const before = process.memoryUsage();
  const hop = await client(t).get(`${base}/`, { maxBytes: MAX });
  const after = process.memoryUsage();
  assert.equal(served, 1);
  assert.equal(hop.truncated, true);
  assert.equal(hop.bytes, MAX);
  assert.equal(hop.body?.length, MAX);
  const grown = after.arrayBuffers + after.external - (before.arrayBuffers + before.external);
  assert.ok(grown < 16 * MAX, `buffers grew by ${grown} bytes`);
});

test('corrupt and unknown encodings: FC_DECODE, or the decoded prefix marked truncated', async (t) => {
  const plain = Buffer.alloc(100_000, 'b');
  const gz = zlib.gzipSync(plain);
  const base = await serve(t, (req, res) => {
    res.setHeader('Content-Type', 'text/html');
    if (req.url === '/garbage') {
      res.setHeader('Content-Encoding', 'gzip');
      res.end('this is not gzip at all');
    } else if (req.url === '/cut') {
      res.setHeader('Content-Encoding', 'gzip');
      res.end(gz.subarray(0, gz.length - 20)); // valid stream, ends early
    } else {
      res.setHeader('Content-Encoding', 'compress');
      res.end('whatever');
    }
  });
  const c = client(t);
  await rejectsWithCode(c.get(`${base}/garbage`, { maxBytes: MAX }), 'FC_DECODE');
  await rejectsWithCode(c.get(`${base}/unknown`, { maxBytes: MAX }), 'FC_DECODE');
  const cut = await c.get(`${base}/cut`, { maxBytes: MAX });
  assert.equal(cut.truncated, true);
  assert.ok(cut.bytes > 0 && cut.bytes < plain.length, String(cut.bytes));
  assert.ok(cut.body?.equals(plain.subarray(0, cut.bytes)));
});

test('non-HTML content types keep no body unless accept is any', async (t) => {
  const base = await serve(t, (_req, res) => {
    res.setHeader('Content-Type', 'Application/PDF');
    res.end('%PDF-1.4 ...');
  });
  const c = client(t);
  const hop = await c.get(`${base}/doc`, { maxBytes: MAX });
  assert.equal(hop.status, 200);
  assert.equal(hop.contentType, 'application/pdf');
  assert.equal(hop.body, null);
  assert.equal(hop.bytes, 0);
  const any = await c.get(`${base}/doc`, { maxBytes: MAX, accept: 'any' });
  assert.equal(any.body?.toString(), '%PDF-1.4 ...');
});

test('missing Content-Type: parseable by URL path extension', async (t) => {
  const base = await serve(t, (_req, res) => res.end('<p>x</p>'));
  const c = client(t);
  for (const path of ['/', '/dir/', '/page.html', '/a/b.PHP', '/x.shtml', '/about']) {
    const hop = await c.get(base + path, { maxBytes: MAX });
    assert.equal(hop.contentType, null);
    assert.equal(hop.body?.toString(), '<p>x</p>', path);
  }
  for (const path of ['/file.pdf', '/img.png', '/data.json']) {
    const hop = await c.get(base + path, { maxBytes: MAX });
    assert.equal(hop.body, null, path);
  }
});

test('isParseable and parseContentType', () => {
  assert.equal(isParseable('application/xhtml+xml', 'http://a/x.pdf'), true);
  assert.equal(isParseable('text/plain', 'http://a/x.html'), false);
  assert.equal(isParseable(null, 'http://a/x.aspx?y=1'), true);
  assert.equal(isParseable(null, 'http://a/x.zip'), false);
  assert.deepEqual(parseContentType('TEXT/HTML ; Charset = ISO-8859-1'), { type: 'text/html', charset: 'iso-8859-1' });
  assert.deepEqual(parseContentType('text/html'), { type: 'text/html', charset: null });
  assert.deepEqual(parseContentType(null), { type: null, charset: null });
});

test('3xx with Location: location returned, body not kept', async (t) => {
  const base = await serve(t, (_req, res) => {
    res.writeHead(301, { Location: '/elsewhere', 'Content-Type': 'text/html' });
    res.end('<a href="/elsewhere">moved</a>');
  });
  const hop = await client(t).get(`${base}/old`, { maxBytes: MAX });
  assert.equal(hop.status, 301);
  assert.equal(hop.location, '/elsewhere');
  assert.equal(hop.body, null);
});

test('basic auth is sent only to the configured host', async (t) => {
  const seenA: (string | undefined)[] = [];
  const seenB: (string | undefined)[] = [];
  const a = await serve(t, (req, res) => {
    seenA.push(req.headers.authorization);
    res.end();
  });
  const b = await serve(t, (req, res) => {
    seenB.push(req.headers.authorization);
    res.end();
  });
  const c = client(t, { auth: { [new URL(a).host]: { user: 'alice', pass: 's3cret:x' } } });
  await c.get(`${a}/`, { maxBytes: MAX });
  await c.get(`${b}/`, { maxBytes: MAX });
  await c.get(`${a}/again`, { maxBytes: MAX });
  const expected = `Basic ${Buffer.from('alice:s3cret:x').toString('base64')}`;
  assert.deepEqual(seenA, [expected, expected]);
  assert.deepEqual(seenB, [undefined]);
});

test('headers timeout and body timeout map to FC_TIMEOUT', async (t) => {
  const base = await serve(t, (req, res) => {
    if (req.url === '/slow-body') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.write('<p>start'); // ...and never finish
    }
    // '/silent': accept and never answer
  });
  const c = client(t, { headersTimeoutMs: 150, bodyTimeoutMs: 150 });
  const started = Date.now();
  const err = await rejectsWithCode(c.get(`${base}/silent`, { maxBytes: MAX }), 'FC_TIMEOUT');
  assert.ok(err.cause !== undefined);
  await rejectsWithCode(c.get(`${base}/slow-body`, { maxBytes: MAX }), 'FC_TIMEOUT');
  assert.ok(Date.now() - started < 5000);
});

test('refused connection maps to FC_NETWORK with the cause kept', async () => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const c = new HttpClient({ allowPrivate: true });
  try {
    const err = await rejectsWithCode(c.get(`http://127.0.0.1:${port}/`, { maxBytes: MAX }), 'FC_NETWORK');
    assert.equal((err.cause as { code?: string }).code, 'ECONNREFUSED');
  } finally {
    await c.close();
  }
});

test('reset connection and aborted request map to FC_NETWORK', async (t) => {
  const base = await serve(t, (req, res) => {
    if (req.url === '/reset') req.socket.destroy();
    // '/hang': never answers
    void res;
  });
  const c = client(t);
  await rejectsWithCode(c.get(`${base}/reset`, { maxBytes: MAX }), 'FC_NETWORK');
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  await rejectsWithCode(c.get(`${base}/hang`, { maxBytes: MAX, signal: ac.signal }), 'FC_NETWORK');
});

test('forward proxy receives absolute-form requests', async (t) => {
  const seen: { url?: string; host?: string; ua?: string }[] = [];
  const proxy = await serve(t, (req, res) => {
    seen.push({ url: req.url, host: req.headers.host, ua: req.headers['user-agent'] });
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<p>from proxy</p>');
  });
  // port 9 (discard) is never contacted: the proxy answers itself
  const c = client(t, { proxy, userAgent: 'ProxyBot' });
  const hop = await c.get('http://127.0.0.1:9/some/page?q=1', { maxBytes: MAX });
  assert.equal(hop.body?.toString(), '<p>from proxy</p>');
  assert.deepEqual(seen, [{ url: 'http://127.0.0.1:9/some/page?q=1', host: '127.0.0.1:9', ua: 'ProxyBot' }]);
});

test('getText follows redirects across hosts and decodes UTF-8', async (t) => {
  const target = await serve(t, (_req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.setHeader('Content-Encoding', 'gzip');
    res.end(zlib.gzipSync('User-agent: *\nDisallow: /privé\n'));
  });
  const hits: string[] = [];
  const start = await serve(t, (req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/robots.txt') res.writeHead(301, { Location: '/moved.txt' }).end();
    else if (req.url === '/moved.txt') res.writeHead(302, { Location: `${target}/robots.txt` }).end();
    else if (req.url === '/loop') res.writeHead(302, { Location: '/loop' }).end();
    else if (req.url === '/ftp') res.writeHead(302, { Location: 'ftp://x/robots.txt' }).end();
    else res.writeHead(404).end('nope');
  });
  const c = client(t);
  assert.deepEqual(await c.getText(`${start}/robots.txt`, { maxBytes: MAX }), {
    status: 200,
    body: 'User-agent: *\nDisallow: /privé\n',
  });
  assert.deepEqual(await c.getText(`${start}/missing`, { maxBytes: MAX }), { status: 404, body: 'nope' });
  await rejectsWithCode(c.getText(`${start}/loop`, { maxBytes: MAX, maxRedirects: 3 }), 'FC_TOO_MANY_REDIRECTS');
  assert.equal(hits.filter((h) => h === '/loop').length, 4);
  await rejectsWithCode(c.getText(`${start}/ftp`, { maxBytes: MAX }), 'FC_BAD_REDIRECT');
});

test('stopping early (cap or corrupt data) closes a response that then stalls', async (t) => {
  const closed: string[] = [];
  const base = await serve(t, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': req.url === '/plain' ? 'identity' : 'gzip' });
    res.on('close', () => closed.push(req.url ?? ''));
    // send more than the cap (or bad data), then neither end nor send more
    if (req.url === '/gzip') {
      const gz = zlib.createGzip();
      gz.pipe(res);
      gz.write(Buffer.alloc(2 * MAX));
      gz.flush();
    } else {
      res.write(req.url === '/plain' ? Buffer.alloc(2 * MAX, 'a') : 'not gzip data');
    }
  });
  const c = client(t);
  assert.equal((await c.get(`${base}/plain`, { maxBytes: MAX })).truncated, true);
  assert.equal((await c.get(`${base}/gzip`, { maxBytes: MAX })).truncated, true);
  await rejectsWithCode(c.get(`${base}/corrupt`, { maxBytes: MAX }), 'FC_DECODE');
  for (let n = 0; n < 50 && closed.length < 3; n++) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(closed.sort(), ['/corrupt', '/gzip', '/plain']);
});

// Requests no longer get an AbortController each, nor a listener each on the
// caller's signal (issue 23 item 3): the deadlines and aborts must still hold.
test('fetchTimeoutMs ends a request that gets no answer, or a trickling body, with FC_TIMEOUT', async (t) => {
  const base = await serve(t, (req, res) => {
    if (req.url === '/trickle') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      const tick = setInterval(() => res.write('<p>'), 20); // never a 1 s gap, never the end
      res.on('close', () => clearInterval(tick));
    }
    // '/silent': accept and never answer
  });
  for (const proxy of [undefined, base]) {
    const c = client(t, { proxy, headersTimeoutMs: 60_000, bodyTimeoutMs: 1000, fetchTimeoutMs: 300 });
    const silent = await rejectsWithCode(c.get(`${base}/silent`, { maxBytes: MAX }), 'FC_TIMEOUT');
    assert.match(silent.message, /no complete response from .*\/silent within 300 ms/);
    const trickle = await rejectsWithCode(c.get(`${base}/trickle`, { maxBytes: MAX }), 'FC_TIMEOUT');
    assert.match(trickle.message, /within 300 ms/);
    assert.equal(c.outcomes.failed, 2);
  }
});

test('one caller signal aborts every request in flight on it, with one listener on it while any is', async (t) => {
  let hangs = 0;
  const base = await serve(t, (req, res) => {
    if (req.url === '/ok') res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>ok</p>');
    else hangs++; // '/hang': never answers
  });
  const c = client(t, { connections: 32 });
  const ac = new AbortController();
  assert.equal((await c.get(`${base}/ok`, { maxBytes: MAX, signal: ac.signal })).status, 200);
  // no request on it: no listener (a timeout signal with one is kept alive until it fires)
  assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
  const pending = Array.from({ length: 20 }, (_, i) => c.get(`${base}/hang?${i}`, { maxBytes: MAX, signal: ac.signal }));
  while (hangs < 20) await new Promise((r) => setTimeout(r, 10));
  assert.equal(getEventListeners(ac.signal, 'abort').length, 1);
  ac.abort();
  for (const p of pending) await rejectsWithCode(p, 'FC_NETWORK');
  // an aborted signal: refused at once, nothing sent; aborts are not counted as failures
  await rejectsWithCode(c.get(`${base}/hang?late`, { maxBytes: MAX, signal: ac.signal }), 'FC_NETWORK');
  assert.equal(hangs, 20);
  assert.deepEqual({ answered: c.outcomes.answered, failed: c.outcomes.failed }, { answered: 1, failed: 0 });
});

test('connections are reused, directly and through the proxy pool', async (t) => {
  const sockets = new Set<unknown>();
  const base = await serve(t, (req, res) => {
    sockets.add(req.socket);
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>ok</p>');
  });
  for (const proxy of [undefined, base]) {
    sockets.clear();
    const c = client(t, { proxy, proxyConnections: 4, connections: 4 });
    for (let i = 0; i < 10; i++) assert.equal((await c.get(`${base}/seq${i}`, { maxBytes: MAX })).status, 200);
    // undici frees a connection a tick after its body ends, so the second
    // request, sent at once, opens a second one; from then on the two serve all
    assert.ok(sockets.size <= 2, `${sockets.size} connections for 10 sequential requests${proxy === undefined ? '' : ' through the proxy'}`);
    for (let round = 0; round < 3; round++) {
      await Promise.all(Array.from({ length: 4 }, (_, i) => c.get(`${base}/par${round}-${i}`, { maxBytes: MAX })));
    }
    assert.ok(sockets.size <= 4, `${sockets.size} connections for 4 at a time${proxy === undefined ? '' : ' through the proxy'}`);
  }
});
