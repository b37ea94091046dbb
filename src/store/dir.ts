/**
 * What a store directory is (docs/store-directory.md), so that focuscrawl
 * never writes into, nor deletes from, a directory that holds someone
 * else's files (issue 21: `--store . --fresh` deleted a working directory).
 *
 * - A store is a directory focuscrawl created, or found empty, and marked
 *   then with STORE_MARKER (written before LevelDB creates anything).
 * - A directory without the marker is a store of an earlier focuscrawl (no
 *   marker yet) when it holds focuscrawl's journal, or else LevelDB's
 *   CURRENT and a MANIFEST-* file and its database has focuscrawl's
 *   counters (meta `_counters`; checked by CrawlStore.open). Opening it
 *   writes the marker.
 * - Any other non-empty directory is refused (FC_USAGE, exit 2).
 *
 * `--fresh` deletes only the store's own files (isStoreFile: the LevelDB
 * file names, the journal, stats.json and its temp files); it keeps the
 * marker, never touches a sub-directory or any other name, and leaves the
 * directory in place.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StoreError, UsageError } from '../errors.ts';

/** The marker file: its presence, with this content's `type`, makes a directory a store. */
export const STORE_MARKER = 'focuscrawl-store.json';
const MARKER_TYPE = 'focuscrawl-store';
/** The write-ahead journal (src/journal.ts). */
export const JOURNAL_FILE = 'focuscrawl.journal';
/** The live stats file (src/stats-live.ts writes it, through `stats.json.PID.tmp`). */
const LIVE_STATS = /^stats\.json(\.\d+\.tmp)?$/;
/** File names LevelDB writes in its directory (leveldb/db/filename.cc). */
const LEVELDB_FILE = /^(CURRENT|LOCK|LOG|LOG\.old|MANIFEST-\d+|\d+\.(log|ldb|sst|dbtmp))$/;

/** Whether `name` is a file focuscrawl writes in a store directory (the marker included). */
export function isStoreFile(name: string): boolean {
  return name === STORE_MARKER || name === JOURNAL_FILE || LIVE_STATS.test(name) || LEVELDB_FILE.test(name);
}

/**
 * What a --store directory holds:
 * - missing: no such directory
 * - empty: nothing in it
 * - store: the marker
 * - legacy: an earlier focuscrawl's store: its journal, no marker
 * - leveldb: a LevelDB without marker nor journal: a store older than the
 *   journal if its database has focuscrawl's counters, else someone else's
 * - foreign: anything else (not a store)
 */
export type StoreDirKind = 'missing' | 'empty' | 'store' | 'legacy' | 'leveldb' | 'foreign';

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/** Whether `file` is a marker focuscrawl wrote. */
async function isMarker(file: string): Promise<boolean> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as { type?: unknown } | null;
    return typeof v === 'object' && v !== null && v.type === MARKER_TYPE;
  } catch {
    return false;
  }
}

/**
 * Classify the directory `dir` (see StoreDirKind). Throws UsageError when
 * it is not a directory, StoreError when it cannot be read.
 */
export async function inspectStoreDir(dir: string): Promise<StoreDirKind> {
  let names: string[];
  try {
    if (!(await stat(dir)).isDirectory()) throw new UsageError(`--store ${dir} is not a directory`);
    names = await readdir(dir);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (errCode(err) === 'ENOENT') return 'missing';
    throw new StoreError(`cannot read store directory ${dir}: ${errCode(err) ?? (err as Error).message}`, { cause: err });
  }
  if (names.length === 0) return 'empty';
  if (names.includes(STORE_MARKER) && (await isMarker(path.join(dir, STORE_MARKER)))) return 'store';
  // the journal's name is focuscrawl's own: every store written since the journal has one
  if (names.includes(JOURNAL_FILE)) return 'legacy';
  if (names.includes('CURRENT') && names.some((n) => /^MANIFEST-\d+$/.test(n))) return 'leveldb';
  return 'foreign';
}

/** The refusal (FC_USAGE) of a directory that is not a store; `why` says what it holds. */
export function notAStore(dir: string, why = `other files and no ${STORE_MARKER}`): UsageError {
  return new UsageError(`--store ${dir} is not a focuscrawl store (${why}): nothing is written or deleted there; give a new or empty directory`);
}

/** Write the marker into `dir` (kept if there already). Throws StoreError. */
export async function writeStoreMarker(dir: string): Promise<void> {
  const body = `${JSON.stringify({ type: MARKER_TYPE, version: 1, created: new Date().toISOString() })}\n`;
  try {
    await writeFile(path.join(dir, STORE_MARKER), body, { flag: 'wx' });
  } catch (err) {
    if (errCode(err) === 'EEXIST') return;
    throw new StoreError(`cannot write store ${dir}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Create `dir` and its missing parents, one mkdir each (not fs.mkdir's
 * `recursive`, which in Node 20 retries forever where mkdir answers ENOENT
 * under an existing parent, e.g. /proc/nonexistent/x: issue 21). Throws
 * StoreError naming the directory.
 */
export async function makeStoreDir(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let p = path.resolve(dir); ; p = path.dirname(p)) {
    try {
      if (!(await stat(p)).isDirectory()) throw new StoreError(`cannot create store ${dir}: ${p} is not a directory`);
      break;
    } catch (err) {
      if (err instanceof StoreError) throw err;
      if (errCode(err) !== 'ENOENT') throw new StoreError(`cannot create store ${dir}: ${(err as Error).message}`, { cause: err });
      missing.push(p);
      if (path.dirname(p) === p) break;
    }
  }
  for (const p of missing.reverse()) {
    try {
      await mkdir(p);
    } catch (err) {
      if (errCode(err) === 'EEXIST') continue;
      throw new StoreError(`cannot create store ${dir}: ${(err as Error).message}`, { cause: err });
    }
  }
}

/**
 * Delete the store's own files in `dir` (isStoreFile, the marker excepted),
 * nothing else; the directory stays a store. Returns the names deleted.
 */
export async function removeStoreFiles(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || entry.name === STORE_MARKER || !isStoreFile(entry.name)) continue;
    await rm(path.join(dir, entry.name), { force: true });
    removed.push(entry.name);
  }
  return removed;
}
