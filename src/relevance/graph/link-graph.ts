/**
 * A compact, bounded link graph for the link-analysis strategies (docs/algorithms.md#hits
 * and docs/algorithms.md#ipagerank). Pure: no I/O.
 *
 * - Nodes are URLs mapped to small integer ids (`id`/`add`); ids of evicted
 *   nodes are reused, so every id is below `maxNodes` and callers can keep
 *   per-node state in typed arrays of that length.
 * - Edges are a flat edge list (COO): `src`, `dst` (Int32Array) and `weight`
 *   (Float32Array), `edgeCount` of them in insertion order. Power
 *   iterations walk it front to back (no per-node objects, no Maps).
 * - Both counts are capped (`maxNodes`, `maxEdges`). The graph never evicts
 *   on its own: before inserting, the caller asks `reserve(nodes, edges,
 *   key)` for room, which evicts the nodes with the lowest `key(id)` (the
 *   caller's notion of "least useful") together with every edge touching
 *   them, down to 90% of the caps so that evictions are rare (amortised).
 */

/** The read-only view the ranking functions (hits, ipagerank) need. */
export interface EdgeList {
  /** every node id is below this */
  readonly idLimit: number;
  readonly edgeCount: number;
  readonly src: Int32Array;
  readonly dst: Int32Array;
  readonly weight: Float32Array;
}

export interface LinkGraphOptions {
  /** cap on live nodes (>= 2) */
  maxNodes: number;
  /** cap on edges (>= 1) */
  maxEdges: number;
}

/** After an eviction, nodes and edges are brought down to this fraction of their caps. */
export const EVICT_TO = 0.9;

/** Bounded URL graph with integer ids; see the module doc. */
export class LinkGraph implements EdgeList {
  readonly maxNodes: number;
  readonly maxEdges: number;
  readonly src: Int32Array;
  readonly dst: Int32Array;
  readonly weight: Float32Array;
  readonly #outDegree: Int32Array;
  readonly #inDegree: Int32Array;
  readonly #ids = new Map<string, number>();
  readonly #urls: (string | undefined)[] = [];
  /** extra URLs (redirect targets) naming a node, only for nodes that have some */
  readonly #aliases = new Map<number, string[]>();
  readonly #free: number[] = [];
  #edgeCount = 0;
  #idLimit = 0;
  #live = 0;

  /** Throws RangeError on caps that are not integers or too small. */
  constructor(opts: LinkGraphOptions) {
    if (!Number.isInteger(opts.maxNodes) || opts.maxNodes < 2) throw new RangeError(`maxNodes must be an integer >= 2, got ${opts.maxNodes}`);
    if (!Number.isInteger(opts.maxEdges) || opts.maxEdges < 1) throw new RangeError(`maxEdges must be an integer >= 1, got ${opts.maxEdges}`);
    this.maxNodes = opts.maxNodes;
    this.maxEdges = opts.maxEdges;
    this.src = new Int32Array(opts.maxEdges);
    this.dst = new Int32Array(opts.maxEdges);
    this.weight = new Float32Array(opts.maxEdges);
    this.#outDegree = new Int32Array(opts.maxNodes);
    this.#inDegree = new Int32Array(opts.maxNodes);
  }

  /** Live nodes. */
  get size(): number {
    return this.#live;
  }

  /** Edges held. */
  get edgeCount(): number {
    return this.#edgeCount;
  }

  /** One past the highest id ever handed out (<= maxNodes). */
  get idLimit(): number {
    return this.#idLimit;
  }

  /** Id of `url` (or of the node it is an alias of), if it is a node. */
  id(url: string): number | undefined {
    return this.#ids.get(url);
  }

  /** The URL a live node was created with; undefined for a free id. */
  url(id: number): string | undefined {
    return this.#urls[id];
  }

  /** Is `id` a live node? */
  has(id: number): boolean {
    return this.#urls[id] !== undefined;
  }

  outDegree(id: number): number {
    return this.#outDegree[id];
  }

  inDegree(id: number): number {
    return this.#inDegree[id];
  }

  /**
   * Id of `url`, creating the node when absent. Throws RangeError when the
   * graph is full (call `reserve` first).
   */
  add(url: string): number {
    const known = this.#ids.get(url);
    if (known !== undefined) return known;
    if (this.size >= this.maxNodes) throw new RangeError(`link graph full (${this.maxNodes} nodes): reserve() before add()`);
    const id = this.#free.length > 0 ? this.#free.pop()! : this.#idLimit++;
    this.#ids.set(url, id);
    this.#urls[id] = url;
    this.#live++;
    return id;
  }

  /** Lets `url` name node `id` too (e.g. the final URL of a redirect). No-op when `url` is already a node or `id` is not live. */
  alias(url: string, id: number): void {
    if (this.#ids.has(url) || !this.has(id)) return;
    this.#ids.set(url, id);
    const list = this.#aliases.get(id);
    if (list === undefined) this.#aliases.set(id, [url]);
    else list.push(url);
  }

  /** Adds edge src -> dst with `weight`. Throws RangeError when the edge list is full (call `reserve` first). */
  addEdge(src: number, dst: number, weight = 1): void {
    if (this.#edgeCount >= this.maxEdges) throw new RangeError(`link graph full (${this.maxEdges} edges): reserve() before addEdge()`);
    const e = this.#edgeCount++;
    this.src[e] = src;
    this.dst[e] = dst;
    this.weight[e] = weight;
    this.#outDegree[src]++;
    this.#inDegree[dst]++;
  }

  /**
   * Makes room for `nodes` more nodes and `edges` more edges. When that
   * would exceed a cap, evicts live nodes in increasing order of `key(id)`
   * (ties: lower id first) with all their edges, until nodes and edges are
   * at most 90% of their caps minus the room asked for. Returns the evicted
   * ids (possibly reused by the next `add`): the caller resets its
   * per-node state for them. Requests larger than a cap are clamped to it.
   */
  reserve(nodes: number, edges: number, key: (id: number) => number): Int32Array {
    const needNodes = Math.min(nodes, this.maxNodes);
    const needEdges = Math.min(edges, this.maxEdges);
    if (this.size + needNodes <= this.maxNodes && this.#edgeCount + needEdges <= this.maxEdges) return new Int32Array(0);
    const nodeTarget = Math.max(0, Math.min(this.maxNodes - needNodes, Math.floor(this.maxNodes * EVICT_TO)));
    const edgeTarget = Math.max(0, Math.min(this.maxEdges - needEdges, Math.floor(this.maxEdges * EVICT_TO)));
    const live = new Int32Array(this.size);
    const liveKeys = new Float64Array(this.size);
    let n = 0;
    for (let id = 0; id < this.#idLimit; id++) {
      if (!this.has(id)) continue;
      const k = key(id);
      liveKeys[n] = Number.isNaN(k) ? -Infinity : k;
      live[n++] = id;
    }
    // victims in increasing key order (ties: lower id first); only the lowest
    // keys are sorted: as many as the node cap asks for, more if the edge cap does
    const lowest = (k: number): Int32Array => smallestK(liveKeys, n, k).sort((a, b) => liveKeys[a] - liveKeys[b] || a - b);
    let order = lowest(Math.min(n, Math.max(64, n - nodeTarget)));
    const evicted: number[] = [];
    let nodesLeft = n;
    let edgesLeft = this.#edgeCount;
    for (let i = 0; i < n && (nodesLeft > nodeTarget || edgesLeft > edgeTarget); i++) {
      if (i === order.length) order = lowest(Math.min(n, 2 * order.length));
      const id = live[order[i]];
      evicted.push(id);
      nodesLeft--;
      // an edge between two victims is counted twice: an underestimate of what is left, corrected below
      edgesLeft -= this.#outDegree[id] + this.#inDegree[id];
    }
    this.#remove(evicted);
    if (this.#edgeCount + needEdges > this.maxEdges) {
      // victims shared edges, so fewer edges went than counted: evict more
      const more = this.reserve(nodes, edges, key);
      const all = new Int32Array(evicted.length + more.length);
      all.set(evicted);
      all.set(more, evicted.length);
      return all;
    }
    return Int32Array.from(evicted);
  }

  #remove(ids: readonly number[]): void {
    for (const id of ids) {
      this.#ids.delete(this.#urls[id]!);
      for (const alias of this.#aliases.get(id) ?? []) this.#ids.delete(alias);
      this.#aliases.delete(id);
      this.#urls[id] = undefined;
      this.#free.push(id);
      this.#live--;
    }
    let kept = 0;
    for (let e = 0; e < this.#edgeCount; e++) {
      const s = this.src[e];
      const d = this.dst[e];
      if (this.has(s) && this.has(d)) {
        this.src[kept] = s;
        this.dst[kept] = d;
        this.weight[kept] = this.weight[e];
        kept++;
      } else {
        this.#outDegree[s]--;
        this.#inDegree[d]--;
      }
    }
    this.#edgeCount = kept;
  }
}

/**
 * The `k` largest of `values[0..n)` (k <= n), as indices into `values`, in
 * no particular order. Linear time on average (quickselect on a copy).
 */
export function largestK(values: Float64Array, n: number, k: number): Int32Array {
  if (k <= 0) return new Int32Array(0);
  if (k >= n) return Int32Array.from({ length: n }, (_, i) => i);
  const work = values.slice(0, n);
  const cut = select(work, n - k); // the (n-k)-th smallest = the k-th largest
  const out = new Int32Array(k);
  let m = 0;
  for (let i = 0; i < n && m < k; i++) if (values[i] > cut) out[m++] = i;
  for (let i = 0; i < n && m < k; i++) if (values[i] === cut) out[m++] = i;
  return out;
}

/**
 * The `k` smallest of `values[0..n)` (k <= n), as indices into `values`, in
 * no particular order; of equal values at the cut, the lower indices.
 * Linear time on average (quickselect on a copy).
 */
export function smallestK(values: Float64Array, n: number, k: number): Int32Array {
  if (k <= 0) return new Int32Array(0);
  if (k >= n) return Int32Array.from({ length: n }, (_, i) => i);
  const cut = select(values.slice(0, n), k - 1); // the k-th smallest
  const out = new Int32Array(k);
  let m = 0;
  for (let i = 0; i < n && m < k; i++) if (values[i] < cut) out[m++] = i;
  for (let i = 0; i < n && m < k; i++) if (values[i] === cut) out[m++] = i;
  return out;
}

/** The value of rank `r` (0-based) in ascending order; reorders `a`. Hoare quickselect with median-of-three pivots. */
function select(a: Float64Array, r: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const pivot = median3(a[lo], a[mid], a[hi]);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (r <= j) hi = j;
    else if (r >= i) lo = i;
    else return a[r];
  }
  return a[r];
}

function median3(x: number, y: number, z: number): number {
  return Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
}

/**
 * A fixed-size Bloom filter of URLs (FNV-1a, double hashing): remembers
 * which URLs were fetched without growing. False positives (a URL reported
 * fetched that was not) grow with the number of URLs added: about 3% at
 * 500,000 URLs with the default 2^22 bits and 3 probes; no false negatives.
 */
export class UrlFilter {
  readonly #bits: Uint32Array;
  readonly #mask: number;
  readonly #probes: number;

  /** `log2Bits` in [10, 30]. */
  constructor(log2Bits = 22, probes = 3) {
    if (!Number.isInteger(log2Bits) || log2Bits < 10 || log2Bits > 30) throw new RangeError(`log2Bits must be an integer in [10, 30], got ${log2Bits}`);
    this.#bits = new Uint32Array(2 ** (log2Bits - 5));
    this.#mask = 2 ** log2Bits - 1;
    this.#probes = probes;
  }

  add(url: string): void {
    const [h1, h2] = hash2(url);
    for (let i = 0; i < this.#probes; i++) {
      const bit = (h1 + i * h2) & this.#mask;
      this.#bits[bit >>> 5] |= 1 << (bit & 31);
    }
  }

  has(url: string): boolean {
    const [h1, h2] = hash2(url);
    for (let i = 0; i < this.#probes; i++) {
      const bit = (h1 + i * h2) & this.#mask;
      if ((this.#bits[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/** Two 32-bit FNV-1a hashes with different offsets (the second forced odd). */
function hash2(s: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return [a >>> 0, (b >>> 0) | 1];
}

/** A new priority for a queued URL, as CrawlGraph.changes returns them. */
export interface ScoreChange {
  url: string;
  score: number;
}

/**
 * A LinkGraph as a crawl sees it: every node is either a fetched page or a
 * URL that is (as far as the graph knows) still queued, and for the latter
 * the priority the frontier holds for it (`sent`: the best score it was
 * queued with, or the last re-score handed out). Fetched URLs are
 * remembered in a fixed-size UrlFilter, so a page fetched before it became
 * a node is still known as fetched (up to the filter's false positives,
 * which are then never re-scored). Per-node state is in typed arrays of
 * length maxNodes; `onEvict` lets the owner reset its own.
 */
export class CrawlGraph {
  readonly graph: LinkGraph;
  /** 1 for fetched pages */
  readonly fetched: Uint8Array;
  /** the frontier priority of a queued node as last known (NaN: unknown) */
  readonly sent: Float64Array;
  readonly #filter = new UrlFilter();
  readonly #onEvict: (id: number) => void;
  readonly #candidates: Int32Array;
  readonly #deltas: Float64Array;

  constructor(opts: LinkGraphOptions, onEvict: (id: number) => void) {
    this.graph = new LinkGraph(opts);
    this.fetched = new Uint8Array(opts.maxNodes);
    this.sent = new Float64Array(opts.maxNodes).fill(NaN);
    this.#onEvict = onEvict;
    this.#candidates = new Int32Array(opts.maxNodes);
    this.#deltas = new Float64Array(opts.maxNodes);
  }

  /** Records that `urls` (a page and its redirect chain) were fetched. */
  markFetched(urls: Iterable<string>): void {
    for (const url of urls) {
      this.#filter.add(url);
      const id = this.graph.id(url);
      if (id !== undefined) this.fetched[id] = 1;
    }
  }

  /**
   * The node of a fetched page, created when absent: the node of the first
   * of `urls` (requested URL first, then the final URL) that is one, else a
   * new node for the last; the others become aliases of it. Call `reserve`
   * first.
   */
  pageNode(urls: readonly string[]): number {
    let id: number | undefined;
    for (const url of urls) {
      id = this.graph.id(url);
      if (id !== undefined) break;
    }
    id ??= this.graph.add(urls[urls.length - 1]);
    for (const url of urls) this.graph.alias(url, id);
    this.fetched[id] = 1;
    return id;
  }

  /** The node of a link target, created when absent (fetched if the filter says so). Call `reserve` first. */
  target(url: string): number {
    const known = this.graph.id(url);
    if (known !== undefined) return known;
    const id = this.graph.add(url);
    this.fetched[id] = this.#filter.has(url) ? 1 : 0;
    return id;
  }

  /** The frontier keeps the best score a URL was queued with: so does `sent`. */
  queued(id: number, score: number): void {
    if (!(this.sent[id] >= score)) this.sent[id] = score;
  }

  /** LinkGraph.reserve, resetting the per-node state of evicted ids (here and through onEvict). */
  reserve(nodes: number, edges: number, key: (id: number) => number): void {
    for (const id of this.graph.reserve(nodes, edges, key)) {
      this.fetched[id] = 0;
      this.sent[id] = NaN;
      this.#onEvict(id);
    }
  }

  /**
   * New priorities for queued nodes: `score(id)` for every live, unfetched
   * node with a known priority that differs from it by more than `epsilon`
   * and where the old or the new priority is at least `floor` (a move
   * between two priorities below it can wait: Scorer.rescore); the `limit`
   * largest differences when there are more. `sent` is updated for those
   * returned, so a node left out stays a candidate. O(maxNodes).
   */
  changes(score: (id: number) => number, epsilon: number, limit: number, floor = -Infinity): ScoreChange[] {
    const g = this.graph;
    let m = 0;
    for (let id = 0; id < g.idLimit; id++) {
      if (this.fetched[id] === 1 || !g.has(id) || Number.isNaN(this.sent[id])) continue;
      const s = score(id);
      const diff = Math.abs(s - this.sent[id]);
      if (!Number.isFinite(s) || !(diff > epsilon) || (s < floor && this.sent[id] < floor)) continue;
      this.#candidates[m] = id;
      this.#deltas[m] = diff;
      m++;
    }
    const out: ScoreChange[] = [];
    for (const i of largestK(this.#deltas, m, limit)) {
      const id = this.#candidates[i];
      const s = score(id);
      this.sent[id] = s;
      out.push({ url: g.url(id)!, score: s });
    }
    return out;
  }
}
