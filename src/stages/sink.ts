/**
 * Stage 6, the frontier sink, the end of the pipeline: canonicalises and
 * filters a page's scored outlinks, commits everything the page changes in
 * ONE atomic store batch (log entry, new and re-prioritised links, seen
 * marks, removal from the frontier), and writes the page's NDJSON record.
 *
 * The commit happens at one instant: the store appends the batch to its
 * synchronous journal (src/journal.ts). The record is written to stdout
 * right after that append, by the store's `beforeBatch` hook, in the same
 * synchronous step (writes to pipes and files are synchronous on Linux). A
 * SIGKILL can fall between the two writes only within microseconds; there
 * the page is committed and its record is missing (at most once). Anywhere
 * else, a killed crawl's stdout holds exactly the committed pages.
 */
import type { CrawlStore } from '../store.ts';
import { canonicalize, type CanonOptions } from '../url.ts';
import type { CrawlItem, ErrorRecord, FrontierEntry, OutputRecord, PageRecord, QueuedLink, Scorer } from '../types.ts';
import { hostOfCanonical } from './frontier-source.ts';

export interface SinkOptions {
  store: CrawlStore;
  strategy: string;
  /** links deeper than this are not queued (seeds are depth 0) */
  maxDepth: number;
  canonOptions?: CanonOptions;
  /** writes one NDJSON line; a promise when the output wants the crawl to wait */
  emit: (line: string) => Promise<void> | undefined;
  /** called after the item's batch is committed (frees its in-flight slot) */
  onCommitted?: (item: CrawlItem, record: OutputRecord) => void;
  /** follow at most this many consecutive off-topic hops (seed 004's tunnel; default no limit) */
  tunnel?: number;
  /** the strategy, told about each commit (observe) and asked for re-scores (rescore) */
  scorer?: Pick<Scorer, 'observe' | 'rescore'>;
}


/** Link context kept with a queued URL (for strategies that re-score). */
const MAX_CONTEXT = 300;

/**
 * Canonical, deduplicated (best score wins) links of a page, within max
 * depth. Links scored below 0 are pruned (strategies use that to drop links
 * they predict irrelevant). `offTopicHops` counts consecutive off-topic pages
 * on the path; beyond `tunnel` the page's links are not followed. Seeds count
 * as on-topic: the user chose them as starting points.
 */
export function linksToQueue(item: CrawlItem, maxDepth: number, canon?: CanonOptions, tunnel = Infinity): QueuedLink[] {
  const { entry, outlinks } = item;
  if (outlinks === undefined || outlinks.length === 0 || entry.depth + 1 > maxDepth) return [];
  const self = new Set([entry.url, item.fetch?.finalUrl]);
  const hops = item.relevant === true || entry.depth === 0 ? 0 : (entry.offTopicHops ?? 0) + 1;
  if (hops > tunnel) return [];
  const parent = item.fetch?.finalUrl ?? entry.url;
  const best = new Map<string, QueuedLink>();
  for (const link of outlinks) {
    const url = canonicalize(link.url, undefined, canon);
    if (url === null || self.has(url)) continue;
    const score = Number.isFinite(link.score) ? link.score : 0;
    if (score < 0) continue;
    const known = best.get(url);
    if (known !== undefined && known.score >= score) continue;
    best.set(url, { url, score, depth: entry.depth + 1, parent, anchor: link.anchor, context: link.context.slice(0, MAX_CONTEXT), offTopicHops: hops });
  }
  return [...best.values()];
}

function errorRecord(entry: FrontierEntry, code: string, message: string, fetchedAt: string, strategy: string): ErrorRecord {
  return { type: 'error', url: entry.url, code, message, fetchedAt, depth: entry.depth, parent: entry.parent, strategy };
}

/** The stdout record for an item. */
export function toRecord(item: CrawlItem, strategy: string): OutputRecord {
  const { entry, fetch } = item;
  if (item.error !== undefined || fetch === undefined) {
    const err = item.error ?? { code: 'FC_INTERNAL', message: 'item reached the sink without a fetch result' };
    return errorRecord(entry, err.code, err.message, fetch?.fetchedAt ?? new Date().toISOString(), strategy);
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
  return record;
}

/** Tell the strategy about a commit and apply the re-scores it asks for. */
async function learn(store: CrawlStore, scorer: Pick<Scorer, 'observe' | 'rescore'>, item: CrawlItem, links: QueuedLink[]): Promise<void> {
  scorer.observe?.(item, links);
  const updates = await scorer.rescore?.(() => frontierEntries(store));
  if (updates && updates.length > 0) await store.reprioritise(updates);
}

async function* frontierEntries(store: CrawlStore): AsyncGenerator<FrontierEntry> {
  for await (const { entry } of store.frontier()) yield entry;
}

export async function sinkStage(source: AsyncIterable<CrawlItem>, opts: SinkOptions): Promise<void> {
  for await (const item of source) {
    const record = toRecord(item, opts.strategy);
    const line = `${JSON.stringify(record)}\n`;
    const links = record.type === 'page' ? linksToQueue(item, opts.maxDepth, opts.canonOptions, opts.tunnel) : [];
    const alsoDone = item.fetch?.redirects.filter((u) => u !== item.entry.url) ?? [];
    let backpressure: Promise<void> | undefined;
    await opts.store.commit(
      { entry: item.entry, record, countsAsPage: record.type === 'page', alsoDone, links },
      { beforeBatch: () => (backpressure = opts.emit(line)) },
    );
    opts.onCommitted?.(item, record);
    if (opts.scorer !== undefined) await learn(opts.store, opts.scorer, item, links);
    if (backpressure !== undefined) await backpressure;
  }
}
