/**
 * `online` (beyond the papers, as in ACHE): the link classifier learns from
 * the crawl's own outcomes. Every fetched page whose discovering link had an
 * anchor or context becomes a training example for that link context:
 * positive when the page turned out relevant (by the shared judge). Every
 * `retrain` pages (default 100) a Bernoulli Naive Bayes is trained on the
 * most recent examples (at most `maxExamples`, default 5000), and the best
 * `rescoreTop` queued URLs (default 2000) are re-scored with it. Its
 * features are those of link feature group `group` (default 4: anchor and
 * context words, the target URL's words and flags, the parent page's title;
 * 2 is seed 000's group; see learn/features.ts), so with group 3 or 4 a
 * link without anchor text still teaches its URL; the classifier is
 * class-balanced unless `balanced` is 0 (BernoulliNBOptions.balanced).
 *
 * Before it has learnt anything it scores links with its starting model: the
 * trained link classifier of --model when given, else the keyword model
 * (best-first's Sim(P) + Sim(anchor), halved to 0..1). After that a link's
 * score blends both, weighting the online classifier by how much it has
 * seen: (n·P_online + m·P_start) / (n + m), n = examples, m = `priorWeight`
 * (default 50). Scores stay probabilities, so old and new ones compare.
 */
import { BernoulliNB } from '../learn/bernoulli-nb.ts';
import { isFeatureGroup, linkFeatures, type FeatureGroup } from '../learn/features.ts';
import { UsageError } from '../errors.ts';
import { Lru } from '../lru.ts';
import type { CrawlItem, FrontierEntry, PageLink, Rescore, Scorer } from '../types.ts';
import { bestFirstScore, anchorSimilarity } from './best-first.ts';
import type { ScorerContext } from './context.ts';

/** Link feature group of the online classifier when the `group` parameter is not given. */
export const DEFAULT_ONLINE_GROUP: FeatureGroup = 4;
/** Titles of fetched pages kept for the parent-title features (group 4); older ones are forgotten. */
const TITLE_CACHE = 100_000;

function num(v: number | string | undefined, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;
}

export function createOnlineScorer(ctx: ScorerContext): Scorer {
  const retrain = Math.max(1, num(ctx.params.retrain, 100));
  const maxExamples = Math.max(10, num(ctx.params.maxExamples, 5000));
  const rescoreTop = num(ctx.params.rescoreTop, 2000);
  const priorWeight = num(ctx.params.priorWeight, 50);
  const threshold = num(ctx.params.threshold, 0.2);
  const group = ctx.params.group === undefined ? DEFAULT_ONLINE_GROUP : ctx.params.group;
  if (!isFeatureGroup(group)) throw new UsageError(`online: param group must be 1, 2, 3 or 4, got ${JSON.stringify(group)}`);
  const balanced = num(ctx.params.balanced, 1) !== 0;
  const domainTerms = new Set(ctx.topic.termTokens.flat());
  const examples: Array<{ features: string[]; label: 0 | 1 }> = [];
  /** titles of fetched pages, by final URL: the parent-title features of the links queued from them */
  const titles = new Lru<string, string>(TITLE_CACHE);
  const features = (anchor: string, context: string, url: string, parentUrl: string | undefined, parentTitle: string | undefined): string[] =>
    linkFeatures(anchor, context, { group: group as FeatureGroup, domainTerms, url, parentUrl, parentTitle });
  let classifier: BernoulliNB | null = null;
  let trainedOn = 0;
  let sinceTraining = 0;

  const start = (anchor: string, context: string, url: string, parentUrl: string | undefined, parentTitle: string | undefined, pageRelevance: number): number =>
    ctx.model !== null
      ? ctx.model.linkProbability(anchor, context, url, { url: parentUrl, title: parentTitle })
      : Math.min(1, (Math.max(0, pageRelevance) + anchorSimilarity(ctx.topic, anchor, context)) / 2);

  const score = (anchor: string, context: string, url: string, parentUrl: string | undefined, parentTitle: string | undefined, pageRelevance: number): number => {
    const prior = start(anchor, context, url, parentUrl, parentTitle, pageRelevance);
    if (classifier === null) return prior;
    const p = classifier.probability(features(anchor, context, url, parentUrl, parentTitle));
    return (trainedOn * p + priorWeight * prior) / (trainedOn + priorWeight);
  };

  return {
    name: 'online',
    readsQueuedText: true, // rescore re-reads anchor and context of queued entries
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link: PageLink, page, pageRelevance) =>
      ctx.model === null && classifier === null
        ? bestFirstScore(ctx, link, pageRelevance) / 2
        : score(link.anchor, link.context, link.url, page.base, page.title, pageRelevance),
    observe(item: CrawlItem): void {
      if (item.page !== undefined && group === 4) titles.set(item.fetch?.finalUrl ?? item.entry.url, item.page.title);
      const { anchor = '', context = '', url, parent } = item.entry;
      if (item.page === undefined || (anchor === '' && context === '' && group < 3)) return;
      const label = (item.relevance ?? 0) >= threshold ? 1 : 0;
      const parentTitle = parent === null || group !== 4 ? undefined : titles.peek(parent);
      examples.push({ features: features(anchor, context, url, parent ?? undefined, parentTitle), label });
      if (examples.length > maxExamples) examples.splice(0, examples.length - maxExamples);
      sinceTraining++;
    },
    async rescore(frontier: () => AsyncIterable<FrontierEntry>): Promise<Rescore[] | null> {
      if (sinceTraining < retrain) return null;
      const positives = examples.reduce((n, e) => n + e.label, 0);
      if (positives < 2 || examples.length - positives < 2) return null; // nothing to tell apart yet
      sinceTraining = 0;
      classifier = BernoulliNB.train(examples, { minCount: 1, balanced });
      trainedOn = examples.length;
      const updates: Rescore[] = [];
      let seen = 0;
      for await (const entry of frontier()) {
        if (seen++ >= rescoreTop) break;
        // the parent's relevance is not stored with the entry: the online
        // classifier and the link's own text decide
        const parentTitle = entry.parent === null || group !== 4 ? undefined : titles.peek(entry.parent);
        updates.push({ url: entry.url, score: score(entry.anchor ?? '', entry.context ?? '', entry.url, entry.parent ?? undefined, parentTitle, 0) });
      }
      return updates;
    },
  };
}
