/**
 * What the stages call back into while a crawl runs (src/pipeline.ts): the
 * host slots of the politeness scheduler, the in-flight set, the host
 * budget, near-duplicates and the summary counters. Nothing else reaches
 * back up the pipeline.
 *
 * Each item the frontier source takes gets a {@link Ticket} (`issue`). Its
 * host slot is freed once, when the fetch stage settles it (`requested`
 * says whether a request went out, so the politeness delay follows it: a
 * URL refused before the fetch, by robots, the address guard or the host
 * budget, made none; one whose redirect hop robots.txt refused did). The
 * sink settles it once more when it commits or requeues the item; that
 * frees the slot if the fetch stage did not (a safety net) and takes the
 * URL out of flight. A ticket does each of these at most once, whoever
 * calls and however often.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CountedRecord } from '../frontier/host-budget.ts';
import type { Inflight } from '../frontier/inflight.ts';
import type { HostScheduler } from '../frontier/politeness.ts';
import { hostBackoffMs, type RetryPolicy } from '../frontier/retry.ts';
import type { CrawlItem, ItemTicket, OutputRecord } from '../types.ts';
import { hostOfCanonical } from '../urls/canonical.ts';
import type { LinkDropReason } from '../stages/sink.ts';
import type { CrawlSummary } from './summary.ts';

export interface CrawlContextOptions {
  scheduler: Pick<HostScheduler, 'start' | 'finish' | 'backoff' | 'hopDelayMs'>;
  inflight: Pick<Inflight, 'delete' | 'wake'>;
  retry: RetryPolicy;
  /** this run's counters, updated as records are committed and links dropped */
  summary: CrawlSummary;
  /** the host budget counts committed pages */
  budget?: { committed(record: CountedRecord): void };
  /** near-duplicates index committed pages under the store's commit count */
  dedup?: { committed(item: CrawlItem, n: number): void } | null;
  /** the store's commit count */
  committedCount?: () => number;
  /** live statistics see every committed record */
  observe?: (record: OutputRecord) => void;
}

/** One taken item's host slot and in-flight place, each given back once. */
export class Ticket implements ItemTicket {
  #released = false;
  #settled = false;
  readonly #ctx: CrawlContextOptions;
  readonly #item: CrawlItem;

  constructor(ctx: CrawlContextOptions, item: CrawlItem) {
    this.#ctx = ctx;
    this.#item = item;
  }

  get released(): boolean {
    return this.#released;
  }

  get settled(): boolean {
    return this.#settled;
  }

  release(requested: boolean): void {
    if (this.#released) return;
    this.#released = true;
    const item = this.#item;
    const host = hostOfCanonical(item.entry.url);
    this.#ctx.scheduler.finish(host, item.entry.url, item.fetch?.replay ?? false, requested, item.fetch?.ms ?? 0);
    this.#ctx.scheduler.backoff(host, hostBackoffMs(item, this.#ctx.retry));
    this.#ctx.inflight.wake();
  }

  settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.release(this.#item.fetch !== undefined);
    this.#ctx.inflight.delete(this.#item.entry.url);
  }
}

export class CrawlContext {
  readonly #o: CrawlContextOptions;

  constructor(opts: CrawlContextOptions) {
    this.#o = opts;
  }

  /** the frontier source took the item: its URL is in flight, its host slot held */
  readonly issue = (item: CrawlItem): Ticket => new Ticket(this.#o, item);

  /** an item taken without a ticket (a caller's own source) gets one on first use */
  #ticket(item: CrawlItem): ItemTicket {
    return (item.ticket ??= this.issue(item));
  }

  /** fetch stage: the item settled, its host slot is free */
  readonly onFetched = (item: CrawlItem, requested: boolean): void => this.#ticket(item).release(requested);

  /** sink: the item goes back to the frontier for another attempt */
  readonly onRetry = (item: CrawlItem): void => this.#ticket(item).settle();

  /** sink: the item's record is committed */
  readonly onCommitted = (item: CrawlItem, record: OutputRecord): void => {
    const { budget, dedup, summary } = this.#o;
    budget?.committed(record);
    dedup?.committed(item, this.#o.committedCount?.() ?? 0);
    if (record.type === 'page' && record.duplicateOf !== undefined) summary.nearDuplicates = (summary.nearDuplicates ?? 0) + 1;
    this.#ticket(item).settle();
    this.#o.observe?.(record);
    if (record.type === 'error') summary.errors++;
    else {
      summary.pages++;
      if (record.relevant) summary.relevant++;
    }
  };

  /** sink: a link was not queued */
  readonly onDrop = (_url: string, reason: LinkDropReason): void => {
    const { dropped } = this.#o.summary;
    dropped[reason] = (dropped[reason] ?? 0) + 1;
  };

  /** sink: a page's links past the cap were cut */
  readonly onCapped = (n: number): void => {
    const { dropped } = this.#o.summary;
    dropped['links-per-page'] = (dropped['links-per-page'] ?? 0) + n;
  };

  /**
   * fetch stage, before a redirect hop: a followed redirect is polite too. A
   * hop waits its host's delay, and a hop to another host takes a slot there,
   * given back by the callback returned (once the hop is answered).
   */
  readonly beforeHop = async (
    url: string,
    hop: { origin: string; replay: boolean; elapsedMs: number; signal: AbortSignal },
  ): Promise<((replay: boolean) => void) | undefined> => {
    const { scheduler, inflight } = this.#o;
    const host = hostOfCanonical(url);
    const held = host === hostOfCanonical(hop.origin);
    const wait = scheduler.hopDelayMs(host, url, held, hop.replay, hop.elapsedMs);
    if (wait > 0) await sleep(wait, undefined, { signal: hop.signal });
    if (held) return undefined;
    scheduler.start(host);
    const hopStarted = Date.now();
    let done = false;
    return (replay) => {
      if (done) return;
      done = true;
      scheduler.finish(host, url, replay, true, Date.now() - hopStarted);
      inflight.wake();
    };
  };
}
