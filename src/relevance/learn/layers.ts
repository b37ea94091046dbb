/**
 * Context-graph layers (Diligenti et al., VLDB 2000): a page's layer is the
 * number of links on the shortest path from it to a target page, found by
 * following the links backwards from the targets (layer 0 = the targets,
 * 1 = pages linking to one, ...); every page farther than `top - 1` links,
 * or from which no target can be reached, is in the last layer `top`
 * ("3+" with the default top of 3).
 *
 * The layer of a link (the class a layered link classifier learns) is the
 * layer of its target seen from the page the link is on: 0 when the target
 * is a target page, else 1 + the lowest layer among the target's other
 * links, leaving out the link back to the page the link is on (a
 * homework page that links back to its course leads nowhere new from the
 * course). Pure functions over node ids 0..n-1.
 */

/** The last layer when none is given: layers 0, 1, 2 and "3 or more / none". */
export const DEFAULT_TOP_LAYER = 3;

/**
 * The layer of every node of the graph `out` (out[v]: v's links, node
 * ids) given its target nodes, capped at `top` (also the layer of nodes
 * that reach no target). Breadth-first search backwards from all targets
 * at once: O(nodes + links).
 */
export function graphLayers(out: readonly (readonly number[])[], targets: Iterable<number>, top = DEFAULT_TOP_LAYER): Uint8Array {
  if (!Number.isInteger(top) || top < 1 || top > 255) throw new RangeError(`top layer must be an integer 1..255, got ${top}`);
  const into: number[][] = out.map(() => []);
  out.forEach((links, from) => {
    for (const t of links) into[t]?.push(from);
  });
  const layer = new Uint8Array(out.length).fill(top);
  const queue: number[] = [];
  for (const g of targets) {
    if (g < 0 || g >= out.length || layer[g] === 0) continue;
    layer[g] = 0;
    queue.push(g);
  }
  const seen = new Uint8Array(out.length);
  for (const g of queue) seen[g] = 1;
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    const next = layer[v]! + 1;
    if (next >= top) continue;
    for (const u of into[v]!) {
      if (seen[u] === 1) continue;
      seen[u] = 1;
      layer[u] = next;
      queue.push(u);
    }
  }
  return layer;
}

/**
 * The layer of the link from `from` to `to` (see the module doc): 0 when
 * `to` is a target (layer 0), else 1 + the lowest layer of `to`'s links
 * other than the one back to `from`, at most `top`.
 */
export function linkLayer(out: readonly (readonly number[])[], layers: Uint8Array, from: number, to: number, top = DEFAULT_TOP_LAYER): number {
  if (layers[to] === 0) return 0;
  let best = top;
  for (const w of out[to] ?? []) if (w !== from && layers[w]! + 1 < best) best = layers[w]! + 1;
  return best;
}
