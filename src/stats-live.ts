/**
 * The I/O around the stats collector (src/stats.ts) during a crawl:
 *
 * - `loadCrawlStats`: restore the collector from the store's meta `stats`
 *   and count the log records committed after it was saved (a crawl killed
 *   between two saves loses nothing), so a resumed crawl continues the totals.
 * - `StatsReporter`: every interval a snapshot goes to a callback (stderr in
 *   the CLI), to the store's meta and to DIR/stats.json (written to a temp
 *   file and renamed, so a reader never sees half of it); a faster timer
 *   feeds the TTY progress line; at exit the final snapshot goes to all three.
 *
 * DIR/stats.json is how `focuscrawl stats` reads a running crawl: LevelDB
 * admits one process, so the store itself is locked while the crawl runs.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { logKey } from './store.ts';
import type { Store } from './store/types.ts';
import { CrawlStats, parseSavedStats, savedRecords, type SavedStats, type StatsSample, type StatsSnapshot } from './stats.ts';
import type { ErrorRecord, OutputRecord, PageRecord } from './types.ts';

/** The store meta key of the saved stats. */
export const STATS_META_KEY = 'stats';

/** The latest snapshot of a crawl, in its store directory. */
export const LIVE_STATS_FILE = 'stats.json';

/** Default --stats-interval, in ms. */
export const DEFAULT_STATS_INTERVAL_MS = 10_000;

/** Progress line refresh period (at most 4 redraws a second). */
export const PROGRESS_INTERVAL_MS = 250;

/** A log entry as a record the collector can count (anything not a page counts as an error). */
function asRecord(value: object): OutputRecord {
  const v = value as { type?: unknown; code?: unknown };
  if (v.type === 'page') return value as PageRecord;
  return { ...(value as ErrorRecord), type: 'error', code: typeof v.code === 'string' ? v.code : 'FC_INTERNAL' };
}

/** The stats of a store, ready to continue. */
export interface LoadedStats {
  stats: CrawlStats;
  /** the state saved in meta, when it was usable */
  saved: SavedStats | null;
  /** log records counted beyond the saved state */
  replayed: number;
}

/**
 * The collector of a store: the saved state (meta `stats`) plus every log
 * record committed after it. A missing, malformed or inconsistent saved state
 * is rebuilt from the whole log (latency from the records' `ms`).
 */
export async function loadCrawlStats(
  store: Pick<Store, 'getMeta' | 'log' | 'committed'>,
  opts: { now?: () => number } = {},
): Promise<LoadedStats> {
  let saved = parseSavedStats(await store.getMeta(STATS_META_KEY));
  if (saved !== null && savedRecords(saved) > store.committed) saved = null;
  const stats = new CrawlStats({ saved, now: opts.now });
  let replayed = 0;
  for await (const value of store.log({ gt: logKey(stats.records) })) {
    stats.observe(asRecord(value));
    replayed++;
  }
  return { stats, saved, replayed };
}

/** Write the snapshot to DIR/stats.json atomically (temp file + rename). */
export async function writeLiveStats(dir: string, snapshot: StatsSnapshot): Promise<void> {
  const file = path.join(dir, LIVE_STATS_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(snapshot)}\n`);
  await rename(tmp, file);
}

/** The snapshot in DIR/stats.json, or null when there is none (or it is not a stats record). */
export async function readLiveStats(dir: string): Promise<StatsSnapshot | null> {
  let text: string;
  try {
    text = await readFile(path.join(dir, LIVE_STATS_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const v = JSON.parse(text) as StatsSnapshot;
    return typeof v === 'object' && v !== null && v.type === 'stats' ? v : null;
  } catch {
    return null;
  }
}

function withoutDigest(saved: SavedStats): StatsSnapshot {
  const { digest: _digest, ...snapshot } = saved;
  return snapshot;
}

export interface StatsReporterOptions {
  stats: CrawlStats;
  store: Pick<Store, 'putMeta'>;
  /**
   * The stats the last run saved, when they cover every committed record
   * (loadCrawlStats replayed none): a run that commits nothing (a finished
   * crawl run again) ends with them, not with its own zero clock and rates.
   */
  previous?: SavedStats | null;
  /** the store directory (DIR/stats.json); null: no live stats file (a Redis store) */
  dir: string | null;
  /** ms between stats records (0: none; only the final state is saved) */
  intervalMs: number;
  /** frontier size, active hosts and page limit right now */
  sample: () => StatsSample;
  /** a stats record: every interval, and the final one (not called when intervalMs is 0) */
  onStats?: (snapshot: StatsSnapshot) => void;
  /** a snapshot every PROGRESS_INTERVAL_MS, for a progress line */
  onProgress?: (snapshot: StatsSnapshot) => void;
  /** a periodic save failed (reported once; the crawl goes on) */
  onWarning?: (message: string) => void;
}

/** Runs the stats timers of one crawl: `start` when fetching starts, `stop` before the store closes. */
export class StatsReporter {
  readonly #o: StatsReporterOptions;
  #timers: NodeJS.Timeout[] = [];
  /** the save in progress; a tick skips its save while one runs */
  #saving: Promise<void> | null = null;
  #warned = false;
  /** records counted when the run started */
  #startRecords = 0;

  constructor(opts: StatsReporterOptions) {
    if (!(Number.isFinite(opts.intervalMs) && opts.intervalMs >= 0)) throw new TypeError(`intervalMs must be >= 0, got ${opts.intervalMs}`);
    this.#o = opts;
  }

  /** Count a committed record. */
  observe(record: OutputRecord): void {
    this.#o.stats.observe(record);
  }

  /** Start the run's clock and timers; the first snapshot goes to DIR/stats.json at once. */
  start(): void {
    const o = this.#o;
    o.stats.startRun();
    this.#startRecords = o.stats.records;
    this.#save(o.stats.toSaved(o.sample()), false);
    if (o.intervalMs > 0) {
      this.#timers.push(
        setInterval(() => {
          const saved = o.stats.toSaved(o.sample());
          o.onStats?.(withoutDigest(saved));
          if (this.#saving === null) this.#save(saved, true);
        }, o.intervalMs).unref(),
      );
    }
    if (o.onProgress !== undefined) {
      const onProgress = o.onProgress;
      this.#timers.push(setInterval(() => onProgress(o.stats.snapshot(o.sample())), PROGRESS_INTERVAL_MS).unref());
    }
  }

  #save(saved: SavedStats, meta: boolean): void {
    const o = this.#o;
    this.#saving = Promise.all([meta ? o.store.putMeta(STATS_META_KEY, saved) : undefined, o.dir === null ? undefined : writeLiveStats(o.dir, withoutDigest(saved))])
      .then(() => {})
      .catch((err: unknown) => {
        if (this.#warned) return;
        this.#warned = true;
        o.onWarning?.(`focuscrawl: cannot save live stats in ${o.dir}: ${(err as Error)?.message ?? err}`);
      })
      .finally(() => {
        this.#saving = null;
      });
  }

  /**
   * Stop the timers, wait for a save in progress, then report the final
   * snapshot and save it to the store's meta (awaited: a failure rejects)
   * and DIR/stats.json. Returns the final snapshot: `previous` (as final)
   * when the run committed nothing.
   */
  async stop(): Promise<StatsSnapshot> {
    const o = this.#o;
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    await this.#saving;
    const sample = o.sample();
    // nothing committed in this run: the last run's clock and rates stand (issue 21)
    const idle = o.previous != null && o.stats.records === this.#startRecords;
    const saved = idle
      ? { ...o.previous!, final: true, frontier: sample.frontier, hostsActive: 0, maxPages: Number.isFinite(sample.maxPages ?? Infinity) ? sample.maxPages! : null }
      : o.stats.toSaved({ ...sample, final: true });
    const snapshot = withoutDigest(saved);
    if (o.intervalMs > 0) o.onStats?.(snapshot);
    await o.store.putMeta(STATS_META_KEY, saved);
    this.#save(saved, false);
    await this.#saving;
    return snapshot;
  }
}
