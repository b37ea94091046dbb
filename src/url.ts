/**
 * URL canonicalisation (seed 001, rules (a)–(f)) on top of WHATWG `URL`.
 *
 * WHATWG parsing already does (a) lower-case scheme and host, (e) resolve
 * `.`/`..` segments and (f) drop default ports; this module adds
 * (b) drop the fragment, (c) one spelling per percent-escape (unreserved
 * characters decoded, other escapes upper-case hex), and (d) drop a default
 * file name (`index.html`, ...) at the end of the path, which is a heuristic
 * and therefore an option (on by default). User info (`user:pass@`) is
 * dropped: credentials go in `--auth`, never in records or host keys.
 */
import { createHash } from 'node:crypto';

export interface CanonOptions {
  /** drop index.html / index.htm / default.htm(l) at the end of the path (default true) */
  dropIndex?: boolean;
}

const DEFAULT_FILES = new Set(['index.html', 'index.htm', 'default.htm', 'default.html']);
const UNRESERVED = /[A-Za-z0-9\-._~]/;

function normaliseEscapes(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/**
 * Canonical form of `input` (resolved against `base` when given), or null
 * when it is not an http(s) URL or cannot be parsed. Never throws.
 */
export function canonicalize(input: string, base?: string, opts: CanonOptions = {}): string | null {
  let u: URL;
  try {
    u = base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.hostname === '') return null;
  u.hash = '';
  // Credentials never belong in a URL we queue, log or print (use --auth).
  u.username = '';
  u.password = '';
  if (u.hostname.endsWith('.')) u.hostname = u.hostname.replace(/\.+$/, '');
  let path = normaliseEscapes(u.pathname);
  if (opts.dropIndex !== false) {
    const slash = path.lastIndexOf('/');
    if (DEFAULT_FILES.has(path.slice(slash + 1).toLowerCase())) path = path.slice(0, slash + 1);
  }
  u.pathname = path;
  if (u.search !== '') u.search = normaliseEscapes(u.search);
  // WHATWG keeps a lone '?' as search ''. Drop it so `a?` and `a` are one URL.
  return u.search === '' && u.href.endsWith('?') ? u.href.slice(0, -1) : u.href;
}

/** Host (with non-default port) of a canonical URL. */
export function hostOf(url: string): string {
  return new URL(url).host;
}

/** Origin (scheme://host[:port]) of a URL, the unit robots.txt applies to. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** Stable key for the seen set: hex MD5 of the canonical URL (seed 001's page-store name). */
export function urlKey(canonicalUrl: string): string {
  return createHash('md5').update(canonicalUrl).digest('hex');
}
