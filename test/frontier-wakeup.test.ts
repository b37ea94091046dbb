/**
 * The frontier source must not sleep through a host released while it was
 * busy looking (issue 4: "a lost wakeup would serialise").
 *
 * Regression: the source took Inflight.wait() after awaiting head.grow() and
 * head.scanBeyond(); a wake() that came during those awaits found no waiter
 * and was lost, so the source slept until some later event although a URL
 * was ready (forever, when nothing else was in flight).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrontierHead, type KeyedEntry } from '../src/frontier/head.ts';
import { Inflight } from '../src/frontier/inflight.ts';
import { HostScheduler } from '../src/frontier/politeness.ts';
import { frontierSource } from '../src/stages/frontier-source.ts';

test('Inflight.wait(ms, signal, since) resolves at once when a wake() came after `since` was read', async () => {
  const inflight = new Inflight();
  const since = inflight.wakes;
  inflight.wake();
  assert.equal(inflight.wakes, since + 1);
  await inflight.wait(Infinity, undefined, since); // would hang without `since`
  let woke = false;
  const p = inflight.wait(Infinity, undefined, inflight.wakes).then(() => (woke = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(woke, false, 'an up-to-date `since` waits for the next wake');
  inflight.wake();
  await p;
});

test('frontierSource: a host released while the source loads more of the frontier is not slept through', async () => {
  const rows: KeyedEntry[] = ['http://a.test/1', 'http://a.test/2'].map((url, i) => ({ key: `k${i}`, entry: { url, score: 0, depth: 0, parent: null } }));
  const inflight = new Inflight();
  const scheduler = new HostScheduler({ perHost: 1, delayMs: 0 });
  let loads = 0;
  const head = new FrontierHead({
    capacity: 4,
    load: async (gt, limit) => {
      loads++;
      // the second load is the source's grow(), looking for a free host:
      // a.test's request ends meanwhile
      if (loads === 2) {
        scheduler.finish('a.test', 'http://a.test/1', true);
        inflight.delete('http://a.test/1');
      }
      return rows.filter((r) => gt === undefined || r.key > gt).slice(0, limit);
    },
  });
  const ac = new AbortController();
  const source = frontierSource({ head, scheduler, inflight, pagesDone: () => 0, maxPages: Infinity, signal: ac.signal });
  try {
    assert.equal((await source.next()).value?.entry.url, 'http://a.test/1');
    const second = source.next();
    const timeout = setTimeout(() => ac.abort(), 5000);
    const r = await second;
    clearTimeout(timeout);
    assert.equal(ac.signal.aborted, false, 'the source slept through the release');
    assert.equal(r.value?.entry.url, 'http://a.test/2');
  } finally {
    ac.abort();
    await source.return(undefined);
  }
});
