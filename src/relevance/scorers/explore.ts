/**
 * `--explore` (issue 22, items 2 and 3; beyond the papers): an exploration
 * lane and a tail lane over ANY strategy, as a Scorer wrapper. The frontier
 * is one priority queue by score, so a lane is a set of queued URLs this
 * wrapper lifts above the strategy's range (a Rescore to LIFT_SCORE, below
 * the seeds' 1e6): the crawler takes them next. Scores of links
 * (linkScore) and page relevance are the wrapped strategy's, unchanged;
 * with explore 0 createScorer does not wrap at all (paper-faithful).
 *
 * Lanes:
 * - **bfs** (exploration): what breadth-first would take next, the
 *   shallowest queued URL, first discovered first (a URL's depth is the
 *   shortest path the wrapper saw to it: found again by a shorter one, it
 *   moves up). A crawl whose share ε of
 *   fetches follow this order reaches what BFS reaches within about 1/ε
 *   of BFS's pages, whatever the strategy does with the rest.
 * - **near** (the tail): links near the targets found: the links of a
 *   relevant page, the siblings of a relevant page (the other links of
 *   the hub page that led to it) and links into the directory of a
 *   relevant page, most recent target first. Active while the harvest
 *   has fallen: fewer relevant pages among the last `tailWindow` judged
 *   than `tailDrop` × the crawl's harvest so far (once `tailMin` relevant
 *   pages were found). Then `tailShare` of the strategy's own fetches
 *   (1 − ε) come from it (probability matching: at least `tailShare` of
 *   all fetches, the bfs lane filling in when it is empty).
 *
 * ε adapts online (an {@link Allocator}): a two-armed bandit over "the
 * strategy's own picks" and "the bfs lane", each a Beta posterior of its
 * judged harvest (relevance at or above the threshold), counts discounted
 * by `gamma` per judged page (the safe rule: any page, so an arm that gets
 * few fetches is tried again; probability matching: a page of that arm).
 * The safe rule (the
 * default, issue 22 item 2): the strategy must show that its picks harvest
 * more than BFS order, else the bfs lane takes most fetches. While the arms
 * are learned (fewer than `exploreWarmup` judged pages each) ε is X (the
 * --explore value; 0.5 learns both at once); once P(strategy harvests more)
 * ≥ `exploreConfident` (0.9), ε is `exploreMin` (0.02); otherwise ε is
 * `exploreMax` (0.95) when that probability is ½ or less, and in between
 * linearly. Under it the bfs lane is BFS order only and keeps its share in
 * the tail. `exploreSafe=0` restores the probability matching of ab8405f
 * (ε from X/10 to exploreMax by P(bfs harvests more); the exploration lane
 * near-first; the tail lane in place of the bfs lane).
 * A credit accumulator turns ε into lifts: after each committed page,
 * credit += ε, and one URL is lifted per whole credit. Pages taken through
 * the near lane count for neither arm.
 *
 * Bounded memory (caps, all parameters): at most `maxCandidates` (20,000)
 * queued URLs remembered for the bfs lane (per-depth FIFO queues, depths
 * above 63 share the last; when full, the deepest newest goes first);
 * `maxNear` (5,000) near-lane URLs; `maxLifted` (1,000) lifted URLs
 * awaiting their fetch; 500 recent pages' first 50 links (for
 * siblings); 2,000 target directories and 2,000 hub pages; a Bloom filter
 * of fetched URLs of 2^23 bits (1 MiB; at 500,000 fetched URLs ~0.4% of
 * candidates are wrongly taken as fetched and merely skipped). About 7 MB
 * of heap at the caps. Per page: O(links) in observe, O(lifts) in rescore, and no
 * read of the frontier (the wrapped strategy's rescore reads it as before).
 *
 * Deterministic: no randomness, the same inputs give the same lifts.
 */
import type { CrawlItem, FrontierEntry, PageLink, ParsedPage, QueuedLink, Rescore, Scorer } from '../../types.ts';
import { numberParam, type ScorerContext } from './context.ts';
import { Lru } from '../../util/lru.ts';

/** The priority a lifted URL gets: above every strategy's scores (≤ a few units), below the seeds' (1e6, src/pipeline.ts). */
export const LIFT_SCORE = 5e5;

/**
 * The default --explore: off. Measured on WebKB left out one university at
 * a time (RESULTS.md "Exploration"), the safe rule at 0.5 shrinks the
 * worst cells of best-first, hits, ipagerank, bayes-kde and etfl (hits
 * 10.6× → 1.4× bfs) but not below 1.1× bfs in every cell, and makes
 * nb-link's medians a little worse at 50% and 80%; so it is a choice
 * (`--explore 0.5`), not the default.
 */
export const DEFAULT_EXPLORE = 0;

/** Parameters of the wrapper (ctx.params, `--param`), with their defaults. */
export const EXPLORE_DEFAULTS = {
  /** 1: the safe rule (the strategy must beat bfs order, else the bfs lane gets `exploreMax`); 0: probability matching (ab8405f) */
  exploreSafe: 1,
  /** the largest share of fetches the bfs lane may get: about 1/exploreMax × BFS's pages at worst, when the judge is right */
  exploreMax: 0.95,
  /** safe rule: the share of the bfs lane when the strategy's picks clearly harvest more (probability matching: --explore/10) */
  exploreMin: 0.02,
  /** safe rule: judged pages per arm before the comparison counts, unless already decisive */
  exploreWarmup: 10,
  /** safe rule: P(the strategy's picks harvest more) at which it gets all but exploreMin */
  exploreConfident: 0.9,
  /** per-arm discount of the bandit's counts (a window of about 1/(1 − gamma) pages) */
  exploreGamma: 0.98,
  /** probability matching only: 1: the exploration lane takes links near a target found first (siblings, the target's links), then BFS order; 0: BFS order only (the safe rule's bfs lane is always BFS order only) */
  exploreNear: 1,
  /** judged pages in the recent window of the tail test */
  tailWindow: 50,
  /** the tail starts when the window's harvest is below this × the crawl's */
  tailDrop: 0.5,
  /** relevant pages found before the tail test applies */
  tailMin: 5,
  /** share of fetches of the near lane in the tail, at least */
  tailShare: 0.5,
  maxCandidates: 20_000,
  maxNear: 5_000,
  maxLifted: 1_000,
} as const;

const DEPTHS = 64;
// the links of recent pages are most of the wrapper's memory (URL strings): 500 × 50 of them
const SIBLING_PAGES = 500;
const SIBLING_LINKS = 50;
const TARGET_DIRS = 2_000;
const BLOOM_BITS = 2 ** 23;

export type Lane = 'strategy' | 'bfs' | 'near';

/** What the wrapper can tell about itself (tests, benchmarks). */
export interface ExploreStats {
  /** the share of fetches the bfs lane gets now */
  epsilon: number;
  /** pages observed per lane they were taken through */
  pages: Record<Lane, number>;
  /** relevant pages per lane */
  relevant: Record<Lane, number>;
  /** URLs lifted per lane */
  lifted: { bfs: number; near: number };
  /** the tail lane is active */
  tail: boolean;
  /** sizes of the bounded structures */
  sizes: { candidates: number; candidateSlots: number; near: number; lifted: number };
}

export interface ExploreScorer extends Scorer {
  exploreStats(): ExploreStats;
}

/** A Bloom filter of strings (3 hashes over `bits` bits). */
export class Bloom {
  readonly #bits: Uint32Array;
  readonly #mask: number;
  constructor(bits: number) {
    this.#bits = new Uint32Array(bits >>> 5);
    this.#mask = bits - 1;
  }
  #hashes(s: string): [number, number] {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    return [h1 >>> 0, (h2 | 1) >>> 0];
  }
  add(s: string): void {
    const [a, b] = this.#hashes(s);
    for (let k = 0; k < 3; k++) {
      const bit = (a + k * b) & this.#mask;
      this.#bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }
  has(s: string): boolean {
    const [a, b] = this.#hashes(s);
    for (let k = 0; k < 3; k++) {
      const bit = (a + k * b) & this.#mask;
      if ((this.#bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/** The judged harvest of the last `size` judged pages: a ring of 0 / 1 (the tail test here, the site lane's bar). */
export class RecentHarvest {
  readonly #ring: Uint8Array;
  #seen = 0;
  #count = 0;
  #relevant = 0;
  constructor(size: number) {
    this.#ring = new Uint8Array(size);
  }
  /** one more judged page */
  record(isRelevant: boolean): void {
    const slot = ++this.#seen % this.#ring.length;
    if (this.#count === this.#ring.length) this.#relevant -= this.#ring[slot]!;
    else this.#count++;
    this.#ring[slot] = isRelevant ? 1 : 0;
    this.#relevant += this.#ring[slot]!;
  }
  /** judged pages in the ring (at most `size`) */
  get count(): number {
    return this.#count;
  }
  /** relevant pages per judged page in the ring (0 while empty) */
  get rate(): number {
    return this.#count === 0 ? 0 : this.#relevant / this.#count;
  }
}

/** The directory of a canonical URL: up to the last '/' of its path (no query). */
export function directoryOf(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 through erf; |error| < 1.5e-7). */
export function phi(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** A discounted Beta posterior of a harvest rate. */
class Arm {
  hits = 0;
  n = 0;
  /** judged pages of this arm, undiscounted */
  seen = 0;
  constructor(private readonly gamma: number) {}
  add(relevant: boolean): void {
    this.decay();
    this.hits += relevant ? 1 : 0;
    this.n += 1;
    this.seen++;
  }
  /** one page's discount */
  decay(): void {
    this.hits *= this.gamma;
    this.n *= this.gamma;
  }
  /** the posterior mean under a Beta prior of mean `prior` and weight 2 (½: Beta(1, 1)) */
  mean(prior: number): number {
    return (2 * prior + this.hits) / (2 + this.n);
  }
  variance(prior: number): number {
    const m = this.mean(prior);
    return (m * (1 - m)) / (3 + this.n);
  }
}

/** How the share of the bfs lane follows the two arms (see {@link Allocator}). */
export interface AllocatorOptions {
  /** the share while the arms are being learned (the --explore value) */
  start: number;
  /** the share when the strategy's picks clearly harvest more */
  min: number;
  /** the share when they do not */
  max: number;
  /** per-arm discount of the counts */
  gamma: number;
  /** 1: the safe rule (the strategy must show it beats bfs order); 0: probability matching (ab8405f) */
  safe: boolean;
  /** safe rule: judged pages each arm needs before its estimate counts (unless the comparison is already decisive) */
  warmup: number;
  /** safe rule: P(strategy harvests more) at which the strategy gets all but `min` */
  confident: number;
}

/**
 * The bandit over the strategy's own picks and the bfs lane: each a
 * discounted Beta posterior of its judged harvest (relevant pages per
 * fetched page); q = P(harvest_strategy > harvest_bfs) by the normal
 * approximation of the two posteriors. Deterministic.
 *
 * The safe rule (issue 22 item 2, the default): the strategy must show it
 * beats breadth-first order, else the bfs lane takes most fetches.
 * - q ≥ `confident` (0.9): the strategy's picks clearly harvest more: `min`;
 * - else, while either arm has fewer than `warmup` judged pages: `start`
 *   (both arms learned at once; 0.5 learns them fastest);
 * - else `max` when q ≤ ½ (the strategy does not beat bfs order: the crawl
 *   is then within about 1/max of BFS's pages), falling linearly to `min`
 *   as q goes from ½ to `confident`.
 * Probability matching (`safe` off; ab8405f): ε = start·2(1 − q) when the
 * strategy leads, start + (max − start)·(1 − 2q) when it trails, at least
 * start/10.
 */
export class Allocator {
  readonly strategy: Arm;
  readonly bfs: Arm;
  constructor(private readonly o: AllocatorOptions) {
    this.strategy = new Arm(o.gamma);
    this.bfs = new Arm(o.gamma);
  }
  /**
   * A judged page fetched through `lane`. Safe rule: every page discounts
   * both arms (a window of the crawl's last pages, not of the arm's), so
   * the evidence of an arm that gets few fetches fades and it is tried
   * again: the bfs lane's harvest changes as BFS order goes deeper (a
   * department's list pages first, the targets one level down), and an
   * early "bfs order finds nothing" must not hold for the whole crawl.
   * Probability matching discounts an arm per page of its own.
   */
  record(lane: 'strategy' | 'bfs', relevant: boolean): void {
    const arm = lane === 'strategy' ? this.strategy : this.bfs;
    if (this.o.safe) (arm === this.strategy ? this.bfs : this.strategy).decay();
    arm.add(relevant);
  }
  /**
   * P(the strategy's picks harvest more than the bfs lane's). The safe rule's
   * prior is the two arms' pooled harvest (empirical Bayes), so that the
   * arm with fewer pages does not look better for want of evidence (under
   * Beta(1, 1), an arm of 20 pages and no target beats one of 50 pages and
   * no target); probability matching keeps Beta(1, 1).
   */
  lead(): number {
    const s = this.strategy;
    const b = this.bfs;
    const prior = this.o.safe ? (1 + s.hits + b.hits) / (2 + s.n + b.n) : 0.5;
    return phi((s.mean(prior) - b.mean(prior)) / Math.sqrt(s.variance(prior) + b.variance(prior)));
  }
  /** the share of fetches the bfs lane gets now */
  share(): number {
    const { start, min, max, safe, warmup, confident } = this.o;
    const q = this.lead();
    if (!safe) {
      const p = 1 - q;
      const e = p <= 0.5 ? start * 2 * p : start + (max - start) * (2 * p - 1);
      return Math.max(min, Math.min(max, e));
    }
    if (q >= confident) return min;
    if (this.strategy.seen < warmup || this.bfs.seen < warmup) return start;
    const t = Math.max(0, Math.min(1, (q - 0.5) / (confident - 0.5)));
    return max - (max - min) * t;
  }
}

/**
 * `inner` with the exploration and tail lanes (see the module doc); `explore`
 * is the starting share of the bfs lane, in (0, 1]. Parameters from
 * ctx.params (EXPLORE_DEFAULTS); UsageError (FC_USAGE) on a bad one.
 */
export function withExploration(inner: Scorer, ctx: ScorerContext, explore: number): ExploreScorer {
  const num = (name: keyof typeof EXPLORE_DEFAULTS, opts?: Parameters<typeof numberParam>[4]): number =>
    numberParam(ctx, 'explore', name, EXPLORE_DEFAULTS[name], opts);
  const start = Math.min(1, Math.max(0, explore));
  const maxShare = Math.max(start, num('exploreMax', { min: 0, max: 1 }));
  const safe = num('exploreSafe', { min: 0, max: 1, integer: true }) === 1;
  const minShare = safe ? Math.min(start, num('exploreMin', { min: 0, max: 1 })) : start / 10;
  const gamma = num('exploreGamma', { min: 0, max: 1 });
  const allocator = new Allocator({
    start,
    min: minShare,
    max: maxShare,
    gamma,
    safe,
    warmup: num('exploreWarmup', { min: 0, integer: true }),
    confident: num('exploreConfident', { min: 0.5, max: 1 }),
  });
  const tailWindow = num('tailWindow', { min: 1, integer: true });
  const tailDrop = num('tailDrop', { min: 0, max: 1 });
  const tailMin = num('tailMin', { min: 0, integer: true });
  const tailShare = num('tailShare', { min: 0, max: 1 });
  const maxCandidates = num('maxCandidates', { min: 1, integer: true });
  const maxNear = num('maxNear', { min: 1, integer: true });
  const maxLifted = num('maxLifted', { min: 1, integer: true });
  const nearFirst = num('exploreNear', { min: 0, max: 1, integer: true }) === 1;
  const threshold = typeof ctx.params.threshold === 'number' ? ctx.params.threshold : Number(ctx.params.threshold ?? 0.2);

  // the bfs lane: queued URLs by depth, first discovered first (lazy deletion: a URL is live while in `depthOf`)
  const depthOf = new Map<string, number>();
  const buckets: string[][] = Array.from({ length: DEPTHS }, () => []);
  const heads = new Array<number>(DEPTHS).fill(0);
  let slots = 0;
  const fetched = new Bloom(BLOOM_BITS);
  // the near lane: a stack (most recent target's neighbours first)
  let near: string[] = [];
  const linksOf = new Lru<string, string[]>(SIBLING_PAGES);
  const targetDirs = new Lru<string, true>(TARGET_DIRS);
  const lifted = new Map<string, 'bfs' | 'near'>();
  // the depth the bfs lane took a URL at (its links are one deeper), until its fetch is observed
  const takenDepth = new Lru<string, number>(maxLifted);
  // the tail test
  const recent = new RecentHarvest(tailWindow);
  let judged = 0;
  let relevantTotal = 0;
  let credit = 0;
  let tailCredit = 0;
  const pages: Record<Lane, number> = { strategy: 0, bfs: 0, near: 0 };
  const relevant: Record<Lane, number> = { strategy: 0, bfs: 0, near: 0 };
  const liftedCount = { bfs: 0, near: 0 };

  const epsilon = (): number => allocator.share();
  const inTail = (): boolean =>
    relevantTotal >= tailMin && recent.count >= tailWindow && recent.rate < tailDrop * (relevantTotal / judged);

  const compact = (): void => {
    slots = 0;
    for (let d = 0; d < DEPTHS; d++) {
      const live = buckets[d]!.slice(heads[d]).filter((u) => depthOf.get(u) === d);
      buckets[d] = live;
      heads[d] = 0;
      slots += live.length;
    }
  };
  const addCandidate = (url: string, depth: number): void => {
    if (fetched.has(url)) return;
    const d = Math.min(DEPTHS - 1, Math.max(0, depth));
    const known = depthOf.get(url);
    if (known !== undefined) {
      // found again by a shorter path: it moves up to the depth BFS would give it (the old slot is skipped lazily)
      if (d < known) {
        depthOf.set(url, d);
        buckets[d]!.push(url);
        slots++;
        if (slots > 2 * maxCandidates) compact();
      }
      return;
    }
    if (depthOf.size >= maxCandidates) {
      // full: the deepest newest candidate goes, if deeper than this one
      let deepest = DEPTHS - 1;
      while (deepest > d && buckets[deepest]!.length === heads[deepest]) deepest--;
      if (deepest <= d) return;
      const b = buckets[deepest]!;
      while (b.length > heads[deepest]!) {
        const u = b.pop()!;
        slots--;
        if (depthOf.get(u) === deepest) {
          depthOf.delete(u);
          break;
        }
      }
      if (depthOf.size >= maxCandidates) return;
    }
    depthOf.set(url, d);
    buckets[d]!.push(url);
    slots++;
    if (slots > 2 * maxCandidates) compact();
  };
  const pushNear = (url: string): void => {
    if (fetched.has(url) || lifted.has(url)) return;
    near.push(url);
    if (near.length > 2 * maxNear) near = near.slice(near.length - maxNear);
  };
  const takeBfs = (): string | null => {
    for (let d = 0; d < DEPTHS; d++) {
      const b = buckets[d]!;
      while (heads[d]! < b.length) {
        const u = b[heads[d]!]!;
        heads[d]!++;
        if (depthOf.get(u) === d) {
          depthOf.delete(u);
          if (!lifted.has(u) && !fetched.has(u)) {
            takenDepth.set(u, d);
            return u;
          }
        }
      }
      if (heads[d]! > 0) {
        slots -= heads[d]!;
        b.length = 0;
        heads[d] = 0;
      }
    }
    return null;
  };
  const takeNear = (): string | null => {
    while (near.length > 0) {
      const u = near.pop()!;
      if (!fetched.has(u) && !lifted.has(u)) {
        depthOf.delete(u);
        return u;
      }
    }
    return null;
  };
  const lift = (url: string, lane: 'bfs' | 'near', out: Rescore[]): void => {
    lifted.set(url, lane);
    if (lifted.size > maxLifted) lifted.delete(lifted.keys().next().value as string);
    liftedCount[lane]++;
    out.push({ url, score: LIFT_SCORE });
  };

  const wrapper: ExploreScorer = {
    name: inner.name,
    pageRelevance: (page: ParsedPage, item: CrawlItem) => inner.pageRelevance(page, item),
    linkScore: (link: PageLink, page: ParsedPage, pageRelevance: number, url?: string) => inner.linkScore(link, page, pageRelevance, url),

    observe(item: CrawlItem, links: readonly QueuedLink[]): void {
      inner.observe?.(item, links);
      const urls = [item.entry.url, ...(item.fetch?.redirects ?? [])];
      let lane: Lane = 'strategy';
      // the page's depth as BFS would count it, as far as the wrapper saw the links: its links are one deeper
      let own = item.entry.depth;
      for (const u of urls) {
        own = Math.min(own, depthOf.get(u) ?? takenDepth.peek(u) ?? own);
        takenDepth.delete(u);
        fetched.add(u);
        depthOf.delete(u);
        const l = lifted.get(u);
        if (l !== undefined) {
          lane = l;
          lifted.delete(u);
        }
      }
      const isRelevant = item.page !== undefined && (item.relevance ?? 0) >= threshold;
      if (item.page !== undefined) {
        pages[lane]++;
        if (isRelevant) relevant[lane]++;
        if (lane !== 'near') allocator.record(lane, isRelevant);
        judged++;
        if (isRelevant) relevantTotal++;
        recent.record(isRelevant);
      }
      for (const link of links) addCandidate(link.url, Math.min(link.depth, own + 1));
      const self = item.fetch?.finalUrl ?? item.entry.url;
      if (links.length > 0) linksOf.set(self, links.slice(0, SIBLING_LINKS).map((l) => l.url));
      if (isRelevant) {
        targetDirs.set(directoryOf(self), true);
        // siblings (the hub that led here), then this page's own links: popped first
        const parent = item.entry.parent;
        for (const u of (parent === null ? undefined : linksOf.peek(parent)) ?? []) pushNear(u);
        for (const link of links) pushNear(link.url);
      } else {
        for (const link of links) if (targetDirs.has(directoryOf(link.url))) pushNear(link.url);
      }
    },

    async rescore(frontier: () => AsyncIterable<FrontierEntry>, floor?: number): Promise<Rescore[] | null> {
      const own = (await inner.rescore?.(frontier, floor)) ?? null;
      const out: Rescore[] = own === null ? [] : own.filter((r) => !lifted.has(r.url));
      let share = epsilon();
      if (safe) {
        // the bfs lane keeps its share ε in BFS order whatever else happens (the bound against BFS); the tail takes its share from the strategy's picks
        credit += share;
        while (credit >= 1) {
          credit -= 1;
          const u = takeBfs();
          if (u === null) break;
          lift(u, 'bfs', out);
        }
        if (inTail()) {
          tailCredit += tailShare * (1 - share);
          while (tailCredit >= 1) {
            tailCredit -= 1;
            const u = takeNear();
            if (u === null) break;
            lift(u, 'near', out);
          }
        }
        return out.length > 0 ? out : null;
      }
      if (inTail()) {
        const nearShare = Math.max(tailShare, share);
        tailCredit += nearShare;
        while (tailCredit >= 1) {
          tailCredit -= 1;
          const n = takeNear();
          const u = n ?? takeBfs();
          if (u === null) break;
          lift(u, n !== null ? 'near' : 'bfs', out);
        }
        share = 0;
      }
      credit += share;
      while (credit >= 1) {
        credit -= 1;
        // the exploration lane: near a target found when there is such a link, else what BFS takes next
        const n = nearFirst ? takeNear() : null;
        const u = n ?? takeBfs();
        if (u === null) break;
        lift(u, n !== null ? 'near' : 'bfs', out);
      }
      return out.length > 0 ? out : null;
    },

    exploreStats: () => ({
      epsilon: epsilon(),
      pages: { ...pages },
      relevant: { ...relevant },
      lifted: { ...liftedCount },
      tail: inTail(),
      sizes: { candidates: depthOf.size, candidateSlots: slots, near: near.length, lifted: lifted.size },
    }),
  };
  const stats = (inner as { stats?: () => unknown }).stats;
  if (typeof stats === 'function') (wrapper as { stats?: () => unknown }).stats = () => stats.call(inner);
  if (inner.readsQueuedText !== undefined) (wrapper as { readsQueuedText?: boolean }).readsQueuedText = inner.readsQueuedText;
  return wrapper;
}
