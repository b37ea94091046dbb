/**
 * The synthetic crawl-like web of bench/graph-bench.ts and
 * bench/hits-convergence.ts (PRNG seeded, identical in every run):
 * 1,000,000 URLs in 50 topic clusters (URL i is in cluster i mod 50;
 * clusters 0–9 are on topic). A page links to 10 (6–14) URLs, 80% in its
 * own cluster, drawn with a skew towards low-numbered (popular) URLs;
 * anchors name the target's cluster ("photovoltaic" for on-topic
 * clusters).
 */
import { seededRandom as prng } from '../../src/random.ts';
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
