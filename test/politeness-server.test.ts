/**
 * robots.txt and politeness, proven from the server side. Several test hosts
 * (one port each on 127.0.0.1) serve robots.txt files in several rule
 * styles and pages that link heavily into the disallowed paths (directly,
 * percent-encoded, and through redirects from allowed pages). Every request
 * to a disallowed path is recorded as a trap hit. A full crawl (no
 * --max-pages: it ends when the frontier is empty) must make zero requests
 * there and fetch every allowed page exactly once. Request start/end times
 * taken by the servers show per-host concurrency, Crawl-delay and
 * --delay-ms being kept.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';
import { serve } from './helpers/serve.ts';

/** How long each page takes to answer, so overlapping requests would show. */
const HANDLER_MS = 50;
/** Timer granularity allowance for the gap checks (a behaviour check, not a speed one). */
const TOLERANCE_MS = 20;

interface Hit {
  path: string;
  start: number;
  end: number;
}

interface HostSpec {
  robots: string | null;
  /** allowed page path -> links on it; a string value is a redirect target instead */
  pages: Record<string, string[] | string>;
  /** what robots.txt disallows for focuscrawl, written independently of robots-parser */
  disallowed: RegExp[];
}

interface TestHost {
  base: string;
  /** page requests (robots.txt excluded), in arrival order */
  hits: Hit[];
  /** requests to disallowed paths */
  trapHits: string[];
  /** requests to paths neither allowed nor disallowed */
  unexpected: string[];
  /** most page requests in flight at once */
  maxActive: number;
}

/** `p` percent-decoded, so `/%70rivate/` counts as `/private/` (as it is the same resource). */
function decodePath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

async function startHost(t: TestContext, spec: HostSpec, trapLinks: () => string[]): Promise<TestHost> {
  const host: TestHost = { base: '', hits: [], trapHits: [], unexpected: [], maxActive: 0 };
  let active = 0;
  host.base = await serve(t, (req, res) => {
    const path = req.url!;
    if (path === '/robots.txt') {
      if (spec.robots === null) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(spec.robots);
      return;
    }
    const hit: Hit = { path, start: performance.now(), end: NaN };
    host.hits.push(hit);
    active++;
    host.maxActive = Math.max(host.maxActive, active);
    res.on('close', () => {
      active--;
      if (Number.isNaN(hit.end)) hit.end = performance.now(); // no answer was sent
    });
    const page = spec.pages[path];
    if (spec.disallowed.some((re) => re.test(decodePath(path)))) host.trapHits.push(path);
    else if (page === undefined) host.unexpected.push(path);
    setTimeout(() => {
      // Regression (flaky under load): 'close' could run tens of ms after the
      // answer left when this process was busy, which shrank the measured gap.
      // The answer is sent in this synchronous step: no client can have it earlier.
      hit.end = performance.now();
      if (typeof page === 'string') return void res.writeHead(302, { location: page }).end();
      const links = [...(page ?? []), ...trapLinks()].map((href) => `<a href="${href}">${href}</a>`).join('\n');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${path}</title></head><body>${links}</body></html>`);
    }, HANDLER_MS);
  });
  return host;
}

/** Allowed paths of a spec (what the crawl must fetch). */
function allowedPaths(spec: HostSpec): string[] {
  return Object.keys(spec.pages).sort();
}

function fetchedPaths(host: TestHost): string[] {
  return host.hits.map((h) => h.path).sort();
}

/** Host A: a `focuscrawl` group that overrides a `*` group disallowing everything. */
const HOST_A: HostSpec = {
  robots: [
    'User-agent: *',
    'Disallow: /',
    '',
    'User-agent: otherbot',
    'Allow: /private/',
    '',
    '# our group: prefix, wildcard with $ anchor, Allow overriding a broader Disallow, query prefix',
    'User-agent: FocusCrawl/9.9',
    'Disallow: /private/',
    'Disallow: /*.pdf$',
    'Disallow: /docs/',
    'Allow: /docs/public/',
    'Disallow: /search?q=',
    'Disallow: /tmp',
    '',
  ].join('\n'),
  pages: {
    '/': ['/about.html', '/private', '/PRIVATE/upper.html', '/docs/public/guide.html', '/files/report.pdf?download=1', '/search', '/go/private', '/go/pdf', '/go/b-secret', '/go/ok'],
    '/about.html': ['/'],
    // not under /private/ (no slash), case differs, Allow wins, `$` does not match, query does not match
    '/private': [],
    '/PRIVATE/upper.html': [],
    '/docs/public/guide.html': [],
    '/files/report.pdf?download=1': [],
    '/search': [],
    // redirects from allowed pages: the hop must be refused without a request
    '/go/private': '/private/from-redirect.html',
    '/go/pdf': '/files/from-redirect.pdf',
    '/go/b-secret': '', // set to host B's /secret/ URL below
    '/go/ok': '/ok-target.html',
    '/ok-target.html': [],
  },
  disallowed: [/^\/private\//, /\.pdf$/, /^\/docs\/(?!public\/)/, /^\/search\?q=/, /^\/tmp/],
};

const TRAPS_A = [
  '/private/',
  '/private/a.html',
  '/%70rivate/encoded.html',
  '/report.pdf',
  '/files/report.pdf',
  '/docs/',
  '/docs/secret.html',
  '/search?q=focus',
  '/tmp',
  '/tmp-notes.html',
  '/tmp/x.html',
];

/** Host B: Crawl-delay 1 for focuscrawl (5 for everyone else), a disallowed directory. */
const HOST_B: HostSpec = {
  robots: ['User-agent: *', 'Crawl-delay: 5', 'Disallow: /', '', 'User-agent: focuscrawl', 'Crawl-delay: 1', 'Disallow: /secret/', ''].join('\n'),
  pages: {
    '/': ['/b1.html', '/b2.html', '/b3.html'],
    '/b1.html': [],
    '/b2.html': [],
    '/b3.html': [],
  },
  disallowed: [/^\/secret\//],
};
const TRAPS_B = ['/secret/', '/secret/a.html', '/secret/b.html?x=1'];

/** Host C: only a `*` group, which therefore applies to focuscrawl; no Crawl-delay. */
const HOST_C: HostSpec = {
  robots: ['User-agent: otherbot', 'Disallow: /', '', 'User-agent: *', 'Disallow: /nostar/', ''].join('\n'),
  pages: Object.fromEntries([['/', Array.from({ length: 8 }, (_, i) => `/c${i}.html`)], ...Array.from({ length: 8 }, (_, i) => [`/c${i}.html`, []])]),
  disallowed: [/^\/nostar\//],
};
const TRAPS_C = ['/nostar/', '/nostar/a.html'];

/** Start hosts A, B, C; every page links to every host's traps. */
async function startWeb(t: TestContext): Promise<{ a: TestHost; b: TestHost; c: TestHost }> {
  const web = {} as { a: TestHost; b: TestHost; c: TestHost };
  const everyTrap = (): string[] => [
    ...TRAPS_A.map((p) => web.a.base + p),
    ...TRAPS_B.map((p) => web.b.base + p),
    ...TRAPS_C.map((p) => web.c.base + p),
    web.b.base + '/',
    web.c.base + '/',
  ];
  const specA: HostSpec = { ...HOST_A, pages: { ...HOST_A.pages } };
  web.b = await startHost(t, HOST_B, everyTrap);
  web.c = await startHost(t, HOST_C, everyTrap);
  specA.pages['/go/b-secret'] = `${web.b.base}/secret/from-redirect.html`;
  web.a = await startHost(t, specA, everyTrap);
  return web;
}

async function crawl(t: TestContext, seeds: string[], flags: string[]): Promise<any[]> {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  // --skip-extensions none: /files/report.pdf?download=1 is a robots.txt case (`/*.pdf$` does not match it), so it must be asked for
  const args = ['crawl', ...seeds.flatMap((s) => ['--seed', s]), '--store', dir, '--allow-private', '--quiet', '--skip-extensions', 'none', ...flags];
  const r = await runMain(args, { timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.stderr);
  return parseLines(r.stdout);
}

/** Gaps between one request's end and the next one's start, on one host, in arrival order. */
function gaps(host: TestHost): { from: string; to: string; endToStart: number; startToStart: number }[] {
  const out = [];
  for (let i = 1; i < host.hits.length; i++) {
    const prev = host.hits[i - 1];
    const next = host.hits[i];
    out.push({ from: prev.path, to: next.path, endToStart: next.start - prev.end, startToStart: next.start - prev.start });
  }
  return out;
}

test('a full crawl never requests a disallowed path, fetches every allowed page once, and keeps per-host 1, Crawl-delay and --delay-ms', async (t) => {
  const web = await startWeb(t);
  const records = await crawl(t, [`${web.a.base}/`], ['--per-host', '1', '--delay-ms', '200', '--concurrency', '8']);

  for (const [name, host] of Object.entries(web)) {
    assert.deepEqual(host.trapHits, [], `host ${name}: requests to disallowed paths`);
    assert.deepEqual(host.unexpected, [], `host ${name}: requests to unknown paths`);
  }
  assert.deepEqual(fetchedPaths(web.a), allowedPaths(HOST_A), 'host A: every allowed page exactly once');
  assert.deepEqual(fetchedPaths(web.b), allowedPaths(HOST_B), 'host B: every allowed page exactly once');
  assert.deepEqual(fetchedPaths(web.c), allowedPaths(HOST_C), 'host C: every allowed page exactly once');

  // the refusals are records, with the code
  const refused = records.filter((r) => r.type === 'error' && r.code === 'FC_ROBOTS_DISALLOWED');
  const refusedUrls = new Set(refused.map((r) => r.url));
  for (const p of ['/private/a.html', '/report.pdf', '/docs/secret.html', '/search?q=focus', '/tmp-notes.html']) {
    assert.ok(refusedUrls.has(web.a.base + p), `${p} refused: ${[...refusedUrls].join(' ')}`);
  }
  for (const p of ['/go/private', '/go/pdf', '/go/b-secret']) {
    const rec = records.find((r) => r.url === web.a.base + p);
    assert.equal(rec?.code, 'FC_ROBOTS_DISALLOWED', `redirect hop from ${p} refused: ${JSON.stringify(rec)}`);
  }
  assert.ok(records.every((r) => r.type === 'page' || r.code === 'FC_ROBOTS_DISALLOWED'), JSON.stringify(records.filter((r) => r.type !== 'page')));

  for (const [name, host] of Object.entries(web)) assert.equal(host.maxActive, 1, `host ${name}: --per-host 1`);
  // Crawl-delay: 1 on host B: request starts at least 1 s apart
  for (const g of gaps(web.b)) assert.ok(g.startToStart >= 1000 - TOLERANCE_MS, `host B ${g.from} -> ${g.to}: ${g.startToStart.toFixed(0)} ms`);
  // --delay-ms 200 on hosts A and C (no Crawl-delay): 200 ms from one answer to the next request,
  // also after a redirect whose next hop robots.txt refused (regression: no delay followed those).
  for (const host of [web.a, web.c]) {
    for (const g of gaps(host)) {
      assert.ok(g.endToStart >= 200 - TOLERANCE_MS, `${host.base} ${g.from} -> ${g.to}: ${g.endToStart.toFixed(0)} ms`);
    }
  }
});

// Regression: the fetch stage followed a redirect hop at once, under the
// first URL's host slot, so /moved -> /target came 0 ms apart.
test('the politeness delay also separates the hops of a followed redirect', async (t) => {
  const spec: HostSpec = { robots: null, pages: { '/': ['/moved'], '/moved': '/target', '/target': [] }, disallowed: [] };
  const host = await startHost(t, spec, () => []);
  await crawl(t, [`${host.base}/`], ['--per-host', '1', '--delay-ms', '300']);
  assert.deepEqual(fetchedPaths(host), allowedPaths(spec));
  for (const g of gaps(host)) assert.ok(g.endToStart >= 300 - TOLERANCE_MS, `${g.from} -> ${g.to}: ${g.endToStart.toFixed(0)} ms`);
});

test('--per-host 2: the server never sees more than two requests at once on one host', async (t) => {
  const web = await startWeb(t);
  await crawl(t, [`${web.c.base}/`], ['--per-host', '2', '--delay-ms', '0', '--concurrency', '8', '--max-depth', '1']);
  assert.deepEqual(web.c.trapHits, []);
  assert.deepEqual(fetchedPaths(web.c), allowedPaths(HOST_C));
  // eight links queued at once and 50 ms answers: two at a time shows up, three never
  assert.equal(web.c.maxActive, 2);
  for (const [name, host] of Object.entries(web)) assert.ok(host.maxActive <= 2, `host ${name}: ${host.maxActive}`);
});

test('--delay-factor: a host that answers slowly is asked again only after factor × its answer time', async (t) => {
  const SLOW_MS = 150;
  const starts: number[] = [];
  const base = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    starts.push(performance.now());
    const n = Number(req.url!.slice(1)) || 0;
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="/${n + 1}">next</a>`), SLOW_MS);
  });
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runMain(['crawl', '--seed', `${base}/0`, '--store', dir, '--allow-private', '--quiet', '--max-pages', '4', '--delay-ms', '0', '--delay-factor', '3']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(parseLines(r.stdout).length, 4);
  assert.equal(starts.length, 4);
  // each request took >= 150 ms, so the next one waits >= 3 × 150 ms after it ended: >= 600 ms between starts
  // (without the flag the gap is the 150 ms answer time)
  for (let i = 1; i < starts.length; i++) {
    const gap = starts[i] - starts[i - 1];
    assert.ok(gap >= SLOW_MS + 3 * SLOW_MS - TOLERANCE_MS, `gap ${gap.toFixed(0)} ms before request ${i}`);
  }
  const bad = await runMain(['crawl', '--seed', `${base}/0`, '--delay-factor', '-1']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--delay-factor/);
});
