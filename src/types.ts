/**
 * The shapes that flow between stages. Every stage takes an AsyncIterable of
 * one of these and yields the next; only src/pipeline.ts wires them.
 *
 * One CrawlItem travels the whole pipeline and each stage fills in its part:
 *   frontier source  -> item.entry
 *   robots           -> item.error (ROBOTS_DISALLOWED) or passes through
 *   fetch            -> item.fetch, or item.error
 *   parse            -> item.page (only for HTML bodies)
 *   classify         -> item.relevance, item.relevant, item.outlinks
 *   frontier sink    -> commits, yields an OutputRecord
 * A stage passes an item that already carries `error` through untouched.
 */

import type { ErrorCode } from './errors.ts';

/** A URL waiting in (or taken from) the frontier. `url` is canonical. */
export interface FrontierEntry {
  url: string;
  /** priority: higher is fetched first; equal scores are FIFO by `seq` */
  score: number;
  /** link distance from a seed (seeds are 0) */
  depth: number;
  /** canonical URL of the page the link was found on; null for seeds */
  parent: string | null;
  /** anchor text of the discovering link (capped), for scorers and logs */
  anchor?: string;
  /** link-context window of the discovering link (capped), for re-scoring */
  context?: string;
  /** consecutive off-topic ancestors (for tunnelling strategies) */
  offTopicHops?: number;
  /** discovery order, assigned by the store; FIFO tie-break */
  seq?: number;
  /** fetch attempts already made that failed transiently (absent: none; see src/frontier/retry.ts) */
  attempts?: number;
}

/** What the fetch stage learnt about one URL. */
export interface FetchResult {
  /** the URL requested (canonical) */
  url: string;
  /** the URL that answered after redirects (canonical) */
  finalUrl: string;
  /** every URL requested, in order, including url and finalUrl */
  redirects: string[];
  status: number;
  /** response headers of the final hop, names lower-cased */
  headers: Record<string, string>;
  /** media type without parameters, lower-cased; null when absent */
  contentType: string | null;
  /** charset parameter of Content-Type, lower-cased; null when absent */
  headerCharset: string | null;
  /** body bytes (after Content-Encoding) when the type is parseable, else null */
  body: Buffer | null;
  /** body bytes received (after Content-Encoding) */
  bytes: number;
  /** true when the body was cut at --max-bytes */
  truncated: boolean;
  /** ISO-8601 time the request started */
  fetchedAt: string;
  /** wall time of the fetch, all hops */
  ms: number;
  /** the answer came from a focuscrawl replay proxy (x-focuscrawl-replay) */
  replay: boolean;
  /**
   * every answer of the redirect chain in order, the last one being the final
   * answer above (same status and headers object); present only when a
   * redirect was followed (for `--warc-out`; redirect bodies are not read)
   */
  hops?: FetchHop[];
}

/** One answer of a redirect chain (FetchResult.hops). */
export interface FetchHop {
  /** the URL requested (canonical) */
  url: string;
  status: number;
  /** response headers, names lower-cased */
  headers: Record<string, string>;
  /** ISO-8601 time the request started */
  fetchedAt: string;
}

export type BlockType = 'title' | 'heading' | 'content' | 'navigation' | 'anchor' | 'other';

export interface PageLink {
  /** absolute URL, resolved against <base> / the page URL; not yet canonical */
  url: string;
  /** anchor text (capped), whitespace collapsed; alt text for <area>/<img> */
  anchor: string;
  /** heuristic link-context window (docs/algorithms.md#link-context-window), whitespace collapsed */
  context: string;
  /** tag that carried the link: a, area, frame, iframe, meta (http-equiv=refresh) */
  tag: string;
  /** rel=nofollow on the link, or <meta name=robots content=nofollow> */
  nofollow: boolean;
  /** the block type the link sits in (navigation or content, usually) */
  block: BlockType;
}

export interface ParsedPage {
  title: string;
  /** charset the body was decoded with (a WHATWG encoding label) */
  charset: string;
  /** visible text grouped by block type (each capped) */
  blocks: Record<BlockType, string>;
  links: PageLink[];
  /** effective base URL */
  base: string;
  /** <meta name=robots> directives */
  noindex: boolean;
  nofollow: boolean;
  /** <html lang>, when given */
  lang: string | null;
  /**
   * the main text in document order, one line per block (navigation left
   * out), when the parser was asked to keep it (PageParserOptions.mainTextChars)
   */
  text?: string;
  /** `text` reached its cap and was cut */
  textTruncated?: boolean;
  /** the parser's caps that changed the result (present only when one did; src/parse/page-parser.ts) */
  caps?: PageCap[];
  /** http(s) links without rel=nofollow past the links cap, not kept (present only when > 0 and the page is not nofollow) */
  linksDropped?: number;
}

/**
 * A cap of the page parser that changed its result: 'nesting', elements
 * opened deeper than MAX_NESTING were closed at once; 'links', links past
 * the links cap (--max-links-per-page) were dropped.
 */
export type PageCap = 'nesting' | 'links';

/** A link as a page record lists it (`--outlinks`). */
export interface RecordOutlink {
  /** canonical URL */
  url: string;
  anchor: string;
  /** the strategy's priority for it */
  score: number;
}

/** A link after scoring, ready for the frontier sink. */
export interface Outlink {
  url: string;
  /**
   * the canonical form of `url` when the classify stage computed it (with
   * the crawl's canonicalisation options; null: not a crawlable URL), so
   * that the sink does not compute it again; absent: the sink computes it
   */
  canonical?: string | null;
  score: number;
  anchor: string;
  context: string;
}

export interface ItemError {
  /** a declared code (src/errors.ts ERROR_CODES) */
  code: ErrorCode;
  message: string;
}

/**
 * An item's claim on its host slot and its place in flight, issued when the
 * frontier source takes it (src/crawl/context.ts): each is given back once.
 */
export interface ItemTicket {
  /** free the host slot (the fetch settled; `requested`: a request went out) */
  release(requested: boolean): void;
  /** the item is done (committed or queued again): free its slot if still held, and leave the in-flight set */
  settle(): void;
}

export interface CrawlItem {
  entry: FrontierEntry;
  /** set by the frontier source when the crawl issues tickets */
  ticket?: ItemTicket;
  fetch?: FetchResult;
  error?: ItemError;
  /**
   * the answers received before the fetch failed (for `--warc-out`): the
   * redirects before a refused hop, a loop, a chain past the hop cap, a
   * bad location or a failed later hop, and an answer whose body could not
   * be decoded (FC_DECODE)
   */
  refusedHops?: FetchHop[];
  page?: ParsedPage;
  relevance?: number;
  relevant?: boolean;
  outlinks?: Outlink[];
  /** SimHash of the page text, 16 hex digits (dedup stage; 2xx pages with enough text) */
  simhash?: string;
  /**
   * the page's SimHash as a parse worker computed it with the parse
   * (--workers; 16 hex digits, null: too few tokens): the dedup stage takes
   * it instead of computing it again; absent: not computed
   */
  fingerprint?: string | null;
  /** URL of an earlier page within the near-duplicate distance (dedup stage); its links are not queued */
  duplicateOf?: string;
}

/** One line of stdout for a URL that got an HTTP answer. */
export interface PageRecord {
  type: 'page';
  url: string;
  finalUrl: string;
  status: number;
  fetchedAt: string;
  depth: number;
  parent: string | null;
  host: string;
  contentType: string | null;
  charset: string | null;
  bytes: number;
  truncated: boolean;
  title: string | null;
  score: number;
  relevance: number;
  relevant: boolean;
  links: number;
  strategy: string;
  ms: number;
  /** fetch attempts, present when more than one (src/frontier/retry.ts) */
  attempts?: number;
  /** SimHash of the page text, 16 hex digits (present when near-duplicate detection fingerprinted the page) */
  simhash?: string;
  /** an earlier page within --near-dup-distance; this page's links were not queued */
  duplicateOf?: string;
  /** with `--text` (CrawlConfig.textChars), on pages parsed as HTML: the main text (ParsedPage.text) */
  text?: string;
  /** present (true) when `text` was cut at its cap */
  textTruncated?: boolean;
  /** present when a cap of the page parser changed the result (ParsedPage.caps) */
  caps?: PageCap[];
  /** with `--outlinks`: the page's followable links (src/stages/sink.ts recordOutlinks) */
  outlinks?: RecordOutlink[];
}

/** One line of stdout for a URL that failed (no usable HTTP answer). */
export interface ErrorRecord {
  type: 'error';
  url: string;
  code: string;
  message: string;
  fetchedAt: string;
  depth: number;
  parent: string | null;
  strategy: string;
  /** fetch attempts, present when more than one (src/frontier/retry.ts) */
  attempts?: number;
}

export type OutputRecord = PageRecord | ErrorRecord;

/** A topic as given by the user (topic.json). */
export interface Topic {
  name: string;
  terms: string[];
  /** page relevance at or above this is `relevant` */
  threshold: number;
  /** strategy parameters (numbers or strings), overridable with --param */
  params?: Record<string, number | string>;
}

/** A link as queued by the sink: canonical URL, its score and context. */
export interface QueuedLink {
  url: string;
  score: number;
  depth: number;
  parent: string;
  anchor: string;
  context: string;
  offTopicHops: number;
}

/** A new priority for a queued URL (ignored when the URL is no longer queued). */
export interface Rescore {
  url: string;
  score: number;
}

/**
 * Strategy interface (the classify stage calls pageRelevance and linkScore;
 * the frontier sink calls observe and rescore after each commit).
 */
export interface Scorer {
  readonly name: string;
  /**
   * True when the strategy reads `anchor` and `context` of entries back from
   * the frontier (in rescore, as `online` does). Otherwise frontier entries
   * are stored without them: on a link-heavy web the text was most of each
   * entry's bytes in LevelDB and the journal. The links passed to observe
   * carry their text either way.
   */
  readonly readsQueuedText?: boolean;
  /** relevance of a fetched page to the topic, 0..1; called once per page */
  pageRelevance(page: ParsedPage, item: CrawlItem): number;
  /**
   * frontier priority of a link found on `page`; higher is fetched first.
   * `url` is the link's canonical URL when the caller computed it (the
   * classify stage does, with the crawl's options); undefined otherwise
   */
  linkScore(link: PageLink, page: ParsedPage, pageRelevance: number, url?: string): number;
  /**
   * The page's batch is committed: `links` are the links queued from it
   * (canonical, with their anchor and context). Strategies that learn from
   * outcomes or keep a link graph update themselves here. Must be cheap: it
   * runs on the crawl's hot path.
   */
  observe?(item: CrawlItem, links: readonly QueuedLink[]): void;
  /**
   * Called after observe. Returns new priorities for queued URLs when the
   * strategy has some (e.g. a HITS round every p pages), else null.
   * `frontier` iterates queued entries best first (read it only as far as
   * needed). `floor` is the lowest priority of the URLs the crawler picks
   * from now (its in-memory frontier head; absent or -Infinity: all of
   * them). A URL whose old and new priorities are both below it waits in
   * the store either way, so a strategy may leave its move for a later
   * call, when the floor has come down to it: each move rewrites a frontier
   * entry in the store. The work per call must be bounded.
   */
  rescore?(frontier: () => AsyncIterable<FrontierEntry>, floor?: number): Promise<Rescore[] | null> | Rescore[] | null;
}
