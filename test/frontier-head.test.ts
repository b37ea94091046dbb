import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLevel } from 'memory-level';
import { FrontierHead, type HostGate, type KeyedEntry, type Verdict } from '../src/frontier/head.ts';
import { CrawlStore } from '../src/store/level.ts';
import type { FrontierEntry } from '../src/types.ts';
import { firstN } from '../src/util/iter.ts';
import { seededRandom as prng } from '../src/util/random.ts';

/**
 * The hosts of a random crawl on a fake clock, for the gate: each host is
 * ready at a time, or busy (Infinity) while a request to it is in flight.
 */
function randomHosts(rnd: () => number): { readonly gate: HostGate; waiting(host: string): boolean; busy(host: string): void; step(r: number, head: FrontierHead): boolean } {
  const state = new Map<string, number>(); // host -> ready at (Infinity: busy)
  let clock = 0;
  return {
    gate: { now: () => clock, readyAt: (h) => state.get(h) ?? 0 },
    /** the host's time has not come */
    waiting: (host) => (state.get(host) ?? 0) > clock,
    busy: (host) => void state.set(host, Infinity),
    /**
     * One step of the crawl's time for a draw r: below 0.15 the clock moves
     * on; below 0.3 a request ends (its host waits a delay, `head` is told);
     * false (nothing done) from 0.3 up
     */
    step(r, head) {
      if (r < 0.15) {
        clock += Math.floor(rnd() * 300);
      } else if (r < 0.3) {
        const busy = [...state].filter(([, at]) => at === Infinity);
        if (busy.length > 0) {
          const [host] = busy[Math.floor(rnd() * busy.length)];
          state.set(host, clock + Math.floor(rnd() * 500));
          head.release(host);
        }
      } else {
        return false;
      }
      return true;
    },
  };
}

const U = (p: string) => `http://h${p.length % 3}.test/${p}`;

function seed(p: string, score: number): FrontierEntry {
  return { url: U(p), score, depth: 0, parent: null };
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

interface Gate {
  /** resolves once the load has read its rows (its snapshot) */
  loaded: Deferred;
  /** the load returns once this resolves */
  release: Deferred;
  fail?: Error;
}

/**
 * A CrawlStore on MemoryLevel wired to a FrontierHead as src/pipeline.ts does
 * (`onFrontierChange` -> head.apply, load = first `limit` rows of
 * store.frontier({ gt })). With `h.gate` set, the next load reads its rows at
 * once and then waits for `gate.release` before returning them, so the test
 * can commit while a refill is running.
 */
async function setup(opts: { capacity: number; maxFrontier?: number }) {
  const loads: { gt: string | undefined; limit: number }[] = [];
  const h = { gate: null as Gate | null, loads };
  const head: FrontierHead = new FrontierHead({
    capacity: opts.capacity,
    load: async (gt, limit) => {
      loads.push({ gt, limit });
      const rows = await firstN(store.frontier({ gt }), limit);
      const gate = h.gate;
      if (gate !== null) {
        h.gate = null;
        gate.loaded.resolve();
        await gate.release.promise;
        if (gate.fail !== undefined) throw gate.fail;
      }
      return rows;
    },
  });
  const store = await CrawlStore.open(new MemoryLevel<string, any>(), {
    maxFrontier: opts.maxFrontier,
    onFrontierChange: (change) => head.apply(change),
  });
  return { store, head, h };
}

async function storeRows(store: CrawlStore): Promise<KeyedEntry[]> {
  const out: KeyedEntry[] = [];
  for await (const row of store.frontier()) out.push(row);
  return out;
}

/** Verdict of the frontier source for URLs in flight: they stay in the head. */
const skipping =
  (inflight: Set<string>) =>
  ({ entry }: KeyedEntry): Verdict =>
    inflight.has(entry.url) ? 'skip' : 'take';

/** Take as the frontier source does: refill, take, and grow the head while nothing is takeable. */
async function takeNext(head: FrontierHead, inflight: Set<string>): Promise<KeyedEntry | null> {
  for (;;) {
    await head.refill();
    const got = head.take(skipping(inflight));
    if (got !== null || !(await head.grow())) return got;
  }
}

/** Take until the head has nothing to take; the store is not changed. */
async function drain(head: FrontierHead, inflight = new Set<string>()): Promise<KeyedEntry[]> {
  const out: KeyedEntry[] = [];
  for (;;) {
    const got = await takeNext(head, inflight);
    if (got === null) return out;
    out.push(got);
    inflight.add(got.entry.url);
  }
}

/** Load the whole store into the head (when it fits). */
async function loadAll(head: FrontierHead): Promise<void> {
  await head.refill();
  while (await head.grow());
}

/** The store's frontier minus the URLs in flight: what the head must hand out, in order. */
async function expected(store: CrawlStore, inflight: Set<string>): Promise<KeyedEntry[]> {
  return (await storeRows(store)).filter((r) => !inflight.has(r.entry.url));
}

function urls(rows: KeyedEntry[]): string[] {
  return rows.map((r) => r.entry.url);
}

function page(entry: FrontierEntry) {
  return { type: 'page', url: entry.url };
}

function link(p: string, score: number, parent: string) {
  return { url: U(p), score, depth: 1, parent };
}


describe('FrontierHead on a CrawlStore', () => {
  it('hands out the store frontier best first, FIFO among equal scores, loading in chunks', async () => {
    const { store, head, h } = await setup({ capacity: 4 });
    const scores = [3, 1, 3, 2, 5, 1, 3, 0, 2, 5, -1];
    await store.addSeeds(scores.map((s, i) => seed(`s${i}`, s)));
    const want = await storeRows(store);
    const got = await drain(head);
    assert.deepEqual(got, want);
    assert.deepEqual(urls(got).slice(0, 4), [U('s4'), U('s9'), U('s0'), U('s2')]);
    assert.ok(h.loads.length >= 5, 'capacity 4 loads 2 at a time');
    for (const l of h.loads) assert.ok(l.limit <= 2);
    assert.equal(h.loads[0].gt, undefined);
    assert.equal(head.complete, true);
    assert.equal(head.size, 0);
    await store.close();
  });

  it('refills only when low (capacity/8), a chunk (capacity/4) at a time, resuming after the last loaded key', async () => {
    const { store, head, h } = await setup({ capacity: 16 }); // low 2, chunk 4
    await store.addSeeds([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((s) => seed(`n${s}`, s)));
    const rows = await storeRows(store);
    await head.refill();
    assert.deepEqual(h.loads, [{ gt: undefined, limit: 4 }]);
    assert.equal(head.size, 4);
    assert.equal(head.complete, false);
    head.take(() => 'take');
    head.take(() => 'take');
    await head.refill(); // 2 left: not low yet
    assert.equal(h.loads.length, 1);
    head.take(() => 'take');
    await head.refill(); // 1 left: load the next chunk after the 4th key
    assert.deepEqual(h.loads[1], { gt: rows[3].key, limit: 4 });
    assert.equal(head.size, 5);
    assert.equal(await head.grow(), true, 'grow loads a chunk although the head is not low');
    assert.deepEqual(h.loads[2], { gt: rows[7].key, limit: 4 });
    assert.equal(head.size, 8, 'three rows were left');
    assert.equal(head.complete, true, 'fewer rows than asked (3 of 4): the store is exhausted');
    assert.equal(await head.grow(), false);
    await head.refill();
    assert.equal(h.loads.length, 3, 'no load once complete');
    assert.deepEqual(urls(await drain(head)), urls(rows.slice(3)));
    await store.close();
  });

  it('grow() stops at capacity', async () => {
    const { store, head, h } = await setup({ capacity: 4 }); // minimum capacity: low 1, chunk 2
    await store.addSeeds([10, 9, 8, 7, 6, 5].map((s) => seed(`n${s}`, s)));
    await head.refill();
    assert.equal(head.size, 2);
    assert.equal(await head.grow(), true);
    assert.equal(head.size, 4);
    assert.equal(await head.grow(), false, 'full');
    assert.equal(h.loads.length, 2);
    assert.equal(head.complete, false);
    const limits: number[] = [];
    const tiny = new FrontierHead({ capacity: 1, load: async (_gt, limit) => (limits.push(limit), []) });
    await tiny.refill();
    assert.deepEqual(limits, [2], 'capacity is at least 4, so chunks are at least 2');
    await store.close();
  });

  it('property: after random addSeeds/commit/refill/take sequences the head hands out exactly the best remaining entries', async () => {
    const pool = Array.from({ length: 24 }, (_, i) => `p${i}`);
    for (let run = 0; run < 40; run++) {
      const rnd = prng(1000 + run);
      const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)];
      const score = () => (rnd() < 0.5 ? pick([0, 1, 2, 3]) : Math.round(rnd() * 1000) / 100);
      const capacity = pick([4, 6, 8, 16]);
      // Fewer URLs in flight than the capacity: 'skip' entries alone can then
      // never fill the head (see the limitation in frontier-source.test.ts).
      const maxInflight = 3;
      const maxFrontier = rnd() < 0.4 ? pick([3, 5, 10]) : undefined;
      const { store, head, h } = await setup({ capacity, maxFrontier });
      const inflight = new Map<string, FrontierEntry>();
      const ctx = `run ${run} (capacity ${capacity}, maxFrontier ${maxFrontier})`;

      const mutate = async (): Promise<void> => {
        if (inflight.size > 0 && rnd() < 0.6) {
          const entry = pick([...inflight.values()]);
          const links = Array.from({ length: Math.floor(rnd() * 4) }, () => link(pick(pool), score(), entry.url));
          await store.commit({ entry, record: page(entry), countsAsPage: true, links });
          inflight.delete(entry.url);
        } else {
          await store.addSeeds(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => seed(pick(pool), score())));
        }
      };

      for (let op = 0; op < 60; op++) {
        const r = rnd();
        if (r < 0.35 && inflight.size < maxInflight) {
          const got = await takeNext(head, new Set(inflight.keys()));
          const want = (await expected(store, new Set(inflight.keys())))[0] ?? null;
          assert.deepEqual(got, want, `${ctx} op ${op}: take`);
          if (got !== null) inflight.set(got.entry.url, got.entry);
        } else if (r < 0.5) {
          // refill racing a commit, through the real snapshot of memory-level
          await Promise.all([head.refill(), mutate()]);
        } else if (r < 0.65) {
          // a commit that lands after the load read its rows, before it returns
          const gate: Gate = { loaded: deferred(), release: deferred() };
          h.gate = gate;
          const refill = head.refill();
          await Promise.race([gate.loaded.promise, refill]);
          h.gate = null;
          await mutate();
          gate.release.resolve();
          await refill;
        } else {
          await mutate();
        }
        assert.ok(head.size <= capacity, `${ctx} op ${op}: size ${head.size} > capacity`);
      }
      const inflightUrls = new Set(inflight.keys());
      const want = await expected(store, inflightUrls);
      assert.deepEqual(await drain(head, inflightUrls), want, `${ctx}: final drain`);
      await store.close();
    }
  });

  it('new links committed after a refill that beat the loaded entries enter the head at once', async () => {
    const { store, head, h } = await setup({ capacity: 16 }); // loads 4
    await store.addSeeds([10, 9, 8, 7, 6, 5].map((s) => seed(`n${s}`, s)));
    await head.refill();
    const first = head.take(() => 'take')!;
    assert.equal(first.entry.url, U('n10'));
    await store.commit({
      entry: first.entry,
      record: page(first.entry),
      countsAsPage: true,
      links: [link('better', 9.5, first.entry.url), link('worse', 1, first.entry.url)],
    });
    assert.equal(head.size, 4, 'the better link entered, the worse one waits in the store');
    const next = head.take(() => 'take')!; // no refill in between
    assert.equal(next.entry.url, U('better'));
    assert.equal(h.loads.length, 1);
    const inflight = new Set([U('better')]);
    assert.deepEqual(urls(await drain(head, inflight)), [U('n9'), U('n8'), U('n7'), U('n6'), U('n5'), U('worse')]);
    await store.close();
  });

  it('a link that beats everything enters even when the head is full, pushing the worst one back to the store', async () => {
    const { store, head } = await setup({ capacity: 4 });
    await store.addSeeds([10, 9, 8, 7, 6].map((s) => seed(`n${s}`, s)));
    await head.refill();
    await head.grow(); // 10 9 8 7: full
    assert.equal(head.size, 4);
    const e = head.take(() => 'take')!;
    await store.addSeeds([seed('top', 100), seed('top2', 50)]); // 3 + 2 > capacity
    assert.equal(head.size, 4);
    assert.deepEqual(urls(await drain(head, new Set([e.entry.url]))), [U('top'), U('top2'), U('n9'), U('n8'), U('n7'), U('n6')]);
    await store.close();
  });

  it('links committed DURING a refill are not lost (added between the old and the new mark) and removals during it apply', async () => {
    const { store, head, h } = await setup({ capacity: 16 }); // low 2, chunk 4
    await store.addSeeds([10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((s) => seed(`n${s}`, s)));
    await head.refill(); // 10 9 8 7, mark = 7
    const inflight = new Set<string>();
    const taken: FrontierEntry[] = [];
    for (let i = 0; i < 3; i++) {
      const t = head.take(skipping(inflight))!;
      taken.push(t.entry);
      inflight.add(t.entry.url);
    }
    assert.deepEqual(taken.map((e) => e.url), [U('n10'), U('n9'), U('n8')]);
    const gate: Gate = { loaded: deferred(), release: deferred() };
    h.gate = gate;
    const refill = head.refill(); // reads 6 5 4 3: the new mark will be 3
    await gate.loaded.promise;
    // While the load is out: a link scoring between the old mark (7) and the
    // new one (3), and a re-prioritisation of 5 (its old key is in the load's rows).
    await store.commit({
      entry: taken[0],
      record: page(taken[0]),
      countsAsPage: true,
      links: [link('mid', 5.5, taken[0].url), link('n5', 9.5, taken[0].url)],
    });
    inflight.delete(taken[0].url);
    gate.release.resolve();
    await refill;
    const want = await expected(store, inflight);
    assert.deepEqual(urls(want), [U('n5'), U('n7'), U('n6'), U('mid'), U('n4'), U('n3'), U('n2'), U('n1')]);
    assert.deepEqual(await drain(head, inflight), want);
    await store.close();
  });

  it('links committed during the first load (no mark yet) are not lost', async () => {
    const { store, head, h } = await setup({ capacity: 16 });
    await store.addSeeds([10, 9, 8, 7, 6].map((s) => seed(`n${s}`, s)));
    const gate: Gate = { loaded: deferred(), release: deferred() };
    h.gate = gate;
    const refill = head.refill();
    await gate.loaded.promise;
    await store.addSeeds([seed('late', 8.5), seed('last', 0)]);
    gate.release.resolve();
    await refill;
    const want = await expected(store, new Set());
    assert.deepEqual(urls(want), [U('n10'), U('n9'), U('late'), U('n8'), U('n7'), U('n6'), U('last')]);
    assert.deepEqual(await drain(head), want);
    await store.close();
  });

  it('links committed during a load that ends the store (exhausted) are not lost', async () => {
    const { store, head, h } = await setup({ capacity: 16 });
    await store.addSeeds([10, 9].map((s) => seed(`n${s}`, s)));
    const gate: Gate = { loaded: deferred(), release: deferred() };
    h.gate = gate;
    const refill = head.refill();
    await gate.loaded.promise;
    await store.addSeeds([seed('after', 1)]); // worse than everything loaded
    gate.release.resolve();
    await refill;
    assert.equal(head.complete, true);
    assert.deepEqual(urls(await drain(head)), [U('n10'), U('n9'), U('after')]);
    await store.close();
  });

  it('a failing load rejects refill, keeps the changes made meanwhile, and the next refill retries', async () => {
    const { store, head, h } = await setup({ capacity: 16 });
    await store.addSeeds([10, 9, 8, 7, 6].map((s) => seed(`n${s}`, s)));
    await head.refill(); // 10 9 8 7
    const inflight = new Set<string>();
    for (let i = 0; i < 3; i++) inflight.add(head.take(skipping(inflight))!.entry.url);
    const gate: Gate = { loaded: deferred(), release: deferred(), fail: new Error('disk on fire') };
    h.gate = gate;
    const refill = head.refill();
    await gate.loaded.promise;
    await store.addSeeds([seed('top', 100)]);
    gate.release.resolve();
    await assert.rejects(refill, /disk on fire/);
    assert.equal(head.complete, false);
    const want = await expected(store, inflight);
    assert.deepEqual(urls(want), [U('top'), U('n7'), U('n6')]);
    assert.deepEqual(await drain(head, inflight), want);
    assert.equal(h.loads.length, 3);
    assert.equal(h.loads[2].gt, h.loads[1].gt, 'the retry resumes from the same mark');
    await store.close();
  });

  it('entries evicted by maxFrontier leave the head, inside and beyond the loaded part', async () => {
    {
      const { store, head } = await setup({ capacity: 8, maxFrontier: 5 });
      await store.addSeeds([5, 4, 3, 2, 1].map((s) => seed(`n${s}`, s)));
      await loadAll(head);
      assert.equal(head.size, 5);
      assert.equal(head.complete, true);
      await store.addSeeds([seed('a', 10), seed('b', 9)]); // evicts 2 and 1
      assert.equal(head.size, 5);
      assert.deepEqual(urls(await drain(head)), [U('a'), U('b'), U('n5'), U('n4'), U('n3')]);
      await store.close();
    }
    {
      const { store, head } = await setup({ capacity: 4, maxFrontier: 6 });
      await store.addSeeds([6, 5, 4, 3, 2, 1].map((s) => seed(`n${s}`, s)));
      await loadAll(head); // 6 5 4 3 loaded, 2 1 in the store only
      assert.equal(head.size, 4);
      await store.addSeeds([seed('a', 10), seed('b', 9), seed('c', 8)]); // evicts 3 2 1
      const got = await drain(head);
      assert.deepEqual(urls(got), [U('a'), U('b'), U('c'), U('n6'), U('n5'), U('n4')]);
      assert.deepEqual(got, await storeRows(store));
      await store.close();
    }
  });
});

describe('FrontierHead.floor', () => {
  it('is the priority of the worst entry loaded, -Infinity before a load and while the head holds the whole frontier', async () => {
    const { store, head } = await setup({ capacity: 8 });
    await store.addSeeds(Array.from({ length: 20 }, (_, i) => seed(`n${i + 1}`, i + 1)));
    assert.equal(head.floor, -Infinity, 'nothing loaded yet');
    await head.refill(); // a chunk of 2: 20, 19
    assert.equal(head.floor, 19);
    while (await head.grow());
    assert.equal(head.size, 8);
    assert.equal(head.floor, 13);
    await store.addSeeds([seed('top', 100)]); // the full buffer drops its worst
    assert.equal(head.size, 8);
    assert.equal(head.floor, 14);
    await store.close();

    const small = await setup({ capacity: 8 });
    await small.store.addSeeds([3, 2, 1].map((s) => seed(`m${s}`, s)));
    await loadAll(small.head);
    assert.equal(small.head.complete, true);
    assert.equal(small.head.floor, -Infinity);
    await small.store.close();
  });

  it('a move between two priorities below it changes nothing the head hands out; a move above it does', async () => {
    const heads = [];
    for (let i = 0; i < 3; i++) {
      const { store, head } = await setup({ capacity: 8 });
      await store.addSeeds(Array.from({ length: 20 }, (_, j) => seed(`n${j + 1}`, j + 1)));
      await head.refill();
      while (await head.grow());
      heads.push({ store, head });
    }
    const floor = heads[0].head.floor;
    assert.equal(floor, 13);
    await heads[1].store.reprioritise([{ url: U('n5'), score: 12 }]); // 5 -> 12: both below
    await heads[2].store.reprioritise([{ url: U('n5'), score: 15.5 }]); // 5 -> 15.5: above
    const taken = (head: FrontierHead): string[] => {
      const out: string[] = [];
      for (let got = head.take(() => 'take'); got !== null; got = head.take(() => 'take')) out.push(got.entry.url);
      return out;
    };
    const [plain, below, above] = heads.map(({ head }) => taken(head));
    assert.deepEqual(below, plain);
    assert.deepEqual(above, [...plain.slice(0, 5), U('n5'), ...plain.slice(5, 7)], 'n5 enters after 16; the worst, 13, leaves the buffer');
    for (const { store } of heads) await store.close();
  });
});

describe('FrontierHead.take verdicts', () => {
  function entry(k: string, score = 0): KeyedEntry {
    return { key: k, entry: { url: `http://x.test/${k}`, score, depth: 0, parent: null } };
  }

  /** A head over `rows` (in key order), nothing loaded yet; capacity/4 entries load at a time. */
  function headOf(rows: KeyedEntry[], capacity = 16): FrontierHead {
    return new FrontierHead({ capacity, load: async (gt, limit) => rows.filter((r) => gt === undefined || r.key > gt).slice(0, limit) });
  }

  async function loaded(keys: string[]): Promise<FrontierHead> {
    const head = headOf(keys.map((k) => entry(k)));
    await head.refill();
    return head;
  }

  it("returns the best 'take' even when a better entry is 'fallback'", async () => {
    const head = await loaded(['a', 'b', 'c', 'd']);
    const v: Record<string, Verdict> = { a: 'fallback', b: 'skip', c: 'take', d: 'take' };
    assert.equal(head.take((e) => v[e.key])!.key, 'c');
    assert.equal(head.size, 3);
  });

  it("chooses the best 'fallback' only when nothing is 'take'", async () => {
    const head = await loaded(['a', 'b', 'c', 'd']);
    const v: Record<string, Verdict> = { a: 'skip', b: 'fallback', c: 'skip', d: 'fallback' };
    assert.equal(head.take((e) => v[e.key])!.key, 'b');
    assert.equal(head.take((e) => v[e.key])!.key, 'd');
    assert.equal(head.take((e) => v[e.key]), null);
  });

  it("'skip' entries stay in the head, in order", async () => {
    const head = await loaded(['a', 'b', 'c', 'd']);
    assert.equal(head.take(() => 'skip'), null);
    assert.equal(head.size, 4);
    assert.equal(head.take((e) => (e.key === 'c' ? 'take' : 'skip'))!.key, 'c');
    assert.deepEqual(
      [head.take(() => 'take'), head.take(() => 'take'), head.take(() => 'take'), head.take(() => 'take')].map((e) => e?.key ?? null),
      ['a', 'b', 'd', null],
    );
  });

  it('take(verdict, above) looks only at entries scoring more than `above`', async () => {
    const head = headOf([entry('a', 9), entry('b', 5), entry('c', 5), entry('d', -Infinity)]);
    await head.refill();
    const asked: string[] = [];
    const skipA = (e: KeyedEntry): Verdict => (asked.push(e.key), e.key === 'a' ? 'skip' : 'take');
    assert.equal(head.take(skipA, 6), null, 'only a scores more than 6, and it is skipped');
    assert.deepEqual(asked, ['a']);
    assert.equal(head.take(skipA, 5), null, 'the bound is exclusive');
    assert.equal(head.take(skipA, 4.5)!.key, 'b');
    assert.equal(head.take(skipA)!.key, 'c');
    assert.equal(head.take(skipA)!.key, 'd', 'without a bound, even a -Infinity score is taken');
    assert.equal(head.size, 1);
  });

  it('best() and scoreAt(): the best buffered entry, and buffered scores by rank', async () => {
    const rows = [entry('a', 9), entry('b', 7), entry('c', 4), entry('d', 2), entry('e', 1)];
    const head = headOf(rows, 64);
    assert.equal(head.best(), undefined);
    assert.equal(head.scoreAt(0.5), -Infinity);
    await head.refill();
    assert.equal(head.best(), rows[0]);
    assert.deepEqual([0, 0.25, 0.5, 0.74, 1].map((f) => head.scoreAt(f)), [9, 7, 4, 4, 1]);
    head.take(() => 'take');
    assert.equal(head.best(), rows[1]);
    assert.equal(head.scoreAt(0.5), 4, 'the median of 7, 4, 2, 1 (the upper one of an even count)');
    while (head.take(() => 'take') !== null);
    assert.equal(head.best(), undefined);
  });

  it('asks the verdict in best-first order and stops at the first take', async () => {
    const head = await loaded(['a', 'b', 'c', 'd']);
    const asked: string[] = [];
    head.take((e) => {
      asked.push(e.key);
      return e.key === 'b' ? 'take' : 'fallback';
    });
    assert.deepEqual(asked, ['a', 'b']);
  });
});

// Issue 23 item 2: at --delay-ms 1000, take() asked the verdict about every
// buffered entry of every busy host on every call (2.5 s of a 24 s crawl of
// the synthetic web). With a HostGate a busy host's entries are set aside.
describe('FrontierHead.take with a HostGate', () => {
  /** Key `k` on `host`: keys sort best first. */
  function on(host: string, k: string, score = 0): KeyedEntry {
    return { key: k, entry: { url: `http://${host}/${k}`, score, depth: 0, parent: null } };
  }

  async function headOf(rows: KeyedEntry[]): Promise<FrontierHead> {
    const sorted = [...rows].sort((a, b) => (a.key < b.key ? -1 : 1));
    const head = new FrontierHead({ capacity: 4096, load: async (gt, limit) => sorted.filter((r) => gt === undefined || r.key > gt).slice(0, limit) });
    while (!head.complete) await head.grow();
    return head;
  }

  /** A gate on a fake clock: each host ready at a time, or Infinity (busy until released). */
  function gateOf(readyAt: Record<string, number>): HostGate & { clock: number; asked: string[] } {
    const g = {
      clock: 0,
      asked: [] as string[],
      now: () => g.clock,
      readyAt: (host: string) => (g.asked.push(host), readyAt[host] ?? 0),
    };
    return g;
  }

  it("does not examine a busy host's entries again until its time comes or it is released", async () => {
    const rows = [
      ...Array.from({ length: 50 }, (_, i) => on('a.test', `a${String(i).padStart(2, '0')}`)),
      ...Array.from({ length: 50 }, (_, i) => on('c.test', `c${String(i).padStart(2, '0')}`)),
      on('b.test', 'b0'), on('b.test', 'b1'), on('b.test', 'b2'),
    ];
    const head = await headOf(rows);
    const readyAt: Record<string, number> = { 'a.test': 1000, 'c.test': Infinity };
    const gate = gateOf(readyAt);
    const asked: string[] = [];
    const verdict = (e: KeyedEntry): Verdict => {
      asked.push(e.key);
      const at = readyAt[new URL(e.entry.url).host] ?? 0;
      return at <= gate.clock ? 'take' : 'skip';
    };
    assert.equal(head.take(verdict, -Infinity, gate)!.key, 'b0');
    assert.deepEqual(asked, ['b0'], 'the 100 entries of the two busy hosts are not examined');
    assert.deepEqual(gate.asked, ['a.test', 'b.test'], 'the gate is asked once per host, in the order of their best entries, until one is taken');
    gate.clock = 500;
    assert.equal(head.take(verdict, -Infinity, gate)!.key, 'b1');
    assert.equal(head.take(verdict, -Infinity, gate)!.key, 'b2');
    assert.equal(head.take(verdict, -Infinity, gate), null);
    assert.equal(head.take(verdict, -Infinity, gate), null);
    assert.deepEqual(asked, ['b0', 'b1', 'b2'], 'nor later, while they wait');
    assert.equal(head.examined, 3);
    assert.deepEqual(gate.asked.filter((h) => h !== 'b.test'), ['a.test', 'c.test'], 'parked hosts are not asked about again');

    gate.clock = 1000; // a's time has come
    assert.equal(head.take(verdict, -Infinity, gate)!.key, 'a00');
    readyAt['a.test'] = 2000; // a busy again
    head.release('c.test'); // c's request ended
    readyAt['c.test'] = 0;
    assert.equal(head.take(verdict, -Infinity, gate)!.key, 'c00');
    assert.deepEqual(asked.slice(3), ['a00', 'c00']);
    assert.equal(head.size, 98);
  });

  it('takes what the scan without a gate takes (random crawls)', async () => {
    const rnd = prng(23);
    for (let trial = 0; trial < 30; trial++) {
      const hosts = Array.from({ length: 1 + Math.floor(rnd() * 8) }, (_, i) => `h${i}.test`);
      let serial = 0;
      const fresh = (): KeyedEntry => {
        const score = Math.floor(rnd() * 4);
        // keys sort best first: a higher score gets a smaller key
        const key = `${9 - score}-${String(serial++).padStart(5, '0')}`;
        return on(hosts[Math.floor(rnd() * hosts.length)], key, score);
      };
      const rows = Array.from({ length: 40 }, fresh);
      const gated = await headOf(rows);
      const plain = await headOf(rows);
      const crawl = randomHosts(rnd);
      const inflight = new Set<string>();
      let fallbackHosts = new Set<string>();
      const verdict = ({ entry }: KeyedEntry): Verdict => {
        if (inflight.has(entry.url)) return 'skip';
        const host = new URL(entry.url).host;
        if (crawl.waiting(host)) return 'skip';
        return fallbackHosts.has(host) ? 'fallback' : 'take';
      };
      for (let step = 0; step < 200; step++) {
        const r = rnd();
        if (crawl.step(r, gated)) {
          // time passed, or a request ended
        } else if (r < 0.4) {
          // the store commits: new links, and a buffered entry goes (an in-flight one, rescored)
          const added = Array.from({ length: Math.floor(rnd() * 4) }, fresh);
          const removed = rnd() < 0.5 && plain.size > 0 ? [plain.best()!.key] : [];
          gated.apply({ added, removed });
          plain.apply({ added, removed });
        } else if (r < 0.45) {
          const extra = Array.from(gated.size > 0 ? [plain.best()!.entry.url] : []);
          for (const u of extra) inflight.add(u);
        } else {
          fallbackHosts = new Set(hosts.filter(() => rnd() < 0.2));
          const above = rnd() < 0.2 ? Math.floor(rnd() * 4) - 0.5 : -Infinity;
          const want = plain.take(verdict, above);
          const got = gated.take(verdict, above, crawl.gate);
          assert.equal(got?.key ?? null, want?.key ?? null, `trial ${trial}, step ${step}`);
          if (got !== null) crawl.busy(new URL(got.entry.url).host);
        }
        assert.equal(gated.size, plain.size);
      }
    }
  });
});

describe('FrontierHead.scanBeyond', () => {
  // Issue 23 item 2: with --delay-ms 1000 a polite crawl spent ~50% more CPU
  // per page. When the buffer held only hosts that must wait, every URL the
  // source took beyond the buffer cost a read of a whole chunk of store rows
  // (1,024 at the default capacity), and a scan that found nothing read the
  // same rows of the waiting hosts again next time: LevelDB reads and
  // decodes, not timers, paid for the waiting.
  function on(host: string, k: string): KeyedEntry {
    return { key: k, entry: { url: `http://${host}/${k}`, score: 0, depth: 0, parent: null } };
  }

  /** A head over `store` (kept in key order), counting the rows its loads return. */
  function headOver(store: KeyedEntry[], capacity: number) {
    const reads = { rows: 0 };
    const head = new FrontierHead({
      capacity,
      load: async (gt, limit) => {
        const rows = store.filter((r) => gt === undefined || r.key > gt).slice(0, limit);
        reads.rows += rows.length;
        return rows;
      },
    });
    return { head, reads };
  }

  it('reads each store entry beyond the buffer once while its host waits', async () => {
    // 16 buffered and 40 more entries of w.test, which must wait; then one entry on each of 10 free hosts
    const store: KeyedEntry[] = [];
    for (let i = 0; i < 56; i++) store.push(on('w.test', `k${String(i).padStart(3, '0')}`));
    for (let i = 0; i < 10; i++) store.push(on(`f${i}.test`, `k${String(56 + i).padStart(3, '0')}`));
    const { head, reads } = headOver(store, 16);
    while (head.size < 16) await head.grow();
    const buffered = reads.rows;
    const busy = new Set<string>(['w.test']);
    const verdict = ({ entry }: KeyedEntry): Verdict => (busy.has(new URL(entry.url).host) ? 'skip' : 'take');
    assert.equal(head.take(verdict), null);
    const got: string[] = [];
    for (let i = 0; i < 10; i++) {
      const ke = await head.scanBeyond(verdict);
      assert.ok(ke !== null, `scan ${i} found f${i}.test`);
      got.push(ke.key);
      busy.add(new URL(ke.entry.url).host); // in flight
    }
    assert.deepEqual(got, store.slice(56).map((r) => r.key), 'best first');
    // nothing takeable now: scans that find nothing read nothing again
    for (let i = 0; i < 3; i++) assert.equal(await head.scanBeyond(verdict), null);
    assert.equal(reads.rows - buffered, 50, 'every row beyond the buffer was read once');
    assert.equal(head.beyondRead, 50);

    // w.test's time comes: its entries are found without reading them again
    busy.delete('w.test');
    const first = await head.scanBeyond(verdict);
    assert.equal(first?.key, 'k016');
    assert.equal(reads.rows - buffered, 50);
  });

  it('with a gate, asks about a waiting host once until its time and never its entries', async () => {
    const store: KeyedEntry[] = [];
    for (let i = 0; i < 40; i++) store.push(on('w.test', `k${String(i).padStart(3, '0')}`));
    store.push(on('f.test', 'k040'));
    const { head } = headOver(store, 8);
    while (head.size < 8) await head.grow();
    const asked: string[] = [];
    let clock = 1000;
    const gate: HostGate = {
      now: () => clock,
      readyAt: (host) => {
        asked.push(host);
        return host === 'w.test' ? 2000 : 0;
      },
    };
    const examined: string[] = [];
    const verdict = (ke: KeyedEntry): Verdict => {
      examined.push(ke.key);
      return 'take';
    };
    assert.equal((await head.scanBeyond(verdict, undefined, gate))?.key, 'k040');
    assert.deepEqual(asked, ['w.test', 'f.test']);
    assert.deepEqual(examined, ['k040']);
    asked.length = 0;
    // issue 23: every scan walked the rows of the waiting hosts again (3.4 million rows in a 6,000-page crawl)
    assert.equal(await head.scanBeyond(verdict, undefined, gate), null);
    assert.deepEqual(asked, [], 'w.test is parked until 2000');
    assert.deepEqual(examined, ['k040']);
    clock = 2000; // w.test's time comes (the gate still says 2000: now it may)
    assert.equal((await head.scanBeyond(verdict, undefined, gate))?.key, 'k008');
    assert.deepEqual(asked, ['w.test']);
  });

  it('with a gate, finds what the scan without one finds (random crawls)', async () => {
    const rnd = prng(29);
    const outcomes = { found: 0, none: 0 };
    for (let trial = 0; trial < 30; trial++) {
      const hosts = Array.from({ length: 1 + Math.floor(rnd() * 10) }, (_, i) => `h${i}.test`);
      let serial = 0;
      const fresh = (): KeyedEntry => on(hosts[Math.floor(rnd() * hosts.length)], `k${String(serial++).padStart(5, '0')}`);
      const store = Array.from({ length: 60 }, fresh);
      const gated = headOver(store, 8).head;
      const plain = headOver(store, 8).head;
      while (gated.size < 8) await gated.grow();
      while (plain.size < 8) await plain.grow();
      const crawl = randomHosts(rnd);
      const inflight = new Set<string>();
      const verdict = ({ entry }: KeyedEntry): Verdict => (inflight.has(entry.url) || crawl.waiting(new URL(entry.url).host) ? 'skip' : 'take');
      for (let step = 0; step < 150; step++) {
        const r = rnd();
        if (crawl.step(r, gated)) {
          // time passed, or a request ended
        } else if (r < 0.4) {
          // the store commits new links beyond the buffer, and an in-flight URL's entry leaves
          const added = Array.from({ length: Math.floor(rnd() * 4) }, fresh);
          const gone = [...inflight].slice(0, rnd() < 0.5 ? 1 : 0);
          const removed = store.filter((ke) => gone.includes(ke.entry.url)).map((ke) => ke.key);
          for (const u of gone) inflight.delete(u);
          for (const k of removed) store.splice(store.findIndex((ke) => ke.key === k), 1);
          store.push(...added);
          gated.apply({ added, removed });
          plain.apply({ added, removed });
        } else {
          const want = await plain.scanBeyond(verdict);
          const got = await gated.scanBeyond(verdict, undefined, crawl.gate);
          assert.equal(got?.key ?? null, want?.key ?? null, `trial ${trial}, step ${step}`);
          outcomes[got === null ? 'none' : 'found']++;
          if (got !== null) {
            inflight.add(got.entry.url);
            crawl.busy(new URL(got.entry.url).host);
          }
        }
      }
    }
    assert.ok(outcomes.found > 100 && outcomes.none > 100, JSON.stringify(outcomes));
  });

  it('grow() buffers the entries a scan has read without reading the store again', async () => {
    // Issue 23 item 2: in a polite crawl whose buffered hosts all wait, the
    // source grows the buffer by the few entries taken since the last growth;
    // each growth was a LevelDB read (~480 in a 6,000-page crawl on 200 hosts
    // at --delay-ms 1000) of rows a scan beyond the buffer had already read.
    const store: KeyedEntry[] = [];
    for (let i = 0; i < 8; i++) store.push(on('w.test', `k${String(i).padStart(3, '0')}`));
    for (let i = 0; i < 4; i++) store.push(on(`f${i}.test`, `k${String(8 + i).padStart(3, '0')}`));
    for (let i = 12; i < 16; i++) store.push(on('w.test', `k${String(i).padStart(3, '0')}`));
    const { head, reads } = headOver(store, 8);
    while (head.size < 8) await head.grow();
    const busy = new Set<string>(['w.test']);
    const inflight = new Set<string>();
    const verdict = ({ entry }: KeyedEntry): Verdict =>
      inflight.has(entry.url) || busy.has(new URL(entry.url).host) ? 'skip' : 'take';
    assert.equal(head.take(verdict), null);
    assert.equal(await head.grow(), false, 'full');
    const beyond = await head.scanBeyond(verdict);
    assert.equal(beyond?.key, 'k008');
    inflight.add(beyond!.entry.url);
    const read = reads.rows;
    busy.delete('w.test');
    const taken = [head.take(verdict)!.key];
    assert.equal(taken[0], 'k000');
    assert.equal(await head.grow(), true);
    assert.equal(head.size, 8);
    assert.equal(reads.rows, read, 'grown from the entries the scan read');
    // the rest comes out in store order, k008 (in flight) left out
    for (;;) {
      await head.refill();
      const ke = head.take(verdict) ?? ((await head.grow()) ? head.take(verdict) : null);
      if (ke === null) break;
      taken.push(ke.key);
    }
    assert.deepEqual(taken, store.map((r) => r.key).filter((k) => k !== 'k008'));
    assert.equal(reads.rows, 16, 'every row read once');
    assert.equal(head.complete, true);
  });

  it('the source\'s loop (refill, take, grow, scanBeyond) hands out the best takeable entry of the store (random crawls)', async () => {
    const rnd = prng(31);
    let fromScans = 0;
    for (let trial = 0; trial < 30; trial++) {
      const hosts = Array.from({ length: 1 + Math.floor(rnd() * 8) }, (_, i) => `h${i}.test`);
      let serial = 0;
      const fresh = (): KeyedEntry => on(hosts[Math.floor(rnd() * hosts.length)], `k${String(serial++).padStart(5, '0')}`);
      const store = Array.from({ length: 40 }, fresh);
      const { head } = headOver(store, 8);
      const busy = new Set<string>();
      const inflight = new Set<string>();
      const verdict = ({ entry }: KeyedEntry): Verdict =>
        inflight.has(entry.url) || busy.has(new URL(entry.url).host) ? 'skip' : 'take';
      for (let step = 0; step < 120; step++) {
        const r = rnd();
        if (r < 0.25 && busy.size > 0) {
          busy.delete([...busy][Math.floor(rnd() * busy.size)]);
        } else if (r < 0.4) {
          // a commit: an in-flight URL's entry leaves the store, new links arrive (in key order, at the end)
          const gone = [...inflight].slice(0, 1);
          const removed = store.filter((ke) => gone.includes(ke.entry.url)).map((ke) => ke.key);
          for (const u of gone) inflight.delete(u);
          for (const k of removed) store.splice(store.findIndex((ke) => ke.key === k), 1);
          const added = Array.from({ length: Math.floor(rnd() * 4) }, fresh);
          store.push(...added);
          head.apply({ added, removed });
        } else {
          await head.refill();
          let got = head.take(verdict);
          while (got === null && (await head.grow())) got = head.take(verdict);
          if (got === null) {
            got = await head.scanBeyond(verdict);
            if (got !== null) fromScans++;
          }
          const want = store.find((ke) => verdict(ke) === 'take');
          assert.equal(got?.key ?? null, want?.key ?? null, `trial ${trial}, step ${step}`);
          if (got !== null) {
            inflight.add(got.entry.url);
            busy.add(new URL(got.entry.url).host);
          }
        }
      }
    }
    assert.ok(fromScans > 50, `${fromScans} taken beyond the buffer`);
  });

  it('follows committed changes to the entries it has read', async () => {
    const store: KeyedEntry[] = [];
    for (let i = 0; i < 8; i++) store.push(on('w.test', `k${i}`));
    store.push(on('a.test', 'k8'), on('b.test', 'k9'));
    const { head } = headOver(store, 4);
    while (head.size < 4) await head.grow();
    const busy = new Set<string>(['w.test']);
    const verdict = ({ entry }: KeyedEntry): Verdict => (busy.has(new URL(entry.url).host) ? 'skip' : 'take');
    assert.equal(head.take(verdict), null);
    busy.add('a.test');
    busy.add('b.test');
    assert.equal(await head.scanBeyond(verdict), null); // all of the store read
    busy.delete('a.test');
    busy.delete('b.test');
    // a.test's entry leaves the store (committed by another path), c.test's arrives beyond the buffer
    const c = on('c.test', 'k85');
    store.splice(store.findIndex((r) => r.key === 'k8'), 1, c);
    head.apply({ added: [c], removed: ['k8'] });
    assert.equal((await head.scanBeyond(verdict))?.key, 'k85');
    assert.equal((await head.scanBeyond(verdict))?.key, 'k9');
    assert.equal(await head.scanBeyond(verdict), null);
  });
});
