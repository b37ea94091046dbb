/**
 * WARC-out stage (`--warc-out DIR`): a pass-through between classify and the
 * frontier sink that archives every item carrying a fetched response.
 * Loaded and wired only with the flag (src/pipeline.ts).
 *
 * For each such item it writes (src/warc/writer.ts), in one awaited write,
 * a request and a response record for every redirect hop and for the final
 * answer, then a metadata record with focuscrawl's verdict (score,
 * relevance, relevant, depth, parent, strategy). The item is yielded only
 * after the write resolved, so a page's records are in the WARC file before
 * the sink commits the page: a crawl killed at any moment has archived
 * every committed page (a page archived but not committed is fetched and
 * archived again by the resumed crawl). Awaiting each write is the
 * backpressure: a slow disk stops this stage, and so the pipeline, from
 * pulling.
 *
 * Bodies: the final answer's decoded body as the fetch stage kept it (the
 * parse stage leaves it set when this stage runs); a body cut at the byte
 * cap gets `WARC-Truncated: length`. The fetch stage reads no body of a
 * redirect or of a type focuscrawl does not parse: those answers are stored
 * with an empty body and `WARC-Truncated: length` unless they announced an
 * empty one. Every answer received is archived whatever became of the
 * item (`item.refusedHops` when it ended in an error: a refused redirect
 * target, a loop, a chain past the hop cap, a bad location, an
 * undecodable body, a later hop that failed), so a replay of the files
 * answers those URLs as the web did. Request records
 * hold the request headers HttpClient sends (`Authorization` is never
 * archived).
 */
import { DEFAULT_USER_AGENT } from '../http.ts';
import type { CrawlItem, FetchHop, FetchResult } from '../types.ts';
import type { TruncatedReason, WarcExchange, WarcPage, WarcWriter } from '../warc/writer.ts';

export interface WarcOutOptions {
  writer: Pick<WarcWriter, 'writePage'>;
  /** the strategy name, for the metadata record */
  strategy: string;
  /** the fetch byte cap (--max-bytes): a body cut there is `WARC-Truncated: length` */
  maxBytes: number;
  /** User-Agent the client sends (default DEFAULT_USER_AGENT) */
  userAgent?: string;
  /** set `fetch.body = null` after writing (default true; false when a later stage needs it) */
  dropBody?: boolean;
}

/** The Accept headers HttpClient sends for a crawl request (src/http.ts). */
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
const ACCEPT_ENCODING = 'gzip, deflate, br';

function requestHeaders(url: string, userAgent: string): Record<string, string> {
  return { Host: new URL(url).host, 'User-Agent': userAgent, Accept: ACCEPT, 'Accept-Encoding': ACCEPT_ENCODING };
}

/** Whether an answer whose body was not read had one: not for 1xx/204/304 or Content-Length 0. */
function hadBody(status: number, headers: Record<string, string>): boolean {
  if (status < 200 || status === 204 || status === 304) return false;
  return (headers['content-length'] ?? '').trim() !== '0';
}

/** Redirect answers (bodies not read: stored empty). */
function hopExchanges(hops: readonly FetchHop[], ua: string): WarcExchange[] {
  return hops.map((h) => ({
    url: h.url,
    date: h.fetchedAt,
    requestHeaders: requestHeaders(h.url, ua),
    status: h.status,
    headers: h.headers,
    body: null,
    truncated: hadBody(h.status, h.headers) ? 'length' : null,
  }));
}

/** The exchanges of one fetch: redirect hops (empty bodies), then the final answer. */
export function exchangesOf(f: FetchResult, opts: Pick<WarcOutOptions, 'maxBytes' | 'userAgent'>): WarcExchange[] {
  const ua = opts.userAgent ?? DEFAULT_USER_AGENT;
  const hops = f.hops ?? [];
  const out = hopExchanges(hops.slice(0, -1), ua);
  let truncated: TruncatedReason | null = null;
  if (f.body === null) truncated = hadBody(f.status, f.headers) ? 'length' : null;
  else if (f.truncated) truncated = f.bytes >= opts.maxBytes ? 'length' : 'unspecified';
  out.push({
    url: f.finalUrl,
    date: hops.length > 0 ? hops[hops.length - 1].fetchedAt : f.fetchedAt,
    requestHeaders: requestHeaders(f.finalUrl, ua),
    status: f.status,
    headers: f.headers,
    body: f.body,
    truncated,
  });
  return out;
}

/** What is archived for one item with a fetched response or refused redirect answers, or null. */
export function warcPageOf(item: CrawlItem, opts: WarcOutOptions): WarcPage | null {
  const f = item.fetch;
  const exchanges = f !== undefined ? exchangesOf(f, opts) : hopExchanges(item.refusedHops ?? [], opts.userAgent ?? DEFAULT_USER_AGENT);
  if (exchanges.length === 0) return null;
  return {
    exchanges,
    metadata: {
      url: item.entry.url,
      score: item.entry.score,
      relevance: item.relevance ?? 0,
      relevant: item.relevant ?? false,
      depth: item.entry.depth,
      parent: item.entry.parent,
      strategy: opts.strategy,
      title: item.page?.title || null,
      error: item.error?.code ?? null,
    },
  };
}

/**
 * Pipeline stage: archives each item with a `fetch` (or with the answers
 * received before it failed), then yields it unchanged (its body dropped
 * unless dropBody is false).
 */
export async function* warcOutStage(source: AsyncIterable<CrawlItem>, opts: WarcOutOptions): AsyncGenerator<CrawlItem> {
  const dropBody = opts.dropBody !== false;
  for await (const item of source) {
    const page = warcPageOf(item, opts);
    if (page !== null) await opts.writer.writePage(page);
    if (dropBody && item.fetch !== undefined) item.fetch.body = null;
    yield item;
  }
}
