/**
 * The synthetic crawl-like web of bench/graph-bench.ts and
 * bench/hits-convergence.ts (PRNG seeded, identical in every run):
 * 1,000,000 URLs in 50 topic clusters (URL i is in cluster i mod 50;
 * clusters 0–9 are on topic). A page links to 10 (6–14) URLs, 80% in its
 * own cluster, drawn with a skew towards low-numbered (popular) URLs;
 * anchors name the target's cluster ("photovoltaic" for on-topic
 * clusters).
 */
import { seededRandom as prng } from '../../src/util/random.ts';
import type { ScorerContext } from '../../src/relevance/scorers/context.ts';
import { TopicModel } from '../../src/relevance/topic.ts';
import type { FetchResult, PageLink, ParsedPage } from '../../src/types.ts';

export const UNIVERSE = 1_000_000;
export const CLUSTERS = 50;
export const ON_TOPIC = 10;

export const urlOf = (i: number): string => `http://c${i % CLUSTERS}.test/p${i}`;

export function fetched(url: string): FetchResult {
  return {
    url, finalUrl: url, redirects: [url], status: 200, headers: {}, contentType: 'text/html', headerCharset: null,
    body: null, bytes: 0, truncated: false, fetchedAt: new Date(0).toISOString(), ms: 1, replay: false,
  };
}

/** The links of page `i` (deterministic in i). */
export function outlinks(i: number): number[] {
  const rnd = prng(i * 2654435761);
  const n = 6 + Math.floor(rnd() * 9);
  const cluster = i % CLUSTERS;
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const c = rnd() < 0.8 ? cluster : Math.floor(rnd() * CLUSTERS);
    const j = Math.floor((UNIVERSE / CLUSTERS) * rnd() ** 3); // skewed: low j are popular
    out.push(c + CLUSTERS * j);
  }
  return out;
}

export function pageOf(i: number): ParsedPage {
  const cluster = i % CLUSTERS;
  const title = cluster < ON_TOPIC ? `photovoltaic topic ${cluster} page ${i}` : `subject ${cluster} page ${i}`;
  const links: PageLink[] = outlinks(i).map((t) => ({
    url: urlOf(t),
    anchor: t % CLUSTERS < ON_TOPIC ? `photovoltaic ${t % CLUSTERS}` : `subject ${t % CLUSTERS}`,
    context: '',
    tag: 'a',
    nofollow: false,
    block: 'content',
  }));
  return { title, charset: 'utf-8', blocks: { title, heading: '', content: '', navigation: '', anchor: '', other: '' }, links, base: urlOf(i), noindex: false, nofollow: false, lang: null };
}

/** Relevance of page `i` as the benches judge it: 0.6 in an on-topic cluster, else 0.05 (threshold 0.2). */
export const relevanceOf = (i: number): number => (i % CLUSTERS < ON_TOPIC ? 0.6 : 0.05);

/**
 * A scorer context for the graph strategies over this web (topic
 * "photovoltaic", threshold 0.2, a round every 100 pages, then `params`).
 * Its judge returns what `judged` holds for a page (set relevanceOf there).
 */
export function graphWebContext(params: Record<string, number>): { ctx: ScorerContext; judged: WeakMap<ParsedPage, number> } {
  const judged = new WeakMap<ParsedPage, number>();
  const ctx: ScorerContext = {
    topic: new TopicModel({ name: 'pv', terms: ['photovoltaic'], threshold: 0.2 }),
    model: null,
    judge: (page) => judged.get(page) ?? 0,
    params: { threshold: 0.2, p: 100, ...params },
  };
  return { ctx, judged };
}

/**
 * The pages a crawl of this web fetches, breadth-first from pages 0–4, at
 * most `pages` of them. A page's links are queued when the caller asks for
 * the next page, after it has handled this one.
 */
export function* breadthFirst(pages: number): Generator<number> {
  const seen = new Uint8Array(UNIVERSE);
  const queue = new Int32Array(UNIVERSE);
  let head = 0;
  let tail = 0;
  for (const s of [0, 1, 2, 3, 4]) {
    seen[s] = 1;
    queue[tail++] = s;
  }
  for (let n = 0; n < pages && head < tail; n++) {
    const i = queue[head++];
    yield i;
    for (const target of outlinks(i)) {
      if (seen[target] === 0) {
        seen[target] = 1;
        queue[tail++] = target;
      }
    }
  }
}
