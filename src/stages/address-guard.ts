/**
 * Address-guard stage: refuses URLs whose host is, or resolves to, a
 * loopback, private, link-local or metadata address (FC_PRIVATE_ADDRESS)
 * before the robots stage would fetch that host's robots.txt. Items are
 * checked one at a time, in order; the check caches per host (see
 * HttpClient.checkAddress), so only the first URL of a host waits for DNS.
 * The HTTP client checks again at connect time, for every request.
 */
import { toItemError } from '../errors.ts';
import type { CrawlItem } from '../types.ts';

/**
 * Sets `item.error` on every item whose `entry.url` `check` refuses and
 * yields all items in their input order. Items already carrying an error
 * pass through untouched.
 */
export async function* addressGuardStage(
  source: AsyncIterable<CrawlItem>,
  opts: { check: (url: string) => Promise<Error | null> },
): AsyncGenerator<CrawlItem> {
  for await (const item of source) {
    if (item.error === undefined) {
      const refused = await opts.check(item.entry.url);
      if (refused !== null) item.error = toItemError(refused);
    }
    yield item;
  }
}
