/**
 * Strategy registry. Every strategy is a Scorer (src/types.ts) built from a
 * ScorerContext (src/relevance/scorers/context.ts), so they all share one
 * page-relevance judge; a strategy differs only in how it scores links.
 * Add a strategy by adding its factory here.
 */
import { UsageError } from '../../errors.ts';
import type { Segmenter } from '../text/segmenter.ts';
import { TopicModel, DEFAULT_THRESHOLD } from '../topic.ts';
import type { Scorer, Topic } from '../../types.ts';
import { createBayesKdeScorer } from './bayes-kde.ts';
import { createBestFirstScorer } from './best-first.ts';
import { createBestNFirstScorer } from './best-n-first.ts';
import { createBfsScorer } from './bfs.ts';
import type { LearnedModel, ScorerContext, ScorerFactory } from './context.ts';
import { createNbLinkScorer } from './nb-link.ts';
import { createOnlineScorer } from './online.ts';
import { createContextGraphScorer, createNbLinkLayersScorer, hasLayers } from './context-graph.ts';
import { createEtflScorer } from './etfl.ts';
import { createHitsScorer } from './hits.ts';
import { createIPageRankScorer } from './ipagerank.ts';
import { withExploration } from './explore.ts';
import { withSiteLane } from './site-lane.ts';

export type { ScorerFactory } from './context.ts';

export interface ScorerOptions {
  /** Han segmenter (default node-rs jieba) */
  segmenter?: Segmenter;
  /** a trained model (--model): its page classifier becomes the judge */
  model?: LearnedModel | null;
  /** strategy parameters, overriding the defaults */
  params?: Record<string, number | string>;
  /**
   * the exploration and tail lanes over the strategy (src/relevance/scorers/explore.ts):
   * the share of fetches the breadth-first lane gets at the start, 0 to 1;
   * 0 (the default here, and `crawl --explore 0`): the strategy alone, as
   * its paper defines it. A crawl (CrawlConfig.explore) defaults to
   * DEFAULT_EXPLORE
   */
  explore?: number;
  /**
   * the site lane over the strategy (src/relevance/scorers/site-lane.ts):
   * the share of fetches taken from the host of the best judged harvest
   * while it beats the crawl's recent harvest, 0 to 1; 0 (the default
   * here): off. A crawl (CrawlConfig.siteLane) defaults to DEFAULT_SITE_LANE
   */
  siteLane?: number;
}

const FACTORIES: Record<string, ScorerFactory> = {
  bfs: createBfsScorer,
  'best-first': createBestFirstScorer,
  'best-n-first': createBestNFirstScorer,
  'nb-link': createNbLinkScorer,
  'bayes-kde': createBayesKdeScorer,
  etfl: (ctx) => createEtflScorer(ctx),
  hits: createHitsScorer,
  ipagerank: createIPageRankScorer,
  online: createOnlineScorer,
  'context-graph': createContextGraphScorer,
  'nb-link-layers': createNbLinkLayersScorer,
};

/** Strategies that cannot run without a trained model. */
const NEEDS_MODEL = new Set(['nb-link', 'bayes-kde', 'context-graph', 'nb-link-layers']);

/**
 * The strategy of a crawl with `model` and no strategy named: nb-link-layers
 * when the model carries layers (`train --layers`; docs/results/webkb-context-graph.md,
 * "Combining nb-link with the learned layers"), else nb-link.
 */
export function modelStrategy(model: LearnedModel): string {
  return hasLayers(model) ? 'nb-link-layers' : 'nb-link';
}

/** Names accepted by createScorer(), in registry order. */
export function knownStrategies(): string[] {
  return Object.keys(FACTORIES);
}

/** Does strategy `name` need --model? */
export function needsModel(name: string): boolean {
  return NEEDS_MODEL.has(name);
}

/**
 * The relevance threshold in force: a model's (a probability, 0.5 by
 * default) when there is a model, else the topic's.
 */
export function relevanceThreshold(topic: Topic | null, model: LearnedModel | null | undefined, params: Record<string, number | string> = {}): number {
  if (typeof params.threshold === 'number') return params.threshold;
  if (model) return (model as { threshold?: number }).threshold ?? 0.5;
  return topic?.threshold ?? DEFAULT_THRESHOLD;
}

/**
 * The scorer of strategy `name`. `topic` may be null when a model is given
 * (the model's mined terms then make the term topic). Throws UsageError
 * (FC_USAGE) for an unknown name (listing the known ones) or a strategy
 * that needs a model it was not given; TopicError (FC_BAD_TOPIC) when the
 * topic has no indexable term. Each call builds a fresh TopicModel.
 */
export function createScorer(name: string, topic: Topic | null, opts: ScorerOptions = {}): Scorer {
  const factory = Object.hasOwn(FACTORIES, name) ? FACTORIES[name] : undefined;
  if (!factory) {
    throw new UsageError(`unknown strategy '${name}' (known: ${knownStrategies().join(', ')})`);
  }
  const model = opts.model ?? null;
  const terms = topic ?? (model ? { name: model.target, terms: [...model.terms], threshold: DEFAULT_THRESHOLD } : null);
  if (terms === null) throw new UsageError(`strategy ${name} needs --topic FILE or --model FILE`);
  const topicModel = new TopicModel(terms, { segmenter: opts.segmenter });
  const params = { threshold: relevanceThreshold(topic, model, opts.params), ...opts.params };
  const ctx: ScorerContext = {
    topic: topicModel,
    model,
    judge: model ? (page) => model.pageProbability(page) : (page) => topicModel.judge(page),
    params,
  };
  const explore = opts.explore ?? 0;
  if (!(explore >= 0 && explore <= 1)) throw new UsageError(`explore must be a number from 0 to 1, got ${JSON.stringify(opts.explore)}`);
  const siteLane = opts.siteLane ?? 0;
  if (!(siteLane >= 0 && siteLane <= 1)) throw new UsageError(`siteLane must be a number from 0 to 1, got ${JSON.stringify(opts.siteLane)}`);
  const scorer = factory(ctx);
  const explored = explore > 0 ? withExploration(scorer, ctx, explore) : scorer;
  return siteLane > 0 ? withSiteLane(explored, ctx, siteLane) : explored;
}
