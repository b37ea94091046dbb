/**
 * Crawls simulated on a known link graph (bench/webkb-oracle.ts): the order
 * in which breadth-first and two oracles fetch the pages reachable from the
 * seeds, one page at a time. Nodes are ids 0..n-1; `out[v]` are v's links.
 */

/** Chooses the index, in `frontier` (discovered, not fetched, in discovery order), of the next page. */
export type Pick = (frontier: readonly number[], fetched: ReadonlySet<number>) => number;

/** The order in which a crawl from `seeds` that always fetches `pick`'s choice fetches the reachable pages. */
export function simulateCrawl(out: readonly (readonly number[])[], seeds: readonly number[], pick: Pick): number[] {
  const order: number[] = [];
  const discovered = new Set(seeds);
  const fetched = new Set<number>();
  const frontier = [...discovered];
  while (frontier.length > 0) {
    const i = pick(frontier, fetched);
    const [page] = frontier.splice(i, 1) as [number];
    fetched.add(page);
    order.push(page);
    for (const t of out[page] ?? []) {
      if (!discovered.has(t)) {
        discovered.add(t);
        frontier.push(t);
      }
    }
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

/** Breadth-first: first in, first out. */
export const fifo: Pick = () => 0;

/** A perfect link classifier: a discovered target page first, else first in, first out. */
export function linkOracle(isTarget: (v: number) => boolean): Pick {
  return (frontier) => Math.max(0, frontier.findIndex(isTarget));
}

/**
 * A perfect classifier of link targets into layers (Diligenti et al.'s
 * context graphs): a target page (layer 0) first, then a page linking to one
 * (layer 1), ... up to `layers`; the rest, and ties, first in, first out.
 * Layers are fixed properties of pages (distances to any target page of the
 * graph), as a classifier would predict them, not renewed as targets are
 * fetched.
 */
export function layerOracle(out: readonly (readonly number[])[], targets: Iterable<number>, layers: number): Pick {
  const into: number[][] = out.map(() => []);
  out.forEach((links, from) => {
    for (const t of links) into[t]!.push(from);
  });
  const dist = distanceTo(into, targets).map((d) => (d <= layers ? d : Infinity));
  return (frontier) => {
    let best = 0;
    for (let i = 1; i < frontier.length; i++) if (dist[frontier[i]!]! < dist[frontier[best]!]!) best = i;
    return best;
  };
}

/**
 * Knows the labels and the whole graph: the discovered page fewest links
 * away from a target page not yet fetched (first in, first out among equals).
 */
export function graphOracle(out: readonly (readonly number[])[], targets: Iterable<number>): Pick {
  const into: number[][] = out.map(() => []);
  out.forEach((links, from) => {
    for (const t of links) into[t]!.push(from);
  });
  let remaining = new Set(targets);
  let dist = distanceTo(into, remaining);
  return (frontier, fetched) => {
    const left = [...remaining].filter((g) => !fetched.has(g));
    if (left.length < remaining.size) {
      remaining = new Set(left);
      dist = distanceTo(into, remaining);
    }
    let best = 0;
    for (let i = 1; i < frontier.length; i++) if (dist[frontier[i]!]! < dist[frontier[best]!]!) best = i;
    return best;
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
 * The order of a best-first crawl from `seeds`, one page at a time: a page
 * discovered through a link gets `score(from, i)` of the i-th link of the
 * page `from` it was found on, raised when it is found again with a higher
 * score (as the frontier re-prioritises); null prunes the link (the sink
 * drops links scored below 0). The highest score goes first, first
 * discovered among equals. Seeds score +Infinity.
 */
export function simulateScored(out: readonly (readonly number[])[], seeds: readonly number[], score: (from: number, i: number) => number | null): number[] {
  const priority = new Map<number, number>();
  const seq = new Map<number, number>();
  for (const s of seeds) {
    priority.set(s, Infinity);
    seq.set(s, seq.size);
  }
  const fetched = new Set<number>();
  const order: number[] = [];
  while (priority.size > 0) {
    let best = -1;
    let bestScore = -Infinity;
    for (const [v, p] of priority) {
      if (best < 0 || p > bestScore || (p === bestScore && seq.get(v)! < seq.get(best)!)) {
        best = v;
        bestScore = p;
      }
    }
    priority.delete(best);
    fetched.add(best);
    order.push(best);
    (out[best] ?? []).forEach((to, i) => {
      if (fetched.has(to)) return;
      const s = score(best, i);
      if (s === null) return;
      if (!seq.has(to)) seq.set(to, seq.size);
      const known = priority.get(to);
      if (known === undefined || known < s) priority.set(to, s);
    });
  }
  return order;
}
