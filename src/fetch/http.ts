/**
 * The HTTP client: one GET per call on top of undici's `request` (no redirect
 * following, no retries), with capped, decoded bodies and coded errors.
 * Redirects are the fetch stage's job (src/stages/fetch.ts); `getText` is the
 * one exception, for robots.txt.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import {
  BadHostError,
  BadRedirectError,
  DecodeError,
  FocuscrawlError,
  NetworkError,
  PrivateAddressError,
  TimeoutError,
  TooManyRedirectsError,
  type ErrorCode,
} from '../errors.ts';
import { Lru } from '../util/lru.ts';
import { addressRange, checkHost, checkHostname, guardedLookup, type AddressPolicy, type Resolver } from './address-guard.ts';
import { connectLookup, isValidHostname, systemLookup } from './lookup.ts';
import { undici, type Dispatcher } from './undici.ts';

const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** User-Agent sent when none is configured. */
export const DEFAULT_USER_AGENT = `focuscrawl/${VERSION} (+https://github.com/focuscrawl/focuscrawl)`;

const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
const ACCEPT_ANY = '*/*';
/** How long, and for how many hosts, {@link HttpClient.checkAddress} keeps an answer. */
const HOST_CHECK_TTL_MS = 60_000;
const HOST_CHECK_CAPACITY = 4096;
/** Bytes read (and thrown away) from a body we do not keep, so the connection can be reused. */
const DUMP_LIMIT = 64 * 1024;
const PARSEABLE_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const PARSEABLE_EXTENSIONS = new Set(['html', 'htm', 'shtml', 'xhtml', 'php', 'asp', 'aspx', 'jsp', 'cgi']);

/** One HTTP exchange, as returned by {@link HttpClient.get}. */
export interface Hop {
  status: number;
  /** response headers, names lower-cased, repeated headers joined with ', ' */
  headers: Record<string, string>;
  /** raw Location header (unresolved), or null */
  location: string | null;
  /** media type of Content-Type without parameters, lower-cased */
  contentType: string | null;
  /** charset parameter of Content-Type, lower-cased, unquoted */
  headerCharset: string | null;
  /** decoded body (capped at maxBytes), or null when the body was not kept */
  body: Buffer | null;
  /** decoded bytes kept in `body` (0 when body is null) */
  bytes: number;
  /** the body was cut: at maxBytes, or where a corrupt compressed stream broke */
  truncated: boolean;
  /** the response carried an x-focuscrawl-replay header */
  replay: boolean;
}

export interface HttpClientOptions {
  /** default {@link DEFAULT_USER_AGENT} */
  userAgent?: string;
  /** forward proxy URL (http://host:port); plain-http targets are sent to it in absolute form */
  proxy?: string;
  /** connections to an http: proxy in all, for every host together (default 64) */
  proxyConnections?: number;
  /** TCP (+TLS) connect timeout, default 10 000 ms */
  connectTimeoutMs?: number;
  /** time to wait for the complete response headers, default 20 000 ms */
  headersTimeoutMs?: number;
  /** maximum gap between two body chunks, default 30 000 ms */
  bodyTimeoutMs?: number;
  /**
   * the whole of one request (connect, headers, body), default 60 000 ms: a
   * body trickling in (1 byte/s) never trips the gap timeout, this does
   */
  fetchTimeoutMs?: number;
  /** host (as in URL.host, i.e. with a non-default port) -> basic credentials, sent only to that host */
  auth?: Record<string, { user: string; pass: string }>;
  /** connections per origin, default 8 */
  connections?: number;
  /**
   * connect to loopback, private, link-local and metadata addresses too
   * (default false: such hosts fail with PrivateAddressError, FC_PRIVATE_ADDRESS,
   * checked on the URL's host and on every address its name resolves to).
   * Ignored with `proxy`: the proxy resolves names, and may itself be local.
   */
  allowPrivate?: boolean;
  /** which addresses are forbidden (default {@link addressRange}); for tests */
  addressPolicy?: AddressPolicy;
  /**
   * the resolver every connection (and the private-address guard) looks
   * names up with: default the system resolver (dns.lookup). Tests pass
   * loopbackLookup() (src/fetch/lookup.ts) so no lookup leaves the machine.
   * With `proxy`, only the proxy's own name is looked up (the proxy
   * resolves the targets).
   */
  lookup?: Resolver;
  /** the older name of `lookup` (used when `lookup` is not given) */
  resolver?: Resolver;
}

/** What the requests of one client came to, for "could not reach anything" (see runCrawl). */
export interface RequestOutcomes {
  /** requests that got an HTTP answer (any status) */
  answered: number;
  /** requests that failed at the network level (FC_NETWORK, FC_TIMEOUT) */
  failed: number;
  /** the first of those failures */
  firstFailure: FocuscrawlError | null;
}

export interface GetOptions {
  /** cap on decoded body bytes; the rest is not read (truncated: true) */
  maxBytes: number;
  /**
   * 'html' (default): keep the body only when the type is parseable (HTML/XHTML,
   * or by URL extension when Content-Type is missing). 'any': keep every body
   * and send `accept: *\/*`. Either way a 3xx with a Location keeps no body.
   */
  accept?: 'html' | 'any';
  signal?: AbortSignal;
}

/**
 * Map an undici/socket error to FC_TIMEOUT or FC_NETWORK, keeping it as
 * `cause`; a coded error anywhere in the `cause` chain wins (a
 * PrivateAddressError from the connect lookup stays FC_PRIVATE_ADDRESS even
 * if undici wraps it; undici 7 passes it through as is).
 */
export function toFetchError(err: unknown): FocuscrawlError {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof FocuscrawlError) return e;
  }
  if (
    err instanceof undici.errors.ConnectTimeoutError ||
    err instanceof undici.errors.HeadersTimeoutError ||
    err instanceof undici.errors.BodyTimeoutError ||
    (err as { code?: unknown } | null)?.code === 'ETIMEDOUT'
  ) {
    return new TimeoutError((err as Error).message, { cause: err });
  }
  const e = err as { code?: unknown; message?: unknown } | null;
  const msg = typeof e?.message === 'string' && e.message !== '' ? e.message : String(err);
  const code = typeof e?.code === 'string' && !msg.includes(e.code) ? `${e.code}: ` : '';
  return new NetworkError(`${code}${msg}`, { cause: err });
}

/** Parse a Content-Type value into its lower-cased media type and charset. */
export function parseContentType(value: string | null): { type: string | null; charset: string | null } {
  if (value === null) return { type: null, charset: null };
  const [head, ...params] = value.split(';');
  const type = head.trim().toLowerCase() || null;
  let charset: string | null = null;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').trim().toLowerCase() || null;
    break;
  }
  return { type, charset };
}

/**
 * Whether a response is worth parsing: Content-Type text/html or
 * application/xhtml+xml; without a Content-Type, a URL path ending in '/',
 * with no extension in its last segment, or with an HTML-ish extension.
 */
export function isParseable(contentType: string | null, url: string): boolean {
  if (contentType !== null) return PARSEABLE_TYPES.has(contentType);
  const path = new URL(url).pathname;
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  if (dot < 0) return true;
  return PARSEABLE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}

/** Last value of a possibly repeated header. */
function single(v: string | string[] | undefined): string | null {
  if (v === undefined) return null;
  return Array.isArray(v) ? (v.length > 0 ? v[v.length - 1] : null) : v;
}

/** zlib wrapper header check (RFC 1950): CM = 8 and the 16-bit header is a multiple of 31. */
function isZlibHeader(head: Buffer): boolean {
  return head.length >= 2 && (head[0] & 0x0f) === 8 && ((head[0] << 8) | head[1]) % 31 === 0;
}

/** Body chunks with undici/socket errors mapped to FetchErrors (so decoder errors stay distinguishable). */
async function* rawChunks(head: Buffer, it: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  try {
    if (head.length > 0) yield head;
    for (;;) {
      const r = await it.next();
      if (r.done === true) return;
      yield r.value;
    }
  } catch (err) {
    throw toFetchError(err);
  } finally {
    await it.return?.();
  }
}

/**
 * Read a body, decoding its Content-Encoding, keeping at most `maxBytes`
 * decoded bytes. Reading stops (and the response is destroyed) as soon as the
 * cap is passed, which also defuses compression bombs.
 *
 * A corrupt or unexpectedly ending compressed stream keeps what was decoded
 * before the damage with `truncated: true`; when nothing was decoded it is a
 * DecodeError (FC_DECODE). An unknown Content-Encoding is a DecodeError.
 */
async function readBody(
  body: Readable,
  encodingHeader: string | null,
  maxBytes: number,
): Promise<{ body: Buffer; bytes: number; truncated: boolean }> {
  const encodings = (encodingHeader ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== 'identity');
  if (encodings.length > 1) throw new DecodeError(`unsupported content-encoding ${encodingHeader}`);
  const encoding = encodings[0] ?? null;
  const it = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress | null = null;
  switch (encoding) {
    case null:
      break;
    case 'gzip':
    case 'x-gzip':
      decoder = zlib.createGunzip();
      break;
    case 'br':
      decoder = zlib.createBrotliDecompress();
      break;
    case 'deflate': {
      // 'deflate' is meant to be zlib-wrapped, but servers also send raw deflate.
      try {
        while (head.length < 2) {
          const r = await it.next();
          if (r.done === true) break;
          head = Buffer.concat([head, r.value]);
        }
      } catch (err) {
        throw toFetchError(err);
      }
      decoder = isZlibHeader(head) ? zlib.createInflate() : zlib.createInflateRaw();
      break;
    }
    default:
      body.on('error', () => {}).destroy();
      throw new DecodeError(`unsupported content-encoding ${encodingHeader}`);
  }

  const source = rawChunks(head, it);
  const chunks: AsyncIterable<Buffer> =
    decoder === null ? source : (pipeline(source, decoder, () => {}) as AsyncIterable<Buffer>);
  const kept: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  try {
    for await (const chunk of chunks) {
      if (bytes + chunk.length > maxBytes) {
        kept.push(chunk.subarray(0, maxBytes - bytes));
        bytes = maxBytes;
        truncated = true;
        break;
      }
      kept.push(chunk);
      bytes += chunk.length;
    }
  } catch (err) {
    if (err instanceof FocuscrawlError) throw err; // network/timeout while reading
    if (bytes === 0) throw new DecodeError(`cannot decode ${encoding} body: ${(err as Error).message}`, { cause: err });
    truncated = true; // corrupt compressed data: keep what was decoded before it
  } finally {
    // stopping early must release the connection even while the decoder still has input
    if (!body.readableEnded) body.on('error', () => {}).destroy();
  }
  return { body: Buffer.concat(kept, bytes), bytes, truncated };
}

/**
 * The abort handle of one request, given to undici as its `signal`: undici
 * takes an EventEmitter with `aborted` and `reason` as well as an
 * AbortSignal (Dispatcher.request's `signal` option). An AbortController
 * per request cost more: Node makes its signal, an EventTarget, with a
 * weak-reference registry entry (~10 µs a request in a profile of a crawl).
 */
class RequestAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/**
 * Links the requests in flight to the caller's AbortSignals: one 'abort'
 * listener per caller signal, and a Set of the requests it is to abort.
 * The fetch stage gives every request of a crawl the same signal; with one
 * listener per request, each request added and removed one in that signal's
 * listener list, which Node walks from the start both times: O(requests in
 * flight), ~1,000 at `--concurrency 1024` with 200 ms answers.
 */
class CallerSignals {
  readonly #links = new WeakMap<AbortSignal, { requests: Set<RequestAbort>; onAbort: () => void }>();

  /**
   * Abort `request` when `signal` aborts (at once if it has); returns the
   * unlink. The listener goes when the signal's last request unlinks: a
   * timeout signal (AbortSignal.timeout, robots.txt) with a listener is
   * kept alive until it fires.
   */
  follow(signal: AbortSignal, request: RequestAbort): () => void {
    if (signal.aborted) {
      request.abort(signal.reason);
      return () => {};
    }
    let link = this.#links.get(signal);
    if (link === undefined) {
      const requests = new Set<RequestAbort>();
      const onAbort = (): void => {
        this.#links.delete(signal);
        for (const r of requests) r.abort(signal.reason);
      };
      link = { requests, onAbort };
      this.#links.set(signal, link);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    const { requests, onAbort } = link;
    requests.add(request);
    return () => {
      if (!requests.delete(request) || requests.size > 0 || this.#links.get(signal)?.requests !== requests) return;
      this.#links.delete(signal);
      signal.removeEventListener('abort', onAbort);
    };
  }
}

/** HTTP/1.1 GET client with per-origin connection pools, timeouts, caps and per-host basic auth. */
export class HttpClient {
  private readonly dispatcher: Dispatcher;
  /**
   * With an http: proxy, the one pool to it that carries every http: request
   * in absolute form (what ProxyAgent's proxyTunnel:false wrapper sends), so
   * the connections and memory do not grow with the number of hosts; https:
   * targets still tunnel through `dispatcher`. Null without such a proxy.
   */
  private readonly proxyPool: InstanceType<typeof undici.Pool> | null = null;
  private readonly proxyOrigin: string = '';
  private readonly userAgent: string;
  private readonly headersTimeoutMs: number;
  private readonly bodyTimeoutMs: number;
  private readonly fetchTimeoutMs: number;
  private readonly auth: Map<string, string>;
  /** the address policy when the private-address guard is on, else null */
  private readonly guard: AddressPolicy | null;
  private readonly resolver: Resolver;
  /** counted by {@link get} */
  readonly outcomes: RequestOutcomes = { answered: 0, failed: 0, firstFailure: null };
  /** the callers' signals and the requests each aborts */
  private readonly callerSignals = new CallerSignals();
  /** hostname -> outcome of {@link checkAddress}, kept HOST_CHECK_TTL_MS */
  private readonly hostChecks = new Lru<string, { expires: number; refused: Promise<PrivateAddressError | null>; settled?: { refused: PrivateAddressError | null } }>(HOST_CHECK_CAPACITY);

  constructor(opts: HttpClientOptions = {}) {
    this.userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;
    const connectTimeout = opts.connectTimeoutMs ?? 10_000;
    this.headersTimeoutMs = opts.headersTimeoutMs ?? 20_000;
    this.bodyTimeoutMs = opts.bodyTimeoutMs ?? 30_000;
    this.fetchTimeoutMs = opts.fetchTimeoutMs ?? 60_000;
    const connections = opts.connections ?? 8;
    this.auth = new Map(
      Object.entries(opts.auth ?? {}).map(([host, c]) => [
        host.toLowerCase(),
        `Basic ${Buffer.from(`${c.user}:${c.pass}`).toString('base64')}`,
      ]),
    );
    const common = { connections, headersTimeout: this.headersTimeoutMs, bodyTimeout: this.bodyTimeoutMs };
    this.guard = opts.proxy === undefined && opts.allowPrivate !== true ? (opts.addressPolicy ?? addressRange) : null;
    this.resolver = opts.lookup ?? opts.resolver ?? systemLookup;
    const lookup = connectLookup(this.resolver);
    if (opts.proxy !== undefined) {
      const proxyUrl = new URL(opts.proxy);
      if (proxyUrl.protocol === 'http:') {
        // undici's ProxyAgent keeps one pool to the proxy per target origin and
        // never drops it (its wrapper does not forward the disconnect events its
        // Agent forgets origins by): ~1 GB at 200,000 hosts (bench/scale-bench.ts)
        this.proxyOrigin = proxyUrl.origin;
        this.proxyPool = new undici.Pool(this.proxyOrigin, {
          ...common,
          connections: opts.proxyConnections ?? 64,
          connect: { timeout: connectTimeout, lookup },
        });
      }
      this.dispatcher = new undici.ProxyAgent({
        uri: opts.proxy,
        proxyTunnel: false,
        ...common,
        proxyTls: { timeout: connectTimeout, lookup },
        requestTls: { timeout: connectTimeout },
        // without this, the pools to the proxy would ignore `connections` and the timeouts
        factory: (origin: string | URL, o: object) => new undici.Pool(origin, { ...o, ...common }),
      });
    } else {
      // IP-literal hosts never reach `lookup`; get() checks those
      const guarded = this.guard === null ? lookup : guardedLookup(this.guard, this.resolver);
      this.dispatcher = new undici.Agent({ ...common, connect: { timeout: connectTimeout, lookup: guarded } });
    }
  }

  /**
   * One GET of `url` (http or https), redirects not followed. Rejects with
   * TimeoutError (FC_TIMEOUT; also past fetchTimeoutMs), NetworkError (FC_NETWORK; also on abort),
   * DecodeError (FC_DECODE), BadHostError (FC_BAD_HOST: a malformed host
   * name, never looked up, nothing sent) or, unless private addresses are
   * allowed, PrivateAddressError (FC_PRIVATE_ADDRESS, nothing sent); any
   * HTTP status resolves. Counts its outcome in {@link outcomes}.
   */
  async get(url: string, opts: GetOptions): Promise<Hop> {
    const request = new RequestAbort();
    const ms = this.fetchTimeoutMs;
    const timer = setTimeout(() => request.abort(new TimeoutError(`no complete response from ${url} within ${ms} ms`)), ms);
    const unlink = opts.signal === undefined ? null : this.callerSignals.follow(opts.signal, request);
    try {
      const hop = await this.getWithoutDeadline(url, opts, request);
      this.outcomes.answered++;
      return hop;
    } catch (err) {
      // typed so that a misspelt code is a type error; other throwers' codes are compared the same way
      const code = (err as { code?: unknown } | null)?.code as ErrorCode | undefined;
      if ((code === 'FC_NETWORK' || code === 'FC_TIMEOUT') && opts.signal?.aborted !== true) {
        this.outcomes.failed++;
        this.outcomes.firstFailure ??= err as FocuscrawlError;
      }
      throw err;
    } finally {
      clearTimeout(timer);
      unlink?.();
    }
  }

  /** {@link get} without the fetchTimeoutMs deadline: `request` aborts it. */
  private async getWithoutDeadline(url: string, opts: GetOptions, request: RequestAbort): Promise<Hop> {
    const u = new URL(url);
    if (!isValidHostname(u.hostname)) throw new BadHostError(u.hostname);
    if (this.guard !== null) {
      const refused = checkHostname(u.hostname, this.guard);
      if (refused !== null) throw refused;
    }
    const headers: Record<string, string> = {
      'user-agent': this.userAgent,
      accept: opts.accept === 'any' ? ACCEPT_ANY : ACCEPT_HTML,
      'accept-encoding': 'gzip, deflate, br',
    };
    const authorization = this.auth.get(u.host);
    if (authorization !== undefined) headers.authorization = authorization;
    let res: Dispatcher.ResponseData;
    try {
      const direct = this.proxyPool === null || u.protocol !== 'http:';
      if (!direct) headers.host = u.host;
      res = await (direct ? this.dispatcher : this.proxyPool!).request({
        origin: direct ? u.origin : this.proxyOrigin,
        path: direct ? u.pathname + u.search : u.origin + u.pathname + u.search,
        method: 'GET',
        headers,
        // undici's types want an AbortSignal; its code takes an EventEmitter too (see RequestAbort)
        signal: request as unknown as AbortSignal,
        headersTimeout: this.headersTimeoutMs,
        bodyTimeout: this.bodyTimeoutMs,
      });
    } catch (err) {
      throw toFetchError(err);
    }
    if (res.statusCode === 407 && this.proxyPool !== null && u.protocol === 'http:') {
      // the proxy's answer, not the page's (as ProxyAgent reports it)
      res.body.on('error', () => {}).destroy();
      throw new NetworkError('proxy authentication required (407)');
    }
    const flat: Record<string, string> = {};
    for (const [name, v] of Object.entries(res.headers)) {
      if (v !== undefined) flat[name.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    const location = single(res.headers.location);
    const { type, charset } = parseContentType(single(res.headers['content-type']));
    const hop: Hop = {
      status: res.statusCode,
      headers: flat,
      location,
      contentType: type,
      headerCharset: charset,
      body: null,
      bytes: 0,
      truncated: false,
      replay: res.headers['x-focuscrawl-replay'] !== undefined,
    };
    const isRedirect = res.statusCode >= 300 && res.statusCode < 400 && location !== null;
    if (isRedirect || (opts.accept !== 'any' && !isParseable(type, url))) {
      await res.body.dump({ limit: DUMP_LIMIT }).catch(() => {});
      return hop;
    }
    let read: Awaited<ReturnType<typeof readBody>>;
    try {
      read = await readBody(res.body, single(res.headers['content-encoding']), opts.maxBytes);
    } catch (err) {
      // the answer came: its status and headers are still archived (--warc-out)
      if (err instanceof DecodeError) err.response = { status: hop.status, headers: flat };
      throw err;
    }
    return { ...hop, ...read };
  }

  /**
   * GET `url` following redirects (to any host, at most `maxRedirects`, default
   * 5) and decode the body (capped at `maxBytes`) as UTF-8; for robots.txt.
   * Any final status resolves. Throws TooManyRedirectsError
   * (FC_TOO_MANY_REDIRECTS), BadRedirectError (FC_BAD_REDIRECT: Location not
   * http(s) or malformed), and whatever {@link get} throws.
   */
  async getText(
    url: string,
    opts: { maxBytes: number; maxRedirects?: number; signal?: AbortSignal },
  ): Promise<{ status: number; body: string }> {
    const maxRedirects = opts.maxRedirects ?? 5;
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const hop = await this.get(current, { maxBytes: opts.maxBytes, accept: 'any', signal: opts.signal });
      if (hop.status < 300 || hop.status >= 400 || hop.location === null) {
        return { status: hop.status, body: hop.body === null ? '' : hop.body.toString('utf8') };
      }
      if (redirects >= maxRedirects) throw new TooManyRedirectsError(`more than ${maxRedirects} redirects from ${url}`);
      let next: URL;
      try {
        next = new URL(hop.location, current);
      } catch (err) {
        throw new BadRedirectError(`${current} redirects to malformed ${JSON.stringify(hop.location)}`, { cause: err });
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new BadRedirectError(`${current} redirects to non-http(s) ${JSON.stringify(hop.location)}`);
      }
      next.hash = '';
      current = next.href;
    }
  }

  /**
   * The PrivateAddressError a request to `url` would meet (its host is a
   * localhost name, a forbidden IP literal, or a name with a forbidden
   * address; names are resolved once per HOST_CHECK_TTL_MS), or null: also
   * when the guard is off or the name does not resolve. Lets a crawl refuse a
   * URL before fetching its robots.txt; the connect-time check in
   * {@link get} is the one that holds against DNS changes.
   */
  checkAddress(url: string): Promise<PrivateAddressError | null> {
    if (this.guard === null) return Promise.resolve(null);
    const hostname = new URL(url).hostname;
    // a malformed name is never looked up: the request refuses it (FC_BAD_HOST)
    if (!isValidHostname(hostname)) return Promise.resolve(null);
    const now = Date.now();
    const cached = this.hostChecks.get(hostname);
    if (cached !== undefined && now < cached.expires) return cached.refused;
    const refused = checkHost(hostname, this.guard, this.resolver);
    const check: { expires: number; refused: Promise<PrivateAddressError | null>; settled?: { refused: PrivateAddressError | null } } =
      { expires: now + HOST_CHECK_TTL_MS, refused };
    refused.then((r) => (check.settled = { refused: r }), () => {});
    this.hostChecks.set(hostname, check);
    return refused;
  }

  /**
   * {@link checkAddress}'s answer at once when it is known (the guard is off,
   * the name is malformed, or its check is cached and settled), else its
   * promise: the address-guard stage lets known hosts through without
   * waiting for a promise.
   */
  checkAddressNow(url: string): PrivateAddressError | null | Promise<PrivateAddressError | null> {
    if (this.guard === null) return null;
    const cached = this.hostChecks.get(new URL(url).hostname);
    if (cached?.settled !== undefined && Date.now() < cached.expires) return cached.settled.refused;
    return this.checkAddress(url);
  }

  /** Close all connections (waits for in-flight requests). */
  async close(): Promise<void> {
    await Promise.all([this.dispatcher.close(), this.proxyPool?.close()]);
  }
}
