/**
 * Crawler traps (issue 5): the path rules of src/urls/traps.ts, the link guard in
 * linksToQueue, the per-host page budget (src/frontier/host-budget.ts, its stage and
 * its persistence) and two CLI crawls of a small trap web on 127.0.0.1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type http from 'node:http';
import { MemoryLevel } from 'memory-level';
import { HOST_PAGES_KEY, HostBudget } from '../src/frontier/host-budget.ts';
import { hostBudgetStage } from '../src/stages/host-budget.ts';
import { linksToQueue, type LinkDropReason } from '../src/stages/sink.ts';
import { CrawlStore } from '../src/store/level.ts';
import { DEFAULT_TRAP_LIMITS, hasRepetition, pathSegments, segmentCount, trapReason, type TrapLimits, type TrapReason } from '../src/urls/traps.ts';
import type { CrawlItem, FrontierEntry, Outlink } from '../src/types.ts';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';
import { makePage } from './helpers/pages.ts';
import { serve } from './helpers/serve.ts';

// ---- the pure rules ---------------------------------------------------------

const deep = (n: number): string => `http://a.test/${Array.from({ length: n }, (_, i) => `s${i}`).join('/')}`;
const long = (n: number): string => {
  const head = 'http://a.test/p?q=';
  return head + 'x'.repeat(n - head.length);
};

const rows: [string, TrapReason | null][] = [
  // repetition: more than 2 consecutive occurrences of a segment or a group
  ['http://a.test/a/a/a/', 'path-repetition'],
  ['http://a.test/a/a/a', 'path-repetition'],
  ['http://a.test/x/a/a/a/y', 'path-repetition'],
  ['http://a.test/a/b/a/b/a/b/', 'path-repetition'],
  ['http://a.test/x/a/b/c/a/b/c/a/b/c/z.html', 'path-repetition'],
  ['http://a.test/a////', 'path-repetition'],
  ['http://a.test/a/a/', null],
  ['http://a.test/a/b/a/b/', null],
  ['http://a.test/a/b/a/c/a/', null],
  ['http://a.test/2024/01/01/', null],
  ['http://a.test/2024/01/01/01.html', null],
  ['http://a.test/docs/a/b/c/', null],
  ['http://a.test/a/a/a.html', null],
  ['http://a.test/', null],
  ['http://a.test/p?a=1&a=1&a=1', null],
  ['http://a.test/p?path=/a/a/a/', null],
  // segments: more than 20
  [deep(20), null],
  [deep(21), 'path-segments'],
  [`${deep(20)}/`, null],
  // length: more than 2083 characters
  [long(2083), null],
  [long(2084), 'url-length'],
];

for (const [url, want] of rows) {
  test(`trapReason ${url.length > 80 ? `${url.slice(0, 40)}... (${url.length} chars)` : url} -> ${want}`, () => {
    assert.equal(trapReason(url), want);
  });
}

test('pathSegments: the empty segment after a trailing slash is not counted', () => {
  assert.deepEqual(pathSegments('http://a.test/'), []);
  assert.deepEqual(pathSegments('http://a.test:8080/a/b/'), ['a', 'b']);
  assert.deepEqual(pathSegments('http://a.test/a/b?x=/c/d'), ['a', 'b']);
  assert.deepEqual(pathSegments('http://a.test/a//b'), ['a', '', 'b']);
});

test('trapReason counts segments without splitting: the same answers as the split-based rules', () => {
  // trapReason skips pathSegments for URLs with too few segments to repeat;
  // segmentCount must be pathSegments' length for every URL shape
  const reference = (url: string, limits: Readonly<TrapLimits>): TrapReason | null => {
    if (url.length > limits.maxUrlLength) return 'url-length';
    const segments = pathSegments(url);
    if (segments.length > limits.maxSegments) return 'path-segments';
    return hasRepetition(segments, limits.maxRepeat) ? 'path-repetition' : null;
  };
  const piece = fc.constantFrom('a', 'b', '', 'p1.html', '/', '//', '?', '?x=/a/a/a', '#', ':8080');
  const url = fc.tuple(fc.constantFrom('http://a.test', 'https://b.test:1', 'http://c.test/', 'x'), fc.array(piece, { maxLength: 12 })).map(([h, ps]) => h + ps.join(''));
  const limits = fc.record({ maxRepeat: fc.constantFrom(1, 2, 3, Infinity), maxSegments: fc.constantFrom(1, 3, 20, Infinity), maxUrlLength: fc.constantFrom(20, 2083) });
  fc.assert(fc.property(url, limits, (u, l) => {
    assert.equal(segmentCount(u), pathSegments(u).length);
    assert.equal(trapReason(u, l), reference(u, l));
  }), { seed: 20261127, numRuns: 5000 });
});

test('trap limits are parameters; Infinity turns a rule off', () => {
  assert.equal(trapReason('http://a.test/a/a/', { ...DEFAULT_TRAP_LIMITS, maxRepeat: 1 }), 'path-repetition');
  assert.equal(trapReason('http://a.test/a/b/a/b/', { ...DEFAULT_TRAP_LIMITS, maxRepeat: 1 }), 'path-repetition');
  assert.equal(trapReason('http://a.test/a/a/a/', { ...DEFAULT_TRAP_LIMITS, maxRepeat: 3 }), null);
  assert.equal(trapReason('http://a.test/a/a/a/', { ...DEFAULT_TRAP_LIMITS, maxRepeat: Infinity }), null);
  assert.equal(trapReason(deep(21), { ...DEFAULT_TRAP_LIMITS, maxSegments: Infinity }), null);
  assert.equal(trapReason(long(5000), { ...DEFAULT_TRAP_LIMITS, maxUrlLength: Infinity }), null);
  assert.equal(trapReason('http://a.test/a/b/c', { ...DEFAULT_TRAP_LIMITS, maxSegments: 2 }), 'path-segments');
});

test('hasRepetition agrees with a brute-force check on random paths', () => {
  const brute = (seg: string[], r: number): boolean => {
    for (let k = 1; k * (r + 1) <= seg.length; k++) {
      for (let i = 0; i + k * (r + 1) <= seg.length; i++) {
        let ok = true;
        for (let j = i; j < i + k * r && ok; j++) ok = seg[j] === seg[j + k];
        if (ok) return true;
      }
    }
    return false;
  };
  let state = 12345;
  const rnd = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  for (let t = 0; t < 3000; t++) {
    const seg = Array.from({ length: rnd(14) }, () => 'abc'[rnd(3)]);
    for (const r of [1, 2, 3]) assert.equal(hasRepetition(seg, r), brute(seg, r), `${seg.join('/')} r=${r}`);
  }
});

// ---- linksToQueue's guard ----------------------------------------------------

function pageItem(url: string, links: string[]): CrawlItem {
  const outlinks: Outlink[] = links.map((u) => ({ url: u, score: 0.5, anchor: '', context: '' }));
  return { entry: { url, score: 1, depth: 1, parent: null }, page: makePage('p'), relevant: true, outlinks };
}

test('linksToQueue drops trap links and links to full hosts, reporting each URL once', () => {
  const drops: [string, LinkDropReason][] = [];
  const item = pageItem('http://a.test/a/a/', [
    'http://a.test/a/a/a/',
    'http://a.test/a/a/a/#again',
    'http://a.test/ok/',
    'http://full.test/x',
    long(3000),
  ]);
  const got = linksToQueue(item, Infinity, {}, Infinity, {
    hostFull: (host) => host === 'full.test',
    onDrop: (url, reason) => drops.push([url, reason]),
  });
  assert.deepEqual(got.map((l) => l.url), ['http://a.test/ok/']);
  assert.deepEqual(drops.map(([, r]) => r), ['path-repetition', 'host-budget', 'url-length']);
  assert.equal(drops[0][0], 'http://a.test/a/a/a/');
});

test('linksToQueue applies the default trap rules without a guard, and custom ones with it', () => {
  const item = pageItem('http://a.test/', ['http://a.test/a/a/a/', 'http://a.test/b/']);
  assert.deepEqual(linksToQueue(item, Infinity).map((l) => l.url), ['http://a.test/b/']);
  const off = { traps: { ...DEFAULT_TRAP_LIMITS, maxRepeat: Infinity } };
  assert.equal(linksToQueue(item, Infinity, {}, Infinity, off).length, 2);
});

// ---- the host budget ------------------------------------------------------------

const page = (url: string) => ({ type: 'page', url });
const error = (url: string) => ({ type: 'error', url });

test('HostBudget: admission counts committed pages plus URLs in flight', () => {
  const full: string[] = [];
  const b = new HostBudget({ max: 2, onFull: (h) => full.push(h) });
  assert.equal(b.admit('http://a.test/1'), true);
  assert.equal(b.admit('http://a.test/2'), true);
  assert.equal(b.admit('http://a.test/3'), false, 'two in flight fill a budget of 2');
  assert.equal(b.admit('http://a.test/1'), true, 'a URL already admitted (a retry) keeps its place');
  assert.equal(b.admit('http://b.test:81/1'), true, 'other hosts (ports) are separate');
  b.committed(error('http://a.test/1'));
  assert.equal(b.isFull('a.test'), false);
  assert.equal(b.admit('http://a.test/3'), true, 'an error frees its place without counting');
  b.committed(page('http://a.test/2'));
  b.committed(page('http://a.test/3'));
  assert.equal(b.pagesOf('a.test'), 2);
  assert.equal(b.isFull('a.test'), true);
  assert.equal(b.admit('http://a.test/4'), false);
  assert.deepEqual(full, ['a.test']);
  b.committed(error('http://a.test/4')); // its FC_HOST_BUDGET record
  assert.deepEqual(full, ['a.test'], 'onFull once');
});

test('HostBudget with max Infinity admits everything and writes nothing', async () => {
  const b = new HostBudget({ max: Infinity });
  for (let i = 0; i < 5; i++) assert.equal(b.admit(`http://a.test/${i}`), true);
  b.committed(page('http://a.test/0'));
  assert.equal(b.isFull('a.test'), false);
  const store = await CrawlStore.open(new MemoryLevel<string, any>());
  await b.save(store);
  assert.equal(await store.getMeta(HOST_PAGES_KEY), undefined);
  await store.close();
  assert.throws(() => new HostBudget({ max: 0 }), TypeError);
});

test('hostBudgetStage: refused URLs become FC_HOST_BUDGET, others and earlier errors pass', async () => {
  const b = new HostBudget({ max: 1 });
  const entry = (url: string): FrontierEntry => ({ url, score: 0, depth: 0, parent: null });
  const items: CrawlItem[] = [
    { entry: entry('http://a.test/1') },
    { entry: entry('http://a.test/2') },
    { entry: entry('http://a.test/3'), error: { code: 'FC_INTERNAL', message: 'x' } },
    { entry: entry('http://b.test/1') },
  ];
  async function* src() {
    yield* items;
  }
  const out: CrawlItem[] = [];
  for await (const item of hostBudgetStage(src(), { budget: b })) out.push(item);
  assert.deepEqual(out.map((i) => i.error?.code ?? null), [null, 'FC_HOST_BUDGET', 'FC_INTERNAL', null]);
  assert.match(out[1].error!.message, /a\.test has given its 1 pages/);
});

async function storeWithLog(records: { type: string; url: string }[]): Promise<CrawlStore> {
  const store = await CrawlStore.open(new MemoryLevel<string, any>());
  await store.addSeeds(records.map((r) => ({ url: r.url, score: 0, depth: 0, parent: null })));
  for (const r of records) {
    await store.commit({ entry: { url: r.url, score: 0, depth: 0, parent: null }, record: r, countsAsPage: r.type === 'page', links: [] });
  }
  return store;
}

test('HostBudget.restore counts the log; save checkpoints; restore reads checkpoint plus the rest', async () => {
  const store = await storeWithLog([page('http://a.test/1'), error('http://a.test/2'), page('http://b.test/1'), page('http://a.test/3')]);
  const first = new HostBudget({ max: 3 });
  await first.restore(store);
  assert.equal(first.pagesOf('a.test'), 2);
  assert.equal(first.pagesOf('b.test'), 1);
  await first.save(store);
  assert.deepEqual(await store.getMeta(HOST_PAGES_KEY), { records: 4, hosts: [['a.test', 2], ['b.test', 1]] });

  // one more commit after the checkpoint (as if the next run was killed before saving)
  await store.addSeeds([{ url: 'http://a.test/4', score: 0, depth: 0, parent: null }]);
  await store.commit({ entry: { url: 'http://a.test/4', score: 0, depth: 0, parent: null }, record: page('http://a.test/4'), countsAsPage: true, links: [] });
  // a checkpoint with a wrong count would show: put a tampered one and see it is used
  await store.putMeta(HOST_PAGES_KEY, { records: 4, hosts: [['a.test', 2], ['b.test', 1], ['c.test', 7]] });
  const second = new HostBudget({ max: 3 });
  await second.restore(store);
  assert.equal(second.pagesOf('a.test'), 3, 'checkpoint 2 + the record after it');
  assert.equal(second.pagesOf('c.test'), 7, 'the checkpoint was read, not the whole log');
  assert.equal(second.isFull('a.test'), true);

  // a malformed or impossible checkpoint is ignored: the whole log is read
  for (const bad of [{ records: 'x', hosts: [] }, { records: 99, hosts: [] }, { records: 1, hosts: [['a.test', -1]] }]) {
    await store.putMeta(HOST_PAGES_KEY, bad);
    const b = new HostBudget({ max: 3 });
    await b.restore(store);
    assert.equal(b.pagesOf('a.test'), 3, JSON.stringify(bad));
    assert.equal(b.pagesOf('c.test'), 0);
  }
  await store.close();
});

test('HostBudget.save keeps the old checkpoint when the counts do not cover the log exactly', async () => {
  const store = await storeWithLog([page('http://a.test/1')]);
  const b = new HostBudget({ max: 5 });
  await b.save(store); // counted 0 records, the log has 1
  assert.equal(await store.getMeta(HOST_PAGES_KEY), undefined);
  await store.close();
});

// ---- end to end: a trap web on 127.0.0.1 ---------------------------------------

function html(res: http.ServerResponse, links: string[]): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<html><head><title>t</title></head><body>${links.map((l) => `<a href="${l}">link</a>`).join(' ')}</body></html>`);
}

/** An endless calendar: month N links months N+1 and N+2. Counts requests per path+query. */
async function calendarServer(t: import('node:test').TestContext): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const url = await serve(t, (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    hits.push(req.url ?? '');
    const month = Number(u.searchParams.get('month') ?? 0);
    html(res, [`/cal?month=${month + 1}`, `/cal?month=${month + 2}`]);
  });
  return { url, hits };
}

/** Relative-link loops (`a/`, `x/y/`), session-id links, an over-long and an over-deep link. */
async function loopServer(t: import('node:test').TestContext): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  let n = 0;
  const url = await serve(t, (req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    hits.push(path);
    const token = `${(++n).toString(16).padStart(4, '0')}0123456789abcdef`;
    if (path === '/') {
      html(res, [
        'loop/',
        'g/',
        `s;jsessionid=${token}?x=1`,
        `s?x=1&PHPSESSID=${token}`,
        `s?sid=${token}&x=1`,
        `long?q=${'z'.repeat(2100)}`,
        `${Array.from({ length: 21 }, (_, i) => `d${i}`).join('/')}`,
      ]);
    } else if (path.startsWith('/loop/')) html(res, ['a/']);
    else if (path.startsWith('/g/')) html(res, ['x/y/']);
    else if (path.startsWith('/s')) html(res, [`/s;jsessionid=${token}?x=1`, `/s?x=1&PHPSESSID=${token}`]);
    else html(res, []);
  });
  return { url, hits };
}

test('e2e: a crawl of a trap web ends by itself; loops stop at the rules, the calendar at its budget', async (t) => {
  const cal = await calendarServer(t);
  const loop = await loopServer(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runMain(
    [
      'crawl', '--seed', `${cal.url}/cal?month=0`, '--seed', `${loop.url}/`, '--store', dir, '--allow-private',
      '--delay-ms', '0', '--max-pages-per-host', '30', '--stats-interval', '0',
    ],
    { timeoutMs: 60_000 },
  );
  assert.equal(r.code, 0, r.stderr);
  const records = parseLines(r.stdout);
  const calHost = new URL(cal.url).host;
  const loopHost = new URL(loop.url).host;

  // the calendar host: exactly 30 pages, then FC_HOST_BUDGET records without requests
  const calPages = records.filter((x) => x.type === 'page' && new URL(x.url).host === calHost);
  const calBudget = records.filter((x) => x.type === 'error' && new URL(x.url).host === calHost);
  assert.equal(calPages.length, 30);
  assert.equal(cal.hits.length, 30, 'no request beyond the budget');
  assert.ok(calBudget.length >= 1, 'leftover calendar URLs become records');
  for (const x of calBudget) assert.equal(x.code, 'FC_HOST_BUDGET');
  assert.match(r.stderr, new RegExp(`${calHost.replace(/\./g, '\\.')} has given its 30 pages`));

  // the loop host: the a/ and x/y/ loops stop at the repetition rule, session ids collapse
  const loopPages = records.filter((x) => new URL(x.url).host === loopHost).map((x) => `${x.type} ${x.url.slice(loop.url.length)}`);
  assert.deepEqual(loopPages.sort(), [
    'page /', 'page /g/', 'page /g/x/y/', 'page /g/x/y/x/y/', 'page /loop/', 'page /loop/a/', 'page /loop/a/a/', 'page /s?x=1',
  ]);
  assert.deepEqual(loop.hits.sort(), ['/', '/g/', '/g/x/y/', '/g/x/y/x/y/', '/loop/', '/loop/a/', '/loop/a/a/', '/s?x=1']);
  assert.match(r.stderr, /links dropped: .*path-repetition/);
  assert.match(r.stderr, /url-length 1/);
  assert.match(r.stderr, /path-segments 1/);
});

test('e2e: the host budget holds across resumed runs (log scan, then checkpoint)', async (t) => {
  const cal = await calendarServer(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const base = ['crawl', '--store', dir, '--allow-private', '--delay-ms', '0', '--quiet', '--stats-interval', '0'];

  // run 1: no budget, stopped by --max-pages after 20 pages (no checkpoint written)
  const r1 = await runMain([...base, '--seed', `${cal.url}/cal?month=0`, '--max-pages', '20', '--max-pages-per-host', '0'], { timeoutMs: 60_000 });
  assert.equal(r1.code, 0, r1.stderr);
  assert.equal(parseLines(r1.stdout).filter((x) => x.type === 'page').length, 20);
  assert.equal(cal.hits.length, 20);

  // run 2: budget 30, counted from the log of run 1: 10 more pages, then the crawl ends
  const r2 = await runMain([...base, '--max-pages-per-host', '30'], { timeoutMs: 60_000 });
  assert.equal(r2.code, 0, r2.stderr);
  const two = parseLines(r2.stdout);
  assert.equal(two.filter((x) => x.type === 'page').length, 10);
  assert.ok(two.some((x) => x.code === 'FC_HOST_BUDGET'));
  assert.equal(cal.hits.length, 30);

  // run 3: a new seed on the full host is refused without a request
  const r3 = await runMain([...base, '--max-pages-per-host', '30', '--seed', `${cal.url}/cal?month=500`], { timeoutMs: 60_000 });
  assert.equal(r3.code, 0, r3.stderr);
  const three = parseLines(r3.stdout);
  assert.deepEqual(three.map((x) => [x.url, x.code]), [[`${cal.url}/cal?month=500`, 'FC_HOST_BUDGET']]);
  assert.equal(cal.hits.length, 30);
});
