/**
 * Wu & Li's tag-block page relevance (docs/algorithms.md#tag-block-relevance):
 *
 *     R(p) = w_t·R_title + w_c·R_content + w_n·R_nav + w_a·R_anchor + w_o·R_other
 *
 * Each R_b is the TF-IDF similarity of block b's tokens (after concept
 * substitution) to the library's topic vector (FeatureLibrary.similarity,
 * i.e. TopicModel.similarity: an lnc.ltc cosine over the topic terms present
 * in the block, so R(p) is on the same scale as the shared judge and the
 * topic threshold is a sensible default for η).
 *
 * Blocks come from ParsedPage.blocks: title (blocks.title, else page.title),
 * content (blocks.heading + blocks.content: headings are the emphasised key
 * tags of the body), navigation, anchor, other.
 *
 * Block weights (Wu & Li 2015): impact_b = λ·impact0_b + (1−λ)·impact1_b and
 * w_b = impact_b / Σ impacts over the blocks present on the page (a block
 * with no token is not on the page: weight 0, so a page is not punished for
 * lacking, say, an "other" block).
 * - impact1_b: a preset per block type, IMPACT_PRESETS (our choice, not the
 *   paper's lost numbers): title 1.0, content 0.8, anchor 0.4, other 0.2,
 *   navigation 0.1 (the order of src/relevance/topic.ts BLOCK_WEIGHTS: a title names
 *   the page; menus are shared by a whole site).
 * - impact0_b = k_b / (k_b + 1), growing with k_b, the block's number of key
 *   tags (strong b h1 i / p div span). The parser does not count tags, so
 *   k_b is estimated from token counts: one container per PARAGRAPH_TOKENS
 *   tokens of body text, one element per SHORT_TOKENS tokens of heading,
 *   navigation, anchor and other text, and 1 for a non-empty title. A
 *   block of one short phrase thus weighs less than a block of many.
 */
import { BLOCK_WEIGHTS } from '../topic.ts';
import { termFreq, type SparseVector } from '../text/vector.ts';
import type { ParsedPage } from '../../types.ts';
import type { FeatureLibrary } from './library.ts';

/** The five block types of docs/algorithms.md#tag-block-relevance. */
export const ETFL_BLOCKS = ['title', 'content', 'navigation', 'anchor', 'other'] as const;
export type EtflBlock = (typeof ETFL_BLOCKS)[number];

/** impact1: preset impact of each block type. */
export const IMPACT_PRESETS: Readonly<Record<EtflBlock, number>> = {
  title: 1.0,
  content: 0.8,
  anchor: 0.4,
  other: 0.2,
  navigation: 0.1,
};

/** Default λ (share of the key-tag impact). */
export const DEFAULT_LAMBDA = 0.5;
/** Tokens of body text per estimated container tag (p, div, span). */
export const PARAGRAPH_TOKENS = 30;
/** Tokens per estimated heading / menu item / anchor / label element. */
export const SHORT_TOKENS = 4;

/** Token counts that stand for a page's key tags (see estimateKeyTags). */
export interface BlockTokenCounts {
  title: number;
  heading: number;
  content: number;
  navigation: number;
  anchor: number;
  other: number;
}

/** Estimated key-tag count k_b of every block (see the module comment). */
export function estimateKeyTags(n: BlockTokenCounts): Record<EtflBlock, number> {
  const short = (x: number): number => Math.ceil(x / SHORT_TOKENS);
  return {
    title: n.title > 0 ? 1 : 0,
    content: Math.ceil(n.content / PARAGRAPH_TOKENS) + short(n.heading),
    navigation: short(n.navigation),
    anchor: short(n.anchor),
    other: short(n.other),
  };
}

/** impact0 of a block with `keyTags` key tags: k / (k + 1). */
export function keyTagImpact(keyTags: number): number {
  return keyTags > 0 ? keyTags / (keyTags + 1) : 0;
}

/**
 * Block weights from key-tag counts: impact = λ·impact0 + (1−λ)·preset,
 * normalised over the blocks with k > 0 (they sum to 1; all 0 when no block
 * is present). Throws TypeError for λ outside [0, 1].
 */
export function blockWeights(keyTags: Readonly<Record<EtflBlock, number>>, lambda = DEFAULT_LAMBDA): Record<EtflBlock, number> {
  if (!(lambda >= 0 && lambda <= 1)) throw new TypeError(`lambda must be in [0, 1], got ${lambda}`);
  const impact = {} as Record<EtflBlock, number>;
  let sum = 0;
  for (const b of ETFL_BLOCKS) {
    impact[b] = keyTags[b] > 0 ? lambda * keyTagImpact(keyTags[b]) + (1 - lambda) * IMPACT_PRESETS[b] : 0;
    sum += impact[b];
  }
  for (const b of ETFL_BLOCKS) impact[b] = sum > 0 ? impact[b] / sum : 0;
  return impact;
}

/** What scoreBlocks found on a page. */
export interface BlockScores {
  /** R(p) in [0, 1] */
  relevance: number;
  /** R_b per block */
  scores: Record<EtflBlock, number>;
  /** w_b per block (sum 1, or all 0 for a page without text) */
  weights: Record<EtflBlock, number>;
  /** estimated key tags per block */
  keyTags: Record<EtflBlock, number>;
  /** substituted tokens of the whole page, weighted by src/relevance/topic.ts BLOCK_WEIGHTS (for document frequencies and mining) */
  tf: SparseVector;
}

/** R(p) of `page` against `lib` (does not touch the document frequencies). */
export function scoreBlocks(page: ParsedPage, lib: FeatureLibrary, lambda = DEFAULT_LAMBDA): BlockScores {
  const b = page.blocks;
  const tok = {
    title: lib.tokens(b.title || page.title),
    heading: lib.tokens(b.heading),
    content: lib.tokens(b.content),
    navigation: lib.tokens(b.navigation),
    anchor: lib.tokens(b.anchor),
    other: lib.tokens(b.other),
  };
  const keyTags = estimateKeyTags({
    title: tok.title.length,
    heading: tok.heading.length,
    content: tok.content.length,
    navigation: tok.navigation.length,
    anchor: tok.anchor.length,
    other: tok.other.length,
  });
  const weights = blockWeights(keyTags, lambda);
  const blockTokens: Record<EtflBlock, string[]> = {
    title: tok.title,
    content: [...tok.heading, ...tok.content],
    navigation: tok.navigation,
    anchor: tok.anchor,
    other: tok.other,
  };
  const scores = {} as Record<EtflBlock, number>;
  let relevance = 0;
  for (const t of ETFL_BLOCKS) {
    scores[t] = weights[t] > 0 ? lib.similarity(termFreq(blockTokens[t])) : 0;
    relevance += weights[t] * scores[t];
  }
  const tf: SparseVector = new Map();
  for (const [type, tokens] of Object.entries(tok) as [keyof typeof tok, string[]][]) termFreq(tokens, BLOCK_WEIGHTS[type], tf);
  return { relevance: Math.min(1, Math.max(0, relevance)), scores, weights, keyTags, tf };
}
