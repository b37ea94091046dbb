/**
 * `bfs`: breadth-first. Every link scores 0, so the frontier (FIFO among
 * equal scores) is a plain queue; pages are still judged by the shared
 * relevance judge so the output is comparable across strategies.
 */
import type { TopicModel } from '../topic.ts';
import type { CrawlItem, PageLink, ParsedPage, Scorer } from '../types.ts';

/** Breadth-first scorer over `model` (which judges page relevance). */
export function createBfsScorer(model: TopicModel): Scorer {
  return {
    name: 'bfs',
    pageRelevance(page: ParsedPage, _item: CrawlItem): number {
      return model.judge(page);
    },
    linkScore(_link: PageLink, _page: ParsedPage, _pageRelevance: number): number {
      return 0;
    },
  };
}
