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
import { MinHeap } from '../util/heap.ts';
import { SortedEntries } from './sorted-entries.ts';
import { hostOfCanonical } from '../urls/canonical.ts';
import type { FrontierEntry } from '../types.ts';

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
 * When the hosts of buffered entries may be fetched (src/frontier/politeness.ts's
 * HostScheduler is one). Given to {@link FrontierHead.take}, it lets the
 * head set a busy host's entries aside until the host's time comes (or it
 * is released) instead of examining them on every take.
 */
export interface HostGate {
  /** now, on the clock of readyAt (ms) */
  now(): number;
  /**
   * When a request to `host` may start: a time <= now() when it may now;
   * Infinity when not before one of its requests ends (the caller then
   * calls {@link FrontierHead.release}). It must not move earlier but by
   * the passing of time or a release.
   */
  readyAt(host: string): number;
}

/** The buffered entries of one host, and where the host stands in take()'s indexes. */
interface HostQueue {
  host: string;
  /** sorted by key, best first */
  entries: KeyedEntry[];
  /** the key under which it is (validly) in #ready; null while it is not */
  readyKey: string | null;
  /** 0: not parked; else parked until then (HostGate clock), Infinity: until released */
  parkedUntil: number;
  /** the take() call that last asked the gate about it */
  checkedIn: number;
}

interface ReadyItem {
  key: string;
  score: number;
  q: HostQueue;
}

interface ParkedItem {
  at: number;
  q: HostQueue;
}

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
  take(verdict: (e: KeyedEntry) => Verdict, above?: number, gate?: HostGate): KeyedEntry | null;
  /** a request to `host` ended: entries set aside for it may be taken again (see HostGate) */
  release?(host: string): void;
  grow(): Promise<boolean>;
  scanBeyond(verdict: (e: KeyedEntry) => Verdict, limit?: number, gate?: HostGate): Promise<KeyedEntry | null>;
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
  /** the buffer, sorted by key (best first) */
  readonly #buf = new SortedEntries();
  #mark: string | undefined = undefined;
  /** the score of the entry whose key is #mark */
  #markScore = -Infinity;
  #exhausted = false;
  #loading: FrontierChange[] | null = null;
  /**
   * What scanBeyond has read of the store beyond the buffer: every store
   * entry with a key in (#mark, #beyondEnd] is in #beyond (sorted by key)
   * or was taken by the crawler (in flight). Kept so that store entries of
   * hosts that must wait are read from LevelDB once, not on every scan
   * (issue 23: a polite crawl re-read a chunk of 1,024 rows for each URL it
   * took beyond the buffer). Changes keep it true (apply); a buffer that
   * gives entries back to the store (its mark moves down) drops it.
   */
  readonly #beyond = new SortedEntries();
  #beyondEnd: string | undefined = undefined;
  /** #beyond reaches the store's end: it holds every entry beyond the mark (none in flight) */
  #beyondAll = false;
  /** changes committed while scanBeyond's read runs (its snapshot misses them); null when none runs */
  #beyondLoading: FrontierChange[] | null = null;
  /** store entries scanBeyond has read from the store */
  #beyondRead = 0;
  /** #beyond again, by host: scanBeyond with a HostGate never walks the entries of a host that must wait */
  readonly #beyondHosts = new HostIndex();
  /** the buffer again, by host (take() with a HostGate) */
  readonly #hosts = new HostIndex();
  /** verdicts asked by take() without a gate */
  #examined = 0;

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

  /** How many entries take() has passed to its verdict function so far. */
  get examined(): number {
    return this.#examined + this.#hosts.examined;
  }

  /** How many store entries scanBeyond has read from the store so far. */
  get beyondRead(): number {
    return this.#beyondRead;
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
    return this.#buf.at(0);
  }

  /**
   * The score of the buffered entry `fraction` of the way down the buffer
   * (0: the best, 0.5: the median, 1: the worst); -Infinity when it is
   * empty. Every store entry beyond the buffer scores at most the worst.
   */
  scoreAt(fraction: number): number {
    const n = this.#buf.length;
    if (n === 0) return -Infinity;
    return this.#buf.at(Math.min(n - 1, Math.max(0, Math.floor(fraction * (n - 1)))))!.entry.score;
  }

  /** Record a committed change to the store's frontier. */
  apply(change: FrontierChange): void {
    this.#beyondLoading?.push(change);
    if (this.#loading !== null) {
      this.#loading.push(change);
      return;
    }
    this.#applyBeyond(change);
    for (const key of change.removed) this.#remove(key);
    for (const ke of change.added) {
      if (this.#exhausted || (this.#mark !== undefined && ke.key <= this.#mark)) this.#insert(ke);
    }
    while (this.#buf.length > this.#capacity) {
      this.#hosts.remove(this.#buf.pop()!);
      const last = this.#buf.last()!;
      this.#mark = last.key;
      this.#markScore = last.entry.score;
      this.#exhausted = false;
      this.#dropBeyond(); // entries between the new mark and the window's start are in neither
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
   * look at up to `limit` store entries beyond it, best first, for one the
   * verdict takes. The entry found is not buffered: it is taken as it is
   * (the caller puts it in flight; a later refill that meets it sees it in
   * flight and skips it). The entries read are kept (up to the buffer's
   * capacity, kept true by {@link apply}), so a scan reads from the store
   * only what no earlier scan read: the entries of hosts that must wait are
   * read once, not once per scan. With a `gate`, as in take(), the entries
   * read are indexed by host and a host that must wait is parked until its
   * time or its release: a scan never walks its entries (issue 23: walking
   * them cost 2–3 million rows in a 6,000-page crawl at --delay-ms 1000).
   * Then `limit` bounds the entries held and read, not those looked at.
   */
  async scanBeyond(verdict: (e: KeyedEntry) => Verdict, limit = 4096, gate?: HostGate): Promise<KeyedEntry | null> {
    if (this.#exhausted || this.#mark === undefined) {
      this.#dropBeyond();
      return null; // all of the store is buffered
    }
    const mark = this.#mark;
    // the buffer may have grown past the window's start
    if (this.#beyondEnd !== undefined && this.#beyondEnd <= mark) this.#dropBeyond();
    let drop = 0;
    while (drop < this.#beyond.length && this.#beyond.at(drop)!.key <= mark) drop++;
    if (drop > 0) for (const ke of this.#beyond.removeRange(0, drop)) this.#beyondHosts.remove(ke);
    // with a gate: the best entry of a host let through now, from the host index (a host that must wait is parked)
    const takes = gate === undefined ? null : (ke: KeyedEntry): Verdict => (verdict(ke) === 'take' ? 'take' : 'skip');
    const fromIndex = (): KeyedEntry | null => {
      const got = this.#beyondHosts.pick(takes!, -Infinity, gate!);
      if (got === undefined) return null;
      const at = this.#beyond.search(got.key);
      if (at < this.#beyond.length) this.#beyond.removeAt(at);
      return got;
    };
    // first the entries already read, then more of the store, up to `limit` in all
    let seen = 0;
    if (takes !== null) {
      const got = fromIndex();
      if (got !== null) return got;
      seen = this.#beyond.length;
    } else {
      for (; seen < this.#beyond.length && seen < limit; seen++) {
        if (verdict(this.#beyond.at(seen)!) === 'take') return this.#takeBeyondAt(seen);
      }
    }
    if (seen < this.#beyond.length) return null; // the window alone holds `limit` entries
    while (seen < limit && !this.#beyondAll) {
      const from = this.#beyondEnd ?? mark;
      const want = Math.min(this.#chunk, limit - seen);
      // changes committed during the read are replayed on its rows: its snapshot may predate them
      this.#beyondLoading = [];
      let rows: KeyedEntry[];
      try {
        rows = await this.#load(from, want);
      } catch (err) {
        this.#beyondLoading = null;
        throw err;
      }
      const pending = this.#beyondLoading;
      this.#beyondLoading = null;
      this.#beyondRead += rows.length;
      if (this.#mark !== mark || this.#exhausted || (this.#beyondEnd ?? mark) !== from) {
        // the buffer moved while reading: start over next time
        this.#dropBeyond();
        return null;
      }
      const start = this.#beyond.length;
      for (const ke of rows) {
        this.#beyond.push(ke);
        this.#beyondHosts.add(ke);
      }
      if (rows.length > 0) this.#beyondEnd = rows[rows.length - 1].key;
      else this.#beyondEnd ??= mark;
      // the store's end: every later addition beyond the mark lands in the window
      if (rows.length < want) this.#beyondAll = true;
      for (const change of pending) this.#applyBeyond(change);
      if (takes !== null) {
        const got = fromIndex();
        if (got !== null) return got;
        seen += rows.length;
        continue;
      }
      for (let k = start; k < this.#beyond.length; k++, seen++) {
        if (verdict(this.#beyond.at(k)!) === 'take') return this.#takeBeyondAt(k);
      }
    }
    return null;
  }

  #takeBeyondAt(i: number): KeyedEntry {
    const ke = this.#beyond.removeAt(i);
    this.#beyondHosts.remove(ke);
    return ke;
  }

  /** Keep #beyond true to a committed change (see its invariant). */
  #applyBeyond(change: FrontierChange): void {
    const end = this.#beyondEnd;
    if (end === undefined) return;
    const all = this.#beyondAll;
    for (const key of change.removed) {
      if (key > end && !all) continue;
      const i = this.#beyond.search(key);
      if (this.#beyond.at(i)?.key === key) this.#beyondHosts.remove(this.#beyond.removeAt(i));
    }
    for (const ke of change.added) {
      if ((ke.key > end && !all) || (this.#mark !== undefined && ke.key <= this.#mark)) continue;
      const i = this.#beyond.search(ke.key);
      if (this.#beyond.at(i)?.key !== ke.key) {
        this.#beyond.insert(i, ke);
        this.#beyondHosts.add(ke);
      }
    }
    if (this.#beyond.length > this.#capacity) {
      // as large as the buffer at most: the worst entries are forgotten (read again when a scan gets there)
      for (const ke of this.#beyond.removeRange(this.#capacity, Infinity)) this.#beyondHosts.remove(ke);
      this.#beyondEnd = this.#beyond.at(this.#capacity - 1)!.key;
      this.#beyondAll = false;
    }
  }

  #dropBeyond(): void {
    this.#beyond.clear();
    this.#beyondHosts.clear();
    this.#beyondEnd = undefined;
    this.#beyondAll = false;
  }

  async #loadMore(): Promise<void> {
    if (this.#exhausted || this.#loading !== null || this.#buf.length >= this.#capacity) return;
    const want = Math.min(this.#chunk, this.#capacity - this.#buf.length);
    if (this.#loadFromWindow(want)) return;
    this.#loading = [];
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
   * Buffer up to `want` entries from what scanBeyond has read, without a
   * store read: by #beyond's invariant they are the store's next entries
   * after the mark (less those in flight, which a store read would return
   * only for take() to skip). False when the window does not go on from the
   * mark (the store must be read). Issue 23: a polite crawl's source, when
   * every buffered host waits, grows the buffer by the few entries it took
   * since; each such growth was a LevelDB read (~480 in a 6,000-page list
   * crawl at --delay-ms 1000 on 200 hosts), now a move from memory.
   */
  #loadFromWindow(want: number): boolean {
    const mark = this.#mark;
    if (mark === undefined || this.#beyondEnd === undefined || this.#beyondLoading !== null) return false;
    if (this.#beyondEnd <= mark) {
      this.#dropBeyond();
      return false;
    }
    // a store read may have buffered the window's first entries already
    let drop = 0;
    while (drop < this.#beyond.length && this.#beyond.at(drop)!.key <= mark) drop++;
    if (drop > 0) for (const ke of this.#beyond.removeRange(0, drop)) this.#beyondHosts.remove(ke);
    if (this.#beyond.length === 0 && !this.#beyondAll) return false;
    const moved = this.#beyond.removeRange(0, want);
    for (const ke of moved) {
      this.#beyondHosts.remove(ke);
      this.#insert(ke);
    }
    if (moved.length > 0) {
      const last = moved[moved.length - 1];
      this.#mark = last.key;
      this.#markScore = last.entry.score;
    }
    if (this.#beyond.length === 0 && this.#beyondAll) {
      // every store entry beyond the mark was in the window: the buffer now holds all but those in flight
      this.#exhausted = true;
      this.#dropBeyond();
    }
    return true;
  }

  /**
   * Remove and return the best entry the verdict function takes; if none is
   * taken, the best 'fallback' entry; else null. 'skip' entries stay. With
   * `above`, only entries scoring more than it are looked at.
   *
   * With a `gate`, the verdict is asked only about entries of hosts the gate
   * lets through now: a host that must wait is parked, and none of its
   * entries is looked at again until its time (gate.readyAt) has come or it
   * is released ({@link release}). What is taken is the same as without.
   */
  take(verdict: (e: KeyedEntry) => Verdict, above = -Infinity, gate?: HostGate): KeyedEntry | null {
    return gate === undefined ? this.#takeScanning(verdict, above) : this.#takeByHost(verdict, above, gate);
  }

  /** A request to `host` ended: if its entries were set aside, take() looks at them again. */
  release(host: string): void {
    this.#hosts.release(host);
    this.#beyondHosts.release(host);
  }

  #takeScanning(verdict: (e: KeyedEntry) => Verdict, above: number): KeyedEntry | null {
    let fallback = -1;
    const bounded = above > -Infinity;
    for (let i = 0; i < this.#buf.length && !(bounded && this.#buf.at(i)!.entry.score <= above); i++) {
      this.#examined++;
      const v = verdict(this.#buf.at(i)!);
      if (v === 'take') return this.#takeAt(i);
      if (v === 'fallback' && fallback < 0) fallback = i;
    }
    return fallback >= 0 ? this.#takeAt(fallback) : null;
  }

  #takeAt(i: number): KeyedEntry {
    const ke = this.#buf.removeAt(i);
    this.#hosts.remove(ke);
    return ke;
  }

  #takeByHost(verdict: (e: KeyedEntry) => Verdict, above: number, gate: HostGate): KeyedEntry | null {
    const got = this.#hosts.pick(verdict, above, gate);
    if (got === undefined) return null;
    const at = this.#buf.search(got.key);
    if (at < this.#buf.length) this.#buf.removeAt(at);
    return got;
  }

  #insert(ke: KeyedEntry): void {
    const i = this.#buf.search(ke.key);
    if (this.#buf.at(i)?.key !== ke.key) {
      this.#buf.insert(i, ke);
      this.#hosts.add(ke);
    }
  }

  #remove(key: string): void {
    const i = this.#buf.search(key);
    if (this.#buf.at(i)?.key === key) this.#hosts.remove(this.#buf.removeAt(i));
  }
}

/**
 * Entries again, by host (take() with a HostGate): every host not parked is
 * in #ready under its best entry's key (plus stale items, whose key is not
 * the host's readyKey), a parked one in #parked when it waits for a time.
 * So a pick looks at the hosts in the order of their best entries and never
 * at the entries of a parked host.
 */
class HostIndex {
  readonly #byHost = new Map<string, HostQueue>();
  readonly #ready = new MinHeap<ReadyItem>((a, b) => a.key < b.key);
  readonly #parked = new MinHeap<ParkedItem>((a, b) => a.at < b.at);
  #takes = 0;
  /** verdicts asked by pick() */
  examined = 0;

  /** A request to `host` ended: if its entries were set aside, pick() looks at them again. */
  release(host: string): void {
    const q = this.#byHost.get(host);
    if (q === undefined || q.parkedUntil === 0) return;
    q.parkedUntil = 0;
    this.#enqueue(q);
  }

  /** Forget every entry. */
  clear(): void {
    this.#byHost.clear();
    this.#ready.filter(() => false);
    this.#parked.filter(() => false);
  }

  /**
   * The best entry the verdict takes among the hosts the gate lets through
   * now, else the first 'fallback' one (in key order); undefined when none.
   * It leaves the index (the caller removes it from its own list). Hosts that must wait are parked until gate.readyAt (or a
   * release).
   */
  pick(verdict: (e: KeyedEntry) => Verdict, above: number, gate: HostGate): KeyedEntry | undefined {
    const now = gate.now();
    for (let p = this.#parked.peek(); p !== undefined && p.at <= now; p = this.#parked.peek()) {
      this.#parked.pop();
      if (this.#byHost.get(p.q.host) === p.q && p.q.parkedUntil === p.at) {
        p.q.parkedUntil = 0;
        this.#enqueue(p.q);
      }
    }
    const take = ++this.#takes;
    const bounded = above > -Infinity;
    /** hosts looked at (not parked): back into #ready under their best key afterwards */
    const touched: HostQueue[] = [];
    let picked: KeyedEntry | undefined;
    let fallback: KeyedEntry | undefined;
    while (picked === undefined) {
      const item = this.#ready.peek();
      if (item === undefined) break;
      const q = item.q;
      if (q.readyKey !== item.key) {
        this.#ready.pop(); // stale
        continue;
      }
      if (bounded && item.score <= above) break;
      this.#ready.pop();
      if (q.checkedIn !== take) {
        q.checkedIn = take;
        const at = gate.readyAt(q.host);
        if (at > now) {
          q.parkedUntil = at;
          q.readyKey = null;
          if (at < Infinity) this.#parked.push({ at, q });
          continue;
        }
        touched.push(q);
      }
      const i = searchKey(q.entries, item.key);
      const ke = q.entries[i];
      this.examined++;
      const v = verdict(ke);
      if (v === 'take') {
        picked = ke;
      } else if (v === 'fallback') {
        fallback ??= ke; // the first in key order, as the scan finds it; the host's later entries come after it
        q.readyKey = null;
      } else {
        // this entry is skipped (in flight): the host's next one, in its turn
        const next = q.entries[i + 1];
        q.readyKey = next === undefined ? null : next.key;
        if (next !== undefined) this.#ready.push({ key: next.key, score: next.entry.score, q });
      }
    }
    const got = picked ?? fallback;
    if (got !== undefined) this.remove(got, false);
    for (const q of touched) {
      if (this.#byHost.get(q.host) === q && q.parkedUntil === 0) this.#enqueue(q);
    }
    if (this.#ready.size > 2 * this.#byHost.size + 1024) this.#ready.filter((it) => it.q.readyKey === it.key);
    if (this.#parked.size > 2 * this.#byHost.size + 1024) {
      this.#parked.filter((it) => this.#byHost.get(it.q.host) === it.q && it.q.parkedUntil === it.at);
    }
    return got;
  }

  /** Put `q` (not parked, not empty) into #ready under its best key. */
  #enqueue(q: HostQueue): void {
    const best = q.entries[0];
    q.readyKey = best.key;
    this.#ready.push({ key: best.key, score: best.entry.score, q });
  }

  /** Index a buffered entry under its host. */
  add(ke: KeyedEntry): void {
    const host = hostOfCanonical(ke.entry.url);
    let q = this.#byHost.get(host);
    if (q === undefined) {
      q = { host, entries: [], readyKey: null, parkedUntil: 0, checkedIn: 0 };
      this.#byHost.set(host, q);
    }
    const i = searchKey(q.entries, ke.key);
    q.entries.splice(i, 0, ke);
    if (i === 0 && q.parkedUntil === 0) this.#enqueue(q);
  }

  /** Forget a buffered entry in the host index; `requeue`: re-key its host in #ready when it was its best. */
  remove(ke: KeyedEntry, requeue = true): void {
    const q = this.#byHost.get(hostOfCanonical(ke.entry.url));
    if (q === undefined) return;
    const i = searchKey(q.entries, ke.key);
    if (q.entries[i]?.key !== ke.key) return;
    q.entries.splice(i, 1);
    if (q.entries.length === 0) {
      this.#byHost.delete(q.host);
      q.readyKey = null;
    } else if (requeue && i === 0 && q.parkedUntil === 0) {
      this.#enqueue(q);
    }
  }
}

/** Where `key` is, or would go, in `entries` (sorted by key). */
function searchKey(entries: KeyedEntry[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
