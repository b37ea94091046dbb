import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpClient } from '../src/http.ts';
import { fetchStage, type FetchStageOptions } from '../src/stages/fetch.ts';
import type { CrawlItem } from '../src/types.ts';
import { serve, type Handler } from './helpers/serve.ts';


function item(url: string): CrawlItem {
  return { entry: { url, score: 0, depth: 0, parent: null } };
}

async function* from(items: CrawlItem[]): AsyncGenerator<CrawlItem> {
  for (const i of items) yield i;
}

function stage(t: TestContext, items: CrawlItem[], opts: Partial<FetchStageOptions> = {}): AsyncGenerator<CrawlItem> {
  const client = new HttpClient({ allowPrivate: true });
  t.after(() => client.close());
  return fetchStage(from(items), { client, concurrency: 4, maxBytes: 1 << 20, ...opts });
}

async function collect(gen: AsyncIterable<CrawlItem>): Promise<CrawlItem[]> {
  const out: CrawlItem[] = [];
  for await (const i of gen) out.push(i);
  return out;
}

/** Server where /r/<n> redirects to /r/<n-1> and /r/0 is a page; plus fixed routes. */
function redirectServer(hits: Map<string, number>, routes: Record<string, string> = {}): Handler {
  return (req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const m = /^\/r\/(\d+)$/.exec(path);
    if (m !== null && m[1] !== '0') {
      res.writeHead(Number(m[1]) % 2 === 0 ? 301 : 302, { Location: `/r/${Number(m[1]) - 1}` }).end();
    } else if (routes[path] !== undefined) {
      res.writeHead(307, { Location: routes[path] }).end();
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=ISO-8859-1' }).end(`<p>${path}</p>`);
    }
  };
}

test('redirect chain is followed and recorded; checkHop sees each later hop', async (t) => {
  const hits = new Map<string, number>();
  const base = await serve(t, redirectServer(hits, { '/start': '/r/2#frag' }));
  const checked: string[] = [];
  const before = Date.now();
  const [out] = await collect(
    stage(t, [item(`${base}/start`)], {
      checkHop: async (u) => {
        checked.push(u);
        return null;
      },
    }),
  );
  assert.equal(out.error, undefined);
  const f = out.fetch!;
  assert.equal(f.url, `${base}/start`);
  assert.equal(f.finalUrl, `${base}/r/0`);
  assert.deepEqual(f.redirects, [`${base}/start`, `${base}/r/2`, `${base}/r/1`, `${base}/r/0`]);
  assert.deepEqual(checked, [`${base}/r/2`, `${base}/r/1`, `${base}/r/0`]);
  assert.equal(f.status, 200);
  assert.equal(f.contentType, 'text/html');
  assert.equal(f.headerCharset, 'iso-8859-1');
  assert.equal(f.body?.toString(), '<p>/r/0</p>');
  assert.equal(f.bytes, 11);
  assert.equal(f.truncated, false);
  assert.equal(f.replay, false);
  assert.ok(Date.parse(f.fetchedAt) >= before - 1000 && f.fetchedAt.endsWith('Z'));
  assert.ok(f.ms >= 0 && f.ms < 5000);
});

test('redirect loop -> FC_TOO_MANY_REDIRECTS', async (t) => {
  const hits = new Map<string, number>();
  const base = await serve(t, redirectServer(hits, { '/l1': '/l2', '/l2': '/l1' }));
  const [out] = await collect(stage(t, [item(`${base}/l1`)]));
  assert.equal(out.fetch, undefined);
  assert.equal(out.error?.code, 'FC_TOO_MANY_REDIRECTS');
  assert.equal(hits.get('/l1'), 1);
  assert.equal(hits.get('/l2'), 1);
});

test('5 redirects are followed, 6 are too many', async (t) => {
  const hits = new Map<string, number>();
  const base = await serve(t, redirectServer(hits));
  const out = await collect(stage(t, [item(`${base}/r/5`), item(`${base}/r/6`)], { concurrency: 1 }));
  const five = out.find((i) => i.entry.url.endsWith('/r/5'))!;
  const six = out.find((i) => i.entry.url.endsWith('/r/6'))!;
  assert.equal(five.fetch?.status, 200);
  assert.equal(five.fetch?.redirects.length, 6);
  assert.equal(six.error?.code, 'FC_TOO_MANY_REDIRECTS');
  assert.equal(hits.get('/r/0'), 1); // only the 5-hop chain reached the page
});

test('maxRedirects is configurable', async (t) => {
  const base = await serve(t, redirectServer(new Map()));
  const [out] = await collect(stage(t, [item(`${base}/r/2`)], { maxRedirects: 1 }));
  assert.equal(out.error?.code, 'FC_TOO_MANY_REDIRECTS');
});

test('redirect to ftp: or a malformed location -> FC_BAD_REDIRECT', async (t) => {
  const base = await serve(t, redirectServer(new Map(), { '/ftp': 'ftp://example.com/file', '/bad': 'http://' }));
  const out = await collect(stage(t, [item(`${base}/ftp`), item(`${base}/bad`)]));
  assert.deepEqual(
    out.map((i) => i.error?.code),
    ['FC_BAD_REDIRECT', 'FC_BAD_REDIRECT'],
  );
});

test('checkHop veto ends the item before the vetoed URL is requested', async (t) => {
  const hits = new Map<string, number>();
  const base = await serve(t, redirectServer(hits, { '/go': '/secret' }));
  const veto = { code: 'FC_ROBOTS_DISALLOWED', message: 'robots.txt forbids /secret' };
  const [out] = await collect(
    stage(t, [item(`${base}/go`)], { checkHop: async (u) => (u.endsWith('/secret') ? veto : null) }),
  );
  assert.deepEqual(out.error, veto);
  assert.equal(out.fetch, undefined);
  assert.equal(hits.get('/go'), 1);
  assert.equal(hits.get('/secret') ?? 0, 0);
});

test('concurrency bound: never more than `concurrency` requests in flight', async (t) => {
  let inFlight = 0;
  let maxInFlight = 0;
  const base = await serve(t, (_req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('ok');
    }, 20);
  });
  const items = Array.from({ length: 20 }, (_, i) => item(`${base}/p${i}`));
  const out = await collect(stage(t, items, { concurrency: 5 }));
  assert.equal(out.length, 20);
  assert.ok(out.every((i) => i.fetch?.status === 200));
  assert.equal(new Set(out.map((i) => i.entry.url)).size, 20);
  assert.equal(maxInFlight, 5);
});

test('backpressure: a paused consumer stops new fetches', async (t) => {
  let requests = 0;
  const base = await serve(t, (_req, res) => {
    requests++;
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('ok');
  });
  let pulled = 0;
  async function* source(): AsyncGenerator<CrawlItem> {
    for (let i = 0; i < 20; i++) {
      pulled++;
      yield item(`${base}/p${i}`);
    }
  }
  const client = new HttpClient({ allowPrivate: true });
  t.after(() => client.close());
  const concurrency = 3;
  const gen = fetchStage(source(), { client, concurrency, maxBytes: 1000 });
  const first = await gen.next();
  assert.equal(first.done, false);
  const atPause = requests;
  await sleep(300); // consumer paused: fetches already started finish, nothing new starts
  const startedWhilePaused = requests - atPause;
  assert.ok(startedWhilePaused <= concurrency, `started ${startedWhilePaused} while paused`);
  assert.ok(requests <= concurrency + 1, `${requests} requests for 1 consumed item`);
  assert.ok(pulled <= concurrency + 1, `${pulled} items pulled for 1 consumed item`);
  let rest = 0;
  for await (const i of gen) {
    assert.equal(i.fetch?.status, 200);
    rest++;
  }
  assert.equal(rest, 19);
  assert.equal(requests, 20);
});

test('onFetched is called once per item before it is yielded; error items pass through', async (t) => {
  let hits = 0;
  const base = await serve(t, (req, res) => {
    hits++;
    if (req.url === '/404') res.writeHead(404, { 'Content-Type': 'text/html' }).end('gone');
    else res.writeHead(200, { 'Content-Type': 'text/html' }).end('ok');
  });
  const errored = item(`${base}/never`);
  errored.error = { code: 'FC_ROBOTS_DISALLOWED', message: 'no' };
  const items = [item(`${base}/a`), errored, item(`${base}/404`), item(`${base}/b`)];
  const calls = new Map<CrawlItem, number>();
  const out: CrawlItem[] = [];
  for await (const i of stage(t, items, { concurrency: 2, onFetched: (x) => calls.set(x, (calls.get(x) ?? 0) + 1) })) {
    assert.equal(calls.get(i), 1, 'onFetched ran before the item was yielded');
    out.push(i);
  }
  assert.equal(out.length, 4);
  assert.deepEqual([...calls.values()], [1, 1, 1, 1]);
  assert.ok(out.includes(errored));
  assert.equal(errored.fetch, undefined);
  assert.deepEqual(errored.error, { code: 'FC_ROBOTS_DISALLOWED', message: 'no' });
  assert.equal(hits, 3); // /never was not requested
  assert.equal(out.find((i) => i.entry.url.endsWith('/404'))?.fetch?.status, 404);
});

test('network failures become item errors and the stage carries on', async (t) => {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const dead = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const base = await serve(t, (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('ok'));
  const out = await collect(stage(t, [item(dead), item(`${base}/`)]));
  assert.equal(out.find((i) => i.entry.url === dead)?.error?.code, 'FC_NETWORK');
  assert.equal(out.find((i) => i.entry.url !== dead)?.fetch?.status, 200);
});

test('a consumer that stops early aborts in-flight requests', async (t) => {
  let closed = 0;
  const base = await serve(t, (req, res) => {
    if (req.url === '/fast') res.writeHead(200, { 'Content-Type': 'text/html' }).end('ok');
    else res.on('close', () => closed++); // hang
  });
  const gen = stage(t, [item(`${base}/fast`), item(`${base}/hang1`), item(`${base}/hang2`)], { concurrency: 3 });
  for await (const i of gen) {
    assert.equal(i.fetch?.status, 200);
    break;
  }
  for (let n = 0; n < 50 && closed < 2; n++) await sleep(20);
  assert.equal(closed, 2);
});

test('an external abort signal ends the stage', async (t) => {
  const base = await serve(t, (req, res) => {
    if (req.url === '/fast') res.writeHead(200, { 'Content-Type': 'text/html' }).end('ok');
    // others hang
  });
  const ac = new AbortController();
  const out: CrawlItem[] = [];
  const gen = stage(t, [item(`${base}/fast`), item(`${base}/hang`)], { concurrency: 2, signal: ac.signal });
  setTimeout(() => ac.abort(), 200);
  for await (const i of gen) out.push(i);
  assert.deepEqual(
    out.map((i) => i.entry.url),
    [`${base}/fast`],
  );
});

test('concurrency must be a positive integer', async (t) => {
  await assert.rejects(stage(t, [], { concurrency: 0 }).next(), TypeError);
});

// Regression (issue 21, item 7): answers received before a fetch failed were
// lost with the thrown error, so --warc-out never archived them.
test('a fetch that fails after an answer came keeps every answer received (refusedHops); none came: none kept', async (t) => {
  const base = await serve(t, (req, res) => {
    if (req.url === '/to-dead') return void res.writeHead(302, { Location: '/dead' }).end();
    if (req.url === '/dead') return void req.socket.destroy();
    if (req.url === '/bad-br') return void res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'br' }).end('not brotli');
    res.writeHead(302, { Location: 'javascript:void(0)' }).end();
  });
  const out = await collect(stage(t, [item(`${base}/to-dead`), item(`${base}/bad-br`), item(`${base}/to-js`), item(`${base}/dead`)]));
  const by = new Map(out.map((i) => [new URL(i.entry.url).pathname, i]));
  assert.equal(by.get('/to-dead')!.error?.code, 'FC_NETWORK');
  assert.deepEqual(by.get('/to-dead')!.refusedHops?.map((h) => [new URL(h.url).pathname, h.status]), [['/to-dead', 302]]);
  assert.equal(by.get('/bad-br')!.error?.code, 'FC_DECODE');
  assert.deepEqual(by.get('/bad-br')!.refusedHops?.map((h) => [new URL(h.url).pathname, h.status, h.headers['content-encoding']]), [['/bad-br', 200, 'br']]);
  assert.equal(by.get('/to-js')!.error?.code, 'FC_BAD_REDIRECT');
  assert.deepEqual(by.get('/to-js')!.refusedHops?.map((h) => h.headers.location), ['javascript:void(0)']);
  assert.equal(by.get('/dead')!.error?.code, 'FC_NETWORK');
  assert.equal(by.get('/dead')!.refusedHops, undefined);
});
