import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { frontierKey, seqOf } from '../src/store/keys.ts';

/** frontierKey as it was written before issue 23's second allocation pass (toString(16) and pads). */
function reference(score: number, seq: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, score === 0 ? 0 : -score);
  let hi = view.getUint32(0);
  let lo = view.getUint32(4);
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else {
    hi = (hi | 0x80000000) >>> 0;
  }
  const hex = (n: number): string => n.toString(16).padStart(8, '0');
  return `${hex(hi)}${hex(lo)}!${seq.toString(16).padStart(14, '0')}`;
}

test('frontierKey writes the same key as toString(16) and pads, and keys sort by score then seq', () => {
  // issue 23: the key's digits are written to a scratch buffer; a wrong
  // digit, split of seq or stale character would change every stored key
  const score = fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(0, -0, 1, -1, 0.5, Infinity, -Infinity, Number.MIN_VALUE));
  const seq = fc.oneof(fc.nat(), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(0, 0xfffffff, 0x10000000, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER));
  fc.assert(
    fc.property(score, seq, score, seq, (s1, q1, s2, q2) => {
      const k1 = frontierKey(s1, q1);
      assert.equal(k1, reference(s1, q1));
      assert.equal(seqOf(k1), q1);
      const k2 = frontierKey(s2, q2);
      assert.equal(k2, reference(s2, q2));
      const n1 = s1 === 0 ? 0 : s1;
      const n2 = s2 === 0 ? 0 : s2;
      const order = n1 !== n2 ? (n1 > n2 ? -1 : 1) : Math.sign(q1 - q2);
      assert.equal(k1 < k2 ? -1 : k1 > k2 ? 1 : 0, order);
    }),
    { seed: 20261127, numRuns: 5000 },
  );
  assert.throws(() => frontierKey(NaN, 1), TypeError);
  assert.throws(() => frontierKey(1, -1), TypeError);
  assert.throws(() => frontierKey(1, 2 ** 53), TypeError);
});

test('seqOf reads what parseInt(key.slice(17), 16) read, odd keys included', () => {
  const keys = ['0123456789abcdef!00000000000000', '0123456789abcdef!1fffffffffffff', '0123456789abcdef!0000000000ABcd', '0123456789abcdef!12x4', '0123456789abcdef!', '0123456789abcdef!zz', 'short'];
  for (const k of keys) assert.deepEqual(seqOf(k), parseInt(k.slice(17), 16), k);
});
