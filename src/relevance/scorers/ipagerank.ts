/**
 * `ipagerank` (Li, Zhao & Yu, SkyReach, reconstructed: docs/algorithms.md#ipagerank):
 * topic-weighted PageRank over the link graph the crawl has seen.
 *
 * RW(url) = max over the words w of the link's extended metadata (anchor
 * text + link context) of sim(w, topic). Without a thesaurus, sim is:
 * 1 when the anchor holds a whole topic term (all tokens of a multi-word
 * term); 0.5 for a "near" word: a token of a multi-word term seen alone, or
 * a token learnt to co-occur with the topic; 0 otherwise. Words found only
 * in the context count `contextWeight` (0.5) times as much: the context of a
 * link in a list is its neighbours' anchors, which name their own targets,
 * not this one. Co-occurrence is
 * learnt online and bounded: the title and headings of every fetched page
 * are counted (two DocFreq tables of at most `relatedCapacity` tokens, all
 * pages and relevant pages), and a token is related when it occurs in at
 * least `relatedMinPages` relevant pages and is at least `relatedLift`
 * times more frequent in relevant pages than in all pages. With a trained
 * model (--model), RW is instead the link classifier's P(+ | anchor,
 * context).
 *
 *   IPR(A) = (1 − d) + d · Σ_{T→A} IPR(T) · RW(url_{T→A}) / Σ_{l ∈ links(T)} RW(l)
 *
 * A page whose links all have RW 0 passes no rank (`evenSplit` 1: an even
 * share to each, as plain PageRank). Both choices keep the crawl on topic: a
 * best-first-like 94% of 20,000 synthetic pages judged relevant with the
 * defaults, 79% with contextWeight 1, 91% with evenSplit 1, 45% with both
 * (BENCHMARKS.md, 2026-11-26).
 *
 * (src/relevance/graph/ipagerank.ts). The graph holds every fetched page with its
 * queued links (edge weight RW). A link's frontier priority is the IPR of
 * its target from the links seen so far: when it is found, the target's
 * IPR from the last round plus the share the current page passes it,
 * d·IPR(T)·RW/ΣRW; every `p` fetched pages a round updates IPR (warm-started
 * power iteration, at most `iterations` and `maxWork` edge visits, early
 * stop below `tol`) and
 * re-scores queued URLs whose IPR moved by more than `epsilon` (at most
 * `maxRescore`, largest changes first; a move between two priorities below
 * the frontier head's floor waits, see Scorer.rescore). Links with RW below
 * the cutoff `c` are pruned: linkScore returns -1 (the sink drops negative
 * scores) and they are not edges.
 *
 * Bounded cost: the graph is capped at `maxNodes` nodes and `maxEdges`
 * edges (`maxOutEdges` per page); when full, fetched pages without
 * out-links go first (they neither pass rank nor wait in the frontier),
 * then queued URLs by their IPR, then fetched pages with out-links by
 * their IPR. A round costs O(iterations·maxEdges + maxNodes).
 */
import { DAMPING, ipagerank } from '../graph/ipagerank.ts';
import { GRAPH_DEFAULTS, graphParams, pageCanonicalizer, PeriodicGraph, itemUrls, type GraphScorer, type NumberBounds } from '../graph/periodic.ts';
import { VectorPool } from '../graph/vector-pool.ts';
import { DocFreq } from '../text/vector.ts';
import type { CrawlItem, PageLink, ParsedPage, QueuedLink, Rescore } from '../../types.ts';
import { numberParam, type ScorerContext } from './context.ts';

/** Parameters of `ipagerank` and their defaults. */
export const IPAGERANK_DEFAULTS = {
  /** damping factor */
  d: DAMPING,
  /** links with RW below this are pruned (0: none) */
  c: 0,
  /** round length in fetched pages */
  p: 100,
  /** a related word occurs in at least this many relevant pages (title/headings) */
  relatedMinPages: 3,
  /** ... and is at least this many times more frequent in relevant pages than in all */
  relatedLift: 2,
  /** tokens remembered per co-occurrence table */
  relatedCapacity: 50_000,
  /** sim of a word found only in the link's context, relative to the anchor's (1: the same) */
  contextWeight: 0.5,
  /** 1: a page whose links all have RW 0 passes its IPR evenly over them (plain PageRank) instead of none */
  evenSplit: 0,
  ...GRAPH_DEFAULTS,
} as const;

/** sim of a near word (partial topic term or learnt related token). */
const NEAR = 0.5;

interface PageState {
  /** IPR of the page itself when it was judged */
  rank: number;
  /** RW of each of the page's links */
  rw: Map<PageLink, number>;
  /**
   * the largest RW of the page's links to each canonical URL (the sink
   * queues the best-scored link, and the score grows with RW): the edge
   * weight observe gives the queued link
   */
  best: Map<string, number>;
  /** Σ RW over the page's followable, unpruned links (computed on first use) */
  sum: number;
  count: number;
}

/** Builds the `ipagerank` scorer (params: IPAGERANK_DEFAULTS). Throws UsageError (FC_USAGE) on a bad parameter. */
export function createIPageRankScorer(ctx: ScorerContext): GraphScorer {
  const num = (name: keyof typeof IPAGERANK_DEFAULTS, opts?: NumberBounds): number =>
    numberParam(ctx, 'ipagerank', name, IPAGERANK_DEFAULTS[name], opts);
  const d = num('d', { min: 0.01, max: 0.99 });
  const c = num('c', { min: 0, max: 1 });
  const params = graphParams(num);
  const { threshold, tol, warm } = params;
  const relatedMinPages = num('relatedMinPages', { min: 1 });
  const relatedLift = num('relatedLift', { min: 1 });
  const relatedCapacity = num('relatedCapacity', { min: 1, integer: true });
  const contextWeight = num('contextWeight', { min: 0, max: 1 });
  const evenSplit = num('evenSplit', { min: 0, max: 1, integer: true }) === 1;

  const fresh = 1 - d;
  let rank: Float64Array = new Float64Array(0);
  /** the vectors of a round, reused by the next */
  const buffers = new VectorPool();
  const periodic = new PeriodicGraph(params, (id) => {
    if (id < rank.length) rank[id] = NaN;
  });
  const { crawl, graph } = periodic;
  const rankOf = (id: number): number => (id < rank.length && rank[id] >= 0 ? rank[id] : fresh);
  /** Lower goes first: fetched leaves, then queued URLs by IPR, then pages with out-links by IPR. */
  const evictionKey = (id: number): number => {
    if (graph.outDegree(id) > 0) return 1e9 + rankOf(id);
    return crawl.fetched[id] === 1 ? -1 : rankOf(id);
  };

  const topicTerms = ctx.topic.termTokens;
  const allTitles = new DocFreq(relatedCapacity);
  const relevantTitles = new DocFreq(relatedCapacity);
  const related = (w: string): boolean => {
    const r = relevantTitles.df(w);
    return r >= relatedMinPages && r * allTitles.documents >= relatedLift * allTitles.df(w) * relevantTitles.documents;
  };
  const relevanceWeight = (anchor: string, context: string): number => {
    if (ctx.model !== null) return ctx.model.linkProbability(anchor, context);
    const words = new Set(ctx.topic.tokens(anchor));
    const inAnchor = wordsWeight(words);
    if (inAnchor === 1 || contextWeight === 0) return inAnchor;
    for (const w of ctx.topic.tokens(context)) words.add(w);
    return Math.max(inAnchor, contextWeight * wordsWeight(words));
  };
  /** sim of the best word of `words` (1: a whole topic term, NEAR: a near word, else 0) */
  const wordsWeight = (words: ReadonlySet<string>): number => {
    let best = 0;
    for (const term of topicTerms) {
      let present = 0;
      for (const t of term) if (words.has(t)) present++;
      if (present === term.length) return 1;
      if (present > 0) best = NEAR;
    }
    if (best === 0) for (const w of words) if (related(w)) return NEAR;
    return best;
  };

  const states = new WeakMap<ParsedPage, PageState>();
  const stateOf = (page: ParsedPage): PageState => {
    let st = states.get(page);
    if (st === undefined) states.set(page, (st = { rank: fresh, rw: new Map(), best: new Map(), sum: -1, count: 0 }));
    return st;
  };
  const rwOf = (st: PageState, link: PageLink): number => {
    let rw = st.rw.get(link);
    if (rw === undefined) st.rw.set(link, (rw = relevanceWeight(link.anchor, link.context)));
    return rw;
  };

  const canonicalOf = pageCanonicalizer();

  return {
    name: 'ipagerank',

    pageRelevance(page: ParsedPage, item: CrawlItem): number {
      const st = stateOf(page);
      for (const url of itemUrls(item)) {
        const id = graph.id(url);
        if (id !== undefined) {
          st.rank = rankOf(id);
          break;
        }
      }
      return ctx.judge(page);
    },

    linkScore(link: PageLink, page: ParsedPage, _pageRelevance: number, canonical?: string): number {
      const st = stateOf(page);
      const rw = rwOf(st, link);
      if (rw < c) return -1;
      if (st.sum < 0) {
        st.sum = 0;
        for (const l of page.links) {
          if (l.nofollow) continue;
          const w = rwOf(st, l);
          if (w < c) continue;
          st.sum += w;
          st.count++;
        }
      }
      const share = st.sum > 0 ? rw / st.sum : evenSplit ? 1 / Math.max(1, st.count) : 0;
      const url = canonical ?? canonicalOf(page, link.url);
      if (url === null) return fresh + d * st.rank * share;
      if (!(st.best.get(url)! >= rw)) st.best.set(url, rw);
      const id = graph.id(url);
      return (id === undefined ? fresh : rankOf(id)) + d * st.rank * share;
    },

    observe(item: CrawlItem, links: readonly QueuedLink[]): void {
      const urls = periodic.observed(item);
      const page = item.page;
      if (page !== undefined) {
        const words = ctx.topic.tokens(`${page.blocks.title || page.title}\n${page.blocks.heading}`);
        allTitles.addDocument(words);
        if ((item.relevance ?? 0) >= threshold) relevantTitles.addDocument(words);
      }
      const edges = item.error === undefined && page !== undefined ? periodic.edgeCount(links) : 0;
      if (edges === 0) {
        periodic.queuedOnly(links);
        return;
      }
      const st = stateOf(page!);
      periodic.addPage(urls, links, edges, evictionKey, undefined, (link) => st.best.get(link.url) ?? relevanceWeight(link.anchor, link.context));
    },

    stats: () => periodic.stats(),

    rescore(_frontier, floor = -Infinity): Rescore[] | null {
      if (!periodic.due()) return null;
      const prev = warm && rank.length > 0 ? rank : null;
      const r = ipagerank(graph, prev, { damping: d, iterations: periodic.roundIterations(1, prev !== null), tol, buffers, evenSplit });
      rank = r.rank;
      return periodic.finishRound(r.iterations, rankOf, floor);
    },
  };
}
