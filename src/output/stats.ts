/**
 * Live crawl statistics: a collector fed with every committed output record,
 * and the snapshot it gives every `--stats-interval` (pages, rates, harvest
 * rate, errors by code, fetch-latency percentiles, bytes).
 *
 * Pure: no I/O and no timers (src/output/stats-live.ts does those); the clock is
 * injectable. Memory is bounded: counters, a fixed ring of per-second page
 * counts for the recent rate, at most MAX_ERROR_CODES error codes, and a
 * t-digest of fetch times (the `tdigest` package with its default
 * compression, at most K/delta = 2,500 centroids).
 *
 * Totals (pages, relevant, errors, bytes, latency) cover every run on a
 * store: the collector is restored from the state saved in the store's
 * meta (`toSaved`) and continues from there. `elapsed` and `pagesPerSec`
 * describe the current run only.
 */
import { TDigest, type Centroid } from 'tdigest';
import type { OutputRecord } from '../types.ts';
import { sanitizeForTerminal } from './terminal.ts';

/** Seconds covered by the recent pages/s rate. */
export const RECENT_WINDOW_S = 10;

/** Distinct error codes counted by name; further ones are counted under OTHER_ERRORS. */
export const MAX_ERROR_CODES = 64;

/** The bucket for error codes beyond MAX_ERROR_CODES. */
export const OTHER_ERRORS = 'other';

/** One stats record (stderr NDJSON with --log-format json, store meta `stats`, DIR/stats.json). */
export interface StatsSnapshot {
  type: 'stats';
  /** ISO-8601 time of the snapshot */
  at: string;
  /** the last record of the run (written at exit) */
  final: boolean;
  /** seconds since this run started */
  elapsed: number;
  /** page records committed, all runs on the store */
  pages: number;
  /** of those, judged relevant */
  relevant: number;
  /** relevant / pages (0 before the first page) */
  harvest: number;
  /** page records committed in this run */
  runPages: number;
  /** this run's rate: over the last RECENT_WINDOW_S seconds, and since the run started */
  pagesPerSec: { recent: number; overall: number };
  /** --max-pages, null without a limit */
  maxPages: number | null;
  /** URLs queued */
  frontier: number;
  /** hosts with a request in flight */
  hostsActive: number;
  /** error records by code, all runs */
  errors: Record<string, number>;
  /** fetch time of page records (all redirect hops), t-digest percentiles; null before the first page */
  latencyMs: { p50: number | null; p95: number | null; p99: number | null };
  /** body bytes of page records, all runs */
  bytes: number;
}

/** What the store's meta keeps: the final snapshot plus the latency digest's centroids. */
export interface SavedStats extends StatsSnapshot {
  digest: Centroid[];
}

/** Crawl state the collector cannot know by itself, sampled at snapshot time. */
export interface StatsSample {
  frontier: number;
  activeHosts: number;
  /** Infinity (or undefined) without a limit */
  maxPages?: number;
  final?: boolean;
}

export interface CrawlStatsOptions {
  /** the state saved by an earlier run (see parseSavedStats): the totals continue from it */
  saved?: SavedStats | null;
  /** clock in ms (default Date.now) */
  now?: () => number;
}

function isCount(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}

/** A saved state (store meta `stats`) when it has the fields a resume needs, else null. */
export function parseSavedStats(v: unknown): SavedStats | null {
  if (typeof v !== 'object' || v === null) return null;
  const s = v as Partial<SavedStats>;
  if (s.type !== 'stats' || !isCount(s.pages) || !isCount(s.relevant) || !isCount(s.bytes) || s.relevant > s.pages) return null;
  if (typeof s.errors !== 'object' || s.errors === null || !Object.values(s.errors).every(isCount)) return null;
  if (!Array.isArray(s.digest) || !s.digest.every((c) => Number.isFinite(c?.mean) && Number.isFinite(c?.n) && c.n > 0)) return null;
  return s as SavedStats;
}

/** Records (pages and errors) a saved state counts: its position in the store's log. */
export function savedRecords(s: SavedStats): number {
  return Object.values(s.errors).reduce((n, c) => n + c, s.pages);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * Counts committed records and reports snapshots. `observe` every record in
 * commit order; `startRun` when the crawl starts fetching (records observed
 * before it, e.g. replayed from the store's log, count only in the totals).
 */
export class CrawlStats {
  readonly #now: () => number;
  #pages = 0;
  #relevant = 0;
  #bytes = 0;
  readonly #errors = new Map<string, number>();
  readonly #digest = new TDigest();
  #runStart: number | null = null;
  #runPages = 0;
  /** page commits per second: second number and count, slot = second % window */
  readonly #bucketSec = new Float64Array(RECENT_WINDOW_S).fill(-1);
  readonly #bucketCount = new Float64Array(RECENT_WINDOW_S);

  constructor(opts: CrawlStatsOptions = {}) {
    this.#now = opts.now ?? Date.now;
    const saved = opts.saved;
    if (saved !== undefined && saved !== null) {
      this.#pages = saved.pages;
      this.#relevant = saved.relevant;
      this.#bytes = saved.bytes;
      for (const [code, n] of Object.entries(saved.errors)) this.#countError(code, n);
      if (saved.digest.length > 0) this.#digest.push_centroid(saved.digest);
    }
  }

  /** Records counted so far (pages and errors, all runs): the store's log position they cover. */
  get records(): number {
    let n = this.#pages;
    for (const c of this.#errors.values()) n += c;
    return n;
  }

  /** The run starts now: elapsed time and rates count from here. */
  startRun(): void {
    this.#runStart = this.#now();
    this.#runPages = 0;
    this.#bucketSec.fill(-1);
    this.#bucketCount.fill(0);
  }

  /** Count one committed record. */
  observe(record: OutputRecord): void {
    if (record.type === 'error') {
      this.#countError(record.code, 1);
      return;
    }
    this.#pages++;
    if (record.relevant) this.#relevant++;
    if (isCount(record.bytes)) this.#bytes += record.bytes;
    if (Number.isFinite(record.ms) && record.ms >= 0) this.#digest.push(record.ms);
    if (this.#runStart === null) return;
    this.#runPages++;
    const sec = Math.floor(this.#now() / 1000);
    const slot = sec % RECENT_WINDOW_S;
    if (this.#bucketSec[slot] !== sec) {
      this.#bucketSec[slot] = sec;
      this.#bucketCount[slot] = 0;
    }
    this.#bucketCount[slot]++;
  }

  #countError(code: string, n: number): void {
    const key = this.#errors.has(code) || this.#errors.size < MAX_ERROR_CODES ? code : OTHER_ERRORS;
    this.#errors.set(key, (this.#errors.get(key) ?? 0) + n);
  }

  /** Pages per second over the last RECENT_WINDOW_S seconds of the run (fewer at its start). */
  #recentRate(now: number): number {
    if (this.#runStart === null) return 0;
    const firstSec = Math.floor(now / 1000) - RECENT_WINDOW_S + 1;
    let n = 0;
    for (let i = 0; i < RECENT_WINDOW_S; i++) if (this.#bucketSec[i] >= firstSec) n += this.#bucketCount[i];
    const spanMs = now - Math.max(firstSec * 1000, this.#runStart);
    return spanMs > 0 ? n / (spanMs / 1000) : 0;
  }

  /** The current numbers as a plain JSON object. */
  snapshot(sample: StatsSample): StatsSnapshot {
    const now = this.#now();
    const elapsedMs = this.#runStart === null ? 0 : now - this.#runStart;
    const [p50, p95, p99] = this.#digest.size() === 0 ? [null, null, null] : this.#digest.percentile([0.5, 0.95, 0.99]).map((x) => round(x, 1));
    const maxPages = sample.maxPages ?? Infinity;
    return {
      type: 'stats',
      at: new Date(now).toISOString(),
      final: sample.final ?? false,
      elapsed: round(elapsedMs / 1000, 1),
      pages: this.#pages,
      relevant: this.#relevant,
      harvest: this.#pages === 0 ? 0 : round(this.#relevant / this.#pages, 4),
      runPages: this.#runPages,
      pagesPerSec: {
        recent: round(this.#recentRate(now), 2),
        overall: elapsedMs > 0 ? round(this.#runPages / (elapsedMs / 1000), 2) : 0,
      },
      maxPages: Number.isFinite(maxPages) ? maxPages : null,
      frontier: sample.frontier,
      hostsActive: sample.activeHosts,
      errors: Object.fromEntries([...this.#errors].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      latencyMs: { p50, p95, p99 },
      bytes: this.#bytes,
    };
  }

  /** A snapshot plus the latency digest, for the store's meta; a later run resumes from it. */
  toSaved(sample: StatsSample): SavedStats {
    this.#digest.compress();
    return { ...this.snapshot(sample), digest: this.#digest.toArray() };
  }
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** One readable line for a stats record (text logs and `focuscrawl stats`); `label` defaults to "stats" or "final stats". */
export function formatStatsLine(s: StatsSnapshot, label = s.final ? 'final stats' : 'stats'): string {
  const errorCodes = Object.entries(s.errors);
  const errorTotal = errorCodes.reduce((n, [, c]) => n + c, 0);
  const errors =
    errorTotal === 0 ? 'errors 0' : `errors ${errorTotal} (${errorCodes.map(([code, n]) => `${sanitizeForTerminal(code, 64)} ${n}`).join(', ')})`;
  const { p50, p95, p99 } = s.latencyMs;
  const latency = p50 === null ? 'latency -' : `latency p50 ${Math.round(p50)} ms, p95 ${Math.round(p95!)} ms, p99 ${Math.round(p99!)} ms`;
  const pages = s.maxPages === null ? `${s.pages} pages` : `${s.pages}/${s.maxPages} pages`;
  return (
    `focuscrawl: ${label}: ${pages}, ` +
    `${s.pagesPerSec.recent.toFixed(1)} pages/s (run ${s.pagesPerSec.overall.toFixed(1)}), ` +
    `harvest ${percent(s.harvest)} (${s.relevant} relevant), frontier ${s.frontier}, hosts active ${s.hostsActive}, ` +
    `${errors}, ${latency}, ${formatBytes(s.bytes)}, ${s.elapsed.toFixed(1)} s`
  );
}

/** The TTY progress line: numbers only (pages / max-pages, rate, harvest, frontier). */
export function formatProgress(s: StatsSnapshot): string {
  const pages = s.maxPages === null ? `${s.pages} pages` : `${s.pages}/${s.maxPages} pages`;
  return `${pages}  ${s.pagesPerSec.recent.toFixed(1)} pages/s  harvest ${percent(s.harvest)}  frontier ${s.frontier}`;
}
