/**
 * Sitemaps (sitemaps.org protocol 0.9) as a seed source.
 *
 * Parsing ({@link SitemapParser}) is streaming and capped: htmlparser2 in
 * xmlMode fed chunk by chunk (one character at a time gives the same result
 * as the whole), for `<urlset>` (`<url><loc>`, `<lastmod>`, `<priority>`)
 * and `<sitemapindex>` (`<sitemap><loc>`); element names are matched by
 * local name and position (urlset > url > loc), so extension elements such
 * as `<image:image><image:loc>` are ignored. A document whose first
 * character is not `<` is a plain-text sitemap: one URL a line. Bytes
 * ({@link readSitemapBytes}) starting with the gzip magic (1f 8b) are
 * gunzipped on the fly whatever the name says (a `.gz` that the server
 * already decoded through Content-Encoding is read as is), and more than
 * `maxBytes` decompressed bytes is FC_CAP_EXCEEDED (a gzip bomb stops there).
 *
 * Caps (protocol limits by default): 50 MiB decompressed and 50,000 URLs
 * per sitemap (more are counted, not kept), 4,096 characters per <loc>,
 * index nesting MAX_NESTING levels, MAX_SITEMAPS sitemaps and a total URL
 * cap per crawl. Malformed XML yields the entries whose `</loc>` and
 * `</url>` were seen; a document that is neither a urlset, a sitemapindex
 * nor text is FC_SITEMAP.
 *
 * Loading ({@link loadSitemaps}): sitemaps are fetched one at a time through
 * the crawl's HttpClient (so --proxy and the address guard apply), each hop
 * checked against robots.txt, redirects followed (5 hops). Entries must be
 * on the sitemap's own host (sitemaps.org "Sitemap file location"), or on a
 * host whose robots.txt lists the sitemap (cross-submission); others are
 * dropped and counted as `crossHost`. A sitemap read from a local file may
 * list any host (the user vouches for it, as for a seeds file).
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';
import { CapExceededError, FocuscrawlError, SitemapError, toItemError, UsageError } from '../errors.ts';
import type { HttpClient } from '../fetch/http.ts';
import type { RobotsCache } from '../fetch/robots.ts';
import { robotsAllows } from '../fetch/robots.ts';
import type { Store } from '../store/types.ts';
import type { InScope } from '../urls/scope.ts';
import { trapReason, type TrapLimits } from '../urls/traps.ts';
import type { FrontierEntry, ItemError, PageLink, ParsedPage, Scorer } from '../types.ts';
import { canonicalize, type CanonOptions } from '../urls/canonical.ts';

/** Protocol limits: 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed per sitemap. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** Longest <loc> kept (longer ones are invalid). */
export const MAX_LOC_CHARS = 4096;
/** Longest line of a text sitemap. */
const MAX_LINE_CHARS = 8192;
/** Sitemaps nested in indexes: top level (1) -> index children (2) -> their children (3). */
export const MAX_NESTING = 3;
/** Sitemaps fetched per crawl start. */
export const MAX_SITEMAPS = 1000;
/** URLs taken from all sitemaps together (default of --sitemap-max-urls). */
export const DEFAULT_SITEMAP_MAX_URLS = 1_000_000;
const MAX_REDIRECTS = 5;

export interface SitemapEntry {
  /** absolute http(s) URL (as listed, resolved against the sitemap, not canonical) */
  url: string;
  lastmod?: string;
  priority?: number;
}

export interface SitemapParseResult {
  kind: 'urlset' | 'sitemapindex' | 'text';
  /** page URLs (urlset, text) */
  urls: SitemapEntry[];
  /** nested sitemap URLs (sitemapindex) */
  sitemaps: string[];
  /** entries without a usable http(s) <loc> (or too long) */
  invalid: number;
  /** entries beyond maxUrls, not kept */
  overCap: number;
}

export interface SitemapParserOptions {
  /** base for relative <loc> values (the sitemap URL); without it they are invalid */
  base?: string;
  /** entries kept (default SITEMAP_MAX_URLS); more are counted in overCap */
  maxUrls?: number;
}

/** local name of an element (`sm:loc` -> `loc`), lower-cased */
function localName(name: string): string {
  const i = name.indexOf(':');
  return (i < 0 ? name : name.slice(i + 1)).toLowerCase();
}

/**
 * Streaming sitemap parser: `write(text)` any number of times, then `end()`.
 * Detects the format from the first non-space character.
 */
export class SitemapParser {
  private readonly base: string | undefined;
  private readonly maxUrls: number;
  private mode: 'unknown' | 'xml' | 'text' = 'unknown';
  private xml: Parser | null = null;
  private root: string | null = null;
  /** element depth and the local names of the first three levels */
  private depth = 0;
  private readonly names: string[] = [];
  /** current field being read (inside urlset>url or sitemapindex>sitemap) */
  private field: 'loc' | 'lastmod' | 'priority' | null = null;
  private buf = '';
  private overlong = false;
  private entry: { loc?: string; lastmod?: string; priority?: number; bad?: boolean } | null = null;
  private line = '';
  private lineOverlong = false;
  private readonly result: SitemapParseResult = { kind: 'text', urls: [], sitemaps: [], invalid: 0, overCap: 0 };

  constructor(opts: SitemapParserOptions = {}) {
    this.base = opts.base;
    this.maxUrls = opts.maxUrls ?? SITEMAP_MAX_URLS;
  }

  write(chunk: string): void {
    if (this.mode === 'unknown') {
      const m = /[^\s\uFEFF]/.exec(chunk);
      if (m === null) return;
      chunk = chunk.slice(m.index);
      this.mode = chunk[0] === '<' ? 'xml' : 'text';
      if (this.mode === 'xml') this.xml = this.newXmlParser();
    }
    if (this.xml !== null) this.xml.write(chunk);
    else this.writeText(chunk);
  }

  /** Finish; throws SitemapError (FC_SITEMAP) when the document is not a sitemap. */
  end(): SitemapParseResult {
    if (this.xml !== null) {
      this.xml.end();
      if (this.root !== 'urlset' && this.root !== 'sitemapindex') {
        throw new SitemapError(`not a sitemap: the root element is ${this.root === null ? 'missing' : `<${this.root}>`}, not <urlset> or <sitemapindex>`);
      }
      this.result.kind = this.root;
    } else if (this.mode === 'text') {
      this.endLine();
    }
    return this.result;
  }

  private newXmlParser(): Parser {
    return new Parser(
      {
        onopentag: (name) => this.open(localName(name)),
        ontext: (text) => {
          if (this.field === null || this.depth !== 3) return;
          if (this.buf.length + text.length > MAX_LOC_CHARS) this.overlong = true;
          else this.buf += text;
        },
        onclosetag: (name, implied) => this.close(localName(name), implied),
      },
      { xmlMode: true },
    );
  }

  private open(name: string): void {
    this.depth++;
    if (this.depth <= 3) this.names[this.depth - 1] = name;
    if (this.depth === 1 && this.root === null) this.root = name;
    const [root, item] = this.names;
    const inItem = (root === 'urlset' && item === 'url') || (root === 'sitemapindex' && item === 'sitemap');
    if (this.depth === 2 && inItem) this.entry = {};
    if (this.depth === 3 && inItem && this.entry !== null && (name === 'loc' || name === 'lastmod' || name === 'priority')) {
      this.field = name;
      this.buf = '';
      this.overlong = false;
    }
  }

  private close(_name: string, implied: boolean): void {
    if (this.depth === 3 && this.field !== null && this.entry !== null) {
      const value = this.buf.trim();
      // a field the document never closed (cut off) is not trusted
      if (implied || this.overlong) {
        if (this.field === 'loc') this.entry.bad = true;
      } else if (this.field === 'loc') this.entry.loc = value;
      else if (this.field === 'lastmod') this.entry.lastmod = value.slice(0, 64);
      else {
        const p = Number(value);
        if (value !== '' && Number.isFinite(p) && p >= 0 && p <= 1) this.entry.priority = p;
      }
      this.field = null;
      this.buf = '';
    }
    if (this.depth === 2 && this.entry !== null) {
      if (!implied) this.finishEntry(this.entry);
      else if (this.entry.loc !== undefined || this.entry.bad === true) this.result.invalid++;
      this.entry = null;
    }
    if (this.depth > 0) this.depth--;
  }

  private finishEntry(e: { loc?: string; lastmod?: string; priority?: number; bad?: boolean }): void {
    const url = e.bad === true || e.loc === undefined ? null : this.resolve(e.loc);
    if (url === null) {
      this.result.invalid++;
      return;
    }
    if (this.names[0] === 'sitemapindex') this.push(this.result.sitemaps, url);
    else {
      const entry: SitemapEntry = { url };
      if (e.lastmod !== undefined && e.lastmod !== '') entry.lastmod = e.lastmod;
      if (e.priority !== undefined) entry.priority = e.priority;
      this.push(this.result.urls, entry);
    }
  }

  private push<T>(list: T[], v: T): void {
    if (this.result.urls.length + this.result.sitemaps.length >= this.maxUrls) this.result.overCap++;
    else list.push(v);
  }

  /** An absolute http(s) URL, or null. */
  private resolve(loc: string): string | null {
    if (loc === '' || loc.length > MAX_LOC_CHARS) return null;
    try {
      const u = new URL(loc, this.base);
      return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
    } catch {
      return null;
    }
  }

  private writeText(chunk: string): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', start);
      const piece = chunk.slice(start, nl < 0 ? chunk.length : nl);
      if (this.line.length + piece.length > MAX_LINE_CHARS) this.lineOverlong = true;
      else this.line += piece;
      if (nl < 0) return;
      this.endLine();
      start = nl + 1;
    }
  }

  private endLine(): void {
    const s = this.line.trim();
    const overlong = this.lineOverlong;
    this.line = '';
    this.lineOverlong = false;
    if (overlong) {
      this.result.invalid++;
      return;
    }
    if (s === '' || s.startsWith('#')) return;
    const url = /\s/.test(s) ? null : this.resolve(s);
    if (url === null) this.result.invalid++;
    else this.push(this.result.urls, { url });
  }
}

/** Parse a whole sitemap document (text). */
export function parseSitemapText(text: string, opts: SitemapParserOptions = {}): SitemapParseResult {
  const p = new SitemapParser(opts);
  p.write(text);
  return p.end();
}

export interface ReadSitemapOptions extends SitemapParserOptions {
  /** decompressed bytes allowed (default SITEMAP_MAX_BYTES); more is FC_CAP_EXCEEDED */
  maxBytes?: number;
  /** what to call the document in messages (its URL or file name) */
  name?: string;
}

/**
 * Parse sitemap bytes given in chunks of any size: gunzipped when they start
 * with the gzip magic bytes, decoded as UTF-8, fed to a SitemapParser.
 * Throws CapExceededError (FC_CAP_EXCEEDED) past `maxBytes` decompressed
 * bytes, SitemapError (FC_SITEMAP) for a corrupt gzip stream or a document
 * that is not a sitemap.
 */
export async function readSitemapBytes(chunks: AsyncIterable<Buffer> | Iterable<Buffer>, opts: ReadSitemapOptions = {}): Promise<SitemapParseResult> {
  const maxBytes = opts.maxBytes ?? SITEMAP_MAX_BYTES;
  const name = opts.name ?? 'sitemap';
  const parser = new SitemapParser(opts);
  const decoder = new TextDecoder('utf-8');
  let total = 0;
  const feed = (b: Buffer): void => {
    total += b.length;
    if (total > maxBytes) throw new CapExceededError(`${name}: decompressed sitemap`, maxBytes);
    parser.write(decoder.decode(b, { stream: true }));
  };
  const source = (Symbol.asyncIterator in chunks ? chunks : Readable.from(chunks as Iterable<Buffer>)) as AsyncIterable<Buffer>;
  const it = source[Symbol.asyncIterator]();
  // the first two bytes decide (they may come one at a time)
  let head = Buffer.alloc(0);
  let done = false;
  while (head.length < 2) {
    const r = await it.next();
    if (r.done === true) {
      done = true;
      break;
    }
    head = Buffer.concat([head, r.value]);
  }
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  async function* rest(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    while (!done) {
      const r = await it.next();
      if (r.done === true) return;
      yield r.value;
    }
  }
  if (!gzip) {
    for await (const b of rest()) feed(b);
  } else {
    const gunzip = zlib.createGunzip();
    const input = Readable.from(rest());
    input.on('error', (err) => gunzip.destroy(err));
    input.pipe(gunzip);
    try {
      for await (const b of gunzip as AsyncIterable<Buffer>) feed(b);
    } catch (err) {
      if (err instanceof FocuscrawlError) throw err;
      throw new SitemapError(`${name}: corrupt gzip stream (${(err as Error).message})`, { cause: err });
    } finally {
      input.unpipe(gunzip);
      input.destroy();
      gunzip.destroy();
    }
  }
  parser.write(decoder.decode());
  return parser.end();
}

// ---- loading: fetching sitemaps and indexes --------------------------------

/** One HTTP answer, as {@link SitemapFetch} returns it. */
export interface SitemapHop {
  status: number;
  location: string | null;
  body: Buffer | null;
  /** the body hit the fetch cap */
  truncated: boolean;
  /** answered by a focuscrawl replay proxy */
  replay?: boolean;
}

/** One GET, redirects not followed (HttpClient.get with accept 'any'). */
export type SitemapFetch = (url: string, maxBytes: number, signal?: AbortSignal) => Promise<SitemapHop>;

/** Where a listed URL came from. */
export interface SitemapUrl extends SitemapEntry {
  /** the sitemap (URL, or file:// URL of a local file) that listed it */
  sitemap: string;
}

export interface LoadSitemapsOptions {
  fetch: SitemapFetch;
  /** refusal of a sitemap URL (address guard, robots.txt), or null to go ahead */
  check?: (url: string) => Promise<ItemError | null>;
  /** receives the accepted URLs of each sitemap (the caller queues them) */
  onUrls: (urls: SitemapUrl[]) => Promise<void> | void;
  /** sitemap URL -> hosts whose robots.txt lists it (may list URLs of those hosts too) */
  granted?: Map<string, Set<string>>;
  /** URLs taken in all (default DEFAULT_SITEMAP_MAX_URLS) */
  maxUrls?: number;
  /** decompressed bytes per sitemap (default SITEMAP_MAX_BYTES) */
  maxBytes?: number;
  maxSitemaps?: number;
  maxNesting?: number;
  /** pause between two requests to one host, ms (default 0) */
  delayMs?: number;
  /** apply delayMs to replay-proxy answers too (default false, as for pages) */
  delayExplicit?: boolean;
  signal?: AbortSignal;
}

export interface SitemapLoadReport {
  /** sitemaps read (files and URLs, indexes included) */
  sitemaps: number;
  /** URLs handed to onUrls */
  urls: number;
  /** entries (or nested sitemaps) on another host than their sitemap, dropped */
  crossHost: number;
  /** entries without a usable URL */
  invalid: number;
  /** entries beyond a URL cap, or sitemaps beyond the nesting/count caps */
  overCap: number;
  /** sitemaps that could not be read */
  failed: { sitemap: string; code: string; message: string }[];
}

function isUrl(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

function hostOfUrl(url: string): string {
  return new URL(url).host.toLowerCase();
}

/**
 * Read sitemaps (URLs or local files), following indexes breadth-first, and
 * hand their URLs to `onUrls`. A sitemap that fails is reported in `failed`
 * (a missing local file is a UsageError: the user named it). Never throws
 * for a fetched sitemap's failure; when `signal` aborts, it stops and
 * returns what it has.
 */
export async function loadSitemaps(sources: readonly string[], opts: LoadSitemapsOptions): Promise<SitemapLoadReport> {
  const report: SitemapLoadReport = { sitemaps: 0, urls: 0, crossHost: 0, invalid: 0, overCap: 0, failed: [] };
  const maxUrls = opts.maxUrls ?? DEFAULT_SITEMAP_MAX_URLS;
  const maxSitemaps = opts.maxSitemaps ?? MAX_SITEMAPS;
  const maxNesting = opts.maxNesting ?? MAX_NESTING;
  const maxBytes = opts.maxBytes ?? SITEMAP_MAX_BYTES;
  const queue: { source: string; level: number; granted: Set<string> }[] = sources.map((source) => ({
    source,
    level: 1,
    granted: new Set(opts.granted?.get(source) ?? []),
  }));
  const visited = new Set<string>();
  const lastRequest = new Map<string, { at: number; replay: boolean }>();
  const fetchUrl = async (url: string): Promise<Buffer> => {
    let current = url;
    for (let hop = 0; ; hop++) {
      opts.signal?.throwIfAborted();
      const refused = (await opts.check?.(current)) ?? null;
      if (refused !== null) throw new SitemapError(`${refused.code}: ${refused.message}`);
      const host = hostOfUrl(current);
      const last = lastRequest.get(host);
      const delay = opts.delayMs ?? 0;
      if (last !== undefined && delay > 0 && (!last.replay || opts.delayExplicit === true)) {
        const wait = last.at + delay - Date.now();
        if (wait > 0) await sleep(wait, undefined, { signal: opts.signal });
      }
      const res = await opts.fetch(current, maxBytes, opts.signal);
      lastRequest.set(host, { at: Date.now(), replay: res.replay === true });
      if (res.status >= 300 && res.status < 400 && res.location !== null) {
        if (hop >= MAX_REDIRECTS) throw new SitemapError(`more than ${MAX_REDIRECTS} redirects from ${url}`);
        const next = new URL(res.location, current);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new SitemapError(`${current} redirects to a non-http(s) URL`);
        next.hash = '';
        current = next.href;
        continue;
      }
      if (res.status < 200 || res.status >= 300) throw new SitemapError(`HTTP ${res.status} for ${current}`);
      if (res.truncated) throw new CapExceededError(`${current}: sitemap body`, maxBytes);
      return res.body ?? Buffer.alloc(0);
    }
  };
  const aborted = (): boolean => opts.signal?.aborted === true;
  while (queue.length > 0 && !aborted()) {
    const { source, level, granted } = queue.shift()!;
    if (visited.has(source)) continue;
    visited.add(source);
    if (report.sitemaps >= maxSitemaps) {
      report.overCap++;
      continue;
    }
    report.sitemaps++;
    const remote = isUrl(source);
    const name = remote ? source : pathToFileURL(source).href;
    let parsed: SitemapParseResult;
    try {
      const parserOpts = { maxBytes, name: source, base: remote ? source : undefined, maxUrls: Math.min(SITEMAP_MAX_URLS, Math.max(0, maxUrls - report.urls)) };
      if (remote) parsed = await readSitemapBytes([await fetchUrl(source)], parserOpts);
      else parsed = await readSitemapBytes(openFile(source), parserOpts);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      if (aborted()) break; // interrupted: the crawl stops too
      report.failed.push({ sitemap: source, ...toItemError(err) });
      continue;
    }
    report.invalid += parsed.invalid;
    report.overCap += parsed.overCap;
    const hosts = remote ? new Set([hostOfUrl(source), ...granted]) : null;
    const onHost = (url: string): boolean => hosts === null || hosts.has(hostOfUrl(url));
    for (const child of parsed.sitemaps) {
      if (!onHost(child)) report.crossHost++;
      else if (level >= maxNesting) report.overCap++;
      else queue.push({ source: child, level: level + 1, granted: new Set([...granted, ...(opts.granted?.get(child) ?? [])]) });
    }
    const urls: SitemapUrl[] = [];
    for (const e of parsed.urls) {
      if (!onHost(e.url)) report.crossHost++;
      else urls.push({ ...e, sitemap: name });
    }
    if (urls.length > 0) {
      report.urls += urls.length;
      await opts.onUrls(urls);
    }
  }
  return report;
}

/** A local sitemap file's bytes; a file that cannot be opened is a UsageError (FC_USAGE). */
async function* openFile(file: string): AsyncGenerator<Buffer> {
  const stream = createReadStream(file);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      throw new UsageError(`--sitemap ${file}: ${(err as Error).message}`, { cause: err });
    }
    throw err;
  } finally {
    stream.destroy();
  }
}

/**
 * The `Sitemap:` URLs of each origin's robots.txt (2xx answers only), for
 * --sitemaps-from-robots, with the hosts that listed each.
 */
export async function sitemapsFromRobots(
  origins: readonly string[],
  getText: (url: string) => Promise<{ status: number; body: string }>,
  onError?: (origin: string, err: ItemError) => void,
): Promise<Map<string, Set<string>>> {
  const { default: robotsParserModule } = await import('robots-parser');
  const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;
  const found = new Map<string, Set<string>>();
  for (const origin of new Set(origins)) {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const res = await getText(robotsUrl);
      if (res.status < 200 || res.status >= 300) continue;
      for (const s of robotsParser(robotsUrl, res.body).getSitemaps()) {
        let url: string;
        try {
          url = new URL(s, robotsUrl).href;
        } catch {
          continue;
        }
        if (!isUrl(url)) continue;
        let hosts = found.get(url);
        if (hosts === undefined) found.set(url, (hosts = new Set()));
        hosts.add(hostOfUrl(robotsUrl));
      }
    } catch (err) {
      onError?.(origin, toItemError(err));
    }
  }
  return found;
}

/** Words of a URL's path and query, for scoring a sitemap entry that has no anchor text. */
export function urlWords(url: string): string {
  try {
    const u = new URL(url);
    let raw = `${u.pathname} ${u.search}`;
    try {
      raw = decodeURIComponent(raw);
    } catch {
      // a stray % stays as it is
    }
    return raw
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '')
      .join(' ');
  } catch {
    return '';
  }
}

// ---- the crawl's use: sitemap URLs as frontier entries ---------------------

/** What the crawl needs to queue sitemap URLs (src/pipeline.ts passes its own). */
export interface SitemapSeedOptions {
  /** --sitemap values: URLs or files */
  sources: readonly string[];
  /** --sitemaps-from-robots: origins (of the seeds) whose robots.txt `Sitemap:` lines are read */
  robotsOrigins: readonly string[];
  client: Pick<HttpClient, 'get' | 'getText' | 'checkAddress'>;
  robots: RobotsCache;
  store: Pick<Store, 'addSeeds'>;
  /** scores an entry like a link (anchor = the words of its URL) on a virtual root page */
  scorer: Pick<Scorer, 'linkScore'>;
  canon: CanonOptions;
  traps: Readonly<TrapLimits>;
  /** the crawl's scope (src/urls/scope.ts): entries outside it are dropped */
  inScope?: InScope | null;
  /** true for a URL to a file that is not a page (src/urls/extensions.ts): dropped */
  skipExtension?: ((url: string) => boolean) | null;
  maxDepth: number;
  maxUrls?: number;
  delayMs?: number;
  delayExplicit?: boolean;
  signal?: AbortSignal;
}

export interface SitemapSeedReport extends SitemapLoadReport {
  /** URLs put in the frontier (new or raised) */
  queued: number;
  /** URLs dropped by a trap rule, --max-depth, or as not canonicalisable */
  trapped: number;
  /** URLs outside the crawl's scope (--allow-domain, --include, --exclude) */
  outOfScope: number;
  /** URLs of files that are not pages (--skip-extensions) */
  skippedExtension: number;
  /** sitemap URLs found in robots.txt files */
  fromRobots: number;
}

const ROBOTS_MAX_BYTES = 512 * 1024;
/**
 * Page relevance the scorer is given for a sitemap (its virtual root page):
 * 1, as for a seed the user chose. On the WebKB bench, 0 let best-first
 * prefer every link found on a fetched page over the sitemap's own URLs.
 */
const SITEMAP_RELEVANCE = 1;

/** The page a sitemap's entries hang off (depth 0, not fetched), for the scorer. */
function virtualRoot(sitemap: string): ParsedPage {
  return {
    title: '',
    charset: 'utf-8',
    blocks: { title: '', heading: '', content: '', navigation: '', anchor: '', other: '' },
    links: [],
    base: sitemap,
    noindex: false,
    nofollow: false,
    lang: null,
  };
}

/**
 * Queue the URLs of sitemaps as frontier entries. Decision: a sitemap is a
 * virtual page at depth 0 that counts as on-topic (relevance 1, like a
 * seed the user chose); its URLs are its links, at depth 1 with the sitemap
 * as `parent`, scored by the strategy's linkScore with the words of the URL
 * as anchor text, clamped to >= 0. So a focused crawl fetches the sitemap URLs
 * that look on topic first, and breadth-first takes them in sitemap order
 * after the seeds; `--max-depth` counts from the sitemap (0 drops them).
 * Trap rules apply as to links; robots.txt, the address guard and the host
 * budget apply when they are fetched, as to any URL. `<priority>` and
 * `<lastmod>` are read but not used for ordering (a site ranks its own
 * pages, not against other sites).
 */
export async function seedFromSitemaps(opts: SitemapSeedOptions): Promise<SitemapSeedReport> {
  let granted = new Map<string, Set<string>>();
  const robotsFailures: SitemapLoadReport['failed'] = [];
  if (opts.robotsOrigins.length > 0) {
    granted = await sitemapsFromRobots(
      opts.robotsOrigins,
      (url) => opts.client.getText(url, { maxBytes: ROBOTS_MAX_BYTES, signal: opts.signal }),
      (origin, err) => robotsFailures.push({ sitemap: `${origin}/robots.txt`, ...err }),
    );
  }
  const sources = [...new Set([...opts.sources, ...granted.keys()])];
  let queued = 0;
  let trapped = 0;
  let outOfScope = 0;
  let skippedExtension = 0;
  const report = await loadSitemaps(sources, {
    granted,
    maxUrls: opts.maxUrls,
    delayMs: opts.delayMs,
    delayExplicit: opts.delayExplicit,
    signal: opts.signal,
    fetch: async (url, maxBytes, signal) => {
      const hop = await opts.client.get(url, { maxBytes, accept: 'any', signal });
      return { status: hop.status, location: hop.location, body: hop.body, truncated: hop.truncated, replay: hop.replay };
    },
    check: async (url) => {
      const refused = await opts.client.checkAddress(url);
      if (refused !== null) return toItemError(refused);
      return robotsAllows(opts.robots, url);
    },
    onUrls: async (urls) => {
      const depth = 1;
      if (depth > opts.maxDepth) {
        trapped += urls.length;
        return;
      }
      const root = virtualRoot(urls[0].sitemap);
      const entries: FrontierEntry[] = [];
      for (const e of urls) {
        const url = canonicalize(e.url, undefined, opts.canon);
        if (url === null || trapReason(url, opts.traps) !== null) {
          trapped++;
          continue;
        }
        if (opts.inScope != null && !opts.inScope(url)) {
          outOfScope++;
          continue;
        }
        if (opts.skipExtension != null && opts.skipExtension(url)) {
          skippedExtension++;
          continue;
        }
        const link: PageLink = { url, anchor: urlWords(url), context: '', tag: 'sitemap', nofollow: false, block: 'content' };
        let score = 0;
        try {
          score = opts.scorer.linkScore(link, root, SITEMAP_RELEVANCE);
        } catch {
          score = 0;
        }
        entries.push({ url, score: Number.isFinite(score) ? Math.max(0, score) : 0, depth, parent: e.sitemap, anchor: '', offTopicHops: 0 });
      }
      for (let i = 0; i < entries.length; i += 10_000) queued += await opts.store.addSeeds(entries.slice(i, i + 10_000));
    },
  });
  return { ...report, failed: [...robotsFailures, ...report.failed], queued, trapped, outOfScope, skippedExtension, fromRobots: granted.size };
}

/** The stderr lines about a sitemap load: a summary, then up to 5 failures. */
export function sitemapLogLines(r: SitemapSeedReport): string[] {
  const parts = [`${r.sitemaps} sitemap${r.sitemaps === 1 ? '' : 's'} read`, `${r.urls} URLs listed`, `${r.queued} queued`];
  if (r.fromRobots > 0) parts.push(`${r.fromRobots} found in robots.txt`);
  if (r.crossHost > 0) parts.push(`${r.crossHost} cross-host dropped`);
  if (r.trapped > 0) parts.push(`${r.trapped} dropped by trap rules or --max-depth`);
  if (r.outOfScope > 0) parts.push(`${r.outOfScope} out of scope`);
  if (r.skippedExtension > 0) parts.push(`${r.skippedExtension} not pages by their extension`);
  if (r.invalid > 0) parts.push(`${r.invalid} invalid`);
  if (r.overCap > 0) parts.push(`${r.overCap} over a cap`);
  const lines = [`focuscrawl: sitemaps: ${parts.join(', ')}`];
  for (const f of r.failed.slice(0, 5)) lines.push(`focuscrawl: sitemap ${f.sitemap}: ${f.code}: ${f.message}`);
  if (r.failed.length > 5) lines.push(`focuscrawl: ... and ${r.failed.length - 5} more sitemaps failed`);
  return lines;
}
