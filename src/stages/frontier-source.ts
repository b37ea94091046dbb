/**
 * Stage 1, the frontier source: yields the best URL whose host may be
 * fetched now. Breadth-first is the special case of equal scores (the
 * frontier is FIFO among equal scores). It pulls only when the next stage
 * asks, so backpressure from stdout reaches the frontier.
 *
 * The source never deletes from the store: a URL it yields stays in the
 * LevelDB frontier until the sink commits its page, so a crash puts every
 * in-flight URL back in the frontier. With a Redis store shared by several
 * workers the head is a ClaimHead (src/store/redis.ts): it leases URLs whose
 * host is free across all workers, and names how long to wait when none is.
 */
import type { FrontierHeadLike, Verdict, KeyedEntry } from '../frontier-head.ts';
import type { Inflight } from '../inflight.ts';
import type { HostScheduler } from '../politeness.ts';
import type { CrawlItem } from '../types.ts';

export interface FrontierSourceOptions {
  head: FrontierHeadLike;
  scheduler: HostScheduler;
  inflight: Inflight;
  /** pages committed so far (resumed crawls count earlier runs) */
  pagesDone: () => number;
  /** stop once this many pages are committed */
  maxPages: number;
  /**
   * best-n-first: take this many URLs, then wait until all of them are
   * committed before taking more (links found in a round wait for the next)
   */
  roundSize?: number;
  signal?: AbortSignal;
}

/** Host part of a canonical URL (canonical URLs always have a path). */
export function hostOfCanonical(url: string): string {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return url.slice(start, end < 0 ? undefined : end);
}

export async function* frontierSource(opts: FrontierSourceOptions): AsyncGenerator<CrawlItem> {
  const { head, scheduler, inflight, signal } = opts;
  const verdict = ({ entry }: KeyedEntry): Verdict => {
    if (inflight.has(entry.url)) return 'skip';
    const host = hostOfCanonical(entry.url);
    if (!scheduler.ready(host)) return 'skip';
    return scheduler.diverse(host) ? 'take' : 'fallback';
  };
  let takenInRound = 0;
  while (signal?.aborted !== true) {
    if (opts.roundSize !== undefined && takenInRound >= opts.roundSize) {
      if (inflight.size > 0) {
        await inflight.wait(Infinity, signal);
        continue;
      }
      takenInRound = 0;
    }
    if (opts.pagesDone() + inflight.size >= opts.maxPages) {
      if (inflight.size === 0) return;
      await inflight.wait(Infinity, signal);
      continue;
    }
    // a host released while the awaits below run must not be slept through
    const wakes = inflight.wakes;
    await head.refill();
    let picked = head.take(verdict);
    if (picked === null) {
      if (head.size === 0 && head.complete && inflight.size === 0) return; // nothing left to crawl
      if (await head.grow()) continue; // everything buffered is busy: buffer more of the frontier
      picked = await head.scanBeyond(verdict); // the buffer is full of busy hosts: look past it
    }
    if (picked !== null) {
      inflight.add(picked.entry.url);
      takenInRound++;
      scheduler.start(hostOfCanonical(picked.entry.url));
      yield { entry: { ...picked.entry } };
      continue;
    }
    await inflight.wait(Math.min(scheduler.msUntilNextReady(), head.waitMs?.() ?? Infinity), signal, wakes);
  }
}
