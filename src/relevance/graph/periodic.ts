/**
 * What the link-graph strategies (hits, ipagerank) share: their round and
 * size parameters, and a capped crawl graph (CrawlGraph) that counts
 * fetched pages, adds a page's links as edges, and every `p` pages runs a
 * round (the caller's power iteration) and hands out the queued URLs'
 * changed priorities. Each strategy keeps only its own algorithm: what a
 * node's value is, how a link is scored, what goes first when the graph is
 * full.
 */
import { canonicalizer } from '../../urls/canonical.ts';
import type { CrawlItem, ParsedPage, QueuedLink, Rescore, Scorer } from '../../types.ts';
import { CrawlGraph, type LinkGraph } from './link-graph.ts';

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

/** Bounds of a number parameter (numberParam). */
export interface NumberBounds {
  min?: number;
  max?: number;
  integer?: boolean;
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
export function graphParams(num: (name: keyof typeof GRAPH_DEFAULTS | 'p', opts?: NumberBounds) => number): GraphParams {
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

/**
 * A capped crawl graph with periodic rounds. The owner calls `observed` for
 * every fetched item, then `addPage` (or `queuedOnly`) with its queued
 * links; in rescore, `due()` says whether `p` pages passed since the last
 * round, and `finishRound` hands out the changed priorities.
 */
export class PeriodicGraph {
  readonly crawl: CrawlGraph;
  readonly graph: LinkGraph;
  readonly params: GraphParams;
  /** pages observed */
  pages = 0;
  #lastRound = 0;
  #rounds = 0;
  #iterations = 0;

  /** `onEvict(id)` resets the owner's per-node state of an evicted node. */
  constructor(params: GraphParams, onEvict: (id: number) => void) {
    this.params = params;
    this.crawl = new CrawlGraph({ maxNodes: params.maxNodes, maxEdges: params.maxEdges }, onEvict);
    this.graph = this.crawl.graph;
  }

  /** Counts a fetched item and marks the URLs it answered under (returned) as fetched. */
  observed(item: CrawlItem): string[] {
    this.pages++;
    const urls = itemUrls(item);
    this.crawl.markFetched(urls);
    return urls;
  }

  /** Records the priority a link was queued with, when its target is a node; adds nothing. */
  queuedOnly(links: readonly QueuedLink[]): void {
    for (const link of links) this.#queued(link);
  }

  /** The edges a page's links make: its followable (score ≥ 0) links, at most maxOutEdges. */
  edgeCount(links: readonly QueuedLink[]): number {
    return Math.min(this.params.maxOutEdges, links.reduce((n, l) => n + (l.score >= 0 ? 1 : 0), 0));
  }

  /**
   * Adds the fetched page of `urls` and its first `edges` followable links
   * as edges, making room first (`evictionKey`: lower goes first). A page
   * gets its edges once: seen again, its targets' priorities are updated
   * and no edge is added. For each target, `onTarget(id, link)` runs before
   * the link's priority is recorded, and a new edge weighs `weight(link)`
   * (default 1). The other links: as queuedOnly.
   */
  addPage(
    urls: readonly string[],
    links: readonly QueuedLink[],
    edges: number,
    evictionKey: (id: number) => number,
    onTarget?: (id: number, link: QueuedLink) => void,
    weight?: (link: QueuedLink) => number,
  ): void {
    const { crawl, graph } = this;
    crawl.reserve(1 + edges, edges, evictionKey);
    const source = crawl.pageNode(urls);
    const first = graph.outDegree(source) === 0;
    let taken = 0;
    for (const link of links) {
      if (link.score < 0 || taken >= edges) {
        this.#queued(link);
        continue;
      }
      taken++;
      const id = crawl.target(link.url);
      if (id === source) continue;
      onTarget?.(id, link);
      crawl.queued(id, link.score);
      if (first) graph.addEdge(source, id, weight === undefined ? 1 : weight(link));
    }
  }

  /** Is a round due? True once `p` pages were observed since the last time it said so. */
  due(): boolean {
    if (this.pages - this.#lastRound < this.params.p) return false;
    this.#lastRound = this.pages;
    return true;
  }

  /** Power iterations for this round (roundIterations over the graph's edges). */
  roundIterations(visitsPerEdge: number, warmStart: boolean): number {
    return roundIterations(this.params, this.graph.edgeCount, visitsPerEdge, warmStart);
  }

  /**
   * Ends a round that ran `iterations` power iterations: the new priorities
   * `score(id)` of queued nodes that moved (CrawlGraph.changes with
   * epsilon, maxRescore and the frontier head's `floor`), null when none.
   */
  finishRound(iterations: number, score: (id: number) => number, floor: number): Rescore[] | null {
    this.#rounds++;
    this.#iterations += iterations;
    const updates = this.crawl.changes(score, this.params.epsilon, this.params.maxRescore, floor);
    return updates.length > 0 ? updates : null;
  }

  stats(): GraphStats {
    return { pages: this.pages, rounds: this.#rounds, iterations: this.#iterations, nodes: this.graph.size, edges: this.graph.edgeCount };
  }

  #queued(link: QueuedLink): void {
    const id = this.graph.id(link.url);
    if (id !== undefined) this.crawl.queued(id, link.score);
  }
}
