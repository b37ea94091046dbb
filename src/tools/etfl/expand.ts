/**
 * `focuscrawl expand-topic`'s mining over page collections (WARC or NDJSON,
 * labelled or judged by R(p) ≥ η): feeds the pages about the topic to the
 * TermMiner (src/relevance/etfl/miner.ts, where the W formula of docs/algorithms.md#term-miner is
 * described) and returns the candidates for the user to review.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { CapExceededError, UsageError } from '../../errors.ts';
import { buildIndex, readResponse } from '../../replay/warc-index.ts';
import { parseBody } from '../../parse/body.ts';
import { canonicalize } from '../../urls/canonical.ts';
import type { BlockType, ParsedPage } from '../../types.ts';
import { DEFAULT_LAMBDA, scoreBlocks } from '../../relevance/etfl/blocks.ts';
import type { FeatureLibrary } from '../../relevance/etfl/library.ts';
import { TermMiner, type MinedTerm } from '../../relevance/etfl/miner.ts';

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
    lib.docFreq.addDistinct(scored.tf.keys());
    const about = opts.target !== null ? doc.labels.includes(opts.target) : scored.relevance >= eta;
    if (!about) continue;
    topicPages++;
    miner.offer(scored.tf);
  }
  return { candidates: miner.mine(lib.docFreq, lib.libraryTokens, opts.topN ?? 20), pages, topicPages };
}
