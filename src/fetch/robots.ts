/**
 * robots.txt cache (RFC 9309, with Google's choices where the RFC leaves room).
 *
 * One robots.txt per origin, fetched on first use through an injected
 * `fetchRobots`, parsed with `robots-parser`, kept in an LRU of `capacity`
 * origins (docs/algorithms.md#robots-cache: the 1,000 most recently visited servers). Concurrent
 * checks for one origin share a single fetch. The LRU grows (by a quarter,
 * up to `maxCapacity`) each time an origin it evicted while still fresh is
 * checked again: a polite crawl cycles through more hosts than 1,000 (bfs
 * on the synthetic web at --delay-ms 1000 fetched robots.txt 2,722 times
 * for 2,132 origins, issue 23), and every refetch is a request the crawl
 * did not need. Growth stops at 2,500 origins (`maxCapacity`), and the
 * memory is capped apart: at most `maxCachedBytes`, 3 MiB (about 2 bytes
 * per character of the bodies kept plus 1 KiB per origin), least recently
 * used dropped first. (At 16,000 origins and 64 MiB, a million-URL crawl
 * held ~19 MB of parsed robots.txt and peaked over its 150 MB budget.)
 *
 * Status rules:
 * - 2xx: parse the body (cut at `maxBytes`, as Google cuts at 500 KiB; the
 *   line cut in half is dropped so a truncated rule never widens or narrows).
 * - 3xx (the fetcher gave up following redirects) and 4xx except 429: no
 *   usable file, everything is allowed (RFC 9309 §2.3.1.3).
 * - No answer at all: a fetch rejected with FC_NETWORK (connection refused
 *   or reset, DNS failure) or FC_TIMEOUT, or one taking longer than
 *   `timeoutMs` (FC_TIMEOUT): the URL gets that code, as a page fetch that
 *   failed so would, and is retried like one (src/frontier/retry.ts); nothing is
 *   cached, so the next check fetches robots.txt again (checks made while
 *   the fetch is pending share its outcome). A malformed host (FC_BAD_HOST)
 *   keeps its code and is cached for `ttlMs`.
 * - 429, 5xx, any other status, or a fetch rejected otherwise: the whole
 *   origin is off limits (FC_ROBOTS_UNAVAILABLE) for `unavailableMs`, then
 *   fetched again. 429 is
 *   treated as unreachable rather than as "no file", as Google does: a server
 *   that asks us to slow down must not get a crawl without rules.
 * A parsed (or allow-all) answer is kept for `ttlMs` (RFC 9309 §2.4: at most
 * 24 hours), then fetched again.
 *
 * Group choice is robots-parser's: the group naming our product token
 * (case-insensitive, version stripped) wins, else the `*` group; only that
 * group's rules and Crawl-delay apply.
 */
import robotsParserModule from 'robots-parser';
import { TimeoutError, toItemError } from '../errors.ts';
import type { ItemError } from '../types.ts';
import { Lru } from '../util/lru.ts';

// robots-parser is CommonJS (`module.exports = function`) but its typings say
// `export default`, so under NodeNext TypeScript types the default import as
// the module object. At run time Node's default import is module.exports,
// i.e. the function itself.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** Fetches one robots.txt. Follows redirects itself; rejects on network errors. */
export type RobotsFetch = (robotsUrl: string, signal?: AbortSignal) => Promise<{ status: number; body: string }>;

export interface RobotsCacheOptions {
  fetchRobots: RobotsFetch;
  /** product token matched against User-agent lines, e.g. 'focuscrawl' */
  userAgent: string;
  /** origins kept (LRU) at first, default 1000 (docs/algorithms.md#robots-cache) */
  capacity?: number;
  /** origins kept at most as the LRU grows, default 2,500 (at least `capacity`) */
  maxCapacity?: number;
  /** memory of the entries kept, estimated, at most; default 3 MiB */
  maxCachedBytes?: number;
  /** how long an origin stays off limits after 429/5xx (or another failure with an answer), default 10 min */
  unavailableMs?: number;
  /** robots body cap in UTF-8 bytes, default 512 KiB; longer bodies are cut */
  maxBytes?: number;
  /** how long a fetched robots.txt is trusted before it is fetched again, default 24 h */
  ttlMs?: number;
  /** a robots fetch still pending after this long counts as unavailable, default 30 s */
  timeoutMs?: number;
  /** clock, default Date.now */
  now?: () => number;
}

/** The answer for one URL. `code` and `message` are set iff `allowed` is false. */
export interface RobotsVerdict {
  allowed: boolean;
  /** FC_NETWORK, FC_TIMEOUT: robots.txt got no answer (transient, retried); FC_BAD_HOST: malformed host */
  code?: 'FC_ROBOTS_DISALLOWED' | 'FC_ROBOTS_UNAVAILABLE' | RobotsFailureCode;
  message?: string;
  /** Crawl-delay of the applicable group in ms, null when none is given or known */
  crawlDelayMs: number | null;
}

type Robot = ReturnType<typeof robotsParser>;

/** Codes of a rejected robots fetch that the URL's verdict carries as they are. */
type RobotsFailureCode = 'FC_NETWORK' | 'FC_TIMEOUT' | 'FC_BAD_HOST';
const PASSED_THROUGH: ReadonlySet<string> = new Set<RobotsFailureCode>(['FC_NETWORK', 'FC_TIMEOUT', 'FC_BAD_HOST']);

interface Entry {
  /** parsed rules; null means allow everything (or nothing, when `unavailable`) */
  robot: Robot | null;
  crawlDelayMs: number | null;
  /** set when the origin is off limits: why */
  unavailable: string | null;
  /** the verdict's code when `unavailable` is set (default FC_ROBOTS_UNAVAILABLE) */
  code?: RobotsFailureCode;
  /** the entry is fetched again at or after this time */
  expires: number;
  /** estimated memory, bytes (ENTRY_BYTES, plus the rules' text when parsed) */
  size: number;
}

/**
 * Estimated memory of an entry without a body: a robots-parser object of a
 * two-line file holds ~800 bytes of heap (measured with `--expose-gc`,
 * 16,000 synthetic-web files), plus the entry and its LRU node.
 */
const ENTRY_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * `body` cut to at most `maxBytes` UTF-8 bytes. When a cut is needed, the
 * last (partial) line is dropped unless the cut falls on a line break.
 */
export function cutRobotsBody(body: string, maxBytes: number): string {
  if (body.length * 3 <= maxBytes) return body;
  const { read } = encoder.encodeInto(body, new Uint8Array(maxBytes));
  if (read >= body.length) return body;
  const next = body.charAt(read);
  if (next === '\n' || next === '\r') return body.slice(0, read);
  const head = body.slice(0, read);
  const eol = Math.max(head.lastIndexOf('\n'), head.lastIndexOf('\r'));
  return eol < 0 ? '' : head.slice(0, eol);
}

function delayMs(seconds: number | undefined): number | null {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  return Math.round(seconds * 1000);
}

/** Rejects with a timeout error when `signal` aborts before `p` settles. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new TimeoutError(`timed out after ${ms} ms`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e: unknown) => { signal.removeEventListener('abort', onAbort); reject(e); },
    );
  });
}

/** Per-origin robots.txt rules with an LRU cache and single-flight fetching. */
export class RobotsCache {
  readonly #fetch: RobotsFetch;
  readonly #ua: string;
  readonly #unavailableMs: number;
  readonly #maxBytes: number;
  readonly #ttlMs: number;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #cache: Lru<string, Entry>;
  readonly #maxCapacity: number;
  readonly #maxCachedBytes: number;
  /** estimated memory of the cached entries */
  #bytes = 0;
  /** origins evicted while fresh, with their expiry: a check of one again grows the cache */
  readonly #evicted: Lru<string, number>;
  readonly #inflight = new Map<string, Promise<Entry>>();

  constructor(opts: RobotsCacheOptions) {
    if (typeof opts.fetchRobots !== 'function') throw new TypeError('fetchRobots must be a function');
    if (typeof opts.userAgent !== 'string' || opts.userAgent.trim() === '') {
      throw new TypeError('userAgent must be a non-empty product token');
    }
    this.#fetch = opts.fetchRobots;
    this.#ua = opts.userAgent;
    this.#unavailableMs = opts.unavailableMs ?? 10 * 60_000;
    this.#maxBytes = opts.maxBytes ?? 512 * 1024;
    this.#ttlMs = opts.ttlMs ?? 24 * 3_600_000;
    this.#timeoutMs = opts.timeoutMs ?? 30_000;
    this.#now = opts.now ?? Date.now;
    const capacity = opts.capacity ?? 1000;
    this.#maxCapacity = Math.max(capacity, opts.maxCapacity ?? 2_500);
    this.#maxCachedBytes = opts.maxCachedBytes ?? 3 * 1024 * 1024;
    this.#evicted = new Lru(capacity);
    this.#cache = new Lru(capacity, {
      onEvict: (origin, entry) => {
        this.#bytes -= entry.size;
        if (this.#now() < entry.expires) this.#evicted.set(origin, entry.expires);
      },
    });
  }

  /** Origins the cache keeps now (it grows with the crawl's hosts, see the top of this file). */
  get capacity(): number {
    return this.#cache.capacity;
  }

  #store(origin: string, entry: Entry): void {
    const old = this.#cache.peek(origin);
    if (old !== undefined) {
      this.#cache.delete(origin);
      this.#bytes -= old.size;
    }
    this.#bytes += entry.size;
    this.#cache.set(origin, entry);
    while (this.#bytes > this.#maxCachedBytes && this.#cache.size > 1) this.#cache.evictOldest();
  }

  /** A fetch for `origin` is due: when the cache had dropped it while fresh, it is too small for the crawl's hosts. */
  #missed(origin: string): void {
    const expires = this.#evicted.peek(origin);
    if (expires === undefined) return;
    this.#evicted.delete(origin);
    const capacity = this.#cache.capacity;
    if (this.#now() >= expires || capacity >= this.#maxCapacity) return;
    const grown = Math.min(this.#maxCapacity, Math.ceil(capacity * 1.25));
    this.#cache.resize(grown);
    this.#evicted.resize(grown);
  }

  /**
   * Whether `url` (absolute http(s)) may be fetched. Fetches the origin's
   * robots.txt when it is not cached (or expired). `${origin}/robots.txt`
   * itself is always allowed, without a fetch. Never rejects for robots
   * trouble (that is a verdict); throws a TypeError for a non-http(s) or
   * malformed URL.
   */
  async check(url: string): Promise<RobotsVerdict> {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${url}`);
    if (u.pathname === '/robots.txt' && u.search === '') {
      return { allowed: true, crawlDelayMs: this.crawlDelayMs(url) };
    }
    return this.#verdict(u, await this.#entry(u.origin));
  }

  /**
   * {@link check}'s verdict when it needs no fetch (the origin's robots.txt
   * is cached and fresh, or `url` is a robots.txt), at once; undefined when
   * `check` would fetch. Throws as `check` rejects.
   */
  checkCached(url: string): RobotsVerdict | undefined {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${url}`);
    if (u.pathname === '/robots.txt' && u.search === '') {
      return { allowed: true, crawlDelayMs: this.crawlDelayMs(url) };
    }
    const cached = this.#cache.get(u.origin);
    return cached !== undefined && this.#now() < cached.expires ? this.#verdict(u, cached) : undefined;
  }

  #verdict(u: URL, entry: Entry): RobotsVerdict {
    if (entry.unavailable !== null) {
      return { allowed: false, code: entry.code ?? 'FC_ROBOTS_UNAVAILABLE', message: entry.unavailable, crawlDelayMs: null };
    }
    if (entry.robot !== null && entry.robot.isAllowed(u.href, this.#ua) === false) {
      const line = entry.robot.getMatchingLineNumber(u.href, this.#ua);
      return {
        allowed: false,
        code: 'FC_ROBOTS_DISALLOWED',
        message: `${u.origin}/robots.txt line ${line} disallows ${u.pathname}${u.search} for ${this.#ua}`,
        crawlDelayMs: entry.crawlDelayMs,
      };
    }
    return { allowed: true, crawlDelayMs: entry.crawlDelayMs };
  }

  /**
   * Crawl-delay in ms for `url`'s origin from the cache only: null when the
   * origin's robots.txt is not cached, gives no Crawl-delay for us, or the
   * URL is malformed. Does not change the LRU order.
   */
  crawlDelayMs(url: string): number | null {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return null;
    }
    return this.#cache.peek(origin)?.crawlDelayMs ?? null;
  }

  #entry(origin: string): Promise<Entry> {
    const cached = this.#cache.get(origin);
    if (cached !== undefined && this.#now() < cached.expires) return Promise.resolve(cached);
    let pending = this.#inflight.get(origin);
    if (pending === undefined) {
      pending = this.#load(origin).finally(() => this.#inflight.delete(origin));
      this.#inflight.set(origin, pending);
    }
    return pending;
  }

  async #load(origin: string): Promise<Entry> {
    this.#missed(origin);
    const robotsUrl = `${origin}/robots.txt`;
    let entry: Entry;
    try {
      const signal = AbortSignal.timeout(this.#timeoutMs);
      const res = await raceAbort(this.#fetch(robotsUrl, signal), signal, this.#timeoutMs);
      entry = this.#fromResponse(robotsUrl, res.status, res.body);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && PASSED_THROUGH.has(code)) {
        const failure = code as RobotsFailureCode;
        entry = { robot: null, crawlDelayMs: null, unavailable: `${robotsUrl} could not be fetched: ${why}`, code: failure, expires: this.#now() + this.#ttlMs, size: ENTRY_BYTES };
        // no answer: not cached, the next check (a retry) asks again
        if (failure !== 'FC_BAD_HOST') return entry;
      } else {
        entry = this.#unavailable(`${robotsUrl} could not be fetched (${why}); ${origin} is off limits`);
      }
    }
    this.#store(origin, entry);
    return entry;
  }

  #fromResponse(robotsUrl: string, status: number, body: string): Entry {
    const expires = this.#now() + this.#ttlMs;
    if (status >= 200 && status < 300) {
      const cut = cutRobotsBody(body, this.#maxBytes);
      const robot = robotsParser(robotsUrl, cut);
      return { robot, crawlDelayMs: delayMs(robot.getCrawlDelay(this.#ua)), unavailable: null, expires, size: ENTRY_BYTES + 2 * cut.length };
    }
    if (status >= 300 && status < 500 && status !== 429) {
      return { robot: null, crawlDelayMs: null, unavailable: null, expires, size: ENTRY_BYTES };
    }
    return this.#unavailable(`${robotsUrl} answered ${status}; ${new URL(robotsUrl).origin} is off limits`);
  }

  #unavailable(message: string): Entry {
    return { robot: null, crawlDelayMs: null, unavailable: message, expires: this.#now() + this.#unavailableMs, size: ENTRY_BYTES };
  }
}

/**
 * The error for `url` when robots.txt forbids it (FC_ROBOTS_DISALLOWED) or
 * its origin is off limits (FC_ROBOTS_UNAVAILABLE); null when it may be
 * fetched. Never rejects: a malformed URL becomes an FC_INTERNAL error.
 * The fetch stage uses it for every redirect hop.
 */
export async function robotsAllows(robots: RobotsCache, url: string): Promise<ItemError | null> {
  try {
    return verdictError(await robots.check(url), url);
  } catch (err) {
    return toItemError(err);
  }
}

/** {@link robotsAllows}'s answer at once when robots.txt need not be fetched for it, else its promise. */
export function robotsAllowsNow(robots: RobotsCache, url: string): ItemError | null | Promise<ItemError | null> {
  let verdict: RobotsVerdict | undefined;
  try {
    verdict = robots.checkCached(url);
  } catch (err) {
    return toItemError(err);
  }
  return verdict === undefined ? robotsAllows(robots, url) : verdictError(verdict, url);
}

function verdictError(verdict: RobotsVerdict, url: string): ItemError | null {
  if (verdict.allowed) return null;
  return { code: verdict.code ?? 'FC_ROBOTS_DISALLOWED', message: verdict.message ?? `robots.txt forbids ${url}` };
}
