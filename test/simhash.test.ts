// SimHash fingerprints, the band index, and near-duplicate detection in a
// crawl (src/relevance/simhash.ts, src/stages/dedup.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import {
  fingerprintFromHex,
  fingerprintToHex,
  hammingDistance,
  simhashTokens,
  SimHashIndex,
  type Fingerprint,
} from '../src/relevance/simhash.ts';
import { dedupStage, NearDuplicates, pageFingerprint } from '../src/stages/dedup.ts';
import { makePage } from './helpers/pages.ts';
import type { CrawlItem } from '../src/types.ts';
import { tokenize } from '../src/relevance/text/tokenize.ts';
import { parseBody } from '../src/parse/body.ts';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';
import { seededRandom as rng } from '../src/util/random.ts';

const SEED = 20261122;

const VOCAB = Array.from({ length: 3000 }, (_, i) => `word${i.toString(36)}`);

/** `n` words drawn from VOCAB (Zipf-ish), deterministic in `seed`. */
function randomText(n: number, seed: number): string {
  const r = rng(seed);
  return Array.from({ length: n }, () => VOCAB[Math.floor(VOCAB.length * r() ** 2)]).join(' ');
}

const fp = (text: string): Fingerprint => simhashTokens(tokenize(text, { stopwords: false }))!;

test('fingerprint: identical text is distance 0, a one-word change is small, unrelated texts differ in about 32 bits', () => {
  const page = randomText(600, 1);
  assert.equal(hammingDistance(fp(page), fp(page)), 0);
  assert.equal(hammingDistance(fp(page), fp(` ${page.replaceAll(' ', '  ')} `)), 0, 'whitespace does not matter');
  const words = page.split(' ');
  const small: number[] = [];
  for (let i = 0; i < 20; i++) {
    const changed = [...words];
    changed[(i * 37) % words.length] = 'somethingelse';
    small.push(hammingDistance(fp(page), fp(changed.join(' '))));
  }
  assert.ok(Math.max(...small) <= 6, `one-word changes: ${small.join(',')}`);
  assert.ok(small.reduce((a, b) => a + b, 0) / small.length <= 3, `mean one-word distance ${small.join(',')}`);
  const far: number[] = [];
  for (let i = 0; i < 40; i++) far.push(hammingDistance(fp(randomText(400, 100 + i)), fp(randomText(400, 200 + i))));
  const mean = far.reduce((a, b) => a + b, 0) / far.length;
  assert.ok(mean > 27 && mean < 37, `unrelated pages: mean distance ${mean}`);
  assert.ok(Math.min(...far) > 12, `unrelated pages: min distance ${Math.min(...far)}`);
});

test('fingerprint: too few tokens is null; hex round-trips', () => {
  assert.equal(simhashTokens([]), null);
  assert.equal(simhashTokens(['a', 'b'], 3), null);
  assert.ok(simhashTokens(['only']) !== null, 'one token is enough when minTokens is 1');
  const f = fp(randomText(50, 7));
  assert.deepEqual(fingerprintFromHex(fingerprintToHex(f)), f);
  assert.match(fingerprintToHex(f), /^[0-9a-f]{16}$/);
  assert.equal(fingerprintFromHex('xyz'), null);
  assert.equal(fingerprintFromHex(42), null);
});

/** Flip `bits` (positions 0..63) of a fingerprint. */
function flip(f: Fingerprint, bits: number[]): Fingerprint {
  let { hi, lo } = f;
  for (const b of bits) {
    if (b < 32) lo ^= 1 << b;
    else hi ^= 1 << (b - 32);
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

const fingerprintArb = fc.record({ hi: fc.nat({ max: 0xffffffff }), lo: fc.nat({ max: 0xffffffff }) });

test('band index: finds the nearest earlier fingerprint within k exactly as brute force does', () => {
  // fingerprints that are copies of a few bases with 0..k+2 bits flipped, so
  // many pairs lie near the threshold, plus random ones
  const item = fc.oneof(
    fc.record({ base: fc.nat({ max: 5 }), flips: fc.array(fc.nat({ max: 63 }), { maxLength: 6 }) }),
    fingerprintArb.map((f) => ({ f })),
  );
  fc.assert(
    fc.property(fc.array(fingerprintArb, { minLength: 6, maxLength: 6 }), fc.array(item, { minLength: 1, maxLength: 120 }), fc.integer({ min: 1, max: 6 }), (bases, items, k) => {
      const index = new SimHashIndex({ maxDistance: k });
      const all: Fingerprint[] = [];
      for (const it of items) {
        const f = 'f' in it ? it.f : flip(bases[it.base], it.flips);
        let bestD = Infinity;
        let bestId = -1;
        all.forEach((g, id) => {
          const d = hammingDistance(f, g);
          if (d < bestD) {
            bestD = d;
            bestId = id;
          }
        });
        const got = index.nearest(f);
        if (bestD <= k) {
          assert.ok(got !== null, `missed a fingerprint at distance ${bestD} (k=${k})`);
          assert.equal(got.distance, bestD);
          assert.equal(got.id, bestId, 'ties go to the earliest entry');
          assert.equal(got.ref, bestId + 1000);
        } else {
          assert.equal(got, null);
        }
        assert.equal(index.add(f, all.length + 1000), all.length);
        all.push(f);
      }
    }),
    { seed: SEED, numRuns: 300 },
  );
});

test('band index: bounded memory per entry, maxCandidates bounds a lookup', () => {
  const index = new SimHashIndex({ maxDistance: 3 });
  const fixed = index.bytes;
  const r = rng(3);
  for (let i = 0; i < 100_000; i++) index.add({ hi: (r() * 2 ** 32) >>> 0, lo: (r() * 2 ** 32) >>> 0 }, i);
  const perEntry = (index.bytes - fixed) / index.size;
  assert.ok(perEntry <= 2 * 28 + 1, `${perEntry} bytes per entry`);
  // many entries sharing band 0 (same low 16 bits) but far away elsewhere
  const crowded = new SimHashIndex({ maxDistance: 3, maxCandidates: 10 });
  crowded.add({ hi: 0, lo: 0x0000ffff }, 1); // the true near-duplicate, oldest
  for (let i = 0; i < 50; i++) crowded.add({ hi: 0xffffffff, lo: 0xffffffff }, 2 + i);
  // the query shares band 0 with everything; only 10 newest are looked at in band 0,
  // but band 1..3 (all zero) still lead to the oldest entry
  assert.equal(crowded.nearest({ hi: 0, lo: 0x0000ffff })?.ref, 1);
});

test('page fingerprint: navigation is left out, short pages get none', () => {
  const body = (nav: string, text: string) =>
    Buffer.from(`<html><title>T</title><body><nav>${nav}</nav><p>${text}</p></body></html>`);
  const text = randomText(200, 9);
  const a = pageFingerprint(parseBody(body('<a href="/x">alpha</a> <a href="/y">beta</a> menu one two three', text), 'http://h/a', 'utf-8'));
  const b = pageFingerprint(parseBody(body('<a href="/z">gamma</a> <a href="/w">delta</a> other words here now', text), 'http://h/b', 'utf-8'));
  assert.ok(a !== null && b !== null);
  assert.equal(hammingDistance(a, b), 0);
  assert.equal(pageFingerprint(parseBody(body('', 'a short page'), 'http://h/c', 'utf-8')), null);
});

// ---- a crawl of a web with a mirror ------------------------------------------

/** A web whose /orig/ and /mirror/ pages have the same text; each links to its own child. */
async function mirrorWeb(t: import('node:test').TestContext): Promise<{ base: string; hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const long = randomText(300, 42);
  const tiny = 'tiny page';
  const pages: Record<string, string> = {
    '/': '<a href="/orig/">original</a> <a href="/mirror/">mirror</a> <a href="/t1">t1</a> <a href="/t2">t2</a>',
    '/orig/': `<h1>Original</h1><p>${long}</p><a href="/orig/child">child</a>`,
    '/mirror/': `<h1>Original</h1><p>${long}</p><a href="/mirror/child">child</a>`,
    '/orig/child': `<p>${randomText(100, 5)}</p>`,
    '/mirror/child': `<p>${randomText(100, 6)}</p>`,
    '/t1': `<p>${tiny}</p><a href="/t1/child">c</a>`,
    '/t2': `<p>${tiny}</p><a href="/t2/child">c</a>`,
    '/t1/child': '<p>one</p>',
    '/t2/child': '<p>two</p>',
  };
  const server = http.createServer((req, res) => {
    const p = req.url ?? '/';
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const html = pages[p];
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${html}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

const crawlArgs = (base: string, store: string, ...more: string[]) => [
  'crawl', '--seed', `${base}/`, '--store', store, '--allow-private', '--delay-ms', '0', '--concurrency', '1', '--quiet', ...more,
];

test('crawl: a mirrored page is marked duplicateOf the original and its links are not followed', async (t) => {
  const { base, hits } = await mirrorWeb(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runMain(crawlArgs(base, path.join(dir, 's')));
  assert.equal(r.code, 0, r.stderr);
  const pages = new Map(parseLines(r.stdout).filter((x) => x.type === 'page').map((x) => [new URL(x.url).pathname, x]));
  assert.equal(pages.get('/mirror/')?.duplicateOf, `${base}/orig/`);
  assert.equal(pages.get('/orig/')?.duplicateOf, undefined);
  assert.match(pages.get('/mirror/')?.simhash, /^[0-9a-f]{16}$/);
  assert.ok(pages.has('/orig/child'), 'the original is expanded');
  assert.equal(hits.get('/mirror/child'), undefined, "the duplicate's link was not followed");
  // pages with too little text are never duplicates
  assert.equal(pages.get('/t2')?.duplicateOf, undefined);
  assert.equal(pages.get('/t2')?.simhash, undefined);
  assert.ok(pages.has('/t1/child') && pages.has('/t2/child'));
});

test('crawl: --near-dup-distance 0 turns detection off', async (t) => {
  const { base, hits } = await mirrorWeb(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runMain(crawlArgs(base, path.join(dir, 's'), '--near-dup-distance', '0'));
  assert.equal(r.code, 0, r.stderr);
  const records = parseLines(r.stdout);
  assert.ok(records.every((x) => x.duplicateOf === undefined && x.simhash === undefined));
  assert.equal(hits.get('/mirror/child'), 1);
  const bad = await runMain(crawlArgs(base, path.join(dir, 's2'), '--near-dup-distance', '11'));
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /near-dup-distance/);
});

test('crawl: a resumed crawl still knows the fingerprints of the first run', async (t) => {
  const { base, hits } = await mirrorWeb(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const store = path.join(dir, 's');
  // breadth-first, one at a time: /, /orig/, then stop before /mirror/
  const first = await runMain(crawlArgs(base, store, '--max-pages', '2'));
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(parseLines(first.stdout).map((x) => new URL(x.url).pathname), ['/', '/orig/']);
  const second = await runMain(crawlArgs(base, store));
  assert.equal(second.code, 0, second.stderr);
  const mirror = parseLines(second.stdout).find((x) => new URL(x.url).pathname === '/mirror/');
  assert.equal(mirror?.duplicateOf, `${base}/orig/`, 'found through the index rebuilt from the store');
  assert.equal(hits.get('/mirror/child'), undefined);
});

// issue 23: simhashTokens reuses its token-hash and vote arrays from call
// to call (and grows the first); a stale vote or hash would change the
// fingerprint of the next page. Reference: the function as it was, with
// arrays of its own per call.
function referenceSimhash(tokens: readonly string[]): { hi: number; lo: number } {
  const fmix = (h: number): number => {
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  };
  const n = tokens.length;
  const th = new Uint32Array(2 * n);
  tokens.forEach((s, i) => {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let j = 0; j < s.length; j++) {
      a = Math.imul(a ^ s.charCodeAt(j), 0x01000193);
      b = Math.imul(b ^ s.charCodeAt(j), 0x5bd1e995);
    }
    th[2 * i] = fmix(a);
    th[2 * i + 1] = fmix(b ^ 0x27d4eb2f);
  });
  const v = new Int32Array(64);
  const w = Math.min(3, n);
  for (let s = 0; s < n - w + 1; s++) {
    let x = 0x2545f491 ^ w;
    let y = 0x68e31da4 ^ w;
    for (let j = 0; j < w; j++) {
      x = Math.imul((x << 5) | (x >>> 27), 0x9e3779b1) ^ th[2 * (s + j)]!;
      y = Math.imul((y << 7) | (y >>> 25), 0x85ebca77) ^ th[2 * (s + j) + 1]!;
    }
    const lo = fmix(x);
    const hi = fmix(y ^ lo);
    for (let b = 0; b < 32; b++) {
      v[b]! += ((lo >>> b) & 1) * 2 - 1;
      v[32 + b]! += ((hi >>> b) & 1) * 2 - 1;
    }
  }
  let lo = 0;
  let hi = 0;
  for (let b = 0; b < 32; b++) {
    if (v[b]! > 0) lo |= 1 << b;
    if (v[32 + b]! > 0) hi |= 1 << b;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

test('simhashTokens with its reused arrays gives what fresh arrays gave, call after call', () => {
  const r = rng(23);
  for (let i = 0; i < 400; i++) {
    // short and long lists alternating (past the hash array's first size)
    const n = 1 + Math.floor(r() * (i % 7 === 0 ? 3000 : 60));
    // every 5th list repeats one to three words: the same shingle hundreds
    // of times, so a bit's count passes what the bit slices hold (255)
    const vocab = i % 5 === 0 ? 1 + (i % 3) : i % 2 === 0 ? 20 : 2000;
    const tokens = Array.from({ length: i % 5 === 0 ? n + 600 : n }, () => `w${Math.floor(r() * vocab).toString(36)}`);
    assert.deepEqual(simhashTokens(tokens), referenceSimhash(tokens), `list ${i} of ${tokens.length}`);
    // the first `count` of a longer array: what the list cut there gives
    const count = Math.max(1, Math.floor(tokens.length / 2));
    assert.deepEqual(simhashTokens(tokens, 1, count), referenceSimhash(tokens.slice(0, count)), `list ${i}, first ${count}`);
  }
});

// issue 23: the dedup stage no longer awaits once per page; it awaits only
// when an earlier duplicate's URL must be read from the store. Each way a
// check can end must still end the same.
test('NearDuplicates: pending and committed originals, the page itself, a failing read', async () => {
  const words = Array.from({ length: 60 }, (_, i) => `word${i}x`).join(' ');
  const item = (url: string, content = words) =>
    ({ entry: { url }, fetch: { status: 200, finalUrl: url }, page: makePage('', { content }, []) }) as unknown as CrawlItem;
  const reads: number[] = [];
  const dedup = new NearDuplicates({ maxDistance: 3, urlOfCommit: async (n) => (reads.push(n), n === 1 ? 'http://a/' : null) });
  const a = item('http://a/');
  assert.equal(dedup.checkNow(a), undefined);
  assert.equal(a.duplicateOf, undefined);
  // a's entry is pending (not committed): its URL from memory, no read
  const b = item('http://b/');
  assert.equal(dedup.checkNow(b), undefined);
  assert.equal(b.duplicateOf, 'http://a/');
  dedup.committed(a, 1);
  // committed: the URL is read (a promise), then the item is marked
  const c = item('http://c/');
  const pending = dedup.checkNow(c);
  assert.ok(pending instanceof Promise);
  assert.equal(c.duplicateOf, undefined);
  await pending;
  assert.equal(c.duplicateOf, 'http://a/');
  assert.deepEqual(reads, [1]);
  // the original is the page itself (a re-fetch): not a duplicate, indexed
  const again = item('http://a/');
  await dedup.check(again);
  assert.equal(again.duplicateOf, undefined);
  assert.equal(dedup.found, 2);
  assert.equal(dedup.index.size, 2);
  // a read that fails becomes the item's error in the stage; the next page goes on
  const failing = new NearDuplicates({ maxDistance: 3, urlOfCommit: async () => { throw new Error('store gone'); } });
  const first = item('http://x/');
  failing.checkNow(first);
  failing.committed(first, 1);
  async function* two(): AsyncGenerator<CrawlItem> {
    yield item('http://y/');
    yield item('http://z/', 'other words entirely');
  }
  const out: CrawlItem[] = [];
  for await (const it of dedupStage(two(), { dedup: failing })) out.push(it);
  assert.equal(out[0]!.error?.code, 'FC_INTERNAL');
  assert.equal(out[1]!.error, undefined);
});
