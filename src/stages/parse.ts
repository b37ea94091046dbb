/**
 * Parse stage: turns the body of every fetched HTML page into `item.page`
 * (title, text blocks, links with context windows) and then drops the body
 * bytes so they can be collected while the item travels on.
 */
import { createDecoder, sniffCharset } from '../parse/charset.ts';
import { PageParser } from '../parse/page-parser.ts';
import { toItemError } from '../errors.ts';
import type { CrawlItem, ParsedPage } from '../types.ts';

/** Options of parseStage; all optional. */
export interface ParseStageOptions {
  /** link-context window N, characters each side (default 100) */
  contextChars?: number;
  /** links kept per page (default DEFAULT_MAX_LINKS, --max-links-per-page); more are counted in `page.linksDropped` */
  maxLinks?: number;
  /** cap of each text block, characters (default 200,000) */
  maxTextChars?: number;
  /** cap of one anchor text, characters (default 500) */
  maxAnchorChars?: number;
  /** keep each page's main text, at most this many characters, as `page.text` (default 0: not kept) */
  mainTextChars?: number;
  /** bytes decoded and parsed per step (default 64 KiB) */
  chunkSize?: number;
  /** leave `fetch.body` set after parsing, for a later stage that writes it (--warc-out, --pages-out) */
  keepBody?: boolean;
}

/** Default bytes per decode/parse step. */
export const DEFAULT_CHUNK_SIZE = 64 * 1024;

/**
 * Parse one HTML body fetched from `url`, with `headerCharset` the
 * Content-Type charset (or null). The body is sniffed (BOM, header, <meta>,
 * fallback), decoded in `chunkSize` byte steps with a streaming non-fatal
 * TextDecoder and fed to a PageParser; `page.charset` is the charset used.
 */
export function parseBody(body: Buffer, url: string, headerCharset: string | null, opts: ParseStageOptions = {}): ParsedPage {
  const charset = sniffCharset(body, headerCharset);
  const decoder = createDecoder(charset);
  const parser = new PageParser(url, {
    contextChars: opts.contextChars,
    maxLinks: opts.maxLinks,
    maxTextChars: opts.maxTextChars,
    maxAnchorChars: opts.maxAnchorChars,
    mainTextChars: opts.mainTextChars,
    charset,
  });
  const step = Math.max(1, Math.floor(opts.chunkSize ?? DEFAULT_CHUNK_SIZE));
  for (let i = 0; i < body.length; i += step) {
    parser.write(decoder.decode(body.subarray(i, i + step), { stream: true }));
  }
  parser.write(decoder.decode());
  return parser.end();
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
