/**
 * Every failure focuscrawl reports has a stable `code`. Codes are the
 * contract (tests, scripts and `jq` filters match on them); messages are not.
 * Bad arguments to a function are plain TypeErrors; bad user input is a
 * UsageError (exit 2); a failed URL becomes an error record, never a throw
 * that escapes the pipeline.
 */

export class FocuscrawlError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Bad command line or input file: one line on stderr, exit 2. */
export class UsageError extends FocuscrawlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_USAGE', message, options);
  }
}

/** The topic/model file is unreadable or malformed: exit 2. */
export class TopicError extends FocuscrawlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_BAD_TOPIC', message, options);
  }
}

/** The store is held by another process: exit 1. */
export class StoreLockedError extends FocuscrawlError {
  constructor(dir: string, options?: { cause?: unknown }) {
    super('FC_STORE_LOCKED', `store ${dir} is in use by another focuscrawl process`, options);
  }
}

/** The store cannot be opened or written (permissions, disk, corruption): exit 1. */
export class StoreError extends FocuscrawlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_STORE', message, options);
  }
}

/** A --warc-out file cannot be created or written (disk full, permissions): exit 1. */
export class WarcError extends FocuscrawlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_WARC', message, options);
  }
}

/** A --pages-out file cannot be created or written (disk full, permissions): exit 1. */
export class PagesOutError extends FocuscrawlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_PAGES_OUT', message, options);
  }
}

/**
 * The crawl's event loop kept emptying with the crawl unfinished and no
 * progress for longer than a request may take (src/stall.ts): exit 1.
 */
export class StalledError extends FocuscrawlError {
  constructor(state: string, options?: { cause?: unknown }) {
    super('FC_STALLED', `the crawl stalled: it was waiting with nothing left that could wake it (${state})`, options);
  }
}

// ---- per-URL failures: these become {"type":"error"} records --------------

export class FetchError extends FocuscrawlError {}

/** Connection refused/reset, DNS failure, TLS failure. */
export class NetworkError extends FetchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_NETWORK', message, options);
  }
}

/** Connect, headers or body timeout. */
export class TimeoutError extends FetchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_TIMEOUT', message, options);
  }
}

export class TooManyRedirectsError extends FetchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_TOO_MANY_REDIRECTS', message, options);
  }
}

/** A redirect to a non-http(s) or malformed location. */
export class BadRedirectError extends FetchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_BAD_REDIRECT', message, options);
  }
}

/** A redirect to a URL already fetched or queued (recorded, not re-fetched). */
export class RedirectSeenError extends FetchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_REDIRECT_SEEN', message, options);
  }
}

/** robots.txt forbids the URL (or a redirect hop). */
export class RobotsDisallowedError extends FetchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_ROBOTS_DISALLOWED', message, options);
  }
}

/** robots.txt answered 5xx or timed out: the host is off limits for a while. */
export class RobotsUnavailableError extends FetchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_ROBOTS_UNAVAILABLE', message, options);
  }
}

/** The body could not be decoded (bad Content-Encoding). */
export class DecodeError extends FetchError {
  /** the answer whose body could not be decoded, when one came (HttpClient sets it; --warc-out archives it) */
  response?: { status: number; headers: Record<string, string> };

  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_DECODE', message, options);
  }
}

/**
 * The host is, or resolves to, a loopback, private, link-local, metadata or
 * otherwise non-public address, refused without --allow-private (no request sent).
 */
export class PrivateAddressError extends FetchError {
  /** the refused host as in the URL */
  readonly host: string;
  /** the refused address (the host itself for a refused name such as localhost) */
  readonly address: string;
  /** the range it falls in, e.g. 'loopback', 'private', 'metadata' */
  readonly range: string;
  constructor(host: string, address: string, range: string, options?: { cause?: unknown }) {
    const what = address === host ? host : `${host} (${address})`;
    super('FC_PRIVATE_ADDRESS', `refusing ${what}: ${range} address (--allow-private allows it)`, options);
    this.host = host;
    this.address = address;
    this.range = range;
  }
}

/**
 * The URL's host is not a name that can be looked up (an empty label as in
 * `a..b`, a label starting or ending with '-', over 63 or 253 characters):
 * refused without a lookup or a request. Final, not retried.
 */
export class BadHostError extends FetchError {
  constructor(host: string, options?: { cause?: unknown }) {
    super('FC_BAD_HOST', `malformed host name ${JSON.stringify(host)}: not looked up, no request sent`, options);
  }
}

/** The URL's host has given its --max-pages-per-host pages (no request sent). */
export class HostBudgetError extends FetchError {
  constructor(host: string, max: number, options?: { cause?: unknown }) {
    super('FC_HOST_BUDGET', `host ${host} has given its ${max} pages (--max-pages-per-host)`, options);
  }
}

/** A buffer hit its cap where truncation is not an option (line, header). */
export class CapExceededError extends FocuscrawlError {
  constructor(what: string, limit: number, options?: { cause?: unknown }) {
    super('FC_CAP_EXCEEDED', `${what} exceeds ${limit}`, options);
  }
}

/** A sitemap could not be used: fetch failed (HTTP status, robots.txt), corrupt gzip, not a sitemap. */
export class SitemapError extends FocuscrawlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_SITEMAP', message, options);
  }
}

/** Map any thrown value to the code/message pair of an error record. */
export function toItemError(err: unknown): { code: string; message: string } {
  if (err instanceof FocuscrawlError) return { code: err.code, message: err.message };
  const e = err as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return { code: 'FC_INTERNAL', message };
}
