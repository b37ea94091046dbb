/**
 * `nb-link` (Han et al. 2010, docs/algorithms.md#nb-link): the priority of a link is P(+ | its link context),
 * from the Bernoulli Naive Bayes link-context classifier of a trained model
 * (`focuscrawl train`; feature group 1 to 4 as trained: 3 and 4 also read
 * the target URL and the page the link is on). With the `parentWeight`
 * parameter w (default 0) the score is (P + w·relevance of the page the
 * link is on)/(1 + w): links of relevant pages rank higher (SkyReach's
 * linkage locality, docs/algorithms.md#topics-on-the-web; helps where targets link to targets). The frontier keeps
 * the highest probability first and raises a queued URL found again with a
 * higher probability (the store re-prioritises). Needs --model.
 */
import { UsageError } from '../../errors.ts';
import type { Scorer } from '../../types.ts';
import type { ScorerContext } from './context.ts';

/** Weight of the parent page's relevance in a link's score when the `parentWeight` parameter is not given. */
export const DEFAULT_PARENT_WEIGHT = 0;

/** A page whose relevance (the model's page probability) is at or above this counts as relevant for the parent flag of its links' features (group 4). */
export const PARENT_RELEVANT_AT = 0.5;

export function createNbLinkScorer(ctx: ScorerContext): Scorer {
  const model = ctx.model;
  if (model === null) throw new UsageError('--strategy nb-link needs a trained --model (focuscrawl train)');
  const threshold = typeof ctx.params.threshold === 'number' ? ctx.params.threshold : PARENT_RELEVANT_AT;
  const w = typeof ctx.params.parentWeight === 'number' && ctx.params.parentWeight >= 0 ? ctx.params.parentWeight : DEFAULT_PARENT_WEIGHT;
  return {
    name: 'nb-link',
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link, page, pageRelevance) =>
      (model.linkProbability(link.anchor, link.context, link.url, { url: page.base, title: page.title, relevant: pageRelevance >= threshold }) +
        w * Math.max(0, pageRelevance)) /
      (1 + w),
  };
}
