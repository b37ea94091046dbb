/**
 * The head of the frontier, kept in memory: the best `capacity` entries of
 * the LevelDB frontier, so the frontier source can pick the best URL whose
 * host is free without scanning LevelDB for every fetch.
 *
 * Invariant: every frontier entry in the store whose key is <= `mark` is in
 * the buffer, or has been taken by the crawler (in flight). Entries beyond
 * `mark` live only in the store and are loaded a chunk at a time when the
 * buffer runs low, or when everything buffered belongs to busy hosts
 * (`grow`), up to `capacity` entries in memory.
 * The store reports every change it commits (`apply`), so new links that beat
 * the buffer's worst entry enter it at once; others wait in LevelDB. Changes
 * that arrive while a load is running are replayed after it, because the
 * load's iterator reads a snapshot taken before them.
 */
import type { FrontierEntry } from './types.ts';

export interface KeyedEntry {
  key: string;
  entry: FrontierEntry;
}

/** What one store batch did to the frontier. */
export interface FrontierChange {
  added: KeyedEntry[];
  removed: string[];
}

export type Verdict = 'take' | 'fallback' | 'skip';

/**
 * What the frontier source needs of a head: FrontierHead (a local buffer of
 * the LevelDB frontier) or ClaimHead (URLs leased from a Redis store shared
 * by several workers, src/store/redis.ts).
 */
export interface FrontierHeadLike {
  readonly size: number;
  /** nothing is left to take, now or later (the source may end) */
  readonly complete: boolean;
  refill(): Promise<void>;
  take(verdict: (e: KeyedEntry) => Verdict, above?: number): KeyedEntry | null;
  grow(): Promise<boolean>;
  scanBeyond(verdict: (e: KeyedEntry) => Verdict): Promise<KeyedEntry | null>;
  /** ms the source may sleep before asking again when nothing was takeable (default: until woken) */
  waitMs?(): number;
  /** the best buffered entry (see FrontierHead.best) */
  best?(): KeyedEntry | undefined;
  /** a buffered score by rank (see FrontierHead.scoreAt) */
  scoreAt?(fraction: number): number;
}

/**
 * Entries a FrontierHead holds by default. The buffer is a sorted array, so
 * an insert moves up to this many pointers: at 16,384 the inserts of a
 * 100-links-per-page crawl took 3.5% of its CPU and the crawl 20–30% more
 * time than at 4,096 (BENCHMARKS.md, synthetic web); 4,096 still leaves
 * thousands of entries to choose from when hosts are busy.
 */
export const DEFAULT_HEAD_CAPACITY = 4096;

export class FrontierHead implements FrontierHeadLike {
  readonly #load: (gt: string | undefined, limit: number) => Promise<KeyedEntry[]>;
  readonly #capacity: number;
  readonly #low: number;
  readonly #chunk: number;
  #buf: KeyedEntry[] = [];
  #mark: string | undefined = undefined;
  /** the score of the entry whose key is #mark */
  #markScore = -Infinity;
  #exhausted = false;
  #loading: FrontierChange[] | null = null;
  /** where the last scanBeyond stopped */
  #cursor: string | undefined = undefined;

  /**
   * @param load reads up to `limit` store entries with key > `gt` (all when
   *   undefined), best first
   */
  constructor(opts: { load: (gt: string | undefined, limit: number) => Promise<KeyedEntry[]>; capacity?: number }) {
    this.#load = opts.load;
    this.#capacity = Math.max(4, opts.capacity ?? DEFAULT_HEAD_CAPACITY);
    this.#low = Math.max(1, Math.floor(this.#capacity / 8));
    this.#chunk = Math.max(2, Math.floor(this.#capacity / 4));
  }

  get size(): number {
    return this.#buf.length;
  }

  /** True when the store holds no entry that is not in the buffer. */
  get complete(): boolean {
    return this.#exhausted;
  }

  /**
   * The lowest priority a store entry can have and be buffered (or be about
   * to be: the next load starts beyond it); -Infinity while the buffer holds
   * the whole frontier or nothing was loaded yet. An entry whose priority
   * moves between two values below it changes nothing the crawler takes
   * until the buffer is loaded past it (the re-scores of the link-graph
   * strategies wait for that: see Scorer.rescore).
   */
  get floor(): number {
    return this.#exhausted || this.#mark === undefined ? -Infinity : this.#markScore;
  }

  /** The best buffered entry: the one the crawler takes as soon as its host is free. */
  best(): KeyedEntry | undefined {
    return this.#buf[0];
  }

  /**
   * The score of the buffered entry `fraction` of the way down the buffer
   * (0: the best, 0.5: the median, 1: the worst); -Infinity when it is
   * empty. Every store entry beyond the buffer scores at most the worst.
   */
  scoreAt(fraction: number): number {
    const n = this.#buf.length;
    if (n === 0) return -Infinity;
    return this.#buf[Math.min(n - 1, Math.max(0, Math.floor(fraction * (n - 1))))].entry.score;
  }

  /** Record a committed change to the store's frontier. */
  apply(change: FrontierChange): void {
    if (this.#loading !== null) {
      this.#loading.push(change);
      return;
    }
    for (const key of change.removed) this.#remove(key);
    for (const ke of change.added) {
      if (this.#exhausted || (this.#mark !== undefined && ke.key <= this.#mark)) this.#insert(ke);
    }
    while (this.#buf.length > this.#capacity) {
      this.#buf.pop();
      const last = this.#buf[this.#buf.length - 1];
      this.#mark = last.key;
      this.#markScore = last.entry.score;
      this.#exhausted = false;
    }
  }

  /** Load more entries from the store when the buffer runs low. */
  async refill(): Promise<void> {
    if (this.#buf.length < this.#low) await this.#loadMore();
  }

  /**
   * Load one more chunk even though the buffer is not low, up to its
   * capacity: for when every buffered entry is skipped (busy hosts) and the
   * store may hold takeable ones beyond. True when entries were loaded.
   */
  async grow(): Promise<boolean> {
    const before = this.#buf.length;
    await this.#loadMore();
    return this.#buf.length > before;
  }

  /**
   * When the buffer is full and every entry in it is skipped (busy hosts),
   * look at up to `limit` store entries beyond it for one the verdict takes,
   * resuming where the previous scan stopped. The entry found is not
   * buffered: it is taken as it is (the caller puts it in flight; a later
   * refill that meets it sees it in flight and skips it).
   */
  async scanBeyond(verdict: (e: KeyedEntry) => Verdict, limit = 4096): Promise<KeyedEntry | null> {
    if (this.#exhausted || this.#mark === undefined) return null; // all of the store is buffered
    let from = this.#cursor !== undefined && this.#cursor > this.#mark ? this.#cursor : this.#mark;
    for (let seen = 0; seen < limit; ) {
      const want = Math.min(this.#chunk, limit - seen);
      const rows = await this.#load(from, want);
      for (const ke of rows) {
        if (verdict(ke) === 'take') {
          this.#cursor = ke.key;
          return ke;
        }
      }
      seen += rows.length;
      if (rows.length < want) break;
      from = rows[rows.length - 1].key;
    }
    this.#cursor = undefined; // next time, from the mark again
    return null;
  }

  async #loadMore(): Promise<void> {
    if (this.#exhausted || this.#loading !== null || this.#buf.length >= this.#capacity) return;
    this.#loading = [];
    const want = Math.min(this.#chunk, this.#capacity - this.#buf.length);
    let rows: KeyedEntry[] = [];
    let failure: unknown = null;
    try {
      rows = await this.#load(this.#mark, want);
    } catch (err) {
      failure = err;
    }
    const pending = this.#loading;
    this.#loading = null;
    if (failure === null) {
      for (const ke of rows) if (this.#mark === undefined || ke.key > this.#mark) this.#insert(ke);
      if (rows.length > 0) {
        const last = rows[rows.length - 1];
        this.#mark = last.key;
        this.#markScore = last.entry.score;
      }
      if (rows.length < want) this.#exhausted = true;
    }
    for (const change of pending) this.apply(change);
    if (failure !== null) throw failure;
  }

  /**
   * Remove and return the best entry the verdict function takes; if none is
   * taken, the best 'fallback' entry; else null. 'skip' entries stay. With
   * `above`, only entries scoring more than it are looked at.
   */
  take(verdict: (e: KeyedEntry) => Verdict, above = -Infinity): KeyedEntry | null {
    let fallback = -1;
    const bounded = above > -Infinity;
    for (let i = 0; i < this.#buf.length && !(bounded && this.#buf[i].entry.score <= above); i++) {
      const v = verdict(this.#buf[i]);
      if (v === 'take') return this.#buf.splice(i, 1)[0];
      if (v === 'fallback' && fallback < 0) fallback = i;
    }
    return fallback >= 0 ? this.#buf.splice(fallback, 1)[0] : null;
  }

  #search(key: string): number {
    let lo = 0;
    let hi = this.#buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#buf[mid].key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #insert(ke: KeyedEntry): void {
    const i = this.#search(ke.key);
    if (this.#buf[i]?.key !== ke.key) this.#buf.splice(i, 0, ke);
  }

  #remove(key: string): void {
    const i = this.#search(key);
    if (this.#buf[i]?.key === key) this.#buf.splice(i, 1);
  }
}
