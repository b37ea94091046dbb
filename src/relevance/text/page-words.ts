/**
 * One word split per page for the relevance judge (TopicModel.pageTermFreq)
 * and the near-duplicate SimHash (pageFingerprint, src/stages/dedup.ts):
 * both read the title, heading, content and other blocks, the judge
 * without stop words, the fingerprint with them. Tokenising a block with
 * stop words kept and dropping them afterwards gives exactly what
 * tokenize() with stop words dropped gives (tokenize drops them last), so
 * the block's tokens are computed once, cached for the last few pages,
 * and read by both.
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

/**
 * The splits of the last few pages, newest first, found by identity. The
 * judge and the near-duplicate stage see a page one right after the other
 * (classify, then dedup); a handful of slots covers that without a WeakMap,
 * whose entries the garbage collector treats as ephemerons (slower
 * scavenges of the small young generation the bin runs with).
 */
const SLOTS = 8;
const pagesHeld: (ParsedPage | null)[] = new Array<ParsedPage | null>(SLOTS).fill(null);
const splitsHeld: (Split | null)[] = new Array<Split | null>(SLOTS).fill(null);
let next = 0;

function splitOf(page: ParsedPage, segmenter: Segmenter | undefined): Split {
  for (let i = 0; i < SLOTS; i++) {
    if (pagesHeld[i] === page && splitsHeld[i]!.segmenter === segmenter) return splitsHeld[i]!;
  }
  const split: Split = { segmenter, words: {} };
  pagesHeld[next] = page;
  splitsHeld[next] = split;
  next = (next + 1) % SLOTS;
  return split;
}

/**
 * The tokens of `page.blocks[block]` with stop words kept (tokenize with
 * `stopwords: false`), computed once per page and segmenter. Do not modify
 * the array.
 */
export function blockWords(page: ParsedPage, block: SharedBlock, segmenter: Segmenter | undefined): readonly string[] {
  const split = splitOf(page, segmenter);
  return (split.words[block] ??= tokenize(page.blocks[block], { stopwords: false, segmenter }));
}

/**
 * Adds `weight` to `into` for each of `tokens` that is not a stop word:
 * termFreq of what tokenize with stop words dropped gives for the same text.
 */
export function termFreqWithoutStopwords(tokens: readonly string[], weight: number, into: Map<string, number>): void {
  for (const t of tokens) if (!isStopword(t)) into.set(t, (into.get(t) ?? 0) + weight);
}
