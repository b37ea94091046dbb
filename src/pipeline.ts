/**
 * The only place stages are wired. One crawl is one `stream.pipeline`:
 *
 *   frontier source -> host budget -> address guard -> robots -> fetch -> parse
 *     -> classify -> [dedup] -> [warc-out] -> [pages-out] -> frontier sink
 *
 * With --workers N >= 1 the parse stage is src/stages/parse-workers.ts: the
 * same parse in N worker threads, items leaving in the order they came;
 * every other stage, the model and the store stay on this thread.
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
import { pipeline } from 'node:stream/promises';
import { StalledError, StoreLockedError, toItemError, UsageError } from './errors.ts';
import { FrontierHead } from './frontier/head.ts';
import { HostBudget } from './frontier/host-budget.ts';
import { DEFAULT_USER_AGENT, HttpClient } from './fetch/http.ts';
import { Inflight } from './frontier/inflight.ts';
import { firstN } from './util/iter.ts';
import { stallWatchdog } from './frontier/stall.ts';
import { LineOutput } from './output/ndjson.ts';
import { HostScheduler, politeDelayMs } from './frontier/politeness.ts';
import { hostBackoffMs } from './frontier/retry.ts';
import { RobotsCache, robotsAllows } from './fetch/robots.ts';
import { addressGuardStage } from './stages/address-guard.ts';
import { classifyStage } from './stages/classify.ts';
import { DEFAULT_NEAR_DUP_MIN_TOKENS, dedupStage, NearDuplicates, urlOfCommitIn } from './stages/dedup.ts';
import { fetchStage } from './stages/fetch.ts';
import { frontierSource } from './stages/frontier-source.ts';
import { hostBudgetStage } from './stages/host-budget.ts';
import { parseStage } from './stages/parse.ts';
import type { ParseOptions } from './parse/body.ts';
import { parseWorkersStage } from './stages/parse-workers.ts';
import { ParsePool, type FingerprintOptions } from './parse/pool.ts';
import { getSegmenter, knownSegmenters } from './relevance/text/segmenter.ts';
import { robotsStage } from './stages/robots.ts';
import { sinkStage } from './stages/sink.ts';
import { DEFAULT_STATS_INTERVAL_MS, loadCrawlStats, StatsReporter } from './output/stats-live.ts';
import { CrawlStore } from './store/level.ts';
import { logKey } from './store/keys.ts';
import type { RedisStore } from './store/redis.ts';
import { inspectStoreDir, notAStore, removeStoreFiles, writeStoreMarker } from './store/dir.ts';
import type { Store } from './store/types.ts';
import type { CrawlItem, ItemError } from './types.ts';
import type { PageStore } from './stages/pages-out.ts';
import type { WarcWriter } from './output/warc.ts';
import { hostOfCanonical, originOf } from './urls/canonical.ts';
import { resolveConfig, type CrawlConfig, type ResolvedConfig } from './crawl/config.ts';
import { CrawlContext } from './crawl/context.ts';
import { dropLine, noAnswerError, type CrawlSummary } from './crawl/summary.ts';

const NO_SEEDS = 'no seeds: give --seed URL or --seeds FILE (or --store of a crawl to resume)';

const ROBOTS_MAX_BYTES = 512 * 1024;

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

type RedisClass = typeof RedisStore;
type Stage = (src: AsyncIterable<CrawlItem>) => AsyncIterable<CrawlItem> | Promise<void>;

/** What one run holds open, from openCrawl to closeCrawl. */
interface Crawl {
  started: number;
  store: Store;
  /** a redis:// store shared by workers: URLs are leased from it (src/store/redis.ts) */
  redis: RedisStore | null;
  head: FrontierHead;
  client: HttpClient;
  budget: HostBudget;
  summary: CrawlSummary;
  /** committed records before this run: 0 means the crawl starts from its seeds */
  committedBefore: number;
  robots: RobotsCache;
  reporter?: StatsReporter;
  warc: WarcWriter | null;
  pageStore: PageStore | null;
}

/** What the stages of one run share: see src/crawl/context.ts. */
interface Run {
  scheduler: HostScheduler;
  inflight: Inflight;
  ctx: CrawlContext;
  dedup: NearDuplicates | null;
  live: StatsReporter;
  output: LineOutput;
  signal: AbortSignal;
  outputStages: OutputStages;
  /** --workers N >= 1: the parse worker threads */
  pool: ParsePool | null;
}

interface OutputStages {
  warcOutStage: typeof import('./stages/warc-out.ts').warcOutStage | null;
  pagesOutStage: typeof import('./stages/pages-out.ts').pagesOutStage | null;
}

/**
 * Run one crawl (or resume it) until the frontier is empty, max pages,
 * abort, or stdout closes: setup, then the stages of the diagram above in
 * one stream.pipeline, then finish.
 */
export async function runCrawl(cfg: CrawlConfig): Promise<CrawlSummary> {
  const started = Date.now();
  const r = resolveConfig(cfg);
  const Redis = await prepareStore(r);
  const crawl = await openCrawl(r, Redis, started);
  try {
    await seedStore(r, crawl);
    const outputStages = await openOutputs(r, crawl);
    const dedup = await openDedup(r, crawl);
    await runStages(r, crawl, dedup, outputStages);
  } finally {
    await closeCrawl(r, crawl);
  }
  return finishCrawl(r, crawl);
}

/**
 * No seeds is found before anything is created or deleted, unless a store
 * to resume can give URLs; then --fresh empties the store. Returns the
 * Redis store class for a redis:// store (ioredis is loaded only then:
 * +24 MB and ~180 ms at start otherwise).
 */
async function prepareStore(r: ResolvedConfig): Promise<RedisClass | null> {
  const Redis = r.shared ? (await import('./store/redis.ts')).RedisStore : null;
  const seedless = r.seedEntries.length === 0 && (r.sitemaps?.length ?? 0) === 0;
  if (seedless && (r.fresh || (!r.shared && ['missing', 'empty'].includes(await inspectStoreDir(r.storeDir))))) throw new UsageError(NO_SEEDS);
  if (r.fresh) await (Redis !== null ? Redis.destroy(r.storeDir) : removeStore(path.resolve(r.storeDir)));
  return Redis;
}

/** Open the store, the HTTP client and the host budget. */
async function openCrawl(r: ResolvedConfig, Redis: RedisClass | null, started: number): Promise<Crawl> {
  const head = new FrontierHead({
    load: (gt, limit) => firstN(store.frontier({ gt }), limit),
  });
  const redis: RedisStore | null = Redis === null
    ? null
    : await Redis.open(r.storeDir, { maxFrontier: r.maxFrontier, maxPages: r.maxPages, perHost: r.perHost, leaseMs: r.leaseMs });
  const store: Store = redis ?? await CrawlStore.open(r.storeDir, {
    maxFrontier: r.maxFrontier,
    onFrontierChange: (change) => head.apply(change),
  });
  const timeouts = r.timeouts ?? {};
  const client = new HttpClient({
    proxy: r.proxy, proxyConnections: r.concurrency, allowPrivate: r.allowPrivate, userAgent: r.userAgent, auth: r.auth,
    connectTimeoutMs: timeouts.connectMs, headersTimeoutMs: timeouts.headersMs, bodyTimeoutMs: timeouts.bodyMs, fetchTimeoutMs: timeouts.fetchMs,
    lookup: r.lookup,
  });
  const committedBefore = store.committed;
  const summary: CrawlSummary = { pages: 0, relevant: 0, errors: 0, totalPages: 0, frontier: 0, ms: 0, stopped: 'done', dropped: {} };
  const budget = new HostBudget({
    max: r.maxPagesPerHostResolved,
    onFull: (host) => {
      if (!r.quiet) r.log(`focuscrawl: ${host} has given its ${budget.max} pages (--max-pages-per-host); its other URLs are skipped (FC_HOST_BUDGET)`);
    },
  });
  const robots = new RobotsCache({
    userAgent: 'focuscrawl',
    fetchRobots: (url, signal) => client.getText(url, { maxBytes: ROBOTS_MAX_BYTES, signal }),
  });
  return { started, store, redis, head, client, budget, summary, committedBefore, robots, warc: null, pageStore: null };
}

/** Queue the URLs of this run: parked ones again, the seeds, the sitemaps' URLs. */
async function seedStore(r: ResolvedConfig, c: Crawl): Promise<void> {
  const { store } = c;
  // URLs that got no answer in an earlier run (connection refused, DNS, timeout) are tried again
  const requeued = await store.requeueParked();
  if (requeued > 0 && !r.quiet) r.log(`focuscrawl: ${requeued === 1 ? '1 URL' : `${requeued} URLs`} that got no answer in an earlier run ${requeued === 1 ? 'is' : 'are'} queued again`);
  await store.addSeeds(r.seedEntries);
  if ((r.sitemaps?.length ?? 0) > 0 || r.sitemapsFromRobots === true) {
    const { seedFromSitemaps, sitemapLogLines } = await import('./seeds/sitemap.ts');
    const report = await seedFromSitemaps({
      sources: r.sitemaps ?? [], robotsOrigins: r.sitemapsFromRobots === true ? r.seedEntries.map((e) => originOf(e.url)) : [],
      client: c.client, robots: c.robots, store, scorer: r.scorer, canon: r.canon, traps: r.trapLimits, inScope: r.inScope, skipExtension: r.skipExtension,
      maxDepth: r.maxDepth, maxUrls: r.sitemapMaxUrls, delayMs: r.delayMs, delayExplicit: r.delayExplicit, signal: r.signal,
    });
    if (!r.quiet) for (const line of sitemapLogLines(report)) r.log(line);
  }
  if (store.frontierSize === 0 && store.committed === 0) {
    throw new UsageError(NO_SEEDS);
  }
  await c.budget.restore(store);
}

/** --warc-out and --pages-out: their writers and stages (loaded only when asked for: warcio is large). */
async function openOutputs(r: ResolvedConfig, c: Crawl): Promise<OutputStages> {
  if (r.warcOut !== undefined) {
    const { WarcWriter } = await import('./output/warc.ts');
    const { VERSION } = await import('./util/version.ts');
    c.warc = await WarcWriter.create({
      dir: r.warcOut,
      maxSize: r.warcMaxSize,
      info: { software: `focuscrawl/${VERSION}`, robots: 'obey', 'http-header-user-agent': r.userAgent ?? DEFAULT_USER_AGENT, description: `focuscrawl crawl, strategy ${r.scorer.name}` },
    });
  }
  if (r.pagesOut !== undefined) c.pageStore = await (await import('./stages/pages-out.ts')).PageStore.create(r.pagesOut);
  const { warcOutStage } = c.warc === null ? { warcOutStage: null } : await import('./stages/warc-out.ts');
  const { pagesOutStage } = c.pageStore === null ? { pagesOutStage: null } : await import('./stages/pages-out.ts');
  return { warcOutStage, pagesOutStage };
}

/** Near-duplicates: the index is rebuilt from the fingerprints in the store's log. */
async function openDedup(r: ResolvedConfig, c: Crawl): Promise<NearDuplicates | null> {
  if (r.nearDup === 0) return null;
  const dedup = new NearDuplicates({ maxDistance: r.nearDup, minTokens: r.nearDupMinTokens, urlOfCommit: urlOfCommitIn(c.store, logKey), segmenter: r.segmenter });
  if (c.store.committed > 0) await dedup.restore(c.store.log());
  return dedup;
}

/** Live statistics, continuing the totals of earlier runs on the store. */
async function openStats(r: ResolvedConfig, c: Crawl, scheduler: HostScheduler): Promise<StatsReporter> {
  const { store } = c;
  // workers sharing a store each save their own run's stats: start from the whole shared log instead
  const loaded = await loadCrawlStats(r.shared ? { getMeta: async () => undefined, log: (o) => store.log(o), committed: store.committed } : store);
  return new StatsReporter({
    stats: loaded.stats,
    previous: loaded.replayed === 0 ? loaded.saved : null,
    store,
    dir: r.shared ? null : r.storeDir,
    intervalMs: r.statsIntervalMs ?? DEFAULT_STATS_INTERVAL_MS,
    sample: () => ({ frontier: store.frontierSize, activeHosts: scheduler.activeHosts, maxPages: r.maxPages }),
    onStats: r.logStats,
    onProgress: r.progress,
    onWarning: r.quiet ? undefined : r.log,
  });
}

/**
 * The run: the scheduler, the in-flight set and the context the stages
 * call back into; the abort signal (the caller's, --max-time, the output
 * closing, a stall); then the pipeline. Sets `summary.stopped`.
 */
async function runStages(r: ResolvedConfig, c: Crawl, dedup: NearDuplicates | null, outputStages: OutputStages): Promise<void> {
  const { store, robots, summary } = c;
  const scheduler = new HostScheduler({
    perHost: r.perHost,
    delayMs: r.delayMs,
    delayExplicit: r.delayExplicit,
    delayFactor: r.delayFactor,
    hostDiversity: r.hostDiversity,
    crawlDelayMs: (url) => robots.crawlDelayMs(url),
  });
  const inflight = new Inflight();
  const live = await openStats(r, c, scheduler);
  const ctx = new CrawlContext({
    scheduler, inflight, retry: r.retryPolicy, summary, budget: c.budget, dedup,
    committedCount: () => store.committed, observe: (record) => live.observe(record),
  });
  const ac = new AbortController();
  // every in-flight request listens to this one signal
  setMaxListeners(r.concurrency + 16, ac.signal);
  const output = new LineOutput(r.output, () => ac.abort(OUTPUT_CLOSED));
  const onAbort = (): void => ac.abort();
  r.signal?.addEventListener('abort', onAbort, { once: true });
  if (r.signal?.aborted === true) ac.abort(); // e.g. Ctrl-C while sitemaps were read
  // counted from the crawl's start (sitemaps included)
  const timeLimit = Number.isFinite(r.maxTime) ? setTimeout(() => ac.abort(TIME_LIMIT), Math.max(0, c.started + r.maxTime - Date.now())) : undefined;
  live.start();
  c.reporter = live;
  const pool = r.workersResolved === 0 ? null : new ParsePool({ size: r.workersResolved, parse: parseOptionsOf(r), fingerprint: workerFingerprint(r), termCounts: workerTermCounts(r), minBatch: PARSE_BATCH, faults: r.parseFaults });
  const run: Run = { scheduler, inflight, ctx, dedup, live, output, signal: ac.signal, outputStages, pool };
  const watchdog = watchStall(r, c, run, (err) => ac.abort(err));
  process.on('beforeExit', watchdog.onIdle);
  try {
    await runPipeline(...stagesOf(r, c, run), { signal: ac.signal });
    if (watchdog.stalled() !== null) throw watchdog.stalled();
  } catch (err) {
    if (watchdog.stalled() !== null) throw watchdog.stalled();
    if (output.closed) summary.stopped = 'output-closed';
    else if (ac.signal.aborted) summary.stopped = ac.signal.reason === TIME_LIMIT ? 'time-limit' : 'aborted';
    else throw err;
  } finally {
    clearTimeout(timeLimit);
    // the threads end with the run: a page still parsing belongs to no committed record
    await pool?.close();
    process.off('beforeExit', watchdog.onIdle);
    output.detach();
    r.signal?.removeEventListener('abort', onAbort);
  }
}

/** A lost wake-up must not end the process silently (exit 13): see src/frontier/stall.ts. */
function watchStall(r: ResolvedConfig, c: Crawl, run: Run, abort: (err: StalledError) => void): { onIdle: () => void; stalled: () => StalledError | null } {
  const { store, head, redis } = c;
  const { scheduler, inflight } = run;
  let stalled: StalledError | null = null;
  const onIdle = stallWatchdog({
    progress: () => store.committed,
    wake: () => inflight.wake(),
    fail: (err) => {
      stalled = err;
      abort(err);
    },
    describe: () => {
      const next = scheduler.msUntilNextReady();
      const buffered = redis !== null ? '' : `${head.size} buffered${head.complete ? ' (all of them)' : ''}, `;
      return `${inflight.size} URLs in flight, ${store.frontierSize} queued, ${buffered}` +
        `${scheduler.activeHosts} hosts busy, next host ready ${Number.isFinite(next) ? `in ${Math.round(next)} ms` : 'when one is released'}`;
    },
    log: r.quiet ? undefined : r.log,
    // longer than one request may take: an answer on an unreferenced socket still arrives
    giveUpMs: (r.timeouts?.fetchMs ?? 60_000) + 30_000,
  });
  return { onIdle, stalled: () => stalled };
}

/** The stages of the diagram at the top of this file, in order. */
function stagesOf(r: ResolvedConfig, c: Crawl, run: Run): [AsyncIterable<CrawlItem>, ...Stage[]] {
  const { client, robots, store, redis, head, budget } = c;
  const { ctx, inflight, scheduler, dedup, signal } = run;
  const { warcOutStage, pagesOutStage } = run.outputStages;
  const { warc, pageStore } = c;
  return [
    frontierSource({
      head: redis !== null ? redis.claimHead(() => r.concurrency - inflight.size) : head,
      scheduler, inflight, pagesDone: () => store.pages, maxPages: r.maxPages, roundSize: r.roundSize, holdBack: r.holdBack, issue: ctx.issue, signal,
    }),
    (src) => hostBudgetStage(src, { budget }),
    (src) => addressGuardStage(src, { check: (url) => client.checkAddressNow(url), concurrency: r.concurrency }),
    (src) => robotsStage(src, { robots, concurrency: r.concurrency }),
    (src) => fetchStage(src, {
      client, concurrency: r.concurrency, maxBytes: r.maxBytes, canonOptions: r.redirectCanon,
      checkHop: hopChecker(r, c), beforeHop: ctx.beforeHop, onFetched: ctx.onFetched, signal,
    }),
    // with --warc-out / --pages-out the body travels on to their stages, which drop it
    (src) => run.pool === null
      ? parseStage(src, { ...parseOptionsOf(r), keepBody: warc !== null || pageStore !== null })
      // at most --concurrency pages held: at --concurrency 1 the frontier sees each commit before its next choice, as in-thread
      : parseWorkersStage(src, {
        pool: run.pool, window: Math.min(r.concurrency, PARSE_WINDOW_PER_WORKER * run.pool.size), keepBody: warc !== null || pageStore !== null, fingerprint: dedup !== null,
      }),
    (src) => classifyStage(src, { scorer: r.scorer, threshold: r.threshold, canonOptions: r.canon, maxOutlinks: r.maxLinks }),
    ...(dedup === null ? [] : [(src: AsyncIterable<CrawlItem>) => dedupStage(src, { dedup })]),
    // written before the sink commits the page (see src/stages/warc-out.ts)
    ...(warcOutStage === null ? [] : [(src: AsyncIterable<CrawlItem>) =>
      warcOutStage(src, { writer: warc!, strategy: r.scorer.name, maxBytes: r.maxBytes, userAgent: r.userAgent, dropBody: pageStore === null })]),
    ...(pagesOutStage === null ? [] : [(src: AsyncIterable<CrawlItem>) => pagesOutStage(src, { store: pageStore! })]),
    (src) => sinkStage(src, {
      store,
      strategy: r.scorer.name,
      outlinks: r.outlinks,
      maxDepth: r.maxDepth,
      canonOptions: r.canon,
      emit: (line) => run.output.write(line),
      tunnel: r.tunnel,
      scorer: r.scorer,
      // with Redis, URLs are leased from the shared store: no local head to spare moves for
      ...(redis === null ? { rescoreFloor: () => head.floor } : {}),
      linkGuard: {
        traps: r.trapLimits,
        ...(r.inScope === null ? {} : { inScope: r.inScope }),
        ...(r.skipExtension === null ? {} : { skipExtension: r.skipExtension }),
        hostFull: (host) => budget.isFull(host),
        onDrop: ctx.onDrop,
        onCapped: ctx.onCapped,
      },
      retry: r.retryPolicy,
      hostDelayMs: r.shared ? hostDelay(r, c) : undefined,
      log: r.quiet ? undefined : r.log,
      onRetry: ctx.onRetry,
      onCommitted: ctx.onCommitted,
    }),
  ];
}

/**
 * Pages held by the parse stage per worker thread (queued for a batch, parsing, or waiting for the
 * ones ahead): two batches of PARSE_BATCH, one parsing while the next gathers.
 */
const PARSE_WINDOW_PER_WORKER = 16;

/**
 * Pages gathered into one message to a worker (src/parse/pool.ts): waking a sleeping worker cost
 * the main thread ~0.25 ms a message here; one worker, best-first, 6,000 pages: 1 → 0.22 ms a page
 * in postMessage, 8 → 0.05–0.07 (docs/results/workers.md).
 */
const PARSE_BATCH = 8;

/** The parse options of a crawl, in-thread or in the workers. */
function parseOptionsOf(r: ResolvedConfig): ParseOptions {
  return { contextChars: r.contextChars, maxLinks: r.maxLinks, mainTextChars: r.textChars };
}

/**
 * Near-duplicate fingerprints in the parse workers: when detection is on and
 * the segmenter is a built-in one a worker can load by name (a library
 * caller's own segmenter object cannot cross threads: the dedup stage then
 * fingerprints on this thread).
 */
function workerFingerprint(r: ResolvedConfig): FingerprintOptions | undefined {
  if (r.nearDup === 0) return undefined;
  const name = r.segmenter?.name ?? 'node-rs';
  if (r.segmenter !== undefined && (!knownSegmenters().includes(name) || getSegmenter(name) !== r.segmenter)) return undefined;
  return { minTokens: r.nearDupMinTokens ?? DEFAULT_NEAR_DUP_MIN_TOKENS, segmenter: name };
}

/**
 * The relevance judge's term counts in the parse workers: when the judge is
 * the topic's (a topic, no model) and its segmenter a built-in one.
 */
function workerTermCounts(r: ResolvedConfig): string | undefined {
  if (r.topic == null || r.model != null) return undefined;
  const name = r.segmenter?.name ?? 'node-rs';
  if (r.segmenter !== undefined && (!knownSegmenters().includes(name) || getSegmenter(name) !== r.segmenter)) return undefined;
  return name;
}

/** A redirect hop may be followed: in scope, a public address, allowed by robots.txt, not fetched yet. */
function hopChecker(r: ResolvedConfig, c: Crawl): (url: string) => Promise<ItemError | null> {
  const { client, robots, store } = c;
  return async (url) => {
    // a redirect is a new URL: the scope holds for it as for a link (seeds' redirects too)
    if (r.inScope !== null && !r.inScope(url)) return { code: 'FC_OUT_OF_SCOPE', message: `redirect leaves the crawl's scope (--allow-domain, --include, --exclude): ${url}` };
    const privateAddress = await client.checkAddress(url);
    if (privateAddress !== null) return toItemError(privateAddress);
    const refused = await robotsAllows(robots, url);
    if (refused !== null) return refused;
    if ((await store.status(url)) === 'done') return { code: 'FC_REDIRECT_SEEN', message: `redirect to a URL already fetched: ${url}` };
    return null;
  };
}

/**
 * With a shared store (Redis) politeness holds across workers: the commit
 * tells the store how long the host waits before its next request.
 */
function hostDelay(r: ResolvedConfig, c: Crawl): (item: CrawlItem) => number {
  const replayHosts = new Set<string>();
  return (item) => {
    const host = hostOfCanonical(item.entry.url);
    if (item.fetch?.replay === true) replayHosts.add(host);
    const polite = replayHosts.has(host) && !r.delayExplicit ? 0 : politeDelayMs(r.delayMs, c.robots.crawlDelayMs(item.entry.url), r.delayFactor ?? 0, item.fetch?.ms ?? 0);
    return Math.max(polite, hostBackoffMs(item, r.retryPolicy));
  };
}

/** Fill in the summary's store totals, save the final stats and the host budget, close everything. */
async function closeCrawl(r: ResolvedConfig, c: Crawl): Promise<void> {
  const { summary, store, redis } = c;
  summary.totalPages = store.pages;
  if (redis !== null) summary.storeRoundTrips = redis.roundTrips;
  if (redis !== null && redis.replays.sent > 0) summary.storeReplays = redis.replays;
  summary.frontier = store.frontierSize;
  summary.ms = Date.now() - c.started;
  // the final stats record, saved in the store's meta before it closes
  await c.reporter?.stop().catch((err: unknown) => {
    if (!r.quiet) r.log(`focuscrawl: cannot save the final stats: ${(err as Error)?.message ?? err}`);
  });
  await c.budget.save(store);
  await c.client.close().catch(() => {});
  // the WARC file being written is fsynced and loses its .open suffix
  const warcClosed: unknown = c.warc === null ? null : await c.warc.close().then(() => null, (err: unknown) => err);
  await store.close();
  if (warcClosed !== null) throw warcClosed;
}

/** Log the summary; a run in which no request got an answer fails (noAnswerError). */
function finishCrawl(r: ResolvedConfig, c: Crawl): CrawlSummary {
  const { summary } = c;
  const unreachable = summary.stopped === 'done' ? noAnswerError(c.client, r.proxy, c.committedBefore === 0) : null;
  if (!r.quiet) r.log(summaryLine(summary, r.logFormat));
  if (unreachable !== null) throw unreachable;
  return summary;
}

function summaryLine(summary: CrawlSummary, format: CrawlConfig['logFormat']): string {
  const harvest = summary.pages === 0 ? 0 : summary.relevant / summary.pages;
  const rate = summary.pages / Math.max(summary.ms / 1000, 0.001);
  if (format === 'json') {
    return JSON.stringify({ type: 'summary', ...summary, harvest: Math.round(harvest * 1e4) / 1e4, pagesPerSec: Math.round(rate * 100) / 100 });
  }
  return `focuscrawl: ${summary.pages} pages (${summary.relevant} relevant, harvest ${(harvest * 100).toFixed(1)}%), ` +
    `${summary.errors} errors, ${(summary.ms / 1000).toFixed(1)} s, ${rate.toFixed(1)} pages/s; ` +
    `store: ${summary.totalPages} pages, ${summary.frontier} queued (${summary.stopped})` +
    dropLine(summary.dropped) +
    (summary.nearDuplicates ? `; near-duplicates ${summary.nearDuplicates}` : '');
}
