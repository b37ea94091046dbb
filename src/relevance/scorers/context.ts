/**
 * What a strategy is built from. Every strategy gets the same page-relevance
 * judge (so `relevance` in the output means the same whatever the strategy)
 * and differs in how it scores links.
 */
import { UsageError } from '../../errors.ts';
import type { NumberBounds } from '../graph/periodic.ts';
import type { TopicModel } from '../topic.ts';
import type { ParsedPage, Scorer } from '../../types.ts';

/** The page a link was found on, as link features see it. */
export interface LinkParent {
  /** its URL (same-host flag) */
  url?: string;
  /** its title (feature group 4) */
  title?: string;
  /** it is relevant (feature group 4) */
  relevant?: boolean;
}

/** A model trained by `focuscrawl train` (see src/relevance/model.ts). */
export interface LearnedModel {
  /** the label the model was trained to find */
  readonly target: string;
  /** P(target | page), the page classifier (relevance judge) */
  pageProbability(page: ParsedPage): number;
  /**
   * P(+ | link context): Bernoulli NB over link-context features (docs/algorithms.md#nb-link);
   * feature groups 3 and 4 also use the target `url` and the `parent` page
   * (ignored by groups 1 and 2)
   */
  linkProbability(anchor: string, context: string, url?: string, parent?: LinkParent): number;
  /** P(+ | link context): Naive Bayes over TF-IDF features with Gaussian or kernel densities (docs/algorithms.md#bayes-kde) */
  kdeProbability(anchor: string, context: string, density: 'gaussian' | 'kernel'): number;
  /**
   * P(layer k | link), k = 0..the model's last layer: the layered link
   * classifier of a context graph (`train --layers`); null or absent when
   * the model has none
   */
  layerProbabilities?(anchor: string, context: string, url?: string, parent?: LinkParent): number[] | null;
  /**
   * P(layer j | page), j = 0..the last layer: the page-layer classifier over
   * the page's own text (`train --layers`); null or absent when the model has none
   */
  pageLayerProbabilities?(page: ParsedPage): number[] | null;
  /** P(link layer k | parent page layer j) as [j][k], with pageLayerProbabilities; null or absent without */
  readonly layerTransitions?: readonly (readonly number[])[] | null;
  /** K of nb-link-layers' `sharpen=auto` (issue 24; the model file's `blend.sharpen`); absent or 1: no sharpening */
  readonly linkSharpen?: number;
  /** discriminative terms mined in training, usable as a term topic */
  readonly terms: readonly string[];
}

export interface ScorerContext {
  /** term topic (from --topic, or the model's mined terms) with its TF-IDF judge */
  topic: TopicModel;
  /** the learned model, when --model was given */
  model: LearnedModel | null;
  /** page relevance 0..1 shared by all strategies: the model's page classifier if any, else the topic judge */
  judge(page: ParsedPage): number;
  /** strategy parameters (defaults overridden by the topic/model file and flags) */
  params: Readonly<Record<string, number | string>>;
}

/** Builds a strategy's scorer. */
export type ScorerFactory = (ctx: ScorerContext) => Scorer;

/** A number parameter from ctx.params within [min, max] (integer when asked); UsageError (FC_USAGE) otherwise. */
export function numberParam(
  ctx: ScorerContext,
  strategy: string,
  name: string,
  fallback: number,
  { min = -Infinity, max = Infinity, integer = false }: NumberBounds = {},
): number {
  const raw = ctx.params[name];
  if (raw === undefined) return fallback;
  const v = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw new UsageError(`${strategy}: parameter ${name} must be ${integer ? 'an integer' : 'a number'} in [${min}, ${max}], got ${JSON.stringify(raw)}`);
  }
  return v;
}
