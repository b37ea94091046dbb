import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile, access, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AbstractLevel } from 'abstract-level';
import { Level } from 'level';
import { MemoryLevel } from 'memory-level';
import { Redis } from 'ioredis';
import { CrawlStore } from '../src/store/level.ts';
import { frontierKey, logKey } from '../src/store/keys.ts';
import { JOURNAL_FILE, STORE_MARKER, inspectStoreDir, isStoreFile, removeStoreFiles } from '../src/store/dir.ts';
import { RedisStore } from '../src/store/redis.ts';
import type { FrontierDelta, Store, StoreOptions } from '../src/store/types.ts';
import type { FrontierEntry } from '../src/types.ts';
import { urlKey } from '../src/urls/canonical.ts';
import { REDIS_SKIP, startRedis, uniqueCrawl, type RedisServer } from './helpers/redis.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const storeModule = pathToFileURL(path.join(repoRoot, 'src/store/level.ts')).href;

const tmpDirs: string[] = [];
after(async () => {
  await Promise.all(tmpDirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'focuscrawl-store-'));
  tmpDirs.push(d);
  return d;
}

const U = (p: string) => `http://example.test/${p}`;

function seed(p: string, score: number): FrontierEntry {
  return { url: U(p), score, depth: 0, parent: null };
}

function link(p: string, score: number, parent = U('parent')) {
  return { url: U(p), score, depth: 1, parent };
}

async function frontierUrls(store: Store): Promise<string[]> {
  const out: string[] = [];
  for await (const { entry } of store.frontier()) out.push(entry.url);
  return out;
}

async function frontierRows(store: Store) {
  const out: { key: string; entry: FrontierEntry }[] = [];
  for await (const row of store.frontier()) out.push(row);
  return out;
}

async function logRecords(store: Store, gt?: string): Promise<object[]> {
  const out: object[] = [];
  for await (const r of store.log(gt === undefined ? {} : { gt })) out.push(r);
  return out;
}

/** The current frontier entry of a URL (as the frontier source would hand it out). */
async function entryOf(store: Store, url: string): Promise<FrontierEntry> {
  for await (const { entry } of store.frontier()) if (entry.url === url) return entry;
  throw new Error(`${url} not in frontier`);
}

async function snapshot(store: Store) {
  return {
    frontier: await frontierRows(store),
    log: await logRecords(store),
    counters: [store.frontierSize, store.pages, store.errors, store.committed],
  };
}

function page(url: string) {
  return { type: 'page', url };
}

describe('frontierKey', () => {
  it('orders scores descending, -0 as 0', () => {
    const scores = [1e308, 1e10, 3, 1, 0.5, 1e-300, 5e-324, 0, -5e-324, -1e-300, -0.5, -1, -3, -1e10, -1e308];
    const keys = scores.map((s) => frontierKey(s, 1));
    for (let i = 1; i < keys.length; i++) {
      assert.ok(keys[i - 1] < keys[i], `${scores[i - 1]} should sort before ${scores[i]}`);
    }
    assert.equal(frontierKey(-0, 7), frontierKey(0, 7));
    assert.match(keys[0], /^[0-9a-f]{16}![0-9a-f]{14}$/);
  });

  it('agrees with numeric order on random doubles', () => {
    const view = new DataView(new ArrayBuffer(8));
    const scores: number[] = [];
    while (scores.length < 2000) {
      view.setUint32(0, (Math.random() * 2 ** 32) >>> 0);
      view.setUint32(4, (Math.random() * 2 ** 32) >>> 0);
      const x = view.getFloat64(0);
      if (Number.isFinite(x)) scores.push(x);
    }
    const byKey = [...scores].sort((a, b) => (frontierKey(a, 0) < frontierKey(b, 0) ? -1 : 1));
    const byScore = [...scores].sort((a, b) => b - a);
    assert.deepEqual(byKey, byScore);
  });

  it('breaks ties FIFO by seq, whatever the digit count', () => {
    assert.ok(frontierKey(0.5, 2) < frontierKey(0.5, 16));
    assert.ok(frontierKey(0.5, 16) < frontierKey(0.5, 255));
    assert.ok(frontierKey(0.5, 255) < frontierKey(0.5, Number.MAX_SAFE_INTEGER));
    assert.ok(frontierKey(0.5, 1_000_000) < frontierKey(0.4, 1), 'score beats seq');
  });

  it('rejects NaN and bad seqs', () => {
    assert.throws(() => frontierKey(NaN, 1), TypeError);
    assert.throws(() => frontierKey(1, -1), TypeError);
    assert.throws(() => frontierKey(1, 1.5), TypeError);
  });
});

interface Made {
  store: Store;
  /** make the backend's next writes fail with 'disk on fire' (before anything is written); returns the undo */
  breakWrites: () => () => void;
  /** the backend reports frontier deltas (onFrontierChange: LevelDB only, for the in-memory head) */
  deltas: boolean;
  /** commits are done once journaled and LevelDB is written behind (a failed write fails the store: tested below) */
  writeBehind?: boolean;
}

/** The store contract, run against every backend. */
function contract(name: string, makeStore: (opts?: StoreOptions) => Promise<Made>, opts: { skip?: string | false; before?: () => Promise<void> } = {}) {
  describe(`CrawlStore contract (${name})`, { skip: opts.skip }, () => {
    if (opts.before !== undefined) before(opts.before);
    async function withStore(opts: StoreOptions | undefined, fn: (m: Made) => Promise<void>) {
      const m = await makeStore(opts);
      try {
        await fn(m);
      } finally {
        await m.store.close();
      }
    }

    it('yields highest score first, FIFO among equal scores, and resumes after a key', () =>
      withStore(undefined, async ({ store }) => {
        await store.addSeeds([seed('a', 0.5), seed('b', 0.9), seed('c', 0.5), seed('d', -1), seed('e', 0.9), seed('f', 0)]);
        assert.deepEqual(await frontierUrls(store), ['b', 'e', 'a', 'c', 'f', 'd'].map(U));
        const rows = await frontierRows(store);
        assert.deepEqual(rows.map((r) => r.entry.seq), [2, 5, 1, 3, 6, 4]);
        const rest: string[] = [];
        for await (const { entry } of store.frontier({ gt: rows[2].key })) rest.push(entry.url);
        assert.deepEqual(rest, ['c', 'f', 'd'].map(U));
        assert.equal(store.frontierSize, 6);
      }));

    it('addSeeds is idempotent, raises a lower queued score, skips done URLs', () =>
      withStore(undefined, async ({ store }) => {
        assert.equal(await store.addSeeds([seed('a', 0.5), seed('b', 0.4), seed('a', 0.5)]), 2);
        assert.equal(await store.addSeeds([seed('a', 0.5), seed('b', 0.4)]), 0);
        assert.equal(store.frontierSize, 2);
        assert.equal(await store.addSeeds([seed('b', 0.9), seed('a', 0.1)]), 0);
        assert.deepEqual(await frontierUrls(store), [U('b'), U('a')]);
        assert.equal((await entryOf(store, U('a'))).score, 0.5, 'a lower seed score does not lower');
        await store.commit({ entry: await entryOf(store, U('b')), record: page(U('b')), countsAsPage: true, links: [] });
        assert.equal(await store.addSeeds([seed('b', 5)]), 0);
        assert.equal(await store.status(U('b')), 'done');
        assert.deepEqual(await frontierUrls(store), [U('a')]);
        assert.equal(store.frontierSize, 1);
      }));

    it('commit marks done, logs, enqueues links and counts', () =>
      withStore(undefined, async ({ store }) => {
        await store.addSeeds([seed('a', 1)]);
        const entry = await entryOf(store, U('a'));
        const r = await store.commit({
          entry,
          record: page(U('a')),
          countsAsPage: true,
          links: [link('x', 0.3, U('a')), { ...link('y', 0.7, U('a')), anchor: 'why', offTopicHops: 2 }],
        });
        assert.deepEqual(r, { added: 2, raised: 0 });
        assert.equal(await store.status(U('a')), 'done');
        assert.equal(await store.status(U('x')), 'queued');
        assert.equal(await store.status(U('nope')), null);
        const rows = await frontierRows(store);
        assert.deepEqual(
          rows.map((x) => x.entry),
          [
            { url: U('y'), score: 0.7, depth: 1, parent: U('a'), anchor: 'why', offTopicHops: 2, seq: 3 },
            { url: U('x'), score: 0.3, depth: 1, parent: U('a'), seq: 2 },
          ],
        );
        assert.deepEqual([store.frontierSize, store.pages, store.errors, store.committed], [2, 1, 0, 1]);
        await store.commit({
          entry: rows[0].entry,
          record: { type: 'error', url: U('y'), code: 'FC_NETWORK' },
          countsAsPage: false,
          links: [],
        });
        assert.deepEqual([store.frontierSize, store.pages, store.errors, store.committed], [1, 1, 1, 2]);
      }));

    it('a commit whose batch rejects leaves no trace and does not block later commits', async (t) => {
      const probe = await makeStore();
      await probe.store.close();
      if (probe.writeBehind === true) return t.skip('a journaled store keeps the commit and fails the store instead (describe "CrawlStore write-behind")');
      await withStore(undefined, async ({ store, breakWrites }) => {
        await store.addSeeds([seed('a', 1), seed('b', 0.5)]);
        const entry = await entryOf(store, U('a'));
        const before = await snapshot(store);
        const undo = breakWrites();
        await assert.rejects(
          store.commit({ entry, record: page(U('a')), countsAsPage: true, links: [link('x', 2), link('b', 3)] }),
          (err: any) => err.code === 'FC_STORE' && err.cause?.message === 'disk on fire',
        );
        undo();
        assert.deepEqual(await snapshot(store), before);
        assert.equal(await store.status(U('a')), 'queued');
        assert.equal(await store.status(U('x')), null);

        // A value that cannot be encoded makes the real batch throw part-way through its ops.
        await assert.rejects(
          store.commit({
            entry,
            record: page(U('a')),
            countsAsPage: true,
            links: [link('x', 2), { ...link('z', 0.1), anchor: 10n as unknown as string }],
          }),
          (err: any) => err.code === 'FC_STORE',
        );
        assert.deepEqual(await snapshot(store), before);
        assert.equal(await store.status(U('x')), null);
        assert.equal(await store.status(U('a')), 'queued');

        const r = await store.commit({ entry, record: page(U('a')), countsAsPage: true, links: [link('x', 2)] });
        assert.deepEqual(r, { added: 1, raised: 0 });
        assert.equal(store.committed, 1);
        assert.deepEqual(await frontierUrls(store), [U('x'), U('b')]);
      });
    });

    it('re-prioritises queued links up (keeping their seq), never down, never re-queues done', () =>
      withStore(undefined, async ({ store }) => {
        await store.addSeeds([seed('p', 0.5), seed('q', 0.2), seed('r', 0.8), seed('s', 1)]);
        let entry = await entryOf(store, U('s'));
        let r = await store.commit({
          entry,
          record: page(U('s')),
          countsAsPage: true,
          links: [link('q', 0.8, U('s')), link('p', 0.1, U('s')), link('s', 9, U('s'))],
        });
        assert.deepEqual(r, { added: 0, raised: 1 });
        // q (seq 2) was discovered before r (seq 3): FIFO among equal scores keeps discovery order.
        assert.deepEqual(await frontierUrls(store), ['q', 'r', 'p'].map(U));
        const q = await entryOf(store, U('q'));
        assert.deepEqual(q, { url: U('q'), score: 0.8, depth: 1, parent: U('s'), seq: 2 });
        assert.equal((await entryOf(store, U('p'))).score, 0.5);
        assert.equal(store.frontierSize, 3);

        // q is committed at its new key (it was raised after being "dequeued" at the old one)
        const stale: FrontierEntry = { url: U('q'), score: 0.2, depth: 0, parent: null, seq: 2 };
        await store.commit({ entry: stale, record: page(U('q')), countsAsPage: true, links: [] });
        assert.deepEqual(await frontierUrls(store), ['r', 'p'].map(U));
        assert.equal(store.frontierSize, 2);

        entry = await entryOf(store, U('r'));
        r = await store.commit({ entry, record: page(U('r')), countsAsPage: true, links: [link('q', 100), link('s', 100)] });
        assert.deepEqual(r, { added: 0, raised: 0 });
        assert.deepEqual(await frontierUrls(store), [U('p')]);
        assert.equal(await store.status(U('q')), 'done');
      }));

    it('alsoDone removes redirect hops from the frontier and marks them done', () =>
      withStore(undefined, async ({ store }) => {
        await store.addSeeds([seed('a', 1), seed('b', 0.5), seed('c', 0.2)]);
        const entry = await entryOf(store, U('a'));
        await store.commit({
          entry,
          record: page(U('a')),
          countsAsPage: true,
          alsoDone: [U('b'), U('final'), U('a')],
          links: [link('final', 3), link('new', 0.1)],
        });
        assert.deepEqual(await frontierUrls(store), [U('c'), U('new')]);
        assert.equal(store.frontierSize, 2);
        for (const p of ['a', 'b', 'final']) assert.equal(await store.status(U(p)), 'done', p);
      }));

    it('maxFrontier keeps the best entries; evicted URLs can come back', () =>
      withStore({ maxFrontier: 3 }, async ({ store }) => {
        assert.equal(await store.addSeeds([seed('s1', 0.1), seed('s2', 2), seed('s3', 0.3), seed('s4', 1), seed('s5', 0.2)]), 3);
        assert.deepEqual(await frontierUrls(store), ['s2', 's4', 's3'].map(U));
        assert.equal(await store.status(U('s1')), null);

        // new links compete with stored entries: 0.5 and 0.4 beat s3 (0.3); s2 leaves
        const r = await store.commit({
          entry: await entryOf(store, U('s2')),
          record: page(U('s2')),
          countsAsPage: true,
          links: [link('l1', 0.05), link('l2', 0.5), link('l3', 0.4), link('l4', 0.35)],
        });
        assert.deepEqual(r, { added: 2, raised: 0 });
        assert.deepEqual(await frontierUrls(store), ['s4', 'l2', 'l3'].map(U));
        assert.equal(store.frontierSize, 3);
        for (const p of ['s3', 'l1', 'l4']) assert.equal(await store.status(U(p)), null, p);

        // an evicted URL is rediscovered with a better score; a raised link can be evicted too
        const r2 = await store.commit({
          entry: await entryOf(store, U('s4')),
          record: page(U('s4')),
          countsAsPage: true,
          links: [link('s3', 0.9), link('l1', 0.8), link('l3', 0.45), link('x', 0.01)],
        });
        assert.deepEqual(r2, { added: 2, raised: 0 });
        assert.deepEqual(await frontierUrls(store), ['s3', 'l1', 'l2'].map(U));
        assert.equal(await store.status(U('l3')), null);
        assert.equal(await store.status(U('x')), null);
        assert.equal(store.frontierSize, 3);

        // the worst stored keys are the ones this commit removes: eviction must look past them
        const r3 = await store.commit({
          entry: await entryOf(store, U('l2')),
          record: page(U('l2')),
          countsAsPage: true,
          alsoDone: [U('l1')],
          links: [link('y1', 0.95), link('y2', 0.96), link('y3', 0.97)],
        });
        assert.deepEqual(r3, { added: 3, raised: 0 });
        assert.deepEqual(await frontierUrls(store), ['y3', 'y2', 'y1'].map(U));
        assert.equal(await store.status(U('s3')), null);
      }));

    it('matches a simple model over random commits with eviction', () =>
      withStore({ maxFrontier: 20 }, async ({ store }) => {
        type Q = { score: number; seq: number };
        const model = new Map<string, Q | 'done'>();
        let seq = 0;
        const max = 20;
        const ordered = () =>
          [...model]
            .filter((kv): kv is [string, Q] => kv[1] !== 'done')
            .sort((a, b) => b[1].score - a[1].score || a[1].seq - b[1].seq);
        const enqueue = (url: string, score: number) => {
          const m = model.get(url);
          if (m === undefined) model.set(url, { score, seq: ++seq });
          else if (m !== 'done' && m.score < score) m.score = score;
        };
        const evict = () => {
          for (const [url] of ordered().slice(max)) model.delete(url);
        };
        let rand = 42;
        const rnd = (n: number) => {
          rand = (Math.imul(rand, 1103515245) + 12345) >>> 0;
          return (rand >>> 8) % n;
        };
        const score = () => (rnd(2) === 0 ? rnd(5) / 4 : rnd(1000) / 1000);

        const seeds = Array.from({ length: 30 }, (_, i) => seed(`u${i}`, score()));
        for (const s of seeds) enqueue(s.url, s.score);
        evict();
        await store.addSeeds(seeds);
        for (let round = 0; round < 200; round++) {
          const rows = await frontierRows(store);
          assert.deepEqual(
            rows.map((r) => [r.entry.url, r.entry.score, r.entry.seq]),
            ordered().map(([url, q]) => [url, q.score, q.seq]),
            `round ${round}`,
          );
          assert.equal(store.frontierSize, rows.length);
          if (rows.length === 0) break;
          // mostly the best entry, sometimes the worst or one in the middle
          const pick = rnd(4) === 0 ? rows[rnd(rows.length)] : rows[0];
          const hop = U(`u${rnd(400)}`);
          // alternate growing and shrinking phases, so keys are added without eviction too
          const n = round % 20 < 10 ? rnd(8) : rnd(2);
          const links = [...new Set(Array.from({ length: n }, () => U(`u${rnd(400)}`)))].map((url) => ({ ...link('', 0), url, score: score() }));
          for (const u of [pick.entry.url, hop]) {
            model.set(u, 'done');
          }
          for (const l of links) enqueue(l.url, l.score);
          evict();
          await store.commit({ entry: pick.entry, record: page(pick.entry.url), countsAsPage: true, alsoDone: [hop], links });
        }
      }));

    it('keeps the log in commit order and resumes it after a logKey', () =>
      withStore(undefined, async ({ store }) => {
        const urls = Array.from({ length: 12 }, (_, i) => U(`p${i}`));
        await store.addSeeds(urls.map((u, i) => ({ url: u, score: -i, depth: 0, parent: null })));
        for (const u of urls) {
          await store.commit({ entry: await entryOf(store, u), record: page(u), countsAsPage: true, links: [] });
        }
        assert.deepEqual(await logRecords(store), urls.map(page));
        assert.deepEqual(await logRecords(store, logKey(10)), urls.slice(10).map(page));
        assert.equal(store.committed, 12);
        assert.equal(store.frontierSize, 0);
      }));

    it('serialises overlapping commits in call order', () =>
      withStore(undefined, async ({ store }) => {
        await store.addSeeds([seed('a', 1), seed('b', 1)]);
        const [ea, eb] = [await entryOf(store, U('a')), await entryOf(store, U('b'))];
        const results = await Promise.all([
          store.commit({ entry: ea, record: page(U('a')), countsAsPage: true, links: [link('x', 0.5)] }),
          store.commit({ entry: eb, record: page(U('b')), countsAsPage: true, links: [link('x', 0.7), link('y', 0.1)] }),
        ]);
        assert.deepEqual(results, [{ added: 1, raised: 0 }, { added: 1, raised: 1 }]);
        assert.deepEqual(await logRecords(store), [page(U('a')), page(U('b'))]);
        assert.deepEqual([store.frontierSize, store.committed], [2, 2]);
      }));

    it('reports each batch frontier delta', async (t) => {
      const deltas: FrontierDelta[] = [];
      const probe = await makeStore();
      const supported = probe.deltas;
      await probe.store.close();
      if (!supported) return t.skip('this backend has no in-memory frontier head to feed');
      await withStore({ maxFrontier: 2, onFrontierChange: (d) => deltas.push(d) }, async ({ store }) => {
        await store.addSeeds([seed('a', 1), seed('b', 0.5)]);
        const [ka, kb] = (await frontierRows(store)).map((r) => r.key);
        await store.commit({ entry: await entryOf(store, U('a')), record: page(U('a')), countsAsPage: true, links: [link('b', 0.6), link('c', 0.55), link('d', 0.1)] });
        const rows = await frontierRows(store);
        assert.deepEqual(rows.map((r) => r.entry.url), [U('b'), U('c')]);
        assert.equal(deltas.length, 2);
        assert.deepEqual(deltas[0].added.map((a) => a.key), [ka, kb]);
        assert.deepEqual(deltas[0].removed, []);
        assert.deepEqual(deltas[1].added, rows);
        assert.deepEqual(deltas[1].removed.sort(), [ka, kb].sort());
      });
    });

    it('retry keeps the entry (new attempts, same key), skips done URLs, re-queues evicted ones', () =>
      withStore(undefined, async ({ store }) => {
        await store.addSeeds([seed('a', 1), seed('b', 0.5)]);
        const before = await frontierRows(store);
        await store.retry({ ...before[0].entry, attempts: 2 });
        const rows = await frontierRows(store);
        assert.deepEqual(rows.map((r) => r.key), before.map((r) => r.key));
        assert.deepEqual(rows[0].entry, { ...before[0].entry, attempts: 2 });
        await store.commit({ entry: rows[1].entry, record: page(U('b')), countsAsPage: true, links: [] });
        await store.retry({ ...rows[1].entry, attempts: 3 });
        assert.equal(await store.status(U('b')), 'done');
        assert.deepEqual(await frontierUrls(store), [U('a')]);
        await store.retry({ url: U('gone'), score: 0.7, depth: 2, parent: U('a'), attempts: 1 });
        const last = await frontierRows(store);
        assert.deepEqual(last.map((r) => [r.entry.url, r.entry.seq, r.entry.attempts]), [[U('a'), 1, 2], [U('gone'), 3, 1]]);
        assert.equal(store.frontierSize, 2);
      }));

    it('reprioritise moves queued URLs up and down keeping their seq; ignores done, unknown and non-finite', () =>
      withStore(undefined, async ({ store }) => {
        await store.addSeeds([seed('a', 1), seed('b', 0.5), seed('c', 0.2)]);
        await store.commit({ entry: await entryOf(store, U('a')), record: page(U('a')), countsAsPage: true, links: [] });
        const moved = await store.reprioritise([
          { url: U('c'), score: 0.9 },
          { url: U('b'), score: 0.1 },
          { url: U('a'), score: 5 },
          { url: U('nope'), score: 5 },
          { url: U('b'), score: NaN },
        ]);
        assert.equal(moved, 2);
        const rows = await frontierRows(store);
        assert.deepEqual(rows.map((r) => [r.entry.url, r.entry.score, r.entry.seq]), [[U('c'), 0.9, 3], [U('b'), 0.1, 2]]);
        assert.deepEqual(rows.map((r) => r.key), [frontierKey(0.9, 3), frontierKey(0.1, 2)]);
        assert.equal(await store.reprioritise([{ url: U('c'), score: 0.9 }]), 0);
        assert.equal(await store.status(U('a')), 'done');
      }));

    // Issue 21 item 2: a URL whose fetch got no answer (proxy down, no DNS)
    // was marked done for good, so a rerun once the network was back fetched
    // nothing; only --fresh recovered.
    it('a retryLater commit logs and is done for this run; requeueParked queues it again, a definitive one stays done', () =>
      withStore(undefined, async ({ store }) => {
        await store.addSeeds([seed('a', 0.9), seed('b', 0.5), seed('c', 0.1)]);
        const a = { ...(await entryOf(store, U('a'))), attempts: 2 };
        await store.commit({ entry: a, record: { type: 'error', url: U('a'), code: 'FC_NETWORK' }, countsAsPage: false, links: [], retryLater: true });
        await store.commit({ entry: await entryOf(store, U('b')), record: { type: 'error', url: U('b'), code: 'FC_ROBOTS_DISALLOWED' }, countsAsPage: false, links: [] });
        assert.equal(await store.status(U('a')), 'done', 'done for this run');
        assert.equal(await store.addSeeds([seed('a', 0.9)]), 0, 'a seed does not bring it back in the same run');
        assert.deepEqual(await frontierUrls(store), [U('c')]);
        assert.deepEqual([store.frontierSize, store.errors, store.committed], [1, 2, 2]);
        assert.equal(await store.requeueParked(), 1);
        assert.deepEqual(await frontierUrls(store), [U('a'), U('c')]);
        const again = await entryOf(store, U('a'));
        assert.deepEqual({ ...again, seq: undefined }, { url: U('a'), score: 0.9, depth: 0, parent: null, seq: undefined }, 'no attempts');
        assert.equal(await store.status(U('a')), 'queued');
        assert.equal(await store.status(U('b')), 'done');
        assert.equal(store.frontierSize, 2);
        assert.equal(await store.requeueParked(), 0, 'the parked set is emptied');
        // fetched this time: done for good
        await store.commit({ entry: again, record: page(U('a')), countsAsPage: true, links: [] });
        assert.equal(await store.requeueParked(), 0);
        assert.equal(await store.status(U('a')), 'done');
        assert.deepEqual([store.frontierSize, store.pages, store.committed], [1, 1, 3]);
      }));

    it('stores meta values and reserves the counters key', () =>
      withStore(undefined, async ({ store }) => {
        assert.equal(await store.getMeta('topic'), undefined);
        await store.putMeta('topic', { name: 'x', terms: ['a'] });
        assert.deepEqual(await store.getMeta('topic'), { name: 'x', terms: ['a'] });
        await assert.rejects(store.putMeta('_counters', {}), TypeError);
      }));
  });
}

/** Fault injection for an abstract-level database: its batch rejects. */
function levelBreaker(db: AbstractLevel<any, string, any>): () => () => void {
  return () => {
    const realBatch = db.batch;
    const fire = async (): Promise<never> => {
      throw new Error('disk on fire');
    };
    // an array batch, or a chained one (write-behind groups) whose write fails
    (db as any).batch = (...args: unknown[]) => (args.length === 0 ? { put() {}, del() {}, close: async () => {}, write: fire } : fire());
    return () => {
      (db as any).batch = realBatch;
    };
  };
}

contract('MemoryLevel', async (opts) => {
  const db = new MemoryLevel<string, any>();
  return { store: await CrawlStore.open(db, opts), breakWrites: levelBreaker(db), deltas: true };
});

contract('Level', async (opts) => {
  const db = new Level<string, any>(await tempDir());
  return { store: await CrawlStore.open(db, opts), breakWrites: levelBreaker(db), deltas: true };
});

// as a store in a directory: journaled, LevelDB written behind
contract('Level, journaled', async (opts) => {
  const dir = await tempDir();
  const db = new Level<string, any>(path.join(dir, 'db'));
  return { store: await CrawlStore.open(db, { ...opts, journal: path.join(dir, 'journal') }), breakWrites: levelBreaker(db), deltas: true, writeBehind: true };
});

/** Fault injection for Redis: every script call is refused before it is sent. */
function redisBreaker(): () => void {
  const proto = Redis.prototype as any;
  const real = proto.sendCommand;
  proto.sendCommand = function (this: unknown, cmd: any, ...rest: unknown[]) {
    if (/^eval/i.test(cmd.name)) {
      cmd.reject(new Error('disk on fire'));
      return cmd.promise;
    }
    return real.call(this, cmd, ...rest);
  };
  return () => {
    proto.sendCommand = real;
  };
}

// One redis-server for the suite; every test gets its own crawl (its own keys).
let redisServer: RedisServer | undefined;
after(async () => {
  await redisServer?.stop();
});
contract(
  'Redis',
  async (opts) => {
    const store = await RedisStore.open(`${redisServer!.url}?crawl=${uniqueCrawl()}`, { maxFrontier: opts?.maxFrontier });
    return { store, breakWrites: redisBreaker, deltas: false };
  },
  {
    skip: REDIS_SKIP,
    before: async () => {
      redisServer = await startRedis();
    },
  },
);

/** Run a TypeScript snippet in a child `node --import tsx`; `STORE` is the store module URL. */
async function childScript(body: string): Promise<string> {
  const file = path.join(await tempDir(), 'child.mts');
  await writeFile(file, `import { CrawlStore } from ${JSON.stringify(storeModule)};\n${body}\n`);
  return file;
}

function runChild(file: string, args: string[]) {
  return spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function childOutput(file: string, args: string[]): Promise<string> {
  const child = runChild(file, args);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  await new Promise((resolve) => child.on('close', resolve));
  return out.trim();
}

/** Holds a Level database's batches while shut: they wait, then run in call order, one per step or all on open; counts them. */
function batchGate(db: Level<string, any>) {
  const real = db.batch.bind(db) as (ops: unknown[]) => Promise<void>;
  let isShut = false;
  const waiting: Array<() => void> = [];
  const gate = {
    calls: 0,
    shut(): void {
      isShut = true;
    },
    /** let the oldest waiting batch run */
    step(): void {
      waiting.shift()?.();
    },
    open(): void {
      isShut = false;
      for (const go of waiting.splice(0)) go();
    },
  };
  const chained = db.batch.bind(db) as () => { write(): Promise<void> };
  const pass = async (): Promise<void> => {
    gate.calls++;
    if (isShut) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  // an array batch, or a chained one (write-behind groups) held at its write
  (db as any).batch = (...args: unknown[]) => {
    if (args.length > 0) return pass().then(() => real(args[0] as unknown[]));
    const batch = chained();
    const write = batch.write.bind(batch);
    batch.write = () => pass().then(write);
    return batch;
  };
  return gate;
}

/** Whether `p` is still unsettled after a short wait. */
async function stillPending(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(() => (settled = true), () => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  return !settled;
}

describe('CrawlStore write-behind (journaled)', () => {
  async function open(dir: string, opts: StoreOptions = {}) {
    const db = new Level<string, any>(path.join(dir, 'db'));
    const store = await CrawlStore.open(db, { ...opts, journal: path.join(dir, 'journal') });
    return { db, store };
  }
  const isFire = (err: any) => err.code === 'FC_STORE' && err.cause?.message === 'disk on fire';

  it('commits without waiting for LevelDB, reads seen marks from the unwritten groups, and writes later commits as one group', async () => {
    const dir = await tempDir();
    const db = new Level<string, any>(path.join(dir, 'db'));
    const gate = batchGate(db);
    // one set of cache slots (16): most seen marks must come from the groups not yet written
    const store = await CrawlStore.open(db, { journal: path.join(dir, 'journal'), seenCacheSlots: 16 });
    await store.addSeeds([seed('a', 1), seed('b', 0.5), seed('c', 0.4)]);
    const [ea, eb, ec] = [await entryOf(store, U('a')), await entryOf(store, U('b')), await entryOf(store, U('c'))];
    gate.shut();
    const calls = gate.calls;
    const links = Array.from({ length: 20 }, (_, i) => link(`x${i}`, 0.3));
    assert.deepEqual(await store.commit({ entry: ea, record: page(U('a')), countsAsPage: true, links }), { added: 20, raised: 0 });
    const raisedOne = links.map((l, i) => (i === 5 ? { ...l, score: 0.9 } : l));
    assert.deepEqual(await store.commit({ entry: eb, record: page(U('b')), countsAsPage: true, links: raisedOne }), { added: 0, raised: 1 });
    assert.deepEqual(await store.commit({ entry: ec, record: page(U('c')), countsAsPage: true, links: [link('x5', 0.2), link('y', 0.1)] }), { added: 1, raised: 0 });
    assert.deepEqual([store.frontierSize, store.committed, store.pages], [21, 3, 3]);
    // status reads seen marks as commits do: no wait (the fetch stage asks it for every redirect)
    const marks = Promise.all([store.status(U('a')), store.status(U('x3')), store.status(U('y')), store.status(U('nope'))]);
    assert.equal(await stillPending(marks), false, 'status does not wait for LevelDB');
    assert.deepEqual(await marks, ['done', 'queued', 'queued', null]);
    // reads other than seen marks wait until LevelDB holds what was committed
    const rows = frontierRows(store);
    assert.equal(await stillPending(rows), true);
    gate.open();
    const got = await rows;
    assert.equal(got.length, 21);
    assert.equal(new Set(got.map((r) => r.entry.url)).size, 21);
    assert.deepEqual([got[0].entry.url, got[0].entry.score], [U('x5'), 0.9]);
    assert.deepEqual(await logRecords(store), [page(U('a')), page(U('b')), page(U('c'))]);
    // a's batch went alone (it was being written when b and c came); b and c went together
    assert.equal(gate.calls - calls, 2);
    await store.close();
  });

  it('a failed group write: the commit stands, every later operation and close fail with FC_STORE, and a reopen replays it', async () => {
    const dir = await tempDir();
    const { db, store } = await open(dir);
    await store.addSeeds([seed('a', 1), seed('b', 0.5)]);
    const [ea, eb] = [await entryOf(store, U('a')), await entryOf(store, U('b'))];
    const undo = levelBreaker(db)();
    await store.commit({ entry: ea, record: page(U('a')), countsAsPage: true, links: [link('x', 2)] });
    await assert.rejects(store.status(U('a')), isFire);
    await assert.rejects(store.commit({ entry: eb, record: page(U('b')), countsAsPage: true, links: [] }), isFire);
    undo();
    await assert.rejects(store.close(), isFire);

    const again = (await open(dir)).store;
    assert.equal(again.committed, 1);
    assert.equal(await again.status(U('a')), 'done');
    assert.deepEqual(await logRecords(again), [page(U('a'))]);
    assert.deepEqual(await frontierUrls(again), [U('x'), U('b')]);
    await again.close();
  });

  it('a commit whose beforeBatch hook throws still stands: it is journaled', async () => {
    const dir = await tempDir();
    const { store } = await open(dir);
    await store.addSeeds([seed('a', 1)]);
    const ea = await entryOf(store, U('a'));
    await assert.rejects(
      store.commit({ entry: ea, record: page(U('a')), countsAsPage: true, links: [link('x', 0.5)] }, { beforeBatch: () => { throw new Error('stdout gone'); } }),
      /stdout gone/,
    );
    assert.deepEqual([store.committed, store.frontierSize], [1, 1]);
    assert.equal(await store.status(U('a')), 'done');
    assert.deepEqual(await frontierUrls(store), [U('x')]);
    await store.close();
  });

  it('journals and writes behind the same bytes the sublevels write without a journal', async () => {
    // issue 23: write-behind groups go to the root database pre-encoded (one
    // JSON.stringify per value for journal and LevelDB); the stored bytes and
    // the journal's lines must be what the sublevels and JSON.stringify give
    async function run(store: CrawlStore) {
      await store.addSeeds([seed('a', 1), seed('b', 0.5)]);
      const ea = await entryOf(store, U('a'));
      await store.commit({ entry: ea, record: { ...page(U('a')), title: 'ünïcode "quoted" \u2028', n: [1, 2.5] }, countsAsPage: true, alsoDone: [U('a2')], links: [link('x', 0.3), { ...link('y', 0.2), anchor: 'why', context: 'ctx' }] });
      const eb = await entryOf(store, U('b'));
      await store.commit({ entry: eb, record: page(U('b')), countsAsPage: true, links: [link('x', 0.9), link('z', 0.1)] }); // raises x: a del and a put
      const ex = await entryOf(store, U('x'));
      await store.commit({ entry: ex, record: { type: 'error', url: U('x'), code: 'FC_HTTP' }, countsAsPage: false, links: [], retryLater: true });
    }
    async function rawRows(db: AbstractLevel<any, string, string>) {
      const rows: [string, string][] = [];
      for await (const [k, v] of db.iterator({ keyEncoding: 'utf8', valueEncoding: 'utf8' })) rows.push([k, v]);
      return rows;
    }
    const dir = await tempDir();
    const journal = path.join(dir, 'journal');
    const journaled = await CrawlStore.open(new Level<string, any>(path.join(dir, 'db')), { journal });
    await run(journaled);
    const lines = (await readFile(journal, 'utf8')).split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 4); // addSeeds and three commits
    for (const line of lines) assert.equal(JSON.stringify(JSON.parse(line)), line);
    await journaled.close();
    const plainDb = new MemoryLevel<string, any>();
    const plain = await CrawlStore.open(plainDb);
    await run(plain);
    const expected = await rawRows(plainDb);
    await plain.close();
    const reopened = new Level<string, string>(path.join(dir, 'db'));
    await reopened.open();
    const got = await rawRows(reopened);
    await reopened.close();
    assert.ok(expected.length > 10);
    assert.deepEqual(got, expected);
  });

  it('empties the journal only once LevelDB holds every journaled batch', async () => {
    const dir = await tempDir();
    const db = new Level<string, any>(path.join(dir, 'db'));
    const gate = batchGate(db);
    const journal = path.join(dir, 'journal');
    const store = await CrawlStore.open(db, { journal });
    await store.addSeeds(Array.from({ length: 9 }, (_, i) => seed(`p${i}`, 1 - i / 10)));
    const entries = (await frontierRows(store)).map((r) => r.entry);
    gate.shut();
    const calls = gate.calls;
    // 1 MiB records: the journal passes its 8 MiB truncation size at the eighth
    const big = (url: string) => ({ type: 'page', url, text: 'w'.repeat(1 << 20) });
    for (const e of entries.slice(0, 7)) await store.commit({ entry: e, record: big(e.url), countsAsPage: true, links: [] });
    const eighth = store.commit({ entry: entries[7], record: big(entries[7].url), countsAsPage: true, links: [] });
    assert.equal(await stillPending(eighth), true, 'the commit that makes the journal large waits for LevelDB');
    const large = (await stat(journal)).size;
    assert.ok(large > 8 * 1024 * 1024);
    // the first commit's batch is written; the later ones still wait, so the journal stays
    gate.step();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(gate.calls - calls, 2, 'the second group is being written');
    assert.equal((await stat(journal)).size, large);
    gate.open();
    await eighth;
    assert.equal((await stat(journal)).size, 0);
    assert.equal((await logRecords(store)).length, 8);
    await store.commit({ entry: entries[8], record: page(entries[8].url), countsAsPage: true, links: [] });
    await store.close();
    const again = (await open(dir)).store;
    assert.deepEqual([again.committed, again.frontierSize], [9, 0]);
    await again.close();
  });

  it('a commit that leaves more than 16,384 operations unwritten waits for LevelDB', async () => {
    const dir = await tempDir();
    const db = new Level<string, any>(path.join(dir, 'db'));
    const gate = batchGate(db);
    const store = await CrawlStore.open(db, { journal: path.join(dir, 'journal') });
    await store.addSeeds([seed('a', 1), seed('b', 0.5)]);
    const [ea, eb] = [await entryOf(store, U('a')), await entryOf(store, U('b'))];
    gate.shut();
    await store.commit({ entry: ea, record: page(U('a')), countsAsPage: true, links: [link('x', 0.3)] });
    // a's batch is being written; b's 8,200 links make 16,400 operations behind it
    const links = Array.from({ length: 8_200 }, (_, i) => link(`many/${i}`, 0.2));
    const big = store.commit({ entry: eb, record: page(U('b')), countsAsPage: true, links });
    assert.equal(await stillPending(big), true);
    gate.open();
    assert.deepEqual(await big, { added: 8_200, raised: 0 });
    assert.equal(store.frontierSize, 8_201);
    await store.close();
  });

  it('rejects a seen cache size that is not a power of two of at least one set (16)', async () => {
    for (const seenCacheSlots of [6, 2, 8, 24]) await assert.rejects(CrawlStore.open(new MemoryLevel<string, any>(), { seenCacheSlots }), TypeError);
  });
});

describe('store directory (issue 21)', () => {
  // What broke: a store was whatever directory --store named, so a crawl
  // wrote LevelDB files among a user's own and `--fresh` then deleted the
  // whole directory. Now only a new or empty directory becomes a store (it
  // gets a marker), an earlier focuscrawl's store is recognised by its
  // files, and anything else is refused before anything is written.
  it('refuses a directory holding other files (FC_USAGE naming it) and writes nothing there', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'notes.txt'), 'mine');
    await assert.rejects(CrawlStore.open(dir), (err: any) => err.code === 'FC_USAGE' && err.message.includes(dir));
    assert.deepEqual(await readdir(dir), ['notes.txt']);
  });

  it('marks a new or empty directory; a store with files added later still opens', async () => {
    const dir = await tempDir();
    const store = await CrawlStore.open(dir);
    await store.addSeeds([seed('a', 1)]);
    await store.close();
    assert.ok((await readdir(dir)).includes(STORE_MARKER));
    await writeFile(path.join(dir, 'notes.txt'), 'added by the user');
    const again = await CrawlStore.open(dir);
    assert.equal(again.frontierSize, 1);
    await again.close();
  });

  it('opens a store of an earlier version (no marker) and marks it: by its journal, or by its counters', async () => {
    for (const keepJournal of [true, false]) {
      const dir = await tempDir();
      const store = await CrawlStore.open(dir);
      await store.addSeeds([seed('a', 1)]);
      await store.close();
      await rm(path.join(dir, STORE_MARKER));
      if (!keepJournal) await rm(path.join(dir, JOURNAL_FILE));
      await writeFile(path.join(dir, 'notes.txt'), 'mine');
      assert.equal(await inspectStoreDir(dir), keepJournal ? 'legacy' : 'leveldb');
      const again = await CrawlStore.open(dir);
      assert.equal(again.frontierSize, 1, `journal kept: ${keepJournal}`);
      await again.close();
      assert.equal(await inspectStoreDir(dir), 'store');
    }
  });

  it('refuses a LevelDB focuscrawl did not write (no marker, journal nor counters)', async () => {
    const dir = await tempDir();
    const other = new Level(dir);
    await other.put('k', 'v');
    await other.close();
    await assert.rejects(CrawlStore.open(dir), (err: any) => err.code === 'FC_USAGE' && /LevelDB/.test(err.message));
    assert.equal((await readdir(dir)).some((n) => n.startsWith('focuscrawl')), false);
  });

  it('isStoreFile: LevelDB names, the journal, the marker and stats.json only', () => {
    for (const n of ['CURRENT', 'LOCK', 'LOG', 'LOG.old', 'MANIFEST-000002', '000003.log', '000005.ldb', '000007.sst', '000004.dbtmp', STORE_MARKER, JOURNAL_FILE, 'stats.json', 'stats.json.123.tmp']) {
      assert.equal(isStoreFile(n), true, n);
    }
    for (const n of ['notes.txt', 'CURRENT.bak', 'MANIFEST', 'x.log', '000003.log~', 'stats.json.tmp', 'LOG.txt', '.git']) assert.equal(isStoreFile(n), false, n);
  });

  it('removeStoreFiles deletes only the store\'s own files and keeps the marker', async () => {
    const dir = await tempDir();
    const store = await CrawlStore.open(dir);
    await store.addSeeds([seed('a', 1)]);
    await store.close();
    await writeFile(path.join(dir, 'notes.txt'), 'mine');
    await mkdir(path.join(dir, '000009.log')); // a directory under a store file name is not ours either
    await removeStoreFiles(dir);
    assert.deepEqual((await readdir(dir)).sort(), ['000009.log', STORE_MARKER, 'notes.txt'].sort());
    const again = await CrawlStore.open(dir);
    assert.equal(again.frontierSize, 0);
    await again.close();
  });
});

describe('CrawlStore on disk (Level only)', () => {
  it('creates missing directories and keeps counters and entries across reopen', async () => {
    const dir = path.join(await tempDir(), 'nested', 'store');
    let store = await CrawlStore.open(dir);
    await access(path.join(dir, 'CURRENT'));
    await store.addSeeds([seed('a', 1), seed('b', 0.5), seed('c', 0.2)]);
    await store.commit({ entry: await entryOf(store, U('a')), record: page(U('a')), countsAsPage: true, links: [link('x', 0.3)] });
    await store.commit({ entry: await entryOf(store, U('b')), record: { type: 'error', url: U('b') }, countsAsPage: false, links: [] });
    // c is taken by the frontier source but the process stops before its commit
    const taken = await entryOf(store, U('c'));
    await store.putMeta('topic', 'cats');
    const before = await snapshot(store);
    await store.close();

    store = await CrawlStore.open(dir);
    assert.deepEqual(await snapshot(store), before);
    assert.deepEqual([store.frontierSize, store.pages, store.errors, store.committed], [2, 1, 1, 2]);
    assert.equal(await store.status(U('c')), 'queued');
    assert.deepEqual(await entryOf(store, U('c')), taken);
    assert.equal(await store.getMeta('topic'), 'cats');
    // discovery seq continues after the reopen
    await store.commit({ entry: taken, record: page(U('c')), countsAsPage: true, links: [link('y', 0.3)] });
    const rows = await frontierRows(store);
    assert.deepEqual(rows.map((r) => [r.entry.url, r.entry.seq]), [[U('x'), 4], [U('y'), 5]]);
    await store.close();
  });

  it('a URL parked by a retryLater commit survives a reopen and is queued again by requeueParked', async () => {
    const dir = path.join(await tempDir(), 'store');
    let store = await CrawlStore.open(dir);
    await store.addSeeds([seed('a', 1)]);
    await store.commit({ entry: await entryOf(store, U('a')), record: { type: 'error', url: U('a'), code: 'FC_TIMEOUT' }, countsAsPage: false, links: [], retryLater: true });
    await store.close();
    store = await CrawlStore.open(dir);
    assert.deepEqual(await frontierUrls(store), []);
    assert.equal(await store.requeueParked(), 1);
    await store.close();
    store = await CrawlStore.open(dir);
    assert.deepEqual(await frontierUrls(store), [U('a')]);
    assert.equal(store.frontierSize, 1);
    assert.equal(await store.requeueParked(), 0);
    await store.close();
  });

  it('maps open failures to StoreError', async () => {
    const file = path.join(await tempDir(), 'a-file');
    await writeFile(file, 'not a directory');
    await assert.rejects(CrawlStore.open(path.join(file, 'store')), (err: any) => err.code === 'FC_STORE' && err.cause !== undefined);
  });

  it('fails with FC_STORE_LOCKED while another process holds the store', async () => {
    const dir = await tempDir();
    const file = await childScript(`
try {
  const s = await CrawlStore.open(process.argv[2]);
  console.log('opened', s.committed);
  await s.close();
} catch (err) {
  console.log('failed', (err as { code?: string }).code);
}`);
    const store = await CrawlStore.open(dir);
    assert.equal(await childOutput(file, [dir]), 'failed FC_STORE_LOCKED');
    await store.close();
    assert.equal(await childOutput(file, [dir]), 'opened 0');
  });

  it('survives SIGKILL in the middle of commits', async () => {
    const dir = await tempDir();
    const file = await childScript(`
const store = await CrawlStore.open(process.argv[2], { maxFrontier: 50 });
await store.addSeeds([{ url: 'http://h.test/0', score: 1, depth: 0, parent: null }]);
console.log('ready');
let n = 0;
for (;;) {
  let entry;
  for await (const row of store.frontier()) { entry = row.entry; break; }
  if (entry === undefined) break;
  const links = Array.from({ length: 10 }, () => ({ url: 'http://h.test/' + (++n), score: Math.random(), depth: entry.depth + 1, parent: entry.url }));
  await store.commit({ entry, record: { type: 'page', url: entry.url }, countsAsPage: true, alsoDone: ['http://h.test/r' + n], links });
}`);
    const child = runChild(file, [dir]);
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('ready') && resolve());
      child.on('close', () => reject(new Error(`child exited early: ${err}`)));
    });
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('close', resolve));

    const store = await CrawlStore.open(dir);
    const counters = { committed: store.committed, pages: store.pages, frontierSize: store.frontierSize };
    const logCount = (await logRecords(store)).length;
    const frontier = await frontierRows(store);
    await store.close();
    assert.ok(counters.committed > 0, 'the child committed something');

    const db = new Level<string, any>(dir);
    const seen = db.sublevel<string, any>('seen', { valueEncoding: 'json' });
    const done = new Set<string>();
    const queued = new Map<string, string>();
    for await (const [k, v] of seen.iterator()) {
      if (v.s === 'd') done.add(k);
      else queued.set(k, v.k);
    }
    await db.close();

    assert.equal(logCount, counters.committed);
    assert.equal(counters.pages, counters.committed);
    // each commit marks its entry and one redirect hop done
    assert.equal(done.size, 2 * counters.committed);
    assert.equal(frontier.length, counters.frontierSize);
    assert.ok(frontier.length <= 50);
    assert.equal(queued.size, frontier.length);
    for (const { key, entry } of frontier) {
      const uk = urlKey(entry.url);
      assert.ok(!done.has(uk), `${entry.url} is both queued and done`);
      assert.equal(queued.get(uk), key);
    }
  });
});
