/**
 * Features for the learned classifiers: binary link-context features
 * (Han et al.'s feature groups, docs/algorithms.md#nb-link), page tokens for the page classifier, and the
 * rule that mines a domain dictionary from labelled training examples.
 */
import type { ParsedPage, BlockType } from '../../types.ts';
import type { Segmenter } from '../text/segmenter.ts';
import { tokenize } from '../text/tokenize.ts';

/**
 * Han et al.'s feature groups (docs/algorithms.md#nb-link): 1 = anchor words only; 2 = anchor + context
 * words + domain flags; beyond the paper, 3 = group 2 + the link's target URL
 * (urlFeatures) and 4 = group 3 + the words of the parent page's title.
 */
export type FeatureGroup = 1 | 2 | 3 | 4;

/** The feature groups, in order. */
export const FEATURE_GROUPS: readonly FeatureGroup[] = [1, 2, 3, 4];

/** Is `v` a feature group? */
export function isFeatureGroup(v: unknown): v is FeatureGroup {
  return v === 1 || v === 2 || v === 3 || v === 4;
}

/** Options of linkFeatures. */
export interface LinkFeatureOptions {
  group: FeatureGroup;
  /** domain dictionary, as tokens (tokenize() output); group 2 and up. Default: empty (the flags never fire) */
  domainTerms?: ReadonlySet<string>;
  /** Han segmenter (default: the tokenizer's) */
  segmenter?: Segmenter;
  /** the link's target URL: group 3 and up add urlFeatures(url, parentUrl) */
  url?: string;
  /** URL of the page the link is on (the same-host flag of group 3 and up) */
  parentUrl?: string;
  /** title of the page the link is on: group 4 adds 'p:'+token for its words */
  parentTitle?: string;
  /** the page the link is on is itself relevant (a target page): group 4 adds PARENT_RELEVANT_FLAG */
  parentRelevant?: boolean;
}

/** Flag feature (group 4): the page the link is on is relevant (SkyReach's linkage locality, learnt: docs/algorithms.md#topics-on-the-web). */
export const PARENT_RELEVANT_FLAG = 'p:#relevant';

/** Flag feature: the anchor contains a domain-dictionary token. */
export const ANCHOR_DOMAIN_FLAG = 'a:#domain';
/** Flag feature: the context contains a domain-dictionary token. */
export const CONTEXT_DOMAIN_FLAG = 'c:#domain';

/**
 * Distinct features of a link context (docs/algorithms.md#nb-link), in this order: 'a:'+token
 * for each distinct anchor token (first occurrence order); for group 2 and
 * up then 'c:'+token for each distinct context token (anchor and context
 * words stay distinct features: a:股票 vs c:股票), then 'a:#domain' when an
 * anchor token is in `domainTerms` and 'c:#domain' when a context token is;
 * for group 3 and up then urlFeatures(url, parentUrl) (when `url` is
 * given); for group 4 then 'p:'+token for each distinct token of
 * `parentTitle` and 'p:#relevant' when `parentRelevant`. Tokens come from tokenize() (stop words dropped, jieba
 * search mode for Han); they never contain '#', so the flags cannot collide
 * with words.
 */
export function linkFeatures(anchor: string, context: string, opts: LinkFeatureOptions): string[] {
  const anchorTokens = new Set(tokenize(anchor, { segmenter: opts.segmenter }));
  const out: string[] = [];
  for (const t of anchorTokens) out.push('a:' + t);
  if (opts.group === 1) return out;
  const contextTokens = new Set(tokenize(context, { segmenter: opts.segmenter }));
  for (const t of contextTokens) out.push('c:' + t);
  const domain = opts.domainTerms;
  if (domain && domain.size > 0) {
    if (hasAny(anchorTokens, domain)) out.push(ANCHOR_DOMAIN_FLAG);
    if (hasAny(contextTokens, domain)) out.push(CONTEXT_DOMAIN_FLAG);
  }
  if (opts.group === 2) return out;
  if (opts.url !== undefined) out.push(...urlFeatures(opts.url, opts.parentUrl));
  if (opts.group === 4) {
    if (opts.parentTitle) for (const t of new Set(tokenize(opts.parentTitle, { segmenter: opts.segmenter }))) out.push('p:' + t);
    if (opts.parentRelevant === true) out.push(PARENT_RELEVANT_FLAG);
  }
  return out;
}

/** Deepest path depth told apart by the `u:#depth=` feature (deeper paths share it). */
export const MAX_URL_DEPTH = 6;

/**
 * Words of a URL's path and query: the percent-decoded, lower-cased path
 * and query split on every character that is not a letter or digit, then
 * at letter/digit boundaries (`cs415` -> `cs`, `415`), each 1–30
 * characters, distinct, first-occurrence order; `~` (as in `/~user/`)
 * counts as a token of its own. The host is left out (the same-host flag
 * says what generalises across sites).
 */
export function urlTokens(url: string): string[] {
  const path = urlPath(url);
  if (path === null) return [];
  const out = new Set<string>();
  if (path.includes('~')) out.add('~');
  for (const m of path.toLowerCase().matchAll(/\p{L}+|\p{Nd}+/gu)) if (m[0].length <= 30) out.add(m[0]);
  return [...out];
}

/**
 * Features of a link's target URL, known before the page is fetched (group
 * 3, beyond Han et al.'s groups, docs/algorithms.md#nb-link; ACHE's link classifier also reads the URL): 'u:' +
 * each urlTokens() word (a distinct group, so anchor "courses" and URL
 * "courses" are different features), then structural flags, which contain
 * '#' and so never collide with words:
 * - `u:#same-host` / `u:#other-host`: the target's host is / is not the
 *   parent page's (only when `parentUrl` is given);
 * - `u:#depth=N`: N non-empty path segments, at most MAX_URL_DEPTH;
 * - `u:#dir` (the path ends in `/`) or `u:#ext=EXT` (the last segment's
 *   file extension, lower case) or `u:#noext`;
 * - `u:#digits-last`: the last non-empty segment holds a digit;
 * - `u:#tilde-home`: the path is a user's home directory (`/~user`,
 *   `/~user/`, `/~user/index.html`);
 * - `u:#query`: the URL has a query string.
 * Nothing is topic-specific: which words and flags matter is learnt.
 * Returns [] for a string that is not an absolute URL.
 */
export function urlFeatures(url: string, parentUrl?: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const out = urlTokens(url).map((t) => 'u:' + t);
  if (parentUrl !== undefined) {
    let parentHost: string | null = null;
    try {
      parentHost = new URL(parentUrl).host;
    } catch {
      parentHost = null;
    }
    if (parentHost !== null) out.push(parentHost === u.host ? 'u:#same-host' : 'u:#other-host');
  }
  const path = urlPath(url) ?? '/';
  const pathOnly = path.split('?')[0];
  const segments = pathOnly.split('/').filter((s) => s !== '');
  out.push(`u:#depth=${Math.min(segments.length, MAX_URL_DEPTH)}`);
  const last = segments.at(-1) ?? '';
  if (pathOnly.endsWith('/') || last === '') out.push('u:#dir');
  else {
    const ext = /\.([a-z0-9]{1,5})$/i.exec(last)?.[1];
    out.push(ext === undefined ? 'u:#noext' : `u:#ext=${ext.toLowerCase()}`);
  }
  if (/\p{Nd}/u.test(last)) out.push('u:#digits-last');
  if (/^\/~[^/]+\/?(index\.html?)?$/i.test(pathOnly)) out.push('u:#tilde-home');
  if (u.search.length > 1) out.push('u:#query');
  return out;
}

/** The decoded path and query of an absolute URL, or null when `url` is not one. */
function urlPath(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const raw = u.pathname + u.search;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function hasAny(tokens: ReadonlySet<string>, terms: ReadonlySet<string>): boolean {
  for (const t of tokens) if (terms.has(t)) return true;
  return false;
}

/** The blocks whose text counts as a page's visible text, in this order. */
const PAGE_BLOCKS: readonly BlockType[] = ['title', 'heading', 'content', 'navigation', 'anchor', 'other'];

/**
 * Distinct features of a page for the page classifier: 't:'+token for each
 * token of the title (page.title, else blocks.title), then every token of
 * the visible text (blocks title, heading, content, navigation, anchor,
 * other) unprefixed. First-occurrence order, no repeats.
 */
export function pageFeatures(page: ParsedPage, opts: { segmenter?: Segmenter } = {}): string[] {
  const seen = new Set<string>();
  for (const t of tokenize(page.title || page.blocks.title, { segmenter: opts.segmenter })) seen.add('t:' + t);
  for (const type of PAGE_BLOCKS) {
    const text = page.blocks[type];
    if (text) for (const t of tokenize(text, { segmenter: opts.segmenter })) seen.add(t);
  }
  return [...seen];
}

/** Options of mineDomainTerms. */
export interface MineDomainOptions {
  /** dictionary size (default 50) */
  size?: number;
  /** a token must occur in at least this many positive examples (default 2) */
  minCount?: number;
}

/**
 * Per token, in how many positive and how many negative examples it occurs
 * (each example counts a token once), plus the class sizes.
 */
export function classDocFreq(examples: Iterable<{ tokens: readonly string[]; label: 0 | 1 }>): {
  nPos: number;
  nNeg: number;
  df: Map<string, [number, number]>;
} {
  let nPos = 0;
  let nNeg = 0;
  const df = new Map<string, [number, number]>();
  for (const ex of examples) {
    if (ex.label === 1) nPos++;
    else nNeg++;
    for (const t of new Set(ex.tokens)) {
      let c = df.get(t);
      if (c === undefined) df.set(t, (c = [0, 0]));
      c[ex.label === 1 ? 0 : 1]++;
    }
  }
  return { nPos, nNeg, df };
}

/**
 * A domain dictionary mined from labelled training examples (each example
 * given by its tokens): the `size` tokens with the highest smoothed log-odds
 * of occurring in a positive rather than a negative example,
 *   score(t) = ln((df₊(t) + 1) / (n₊ + 2)) − ln((df₋(t) + 1) / (n₋ + 2)),
 * df = examples of the class containing t (each example counts a token
 * once), among tokens with df₊ ≥ minCount and score > 0. Order: score
 * descending, then df₊ descending, then the token (code-unit order), so the
 * result is deterministic. Mine it from training data only.
 */
export function mineDomainTerms(
  examples: Iterable<{ tokens: readonly string[]; label: 0 | 1 }>,
  opts: MineDomainOptions = {},
): string[] {
  const size = opts.size ?? 50;
  const minCount = opts.minCount ?? 2;
  const { nPos, nNeg, df } = classDocFreq(examples);
  const scored: [string, number, number][] = [];
  for (const [t, [pos, neg]] of df) {
    if (pos < minCount) continue;
    const score = Math.log((pos + 1) / (nPos + 2)) - Math.log((neg + 1) / (nNeg + 2));
    if (score > 0) scored.push([t, score, pos]);
  }
  scored.sort((a, b) => b[1] - a[1] || b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return scored.slice(0, size).map(([t]) => t);
}

/**
 * The text a linear page judge reads: the title, the headings and the
 * content text, i.e. the page's own text without its anchors, navigation
 * and link lists (the parser moves link-list text to `navigation` and
 * anchor text to `anchor`), so a hub listing twenty on-topic headlines is
 * judged by what it says itself, not by what it links to.
 */
export function pageMainText(page: ParsedPage): string {
  return [page.title || page.blocks.title, page.blocks.heading, page.blocks.content].filter((s) => s).join('\n');
}

/**
 * Share of a page's visible text that is link text or navigation:
 * (anchor + navigation characters) / (anchor + navigation + heading +
 * content characters), whitespace not counted; 0 for a page without text.
 * The classic boilerplate signal (Kohlschütter et al. 2010, "link
 * density"): hubs, home pages and link lists are near 1, articles low.
 */
export function linkDensity(page: ParsedPage): number {
  const links = nonSpaceLength(page.blocks.anchor) + nonSpaceLength(page.blocks.navigation);
  const own = nonSpaceLength(page.blocks.heading) + nonSpaceLength(page.blocks.content);
  return links + own === 0 ? 0 : links / (links + own);
}

/**
 * s.replace(/\s+/g, '').length without building the string (the linear
 * judge measures every page's blocks): UTF-16 code units that are not
 * JavaScript white space or line terminators.
 */
export function nonSpaceLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (!isJsSpace(s.charCodeAt(i))) n++;
  return n;
}

/** The code units \s matches: ECMAScript WhiteSpace (including every Unicode Zs) and LineTerminator. */
function isJsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
