// The store's synchronous journal: a batch appended to it but never applied
// by LevelDB (the process was killed in between) is replayed on open; a torn
// last line (killed mid-append) is ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { Journal } from '../src/store/journal.ts';
import { CrawlStore } from '../src/store/level.ts';
import { tempDir } from './helpers/cli.ts';

const entry = (url: string) => ({ url, score: 1, depth: 0, parent: null });

test('a journaled batch that LevelDB never applied is replayed on open', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const store = await CrawlStore.open(dir);
  await store.addSeeds([entry('http://a.example/'), entry('http://b.example/')]);
  await store.commit({ entry: entry('http://a.example/'), record: { type: 'page', url: 'http://a.example/' }, countsAsPage: true, links: [] });
  await store.close();

  // Forge what a kill right after the journal append leaves behind: the next
  // batch (commit of b) in the journal, not in LevelDB, then a torn line.
  const reopened = await CrawlStore.open(dir);
  const before = { pages: reopened.pages, committed: reopened.committed, frontier: reopened.frontierSize };
  await reopened.close();
  assert.deepEqual(before, { pages: 1, committed: 1, frontier: 1 });
  const journalFile = path.join(dir, 'focuscrawl.journal');
  const counters = { seq: 2, pages: 2, errors: 0, committed: 2, frontierSize: 0, b: 3 };
  const ops = [
    { t: 'd', s: 'frontier', k: 'ignored-missing-key' },
    { t: 'p', s: 'log', k: '0000000000000002', v: { type: 'page', url: 'http://b.example/' } },
    { t: 'p', s: 'meta', k: '_counters', v: counters },
  ];
  await appendFile(journalFile, `${JSON.stringify({ b: 3, ops })}\n{"b":4,"ops":[{"t":"p","s":"log"`);

  const replayed = await CrawlStore.open(dir);
  t.after(() => replayed.close());
  assert.equal(replayed.committed, 2);
  assert.equal(replayed.pages, 2);
  const urls: string[] = [];
  for await (const rec of replayed.log()) urls.push((rec as { url: string }).url);
  assert.deepEqual(urls, ['http://a.example/', 'http://b.example/']);
  // the replayed entries are in LevelDB now, so the journal was emptied
  assert.equal(statSync(journalFile).size, 0);
});

test('journal entries already in LevelDB are not applied twice', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const { journal } = Journal.open(path.join(dir, 'focuscrawl.journal'));
  journal.close();
  const store = await CrawlStore.open(dir);
  await store.addSeeds([entry('http://a.example/')]);
  await store.close();
  // A stale journal line (b: 1, already applied) that would re-queue a URL.
  await appendFile(
    path.join(dir, 'focuscrawl.journal'),
    `${JSON.stringify({ b: 1, ops: [{ t: 'p', s: 'meta', k: '_counters', v: { seq: 9, pages: 9, errors: 0, committed: 9, frontierSize: 0, b: 1 } }] })}\n`,
  );
  const again = await CrawlStore.open(dir);
  t.after(() => again.close());
  assert.equal(again.frontierSize, 1);
  assert.equal(again.pages, 0);
});
