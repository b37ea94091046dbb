/**
 * Focus metrics of one crawl against ground-truth labels (pure, no I/O).
 *
 * What counts as a fetched page:
 * - every `{"type":"page"}` record, whatever its HTTP status (a 404 cost a
 *   request too); `{"type":"error"}` records and any other line are not pages;
 * - with `status` set, only page records with exactly that HTTP status count
 *   (the others are tallied as `skippedStatus`);
 * - a URL counts once: a page record whose `url` or `finalUrl` (canonicalised)
 *   was already the `url` or `finalUrl` of a counted page is a duplicate.
 *
 * A page's label is the label of its `finalUrl`, else of its `url`. It is
 * relevant when that label is the target. For N = 1..pages:
 * - harvest(N) = relevant pages among the first N / N (the papers' harvest rate, docs/algorithms.md#measures);
 * - recall(N) = distinct target URLs found in the first N / all target URLs
 *   in the labels (or only those in `reachable`, when given).
 */
import { rowMatches, whereColumns, type WhereFilter } from '../../relevance/train/where.ts';
import { canonicalize } from '../../urls/canonical.ts';

/** Canonical URL -> label. */
export type Labels = Map<string, string>;

/** What parseLabels() read, and what it skipped. */
export interface ParsedLabels {
  labels: Labels;
  /** data rows without a URL or label, or whose URL is not http(s) */
  badRows: number;
  /** rows repeating a URL already labelled (the first label wins) */
  duplicates: number;
  /** rows left out by `where` (their URLs count as unlabelled) */
  filteredOut: number;
}

/**
 * Parse a labels TSV: a header row naming at least the columns `url` and
 * `label` (any order, case-insensitive; more columns are ignored), then one
 * row per URL. URLs are canonicalised with canonicalize(). With `where`
 * (`--where COL=VAL`, `COL!=VAL`; column names as written in the header),
 * only the rows that pass every filter are read: the others' URLs count as
 * unlabelled, so recall is over the kept targets only. Throws a TypeError
 * when the header lacks `url` or `label`, UsageError for a `where` column
 * the header lacks.
 */
export function parseLabels(tsv: string, where: readonly WhereFilter[] = [], file = 'labels'): ParsedLabels {
  const lines = tsv.split(/\r?\n/);
  const rawHeader = (lines[0] ?? '').replace(/^\uFEFF/, '').split('\t').map((h) => h.trim());
  const header = rawHeader.map((h) => h.toLowerCase());
  const filters = whereColumns(where, rawHeader, file);
  const ui = header.indexOf('url');
  const li = header.indexOf('label');
  if (ui < 0 || li < 0) throw new TypeError(`labels header must name the columns url and label, got ${JSON.stringify(lines[0]?.slice(0, 200) ?? '')}`);
  const labels: Labels = new Map();
  let badRows = 0;
  let duplicates = 0;
  let filteredOut = 0;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const cols = lines[i].split('\t');
    if (!rowMatches(cols, filters)) {
      filteredOut++;
      continue;
    }
    const url = canonicalize((cols[ui] ?? '').trim());
    const label = (cols[li] ?? '').trim();
    if (url === null || label === '') {
      badRows++;
    } else if (labels.has(url)) {
      duplicates++;
    } else {
      labels.set(url, label);
    }
  }
  return { labels, badRows, duplicates, filteredOut };
}

/** Options of an evaluation. */
export interface EvalOptions {
  /** the label of on-topic pages */
  target: string;
  /** count only page records with this HTTP status (default: any status) */
  status?: number | null;
  /** restrict recall's denominator to these URLs (canonicalised here) */
  reachable?: Iterable<string> | null;
  /** K values of harvest@K (default DEFAULT_AT) */
  at?: number[];
}

/** Default K values of harvest@K. */
export const DEFAULT_AT = [100, 200, 500, 1000, 2000];

/** The curves at N pages. */
export interface CurvePoint {
  /** pages counted so far */
  n: number;
  /** relevant pages among them */
  relevant: number;
  /** target URLs found among them (the recall numerator) */
  found: number;
  harvest: number;
  recall: number;
}

/** The summary of one evaluation. */
export interface EvalSummary {
  target: string;
  /** the status filter, or null when every status counts */
  status: number | null;
  /** pages counted */
  pages: number;
  relevant: number;
  found: number;
  /** the recall denominator: target URLs in the labels (∩ reachable) */
  targets: number;
  /** final harvest rate (P) */
  harvest: number;
  /** final target recall (R) */
  recall: number;
  /** 2PR / (P + R), 0 when both are 0 */
  f1: number;
  /** pages needed to reach 50/80/90 % of the targets; null when never reached */
  pagesTo50: number | null;
  pagesTo80: number | null;
  pagesTo90: number | null;
  /** harvest@K for each K; null when the crawl has fewer than K pages */
  harvestAt: Record<string, number | null>;
  /** error records seen (not pages) */
  errors: number;
  /** page records not counted for their URL repeating an earlier page */
  duplicates: number;
  /** page records not counted for their status (status filter) */
  skippedStatus: number;
  /** counted pages whose URLs have no label */
  unlabelled: number;
}

const RECALL_LEVELS = [50, 80, 90] as const;

/** A record as read from NDJSON: only these fields matter here. */
interface RecordLike {
  type?: unknown;
  url?: unknown;
  finalUrl?: unknown;
  status?: unknown;
}

function canon(v: unknown): string | null {
  return typeof v === 'string' ? canonicalize(v) : null;
}

/**
 * Streaming evaluator: feed records in crawl order with add(); each record
 * that counts as a page returns the curve point at its N. Memory: the set of
 * counted URLs and the target set, nothing per page.
 */
export class Evaluator {
  readonly #labels: Labels;
  readonly #target: string;
  readonly #status: number | null;
  readonly #targets: Set<string>;
  readonly #at: number[];
  readonly #seen = new Set<string>();
  readonly #found = new Set<string>();
  readonly #pagesTo = new Map<number, number>();
  readonly #harvestAt = new Map<number, number>();
  #pages = 0;
  #relevant = 0;
  #errors = 0;
  #duplicates = 0;
  #skippedStatus = 0;
  #unlabelled = 0;

  constructor(labels: Labels, opts: EvalOptions) {
    this.#labels = labels;
    this.#target = opts.target;
    this.#status = opts.status ?? null;
    this.#at = [...(opts.at ?? DEFAULT_AT)].sort((a, b) => a - b);
    let reach: Set<string> | null = null;
    if (opts.reachable) {
      reach = new Set();
      for (const u of opts.reachable) {
        const c = canonicalize(u);
        if (c !== null) reach.add(c);
      }
    }
    this.#targets = new Set();
    for (const [url, label] of labels) if (label === opts.target && (reach === null || reach.has(url))) this.#targets.add(url);
  }

  /** The recall denominator. */
  get targets(): number {
    return this.#targets.size;
  }

  /** Account for one record; returns the curve point when it counted as a page. */
  add(record: unknown): CurvePoint | null {
    if (record === null || typeof record !== 'object') return null;
    const r = record as RecordLike;
    if (r.type === 'error') {
      this.#errors++;
      return null;
    }
    if (r.type !== 'page') return null;
    const url = canon(r.url);
    const finalUrl = canon(r.finalUrl) ?? url;
    if (finalUrl === null) return null;
    if (this.#status !== null && r.status !== this.#status) {
      this.#skippedStatus++;
      return null;
    }
    if (this.#seen.has(finalUrl) || (url !== null && this.#seen.has(url))) {
      this.#duplicates++;
      return null;
    }
    this.#seen.add(finalUrl);
    if (url !== null) this.#seen.add(url);
    this.#pages++;
    const labelled = this.#labels.has(finalUrl) ? finalUrl : url !== null && this.#labels.has(url) ? url : null;
    if (labelled === null) {
      this.#unlabelled++;
    } else if (this.#labels.get(labelled) === this.#target) {
      this.#relevant++;
      if (this.#targets.has(labelled)) this.#found.add(labelled);
    }
    const point = this.point();
    for (const level of RECALL_LEVELS) {
      if (!this.#pagesTo.has(level) && this.#targets.size > 0 && point.found * 100 >= level * this.#targets.size) this.#pagesTo.set(level, point.n);
    }
    if (this.#at.includes(point.n)) this.#harvestAt.set(point.n, point.harvest);
    return point;
  }

  /** The curve point at the current N (N = 0 gives harvest 0). */
  point(): CurvePoint {
    const n = this.#pages;
    const found = this.#found.size;
    return {
      n,
      relevant: this.#relevant,
      found,
      harvest: n === 0 ? 0 : this.#relevant / n,
      recall: this.#targets.size === 0 ? 0 : found / this.#targets.size,
    };
  }

  /** The summary so far. */
  summary(): EvalSummary {
    const p = this.point();
    const harvestAt: Record<string, number | null> = {};
    for (const k of this.#at) harvestAt[String(k)] = this.#harvestAt.get(k) ?? null;
    return {
      target: this.#target,
      status: this.#status,
      pages: p.n,
      relevant: p.relevant,
      found: p.found,
      targets: this.#targets.size,
      harvest: p.harvest,
      recall: p.recall,
      f1: p.harvest + p.recall === 0 ? 0 : (2 * p.harvest * p.recall) / (p.harvest + p.recall),
      pagesTo50: this.#pagesTo.get(50) ?? null,
      pagesTo80: this.#pagesTo.get(80) ?? null,
      pagesTo90: this.#pagesTo.get(90) ?? null,
      harvestAt,
      errors: this.#errors,
      duplicates: this.#duplicates,
      skippedStatus: this.#skippedStatus,
      unlabelled: this.#unlabelled,
    };
  }
}

/** Evaluate a whole record sequence: the curve at every N = 1..pages, and the summary. */
export function evaluate(records: Iterable<unknown>, labels: Labels, opts: EvalOptions): { curve: CurvePoint[]; summary: EvalSummary } {
  const ev = new Evaluator(labels, opts);
  const curve: CurvePoint[] = [];
  for (const r of records) {
    const p = ev.add(r);
    if (p !== null) curve.push(p);
  }
  return { curve, summary: ev.summary() };
}

/**
 * Keeps an evenly spaced subset of a growing curve in bounded memory: the
 * points whose N is a multiple of a stride that doubles whenever more than
 * `max` points are kept (so between max/2 and max remain), plus the latest
 * point, so the final N is always there.
 */
export class CurveSampler {
  readonly #max: number;
  #stride = 1;
  #kept: CurvePoint[] = [];
  #last: CurvePoint | null = null;

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 2) throw new TypeError(`CurveSampler max must be an integer >= 2, got ${max}`);
    this.#max = max;
  }

  /** Offer the next point (points arrive with increasing n). */
  add(p: CurvePoint): void {
    this.#last = p;
    if (p.n % this.#stride !== 0) return;
    this.#kept.push(p);
    if (this.#kept.length > this.#max) {
      this.#stride *= 2;
      this.#kept = this.#kept.filter((q) => q.n % this.#stride === 0);
    }
  }

  /** The kept points in order, ending with the latest one. */
  points(): CurvePoint[] {
    const out = [...this.#kept];
    if (this.#last !== null && out[out.length - 1] !== this.#last) out.push(this.#last);
    return out;
  }
}
