import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KeyTable } from '../src/util/key-table.ts';

test('KeyTable behaves as a Map: values, sizes and insertion order, across clears and growth', () => {
  // issue 23: the store's per-commit plan keeps its operations, seen marks
  // and links in KeyTables it reuses instead of new Maps; the journal line
  // and the batch follow their order, so order must be a Map's exactly
  // (a deleted key set again goes last; re-setting a key keeps its place)
  const key = fc.oneof(
    fc.integer({ min: 0, max: 200 }).map((n) => `!seen!${n.toString(16).padStart(32, '0')}`),
    fc.integer({ min: 0, max: 60 }).map((n) => `k${n}`),
    fc.constantFrom('', 'a', '!meta!_counters', 'x'.repeat(40)),
    // same last 8 characters and length: one hash, many keys
    fc.integer({ min: 0, max: 30 }).map((n) => `${String.fromCharCode(97 + n)}-tail0001`),
  );
  const op = fc.oneof(
    { weight: 6, arbitrary: fc.record({ t: fc.constant('set' as const), key, v: fc.integer() }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('delete' as const), key }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('get' as const), key }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('clear' as const) }) },
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 700, size: 'max' }), fc.constantFrom(1, 8, 64), fc.boolean(), (ops, capacity, hashAll) => {
      const map = new Map<string, number>();
      const table = new KeyTable<number>(capacity, capacity === 1 ? 16 : 4096, hashAll);
      for (const o of ops) {
        if (o.t === 'set') {
          map.set(o.key, o.v);
          table.set(o.key, o.v);
        } else if (o.t === 'delete') {
          assert.equal(table.delete(o.key), map.delete(o.key));
        } else if (o.t === 'get') {
          assert.equal(table.get(o.key), map.get(o.key));
          assert.equal(table.has(o.key), map.has(o.key));
        } else {
          map.clear();
          table.clear();
        }
        assert.equal(table.size, map.size);
      }
      const entries: [string, number][] = [];
      for (let i = 0; i < table.end; i++) if (table.live(i)) entries.push([table.keyAt(i), table.valueAt(i)]);
      assert.deepEqual(entries, [...map]);
      assert.deepEqual(table.keys(), [...map.keys()]);
      assert.deepEqual(table.values(), [...map.values()]);
    }),
    { seed: 20261127, numRuns: 400 },
  );
});

test('KeyTable: a table grown past keepSlots starts small again after clear, and still works', () => {
  const table = new KeyTable<number>(32, 4096);
  for (let i = 0; i < 5000; i++) table.set(`key${i}`, i);
  assert.equal(table.size, 5000);
  assert.equal(table.get('key4999'), 4999);
  table.clear();
  assert.equal(table.size, 0);
  assert.equal(table.get('key1'), undefined);
  table.set('key1', 1);
  assert.deepEqual(table.keys(), ['key1']);
});
