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
import { CrawlGraph } from '../graph/link-graph.ts';
import { hits } from '../graph/hits.ts';
import { VectorPool } from '../graph/vector-pool.ts';
import { canonicalizer } from '../../urls/canonical.ts';
import type { CrawlItem, PageLink, ParsedPage, QueuedLink, Rescore, Scorer } from '../../types.ts';
import { anchorSimilarity } from './best-first.ts';
import type { ScorerContext } from './context.ts';

/**
 * Round and size parameters shared by the graph strategies (hits,
 * ipagerank): bounded power iteration on a capped graph, so each round costs
 * the same however long the crawl runs.
 */
export const GRAPH_DEFAULTS = {
  /** relevance at or above this makes a page relevant */
  threshold: 0.2,
  /** power iterations per round at most */
  iterations: 10,
  /** a round stops early when the L1 change of one iteration is below this */
  tol: 1e-4,
  /** 1: a round starts from the previous round's values; 0: cold start, as in the papers (for comparison) */
  warm: 1,
  /** cap on graph nodes */
  maxNodes: 50_000,
  /** cap on graph edges */
  maxEdges: 100_000,
  /** edges taken from one page at most (its first links) */
  maxOutEdges: 200,
  /**
   * new priorities handed out per round at most (2 per page of a round).
   * Each one moves a frontier entry in the store: over 15,000 synthetic
   * pages ipagerank cost 1.75× best-first's CPU at 2,000 per 100-page round
   * and 1.06× at 200, with WebKB's pages-to-recall within 1% (BENCHMARKS.md).
   * Only moves that reach the frontier head's floor count (Scorer.rescore):
   * on the synthetic web that cut ipagerank's moves by a third and its
   * CPU per page by 8% at 50,000 pages (BENCHMARKS.md, 2026-11-26)
   */
  maxRescore: 200,
  /** a queued URL is re-scored only when its value moved by more than this */
  epsilon: 1e-3,
  /**
   * edge visits per warm-started round at most: a round runs
   * min(iterations, maxWork / (edges · visits per iteration)), at least 1,
   * iterations (roundIterations); 0: off. A HITS iteration visits every
   * edge twice, an IPageRank one once, so hits keeps all 10 iterations up
   * to 25,000 edges and ipagerank up to 50,000; at the 100,000-edge cap a
   * hits round runs 2 (7.8 to 2.8 ms), and the links' structure terms stay
   * as close to HITS' fixed point as with 10 (bench/hits-convergence.ts,
   * BENCHMARKS.md): warm starts carry the iterations over from round to
   * round, and 100 pages change a capped graph little. WebKB's crawl graphs
   * stay far below (hits: 6,200 edges)
   */
  maxWork: 500_000,
} as const;

export interface GraphParams {
  p: number;
  threshold: number;
  iterations: number;
  tol: number;
  warm: boolean;
  maxNodes: number;
  maxEdges: number;
  maxOutEdges: number;
  maxRescore: number;
  epsilon: number;
  maxWork: number;
}

/**
 * Power iterations for a round over `edges` edges: all of `iterations` for
 * a cold start (from all ones, few steps are far from the fixed point),
 * otherwise at most `maxWork` edge visits, at least one iteration.
 */
export function roundIterations(params: Pick<GraphParams, 'iterations' | 'maxWork'>, edges: number, visitsPerEdge: number, warmStart: boolean): number {
  if (!warmStart || params.maxWork <= 0 || edges <= 0) return params.iterations;
  return Math.min(params.iterations, Math.max(1, Math.floor(params.maxWork / (edges * visitsPerEdge))));
}

/** Read and check the shared graph parameters (and the round length p). */
export function graphParams(num: (name: keyof typeof GRAPH_DEFAULTS | 'p', opts?: Parameters<typeof numberParam>[4]) => number): GraphParams {
  const maxNodes = num('maxNodes', { min: 10, integer: true });
  const maxEdges = num('maxEdges', { min: 10, integer: true });
  return {
    p: num('p', { min: 1, integer: true }),
    threshold: num('threshold', { min: 0, max: 1 }),
    iterations: num('iterations', { min: 1, integer: true }),
    tol: num('tol', { min: 0 }),
    warm: num('warm', { min: 0, max: 1, integer: true }) === 1,
    maxNodes,
    maxEdges,
    maxOutEdges: Math.min(num('maxOutEdges', { min: 1, integer: true }), Math.floor(maxNodes / 10), Math.floor(maxEdges / 10)),
    maxRescore: num('maxRescore', { min: 0, integer: true }),
    epsilon: num('epsilon', { min: 0 }),
    maxWork: num('maxWork', { min: 0 }),
  };
}

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

/** A number parameter from ctx.params within [min, max] (integer when asked); UsageError (FC_USAGE) otherwise. */
export function numberParam(
  ctx: ScorerContext,
  strategy: string,
  name: string,
  fallback: number,
  { min = -Infinity, max = Infinity, integer = false }: { min?: number; max?: number; integer?: boolean } = {},
): number {
  const raw = ctx.params[name];
  if (raw === undefined) return fallback;
  const v = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw new UsageError(`${strategy}: parameter ${name} must be ${integer ? 'an integer' : 'a number'} in [${min}, ${max}], got ${JSON.stringify(raw)}`);
  }
  return v;
}

/** The URLs a fetched item answered under: requested, redirect hops, final (canonical, deduplicated, requested first). */
export function itemUrls(item: CrawlItem): string[] {
  const urls = [item.entry.url, ...(item.fetch?.redirects ?? [])];
  if (item.fetch) urls.push(item.fetch.finalUrl);
  return [...new Set(urls)];
}

/**
 * `canonicalize(href)` for the links of a page, computed once per distinct
 * href of the page (pages repeat their links: navigation, "more" links).
 * For callers of linkScore that do not pass the canonical URL (sitemaps,
 * the simulation, tests); in a crawl the classify stage passes it.
 */
export function pageCanonicalizer(): (page: ParsedPage, href: string) => string | null {
  const perPage = new WeakMap<ParsedPage, (href: string) => string | null>();
  return (page, href) => {
    let canonicalOf = perPage.get(page);
    if (canonicalOf === undefined) perPage.set(page, (canonicalOf = canonicalizer()));
    return canonicalOf(href);
  };
}

/** What a link-graph scorer can tell about itself (for tests, benchmarks and logs). */
export interface GraphStats {
  /** pages observed */
  pages: number;
  /** rounds run (HITS or IPageRank power iterations) */
  rounds: number;
  /** power iterations run, over all rounds */
  iterations: number;
  /** nodes and edges held now */
  nodes: number;
  edges: number;
}

/** A Scorer that keeps a link graph. */
export interface GraphScorer extends Scorer {
  stats(): GraphStats;
}

/** Builds the `hits` scorer (params: HITS_DEFAULTS). Throws UsageError (FC_USAGE) on a bad parameter. */
export function createHitsScorer(ctx: ScorerContext): GraphScorer {
  const num = (name: keyof typeof HITS_DEFAULTS, opts?: Parameters<typeof numberParam>[4]): number =>
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
  const { p, threshold, tol, warm, maxNodes, maxEdges, maxOutEdges, maxRescore, epsilon } = params;
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
  const crawl = new CrawlGraph({ maxNodes, maxEdges }, (id) => {
    base[id] = 0;
    if (id < authority.length) {
      authority[id] = NaN;
      hub[id] = NaN;
      parentHub[id] = 0;
    }
  });
  const { graph } = crawl;
  /**
   * Sim(anchor) of the links of relevant pages by canonical URL (the largest
   * over the page's links to it: the sink queues the best-scored one),
   * computed by linkScore, reused by observe
   */
  const sims = new WeakMap<ParsedPage, Map<string, number>>();
  let pages = 0;
  let relevantPages = 0;
  let lastRound = 0;
  let rounds = 0;
  let iterationsRun = 0;
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
      pages++;
      crawl.markFetched(itemUrls(item));
      const rel = item.relevance ?? 0;
      if (item.error !== undefined || item.page === undefined || rel < threshold) {
        for (const link of links) {
          const id = graph.id(link.url);
          if (id !== undefined) crawl.queued(id, link.score);
        }
        return;
      }
      relevantPages++;
      const edges = Math.min(maxOutEdges, links.reduce((n, l) => n + (l.score >= 0 ? 1 : 0), 0));
      crawl.reserve(1 + edges, edges, evictionKey);
      const page = crawl.pageNode(itemUrls(item));
      const fresh = graph.outDegree(page) === 0; // a page's edges are added once
      const cache = sims.get(item.page);
      let taken = 0;
      for (const link of links) {
        if (link.score < 0 || taken >= edges) {
          const id = graph.id(link.url);
          if (id !== undefined) crawl.queued(id, link.score);
          continue;
        }
        taken++;
        const id = crawl.target(link.url);
        if (id === page) continue;
        const sim = cache?.get(link.url) ?? anchorSim(link.anchor, link.context);
        base[id] = Math.max(base[id], A * (rel + B * sim));
        crawl.queued(id, link.score);
        if (fresh) graph.addEdge(page, id);
      }
    },

    stats: () => ({ pages, rounds, iterations: iterationsRun, nodes: graph.size, edges: graph.edgeCount }),

    rescore(_frontier, floor = -Infinity): Rescore[] | null {
      if (pages - lastRound < p) return null;
      lastRound = pages;
      if (relevantPages < p) return null;
      active = true;
      rounds++;
      // tolMax and maxWork only from a warm start: from all ones, small steps do not yet mean near the fixed point
      const prev = warm && authority.length > 0 ? { authority, hub } : null;
      const iterations = roundIterations(params, graph.edgeCount, 2, prev !== null);
      const r = hits(graph, prev, { iterations, tol, tolMax: prev === null ? 0 : tolMax, buffers });
      iterationsRun += r.iterations;
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
      const updates = crawl.changes(fused, epsilon, maxRescore, floor);
      return updates.length > 0 ? updates : null;
    },
  };
}

/** Largest entry (0 for an empty or non-positive vector). */
function maxOf(v: Float64Array): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) if (v[i] > m) m = v[i];
  return m;
}
