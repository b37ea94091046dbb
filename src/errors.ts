/**
 * Every failure focuscrawl reports has a stable `code`. Codes are the
 * contract (tests, scripts and `jq` filters match on them); messages are not.
 * Bad arguments to a function are plain TypeErrors; bad user input is a
 * UsageError (exit 2); a failed URL becomes an error record, never a throw
 * that escapes the pipeline.
 *
 * ERROR_CODES below is the one table of codes: what each is (a fatal error
 * that ends a command, a per-URL error record, a warning line) and the exit
 * status of the fatal ones. Every command maps a thrown error to its exit
 * status with exitStatusOf(); docs/exit-codes.md's code table is generated
 * from it (`npm run docs:errors`, checked by test/errors.test.ts).
 */

/** What one code is. */
export interface ErrorCodeInfo {
  /** the exit status of a command that fails with it; null: never fatal (records and warnings only) */
  readonly exit: 1 | 2 | null;
  /** it appears as the `code` of `{"type":"error"}` records (per-URL failures) */
  readonly record: boolean;
  /** it appears in a warning line on stderr, the crawl goes on */
  readonly warning?: true;
  /** the class thrown with it (src/errors.ts); none for a code only ever written into a record */
  readonly class: string | null;
  /** one line for docs/exit-codes.md */
  readonly when: string;
}

/** Every code, in the order docs/exit-codes.md lists them. */
export const ERROR_CODES = {
  // ---- fatal, bad input: exit 2 -------------------------------------------
  FC_USAGE: { exit: 2, record: false, class: 'UsageError', when: 'bad command line (unknown command or flag, bad value), unreadable or malformed seeds file, a --store that is not a store' },
  FC_BAD_TOPIC: { exit: 2, record: false, class: 'TopicError', when: 'the topic file (or its synonyms file) is unreadable, too large or malformed' },
  FC_BAD_MODEL: { exit: 2, record: false, class: 'ModelError', when: 'the model file is unreadable, too large, malformed or of another format or version' },
  FC_BAD_WARC: { exit: 2, record: false, class: 'BadWarcError', when: '`replay`: a --warc file is not a WARC file; also the 502 body for an archived record that is not a usable HTTP response' },
  FC_CAP_EXCEEDED: { exit: 2, record: false, class: 'CapExceededError', when: 'a buffer that cannot be truncated hit its cap (an input line, a store batch); a sitemap over its cap is a warning (FC_SITEMAP line)' },
  // ---- fatal, runtime: exit 1 ---------------------------------------------
  FC_STORE_LOCKED: { exit: 1, record: false, class: 'StoreLockedError', when: 'another focuscrawl process has the store open' },
  FC_STORE: { exit: 1, record: false, class: 'StoreError', when: 'the store cannot be opened or written (permissions, disk, corruption, Redis unreachable or reset)' },
  FC_WARC: { exit: 1, record: false, class: 'WarcError', when: 'a --warc-out file cannot be created or written' },
  FC_PAGES_OUT: { exit: 1, record: false, class: 'PagesOutError', when: 'a --pages-out file cannot be created or written' },
  FC_STALLED: { exit: 1, record: false, class: 'StalledError', when: 'the crawl stalled with nothing left that could wake it (a bug)' },
  FC_NETWORK: { exit: 1, record: true, class: 'NetworkError', when: 'record: connection refused or reset, DNS or TLS failure (retried); fatal: no request of the crawl got an answer' },
  // ---- per-URL error records (stdout of crawl) ----------------------------
  FC_TIMEOUT: { exit: null, record: true, class: 'TimeoutError', when: 'connect, headers or body timeout (retried)' },
  FC_BAD_HOST: { exit: null, record: true, class: 'BadHostError', when: 'a malformed host name: not looked up, no request sent' },
  FC_TOO_MANY_REDIRECTS: { exit: null, record: true, class: 'TooManyRedirectsError', when: 'too many redirects, or a redirect loop' },
  FC_BAD_REDIRECT: { exit: null, record: true, class: 'BadRedirectError', when: 'a redirect to a non-http(s) or malformed location' },
  FC_REDIRECT_SEEN: { exit: null, record: true, class: null, when: 'a redirect to a URL already fetched (recorded, not fetched again)' },
  FC_OUT_OF_SCOPE: { exit: null, record: true, class: null, when: "a redirect that leaves the crawl's scope (--allow-domain, --include, --exclude)" },
  FC_ROBOTS_DISALLOWED: { exit: null, record: true, class: null, when: 'robots.txt forbids the URL (or a redirect hop)' },
  FC_ROBOTS_UNAVAILABLE: { exit: null, record: true, class: null, when: 'robots.txt answered 429 or 5xx or could not be fetched: the host is off limits for a while' },
  FC_DECODE: { exit: null, record: true, class: 'DecodeError', when: 'the body cannot be decoded (bad Content-Encoding)' },
  FC_PRIVATE_ADDRESS: { exit: null, record: true, class: 'PrivateAddressError', when: 'a loopback, private, link-local or metadata address, refused without --allow-private' },
  FC_HOST_BUDGET: { exit: null, record: true, class: 'HostBudgetError', when: 'the host has given its --max-pages-per-host pages' },
  FC_WORKER_CRASH: { exit: null, record: true, class: null, when: 'the parse worker thread (--workers) died twice on the page: out of memory, or a crash in the parser' },
  FC_INTERNAL: { exit: null, record: true, class: null, when: 'an unexpected failure in a stage (a bug); an internal error that ends a command has no code, exit 1' },
  // ---- warnings (stderr of crawl) -----------------------------------------
  FC_SITEMAP: { exit: null, record: false, warning: true, class: 'SitemapError', when: 'a sitemap could not be used (HTTP error, robots.txt, corrupt gzip, not a sitemap); the other sitemaps are used' },
} as const satisfies Record<`FC_${string}`, ErrorCodeInfo>;

/** A declared code: a typo in one is a type error. */
export type ErrorCode = keyof typeof ERROR_CODES;
/** The codes a `{"type":"error"}` record can carry. */
export type RecordCode = { [C in ErrorCode]: (typeof ERROR_CODES)[C]['record'] extends true ? C : never }[ErrorCode];

/** Exit status of a failure with no code: an internal error (a bug), or an I/O failure a command reports in its own words. */
export const EXIT_OTHER = 1;

/** Is `code` a declared code? (for codes read back from records and stores) */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/**
 * The exit status of a command that fails with `err`: the table's status for
 * a coded fatal error; 2 for an argument error of util.parseArgs
 * (ERR_PARSE_ARGS_*, as FC_USAGE); 1 for anything else (a record-only code
 * escaping a command, an internal error: bugs).
 */
export function exitStatusOf(err: unknown): number {
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof FocuscrawlError) return ERROR_CODES[err.code]?.exit ?? EXIT_OTHER;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return ERROR_CODES.FC_USAGE.exit;
  return EXIT_OTHER;
}

export class FocuscrawlError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
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

/** The model file is missing, unreadable, truncated, malformed or of another format/version: exit 2. */
export class ModelError extends FocuscrawlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_BAD_MODEL', message, options);
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
 * progress for longer than a request may take (src/frontier/stall.ts): exit 1.
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

/**
 * `replay`: a --warc file is not a WARC file (exit 2); while serving, an
 * archived record that is not a usable HTTP response (a 502 naming the code).
 */
export class BadWarcError extends FocuscrawlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FC_BAD_WARC', message, options);
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
export function toItemError(err: unknown): { code: ErrorCode; message: string } {
  if (err instanceof FocuscrawlError) return { code: err.code, message: err.message };
  const e = err as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return { code: 'FC_INTERNAL', message };
}
