/**
 * Parse stage: turns the body of every fetched HTML page into `item.page`
 * (title, text blocks, links with context windows) and then drops the body
 * bytes so they can be collected while the item travels on.
 */
import { parseBody, type ParseOptions } from '../parse/body.ts';
import { toItemError } from '../errors.ts';
import type { CrawlItem } from '../types.ts';

/** Options of parseStage; all optional. */
export interface ParseStageOptions extends ParseOptions {
  /** leave `fetch.body` set after parsing, for a later stage that writes it (--warc-out, --pages-out) */
  keepBody?: boolean;
}

/**
 * For every item without error whose `fetch.body` is non-null: sets
 * `item.page` (parsed against `fetch.finalUrl`) and then `fetch.body = null`
 * (unless `keepBody`).
 * Items with an error, without a fetch or with a null body pass through
 * unchanged. An unexpected parser failure becomes `item.error` (FC_INTERNAL)
 * instead of a throw. Order is kept.
 */
export async function* parseStage(source: AsyncIterable<CrawlItem>, opts: ParseStageOptions = {}): AsyncGenerator<CrawlItem> {
  for await (const item of source) {
    const f = item.fetch;
    if (item.error === undefined && f !== undefined && f.body !== null) {
      try {
        item.page = parseBody(f.body, f.finalUrl, f.headerCharset, opts);
      } catch (err) {
        item.error = toItemError(err);
      }
      if (opts.keepBody !== true) f.body = null;
    }
    yield item;
  }
}
