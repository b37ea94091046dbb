import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SEEN_CACHE_WAYS, SeenCache, type SeenMark } from '../src/store/seen-cache.ts';
import { frontierKey } from '../src/store/keys.ts';
import { urlKey } from '../src/urls/canonical.ts';

const seqOf = (key: string): number => parseInt(key.slice(17), 16);
const cache = (slots: number): SeenCache => new SeenCache(slots, frontierKey, seqOf);

/** A URL key whose set in a cache of `sets` sets is `set` (the set comes from hex digits 8–15). */
function keyInSet(set: number, sets: number, salt: number): string {
  for (let i = 0; ; i++) {
    const uk = urlKey(`http://s${salt}.example/${i}`);
    if ((parseInt(uk.slice(8, 16), 16) & (sets - 1)) === set) return uk;
  }
}

test('queued, done and known-absent marks come back as they were set, the frontier key rebuilt exactly', () => {
  fc.assert(
    fc.property(
      fc.string(),
      fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(0, -0, 1e6, Number.MAX_VALUE, -Infinity, Infinity)),
      fc.nat({ max: 0xffffffff }),
      (url, score, seq) => {
        const c = cache(64);
        const uk = urlKey(url);
        const k = frontierKey(score, seq);
        c.set(uk, { s: 'q', k, score });
        const got = c.get(uk);
        assert.deepEqual(got, { s: 'q', k, score });
        c.set(uk, { s: 'd' });
        assert.deepEqual(c.get(uk), { s: 'd' });
        c.set(uk, null);
        assert.equal(c.get(uk), null);
        assert.equal(c.size, 1);
      },
    ),
  );
});

test('a queued mark whose seq does not fit in 32 bits is not cached, and leaves no older mark of its key behind', () => {
  fc.assert(
    fc.property(fc.string(), fc.double({ noNaN: true }), fc.integer({ min: 2 ** 32, max: Number.MAX_SAFE_INTEGER }), (url, score, seq) => {
      const c = cache(64);
      const uk = urlKey(url);
      c.set(uk, { s: 'd' });
      c.set(uk, { s: 'q', k: frontierKey(score, seq), score });
      assert.equal(c.get(uk), undefined);
      assert.equal(c.size, 0);
      c.set(uk, { s: 'q', k: frontierKey(score, 2 ** 32 - 1), score });
      assert.deepEqual(c.get(uk), { s: 'q', k: frontierKey(score, 2 ** 32 - 1), score });
    }),
  );
});

test('a key never set is not found, and upper-case hex reads like lower-case', () => {
  const c = cache(16);
  const uk = urlKey('http://a.example/');
  assert.equal(c.get(uk), undefined);
  c.set(uk, { s: 'd' });
  assert.deepEqual(c.get(uk.toUpperCase()), { s: 'd' });
  assert.equal(c.get(urlKey('http://b.example/')), undefined);
  // keys alike in their second 32 bits (which pick the set) differ by their first
  const same = '0000000100000000000000000000000';
  c.set(`aaaaaaaa${same}0`.slice(0, 32), { s: 'd' });
  assert.equal(c.get(`bbbbbbbb${same}0`.slice(0, 32)), undefined);
});

test('a full set gives up its least recently used mark; a get counts as a use', () => {
  const sets = 4;
  const c = cache(sets * SEEN_CACHE_WAYS);
  const keys = Array.from({ length: SEEN_CACHE_WAYS + 1 }, (_, salt) => keyInSet(2, sets, salt));
  const [a, b] = keys;
  const last = keys[SEEN_CACHE_WAYS];
  for (const uk of keys.slice(0, SEEN_CACHE_WAYS)) c.set(uk, { s: 'd' });
  assert.deepEqual(c.get(a), { s: 'd' }); // a is now the most recently used; b the least
  c.set(last, null);
  assert.equal(c.get(b), undefined);
  for (const uk of keys.slice(0, SEEN_CACHE_WAYS)) if (uk !== b) assert.deepEqual(c.get(uk), { s: 'd' });
  assert.equal(c.get(last), null);
  assert.equal(c.size, SEEN_CACHE_WAYS);
  // other sets are untouched by a full one
  const other = keyInSet(3, sets, 99);
  c.set(other, { s: 'd' });
  assert.deepEqual(c.get(other), { s: 'd' });
  assert.equal(c.size, SEEN_CACHE_WAYS + 1);
});

test('model check: any mark read back is the last one set for that key (never a stale or foreign one)', () => {
  const op = fc.tuple(fc.nat({ max: 200 }), fc.constantFrom('get', 'q', 'd', 'absent', 'clear'), fc.double({ noNaN: true, min: -1e9, max: 1e9 }), fc.nat({ max: 1e9 }));
  fc.assert(
    fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
      const c = cache(4 * SEEN_CACHE_WAYS);
      const model = new Map<string, SeenMark>();
      for (const [n, kind, score, seq] of ops) {
        const uk = urlKey(`http://m.example/${n}`);
        if (kind === 'clear') {
          c.clear();
          model.clear();
          assert.equal(c.size, 0);
        } else if (kind === 'get') {
          const got = c.get(uk);
          if (got !== undefined) assert.deepEqual(got, model.get(uk));
        } else {
          const mark: SeenMark = kind === 'q' ? { s: 'q', k: frontierKey(score, seq), score } : kind === 'd' ? { s: 'd' } : null;
          c.set(uk, mark);
          model.set(uk, mark);
          assert.deepEqual(c.get(uk), mark);
        }
        assert.ok(c.size <= c.capacity);
      }
    }),
  );
});

test('the capacity must be a power of two of at least one set', () => {
  for (const bad of [0, 2, 3, 12, SEEN_CACHE_WAYS / 2, 3 * SEEN_CACHE_WAYS, 1.5, Number.NaN]) assert.throws(() => cache(bad), TypeError, `capacity ${bad}`);
  assert.equal(cache(SEEN_CACHE_WAYS).capacity, SEEN_CACHE_WAYS);
});
