/**
 * One word split per page for the relevance judge (TopicModel.pageTermFreq)
 * and the near-duplicate SimHash (pageFingerprint, src/stages/dedup.ts):
 * both read the title, heading, content and other blocks, the judge
 * without stop words, the fingerprint with them. Tokenising a block with
 * stop words kept and dropping them afterwards gives exactly what
 * tokenize() with stop words dropped gives (tokenize drops them last), so
 * the block's tokens are computed once, cached for the last few pages,
 * and read by both.
 */
import type { ParsedPage } from '../../types.ts';
import type { Segmenter } from './segmenter.ts';
import { isStopword } from './stopwords.ts';
import { tokenize, tokenizeAppend } from './tokenize.ts';

/** The blocks split once and shared. */
export const SHARED_BLOCKS = ['title', 'heading', 'content', 'other'] as const;
export type SharedBlock = (typeof SHARED_BLOCKS)[number];

interface Split {
  segmenter: Segmenter | undefined;
  words: Partial<Record<SharedBlock, string[]>>;
  links?: LinkWords;
}

/**
 * The tokens of every link's anchor of a page, in two flat arrays: link
 * i's tokens with stop words kept are `words[starts[i]..starts[i + 1])`,
 * without them `keys[keyStarts[i]..keyStarts[i + 1])`. Do not modify.
 */
export interface LinkWords {
  readonly words: readonly string[];
  readonly starts: readonly number[];
  readonly keys: readonly string[];
  readonly keyStarts: readonly number[];
  /** page.blocks.anchor is the non-empty anchors joined by single spaces (so its tokens are theirs in turn) */
  readonly anchorBlockIsJoin: boolean;
}

/**
 * The splits of the last two pages, found by identity. The judge and the
 * near-duplicate stage see a page one right after the other (classify,
 * then dedup), so two slots cover that without a WeakMap, whose entries
 * the garbage collector treats as ephemerons (slower scavenges of the
 * small young generation the bin runs with). Not more: these arrays are
 * old, and a page they hold (its links, blocks and tokens) lives until its
 * slot is reused. Held for 8 pages (~1.7 MB allocated meanwhile, more than
 * the bin's 1 MB young generation) a page survived two scavenges and was
 * promoted; held for 2 (~0.4 MB) it dies young (docs/results/cpu-per-page.md,
 * seventh pass).
 */
const SLOTS = 2;
const pagesHeld: (ParsedPage | null)[] = new Array<ParsedPage | null>(SLOTS).fill(null);
const splitsHeld: (Split | null)[] = new Array<Split | null>(SLOTS).fill(null);
let next = 0;

function splitOf(page: ParsedPage, segmenter: Segmenter | undefined): Split {
  for (let i = 0; i < SLOTS; i++) {
    if (pagesHeld[i] === page && splitsHeld[i]!.segmenter === segmenter) return splitsHeld[i]!;
  }
  const split: Split = { segmenter, words: {}, links: undefined };
  pagesHeld[next] = page;
  splitsHeld[next] = split;
  next = (next + 1) % SLOTS;
  return split;
}

/**
 * The tokens of `page.blocks[block]` with stop words kept (tokenize with
 * `stopwords: false`), computed once per page and segmenter. Do not modify
 * the array.
 */
export function blockWords(page: ParsedPage, block: SharedBlock, segmenter: Segmenter | undefined): readonly string[] {
  const split = splitOf(page, segmenter);
  return (split.words[block] ??= tokenize(page.blocks[block], { stopwords: false, segmenter }));
}

/**
 * Adds `weight` to `into` for each of `tokens` that is not a stop word:
 * termFreq of what tokenize with stop words dropped gives for the same text.
 */
export function termFreqWithoutStopwords(tokens: readonly string[], weight: number, into: Map<string, number>): void {
  for (const t of tokens) if (!isStopword(t)) into.set(t, (into.get(t) ?? 0) + weight);
}

/*
 * Why pieces can be tokenised apart: tokenize(a + s + b) is tokenize(a)
 * then tokenize(b) when the separator s holds no word character (a space,
 * ' \n '): no word run crosses it, NFKC composes nothing with a space,
 * and a final sigma before it (or a sigma after it) is lower-cased alike.
 * The near-duplicate text (anchors joined by ' \n '), the judge's anchor
 * block and link contexts made of the neighbouring links' anchors (the
 * parser's window when the neighbours are in it) are such joins, so each
 * anchor is split once per page (test/page-words.test.ts checks against
 * tokenising the joined texts).
 */

/** The tokens of a page's link anchors (see LinkWords), computed once per page and segmenter. */
export function linkWords(page: ParsedPage, segmenter: Segmenter | undefined): LinkWords {
  const split = splitOf(page, segmenter);
  return (split.links ??= splitLinks(page, segmenter));
}

/** linkWords when something already asked for them on this page, else undefined (the caller tokenises what it needs itself). */
export function cachedLinkWords(page: ParsedPage, segmenter: Segmenter | undefined): LinkWords | undefined {
  for (let i = 0; i < SLOTS; i++) {
    if (pagesHeld[i] === page && splitsHeld[i]!.segmenter === segmenter) return splitsHeld[i]!.links;
  }
  return undefined;
}

function splitLinks(page: ParsedPage, segmenter: Segmenter | undefined): LinkWords {
  const links = page.links;
  const n = links.length;
  // tokens go to reused arrays first, then are copied out at their size
  // (no garbage from growing arrays token by token)
  const words = scratchWords;
  const keys = scratchKeys;
  // small-integer arrays, not Int32Arrays: a typed array of more than 64
  // bytes gets an ArrayBuffer outside the heap, costly to make and collect
  const starts: number[] = [0];
  const keyStarts: number[] = [0];
  let w = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const anchor = links[i]!.anchor;
    const from = w;
    if (anchor !== '') w = tokenizeAppend(anchor, words, w, false, segmenter);
    for (let j = from; j < w; j++) if (!isStopword(words[j]!)) keys[k++] = words[j]!;
    starts.push(w);
    keyStarts.push(k);
  }
  return { words: words.slice(0, w), starts, keys: keys.slice(0, k), keyStarts, anchorBlockIsJoin: isAnchorJoin(page.blocks.anchor, links) };
}

const scratchWords: string[] = [];
const scratchKeys: string[] = [];

/** Whether `block` is the non-empty anchors of `links` joined by single spaces (checked without building the join). */
function isAnchorJoin(block: string, links: readonly { anchor: string }[]): boolean {
  let at = 0;
  for (const { anchor } of links) {
    if (anchor === '') continue;
    if (at > 0) {
      if (block.charCodeAt(at) !== 0x20) return false;
      at++;
    }
    if (!block.startsWith(anchor, at)) return false;
    at += anchor.length;
  }
  return at === block.length;
}

let hintPage: ParsedPage | null = null;
let hintIndex = -1;

/**
 * The index of `link` in `page.links` (-1 when absent). Links asked for in
 * order (classify skips nofollow links and links without a canonical form)
 * are searched for from the last one found: a page's links cost one pass,
 * not one pass each.
 */
export function linkIndex(page: ParsedPage, link: object): number {
  const links = page.links;
  if (hintPage === page) {
    for (let i = hintIndex + 1; i < links.length; i++) {
      if (links[i] === link) return (hintIndex = i);
    }
  }
  const i = links.indexOf(link as ParsedPage['links'][number]);
  hintPage = i < 0 ? null : page;
  hintIndex = i;
  return i;
}

/**
 * Where the tokens of link i's context are among the anchors' (LinkWords):
 * 0 when the context is not made of its neighbours' anchors (tokenise it),
 * 1 the previous link's anchor, 2 the next link's, 3 both with a space
 * between (previous first).
 */
export function contextOfNeighbours(links: readonly { anchor: string; context: string }[], i: number): 0 | 1 | 2 | 3 {
  const c = links[i]!.context;
  const prev = i > 0 ? links[i - 1]!.anchor : null;
  const next = i + 1 < links.length ? links[i + 1]!.anchor : null;
  if (prev !== null && next !== null && c.length === prev.length + 1 + next.length && c.charCodeAt(prev.length) === 0x20 && c.startsWith(prev) && c.endsWith(next)) return 3;
  if (prev !== null && c === prev) return 1;
  if (next !== null && c === next) return 2;
  return 0;
}
