import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { NetworkError } from '../src/errors.ts';
import { Lru } from '../src/util/lru.ts';
import { RobotsCache, cutRobotsBody, type RobotsFetch } from '../src/fetch/robots.ts';
import { robotsAllows, robotsAllowsNow } from '../src/fetch/robots.ts';
import { robotsStage } from '../src/stages/robots.ts';
import { canonicalize } from '../src/urls/canonical.ts';
import type { CrawlItem } from '../src/types.ts';

interface Site {
  origin: string;
  /** every path requested, in order */
  hits: string[];
  close: () => Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** An HTTP server on 127.0.0.1:0 that records request paths. */
async function site(handler: Handler): Promise<Site> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A site whose /robots.txt answers `status` with `body` and every other path 200 "ok". */
function robotsSite(status: number, body: string, delayMs = 0): Promise<Site> {
  return site((req, res) => {
    if (req.url === '/robots.txt') {
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(body);
      }, delayMs);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('ok');
  });
}

const undiciFetch: RobotsFetch = async (url, signal) => {
  const res = await request(url, { signal });
  return { status: res.statusCode, body: await res.body.text() };
};

function robotsHits(s: Site): number {
  return s.hits.filter((p) => p === '/robots.txt').length;
}

function item(url: string, depth = 0, parent: string | null = null): CrawlItem {
  return { entry: { url, score: 0, depth, parent } };
}

async function* from<T>(xs: T[]): AsyncGenerator<T> {
  for (const x of xs) yield x;
}

async function collect<T>(src: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of src) out.push(x);
  return out;
}

test('Lru evicts the least recently used key; get refreshes, has/peek do not', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1).set('b', 2);
  assert.equal(lru.get('a'), 1); // a is now newest
  lru.set('c', 3); // evicts b
  assert.equal(lru.has('b'), false);
  assert.deepEqual([lru.has('a'), lru.has('c'), lru.size], [true, true, 2]);
  assert.equal(lru.peek('a'), 1); // does not refresh a
  lru.set('d', 4); // evicts a (oldest: a was used before c was set)
  assert.equal(lru.has('a'), false);
  assert.equal(lru.delete('c'), true);
  assert.equal(lru.delete('c'), false);
  assert.equal(lru.size, 1);
  lru.set('d', 5); // overwrite keeps size
  assert.deepEqual([lru.size, lru.get('d')], [1, 5]);
  assert.throws(() => new Lru(0), TypeError);
  assert.throws(() => new Lru(1.5), TypeError);
});

test('mini crawl through the stage never requests a disallowed path', async (t) => {
  const pages: Record<string, string[]> = {
    '/': ['/a', '/private/x', '/b'],
    '/a': ['/private/y', '/c', '/private/ok.html'],
    '/b': ['/a'],
    '/c': ['/'],
    '/private/ok.html': [],
  };
  const s = await site((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /private/\nAllow: /private/ok.html\n');
      return;
    }
    const links = pages[req.url ?? ''];
    res.writeHead(links ? 200 : 404, { 'content-type': 'text/html' });
    res.end((links ?? []).map((l) => `<a href="${l}">x</a>`).join(''));
  });
  t.after(() => s.close());
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });

  const seen = new Set<string>();
  const refused: CrawlItem[] = [];
  let layer = [item(`${s.origin}/`)];
  seen.add(layer[0].entry.url);
  while (layer.length > 0) {
    const next: CrawlItem[] = [];
    for await (const it of robotsStage(from(layer), { robots })) {
      if (it.error) {
        refused.push(it);
        continue;
      }
      const res = await request(it.entry.url);
      const html = await res.body.text();
      for (const m of html.matchAll(/href="([^"]+)"/g)) {
        const url = canonicalize(m[1], it.entry.url);
        if (url === null || seen.has(url)) continue;
        seen.add(url);
        next.push(item(url, it.entry.depth + 1, it.entry.url));
      }
    }
    layer = next;
  }

  assert.deepEqual(s.hits.filter((p) => p.startsWith('/private/') && p !== '/private/ok.html'), []);
  assert.deepEqual(new Set(s.hits), new Set(['/robots.txt', '/', '/a', '/b', '/c', '/private/ok.html']));
  assert.equal(robotsHits(s), 1);
  assert.deepEqual(refused.map((it) => it.entry.url).sort(), [`${s.origin}/private/x`, `${s.origin}/private/y`]);
  for (const it of refused) {
    assert.equal(it.error?.code, 'FC_ROBOTS_DISALLOWED');
    assert.match(it.error?.message ?? '', new RegExp(`${s.origin}/robots.txt line 2`));
  }
});

test('the group naming our agent beats *, and only its Crawl-delay applies', async (t) => {
  const s = await robotsSite(
    200,
    [
      'User-agent: *',
      'Disallow: /',
      'Crawl-delay: 7',
      '',
      'User-agent: FocusCrawl/2.0',
      'Disallow: /only-us',
      'Crawl-delay: 0.25',
    ].join('\r\n'),
  );
  t.after(() => s.close());
  const ours = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });
  const other = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'otherbot' });

  assert.deepEqual(await ours.check(`${s.origin}/page`), { allowed: true, crawlDelayMs: 250 });
  const refused = await ours.check(`${s.origin}/only-us/x`);
  assert.equal(refused.allowed, false);
  assert.equal(refused.code, 'FC_ROBOTS_DISALLOWED');
  assert.equal(refused.crawlDelayMs, 250);
  assert.match(refused.message ?? '', /line 6/);

  const theirs = await other.check(`${s.origin}/page`);
  assert.equal(theirs.allowed, false);
  assert.equal(theirs.crawlDelayMs, 7000);
});

test('Crawl-delay from *, fractional, and crawlDelayMs() reads the cache only', async (t) => {
  const s = await robotsSite(200, 'User-agent: *\nCrawl-delay: 2.5\nDisallow: /x\n');
  t.after(() => s.close());
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });
  assert.equal(robots.crawlDelayMs(`${s.origin}/`), null);
  assert.equal(robotsHits(s), 0);
  assert.equal((await robots.check(`${s.origin}/`)).crawlDelayMs, 2500);
  assert.equal(robots.crawlDelayMs(`${s.origin}/anything`), 2500);
  assert.equal(robots.crawlDelayMs('not a url'), null);
});

for (const status of [404, 401, 403, 410, 301]) {
  test(`robots.txt answering ${status} allows everything`, async (t) => {
    const s = await robotsSite(status, 'User-agent: *\nDisallow: /\n');
    t.after(() => s.close());
    const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });
    assert.deepEqual(await robots.check(`${s.origin}/any/path`), { allowed: true, crawlDelayMs: null });
    assert.deepEqual(await robots.check(`${s.origin}/other`), { allowed: true, crawlDelayMs: null });
    assert.equal(robotsHits(s), 1);
  });
}

for (const status of [500, 503, 429]) {
  test(`robots.txt answering ${status} closes the origin until unavailableMs passes`, async (t) => {
    let robotsStatus = status;
    const s = await site((req, res) => {
      res.writeHead(req.url === '/robots.txt' ? robotsStatus : 200);
      res.end(req.url === '/robots.txt' && robotsStatus === 200 ? 'User-agent: *\nDisallow: /no\n' : 'x');
    });
    t.after(() => s.close());
    let now = 1_000_000;
    const robots = new RobotsCache({
      fetchRobots: undiciFetch,
      userAgent: 'focuscrawl',
      unavailableMs: 60_000,
      now: () => now,
    });
    const v = await robots.check(`${s.origin}/page`);
    assert.equal(v.allowed, false);
    assert.equal(v.code, 'FC_ROBOTS_UNAVAILABLE');
    assert.match(v.message ?? '', new RegExp(`answered ${status}`));
    assert.equal(v.crawlDelayMs, null);

    now += 59_999;
    assert.equal((await robots.check(`${s.origin}/other`)).code, 'FC_ROBOTS_UNAVAILABLE');
    assert.equal(robotsHits(s), 1);

    robotsStatus = 200;
    now += 1;
    assert.deepEqual(await robots.check(`${s.origin}/page`), { allowed: true, crawlDelayMs: null });
    assert.equal((await robots.check(`${s.origin}/no`)).code, 'FC_ROBOTS_DISALLOWED');
    assert.equal(robotsHits(s), 2);
  });
}

test('a rejecting fetchRobots (network error) makes the origin unavailable, then retries', async () => {
  let calls = 0;
  let now = 0;
  const robots = new RobotsCache({
    fetchRobots: async () => {
      calls++;
      throw new Error('connect ECONNREFUSED');
    },
    userAgent: 'focuscrawl',
    unavailableMs: 1000,
    now: () => now,
  });
  const v = await robots.check('http://127.0.0.1:9/x');
  assert.equal(v.code, 'FC_ROBOTS_UNAVAILABLE');
  assert.match(v.message ?? '', /ECONNREFUSED/);
  await robots.check('http://127.0.0.1:9/y');
  assert.equal(calls, 1);
  now = 1000;
  await robots.check('http://127.0.0.1:9/y');
  assert.equal(calls, 2);
});

test('a robots fetch that hangs past timeoutMs is FC_TIMEOUT (retried like a page fetch), not cached', async (t) => {
  const s = await site((req, res) => {
    if (req.url !== '/robots.txt') res.end('x'); // robots.txt never answers
  });
  t.after(() => s.close());
  let signalled: AbortSignal | undefined;
  const robots = new RobotsCache({
    fetchRobots: (url, signal) => {
      signalled = signal;
      return undiciFetch(url, signal);
    },
    userAgent: 'focuscrawl',
    timeoutMs: 100,
  });
  const started = Date.now();
  const v = await robots.check(`${s.origin}/page`);
  assert.ok(Date.now() - started < 2000);
  assert.equal(v.code, 'FC_TIMEOUT');
  assert.match(v.message ?? '', /timed out after 100 ms/);
  assert.equal(signalled?.aborted, true);
  // no answer is not cached: the next check (a retry) asks again
  assert.equal((await robots.check(`${s.origin}/page`)).code, 'FC_TIMEOUT');
  assert.equal(robotsHits(s), 2);
});

// Issue 21 item 2: a robots.txt that got no answer (connection refused, DNS
// failure) made the origin off limits for 10 minutes with FC_ROBOTS_UNAVAILABLE,
// a final record, so the crawl used up its seeds on a transient failure.
test('a robots fetch rejected with FC_NETWORK gives the URL FC_NETWORK and is asked again on the next check', async () => {
  let calls = 0;
  const robots = new RobotsCache({
    fetchRobots: async () => {
      calls++;
      if (calls === 1) throw new NetworkError('connect ECONNREFUSED 127.0.0.1:8118');
      return { status: 200, body: 'User-agent: *\nDisallow: /no\n' };
    },
    userAgent: 'focuscrawl',
  });
  const v = await robots.check('http://example.test/x');
  assert.equal(v.allowed, false);
  assert.equal(v.code, 'FC_NETWORK');
  assert.match(v.message ?? '', /robots\.txt could not be fetched: connect ECONNREFUSED/);
  assert.deepEqual(await robots.check('http://example.test/x'), { allowed: true, crawlDelayMs: null });
  assert.equal((await robots.check('http://example.test/no')).code, 'FC_ROBOTS_DISALLOWED');
  assert.equal(calls, 2);
});

test('50 concurrent checks of one origin share a single robots fetch', async (t) => {
  const s = await robotsSite(200, 'User-agent: *\nDisallow: /odd\n', 50);
  t.after(() => s.close());
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });
  const verdicts = await Promise.all(
    Array.from({ length: 50 }, (_, i) => robots.check(`${s.origin}/${i % 2 ? 'odd' : 'even'}/${i}`)),
  );
  assert.equal(robotsHits(s), 1);
  assert.equal(verdicts.filter((v) => v.allowed).length, 25);
  assert.ok(verdicts.every((v, i) => v.allowed === (i % 2 === 0)));
});

test('the LRU keeps `capacity` origins and fetches an evicted one again', async (t) => {
  const sites = await Promise.all([0, 1, 2].map(() => robotsSite(200, 'User-agent: *\nDisallow: /x\n')));
  t.after(() => Promise.all(sites.map((s) => s.close())));
  const [a, b, c] = sites;
  // maxCapacity 2: the LRU alone, without growing (see the next test)
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl', capacity: 2, maxCapacity: 2 });
  await robots.check(`${a.origin}/`);
  await robots.check(`${b.origin}/`);
  await robots.check(`${a.origin}/1`); // a is now the newest
  await robots.check(`${c.origin}/`); // evicts b
  assert.deepEqual(sites.map(robotsHits), [1, 1, 1]);
  await robots.check(`${a.origin}/2`);
  await robots.check(`${c.origin}/2`);
  assert.deepEqual(sites.map(robotsHits), [1, 1, 1]);
  assert.equal(robots.crawlDelayMs(`${b.origin}/`), null); // evicted
  assert.equal(robots.crawlDelayMs(`${a.origin}/`), null); // cached, no Crawl-delay; must not refresh a
  await robots.check(`${b.origin}/2`); // evicts a (least recently used)
  assert.deepEqual(sites.map(robotsHits), [1, 2, 1]);
  await robots.check(`${a.origin}/3`);
  assert.deepEqual(sites.map(robotsHits), [2, 2, 1]);
});

test('the cache grows when a crawl cycles through more origins than it keeps', async (t) => {
  // Issue 23: a polite crawl (bfs, --delay-ms 1000) cycled through ~2,100
  // hosts and the 1,000-origin LRU evicted each before its next turn:
  // robots.txt was fetched 2,722 times for 2,132 origins.
  const sites = await Promise.all([0, 1, 2].map(() => robotsSite(200, 'User-agent: *\nDisallow: /x\n')));
  t.after(() => Promise.all(sites.map((s) => s.close())));
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl', capacity: 2 });
  for (let round = 0; round < 4; round++) {
    for (const s of sites) assert.equal((await robots.check(`${s.origin}/x`)).code, 'FC_ROBOTS_DISALLOWED');
  }
  // a is evicted by c once, fetched again, and the cache grows to hold all three
  assert.deepEqual(sites.map(robotsHits), [2, 1, 1]);
  assert.equal(robots.capacity, 3);
});

test('the cache keeps at most maxCachedBytes of robots.txt bodies', async (t) => {
  const body = `User-agent: *\n${'Disallow: /private/path/\n'.repeat(200)}`; // ~5 KB, ~10 KB estimated
  const sites = await Promise.all([0, 1].map(() => robotsSite(200, body)));
  t.after(() => Promise.all(sites.map((s) => s.close())));
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl', maxCachedBytes: 15_000 });
  const [a, b] = sites;
  await robots.check(`${a.origin}/`);
  await robots.check(`${b.origin}/`); // a goes: both do not fit
  await robots.check(`${b.origin}/1`);
  assert.deepEqual(sites.map(robotsHits), [1, 1]);
  await robots.check(`${a.origin}/1`);
  assert.deepEqual(sites.map(robotsHits), [2, 1]);
});

test('a robots.txt older than ttlMs is fetched again', async (t) => {
  const s = await robotsSite(200, 'User-agent: *\nDisallow: /x\n');
  t.after(() => s.close());
  let now = 0;
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl', ttlMs: 5000, now: () => now });
  await robots.check(`${s.origin}/`);
  now = 4999;
  await robots.check(`${s.origin}/`);
  assert.equal(robotsHits(s), 1);
  now = 5000;
  await robots.check(`${s.origin}/`);
  assert.equal(robotsHits(s), 2);
});

test('an oversized robots.txt is cut at maxBytes and the rest still applies', async (t) => {
  const padding = '# padding padding padding padding padding\n'.repeat(100); // ~4.3 KB
  const body = `User-agent: *\nDisallow: /early\n${padding}Disallow: /late\n`;
  const s = await robotsSite(200, body);
  t.after(() => s.close());
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl', maxBytes: 1024 });
  assert.equal((await robots.check(`${s.origin}/early/1`)).code, 'FC_ROBOTS_DISALLOWED');
  assert.equal((await robots.check(`${s.origin}/late/1`)).allowed, true);
  // without the cap the later rule applies
  const uncapped = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });
  assert.equal((await uncapped.check(`${s.origin}/late/1`)).code, 'FC_ROBOTS_DISALLOWED');
});

test('cutRobotsBody keeps whole lines and whole characters within maxBytes', () => {
  const body = 'User-agent: *\nDisallow: /a\nAllow: /a/public\n';
  assert.equal(cutRobotsBody(body, 1000), body);
  // cut inside the Allow line: the half line is dropped, not kept as "Allow: /a/p"
  assert.equal(cutRobotsBody(body, 34), 'User-agent: *\nDisallow: /a');
  // cut exactly before a line break keeps the last line
  assert.equal(cutRobotsBody(body, 26), 'User-agent: *\nDisallow: /a');
  // multi-byte characters: '中' is 3 bytes in UTF-8
  const cjk = `Disallow: /中文\nDisallow: /${'中'.repeat(20)}\n`;
  const cut = cutRobotsBody(cjk, 40);
  assert.equal(cut, 'Disallow: /中文');
  assert.ok(Buffer.byteLength(cut) <= 40);
  assert.equal(cutRobotsBody('Disallow: /no-line-break-at-all', 10), '');
});

test('malformed robots.txt lines are ignored', async (t) => {
  const body = [
    'this is not a rule',
    'Disallow /nocolon',
    '<html><body>oops</body></html>',
    'User-agent: *',
    'Frobnicate: yes',
    ': nothing before the colon',
    'Disallow: /bad # trailing comment',
    'Crawl-delay: soon',
    '\u0000\u00ff garbage',
  ].join('\n');
  const s = await robotsSite(200, body);
  t.after(() => s.close());
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });
  assert.equal((await robots.check(`${s.origin}/bad/page`)).code, 'FC_ROBOTS_DISALLOWED');
  assert.deepEqual(await robots.check(`${s.origin}/nocolon`), { allowed: true, crawlDelayMs: null });
});

test('the robots URL itself is always allowed, without a fetch', async (t) => {
  const s = await robotsSite(200, 'User-agent: *\nDisallow: /\n');
  t.after(() => s.close());
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });
  assert.equal((await robots.check(`${s.origin}/robots.txt`)).allowed, true);
  assert.equal(robotsHits(s), 0);
  assert.equal((await robots.check(`${s.origin}/page`)).allowed, false);
  assert.equal((await robots.check(`${s.origin}/robots.txt`)).allowed, true);
  await assert.rejects(robots.check('ftp://127.0.0.1/x'), TypeError);
});

test('robotsStage: error items pass untouched, refused items get the code, order kept', async (t) => {
  const s = await robotsSite(200, 'User-agent: *\nDisallow: /private\n');
  const down = await robotsSite(503, '');
  t.after(() => Promise.all([s.close(), down.close()]));
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });
  const earlier = { code: 'FC_TIMEOUT' as const, message: 'earlier failure' };
  const items: CrawlItem[] = [
    item(`${s.origin}/a`),
    { ...item(`${down.origin}/already-failed`), error: earlier },
    item(`${s.origin}/private/b`),
    item(`${down.origin}/c`),
    item(`${s.origin}/d`),
  ];
  const out = await collect(robotsStage(from(items), { robots }));
  assert.deepEqual(
    out.map((it) => it.entry.url),
    items.map((it) => it.entry.url),
  );
  assert.equal(out[0].error, undefined);
  assert.equal(out[1].error, earlier);
  assert.equal(out[2].error?.code, 'FC_ROBOTS_DISALLOWED');
  assert.equal(out[3].error?.code, 'FC_ROBOTS_UNAVAILABLE');
  assert.match(out[3].error?.message ?? '', new RegExp(down.origin));
  assert.equal(out[4].error, undefined);
  assert.equal(robotsHits(down), 1); // only for /c: the failed item caused no fetch
});

test('robotsAllows returns null, an ItemError, or FC_INTERNAL for a malformed URL', async (t) => {
  const s = await robotsSite(200, 'User-agent: *\nDisallow: /private\n');
  t.after(() => s.close());
  const robots = new RobotsCache({ fetchRobots: undiciFetch, userAgent: 'focuscrawl' });
  assert.equal(await robotsAllows(robots, `${s.origin}/ok`), null);
  assert.equal((await robotsAllows(robots, `${s.origin}/private`))?.code, 'FC_ROBOTS_DISALLOWED');
  assert.equal((await robotsAllows(robots, 'not a url'))?.code, 'FC_INTERNAL');
});

// The robots stage answers a URL of a cached origin at once (no promise), so
// mapConcurrent takes it as quick and pulls nothing ahead of need; a URL that
// must wait for a fetch is a promise (issue 23 item 3).
test('checkCached and robotsAllowsNow answer at once only when no fetch is needed', async (t) => {
  const s = await robotsSite(200, 'User-agent: *\nDisallow: /private\n');
  t.after(() => s.close());
  const robots = new RobotsCache({ userAgent: 'focuscrawl', fetchRobots: undiciFetch });
  assert.equal(robots.checkCached(`${s.origin}/a`), undefined, 'not cached yet');
  assert.deepEqual(robots.checkCached(`${s.origin}/robots.txt`), { allowed: true, crawlDelayMs: null }, 'robots.txt itself needs no fetch');
  const pending = robotsAllowsNow(robots, `${s.origin}/a`);
  assert.ok(pending instanceof Promise);
  assert.equal(await pending, null);
  assert.equal(robotsAllowsNow(robots, `${s.origin}/b`), null, 'cached: allowed at once');
  const refused = robotsAllowsNow(robots, `${s.origin}/private/x`);
  assert.ok(!(refused instanceof Promise) && refused?.code === 'FC_ROBOTS_DISALLOWED');
  assert.equal((robotsAllowsNow(robots, 'ftp://x/') as { code: string }).code, 'FC_INTERNAL', 'a bad URL is an error at once');
  assert.deepEqual(s.hits, ['/robots.txt']);
});
