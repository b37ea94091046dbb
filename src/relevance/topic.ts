/**
 * Topic loading (topic.json) and the topic model: the topic's term vector
 * and the page-relevance judge every strategy shares, so an output record's
 * `relevance` means the same thing whatever the strategy.
 *
 * topic.json: `{ "name": string, "terms": [string, ...], "threshold"?: number,
 * "version"?: 1 }`. `threshold` is in [0, 1], default 0.2; a `version` other
 * than 1 is refused. Unknown keys are ignored (later strategies may read
 * their own).
 */
import { TopicError } from '../errors.ts';
import { formatBytes, readCapped } from '../util/read-capped.ts';
import type { BlockType, PageLink, ParsedPage, Topic } from '../types.ts';
import { getSegmenter, knownSegmenters, type Segmenter } from './text/segmenter.ts';
import { isAscii, tokenize, tokenizeInto } from './text/tokenize.ts';
import { blockWords, contextOfNeighbours, linkIndex, linkWords, SHARED_BLOCKS, type LinkWords, type SharedBlock } from './text/page-words.ts';
import { DocFreq, norm, sublinear, TermCounts, termFreq, tfidf, type SparseVector } from './text/vector.ts';
import { isStopword } from './text/stopwords.ts';

/** The only `version` a topic file may declare (the key is optional). */
export const TOPIC_VERSION = 1;

/** Threshold used when topic.json gives none. */
export const DEFAULT_THRESHOLD = 0.2;

/**
 * Validates a parsed topic.json value. `source` names the file in messages.
 * Throws TopicError (FC_BAD_TOPIC) naming the first problem found.
 */
export function parseTopic(json: unknown, source: string): Topic {
  const bad = (what: string): never => {
    throw new TopicError(`${source}: ${what}`);
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    bad(`expected a JSON object {"name", "terms", "threshold"?}, got ${describe(json)}`);
  }
  const o = json as Record<string, unknown>;
  if (o.version !== undefined && o.version !== TOPIC_VERSION) {
    bad(`unsupported topic version ${describe(o.version)} (this focuscrawl reads version ${TOPIC_VERSION}, or a file without "version")`);
  }
  if (typeof o.name !== 'string' || o.name.trim() === '') bad(`"name" must be a non-empty string, got ${describe(o.name)}`);
  if (!Array.isArray(o.terms) || o.terms.length === 0) bad(`"terms" must be a non-empty array of strings, got ${describe(o.terms)}`);
  const terms = (o.terms as unknown[]).map((t, i) => {
    if (typeof t !== 'string' || t.trim() === '') bad(`"terms"[${i}] must be a non-empty string, got ${describe(t)}`);
    return (t as string).trim();
  });
  let threshold = DEFAULT_THRESHOLD;
  if (o.threshold !== undefined) {
    if (typeof o.threshold !== 'number' || !Number.isFinite(o.threshold) || o.threshold < 0 || o.threshold > 1) {
      bad(`"threshold" must be a number between 0 and 1, got ${describe(o.threshold)}`);
    }
    threshold = o.threshold as number;
  }
  const topic: Topic = { name: (o.name as string).trim(), terms, threshold };
  if (o.params !== undefined) topic.params = parseParams(o.params, bad);
  return topic;
}

/** `"params": {"A": 0.5, "density": "kernel"}`: strategy parameters, numbers or strings. */
function parseParams(v: unknown, bad: (what: string) => never): Record<string, number | string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(`"params" must be an object, got ${describe(v)}`);
  const out: Record<string, number | string> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (!(typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))) bad(`"params"."${k}" must be a number or a string, got ${describe(x)}`);
    out[k] = x as number | string;
  }
  return out;
}

/** Largest topic file read (bytes); a larger one is refused unread (FC_BAD_TOPIC). */
export const MAX_TOPIC_BYTES = 16 * 1024 * 1024;

/**
 * Reads and validates a topic file. Throws TopicError (FC_BAD_TOPIC), naming
 * the file, if it is unreadable, larger than MAX_TOPIC_BYTES, empty, not
 * JSON, malformed (parseTopic), or if no term leaves an indexable word.
 */
export async function loadTopic(path: string): Promise<Topic> {
  let bytes: Buffer | null;
  try {
    bytes = await readCapped(path, MAX_TOPIC_BYTES);
  } catch (err) {
    throw new TopicError(`cannot read topic file ${path}: ${(err as Error).message}`, { cause: err });
  }
  if (bytes === null) {
    throw new TopicError(`${path}: too large: more than ${formatBytes(MAX_TOPIC_BYTES)}, the cap on topic files`);
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new TopicError(`${path}: empty file, expected a JSON topic {"name", "terms", "threshold"?}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TopicError(`${path}: invalid JSON${jsonErrorPlace(text, err)}: ${(err as Error).message}`, { cause: err });
  }
  const topic = parseTopic(json, path);
  // the check TopicModel makes, here too so that the message names the file
  if (!topic.terms.some((t) => tokenize(t).length > 0)) {
    throw new TopicError(`${path}: "terms" contain no indexable words (only stop words, punctuation or single letters)`);
  }
  return topic;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? 'an empty array' : 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** " at line L column C" from a JSON.parse error that reports a character position; "" if it reports none. */
function jsonErrorPlace(text: string, err: unknown): string {
  const m = /position (\d+)/.exec((err as Error)?.message ?? '');
  if (!m) return '';
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return ` at line ${line} column ${column}`;
}

// ---- the relevance judge ---------------------------------------------------

/**
 * Weight of each block type when a page's terms are counted: a term in the
 * title counts 3 times as much as in body text, and so on. Text the page
 * shares with every other page of its site (navigation) counts least.
 */
const SHARED: ReadonlySet<string> = new Set(SHARED_BLOCKS);

export const BLOCK_WEIGHTS: Readonly<Record<BlockType, number>> = {
  title: 3,
  heading: 2,
  content: 1,
  anchor: 0.5,
  other: 0.5,
  navigation: 0.25,
};

/**
 * How many of a text's strongest terms stand for it when it is compared with
 * the topic (see TopicModel.similarity). With 50, one unrepeated mention of
 * a topic term in a page of 50 or more terms scores at most 1/sqrt(51) ~
 * 0.14, while a page whose strongest terms include the topic terms keeps a
 * high score however long it is.
 */
export const PROFILE_TERMS = 50;

/**
 * A page's block-weighted term counts (pageTermFreq) computed elsewhere (a
 * parse worker, src/parse/worker.ts), as parallel arrays in the order of
 * the map, with the name of the segmenter they were split with. Set on the
 * ParsedPage under PAGE_TERM_FREQ (a symbol: never cloned, never in a
 * record); TopicModel.pageTermFreq takes it instead of splitting the page
 * again when its own segmenter is the one named.
 */
export interface PageTermCounts {
  segmenter: string;
  terms: string[];
  counts: Float64Array;
}

export const PAGE_TERM_FREQ: unique symbol = Symbol('focuscrawl.pageTermFreq');

/**
 * Block-weighted term counts of a page (BLOCK_WEIGHTS; title = blocks.title,
 * or page.title when that block is empty): what the judge compares with the
 * topic. Depends on the page and the segmenter only.
 */
export function pageTermFreq(page: ParsedPage, segmenter: Segmenter | undefined): SparseVector {
  const counter = sharedCounts;
  countPageTerms(page, segmenter, counter);
  const tf: SparseVector = new Map();
  for (let i = 0; i < counter.size; i++) tf.set(counter.terms[i]!, counter.counts[i]!);
  return tf;
}

/** pageTermFreq's counter (reset by each countPageTerms) */
const sharedCounts = new TermCounts();

/** The per-block weight pairs of BLOCK_WEIGHTS, made once. */
const WEIGHTED_BLOCKS = Object.entries(BLOCK_WEIGHTS) as [BlockType, number][];

/** pageTermFreq's counts into `counter` (reset first), in the order the Map would hold them. */
function countPageTerms(page: ParsedPage, segmenter: Segmenter | undefined, counter: TermCounts): void {
  counter.reset();
  let links: LinkWords | undefined;
  for (const [type, weight] of WEIGHTED_BLOCKS) {
    const text = type === 'title' ? page.blocks.title || page.title : page.blocks[type];
    if (!text) continue;
    let tokens: readonly string[];
    if (text === page.blocks[type] && SHARED.has(type)) {
      // the blocks the near-duplicate check splits too: one split per page
      // (src/relevance/text/page-words.ts); stop words dropped here
      tokens = blockWords(page, type as SharedBlock, segmenter);
      for (let i = 0; i < tokens.length; i++) if (!isStopword(tokens[i]!)) counter.add(tokens[i]!, weight);
      continue;
    }
    if (type === 'anchor' && page.links.length > 0 && (links ??= linkWords(page, segmenter)).anchorBlockIsJoin) {
      // the anchors' tokens in turn: split once per page, the link scorer
      // and the near-duplicate check read them too
      tokens = links.keys;
    } else {
      tokens = tokenize(text, { segmenter });
    }
    for (let i = 0; i < tokens.length; i++) counter.add(tokens[i]!, weight);
  }
}

/** pageTermFreq as PageTermCounts (parallel arrays: cheap to send between threads). */
export function pageTermCounts(page: ParsedPage, segmenterName: string): PageTermCounts {
  const tf = pageTermFreq(page, getSegmenter(segmenterName));
  const terms = [...tf.keys()];
  const counts = new Float64Array(terms.length);
  let i = 0;
  for (const n of tf.values()) counts[i++] = n;
  return { segmenter: segmenterName, terms, counts };
}

/** The name under which getSegmenter gives `segmenter` (undefined: the default), or null (a caller's own). */
function segmenterName(segmenter: Segmenter | undefined): string | null {
  if (segmenter === undefined) return 'node-rs';
  return knownSegmenters().includes(segmenter.name) && getSegmenter(segmenter.name) === segmenter ? segmenter.name : null;
}

export interface TopicModelOptions {
  /** Han segmenter for topic terms and texts (default: the tokenizer's default) */
  segmenter?: Segmenter;
  /** shared document frequencies (default: a new table of 200k terms) */
  docFreq?: DocFreq;
}

/**
 * A topic's terms plus the IDF table learnt from the crawl; judges pages.
 * (Stateful: the IDF table grows with every judged page.)
 *
 * Similarity of a text to the topic: a TF-IDF cosine (Liu & Li 2017 eq. 3, docs/algorithms.md#topic-similarity) in
 * the classic SMART "lnc.ltc" form (Salton & Buckley; Manning et al., IR
 * book §6.4.3): the text side is sublinear tf (1 + ln tf) without IDF, the
 * topic side is sublinear tf x IDF (IDF from the pages judged so far), both
 * cosine-normalised. Two corrections make the scale usable for a short
 * list of terms, neither tuned to a data set:
 *
 * - The topic is a list of alternatives (synonyms, translations, related
 *   terms), not a profile a page must match in full: a term is *present* in
 *   a text when all its tokens are (a multi-word term is a bag of words, so
 *   "neural network" is not present in a page that only says "network"),
 *   and the topic vector is built from the present terms only. A Chinese
 *   page is not penalised for lacking the English terms of the same topic.
 * - Length: the text vector is cut to its PROFILE_TERMS strongest terms
 *   (ties: the term met first, i.e. title, then headings, then body) plus
 *   the tokens of the present topic terms. The plain cosine of a long page
 *   with a few topic terms shrinks with page length; after the cut the
 *   measure asks "are the topic terms among what this text is mostly
 *   about?". A text shorter than the profile (anchor, link context,
 *   headline) gets the plain cosine.
 *
 * So: no topic term present -> 0; one incidental mention in a long page ->
 * about 0.1 (weight 1 against fifty terms of weight 1..3); topic terms among
 * a page's strongest terms -> 0.3 and up; one topic word in an 8-word
 * headline -> ~0.35; always in [0, 1].
 */
export class TopicModel {
  readonly topic: Topic;
  readonly docFreq: DocFreq;
  /** the distinct tokens of each topic term (terms that leave no token are dropped) */
  readonly termTokens: readonly (readonly string[])[];
  /** every token of every topic term */
  readonly #topicTokens: ReadonlySet<string>;
  /** finds any ASCII topic token in ASCII text, case-insensitively (null: no topic token is ASCII) */
  readonly #asciiTokens: RegExp | null;
  readonly #segmenter: Segmenter | undefined;
  /** the name of #segmenter for PageTermCounts (null: a caller's own, never matched) */
  readonly #segmenterName: string | null;

  /** Throws TopicError (FC_BAD_TOPIC) when no topic term leaves an indexable token (e.g. only stop words). */
  constructor(topic: Topic, opts: TopicModelOptions = {}) {
    this.topic = topic;
    this.#segmenter = opts.segmenter;
    this.#segmenterName = segmenterName(opts.segmenter);
    this.docFreq = opts.docFreq ?? new DocFreq();
    this.termTokens = topic.terms.map((term) => [...new Set(this.tokens(term))]).filter((t) => t.length > 0);
    if (this.termTokens.length === 0) {
      throw new TopicError(`topic "${topic.name}": its terms contain no indexable words (only stop words, punctuation or single letters)`);
    }
    this.#topicTokens = new Set(this.termTokens.flat());
    for (const t of this.#topicTokens) {
      this.#topicIndex.set(t, this.#topicIndex.size);
      this.#topicTokenList.push(t);
    }
    this.#termIds = this.termTokens.map((tokens) => tokens.map((t) => this.#topicIndex.get(t)!));
    this.#small.at = new Int32Array(this.#topicIndex.size).fill(-1);
    // tokens hold letters, digits, marks and inner apostrophes only; escaped
    // all the same, so a tokenizer change cannot make one a pattern
    const ascii = [...this.#topicTokens].filter(isAscii).map((t) => t.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'));
    this.#asciiTokens = ascii.length > 0 ? new RegExp(ascii.join('|'), 'i') : null;
  }

  /**
   * False only when `tokens(text)` certainly holds no topic token, found
   * without tokenizing: the tokens of ASCII text are substrings of its
   * lower-cased form, so a text in which no ASCII topic token occurs
   * (ignoring case) mentions none. Text with non-ASCII characters: true.
   */
  mayMention(text: string): boolean {
    if (!isAscii(text)) return true;
    return this.#asciiTokens !== null && this.#asciiTokens.test(text);
  }

  /** Whether any of `tokens` (the first `n`) is a token of a topic term (without one, `similarity` of them is 0). */
  mentionsTopic(tokens: readonly string[], n = tokens.length): boolean {
    for (let i = 0; i < n; i++) if (this.#topicTokens.has(tokens[i]!)) return true;
    return false;
  }

  /** Tokens of `text` with this model's segmenter and stop words. */
  tokens(text: string): string[] {
    return tokenize(text, { segmenter: this.#segmenter });
  }

  /**
   * Block-weighted term counts of a page (pageTermFreq with this model's
   * segmenter): the ones a parse worker computed (PAGE_TERM_FREQ) when it
   * used the same segmenter, else split here.
   */
  pageTermFreq(page: ParsedPage): SparseVector {
    const pre = (page as { [PAGE_TERM_FREQ]?: PageTermCounts })[PAGE_TERM_FREQ];
    if (pre !== undefined && pre.segmenter === this.#segmenterName) {
      const tf: SparseVector = new Map();
      for (let i = 0; i < pre.terms.length; i++) tf.set(pre.terms[i], pre.counts[i]);
      return tf;
    }
    return pageTermFreq(page, this.#segmenter);
  }

  /**
   * The relevance judge: counts the page in the IDF table, then returns the
   * similarity of its block-weighted terms to the topic, in [0, 1]. Call it
   * once per fetched page (each call counts a document).
   */
  judge(page: ParsedPage): number {
    // pageTermFreq, addDistinct and similarity of the counts, on arrays:
    // no Map per page (the same numbers, test/page-words.test.ts)
    const pre = (page as { [PAGE_TERM_FREQ]?: PageTermCounts })[PAGE_TERM_FREQ];
    if (pre !== undefined && pre.segmenter === this.#segmenterName) {
      this.docFreq.addDistinctTerms(pre.terms, pre.terms.length);
      return this.#similarityOfCounts(pre.terms, pre.counts, pre.terms.length);
    }
    const c = this.#pageCounts;
    countPageTerms(page, this.#segmenter, c);
    this.docFreq.addDistinctTerms(c.terms, c.size);
    return this.#similarityOfCounts(c.terms, c.counts, c.size, c);
  }

  /** judge's term counts of the current page */
  readonly #pageCounts = new TermCounts();

  /**
   * `similarity` of the term counts of a link's anchor tokens (weight 1)
   * plus its context tokens (weight `contextWeight`), to the last bit, for
   * the best-first family's every link. Short texts (at most
   * {@link SMALL_TEXT_TOKENS} tokens, nearly every link) are counted in
   * scratch arrays this model reuses, in the order the Maps of `termFreq`
   * and `similarity` would be iterated: no Map, entry or array is allocated
   * per link (the Maps were ~15% of the crawl's allocation). Longer ones
   * take `similarity` itself.
   */
  linkSimilarity(anchorTokens: readonly string[], contextTokens: readonly string[], contextWeight: number): number {
    return this.#linkSimilarity(anchorTokens, anchorTokens.length, contextTokens, contextTokens.length, contextWeight);
  }

  /**
   * Sim(anchor + ½ context) of one link from its texts: `tokens` of each,
   * then 0 unless one names a topic token, else `linkSimilarity`. The
   * tokens go to two arrays this model reuses (no array per text; the
   * link texts' token arrays were ~6% of a best-first crawl's allocation).
   */
  linkTextSimilarity(anchor: string, context: string, contextWeight: number): number {
    const s = this.#small;
    const na = tokenizeInto(anchor, s.anchorTokens, this.#segmenter);
    const nc = tokenizeInto(context, s.contextTokens, this.#segmenter);
    if (!this.mentionsTopic(s.anchorTokens, na) && !this.mentionsTopic(s.contextTokens, nc)) return 0;
    return this.#linkSimilarity(s.anchorTokens, na, s.contextTokens, nc, contextWeight);
  }

  /**
   * linkTextSimilarity(link.anchor, link.context, contextWeight) for a link
   * of `page`, from the page's anchors split once (page-words.ts
   * linkWords): a context made of the neighbouring links' anchors is not
   * split again, and a link whose texts name no topic token costs a few
   * set lookups. The same number to the last bit (test/page-words.test.ts).
   */
  linkSimilarityOnPage(page: ParsedPage, link: PageLink, contextWeight: number): number {
    const i = linkIndex(page, link);
    if (i < 0) return this.mayMention(link.anchor) || this.mayMention(link.context) ? this.linkTextSimilarity(link.anchor, link.context, contextWeight) : 0;
    const { keys, keyStarts } = linkWords(page, this.#segmenter);
    const s = this.#small;
    const anchorTokens = s.anchorTokens;
    const contextTokens = s.contextTokens;
    let na = 0;
    for (let j = keyStarts[i]!; j < keyStarts[i + 1]!; j++) anchorTokens[na++] = keys[j]!;
    const anchorNames = this.mentionsTopic(anchorTokens, na);
    let nc = 0;
    const from = contextOfNeighbours(page.links, i);
    if (from !== 0) {
      if (from !== 2) for (let j = keyStarts[i - 1]!; j < keyStarts[i]!; j++) contextTokens[nc++] = keys[j]!;
      if (from !== 1) for (let j = keyStarts[i + 1]!; j < keyStarts[i + 2]!; j++) contextTokens[nc++] = keys[j]!;
    } else {
      // the context is its own text: mayMention spares splitting most of them
      if (!anchorNames && !this.mayMention(link.context)) return 0;
      nc = tokenizeInto(link.context, contextTokens, this.#segmenter);
    }
    if (!anchorNames && !this.mentionsTopic(contextTokens, nc)) return 0;
    return this.#linkSimilarity(anchorTokens, na, contextTokens, nc, contextWeight);
  }

  /** linkSimilarity of `anchorTokens[0..na)` and `contextTokens[0..nc)`. */
  #linkSimilarity(anchorTokens: readonly string[], anchorCount: number, contextTokens: readonly string[], contextCount: number, contextWeight: number): number {
    if (anchorCount + contextCount > SMALL_TEXT_TOKENS) {
      return this.similarity(termFreq(contextTokens.slice(0, contextCount), contextWeight, termFreq(anchorTokens.slice(0, anchorCount))));
    }
    const s = this.#small;
    const { terms, counts } = s;
    // tf = termFreq(anchor) then termFreq(context, contextWeight, tf): terms in order of first occurrence
    let n = countInto(terms, counts, 0, anchorTokens, anchorCount, 1);
    n = countInto(terms, counts, n, contextTokens, contextCount, contextWeight);
    return this.#similarityOfCounts(terms, counts, n);
  }

  /**
   * similarity() of the counts `counts[0..n)` of the distinct `terms[0..n)`
   * (in the order a Map of them would be iterated), to the last bit,
   * without a Map.
   */
  #similarityOfCounts(terms: readonly string[], counts: ArrayLike<number>, n: number, table?: TermCounts): number {
    const s = this.#small;
    const { topicAt, topicCounts } = s;
    // where each topic token is among the terms (one lookup per term, not a
    // scan of the terms per topic token)
    const { at: where, touched } = s;
    let marked = 0;
    if (table !== undefined) {
      // a page: its counts' own table answers for each topic token (a
      // topic has far fewer tokens than a page has terms)
      const tokens = this.#topicTokenList;
      for (let ti = 0; ti < tokens.length; ti++) {
        const q = table.indexOf(tokens[ti]!);
        if (q >= 0) {
          where[ti] = q;
          touched[marked++] = ti;
        }
      }
    } else {
      for (let q = 0; q < n; q++) {
        const ti = this.#topicIndex.get(terms[q]!);
        if (ti !== undefined) {
          where[ti] = q;
          touched[marked++] = ti;
        }
      }
    }
    // topicTf: the tokens of every present topic term, counted per term
    let m = 0;
    for (const ids of this.#termIds) {
      let present = true;
      for (const ti of ids) {
        if (where[ti]! < 0) {
          present = false;
          break;
        }
      }
      if (!present) continue;
      for (const ti of ids) {
        const at = where[ti]!;
        let j = 0;
        while (j < m && topicAt[j] !== at) j++;
        if (j === m) {
          topicAt[m] = at;
          topicCounts[m] = 0 + 1;
          m++;
        } else {
          topicCounts[j] = topicCounts[j]! + 1;
        }
      }
    }
    for (let i = 0; i < marked; i++) where[touched[i]!] = -1;
    if (m === 0) return 0;
    // the same sums as similarity(), in the same order
    let profileSq = 0;
    for (let j = 0; j < m; j++) {
      const x = sublinear(counts[topicAt[j]!]!);
      profileSq += x * x;
    }
    const strong = strongestInto(counts, n, PROFILE_TERMS, s.strong, s.strongCounts);
    for (let i = 0; i < strong; i++) {
      const at = s.strong[i]!;
      let j = 0;
      while (j < m && topicAt[j] !== at) j++;
      if (j < m) continue;
      const x = sublinear(counts[at]!);
      profileSq += x * x;
    }
    const na = Math.sqrt(profileSq);
    let weightSq = 0;
    let d = 0;
    for (let j = 0; j < m; j++) {
      const at = topicAt[j]!;
      const w = sublinear(topicCounts[j]!) * this.docFreq.idf(terms[at]!);
      if (!(w > 0)) continue;
      weightSq += w * w;
      d += w * sublinear(counts[at]!);
    }
    const nb = Math.sqrt(weightSq);
    if (na === 0 || nb === 0) return 0;
    return Math.min(1, Math.max(-1, d / (na * nb)));
  }

  /** linkSimilarity's scratch (strings of the last link stay referenced until overwritten) */
  readonly #small = {
    /** linkTextSimilarity's tokens of the anchor and of the context */
    anchorTokens: [] as string[],
    contextTokens: [] as string[],
    terms: [] as string[],
    counts: [] as number[],
    topicAt: [] as number[],
    topicCounts: [] as number[],
    strong: [] as number[],
    strongCounts: [] as number[],
    /** topic token id -> its position among the terms, -1 when absent (reset after each use) */
    at: new Int32Array(0),
    /** ids set in `at` */
    touched: [] as number[],
  };
  /** topic tokens by id */
  readonly #topicTokenList: string[] = [];
  /** topic token -> id (its place in #topicTokens) */
  readonly #topicIndex = new Map<string, number>();
  /** termTokens as topic token ids */
  readonly #termIds: readonly (readonly number[])[];

  /** Similarity in [0, 1] of raw (possibly weighted) term counts to the topic; see the class doc. Does not touch the IDF table. */
  similarity(tf: SparseVector): number {
    // Called for every link of every page: nothing is allocated for text
    // without a topic term (most links).
    let topicTf: SparseVector | undefined;
    for (const tokens of this.termTokens) {
      if (hasAll(tf, tokens)) termFreq(tokens, 1, (topicTf ??= new Map()));
    }
    if (topicTf === undefined) return 0;
    // cosine(profile, topic weights), the text's profile being the present
    // topic tokens then its strongest terms, each weighted sublinear(tf);
    // summed without building the profile, in the order a Map of it would
    // be iterated (so the result is the same to the last bit)
    const weights = tfidf(topicTf, this.docFreq);
    let profileSq = 0;
    for (const t of topicTf.keys()) {
      const x = sublinear(tf.get(t)!);
      profileSq += x * x;
    }
    const strong = strongest(tf, PROFILE_TERMS);
    for (let i = 0; i < strong; i++) {
      const t = strongTerms[i]!;
      if (topicTf.has(t)) continue;
      const x = sublinear(tf.get(t)!);
      profileSq += x * x;
    }
    const na = Math.sqrt(profileSq);
    const nb = norm(weights);
    if (na === 0 || nb === 0) return 0;
    let d = 0; // every weighted term is in the profile
    for (const [t, w] of weights) d += w * sublinear(tf.get(t)!);
    return Math.min(1, Math.max(-1, d / (na * nb)));
  }
}

/**
 * Texts of at most this many tokens take linkSimilarity's arrays: its
 * lookups are linear scans, cheaper than a Map's for a few dozen terms.
 */
export const SMALL_TEXT_TOKENS = 48;

/** Position of `t` among the first `n` of `terms`, or -1. */
function indexIn(terms: readonly string[], n: number, t: string): number {
  for (let i = 0; i < n; i++) if (terms[i] === t) return i;
  return -1;
}

/** termFreq(tokens[0..count), weight) into the parallel arrays' first `n` terms; returns the new term count. */
function countInto(terms: string[], counts: number[], n: number, tokens: readonly string[], count: number, weight: number): number {
  for (let i = 0; i < count; i++) {
    const t = tokens[i]!;
    const at = indexIn(terms, n, t);
    if (at < 0) {
      terms[n] = t;
      counts[n] = 0 + weight;
      n++;
    } else {
      counts[at] = counts[at]! + weight;
    }
  }
  return n;
}

/**
 * strongestTerms over the first `n` of `counts` (in arrival order), as
 * positions: writes them to `out` (with their counts to `outCounts`) and
 * returns how many.
 */
function strongestInto(counts: ArrayLike<number>, n: number, k: number, out: number[], outCounts: number[]): number {
  let len = 0;
  for (let q = 0; q < n; q++) {
    const c = counts[q]!;
    let i = len;
    if (i === k) {
      if (!(c > outCounts[k - 1]!)) continue;
      i = k - 1;
    } else {
      len++;
    }
    while (i > 0 && outCounts[i - 1]! < c) {
      out[i] = out[i - 1]!;
      outCounts[i] = outCounts[i - 1]!;
      i--;
    }
    out[i] = q;
    outCounts[i] = c;
  }
  return len;
}

function hasAll(tf: SparseVector, tokens: readonly string[]): boolean {
  for (const t of tokens) if (!tf.has(t)) return false;
  return true;
}

/**
 * The `k` terms of `tf` with the highest counts, highest first; among equal
 * counts the term met first (what a stable sort of all entries by count,
 * cut to k, gives) without sorting or copying the whole vector.
 */
export function strongestTerms(tf: SparseVector, k: number): string[] {
  return strongTerms.slice(0, strongest(tf, k));
}

/**
 * The strongest terms of the last `strongest` call and their counts, in
 * arrays reused from call to call (arrays grown per page and a closure per
 * call were ~2.5 KB of garbage a page).
 */
const strongTerms: string[] = [];
const strongCounts: number[] = [];
let strongLen = 0;
let strongK = 0;

/** strongestTerms(tf, k) written to strongTerms[0..) (counts to strongCounts); returns how many. */
function strongest(tf: SparseVector, k: number): number {
  strongLen = 0;
  if (k <= 0) return 0;
  strongK = k;
  tf.forEach(visitStrong);
  return strongLen;
}

function visitStrong(n: number, t: string): void {
  const k = strongK;
  const terms = strongTerms;
  const counts = strongCounts;
  let i = strongLen;
  if (i === k) {
    if (!(n > counts[k - 1]!)) return;
    i = k - 1; // the weakest held term drops out
  } else {
    strongLen++;
  }
  // shift weaker terms down; equal counts keep their order of arrival
  while (i > 0 && counts[i - 1]! < n) {
    terms[i] = terms[i - 1]!;
    counts[i] = counts[i - 1]!;
    i--;
  }
  terms[i] = t;
  counts[i] = n;
}
