/**
 * Crawl scope: which URLs a crawl may queue (`--allow-domain`, `--include`,
 * `--exclude`). A crawl of one site or one organisation for its on-topic
 * pages should not wander off to the rest of the web; every crawler users
 * compare with has this (Scrapy's `allowed_domains`, Heritrix's SURT-prefix
 * scope, Nutch's regex URL filter, ACHE's link filters, Crawlee's
 * `enqueueLinks` globs and strategies).
 *
 * A canonical URL is in scope when all of these hold:
 * - with allowed domains, its host is one of them or a subdomain of one
 *   (`cornell.edu` allows `cornell.edu` and `www.cs.cornell.edu`, not
 *   `notcornell.edu`); the port does not matter;
 * - with include patterns, at least one matches the URL;
 * - no exclude pattern matches it.
 *
 * Patterns are JavaScript regular expressions tested against the canonical
 * URL (src/urls/canonical.ts: lower-case scheme and host, no fragment), unanchored, as
 * Nutch's filters are. The scope decides what is queued: links (the sink
 * drops the rest, counted as `out-of-scope`) and sitemap entries; and which
 * redirects are followed (a redirect out of scope ends its URL with an
 * `FC_OUT_OF_SCOPE` record, as Heritrix scopes redirect targets and
 * Scrapy's offsite filter does). Seeds are fetched whatever the scope,
 * since the user named them; their redirects are held to it like any.
 */
import { UsageError } from '../errors.ts';

export interface ScopeRules {
  /** allowed domains (`example.org`; normalised by parseDomain, which throws FC_USAGE for anything else) */
  domains?: readonly string[];
  include?: readonly RegExp[];
  exclude?: readonly RegExp[];
}

/** True for a canonical URL the crawl may queue. */
export type InScope = (url: string) => boolean;

/** The host of a canonical URL without its port (IPv6 literals keep their brackets). */
export function hostNameOf(url: string): string {
  const start = url.indexOf('//') + 2;
  let end = url.length;
  for (const c of ['/', '?', '#']) {
    const i = url.indexOf(c, start);
    if (i >= 0 && i < end) end = i;
  }
  const host = url.slice(start, end);
  const at = host.lastIndexOf('@');
  const bare = at >= 0 ? host.slice(at + 1) : host;
  if (bare.startsWith('[')) return bare.slice(0, bare.indexOf(']') + 1);
  const colon = bare.indexOf(':');
  return colon < 0 ? bare : bare.slice(0, colon);
}

/**
 * The check for `rules`, or null when they allow everything (no rule given:
 * the sink then skips the check altogether).
 */
export function compileScope(rules: ScopeRules): InScope | null {
  const domains = rules.domains ?? [];
  if (domains.length === 0 && (rules.include ?? []).length === 0 && (rules.exclude ?? []).length === 0) return null;
  const names = domains.map(parseDomain);
  // a library caller's /x/g would carry lastIndex from one test to the next
  const stateless = (re: RegExp): RegExp => (re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, '')) : re);
  const include = (rules.include ?? []).map(stateless);
  const exclude = (rules.exclude ?? []).map(stateless);
  const suffixes = names.map((d) => `.${d}`);
  return (url) => {
    if (names.length > 0) {
      const host = hostNameOf(url);
      if (!names.some((d, i) => host === d || host.endsWith(suffixes[i]!))) return false;
    }
    if (include.length > 0 && !include.some((re) => re.test(url))) return false;
    return !exclude.some((re) => re.test(url));
  };
}

/**
 * A domain as `--allow-domain` takes it: a host name (`cornell.edu`,
 * `www.cs.cornell.edu`, an IPv4 address), lower-cased and in punycode as
 * canonical URLs have it. A leading dot or `*.` is allowed and dropped.
 * Throws UsageError (FC_USAGE) for anything else (a URL, a port, a path).
 */
export function parseDomain(value: string): string {
  const v = value.trim().replace(/^\*?\./, '');
  let host: string | null = null;
  if (v !== '' && !/[/:?#@\s]/.test(v)) {
    try {
      host = new URL(`http://${v}/`).hostname;
    } catch {
      host = null;
    }
  }
  if (host === null || host === '') throw new UsageError(`--allow-domain wants a domain name such as example.org, got ${JSON.stringify(value)}`);
  return host;
}

/** A `--include` / `--exclude` pattern; throws UsageError (FC_USAGE) for an invalid one. */
export function parsePattern(flag: string, value: string): RegExp {
  if (value === '') throw new UsageError(`--${flag} wants a regular expression, got an empty one`);
  try {
    return new RegExp(value);
  } catch (err) {
    throw new UsageError(`--${flag} ${JSON.stringify(value)} is not a valid regular expression`, { cause: err });
  }
}
