/**
 * `--site-lane X` (issue 22 item 3, the tail; beyond the papers): topical
 * locality at the level of the site, as a Scorer wrapper over ANY strategy.
 * Every host has a Beta posterior of its judged harvest (pages at or above
 * the relevance threshold per judged page fetched there), with the crawl's
 * harvest so far as the prior's mean and `siteWeight` (10) pages as its
 * weight, so one relevant page proves little: (10·p + 1) / 11. A host
 * beats the crawl's recent pages when P(its harvest > the harvest of the
 * last `siteWindow` judged pages) ≥ `siteConfident` (0.9; the posterior's
 * normal approximation): one relevant page alone does not (with p and the
 * recent harvest 0.1 it gives 0.77), three of three do (0.95). While some host with queued links
 * beats it, a share X of fetches is taken from the one of the highest
 * posterior mean:
 * its queued link of the highest strategy score is lifted to the top of
 * the frontier (a re-score to LIFT_SCORE, as `--explore` does).
 *
 * Why (bench/tail-diagnosis.ts, docs/results/tail.md): on a generated
 * portal web the last 20% of the finance articles waited a median 354
 * pages after a parent judged relevant had been fetched, on single-topic
 * channel hosts whose fetched pages were 77% judged relevant (median),
 * while the crawl fetched off-topic articles whose anchors the model
 * scored higher: the link ranking loses them, the site does not.
 *
 * `siteDepth` D (default 0) adds path units below the host: its first 1..D
 * directories ({@link dirUnitOf}), each with its own posterior under the same
 * rule; a link is queued in each of its units and the lane takes from the
 * confident unit of the highest mean, so a directory of too few judged pages
 * leaves the choice to its parent. Measured off by default
 * (docs/results/tail.md, "Path units below the host"): no WebKB median or
 * worst cell changed. With D > 0 the caps count units, not hosts:
 * `maxHosts` bounds hosts and directories together (one LRU),
 * `maxPerHost` the queue of each unit, and `maxQueued` counts a URL once
 * in each of its units (up to D + 1 times).
 *
 * `siteShape` L (default 0) adds URL-shape units ({@link shapeUnitsOf},
 * url-shape.ts: L 1 the fine shape, L 2 the coarse one too), under the same
 * rule and caps; with shapes the lane takes from the confident unit of the
 * highest lower bound (the posterior's `siteConfident` quantile), so a
 * shape of a few relevant pages does not outrank one of many. `shapeHubs`
 * 1 also counts an off-topic page as a hit of its shapes once a page it
 * linked to (its frontier parent) is judged relevant. Measured in
 * docs/results/tail.md ("URL-shape units").
 *
 * The strategy's link scores and page relevance are unchanged; X = 0 does
 * not wrap (paper-faithful). A crawl's default: {@link defaultSiteLane}
 * (0.5 for nb-link, nb-link-layers and online with a model, else 0).
 *
 * Bounded: `maxHosts` (2,000) hosts' posteriors and queues (least recently
 * seen go), `maxPerHost` (500) queued URLs per host (the lowest score
 * goes), `maxQueued` (20,000) queued URLs in all (the least recently seen
 * host's queue goes), `maxLifted` (1,000) lifted URLs awaiting their
 * fetch, a 1 MiB Bloom filter of fetched URLs, and with shapeHubs 20,000
 * off-topic page URLs awaiting a relevant child: a few MB of heap. Per
 * page: O(links) in observe (O(maxPerHost) for a link into a full host);
 * per lift O(hosts + maxPerHost). Deterministic.
 */
import type { CrawlItem, FrontierEntry, PageLink, ParsedPage, QueuedLink, Rescore, Scorer } from '../../types.ts';
import { numberParam, type ScorerContext } from './context.ts';
import { Lru } from '../../util/lru.ts';
import { hostOfCanonical } from '../../urls/canonical.ts';
import { Bloom, LIFT_SCORE, RecentHarvest, phi } from './explore.ts';
import { shapeUnitsOf } from './url-shape.ts';

/**
 * The share a crawl's site lane gets when CrawlConfig.siteLane (--site-lane)
 * is not given, for the strategies of SITE_LANE_STRATEGIES with a model
 * (docs/results/tail.md: on six generated Chinese webs it took nb-link's
 * pages to 90% from a median 5.3× the graph oracle's to 1.8× on the five
 * it was not designed on, and changed no median or worst cell of the WebKB
 * leave-one-out simulation at 80%). Every other strategy, and a crawl
 * without a model, gets 0 (the strategy alone, as its paper defines it).
 */
export const DEFAULT_SITE_LANE = 0.5;

/** The strategies the site lane is on for by default (with a model): the ones it was measured with. */
export const SITE_LANE_STRATEGIES: ReadonlySet<string> = new Set(['nb-link', 'nb-link-layers', 'online']);

/** The site lane share of a crawl of `strategy` when --site-lane is not given. */
export function defaultSiteLane(strategy: string, hasModel: boolean): number {
  return hasModel && SITE_LANE_STRATEGIES.has(strategy) ? DEFAULT_SITE_LANE : 0;
}

/** Parameters of the wrapper (ctx.params, `--param`), with their defaults. */
export const SITE_DEFAULTS = {
  /** weight (in pages) of the prior of a host's harvest, whose mean is the crawl's harvest so far */
  siteWeight: 10,
  /** judged pages in the recent window the best host must beat */
  siteWindow: 50,
  /** relevant pages found before the lane applies */
  siteMin: 5,
  /** P(a host's harvest > the recent harvest) it needs for its links to be taken */
  siteConfident: 0.9,
  /**
   * path units below the host: 0 the host alone; D also its first 1..D
   * directories (host/a/, host/a/b/), each with its own posterior, so a
   * directory of relevant pages on a mixed host can be the unit taken from
   */
  siteDepth: 0,
  /**
   * URL-shape units (url-shape.ts): 0 none; 1 the fine shape (digit runs
   * and `~user` abstracted); 2 also the coarse shape (the last segment a
   * wildcard). With shapes, the lane takes from the confident unit of the
   * highest lower bound (the posterior's `siteConfident` quantile), not mean
   */
  siteShape: 0,
  /**
   * with siteShape: 1 also counts a fetched page judged off topic as a hit
   * of its shapes once a page it linked to (its frontier parent) is judged
   * relevant: shapes of the pages that lead to targets (home pages that
   * list courses) are taken too, not only shapes of targets
   */
  shapeHubs: 0,
  /** hosts tracked (with siteDepth > 0: hosts and directories together) */
  maxHosts: 2_000,
  /** queued URLs per host (with siteDepth > 0: per unit) */
  maxPerHost: 500,
  /** queued URLs of all hosts together (when full, the least recently seen host's queue goes) */
  maxQueued: 20_000,
  maxLifted: 1_000,
} as const;

const BLOOM_BITS = 2 ** 23;
/** shapeHubs: pages judged off topic remembered, awaiting a relevant child */
const HUB_PAGES = 20_000;

/**
 * The path unit of a canonical URL at `depth`: its host and the first
 * `depth` directories of its path (the file name, query and fragment are
 * not directories), each ending in '/': `dirUnitOf('http://h/a/b/c.html', 1)`
 * is 'h/a/', at 2 'h/a/b/', at 0 (and for a URL with no directory) the host
 * alone, 'h'. A URL with fewer directories than `depth` gets its deepest.
 */
export function dirUnitOf(url: string, depth: number): string {
  const host = hostOfCanonical(url);
  if (depth <= 0) return host;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return host;
  let end = url.length;
  for (const c of ['?', '#']) {
    const i = url.indexOf(c, start);
    if (i >= 0 && i < end) end = i;
  }
  const dirs = url.slice(start + 1, end).split('/').slice(0, -1);
  let unit = host;
  for (const d of dirs.slice(0, depth)) unit += `/${d}`;
  return unit === host ? host : `${unit}/`;
}

/** The z of a normal quantile q in (0.5, 1) (bisection on phi; 1e-6 close): the lower bound's distance in sds. */
function probit(q: number): number {
  let lo = 0;
  let hi = 8;
  while (hi - lo > 1e-6) {
    const mid = (lo + hi) / 2;
    if (phi(mid) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

interface Site {
  judged: number;
  relevant: number;
  /** queued URLs of the host, by strategy score */
  queued: Map<string, number>;
}

export interface SiteLaneStats {
  /** URLs lifted from high-yield hosts */
  lifted: number;
  /** pages fetched through the lane, and the relevant ones among them */
  pages: number;
  relevant: number;
  /** the host the lane would take from now, with its posterior mean (null: none beats the recent harvest) */
  best: { host: string; mean: number } | null;
  /** the harvest of the recent window */
  recent: number;
  /** queued URLs remembered, all hosts */
  queued: number;
}

export interface SiteLaneScorer extends Scorer {
  siteStats(): SiteLaneStats;
}

/**
 * `inner` with the site lane (see the module doc); `share` in (0, 1] is the
 * share of fetches the lane takes while a host beats the recent harvest.
 * Parameters from ctx.params (SITE_DEFAULTS); UsageError (FC_USAGE) on a bad one.
 */
export function withSiteLane(inner: Scorer, ctx: ScorerContext, share: number): SiteLaneScorer {
  const num = (name: keyof typeof SITE_DEFAULTS, opts?: Parameters<typeof numberParam>[4]): number =>
    numberParam(ctx, 'site-lane', name, SITE_DEFAULTS[name], opts);
  const weight = num('siteWeight', { min: 0 });
  const window = num('siteWindow', { min: 1, integer: true });
  const minRelevant = num('siteMin', { min: 0, integer: true });
  const confident = num('siteConfident', { min: 0.5, max: 1 });
  const maxPerHost = num('maxPerHost', { min: 1, integer: true });
  const maxQueued = num('maxQueued', { min: 1, integer: true });
  const maxLifted = num('maxLifted', { min: 1, integer: true });
  const maxHosts = num('maxHosts', { min: 1, integer: true });
  const depth = num('siteDepth', { min: 0, max: 8, integer: true });
  const shapes = num('siteShape', { min: 0, max: 2, integer: true });
  // with shapes: rank confident units by the lower bound m - z·sd, z the confident quantile
  const z = shapes > 0 ? probit(confident) : 0;
  const hubs = shapes > 0 && num('shapeHubs', { min: 0, max: 1, integer: true }) === 1;
  // shapeHubs: recent pages judged off topic, which a relevant child makes a hit of their shapes (once)
  const offTopic = new Lru<string, true>(HUB_PAGES);
  /** the distinct units of a URL, the host first (only the host at siteDepth 0 and siteShape 0) */
  const unitsOf = (url: string): string[] => {
    const out = [hostOfCanonical(url)];
    for (let d = 1; d <= depth; d++) {
      const unit = dirUnitOf(url, d);
      if (unit === out[out.length - 1]) break;
      out.push(unit);
    }
    if (shapes > 0) out.push(...shapeUnitsOf(url, shapes));
    return out;
  };
  const sites = new Lru<string, Site>(maxHosts);
  // queued URLs of all hosts together
  let total = 0;
  const threshold = typeof ctx.params.threshold === 'number' ? ctx.params.threshold : Number(ctx.params.threshold ?? 0.2);
  const fetched = new Bloom(BLOOM_BITS);
  const lifted = new Set<string>();
  const recent = new RecentHarvest(window);
  let judged = 0;
  let relevantTotal = 0;
  let credit = 0;
  let liftedCount = 0;
  let lanePages = 0;
  let laneRelevant = 0;

  const siteOf = (host: string): Site => {
    let s = sites.get(host);
    if (s === undefined) {
      if (sites.size >= maxHosts) {
        // the least recently seen host goes, with its queue
        const [oldHost, old] = sites.entries().next().value as [string, Site];
        total -= old.queued.size;
        sites.delete(oldHost);
      }
      s = { judged: 0, relevant: 0, queued: new Map() };
      sites.set(host, s);
    }
    return s;
  };
  const prior = (): number => (judged === 0 ? 0 : relevantTotal / judged);
  const mean = (s: Site, p: number): number => (weight * p + s.relevant) / (weight + s.judged);
  const best = (): { host: string; site: Site; mean: number } | null => {
    if (relevantTotal < minRelevant || recent.count < window) return null;
    const p = prior();
    const bar = recent.rate;
    let top: { host: string; site: Site; mean: number } | null = null;
    let topRank = -Infinity;
    for (const [host, site] of sites.entries()) {
      if (site.queued.size === 0) continue;
      const m = mean(site, p);
      if (m <= bar || (z === 0 && m <= topRank)) continue;
      const sd = Math.sqrt((m * (1 - m)) / (weight + site.judged + 1));
      if (sd > 0 && phi((m - bar) / sd) < confident) continue;
      const rank = m - z * sd;
      if (rank <= topRank) continue;
      top = { host, site, mean: m };
      topRank = rank;
    }
    return top;
  };
  const queue = (url: string, score: number): void => {
    if (fetched.has(url) || lifted.has(url)) return;
    for (const unit of unitsOf(url)) queueIn(siteOf(unit).queued, url, score);
  };
  const unqueue = (url: string): void => {
    for (const unit of unitsOf(url)) if (sites.peek(unit)?.queued.delete(url) === true) total--;
  };
  const queueIn = (q: Map<string, number>, url: string, score: number): void => {
    const known = q.get(url);
    if (known !== undefined) {
      if (score > known) q.set(url, score);
      return;
    }
    if (q.size < maxPerHost && total >= maxQueued) {
      // full: the least recently seen other host's queue goes
      for (const [, other] of sites.entries()) {
        if (other.queued !== q && other.queued.size > 0) {
          total -= other.queued.size;
          other.queued.clear();
          break;
        }
      }
    }
    if (q.size >= maxPerHost || total >= maxQueued) {
      let low: string | null = null;
      let lowScore = Infinity;
      for (const [u, sc] of q) if (sc < lowScore) { low = u; lowScore = sc; }
      if (low === null || lowScore >= score) return;
      q.delete(low);
      total--;
    }
    q.set(url, score);
    total++;
  };
  const take = (site: Site): string | null => {
    let top: string | null = null;
    let topScore = -Infinity;
    for (const [u, sc] of site.queued) if (sc > topScore) { top = u; topScore = sc; }
    if (top !== null) unqueue(top);
    return top;
  };

  const wrapper: SiteLaneScorer = {
    name: inner.name,
    pageRelevance: (page: ParsedPage, item: CrawlItem) => inner.pageRelevance(page, item),
    linkScore: (link: PageLink, page: ParsedPage, pageRelevance: number, url?: string) => inner.linkScore(link, page, pageRelevance, url),

    observe(item: CrawlItem, links: readonly QueuedLink[]): void {
      inner.observe?.(item, links);
      let viaLane = false;
      for (const u of [item.entry.url, ...(item.fetch?.redirects ?? [])]) {
        fetched.add(u);
        if (lifted.delete(u)) viaLane = true;
        unqueue(u);
      }
      const self = item.fetch?.finalUrl ?? item.entry.url;
      fetched.add(self);
      if (item.page !== undefined) {
        const isRelevant = (item.relevance ?? 0) >= threshold;
        for (const unit of unitsOf(self)) {
          const site = siteOf(unit);
          site.judged++;
          if (isRelevant) site.relevant++;
        }
        if (hubs) {
          const parent = item.entry.parent;
          if (isRelevant && parent !== null && offTopic.get(parent) === true) {
            offTopic.delete(parent);
            for (const unit of shapeUnitsOf(parent, shapes)) {
              const site = sites.peek(unit);
              if (site !== undefined && site.relevant < site.judged) site.relevant++;
            }
          } else if (!isRelevant) {
            offTopic.set(self, true);
          }
        }
        judged++;
        if (isRelevant) relevantTotal++;
        if (viaLane) {
          lanePages++;
          if (isRelevant) laneRelevant++;
        }
        recent.record(isRelevant);
      }
      for (const link of links) queue(link.url, link.score);
    },

    async rescore(frontier: () => AsyncIterable<FrontierEntry>, floor?: number): Promise<Rescore[] | null> {
      const own = (await inner.rescore?.(frontier, floor)) ?? null;
      const out: Rescore[] = [];
      if (own !== null) {
        for (const r of own) {
          if (lifted.has(r.url)) continue;
          out.push(r);
          // the strategy's new score orders the units' queues too
          for (const unit of unitsOf(r.url)) {
            const q = sites.peek(unit)?.queued;
            if (q?.has(r.url) === true) q.set(r.url, r.score);
          }
        }
      }
      let top = best();
      if (top !== null) {
        credit += share;
        while (credit >= 1 && top !== null) {
          credit -= 1;
          const u = take(top.site);
          if (u === null) break;
          lifted.add(u);
          if (lifted.size > maxLifted) lifted.delete(lifted.values().next().value as string);
          liftedCount++;
          out.push({ url: u, score: LIFT_SCORE });
          if (top.site.queued.size === 0) top = best();
        }
      } else {
        credit = 0;
      }
      return out.length > 0 ? out : null;
    },

    siteStats: () => {
      const b = best();
      return { lifted: liftedCount, pages: lanePages, relevant: laneRelevant, best: b === null ? null : { host: b.host, mean: b.mean }, recent: recent.rate, queued: total };
    },
  };
  const stats = (inner as { stats?: () => unknown }).stats;
  if (typeof stats === 'function') (wrapper as { stats?: () => unknown }).stats = () => stats.call(inner);
  const explore = (inner as { exploreStats?: () => unknown }).exploreStats;
  if (typeof explore === 'function') (wrapper as { exploreStats?: () => unknown }).exploreStats = () => explore.call(inner);
  if (inner.readsQueuedText !== undefined) (wrapper as { readsQueuedText?: boolean }).readsQueuedText = inner.readsQueuedText;
  return wrapper;
}
