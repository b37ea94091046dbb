/**
 * One word split per page for the relevance judge (TopicModel.pageTermFreq)
 * and the near-duplicate SimHash (pageFingerprint, src/stages/dedup.ts):
 * both read the title, heading, content and other blocks, the judge
 * without stop words, the fingerprint with them. Tokenising a block with
 * stop words kept and dropping them afterwards gives exactly what
 * tokenize() with stop words dropped gives (tokenize drops them last), so
 * the block's tokens are computed once, cached with the page (a WeakMap:
 * they go with it) and read by both.
 */
import type { ParsedPage } from '../../types.ts';
import type { Segmenter } from './segmenter.ts';
import { isStopword } from './stopwords.ts';
import { tokenize } from './tokenize.ts';

/** The blocks split once and shared. */
export const SHARED_BLOCKS = ['title', 'heading', 'content', 'other'] as const;
export type SharedBlock = (typeof SHARED_BLOCKS)[number];

interface Split {
  segmenter: Segmenter | undefined;
  words: Partial<Record<SharedBlock, string[]>>;
}

const splits = new WeakMap<ParsedPage, Split>();

/**
 * The tokens of `page.blocks[block]` with stop words kept (tokenize with
 * `stopwords: false`), computed once per page and segmenter. Do not modify
 * the array.
 */
export function blockWords(page: ParsedPage, block: SharedBlock, segmenter: Segmenter | undefined): readonly string[] {
  let split = splits.get(page);
  if (split === undefined || split.segmenter !== segmenter) {
    split = { segmenter, words: {} };
    splits.set(page, split);
  }
  return (split.words[block] ??= tokenize(page.blocks[block], { stopwords: false, segmenter }));
}

/**
 * Adds `weight` to `into` for each of `tokens` that is not a stop word:
 * termFreq of what tokenize with stop words dropped gives for the same text.
 */
export function termFreqWithoutStopwords(tokens: readonly string[], weight: number, into: Map<string, number>): void {
  for (const t of tokens) if (!isStopword(t)) into.set(t, (into.get(t) ?? 0) + weight);
}
