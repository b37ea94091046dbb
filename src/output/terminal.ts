/**
 * Make untrusted text (URLs, titles, error messages that quote pages or
 * files) safe to print on a terminal line.
 *
 * A page can put anything in its title or URL; printed raw on stderr, an ESC
 * or CSI (U+009B) starts a control sequence (clear the screen, rewrite the
 * window title, an OSC 8 hyperlink), CR and backspace overwrite what was
 * printed, BEL beeps, a bidi override reorders the rest of the line so it
 * reads differently from what it is, and a lone surrogate is not valid
 * UTF-8. sanitizeForTerminal shows every such character as a visible escape
 * instead, so the line stays one line and says what it contains.
 */

/** Default cap on the sanitised length, in UTF-16 code units. */
export const DEFAULT_TERMINAL_MAX = 300;

/** Cap for a whole stderr message line (errors and warnings quoting input). */
export const LOG_LINE_MAX = 2000;

const ELLIPSIS = '…';

const NAMED: Record<number, string> = { 0x09: '\\t', 0x0a: '\\n', 0x0d: '\\r' };

/** The visible escape for one code point, or null when it prints as itself. */
function escapeOf(cp: number): string | null {
  // C0 controls, DEL and C1 controls (U+0080..U+009F, including CSI U+009B)
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return NAMED[cp] ?? `\\x${cp.toString(16).padStart(2, '0')}`;
  if (
    (cp >= 0x202a && cp <= 0x202e) || // LRE RLE PDF LRO RLO
    (cp >= 0x2066 && cp <= 0x2069) || // LRI RLI FSI PDI
    cp === 0x200e || cp === 0x200f || cp === 0x061c || // LRM RLM ALM
    cp === 0x2028 || cp === 0x2029 || // line and paragraph separators
    (cp >= 0xd800 && cp <= 0xdfff) // a lone surrogate (for..of keeps pairs together)
  ) {
    return `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

/**
 * `s` with every C0/C1 control character (ESC, CSI, BEL, CR, LF, TAB,
 * backspace, NUL, DEL), bidi control, line/paragraph separator and lone
 * surrogate replaced by a visible escape (`\x1b`, `\r`, `\u202E`, `\uD800`),
 * cut to at most `maxLen` UTF-16 code units with a trailing `…` when longer.
 * Never splits a surrogate pair or an escape. The result contains no
 * character a terminal interprets.
 */
export function sanitizeForTerminal(s: string, maxLen: number = DEFAULT_TERMINAL_MAX): string {
  if (!(maxLen >= 1)) throw new TypeError(`maxLen must be at least 1, got ${maxLen}`);
  const pieces: string[] = [];
  let length = 0;
  for (const ch of s) {
    const piece = escapeOf(ch.codePointAt(0)!) ?? ch;
    if (length + piece.length > maxLen) {
      // make room for the ellipsis, dropping whole pieces so no escape or pair is cut
      while (pieces.length > 0 && length + ELLIPSIS.length > maxLen) length -= pieces.pop()!.length;
      return pieces.join('') + ELLIPSIS;
    }
    pieces.push(piece);
    length += piece.length;
  }
  return pieces.join('');
}

/** Characters JSON.stringify leaves raw that a terminal may act on or that reorder a line. */
const JSON_RAW_ACTIVE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON.stringify(value), with DEL, C1 controls (CSI U+009B, NEL U+0085),
 * bidi controls and U+2028/U+2029 written as `\uXXXX` escapes too.
 * JSON.stringify already escapes C0 controls (ESC, NUL, CR, LF) and lone
 * surrogates; these others can only occur inside JSON strings, so escaping
 * them gives the same value when parsed. An NDJSON line built from it
 * stays one inert line on a terminal (`focuscrawl crawl ...` without a pipe).
 */
export function stringifyForTerminal(value: object): string {
  return jsonForTerminal(JSON.stringify(value));
}

/**
 * stringifyForTerminal of a value whose JSON.stringify is `json`: `json`
 * itself (the same string) when it holds none of those characters.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(JSON_RAW_ACTIVE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
