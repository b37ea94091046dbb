/**
 * The crawl state store: frontier, seen set, output log and counters in one
 * LevelDB (classic-level via `level`), so a killed crawl resumes where its
 * last commit left it.
 *
 * Layout (five sublevels of one database, all values JSON):
 *   frontier  frontierKey(score, seq) -> FrontierEntry   (forward order = best first)
 *   seen      urlKey(url) -> { s: 'q', k: frontier key, score } | { s: 'd' }
 *   log       logKey(n)   -> the n-th committed output record (n from 1)
 *   meta      '_counters' -> Counters; any other key -> caller's JSON (putMeta)
 *   parked    urlKey(url) -> FrontierEntry of a URL that failed at the network
 *             level (Commit.retryLater): done for this run, queued again by
 *             the next run's requeueParked()
 *
 * Every mutation (addSeeds, commit) is ONE atomic batch across the
 * sublevels that also rewrites the counters. A store in a directory appends
 * each batch to a synchronous journal first (src/store/journal.ts), which is the
 * instant a commit happens; open() replays journaled batches LevelDB had not
 * applied. The frontier source only reads; only commit removes a URL from the
 * frontier, so a URL taken but not committed before a crash is still queued
 * after reopen.
 *
 * Write-behind (journaled stores): a mutation is done once its batch is in
 * the journal; LevelDB gets it later, grouped with the batches committed
 * meanwhile into one `db.batch`, one group at a time in commit order. The
 * next commit does not wait for LevelDB: its seen reads (and `status`) look
 * at the groups not yet written first, and every other read (frontier, log,
 * eviction, re-prioritising, retry) waits until the groups committed before
 * it are written. Each
 * LevelDB write is a round trip to a worker thread, during which the crawl's
 * one thread had nothing to do: one per page cost 10-15% of the synthetic
 * crawl's time (BENCHMARKS.md). A failed group write fails every later
 * operation with its StoreError; the journal still holds the group, so a
 * reopen replays it. Without a journal (a database passed in), each
 * mutation waits for its own batch and a failed one leaves no trace.
 */
import type { AbstractLevel, AbstractSublevel, AbstractBatchOperation } from 'abstract-level';
import { Level } from 'level';
import path from 'node:path';
import { StoreError, StoreLockedError, UsageError } from '../errors.ts';
import { Journal, type JournalOp } from './journal.ts';
import { SEEN_CACHE_WAYS, SeenCache } from './seen-cache.ts';
import { SeenFilter } from './seen-filter.ts';
import { KeyTable } from '../util/key-table.ts';
import { STORE_LEVELDB_OPTIONS } from './options.ts';
import { JOURNAL_FILE, inspectStoreDir, makeStoreDir, notAStore, writeStoreMarker } from './dir.ts';
import { frontierKey, logKey, seqOf } from './keys.ts';
import type { Commit, CommitHooks, FrontierDelta, Store, StoreOptions } from './types.ts';
import type { FrontierEntry, Rescore } from '../types.ts';
import { urlKey } from '../urls/canonical.ts';

/** A seen mark: queued under frontier key `k` with `score`, or done. */
type SeenValue = { s: 'q'; k: string; score: number } | { s: 'd' };

interface Counters {
  /** last discovery seq handed out */
  seq: number;
  pages: number;
  errors: number;
  committed: number;
  frontierSize: number;
  /** number of the last batch written (the journal replays later ones) */
  b: number;
}

/** Parked URLs queued again per batch by requeueParked. */
const REQUEUE_BATCH = 4096;

/** The entry a parked URL is queued again with: no attempts, no seq. */
function parkedEntry(e: FrontierEntry): FrontierEntry {
  const { attempts: _attempts, seq: _seq, ...rest } = e as FrontierEntry & { seq?: number };
  return rest;
}

type Root = AbstractLevel<any, any, any>;
type Sub = AbstractSublevel<Root, any, string, any>;
type Op = AbstractBatchOperation<Root, string, any>;

const COUNTERS_KEY = '_counters';
/**
 * Operations committed but not yet handed to LevelDB, at most: a commit
 * beyond it waits until LevelDB has caught up. A page of a 100-links crawl
 * is about 26 operations, and LevelDB is rarely more than a page or two
 * behind. Their bytes are capped too: the journal holds every unwritten
 * commit, and a commit that finds it past its truncation size (8 MiB) waits
 * until LevelDB has them all (see apply), so a compaction that stalls
 * LevelDB's writes cannot make memory grow.
 */
const MAX_PENDING_OPS = 16_384;
/**
 * Seen marks kept in memory (src/store/seen-cache.ts; 25 bytes each, 6.6 MB): the
 * links a site repeats on its pages are then found without a read.
 */
const SEEN_CACHE_SLOTS = 1 << 18;

/** An error's message with its cause's (abstract-level hides the IO error, e.g. EROFS, in `cause`). */
function reason(err: unknown): string {
  const e = err as { message?: unknown; cause?: { message?: unknown } } | null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const cause = e?.cause?.message;
  return typeof cause === 'string' && !message.includes(cause) ? `${message} (${cause})` : message;
}

function isLocked(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === 'LEVEL_LOCKED' || (e?.code === 'LEVEL_DATABASE_NOT_OPEN' && e.cause?.code === 'LEVEL_LOCKED');
}

const SUBLEVELS = ['frontier', 'seen', 'log', 'meta', 'parked'] as const;

/** sublevel prefix (`!name!`) -> name */
const SUBLEVEL_OF_PREFIX = new Map<string, string>(SUBLEVELS.map((n) => [`!${n}!`, n]));

/**
 * A committed operation waiting for LevelDB (write-behind), already encoded:
 * `key` is the root key (sublevel prefix + key) and `value` the JSON the
 * sublevel's json encoding would store, so a root whose encodings are utf8
 * takes it as it is (the same bytes on disk, without abstract-level's
 * per-operation sublevel and encoding work). `sub`, `k` and `raw` are the
 * operation as the sublevel sees it.
 */
interface EncodedOp {
  type: 'put' | 'del';
  key: string;
  value: string | undefined;
  sub: Sub;
  k: string;
  raw: unknown;
}

function toSublevelOp(op: EncodedOp): Op {
  return op.type === 'put' ? { type: 'put', sublevel: op.sub, key: op.k, value: op.raw } : { type: 'del', sublevel: op.sub, key: op.k };
}

/**
 * Journal pieces per sublevel: the start of a put's and a del's JournalOp
 * up to the opening quote of its key, each also with the comma that
 * separates it from the op before.
 */
const JOURNAL_HEADS = new Map<string, { put: string; del: string; putAfter: string; delAfter: string }>(
  SUBLEVELS.map((n) => [n, { put: `{"t":"p","s":"${n}","k":"`, del: `{"t":"d","s":"${n}","k":"`, putAfter: `,{"t":"p","s":"${n}","k":"`, delAfter: `,{"t":"d","s":"${n}","k":"` }]),
);

/** A key JSON.stringify leaves as it is between its quotes (the store's keys are hex, digits, `!` and `_`). */
const PLAIN_KEY = /^[\w!.~-]*$/;

/**
 * The write-behind form of a sublevel operation; its journal entry (a
 * JournalOp, as JSON: what JSON.stringify gives, with a leading comma
 * unless `first`) is pushed to `parts` in pieces, so that one join makes
 * the whole line without a string per operation. `json`, when given, is
 * JSON.stringify of a put's value, made by the caller.
 */
function encodeOp(op: Op, parts: string[], first: boolean, rootKey?: string, json?: string): EncodedOp {
  const sub = (op as { sublevel?: Sub }).sublevel;
  const name = sub === undefined ? undefined : SUBLEVEL_OF_PREFIX.get(sub.prefix);
  if (sub === undefined || name === undefined) throw new TypeError('batch operation outside the store sublevels');
  const heads = JOURNAL_HEADS.get(name)!;
  const k = op.key;
  const key = rootKey ?? `${sub.prefix}${k}`;
  const quoted = PLAIN_KEY.test(k) ? k : (JSON.stringify(k) as string).slice(1, -1);
  if (op.type === 'put') {
    const value = json ?? (JSON.stringify(op.value) as string | undefined);
    if (value === undefined) throw new TypeError(`batch put of ${name} ${k} without a JSON value`);
    parts.push(first ? heads.put : heads.putAfter, quoted, '","v":', value, '}');
    return { type: 'put', key, value, sub, k, raw: op.value };
  }
  parts.push(first ? heads.del : heads.delAfter, quoted, '"}');
  return { type: 'del', key, value: undefined, sub, k, raw: undefined };
}

function fromJournal(db: Root, op: JournalOp): Op {
  if (!(SUBLEVELS as readonly string[]).includes(op.s)) throw new StoreError(`journal names an unknown sublevel ${op.s}`);
  const sublevel = db.sublevel(op.s, { valueEncoding: 'json' }) as Sub;
  return op.t === 'p' ? { type: 'put', sublevel, key: op.k, value: op.v } : { type: 'del', sublevel, key: op.k };
}

function readCounters(v: unknown): Counters {
  const c = { seq: 0, pages: 0, errors: 0, committed: 0, frontierSize: 0, b: 0 };
  if (v === undefined) return c;
  if (typeof v !== 'object' || v === null) throw new StoreError(`store meta ${COUNTERS_KEY} is corrupt`);
  for (const name of Object.keys(c) as (keyof Counters)[]) {
    const n = (v as Record<string, unknown>)[name];
    if (name === 'b' && n === undefined) continue; // stores written before the journal
    if (!Number.isSafeInteger(n) || (n as number) < 0) throw new StoreError(`store meta ${COUNTERS_KEY}.${name} is corrupt`);
    c[name] = n as number;
  }
  return c;
}

/**
 * Make `dir` a store directory before LevelDB writes into it: create it
 * (missing), mark it (empty, or an earlier focuscrawl's store with its
 * journal), or refuse it (FC_USAGE: other files in it). Returns true for a
 * LevelDB without marker nor journal, which open() marks only once its
 * database shows focuscrawl's counters.
 */
async function claimStoreDir(dir: string): Promise<boolean> {
  const kind = await inspectStoreDir(dir);
  if (kind === 'foreign') throw notAStore(dir);
  if (kind === 'leveldb') return true;
  if (kind === 'missing') await makeStoreDir(dir);
  if (kind !== 'store') await writeStoreMarker(dir);
  return false;
}

/** A plan's tables, kept by the store and emptied for each plan (no Maps grown per commit). */
interface PlanTables {
  ops: KeyTable<Op>;
  seen: KeyTable<SeenValue | null>;
  cached: KeyTable<SeenValue | null>;
  added: KeyTable<{ uk: string; entry: FrontierEntry }>;
  outcome: KeyTable<'added' | 'raised'>;
}

/**
 * The pending effects of one mutation: batch operations (last write per key
 * wins, so a later step can undo an earlier one) plus the seen state as the
 * batch will leave it.
 */
class Plan {
  /** root key (sublevel prefix + key) -> operation */
  readonly ops: KeyTable<Op>;
  /** urlKey -> seen value after the batch (null: absent) */
  readonly seen: KeyTable<SeenValue | null>;
  /** frontier keys put by this plan -> urlKey and entry */
  readonly added: KeyTable<{ uk: string; entry: FrontierEntry }>;
  /** frontier keys of the database deleted by this plan */
  readonly deleted = new Set<string>();
  /** urlKey -> what enqueue did to that URL */
  readonly outcome: KeyTable<'added' | 'raised'>;
  /**
   * urlKey -> the mark the seen cache gave for it (the same object): a
   * mark the plan leaves as it found it there need not be cached again
   */
  readonly cached: KeyTable<SeenValue | null>;

  /** the worst key left by evict (undefined: frontier empty); null: no eviction */
  private survivor: string | undefined | null = null;

  /**
   * @param c counters to update (a copy)
   * @param storedTail when defined, no stored frontier key is greater
   * @param tables the store's tables for a plan, emptied here: one plan at a
   *   time uses them (mutations are serialised)
   */
  constructor(
    readonly store: { frontier: Sub; seen: Sub; settled: () => Promise<void> },
    readonly c: Counters,
    readonly storedTail: string | undefined,
    tables: PlanTables,
  ) {
    this.ops = tables.ops;
    this.seen = tables.seen;
    this.added = tables.added;
    this.outcome = tables.outcome;
    this.cached = tables.cached;
    this.ops.clear();
    this.seen.clear();
    this.added.clear();
    this.outcome.clear();
    this.cached.clear();
  }

  /**
   * When defined, no frontier key is greater once this plan is written; it
   * is a live key unless a later batch deletes it.
   */
  get tail(): string | undefined {
    if (this.survivor !== null) return this.survivor;
    let t = this.storedTail;
    if (t !== undefined) {
      const added = this.added;
      for (let i = 0; i < added.end; i++) if (added.live(i) && added.keyAt(i) > t) t = added.keyAt(i);
    }
    return t;
  }

  put(sub: Sub, key: string, value: unknown): void {
    this.ops.set(`${sub.prefix}${key}`, { type: 'put', sublevel: sub, key, value });
  }

  del(sub: Sub, key: string): void {
    this.ops.set(`${sub.prefix}${key}`, { type: 'del', sublevel: sub, key });
  }

  setSeen(uk: string, v: SeenValue | null): void {
    this.seen.set(uk, v);
    if (v === null) this.del(this.store.seen, uk);
    else this.put(this.store.seen, uk, v);
  }

  /** Remove the URL's frontier entry, if queued. */
  unqueue(uk: string): void {
    const s = this.seen.get(uk);
    if (s?.s !== 'q') return;
    if (this.added.has(s.k)) {
      this.added.delete(s.k);
      this.ops.delete(`${this.store.frontier.prefix}${s.k}`);
    } else {
      this.deleted.add(s.k);
      this.del(this.store.frontier, s.k);
    }
    this.c.frontierSize--;
  }

  markDone(uk: string): void {
    this.unqueue(uk);
    this.setSeen(uk, { s: 'd' });
  }

  /**
   * Queue a URL never seen; raise a queued one with a lower score (keeping
   * its seq); skip done ones. `keepText` false leaves anchor and context out.
   */
  enqueue(e: FrontierEntry, keepText = true, uk = urlKey(e.url)): void {
    const s = this.seen.get(uk) ?? null;
    if (s?.s === 'd' || (s?.s === 'q' && s.score >= e.score)) return;
    let seq: number;
    if (s === null) {
      seq = ++this.c.seq;
      this.outcome.set(uk, 'added');
    } else {
      seq = seqOf(s.k);
      this.unqueue(uk);
      if (!this.outcome.has(uk)) this.outcome.set(uk, 'raised');
    }
    const entry: FrontierEntry & { seq: number } = { url: e.url, score: e.score, depth: e.depth, parent: e.parent, seq };
    if (keepText && e.anchor !== undefined && e.anchor !== '') entry.anchor = e.anchor;
    if (keepText && e.context !== undefined && e.context !== '') entry.context = e.context;
    if (e.offTopicHops !== undefined) entry.offTopicHops = e.offTopicHops;
    this.place(uk, entry);
  }

  /** Put a URL (not queued in this plan) into the frontier under its score and seq. */
  place(uk: string, entry: FrontierEntry & { seq: number }): void {
    const k = frontierKey(entry.score, entry.seq);
    this.put(this.store.frontier, k, entry);
    this.added.set(k, { uk, entry });
    this.c.frontierSize++;
    this.setSeen(uk, { s: 'q', k, score: entry.score });
  }

  /**
   * Evict the lowest-priority entries until the frontier holds at most `max`:
   * merges the database's reverse order (minus keys this plan deletes) with
   * the keys this plan adds. Evicted URLs lose their seen mark.
   */
  async evict(max: number): Promise<void> {
    if (this.c.frontierSize <= max) return;
    const pending = this.added.keys().sort().reverse();
    // enough stored rows for every eviction plus the worst survivor, even if
    // every key this plan deletes comes first
    const limit = this.c.frontierSize - max + this.deleted.size + 1;
    // Seeking to a live key matters: LevelDB keeps the tombstones of earlier
    // evictions beyond it until compaction, and a seek that lands among them
    // steps over every one.
    const range = this.storedTail === undefined ? { reverse: true, limit } : { reverse: true, limit, lte: this.storedTail };
    await this.store.settled();
    const rows = ((await this.store.frontier.iterator(range).all()) as [string, FrontierEntry][]).filter(
      ([k]) => !this.deleted.has(k),
    );
    let pi = 0;
    let ri = 0;
    const worstIsPending = () => pending[pi] !== undefined && (rows[ri] === undefined || pending[pi] > rows[ri][0]);
    while (this.c.frontierSize > max) {
      if (worstIsPending()) {
        const uk = this.added.get(pending[pi++])!.uk;
        this.unqueue(uk);
        this.setSeen(uk, null);
        this.outcome.delete(uk);
      } else if (ri < rows.length) {
        const [key, entry] = rows[ri++];
        this.deleted.add(key);
        this.del(this.store.frontier, key);
        this.c.frontierSize--;
        this.setSeen(urlKey(entry.url), null);
      } else {
        throw new StoreError('store is corrupt: the frontier counter exceeds the stored frontier');
      }
    }
    this.survivor = worstIsPending() ? pending[pi] : rows[ri]?.[0];
  }

  count(kind: 'added' | 'raised'): number {
    let n = 0;
    const outcome = this.outcome;
    for (let i = 0; i < outcome.end; i++) if (outcome.live(i) && outcome.valueAt(i) === kind) n++;
    return n;
  }
}

/**
 * Crawl state in LevelDB. Mutations (`addSeeds`, `commit`) are serialised
 * internally; the frontier sink is expected to call `commit` one page at a
 * time anyway. Reads (`frontier`, `log`, `status`) may run concurrently and
 * see a snapshot.
 */
export class CrawlStore implements Store {
  private readonly frontierDb: Sub;
  private readonly seenDb: Sub;
  private readonly logDb: Sub;
  private readonly metaDb: Sub;
  private readonly parkedDb: Sub;
  private c: Counters;
  /** settles when every earlier mutation has */
  private queue: Promise<unknown> = Promise.resolve();
  /** when defined, no stored frontier key is greater (see Plan) */
  private tail: string | undefined = undefined;
  /** urlKey -> seen mark as committed (null: none) */
  private readonly seenCache: SeenCache;
  /** the tables of the one plan at a time (see Plan) */
  private readonly planTables: PlanTables = { ops: new KeyTable(), seen: new KeyTable(), cached: new KeyTable(), added: new KeyTable(), outcome: new KeyTable() };
  /**
   * write-behind: operations committed (journaled) and not yet handed to
   * LevelDB, by sublevel prefix + key. Two tables take turns, pending and
   * spare (empty): a group's table is emptied once LevelDB wrote it. Each
   * keeps the size it grew to, up to a group of MAX_PENDING_OPS.
   */
  private pending = new KeyTable<EncodedOp>(1024, 4 * MAX_PENDING_OPS);
  private spare = new KeyTable<EncodedOp>(1024, 4 * MAX_PENDING_OPS);
  /** write-behind: the group LevelDB is writing, by sublevel prefix + key */
  private writing: KeyTable<EncodedOp> | null = null;
  /** the root database stores utf8 keys and values: write-behind groups go to it pre-encoded (EncodedOp) */
  private readonly rootUtf8: boolean;
  /** write-behind: settles when the group being written has */
  private written: Promise<void> = Promise.resolve();
  /** write-behind: groups handed to LevelDB, and groups it has written */
  private groupsStarted = 0;
  private groupsWritten = 0;
  /** write-behind: a group's write failed; every later operation fails with this */
  private failed: StoreError | null = null;

  private constructor(
    private readonly db: Root,
    counters: Counters,
    private readonly maxFrontier: number,
    private readonly onFrontierChange: ((delta: FrontierDelta) => void) | undefined,
    private readonly journal: Journal | undefined,
    /** the store's directory (or 'in-memory store'), for error messages */
    private readonly name: string,
    /** every urlKey that ever had a seen mark (and some that did not): a miss needs no read */
    private readonly seenFilter: SeenFilter,
    seenCacheSlots: number,
  ) {
    this.seenCache = new SeenCache(seenCacheSlots, frontierKey, seqOf);
    this.frontierDb = db.sublevel('frontier', { valueEncoding: 'json' }) as Sub;
    this.seenDb = db.sublevel('seen', { valueEncoding: 'json' }) as Sub;
    this.logDb = db.sublevel('log', { valueEncoding: 'json' }) as Sub;
    this.metaDb = db.sublevel('meta', { valueEncoding: 'json' }) as Sub;
    this.parkedDb = db.sublevel('parked', { valueEncoding: 'json' }) as Sub;
    this.rootUtf8 = db.keyEncoding().name === 'utf8' && db.valueEncoding().name === 'utf8';
    this.c = counters;
  }

  /**
   * Open (creating it if missing) the store at directory `location`, or on
   * an abstract-level database (e.g. a MemoryLevel in tests; the store takes
   * it over and closes it on `close`). A directory must be missing, empty
   * or a store (src/store/dir.ts): another one is refused with UsageError
   * (FC_USAGE) before anything is written. Throws StoreLockedError
   * (FC_STORE_LOCKED) when another process or instance holds the LevelDB
   * lock, StoreError (FC_STORE) with the cause for any other failure.
   */
  static async open(location: string | AbstractLevel<any, string, any>, opts: StoreOptions = {}): Promise<CrawlStore> {
    const maxFrontier = opts.maxFrontier ?? Infinity;
    if (!(maxFrontier === Infinity || (Number.isSafeInteger(maxFrontier) && maxFrontier >= 1))) {
      throw new TypeError(`maxFrontier must be a positive integer, got ${maxFrontier}`);
    }
    const slots = opts.seenCacheSlots ?? SEEN_CACHE_SLOTS;
    if (!Number.isSafeInteger(slots) || slots < SEEN_CACHE_WAYS || (slots & (slots - 1)) !== 0) {
      throw new TypeError(`seenCacheSlots must be a power of two of at least ${SEEN_CACHE_WAYS}, got ${slots}`);
    }
    const name = typeof location === 'string' ? location : 'in-memory store';
    // a directory becomes a store only if it is new or empty (src/store/dir.ts)
    const verify = typeof location === 'string' && (await claimStoreDir(location));
    let db: Root;
    try {
      db = typeof location === 'string' ? new Level<string, any>(location, STORE_LEVELDB_OPTIONS) : location;
      await db.open();
    } catch (err) {
      if (isLocked(err)) throw new StoreLockedError(name, { cause: err });
      throw new StoreError(`cannot open store ${name}: ${reason(err)}`, { cause: err });
    }
    let journal: Journal | undefined;
    try {
      const meta = db.sublevel('meta', { valueEncoding: 'json' });
      const stored = await meta.get(COUNTERS_KEY);
      if (verify) {
        // a LevelDB without marker nor journal is a store older than the journal only if it has our counters
        if (stored === undefined) throw notAStore(name, 'a LevelDB database focuscrawl did not write');
        await writeStoreMarker(name);
      }
      let counters = readCounters(stored);
      const journalPath = typeof location === 'string' ? path.join(location, JOURNAL_FILE) : opts.journal;
      if (journalPath !== undefined) {
        const opened = Journal.open(journalPath);
        journal = opened.journal;
        const missing = opened.entries.filter((e) => e.b > counters.b);
        for (const e of missing) await db.batch(e.ops.map((op) => fromJournal(db, op)));
        if (missing.length > 0) counters = readCounters(await meta.get(COUNTERS_KEY));
        journal.clear();
      }
      const seenFilter = new SeenFilter();
      for await (const k of db.sublevel('seen', { valueEncoding: 'json' }).keys()) seenFilter.add(k);
      return new CrawlStore(db, counters, maxFrontier, opts.onFrontierChange, journal, name, seenFilter, slots);
    } catch (err) {
      journal?.close();
      await db.close().catch(() => {});
      if (err instanceof StoreError || err instanceof UsageError) throw err;
      throw new StoreError(`cannot read store ${name}: ${reason(err)}`, { cause: err });
    }
  }

  /** Number of entries in the frontier. */
  get frontierSize(): number {
    return this.c.frontierSize;
  }

  /** Committed records that counted as pages. */
  get pages(): number {
    return this.c.pages;
  }

  /** Committed records whose `type` is 'error'. */
  get errors(): number {
    return this.c.errors;
  }

  /** Number of committed records (the log length). */
  get committed(): number {
    return this.c.committed;
  }

  /**
   * Run `fn` after every earlier mutation settled. Failures of the database
   * (reads included) reject as StoreError (FC_STORE); TypeErrors for bad
   * arguments stay TypeErrors.
   */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.failed !== null) throw this.failed;
      return fn();
    }).catch((err: unknown) => {
      if (err instanceof StoreError || err instanceof TypeError) throw err;
      throw new StoreError(`store ${this.name} failed: ${reason(err)}`, { cause: err });
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private newPlan(): Plan {
    return new Plan({ frontier: this.frontierDb, seen: this.seenDb, settled: () => this.settled() }, { ...this.c }, this.tail, this.planTables);
  }

  /**
   * The seen mark a group not yet written to LevelDB leaves for `uk` (null:
   * it deletes it), or undefined when no such group touches it.
   */
  private unwrittenSeen(uk: string): SeenValue | null | undefined {
    if (this.pending.size === 0 && this.writing === null) return undefined;
    const k = `${this.seenDb.prefix}${uk}`;
    const op = this.pending.get(k) ?? this.writing?.get(k);
    if (op === undefined) return undefined;
    return op.type === 'put' ? (op.raw as SeenValue) : null;
  }

  /**
   * The seen mark of `uk` as far as memory knows it: from the cache, null
   * (none) when the filter has never met the key, from the groups not yet
   * written; undefined when only a LevelDB read can tell. (The filter is
   * asked before the unwritten groups: every key that had a mark, written
   * or not, was added to it by adopt or open, and a key it never met, most
   * of a page's new links, then costs no lookup in the groups.)
   */
  private knownSeen(uk: string): SeenValue | null | undefined {
    const cached = this.seenCache.get(uk);
    if (cached !== undefined) return cached;
    if (!this.seenFilter.mayHave(uk)) return null;
    return this.unwrittenSeen(uk);
  }

  /** Load the current seen marks of `urls` into the plan: from memory (knownSeen), the rest with one getMany. */
  private loadSeen(plan: Plan, urls: string[]): Promise<void> {
    return this.loadSeenKeys(plan, urls.map(urlKey));
  }

  /** loadSeen of urlKeys (`more`: a second list, read after `keys`). */
  private async loadSeenKeys(plan: Plan, keys: readonly string[], more: readonly string[] = []): Promise<void> {
    // each key once, in order of first appearance: a key already in the
    // plan was known; one already among the misses waits for the read
    // (a page's links mostly hit the seen cache: misses are few, and only
    // many of them, e.g. seeds, get a Set)
    const misses: string[] = [];
    let missed: Set<string> | undefined;
    for (let i = 0, n = keys.length + more.length; i < n; i++) {
      const k = i < keys.length ? keys[i]! : more[i - keys.length]!;
      if (plan.seen.has(k) || (missed !== undefined ? missed.has(k) : misses.includes(k))) continue;
      const cached = this.seenCache.get(k);
      if (cached !== undefined) {
        plan.seen.set(k, cached);
        plan.cached.set(k, cached);
        continue;
      }
      const known = this.seenFilter.mayHave(k) ? this.unwrittenSeen(k) : null;
      if (known !== undefined) {
        plan.seen.set(k, known);
        continue;
      }
      misses.push(k);
      if (missed !== undefined) missed.add(k);
      else if (misses.length > 16) missed = new Set(misses);
    }
    if (misses.length === 0) return;
    const values = (await this.seenDb.getMany(misses)) as (SeenValue | undefined)[];
    misses.forEach((k, i) => {
      plan.seen.set(k, values[i] ?? null);
    });
  }

  /**
   * Write the plan plus the counters as one batch, then adopt the counters,
   * tail and seen marks and report the frontier delta. With a journal the
   * batch is written behind (see the header): done once journaled. Without
   * one, it is done once LevelDB wrote it, and a failure leaves no trace.
   */
  private async apply(plan: Plan, extra: Op[] = [], beforeBatch?: () => void, extraJson?: string): Promise<void> {
    // reads may all have been answered from memory: do not journal (or let the
    // caller emit its record) for a batch a closed database will refuse
    if (this.db.status !== 'open') throw new StoreError(`cannot write store ${this.name}: the database is ${this.db.status}`);
    plan.c.b = this.c.b + 1;
    const counters: Op = { type: 'put', sublevel: this.metaDb, key: COUNTERS_KEY, value: plan.c };
    if (this.journal === undefined) {
      const ops: Op[] = [...plan.ops.values(), ...extra, counters];
      beforeBatch?.();
      try {
        await this.db.batch(ops);
      } catch (err) {
        throw new StoreError(`cannot write store ${this.name}: ${reason(err)}`, { cause: err });
      }
      this.adopt(plan);
      return;
    }
    // each value is turned into JSON once, for the journal line and for
    // LevelDB; the plan's map keys are the root keys already
    const n = plan.ops.size + extra.length + 1;
    const encoded: EncodedOp[] = new Array<EncodedOp>(n);
    // The line is what JSON.stringify of the JournalEntry { b, ops: [{ t, s,
    // k, v }, ...] } gives, in pieces joined once (one flat string, which
    // the journal encodes without copying it again)
    const parts: string[] = [`{"b":${plan.c.b},"ops":[`];
    let i = 0;
    const ops = plan.ops;
    for (let at = 0; at < ops.end; at++) {
      if (!ops.live(at)) continue;
      encoded[i] = encodeOp(ops.valueAt(at), parts, i === 0, ops.keyAt(at));
      i++;
    }
    for (const op of extra) {
      // (a caller's JSON of the one extra value, the commit's record)
      encoded[i] = encodeOp(op, parts, i === 0, undefined, extra.length === 1 ? extraJson : undefined);
      i++;
    }
    encoded[i] = encodeOp(counters, parts, i === 0);
    parts.push(']}');
    try {
      // the journal append is the commit point; the caller's record goes out
      // right after it, and LevelDB catches up behind
      this.journal.appendJson(parts.join(''));
    } catch (err) {
      throw new StoreError(`cannot write store ${this.name}: ${reason(err)}`, { cause: err });
    }
    // a later operation on a key replaces the earlier one in the group
    for (const op of encoded) this.pending.set(op.key, op);
    try {
      beforeBatch?.();
    } finally {
      // journaled, so committed even when the caller's hook failed
      this.adopt(plan);
      this.writeNextGroup();
    }
    if (this.pending.size > MAX_PENDING_OPS) await this.settled();
    if (this.journal.large) {
      // only an empty write-behind queue lets the journal go
      await this.settled();
      this.journal.truncateIfLarge();
    }
  }

  /** Take a committed plan's counters, tail and seen marks, and report its frontier delta. */
  private adopt(plan: Plan): void {
    this.c = plan.c;
    this.tail = plan.tail;
    const seen = plan.seen;
    const cached = plan.cached;
    for (let at = 0; at < seen.end; at++) {
      if (!seen.live(at)) continue;
      const k = seen.keyAt(at);
      const v = seen.valueAt(at);
      // a mark the cache gave and the plan left alone is there (and in the filter) already
      if (cached.size > 0 && cached.get(k) === v) continue;
      this.seenCache.set(k, v);
      if (v !== null) this.seenFilter.addIfMissing(k);
    }
    if (this.onFrontierChange !== undefined) {
      const table = plan.added;
      const added = new Array<{ key: string; entry: FrontierEntry }>(table.size);
      let i = 0;
      for (let at = 0; at < table.end; at++) if (table.live(at)) added[i++] = { key: table.keyAt(at), entry: table.valueAt(at).entry };
      this.onFrontierChange({ added, removed: [...plan.deleted] });
    }
  }

  /** Write-behind: hand the pending operations to LevelDB as one group, unless a group is being written. */
  private writeNextGroup(): void {
    if (this.writing !== null || this.pending.size === 0 || this.failed !== null) return;
    const group = this.pending;
    this.pending = this.spare;
    this.writing = group;
    this.groupsStarted++;
    this.written = this.writeGroup(group).then(
      () => {
        this.writing = null;
        group.clear();
        this.spare = group;
        this.groupsWritten++;
        if (this.pending.size === 0) this.journal?.truncateIfLarge();
        this.writeNextGroup();
      },
      (err: unknown) => {
        this.writing = null;
        group.clear();
        this.spare = group;
        this.failed = new StoreError(`cannot write store ${this.name}: ${reason(err)}`, { cause: err });
        // the journal holds what the cache believed; a reopen replays it
        this.seenCache.clear();
      },
    );
  }

  /**
   * One write-behind group as one atomic LevelDB batch. A utf8 root takes
   * the encoded keys and values through a chained batch: classic-level
   * hands each put to LevelDB's WriteBatch as two arguments, where an
   * array batch copies every operation into a new object and reads its
   * type, key and value back as properties (~30% less CPU per operation).
   */
  private writeGroup(group: KeyTable<EncodedOp>): Promise<void> {
    if (!this.rootUtf8) return this.db.batch(group.values().map(toSublevelOp));
    let batch: ReturnType<Root['batch']> | undefined;
    try {
      batch = this.db.batch();
      for (let at = 0; at < group.end; at++) {
        if (!group.live(at)) continue;
        const op = group.valueAt(at);
        if (op.type === 'put') batch.put(op.key, op.value);
        else batch.del(op.key);
      }
      return batch.write();
    } catch (err) {
      // (a closed database throws at once; an unwritten batch is let go)
      if (batch !== undefined) batch.close().catch(() => {});
      return Promise.reject(err);
    }
  }

  /**
   * Resolves when every operation committed before the call is in LevelDB
   * (at once without write-behind); rejects with the StoreError of a failed
   * group write. Reads of LevelDB other than seen marks wait for it.
   */
  private async settled(): Promise<void> {
    const target = this.pending.size > 0 ? this.groupsStarted + 1 : this.groupsStarted;
    while (this.groupsWritten < target && this.failed === null) {
      this.writeNextGroup();
      await this.written;
    }
    if (this.failed !== null) throw this.failed;
  }

  /**
   * Enqueue seed entries in one batch: URLs never seen are added, queued
   * ones with a lower score are raised, done ones are skipped. Returns the
   * number of URLs added (after any maxFrontier eviction).
   */
  addSeeds(entries: FrontierEntry[]): Promise<number> {
    return this.serial(async () => {
      const plan = this.newPlan();
      await this.loadSeen(plan, entries.map((e) => e.url));
      for (const e of entries) plan.enqueue(e);
      await plan.evict(this.maxFrontier);
      await this.apply(plan);
      return plan.count('added');
    });
  }

  /**
   * Best-first frontier entries (highest score, then discovery order), from a
   * snapshot taken when iteration starts; `gt` resumes after a frontier key.
   * Never removes anything: only `commit` does.
   */
  async *frontier(opts: { gt?: string } = {}): AsyncGenerator<{ key: string; entry: FrontierEntry }> {
    const range = opts.gt === undefined ? {} : { gt: opts.gt };
    await this.settled();
    for await (const [key, entry] of this.frontierDb.iterator(range)) {
      yield { key: key as string, entry: entry as FrontierEntry };
    }
  }

  /**
   * Whether a canonical URL is queued, done, or unknown (null). Answered
   * like a commit's seen reads (cache, unwritten groups, filter, LevelDB),
   * so the fetch stage's check of each redirect hop never waits for
   * LevelDB to catch up.
   */
  async status(url: string): Promise<'queued' | 'done' | null> {
    if (this.failed !== null) throw this.failed;
    const uk = urlKey(url);
    let v = this.knownSeen(uk);
    // (not `??`: a known null, no mark, needs no read)
    if (v === undefined) v = ((await this.seenDb.get(uk)) as SeenValue | undefined) ?? null;
    if (v === null) return null;
    return v.s === 'q' ? 'queued' : 'done';
  }

  /**
   * Record one fetched page in ONE atomic batch: remove the entry's URL (at
   * its current frontier key) and every `alsoDone` URL from the frontier and
   * mark them done; append `record` to the log; enqueue each link never seen
   * (new seq), raise a queued link whose score is lower (new score and link
   * fields, original seq), skip done ones; evict the lowest-priority entries
   * beyond maxFrontier (their seen marks are dropped so they can be
   * rediscovered); update counters (`errors` counts records with
   * type 'error'). Returns how many links were added and raised (evicted ones
   * not counted). Overlapping calls are serialised. On failure nothing of the
   * commit is written and a StoreError is thrown (TypeError for a NaN score).
   */
  commit(c: Commit, hooks: CommitHooks = {}): Promise<{ added: number; raised: number }> {
    return this.serial(async () => {
      const plan = this.newPlan();
      const done = [c.entry.url, ...(c.alsoDone ?? [])];
      // each URL's key (an MD5) is computed once per commit
      const doneKeys = done.map(urlKey);
      const linkKeys = c.links.map((l) => urlKey(l.url));
      await this.loadSeenKeys(plan, doneKeys, linkKeys);
      for (const uk of doneKeys) plan.markDone(uk);
      if (c.retryLater === true) plan.put(this.parkedDb, doneKeys[0]!, parkedEntry(c.entry));
      const keepText = c.keepText !== false;
      for (let i = 0; i < c.links.length; i++) plan.enqueue(c.links[i]!, keepText, linkKeys[i]);
      await plan.evict(this.maxFrontier);
      const n = ++plan.c.committed;
      if (c.countsAsPage) plan.c.pages++;
      if ((c.record as { type?: unknown }).type === 'error') plan.c.errors++;
      await this.apply(plan, [{ type: 'put', sublevel: this.logDb, key: logKey(n), value: c.record }], hooks.beforeBatch, c.recordJson);
      return { added: plan.count('added'), raised: plan.count('raised') };
    });
  }

  /**
   * Put a URL taken from the frontier back for another attempt (its fetch
   * failed transiently; see src/frontier/retry.ts) in ONE atomic batch: its frontier
   * entry is rewritten with `entry.attempts`, keeping the stored score, seq
   * and link fields, so a resumed crawl keeps the count. Nothing is logged
   * or counted and redirect hops are not marked done. A URL that is done
   * by now (another page's redirect hop) is left alone; one evicted
   * meanwhile (maxFrontier) is queued again under a new seq.
   */
  retry(entry: FrontierEntry): Promise<void> {
    return this.serial(async () => {
      const plan = this.newPlan();
      const uk = urlKey(entry.url);
      await this.loadSeen(plan, [entry.url]);
      const s = plan.seen.get(uk);
      if (s?.s === 'd') return;
      if (s?.s === 'q') {
        await this.settled();
        const stored = ((await this.frontierDb.get(s.k)) as FrontierEntry | undefined) ?? entry;
        plan.unqueue(uk);
        plan.place(uk, { ...stored, attempts: entry.attempts, seq: seqOf(s.k) });
      } else {
        plan.place(uk, { ...entry, seq: ++plan.c.seq });
      }
      await plan.evict(this.maxFrontier);
      await this.apply(plan);
    });
  }

  /**
   * Queue again every URL parked by a commit with `retryLater` (a fetch that
   * got no answer in an earlier run), with its score, depth, parent and link
   * fields and no attempts, unless something else made it done for good
   * since; then forget the parked set. Batches of {@link REQUEUE_BATCH}
   * URLs, each atomic (a crash between two leaves the rest parked). Returns
   * how many URLs were queued (before any maxFrontier eviction).
   */
  requeueParked(): Promise<number> {
    return this.serial(async () => {
      await this.settled();
      let queued = 0;
      for (;;) {
        const rows = (await this.parkedDb.iterator({ limit: REQUEUE_BATCH }).all()) as [string, FrontierEntry][];
        if (rows.length === 0) return queued;
        const plan = this.newPlan();
        await this.loadSeen(plan, rows.map(([, e]) => e.url));
        for (const [uk, e] of rows) {
          plan.del(this.parkedDb, uk);
          if (plan.seen.get(uk)?.s === 'q') continue;
          plan.place(uk, { ...parkedEntry(e), seq: ++plan.c.seq });
          queued++;
        }
        await plan.evict(this.maxFrontier);
        await this.apply(plan);
        await this.settled();
      }
    });
  }

  /**
   * Give queued URLs new priorities, up or down (a strategy re-scored them,
   * e.g. after a HITS round), keeping their discovery seq. URLs that are not
   * queued, and non-finite scores, are ignored. One atomic batch; returns
   * how many entries moved.
   */
  reprioritise(updates: readonly Rescore[]): Promise<number> {
    return this.serial(async () => {
      const wanted = new Map<string, number>();
      for (const u of updates) if (Number.isFinite(u.score)) wanted.set(u.url, u.score);
      const plan = this.newPlan();
      await this.loadSeen(plan, [...wanted.keys()]);
      const moves: Array<{ uk: string; k: string; score: number }> = [];
      for (const [url, score] of wanted) {
        const uk = urlKey(url);
        const s = plan.seen.get(uk);
        if (s?.s === 'q' && s.score !== score) moves.push({ uk, k: s.k, score });
      }
      if (moves.length === 0) return 0;
      await this.settled();
      const entries = (await this.frontierDb.getMany(moves.map((m) => m.k))) as (FrontierEntry | undefined)[];
      let moved = 0;
      moves.forEach((m, i) => {
        const old = entries[i];
        if (old === undefined) return;
        plan.unqueue(m.uk);
        plan.place(m.uk, { ...old, score: m.score, seq: seqOf(m.k) });
        moved++;
      });
      await this.apply(plan);
      return moved;
    });
  }

  /** Committed records in commit order; `gt` is a log key (see logKey) to resume after. */
  async *log(opts: { gt?: string } = {}): AsyncGenerator<object> {
    const range = opts.gt === undefined ? {} : { gt: opts.gt };
    await this.settled();
    for await (const value of this.logDb.values(range)) yield value as object;
  }

  /** A JSON value stored with putMeta, or undefined. Throws StoreError (FC_STORE) when the read fails. */
  async getMeta(key: string): Promise<unknown> {
    const k = this.metaKey(key);
    try {
      return await this.metaDb.get(k);
    } catch (err) {
      throw new StoreError(`cannot read store ${this.name}: ${reason(err)}`, { cause: err });
    }
  }

  /**
   * Store a JSON value under `key` (the key '_counters' is reserved; not
   * journaled). Throws StoreError (FC_STORE) when the write fails (disk full).
   */
  async putMeta(key: string, value: unknown): Promise<void> {
    const k = this.metaKey(key);
    try {
      await this.metaDb.put(k, value);
    } catch (err) {
      throw new StoreError(`cannot write store ${this.name}: ${reason(err)}`, { cause: err });
    }
  }

  private metaKey(key: string): string {
    if (key === COUNTERS_KEY) throw new TypeError(`meta key ${COUNTERS_KEY} is reserved`);
    return key;
  }

  /**
   * Wait for pending mutations and their LevelDB writes, then close the
   * database; rejects with the StoreError of a failed write-behind group
   * after closing (the journal keeps the group for the next open).
   */
  async close(): Promise<void> {
    await this.queue;
    const failure = await this.settled().then(() => null, (err: unknown) => err);
    this.journal?.close();
    await this.db.close();
    if (failure !== null) throw failure;
  }
}
