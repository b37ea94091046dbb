/**
 * Robots stage: refuses URLs that robots.txt forbids before they reach the
 * fetch stage. robots.txt is cached per origin, so only the first URL of an
 * origin waits for a fetch; the others pass at once.
 */
import { mapConcurrent } from '../util/iter.ts';
import { robotsAllows, type RobotsCache } from '../fetch/robots.ts';
import type { CrawlItem } from '../types.ts';

/**
 * Sets `item.error` on every item whose `entry.url` robots.txt refuses.
 * Items already carrying an error pass through untouched. Up to
 * `concurrency` items (default 1: one at a time, input order kept) are
 * checked at once and yielded as their checks end, so a URL of a host whose
 * robots.txt is cached does not wait behind another host's robots.txt fetch
 * (with many hosts, one at a time would serialise the crawl).
 */
export function robotsStage(
  source: AsyncIterable<CrawlItem>,
  opts: { robots: RobotsCache; concurrency?: number },
): AsyncGenerator<CrawlItem> {
  return mapConcurrent(source, opts.concurrency ?? 1, async (item) => {
    if (item.error === undefined) {
      const error = await robotsAllows(opts.robots, item.entry.url);
      if (error !== null) item.error = error;
    }
    return item;
  });
}
