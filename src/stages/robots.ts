/**
 * Robots stage: refuses URLs that robots.txt forbids before they reach the
 * fetch stage. robots.txt is cached per origin, so only the first URL of an
 * origin waits for a fetch; the others pass at once.
 */
import { mapConcurrent } from '../util/iter.ts';
import { robotsAllowsNow, type RobotsCache } from '../fetch/robots.ts';
import type { CrawlItem } from '../types.ts';

/**
 * Sets `item.error` on every item whose `entry.url` robots.txt refuses.
 * Items already carrying an error pass through untouched. Up to
 * `concurrency` items (default 1: one at a time, input order kept) are
 * checked at once and yielded as their checks end, so a URL of a host whose
 * robots.txt is cached does not wait behind another host's robots.txt fetch
 * (with many hosts, one at a time would serialise the crawl). A URL whose
 * origin's robots.txt is cached passes at once (no promise: it is not taken
 * ahead of need); one that waits for a fetch lets the next URL in at once.
 */
export function robotsStage(
  source: AsyncIterable<CrawlItem>,
  opts: { robots: RobotsCache; concurrency?: number },
): AsyncGenerator<CrawlItem> {
  return mapConcurrent(source, opts.concurrency ?? 1, (item) => {
    if (item.error !== undefined) return item;
    const error = robotsAllowsNow(opts.robots, item.entry.url);
    if (!(error instanceof Promise)) {
      if (error !== null) item.error = error;
      return item;
    }
    return error.then((e) => {
      if (e !== null) item.error = e;
      return item;
    });
  });
}
