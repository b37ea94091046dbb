import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryLevel } from 'memory-level';
import { SeenFilter } from '../src/store/seen-filter.ts';
import { CrawlStore } from '../src/store/level.ts';
import { urlKey } from '../src/urls/canonical.ts';

test('a key added is always found; one never added rarely is', () => {
  const f = new SeenFilter();
  const n = 200_000; // beyond the first layer (65,536 keys)
  for (let i = 0; i < n; i++) f.add(urlKey(`http://a.example/${i}`));
  for (let i = 0; i < n; i++) assert.ok(f.mayHave(urlKey(`http://a.example/${i}`)), `key ${i} lost`);
  let fp = 0;
  for (let i = 0; i < 20_000; i++) if (f.mayHave(urlKey(`http://b.example/${i}`))) fp++;
  assert.ok(fp / 20_000 < 0.04, `false positive rate ${fp / 20_000}`);
  assert.ok(f.bytes <= 5 * n, `${f.bytes} bytes for ${n} keys`);
  assert.equal(new SeenFilter().mayHave('x'), false);
  const g = new SeenFilter();
  g.add('not a hex key');
  assert.ok(g.mayHave('not a hex key'));
});

const entry = (url: string, score = 1) => ({ url, score, depth: 0, parent: null as unknown as string });

test('seen marks survive reopening (filter rebuilt from the store) and evictions', async () => {
  const db = new MemoryLevel<string, any>();
  let store = await CrawlStore.open(db, { maxFrontier: 2 });
  await store.addSeeds([entry('http://s.example/', 5)]);
  const taken = (await store.frontier().next()).value!.entry;
  const r = await store.commit({
    entry: taken,
    record: { type: 'page' },
    countsAsPage: true,
    links: ['a', 'b', 'c'].map((p, i) => ({ url: `http://s.example/${p}`, score: 3 - i, depth: 1, parent: taken.url })),
  });
  assert.deepEqual(r, { added: 2, raised: 0 }); // c evicted by maxFrontier 2
  // c lost its mark: it can be rediscovered; a and the seed cannot
  const r2 = await store.commit({
    entry: { ...entry('http://s.example/a', 3) },
    record: { type: 'page' },
    countsAsPage: true,
    links: [{ url: 'http://s.example/', score: 9, depth: 1, parent: 'x' }, { url: 'http://s.example/c', score: 9, depth: 1, parent: 'x' }],
  });
  assert.deepEqual(r2, { added: 1, raised: 0 });
  assert.equal(await store.status('http://s.example/c'), 'queued');
  // a fresh CrawlStore on the same database knows every mark without the cache
  await (store as unknown as { queue: Promise<unknown> }).queue;
  const reopened = await CrawlStore.open(db);
  const r3 = await reopened.commit({
    entry: entry('http://s.example/c', 9),
    record: { type: 'page' },
    countsAsPage: true,
    links: ['', 'a', 'b', 'c', 'd'].map((p) => ({ url: `http://s.example/${p}`, score: 1, depth: 1, parent: 'x' })),
  });
  assert.deepEqual(r3, { added: 1, raised: 0 }); // only d is new
  await reopened.close();
});

test('keys of 32 characters that are not lower-case hex go through the other hash, found all the same', () => {
  const f = new SeenFilter();
  const keys = ['0123456789ABCDEF0123456789abcdef', `${'g'.repeat(32)}`, `${'f'.repeat(31)}!`, '0123456789abcdef0123456789abcde', '0123456789abcdef0123456789abcdef0'];
  for (const k of keys) f.add(k);
  for (const k of keys) assert.ok(f.mayHave(k), k);
  const g = new SeenFilter();
  for (let i = 0; i < 3; i++) g.addIfMissing(urlKey('http://a.example/'));
  assert.ok(g.mayHave(urlKey('http://a.example/')));
  assert.equal(g.mayHave(urlKey('http://b.example/')), false);
});
