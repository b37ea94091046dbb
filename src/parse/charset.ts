/**
 * Charset detection and decoding for HTML bodies (pure functions, no I/O).
 *
 * Order of sources (a simplified WHATWG "encoding sniffing algorithm"):
 *   1. a byte-order mark (UTF-8, UTF-16LE, UTF-16BE);
 *   2. the `charset` parameter of the Content-Type header;
 *   3. a prescan of the first 4096 bytes for `<meta charset=...>` or
 *      `<meta http-equiv="Content-Type" content="...; charset=...">`;
 *   4. fallback: `utf-8` when the body is valid UTF-8 and not pure ASCII,
 *      else `windows-1252` (WHATWG's default for unlabelled HTML; it is a
 *      superset of ISO-8859-1, which 1990s pages mostly are).
 * Labels are normalised through `TextDecoder` (`gb2312` → `gbk`, `latin1` →
 * `windows-1252`, `x-sjis` → `shift_jis`, ...); a label TextDecoder does not
 * know falls through to the next source.
 */

/** Bytes of the body the `<meta>` prescan looks at. */
export const PRESCAN_BYTES = 4096;

/** Encoding used when nothing else says otherwise. */
export const FALLBACK_CHARSET = 'windows-1252';

/**
 * Canonical WHATWG encoding name for `label`, or null when the label is
 * empty or unknown to this Node's TextDecoder. Surrounding quotes and
 * whitespace are ignored.
 */
export function normaliseCharset(label: string | null | undefined): string | null {
  if (label == null) return null;
  const l = label.trim().replace(/^["']+|["']+$/g, '').trim();
  if (l === '') return null;
  try {
    return new TextDecoder(l).encoding;
  } catch {
    return null;
  }
}

function bomCharset(body: Buffer): string | null {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return null;
}

const META_TAG = /<meta(?=[\s/])([^>]*)>/gi;
const ATTR = /([^\s"'=/>]+)\s*(?:=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?/g;
const CONTENT_CHARSET = /charset\s*=\s*["']?\s*([^"'\s;,]+)/i;

/**
 * Charset declared by a `<meta>` tag in the first PRESCAN_BYTES of `body`,
 * normalised, or null. The scan works on the bytes read as Latin-1 (every
 * byte is one char, so ASCII markup is found in any ASCII-compatible
 * encoding), ignores comments, and tolerates unquoted or unterminated
 * attribute values. A UTF-16 label found this way means UTF-8 (WHATWG: a
 * document that could be read as ASCII to find the tag is not UTF-16).
 */
export function prescanMetaCharset(body: Buffer): string | null {
  const head = body.subarray(0, PRESCAN_BYTES).toString('latin1').replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  for (const m of head.matchAll(META_TAG)) {
    let charset: string | null = null;
    let httpEquiv = '';
    let content: string | null = null;
    for (const a of (m[1] ?? '').matchAll(ATTR)) {
      const name = a[1].toLowerCase();
      const value = a[2] ?? a[3] ?? a[4] ?? '';
      if (name === 'charset' && charset === null) charset = value;
      else if (name === 'http-equiv') httpEquiv = value.trim().toLowerCase();
      else if (name === 'content' && content === null) content = value;
    }
    let label = normaliseCharset(charset);
    if (label === null && httpEquiv === 'content-type' && content !== null) {
      label = normaliseCharset(CONTENT_CHARSET.exec(content)?.[1]);
    }
    if (label !== null) return label.startsWith('utf-16') ? 'utf-8' : label;
  }
  return null;
}

/**
 * True when `body` holds at least one non-ASCII byte and is valid UTF-8
 * (a multi-byte sequence cut at the very end, as in a truncated body, is
 * tolerated).
 */
export function looksLikeUtf8(body: Buffer): boolean {
  let nonAscii = false;
  for (let i = 0; i < body.length; i++) {
    if (body[i] >= 0x80) {
      nonAscii = true;
      break;
    }
  }
  if (!nonAscii) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * The WHATWG encoding name to decode `body` with (usable as
 * `new TextDecoder(name)`), from its BOM, then `headerCharset` (the raw
 * Content-Type charset parameter, or null), then a `<meta>` prescan, then
 * the UTF-8 / windows-1252 fallback. Never throws.
 */
export function sniffCharset(body: Buffer, headerCharset: string | null): string {
  return (
    bomCharset(body) ??
    normaliseCharset(headerCharset) ??
    prescanMetaCharset(body) ??
    (looksLikeUtf8(body) ? 'utf-8' : FALLBACK_CHARSET)
  );
}

/**
 * Node 20's TextDecoder decodes `windows-1252` as ISO-8859-1 when called
 * without `{stream: true}` (a Latin-1 fast path: bytes 0x80–0x9F come out as
 * C1 controls instead of € “ ” — ...); with `{stream: true}` it is right.
 * A single-byte encoding keeps no state between calls, so always streaming
 * is otherwise identical.
 */
class Windows1252Decoder extends TextDecoder {
  override decode(input?: Parameters<TextDecoder['decode']>[0]): string {
    return super.decode(input, { stream: true });
  }
}

/**
 * Node 20's streaming gb18030 and euc-jp decoders throw
 * ERR_ENCODING_INVALID_ENCODED_DATA on some malformed sequences even when
 * not fatal (e.g. gb18030 bytes 81 30 | 00 fed in two calls); decoding in
 * one call never throws. This decoder keeps the streamed chunks and decodes
 * them in one piece on the final (non-stream) call, so those encodings are
 * parsed in one step (bodies are capped by --max-bytes).
 */
class OneShotDecoder extends TextDecoder {
  #parts: Buffer[] = [];

  override decode(input?: Parameters<TextDecoder['decode']>[0], options?: { stream?: boolean }): string {
    if (input !== undefined) {
      this.#parts.push(ArrayBuffer.isView(input) ? Buffer.from(input.buffer, input.byteOffset, input.byteLength) : Buffer.from(input));
    }
    if (options?.stream === true) return '';
    const all = Buffer.concat(this.#parts);
    this.#parts = [];
    return super.decode(all);
  }
}

/**
 * A non-fatal TextDecoder for `charset` (malformed bytes become U+FFFD; a
 * leading BOM is removed). An unknown label gives a windows-1252 decoder.
 * Never throws. Use it instead of `new TextDecoder(charset)`: windows-1252
 * and GBK are decoded correctly on Node 20 (see below).
 */
export function createDecoder(charset: string): TextDecoder {
  let encoding: string = FALLBACK_CHARSET;
  try {
    encoding = new TextDecoder(charset).encoding;
  } catch {
    // unknown label: fall back
  }
  if (encoding === 'windows-1252') return new Windows1252Decoder(encoding, { fatal: false });
  // Node 20's 'gbk' decoder drops or garbles some characters (€ and
  // four-byte sequences); GB18030 is a superset of GBK, so decode with it.
  if (encoding === 'gbk' || encoding === 'gb18030') return new OneShotDecoder('gb18030', { fatal: false });
  if (encoding === 'euc-jp') return new OneShotDecoder(encoding, { fatal: false });
  return new TextDecoder(encoding, { fatal: false });
}
