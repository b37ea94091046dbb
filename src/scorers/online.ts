/**
 * `online` (beyond the papers, as in ACHE): the link classifier learns from
 * the crawl's own outcomes. Every fetched page whose discovering link had an
 * anchor or context becomes a training example for that link context:
 * positive when the page turned out relevant (by the shared judge). Every
 * `retrain` pages (default 100) a Bernoulli Naive Bayes over seed 000's
 * group-2 features is trained on the most recent examples (at most
 * `maxExamples`, default 5000), and the best `rescoreTop` queued URLs
 * (default 2000) are re-scored with it.
 *
 * Before it has learnt anything it scores links with its starting model: the
 * trained link classifier of --model when given, else the keyword model
 * (best-first's Sim(P) + Sim(anchor), halved to 0..1). After that a link's
 * score blends both, weighting the online classifier by how much it has
 * seen: (n·P_online + m·P_start) / (n + m), n = examples, m = `priorWeight`
 * (default 50). Scores stay probabilities, so old and new ones compare.
 */
import { BernoulliNB } from '../learn/bernoulli-nb.ts';
import { linkFeatures } from '../learn/features.ts';
import type { CrawlItem, FrontierEntry, PageLink, Rescore, Scorer } from '../types.ts';
import { bestFirstScore, anchorSimilarity } from './best-first.ts';
import type { ScorerContext } from './context.ts';

function num(v: number | string | undefined, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;
}

export function createOnlineScorer(ctx: ScorerContext): Scorer {
  const retrain = Math.max(1, num(ctx.params.retrain, 100));
  const maxExamples = Math.max(10, num(ctx.params.maxExamples, 5000));
  const rescoreTop = num(ctx.params.rescoreTop, 2000);
  const priorWeight = num(ctx.params.priorWeight, 50);
  const threshold = num(ctx.params.threshold, 0.2);
  const domainTerms = new Set(ctx.topic.termTokens.flat());
  const examples: Array<{ features: string[]; label: 0 | 1 }> = [];
  let classifier: BernoulliNB | null = null;
  let trainedOn = 0;
  let sinceTraining = 0;

  const start = (anchor: string, context: string, pageRelevance: number): number =>
    ctx.model !== null
      ? ctx.model.linkProbability(anchor, context)
      : Math.min(1, (Math.max(0, pageRelevance) + anchorSimilarity(ctx.topic, anchor, context)) / 2);

  const score = (anchor: string, context: string, pageRelevance: number): number => {
    const prior = start(anchor, context, pageRelevance);
    if (classifier === null) return prior;
    const p = classifier.probability(linkFeatures(anchor, context, { group: 2, domainTerms }));
    return (trainedOn * p + priorWeight * prior) / (trainedOn + priorWeight);
  };

  return {
    name: 'online',
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link: PageLink, _page, pageRelevance) =>
      ctx.model === null && classifier === null ? bestFirstScore(ctx, link, pageRelevance) / 2 : score(link.anchor, link.context, pageRelevance),
    observe(item: CrawlItem): void {
      const { anchor = '', context = '' } = item.entry;
      if (item.page === undefined || (anchor === '' && context === '')) return;
      const label = (item.relevance ?? 0) >= threshold ? 1 : 0;
      examples.push({ features: linkFeatures(anchor, context, { group: 2, domainTerms }), label });
      if (examples.length > maxExamples) examples.splice(0, examples.length - maxExamples);
      sinceTraining++;
    },
    async rescore(frontier: () => AsyncIterable<FrontierEntry>): Promise<Rescore[] | null> {
      if (sinceTraining < retrain) return null;
      const positives = examples.reduce((n, e) => n + e.label, 0);
      if (positives < 2 || examples.length - positives < 2) return null; // nothing to tell apart yet
      sinceTraining = 0;
      classifier = BernoulliNB.train(examples, { minCount: 1 });
      trainedOn = examples.length;
      const updates: Rescore[] = [];
      let seen = 0;
      for await (const entry of frontier()) {
        if (seen++ >= rescoreTop) break;
        // the parent's relevance is not stored with the entry: the online
        // classifier and the link's own text decide
        updates.push({ url: entry.url, score: score(entry.anchor ?? '', entry.context ?? '', 0) });
      }
      return updates;
    },
  };
}
