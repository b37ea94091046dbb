/**
 * The term miner of Wu & Li's extended topic feature library
 * (docs/algorithms.md#term-miner): for each
 * static term s, the top-L pages about s; from them every term e gets
 *
 *     W(e) = (f(e) / f_max) · ln(N / n_e)
 *
 * f(e) = frequency of e in s's top-L pages (block-weighted counts, src/relevance/topic.ts
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
 * Pure and in memory: the etfl scorer mines online with it, and
 * `focuscrawl expand-topic` (src/tools/etfl/expand.ts, which reads page
 * collections) offline. Kept apart from expand.ts so that a crawl does not
 * load the WARC reader.
 */
import type { SparseVector } from '../text/vector.ts';

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
