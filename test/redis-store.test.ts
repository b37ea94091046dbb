/**
 * The Redis store as several workers see it (the single-worker contract is
 * in test/store.test.ts): atomic claims, leases that expire and come back,
 * politeness and --max-pages held across workers. A real redis-server on a
 * loopback port; skipped when redis-server is not installed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { RedisStore, crawlKeys, parseRedisLocation, redisUrlKey, seenBuckets, seenSlot } from '../src/store/redis.ts';
import * as S from '../src/store/redis-scripts.ts';
import type { FrontierEntry } from '../src/types.ts';
import { ROOT, runMain } from './helpers/cli.ts';
import { REDIS_SKIP, startRedis, uniqueCrawl, type RedisServer } from './helpers/redis.ts';

let server: RedisServer | undefined;
const opened: RedisStore[] = [];

async function open(crawl: string, opts: Parameters<typeof RedisStore.open>[1] = {}): Promise<RedisStore> {
  const s = await RedisStore.open(`${server!.url}?crawl=${crawl}`, opts);
  opened.push(s);
  return s;
}

function seeds(hosts: number, perHost: number): FrontierEntry[] {
  const out: FrontierEntry[] = [];
  for (let h = 0; h < hosts; h++) for (let i = 0; i < perHost; i++) out.push({ url: `http://h${h}.test/p${i}`, score: 1 - i / 100, depth: 0, parent: null });
  return out;
}

const page = (url: string) => ({ type: 'page', url });

describe('Redis store across workers', { skip: REDIS_SKIP, concurrency: false }, () => {
  before(async () => {
    server = await startRedis();
  });
  after(async () => {
    for (const s of opened) await s.close().catch(() => {});
    await server?.stop();
  });

  test('parses the location: connection URL and crawl name; keys share one hash tag', () => {
    assert.deepEqual(parseRedisLocation('redis://127.0.0.1:6379/2?crawl=webkb-1'), { url: 'redis://127.0.0.1:6379/2', crawl: 'webkb-1' });
    assert.equal(parseRedisLocation('redis://h:1/0').crawl, 'default');
    assert.throws(() => parseRedisLocation('redis://h:1/0?crawl=a%7Bb'), (e: any) => e.code === 'FC_STORE');
    for (const k of crawlKeys('x')) assert.match(k, /^fc:\{x\}:[a-z]+$/);
  });

  test('a crawl written in layout 1 (older versions) is refused at open with FC_STORE, untouched', async () => {
    // Layout 2 keeps seen marks in buckets and entries in the frontier
    // members: reading a layout-1 crawl would see every URL as new.
    const crawl = uniqueCrawl();
    const keys = crawlKeys(crawl);
    const admin = new Redis(server!.port, '127.0.0.1');
    try {
      await admin.hset(keys[9], '_epoch', 'old');
      await admin.hset(keys[2], 'a'.repeat(32), 'd');
      await assert.rejects(open(crawl), (e: any) => e.code === 'FC_STORE' && /layout 1/.test(e.message) && /--fresh/.test(e.message));
      assert.equal(await admin.hget(keys[9], '_layout'), null, 'nothing written');
      await RedisStore.destroy(`${server!.url}?crawl=${crawl}`);
      const s = await open(crawl);
      assert.equal(await s.addSeeds(seeds(1, 1)), 1, 'after --fresh it starts over');
    } finally {
      admin.disconnect();
    }
  });

  test('layout 2: seen marks in small listpack buckets, the entry in its frontier member, no entry hash', async () => {
    const crawl = uniqueCrawl();
    const s = await open(crawl, { perHost: 9 });
    await s.addSeeds(seeds(50, 4));
    const [e] = (await s.claim(1)).entries;
    await s.commit({ entry: e.entry, record: page(e.entry.url), countsAsPage: true, links: [{ url: 'http://h0.test/new', score: 0.5, depth: 1, parent: e.entry.url }] });
    const keys = crawlKeys(crawl);
    const admin = new Redis(server!.port, '127.0.0.1');
    try {
      assert.equal(await admin.exists(keys[1], keys[10]), 0, 'no e, no ct');
      const members = await admin.zrange(keys[0], 0, -1);
      assert.equal(members.length, 200);
      // frontier key, url, the rest of the entry (score and seq are in the key)
      assert.match(members[0], /^[0-9a-f]{16}![0-9a-f]{14}\thttp:\/\/h\d+\.test\/p\d\t\{"d":0,"p":null\}$/);
      const [bucket, field] = seenSlot(crawl, redisUrlKey(e.entry.url));
      assert.equal(await admin.object('ENCODING', bucket), 'listpack');
      assert.match((await admin.hget(bucket, field))!, /^d\t[0-9a-z]+#1\t1\t0$/, 'done, with its commit token and answer');
      assert.equal(await s.status('http://h0.test/new'), 'queued');
      assert.equal(await s.status(e.entry.url), 'done');
      let n = 0;
      for await (const x of s.frontier()) if (x.entry.url === 'http://h0.test/new' && x.entry.score === 0.5 && x.entry.parent === e.entry.url) n++;
      assert.equal(n, 1);
    } finally {
      admin.disconnect();
    }
  });

  test('a claim finds a free host past the first chunk it reads, and no further than scan', async () => {
    // The claim script reads the frontier 16 members at a time (it read all
    // `scan` members per call): a URL on a free host 41st in line must still
    // be found, and not when it is beyond `scan`.
    const busy: FrontierEntry[] = Array.from({ length: 40 }, (_, i) => ({ url: `http://busy.test/p${i}`, score: 1 - i / 1000, depth: 0, parent: null }));
    const free: FrontierEntry = { url: 'http://free.test/', score: 0.5, depth: 0, parent: null };
    for (const [scan, expected] of [[60, [free.url]], [30, []]] as const) {
      const s = await open(uniqueCrawl(), { perHost: 1, scan });
      await s.addSeeds([...busy, free]);
      assert.deepEqual((await s.claim(1)).entries.map((e) => e.entry.url), ['http://busy.test/p0']);
      const next = await s.claim(5);
      assert.deepEqual(next.entries.map((e) => e.entry.url), expected, `scan ${scan}`);
      assert.equal(next.status, expected.length > 0 ? 'ok' : 'wait');
    }
  });

  test('two workers claiming at once never get the same URL, and every URL is committed once (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.boolean()), { minLength: 1, maxLength: 30 }),
        async (hosts, perHostUrls, steps) => {
          const crawl = uniqueCrawl('p');
          const a = await open(crawl, { perHost: 1000 });
          const b = await open(crawl, { perHost: 1000 });
          const all = seeds(hosts, perHostUrls);
          await a.addSeeds(all);
          const held = new Map<string, RedisStore>();
          const committed: string[] = [];
          const settle = async (s: RedisStore, retry: boolean) => {
            for (const [url, owner] of [...held]) {
              if (owner !== s) continue;
              held.delete(url);
              const entry = { url, score: 0, depth: 0, parent: null };
              if (retry) await s.retry(entry);
              else {
                await s.commit({ entry, record: page(url), countsAsPage: true, links: [] });
                committed.push(url);
              }
            }
          };
          for (const [na, nb, retry] of [...steps, [50, 50, false] as [number, number, boolean]]) {
            const [ra, rb] = await Promise.all([a.claim(na), b.claim(nb)]);
            for (const [s, r] of [[a, ra], [b, rb]] as const) {
              for (const { entry } of r.entries) {
                assert.ok(!held.has(entry.url), `${entry.url} claimed twice`);
                held.set(entry.url, s);
              }
            }
            await Promise.all([settle(a, retry), settle(b, false)]);
          }
          // whatever is left: claim until the crawl is over
          for (let i = 0; i < 100; i++) {
            const r = await a.claim(100);
            for (const { entry } of r.entries) held.set(entry.url, a);
            await settle(a, false);
            if (r.status === 'done') break;
          }
          assert.deepEqual([...committed].sort(), all.map((e) => e.url).sort());
          assert.equal(a.pages, all.length);
          assert.equal(a.frontierSize, 0);
          await a.close();
          await b.close();
        },
      ),
      { numRuns: 25 },
    );
  });

  test('politeness holds across workers: one request per host at a time, and the delay after it', async () => {
    const crawl = uniqueCrawl();
    const a = await open(crawl, { perHost: 1 });
    const b = await open(crawl, { perHost: 1 });
    await a.addSeeds(seeds(2, 3));
    const ra = await a.claim(10);
    assert.deepEqual(ra.entries.map((e) => e.entry.url), ['http://h0.test/p0', 'http://h1.test/p0'], 'one URL per host');
    const rb = await b.claim(10);
    assert.equal(rb.status, 'wait');
    assert.equal(rb.entries.length, 0, 'both hosts are busy in worker a');
    await a.commit({ entry: ra.entries[0].entry, record: page(ra.entries[0].entry.url), countsAsPage: true, links: [], hostDelayMs: 60_000 });
    await a.commit({ entry: ra.entries[1].entry, record: page(ra.entries[1].entry.url), countsAsPage: true, links: [], hostDelayMs: 0 });
    const rb2 = await b.claim(10);
    assert.deepEqual(rb2.entries.map((e) => e.entry.url), ['http://h1.test/p1'], 'h0 waits its delay, h1 is free');
    await b.commit({ entry: rb2.entries[0].entry, record: page('http://h1.test/p1'), countsAsPage: true, links: [], hostDelayMs: 0 });
    const rb3 = await b.claim(10);
    assert.deepEqual(rb3.entries.map((e) => e.entry.url), ['http://h1.test/p2']);
    await b.releaseClaims();
    const rb4 = await b.claim(10);
    assert.deepEqual(rb4.entries.map((e) => e.entry.url), ['http://h1.test/p2'], 'released claims are back in the frontier');
    const rb5 = await a.claim(10);
    assert.equal(rb5.status, 'wait');
    assert.ok(rb5.waitMs > 50_000 && rb5.waitMs <= 60_000, `wait for h0's delay, got ${rb5.waitMs}`);
  });

  test("a commit claims the worker's next URLs in the same round-trip", async () => {
    const s = await open(uniqueCrawl(), { perHost: 10 });
    await s.addSeeds(seeds(3, 2));
    // one fetch slot free besides the URL being committed
    const head = s.claimHead(() => 1);
    await head.refill();
    const first = head.take(() => 'take')!;
    assert.equal(first.entry.url, 'http://h0.test/p0');
    const before = s.roundTrips;
    await s.commit({ entry: first.entry, record: page(first.entry.url), countsAsPage: true, links: [] });
    assert.equal(s.roundTrips - before, 1, 'one round-trip');
    assert.equal(head.size, 2, 'the committed URL\'s slot and the free one');
    await head.refill();
    assert.equal(s.roundTrips - before, 1, 'the buffer is full: no claim');
    assert.deepEqual([head.take(() => 'take')!.entry.url, head.take(() => 'take')!.entry.url], ['http://h1.test/p0', 'http://h2.test/p0']);
    assert.equal(s.claimedCount, 2);
  });

  test('--max-pages holds across workers: claims stop at pages + leases = max', async () => {
    const crawl = uniqueCrawl();
    const a = await open(crawl, { perHost: 100, maxPages: 5 });
    const b = await open(crawl, { perHost: 100, maxPages: 5 });
    await a.addSeeds(seeds(3, 4));
    const ra = await a.claim(3);
    const rb = await b.claim(3);
    assert.equal(ra.entries.length + rb.entries.length, 5);
    assert.equal((await b.claim(3)).status, 'wait');
    // an error record does not count: its place is claimable again
    const e0 = rb.entries[0].entry;
    await b.commit({ entry: e0, record: { type: 'error', url: e0.url, code: 'FC_NETWORK' }, countsAsPage: false, links: [] });
    const rb2 = await b.claim(3);
    assert.equal(rb2.entries.length, 1);
    for (const { entry } of [...ra.entries, ...rb.entries.slice(1), ...rb2.entries]) {
      await (ra.entries.some((x) => x.entry.url === entry.url) ? a : b).commit({ entry, record: page(entry.url), countsAsPage: true, links: [] });
    }
    assert.equal((await a.claim(3)).status, 'done');
    assert.equal(a.pages, 5);
  });

  test('a worker whose lease expired does not commit a URL again that another worker committed', async () => {
    const crawl = uniqueCrawl();
    const a = await open(crawl, { perHost: 10, leaseMs: 60_000 });
    const b = await open(crawl, { perHost: 10, leaseMs: 60_000 });
    await a.addSeeds(seeds(1, 1));
    const [ea] = (await a.claim(1)).entries;
    // a stalls longer than its lease (a frozen process): the lease has expired
    const admin = new Redis(server!.port, '127.0.0.1');
    await admin.zadd(crawlKeys(crawl)[5], 'XX', 0, ea.key);
    admin.disconnect();
    const [eb] = (await b.claim(1)).entries;
    assert.equal(eb.entry.url, ea.entry.url, 'b got the URL after the lease expired');
    let printed = 0;
    await b.commit({ entry: eb.entry, record: page(eb.entry.url), countsAsPage: true, links: [] }, { beforeBatch: () => printed++ });
    await a.commit({ entry: ea.entry, record: page(ea.entry.url), countsAsPage: true, links: [] }, { beforeBatch: () => printed++ });
    assert.equal(printed, 1, 'one record goes out');
    assert.deepEqual([b.pages, a.pages, a.committed], [1, 1, 1]);
    assert.equal((await a.claim(5)).status, 'done');
  });

  test("a link to a URL another worker is fetching does not put it back in the frontier", async () => {
    // regression guard: raising a leased URL's score used to re-queue it under a new key (fetched twice)
    const crawl = uniqueCrawl();
    const a = await open(crawl, { perHost: 10 });
    const b = await open(crawl, { perHost: 10 });
    await a.addSeeds([{ url: 'http://x.test/a', score: 0.1, depth: 0, parent: null }, { url: 'http://y.test/b', score: 0.5, depth: 0, parent: null }]);
    const ra = await a.claim(1);
    assert.equal(ra.entries[0].entry.url, 'http://y.test/b');
    const rb = await b.claim(1);
    assert.equal(rb.entries[0].entry.url, 'http://x.test/a');
    await a.commit({ entry: ra.entries[0].entry, record: page('http://y.test/b'), countsAsPage: true, links: [{ url: 'http://x.test/a', score: 9, depth: 1, parent: 'http://y.test/b' }] });
    assert.equal((await a.claim(5)).entries.length, 0, 'x.test/a is still leased by b, not queued again');
    await b.commit({ entry: rb.entries[0].entry, record: page('http://x.test/a'), countsAsPage: true, links: [] });
    assert.equal((await a.claim(5)).status, 'done');
  });

  // What could break (timing, not a bug): with a 300 ms lease renewed every
  // 100 ms, a worker process (the child or this one) that a loaded CI machine
  // left without CPU for ~200 ms would lose a lease it still held, and the
  // exact URL sets below would fail. The lease is now 1000 ms (renewed every
  // 333 ms) and each wait is 1500 ms, still longer than the lease, so a
  // missing renewal or a missing reap still fails the test (checked by
  // SIGSTOPping the child: "leased by the live child" fails). That check also
  // showed a failed assertion left the child running and the test file never
  // ended; the child is now killed in `finally`.
  test('a killed worker: its claimed URLs return to the frontier after the lease; a live worker keeps its own', async () => {
    const LEASE_MS = 1000;
    const crawl = uniqueCrawl();
    const location = `${server!.url}?crawl=${crawl}`;
    const survivor = await open(crawl, { perHost: 100, leaseMs: LEASE_MS });
    await survivor.addSeeds(seeds(4, 3));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-redis-child-'));
    let spawned: ReturnType<typeof spawn> | undefined;
    try {
      const file = path.join(dir, 'child.mts');
      await writeFile(
        file,
        `import { RedisStore } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src/store/redis.ts')).href)};
const s = await RedisStore.open(process.argv[2], { perHost: 100, leaseMs: ${LEASE_MS} });
const r = await s.claim(5);
console.log(JSON.stringify(r.entries.map((e) => e.entry.url)));
setInterval(() => {}, 1000);`,
      );
      const child = spawn(process.execPath, ['--import', 'tsx', file, location], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      spawned = child;
      const claimed = await new Promise<string[]>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(JSON.parse(out));
        });
        child.on('exit', () => reject(new Error('child exited before claiming')));
      });
      assert.equal(claimed.length, 5);
      // the child renews its leases while it lives
      const mine = await survivor.claim(3);
      await sleep(1.5 * LEASE_MS); // > leaseMs: only renewing kept the child's leases
      const during = await survivor.claim(100);
      const got = [...mine.entries, ...during.entries].map((e) => e.entry.url);
      assert.equal(got.length, 12 - 5);
      for (const u of claimed) assert.ok(!got.includes(u), `${u} is leased by the live child`);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      await sleep(1.5 * LEASE_MS); // > leaseMs, and the survivor renewed its own leases meanwhile
      const after = await survivor.claim(100);
      assert.deepEqual(after.entries.map((e) => e.entry.url).sort(), [...claimed].sort(), 'the dead worker\'s URLs, and only those');
      assert.equal(survivor.claimedCount, 12);
    } finally {
      spawned?.kill('SIGKILL'); // a failed assertion above must not leave the child (and this test file) running
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('the crawl state lost under a running worker (restart without persistence, FLUSHDB): FC_STORE, and nothing is written', async () => {
    const crawl = uniqueCrawl();
    const s = await open(crawl, { perHost: 10 });
    await s.addSeeds(seeds(2, 2));
    const [claimed] = (await s.claim(1)).entries;
    const admin = new Redis(server!.port, '127.0.0.1');
    try {
      await admin.flushdb();
      await assert.rejects(
        s.commit({ entry: claimed.entry, record: page(claimed.entry.url), countsAsPage: true, links: [{ url: 'http://n.test/', score: 1, depth: 1, parent: claimed.entry.url }] }),
        (e: any) => e.code === 'FC_STORE' && /gone or was reset/.test(e.message),
      );
      await assert.rejects(s.claim(5), (e: any) => e.code === 'FC_STORE');
      assert.equal(await admin.dbsize(), 0, 'no half-rebuilt crawl');
      // a worker started now begins a new crawl
      const fresh = await open(crawl);
      assert.equal(fresh.committed, 0);
      assert.equal(await fresh.addSeeds(seeds(1, 1)), 1);
    } finally {
      admin.disconnect();
    }
  });

  test('a commit applied twice (its reply lost, the call re-sent) answers "committed" again; another worker\'s is a duplicate', async () => {
    // What broke: ioredis re-sends a command whose reply a Redis restart
    // swallowed; the commit script, applied a second time, found its own URL
    // done and answered "duplicate", so the worker never printed a record the
    // store had committed.
    const crawl = uniqueCrawl();
    const s = await open(crawl, { workerId: 'w1', perHost: 2 });
    await s.addSeeds(seeds(1, 2));
    const got = await s.claim(2);
    assert.equal(got.entries.length, 2);
    const keys = crawlKeys(crawl);
    const admin = new Redis(server!.port, '127.0.0.1');
    try {
      const epoch = (await admin.hget(keys[9], '_epoch'))!;
      const [a, b] = got.entries;
      const link = { uk: redisUrlKey('http://h9.test/x'), u: 'http://h9.test/x', s: '0.5', j: JSON.stringify({ d: 1, p: a.entry.url }) };
      const args = (w: string, t: string, e: typeof a, extra = {}) =>
        JSON.stringify({ w, t, lk: e.key, delay: 0, done: [redisUrlKey(e.entry.url)], links: [link], page: 1, err: 0, max: 0, ...extra });
      const run = async (argv: string, url: string) => (await admin.eval(S.COMMIT, keys.length, ...keys, epoch, argv, JSON.stringify(page(url)))) as (number | string)[];
      const first = await run(args('w1', 'w1#1', a), a.entry.url);
      assert.deepEqual([first[0], first[6]], [1, 0], 'committed: one link added');
      const again = await run(args('w1', 'w1#1', a), a.entry.url);
      assert.deepEqual([again[0], again[6]], [1, 0], 'the same call again: committed, with the first answer');
      const other = await run(args('w2', 'w2#7', a), a.entry.url);
      assert.equal(other[6], 1, 'another commit of the same URL: duplicate');
      const replayOther = await run(args('w2', 'w2#8', a, { replay: 1 }), a.entry.url);
      assert.equal(replayOther[6], 2, 'a replay that finds the URL committed by another token: conflict');
      // a replay of a commit Redis lost is applied (without a claim)
      const replayed = await run(args('w1', 'w1#2', b, { replay: 1, claim: { n: 5, leaseMs: 1000, perHost: 9, maxPages: 0, scan: 100, poll: 50 } }), b.entry.url);
      assert.deepEqual([replayed[6], replayed[7]], [0, 'none'], 'applied, nothing claimed');
      const log = (await admin.lrange(keys[3], 0, -1)).map((x) => JSON.parse(x).url);
      assert.deepEqual(log, [a.entry.url, b.entry.url], 'each URL committed once');
      assert.equal(await admin.hget(keys[4], 'pages'), '2');
      assert.equal(await admin.zcard(keys[5]), 0, 'both leases ended');
    } finally {
      admin.disconnect();
    }
  });

  test('after a reconnect, a worker sends again the commits Redis answered lately: one Redis lost is applied again', async () => {
    // What broke: with appendfsync everysec a killed Redis loses up to ~2 s
    // of answered commits; their records were printed, the URLs went back to
    // the frontier, and were fetched and printed a second time.
    const crawl = uniqueCrawl();
    const s = await open(crawl, { perHost: 2 });
    await s.addSeeds(seeds(1, 2));
    const [a, b] = (await s.claim(2)).entries;
    const keys = crawlKeys(crawl);
    const admin = new Redis(server!.port, '127.0.0.1');
    try {
      await s.commit({ entry: a.entry, record: page(a.entry.url), countsAsPage: true, links: [] });
      // what Redis will "lose": b's commit (a snapshot of every key before it, restored after it)
      const snapshot = await Promise.all([...keys, ...seenBuckets(crawl)].map(async (k) => [k, await admin.dumpBuffer(k)] as const));
      let printed = 0;
      await s.commit({ entry: b.entry, record: page(b.entry.url), countsAsPage: true, links: [] }, { beforeBatch: () => printed++ });
      assert.equal(printed, 1);
      for (const [k, v] of snapshot) {
        await admin.del(k);
        if (v !== null) await admin.restore(k, 0, v);
      }
      assert.equal(await admin.llen(keys[3]), 1, 'b\'s commit is lost');
      await admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
      // the reconnect sends a's and b's commits again: a's is kept, b's is applied
      for (let i = 0; i < 200 && (await admin.llen(keys[3])) < 2; i++) await sleep(25);
      const log = (await admin.lrange(keys[3], 0, -1)).map((x) => JSON.parse(x).url);
      assert.deepEqual(log, [a.entry.url, b.entry.url]);
      assert.match((await admin.hget(...seenSlot(crawl, redisUrlKey(b.entry.url))))!, /^d\t/, 'b is done: not fetched again');
      assert.equal(await admin.zcard(keys[5]), 0, 'b\'s lease ended');
      assert.deepEqual(s.replays, { sent: 2, conflicts: 0 });
    } finally {
      admin.disconnect();
    }
  });

  test('a dropped connection is re-established by itself; a closed store refuses writes with FC_STORE', async () => {
    const crawl = uniqueCrawl();
    const s = await RedisStore.open(`${server!.url}?crawl=${crawl}`);
    await s.addSeeds(seeds(1, 1));
    const admin = new Redis(server!.port, '127.0.0.1');
    await admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
    admin.disconnect();
    // ioredis reconnects by itself: the store goes on (the data is still there)
    assert.equal(await s.addSeeds(seeds(1, 2)), 1);
    await s.close();
    await assert.rejects(s.addSeeds(seeds(1, 1)), (e: any) => e.code === 'FC_STORE');
  });
});

test('--lease-ms needs a redis:// store (exit 2, FC_USAGE)', async () => {
  const r = await runMain(['crawl', '--seed', 'http://example.test/', '--lease-ms', '500', '--store', path.join(os.tmpdir(), 'nope')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /FC_USAGE.*--lease-ms: needs --store redis:/);
});
