/**
 * Features for the learned classifiers: binary link-context features
 * (seed 000's feature groups), page tokens for the page classifier, and the
 * rule that mines a domain dictionary from labelled training examples.
 */
import type { ParsedPage, BlockType } from '../types.ts';
import type { Segmenter } from '../text/segmenter.ts';
import { tokenize } from '../text/tokenize.ts';

/** Seed 000's feature groups: 1 = anchor words only; 2 = anchor + context words + domain flags. */
export type FeatureGroup = 1 | 2 | 3;

/** Options of linkFeatures. */
export interface LinkFeatureOptions {
  group: FeatureGroup;
  /** domain dictionary, as tokens (tokenize() output); group 2 only. Default: empty (the flags never fire) */
  domainTerms?: ReadonlySet<string>;
  /** Han segmenter (default: the tokenizer's) */
  segmenter?: Segmenter;
  /** the link's target URL: group 3 adds its host and path tokens */
  url?: string;
}

/** Flag feature: the anchor contains a domain-dictionary token. */
export const ANCHOR_DOMAIN_FLAG = 'a:#domain';
/** Flag feature: the context contains a domain-dictionary token. */
export const CONTEXT_DOMAIN_FLAG = 'c:#domain';

/**
 * Distinct features of a link context (seed 000), in this order: 'a:'+token
 * for each distinct anchor token (first occurrence order); for group 2 then
 * 'c:'+token for each distinct context token (anchor and context words stay
 * distinct features: a:股票 vs c:股票), then 'a:#domain' when an anchor
 * token is in `domainTerms` and 'c:#domain' when a context token is.
 * Tokens come from tokenize() (stop words dropped, jieba search mode for
 * Han); they never contain '#', so the flags cannot collide with words.
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
  if (opts.group === 3 && opts.url !== undefined) for (const t of urlTokens(opts.url)) out.push('u:' + t);
  return out;
}

/**
 * Words of a URL's path and query (group 3, beyond seed 000): lower-case
 * runs of letters (digits dropped, so `cs100` and `cs415` share `cs`),
 * 2–20 letters, distinct; plus the last path segment's kind: `u:/` for a
 * directory, `u:.ext` for a file extension. The URL is known before the
 * page is fetched, and site structure (a /courses/ directory) carries topic.
 */
export function urlTokens(url: string): string[] {
  let path: string;
  try {
    const u = new URL(url);
    path = decodeURIComponent(u.pathname + u.search);
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const m of path.toLowerCase().matchAll(/[a-z]{2,20}/g)) out.add(m[0]);
  const last = path.split('?')[0].split('/').pop() ?? '';
  if (last === '') out.add('/');
  else {
    const ext = /\.([a-z0-9]{1,5})$/i.exec(last)?.[1];
    if (ext !== undefined) out.add('.' + ext.toLowerCase());
  }
  return [...out];
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
