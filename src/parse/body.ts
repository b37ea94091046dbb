/**
 * One fetched HTML body to a ParsedPage: charset sniffing, chunked decoding
 * and the page parser (the parse stage, src/stages/parse.ts, runs it on every
 * fetched page; the training, eval and ETFL readers on archived ones).
 */
import { createDecoder, sniffCharset } from './charset.ts';
import { PageParser } from './page-parser.ts';
import type { ParsedPage } from '../types.ts';

/** Options of parseBody; all optional. */
export interface ParseOptions {
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
}

/** Default bytes per decode/parse step. */
export const DEFAULT_CHUNK_SIZE = 64 * 1024;

/**
 * UTF-8 in one call, for a body that fits in one step. Node 20's TextDecoder
 * takes its UTF-8 fast path only without `{stream: true}` (a streaming one
 * opens an ICU converter per page); it keeps no state between such calls,
 * so one serves every page. Same text as the streaming decoder, malformed
 * bytes and BOM included (test/parse-golden.test.ts).
 */
const UTF8 = new TextDecoder('utf-8', { fatal: false });

/**
 * Parse one HTML body fetched from `url`, with `headerCharset` the
 * Content-Type charset (or null). The body is sniffed (BOM, header, <meta>,
 * fallback), decoded in `chunkSize` byte steps with a streaming non-fatal
 * TextDecoder and fed to a PageParser; `page.charset` is the charset used.
 */
export function parseBody(body: Buffer, url: string, headerCharset: string | null, opts: ParseOptions = {}): ParsedPage {
  const charset = sniffCharset(body, headerCharset);
  const parser = new PageParser(url, {
    contextChars: opts.contextChars,
    maxLinks: opts.maxLinks,
    maxTextChars: opts.maxTextChars,
    maxAnchorChars: opts.maxAnchorChars,
    mainTextChars: opts.mainTextChars,
    charset,
  });
  const step = Math.max(1, Math.floor(opts.chunkSize ?? DEFAULT_CHUNK_SIZE));
  if (charset === 'utf-8' && body.length <= step) {
    parser.write(UTF8.decode(body));
    return parser.end();
  }
  const decoder = createDecoder(charset);
  for (let i = 0; i < body.length; i += step) {
    parser.write(decoder.decode(body.subarray(i, i + step), { stream: true }));
  }
  parser.write(decoder.decode());
  return parser.end();
}
