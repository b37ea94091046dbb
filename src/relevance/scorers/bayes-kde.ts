/**
 * `bayes-kde` (Zou et al. 2009, docs/algorithms.md#bayes-kde): the priority of a link is P(+ | x) where x is the
 * cosine-normalised TF-IDF vector of its link context, from a Naive Bayes
 * classifier over continuous features with kernel densities (John & Langley;
 * the paper's crawler) or Gaussians (`density` parameter: kernel|gaussian).
 * Needs --model.
 */
import { UsageError } from '../../errors.ts';
import type { Scorer } from '../../types.ts';
import type { ScorerContext } from './context.ts';

export function createBayesKdeScorer(ctx: ScorerContext): Scorer {
  const model = ctx.model;
  if (model === null) throw new UsageError('--strategy bayes-kde needs a trained --model (focuscrawl train)');
  const density = ctx.params.density ?? 'kernel';
  if (density !== 'kernel' && density !== 'gaussian') throw new UsageError(`--density must be kernel or gaussian, got ${JSON.stringify(density)}`);
  return {
    name: 'bayes-kde',
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link) => model.kdeProbability(link.anchor, link.context, density),
  };
}
