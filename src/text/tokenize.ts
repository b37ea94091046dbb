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
import { isStopword } from './stopwords.ts';

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

/** The tokens of `text`, in order (repeats kept: callers count them). */
export function tokenize(text: string, opts: TokenizeOptions = {}): string[] {
  const dropStop = opts.stopwords ?? true;
  const out: string[] = [];
  const keep = (token: string, han: boolean): void => {
    if (!han && [...token].length < 2) return;
    if (DIGITS.test(token) && token.length > 4) return;
    if (dropStop && isStopword(token)) return;
    out.push(token);
  };
  const normal = text.normalize('NFKC').toLowerCase().replace(APOSTROPHES, "'");
  for (const [run] of normal.matchAll(WORD_RUN)) {
    for (const [part] of run.matchAll(SCRIPT_RUN)) {
      if (HAN.test(part)) {
        const segmenter = opts.segmenter ?? getSegmenter();
        for (const word of segmenter.cut(part)) if (WORDLIKE.test(word)) keep(word, true);
      } else {
        const word = part.replace(/^'+|'+$/g, '').replace(/'s$/, '');
        if (word) keep(word, false);
      }
    }
  }
  return out;
}
