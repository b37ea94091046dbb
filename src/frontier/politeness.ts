/**
 * Per-host politeness: at most `perHost` requests in flight to one host, and
 * `delayMs` between the end of one request and the start of the next to that
 * host (robots.txt `Crawl-delay` wins when it is larger; with `delayFactor`
 * F, so does F times the time the request took, at most MAX_ADAPTIVE_DELAY_MS:
 * a slow server gets more time between requests, as Heritrix's delay factor
 * gives it). Host diversity
 * (Zou et al. 2009, docs/algorithms.md#host-diversity): every K consecutive fetches come from K different hosts when the
 * frontier allows it.
 *
 * Answers served by a focuscrawl replay proxy (`x-focuscrawl-replay`) come
 * from an archive, not a live server, so the delay does not apply to them
 * unless the user set `--delay-ms` explicitly.
 */
import { MinHeap } from '../util/heap.ts';

/** Cap of the adaptive part of the delay (delayFactor × request time). */
export const MAX_ADAPTIVE_DELAY_MS = 30_000;

export interface SchedulerOptions {
  perHost: number;
  delayMs: number;
  /** wait at least this many times as long as the request took (default 0: off); capped at MAX_ADAPTIVE_DELAY_MS */
  delayFactor?: number;
  /** true when the user gave --delay-ms (then it applies to replayed hosts too) */
  delayExplicit?: boolean;
  /** K of docs/algorithms.md#host-diversity; 0 or 1 disables it */
  hostDiversity?: number;
  /** robots.txt Crawl-delay of a URL's host, from the robots cache */
  crawlDelayMs?: (url: string) => number | null;
  now?: () => number;
}

/** A host's next allowed start, as {@link HostScheduler.msUntilNextReady} keeps them; stale once the host's nextAt moves. */
interface DueItem {
  at: number;
  host: string;
}

interface HostState {
  active: number;
  /** earliest time the next request may start */
  nextAt: number;
  /** the host answered through a replay proxy */
  replay: boolean;
}

/**
 * The pause owed to a host after a request that took `elapsedMs`: the
 * largest of `delayMs`, robots.txt's Crawl-delay and `factor` × elapsedMs
 * (that one at most MAX_ADAPTIVE_DELAY_MS).
 */
export function politeDelayMs(delayMs: number, crawlDelayMs: number | null, factor: number, elapsedMs: number): number {
  const adaptive = factor > 0 && elapsedMs > 0 ? Math.min(MAX_ADAPTIVE_DELAY_MS, factor * elapsedMs) : 0;
  return Math.max(delayMs, crawlDelayMs ?? 0, adaptive);
}

export class HostScheduler {
  readonly #opts: Required<Omit<SchedulerOptions, 'crawlDelayMs'>> & Pick<SchedulerOptions, 'crawlDelayMs'>;
  readonly #hosts = new Map<string, HostState>();
  /** hosts of the last K-1 fetches started, oldest first */
  readonly #recent: string[] = [];
  /** moving average of how long a request took, ms (0 until one ended) */
  #requestMs = 0;
  /** the last answer came from a replay proxy (a guess for hosts not yet answered) */
  #lastReplay = false;
  readonly #releaseListeners = new Set<(host: string) => void>();
  /**
   * Hosts waiting on a delay or backoff, by their next allowed start (plus
   * stale items: a host's nextAt moved, or it was full when met): so
   * msUntilNextReady does not walk every host it knows (issue 23: with
   * --delay-ms 1000 the source asks after nearly every commit).
   */
  readonly #due = new MinHeap<DueItem>((a, b) => a.at < b.at);

  constructor(opts: SchedulerOptions) {
    if (!(opts.perHost >= 1)) throw new TypeError('perHost must be >= 1');
    if (!(opts.delayMs >= 0)) throw new TypeError('delayMs must be >= 0');
    if (!((opts.delayFactor ?? 0) >= 0)) throw new TypeError('delayFactor must be >= 0');
    this.#opts = {
      ...opts,
      delayFactor: opts.delayFactor ?? 0,
      delayExplicit: opts.delayExplicit ?? false,
      hostDiversity: opts.hostDiversity ?? 0,
      now: opts.now ?? Date.now,
    };
  }

  /** May a request to `host` start now (ignoring host diversity)? */
  ready(host: string): boolean {
    const s = this.#hosts.get(host);
    return s === undefined || (s.active < this.#opts.perHost && s.nextAt <= this.#opts.now());
  }

  /** The scheduler's clock, ms. */
  now(): number {
    return this.#opts.now();
  }

  /**
   * When a request to `host` may start (ignoring host diversity), on the
   * clock of {@link now}: a time <= now() when it may now; Infinity while all
   * its slots are in flight (then not before a {@link finish}, which calls
   * the {@link onRelease} listeners). Only time and finish() make it earlier.
   */
  readyAt(host: string): number {
    const s = this.#hosts.get(host);
    if (s === undefined) return 0;
    return s.active < this.#opts.perHost ? s.nextAt : Infinity;
  }

  /** Call `listener` with the host whenever a request ends ({@link finish}); returns the unsubscribe. */
  onRelease(listener: (host: string) => void): () => void {
    this.#releaseListeners.add(listener);
    return () => this.#releaseListeners.delete(listener);
  }

  /** Would starting `host` now keep the last K fetches on K different hosts? */
  diverse(host: string): boolean {
    return this.#opts.hostDiversity < 2 || !this.#recent.includes(host);
  }

  /** A request to `host` starts. */
  start(host: string): void {
    let s = this.#hosts.get(host);
    if (s === undefined) {
      s = { active: 0, nextAt: 0, replay: false };
      this.#hosts.set(host, s);
    }
    s.active++;
    const k = this.#opts.hostDiversity;
    if (k >= 2) {
      this.#recent.push(host);
      if (this.#recent.length > k - 1) this.#recent.shift();
    }
  }

  /**
   * A request to `host` (for `url`) ended. `replay` says whether the answer
   * came from a replay proxy; `requested` is false when no request was made
   * after all (robots.txt refused the URL): then no delay follows.
   * `elapsedMs`: how long the request took (for `delayFactor`).
   */
  finish(host: string, url: string, replay: boolean, requested = true, elapsedMs = 0): void {
    const s = this.#hosts.get(host);
    if (s === undefined || s.active === 0) throw new Error(`finish() without start() for ${host}`);
    s.active--;
    for (const listener of this.#releaseListeners) listener(host);
    if (requested) {
      this.#lastReplay = replay;
      if (elapsedMs > 0) this.#requestMs = this.#requestMs === 0 ? elapsedMs : this.#requestMs + (elapsedMs - this.#requestMs) / 16;
      s.replay ||= replay;
      s.nextAt = Math.max(s.nextAt, this.#opts.now() + this.#delayAfter(url, s.replay, elapsedMs));
    }
    const now = this.#opts.now();
    if (s.nextAt > now) this.#waitFor(host, s.nextAt); // a slot is free: its wait counts again
    else if (s.active === 0) this.#hosts.delete(host); // idle and ready: forget it
  }

  /** Note that `host` may start again at `at` (for msUntilNextReady). */
  #waitFor(host: string, at: number): void {
    this.#due.push({ at, host });
    if (this.#due.size > 2 * this.#hosts.size + 1024) {
      this.#due.filter((d) => this.#hosts.get(d.host)?.nextAt === d.at);
    }
  }

  /** The pause owed after a request for `url` that took `elapsedMs` ends: 0 for replayed hosts unless --delay-ms was explicit. */
  #delayAfter(url: string, replay: boolean, elapsedMs = 0): number {
    if (replay && !this.#opts.delayExplicit) return 0;
    return politeDelayMs(this.#opts.delayMs, this.#opts.crawlDelayMs?.(url) ?? null, this.#opts.delayFactor, elapsedMs);
  }

  /**
   * Milliseconds a followed redirect hop to `url` on `host` must wait. When
   * `held` (the item already holds a slot on this host: a same-host hop) it
   * waits the politeness delay after its own request, which just ended
   * (`replay`: that answer came from a replay proxy; `elapsedMs`: how long
   * it took, for `delayFactor`); either way it waits
   * for the host's next allowed start. A hop to another host then calls
   * {@link start} and {@link finish} around its request like any fetch; it
   * does not wait for a free slot there (two items redirecting into each
   * other's hosts would wait forever), so a host can briefly see one
   * request more than `perHost`.
   */
  hopDelayMs(host: string, url: string, held: boolean, replay: boolean, elapsedMs = 0): number {
    const s = this.#hosts.get(host);
    const own = held ? this.#delayAfter(url, replay || (s?.replay ?? false), elapsedMs) : 0;
    return Math.max(own, (s?.nextAt ?? 0) - this.#opts.now(), 0);
  }

  /**
   * Make `host` wait at least `ms` from now before its next request (retry
   * backoff or Retry-After, see src/frontier/retry.ts); unlike the politeness delay
   * it applies to replayed answers too.
   */
  backoff(host: string, ms: number): void {
    if (!(ms > 0)) return;
    let s = this.#hosts.get(host);
    if (s === undefined) {
      s = { active: 0, nextAt: 0, replay: false };
      this.#hosts.set(host, s);
    }
    s.nextAt = Math.max(s.nextAt, this.#opts.now() + ms);
    this.#waitFor(host, s.nextAt);
  }

  /** How long a request takes, ms: a moving average over the last ~16 that ended (0 before the first). */
  get typicalRequestMs(): number {
    return this.#requestMs;
  }

  /**
   * About how many milliseconds until a request for `url` may start on
   * `host`: 0 when it may now; the rest of its delay or backoff; for a host
   * whose slots are all in flight, the delay owed after the request ends
   * (the request's own remaining time is not known and not counted; whether
   * its answer comes from a replay proxy is guessed from the last answer).
   */
  waitEstimateMs(host: string, url: string): number {
    const s = this.#hosts.get(host);
    if (s === undefined) return 0;
    const now = this.#opts.now();
    const rest = Math.max(0, s.nextAt - now);
    return s.active < this.#opts.perHost ? rest : rest + this.#delayAfter(url, s.replay || this.#lastReplay);
  }

  /** Milliseconds until some delayed host becomes ready; Infinity when none is waiting on a delay. */
  msUntilNextReady(): number {
    const now = this.#opts.now();
    for (let d = this.#due.peek(); d !== undefined; d = this.#due.peek()) {
      const s = this.#hosts.get(d.host);
      if (s === undefined || s.nextAt !== d.at) {
        this.#due.pop(); // stale: the host moved on
      } else if (d.at <= now) {
        this.#due.pop();
        if (s.active === 0) this.#hosts.delete(d.host); // idle and ready: forget it
      } else if (s.active >= this.#opts.perHost) {
        this.#due.pop(); // all its slots in flight: finish() notes its wait again
      } else {
        return d.at - now;
      }
    }
    return Infinity;
  }

  /** Hosts with a request in flight. */
  get activeHosts(): number {
    let n = 0;
    for (const s of this.#hosts.values()) if (s.active > 0) n++;
    return n;
  }
}
