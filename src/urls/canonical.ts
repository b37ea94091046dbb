/**
 * URL canonicalisation (Zou et al. 2009, rules (a)–(f), docs/algorithms.md#url-canonicalisation) on top of WHATWG `URL`.
 *
 * WHATWG parsing already does (a) lower-case scheme and host, (e) resolve
 * `.`/`..` segments and (f) drop default ports; this module adds
 * (b) drop the fragment, (c) one spelling per percent-escape (unreserved
 * characters decoded, other escapes upper-case hex), and (d) drop a default
 * file name (`index.html`, ...) at the end of the path, which is a heuristic
 * and therefore an option (on by default). User info (`user:pass@`) is
 * dropped: credentials go in `--auth`, never in records or host keys.
 *
 * Session ids are stripped (an option, on by default), as Nutch's URL
 * normaliser does: a session id in a URL makes every visit a new URL, an
 * endless copy of the site. Removed are `;name=value` path parameters and
 * query parameters whose name is, case-insensitively, `jsessionid`,
 * `phpsessid`, `sessionid`, `session_id`, `oscsid`, `cfid`, `cftoken` or
 * starts with `aspsessionid`, whatever the value; and `sid` only when its
 * value looks like a token (16 or more of `A-Z a-z 0-9 _ -`), because short
 * `sid` values are often content ids (a story or section number). Other
 * query parameters keep their order and spelling.
 */
import { hash } from 'node:crypto';

export interface CanonOptions {
  /** drop index.html / index.htm / default.htm(l) at the end of the path (default true) */
  dropIndex?: boolean;
  /** remove session-id path parameters and query parameters (default true; see the module comment) */
  stripSessionIds?: boolean;
}

const DEFAULT_FILES = new Set(['index.html', 'index.htm', 'default.htm', 'default.html']);
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Parameter names that always carry a session id (lower case). */
const SESSION_NAMES = new Set(['jsessionid', 'phpsessid', 'sessionid', 'session_id', 'oscsid', 'cfid', 'cftoken']);
/** A `sid` value that looks like a session token rather than a content id. */
const SID_TOKEN = /^[A-Za-z0-9_-]{16,}$/;
/** `;name=value` path parameters (WHATWG keeps `;` in the path). */
const PATH_PARAM = /;([^;=/]*)=([^;/]*)/g;

function isSessionParam(name: string, value: string): boolean {
  const n = name.toLowerCase();
  if (SESSION_NAMES.has(n) || n.startsWith('aspsessionid')) return true;
  return n === 'sid' && SID_TOKEN.test(value);
}

/** `search` (with its '?', or '') without session-id parameters; '' when none is left. */
function stripSessionQuery(search: string): string {
  const parts = search.slice(1).split('&');
  const kept = parts.filter((p) => {
    const eq = p.indexOf('=');
    return eq < 0 || !isSessionParam(p.slice(0, eq), p.slice(eq + 1));
  });
  if (kept.length === parts.length) return search;
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

const ESCAPE = /%([0-9a-fA-F]{2})/g;
const HEX = /[0-9A-Fa-f]/;
const OPEN_ESCAPE = /%[0-9A-Fa-f]?$/;

function normaliseEscapes(s: string): string {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(ESCAPE)) {
    out += s.slice(last, m.index);
    last = m.index + 3;
    const ch = String.fromCharCode(parseInt(m[1], 16));
    // decoding must not make a new escape with a stray '%' before it ("%4%41" is not "%4A")
    const joins = HEX.test(ch) && OPEN_ESCAPE.test(out);
    out += UNRESERVED.test(ch) && !joins ? ch : `%${m[1].toUpperCase()}`;
  }
  return out + s.slice(last);
}

/**
 * An absolute http(s) URL written exactly as WHATWG `URL` serialises it and
 * as `canonicalize` returns it: lower-case host of ASCII letters, digits
 * and hyphens whose last label starts with a letter (not an IPv4 address)
 * and that has no `xn--` label (which would be checked as punycode), no
 * port, no user info, a path of `A-Z a-z 0-9 - . _ ~ /` without `.` or `..`
 * segments or a default file name, no query, no fragment. For such a URL
 * `new URL(s).href === s` and `canonicalize(s) === s` (test/url-fast-path.test.ts),
 * so the parser and the classify stage skip WHATWG parsing for it: most
 * links of most pages.
 */
export function isSimpleHttpUrl(s: string): boolean {
  // one native regex scan (this runs for every link of every page; a charCodeAt loop took ~3× as long)
  if (!SIMPLE_HTTP_URL.test(s)) return false;
  // the last segment: a default file name is dropped by canonicalize (each starts with i or d)
  const segStart = s.lastIndexOf('/') + 1;
  const last = s.length - segStart;
  if (last < 9 || last > 12) return true;
  const c0 = s.charCodeAt(segStart) | 0x20;
  return (c0 !== 0x69 && c0 !== 0x64) || !DEFAULT_FILES.has(s.slice(segStart).toLowerCase());
}

/**
 * isSimpleHttpUrl's form: http(s)://, host labels of [a-z0-9-] separated by
 * single dots, none starting with xn--, the last one starting with a letter;
 * then a path of [A-Za-z0-9-._~/] with no '.' or '..' segment.
 */
const SIMPLE_HTTP_URL = /^https?:\/\/(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~]*)+$/;

/**
 * Canonical form of `input` (resolved against `base` when given), or null
 * when it is not an http(s) URL or cannot be parsed. Never throws.
 */
export function canonicalize(input: string, base?: string, opts: CanonOptions = {}): string | null {
  if (base === undefined && isSimpleHttpUrl(input)) return input;
  let u: URL;
  try {
    u = base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.hostname === '') return null;
  // Each URL setter re-serialises the whole href (~1.4% of a crawl's main
  // thread when done for every link): set only what changes. A fragment can
  // only come from the input; an empty one ('a#') reads as '' but is there.
  if (u.hash !== '' || input.includes('#')) u.hash = '';
  // Credentials never belong in a URL we queue, log or print (use --auth).
  if (u.username !== '') u.username = '';
  if (u.password !== '') u.password = '';
  if (u.hostname.endsWith('.')) u.hostname = u.hostname.replace(/\.+$/, '');
  const stripSessions = opts.stripSessionIds !== false;
  const pathname = u.pathname;
  let path = normaliseEscapes(pathname);
  if (stripSessions && path.includes(';')) path = path.replace(PATH_PARAM, (m, name: string, value: string) => (isSessionParam(name, value) ? '' : m));
  if (opts.dropIndex !== false) {
    const slash = path.lastIndexOf('/');
    if (DEFAULT_FILES.has(path.slice(slash + 1).toLowerCase())) path = path.slice(0, slash + 1);
  }
  if (path !== pathname) u.pathname = path;
  if (u.search !== '') {
    const search = normaliseEscapes(u.search);
    if (search !== u.search) u.search = search;
  }
  if (stripSessions && u.search !== '') {
    const search = stripSessionQuery(u.search);
    if (search !== u.search) u.search = search;
  }
  // WHATWG keeps a lone '?' as search ''. Drop it so `a?` and `a` are one URL.
  return u.search === '' && u.href.endsWith('?') ? u.href.slice(0, -1) : u.href;
}

/**
 * `canonicalize(href, undefined, opts)` remembered per href: for the links
 * of one page, which repeat hrefs (navigation, "more" links), so each
 * distinct one is canonicalised once.
 */
export function canonicalizer(opts?: CanonOptions): (href: string) => string | null {
  const seen = new Map<string, string | null>();
  return (href) => {
    let url = seen.get(href);
    if (url === undefined) seen.set(href, (url = canonicalize(href, undefined, opts)));
    return url;
  };
}

/** Host (with non-default port) of a canonical URL. */
export function hostOf(url: string): string {
  return new URL(url).host;
}

/** Origin (scheme://host[:port]) of a URL, the unit robots.txt applies to. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** Stable key for the seen set: hex MD5 of the canonical URL (Zou et al.'s page-store name, docs/algorithms.md#page-repository). */
export function urlKey(canonicalUrl: string): string {
  return hash('md5', canonicalUrl, 'hex');
}

/** Host part of a canonical URL (canonical URLs always have a path). */
export function hostOfCanonical(url: string): string {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return url.slice(start, end < 0 ? undefined : end);
}
