/**
 * Near-duplicate stage (after classify, before the frontier sink): a 2xx
 * HTML page whose text is within Hamming distance k of an earlier page's
 * SimHash (src/relevance/simhash.ts) gets `item.duplicateOf` (the earlier page's URL).
 * It is still committed and counted as a page, but the sink queues none of
 * its links (src/stages/sink.ts, linksToQueue): a mirror or a copy adds no
 * new paths worth the fetches.
 *
 * - Text fingerprinted: the page's title, heading, content and other blocks
 *   and the anchor texts of its links outside navigation regions (not the
 *   navigation: a shared menu makes different pages alike), tokenised with
 *   stop words kept (src/relevance/text/tokenize.ts); at most the first
 *   MAX_FINGERPRINT_CHARS (16 Ki) characters of that text.
 * - Pages with fewer than `minTokens` distinct tokens (30) get no
 *   fingerprint and are never duplicates: an empty page, a one-line "moved"
 *   notice, or a template that repeats a few words around an id.
 * - Every fingerprinted page's record carries `simhash` (16 hex digits).
 *   Duplicates are not added to the index, so `duplicateOf` always names a
 *   page that is not itself a duplicate.
 *
 * Persistence: the fingerprints live in the records of the store's log,
 * which the page's commit writes atomically; on resume {@link NearDuplicates.restore}
 * rebuilds the index by reading the log once (no extra store state). The
 * index holds numbers only (entry → log position); the earlier page's URL is
 * read back from the log when a duplicate is found, or taken from a small
 * map for pages between this stage and their commit.
 */
import { toItemError } from '../errors.ts';
import { fingerprintFromHex, fingerprintToHex, simhashTokens, SimHashIndex, type Fingerprint } from '../relevance/simhash.ts';
import type { Segmenter } from '../relevance/text/segmenter.ts';
import { tokenize } from '../relevance/text/tokenize.ts';
import { TermCounts } from '../relevance/text/vector.ts';
import { blockWords, cachedLinkWords, SHARED_BLOCKS } from '../relevance/text/page-words.ts';
import type { CrawlItem, ParsedPage } from '../types.ts';

/** Pages with fewer distinct tokens than this are never near-duplicates. */
export const DEFAULT_NEAR_DUP_MIN_TOKENS = 30;

/**
 * Characters of text fingerprinted per page (the tokenizer costs about 1 µs
 * a character; a 200,000-character page would cost 200 ms). 16 Ki characters
 * are some 2,500 words, plenty to tell near-duplicates apart.
 */
export const MAX_FINGERPRINT_CHARS = 16 * 1024;

/** The blocks of a page that are fingerprinted (plus the anchors of links outside navigation). */
const BLOCKS = SHARED_BLOCKS;
/** between the fingerprinted pieces: no word crosses it */
const SEPARATOR = ' \n ';

/** Whether a link's anchor is fingerprinted: one outside navigation, with text. */
function isFingerprinted(link: ParsedPage['links'][number]): boolean {
  return link.block !== 'navigation' && link.anchor !== '';
}

/** The fingerprinted anchors of `links` (isFingerprinted), in page order. */
function fingerprintedAnchors(links: ParsedPage['links']): string[] {
  const out: string[] = [];
  for (const link of links) if (isFingerprinted(link)) out.push(link.anchor);
  return out;
}

/** The SimHash of a parsed page's text, or null when it has fewer than `minTokens` distinct tokens. */
export function pageFingerprint(page: ParsedPage, minTokens = DEFAULT_NEAR_DUP_MIN_TOKENS, segmenter?: Segmenter): Fingerprint | null {
  const links = page.links;
  let length = 0;
  for (const b of BLOCKS) length += page.blocks[b].length + SEPARATOR.length;
  let anchors = 0;
  for (const link of links) {
    if (isFingerprinted(link)) {
      anchors++;
      length += link.anchor.length + SEPARATOR.length;
    }
  }
  let tokens: string[];
  let count: number;
  if (length - SEPARATOR.length <= MAX_FINGERPRINT_CHARS) {
    // no word crosses a separator, so the joined text's tokens are the
    // blocks' tokens in turn, then the anchors': the blocks' split is the
    // one the judge made, and so are the anchors' when the link scorer
    // split them (src/relevance/text/page-words.ts)
    // collected in an array reused from page to page (simhashTokens reads
    // it before the next call)
    tokens = scratchTokens;
    count = 0;
    for (const b of BLOCKS) {
      const words = blockWords(page, b, segmenter);
      for (let i = 0; i < words.length; i++) tokens[count++] = words[i]!;
    }
    const split = anchors > 0 ? cachedLinkWords(page, segmenter) : undefined;
    if (split !== undefined) {
      const { words, starts } = split;
      for (let i = 0; i < links.length; i++) {
        if (!isFingerprinted(links[i]!)) continue;
        for (let j = starts[i]!; j < starts[i + 1]!; j++) tokens[count++] = words[j]!;
      }
    } else if (anchors > 0) {
      for (const t of tokenize(fingerprintedAnchors(links).join(SEPARATOR), { stopwords: false, segmenter })) tokens[count++] = t;
    }
  } else {
    const parts: string[] = [...BLOCKS.map((b) => page.blocks[b]), ...fingerprintedAnchors(links)];
    tokens = tokenize(parts.join(SEPARATOR).slice(0, MAX_FINGERPRINT_CHARS), { stopwords: false, segmenter });
    count = tokens.length;
  }
  // distinct words: a page that repeats a few words (a template around an
  // id) carries too little text to be called anyone's duplicate
  if (count < minTokens || !atLeastDistinct(tokens, count, minTokens)) return null;
  return simhashTokens(tokens, 1, count);
}

/** pageFingerprint's tokens (entries past the page's count are stale) */
const scratchTokens: string[] = [];

/** Whether the first `n` of `tokens` hold at least `k` distinct words (`new Set(tokens).size >= k`), counting only until `k`. */
function atLeastDistinct(tokens: readonly string[], n: number, k: number): boolean {
  if (k <= 0) return true;
  // a counter reused from page to page instead of a Set per page
  const seen = distinct;
  seen.reset();
  for (let i = 0; i < n; i++) {
    seen.add(tokens[i]!, 1);
    if (seen.size >= k) return true;
  }
  return false;
}

const distinct = new TermCounts();

export interface NearDuplicatesOptions {
  /** Hamming distance that makes a near-duplicate (1..10) */
  maxDistance: number;
  /** pages with fewer tokens are never duplicates (default DEFAULT_NEAR_DUP_MIN_TOKENS) */
  minTokens?: number;
  /** the URL of the n-th committed record (n from 1), or null; reads the store's log */
  urlOfCommit: (n: number) => Promise<string | null>;
  segmenter?: Segmenter;
}

/** The near-duplicate index of one crawl and what it found. */
export class NearDuplicates {
  readonly index: SimHashIndex;
  readonly minTokens: number;
  /** near-duplicates found in this run */
  found = 0;
  /** pages fingerprinted in this run, and the CPU ms spent on them */
  fingerprinted = 0;
  fingerprintMs = 0;
  private readonly urlOfCommit: (n: number) => Promise<string | null>;
  private readonly segmenter: Segmenter | undefined;
  /** entry id -> URL, for pages indexed but not committed yet */
  private readonly pending = new Map<number, string>();
  /** items indexed by check(), waiting for committed() */
  private readonly ids = new WeakMap<CrawlItem, number>();

  constructor(opts: NearDuplicatesOptions) {
    this.index = new SimHashIndex({ maxDistance: opts.maxDistance });
    this.minTokens = opts.minTokens ?? DEFAULT_NEAR_DUP_MIN_TOKENS;
    this.urlOfCommit = opts.urlOfCommit;
    this.segmenter = opts.segmenter;
  }

  /**
   * Rebuild the index from committed records, in commit order (the n-th
   * record is commit n): every page record with a `simhash` and without
   * `duplicateOf`. Returns the number of entries added.
   */
  async restore(records: AsyncIterable<object>): Promise<number> {
    let n = 0;
    let added = 0;
    for await (const r of records) {
      n++;
      const rec = r as { type?: unknown; simhash?: unknown; duplicateOf?: unknown };
      if (rec.type !== 'page' || rec.duplicateOf !== undefined) continue;
      const fp = fingerprintFromHex(rec.simhash);
      if (fp === null) continue;
      this.index.add(fp, n);
      added++;
    }
    return added;
  }

  /**
   * Fingerprint a 2xx page, look for an earlier near-duplicate, and set
   * `item.simhash` and, when one is found, `item.duplicateOf`; a page that
   * is not a duplicate joins the index.
   */
  async check(item: CrawlItem): Promise<void> {
    const pending = this.checkNow(item);
    if (pending !== undefined) await pending;
  }

  /**
   * check(), settled at once unless an earlier near-duplicate's URL must
   * be read from the store: then the promise of that (the stage awaits
   * only then, not once per page).
   */
  checkNow(item: CrawlItem): Promise<void> | undefined {
    const status = item.fetch?.status ?? 0;
    if (item.error !== undefined || item.page === undefined || status < 200 || status >= 300) return;
    const t0 = performance.now();
    // computed by a parse worker (--workers) with the same function and options, or here
    const fp = item.fingerprint !== undefined ? fingerprintFromHex(item.fingerprint) : pageFingerprint(item.page, this.minTokens, this.segmenter);
    this.fingerprintMs += performance.now() - t0;
    this.fingerprinted++;
    if (fp === null) return;
    item.simhash = fingerprintToHex(fp);
    const match = this.index.nearest(fp);
    if (match !== null) {
      const url = this.pending.get(match.id);
      if (url !== undefined) {
        this.#settle(item, fp, url);
        return;
      }
      if (match.ref > 0) return this.urlOfCommit(match.ref).then((read) => this.#settle(item, fp, read));
    }
    this.#settle(item, fp, null);
  }

  /** The end of check(): a duplicate of the page at `url` (unless that is the page itself), else indexed. */
  #settle(item: CrawlItem, fp: Fingerprint, url: string | null): void {
    if (url !== null && url !== item.entry.url && url !== item.fetch?.finalUrl) {
      item.duplicateOf = url;
      this.found++;
      return;
    }
    const id = this.index.add(fp, 0);
    this.pending.set(id, item.entry.url);
    this.ids.set(item, id);
  }

  /** The item's page is commit number `n` of the store: its index entry now points there. */
  committed(item: CrawlItem, n: number): void {
    const id = this.ids.get(item);
    if (id === undefined) return;
    this.ids.delete(item);
    this.index.setRef(id, n);
    this.pending.delete(id);
  }
}

/**
 * Pipeline stage: runs {@link NearDuplicates.check} on every item, in order.
 * A failure becomes the item's error (FC_INTERNAL), never a throw.
 */
export async function* dedupStage(source: AsyncIterable<CrawlItem>, opts: { dedup: NearDuplicates }): AsyncGenerator<CrawlItem> {
  for await (const item of source) {
    try {
      const pending = opts.dedup.checkNow(item);
      if (pending !== undefined) await pending;
    } catch (err) {
      item.error = toItemError(err);
    }
    yield item;
  }
}

/** urlOfCommit for a store: the `url` of its n-th log record (one short read). */
export function urlOfCommitIn(store: { log(opts?: { gt?: string }): AsyncIterable<object> }, logKey: (n: number) => string): (n: number) => Promise<string | null> {
  return async (n) => {
    for await (const r of store.log({ gt: logKey(n - 1) })) {
      const url = (r as { url?: unknown }).url;
      return typeof url === 'string' ? url : null;
    }
    return null;
  };
}
