/**
 * Strategy registry. Every strategy is a Scorer (src/types.ts) built over a
 * TopicModel, so they all share one page-relevance judge; a strategy differs
 * only in how it scores links. Add a strategy by adding its factory here.
 */
import { UsageError } from '../errors.ts';
import type { Segmenter } from '../text/segmenter.ts';
import { TopicModel } from '../topic.ts';
import type { Scorer, Topic } from '../types.ts';
import { createBestFirstScorer } from './best-first.ts';
import { createBfsScorer } from './bfs.ts';

/** Builds a strategy's scorer over the shared topic model. */
export type ScorerFactory = (model: TopicModel) => Scorer;

export interface ScorerOptions {
  /** Han segmenter (default node-rs jieba) */
  segmenter?: Segmenter;
}

const FACTORIES: Record<string, ScorerFactory> = {
  bfs: createBfsScorer,
  'best-first': createBestFirstScorer,
};

/** Names accepted by createScorer(), in registry order. */
export function knownStrategies(): string[] {
  return Object.keys(FACTORIES);
}

/**
 * The scorer of strategy `name` for `topic`. Throws UsageError (FC_USAGE)
 * listing the known strategies for an unknown name (checked before anything
 * is built), TopicError (FC_BAD_TOPIC) when the topic has no indexable term.
 * Each call builds a fresh TopicModel (its own IDF table).
 */
export function createScorer(name: string, topic: Topic, opts: ScorerOptions = {}): Scorer {
  const factory = Object.hasOwn(FACTORIES, name) ? FACTORIES[name] : undefined;
  if (!factory) {
    throw new UsageError(`unknown strategy '${name}' (known: ${knownStrategies().join(', ')})`);
  }
  return factory(new TopicModel(topic, { segmenter: opts.segmenter }));
}
