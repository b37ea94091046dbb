/**
 * What runCrawl (src/pipeline.ts) returns and says when it ends: the
 * summary, its dropped-links line, and the error of a run in which no
 * request got an answer.
 */
import { NetworkError, type FocuscrawlError } from '../errors.ts';
import type { HttpClient } from '../fetch/http.ts';
import type { LinkDropReason } from '../stages/sink.ts';

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

/** `; links dropped: path-repetition 3, host-budget 12`, or '' when none was. */
export function dropLine(dropped: CrawlSummary['dropped']): string {
  const parts = Object.entries(dropped).map(([reason, n]) => `${reason} ${n}`);
  return parts.length === 0 ? '' : `; links dropped: ${parts.join(', ')}`;
}

/**
 * The NetworkError (FC_NETWORK) of a run in which requests were made and
 * not one got an answer (every one failed with FC_NETWORK or FC_TIMEOUT: no
 * network, the proxy down, no DNS), or null. Its URLs are parked, so a
 * rerun tries them again; the error makes that run exit non-zero rather
 * than look like an empty success.
 */
export function noAnswerError(client: HttpClient, proxy: string | undefined, fromSeeds: boolean): NetworkError | null {
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
