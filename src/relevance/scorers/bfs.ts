/**
 * `bfs`: breadth-first. Every link scores 0, so the frontier (FIFO among
 * equal scores) is a plain queue; pages are still judged by the shared
 * relevance judge so the output is comparable across strategies.
 */
import type { ScorerContext } from './context.ts';
import type { Scorer } from '../../types.ts';

export function createBfsScorer(ctx: ScorerContext): Scorer {
  return {
    name: 'bfs',
    pageRelevance: (page) => ctx.judge(page),
    linkScore: () => 0,
  };
}
