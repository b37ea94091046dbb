// The core that strategies plug into: re-prioritising queued URLs both ways,
// the tunnel limit on off-topic hops, pruning of negative scores, best-n-first
// rounds in the frontier source, and the sink's observe/rescore hooks (with
// the frontier head's floor).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { MemoryLevel } from 'memory-level';
import { DEFAULT_HEAD_CAPACITY, FrontierHead } from '../src/frontier-head.ts';
import { Inflight } from '../src/inflight.ts';
import { firstN } from '../src/iter.ts';
import { HostScheduler } from '../src/politeness.ts';
import { frontierSource } from '../src/stages/frontier-source.ts';
import { linksToQueue, sinkStage } from '../src/stages/sink.ts';
import { CrawlStore } from '../src/store.ts';
import { loopbackLookup } from '../src/net/lookup.ts';
import { runCrawl } from '../src/pipeline.ts';
import type { CrawlItem, FrontierEntry, PageLink, QueuedLink, Rescore, Scorer } from '../src/types.ts';
import { syntheticWebDir } from './helpers/synthetic-web.ts';

const e = (url: string, score: number, over: Partial<FrontierEntry> = {}): FrontierEntry => ({ url, score, depth: 0, parent: null, ...over });

async function order(store: CrawlStore): Promise<string[]> {
  return (await firstN(store.frontier(), 100)).map((r) => `${r.entry.url}@${r.entry.score}`);
}

test('reprioritise moves queued URLs up and down, keeps seq and fields, ignores others', async (t) => {
  const store = await CrawlStore.open(new MemoryLevel<string, any>());
  t.after(() => store.close());
  await store.addSeeds([e('http://a.test/', 3, { anchor: 'A' }), e('http://b.test/', 2), e('http://c.test/', 1)]);
  await store.commit({ entry: e('http://c.test/', 1), record: { type: 'page' }, countsAsPage: true, links: [] });
  const moved = await store.reprioritise([
    { url: 'http://a.test/', score: 0.5 },
    { url: 'http://b.test/', score: 9 },
    { url: 'http://c.test/', score: 100 }, // done: ignored
    { url: 'http://never.test/', score: 5 }, // unknown: ignored
    { url: 'http://b.test/', score: Number.NaN }, // ignored; the earlier value for b stands
  ]);
  assert.equal(moved, 2);
  assert.deepEqual(await order(store), ['http://b.test/@9', 'http://a.test/@0.5']);
  const [, a] = await firstN(store.frontier(), 2);
  assert.equal(a.entry.anchor, 'A');
  assert.equal(a.entry.seq, 1, 'discovery order kept');
  assert.equal(store.frontierSize, 2);
  assert.equal(await store.status('http://c.test/'), 'done');
});

test('the head follows reprioritised entries', async (t) => {
  const head: FrontierHead = new FrontierHead({ capacity: 8, load: (gt, limit) => firstN(store.frontier({ gt }), limit) });
  const store = await CrawlStore.open(new MemoryLevel<string, any>(), { onFrontierChange: (c) => head.apply(c) });
  t.after(() => store.close());
  await store.addSeeds([e('http://a.test/', 3), e('http://b.test/', 2)]);
  await head.refill();
  await store.reprioritise([{ url: 'http://b.test/', score: 5 }]);
  assert.equal(head.take(() => 'take')?.entry.url, 'http://b.test/');
  assert.equal(head.take(() => 'take')?.entry.url, 'http://a.test/');
  assert.equal(head.take(() => 'take'), null);
});

function pageItem(depth: number, relevant: boolean, offTopicHops: number, outlinks: Array<[string, number]>): CrawlItem {
  return {
    entry: e('http://p.test/page', 1, { depth, offTopicHops }),
    relevant,
    outlinks: outlinks.map(([url, score]) => ({ url, score, anchor: 'a', context: 'c' })),
  };
}

test('tunnel K: links are followed through at most K consecutive off-topic pages; seeds count as on-topic', () => {
  const links: Array<[string, number]> = [['http://x.test/1', 1]];
  assert.equal(linksToQueue(pageItem(0, false, 0, links), Infinity, {}, 0).length, 1, 'seed');
  assert.equal(linksToQueue(pageItem(2, true, 5, links), Infinity, {}, 0)[0].offTopicHops, 0, 'relevant page resets');
  assert.equal(linksToQueue(pageItem(2, false, 0, links), Infinity, {}, 0).length, 0, 'hard focus');
  assert.equal(linksToQueue(pageItem(2, false, 0, links), Infinity, {}, 1)[0].offTopicHops, 1);
  assert.equal(linksToQueue(pageItem(3, false, 1, links), Infinity, {}, 1).length, 0);
  assert.equal(linksToQueue(pageItem(3, false, 1, links), Infinity, {}, 2).length, 1);
  assert.equal(linksToQueue(pageItem(3, false, 50, links), Infinity).length, 1, 'no limit by default');
});

test('links scored below 0 are pruned', () => {
  const got = linksToQueue(pageItem(1, true, 0, [['http://x.test/keep', 0], ['http://x.test/drop', -1]]), Infinity);
  assert.deepEqual(got.map((l) => l.url), ['http://x.test/keep']);
});

test('best-n-first rounds: no URL is taken until the whole round is committed', async (t) => {
  const head: FrontierHead = new FrontierHead({ capacity: 64, load: (gt, limit) => firstN(store.frontier({ gt }), limit) });
  const store = await CrawlStore.open(new MemoryLevel<string, any>(), { onFrontierChange: (c) => head.apply(c) });
  const inflight = new Inflight();
  const ac = new AbortController();
  t.after(async () => {
    ac.abort();
    await store.close();
  });
  await store.addSeeds([1, 2, 3, 4, 5].map((i) => e(`http://h${i}.test/`, 10 - i)));
  const scheduler = new HostScheduler({ perHost: 1, delayMs: 0 });
  const src = frontierSource({ head, scheduler, inflight, pagesDone: () => store.pages, maxPages: Infinity, roundSize: 2, signal: ac.signal });
  const first = [(await src.next()).value as CrawlItem, (await src.next()).value as CrawlItem];
  assert.deepEqual(first.map((i) => i.entry.url), ['http://h1.test/', 'http://h2.test/']);
  const third = src.next();
  const raced = await Promise.race([third.then(() => 'yielded'), new Promise((r) => setTimeout(() => r('waiting'), 50))]);
  assert.equal(raced, 'waiting', 'the third URL waits for the round');
  // commit the round; a better link found in it competes in the next round
  for (const item of first) {
    await store.commit({ entry: item.entry, record: { type: 'page' }, countsAsPage: true, links: item.entry.url === 'http://h1.test/' ? [{ url: 'http://new.test/', score: 100, depth: 1, parent: item.entry.url }] : [] });
    scheduler.finish(new URL(item.entry.url).host, item.entry.url, false);
    inflight.delete(item.entry.url);
  }
  assert.equal(((await third).value as CrawlItem).entry.url, 'http://new.test/');
});

test('the sink calls observe with the queued links, then applies rescore', async (t) => {
  const store = await CrawlStore.open(new MemoryLevel<string, any>());
  t.after(() => store.close());
  await store.addSeeds([e('http://seed.test/', 1)]);
  const observed: QueuedLink[][] = [];
  const floors: (number | undefined)[] = [];
  const scorer = {
    observe: (_item: CrawlItem, links: readonly QueuedLink[]) => void observed.push([...links]),
    rescore: async (frontier: () => AsyncIterable<FrontierEntry>, floor?: number): Promise<Rescore[]> => {
      floors.push(floor);
      const out: Rescore[] = [];
      for await (const q of frontier()) out.push({ url: q.url, score: q.url.endsWith('/b') ? 50 : q.score });
      return out;
    },
  };
  const item: CrawlItem = {
    entry: e('http://seed.test/', 1),
    fetch: { url: 'http://seed.test/', finalUrl: 'http://seed.test/', redirects: ['http://seed.test/'], status: 200, headers: {}, contentType: 'text/html', headerCharset: null, body: null, bytes: 0, truncated: false, fetchedAt: new Date().toISOString(), ms: 1, replay: false },
    relevant: true,
    outlinks: [{ url: 'http://seed.test/a', score: 2, anchor: 'a', context: '' }, { url: 'http://seed.test/b', score: 1, anchor: 'b', context: '' }],
  };
  async function* one() {
    yield item;
  }
  await sinkStage(one(), { store, strategy: 's', maxDepth: Infinity, emit: () => undefined, scorer, rescoreFloor: () => 7 });
  assert.deepEqual(observed[0].map((l) => l.url).sort(), ['http://seed.test/a', 'http://seed.test/b']);
  assert.deepEqual(await order(store), ['http://seed.test/b@50', 'http://seed.test/a@2']);
  assert.deepEqual(floors, [7], "rescore is told the frontier head's floor");
});

test("a crawl tells the strategy's rescore its frontier head's floor: -Infinity while the head holds the whole frontier, then the priority of a queued link", async (t) => {
  const { web, dir } = await syntheticWebDir(t);
  // each link's priority is a fixed function of its URL, so the floor is one of them
  const scoreOf = (url: string) => (Number(url.split('/').pop()) % 1000) / 1000;
  const given = new Set<number>();
  const calls: { floor: number | undefined }[] = [];
  const scorer: Scorer = {
    name: 'floor-probe',
    pageRelevance: () => 0.5,
    linkScore: (link: PageLink) => {
      const s = scoreOf(link.url);
      given.add(s);
      return s;
    },
    rescore: (_frontier, floor) => {
      calls.push({ floor });
      return null;
    },
  };
  const output = new Writable({ write: (_c, _e, cb) => cb() });
  await runCrawl({
    seeds: [`http://h0.example/p/0`], topic: null, scorer, strategy: 'best-first', storeDir: dir, fresh: false,
    maxPages: 900, maxDepth: Infinity, maxFrontier: Infinity, dropIndex: true, allowPrivate: true, concurrency: 8,
    perHost: 8, delayMs: 0, delayExplicit: true, hostDiversity: 0, maxBytes: 1 << 20, auth: {}, quiet: true, output,
    log: () => {}, proxy: web.url, lookup: loopbackLookup(),
  });
  assert.ok(calls.length >= 800, `rescore called after each commit (${calls.length})`);
  assert.equal(calls[0].floor, -Infinity, 'the first commits: the head holds the whole frontier');
  const finite = calls.filter((c) => Number.isFinite(c.floor));
  // 900 pages of 8 new links each queue ~7,000 URLs, more than the head holds
  assert.ok(finite.length > 0, `a finite floor once the frontier outgrew the head's ${DEFAULT_HEAD_CAPACITY} entries`);
  for (const c of finite) assert.ok(given.has(c.floor!), `floor ${c.floor} is a priority some link was given`);
});
