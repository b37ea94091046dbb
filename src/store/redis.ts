/**
 * The crawl state on a Redis server (`--store redis://HOST:PORT/DB`), shared
 * by any number of `focuscrawl crawl` workers, on one machine or several.
 *
 * Key layout 2 (all under `fc:{CRAWL}:`, CRAWL from `?crawl=NAME`, default
 * `default`; the braces are a Redis Cluster hash tag, so every key of one
 * crawl lives in one slot and the Lua scripts may touch them together):
 *   q      zset   "frontier key TAB entry" (score 0, lexicographic order = best first, as in LevelDB)
 *   seen:XYZ hash 4,096 small hashes: url key (20 hex digits of the MD5 of the
 *                  canonical URL) -> queued under a frontier key | done (with
 *                  the token of the commit that made it done)
 *   log    list   committed records, in commit order
 *   c      hash   counters: seq, pages, errors, committed, workers
 *   lease  zset   frontier keys taken by a worker -> lease expiry (ms, Redis clock)
 *   lw     hash   frontier key -> worker holding the lease, and the entry
 *   ha     hash   host -> requests in flight, all workers
 *   hn     hash   host -> earliest start of its next request (ms, Redis clock)
 *   meta   hash   name -> JSON (stats, host budget checkpoint, ...)
 *   pk     hash   url key of a parked URL -> its entry
 * (`e` and `ct` held entries and commit tokens in layout 1; a crawl in layout
 * 1 is refused at open, see LAYOUT.)
 *
 * Every mutation is one Lua script (src/store/redis-scripts.ts): one
 * round-trip, atomic. A worker `claim`s URLs: the script moves the best
 * frontier keys whose host is free (fewer than perHost requests in flight
 * across workers, its politeness delay over) into the lease zset with an
 * expiry, so no two workers get the same URL. `commit` ends the lease,
 * sets the host's next-request time (now + delay) and writes the page's
 * effects. A worker renews its leases every leaseMs/3; a worker that dies
 * stops renewing, and the next claim by any worker (which reaps first)
 * returns its expired leases to the frontier. A worker that stops cleanly
 * returns its leases at `close`.
 */
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { StoreError } from '../errors.ts';
import type { KeyedEntry, Verdict } from '../frontier/head.ts';
import type { FrontierEntry, Rescore } from '../types.ts';
import { createHash, randomBytes } from 'node:crypto';
import * as S from './redis-scripts.ts';
import type { Commit, CommitHooks, HostRelease, Store, StoreOptions } from './types.ts';

export interface RedisStoreOptions extends Pick<StoreOptions, 'maxFrontier'> {
  /** lease of a claimed URL, ms; renewed every third of it while the worker lives (default 30 000) */
  leaseMs?: number;
  /** requests in flight to one host, all workers together (default 1) */
  perHost?: number;
  /** claims stop once pages + leased URLs reach this, all workers together (default Infinity) */
  maxPages?: number;
  /** frontier entries one claim looks at for a free host (default 1000) */
  scan?: number;
  /** this worker's id (default host:pid:random) */
  workerId?: string;
}

/** What one claim brought. */
export interface ClaimResult {
  /** ok: entries leased; wait: none free now, ask again in waitMs; done: the crawl is over */
  status: 'ok' | 'wait' | 'done';
  waitMs: number;
  entries: KeyedEntry[];
}

export const DEFAULT_LEASE_MS = 30_000;
/** commits in flight at once (see RedisStore.commitWindow) */
const COMMIT_WINDOW = 8;
const COUNTERS_KEY = '_counters';
/** meta field naming the crawl's incarnation: created at the first open, checked by every script */
const EPOCH_KEY = '_epoch';
/**
 * meta field naming the crawl's data layout. Layout 1 (no `_layout`): one
 * `seen` hash with 32-digit keys, an `e` hash of entries, a `ct` hash of
 * commit tokens, ~0.5 KB a queued URL. Layout 2: bucketed seen marks
 * holding the tokens, entries inside the frontier members (see
 * src/store/redis-scripts.ts). A crawl in layout 1 is refused at open with
 * FC_STORE (no migration: finish it with the version that started it, or
 * start over with --fresh).
 */
const LAYOUT_KEY = '_layout';
export const LAYOUT = '2';
/** hex digits of the url key that name its seen bucket (16^3 = 4,096 buckets) */
const BUCKET_DIGITS = 3;
/** ms between claims while every free URL's host is busy in another worker */
const POLL_MS = 50;
const KEY_NAMES = ['q', 'e', 'seen', 'log', 'c', 'lease', 'lw', 'ha', 'hn', 'meta', 'ct', 'pk'] as const;
/**
 * ms a commit is kept after Redis answered it, to be sent again after a
 * reconnect: with `appendfsync everysec` a Redis killed (SIGKILL, crash,
 * power loss) loses up to about 2 s of answered writes (see RELIABILITY.md)
 */
export const REPLAY_MS = 5000;

/** Parse `redis://[user:pass@]HOST:PORT/DB?crawl=NAME`: the connection URL and the crawl name. */
export function parseRedisLocation(location: string): { url: string; crawl: string } {
  let u: URL;
  try {
    u = new URL(location);
  } catch {
    throw new StoreError(`--store ${location} is not a redis:// URL`);
  }
  const crawl = u.searchParams.get('crawl') ?? 'default';
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(crawl)) throw new StoreError(`--store ${location}: crawl name must be 1-100 of A-Z a-z 0-9 . _ -`);
  u.searchParams.delete('crawl');
  return { url: u.toString(), crawl };
}

/** The twelve keys of a crawl, in the order the scripts expect them. */
export function crawlKeys(crawl: string): string[] {
  return KEY_NAMES.map((n) => `fc:{${crawl}}:${n}`);
}

/** The 4,096 seen buckets of a crawl (`fc:{NAME}:seen:000` ... `:fff`). */
export function seenBuckets(crawl: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < 16 ** BUCKET_DIGITS; i++) out.push(`fc:{${crawl}}:seen:${i.toString(16).padStart(BUCKET_DIGITS, '0')}`);
  return out;
}

/**
 * The url key of the Redis store: the first 20 hex digits (80 bits) of the
 * SHA-1 of the canonical URL (SHA-1 because the scripts compute it too,
 * with redis.sha1hex, so frontier members need not carry it). Its first 3
 * digits name the seen bucket, the other 17 are the field. Two URLs share a
 * key with probability ~n²/2^81 (4e-9 for 10^8 URLs).
 */
export function redisUrlKey(canonicalUrl: string): string {
  return createHash('sha1').update(canonicalUrl).digest('hex').slice(0, 20);
}

/** The seen bucket and field of a url key. */
export function seenSlot(crawl: string, uk: string): [bucket: string, field: string] {
  return [`fc:{${crawl}}:seen:${uk.slice(0, BUCKET_DIGITS)}`, uk.slice(BUCKET_DIGITS)];
}

function reason(err: unknown): string {
  return (err as Error)?.message ?? String(err);
}

/**
 * A frontier entry as the scripts store it: everything but url, score and
 * seq (and, unless `keepText`, its link text), as JSON with one-letter
 * names (d depth, p parent, a anchor, c context, o offTopicHops, n attempts:
 * the scripts set `n`): a member per queued URL, so every byte counts.
 */
function compactJson(e: FrontierEntry, keepText = true): string {
  const o: Record<string, unknown> = { d: e.depth, p: e.parent };
  if (keepText && e.anchor !== undefined && e.anchor !== '') o.a = e.anchor;
  if (keepText && e.context !== undefined && e.context !== '') o.c = e.context;
  if (e.offTopicHops !== undefined) o.o = e.offTopicHops;
  if (e.attempts !== undefined) o.n = e.attempts;
  return JSON.stringify(o);
}

interface WireLink {
  uk: string;
  u: string;
  s: string;
  j: string;
}

function wire(e: FrontierEntry, keepText = true): WireLink {
  if (typeof e.score !== 'number' || Number.isNaN(e.score)) throw new TypeError(`bad frontier score: ${e.score}`);
  return { uk: redisUrlKey(e.url), u: e.url, s: String(e.score), j: compactJson(e, keepText) };
}

/** A parked URL's fields for the COMMIT script: its entry without attempts. */
function parkWire(e: FrontierEntry): { u: string; s: string; j: string } {
  const { attempts: _attempts, ...rest } = e;
  const w = wire(rest);
  return { u: w.u, s: w.s, j: w.j };
}

const SCORE_VIEW = new DataView(new ArrayBuffer(8));

/** The score in a frontier key (the inverse of frontierKey, src/store/keys.ts). */
function scoreOfKey(k: string): number {
  let hi = parseInt(k.slice(0, 8), 16);
  let lo = parseInt(k.slice(8, 16), 16);
  if (hi & 0x80000000) {
    hi = (hi & 0x7fffffff) >>> 0;
  } else {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  }
  SCORE_VIEW.setUint32(0, hi);
  SCORE_VIEW.setUint32(4, lo);
  const x = SCORE_VIEW.getFloat64(0);
  return x === 0 ? 0 : -x;
}

/** "url\tjson" under frontier key k -> the entry. */
function parseEntry(k: string, v: string): FrontierEntry {
  const t = v.indexOf('\t');
  const j = JSON.parse(v.slice(t + 1)) as { d: number; p: string | null; a?: string; c?: string; o?: number; n?: number };
  const e: FrontierEntry = { url: v.slice(0, t), score: scoreOfKey(k), depth: j.d, parent: j.p };
  if (j.a !== undefined) e.anchor = j.a;
  if (j.c !== undefined) e.context = j.c;
  if (j.o !== undefined) e.offTopicHops = j.o;
  if (j.n !== undefined) e.attempts = j.n;
  e.seq = parseInt(k.slice(17, 31), 16);
  return e;
}

type Counts = [pages: number, errors: number, committed: number, frontierSize: number];

type Scripted = Redis & Record<'fcAddSeeds' | 'fcCommit' | 'fcRetry' | 'fcRequeueParked' | 'fcReprioritise' | 'fcClaim' | 'fcRenew' | 'fcRelease' | 'fcReap' | 'fcPage' | 'fcCounts', (...args: (string | number)[]) => Promise<unknown>>;

function connect(url: string): Scripted {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    // after a connection loss: reconnect for about 30 s, then fail the commands waiting
    maxRetriesPerRequest: 20,
    retryStrategy: (times) => (times > 20 ? null : Math.min(times * 100, 2000)),
  }) as Scripted;
  const scripts: [string, string][] = [
    ['fcAddSeeds', S.ADD_SEEDS],
    ['fcCommit', S.COMMIT],
    ['fcRetry', S.RETRY],
    ['fcReprioritise', S.REPRIORITISE],
    ['fcClaim', S.CLAIM],
    ['fcRenew', S.RENEW],
    ['fcRelease', S.RELEASE],
    ['fcReap', S.REAP],
    ['fcPage', S.PAGE],
    ['fcCounts', S.COUNTS],
    ['fcRequeueParked', S.REQUEUE_PARKED],
  ];
  for (const [name, lua] of scripts) redis.defineCommand(name, { numberOfKeys: KEY_NAMES.length, lua });
  // errors surface through the commands; without a listener ioredis logs each to stderr
  redis.on('error', () => {});
  return redis;
}

export class RedisStore implements Store {
  readonly #redis: Scripted;
  readonly #keys: string[];
  readonly #name: string;
  readonly #crawl: string;
  /** this worker's number in the crawl (counter `workers`): its commit tokens are short */
  #workerNo = '';
  readonly #maxFrontier: number;
  readonly #leaseMs: number;
  readonly #perHost: number;
  readonly #maxPages: number;
  readonly #scan: number;
  readonly workerId: string;
  #counts: Counts = [0, 0, 0, 0];
  /** url -> frontier key of the lease this worker holds on it */
  readonly #claimed = new Map<string, string>();
  #renewTimer: NodeJS.Timeout | undefined;
  #roundTrips = 0;
  /** URLs asked for by commits not answered yet */
  #claimsInFlight = 0;
  #commits = 0;
  #closed = false;
  /** meta _epoch as read at open (see the scripts' prelude) */
  #epoch = '';
  /** the claim head: how many URLs to claim with a commit, and where they go */
  #head: { prefetch: () => number; claimed: (r: ClaimResult) => void } | undefined;
  /** commit attempts made: with the worker id, the token of the next one */
  #attempts = 0;
  /** commits Redis answered in the last REPLAY_MS, oldest first: sent again after a reconnect */
  #recent: { at: number; args: string; record: string }[] = [];
  /** when the connection was lost (Date.now()), 0 while it is up */
  #lostAt = 0;
  #replays = { sent: 0, conflicts: 0 };

  private constructor(redis: Scripted, crawl: string, name: string, opts: RedisStoreOptions) {
    this.#redis = redis;
    this.#keys = crawlKeys(crawl);
    this.#name = name;
    this.#crawl = crawl;
    this.#maxFrontier = opts.maxFrontier ?? Infinity;
    this.#leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.#perHost = opts.perHost ?? 1;
    this.#maxPages = opts.maxPages ?? Infinity;
    this.#scan = opts.scan ?? 1000;
    this.workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    redis.on('close', () => {
      if (this.#lostAt === 0) this.#lostAt = Date.now();
    });
    redis.on('ready', () => {
      const lostAt = this.#lostAt;
      this.#lostAt = 0;
      if (lostAt > 0) void this.#replay(lostAt);
    });
  }

  /**
   * Connect to the Redis server of `location` (redis://HOST:PORT/DB, optional
   * `?crawl=NAME`). Throws StoreError (FC_STORE) when it does not answer.
   */
  static async open(location: string, opts: RedisStoreOptions = {}): Promise<RedisStore> {
    const maxFrontier = opts.maxFrontier ?? Infinity;
    if (!(maxFrontier === Infinity || (Number.isSafeInteger(maxFrontier) && maxFrontier >= 1))) {
      throw new TypeError(`maxFrontier must be a positive integer, got ${maxFrontier}`);
    }
    const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    if (!(Number.isSafeInteger(leaseMs) && leaseMs >= 100)) throw new TypeError(`leaseMs must be an integer >= 100, got ${leaseMs}`);
    const { url, crawl } = parseRedisLocation(location);
    const redis = connect(url);
    const store = new RedisStore(redis, crawl, location, opts);
    try {
      await redis.connect();
      const keys = crawlKeys(crawl);
      const meta = keys[9];
      // layout first: a crawl with an epoch and no layout 2 was written by an older version
      const [epoch, layout] = await redis.hmget(meta, EPOCH_KEY, LAYOUT_KEY);
      if (epoch !== null && layout !== LAYOUT) {
        throw new StoreError(
          `store ${location}: crawl ${crawl} is in Redis data layout ${layout ?? '1'} (an older focuscrawl); this version reads layout ${LAYOUT} only and does not migrate: ` +
            'finish that crawl with the version that started it, or start it over with --fresh',
        );
      }
      await redis.hsetnx(meta, LAYOUT_KEY, LAYOUT);
      await redis.hsetnx(meta, EPOCH_KEY, randomBytes(8).toString('hex'));
      store.#epoch = (await redis.hget(meta, EPOCH_KEY)) ?? '';
      store.#workerNo = (await redis.hincrby(keys[4], 'workers', 1)).toString(36);
      store.#setCounts((await store.#call('fcCounts')) as number[]);
    } catch (err) {
      redis.disconnect();
      if (err instanceof StoreError) throw err;
      throw new StoreError(`cannot open store ${location}: ${reason(err)}`, { cause: err });
    }
    store.#renewTimer = setInterval(() => void store.#renew(), Math.max(50, Math.floor(leaseMs / 3)));
    store.#renewTimer.unref();
    return store;
  }

  /** Delete every key of the crawl at `location` (`--fresh`). */
  static async destroy(location: string): Promise<void> {
    const { url, crawl } = parseRedisLocation(location);
    const redis = connect(url);
    try {
      await redis.connect();
      await redis.del(...crawlKeys(crawl));
      const buckets = seenBuckets(crawl);
      for (let i = 0; i < buckets.length; i += 512) await redis.del(...buckets.slice(i, i + 512));
    } catch (err) {
      throw new StoreError(`cannot reset store ${location}: ${reason(err)}`, { cause: err });
    } finally {
      redis.disconnect();
    }
  }

  get frontierSize(): number {
    return this.#counts[3];
  }

  /**
   * Commits the sink may have in flight (Store.commitWindow): one
   * connection answers in call order, so their round-trips overlap and each
   * record is still printed after its commit. Measured in BENCHMARKS.md,
   * "Redis workers".
   */
  get commitWindow(): number {
    return COMMIT_WINDOW;
  }

  get pages(): number {
    return this.#counts[0];
  }

  get errors(): number {
    return this.#counts[1];
  }

  get committed(): number {
    return this.#counts[2];
  }

  /** Commands this client sent (each one round-trip). */
  get roundTrips(): number {
    return this.#roundTrips;
  }

  /** Commits and retries made through this client (a claim after one may find a freed host). */
  get localCommits(): number {
    return this.#commits;
  }

  /** URLs this worker holds a lease on. */
  get claimedCount(): number {
    return this.#claimed.size;
  }

  #setCounts(r: number[], from = 0): void {
    this.#counts = [Number(r[from]), Number(r[from + 1]), Number(r[from + 2]), Number(r[from + 3])];
  }

  async #call(name: keyof Scripted & `fc${string}`, ...args: (string | number)[]): Promise<unknown> {
    if (this.#closed) throw new StoreError(`cannot use store ${this.#name}: it is closed`);
    this.#roundTrips++;
    try {
      return await (this.#redis[name] as (...a: (string | number)[]) => Promise<unknown>)(...this.#keys, this.#epoch, ...args);
    } catch (err) {
      if (/FC_EPOCH/.test(reason(err))) {
        throw new StoreError(`store ${this.#name}: the crawl state in Redis is gone or was reset since this worker started (Redis restarted without persistence, FLUSHDB, or --fresh); nothing was written`, { cause: err });
      }
      throw new StoreError(`store ${this.#name} failed: ${reason(err)}`, { cause: err });
    }
  }

  #max(): number {
    return this.#maxFrontier === Infinity ? 0 : this.#maxFrontier;
  }

  async addSeeds(entries: FrontierEntry[]): Promise<number> {
    const links = entries.map((e) => wire(e));
    const r = (await this.#call('fcAddSeeds', JSON.stringify({ links, max: this.#max() }))) as number[];
    this.#setCounts(r, 1);
    return Number(r[0]);
  }

  async *frontier(opts: { gt?: string } = {}): AsyncGenerator<{ key: string; entry: FrontierEntry }> {
    let gt = opts.gt ?? '';
    for (;;) {
      const r = (await this.#call('fcPage', gt, 256)) as string[];
      for (let i = 0; i < r.length; i += 2) {
        if (r[i + 1] === '') continue;
        yield { key: r[i], entry: parseEntry(r[i], r[i + 1]) };
      }
      if (r.length < 512) return;
      gt = r[r.length - 2];
    }
  }

  async status(url: string): Promise<'queued' | 'done' | null> {
    this.#roundTrips++;
    let v: string | null;
    try {
      v = await this.#redis.hget(...seenSlot(this.#crawl, redisUrlKey(url)));
    } catch (err) {
      throw new StoreError(`store ${this.#name} failed: ${reason(err)}`, { cause: err });
    }
    if (v === null) return null;
    return v.startsWith('d') ? 'done' : 'queued';
  }

  /**
   * One page in one script call (see CrawlStore.commit for what it writes),
   * unless its URL is done already (another worker fetched it after this
   * worker's lease expired, or it was a redirect hop of another page): then
   * nothing is written and `beforeBatch` is not called, so no record goes out.
   * When this worker claimed the URL, its lease ends and the host's next
   * request waits `hostDelayMs`. `hooks.beforeBatch` runs right after the
   * script answered: the instant the page is committed is on the server.
   * Each call carries a token (worker id, commit number): applied twice (a
   * re-sent call after a reconnect, or a replay, see #replay) it answers
   * "committed" again, so its record is printed once (RELIABILITY.md).
   */
  async commit(c: Commit & HostRelease, hooks: CommitHooks = {}): Promise<{ added: number; raised: number }> {
    let args: string;
    let record: string;
    const lk = this.#claimed.get(c.entry.url) ?? '';
    let n = 0;
    try {
      const done = [...new Set([c.entry.url, ...(c.alsoDone ?? [])].map(redisUrlKey))];
      const links = c.links.map((l) => wire(l as FrontierEntry, c.keepText !== false));
      record = c.recordJson ?? JSON.stringify(c.record);
      const isError = (c.record as { type?: unknown }).type === 'error';
      // the next URLs are claimed in the same round-trip; less what commits
      // still in flight will bring
      n = Math.max(0, (this.#head?.prefetch() ?? 0) - this.#claimsInFlight);
      const claim = n > 0 ? this.#claimArgs(n) : undefined;
      const t = `${this.#workerNo}#${(++this.#attempts).toString(36)}`;
      const park = c.retryLater === true ? parkWire(c.entry) : undefined;
      args = JSON.stringify({ w: this.workerId, t, lk, delay: Math.max(0, Math.round(c.hostDelayMs ?? 0)), done, links, page: c.countsAsPage ? 1 : 0, err: isError ? 1 : 0, max: this.#max(), claim, park });
    } catch (err) {
      if (err instanceof TypeError && /bad frontier score/.test(err.message)) throw err;
      throw new StoreError(`cannot write store ${this.#name}: ${reason(err)}`, { cause: err });
    }
    // ioredis re-sends this call after a reconnect if its reply did not come:
    // the token makes a second application answer as the first did
    this.#claimsInFlight += n;
    let r: (number | string)[];
    try {
      r = (await this.#call('fcCommit', args, record)) as (number | string)[];
    } finally {
      this.#claimsInFlight -= n;
    }
    this.#remember(args, record);
    this.#commits++;
    if (lk !== '') this.#claimed.delete(c.entry.url);
    this.#setCounts(r as number[], 2);
    if (r[7] !== 'none') this.#head?.claimed(this.#claimResult(r, 7));
    // a duplicate (the URL was done already) is not committed: no record goes out
    if (Number(r[6]) === 0) hooks.beforeBatch?.();
    return { added: Number(r[0]), raised: Number(r[1]) };
  }

  /** Keep an answered commit for REPLAY_MS (see #replay); forget older ones. */
  #remember(args: string, record: string): void {
    const now = Date.now();
    let drop = 0;
    while (drop < this.#recent.length && now - this.#recent[drop].at > REPLAY_MS) drop++;
    if (drop > 0) this.#recent.splice(0, drop);
    this.#recent.push({ at: now, args, record });
  }

  /**
   * After a reconnect: send again, in order, the commits Redis answered in
   * the REPLAY_MS before the connection was lost. Their records are printed
   * already; a Redis whose machine crashed may have lost them (appendfsync
   * everysec). Each is idempotent by
   * its token: one Redis kept is not applied again, one it lost is applied
   * now (without a claim), so the store's log holds every printed record.
   * Sent on the `ready` event: after the commands ioredis held while the
   * server was away, before any this worker sends later (one connection is
   * in order), so a URL it claims again meanwhile is a duplicate, not printed.
   */
  async #replay(lostAt: number): Promise<void> {
    // answered in the REPLAY_MS before the connection went (however long it was away)
    const batch = this.#recent.filter((c) => lostAt - c.at <= REPLAY_MS);
    await Promise.all(
      batch.map(async (c) => {
        const a = JSON.parse(c.args) as Record<string, unknown>;
        delete a.claim;
        a.replay = 1;
        this.#replays.sent++;
        try {
          const r = (await this.#call('fcCommit', JSON.stringify(a), c.record)) as (number | string)[];
          this.#setCounts(r as number[], 2);
          if (Number(r[6]) === 2) this.#replays.conflicts++;
        } catch {
          // the next commit reports a lost server
        }
      }),
    );
  }

  /**
   * Commits sent again after reconnects (see #replay), and of those how many
   * found their URL committed by another worker meanwhile (its record is
   * then printed twice: RELIABILITY.md says when that can happen).
   */
  get replays(): { sent: number; conflicts: number } {
    return { sent: this.#replays.sent, conflicts: this.#replays.conflicts };
  }

  /** See CrawlStore.requeueParked; one script call (the parked set is read whole). */
  async requeueParked(): Promise<number> {
    const r = (await this.#call('fcRequeueParked', JSON.stringify({ max: this.#max() }))) as number[];
    this.#setCounts(r, 1);
    return Number(r[0]);
  }

  async retry(entry: FrontierEntry, opts: HostRelease = {}): Promise<void> {
    const lk = this.#claimed.get(entry.url) ?? '';
    const w = wire(entry);
    const args = JSON.stringify({ w: this.workerId, lk, delay: Math.max(0, Math.round(opts.hostDelayMs ?? 0)), ...w, attempts: entry.attempts ?? 0, max: this.#max() });
    const r = (await this.#call('fcRetry', args)) as number[];
    this.#commits++;
    if (lk !== '') this.#claimed.delete(entry.url);
    this.#setCounts(r);
  }

  async reprioritise(updates: readonly Rescore[]): Promise<number> {
    const wanted = new Map<string, number>();
    for (const u of updates) if (Number.isFinite(u.score)) wanted.set(u.url, u.score);
    if (wanted.size === 0) return 0;
    const ups = [...wanted].map(([url, score]) => ({ uk: redisUrlKey(url), s: String(score) }));
    const r = (await this.#call('fcReprioritise', JSON.stringify({ ups }))) as number[];
    this.#setCounts(r, 1);
    return Number(r[0]);
  }

  /**
   * Lease up to `n` URLs for this worker (see the CLAIM script): best first,
   * only on hosts that are free across all workers, within maxPages.
   */
  async claim(n: number): Promise<ClaimResult> {
    const c = this.#claimArgs(n);
    const r = (await this.#call('fcClaim', this.workerId, c.n, c.leaseMs, c.perHost, c.maxPages, c.scan, c.poll)) as (string | number)[];
    this.#setCounts(r.slice(2) as number[]);
    return this.#claimResult(r, 0);
  }

  #claimArgs(n: number) {
    return { n: Math.max(1, n), leaseMs: this.#leaseMs, perHost: this.#perHost, maxPages: this.#maxPages === Infinity ? 0 : this.#maxPages, scan: this.#scan, poll: POLL_MS };
  }

  /** A claim's answer from r[at]: status, waitMs, then (after the counts when at = 0) key, value pairs. */
  #claimResult(r: (string | number)[], at: number): ClaimResult {
    const entries: KeyedEntry[] = [];
    for (let i = at === 0 ? 6 : at + 2; i < r.length; i += 2) {
      const key = String(r[i]);
      const entry = parseEntry(key, String(r[i + 1]));
      entries.push({ key, entry });
      this.#claimed.set(entry.url, key);
    }
    return { status: String(r[at]) as ClaimResult['status'], waitMs: Number(r[at + 1]), entries };
  }

  /** Let a claim head receive URLs claimed along with commits (see ClaimHead). */
  attachHead(head: { prefetch: () => number; claimed: (r: ClaimResult) => void }): void {
    this.#head = head;
  }

  /** URLs leased by any worker right now (expired leases of dead workers included until reaped). */
  async leases(): Promise<number> {
    this.#roundTrips++;
    try {
      return await this.#redis.zcard(this.#keys[5]);
    } catch (err) {
      throw new StoreError(`cannot read store ${this.#name}: ${reason(err)}`, { cause: err });
    }
  }

  /** Return expired leases (of dead workers) to the frontier now; the number returned. */
  async reap(): Promise<number> {
    const r = (await this.#call('fcReap')) as number[];
    this.#setCounts(r, 1);
    return Number(r[0]);
  }

  /** Return this worker's leases to the frontier (a stopping worker). */
  async releaseClaims(): Promise<void> {
    if (this.#claimed.size === 0) return;
    const keys = [...this.#claimed.values()];
    this.#claimed.clear();
    this.#setCounts((await this.#call('fcRelease', this.workerId, ...keys)) as number[]);
  }

  async #renew(): Promise<void> {
    if (this.#claimed.size === 0 || this.#closed) return;
    try {
      await this.#call('fcRenew', this.workerId, this.#leaseMs, ...this.#claimed.values());
    } catch {
      // the next commit reports a lost server
    }
  }

  async *log(opts: { gt?: string } = {}): AsyncGenerator<object> {
    let i = opts.gt === undefined ? 0 : Number(opts.gt);
    if (!Number.isSafeInteger(i) || i < 0) throw new TypeError(`bad log key ${opts.gt}`);
    for (;;) {
      this.#roundTrips++;
      let rows: string[];
      try {
        rows = await this.#redis.lrange(this.#keys[3], i, i + 999);
      } catch (err) {
        throw new StoreError(`store ${this.#name} failed: ${reason(err)}`, { cause: err });
      }
      for (const row of rows) yield JSON.parse(row) as object;
      if (rows.length < 1000) return;
      i += rows.length;
    }
  }

  async getMeta(key: string): Promise<unknown> {
    if (key === COUNTERS_KEY || key === EPOCH_KEY || key === LAYOUT_KEY) throw new TypeError(`meta key ${key} is reserved`);
    this.#roundTrips++;
    try {
      const v = await this.#redis.hget(this.#keys[9], key);
      return v === null ? undefined : JSON.parse(v);
    } catch (err) {
      throw new StoreError(`cannot read store ${this.#name}: ${reason(err)}`, { cause: err });
    }
  }

  async putMeta(key: string, value: unknown): Promise<void> {
    if (key === COUNTERS_KEY || key === EPOCH_KEY || key === LAYOUT_KEY) throw new TypeError(`meta key ${key} is reserved`);
    this.#roundTrips++;
    try {
      await this.#redis.hset(this.#keys[9], key, JSON.stringify(value));
    } catch (err) {
      throw new StoreError(`cannot write store ${this.#name}: ${reason(err)}`, { cause: err });
    }
  }

  /** A head for the frontier source that claims from Redis (see ClaimHead). */
  claimHead(want: () => number): ClaimHead {
    return new ClaimHead(this, want);
  }

  /** Return this worker's leases, then disconnect. */
  async close(): Promise<void> {
    if (this.#closed) return;
    clearInterval(this.#renewTimer);
    try {
      await this.releaseClaims();
    } finally {
      this.#closed = true;
      await this.#redis.quit().catch(() => this.#redis.disconnect());
    }
  }
}

/**
 * The frontier head of a Redis worker: a small buffer of URLs this worker
 * has leased. It claims more when the buffer is empty, at most `want()`
 * (the free fetch slots); after a claim that found nothing free it waits
 * the delay the server named, unless a commit of this worker freed a host.
 */
export class ClaimHead {
  readonly #store: RedisStore;
  readonly #want: () => number;
  #buf: KeyedEntry[] = [];
  #status: ClaimResult['status'] = 'ok';
  #retryAt = 0;
  #commitsAtClaim = -1;

  constructor(store: RedisStore, want: () => number) {
    this.#store = store;
    this.#want = want;
    // a commit claims what the worker will want once the committed URL leaves its slot
    store.attachHead({ prefetch: () => Math.max(0, this.#want() + 1 - this.#buf.length), claimed: (r) => this.#took(r) });
  }

  #took(r: ClaimResult): void {
    this.#buf.push(...r.entries);
    this.#status = r.status;
    this.#retryAt = Date.now() + r.waitMs;
    this.#commitsAtClaim = this.#store.localCommits;
  }

  get size(): number {
    return this.#buf.length;
  }

  /** The crawl is over: nothing queued and nothing leased by any worker, or --max-pages reached. */
  get complete(): boolean {
    return this.#status === 'done';
  }

  async refill(): Promise<void> {
    if (this.#buf.length > 0) return;
    if (this.#status === 'wait' && Date.now() < this.#retryAt && this.#store.localCommits === this.#commitsAtClaim) return;
    this.#commitsAtClaim = this.#store.localCommits;
    this.#took(await this.#store.claim(this.#want()));
  }

  take(verdict: (e: KeyedEntry) => Verdict): KeyedEntry | null {
    let fallback = -1;
    for (let i = 0; i < this.#buf.length; i++) {
      const v = verdict(this.#buf[i]);
      if (v === 'take') return this.#buf.splice(i, 1)[0];
      if (v === 'fallback' && fallback < 0) fallback = i;
    }
    return fallback >= 0 ? this.#buf.splice(fallback, 1)[0] : null;
  }

  async grow(): Promise<boolean> {
    return false;
  }

  async scanBeyond(): Promise<KeyedEntry | null> {
    return null;
  }

  /** How long the source may sleep before claiming again (Infinity: until woken). */
  waitMs(): number {
    if (this.#buf.length > 0 || this.#status !== 'wait') return Infinity;
    return Math.max(1, this.#retryAt - Date.now());
  }
}
