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
import { isAsciiStopwordSpan, isStopword } from './stopwords.ts';

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
  if (isAscii(text)) return tokenizeAscii(text.toLowerCase(), opts.stopwords ?? true);
  return tokenizeGeneral(text, opts);
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

/** a-z or 0-9 (the text is lower-cased ASCII) */
function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

function allDigits(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/**
 * WORD_RUN over lower-case ASCII by hand: runs of [a-z0-9] joined by single
 * apostrophes that have a word character on both sides; a trailing 's
 * removed; then the same filters as keep() (no Han in ASCII).
 */
function tokenizeAscii(text: string, dropStop: boolean): string[] {
  const out: string[] = [];
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
    if (end - start >= 2 && text.charCodeAt(end - 1) === 0x73 && text.charCodeAt(end - 2) === APOSTROPHE) end -= 2;
    const length = end - start;
    if (length < 2 || (length > 4 && allDigits(text, start, end))) continue;
    if (dropStop && isAsciiStopwordSpan(text, start, end)) continue;
    out.push(text.slice(start, end));
  }
  return out;
}
