/**
 * `best-n-first` (Liu & Li 2017's baseline, docs/algorithms.md#best-n-first): links are scored as in best-first,
 * but the crawl proceeds in rounds: the N best queued URLs are taken
 * together and fetched before any link found in the round can be taken.
 * The round size is the `roundSize` parameter (default 10); the frontier
 * source enforces the rounds (src/stages/frontier-source.ts).
 */
import type { Scorer } from '../../types.ts';
import { bestFirstScore } from './best-first.ts';
import type { ScorerContext } from './context.ts';

export const DEFAULT_ROUND_SIZE = 10;

export function createBestNFirstScorer(ctx: ScorerContext): Scorer {
  return {
    name: 'best-n-first',
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link, page, pageRelevance) => bestFirstScore(ctx, link, pageRelevance, page),
  };
}
