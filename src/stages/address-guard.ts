/**
 * Address-guard stage: refuses URLs whose host is, or resolves to, a
 * loopback, private, link-local or metadata address (FC_PRIVATE_ADDRESS)
 * before the robots stage would fetch that host's robots.txt. The check
 * caches per host (see HttpClient.checkAddress), so only the first URL of a
 * host waits for DNS.
 * The HTTP client checks again at connect time, for every request.
 */
import { toItemError } from '../errors.ts';
import { mapConcurrent } from '../util/iter.ts';
import type { CrawlItem } from '../types.ts';

/**
 * Sets `item.error` on every item whose `entry.url` `check` refuses. Items
 * already carrying an error pass through untouched. Up to `concurrency`
 * items (default 1: one at a time, input order kept) are checked at once and
 * yielded as their checks end, so one host's DNS lookup does not hold up
 * URLs of hosts already checked. `check` answers at once (not a promise)
 * when it can (HttpClient.checkAddressNow): such items are not taken from
 * the source ahead of need.
 */
export function addressGuardStage(
  source: AsyncIterable<CrawlItem>,
  opts: { check: (url: string) => Error | null | Promise<Error | null>; concurrency?: number },
): AsyncGenerator<CrawlItem> {
  return mapConcurrent(source, opts.concurrency ?? 1, (item) => {
    if (item.error !== undefined) return item;
    const refused = opts.check(item.entry.url);
    if (!(refused instanceof Promise)) {
      if (refused !== null) item.error = toItemError(refused);
      return item;
    }
    return refused.then((r) => {
      if (r !== null) item.error = toItemError(r);
      return item;
    });
  });
}
