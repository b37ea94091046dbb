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
import type { FrontierHeadLike, Verdict, KeyedEntry } from '../frontier/head.ts';
import type { Inflight } from '../frontier/inflight.ts';
import type { HostScheduler } from '../frontier/politeness.ts';
import type { CrawlItem, FrontierEntry, ItemTicket } from '../types.ts';
import { hostOfCanonical } from '../urls/canonical.ts';

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
  /**
   * Hold-back share q (0 = off): while a request is in flight and the best
   * queued URL waits only for its host, a URL scoring no more than the
   * head's score q of the way up from its worst is not taken; the source
   * waits for a commit or a host instead. See {@link holdAtOrBelow}.
   */
  holdBack?: number;
  /**
   * gives each taken item its ticket (src/crawl/context.ts), once its URL is
   * in flight and its host slot taken
   */
  issue?: (item: CrawlItem) => ItemTicket;
  signal?: AbortSignal;
}

/** The hold-back share of a crawl that does not set one (--hold-back): the bottom half. */
export const DEFAULT_HOLD_BACK = 0.5;

/**
 * The score at or below which the source does not take a URL now, or
 * -Infinity. Without it, every free request slot is filled at once: when
 * the best URLs sit on a few hosts that are busy (one request per host), the
 * slots go to whatever other hosts offer, down to links scored 0, and a
 * focused crawl spends its page budget on them while the good hosts are a
 * few milliseconds from free. With `share` q, a URL scoring no more than
 * the buffered frontier's score q of the way up from its worst (by rank, so
 * it means the same on every scorer's scale; the median at q = 0.5) waits,
 * and one above it is taken at once: a crawl whose good URLs span many
 * hosts keeps every slot busy. When that score is the best one's (equal
 * scores, as in bfs) nothing is held.
 *
 * Holding is worth it only while the wait is short: a slot kept free for
 * w ms costs w ms of slot time, a weak URL taken costs one request's time
 * and a page of the budget. So nothing is held while the best URL's host
 * waits longer than a typical request takes (a politeness delay, a
 * backoff: polite crawls of live hosts keep every slot busy), nor when
 * nothing is in flight (the crawl must move).
 */
export function holdAtOrBelow(head: FrontierHeadLike, scheduler: HostScheduler, inflight: Inflight, share: number): number {
  if (!(share > 0) || inflight.size === 0 || head.best === undefined || head.scoreAt === undefined) return -Infinity;
  const best = head.best();
  if (best === undefined) return -Infinity;
  if (scheduler.waitEstimateMs(hostOfCanonical(best.entry.url), best.entry.url) > scheduler.typicalRequestMs) return -Infinity;
  const bound = head.scoreAt(1 - share);
  return bound < best.entry.score ? bound : -Infinity;
}

export async function* frontierSource(opts: FrontierSourceOptions): AsyncGenerator<CrawlItem> {
  const { head, scheduler, inflight, signal } = opts;
  const verdict = ({ entry }: KeyedEntry): Verdict => {
    if (inflight.has(entry.url)) return 'skip';
    const host = hostOfCanonical(entry.url);
    if (!scheduler.ready(host)) return 'skip';
    return scheduler.diverse(host) ? 'take' : 'fallback';
  };
  // a request ended: the head looks again at the entries of its host (it sets a busy host's aside)
  const unsubscribe = head.release === undefined ? () => {} : scheduler.onRelease((host) => head.release!(host));
  try {
    yield* pick(opts, verdict);
  } finally {
    unsubscribe();
  }
}

async function* pick(opts: FrontierSourceOptions, verdict: (e: KeyedEntry) => Verdict): AsyncGenerator<CrawlItem> {
  const { head, scheduler, inflight, signal } = opts;
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
    const hold = holdAtOrBelow(head, scheduler, inflight, opts.holdBack ?? 0);
    let picked = head.take(verdict, hold, scheduler);
    // with a hold, every URL worth a slot now waits for its host, and nothing beyond the buffer scores higher: wait below
    if (picked === null && hold === -Infinity) {
      if (head.size === 0 && head.complete && inflight.size === 0) return; // nothing left to crawl
      if (await head.grow()) continue; // everything buffered is busy: buffer more of the frontier
      picked = await head.scanBeyond(verdict, undefined, scheduler); // the buffer is full of busy hosts: look past it
    }
    if (picked !== null) {
      inflight.add(picked.entry.url);
      takenInRound++;
      scheduler.start(hostOfCanonical(picked.entry.url));
      const item = newItem({ ...picked.entry });
      if (opts.issue !== undefined) item.ticket = opts.issue(item);
      yield item;
      continue;
    }
    await inflight.wait(Math.min(scheduler.msUntilNextReady(), head.waitMs?.() ?? Infinity), signal, wakes);
  }
}

/**
 * A new item for `entry` with every field a stage may set already there
 * (undefined), in the order the stages set them: its shape does not change
 * on the way. Why: an item is promoted to the old generation while it
 * waits for its fetch and in the fetch stage's queue (~80 ms, a dozen
 * scavenges at `--concurrency 64`), and the stages then added `fetch`,
 * `page`, `relevance`, `relevant`, `outlinks` and `simhash` to the old
 * object one by one. Measured (docs/results/cpu-per-page.md, seventh
 * pass): with those fields added late, V8 promoted ~8 KB a page more
 * (~40% of all it promoted) than with them declared here. Not pinned down
 * in V8: adding one more field before `page` gave the same saving, one
 * after it none.
 */
export function newItem(entry: FrontierEntry): CrawlItem {
  return {
    entry,
    ticket: undefined,
    fetch: undefined,
    error: undefined,
    refusedHops: undefined,
    page: undefined,
    relevance: undefined,
    relevant: undefined,
    outlinks: undefined,
    simhash: undefined,
    fingerprint: undefined,
    duplicateOf: undefined,
  };
}
