/**
 * Classify stage: judges each fetched page and scores its links.
 *
 * - an item with `error` passes through untouched;
 * - an item with `page`: relevance = scorer.pageRelevance, relevant =
 *   relevance >= threshold. Pages answered with an HTTP error status (4xx,
 *   5xx) and an HTML body are judged too (their text is what the server
 *   sent), but their links are followed only for 2xx answers: outlinks are
 *   the links that are not nofollow (page-level <meta robots nofollow> or
 *   rel=nofollow on the link), in document order, at most `maxOutlinks`,
 *   each `{ url, canonical, score: scorer.linkScore(...), anchor }`. URLs
 *   are as the parser resolved them; `canonical` is each one canonicalised
 *   once here (with the crawl's options), handed to linkScore (graph
 *   strategies key their nodes by it) and to the frontier sink, which
 *   dedupes; a link with no canonical form is dropped here;
 * - an item without a page (non-HTML body, no body): relevance 0, relevant
 *   false, no outlinks.
 * A scorer that throws turns the item into an error item (toItemError), so
 * one bad page never stops the crawl.
 */
import { toItemError } from '../errors.ts';
import { DEFAULT_MAX_LINKS } from '../parse/page-parser.ts';
import type { CrawlItem, Outlink, Scorer } from '../types.ts';
import { canonicalizer, isSimpleHttpUrl, type CanonOptions } from '../urls/canonical.ts';

export interface ClassifyOptions {
  scorer: Scorer;
  /** relevance at or above this marks a page relevant */
  threshold: number;
  /** cap on outlinks kept per page (default DEFAULT_MAX_LINKS; the pipeline passes --max-links-per-page, the parser's cap, so this one never cuts more) */
  maxOutlinks?: number;
  /** canonicalisation options: the sink's (pipeline.ts passes both the same) */
  canonOptions?: CanonOptions;
}

/** Pipeline stage: fills relevance, relevant and outlinks on each item. */
export async function* classifyStage(source: AsyncIterable<CrawlItem>, opts: ClassifyOptions): AsyncGenerator<CrawlItem> {
  const maxOutlinks = opts.maxOutlinks ?? DEFAULT_MAX_LINKS;
  for await (const item of source) {
    if (item.error) {
      yield item;
      continue;
    }
    try {
      const verdict = classify(item, opts, maxOutlinks);
      item.relevance = verdict.relevance;
      item.relevant = verdict.relevant;
      item.outlinks = verdict.outlinks;
    } catch (err) {
      item.error = toItemError(err);
    }
    yield item;
  }
}

type Verdict = Required<Pick<CrawlItem, 'relevance' | 'relevant' | 'outlinks'>>;

function classify(item: CrawlItem, { scorer, threshold, canonOptions }: ClassifyOptions, maxOutlinks: number): Verdict {
  const page = item.page;
  if (!page) return { relevance: 0, relevant: false, outlinks: [] };
  const raw = scorer.pageRelevance(page, item);
  const relevance = Number.isFinite(raw) ? Math.min(1, Math.max(0, raw)) : 0;
  const outlinks: Outlink[] = [];
  const status = item.fetch?.status ?? 200;
  if (status >= 200 && status < 300 && !page.nofollow) {
    // canonical form of each href, remembered per page for hrefs that are
    // not already canonical (a page repeats hrefs); a page of canonical
    // hrefs (isSimpleHttpUrl, which canonicalize returns as they are) makes no memo
    let canonicalOf: ((href: string) => string | null) | undefined;
    for (const link of page.links) {
      if (outlinks.length >= maxOutlinks) break;
      if (link.nofollow) continue;
      const canonical = isSimpleHttpUrl(link.url) ? link.url : (canonicalOf ??= canonicalizer(canonOptions))(link.url);
      if (canonical === null) continue;
      const score = scorer.linkScore(link, page, relevance, canonical);
      outlinks.push({ url: link.url, canonical, score: Number.isFinite(score) ? score : 0, anchor: link.anchor, context: link.context });
    }
  }
  return { relevance, relevant: relevance >= threshold, outlinks };
}
