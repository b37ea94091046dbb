/**
 * The crawl state store as the pipeline, the sink, the stats and the host
 * budget use it: exactly the methods they call. Two backends implement it:
 * CrawlStore (src/store/level.ts, LevelDB, embedded, the default) and RedisStore
 * (src/store/redis.ts, `--store redis://HOST:PORT/DB`, shared by several
 * crawl workers). One contract test suite (test/store.test.ts) runs against
 * both.
 */
import type { FrontierEntry, Rescore } from '../types.ts';

/** A link to enqueue from a committed page (already canonical and deduplicated). */
export interface CommitLink {
  url: string;
  score: number;
  depth: number;
  parent: string;
  anchor?: string;
  context?: string;
  offTopicHops?: number;
}

/** Everything one fetched page changes in the store, written atomically by `commit`. */
export interface Commit {
  /** the entry that was fetched (its URL is marked done and leaves the frontier) */
  entry: FrontierEntry;
  /** the output record, appended to the log */
  record: object;
  /**
   * `JSON.stringify(record)`, when the caller made it already (the sink,
   * for the record's NDJSON line): a store may keep it instead of encoding
   * the record again
   */
  recordJson?: string;
  /** whether the record counts towards `pages` */
  countsAsPage: boolean;
  /** redirect hops: canonical URLs also marked done and removed from the frontier */
  alsoDone?: string[];
  /**
   * the fetch got no answer (FC_NETWORK, FC_TIMEOUT after its retries): the
   * URL is done for this run (its record is logged, links to it are not
   * queued) but parked, and {@link Store.requeueParked} (the next run's
   * start) queues it again. A definitive answer (any HTTP status, a robots
   * refusal) leaves this unset: done for good.
   */
  retryLater?: boolean;
  links: CommitLink[];
  /**
   * store the links' anchor and context in their frontier entries (default
   * true); false for a strategy that never reads them back from the frontier
   * (Scorer.readsQueuedText): they are most of an entry's bytes
   */
  keepText?: boolean;
}

/** A frontier entry with its key. */
export interface KeyedFrontierEntry {
  key: string;
  entry: FrontierEntry;
}

/** What one successful batch did to the frontier: keys put and keys deleted. */
export interface FrontierDelta {
  added: KeyedFrontierEntry[];
  removed: string[];
}

export interface CommitHooks {
  /**
   * Called synchronously right after the batch is journaled (the commit) and
   * before LevelDB gets it, after every read the commit needed. The sink
   * writes the page's stdout record here, so the record and the durable
   * commit are microseconds apart whatever else the process is doing (see
   * src/stages/sink.ts). A journaled commit stands even if this throws.
   */
  beforeBatch?: () => void;
}

export interface StoreOptions {
  /** keep at most this many frontier entries, evicting the lowest priority (default Infinity) */
  maxFrontier?: number;
  /**
   * Called synchronously after each addSeeds/commit/retry/reprioritise
   * batch is committed, with the frontier keys it put and deleted (for an
   * in-memory frontier head); with write-behind, before LevelDB holds them.
   * Must not throw: the batch is already committed when it runs.
   */
  onFrontierChange?: (delta: FrontierDelta) => void;
  /**
   * The journal file for a database passed in (a store in a directory
   * always keeps one there): commits are journaled and written behind, as
   * in a directory store, and open() replays the journal.
   */
  journal?: string;
  /** seen marks kept in memory: a power of two, at least 16 (default 262,144, 6.6 MB) */
  seenCacheSlots?: number;
}

/** Options of a commit or retry that only a shared (multi-worker) store uses. */
export interface HostRelease {
  /**
   * Milliseconds the URL's host must wait, from now, before the next
   * request to it by any worker (politeness delay and retry backoff). A
   * store without cross-worker politeness ignores it.
   */
  hostDelayMs?: number;
}

export interface Store {
  /** URLs queued (taken, uncommitted URLs included) */
  readonly frontierSize: number;
  /** committed records that counted as pages */
  readonly pages: number;
  /** committed records whose type is 'error' */
  readonly errors: number;
  /** committed records (the log length) */
  readonly committed: number;
  /**
   * How many commits the sink may have in flight at once (default 1: each
   * awaited before the next). A store whose commits apply in call order and
   * cost a network round-trip each (Redis) sets more, so the round-trips
   * overlap; each record is still printed only once its commit is answered.
   */
  readonly commitWindow?: number;
  /** enqueue seeds; returns how many URLs were added */
  addSeeds(entries: FrontierEntry[]): Promise<number>;
  /** best-first frontier entries with their keys; `gt` resumes after a key */
  frontier(opts?: { gt?: string }): AsyncGenerator<{ key: string; entry: FrontierEntry }>;
  /** whether a canonical URL is queued, done, or unknown (null) */
  status(url: string): Promise<'queued' | 'done' | null>;
  /** record one fetched page atomically (see CrawlStore.commit) */
  commit(c: Commit & HostRelease, hooks?: CommitHooks): Promise<{ added: number; raised: number }>;
  /** queue again the URLs parked by commits with `retryLater` (see CrawlStore.requeueParked); returns how many */
  requeueParked(): Promise<number>;
  /** put a taken URL back for another attempt */
  retry(entry: FrontierEntry, opts?: HostRelease): Promise<void>;
  /** new priorities for queued URLs; returns how many moved */
  reprioritise(updates: readonly Rescore[]): Promise<number>;
  /** committed records in commit order; `gt` is a log key (see logKey) */
  log(opts?: { gt?: string }): AsyncGenerator<object>;
  getMeta(key: string): Promise<unknown>;
  putMeta(key: string, value: unknown): Promise<void>;
  close(): Promise<void>;
}

/** True for a `--store` value that names a Redis server rather than a directory. */
export function isRedisStore(location: string): boolean {
  return /^rediss?:\/\//i.test(location);
}
