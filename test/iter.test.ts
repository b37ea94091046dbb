/** mapConcurrent (src/util/iter.ts): bounded concurrency, completion order, backpressure, errors, early stop. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { mapConcurrent } from '../src/util/iter.ts';

/** Yields 0..n-1, counting how many were pulled; `closed` once return() ran. */
function counted(n: number) {
  const state = { pulled: 0, closed: false };
  async function* gen() {
    try {
      for (let i = 0; i < n; i++) {
        state.pulled++;
        yield i;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, source: gen() };
}

test('mapConcurrent: at most `limit` calls at once, results in completion order', async () => {
  let running = 0;
  let most = 0;
  const out: number[] = [];
  // item i takes (5 - i % 5) * 4 ms: later items of a group of 5 finish first
  for await (const v of mapConcurrent(counted(20).source, 5, async (i) => {
    running++;
    most = Math.max(most, running);
    await sleep((5 - (i % 5)) * 4);
    running--;
    return i;
  })) out.push(v);
  assert.equal(most, 5);
  assert.deepEqual([...out].sort((a, b) => a - b), [...Array(20).keys()]);
  assert.notDeepEqual(out, [...Array(20).keys()], 'a fast item overtakes a slow one');
});

test('mapConcurrent: limit 1 keeps the input order', async () => {
  const out: number[] = [];
  for await (const v of mapConcurrent(counted(6).source, 1, async (i) => {
    await sleep(i % 2 === 0 ? 6 : 0);
    return i * 10;
  })) out.push(v);
  assert.deepEqual(out, [0, 10, 20, 30, 40, 50]);
});

test('mapConcurrent: a consumer that stops pulling stops the source at `limit` items', async () => {
  const { state, source } = counted(100);
  const it = mapConcurrent(source, 4, async (i) => i);
  assert.equal((await it.next()).value, 0);
  await sleep(10);
  // one yielded, up to 4 running or waiting to be yielded
  assert.ok(state.pulled <= 5, `pulled ${state.pulled}`);
  await it.return(undefined);
  await sleep(0);
  assert.equal(state.closed, true, 'the source is closed when the consumer stops');
});

test('mapConcurrent: an error from fn is thrown after the running calls settle', async () => {
  const { state, source } = counted(10);
  const settled: number[] = [];
  const out: number[] = [];
  const it = mapConcurrent(source, 3, async (i) => {
    if (i === 1) throw new Error('boom');
    await sleep(5);
    settled.push(i);
    return i;
  });
  await assert.rejects(async () => {
    for await (const v of it) out.push(v);
  }, /boom/);
  assert.deepEqual(settled, [0], 'the call running when item 1 failed settled first');
  assert.deepEqual(out, [0], 'its result is still yielded');
  assert.ok(state.pulled <= 3, `no new item is started after the error (pulled ${state.pulled})`);
  await sleep(0);
  assert.equal(state.closed, true, 'the source is closed');
});

test('mapConcurrent: an error from the source is thrown', async () => {
  async function* bad() {
    yield 1;
    throw new Error('source broke');
  }
  const out: number[] = [];
  await assert.rejects(async () => {
    for await (const v of mapConcurrent(bad(), 2, async (i) => i)) out.push(v);
  }, /source broke/);
  assert.deepEqual(out, [1]);
});

test('mapConcurrent: a bad limit is a TypeError', async () => {
  await assert.rejects(() => mapConcurrent(counted(1).source, 0, async (i) => i).next(), TypeError);
});

// Regression: mapConcurrent pulled up to `limit` items ahead of the consumer
// even when `fn` was quick; in the robots and address stages that took URLs
// out of the frontier before the latest links were scored, and the demo's
// best-first harvest fell from ~72% to ~52%. A quick fn is one that returns
// its result at once, not a promise (a cached robots.txt verdict).
test('mapConcurrent: with a quick fn, nothing is pulled ahead of the consumer', async () => {
  let pulled = 0;
  async function* source(): AsyncGenerator<number> {
    for (let i = 0; i < 50; i++) {
      pulled++;
      yield i;
    }
  }
  const it = mapConcurrent(source(), 16, (n) => n * 2)[Symbol.asyncIterator]();
  for (let consumed = 1; consumed <= 10; consumed++) {
    const r = await it.next();
    assert.equal(r.done, false);
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(pulled <= consumed + 1, `pulled ${pulled} after ${consumed} consumed`);
  }
  await it.return?.(undefined);
});

// Regression (issue 23 item 3): mapConcurrent waited a setImmediate after
// every call to tell a quick one from a slow one, so it started one slow call
// (a robots.txt fetch for a new host) per event-loop turn; with 100,000 hosts
// at 200 ms, --concurrency 1024 never had more than a few hundred requests in
// flight. Slow calls must fill every free slot at once.
test('mapConcurrent: slow calls (promises) fill every free slot without waiting a turn each', async () => {
  const { state, source } = counted(100);
  const gates: (() => void)[] = [];
  const it = mapConcurrent(source, 16, (i) => new Promise<number>((resolve) => gates.push(() => resolve(i))))[Symbol.asyncIterator]();
  const first = it.next();
  // one event-loop turn: the old code had started 1 or 2 calls by then
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(gates.length, 16, `${gates.length} calls started`);
  assert.equal(state.pulled, 16, 'nothing pulled beyond the limit');
  gates[3]();
  assert.equal((await first).value, 3);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(gates.length, 16, 'nothing is pulled while the consumer does not ask');
  const second = it.next();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(gates.length, 17, 'a settled call freed its slot for the next item');
  gates[16]();
  assert.equal((await second).value, 16);
  await it.return?.(undefined);
});

test('mapConcurrent: quick and slow calls mixed: a quick result is yielded, slow ones keep running', async () => {
  const out: number[] = [];
  for await (const v of mapConcurrent(counted(10).source, 4, (i) => (i % 3 === 0 ? sleep(5).then(() => i) : i))) out.push(v);
  assert.deepEqual([...out].sort((a, b) => a - b), [...Array(10).keys()]);
  assert.notDeepEqual(out, [...Array(10).keys()], 'quick items overtake the slow ones');
});

test('mapConcurrent: fn that throws at once is thrown like a rejection', async () => {
  await assert.rejects(async () => {
    for await (const v of mapConcurrent(counted(5).source, 2, (i): number => {
      if (i === 2) throw new Error('sync boom');
      return i;
    })) void v;
  }, /sync boom/);
});
