/**
 * Unicode-aware tokenizer shared by topics, pages and link contexts (the
 * same function on both sides, so terms match).
 *
 * 1. NFKC (full-width letters and digits become ASCII), lower-case, and
 *    typographic apostrophes (’ ‘ ʼ) become '.
 * 2. Word runs: letters, digits and combining marks, with single apostrophes
 *    inside a word kept ("don't", "o'neil"); a possessive 's is removed
 *    ("cornell's" -> "cornell").
 * 3. Inside a run, Han characters are cut by the segmenter (jieba search
 *    mode); other scripts stay one token per run ("光伏panel" -> 光伏, panel).
 * 4. Dropped: stop words (unless `stopwords: false`), one-character tokens
 *    outside Han (single Latin letters, single digits), and pure numbers of
 *    more than 4 digits (years such as 1997 are kept).
 *
 * Input length is the caller's to bound (page blocks are capped by the parser).
 */
import { getSegmenter, type Segmenter } from './segmenter.ts';
import { isFoldedAsciiStopword, isStopword } from './stopwords.ts';

export interface TokenizeOptions {
  /** Han segmenter; default getSegmenter() (node-rs jieba, loaded on first Han text) */
  segmenter?: Segmenter;
  /** drop stop words (default true) */
  stopwords?: boolean;
}

const APOSTROPHES = /[’‘ʼ]/g;
const WORD_RUN = /[\p{L}\p{N}\p{M}]+(?:'[\p{L}\p{N}\p{M}]+)*/gu;
const SCRIPT_RUN = /\p{Script=Han}+|[^\p{Script=Han}]+/gu;
const HAN = /\p{Script=Han}/u;
const WORDLIKE = /[\p{L}\p{N}]/u;
const DIGITS = /^\p{Nd}+$/u;
const NON_ASCII = /[^\x00-\x7f]/;
const APOSTROPHE = 0x27;

/** True when every code unit of `text` is ASCII: then its tokens are substrings of `text.toLowerCase()`. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * The tokens of `text`, in order (repeats kept: callers count them). Text
 * that is all ASCII (most of the web) takes a scanner that allocates only
 * the tokens; it gives exactly what the general path gives
 * (test/tokenize.test.ts checks both on generated text).
 */
export function tokenize(text: string, opts: TokenizeOptions = {}): string[] {
  if (isAscii(text)) {
    if (text.length > SCRATCH_TEXT_MAX) {
      const out: string[] = [];
      tokenizeAscii(text, opts.stopwords ?? true, out, 0);
      return out;
    }
    // into a reused array, then copied out at its size: an array grown
    // token by token left one to two times its size as garbage
    return scratch.slice(0, tokenizeAscii(text, opts.stopwords ?? true, scratch, 0));
  }
  return tokenizeGeneral(text, opts);
}

/**
 * tokenize's array for ASCII texts of at most SCRATCH_TEXT_MAX characters
 * (a bound on what stale entries can keep alive: a token longer than
 * INTERN_MAX is a slice of its text).
 */
const scratch: string[] = [];
const SCRATCH_TEXT_MAX = 4096;

/**
 * tokenize(text, { segmenter }) with stop words dropped, written to
 * `out[0..n)` (later slots are left as they were); returns n. For callers
 * that reuse one array per text (every link's anchor and context): no array
 * is allocated for ASCII text.
 */
export function tokenizeInto(text: string, out: string[], segmenter?: Segmenter): number {
  return tokenizeAppend(text, out, 0, true, segmenter);
}

/**
 * tokenize(text, { stopwords: dropStopwords, segmenter }) written to
 * `out[at..)`; returns the index after the last token written. For
 * callers that collect the tokens of many short texts in one array.
 */
export function tokenizeAppend(text: string, out: string[], at: number, dropStopwords: boolean, segmenter?: Segmenter): number {
  if (isAscii(text)) return tokenizeAscii(text, dropStopwords, out, at);
  const tokens = tokenizeGeneral(text, { segmenter, stopwords: dropStopwords });
  for (let i = 0; i < tokens.length; i++) out[at + i] = tokens[i]!;
  return at + tokens.length;
}

/** The general path: any script. Exported for the equivalence test only. */
export function tokenizeGeneral(text: string, opts: TokenizeOptions = {}): string[] {
  const dropStop = opts.stopwords ?? true;
  const out: string[] = [];
  const keep = (token: string, han: boolean): void => {
    if (!han && (token.length < 2 || (token.length === 2 && token.codePointAt(0)! > 0xffff))) return;
    if (token.length > 4 && DIGITS.test(token)) return;
    if (dropStop && isStopword(token)) return;
    out.push(token);
  };
  const latin = (part: string): void => {
    const word = part.replace(/^'+|'+$/g, '').replace(/'s$/, '');
    if (word) keep(word, false);
  };
  const normal = text.normalize('NFKC').toLowerCase().replace(APOSTROPHES, "'");
  // matchAll, not a WORD_RUN.exec loop: a segmenter may tokenize too
  // (reentrant), and exec would share WORD_RUN.lastIndex with it.
  for (const [run] of normal.matchAll(WORD_RUN)) {
    if (!HAN.test(run)) {
      latin(run);
      continue;
    }
    for (const [part] of run.matchAll(SCRIPT_RUN)) {
      if (HAN.test(part)) {
        const segmenter = opts.segmenter ?? getSegmenter();
        for (const word of segmenter.cut(part)) if (WORDLIKE.test(word)) keep(word, true);
      } else {
        latin(part);
      }
    }
  }
  return out;
}

/** a-z, A-Z or 0-9 */
function isWordChar(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

function allDigits(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Tokens shorter than this are interned (a longer slice would be a view pinning the whole text). */
const INTERN_MAX = 12;
const INTERN_MASK = 4095;
/**
 * Recently cut ASCII tokens by a hash of their characters, one per slot (a
 * newer token takes the slot): a word met again is returned as the string
 * cut before instead of a new one. Most tokens of a crawl are words it has
 * seen many times; the table holds at most 4,096 strings of ≤ 12 characters.
 */
const interned: string[] = new Array<string>(INTERN_MASK + 1).fill('');

/**
 * text.slice(start, end) lower-cased, from the intern table when the same
 * characters were cut before; `h` is spanHash of the lower-cased span
 * (stopwords.ts), `upper` whether the span holds a capital. The span
 * holds letters, digits and apostrophes only, which `| 0x20` lower-cases.
 */
function cut(text: string, start: number, end: number, h: number, upper: boolean): string {
  const length = end - start;
  if (length > INTERN_MAX) return upper ? text.slice(start, end).toLowerCase() : text.slice(start, end);
  const slot = (h ^ (h >>> 13)) & INTERN_MASK;
  const old = interned[slot]!;
  if (old.length === length) {
    let i = 0;
    while (i < length && old.charCodeAt(i) === (text.charCodeAt(start + i) | 0x20)) i++;
    if (i === length) return old;
  }
  const token = upper ? text.slice(start, end).toLowerCase() : text.slice(start, end);
  interned[slot] = token;
  return token;
}

/**
 * WORD_RUN over ASCII by hand, lower-casing as it goes (no lower-cased copy
 * of the text): runs of [a-zA-Z0-9] joined by single apostrophes that have
 * a word character on both sides; a trailing 's (or 'S) removed; then the
 * same filters as keep() (no Han in ASCII). Writes the tokens to `out` from
 * index `at`; returns the index after the last one.
 */
function tokenizeAscii(text: string, dropStop: boolean, out: string[], at = 0): number {
  let count = at;
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (isWordChar(c) || (c === APOSTROPHE && i + 1 < n && isWordChar(text.charCodeAt(i + 1)))) i++;
      else break;
    }
    let end = i;
    if (end - start >= 2 && (text.charCodeAt(end - 1) | 0x20) === 0x73 && text.charCodeAt(end - 2) === APOSTROPHE) end -= 2;
    const length = end - start;
    if (length < 2 || (length > 4 && allDigits(text, start, end))) continue;
    // one hash of the lower-cased span for the stop-word and intern tables
    let h = length;
    let upper = false;
    for (let j = start; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c <= 0x5a && c >= 0x41) upper = true;
      h = (Math.imul(h, 31) + (c | 0x20)) | 0;
    }
    if (dropStop && isFoldedAsciiStopword(text, start, end, h)) continue;
    out[count++] = cut(text, start, end, h, upper);
  }
  return count;
}
