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
 * 2 is Han et al.'s group, docs/algorithms.md#nb-link; see learn/features.ts), so with group 3 or 4 a
 * link without anchor text still teaches its URL; the classifier is
 * class-balanced unless `balanced` is 0 (BernoulliNBOptions.balanced).
 *
 * A link pays off when it leads to a relevant page within a few links, not
 * only when its own target is relevant: with `hubs` h (default 2), a
 * relevant page also makes positive examples of the link its parent was
 * found through and, up to h levels up, the links before that (each link
 * credited once). These are the layers of a context graph (Diligenti et al.,
 * 2000), learnt from the crawl's own outcomes on the web being crawled; a
 * classifier trained offline for them ranked them poorly (RESULTS.md). On
 * WebKB (real crawls, 2026-11-26, medians of 3–5 runs) h = 2 needed 1,320
 * pages to 80% of the faculty pages against 1,534 with h = 0; course and
 * student did not change beyond the run-to-run spread. Its features include
 * whether the link's page is relevant (group 4), as nb-link's do.
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
import { UsageError } from '../../errors.ts';
import { Lru } from '../../util/lru.ts';
import type { CrawlItem, FrontierEntry, PageLink, Rescore, Scorer } from '../../types.ts';
import { bestFirstScore, anchorSimilarity } from './best-first.ts';
import type { ScorerContext } from './context.ts';
import { PARENT_RELEVANT_AT } from './nb-link.ts';

/**
 * Levels of in-crawl hub labels when the `hubs` parameter is not given: a
 * relevant page also makes the link its parent was found through a
 * positive example, and the link before that (context graphs, Diligenti et
 * al. 2000, learnt from the crawl's own outcomes). See the module doc.
 */
export const DEFAULT_ONLINE_HUBS = 2;
/** Link feature group of the online classifier when the `group` parameter is not given. */
export const DEFAULT_ONLINE_GROUP: FeatureGroup = 4;
/** Fetched pages remembered for the parent features of their links (title, relevance); older ones are forgotten. */
const TITLE_CACHE = 100_000;

/** What a link's features know of the page it is on. */
interface Parent {
  url?: string;
  title?: string;
  relevant?: boolean;
}

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
  const hubs = Math.floor(num(ctx.params.hubs, DEFAULT_ONLINE_HUBS));
  /**
   * with `hubs`: the link each recent page was found through (its features)
   * and that page's parent, until a relevant descendant credits it. As many
   * as the examples kept (`maxExamples`): the feature arrays are the
   * examples' own, so remembering them costs no more memory
   */
  const foundThrough = new Lru<string, { features: string[]; parent: string | null; credited: boolean }>(maxExamples);
  const domainTerms = new Set(ctx.topic.termTokens.flat());
  const examples: Array<{ features: string[]; label: 0 | 1 }> = [];
  /** a page counts as relevant for the parent flag of the link features as nb-link counts it (with a model) */
  const relevantAt = ctx.model !== null ? PARENT_RELEVANT_AT : threshold;
  /** fetched pages by URL: the title and relevance of the parent of the links queued from them */
  const fetchedPages = new Lru<string, { title: string; relevant: boolean }>(TITLE_CACHE);
  const parentOf = (url: string | null): Parent => {
    if (url === null) return {};
    const p = fetchedPages.peek(url);
    return { url, title: p?.title, relevant: p?.relevant };
  };
  const features = (anchor: string, context: string, url: string, parent: Parent): string[] =>
    linkFeatures(anchor, context, { group: group as FeatureGroup, domainTerms, url, parentUrl: parent.url, parentTitle: parent.title, parentRelevant: parent.relevant });
  let classifier: BernoulliNB | null = null;
  let trainedOn = 0;
  let sinceTraining = 0;

  const start = (anchor: string, context: string, url: string, parent: Parent, pageRelevance: number): number =>
    ctx.model !== null
      ? ctx.model.linkProbability(anchor, context, url, parent)
      : Math.min(1, (Math.max(0, pageRelevance) + anchorSimilarity(ctx.topic, anchor, context)) / 2);

  const score = (anchor: string, context: string, url: string, parent: Parent, pageRelevance: number): number => {
    const prior = start(anchor, context, url, parent, pageRelevance);
    if (classifier === null) return prior;
    const p = classifier.probability(features(anchor, context, url, parent));
    return (trainedOn * p + priorWeight * prior) / (trainedOn + priorWeight);
  };

  return {
    name: 'online',
    readsQueuedText: true, // rescore re-reads anchor and context of queued entries
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link: PageLink, page, pageRelevance) =>
      ctx.model === null && classifier === null
        ? bestFirstScore(ctx, link, pageRelevance, page) / 2
        : score(link.anchor, link.context, link.url, { url: page.base, title: page.title, relevant: pageRelevance >= relevantAt }, pageRelevance),
    observe(item: CrawlItem): void {
      if (item.page !== undefined) {
        const seen = { title: item.page.title, relevant: (item.relevance ?? 0) >= relevantAt };
        fetchedPages.set(item.entry.url, seen);
        if (item.fetch !== undefined && item.fetch.finalUrl !== item.entry.url) fetchedPages.set(item.fetch.finalUrl, seen);
      }
      const { anchor = '', context = '', url, parent } = item.entry;
      if (item.page === undefined || (anchor === '' && context === '' && group < 3)) return;
      const label = (item.relevance ?? 0) >= threshold ? 1 : 0;
      const f = features(anchor, context, url, parentOf(parent));
      examples.push({ features: f, label });
      if (hubs > 0) {
        // by the URL requested and the one that answered: a link's parent is the latter (the sink's linksToQueue)
        const through = { features: f, parent, credited: false };
        foundThrough.set(url, through);
        if (item.fetch !== undefined && item.fetch.finalUrl !== url) foundThrough.set(item.fetch.finalUrl, through);
        // the links that led to a relevant page's parent (and up to `hubs`
        // levels above) lead to relevant pages too: each credited once
        let up = label === 1 ? parent : null;
        for (let level = 0; level < hubs && up !== null; level++) {
          const link = foundThrough.peek(up);
          if (link === undefined || link.credited) break;
          examples.push({ features: link.features, label: 1 });
          link.credited = true;
          up = link.parent;
        }
      }
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
        // the parent's title and relevance as remembered (fetchedPages);
        // the keyword start model gets no page relevance
        updates.push({ url: entry.url, score: score(entry.anchor ?? '', entry.context ?? '', entry.url, parentOf(entry.parent), 0) });
      }
      return updates;
    },
  };
}
