/**
 * Bounded retries of transient failures, with host backoff.
 *
 * A fetch outcome is retryable when it is FC_NETWORK, FC_TIMEOUT, or an HTTP
 * answer 429, 500, 502, 503 or 504. The frontier sink decides retry-or-final
 * ({@link shouldRetry}): with attempts left, the URL goes back to the
 * frontier (store.retry) instead of becoming a record. Independently, the
 * pipeline makes the URL's host wait when a retryable fetch settles
 * ({@link hostBackoffMs}): the server's `Retry-After` when given, else
 * `baseMs * 2^(attempt-1)` with ±25% jitter, never more than
 * `maxRetryAfterMs`. A `Retry-After` beyond `maxRetryAfterMs` means no retry
 * (the record is final) but the host still waits `maxRetryAfterMs`.
 *
 * Pure functions: time and randomness come from the policy.
 */
import type { CrawlItem } from './types.ts';

/** HTTP statuses worth another attempt. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
/** Error codes worth another attempt. */
export const RETRY_CODES: ReadonlySet<string> = new Set(['FC_NETWORK', 'FC_TIMEOUT']);

export interface RetryPolicy {
  /** attempts after the first one (0: never retry) */
  retries: number;
  /** backoff after the n-th failed attempt: baseMs * 2^(n-1), ±25% */
  baseMs: number;
  /** cap on any host wait; a Retry-After beyond it is not retried */
  maxRetryAfterMs: number;
  /** jitter source in [0, 1), default Math.random (inject a seeded one in tests) */
  random?: () => number;
  /** clock, default Date.now (HTTP-date Retry-After values) */
  now?: () => number;
}

/** Defaults of the CLI: 2 retries, 1 s base, Retry-After honoured up to 120 s. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = { retries: 2, baseMs: 1000, maxRetryAfterMs: 120_000 };

const HTTP_DATE = /^[A-Za-z]{3,9}, ?\d|^[A-Za-z]{3} [A-Za-z]{3} /;

/**
 * A Retry-After value (RFC 9110 §10.2.3) as milliseconds from `now`:
 * delta-seconds, or an HTTP-date (IMF-fixdate, RFC 850 or asctime; a past
 * date is 0). null when absent or malformed.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!HTTP_DATE.test(v)) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}

/** The 1-based number of the attempt whose outcome `item` carries. */
export function attemptOf(item: CrawlItem): number {
  return (item.entry.attempts ?? 0) + 1;
}

/**
 * Whether the outcome is a transient failure (see {@link RETRY_STATUSES},
 * {@link RETRY_CODES}). A status served by a replay proxy is not: an archive
 * answers the same every time, so asking again only wastes time.
 */
export function isRetryable(item: CrawlItem): boolean {
  if (item.error !== undefined) return RETRY_CODES.has(item.error.code);
  return item.fetch !== undefined && !item.fetch.replay && RETRY_STATUSES.has(item.fetch.status);
}

/**
 * Whether the outcome is a failure without any answer (FC_NETWORK,
 * FC_TIMEOUT: connection refused or reset, DNS failure, timeout, for the
 * page or its robots.txt). Once its retries are used up such a URL is
 * recorded but stays re-tryable on the next run (Commit.retryLater); any
 * HTTP answer, even a 503, is final.
 */
export function gotNoAnswer(item: CrawlItem): boolean {
  return item.error !== undefined && RETRY_CODES.has(item.error.code);
}

/** Retry-After of a retryable HTTP answer in ms, null when none (or not parseable). */
function retryAfterMs(item: CrawlItem, policy: RetryPolicy): number | null {
  if (item.error !== undefined || item.fetch === undefined) return null;
  return parseRetryAfter(item.fetch.headers['retry-after'], (policy.now ?? Date.now)());
}

/**
 * Should the URL be fetched again rather than recorded? Yes for a
 * retryable outcome with attempts left whose Retry-After (if any) is within
 * `maxRetryAfterMs`.
 */
export function shouldRetry(item: CrawlItem, policy: RetryPolicy): boolean {
  if (!isRetryable(item) || attemptOf(item) > policy.retries) return false;
  const after = retryAfterMs(item, policy);
  return after === null || after <= policy.maxRetryAfterMs;
}

/**
 * How long the URL's host should wait before its next request after this
 * outcome, in ms: 0 for a non-retryable outcome; else Retry-After when given
 * or exponential backoff with ±25% jitter; at most `maxRetryAfterMs`.
 * Applies whether or not the URL itself is retried.
 */
export function hostBackoffMs(item: CrawlItem, policy: RetryPolicy): number {
  if (!isRetryable(item)) return 0;
  const after = retryAfterMs(item, policy);
  if (after !== null) return Math.min(after, policy.maxRetryAfterMs);
  const jitter = 0.75 + 0.5 * (policy.random ?? Math.random)();
  return Math.min(Math.round(policy.baseMs * 2 ** (attemptOf(item) - 1) * jitter), policy.maxRetryAfterMs);
}
