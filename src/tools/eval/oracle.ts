/**
 * Crawls simulated on a known link graph: the order in which breadth-first,
 * oracles and strategies (those that learn as they crawl too:
 * simulateLearning) fetch the pages reachable from the seeds, one page at a
 * time (`focuscrawl compare --oracle`, bench/webkb-oracle.ts).
 * Nodes are ids 0..n-1; `out[v]` are v's links.
 *
 * The graph of an archive (readLinkGraph): every archived HTML page (2xx)
 * parsed as the crawler parses it, its followable links canonicalised, an
 * edge where the link's target is archived too and the archived robots.txt
 * of its host (if any) lets the crawler fetch it; a 3xx record has one edge,
 * to where it redirects, with no links behind it. Links out of the archive
 * (the replay answers 404) are not part of it, nor are links the crawler
 * does not queue for their file extension (src/urls/extensions.ts; the crawl's
 * default list unless `skipExtensions` says otherwise).
 */
import { FocuscrawlError } from '../../errors.ts';
import { compileSkipExtensions } from '../../urls/extensions.ts';
import { parseContentType } from '../../fetch/http.ts';
import { buildIndex, readResponse } from '../../replay/warc-index.ts';
import { RobotsCache } from '../../fetch/robots.ts';
import { parseBody } from '../../parse/body.ts';
import { decodedBody, header } from '../../relevance/train/from-warc.ts';
import type { PageLink, ParsedPage } from '../../types.ts';
import { canonicalize } from '../../urls/canonical.ts';

/** The link graph of archived pages. */
export interface LinkGraph {
  /** canonical URL of each node */
  urls: string[];
  /** node id of each canonical URL */
  ids: Map<string, number>;
  /** out-edges of each node (distinct targets, first link first; a redirect's target); none for other non-HTML or non-2xx records */
  out: number[][];
  /** HTTP status of each node's record (0: unreadable; NOT_ARCHIVED: a link target with no record, with `missing`) */
  status: number[];
  /** archived HTML pages parsed */
  htmlPages: number;
  /** with `keepPages`: each HTML page as parsed, and the links behind each out-edge */
  pages?: (ParsedPage | undefined)[];
  edgeLinks?: PageLink[][][];
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Status of a node that is a link target with no record (readLinkGraph's `missing`): the replay answers 404. */
export const NOT_ARCHIVED = -1;

/**
 * The link graph of the response records of `warcs` (see above). With
 * `keepPages`, the parsed pages and each edge's links are kept too (for
 * scoring links as a strategy would). With `missing`, a followable link to
 * a URL with no record is an edge too, to a node of status NOT_ARCHIVED and
 * no links (a crawl fetches it and gets the replay's 404). Throws
 * UsageError for an unreadable WARC; a record that cannot be read is left
 * out.
 */
export async function readLinkGraph(
  warcs: string[],
  opts: { keepPages?: boolean; missing?: boolean; skipExtensions?: readonly string[] } = {},
): Promise<LinkGraph> {
  const index = await buildIndex(warcs);
  const skipExtension = compileSkipExtensions(opts.skipExtensions);
  // robots.txt as the replay serves it: the archived record, else 404 (allow all)
  const robots = new RobotsCache({
    userAgent: 'focuscrawl',
    capacity: 100_000,
    fetchRobots: async (robotsUrl) => {
      const key = canonicalize(robotsUrl);
      const res = key === null || !index.entries.has(key) ? null : await readResponse(index, key).catch(() => null);
      return res === null ? { status: 404, body: '' } : { status: res.status, body: (decodedBody(res) ?? Buffer.alloc(0)).toString('utf8') };
    },
  });
  const ids = new Map<string, number>();
  const urls: string[] = [];
  const idOf = (url: string): number => {
    let id = ids.get(url);
    if (id === undefined) {
      id = urls.length;
      ids.set(url, id);
      urls.push(url);
    }
    return id;
  };
  const out: number[][] = [];
  const status: number[] = [];
  const pages: (ParsedPage | undefined)[] = [];
  const edgeLinks: PageLink[][][] = [];
  let htmlPages = 0;
  for (const url of index.entries.keys()) {
    let res;
    try {
      res = await readResponse(index, url);
    } catch (err) {
      if (err instanceof FocuscrawlError) continue;
      throw err;
    }
    const from0 = idOf(url);
    status[from0] = res?.status ?? 0;
    if (res !== null && res.status >= 300 && res.status < 400) {
      // a redirect leads where it points, as the crawler follows it
      const location = header(res, 'location');
      let target: string | null = null;
      try {
        target = location === null ? null : canonicalize(new URL(location, url).href);
      } catch {
        target = null;
      }
      out[from0] = target !== null && target !== url && index.entries.has(target) && (await robots.check(target)).allowed ? [idOf(target)] : [];
      if (opts.keepPages === true) edgeLinks[from0] = out[from0]!.map(() => []);
      continue;
    }
    if (res === null || res.status < 200 || res.status > 299) continue;
    const { type, charset } = parseContentType(header(res, 'content-type'));
    if (type !== null && !HTML_TYPES.has(type)) continue;
    const body = decodedBody(res);
    if (body === null) continue;
    const page = parseBody(body, url, charset);
    const from = from0;
    htmlPages++;
    const edges = new Map<number, PageLink[]>();
    if (!page.nofollow) {
      for (const link of page.links) {
        if (link.nofollow) continue;
        const target = canonicalize(link.url);
        if (target === null || target === url || (opts.missing !== true && !index.entries.has(target))) continue;
        if (skipExtension !== null && skipExtension(target)) continue;
        if (!edges.has(idOf(target)) && !(await robots.check(target)).allowed) continue;
        const to = idOf(target);
        const links = edges.get(to);
        if (links === undefined) edges.set(to, [link]);
        else links.push(link);
      }
    }
    out[from] = [...edges.keys()];
    if (opts.keepPages === true) {
      pages[from] = page;
      edgeLinks[from] = [...edges.values()];
    }
  }
  for (let i = 0; i < urls.length; i++) {
    out[i] ??= [];
    status[i] ??= index.entries.has(urls[i]!) ? 0 : NOT_ARCHIVED;
  }
  return { urls, ids, out, status, htmlPages, ...(opts.keepPages === true ? { pages, edgeLinks } : {}) };
}

/** The node ids of `urls` (canonicalised, each once) that are nodes of `graph`: a simulation's seeds. */
export function seedIds(graph: Pick<LinkGraph, 'ids'>, urls: readonly string[]): number[] {
  return [...new Set(urls.map((u) => canonicalize(u)).filter((u): u is string => u !== null))]
    .map((u) => graph.ids.get(u))
    .filter((id): id is number => id !== undefined);
}

/**
 * How a simulated crawl orders its frontier: `key(v)` of a discovered page
 * (lower goes first, first discovered among equals). A key may grow after
 * the page was queued (a target fetched makes the graph oracle's distances
 * grow): `key` is read again when the page comes to the front, and a page
 * whose key grew goes back in its place. `fetched(v)` is told each fetch.
 */
export interface Policy {
  key(v: number): number;
  fetched?(v: number): void;
}

/** A binary min-heap of [key, seq, node]. */
class KeyedHeap {
  readonly #h: [number, number, number][] = [];
  get size(): number {
    return this.#h.length;
  }
  push(e: [number, number, number]): void {
    const h = this.#h;
    h.push(e);
    for (let i = h.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (!less(h[i]!, h[up]!)) break;
      [h[i], h[up]] = [h[up]!, h[i]!];
      i = up;
    }
  }
  pop(): [number, number, number] | undefined {
    const h = this.#h;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last !== undefined) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l]!, h[m]!)) m = l;
        if (r < h.length && less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

function less(a: [number, number, number], b: [number, number, number]): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/** The order in which a crawl from `seeds` following `policy` fetches the pages reachable from them. */
export function simulateCrawl(out: readonly (readonly number[])[], seeds: readonly number[], policy: Policy): number[] {
  const order: number[] = [];
  const seq = new Map<number, number>();
  const heap = new KeyedHeap();
  const discover = (v: number): void => {
    if (seq.has(v)) return;
    seq.set(v, seq.size);
    heap.push([policy.key(v), seq.get(v)!, v]);
  };
  for (const s of seeds) discover(s);
  for (let e = heap.pop(); e !== undefined; e = heap.pop()) {
    const [key, n, v] = e;
    const now = policy.key(v);
    if (now > key) {
      heap.push([now, n, v]);
      continue;
    }
    order.push(v);
    policy.fetched?.(v);
    for (const t of out[v] ?? []) discover(t);
  }
  return order;
}

/** For every node, the links on the shortest path from it to a node of `goals` (Infinity: none). */
export function distanceTo(into: readonly (readonly number[])[], goals: Iterable<number>): Float64Array {
  const dist = new Float64Array(into.length).fill(Infinity);
  const queue: number[] = [];
  for (const g of goals) {
    dist[g] = 0;
    queue.push(g);
  }
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const u of into[v] ?? []) {
      if (dist[u] === Infinity) {
        dist[u] = dist[v]! + 1;
        queue.push(u);
      }
    }
  }
  return dist;
}

function reversed(out: readonly (readonly number[])[]): number[][] {
  const into: number[][] = out.map(() => []);
  out.forEach((links, from) => {
    for (const t of links) into[t]!.push(from);
  });
  return into;
}

/** Breadth-first: first in, first out. */
export const fifo: Policy = { key: () => 0 };

/** A perfect link classifier: a discovered target page first, else first in, first out. */
export function linkOracle(isTarget: (v: number) => boolean): Policy {
  return { key: (v) => (isTarget(v) ? 0 : 1) };
}

/**
 * A perfect classifier of link targets into layers (Diligenti et al.'s
 * context graphs): a target page (layer 0) first, then a page linking to one
 * (layer 1), ... up to `layers`; the rest, and ties, first in, first out.
 * Layers are fixed properties of pages (distances to any target page of the
 * graph), as a classifier would predict them, not renewed as targets are
 * fetched.
 */
export function layerOracle(out: readonly (readonly number[])[], targets: Iterable<number>, layers: number): Policy {
  const dist = distanceTo(reversed(out), targets);
  return { key: (v) => (dist[v]! <= layers ? dist[v]! : layers + 1) };
}

/**
 * Knows the labels and the whole graph: the discovered page fewest links
 * away from a target page not yet fetched (first in, first out among equals).
 * Each target fetched renews the distances: O(targets × (pages + links)).
 */
export function graphOracle(out: readonly (readonly number[])[], targets: Iterable<number>): Policy {
  const into = reversed(out);
  const remaining = new Set(targets);
  let dist = distanceTo(into, remaining);
  return {
    key: (v) => dist[v]!,
    fetched: (v) => {
      if (remaining.delete(v)) dist = distanceTo(into, remaining);
    },
  };
}

/** Pages fetched until `share` of the `total` targets were among them, or null when never. */
export function pagesToShare(order: readonly number[], isTarget: (v: number) => boolean, total: number, share: number): number | null {
  const need = Math.ceil(share * total);
  let found = 0;
  for (let i = 0; i < order.length; i++) if (isTarget(order[i]!) && ++found >= need) return i + 1;
  return null;
}

/**
 * The frontier of a simulated best-first crawl: the best score of each
 * queued page, highest first, first discovered among equals. A page found
 * again with a higher score is raised (as the store's frontier raises it);
 * a strategy's re-score sets a queued page's score up or down (as
 * `reprioritise` does).
 */
class ScoredFrontier {
  readonly #best = new Map<number, number>();
  readonly #seq = new Map<number, number>();
  readonly #fetched = new Set<number>();
  readonly #heap = new KeyedHeap();

  /** Queue `v` at `s`, or raise it to `s`. */
  offer(v: number, s: number): void {
    if (this.#fetched.has(v)) return;
    const known = this.#best.get(v);
    if (known !== undefined && known >= s) return;
    if (!this.#seq.has(v)) this.#seq.set(v, this.#seq.size);
    this.#put(v, s);
  }

  /** A re-score: `v`'s new score, up or down; ignored unless `v` is queued and `s` finite. */
  set(v: number, s: number): void {
    if (this.#fetched.has(v) || !this.#best.has(v) || !Number.isFinite(s) || this.#best.get(v) === s) return;
    this.#put(v, s);
  }

  /** Take the best queued page (marked fetched), or undefined when none is left. */
  next(): number | undefined {
    for (let e = this.#heap.pop(); e !== undefined; e = this.#heap.pop()) {
      const [key, , v] = e;
      // an entry superseded by a raise or re-score, or of a page already fetched
      if (this.#fetched.has(v) || -key !== this.#best.get(v)) continue;
      this.#fetched.add(v);
      return v;
    }
    return undefined;
  }

  /** The queued pages, best first: [page, score]. */
  *queued(): Generator<[number, number]> {
    const waiting = [...this.#best].filter(([v]) => !this.#fetched.has(v));
    waiting.sort((a, b) => b[1] - a[1] || this.#seq.get(a[0])! - this.#seq.get(b[0])!);
    yield* waiting;
  }

  #put(v: number, s: number): void {
    this.#best.set(v, s);
    this.#heap.push([-s, this.#seq.get(v)!, v]);
  }
}

/**
 * Pages in flight: the frontier's best pages are taken `inFlight` at a time
 * ahead of their completion, and complete first taken, first done (a crawl
 * with that many requests open fetches pages the next completions would
 * have ranked lower). With 1, each page completes before the next is taken.
 */
class InFlight {
  readonly #flying: number[] = [];
  constructor(
    private readonly frontier: ScoredFrontier,
    private readonly size: number,
  ) {}

  /** The next page to complete, or undefined when the crawl is over. */
  next(): number | undefined {
    while (this.#flying.length < this.size) {
      const v = this.frontier.next();
      if (v === undefined) break;
      this.#flying.push(v);
    }
    return this.#flying.shift();
  }
}

/** Options of the scored simulations. */
export interface SimOptions {
  /** pages in flight at once (default 1; see InFlight) */
  inFlight?: number;
}

/**
 * The order of a best-first crawl from `seeds` (the order pages complete
 * in): a page
 * discovered through a link gets `score(from, i)` of the i-th link of the
 * page `from` it was found on, raised when it is found again with a higher
 * score (as the frontier re-prioritises); null prunes the link (the sink
 * drops links scored below 0). The highest score goes first, first
 * discovered among equals. Seeds score +Infinity. One page at a time
 * unless `inFlight` says more.
 */
export function simulateScored(out: readonly (readonly number[])[], seeds: readonly number[], score: (from: number, i: number) => number | null, opts: SimOptions = {}): number[] {
  const { frontier, flight } = startScored(seeds, opts);
  const order: number[] = [];
  for (let v = flight.next(); v !== undefined; v = flight.next()) {
    order.push(v);
    offerLinks(frontier, out, v, score);
  }
  return order;
}

/** The frontier of a scored simulation with the seeds queued first (+Infinity), and its pages in flight. */
function startScored(seeds: readonly number[], opts: SimOptions): { frontier: ScoredFrontier; flight: InFlight } {
  const frontier = new ScoredFrontier();
  for (const s of seeds) frontier.offer(s, Infinity);
  return { frontier, flight: new InFlight(frontier, Math.max(1, Math.floor(opts.inFlight ?? 1))) };
}

/** Score every link of `v` (a learning strategy sees them all, as the classify stage scores them all) and offer their targets. */
function offerLinks(frontier: ScoredFrontier, out: readonly (readonly number[])[], v: number, score: (from: number, i: number) => number | null): void {
  (out[v] ?? []).forEach((to, i) => {
    const s = score(v, i);
    if (s !== null) frontier.offer(to, s);
  });
}

/**
 * Told after each page of a simulated crawl that learns (`simulateLearning`):
 * page `v` was fetched and its links offered; `queued` lists the waiting
 * pages best first with their scores. Returns new scores for queued pages
 * (up or down), or null: a strategy's observe and rescore.
 */
export type SimLearner = (v: number, queued: () => Iterable<[number, number]>) => Promise<Iterable<[number, number]> | null> | Iterable<[number, number]> | null;

/** simulateScored for a strategy that learns as it crawls: `learn` after each page, its re-scores applied before the next. */
export async function simulateLearning(
  out: readonly (readonly number[])[],
  seeds: readonly number[],
  score: (from: number, i: number) => number | null,
  learn: SimLearner,
  opts: SimOptions = {},
): Promise<number[]> {
  const { frontier, flight } = startScored(seeds, opts);
  const order: number[] = [];
  for (let v = flight.next(); v !== undefined; v = flight.next()) {
    order.push(v);
    offerLinks(frontier, out, v, score);
    const updates = await learn(v, () => frontier.queued());
    for (const [u, s] of updates ?? []) frontier.set(u, s);
  }
  return order;
}
