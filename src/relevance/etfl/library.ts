/**
 * Wu & Li's topic feature library (docs/algorithms.md#feature-library): the user's static terms plus dynamic
 * terms (synonyms / related terms from a thesaurus, and mined terms), and
 * concept substitution.
 *
 * The topic file is topic.json extended compatibly (src/relevance/topic.ts ignores the
 * extra keys, so the same file also drives the shared judge):
 *
 *     { "name": "solar", "terms": ["solar", ...], "threshold": 0.2,
 *       "kinds": { "actors": [...], "domain": [...], "cues": [...] },
 *       "synonyms": "synonyms.txt"  |  { "太阳能": ["光伏", ...] },
 *       "mined": ["rooftop", ...] }
 *
 * `terms` is required unless `kinds` gives at least one term (typed terms
 * are static terms too). `synonyms` is a path relative to the topic file, or
 * an inline object; the file has one concept a line, `concept<TAB>syn1,syn2`
 * (`,` `，` `、` separate synonyms; blank lines and lines starting with `#`
 * are skipped). `mined` lists terms confirmed by the user after
 * `focuscrawl expand-topic` (strings, or `{"term": ...}` objects as that
 * command's NDJSON prints them). See docs/topic-format.md.
 *
 * Concept substitution: before a text is tokenised, every occurrence of a
 * synonym is replaced by its concept, so a page saying the same thing in
 * other words has the same tokens as one using the concept. Matching is on
 * NFKC + lower-cased text, longest synonym first, left to right, one pass
 * (a concept is never substituted again). A synonym edge that is a Latin
 * letter or digit must sit on a word boundary ("pv" does not match inside
 * "pvc"); Han edges need none (Chinese has no spaces). The topic's own
 * terms go through the same substitution, so a static term that is also
 * someone's synonym still matches.
 */
import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { TopicError } from '../../errors.ts';
import type { Segmenter } from '../text/segmenter.ts';
import { tokenize } from '../text/tokenize.ts';
import type { DocFreq, SparseVector } from '../text/vector.ts';
import { TopicModel, parseTopic } from '../topic.ts';
import type { Topic } from '../../types.ts';

/** The three kinds of static terms (docs/algorithms.md#feature-library). */
export const TERM_KINDS = ['actors', 'domain', 'cues'] as const;
export type TermKind = (typeof TERM_KINDS)[number];

/** A static term: given by the user, in `terms` (kind null) or under `kinds`. */
export interface StaticTerm {
  term: string;
  kind: TermKind | null;
}

/** A loaded topic feature library (plain data; see FeatureLibrary for the runtime side). */
export interface EtflLibrary {
  name: string;
  /** page threshold of the topic file (default 0.2) */
  threshold: number;
  /** static terms, `terms` first, then each kind; duplicates removed */
  staticTerms: readonly StaticTerm[];
  /** concept -> its synonyms / related terms (trimmed, non-empty, without the concept itself) */
  synonyms: ReadonlyMap<string, readonly string[]>;
  /** mined terms the user kept (the `mined` key) */
  mined: readonly string[];
}

/** Largest synonyms file read (bytes). */
export const MAX_SYNONYMS_BYTES = 16 * 1024 * 1024;

/** The library of a plain topic: its terms, no synonyms, nothing mined. */
export function libraryFromTopic(topic: Topic): EtflLibrary {
  return {
    name: topic.name,
    threshold: topic.threshold,
    staticTerms: topic.terms.map((term) => ({ term, kind: null })),
    synonyms: new Map(),
    mined: [],
  };
}

/** `a` with the static terms, synonyms and mined terms of `b` added (name and threshold of `a`). */
export function mergeLibraries(a: EtflLibrary, b: EtflLibrary): EtflLibrary {
  const staticTerms = [...a.staticTerms];
  const seen = new Set(staticTerms.map((s) => s.term));
  for (const s of b.staticTerms) {
    if (!seen.has(s.term)) staticTerms.push(s);
    seen.add(s.term);
  }
  const synonyms = new Map(a.synonyms);
  for (const [concept, syns] of b.synonyms) synonyms.set(concept, [...new Set([...(synonyms.get(concept) ?? []), ...syns])]);
  return { name: a.name, threshold: a.threshold, staticTerms, synonyms, mined: [...new Set([...a.mined, ...b.mined])] };
}

/**
 * Parses synonyms-file text (`concept<TAB>syn1,syn2,...` a line). Throws
 * TopicError (FC_BAD_TOPIC) naming `source` and the line of the first
 * malformed entry.
 */
export function parseSynonyms(text: string, source: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const tab = raw.indexOf('\t');
    if (tab < 0) throw new TopicError(`${source}:${i + 1}: expected "concept<TAB>synonym,synonym,...", found no tab`);
    const concept = raw.slice(0, tab).trim();
    const syns = raw.slice(tab + 1).split(/[,，、]/).map((s) => s.trim()).filter((s) => s !== '');
    if (concept === '') throw new TopicError(`${source}:${i + 1}: empty concept before the tab`);
    if (syns.length === 0) throw new TopicError(`${source}:${i + 1}: concept "${concept}" has no synonyms`);
    addSynonyms(out, concept, syns);
  });
  return out;
}

function addSynonyms(into: Map<string, string[]>, concept: string, syns: readonly string[]): void {
  const list = into.get(concept) ?? [];
  for (const s of syns) if (s !== concept && !list.includes(s)) list.push(s);
  into.set(concept, list);
}

/** Reads the synonyms file named in a topic (relative path). Returns its text. */
type SynonymsReader = (file: string) => string;

/**
 * Validates a parsed extended topic.json (see the module comment). `source`
 * is the topic file's path (messages; base of a relative synonyms path);
 * `readSynonyms` returns the text of the synonyms file at an absolute or
 * source-relative path (resolved by this function). Throws TopicError
 * (FC_BAD_TOPIC) for the first problem found.
 */
export function parseTopicLibrary(json: unknown, source: string, readSynonyms: SynonymsReader): EtflLibrary {
  const bad = (what: string): never => {
    throw new TopicError(`${source}: ${what}`);
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) bad('expected a JSON object');
  const o = json as Record<string, unknown>;
  const staticTerms: StaticTerm[] = [];
  const seen = new Set<string>();
  const push = (term: string, kind: TermKind | null): void => {
    if (!seen.has(term)) staticTerms.push({ term, kind });
    seen.add(term);
  };
  const stringList = (v: unknown, where: string): string[] => {
    if (!Array.isArray(v)) bad(`${where} must be an array of strings`);
    return (v as unknown[]).map((t, i) => {
      if (typeof t !== 'string' || t.trim() === '') bad(`${where}[${i}] must be a non-empty string`);
      return (t as string).trim();
    });
  };
  if (o.kinds !== undefined) {
    if (typeof o.kinds !== 'object' || o.kinds === null || Array.isArray(o.kinds)) bad('"kinds" must be an object {"actors", "domain", "cues"}');
    for (const key of Object.keys(o.kinds as object)) {
      if (!(TERM_KINDS as readonly string[]).includes(key)) bad(`"kinds" has unknown kind "${key}" (known: ${TERM_KINDS.join(', ')})`);
    }
  }
  const kinds = (o.kinds ?? {}) as Record<string, unknown>;
  const typed = TERM_KINDS.flatMap((k) => (kinds[k] === undefined ? [] : stringList(kinds[k], `"kinds"."${k}"`).map((t) => [t, k] as const)));
  // the plain part goes through parseTopic so both readers agree on it
  const base = parseTopic({ ...o, terms: o.terms === undefined && typed.length > 0 ? typed.map(([t]) => t) : o.terms }, source);
  if (o.terms !== undefined) for (const t of base.terms) push(t, null);
  for (const [t, k] of typed) {
    const i = staticTerms.findIndex((s) => s.term === t);
    if (i >= 0 && staticTerms[i].kind === null) staticTerms[i] = { term: t, kind: k };
    else push(t, k);
  }

  const synonyms = new Map<string, string[]>();
  if (typeof o.synonyms === 'string') {
    if (o.synonyms.trim() === '') bad('"synonyms" must name a file or be an object');
    const file = path.resolve(path.dirname(source), o.synonyms);
    for (const [c, s] of parseSynonyms(readSynonyms(file), file)) addSynonyms(synonyms, c, s);
  } else if (o.synonyms !== undefined) {
    if (typeof o.synonyms !== 'object' || o.synonyms === null || Array.isArray(o.synonyms)) {
      bad('"synonyms" must be a file path or an object {"concept": ["synonym", ...]}');
    }
    for (const [concept, list] of Object.entries(o.synonyms as Record<string, unknown>)) {
      if (concept.trim() === '') bad('"synonyms" has an empty concept');
      addSynonyms(synonyms, concept.trim(), stringList(list, `"synonyms"."${concept}"`));
    }
  }

  const mined: string[] = [];
  if (o.mined !== undefined) {
    if (!Array.isArray(o.mined)) bad('"mined" must be an array');
    (o.mined as unknown[]).forEach((m, i) => {
      const term = typeof m === 'string' ? m : typeof m === 'object' && m !== null ? (m as { term?: unknown }).term : undefined;
      if (typeof term !== 'string' || term.trim() === '') bad(`"mined"[${i}] must be a non-empty string or {"term": string}`);
      if (!mined.includes((term as string).trim())) mined.push((term as string).trim());
    });
  }
  return { name: base.name, threshold: base.threshold, staticTerms, synonyms, mined };
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new TopicError(`${file}: invalid JSON: ${(err as Error).message}`, { cause: err });
  }
}

function unreadable(file: string, err: unknown): TopicError {
  return new TopicError(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
}

function tooBig(file: string, size: number): TopicError | null {
  return size > MAX_SYNONYMS_BYTES ? new TopicError(`${file}: ${size} bytes, more than the ${MAX_SYNONYMS_BYTES} a synonyms file may have`) : null;
}

/** Reads and validates an extended topic file (and its synonyms file). Throws TopicError (FC_BAD_TOPIC). */
export function loadTopicLibrarySync(file: string): EtflLibrary {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw unreadable(file, err);
  }
  return parseTopicLibrary(parseJson(text, file), file, (syn) => {
    try {
      const big = tooBig(syn, statSync(syn).size);
      if (big) throw big;
      return readFileSync(syn, 'utf8');
    } catch (err) {
      throw err instanceof TopicError ? err : unreadable(syn, err);
    }
  });
}

/** Async loadTopicLibrarySync: reads and validates an extended topic file. Throws TopicError (FC_BAD_TOPIC). */
export async function loadTopicLibrary(file: string): Promise<EtflLibrary> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw unreadable(file, err);
  }
  const json = parseJson(text, file);
  // read the synonyms file (if any) ahead, then parse synchronously
  const ref = (json as { synonyms?: unknown } | null)?.synonyms;
  let synText = '';
  if (typeof ref === 'string' && ref.trim() !== '') {
    const syn = path.resolve(path.dirname(file), ref);
    try {
      const big = tooBig(syn, (await stat(syn)).size);
      if (big) throw big;
      synText = await readFile(syn, 'utf8');
    } catch (err) {
      throw err instanceof TopicError ? err : unreadable(syn, err);
    }
  }
  return parseTopicLibrary(json, file, () => synText);
}

// ---- runtime ---------------------------------------------------------------

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const HAN = /\p{Script=Han}/u;

interface Replacement {
  from: string;
  to: string;
  /** the last character is a non-Han word character: needs a word boundary after it */
  edgeEnd: boolean;
}

/** A character trie of the synonyms (UTF-16 code units). */
interface TrieNode {
  next: Map<number, TrieNode>;
  /** the synonym ending here */
  rep?: Replacement;
}

function normal(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}

function isEdge(ch: string): boolean {
  return WORD_CHAR.test(ch) && !HAN.test(ch);
}

/** Options of FeatureLibrary. */
export interface FeatureLibraryOptions {
  /** Han segmenter (default: the tokenizer's default) */
  segmenter?: Segmenter;
  /** document frequencies of substituted tokens (default: a new table) */
  docFreq?: DocFreq;
}

/**
 * The library at work: concept substitution, tokenisation, and the term
 * topic model (static terms, concepts and mined terms, all substituted)
 * whose TF-IDF similarity scores blocks and link texts.
 */
export class FeatureLibrary {
  readonly library: EtflLibrary;
  readonly #segmenter: Segmenter | undefined;
  /** the synonyms, as a trie */
  readonly #trie: TrieNode = { next: new Map() };
  #synonymCount = 0;
  #mined: string[];
  #model: TopicModel;
  #libraryTokens: Set<string>;

  /** Throws TopicError (FC_BAD_TOPIC) when no term leaves an indexable token. */
  constructor(library: EtflLibrary, opts: FeatureLibraryOptions = {}) {
    this.library = library;
    this.#segmenter = opts.segmenter;
    for (const [concept, syns] of library.synonyms) {
      const to = normal(concept);
      for (const syn of syns) {
        const from = normal(syn);
        if (from === '' || from === to) continue;
        let node = this.#trie;
        for (let i = 0; i < from.length; i++) {
          const c = from.charCodeAt(i);
          let child = node.next.get(c);
          if (child === undefined) node.next.set(c, (child = { next: new Map() }));
          node = child;
        }
        if (node.rep !== undefined) continue; // the first concept listed wins
        const chars = [...from];
        node.rep = { from, to, edgeEnd: isEdge(chars[chars.length - 1]) };
        this.#synonymCount++;
      }
    }
    this.#mined = [...library.mined];
    this.#model = this.#buildModel(opts.docFreq);
    this.#libraryTokens = this.#collectTokens();
  }

  /** `text` with every synonym replaced by its concept (see the module comment); NFKC + lower-cased when the library has synonyms, else unchanged. */
  substitute(text: string): string {
    if (this.#synonymCount === 0) return text;
    const s = normal(text);
    let out = '';
    let last = 0;
    for (let i = 0; i < s.length; ) {
      const hit = this.#longestAt(s, i);
      if (hit === undefined) {
        i++;
        continue;
      }
      out += s.slice(last, i) + ' ' + hit.to + ' ';
      i += hit.from.length;
      last = i;
    }
    return last === 0 ? s : out + s.slice(last);
  }

  /** The longest synonym starting at `i` of `s` whose word boundaries hold. */
  #longestAt(s: string, i: number): Replacement | undefined {
    let node = this.#trie.next.get(s.charCodeAt(i));
    if (node === undefined) return undefined;
    // every synonym here starts with this character: a Latin letter or digit needs a word boundary before it
    if (i > 0 && isEdge(String.fromCodePoint(s.codePointAt(i)!)) && WORD_CHAR.test(charBefore(s, i))) return undefined;
    let best: Replacement | undefined;
    for (let j = i + 1; node !== undefined; j++) {
      const r = node.rep;
      if (r !== undefined && !(r.edgeEnd && j < s.length && WORD_CHAR.test(String.fromCodePoint(s.codePointAt(j)!)))) best = r;
      if (j >= s.length) break;
      node = node.next.get(s.charCodeAt(j));
    }
    return best;
  }

  /** Tokens of `text` after concept substitution. */
  tokens(text: string): string[] {
    return tokenize(this.substitute(text), { segmenter: this.#segmenter });
  }

  /** The term topic model (substituted terms; shares this library's DocFreq). */
  get model(): TopicModel {
    return this.#model;
  }

  /** Document frequencies of substituted tokens (count pages into it with addDocument). */
  get docFreq(): DocFreq {
    return this.#model.docFreq;
  }

  /** Mined terms in use (the file's, then replaced by setMined). */
  get mined(): readonly string[] {
    return this.#mined;
  }

  /** Every token of a static term, concept, synonym or mined term (not worth mining again). */
  get libraryTokens(): ReadonlySet<string> {
    return this.#libraryTokens;
  }

  /** Static terms with their (substituted) tokens, terms without an indexable token left out. */
  staticTokens(): { term: string; tokens: string[] }[] {
    return this.library.staticTerms
      .map((s) => ({ term: s.term, tokens: [...new Set(this.tokens(s.term))] }))
      .filter((s) => s.tokens.length > 0);
  }

  /** Replaces the mined terms by `terms` (the file's mined terms are kept) and rebuilds the model. */
  setMined(terms: readonly string[]): void {
    this.#mined = [...new Set([...this.library.mined, ...terms])];
    this.#model = this.#buildModel(this.#model.docFreq);
    this.#libraryTokens = this.#collectTokens();
  }

  /** Similarity in [0, 1] of substituted term counts to the library (TopicModel.similarity). */
  similarity(tf: SparseVector): number {
    return this.#model.similarity(tf);
  }

  #terms(): string[] {
    const lib = this.library;
    const raw = [...lib.staticTerms.map((s) => s.term), ...lib.synonyms.keys(), ...this.#mined];
    return [...new Set(raw.map((t) => this.substitute(t).trim().replace(/\s+/g, ' ')).filter((t) => t !== ''))];
  }

  #buildModel(docFreq: DocFreq | undefined): TopicModel {
    const topic: Topic = { name: this.library.name, terms: this.#terms(), threshold: this.library.threshold };
    if (topic.terms.length === 0) throw new TopicError(`topic "${topic.name}": no terms`);
    return new TopicModel(topic, { segmenter: this.#segmenter, docFreq });
  }

  #collectTokens(): Set<string> {
    const out = new Set<string>();
    const texts = [...this.library.staticTerms.map((s) => s.term), ...this.library.synonyms.keys(), ...[...this.library.synonyms.values()].flat(), ...this.#mined];
    for (const t of texts) {
      for (const tok of tokenize(t, { segmenter: this.#segmenter })) out.add(tok);
      for (const tok of this.tokens(t)) out.add(tok);
    }
    return out;
  }
}

function charBefore(s: string, i: number): string {
  const code = s.charCodeAt(i - 1);
  if (code >= 0xdc00 && code <= 0xdfff && i >= 2) return s.slice(i - 2, i);
  return s[i - 1];
}
