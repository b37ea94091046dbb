/**
 * What one crawl is asked to do: the options of runCrawl (src/pipeline.ts),
 * which the crawl command builds from its flags (src/commands/crawl.ts).
 */
import type { Writable } from 'node:stream';
import { UsageError } from '../errors.ts';
import type { Resolver } from '../fetch/lookup.ts';
import { DEFAULT_MAX_PAGES_PER_HOST } from '../frontier/host-budget.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../frontier/retry.ts';
import type { StatsSnapshot } from '../output/stats.ts';
import { DEFAULT_MAX_LINKS } from '../parse/page-parser.ts';
import { defaultWorkers, MAX_WORKERS } from '../parse/pool.ts';
import { DEFAULT_ROUND_SIZE } from '../relevance/scorers/best-n-first.ts';
import type { LearnedModel } from '../relevance/scorers/context.ts';
import { DEFAULT_EXPLORE } from '../relevance/scorers/explore.ts';
import { defaultSiteLane } from '../relevance/scorers/site-lane.ts';
import { createScorer, relevanceThreshold } from '../relevance/scorers/index.ts';
import { DEFAULT_NEAR_DUP_DISTANCE } from '../relevance/simhash.ts';
import type { Segmenter } from '../relevance/text/segmenter.ts';
import { DEFAULT_HOLD_BACK } from '../stages/frontier-source.ts';
import { isRedisStore } from '../store/types.ts';
import type { FrontierEntry, Scorer, Topic } from '../types.ts';
import { canonicalize, type CanonOptions } from '../urls/canonical.ts';
import { compileSkipExtensions } from '../urls/extensions.ts';
import { compileScope, type ScopeRules } from '../urls/scope.ts';
import { DEFAULT_TRAP_LIMITS, type TrapLimits } from '../urls/traps.ts';

export interface CrawlConfig {
  seeds: string[];
  topic: Topic | null;
  /** a trained model (--model): its page classifier judges relevance */
  model?: LearnedModel | null;
  strategy: string;
  /**
   * a scorer of your own (library use), in place of `strategy`'s; records name
   * it by `scorer.name`; a page is relevant at the topic's or model's
   * threshold, or `params.threshold` (default 0.2)
   */
  scorer?: Scorer;
  /** strategy parameters: the topic's `params`, then --param overrides */
  params?: Record<string, number | string>;
  /** follow at most this many consecutive off-topic hops (default no limit) */
  tunnel?: number;
  /**
   * --explore: the exploration and tail lanes over the strategy
   * (src/relevance/scorers/explore.ts), the share of fetches they get at the start,
   * 0 to 1 (default DEFAULT_EXPLORE; 0: the strategy alone). Not applied to
   * `scorer` nor to bfs
   */
  explore?: number;
  /**
   * --site-lane: the share of fetches taken from the host whose fetched
   * pages were judged relevant at the highest rate, while it beats the
   * recent harvest (src/relevance/scorers/site-lane.ts), 0 to 1 (default
   * defaultSiteLane: 0.5 for nb-link and online with a model, else 0;
   * 0: off). Not applied to `scorer` nor to bfs
   */
  siteLane?: number;
  /** Chinese word segmenter (default node-rs jieba) */
  segmenter?: Segmenter;
  storeDir: string;
  fresh: boolean;
  /** lease of a claimed URL with a Redis store, ms (src/store/redis.ts; default 30 000) */
  leaseMs?: number;
  maxPages: number;
  /**
   * --max-time: stop after this many ms (default no limit); requests in
   * flight are cancelled and go back to the frontier, as on SIGTERM, and the
   * summary says 'time-limit'
   */
  maxTimeMs?: number;
  maxDepth: number;
  maxFrontier: number;
  dropIndex: boolean;
  /** strip session ids from URLs (default true; src/urls/canonical.ts) */
  stripSessionIds?: boolean;
  /** pages per host, then its URLs become FC_HOST_BUDGET records (default DEFAULT_MAX_PAGES_PER_HOST; Infinity: none) */
  maxPagesPerHost?: number;
  /** trap rules for links (src/urls/traps.ts; default DEFAULT_TRAP_LIMITS; Infinity turns a rule off) */
  traps?: Partial<TrapLimits>;
  /** which URLs may be queued (src/urls/scope.ts; --allow-domain, --include, --exclude); default all */
  scope?: ScopeRules;
  /** links and sitemap entries ending in these extensions are not queued (src/urls/extensions.ts; default DEFAULT_SKIP_EXTENSIONS; [] queues them all) */
  skipExtensions?: readonly string[];
  proxy?: string;
  /**
   * the name lookup of every connection (default the system resolver,
   * dns.lookup); tests pass loopbackLookup() from src/fetch/lookup.ts
   */
  lookup?: Resolver;
  /** --sitemap URL|FILE: their URLs are queued at depth 1 (src/seeds/sitemap.ts, seedFromSitemaps) */
  sitemaps?: string[];
  /** --sitemaps-from-robots: also read the sitemaps the seeds' robots.txt files list */
  sitemapsFromRobots?: boolean;
  /** URLs taken from all sitemaps together (default DEFAULT_SITEMAP_MAX_URLS) */
  sitemapMaxUrls?: number;
  /** near-duplicate Hamming distance (src/relevance/simhash.ts; default 3; 0 turns detection off) */
  nearDupDistance?: number;
  /** pages with fewer tokens are never near-duplicates (default DEFAULT_NEAR_DUP_MIN_TOKENS) */
  nearDupMinTokens?: number;
  /** also fetch loopback/private/link-local/metadata addresses (default false; moot with `proxy`) */
  allowPrivate?: boolean;
  /** --warc-out DIR: archive every fetched response as WARC/1.1 (src/output/warc.ts, src/stages/warc-out.ts) */
  warcOut?: string;
  /** --warc-max-size: bytes per WARC file before rolling over (default DEFAULT_WARC_MAX_SIZE, 1 GB) */
  warcMaxSize?: number;
  /** --pages-out DIR: save each kept body as DIR/ab/<md5(url)> (src/stages/pages-out.ts) */
  pagesOut?: string;
  concurrency: number;
  perHost: number;
  delayMs: number;
  delayExplicit: boolean;
  /** --delay-factor: a host also waits this many times as long as its last request took (src/frontier/politeness.ts; default 0) */
  delayFactor?: number;
  hostDiversity: number;
  /** --hold-back: see FrontierSourceOptions.holdBack (default DEFAULT_HOLD_BACK; 0 = off) */
  holdBack?: number;
  maxBytes: number;
  userAgent?: string;
  auth: Record<string, { user: string; pass: string }>;
  quiet: boolean;
  /** where NDJSON records go (process.stdout in the CLI) */
  output: Writable;
  /** one line of human-readable log (stderr in the CLI) */
  log: (line: string) => void;
  signal?: AbortSignal;
  /** link-context window, characters each side (docs/algorithms.md#link-context-window) */
  contextChars?: number;
  /**
   * --max-links-per-page: links read per page (default DEFAULT_MAX_LINKS,
   * 5000); the rest are dropped, counted as 'links-per-page' in
   * `summary.dropped`, and the record says `caps: ['links']`
   */
  maxLinksPerPage?: number;
  /**
   * --text: each HTML page's record carries its main text (`text`, one line
   * per block, navigation left out), at most this many characters (default
   * 0: no text)
   */
  textChars?: number;
  /** --outlinks: each page record lists the page's links (url, anchor, score) */
  outlinks?: boolean;
  /**
   * --workers: parse pages in this many worker threads (src/parse/pool.ts,
   * src/stages/parse-workers.ts); 0 parses on the main thread. Default
   * defaultWorkers(): 1 with 3 or more cores, else 0
   */
  workers?: number;
  /**
   * test hook, never set by the CLI: the parse workers fail on purpose for
   * URLs with `throw` or `crash` in them (ParsePoolOptions.faults)
   */
  parseFaults?: boolean;
  /**
   * HTTP timeouts in ms: connect, complete headers, gap between body chunks,
   * and the whole of one request (defaults 10 000, 20 000, 30 000, 60 000)
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; fetchMs?: number };
  /** retries of transient failures and host backoff (src/frontier/retry.ts; default DEFAULT_RETRY_POLICY) */
  retry?: Partial<RetryPolicy>;
  /** ms between stats records (default 10 000; 0: none, only the final stats are saved) */
  statsIntervalMs?: number;
  /** 'json': the summary is logged as one JSON object (default 'text') */
  logFormat?: 'text' | 'json';
  /** receives a stats record every statsIntervalMs and the final one (src/output/stats.ts) */
  logStats?: (snapshot: StatsSnapshot) => void;
  /** receives a snapshot 4 times a second, for a progress line (the CLI: only on a terminal) */
  progress?: (snapshot: StatsSnapshot) => void;
}

/** Priority of seeds: ahead of every scored link, FIFO among themselves. */
export const SEED_SCORE = 1e6;

/** Without a topic nothing is relevant and every link scores 0 (breadth-first). */
const UNFOCUSED: Scorer = { name: 'bfs', pageRelevance: () => 0, linkScore: () => 0 };

/** A CrawlConfig with its defaults filled in and its values checked (resolveConfig). */
export interface ResolvedConfig extends CrawlConfig {
  canon: CanonOptions;
  /**
   * Redirect hops keep their session ids: a server that redirects a first
   * visit to add one (`/p` -> `/p;jsessionid=X`) would otherwise redirect
   * to the very URL it was asked for (FC_TOO_MANY_REDIRECTS).
   */
  redirectCanon: CanonOptions;
  inScope: ReturnType<typeof compileScope>;
  skipExtension: ReturnType<typeof compileSkipExtensions>;
  /** the seeds, canonical, as frontier entries */
  seedEntries: FrontierEntry[];
  /** the strategy (or the caller's scorer) that scores pages and links */
  scorer: Scorer;
  /** relevance at which a page is relevant (Infinity: unfocused, none is) */
  threshold: number;
  /** best-n-first: URLs per round */
  roundSize: number | undefined;
  holdBack: number;
  maxLinks: number;
  retryPolicy: RetryPolicy;
  trapLimits: TrapLimits;
  /** the store is a redis:// store shared by workers */
  shared: boolean;
  maxPagesPerHostResolved: number;
  nearDup: number;
  maxTime: number;
  /** parse worker threads (0: in-thread) */
  workersResolved: number;
}

/**
 * Fill in a crawl's defaults and check its values: the seeds are canonical
 * http(s) URLs, the scorer is built, the caps are in range (FC_USAGE
 * otherwise). Pure: nothing is opened, created or deleted.
 */
export function resolveConfig(cfg: CrawlConfig): ResolvedConfig {
  const canon: CanonOptions = { dropIndex: cfg.dropIndex, stripSessionIds: cfg.stripSessionIds };
  const inScope = compileScope(cfg.scope ?? {});
  const skipExtension = compileSkipExtensions(cfg.skipExtensions);
  const seedEntries: FrontierEntry[] = [];
  for (const s of cfg.seeds) {
    const url = canonicalize(s, undefined, canon);
    if (url === null) throw new UsageError(`seed is not an http(s) URL: ${JSON.stringify(s)}`);
    seedEntries.push({ url, score: SEED_SCORE, depth: 0, parent: null });
  }
  const model = cfg.model ?? null;
  const params = { ...cfg.topic?.params, ...cfg.params };
  const focused = cfg.topic !== null || model !== null;
  const scorer = cfg.scorer ?? (focused ? createScorer(cfg.strategy, cfg.topic, { model, params, segmenter: cfg.segmenter, explore: cfg.strategy === 'bfs' ? 0 : cfg.explore ?? DEFAULT_EXPLORE, siteLane: cfg.strategy === 'bfs' ? 0 : cfg.siteLane ?? defaultSiteLane(cfg.strategy, model !== null) }) : UNFOCUSED);
  const threshold = focused || cfg.scorer !== undefined ? relevanceThreshold(cfg.topic, model, params) : Infinity;
  const roundSize = cfg.strategy === 'best-n-first' ? Number(params.roundSize ?? DEFAULT_ROUND_SIZE) : undefined;
  const holdBack = cfg.holdBack ?? DEFAULT_HOLD_BACK;
  const maxLinks = cfg.maxLinksPerPage ?? DEFAULT_MAX_LINKS;
  if (!(Number.isInteger(maxLinks) && maxLinks >= 1)) throw new UsageError(`maxLinksPerPage must be a positive integer, got ${JSON.stringify(cfg.maxLinksPerPage)}`);
  if (!(holdBack >= 0 && holdBack <= 1)) throw new UsageError(`holdBack must be a number from 0 to 1, got ${JSON.stringify(cfg.holdBack)}`);
  const workers = cfg.workers ?? defaultWorkers();
  if (!(Number.isInteger(workers) && workers >= 0 && workers <= MAX_WORKERS)) throw new UsageError(`workers must be an integer from 0 to ${MAX_WORKERS}, got ${JSON.stringify(cfg.workers)}`);
  if (roundSize !== undefined && !(Number.isInteger(roundSize) && roundSize >= 1)) {
    throw new UsageError(`roundSize must be a positive integer, got ${JSON.stringify(params.roundSize)}`);
  }
  return {
    ...cfg,
    canon,
    redirectCanon: { ...canon, stripSessionIds: false },
    inScope,
    skipExtension,
    seedEntries,
    scorer,
    threshold,
    roundSize,
    holdBack,
    maxLinks,
    retryPolicy: { ...DEFAULT_RETRY_POLICY, ...cfg.retry },
    trapLimits: { ...DEFAULT_TRAP_LIMITS, ...cfg.traps },
    shared: isRedisStore(cfg.storeDir),
    maxPagesPerHostResolved: cfg.maxPagesPerHost ?? DEFAULT_MAX_PAGES_PER_HOST,
    nearDup: cfg.nearDupDistance ?? DEFAULT_NEAR_DUP_DISTANCE,
    maxTime: cfg.maxTimeMs ?? Infinity,
    workersResolved: workers,
  };
}
