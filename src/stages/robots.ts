/**
 * Robots stage: refuses URLs that robots.txt forbids before they reach the
 * fetch stage. Items are checked one at a time, in order (robots.txt is
 * cached per origin, so only the first URL of an origin waits for a fetch).
 */
import { toItemError } from '../errors.ts';
import type { RobotsCache } from '../robots.ts';
import type { CrawlItem, ItemError } from '../types.ts';

/**
 * The error for `url` when robots.txt forbids it (FC_ROBOTS_DISALLOWED) or
 * its origin is off limits (FC_ROBOTS_UNAVAILABLE); null when it may be
 * fetched. Never rejects: a malformed URL becomes an FC_INTERNAL error.
 * The fetch stage uses it for every redirect hop.
 */
export async function robotsAllows(robots: RobotsCache, url: string): Promise<ItemError | null> {
  try {
    const verdict = await robots.check(url);
    if (verdict.allowed) return null;
    return { code: verdict.code ?? 'FC_ROBOTS_DISALLOWED', message: verdict.message ?? `robots.txt forbids ${url}` };
  } catch (err) {
    return toItemError(err);
  }
}

/**
 * Sets `item.error` on every item whose `entry.url` robots.txt refuses and
 * yields all items in their input order. Items already carrying an error
 * pass through untouched.
 */
export async function* robotsStage(
  source: AsyncIterable<CrawlItem>,
  opts: { robots: RobotsCache },
): AsyncGenerator<CrawlItem> {
  for await (const item of source) {
    if (item.error === undefined) {
      const error = await robotsAllows(opts.robots, item.entry.url);
      if (error !== null) item.error = error;
    }
    yield item;
  }
}
