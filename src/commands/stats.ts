/**
 * `focuscrawl stats --store DIR [--log-format text|json]`: the statistics of
 * a crawl store, finished or running, on stdout.
 *
 * A store no crawl holds is opened and its stats rebuilt as a resumed crawl
 * would (saved meta `stats` plus the log records after it). A running crawl
 * holds the LevelDB lock; then the latest snapshot it wrote to
 * DIR/stats.json is shown (as fresh as its --stats-interval).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { helpText, parseCommand, type CommandSpec } from './args.ts';
import { StoreLockedError, UsageError } from '../errors.ts';
import { formatStatsLine, type StatsSnapshot } from '../output/stats.ts';
import { loadCrawlStats, readLiveStats } from '../output/stats-live.ts';
import { CrawlStore } from '../store/level.ts';
import type { RedisStore } from '../store/redis.ts';
import { inspectStoreDir, notAStore, type StoreDirKind } from '../store/dir.ts';
import { isRedisStore, type Store } from '../store/types.ts';

export const STATS_SPEC: CommandSpec = {
  name: 'stats',
  usage: ['stats --store DIR [--log-format text|json]'],
  summary:
    "Print the statistics of a crawl store: pages, harvest rate, errors by code, fetch latency percentiles, bytes, frontier size. A running crawl's numbers come from DIR/stats.json, which it rewrites every --stats-interval.",
  flags: [
    { group: 'Options', name: 'store', type: 'string', value: 'DIR', default: './focuscrawl-store', help: 'the crawl store, or redis://HOST:PORT/DB?crawl=NAME for a Redis store (totals from its log; running while a worker holds a URL)' },
    { group: 'Options', name: 'log-format', type: 'choice', choices: ['text', 'json'], default: 'text', help: 'text: one readable line; json: one JSON object' },
  ],
  notes: `"state" says where the numbers come from: running (the crawl holds the store),
finished (the final stats of the last run), interrupted (the last run did not
save final stats; totals rebuilt from the store's log).`,
  exitCodes: [
    [0, 'printed; also --help'],
    [1, 'the store cannot be opened (FC_STORE), an internal error'],
    [2, 'bad input: FC_USAGE (a bad flag, a --store that is not a store)'],
  ],
};

/** Where the numbers come from (see STATS_SPEC). */
export type StatsState = 'running' | 'finished' | 'interrupted';

/** What `focuscrawl stats` prints: a stats record and its state. */
export type StoreStats = StatsSnapshot & { state: StatsState };

/**
 * Throws UsageError unless `dir` is a directory holding a LevelDB (a
 * CURRENT file) that src/store/dir.ts's inspectStoreDir does not call
 * empty or foreign.
 */
export async function requireStore(dir: string): Promise<void> {
  let kind: StoreDirKind;
  try {
    kind = await inspectStoreDir(dir);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--store ${dir}: ${((err as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? (err as Error).message}`, { cause: err });
  }
  if (kind === 'missing') throw new UsageError(`--store ${dir}: ENOENT`);
  if (kind === 'empty' || kind === 'foreign') throw notAStore(dir, kind === 'empty' ? 'an empty directory' : undefined);
  if (!(await stat(path.join(dir, 'CURRENT')).then(() => true, () => false))) throw notAStore(dir, 'no database in it yet');
}

/** The Redis store at `location` (redis://HOST:PORT/DB?crawl=NAME); ioredis is loaded only when asked for. */
export async function openRedisStore(location: string): Promise<RedisStore> {
  const { RedisStore } = await import('../store/redis.ts');
  return RedisStore.open(location);
}

/**
 * The stats of the store in `dir`. Throws UsageError (FC_USAGE) when it is
 * not a store, StoreLockedError (FC_STORE_LOCKED) when it is locked and has
 * no live stats file.
 */
export async function storeStats(dir: string): Promise<StoreStats> {
  // a Redis store (redis://HOST:PORT/DB?crawl=NAME) has no lock and no stats.json: its numbers come from
  // its log; it is running while a worker holds a lease on a URL
  if (isRedisStore(dir)) {
    const store = await openRedisStore(dir);
    const running = (await store.leases().catch(async (err: unknown) => {
      await store.close();
      throw err;
    })) > 0;
    return { ...(await statsOf(store, true)), state: running ? 'running' : 'finished' };
  }
  await requireStore(dir);
  let store: CrawlStore;
  try {
    store = await CrawlStore.open(dir);
  } catch (err) {
    if (!(err instanceof StoreLockedError)) throw err;
    const live = await readLiveStats(dir);
    if (live === null) throw err;
    return { ...live, state: 'running' };
  }
  return statsOf(store);
}

/** The stats of an open store (closed when done), rebuilt as a resumed crawl would. */
async function statsOf(store: Store, shared = false): Promise<StoreStats> {
  try {
    // the stats several workers saved each cover their own run, not a prefix of the shared log: count the whole log
    const { stats, saved, replayed } = await loadCrawlStats(shared ? { getMeta: async () => undefined, log: (o) => store.log(o), committed: store.committed } : store);
    if (saved !== null && replayed === 0) {
      const { digest: _digest, ...snapshot } = saved;
      return { ...snapshot, state: saved.final ? 'finished' : 'interrupted' };
    }
    // no final save: the totals from the log; the run's clock and rates as last saved
    const rebuilt = stats.snapshot({ frontier: store.frontierSize, activeHosts: 0, maxPages: saved?.maxPages ?? undefined });
    return {
      ...rebuilt,
      elapsed: saved?.elapsed ?? 0,
      runPages: saved?.runPages ?? 0,
      pagesPerSec: saved?.pagesPerSec ?? { recent: 0, overall: 0 },
      state: 'interrupted',
    };
  } finally {
    await store.close();
  }
}

/** Run `focuscrawl stats` with its own arguments; resolves to the exit code (errors are thrown). */
export async function runStats(argv: string[], io: { stdout?: Writable } = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const { help, args } = parseCommand(STATS_SPEC, argv);
  if (help) {
    stdout.write(helpText(STATS_SPEC));
    return 0;
  }
  const format = args.string('log-format');
  const stats = await storeStats(args.string('store')!);
  stdout.write(format === 'json' ? `${JSON.stringify(stats)}\n` : `${formatStatsLine(stats, `stats (${stats.state})`)}\n`);
  return 0;
}
