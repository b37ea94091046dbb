/**
 * A strategy's own scorer driven over an archive's link graph
 * (readLinkGraph with `keepPages`) the way a crawl drives it, for the
 * simulated crawls of src/tools/eval/oracle.ts:
 *
 * - `score(from, i)`: pageRelevance once per fetched page, then linkScore
 *   of each link behind the i-th out-edge; the best of them scores the edge
 *   (the frontier keeps the best score of a URL, and the text of the link
 *   that gave it). A redirect's edge scores +Infinity: the crawler follows
 *   a redirect at once.
 * - `learn(v, queued)`: for a strategy that learns (observe, rescore), page
 *   v's commit: observe with the links queued from it (canonical, scored,
 *   with their text), then rescore over the queued pages, best first.
 *
 * What the simulation leaves out: the order in which requests open at once
 * complete (simulateScored's `inFlight` takes pages ahead, and completes
 * them first taken, first done), and the fetch itself (status 200, no
 * headers, no body bytes; a page not archived, with readLinkGraph's
 * `missing`, answers 404 with no page).
 */
import type { CrawlItem, FetchResult, FrontierEntry, PageLink, QueuedLink, Scorer } from '../../types.ts';
import { NOT_ARCHIVED, type LinkGraph, type SimLearner } from './oracle.ts';

/** The discovering link a queued page keeps (the frontier entry's fields). */
interface Via {
  score: number;
  depth: number;
  parent: string | null;
  anchor: string;
  context: string;
}

/** A page found no other way (not reached through a scored link). */
const NO_VIA: Via = { score: 0, depth: 0, parent: null, anchor: '', context: '' };

export interface ScorerSimulation {
  score: (from: number, i: number) => number | null;
  /** null for a strategy that does not learn during the crawl */
  learn: SimLearner | null;
}

/** Drive `scorer` over `graph` (read with keepPages) as described above; `seeds` start at depth 0. */
export function scorerSimulation(graph: LinkGraph, scorer: Scorer, seeds: readonly number[]): ScorerSimulation {
  const { urls, ids, pages, edgeLinks } = graph;
  if (pages === undefined || edgeLinks === undefined) throw new TypeError('scorerSimulation needs a graph read with keepPages');
  const relevance = new Map<number, number>();
  const via = new Map<number, Via>();
  for (const s of seeds) via.set(s, { ...NO_VIA, score: Infinity });
  /** the best link behind each out-edge of a page, once scored */
  const edgeBest = new Map<number, ({ link: PageLink; score: number } | null)[]>();

  const entryOf = (v: number): FrontierEntry => {
    const w = via.get(v) ?? NO_VIA;
    const e: FrontierEntry = { url: urls[v]!, score: w.score, depth: w.depth, parent: w.parent };
    if (w.anchor !== '') e.anchor = w.anchor;
    if (w.context !== '') e.context = w.context;
    return e;
  };
  const relevanceOf = (v: number): number => {
    let r = relevance.get(v);
    if (r === undefined) {
      const page = pages[v];
      const raw = page === undefined ? 0 : scorer.pageRelevance(page, { entry: entryOf(v) });
      relevance.set(v, (r = Number.isFinite(raw) ? Math.min(1, Math.max(0, raw)) : 0));
    }
    return r;
  };

  /** pages fetched: their links are scored once they are (their entry stays as it was) */
  const fetched = new Set<number>();

  const score = (from: number, i: number): number | null => {
    fetched.add(from);
    const to = graph.out[from]![i]!;
    const depth = (via.get(from)?.depth ?? 0) + 1;
    const links = edgeLinks[from]![i]!;
    if (links.length === 0) {
      // a redirect: the crawler fetches where it points at once
      if (!via.has(to) && !fetched.has(to)) via.set(to, { ...(via.get(from) ?? NO_VIA), score: Infinity });
      return Infinity;
    }
    const page = pages[from]!;
    const r = relevanceOf(from);
    let best: { link: PageLink; score: number } | null = null;
    for (const link of links) {
      const raw = scorer.linkScore(link, page, r);
      const s = Number.isFinite(raw) ? raw : 0;
      if (s >= 0 && (best === null || s > best.score)) best = { link, score: s };
    }
    let list = edgeBest.get(from);
    if (list === undefined) edgeBest.set(from, (list = []));
    list[i] = best;
    if (best !== null && !fetched.has(to) && best.score > (via.get(to)?.score ?? -Infinity)) {
      via.set(to, { score: best.score, depth, parent: urls[from]!, anchor: best.link.anchor, context: best.link.context });
    }
    return best === null ? null : best.score;
  };

  if (scorer.observe === undefined && scorer.rescore === undefined) return { score, learn: null };

  const learn: SimLearner = async (v, queued) => {
    fetched.add(v);
    const entry = entryOf(v);
    const page = pages[v];
    const item: CrawlItem = { entry, fetch: fetchOf(urls[v]!, graph.status[v] === NOT_ARCHIVED) };
    if (page !== undefined) {
      item.page = page;
      item.relevance = relevanceOf(v);
    }
    const links: QueuedLink[] = [];
    (edgeBest.get(v) ?? []).forEach((best, i) => {
      if (best === null || best === undefined) return;
      const { link, score: s } = best;
      links.push({ url: urls[graph.out[v]![i]!]!, score: s, depth: entry.depth + 1, parent: entry.url, anchor: link.anchor, context: link.context, offTopicHops: 0 });
    });
    scorer.observe?.(item, links);
    const updates = await scorer.rescore?.(async function* () {
      for (const [u, s] of queued()) yield { ...entryOf(u), score: s };
    });
    if (updates === null || updates === undefined) return null;
    const moves: [number, number][] = [];
    for (const u of updates) {
      const id = ids.get(u.url);
      if (id !== undefined) moves.push([id, u.score]);
    }
    return moves;
  };
  return { score, learn };
}

/** What the crawler knows of a fetch the simulation did not make: 200 and HTML, or the replay's 404 for a page not archived; no redirects. */
function fetchOf(url: string, notArchived: boolean): FetchResult {
  return {
    url, finalUrl: url, redirects: [url], status: notArchived ? 404 : 200, headers: {}, contentType: notArchived ? 'text/plain' : 'text/html',
    headerCharset: null, body: null, bytes: 0, truncated: false, fetchedAt: new Date(0).toISOString(), ms: 0, replay: true,
  };
}
