/**
 * The only place stages are wired. One crawl is one `stream.pipeline`:
 *
 *   frontier source -> host budget -> address guard -> robots -> fetch -> parse
 *     -> classify -> [dedup] -> [warc-out] -> [pages-out] -> frontier sink
 *
 * The sink commits each page and writes its NDJSON record to the output
 * (stdout) in the same step (see src/stages/sink.ts for why). With
 * --warc-out / --pages-out, their stages sit just before the sink, so a
 * page's files are written before it is committed.
 *
 * Backpressure runs end to end: when stdout is slow the sink stops pulling,
 * so classify, parse and fetch stop pulling, and the frontier source yields
 * no new URL. A failure in any stage destroys all of them. The robots check
 * sits before fetch because robots.txt must be consulted before a request,
 * and the address guard before robots so a private host gets no request at all;
 * links are canonicalised once, in classify (the graph strategies key their
 * nodes by the canonical URL), and deduplicated in the sink, next to the
 * seen set; both take the same options.
 */
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { NetworkError, StalledError, StoreLockedError, toItemError, UsageError, type FocuscrawlError } from './errors.ts';
import { FrontierHead } from './frontier-head.ts';
import { DEFAULT_MAX_PAGES_PER_HOST, HostBudget } from './host-budget.ts';
import { DEFAULT_USER_AGENT, HttpClient } from './http.ts';
import type { Resolver } from './net/lookup.ts';
import { Inflight } from './inflight.ts';
import { firstN } from './iter.ts';
import { stallWatchdog } from './stall.ts';
import { LineOutput } from './output.ts';
import { HostScheduler, politeDelayMs } from './politeness.ts';
import { DEFAULT_RETRY_POLICY, hostBackoffMs, type RetryPolicy } from './retry.ts';
import { RobotsCache } from './robots.ts';
import { DEFAULT_ROUND_SIZE } from './scorers/best-n-first.ts';
import type { LearnedModel } from './scorers/context.ts';
import type { Segmenter } from './text/segmenter.ts';
import { createScorer, relevanceThreshold } from './scorers/index.ts';
import { addressGuardStage } from './stages/address-guard.ts';
import { classifyStage } from './stages/classify.ts';
import { dedupStage, NearDuplicates, urlOfCommitIn } from './stages/dedup.ts';
import { DEFAULT_NEAR_DUP_DISTANCE } from './simhash.ts';
import { fetchStage } from './stages/fetch.ts';
import { DEFAULT_HOLD_BACK, frontierSource, hostOfCanonical } from './stages/frontier-source.ts';
import { hostBudgetStage } from './stages/host-budget.ts';
import { parseStage } from './stages/parse.ts';
import { DEFAULT_MAX_LINKS } from './parse/page-parser.ts';
import { robotsAllows, robotsStage } from './stages/robots.ts';
import { sinkStage, type LinkDropReason } from './stages/sink.ts';
import type { StatsSnapshot } from './stats.ts';
import { DEFAULT_STATS_INTERVAL_MS, loadCrawlStats, StatsReporter } from './stats-live.ts';
import { CrawlStore, logKey } from './store.ts';
import type { RedisStore } from './store/redis.ts';
import { inspectStoreDir, notAStore, removeStoreFiles, writeStoreMarker } from './store/dir.ts';
import { isRedisStore, type Store } from './store/types.ts';
import { DEFAULT_TRAP_LIMITS, type TrapLimits } from './traps.ts';
import { compileScope, type ScopeRules } from './scope.ts';
import { compileSkipExtensions } from './extensions.ts';
import type { CrawlItem, FrontierEntry, ItemError, OutputRecord, Scorer, Topic } from './types.ts';
import type { PageStore } from './stages/pages-out.ts';
import type { WarcWriter } from './warc/writer.ts';
import { canonicalize, originOf, type CanonOptions } from './url.ts';

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
  /** strip session ids from URLs (default true; src/url.ts) */
  stripSessionIds?: boolean;
  /** pages per host, then its URLs become FC_HOST_BUDGET records (default DEFAULT_MAX_PAGES_PER_HOST; Infinity: none) */
  maxPagesPerHost?: number;
  /** trap rules for links (src/traps.ts; default DEFAULT_TRAP_LIMITS; Infinity turns a rule off) */
  traps?: Partial<TrapLimits>;
  /** which URLs may be queued (src/scope.ts; --allow-domain, --include, --exclude); default all */
  scope?: ScopeRules;
  /** links and sitemap entries ending in these extensions are not queued (src/extensions.ts; default DEFAULT_SKIP_EXTENSIONS; [] queues them all) */
  skipExtensions?: readonly string[];
  proxy?: string;
  /**
   * the name lookup of every connection (default the system resolver,
   * dns.lookup); tests pass loopbackLookup() from src/net/lookup.ts
   */
  lookup?: Resolver;
  /** --sitemap URL|FILE: their URLs are queued at depth 1 (src/sitemap.ts, seedFromSitemaps) */
  sitemaps?: string[];
  /** --sitemaps-from-robots: also read the sitemaps the seeds' robots.txt files list */
  sitemapsFromRobots?: boolean;
  /** URLs taken from all sitemaps together (default DEFAULT_SITEMAP_MAX_URLS) */
  sitemapMaxUrls?: number;
  /** near-duplicate Hamming distance (src/simhash.ts; default 3; 0 turns detection off) */
  nearDupDistance?: number;
  /** pages with fewer tokens are never near-duplicates (default DEFAULT_NEAR_DUP_MIN_TOKENS) */
  nearDupMinTokens?: number;
  /** also fetch loopback/private/link-local/metadata addresses (default false; moot with `proxy`) */
  allowPrivate?: boolean;
  /** --warc-out DIR: archive every fetched response as WARC/1.1 (src/warc/writer.ts, src/stages/warc-out.ts) */
  warcOut?: string;
  /** --warc-max-size: bytes per WARC file before rolling over (default DEFAULT_WARC_MAX_SIZE, 1 GB) */
  warcMaxSize?: number;
  /** --pages-out DIR: save each kept body as DIR/ab/<md5(url)> (src/stages/pages-out.ts) */
  pagesOut?: string;
  concurrency: number;
  perHost: number;
  delayMs: number;
  delayExplicit: boolean;
  /** --delay-factor: a host also waits this many times as long as its last request took (src/politeness.ts; default 0) */
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
  /** link-context window, characters each side (seed 000) */
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
   * HTTP timeouts in ms: connect, complete headers, gap between body chunks,
   * and the whole of one request (defaults 10 000, 20 000, 30 000, 60 000)
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; fetchMs?: number };
  /** retries of transient failures and host backoff (src/retry.ts; default DEFAULT_RETRY_POLICY) */
  retry?: Partial<RetryPolicy>;
  /** ms between stats records (default 10 000; 0: none, only the final stats are saved) */
  statsIntervalMs?: number;
  /** 'json': the summary is logged as one JSON object (default 'text') */
  logFormat?: 'text' | 'json';
  /** receives a stats record every statsIntervalMs and the final one (src/stats.ts) */
  logStats?: (snapshot: StatsSnapshot) => void;
  /** receives a snapshot 4 times a second, for a progress line (the CLI: only on a terminal) */
  progress?: (snapshot: StatsSnapshot) => void;
}

export interface CrawlSummary {
  /** pages committed in this run */
  pages: number;
  relevant: number;
  errors: number;
  /** pages committed in the store over all runs */
  totalPages: number;
  frontier: number;
  ms: number;
  /** why the crawl ended */
  stopped: 'done' | 'output-closed' | 'aborted' | 'time-limit';
  /** links not queued in this run, by trap rule, 'host-budget', ... (once per page and URL; 'links-per-page': once per link cut) */
  dropped: Partial<Record<LinkDropReason, number>>;
  /** with a Redis store: commands this worker sent it (one round-trip each) */
  storeRoundTrips?: number;
  /** Redis store: commits sent again after reconnects, and how many found their URL committed by another worker */
  storeReplays?: { sent: number; conflicts: number };
  /** near-duplicate pages committed in this run (their links were not queued) */
  nearDuplicates?: number;
}

const NO_SEEDS = 'no seeds: give --seed URL or --seeds FILE (or --store of a crawl to resume)';

/** Priority of seeds: ahead of every scored link, FIFO among themselves. */
const SEED_SCORE = 1e6;
const ROBOTS_MAX_BYTES = 512 * 1024;

/** Without a topic nothing is relevant and every link scores 0 (breadth-first). */
const UNFOCUSED: Scorer = { name: 'bfs', pageRelevance: () => 0, linkScore: () => 0 };

/**
 * `--fresh`: delete the store's own files and nothing else (src/store/dir.ts);
 * a directory that is not a store is refused (FC_USAGE), a store another
 * crawl has open too (FC_STORE_LOCKED).
 */
async function removeStore(dir: string): Promise<void> {
  const kind = await inspectStoreDir(dir);
  if (kind === 'missing' || kind === 'empty') return;
  if (kind === 'foreign') throw notAStore(dir);
  try {
    await (await CrawlStore.open(dir)).close();
  } catch (err) {
    // a store that fails to open otherwise (corrupt) is what --fresh is for,
    // unless it is a LevelDB that could not show it is ours
    if (err instanceof StoreLockedError || err instanceof UsageError || kind === 'leveldb') throw err;
  }
  // the marker stays: the directory is still a store, now an empty one
  await writeStoreMarker(dir);
  await removeStoreFiles(dir);
}

/**
 * stream.pipeline, typed loosely: @types/node has overloads for at most four
 * transforms. Each stage below is typed on its own input.
 */
const runPipeline = pipeline as (...stages: unknown[]) => Promise<void>;

/** Abort reason when the reader of the output went away. */
const OUTPUT_CLOSED = new Error('output closed');
const TIME_LIMIT = new Error('--max-time reached');

/** `; links dropped: path-repetition 3, host-budget 12`, or '' when none was. */
function dropLine(dropped: CrawlSummary['dropped']): string {
  const parts = Object.entries(dropped).map(([reason, n]) => `${reason} ${n}`);
  return parts.length === 0 ? '' : `; links dropped: ${parts.join(', ')}`;
}

/** Run one crawl (or resume it) until the frontier is empty, max pages, abort, or stdout closes. */
export async function runCrawl(cfg: CrawlConfig): Promise<CrawlSummary> {
  const started = Date.now();
  const canon: CanonOptions = { dropIndex: cfg.dropIndex, stripSessionIds: cfg.stripSessionIds };
  const inScope = compileScope(cfg.scope ?? {});
  const skipExtension = compileSkipExtensions(cfg.skipExtensions);
  // Redirect hops keep their session ids: a server that redirects a first
  // visit to add one (`/p` -> `/p;jsessionid=X`) would otherwise redirect
  // to the very URL it was asked for (FC_TOO_MANY_REDIRECTS).
  const redirectCanon: CanonOptions = { ...canon, stripSessionIds: false };
  const seeds: FrontierEntry[] = [];
  for (const s of cfg.seeds) {
    const url = canonicalize(s, undefined, canon);
    if (url === null) throw new UsageError(`seed is not an http(s) URL: ${JSON.stringify(s)}`);
    seeds.push({ url, score: SEED_SCORE, depth: 0, parent: null });
  }
  const model = cfg.model ?? null;
  const params = { ...cfg.topic?.params, ...cfg.params };
  const focused = cfg.topic !== null || model !== null;
  const scorer = cfg.scorer ?? (focused ? createScorer(cfg.strategy, cfg.topic, { model, params, segmenter: cfg.segmenter }) : UNFOCUSED);
  const threshold = focused || cfg.scorer !== undefined ? relevanceThreshold(cfg.topic, model, params) : Infinity;
  const roundSize = cfg.strategy === 'best-n-first' ? Number(params.roundSize ?? DEFAULT_ROUND_SIZE) : undefined;
  const holdBack = cfg.holdBack ?? DEFAULT_HOLD_BACK;
  const maxLinks = cfg.maxLinksPerPage ?? DEFAULT_MAX_LINKS;
  if (!(Number.isInteger(maxLinks) && maxLinks >= 1)) throw new UsageError(`maxLinksPerPage must be a positive integer, got ${JSON.stringify(cfg.maxLinksPerPage)}`);
  if (!(holdBack >= 0 && holdBack <= 1)) throw new UsageError(`holdBack must be a number from 0 to 1, got ${JSON.stringify(cfg.holdBack)}`);
  if (roundSize !== undefined && !(Number.isInteger(roundSize) && roundSize >= 1)) {
    throw new UsageError(`roundSize must be a positive integer, got ${JSON.stringify(params.roundSize)}`);
  }
  const shared = isRedisStore(cfg.storeDir);
  // ioredis is loaded only for a redis:// store (+24 MB and ~180 ms at start otherwise)
  const Redis = shared ? (await import('./store/redis.ts')).RedisStore : null;
  // no seeds: found before anything is created or deleted, unless a store to resume can give URLs
  const seedless = seeds.length === 0 && (cfg.sitemaps?.length ?? 0) === 0;
  if (seedless && (cfg.fresh || (!shared && ['missing', 'empty'].includes(await inspectStoreDir(cfg.storeDir))))) throw new UsageError(NO_SEEDS);
  if (cfg.fresh) await (Redis !== null ? Redis.destroy(cfg.storeDir) : removeStore(path.resolve(cfg.storeDir)));

  const head = new FrontierHead({
    load: (gt, limit) => firstN(store.frontier({ gt }), limit),
  });
  // a redis:// store is shared by workers: URLs are leased from it (src/store/redis.ts)
  const redis: RedisStore | null = Redis === null
    ? null
    : await Redis.open(cfg.storeDir, { maxFrontier: cfg.maxFrontier, maxPages: cfg.maxPages, perHost: cfg.perHost, leaseMs: cfg.leaseMs });
  const store: Store = redis ?? await CrawlStore.open(cfg.storeDir, {
    maxFrontier: cfg.maxFrontier,
    onFrontierChange: (change) => head.apply(change),
  });
  const timeouts = cfg.timeouts ?? {};
  const client = new HttpClient({
    proxy: cfg.proxy, proxyConnections: cfg.concurrency, allowPrivate: cfg.allowPrivate, userAgent: cfg.userAgent, auth: cfg.auth,
    connectTimeoutMs: timeouts.connectMs, headersTimeoutMs: timeouts.headersMs, bodyTimeoutMs: timeouts.bodyMs, fetchTimeoutMs: timeouts.fetchMs,
    lookup: cfg.lookup,
  });
  // committed records before this run: 0 means the crawl starts from its seeds
  const committedBefore = store.committed;
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...cfg.retry };
  const summary: CrawlSummary = { pages: 0, relevant: 0, errors: 0, totalPages: 0, frontier: 0, ms: 0, stopped: 'done', dropped: {} };
  const budget = new HostBudget({
    max: cfg.maxPagesPerHost ?? DEFAULT_MAX_PAGES_PER_HOST,
    onFull: (host) => {
      if (!cfg.quiet) cfg.log(`focuscrawl: ${host} has given its ${budget.max} pages (--max-pages-per-host); its other URLs are skipped (FC_HOST_BUDGET)`);
    },
  });
  let reporter: StatsReporter | undefined;
  let warc: WarcWriter | null = null;
  let pageStore: PageStore | null = null;
  try {
    const robots = new RobotsCache({
      userAgent: 'focuscrawl',
      fetchRobots: (url, signal) => client.getText(url, { maxBytes: ROBOTS_MAX_BYTES, signal }),
    });
    // URLs that got no answer in an earlier run (connection refused, DNS, timeout) are tried again
    const requeued = await store.requeueParked();
    if (requeued > 0 && !cfg.quiet) cfg.log(`focuscrawl: ${requeued === 1 ? '1 URL' : `${requeued} URLs`} that got no answer in an earlier run ${requeued === 1 ? 'is' : 'are'} queued again`);
    await store.addSeeds(seeds);
    if ((cfg.sitemaps?.length ?? 0) > 0 || cfg.sitemapsFromRobots === true) {
      const { seedFromSitemaps, sitemapLogLines } = await import('./sitemap.ts');
      const report = await seedFromSitemaps({
        sources: cfg.sitemaps ?? [], robotsOrigins: cfg.sitemapsFromRobots === true ? seeds.map((e) => originOf(e.url)) : [],
        client, robots, store, scorer, canon, traps: { ...DEFAULT_TRAP_LIMITS, ...cfg.traps }, inScope, skipExtension, maxDepth: cfg.maxDepth,
        maxUrls: cfg.sitemapMaxUrls, delayMs: cfg.delayMs, delayExplicit: cfg.delayExplicit, signal: cfg.signal,
      });
      if (!cfg.quiet) for (const line of sitemapLogLines(report)) cfg.log(line);
    }
    if (store.frontierSize === 0 && store.committed === 0) {
      throw new UsageError(NO_SEEDS);
    }
    await budget.restore(store);
    // output files (loaded only when asked for: warcio is large)
    if (cfg.warcOut !== undefined) {
      const { WarcWriter } = await import('./warc/writer.ts');
      const { VERSION } = await import('./version.ts');
      warc = await WarcWriter.create({
        dir: cfg.warcOut,
        maxSize: cfg.warcMaxSize,
        info: { software: `focuscrawl/${VERSION}`, robots: 'obey', 'http-header-user-agent': cfg.userAgent ?? DEFAULT_USER_AGENT, description: `focuscrawl crawl, strategy ${scorer.name}` },
      });
    }
    if (cfg.pagesOut !== undefined) pageStore = await (await import('./stages/pages-out.ts')).PageStore.create(cfg.pagesOut);
    const { warcOutStage } = warc === null ? { warcOutStage: null } : await import('./stages/warc-out.ts');
    const { pagesOutStage } = pageStore === null ? { pagesOutStage: null } : await import('./stages/pages-out.ts');
    // near-duplicates: the index is rebuilt from the fingerprints in the store's log
    const nearDup = cfg.nearDupDistance ?? DEFAULT_NEAR_DUP_DISTANCE;
    const dedup = nearDup === 0 ? null : new NearDuplicates({ maxDistance: nearDup, minTokens: cfg.nearDupMinTokens, urlOfCommit: urlOfCommitIn(store, logKey), segmenter: cfg.segmenter });
    if (dedup !== null && store.committed > 0) await dedup.restore(store.log());
    const scheduler = new HostScheduler({
      perHost: cfg.perHost,
      delayMs: cfg.delayMs,
      delayExplicit: cfg.delayExplicit,
      delayFactor: cfg.delayFactor,
      hostDiversity: cfg.hostDiversity,
      crawlDelayMs: (url) => robots.crawlDelayMs(url),
    });
    const inflight = new Inflight();
    // A host slot is freed once per item, when the fetch stage settles it;
    // `requested` (from the fetch stage) says whether a request went out, so
    // the politeness delay follows it. A URL refused before the fetch
    // (robots, address guard, host budget) made none; one whose redirect hop
    // robots.txt refused did. The sink's calls are a safety net.
    const released = new WeakSet<CrawlItem>();
    const release = (item: CrawlItem, requested: boolean): void => {
      if (released.has(item)) return;
      released.add(item);
      const host = hostOfCanonical(item.entry.url);
      scheduler.finish(host, item.entry.url, item.fetch?.replay ?? false, requested, item.fetch?.ms ?? 0);
      scheduler.backoff(host, hostBackoffMs(item, retry));
      inflight.wake();
    };
    // With a shared store (Redis) politeness holds across workers: the commit
    // tells the store how long the host waits before its next request.
    const replayHosts = new Set<string>();
    const hostDelayMs = (item: CrawlItem): number => {
      const host = hostOfCanonical(item.entry.url);
      if (item.fetch?.replay === true) replayHosts.add(host);
      const polite = replayHosts.has(host) && !cfg.delayExplicit ? 0 : politeDelayMs(cfg.delayMs, robots.crawlDelayMs(item.entry.url), cfg.delayFactor ?? 0, item.fetch?.ms ?? 0);
      return Math.max(polite, hostBackoffMs(item, retry));
    };
    const checkHop = async (url: string): Promise<ItemError | null> => {
      // a redirect is a new URL: the scope holds for it as for a link (seeds' redirects too)
      if (inScope !== null && !inScope(url)) return { code: 'FC_OUT_OF_SCOPE', message: `redirect leaves the crawl's scope (--allow-domain, --include, --exclude): ${url}` };
      const privateAddress = await client.checkAddress(url);
      if (privateAddress !== null) return toItemError(privateAddress);
      const refused = await robotsAllows(robots, url);
      if (refused !== null) return refused;
      if ((await store.status(url)) === 'done') return { code: 'FC_REDIRECT_SEEN', message: `redirect to a URL already fetched: ${url}` };
      return null;
    };
    // A followed redirect is polite too: a hop waits its host's delay, and a
    // hop to another host counts as a request there (see hopDelayMs).
    const beforeHop = async (
      url: string,
      hop: { origin: string; replay: boolean; elapsedMs: number; signal: AbortSignal },
    ): Promise<((replay: boolean) => void) | undefined> => {
      const host = hostOfCanonical(url);
      const held = host === hostOfCanonical(hop.origin);
      const wait = scheduler.hopDelayMs(host, url, held, hop.replay, hop.elapsedMs);
      if (wait > 0) await sleep(wait, undefined, { signal: hop.signal });
      if (held) return undefined;
      scheduler.start(host);
      const hopStarted = Date.now();
      return (replay) => {
        scheduler.finish(host, url, replay, true, Date.now() - hopStarted);
        inflight.wake();
      };
    };
    // live statistics, continuing the totals of earlier runs on the store
    // workers sharing a store each save their own run's stats: start from the whole shared log instead
    const loaded = await loadCrawlStats(shared ? { getMeta: async () => undefined, log: (o) => store.log(o), committed: store.committed } : store);
    const live = new StatsReporter({
      stats: loaded.stats,
      previous: loaded.replayed === 0 ? loaded.saved : null,
      store,
      dir: shared ? null : cfg.storeDir,
      intervalMs: cfg.statsIntervalMs ?? DEFAULT_STATS_INTERVAL_MS,
      sample: () => ({ frontier: store.frontierSize, activeHosts: scheduler.activeHosts, maxPages: cfg.maxPages }),
      onStats: cfg.logStats,
      onProgress: cfg.progress,
      onWarning: cfg.quiet ? undefined : cfg.log,
    });
    const count = (record: OutputRecord): void => {
      live.observe(record);
      if (record.type === 'error') summary.errors++;
      else {
        summary.pages++;
        if (record.relevant) summary.relevant++;
      }
    };
    const ac = new AbortController();
    // every in-flight request listens to this one signal
    setMaxListeners(cfg.concurrency + 16, ac.signal);
    const output = new LineOutput(cfg.output, () => ac.abort(OUTPUT_CLOSED));
    const onAbort = (): void => ac.abort();
    cfg.signal?.addEventListener('abort', onAbort, { once: true });
    if (cfg.signal?.aborted === true) ac.abort(); // e.g. Ctrl-C while sitemaps were read
    // counted from the crawl's start (sitemaps included)
    const maxTimeMs = cfg.maxTimeMs ?? Infinity;
    const timeLimit = Number.isFinite(maxTimeMs) ? setTimeout(() => ac.abort(TIME_LIMIT), Math.max(0, started + maxTimeMs - Date.now())) : undefined;
    live.start();
    reporter = live;
    // a lost wake-up must not end the process silently (exit 13): see src/stall.ts
    let stalled: StalledError | null = null;
    const onIdle = stallWatchdog({
      progress: () => store.committed,
      wake: () => inflight.wake(),
      fail: (err) => {
        stalled = err;
        ac.abort(err);
      },
      describe: () => {
        const next = scheduler.msUntilNextReady();
        const buffered = redis !== null ? '' : `${head.size} buffered${head.complete ? ' (all of them)' : ''}, `;
        return `${inflight.size} URLs in flight, ${store.frontierSize} queued, ${buffered}` +
          `${scheduler.activeHosts} hosts busy, next host ready ${Number.isFinite(next) ? `in ${Math.round(next)} ms` : 'when one is released'}`;
      },
      log: cfg.quiet ? undefined : cfg.log,
      // longer than one request may take: an answer on an unreferenced socket still arrives
      giveUpMs: (cfg.timeouts?.fetchMs ?? 60_000) + 30_000,
    });
    process.on('beforeExit', onIdle);
    try {
      await runPipeline(
        frontierSource({ head: redis !== null ? redis.claimHead(() => cfg.concurrency - inflight.size) : head, scheduler, inflight, pagesDone: () => store.pages, maxPages: cfg.maxPages, roundSize, holdBack, signal: ac.signal }),
        (src: AsyncIterable<CrawlItem>) => hostBudgetStage(src, { budget }),
        (src: AsyncIterable<CrawlItem>) => addressGuardStage(src, { check: (url) => client.checkAddress(url), concurrency: cfg.concurrency }),
        (src: AsyncIterable<CrawlItem>) => robotsStage(src, { robots, concurrency: cfg.concurrency }),
        (src: AsyncIterable<CrawlItem>) =>
          fetchStage(src, { client, concurrency: cfg.concurrency, maxBytes: cfg.maxBytes, canonOptions: redirectCanon, checkHop, beforeHop, onFetched: release, signal: ac.signal }),
        // with --warc-out / --pages-out the body travels on to their stages, which drop it
        (src: AsyncIterable<CrawlItem>) => parseStage(src, { contextChars: cfg.contextChars, maxLinks, mainTextChars: cfg.textChars, keepBody: warc !== null || pageStore !== null }),
        (src: AsyncIterable<CrawlItem>) => classifyStage(src, { scorer, threshold, canonOptions: canon, maxOutlinks: maxLinks }),
        ...(dedup === null ? [] : [(src: AsyncIterable<CrawlItem>) => dedupStage(src, { dedup })]),
        // written before the sink commits the page (see src/stages/warc-out.ts)
        ...(warcOutStage === null ? [] : [(src: AsyncIterable<CrawlItem>) =>
          warcOutStage(src, { writer: warc!, strategy: scorer.name, maxBytes: cfg.maxBytes, userAgent: cfg.userAgent, dropBody: pageStore === null })]),
        ...(pagesOutStage === null ? [] : [(src: AsyncIterable<CrawlItem>) => pagesOutStage(src, { store: pageStore! })]),
        (src: AsyncIterable<CrawlItem>) =>
          sinkStage(src, {
            store,
            strategy: scorer.name,
            outlinks: cfg.outlinks,
            maxDepth: cfg.maxDepth,
            canonOptions: canon,
            emit: (line) => output.write(line),
            tunnel: cfg.tunnel,
            scorer,
            // with Redis, URLs are leased from the shared store: no local head to spare moves for
            ...(redis === null ? { rescoreFloor: () => head.floor } : {}),
            linkGuard: {
              traps: { ...DEFAULT_TRAP_LIMITS, ...cfg.traps },
              ...(inScope === null ? {} : { inScope }),
              ...(skipExtension === null ? {} : { skipExtension }),
              hostFull: (host) => budget.isFull(host),
              onDrop: (_url, reason) => (summary.dropped[reason] = (summary.dropped[reason] ?? 0) + 1),
              onCapped: (n) => (summary.dropped['links-per-page'] = (summary.dropped['links-per-page'] ?? 0) + n),
            },
            retry,
            hostDelayMs: shared ? hostDelayMs : undefined,
            log: cfg.quiet ? undefined : cfg.log,
            onRetry: (item) => {
              release(item, item.fetch !== undefined);
              inflight.delete(item.entry.url);
            },
            onCommitted: (item, record) => {
              budget.committed(record);
              dedup?.committed(item, store.committed);
              if (record.type === 'page' && record.duplicateOf !== undefined) summary.nearDuplicates = (summary.nearDuplicates ?? 0) + 1;
              release(item, item.fetch !== undefined);
              inflight.delete(item.entry.url);
              count(record);
            },
          }),
        { signal: ac.signal },
      );
      if (stalled !== null) throw stalled;
    } catch (err) {
      if (stalled !== null) throw stalled;
      if (output.closed) summary.stopped = 'output-closed';
      else if (ac.signal.aborted) summary.stopped = ac.signal.reason === TIME_LIMIT ? 'time-limit' : 'aborted';
      else throw err;
    } finally {
      clearTimeout(timeLimit);
      process.off('beforeExit', onIdle);
      output.detach();
      cfg.signal?.removeEventListener('abort', onAbort);
    }
  } finally {
    summary.totalPages = store.pages;
    if (redis !== null) summary.storeRoundTrips = redis.roundTrips;
    if (redis !== null && redis.replays.sent > 0) summary.storeReplays = redis.replays;
    summary.frontier = store.frontierSize;
    summary.ms = Date.now() - started;
    // the final stats record, saved in the store's meta before it closes
    await reporter?.stop().catch((err: unknown) => {
      if (!cfg.quiet) cfg.log(`focuscrawl: cannot save the final stats: ${(err as Error)?.message ?? err}`);
    });
    await budget.save(store);
    await client.close().catch(() => {});
    // the WARC file being written is fsynced and loses its .open suffix
    const warcClosed: unknown = warc === null ? null : await warc.close().then(() => null, (err: unknown) => err);
    await store.close();
    if (warcClosed !== null) throw warcClosed;
  }
  const unreachable = summary.stopped === 'done' ? noAnswerError(client, cfg.proxy, committedBefore === 0) : null;
  if (!cfg.quiet) {
    const harvest = summary.pages === 0 ? 0 : summary.relevant / summary.pages;
    const rate = summary.pages / Math.max(summary.ms / 1000, 0.001);
    if (cfg.logFormat === 'json') {
      cfg.log(JSON.stringify({ type: 'summary', ...summary, harvest: Math.round(harvest * 1e4) / 1e4, pagesPerSec: Math.round(rate * 100) / 100 }));
    } else {
      cfg.log(
        `focuscrawl: ${summary.pages} pages (${summary.relevant} relevant, harvest ${(harvest * 100).toFixed(1)}%), ` +
          `${summary.errors} errors, ${(summary.ms / 1000).toFixed(1)} s, ${rate.toFixed(1)} pages/s; ` +
          `store: ${summary.totalPages} pages, ${summary.frontier} queued (${summary.stopped})` +
          dropLine(summary.dropped) +
          (summary.nearDuplicates ? `; near-duplicates ${summary.nearDuplicates}` : ''),
      );
    }
  }
  if (unreachable !== null) throw unreachable;
  return summary;
}

/**
 * The NetworkError (FC_NETWORK) of a run in which requests were made and
 * not one got an answer (every one failed with FC_NETWORK or FC_TIMEOUT: no
 * network, the proxy down, no DNS), or null. Its URLs are parked, so a
 * rerun tries them again; the error makes that run exit non-zero rather
 * than look like an empty success.
 */
function noAnswerError(client: HttpClient, proxy: string | undefined, fromSeeds: boolean): NetworkError | null {
  const { answered, failed, firstFailure } = client.outcomes;
  if (answered > 0 || failed === 0 || firstFailure === null) return null;
  const what = fromSeeds ? 'any seed' : 'any queued URL';
  return new NetworkError(
    `could not reach ${what} (${describeFailure(firstFailure, proxy)}); ${failed} requests, none answered. ` +
      'Their URLs are kept for the next run: rerun with the same --store once the network is back',
    { cause: firstFailure },
  );
}

/** A network failure in a few words, naming the proxy when it is the proxy that refused. */
function describeFailure(err: FocuscrawlError, proxy: string | undefined): string {
  if (proxy !== undefined) {
    let proxyHost = proxy;
    let proxyPort = '';
    try {
      const u = new URL(proxy);
      proxyHost = u.host;
      proxyPort = u.port || (u.protocol === 'https:' ? '443' : '80');
    } catch {
      // a bad --proxy is refused before the crawl
    }
    for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
      const x = e as { code?: unknown; port?: unknown };
      if (x.code === 'ECONNREFUSED' && (x.port === undefined || String(x.port) === proxyPort)) return `proxy ${proxyHost} refused the connection`;
    }
    return `through proxy ${proxyHost}: ${err.code}: ${err.message}`;
  }
  return `${err.code}: ${err.message}`;
}
