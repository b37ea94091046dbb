/**
 * `nb-link` (seed 000): the priority of a link is P(+ | its link context),
 * from the Bernoulli Naive Bayes link-context classifier of a trained model
 * (`focuscrawl train`; feature group 1 or 2 as trained). The frontier keeps
 * the highest probability first and raises a queued URL found again with a
 * higher probability (the store re-prioritises). Needs --model.
 */
import { UsageError } from '../errors.ts';
import type { Scorer } from '../types.ts';
import type { ScorerContext } from './context.ts';

export function createNbLinkScorer(ctx: ScorerContext): Scorer {
  const model = ctx.model;
  if (model === null) throw new UsageError('--strategy nb-link needs a trained --model (focuscrawl train)');
  return {
    name: 'nb-link',
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link) => model.linkProbability(link.anchor, link.context, link.url),
  };
}
