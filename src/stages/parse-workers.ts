/**
 * Parse stage on worker threads (--workers N, N >= 1): what src/stages/parse.ts
 * does, with parseBody run in a ParsePool (src/parse/pool.ts). Up to
 * `window` items are held at once (mapOrdered, src/util/iter.ts: taken only
 * while the next stage waits), so several pages parse in parallel while the
 * main thread classifies and commits, and items leave in the order they
 * came: records, commits and the frontier's choices are those of the
 * in-thread stage. The pipeline keeps `window` at most --concurrency, so at
 * --concurrency 1 no page is taken before the one ahead of it is committed,
 * exactly as in-thread.
 *
 * Per item as in parseStage: an item with an error, without a fetch or with
 * a null body passes through untouched (and in order); otherwise `item.page`
 * or `item.error` (the parser's coded error, FC_INTERNAL, or
 * FC_WORKER_CRASH) is set and `fetch.body` dropped unless `keepBody`. With
 * `fingerprint`, a 2xx page also gets `item.fingerprint`, its near-duplicate
 * SimHash, computed in the worker (the dedup stage then only looks it up).
 * When the pool counts the judge's terms, they ride on the page
 * (PAGE_TERM_FREQ, src/relevance/topic.ts) to the classify stage.
 * Whenever the next stage would wait for a page still queued in the pool
 * (gathered into a batch, src/parse/pool.ts), the pool sends it at once.
 */
import type { ParsePool } from '../parse/pool.ts';
import { PAGE_TERM_FREQ, type PageTermCounts } from '../relevance/topic.ts';
import type { CrawlItem } from '../types.ts';
import { mapOrdered } from '../util/iter.ts';

export interface ParseWorkersStageOptions {
  pool: ParsePool;
  /** items held at once (parsing or parsed and waiting for the ones ahead) */
  window: number;
  /** leave `fetch.body` set, for --warc-out / --pages-out */
  keepBody?: boolean;
  /** near-duplicate detection is on: the workers also fingerprint 2xx pages (`item.fingerprint`, which the dedup stage takes) */
  fingerprint?: boolean;
}

export function parseWorkersStage(source: AsyncIterable<CrawlItem>, opts: ParseWorkersStageOptions): AsyncGenerator<CrawlItem> {
  return mapOrdered(source, opts.window, (item) => {
    const f = item.fetch;
    if (item.error !== undefined || f === undefined || f.body === null) return item;
    const fingerprint = opts.fingerprint === true && f.status >= 200 && f.status < 300;
    return opts.pool.parse(f.body, f.finalUrl, f.headerCharset, fingerprint).then((outcome) => {
      if ('page' in outcome) {
        item.page = outcome.page;
        if (outcome.simhash !== undefined) item.fingerprint = outcome.simhash;
        // the judge takes them (TopicModel.pageTermFreq) instead of splitting the page again
        if (outcome.terms !== undefined) (outcome.page as { [PAGE_TERM_FREQ]?: PageTermCounts })[PAGE_TERM_FREQ] = outcome.terms;
      } else item.error = outcome.error;
      if (opts.keepBody !== true) f.body = null;
      return item;
    });
  }, () => opts.pool.starved());
}
