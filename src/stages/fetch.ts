/**
 * Fetch stage: CrawlItem -> CrawlItem with `fetch` (or `error`). Runs up to
 * `concurrency` fetches at once, follows redirects itself (each hop after the
 * first vetted by `checkHop`) and yields items in completion order.
 */
import { setMaxListeners } from 'node:events';
import { BadRedirectError, DecodeError, TooManyRedirectsError, toItemError } from '../errors.ts';
import type { HttpClient } from '../fetch/http.ts';
import type { CrawlItem, FetchHop, FetchResult, ItemError } from '../types.ts';
import { canonicalize, type CanonOptions } from '../urls/canonical.ts';
import { Puller, Wakeup } from '../util/iter.ts';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface FetchStageOptions {
  client: HttpClient;
  /** fetches in flight plus finished-but-not-yet-yielded items, at most */
  concurrency: number;
  /** cap on decoded body bytes per response */
  maxBytes: number;
  /** redirects followed per item, default 5 */
  maxRedirects?: number;
  canonOptions?: CanonOptions;
  /** vets every redirect target (not the first URL): robots + seen; an ItemError ends the item */
  checkHop?: (url: string) => Promise<ItemError | null>;
  /**
   * Politeness for a followed redirect hop to `url`, after checkHop allowed
   * it: resolves when the hop may be requested, to a callback called once
   * its answer (`replay`: from a replay proxy) or failure is in, or undefined.
   */
  beforeHop?: (url: string, hop: { origin: string; replay: boolean; elapsedMs: number; signal: AbortSignal }) => Promise<((replay: boolean) => void) | undefined>;
  /**
   * Called exactly once per item that enters the stage, as soon as it settles
   * and before it is queued for yielding: after the fetch (success or error),
   * or at once for an item that arrived carrying `error` (never fetched).
   * `requested` is true when the stage attempted a request for the item, even
   * when it ended with an error (a redirect hop refused by checkHop included),
   * false for an item that arrived carrying `error`.
   */
  onFetched?: (item: CrawlItem, requested: boolean) => void;
  /** abort: stop pulling, abort in-flight requests, yield nothing more, return */
  signal?: AbortSignal;
}

/**
 * Fetch `url`, following up to `maxRedirects` redirects. Resolves to the
 * FetchResult, or, when the fetch failed after an answer came, to the
 * ItemError with every answer received (for --warc-out: each is archived,
 * whatever its fate): a hop `checkHop` refused, a redirect loop, a chain
 * past `maxRedirects`, a redirect to a non-http(s) or malformed location
 * (FC_BAD_REDIRECT), a body that cannot be decoded (FC_DECODE: that answer
 * too), or a later hop that failed. Throws coded errors (network, timeout,
 * decode) when no answer came at all.
 */
async function fetchWithRedirects(
  url: string,
  opts: FetchStageOptions,
  signal: AbortSignal,
): Promise<FetchResult | { refused: ItemError; hops: FetchHop[] }> {
  const maxRedirects = opts.maxRedirects ?? 5;
  const started = Date.now();
  const fetchedAt = new Date(started).toISOString();
  const chain = [url];
  // the answers of a redirect chain (FetchResult.hops), for --warc-out: no copies, headers by reference
  const hops: FetchHop[] = [];
  let current = url;
  let hopDone: ((replay: boolean) => void) | undefined;
  for (;;) {
    let hop: Awaited<ReturnType<HttpClient['get']>>;
    const at = chain.length === 1 ? fetchedAt : new Date().toISOString();
    const hopStarted = Date.now();
    try {
      hop = await opts.client.get(current, { maxBytes: opts.maxBytes, signal });
    } catch (err) {
      hopDone?.(false);
      if (err instanceof DecodeError && err.response !== undefined) {
        hops.push({ url: current, status: err.response.status, headers: err.response.headers, fetchedAt: at });
      }
      if (hops.length > 0) return { refused: toItemError(err), hops };
      throw err;
    }
    hopDone?.(hop.replay);
    hopDone = undefined;
    if (REDIRECT_STATUSES.has(hop.status) && hop.location !== null) {
      // the redirect answer came: it is archived whatever happens next
      hops.push({ url: current, status: hop.status, headers: hop.headers, fetchedAt: at });
      const next = canonicalize(hop.location, current, opts.canonOptions);
      if (next === null) {
        return { refused: toItemError(new BadRedirectError(`${current} redirects to ${JSON.stringify(hop.location)}`)), hops };
      }
      if (chain.includes(next)) return { refused: toItemError(new TooManyRedirectsError(`redirect loop: ${[...chain, next].join(' -> ')}`)), hops };
      if (chain.length > maxRedirects) return { refused: toItemError(new TooManyRedirectsError(`more than ${maxRedirects} redirects from ${url}`)), hops };
      const veto = opts.checkHop === undefined ? null : await opts.checkHop(next);
      if (veto !== null) return { refused: veto, hops };
      hopDone = await opts.beforeHop?.(next, { origin: url, replay: hop.replay, elapsedMs: Date.now() - hopStarted, signal });
      chain.push(next);
      current = next;
      continue;
    }
    return {
      url,
      finalUrl: current,
      redirects: chain,
      status: hop.status,
      headers: hop.headers,
      contentType: hop.contentType,
      headerCharset: hop.headerCharset,
      body: hop.body,
      bytes: hop.bytes,
      truncated: hop.truncated,
      fetchedAt,
      ms: Date.now() - started,
      replay: hop.replay,
      ...(hops.length > 0 ? { hops: [...hops, { url: current, status: hop.status, headers: hop.headers, fetchedAt: at }] } : {}),
    };
  }
}

/**
 * The fetch stage. Bounded like it-parallel: the source is pulled only while
 * (running fetches + finished items not yet yielded) < concurrency, so a slow
 * consumer stops new fetches. Items come out in completion order; items that
 * arrive with `error` pass through unfetched. A per-URL failure sets
 * `item.error` and never throws. When the consumer stops early, in-flight
 * requests are aborted.
 */
export async function* fetchStage(
  source: AsyncIterable<CrawlItem>,
  opts: FetchStageOptions,
): AsyncGenerator<CrawlItem> {
  if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) {
    throw new TypeError(`concurrency must be a positive integer, got ${opts.concurrency}`);
  }
  const abort = new AbortController();
  // the stage listens to this signal, the HTTP client once for all its requests,
  // and every redirect hop waiting for its host's delay (beforeHop)
  setMaxListeners(opts.concurrency + 8, abort.signal);
  const onAbort = (): void => abort.abort(opts.signal?.reason);
  if (opts.signal?.aborted === true) return;
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const finished: CrawlItem[] = [];
  let running = 0;
  let sourceError: { err: unknown } | null = null;
  const wakeup = new Wakeup();
  const notify = wakeup.notify;

  abort.signal.addEventListener('abort', notify, { once: true });

  const settle = (item: CrawlItem, requested: boolean): void => {
    try {
      opts.onFetched?.(item, requested);
    } catch (err) {
      item.error ??= toItemError(err);
    }
    finished.push(item);
    notify();
  };

  const run = async (item: CrawlItem): Promise<void> => {
    try {
      const r = await fetchWithRedirects(item.entry.url, opts, abort.signal);
      if ('refused' in r) {
        item.error = r.refused;
        item.refusedHops = r.hops;
      } else item.fetch = r;
    } catch (err) {
      item.error = toItemError(err);
    }
    running--;
    if (!abort.signal.aborted) settle(item, true);
  };

  const src = new Puller(
    source,
    (item) => {
      if (abort.signal.aborted) return;
      if (item.error !== undefined) settle(item, false);
      else {
        running++;
        void run(item);
      }
    },
    (err) => {
      sourceError = { err };
    },
    notify,
  );

  try {
    for (;;) {
      if (abort.signal.aborted) return;
      if (!src.done && !src.pending && running + finished.length < opts.concurrency) src.pull();
      const item = finished.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (src.done && !src.pending && running === 0) {
        if (sourceError !== null) throw (sourceError as { err: unknown }).err;
        return;
      }
      await wakeup.wait();
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    if (!abort.signal.aborted) abort.abort();
    src.close();
  }
}
