import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CrawlStore } from '../src/store/level.ts';
import { STORE_LEVELDB_OPTIONS } from '../src/store/options.ts';
import type { FrontierEntry } from '../src/types.ts';

const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('store LevelDB options (issue 4: memory)', () => {
  it('are within the ranges LevelDB accepts, so it does not silently raise them', () => {
    // LevelDB 1.20 SanitizeOptions clips max_open_files to [74, 50000],
    // write_buffer_size to [64 KiB, 1 GiB], max_file_size to [1 MiB, 1 GiB]
    // and block_size to [1 KiB, 4 MiB]; a value outside is raised without a
    // word, and the memory bound src/store/options.ts documents would not hold.
    const o = STORE_LEVELDB_OPTIONS;
    assert.ok(o.maxOpenFiles >= 74 && o.maxOpenFiles <= 50_000);
    assert.ok(o.writeBufferSize >= 64 * 2 ** 10 && o.writeBufferSize <= 2 ** 30);
    assert.ok(o.maxFileSize >= 2 ** 20 && o.maxFileSize <= 2 ** 30);
    assert.ok(o.cacheSize > 0);
    assert.ok(Object.isFrozen(o));
  });

  it('a store opened with them writes more than one write buffer and reopens with everything', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'focuscrawl-store-options-'));
    dirs.push(dir);
    const location = path.join(dir, 'store');
    const n = 12_000; // ~4 MB of entries: more than a 2 MiB write buffer, so tables are written
    const entry = (i: number): FrontierEntry => ({
      url: `http://h${i % 97}.example/p${i}.html`,
      score: (i % 1000) / 1000,
      depth: 1,
      parent: null,
      anchor: 'telescope galaxy nebula',
      context: 'planet comet asteroid orbit stellar supernova cosmology '.repeat(5),
    });
    let store = await CrawlStore.open(location);
    for (let k = 0; k < n; k += 2000) {
      await store.addSeeds(Array.from({ length: 2000 }, (_, i) => entry(k + i)));
      // one LevelDB write each (a frontier read waits for the write-behind
      // group): LevelDB switches to a new write buffer only between writes, so
      // one 4 MB group would fit in the first buffer and no table be written
      for await (const row of store.frontier()) if (row !== undefined) break;
    }
    await store.close();
    assert.ok((await readdir(location)).some((f) => f.endsWith('.ldb')), 'no table file was written');
    store = await CrawlStore.open(location);
    try {
      assert.equal(store.frontierSize, n);
      assert.equal(await store.status(entry(0).url), 'queued');
      assert.equal(await store.status(entry(n - 1).url), 'queued');
      let count = 0;
      let last = Infinity;
      for await (const { entry: e } of store.frontier()) {
        assert.ok(e.score <= last, 'frontier out of order');
        last = e.score;
        count++;
      }
      assert.equal(count, n);
    } finally {
      await store.close();
    }
  });
});
