/**
 * `hits` (Liu & Li 2017 eq. 2, reconstructed: docs/algorithms.md#hits): Best-First fused
 * with HITS,
 *
 *   LinkScore(i) = A·(Sim(P) + B·Sim(anchor_i)) + C·(α·Authority(i) + β·Hub(i))
 *
 * with A + B + C = 1 and β < α. Sim(P) is the parent page's relevance (the
 * shared judge); Sim(anchor_i) is best-first's anchor similarity (anchor +
 * ½ context), or the trained link classifier's P(+ | anchor, context) when
 * a model is given.
 *
 * The graph (Liu & Li 2017): nodes are relevant fetched pages and the links they
 * point to; an edge parent → child is added only from a page whose
 * relevance is at or above the threshold. Every `p` fetched pages, once at
 * least `p` pages were relevant, a HITS round runs and queued URLs are
 * re-scored; before that (early in the crawl) links are scored with eq. 1,
 * Sim(P) + Sim(anchor_i), scaled by A so that its scores compare with
 * eq. 2's (a positive factor keeps eq. 1's order).
 *
 * Reconstructed readings, stated:
 * - Authority(i) and Hub(i) are divided by their maximum over the graph:
 *   L2-normalised values shrink like 1/sqrt(n) as the graph grows, which
 *   would make C's term vanish in a long crawl.
 * - A queued URL has no out-links of its own, so its own hub score is
 *   always 0; Hub(i) is read as the hub score of the best hub known to link
 *   to it (the link's source side: good hubs point to good authorities).
 *
 * Bounded cost (the paper's open problem: its HITS made the crawl slower
 * and slower): each round is a warm-started power iteration (from the
 * previous round's vectors, at most `iterations`, stopping early below
 * `tol`) over a graph capped at `maxNodes` nodes and `maxEdges` edges (at
 * most `maxOutEdges` from one page), and hands out at most `maxRescore`
 * new priorities (the largest changes above `epsilon`, among queued URLs
 * whose old or new priority reaches the frontier head's floor: a move
 * below it waits until the head is loaded down to it). A round therefore
 * costs O(iterations·maxEdges + maxNodes) however long the crawl. When the
 * graph is full, the least useful nodes go first: fetched pages without
 * out-edges by their authority, then queued URLs by their current fused
 * score; pages with out-edges (the hubs) only when needed, weakest hub
 * first (see `evictionKey`). Their frontier entries keep the score they
 * have.
 */
import { UsageError } from '../../errors.ts';
import { hits } from '../graph/hits.ts';
import { GRAPH_DEFAULTS, graphParams, pageCanonicalizer, PeriodicGraph, type GraphScorer, type NumberBounds } from '../graph/periodic.ts';
import { VectorPool } from '../graph/vector-pool.ts';
import type { CrawlItem, PageLink, ParsedPage, QueuedLink, Rescore } from '../../types.ts';
import { anchorSimilarity } from './best-first.ts';
import { numberParam, type ScorerContext } from './context.ts';

/** Parameters of `hits` and their defaults. */
export const HITS_DEFAULTS = {
  /** weight of the text part (A + B + C = 1) */
  A: 0.4,
  /** weight of the anchor similarity inside the text part */
  B: 0.3,
  /** weight of the link-structure part */
  C: 0.3,
  /** weight of Authority(i) (alpha > beta) */
  alpha: 0.7,
  /** weight of Hub(i) */
  beta: 0.3,
  /** round length in fetched pages; also the number of relevant pages before HITS starts */
  p: 100,
  /**
   * a warm-started round also stops once no authority or hub value,
   * divided by the largest, moved by more than this in one iteration (0:
   * off); a cold start runs to `tol` or `iterations`. Off by default: 1e-3
   * made a round at 48,000 nodes a third as costly (bench/graph-bench.ts,
   * 6.4 to 2.2 ms) with WebKB's pages to 80% unchanged, but the early
   * harvest fell (student harvest@200 26% to 19%, faculty harvest@500 14%
   * to 8%), and 1e-4 did the same: small steps early in a crawl do not
   * mean the vectors are near their fixed point
   */
  tolMax: 0,
  ...GRAPH_DEFAULTS,
} as const;

/** Builds the `hits` scorer (params: HITS_DEFAULTS). Throws UsageError (FC_USAGE) on a bad parameter. */
export function createHitsScorer(ctx: ScorerContext): GraphScorer {
  const num = (name: keyof typeof HITS_DEFAULTS, opts?: NumberBounds): number =>
    numberParam(ctx, 'hits', name, HITS_DEFAULTS[name], opts);
  const unit = { min: 0, max: 1 };
  const A = num('A', unit);
  const B = num('B', unit);
  const C = num('C', unit);
  if (Math.abs(A + B + C - 1) > 1e-6) throw new UsageError(`hits: parameters A + B + C must be 1, got ${A} + ${B} + ${C}`);
  const alpha = num('alpha', { min: 0 });
  const beta = num('beta', { min: 0 });
  if (!(beta < alpha)) throw new UsageError(`hits: parameter beta must be below alpha, got alpha ${alpha}, beta ${beta}`);
  const params = graphParams(num);
  const { p, threshold, tol, warm, maxNodes } = params;
  const tolMax = num('tolMax', { min: 0 });

  let authority: Float64Array = new Float64Array(0);
  let hub: Float64Array = new Float64Array(0);
  /** best hub (normalised) linking to each node, from the last round */
  let parentHub = new Float64Array(0);
  let maxAuthority = 0;
  let maxHub = 0;
  /** the vectors of a round, reused by the next */
  const buffers = new VectorPool();
  /** A·(Sim(P) + B·Sim(anchor)), max over the relevant pages linking to the node */
  const base = new Float64Array(maxNodes);
  const periodic = new PeriodicGraph(params, (id) => {
    base[id] = 0;
    if (id < authority.length) {
      authority[id] = NaN;
      hub[id] = NaN;
      parentHub[id] = 0;
    }
  });
  const { crawl, graph } = periodic;
  /**
   * Sim(anchor) of the links of relevant pages by canonical URL (the largest
   * over the page's links to it: the sink queues the best-scored one),
   * computed by linkScore, reused by observe
   */
  const sims = new WeakMap<ParsedPage, Map<string, number>>();
  let relevantPages = 0;
  let active = false;

  const anchorSim = (anchor: string, context: string): number =>
    ctx.model !== null ? ctx.model.linkProbability(anchor, context) : anchorSimilarity(ctx.topic, anchor, context);
  const normAuthority = (id: number): number => (id < authority.length && authority[id] > 0 ? authority[id] / maxAuthority : 0);
  const normParentHub = (id: number): number => (id < parentHub.length && parentHub[id] > 0 ? parentHub[id] / maxHub : 0);
  const fused = (id: number): number => base[id] + C * (alpha * normAuthority(id) + beta * normParentHub(id));
  /** Lower goes first: fetched leaves (by authority), then queued URLs (by fused score), then hubs (by hub score). */
  const evictionKey = (id: number): number => {
    if (graph.outDegree(id) > 0) return 10 + (id < hub.length && hub[id] > 0 ? hub[id] / maxHub : 0);
    if (crawl.fetched[id] === 1) return C * alpha * normAuthority(id);
    return fused(id);
  };

  const canonicalOf = pageCanonicalizer();

  return {
    name: 'hits',
    pageRelevance: (page) => ctx.judge(page),

    linkScore(link: PageLink, page: ParsedPage, pageRelevance: number, canonical?: string): number {
      const rel = Number.isFinite(pageRelevance) ? Math.max(0, pageRelevance) : 0;
      const sim = anchorSim(link.anchor, link.context);
      const url = rel >= threshold || active ? canonical ?? canonicalOf(page, link.url) : null;
      if (rel >= threshold && url !== null) {
        let cache = sims.get(page);
        if (cache === undefined) sims.set(page, (cache = new Map()));
        if (!(cache.get(url)! >= sim)) cache.set(url, sim);
      }
      if (!active) return A * (rel + sim);
      const id = url === null ? undefined : graph.id(url);
      const structure = id === undefined ? 0 : alpha * normAuthority(id) + beta * normParentHub(id);
      return A * (rel + B * sim) + C * structure;
    },

    observe(item: CrawlItem, links: readonly QueuedLink[]): void {
      const urls = periodic.observed(item);
      const rel = item.relevance ?? 0;
      if (item.error !== undefined || item.page === undefined || rel < threshold) {
        periodic.queuedOnly(links);
        return;
      }
      relevantPages++;
      const cache = sims.get(item.page);
      periodic.addPage(urls, links, periodic.edgeCount(links), evictionKey, (id, link) => {
        const sim = cache?.get(link.url) ?? anchorSim(link.anchor, link.context);
        base[id] = Math.max(base[id], A * (rel + B * sim));
      });
    },

    stats: () => periodic.stats(),

    rescore(_frontier, floor = -Infinity): Rescore[] | null {
      if (!periodic.due() || relevantPages < p) return null;
      active = true;
      // tolMax and maxWork only from a warm start: from all ones, small steps do not yet mean near the fixed point
      const prev = warm && authority.length > 0 ? { authority, hub } : null;
      const r = hits(graph, prev, { iterations: periodic.roundIterations(2, prev !== null), tol, tolMax: prev === null ? 0 : tolMax, buffers });
      authority = r.authority;
      hub = r.hub;
      if (parentHub.length === authority.length) parentHub.fill(0);
      else parentHub = new Float64Array(authority.length);
      for (let e = 0; e < graph.edgeCount; e++) {
        const h = hub[graph.src[e]];
        const d = graph.dst[e];
        if (h > parentHub[d]) parentHub[d] = h;
      }
      maxAuthority = maxOf(authority);
      maxHub = maxOf(hub);
      return periodic.finishRound(r.iterations, fused, floor);
    },
  };
}

/** Largest entry (0 for an empty or non-positive vector). */
function maxOf(v: Float64Array): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) if (v[i] > m) m = v[i];
  return m;
}
