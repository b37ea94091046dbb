import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { FrontierHead } from '../src/frontier/head.ts';
import { Inflight } from '../src/frontier/inflight.ts';
import { HostScheduler, type SchedulerOptions } from '../src/frontier/politeness.ts';
import { frontierSource } from '../src/stages/frontier-source.ts';
import { CrawlStore } from '../src/store/level.ts';
import type { CommitLink } from '../src/store/types.ts';
import type { CrawlItem, FrontierEntry } from '../src/types.ts';
import { canonicalize, hostOfCanonical } from '../src/urls/canonical.ts';
import { firstN } from '../src/util/iter.ts';

function seed(url: string, score: number): FrontierEntry {
  return { url, score, depth: 0, parent: null };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

/** Whether `p` is still unsettled after the event loop turned a few times (and `ms` passed). */
async function stillPending(p: Promise<unknown>, ms = 0): Promise<boolean> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 5; i++) await tick();
  if (ms > 0) await new Promise((r) => setTimeout(r, ms));
  await tick();
  return !settled;
}

interface RigOptions extends Partial<SchedulerOptions> {
  capacity?: number;
  maxPages?: number;
  seeds?: FrontierEntry[];
  holdBack?: number;
}

/**
 * Store (MemoryLevel) + head + scheduler + inflight wired as in src/pipeline.ts,
 * with a frontier source on top. `refills` counts the source's refill calls.
 * The test's end aborts the source and closes the store.
 */
async function rig(t: TestContext, opts: RigOptions = {}) {
  const { capacity = 8, maxPages = Infinity, seeds = [], holdBack, ...sched } = opts;
  const gates: { loaded: () => void; release: Promise<void> }[] = [];
  const head: FrontierHead = new FrontierHead({
    capacity,
    load: async (gt, limit) => {
      const rows = await firstN(store.frontier({ gt }), limit);
      const gate = gates.shift();
      if (gate !== undefined) {
        gate.loaded();
        await gate.release;
      }
      return rows;
    },
  });
  const store = await CrawlStore.open(new MemoryLevel<string, any>(), { onFrontierChange: (c) => head.apply(c) });
  const counts = { refills: 0 };
  const refill = head.refill.bind(head);
  head.refill = () => {
    counts.refills++;
    return refill();
  };
  const scheduler = new HostScheduler({ perHost: 1, delayMs: 0, ...sched });
  const inflight = new Inflight();
  const ac = new AbortController();
  t.after(async () => {
    ac.abort();
    await store.close();
  });
  if (seeds.length > 0) await store.addSeeds(seeds);
  const src = frontierSource({ head, scheduler, inflight, pagesDone: () => store.pages, maxPages, holdBack, signal: ac.signal });

  /** Make the next load wait, after reading its rows, until `release` resolves; resolves once it has read them. */
  function gateNextLoad(release: Promise<void>): Promise<void> {
    return new Promise((loaded) => gates.push({ loaded, release }));
  }

  /** What the pipeline does for a fetched item: release the host, commit, free the in-flight slot. */
  async function complete(item: CrawlItem, opts: { links?: CommitLink[]; error?: boolean } = {}): Promise<void> {
    scheduler.finish(hostOfCanonical(item.entry.url), item.entry.url, false);
    inflight.wake();
    const record = opts.error === true ? { type: 'error', url: item.entry.url } : { type: 'page', url: item.entry.url };
    await store.commit({ entry: item.entry, record, countsAsPage: opts.error !== true, links: opts.links ?? [] });
    inflight.delete(item.entry.url);
  }

  async function next(): Promise<CrawlItem> {
    const r = await src.next();
    assert.equal(r.done, false, 'the source ended early');
    return r.value as CrawlItem;
  }

  return { store, head, scheduler, inflight, src, ac, counts, complete, next, gateNextLoad };
}

describe('hostOfCanonical', () => {
  it('is the host (with a non-default port) of a canonical URL', () => {
    assert.equal(hostOfCanonical('http://a.test/'), 'a.test');
    assert.equal(hostOfCanonical('https://a.test/x/y?q=1'), 'a.test');
    assert.equal(hostOfCanonical('http://a.test:8080/x'), 'a.test:8080');
    assert.equal(hostOfCanonical('http://127.0.0.1:3000/'), '127.0.0.1:3000');
    assert.equal(hostOfCanonical('http://[::1]:8080/x'), '[::1]:8080');
    assert.equal(hostOfCanonical('http://a.test/p@q/r'), 'a.test');
  });

  it('canonical URLs carry no userinfo, so the host key has no credentials', () => {
    const url = canonicalize('http://user:pw@A.test:8080/x');
    assert.equal(url, 'http://a.test:8080/x');
    assert.equal(hostOfCanonical(url!), 'a.test:8080');
  });
});

describe('Inflight', () => {
  it('tracks URLs; delete() forgets one and wakes every waiter', async () => {
    const inflight = new Inflight();
    inflight.add('http://a.test/');
    inflight.add('http://a.test/');
    inflight.add('http://b.test/');
    assert.equal(inflight.size, 2);
    assert.equal(inflight.has('http://a.test/'), true);
    const w1 = inflight.wait();
    const w2 = inflight.wait(60_000);
    assert.equal(await stillPending(w1), true, 'Infinity: only a wake ends it');
    inflight.delete('http://a.test/');
    await Promise.all([w1, w2]);
    assert.equal(inflight.has('http://a.test/'), false);
    assert.equal(inflight.size, 1);
  });

  it('wait() ends on wake(), on its timeout, or on abort', async () => {
    const inflight = new Inflight();
    const woken = inflight.wait();
    inflight.wake();
    await woken;
    const t0 = Date.now();
    await inflight.wait(10);
    assert.ok(Date.now() - t0 >= 5);
    const ac = new AbortController();
    const aborted = inflight.wait(Infinity, ac.signal);
    assert.equal(await stillPending(aborted), true);
    ac.abort();
    await aborted;
  });
});

/** The fields the stages set on an item after the frontier source made it. */
const ITEM_FIELDS = ['ticket', 'fetch', 'error', 'refusedHops', 'page', 'relevance', 'relevant', 'outlinks', 'simhash', 'fingerprint', 'duplicateOf'] as const;

describe('frontierSource', { timeout: 10_000 }, () => {
  it('yields seeds best first (FIFO among equal scores), then their links, and ends when the frontier is empty', async (t) => {
    const seeds = [
      seed('http://a.test/1', 5),
      seed('http://b.test/1', 9),
      seed('http://c.test/1', 5),
      seed('http://d.test/1', 7),
    ];
    const r = await rig(t, { seeds, perHost: 1, capacity: 4 });
    const order: string[] = [];
    for await (const item of r.src) {
      order.push(item.entry.url);
      assert.equal(r.inflight.has(item.entry.url), true, 'a yielded URL is in flight');
      // nothing set yet, but every field a stage sets is there: the item's shape never changes (newItem)
      assert.deepEqual(Object.keys(item), ['entry', ...ITEM_FIELDS]);
      for (const k of ITEM_FIELDS) assert.equal(item[k], undefined, k);
      const links = item.entry.depth === 0 ? [{ url: `${item.entry.url}x`, score: item.entry.score / 10, depth: 1, parent: item.entry.url }] : [];
      await r.complete(item, { links });
    }
    assert.deepEqual(order, [
      'http://b.test/1',
      'http://d.test/1',
      'http://a.test/1',
      'http://c.test/1',
      'http://b.test/1x',
      'http://d.test/1x',
      'http://a.test/1x',
      'http://c.test/1x',
    ]);
    assert.equal(r.store.frontierSize, 0);
    assert.equal(r.inflight.size, 0);
  });

  it('ends at once on an empty store', async (t) => {
    const r = await rig(t);
    assert.deepEqual(await r.src.next(), { done: true, value: undefined });
  });

  it('waits while the last URL is in flight, and ends when it is committed without links', async (t) => {
    const r = await rig(t, { seeds: [seed('http://a.test/1', 1)] });
    const item = await r.next();
    const p = r.src.next();
    assert.equal(await stillPending(p), true, 'the frontier is empty but a page is in flight');
    await r.complete(item);
    assert.deepEqual(await p, { done: true, value: undefined });
  });

  it('a commit that brings links wakes it with the new URL', async (t) => {
    const r = await rig(t, { seeds: [seed('http://a.test/1', 1)] });
    const item = await r.next();
    const p = r.src.next();
    assert.equal(await stillPending(p), true);
    await r.complete(item, { links: [{ url: 'http://b.test/2', score: 0.5, depth: 1, parent: item.entry.url }] });
    const got = await p;
    assert.equal(got.done, false);
    assert.equal((got.value as CrawlItem).entry.url, 'http://b.test/2');
    assert.equal((got.value as CrawlItem).entry.depth, 1);
  });

  it('does not end when a load comes back emptied by changes made during it while the store holds more', async (t) => {
    const seeds = ['a', 'b', 'c', 'd', 'e'].map((h, i) => seed(`http://${h}.test/`, 10 - i));
    const r = await rig(t, { seeds, capacity: 4 }); // loads 2 at a time
    let release!: () => void;
    const loaded = r.gateNextLoad(new Promise((res) => (release = res)));
    const p = r.src.next();
    await loaded; // the first load read a and b ...
    for (const url of ['http://a.test/', 'http://b.test/']) {
      // ... which are committed meanwhile (say, by a previous process sharing nothing but the store)
      await r.store.commit({ entry: seed(url, 0), record: { type: 'page', url }, countsAsPage: true, links: [] });
    }
    release();
    const got = await p;
    assert.equal(got.done, false, 'c, d and e are still queued');
    assert.equal((got.value as CrawlItem).entry.url, 'http://c.test/');
  });

  it('respects maxPages counting committed pages plus URLs in flight (errors do not count)', async (t) => {
    const seeds = ['a', 'b', 'c', 'd', 'e'].map((h, i) => seed(`http://${h}.test/`, 10 - i));
    const r = await rig(t, { seeds, maxPages: 3 });
    const [a, b, c] = [await r.next(), await r.next(), await r.next()];
    assert.deepEqual([a, b, c].map((i) => i.entry.url), ['http://a.test/', 'http://b.test/', 'http://c.test/']);
    const p = r.src.next();
    assert.equal(await stillPending(p), true, '0 pages + 3 in flight = maxPages');
    await r.complete(a); // 1 page + 2 in flight
    assert.equal(await stillPending(p), true, '1 page + 2 in flight = maxPages');
    await r.complete(b, { error: true }); // 1 page + 1 in flight
    const d = await p;
    assert.equal((d.value as CrawlItem).entry.url, 'http://d.test/');
    const q = r.src.next();
    assert.equal(await stillPending(q), true);
    await r.complete(c);
    assert.equal(await stillPending(q), true, '2 pages + 1 in flight');
    await r.complete(d.value as CrawlItem);
    assert.deepEqual(await q, { done: true, value: undefined }, '3 pages: done, though e is still queued');
    assert.equal(r.store.pages, 3);
    assert.equal(r.store.frontierSize, 1);
  });

  it('counts pages of earlier runs (pagesDone) towards maxPages', async (t) => {
    const seeds = ['a', 'b', 'c', 'd'].map((h, i) => seed(`http://${h}.test/`, 10 - i));
    const r = await rig(t, { seeds, maxPages: 3 });
    // an earlier run committed a and b
    for (const url of ['http://a.test/', 'http://b.test/']) {
      await r.store.commit({ entry: seed(url, 0), record: { type: 'page', url }, countsAsPage: true, links: [] });
    }
    const c = await r.next();
    assert.equal(c.entry.url, 'http://c.test/');
    const p = r.src.next();
    assert.equal(await stillPending(p), true);
    await r.complete(c);
    assert.deepEqual(await p, { done: true, value: undefined });
  });

  it('waits without spinning while every queued host is busy, and wakes on inflight.wake()', async (t) => {
    const seeds = [seed('http://a.test/1', 2), seed('http://a.test/2', 1)];
    const r = await rig(t, { seeds, perHost: 1 });
    const first = await r.next();
    const before = r.counts.refills;
    const p = r.src.next();
    assert.equal(await stillPending(p, 20), true);
    assert.ok(r.counts.refills - before <= 1, `no busy loop: ${r.counts.refills - before} refills while waiting`);
    r.scheduler.finish('a.test', first.entry.url, false); // host free, but nobody told the source yet
    assert.equal(await stillPending(p), true, 'it sleeps until woken');
    r.inflight.wake();
    assert.equal(((await p).value as CrawlItem).entry.url, 'http://a.test/2');
    assert.ok(r.counts.refills - before <= 2);
  });

  it('waits for a host delay (fake clock) and takes the URL once the delay passed and it is woken', async (t) => {
    const clock = { t: 0 };
    const r = await rig(t, { seeds: [seed('http://a.test/1', 2), seed('http://a.test/2', 1)], delayMs: 60_000, now: () => clock.t });
    const first = await r.next();
    await r.complete(first); // delay starts: a.test is not ready before t = 60000
    const p = r.src.next();
    const before = r.counts.refills;
    r.inflight.wake();
    assert.equal(await stillPending(p), true, 'woken too early: still delayed');
    assert.ok(r.counts.refills - before <= 2);
    clock.t = 60_000;
    r.inflight.wake();
    assert.equal(((await p).value as CrawlItem).entry.url, 'http://a.test/2');
  });

  it('wakes by itself when a host delay ends (real clock, short delay)', async (t) => {
    const r = await rig(t, { seeds: [seed('http://a.test/1', 2), seed('http://a.test/2', 1)], delayMs: 25 });
    const first = await r.next();
    const t0 = Date.now();
    await r.complete(first); // the delay starts here
    const second = await r.next(); // nobody calls wake(): the source's own timer must fire
    assert.equal(second.entry.url, 'http://a.test/2');
    assert.ok(Date.now() - t0 >= 20, 'it waited for the delay');
    assert.ok(r.counts.refills <= 4, `no busy loop: ${r.counts.refills} refills`);
  });

  it('ends when aborted while waiting', async (t) => {
    const r = await rig(t, { seeds: [seed('http://a.test/1', 2), seed('http://a.test/2', 1)] });
    await r.next();
    const p = r.src.next();
    assert.equal(await stillPending(p), true);
    r.ac.abort();
    assert.deepEqual(await p, { done: true, value: undefined });
  });

  for (const perHost of [1, 2]) {
    it(`perHost=${perHost}: never more than ${perHost} requests to one host in flight, every URL fetched once`, async (t) => {
      let s = 42 + perHost;
      const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
      const hosts = ['a.test', 'b.test', 'c.test'];
      const pool = Array.from({ length: 30 }, (_, i) => `http://${hosts[i % 3]}/${i}`);
      const seeds = hosts.flatMap((h) => [1, 2, 3, 4].map((i) => seed(`http://${h}/s${i}`, 100 - i)));
      const r = await rig(t, { seeds, perHost, capacity: 8 });
      const active = new Map<string, number>();
      let maxActive = 0;
      const fetched: string[] = [];
      const work = async (item: CrawlItem): Promise<void> => {
        const host = hostOfCanonical(item.entry.url);
        for (let i = Math.floor(rnd() * 6); i > 0; i--) await tick();
        active.set(host, active.get(host)! - 1);
        const links = Array.from({ length: 3 }, () => ({ url: pool[Math.floor(rnd() * pool.length)], score: rnd(), depth: 1, parent: item.entry.url }));
        await r.complete(item, { links });
      };
      const running = new Set<Promise<void>>();
      for await (const item of r.src) {
        const host = hostOfCanonical(item.entry.url);
        const n = (active.get(host) ?? 0) + 1;
        active.set(host, n);
        maxActive = Math.max(maxActive, n);
        assert.ok(n <= perHost, `${n} requests to ${host} in flight`);
        fetched.push(item.entry.url);
        const p: Promise<void> = work(item).finally(() => running.delete(p));
        running.add(p);
        if (running.size >= 4) await Promise.race(running);
      }
      await Promise.all(running);
      assert.equal(maxActive, perHost, 'the bound is reached, so the test can fail');
      assert.equal(new Set(fetched).size, fetched.length, 'no URL fetched twice');
      assert.equal(r.store.frontierSize, 0);
      assert.equal(r.store.pages, fetched.length);
    });
  }

  it('host diversity K=3 prefers other hosts, and falls back to a repeated host when no other is queued', async (t) => {
    const seeds = [
      seed('http://a.test/1', 10),
      seed('http://a.test/2', 9),
      seed('http://a.test/3', 8),
      seed('http://b.test/1', 5),
      seed('http://c.test/1', 4),
    ];
    // capacity 32 loads 8 at a time: all five are in the head at once
    const diverse = await rig(t, { seeds, perHost: 10, hostDiversity: 3, capacity: 32 });
    const got: string[] = [];
    for (let i = 0; i < 5; i++) got.push((await diverse.next()).entry.url);
    assert.deepEqual(got, ['http://a.test/1', 'http://b.test/1', 'http://c.test/1', 'http://a.test/2', 'http://a.test/3']);

    const plain = await rig(t, { seeds, perHost: 10, hostDiversity: 0, capacity: 32 });
    const order: string[] = [];
    for (let i = 0; i < 5; i++) order.push((await plain.next()).entry.url);
    assert.deepEqual(order, ['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://b.test/1', 'http://c.test/1']);
  });

  // Regression: the head refilled only below half capacity, so a head full of
  // a busy host's URLs hid free hosts' URLs still in the store: the source
  // waited instead of fetching them.
  it('yields a ready host whose URLs sit in the store behind a busy host\'s URLs in the head', async (t) => {
    const seeds = [...[10, 9, 8, 7, 6, 5, 4].map((s) => seed(`http://a.test/${s}`, s)), seed('http://b.test/1', 1)];
    const r = await rig(t, { seeds, perHost: 1, capacity: 16 }); // loads 4 at a time
    assert.equal((await r.next()).entry.url, 'http://a.test/10');
    const p = r.src.next(); // a.test is busy; b.test is free
    assert.equal(await stillPending(p, 20), false, 'the source waits although b.test is free');
    assert.equal(((await p).value as CrawlItem).entry.url, 'http://b.test/1');
    const before = r.counts.refills;
    const q = r.src.next(); // only a.test is left, and it is busy: now it must wait
    assert.equal(await stillPending(q, 20), true);
    assert.ok(r.counts.refills - before <= 2, 'no busy loop once everything is loaded');
  });

  // Regression: with the whole head (capacity entries) held by one busy host,
  // free hosts' URLs further down the store were never reached.
  it(
    'yields a ready host even when the whole head (capacity entries) belongs to a busy host',
    async (t) => {
      const seeds = [...[10, 9, 8, 7, 6].map((s) => seed(`http://a.test/${s}`, s)), seed('http://b.test/1', 1)];
      const r = await rig(t, { seeds, perHost: 1, capacity: 4 });
      assert.equal((await r.next()).entry.url, 'http://a.test/10');
      const p = r.src.next(); // the head holds a.test/9..6: a.test is busy, b.test is free
      assert.equal(await stillPending(p, 20), false, 'the source waits although b.test is free');
      assert.equal(((await p).value as CrawlItem).entry.url, 'http://b.test/1');
    },
  );
});

describe('frontierSource: politeness beyond the head', { timeout: 20_000 }, () => {
  // Issue 23: scanBeyond now parks a waiting host's entries (read beyond a
  // full head) instead of walking them on every scan. A host must still
  // never be fetched before its delay ends, and the URL taken must still be
  // the best queued one whose host is free.
  it('never starts a host before its delay ends and takes the best URL of a free host (fake clock)', async (t) => {
    const clock = { t: 0 };
    const delayMs = 1000;
    const hosts = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    // a.test's 8 URLs fill the head (capacity 4); the others' come from beyond it
    const seeds: FrontierEntry[] = [];
    let score = 1000;
    for (let i = 0; i < 8; i++) seeds.push(seed(`http://a.test/${i}`, score--));
    for (let i = 0; i < 4; i++) for (const h of hosts.slice(1)) seeds.push(seed(`http://${h}.test/${i}`, score--));
    const r = await rig(t, { seeds, capacity: 4, delayMs, now: () => clock.t });
    const queued = new Map(seeds.map((e) => [e.url, e.score]));
    const lastEnd = new Map<string, number>();
    const ready = (host: string, at: number): boolean => at >= (lastEnd.get(host) ?? -Infinity) + delayMs;
    const starts: number[] = [];
    const start = r.scheduler.start.bind(r.scheduler);
    r.scheduler.start = (host) => {
      starts.push(clock.t);
      start(host);
    };
    for (let n = 0; n < seeds.length; n++) {
      const p = r.src.next();
      while (await stillPending(p)) {
        clock.t += 250;
        r.inflight.wake();
      }
      const item = (await p).value as CrawlItem;
      const at = starts[n];
      const host = hostOfCanonical(item.entry.url);
      assert.ok(ready(host, at), `${item.entry.url} started at ${at}, ${host} ended ${lastEnd.get(host)}`);
      const best = Math.max(...[...queued].filter(([u]) => ready(hostOfCanonical(u), at)).map(([, s]) => s));
      assert.equal(item.entry.score, best, `${item.entry.url} at ${at}: a better URL's host was free`);
      queued.delete(item.entry.url);
      clock.t += 10;
      await r.complete(item);
      lastEnd.set(host, clock.t);
    }
    assert.equal(queued.size, 0);
    assert.ok(r.head.beyondRead > 0, 'URLs were taken from beyond the head');
  });
});

describe('frontierSource: hold-back', { timeout: 10_000 }, () => {
  // On the bundled demo web (11 hosts, one request per host, 8 in all), 38
  // of the 44 off-topic URLs of one crawl were taken while a better URL
  // waited a few milliseconds for its busy on-topic host.
  // capacity 64: the head buffers the whole frontier, so its median is that of every queued URL
  const seeds = [seed('http://a.test/1', 10), seed('http://a.test/2', 9), seed('http://a.test/3', 8), seed('http://b.test/1', 0)];

  it('a URL far below the best waits while the best one\'s host is busy, and the best goes first once it is free', async (t) => {
    const r = await rig(t, { seeds, holdBack: 0.5, capacity: 64 });
    const first = await r.next();
    assert.equal(first.entry.url, 'http://a.test/1');
    const p = r.src.next();
    assert.equal(await stillPending(p, 10), true, 'b.test is free, but its URL scores 0 against 9 waiting for a.test');
    await r.complete(first);
    assert.equal(((await p).value as CrawlItem).entry.url, 'http://a.test/2');
  });

  it('with hold-back 0 (off) the free slot goes to the weak URL at once', async (t) => {
    const r = await rig(t, { seeds, holdBack: 0, capacity: 64 });
    assert.equal((await r.next()).entry.url, 'http://a.test/1');
    assert.equal((await r.next()).entry.url, 'http://b.test/1');
  });

  it('a URL near the best is taken while the best one\'s host is busy', async (t) => {
    // queued 9, 8.6, 8, 0, 0: 8 is the median; it and the URLs below it wait, 8.6 does not
    const r = await rig(t, { seeds: [...seeds, seed('http://c.test/1', 8.6), seed('http://b.test/2', 0)], holdBack: 0.5, capacity: 64 });
    assert.equal((await r.next()).entry.url, 'http://a.test/1');
    assert.equal((await r.next()).entry.url, 'http://c.test/1');
  });

  it('links tied at the median wait too: a queue mostly of links scored 0 holds them', async (t) => {
    const zeros = [seed('http://b.test/1', 0), seed('http://b.test/2', 0), seed('http://c.test/1', 0)];
    const r = await rig(t, { seeds: [seed('http://a.test/1', 10), seed('http://a.test/2', 9), ...zeros], holdBack: 0.5, capacity: 64 });
    const first = await r.next();
    const p = r.src.next();
    assert.equal(await stillPending(p, 10), true, 'queued 9, 0, 0, 0: the median is 0, below the best');
    await r.complete(first);
    assert.equal(((await p).value as CrawlItem).entry.url, 'http://a.test/2');
  });

  it('equal scores (bfs) hold nothing', async (t) => {
    const r = await rig(t, { seeds: [seed('http://a.test/1', 1), seed('http://a.test/2', 1), seed('http://b.test/1', 1)], holdBack: 1, capacity: 64 });
    assert.equal((await r.next()).entry.url, 'http://a.test/1');
    assert.equal((await r.next()).entry.url, 'http://b.test/1');
  });

  it('nothing is held while the best one\'s host owes a delay longer than a request takes (polite crawls)', async (t) => {
    const r = await rig(t, { seeds, capacity: 64, holdBack: 0.5, delayMs: 1000 });
    assert.equal((await r.next()).entry.url, 'http://a.test/1');
    assert.equal((await r.next()).entry.url, 'http://b.test/1', 'a.test must wait 1 s after its request: not worth a slot');
  });

  it('nothing is held when nothing is in flight: the crawl must move', async (t) => {
    const clock = { t: 0 };
    const r = await rig(t, { seeds, capacity: 64, holdBack: 0.5, delayMs: 5, now: () => clock.t });
    const first = await r.next();
    r.scheduler.finish('a.test', first.entry.url, false, true, 50); // requests take 50 ms; a.test now waits 5 ms
    await r.store.commit({ entry: first.entry, record: { type: 'page', url: first.entry.url }, countsAsPage: true, links: [] });
    r.inflight.delete(first.entry.url);
    assert.equal(r.scheduler.typicalRequestMs, 50);
    assert.equal((await r.next()).entry.url, 'http://b.test/1', 'a.test is 5 ms from free, but no request is in flight');
  });
});
