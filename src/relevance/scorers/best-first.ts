/**
 * `best-first` (Liu & Li 2017 eq. 1, docs/algorithms.md#best-first): Score(P, i) = Sim(P) + Sim(anchor_i).
 *
 * Sim(P) is the page's relevance from the shared judge; Sim(anchor_i) is the
 * same TF-IDF similarity (TopicModel.similarity) applied to the link's
 * anchor text (each token weighted 1) plus its context window
 * (PageLink.context, each token weighted 0.5). Scores lie in [0, 2].
 */
import type { TopicModel } from '../topic.ts';
import type { PageLink, ParsedPage, Scorer } from '../../types.ts';
import type { ScorerContext } from './context.ts';

/** Weight of a link-context token relative to an anchor token. */
export const CONTEXT_WEIGHT = 0.5;

/** Sim(anchor_i): TF-IDF similarity of a link's anchor (+ ½ context) to the topic. */
export function anchorSimilarity(topic: TopicModel, anchor: string, context: string): number {
  // most links name no topic word: they are not even tokenized when that is
  // clear from the text, and no term counts are built for them
  if (!topic.mayMention(anchor) && !topic.mayMention(context)) return 0;
  return topic.linkTextSimilarity(anchor, context, CONTEXT_WEIGHT);
}

/**
 * Score(P, i) = Sim(P) + Sim(anchor_i). Given the page the link is on, the
 * anchor texts are split once per page (TopicModel.linkSimilarityOnPage:
 * the same number).
 */
export function bestFirstScore(ctx: ScorerContext, link: PageLink, pageRelevance: number, page?: ParsedPage): number {
  const sim = Number.isFinite(pageRelevance) ? Math.max(0, pageRelevance) : 0;
  return sim + (page === undefined ? anchorSimilarity(ctx.topic, link.anchor, link.context) : ctx.topic.linkSimilarityOnPage(page, link, CONTEXT_WEIGHT));
}

export function createBestFirstScorer(ctx: ScorerContext): Scorer {
  return {
    name: 'best-first',
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link, page, pageRelevance) => bestFirstScore(ctx, link, pageRelevance, page),
  };
}
