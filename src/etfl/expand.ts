/**
 * Mining candidate terms for the topic feature library (seed 002): for each
 * static term s, the top-L pages about s; from them every term e gets
 *
 *     W(e) = (f(e) / f_max) · ln(N / n_e)
 *
 * f(e) = frequency of e in s's top-L pages (block-weighted counts, src/topic.ts
 * BLOCK_WEIGHTS, after concept substitution), f_max = the largest f in those
 * pages, N = pages in the collection, n_e = pages of the collection holding e.
 * A term's W is its best over the static terms (`from` names that term); the
 * n terms of highest W are the candidates. Not candidates: tokens of the
 * library (static terms, concepts, synonyms, mined terms), one-character
 * tokens, numbers, and terms in every page (W ≤ 0).
 *
 * "Pages about s" = pages about the topic (labelled with the target label,
 * or with R(p) ≥ η) that contain every token of s, ranked by how much of the
 * page s is: min over s's tokens of f(token) / Σ f (ties: first seen).
 *
 * Used offline by `focuscrawl expand-topic` (src/etfl/command.ts: the user
 * reviews the candidates) and online by the etfl scorer (no review).
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { CapExceededError, UsageError } from '../errors.ts';
import { buildIndex, readResponse } from '../replay/warc-index.ts';
import { parseBody } from '../stages/parse.ts';
import { canonicalize } from '../url.ts';
import type { SparseVector } from '../text/vector.ts';
import type { BlockType, ParsedPage } from '../types.ts';
import { DEFAULT_LAMBDA, scoreBlocks } from './blocks.ts';
import type { FeatureLibrary } from './library.ts';

/** A candidate term and its W. */
export interface MinedTerm {
  term: string;
  w: number;
  /** the static term whose pages gave the best W */
  from: string;
}

/** Document frequencies as the miner needs them (DocFreq fits). */
export interface DocCounts {
  readonly documents: number;
  df(term: string): number;
}

/** Options of TermMiner. */
export interface TermMinerOptions {
  /** pages kept per static term (L, default 50) */
  topL?: number;
  /** strongest terms kept of each page (default 300): bounds memory */
  maxPageTerms?: number;
}

interface Held {
  about: number;
  tf: SparseVector;
}

const DIGITS = /^[\p{Nd}.,]+$/u;

/** True when `token` may become a mined term (two characters or more, not a number). */
export function isCandidateToken(token: string): boolean {
  return [...token].length >= 2 && !DIGITS.test(token);
}

/**
 * Keeps, for each static term, the top-L pages about it and mines W
 * candidates from them. Memory: at most L pages per static term, each cut
 * to its `maxPageTerms` strongest terms (a page held for several static
 * terms is stored once).
 */
export class TermMiner {
  readonly topL: number;
  readonly maxPageTerms: number;
  readonly #terms: readonly { term: string; tokens: readonly string[] }[];
  readonly #held: Held[][];

  constructor(staticTerms: readonly { term: string; tokens: readonly string[] }[], opts: TermMinerOptions = {}) {
    this.topL = opts.topL ?? 50;
    this.maxPageTerms = opts.maxPageTerms ?? 300;
    if (!Number.isInteger(this.topL) || this.topL < 1) throw new TypeError(`topL must be a positive integer, got ${this.topL}`);
    if (!Number.isInteger(this.maxPageTerms) || this.maxPageTerms < 1) throw new TypeError(`maxPageTerms must be a positive integer, got ${this.maxPageTerms}`);
    this.#terms = staticTerms.filter((s) => s.tokens.length > 0);
    this.#held = this.#terms.map(() => []);
  }

  /** Distinct pages held (at most L × static terms). */
  get pages(): number {
    const set = new Set<SparseVector>();
    for (const list of this.#held) for (const h of list) set.add(h.tf);
    return set.size;
  }

  /** Offers the (substituted, weighted) term counts of a page about the topic. */
  offer(tf: SparseVector): void {
    let total = 0;
    for (const n of tf.values()) total += n;
    if (total <= 0) return;
    let kept: SparseVector | null = null;
    this.#terms.forEach((s, i) => {
      let min = Infinity;
      for (const t of s.tokens) min = Math.min(min, tf.get(t) ?? 0);
      if (min <= 0) return;
      const about = min / total;
      const list = this.#held[i];
      if (list.length >= this.topL && about <= list[list.length - 1].about) return;
      kept ??= trim(tf, this.maxPageTerms);
      let at = list.length;
      while (at > 0 && list[at - 1].about < about) at--;
      list.splice(at, 0, { about, tf: kept });
      if (list.length > this.topL) list.pop();
    });
  }

  /** The `topN` candidates of highest W (see the module comment), best first; ties by term. */
  mine(docs: DocCounts, exclude: ReadonlySet<string>, topN: number): MinedTerm[] {
    const best = new Map<string, MinedTerm>();
    const n = docs.documents;
    this.#terms.forEach((s, i) => {
      const f = new Map<string, number>();
      for (const h of this.#held[i]) for (const [t, c] of h.tf) f.set(t, (f.get(t) ?? 0) + c);
      let fmax = 0;
      for (const c of f.values()) fmax = Math.max(fmax, c);
      if (fmax <= 0) return;
      for (const [e, c] of f) {
        if (exclude.has(e) || !isCandidateToken(e)) continue;
        const ne = Math.max(1, docs.df(e));
        if (n <= ne) continue;
        const w = (c / fmax) * Math.log(n / ne);
        const prev = best.get(e);
        if (prev === undefined || w > prev.w) best.set(e, { term: e, w, from: s.term });
      }
    });
    return [...best.values()].sort((a, b) => b.w - a.w || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)).slice(0, Math.max(0, topN));
  }
}

/** The `max` strongest entries of `tf` (ties: first inserted), as a new map. */
function trim(tf: SparseVector, max: number): SparseVector {
  if (tf.size <= max) return new Map(tf);
  return new Map([...tf].sort((a, b) => b[1] - a[1]).slice(0, max));
}

// ---- offline: page collections ---------------------------------------------

/** A page of a collection: its parsed form and its labels (empty when unlabelled). */
export interface PageDoc {
  url: string;
  page: ParsedPage;
  labels: readonly string[];
}

/** A page collection. */
export type PageSource = AsyncIterable<PageDoc>;

/** Longest NDJSON line accepted (characters). */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;
/** Largest labels file read (bytes). */
export const MAX_LABELS_BYTES = 256 * 1024 * 1024;

/**
 * Labels TSV (`url<TAB>label[<TAB>...]`, an optional header line starting
 * with `url<TAB>`): canonical URL -> label. Throws UsageError (FC_USAGE)
 * when unreadable or too big, naming the first malformed line.
 */
export async function loadLabels(file: string): Promise<Map<string, string>> {
  let text: string;
  try {
    const size = (await stat(file)).size;
    if (size > MAX_LABELS_BYTES) throw new UsageError(`${file}: ${size} bytes, more than ${MAX_LABELS_BYTES}`);
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read labels file ${file}: ${(err as Error).message}`, { cause: err });
  }
  const out = new Map<string, string>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || (i === 0 && /^url\t/i.test(line))) return;
    const [url, label] = line.split('\t');
    const canon = canonicalize(url?.trim() ?? '');
    if (canon === null || !label || label.trim() === '') throw new UsageError(`${file}:${i + 1}: expected "url<TAB>label"`);
    if (!out.has(canon)) out.set(canon, label.trim());
  });
  return out;
}

function decodeBody(body: Buffer, encoding: string): Buffer | null {
  const enc = encoding.trim().toLowerCase();
  try {
    if (enc === '' || enc === 'identity') return body;
    if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(body);
    if (enc === 'deflate') return inflateSync(body);
    if (enc === 'br') return brotliDecompressSync(body);
  } catch {
    return null;
  }
  return null;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * The HTML pages (2xx, text/html or xhtml, or no Content-Type and a body
 * starting with `<`) of WARC files, parsed with parseBody, in index order.
 * Records that cannot be read or decoded are skipped. Throws UsageError
 * (FC_USAGE) for an unreadable or malformed WARC file.
 */
export async function* warcPages(files: string[], labels: ReadonlyMap<string, string> | null): AsyncGenerator<PageDoc> {
  const index = await buildIndex(files);
  for (const url of index.entries.keys()) {
    let res;
    try {
      res = await readResponse(index, url);
    } catch {
      continue;
    }
    if (res === null || res.status < 200 || res.status > 299) continue;
    const header = (name: string): string => res.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? '';
    const ctype = header('content-type');
    const media = ctype.split(';')[0].trim().toLowerCase();
    const body = decodeBody(res.body, header('content-encoding'));
    if (body === null) continue;
    if (media === '' ? !/^\s*</.test(body.subarray(0, 512).toString('latin1')) : !HTML_TYPES.has(media)) continue;
    const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(ctype)?.[1]?.toLowerCase() ?? null;
    const page = parseBody(body, url, charset);
    const label = labels?.get(url);
    yield { url, page, labels: label === undefined ? [] : [label] };
  }
}

async function* lines(file: string): AsyncGenerator<string> {
  let buf = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    buf += chunk as string;
    let start = 0;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n', start)) {
      yield buf.slice(start, i);
      start = i + 1;
    }
    buf = buf.slice(start);
    if (buf.length > MAX_LINE_CHARS) throw new CapExceededError(`a line of ${file}`, MAX_LINE_CHARS);
  }
  if (buf !== '') yield buf;
}

const TEXT_BLOCKS: readonly BlockType[] = ['title', 'heading', 'content', 'navigation', 'anchor', 'other'];

/**
 * Pages of an NDJSON file, one JSON object a line: `url`?, `title`?,
 * `blocks`? ({title, heading, content, navigation, anchor, other}, strings),
 * else `text` as content, else `sentence` (+ `keywords`) as content (TNEWS
 * headlines). Labels: `label` and `label_desc` (string or number), and the
 * entry of `labels` for the URL. Blank lines are skipped. Throws UsageError
 * (FC_USAGE) naming the line of a malformed record and CapExceededError
 * (FC_CAP_EXCEEDED) for a line over MAX_LINE_CHARS.
 */
export async function* ndjsonPages(file: string, labels: ReadonlyMap<string, string> | null): AsyncGenerator<PageDoc> {
  let n = 0;
  for await (const line of lines(file)) {
    n++;
    if (line.trim() === '') continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch (err) {
      throw new UsageError(`${file}:${n}: invalid JSON: ${(err as Error).message}`, { cause: err });
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new UsageError(`${file}:${n}: expected a JSON object`);
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    const given = (typeof o.blocks === 'object' && o.blocks !== null ? o.blocks : {}) as Record<string, unknown>;
    const blocks = Object.fromEntries(TEXT_BLOCKS.map((b) => [b, str(given[b])])) as Record<BlockType, string>;
    const title = str(o.title) || blocks.title;
    blocks.title = title;
    if (blocks.content === '') blocks.content = str(o.text) || [str(o.sentence), str(o.keywords).replace(/,/g, ' ')].join(' ').trim();
    const url = str(o.url);
    const canon = url === '' ? null : canonicalize(url);
    const found = [o.label, o.label_desc].filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
    const fromFile = canon === null ? undefined : labels?.get(canon);
    if (fromFile !== undefined) found.push(fromFile);
    const page: ParsedPage = { title, charset: 'utf-8', blocks, links: [], base: url, noindex: false, nofollow: false, lang: null };
    yield { url: canon ?? url, page, labels: found };
  }
}

// ---- offline: the expansion ------------------------------------------------

/** Options of expandTopic. */
export interface ExpandOptions {
  /** pages of this label are "about the topic"; null: pages with R(p) ≥ eta */
  target: string | null;
  /** n: candidates returned (default 20) */
  topN?: number;
  /** L: pages per static term (default 50) */
  topL?: number;
  /** page threshold η when there is no target (default: the library's threshold) */
  eta?: number;
  /** λ of the block weights (default 0.5) */
  lambda?: number;
}

/** What expandTopic found. */
export interface ExpandResult {
  candidates: MinedTerm[];
  /** pages read */
  pages: number;
  /** pages about the topic */
  topicPages: number;
}

/**
 * Mines candidate terms for `lib` from `source`, in one pass: each page is
 * counted into `lib`'s DocFreq (N and n_e), and a page about the topic is
 * offered to a TermMiner. Without a target, R(p) uses the IDF of the pages
 * read before it, as the online scorer does.
 */
export async function expandTopic(lib: FeatureLibrary, source: PageSource, opts: ExpandOptions): Promise<ExpandResult> {
  const lambda = opts.lambda ?? DEFAULT_LAMBDA;
  const eta = opts.eta ?? lib.library.threshold;
  const miner = new TermMiner(lib.staticTokens(), { topL: opts.topL });
  let pages = 0;
  let topicPages = 0;
  for await (const doc of source) {
    pages++;
    const scored = scoreBlocks(doc.page, lib, lambda);
    lib.docFreq.addDocument(scored.tf.keys());
    const about = opts.target !== null ? doc.labels.includes(opts.target) : scored.relevance >= eta;
    if (!about) continue;
    topicPages++;
    miner.offer(scored.tf);
  }
  return { candidates: miner.mine(lib.docFreq, lib.libraryTokens, opts.topN ?? 20), pages, topicPages };
}
