/**
 * LevelDB (classic-level) options the crawl store opens its database with
 * (issue 4: a million-URL frontier within 150 MB of RSS).
 *
 * LevelDB memory-maps every table file it opens for reading (up to 1000 maps
 * on 64-bit), and every page of a table it has read (Gets, the frontier
 * iterator, compaction inputs) stays resident while the table is open; the
 * kernel counts those pages in the process's RSS. The table cache keeps
 * `maxOpenFiles - 10` tables open, each up to about `maxFileSize` bytes, so
 * with classic-level's defaults (1000 files of 2 MiB) the mapped tables of a
 * large store grow to hundreds of MB. Here: the smallest table cache LevelDB
 * allows (it raises maxOpenFiles below 74 to 74: 64 tables) of the smallest
 * tables it allows (1 MiB), which bounds the mapped tables to about 64 MiB
 * plus the inputs of a running compaction (at most 25 tables), and smaller
 * buffers: a 2 MiB block cache (decompressed blocks; default 8 MiB) and a
 * 2 MiB write buffer (the memtable, twice while one is flushed; default 4 MiB).
 * The cost is CPU: more table opens and more, smaller compactions (see
 * BENCHMARKS.md, scale-bench).
 */
export const STORE_LEVELDB_OPTIONS = Object.freeze({
  cacheSize: 2 * 2 ** 20,
  writeBufferSize: 2 * 2 ** 20,
  maxOpenFiles: 74,
  maxFileSize: 2 ** 20,
});
