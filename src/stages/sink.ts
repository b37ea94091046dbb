/**
 * Stage 6, the frontier sink, the end of the pipeline: canonicalises (unless
 * classify did) and filters a page's scored outlinks, commits everything the page changes in
 * ONE atomic store batch (log entry, new and re-prioritised links, seen
 * marks, removal from the frontier), and writes the page's NDJSON record.
 *
 * The commit happens at one instant: the store appends the batch to its
 * synchronous journal (src/store/journal.ts). The record is written to stdout
 * right after that append, by the store's `beforeBatch` hook, in the same
 * synchronous step (writes to pipes and files are synchronous on Linux). A
 * SIGKILL can fall between the two writes only within microseconds; there
 * the page is committed and its record is missing (at most once). Anywhere
 * else, a killed crawl's stdout holds exactly the committed pages.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { attemptOf, gotNoAnswer, shouldRetry, type RetryPolicy } from '../frontier/retry.ts';
import type { Store } from '../store/types.ts';
import { jsonForTerminal } from '../output/terminal.ts';
import { KeyTable } from '../util/key-table.ts';
import type { InScope } from '../urls/scope.ts';
import { DEFAULT_TRAP_LIMITS, trapReason, type TrapLimits, type TrapReason } from '../urls/traps.ts';
import { canonicalizer, hostOfCanonical, type CanonOptions } from '../urls/canonical.ts';
import type { CrawlItem, ErrorRecord, FrontierEntry, Outlink, OutputRecord, PageRecord, QueuedLink, RecordOutlink, Scorer } from '../types.ts';

export interface SinkOptions {
  store: Store;
  strategy: string;
  /** page records list the page's links (RecordOptions.outlinks) */
  outlinks?: boolean;
  /** links deeper than this are not queued (seeds are depth 0) */
  maxDepth: number;
  canonOptions?: CanonOptions;
  /** writes one NDJSON line; a promise when the output wants the crawl to wait */
  emit: (line: string) => Promise<void> | undefined;
  /**
   * called after the item's batch is committed (frees its in-flight slot);
   * the sink then drops the item's `page` and `outlinks` (see letGo), so
   * copy what you need from them inside the callback
   */
  onCommitted?: (item: CrawlItem, record: OutputRecord) => void;
  /** follow at most this many consecutive off-topic hops (SkyReach's tunnels, docs/algorithms.md#topics-on-the-web; default no limit) */
  tunnel?: number;
  /**
   * the strategy, told about each commit (observe, with each link's anchor
   * and context) and asked for re-scores (rescore); frontier entries keep
   * the anchor and context only when there is none or it reads them back
   * (readsQueuedText)
   */
  scorer?: Pick<Scorer, 'observe' | 'rescore' | 'readsQueuedText'>;
  /** trap rules, host budget and drop counter for links (default: the default trap rules only) */
  linkGuard?: LinkGuard;
  /** retry transient failures (src/frontier/retry.ts); without it every outcome is final */
  retry?: RetryPolicy;
  /** called after a URL went back to the frontier for another attempt (frees its in-flight slot) */
  onRetry?: (item: CrawlItem) => void;
  /** one line of human-readable log per retry */
  log?: (line: string) => void;
  /**
   * the priority of the worst frontier entry the frontier source holds in
   * memory (FrontierHead.floor; default -Infinity: it holds all of them),
   * passed to the strategy's rescore
   */
  rescoreFloor?: () => number;
  /**
   * ms the item's host must wait before its next request, for a store that
   * holds politeness across workers (Redis; see src/store/redis.ts)
   */
  hostDelayMs?: (item: CrawlItem) => number;
}


/** Link context kept with a queued URL (for strategies that re-score). */
const MAX_CONTEXT = 300;

/**
 * The sink gives the event loop a turn (setImmediate) once it has worked
 * this long without one. A journaled store's commit does not wait for
 * LevelDB, so without turns the sink commits every finished page in one run
 * of microtasks: no response is read, no request written and no URL taken
 * meanwhile. That cost a polite crawl 20% of its pages/s and the demo's
 * crawl its focus (harvest 47% against 66-71% before write-behind; 53-55%
 * with a turn every 3 ms, 62-67% every 1 ms). Measured in BENCHMARKS.md.
 */
export const SINK_TURN_MS = 1;

/**
 * Why a link was not queued: a trap rule (src/urls/traps.ts), the crawl's scope
 * (src/urls/scope.ts), a file extension (src/urls/extensions.ts), its host's used-up
 * page budget, or the links cap of its page (--max-links-per-page: the
 * parser did not keep it).
 */
export type LinkDropReason = TrapReason | 'out-of-scope' | 'file-extension' | 'host-budget' | 'links-per-page';

/** Refusals of links beyond depth and tunnel (issue 5, crawler traps). */
export interface LinkGuard {
  /** trap rules (default DEFAULT_TRAP_LIMITS) */
  traps?: Readonly<TrapLimits>;
  /** false for a URL outside the crawl's scope (src/urls/scope.ts): not queued */
  inScope?: InScope;
  /** true for a URL to a file that is not a page (src/urls/extensions.ts, --skip-extensions): not queued */
  skipExtension?: (url: string) => boolean;
  /** true for a host that has given its page budget: links to it are not queued */
  hostFull?: (host: string) => boolean;
  /** told once per page and URL about each link refused by a trap rule, the scope, its extension or the budget */
  onDrop?: (url: string, reason: LinkDropReason) => void;
  /**
   * told how many links of a page whose links are queued the parser dropped
   * at its links cap (ParsedPage.linksDropped: link occurrences, not
   * distinct URLs, as they were never read)
   */
  onCapped?: (links: number) => void;
}

/**
 * Canonical, deduplicated (best score wins) links of a page, within max
 * depth. Links scored below 0 are pruned (strategies use that to drop links
 * they predict irrelevant). `offTopicHops` counts consecutive off-topic pages
 * on the path; beyond `tunnel` the page's links are not followed. Seeds count
 * as on-topic: the user chose them as starting points. Links that break a
 * trap rule, leave the crawl's scope, end in a skipped file extension or lead to a host over its page budget
 * are dropped (`guard`).
 * With `withText` false the links carry empty anchor and context (when
 * nothing reads them: no observe, and not kept in the frontier). An
 * outlink's `canonical`, when classify set it, is taken as its URL; it
 * must have been made with the same `canon` options.
 */
export function linksToQueue(item: CrawlItem, maxDepth: number, canon?: CanonOptions, tunnel = Infinity, guard: LinkGuard = {}, withText = true): QueuedLink[] {
  const { entry, outlinks } = item;
  // a near-duplicate of an earlier page (src/stages/dedup.ts) is not expanded again
  if (item.duplicateOf !== undefined) return [];
  if (outlinks === undefined || outlinks.length === 0 || entry.depth + 1 > maxDepth) return [];
  const finalUrl = item.fetch?.finalUrl;
  const hops = item.relevant === true || entry.depth === 0 ? 0 : (entry.offTopicHops ?? 0) + 1;
  if (hops > tunnel) return [];
  const capped = item.page?.linksDropped ?? 0;
  if (capped > 0) guard.onCapped?.(capped);
  const parent = item.fetch?.finalUrl ?? entry.url;
  // each URL once, at its first place, with its best score (a table reused by every page)
  const best = BEST_LINKS;
  best.clear();
  let dropped: Set<string> | undefined;
  const canonicalOf = canonicalizer(canon);
  for (const link of outlinks) {
    const url = link.canonical !== undefined ? link.canonical : canonicalOf(link.url);
    if (url === null || url === entry.url || url === finalUrl) continue;
    const score = Number.isFinite(link.score) ? link.score : 0;
    if (score < 0 || dropped?.has(url) === true) continue;
    const reason =
      trapReason(url, guard.traps ?? DEFAULT_TRAP_LIMITS) ??
      (guard.inScope !== undefined && !guard.inScope(url) ? 'out-of-scope' : null) ??
      (guard.skipExtension?.(url) === true ? 'file-extension' : null) ??
      (guard.hostFull?.(hostOfCanonical(url)) === true ? 'host-budget' : null);
    if (reason !== null) {
      (dropped ??= new Set()).add(url);
      guard.onDrop?.(url, reason);
      continue;
    }
    const known = best.get(url);
    if (known !== undefined && known.score >= score) continue;
    const anchor = withText ? link.anchor : '';
    const context = withText ? link.context.slice(0, MAX_CONTEXT) : '';
    best.set(url, { url, score, depth: entry.depth + 1, parent, anchor, context, offTopicHops: hops });
  }
  const out = best.values();
  best.clear();
  return out;
}

/** linksToQueue's table of a page's links by URL (URLs share their ends: every character hashed) */
const BEST_LINKS = new KeyTable<QueuedLink>(64, 1 << 14, true);

function errorRecord(entry: FrontierEntry, code: string, message: string, fetchedAt: string, strategy: string): ErrorRecord {
  return { type: 'error', url: entry.url, code, message, fetchedAt, depth: entry.depth, parent: entry.parent, strategy };
}

/** The record with `attempts` added when the item took more than one. */
function withAttempts<R extends OutputRecord>(record: R, item: CrawlItem): R {
  const attempts = attemptOf(item);
  return attempts > 1 ? { ...record, attempts } : record;
}

/** Options of toRecord. */
export interface RecordOptions {
  /** page records list the page's links (`outlinks`, see recordOutlinks) */
  outlinks?: boolean;
  /** canonicalisation of an outlink the classify stage left without its canonical form */
  canonOptions?: CanonOptions;
}

/**
 * A page's links for its record: each distinct canonical URL once, in the
 * order of first appearance, with the anchor of that first link and the
 * highest score any of its links got (the frontier takes that one).
 */
export function recordOutlinks(links: readonly Outlink[], canonOptions?: CanonOptions): RecordOutlink[] {
  const canonicalOf = canonicalizer(canonOptions);
  const byUrl = new Map<string, RecordOutlink>();
  for (const l of links) {
    const url = l.canonical === undefined ? canonicalOf(l.url) : l.canonical;
    if (url === null) continue;
    const seen = byUrl.get(url);
    if (seen === undefined) byUrl.set(url, { url, anchor: l.anchor, score: l.score });
    else if (l.score > seen.score) seen.score = l.score;
  }
  return [...byUrl.values()];
}

/** The stdout record for an item. */
export function toRecord(item: CrawlItem, strategy: string, opts: RecordOptions = {}): OutputRecord {
  const { entry, fetch } = item;
  if (item.error !== undefined || fetch === undefined) {
    const err = item.error ?? { code: 'FC_INTERNAL', message: 'item reached the sink without a fetch result' };
    return withAttempts(errorRecord(entry, err.code, err.message, fetch?.fetchedAt ?? new Date().toISOString(), strategy), item);
  }
  const record: PageRecord = {
    type: 'page',
    url: entry.url,
    finalUrl: fetch.finalUrl,
    status: fetch.status,
    fetchedAt: fetch.fetchedAt,
    depth: entry.depth,
    parent: entry.parent,
    host: hostOfCanonical(fetch.finalUrl),
    contentType: fetch.contentType,
    charset: item.page?.charset ?? fetch.headerCharset,
    bytes: fetch.bytes,
    truncated: fetch.truncated,
    title: item.page?.title ?? null,
    score: entry.score,
    relevance: item.relevance ?? 0,
    relevant: item.relevant ?? false,
    links: item.outlinks?.length ?? 0,
    strategy,
    ms: fetch.ms,
  };
  if (item.simhash !== undefined) record.simhash = item.simhash;
  if (item.duplicateOf !== undefined) record.duplicateOf = item.duplicateOf;
  if (item.page?.text !== undefined) {
    record.text = item.page.text;
    if (item.page.textTruncated === true) record.textTruncated = true;
  }
  if (item.page?.caps !== undefined) record.caps = item.page.caps;
  if (opts.outlinks === true) record.outlinks = recordOutlinks(item.outlinks ?? [], opts.canonOptions);
  return withAttempts(record, item);
}

/**
 * Detach what parsing and classifying hung on a committed item: its page
 * (links, anchors, contexts, text blocks) and its scored outlinks. Every
 * reader has run by then (the record, the queued links, onCommitted, the
 * strategy's observe and rescore). Why: the item itself is old by now. It
 * was made when the frontier chose its URL and waited out its fetch and
 * then the fetch stage's queue of finished pages (~80 ms at `--concurrency
 * 64`, a dozen scavenges), so V8 promoted it, and a dead old object is
 * only found dead by the next mark-compact (one per ~300 pages). Until
 * then every young object it points to survives each scavenge (old-to-new
 * pointers are roots), is copied twice and promoted: the page's products,
 * which die a millisecond after they are made, were most of what the young
 * generation promoted (docs/results/cpu-per-page.md, seventh pass).
 */
function letGo(item: CrawlItem): void {
  item.page = undefined;
  item.outlinks = undefined;
}

/** Tell the strategy about a commit and apply the re-scores it asks for. */
async function learn(store: Store, scorer: Pick<Scorer, 'observe' | 'rescore'>, item: CrawlItem, links: QueuedLink[], floor: number): Promise<void> {
  scorer.observe?.(item, links);
  const updates = await scorer.rescore?.(() => frontierEntries(store), floor);
  if (updates && updates.length > 0) await store.reprioritise(updates);
}

async function* frontierEntries(store: Store): AsyncGenerator<FrontierEntry> {
  for await (const { entry } of store.frontier()) yield entry;
}

export async function sinkStage(source: AsyncIterable<CrawlItem>, opts: SinkOptions): Promise<void> {
  let turn = performance.now();
  // commits in flight, oldest first (Store.commitWindow; 1: none left in flight)
  const window = Math.max(1, opts.store.commitWindow ?? 1);
  const inFlight: Promise<void>[] = [];
  for await (const item of source) {
    if (performance.now() - turn >= SINK_TURN_MS) {
      await nextTurn();
      turn = performance.now();
    }
    if (opts.retry !== undefined && shouldRetry(item, opts.retry)) {
      // after the commits before it, as with a window of 1
      while (inFlight.length > 0) await inFlight.shift();
      const attempts = attemptOf(item);
      await opts.store.retry({ ...item.entry, attempts }, { hostDelayMs: opts.hostDelayMs?.(item) });
      const why = item.error?.code ?? `HTTP ${item.fetch?.status}`;
      opts.log?.(`focuscrawl: ${why} for ${item.entry.url}; attempt ${attempts + 1} of ${opts.retry.retries + 1} follows`);
      opts.onRetry?.(item);
      continue;
    }
    const record = toRecord(item, opts.strategy, { outlinks: opts.outlinks, canonOptions: opts.canonOptions });
    // one JSON.stringify for the line and the store's log
    const json = JSON.stringify(record);
    // escapes what JSON.stringify leaves raw but a terminal acts on (C1, bidi, U+2028)
    const line = `${jsonForTerminal(json)}\n`;
    // the store keeps the links' text only for a strategy that reads it back;
    // they carry it when it is kept or the strategy's observe() sees them
    const keepText = opts.scorer === undefined || opts.scorer.readsQueuedText === true;
    const withText = keepText || opts.scorer?.observe !== undefined;
    const links = record.type === 'page' ? linksToQueue(item, opts.maxDepth, opts.canonOptions, opts.tunnel, opts.linkGuard, withText) : [];
    const alsoDone = item.fetch?.redirects.filter((u) => u !== item.entry.url) ?? [];
    const committed = (async () => {
      let backpressure: Promise<void> | undefined;
      await opts.store.commit(
        // a URL that got no answer is re-tryable on the next run (Commit.retryLater)
        { entry: item.entry, record, recordJson: json, countsAsPage: record.type === 'page', alsoDone, links, keepText, hostDelayMs: opts.hostDelayMs?.(item), retryLater: gotNoAnswer(item) },
        { beforeBatch: () => (backpressure = opts.emit(line)) },
      );
      opts.onCommitted?.(item, record);
      if (opts.scorer !== undefined) await learn(opts.store, opts.scorer, item, links, opts.rescoreFloor?.() ?? -Infinity);
      if (backpressure !== undefined) await backpressure;
      letGo(item);
    })();
    if (window === 1) {
      await committed;
      continue;
    }
    // a failure surfaces when its turn is awaited; later ones are not reported twice
    committed.catch(() => {});
    inFlight.push(committed);
    if (inFlight.length >= window) await inFlight.shift();
  }
  while (inFlight.length > 0) await inFlight.shift();
}
