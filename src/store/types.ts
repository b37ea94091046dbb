/**
 * The crawl state store as the pipeline, the sink, the stats and the host
 * budget use it: exactly the methods they call. Two backends implement it:
 * CrawlStore (src/store.ts, LevelDB, embedded, the default) and RedisStore
 * (src/store/redis.ts, `--store redis://HOST:PORT/DB`, shared by several
 * crawl workers). One contract test suite (test/store.test.ts) runs against
 * both.
 */
import type { Commit, CommitHooks } from '../store.ts';
import type { FrontierEntry, Rescore } from '../types.ts';

export type { Commit, CommitHooks, CommitLink, FrontierDelta, KeyedFrontierEntry, StoreOptions } from '../store.ts';

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
