/**
 * The only place stages are wired. One crawl is one `stream.pipeline`:
 *
 *   frontier source -> robots -> fetch -> parse -> classify -> frontier sink
 *
 * The sink commits each page and writes its NDJSON record to the output
 * (stdout) in the same step (see src/stages/sink.ts for why).
 *
 * Backpressure runs end to end: when stdout is slow the sink stops pulling,
 * so classify, parse and fetch stop pulling, and the frontier source yields
 * no new URL. A failure in any stage destroys all of them. The robots check
 * sits before fetch because robots.txt must be consulted before a request;
 * link canonicalisation happens in the sink, next to the seen set.
 */
import { setMaxListeners } from 'node:events';
import { rm, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from './errors.ts';
import { FrontierHead } from './frontier-head.ts';
import { HttpClient } from './http.ts';
import { Inflight } from './inflight.ts';
import { firstN } from './iter.ts';
import { LineOutput } from './output.ts';
import { HostScheduler } from './politeness.ts';
import { RobotsCache } from './robots.ts';
import { DEFAULT_ROUND_SIZE } from './scorers/best-n-first.ts';
import type { LearnedModel } from './scorers/context.ts';
import type { Segmenter } from './text/segmenter.ts';
import { createScorer, relevanceThreshold } from './scorers/index.ts';
import { classifyStage } from './stages/classify.ts';
import { fetchStage } from './stages/fetch.ts';
import { frontierSource, hostOfCanonical } from './stages/frontier-source.ts';
import { parseStage } from './stages/parse.ts';
import { robotsAllows, robotsStage } from './stages/robots.ts';
import { sinkStage } from './stages/sink.ts';
import { CrawlStore } from './store.ts';
import type { CrawlItem, FrontierEntry, ItemError, OutputRecord, Scorer, Topic } from './types.ts';
import { canonicalize, type CanonOptions } from './url.ts';

export interface CrawlConfig {
  seeds: string[];
  topic: Topic | null;
  /** a trained model (--model): its page classifier judges relevance */
  model?: LearnedModel | null;
  strategy: string;
  /** strategy parameters: the topic's `params`, then --param overrides */
  params?: Record<string, number | string>;
  /** follow at most this many consecutive off-topic hops (default no limit) */
  tunnel?: number;
  /** Chinese word segmenter (default node-rs jieba) */
  segmenter?: Segmenter;
  storeDir: string;
  fresh: boolean;
  maxPages: number;
  maxDepth: number;
  maxFrontier: number;
  dropIndex: boolean;
  proxy?: string;
  concurrency: number;
  perHost: number;
  delayMs: number;
  delayExplicit: boolean;
  hostDiversity: number;
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
  stopped: 'done' | 'output-closed' | 'aborted';
}

/** Priority of seeds: ahead of every scored link, FIFO among themselves. */
const SEED_SCORE = 1e6;
const ROBOTS_MAX_BYTES = 512 * 1024;
const HEAD_CAPACITY = 16384;

/** Without a topic nothing is relevant and every link scores 0 (breadth-first). */
const UNFOCUSED: Scorer = { name: 'bfs', pageRelevance: () => 0, linkScore: () => 0 };

/** `--fresh`: delete the store, but only if it is one (or empty): never a random folder. */
async function removeStore(dir: string): Promise<void> {
  let names: string[];
  try {
    if (!(await stat(dir)).isDirectory()) throw new UsageError(`--store ${dir} is not a directory`);
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (names.length > 0 && !names.includes('CURRENT')) {
    throw new UsageError(`--fresh: ${dir} does not look like a focuscrawl store; not deleting it`);
  }
  await rm(dir, { recursive: true, force: true });
}

/**
 * stream.pipeline, typed loosely: @types/node has overloads for at most four
 * transforms. Each stage below is typed on its own input.
 */
const runPipeline = pipeline as (...stages: unknown[]) => Promise<void>;

/** Abort reason when the reader of the output went away. */
const OUTPUT_CLOSED = new Error('output closed');

/** Run one crawl (or resume it) until the frontier is empty, max pages, abort, or stdout closes. */
export async function runCrawl(cfg: CrawlConfig): Promise<CrawlSummary> {
  const started = Date.now();
  const canon: CanonOptions = { dropIndex: cfg.dropIndex };
  const seeds: FrontierEntry[] = [];
  for (const s of cfg.seeds) {
    const url = canonicalize(s, undefined, canon);
    if (url === null) throw new UsageError(`seed is not an http(s) URL: ${JSON.stringify(s)}`);
    seeds.push({ url, score: SEED_SCORE, depth: 0, parent: null });
  }
  const model = cfg.model ?? null;
  const params = { ...cfg.topic?.params, ...cfg.params };
  const focused = cfg.topic !== null || model !== null;
  const scorer = focused ? createScorer(cfg.strategy, cfg.topic, { model, params, segmenter: cfg.segmenter }) : UNFOCUSED;
  const threshold = focused ? relevanceThreshold(cfg.topic, model, params) : Infinity;
  const roundSize = cfg.strategy === 'best-n-first' ? Number(params.roundSize ?? DEFAULT_ROUND_SIZE) : undefined;
  if (roundSize !== undefined && !(Number.isInteger(roundSize) && roundSize >= 1)) {
    throw new UsageError(`roundSize must be a positive integer, got ${JSON.stringify(params.roundSize)}`);
  }
  if (cfg.fresh) await removeStore(path.resolve(cfg.storeDir));

  const head = new FrontierHead({
    capacity: HEAD_CAPACITY,
    load: (gt, limit) => firstN(store.frontier({ gt }), limit),
  });
  const store: CrawlStore = await CrawlStore.open(cfg.storeDir, {
    maxFrontier: cfg.maxFrontier,
    onFrontierChange: (change) => head.apply(change),
  });
  const client = new HttpClient({ proxy: cfg.proxy, userAgent: cfg.userAgent, auth: cfg.auth });
  const summary: CrawlSummary = { pages: 0, relevant: 0, errors: 0, totalPages: 0, frontier: 0, ms: 0, stopped: 'done' };
  try {
    await store.addSeeds(seeds);
    if (store.frontierSize === 0 && store.committed === 0) {
      throw new UsageError('no seeds: give --seed URL or --seeds FILE (or --store of a crawl to resume)');
    }
    const robots = new RobotsCache({
      userAgent: 'focuscrawl',
      fetchRobots: (url, signal) => client.getText(url, { maxBytes: ROBOTS_MAX_BYTES, signal }),
    });
    const scheduler = new HostScheduler({
      perHost: cfg.perHost,
      delayMs: cfg.delayMs,
      delayExplicit: cfg.delayExplicit,
      hostDiversity: cfg.hostDiversity,
      crawlDelayMs: (url) => robots.crawlDelayMs(url),
    });
    const inflight = new Inflight();
    // A host slot is freed once per item: when its fetch settles, or at the
    // sink for items that never reached a fetch (robots refusal).
    const released = new WeakSet<CrawlItem>();
    const release = (item: CrawlItem): void => {
      if (released.has(item)) return;
      released.add(item);
      const requested = item.fetch !== undefined || !item.error?.code.startsWith('FC_ROBOTS_');
      scheduler.finish(hostOfCanonical(item.entry.url), item.entry.url, item.fetch?.replay ?? false, requested);
      inflight.wake();
    };
    const checkHop = async (url: string): Promise<ItemError | null> => {
      const refused = await robotsAllows(robots, url);
      if (refused !== null) return refused;
      if ((await store.status(url)) === 'done') return { code: 'FC_REDIRECT_SEEN', message: `redirect to a URL already fetched: ${url}` };
      return null;
    };
    const count = (record: OutputRecord): void => {
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
    try {
      await runPipeline(
        frontierSource({ head, scheduler, inflight, pagesDone: () => store.pages, maxPages: cfg.maxPages, roundSize, signal: ac.signal }),
        (src: AsyncIterable<CrawlItem>) => robotsStage(src, { robots }),
        (src: AsyncIterable<CrawlItem>) =>
          fetchStage(src, { client, concurrency: cfg.concurrency, maxBytes: cfg.maxBytes, canonOptions: canon, checkHop, onFetched: release, signal: ac.signal }),
        (src: AsyncIterable<CrawlItem>) => parseStage(src, { contextChars: cfg.contextChars }),
        (src: AsyncIterable<CrawlItem>) => classifyStage(src, { scorer, threshold }),
        (src: AsyncIterable<CrawlItem>) =>
          sinkStage(src, {
            store,
            strategy: scorer.name,
            maxDepth: cfg.maxDepth,
            canonOptions: canon,
            emit: (line) => output.write(line),
            tunnel: cfg.tunnel,
            scorer,
            onCommitted: (item, record) => {
              release(item);
              inflight.delete(item.entry.url);
              count(record);
            },
          }),
        { signal: ac.signal },
      );
    } catch (err) {
      if (output.closed) summary.stopped = 'output-closed';
      else if (ac.signal.aborted) summary.stopped = 'aborted';
      else throw err;
    } finally {
      output.detach();
      cfg.signal?.removeEventListener('abort', onAbort);
    }
  } finally {
    summary.totalPages = store.pages;
    summary.frontier = store.frontierSize;
    summary.ms = Date.now() - started;
    await client.close().catch(() => {});
    await store.close();
  }
  if (!cfg.quiet) {
    const harvest = summary.pages === 0 ? 0 : summary.relevant / summary.pages;
    const rate = summary.pages / Math.max(summary.ms / 1000, 0.001);
    cfg.log(
      `focuscrawl: ${summary.pages} pages (${summary.relevant} relevant, harvest ${(harvest * 100).toFixed(1)}%), ` +
        `${summary.errors} errors, ${(summary.ms / 1000).toFixed(1)} s, ${rate.toFixed(1)} pages/s; ` +
        `store: ${summary.totalPages} pages, ${summary.frontier} queued (${summary.stopped})`,
    );
  }
  return summary;
}
