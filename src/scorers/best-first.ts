/**
 * `best-first` (seed 003 eq. 1): Score(P, i) = Sim(P) + Sim(anchor_i).
 *
 * Sim(P) is the page's relevance from the shared judge; Sim(anchor_i) is the
 * same TF-IDF similarity (TopicModel.similarity) applied to the link's
 * anchor text (each token weighted 1) plus its context window
 * (PageLink.context, each token weighted 0.5). Scores lie in [0, 2].
 */
import type { TopicModel } from '../topic.ts';
import { termFreq } from '../text/vector.ts';
import type { CrawlItem, PageLink, ParsedPage, Scorer } from '../types.ts';

/** Weight of a link-context token relative to an anchor token. */
export const CONTEXT_WEIGHT = 0.5;

/** Best-first scorer over `model`. */
export function createBestFirstScorer(model: TopicModel): Scorer {
  return {
    name: 'best-first',
    pageRelevance(page: ParsedPage, _item: CrawlItem): number {
      return model.judge(page);
    },
    linkScore(link: PageLink, _page: ParsedPage, pageRelevance: number): number {
      const tf = termFreq(model.tokens(link.anchor));
      termFreq(model.tokens(link.context), CONTEXT_WEIGHT, tf);
      const sim = model.similarity(tf);
      const page = Number.isFinite(pageRelevance) ? Math.max(0, pageRelevance) : 0;
      return page + sim;
    },
  };
}
