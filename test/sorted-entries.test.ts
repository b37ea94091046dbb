import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RUN_MAX, SortedEntries } from '../src/frontier/sorted-entries.ts';
import type { KeyedEntry } from '../src/frontier/head.ts';

const ke = (key: string): KeyedEntry => ({ key, entry: { url: `http://h.test/${key}`, score: 0, depth: 0, parent: null } });

/** Where `key` is, or would go, in a sorted array (head.ts's searchKey). */
function searchKey(entries: KeyedEntry[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

test('SortedEntries does what a sorted array with splice does', () => {
  // issue 23: the frontier head's buffer and window were sorted arrays
  // whose splice moved ~2,000 pointers per insert; SortedEntries keeps
  // them in runs. Any op sequence must leave the same entries at the same
  // positions as the array (sizes around RUN_MAX splits and merges runs)
  const key = fc.integer({ min: 0, max: 3 * RUN_MAX * 4 }).map((n) => n.toString(36).padStart(3, '0'));
  const op = fc.oneof(
    { weight: 6, arbitrary: fc.record({ t: fc.constant('insert' as const), key }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('removeKey' as const), key }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('removeAt' as const), at: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('pop' as const) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('push' as const), key }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('removeRange' as const), at: fc.nat(), n: fc.nat({ max: 3 * RUN_MAX }) }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('scan' as const), at: fc.nat() }) },
  );
  fc.assert(
    fc.property(fc.array(key, { maxLength: 4 * RUN_MAX, size: 'max' }), fc.array(op, { maxLength: 400, size: 'max' }), (fill, ops) => {
      const model: KeyedEntry[] = [];
      const list = new SortedEntries();
      for (const o of [...fill.map((k) => ({ t: 'insert' as const, key: k })), ...ops]) {
        switch (o.t) {
          case 'insert': {
            const i = searchKey(model, o.key);
            assert.equal(list.search(o.key), i);
            if (model[i]?.key !== o.key) {
              const e = ke(o.key);
              model.splice(i, 0, e);
              list.insert(i, e);
            }
            break;
          }
          case 'removeKey': {
            const i = searchKey(model, o.key);
            assert.equal(list.search(o.key), i);
            if (model[i]?.key === o.key) assert.equal(list.removeAt(i), model.splice(i, 1)[0]);
            break;
          }
          case 'removeAt':
            if (model.length > 0) {
              const i = o.at % model.length;
              assert.equal(list.removeAt(i), model.splice(i, 1)[0]);
            } else {
              assert.throws(() => list.removeAt(0), RangeError);
            }
            break;
          case 'pop':
            assert.equal(list.pop(), model.pop());
            break;
          case 'push': {
            // push appends a key above all held; otherwise it inserts in order
            const i = searchKey(model, o.key);
            if (model[i]?.key === o.key) break;
            const e = ke(o.key);
            model.splice(i, 0, e);
            list.push(e);
            break;
          }
          case 'removeRange': {
            const at = model.length === 0 ? 0 : o.at % (model.length + 1);
            assert.deepEqual(list.removeRange(at, o.n), model.splice(at, o.n));
            break;
          }
          case 'scan': {
            // positions read in order from anywhere, as take() scans
            const from = model.length === 0 ? 0 : o.at % model.length;
            for (let i = from; i < Math.min(model.length, from + 2 * RUN_MAX); i++) assert.equal(list.at(i), model[i]);
            break;
          }
        }
        assert.equal(list.length, model.length);
        assert.equal(list.at(0), model[0]);
        assert.equal(list.last(), model[model.length - 1]);
        assert.equal(list.at(model.length), undefined);
        assert.equal(list.at(-1), undefined);
      }
      assert.deepEqual(list.toArray(), model);
      assert.deepEqual([...list], model);
      for (let i = model.length - 1; i >= 0; i -= 7) assert.equal(list.at(i), model[i]);
      list.clear();
      assert.equal(list.length, 0);
    }),
    { seed: 20261127, numRuns: 300 },
  );
});
