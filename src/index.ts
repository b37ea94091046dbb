/**
 * focuscrawl as a library: `import { crawl, stages, createStore } from 'focuscrawl'`.
 *
 * The exported surface is deliberate: everything below is public and
 * documented; anything not exported here is internal and may change in any
 * release. Three levels of use:
 *
 * 1. {@link crawl}: the whole crawler (what `focuscrawl crawl` runs), as an
 *    object-mode Readable of output records plus a `summary` promise.
 * 2. {@link stages}: the pipeline stages, each an async-generator function
 *    `(source, options) => AsyncGenerator`, to compose yourself with
 *    `stream.pipeline` or `Duplex.from` (plus {@link HttpClient},
 *    {@link createRobotsCache}, {@link createScorer}, {@link createStore}).
 * 3. Building blocks: {@link parseHtml} / {@link PageParser}, {@link canonicalize},
 *    topics and scorers, the replay proxy ({@link createReplayServer}), the
 *    coded errors.
 *
 * Heavy modules (the crawl pipeline, the replay proxy and its WARC reader)
 * load on first use, so importing the package stays cheap.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { UsageError, toItemError } from './errors.ts';
import { HttpClient } from './fetch/http.ts';
import type { CrawlConfig } from './crawl/config.ts';
import type { CrawlSummary } from './crawl/summary.ts';
import type { ReplayServer, ReplayServerOptions } from './replay/server.ts';
import { RobotsCache, type RobotsCacheOptions } from './fetch/robots.ts';
import { knownStrategies, modelStrategy, needsModel } from './relevance/scorers/index.ts';
import { addressGuardStage } from './stages/address-guard.ts';
import { classifyStage } from './stages/classify.ts';
import { dedupStage } from './stages/dedup.ts';
import { fetchStage } from './stages/fetch.ts';
import { parseStage } from './stages/parse.ts';
import { robotsStage } from './stages/robots.ts';
import { sinkStage, toRecord } from './stages/sink.ts';
import type { StatsSnapshot } from './output/stats.ts';
import type { CrawlStore } from './store/level.ts';
import type { StoreOptions } from './store/types.ts';
import type { CrawlItem, OutputRecord, Topic } from './types.ts';
import { canonicalize, type CanonOptions } from './urls/canonical.ts';
import { VERSION } from './util/version.ts';

// ---- re-exports -------------------------------------------------------------

/** The package version (from package.json). */
export { VERSION };

/** Record and item shapes (see docs/output.md for the record fields). */
export type {
  BlockType, CrawlItem, ErrorRecord, FetchHop, FetchResult, FrontierEntry, ItemError, Outlink, OutputRecord,
  PageLink, PageRecord, ParsedPage, QueuedLink, RecordOutlink, Rescore, Scorer, Topic,
} from './types.ts';
export type { CrawlSummary } from './crawl/summary.ts';
export type { StatsSnapshot } from './output/stats.ts';

/** Coded errors: every failure has a stable `code` (docs/exit-codes.md). */
export {
  BadHostError, BadRedirectError, BadWarcError, CapExceededError, DecodeError, ERROR_CODES, FetchError, FocuscrawlError,
  HostBudgetError, ModelError, NetworkError, PagesOutError, PrivateAddressError, SitemapError, StalledError, StoreError,
  StoreLockedError, TimeoutError, TooManyRedirectsError, TopicError, UsageError, WarcError, exitStatusOf, toItemError,
  type ErrorCode, type ErrorCodeInfo, type RecordCode,
} from './errors.ts';

/** URL canonicalisation, as the crawler's seen set uses it (null for a non-http(s) URL). */
export { canonicalize, type CanonOptions } from './urls/canonical.ts';

/** Strategies: the scorer factory, the registered names, the relevance threshold rule. */
export { createScorer, knownStrategies, needsModel, relevanceThreshold, type ScorerOptions } from './relevance/scorers/index.ts';
export type { LearnedModel } from './relevance/scorers/context.ts';
/** Topics (topic.json) and the TF-IDF judge every strategy shares. */
export { loadTopic, parseTopic, TopicModel, DEFAULT_THRESHOLD, type TopicModelOptions } from './relevance/topic.ts';
/** Trained models (`focuscrawl train` output, `--model`). */
export { loadModel, type Model } from './relevance/model.ts';
/** Chinese word segmentation backends (`--segmenter`). */
export { getSegmenter, type Segmenter } from './relevance/text/segmenter.ts';

/** The HTML parser: title, text blocks, links with context windows. */
export { PageParser, type PageParserOptions } from './parse/page-parser.ts';
export { sniffCharset } from './parse/charset.ts';
export { parseBody as parseHtml } from './parse/body.ts';
export type { ParseStageOptions } from './stages/parse.ts';

/** HTTP client (timeouts, caps, proxy, private-address guard) and robots.txt cache, for the fetch and robots stages. */
export { HttpClient, type HttpClientOptions } from './fetch/http.ts';
/** Name lookups of the HTTP client (CrawlConfig.lookup, HttpClientOptions.lookup): the system default and a loopback-only one for tests. */
export { isValidHostname, loopbackLookup, systemLookup, type Resolver } from './fetch/lookup.ts';
export { RobotsCache, type RobotsCacheOptions, type RobotsVerdict } from './fetch/robots.ts';
/** Near-duplicate index for the dedup stage. */
export { NearDuplicates, type NearDuplicatesOptions } from './stages/dedup.ts';

export type { ClassifyOptions } from './stages/classify.ts';
export type { FetchStageOptions } from './stages/fetch.ts';
export type { SinkOptions, LinkGuard, LinkDropReason, RecordOptions } from './stages/sink.ts';
export type { InScope, ScopeRules } from './urls/scope.ts';
/** The built-in `skipExtensions` list, and the check a LinkGuard's `skipExtension` takes. */
export { compileSkipExtensions, DEFAULT_SKIP_EXTENSIONS } from './urls/extensions.ts';
export type { CrawlStore } from './store/level.ts';
export type { StoreOptions } from './store/types.ts';
export type { ReplayServer, ReplayServerOptions } from './replay/server.ts';

/** The output record of a finished item (what the sink writes), without a store. */
export { toRecord };

// ---- stages -------------------------------------------------------------------

/**
 * Source stage: one CrawlItem per URL, canonicalised (depth 0, no parent,
 * score 0). A URL that is not http(s) becomes an item carrying an FC_USAGE
 * error, which every later stage passes through untouched.
 */
export async function* fromUrls(urls: Iterable<string> | AsyncIterable<string>, opts: { canon?: CanonOptions } = {}): AsyncGenerator<CrawlItem> {
  for await (const raw of urls) {
    const url = canonicalize(raw, undefined, opts.canon);
    if (url === null) {
      yield { entry: { url: String(raw), score: 0, depth: 0, parent: null }, error: toItemError(new UsageError(`not an http(s) URL: ${JSON.stringify(raw)}`)) };
    } else {
      yield { entry: { url, score: 0, depth: 0, parent: null } };
    }
  }
}

/**
 * End stage without a store: maps each finished item to its output record
 * (the NDJSON record of docs/output.md), named after strategy `opts.strategy`.
 */
export async function* toRecords(source: AsyncIterable<CrawlItem>, opts: { strategy?: string; outlinks?: boolean } = {}): AsyncGenerator<OutputRecord> {
  for await (const item of source) yield toRecord(item, opts.strategy ?? 'custom', { outlinks: opts.outlinks });
}

/**
 * The pipeline stages. Each is `(source: AsyncIterable<CrawlItem>, options)
 * => AsyncGenerator<CrawlItem>` (except `fromUrls`, a source, and `sink`,
 * which returns a Promise), so they compose with `stream.pipeline`:
 *
 * ```js
 * await pipeline(
 *   stages.fromUrls(urls),
 *   (src) => stages.fetch(src, { client, concurrency: 4, maxBytes: 1 << 20 }),
 *   (src) => stages.parse(src),
 *   (src) => stages.classify(src, { scorer, threshold: 0.2 }),
 *   (src) => stages.toRecords(src),
 *   async (records) => { for await (const r of records) console.log(r.url) },
 * );
 * ```
 *
 * or become Duplex streams: `Duplex.from((src) => stages.parse(src))`.
 * A failed URL is an item carrying `error` (then a record of `type: "error"`),
 * never a thrown error. A hand-composed pipeline has no per-host politeness
 * (delays, one request per host): crawl the real web with {@link crawl}.
 */
export const stages = {
  /** source: URLs -> items ({@link fromUrls}) */
  fromUrls,
  /** refuses loopback/private/metadata addresses: `{ check: (url) => client.checkAddress(url) }` */
  addressGuard: addressGuardStage,
  /** refuses what robots.txt forbids: `{ robots: createRobotsCache(client) }` */
  robots: robotsStage,
  /** fetches (redirects, caps, timeouts), completion order: `{ client, concurrency, maxBytes }` */
  fetch: fetchStage,
  /** HTML body -> item.page (title, blocks, links); drops the body */
  parse: parseStage,
  /** page relevance and link scores: `{ scorer, threshold }` */
  classify: classifyStage,
  /** near-duplicate pages (SimHash): `{ dedup: new NearDuplicates(...) }` */
  dedup: dedupStage,
  /** items -> output records, no store ({@link toRecords}) */
  toRecords,
  /** commits each item into a CrawlStore and emits its NDJSON line (what a crawl ends with) */
  sink: sinkStage,
} as const;

/**
 * A robots.txt cache that fetches through `client` (512 KiB cap, product
 * token `focuscrawl` unless `opts.userAgent` says otherwise), for the robots stage.
 */
export function createRobotsCache(client: HttpClient, opts: Partial<RobotsCacheOptions> = {}): RobotsCache {
  return new RobotsCache({
    userAgent: 'focuscrawl',
    fetchRobots: (url, signal) => client.getText(url, { maxBytes: opts.maxBytes ?? 512 * 1024, signal }),
    ...opts,
  });
}

// ---- store ----------------------------------------------------------------------

/** Where a store lives: a directory, or an abstract-level database such as `new MemoryLevel()`. */
export type StoreLocation = string | { level: Exclude<Parameters<typeof CrawlStore.open>[0], string> };

/**
 * Open (creating it if missing) the crawl store at `location`: a directory
 * (a crawl's `store`), or `{ level }`, any abstract-level database, which the
 * store takes over and closes on `close()`. Read what a crawl left with
 * `store.log()` (committed records in order), `store.frontier()` (queued
 * URLs, best first), `store.status(url)`, `store.pages`. Close it before
 * another crawl opens the directory. Throws StoreLockedError
 * (FC_STORE_LOCKED) while a crawl holds it, StoreError (FC_STORE) otherwise.
 */
export async function createStore(location: StoreLocation, opts: StoreOptions = {}): Promise<CrawlStore> {
  const { CrawlStore } = await import('./store/level.ts');
  return CrawlStore.open(typeof location === 'string' ? location : location.level, opts);
}

// ---- replay -----------------------------------------------------------------------

/**
 * Serve the `response` records of WARC files as an HTTP forward proxy on
 * 127.0.0.1 (what `focuscrawl replay` runs): crawl an archive offline with
 * `crawl({ proxy: server.url, ... })`. Close it with `server.close()`.
 */
export async function createReplayServer(opts: ReplayServerOptions): Promise<ReplayServer> {
  const replay = await import('./replay/server.ts');
  return replay.createReplayServer(opts);
}

// ---- crawl ----------------------------------------------------------------------------

/** CrawlConfig fields that crawl() fills itself or exposes under another name, and test hooks. */
type Internal = 'seeds' | 'topic' | 'strategy' | 'storeDir' | 'fresh' | 'output' | 'log' | 'quiet' | 'logStats' | 'progress' | 'logFormat' | 'delayExplicit' | 'parseFaults';

/**
 * Options of {@link crawl}: the flags of `focuscrawl crawl` (docs/cli.md), as
 * camelCase fields. Every field is optional; defaults are the CLI's.
 */
export interface CrawlOptions extends Partial<Omit<CrawlConfig, Internal>> {
  /** start URLs (optional when resuming a `store`) */
  seeds?: string[];
  /** the topic (`loadTopic(file)` or an object); without topic, model or scorer the crawl is breadth-first */
  topic?: Topic | null;
  /** a name from knownStrategies() (default nb-link-layers with a model that has layers, nb-link with another model, best-first with a topic, else bfs) */
  strategy?: string;
  /**
   * store directory; rerun with the same one to resume. Default: a fresh
   * temporary store, deleted when the crawl ends
   */
  store?: string;
  /** delete `store` first (refused if it is not a focuscrawl store) */
  fresh?: boolean;
  /** human-readable log lines (retries, warnings, the summary); default: none */
  log?: (line: string) => void;
  /** stats records, every `statsIntervalMs` (default 10 s) and a final one */
  onStats?: (snapshot: StatsSnapshot) => void;
  /** records buffered ahead of the reader before the crawl waits (default 16) */
  highWaterMark?: number;
}

const DEFAULT_HIGH_WATER_MARK = 16;

/**
 * A running crawl: an object-mode Readable of {@link OutputRecord}s in
 * commit order (iterate it, pipe it, `.on('data')`), plus `summary`. The
 * crawl starts when the stream is first read and waits while records are
 * not read (backpressure reaches the frontier). Destroying the stream (or
 * `break` in `for await`) stops the crawl like `| head` does: the store stays
 * consistent and `summary.stopped` is `'output-closed'`. A crawl that cannot
 * run (bad seed, unknown strategy, store locked) errors the stream with the
 * coded error; a failed URL is a record of `type: "error"`, not a stream error.
 */
export class CrawlStream extends Readable {
  /**
   * Settles when the crawl has ended and its store is closed (and a
   * temporary store removed): after the last record, or after destroy().
   * Rejects with the error that failed the crawl. To run a crawl only for
   * its summary: `await crawl(opts).resume().summary`.
   */
  readonly summary: Promise<CrawlSummary>;
  readonly #options: CrawlOptions;
  #resolve!: (summary: CrawlSummary) => void;
  #reject!: (err: unknown) => void;
  #run: Promise<void> | null = null;
  /** what runCrawl writes NDJSON lines to */
  #lines: Writable | null = null;
  /** the write callback held back while the reader is behind */
  #held: (() => void) | null = null;

  constructor(options: CrawlOptions) {
    super({ objectMode: true, highWaterMark: options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK });
    this.#options = options;
    this.summary = new Promise<CrawlSummary>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // a caller who never reads `summary` must not get an unhandled rejection
    this.summary.catch(() => {});
  }

  /** The records, typed (a Readable's iterator yields `any`). */
  override [Symbol.asyncIterator](): NodeJS.AsyncIterator<OutputRecord> {
    return super[Symbol.asyncIterator]();
  }

  override _read(): void {
    if (this.#run === null) {
      this.#run = this.#start();
      return;
    }
    const held = this.#held;
    this.#held = null;
    held?.();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (this.#run === null) {
      this.#run = Promise.resolve();
      this.#reject(Object.assign(new Error('the crawl was destroyed before it started'), { name: 'AbortError', code: 'ABORT_ERR' }));
      callback(err);
      return;
    }
    // the crawl sees its output close (as with `| head`), stops and closes the store
    this.#lines?.destroy();
    void this.#run.then(() => callback(err));
  }

  async #start(): Promise<void> {
    const o = this.#options;
    let temporary: string | null = null;
    try {
      const { runCrawl } = await import('./pipeline.ts');
      const focused = o.topic != null || o.model != null || o.scorer !== undefined;
      const strategy = o.strategy ?? o.scorer?.name ?? (o.model != null ? modelStrategy(o.model) : focused ? 'best-first' : 'bfs');
      if (o.scorer === undefined) {
        if (!knownStrategies().includes(strategy)) throw new UsageError(`unknown strategy ${JSON.stringify(strategy)}; known: ${knownStrategies().join(', ')}`);
        if (needsModel(strategy) && o.model == null) throw new UsageError(`strategy ${strategy} needs a model (loadModel)`);
        if (strategy !== 'bfs' && !focused) throw new UsageError(`strategy ${strategy} needs a topic or a model`);
      }
      const storeDir = o.store ?? (temporary = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-')));
      if (this.destroyed) throw Object.assign(new Error('the crawl was destroyed before it started'), { name: 'AbortError', code: 'ABORT_ERR' });
      this.#lines = new Writable({
        objectMode: true,
        highWaterMark: 1,
        write: (chunk: string, _encoding, callback) => {
          let more = true;
          for (const line of String(chunk).split('\n')) if (line !== '') more = this.push(JSON.parse(line) as OutputRecord);
          if (more || this.destroyed) callback();
          else this.#held = callback;
        },
      });
      const { log, onStats, store: _store, highWaterMark: _hwm, ...rest } = o;
      const config: CrawlConfig = {
        concurrency: 8,
        perHost: 1,
        delayMs: 1000,
        hostDiversity: 0,
        maxBytes: 1024 * 1024,
        maxPages: Infinity,
        maxDepth: Infinity,
        maxFrontier: Infinity,
        dropIndex: true,
        auth: {},
        ...dropUndefined(rest),
        seeds: o.seeds ?? [],
        topic: o.topic ?? null,
        strategy,
        storeDir,
        fresh: o.fresh === true,
        delayExplicit: o.delayMs !== undefined,
        quiet: log === undefined,
        log: log ?? (() => {}),
        logStats: onStats,
        output: this.#lines,
      };
      const summary = await runCrawl(config);
      // every line written has been pushed (the output waits for each write)
      if (temporary !== null) await rm(temporary, { recursive: true, force: true });
      temporary = null;
      this.#resolve(summary);
      if (!this.destroyed) this.push(null);
    } catch (err) {
      this.#reject(err);
      if (!this.destroyed) this.destroy(err as Error);
    } finally {
      if (temporary !== null) await rm(temporary, { recursive: true, force: true }).catch(() => {});
    }
  }
}

/** `obj` without its undefined fields (so they do not override defaults). */
function dropUndefined<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Crawl: the whole focused crawler, records as they are committed.
 *
 * ```js
 * const run = crawl({ seeds: ['https://example.org/'], topic: await loadTopic('topic.json'), maxPages: 100 });
 * for await (const record of run) if (record.type === 'page' && record.relevant) console.log(record.url);
 * console.log(await run.summary); // { pages, relevant, errors, stopped, ... }
 * ```
 *
 * Polite by default (robots.txt, one request per host, 1 s delay). Loopback
 * and private addresses are refused unless `allowPrivate` (or a `proxy`).
 */
export function crawl(options: CrawlOptions): CrawlStream {
  return new CrawlStream(options);
}
