/**
 * Sparse term vectors (Map term -> weight), cosine similarity, and a bounded
 * document-frequency table so TF-IDF weights can be learnt from the pages the
 * crawl itself fetches (no external corpus).
 */

/** A sparse vector: term -> weight. Absent terms weigh 0. */
export type SparseVector = Map<string, number>;

/**
 * Adds `weight` to `into` for every occurrence of every token (default a new
 * map, weight 1): raw term frequencies, optionally scaled per source block.
 */
export function termFreq(tokens: Iterable<string>, weight = 1, into: SparseVector = new Map()): SparseVector {
  for (const t of tokens) into.set(t, (into.get(t) ?? 0) + weight);
  return into;
}

/**
 * Weighted term counts in order of first occurrence, like termFreq's Map,
 * in arrays reused from text to text (`reset` between): `terms[0..size)`
 * and `counts[0..size)`. For the judge's every page: a Map per page, grown
 * entry by entry, was the largest allocation of the classify stage. Terms
 * are found by an open-addressing table of their own hash; the table is
 * emptied by an epoch, not cleared. Strings of the last texts stay
 * referenced until overwritten.
 */
export class TermCounts {
  readonly terms: string[] = [];
  readonly counts: number[] = [];
  size = 0;
  #keys: string[] = [];
  #at = new Int32Array(1024);
  #stamp = new Int32Array(1024);
  #mask = 1023;
  #epoch = 1;

  /** Empty again. */
  reset(): void {
    this.size = 0;
    if (++this.#epoch === 0x3fffffff) {
      this.#stamp.fill(0);
      this.#epoch = 1;
    }
  }

  /** counts[term] += weight (a new term is appended with 0 + weight). */
  add(term: string, weight: number): void {
    const stamp = this.#stamp;
    const epoch = this.#epoch;
    let h = termHash(term) & this.#mask;
    for (;;) {
      if (stamp[h] !== epoch) {
        const n = this.size++;
        stamp[h] = epoch;
        this.#keys[h] = term;
        this.#at[h] = n;
        this.terms[n] = term;
        this.counts[n] = 0 + weight;
        if (2 * this.size > this.#mask) this.#grow();
        return;
      }
      if (this.#keys[h] === term) {
        const at = this.#at[h]!;
        this.counts[at] = this.counts[at]! + weight;
        return;
      }
      h = (h + 1) & this.#mask;
    }
  }

  /** The position of `term` among terms[0..size), or -1. */
  indexOf(term: string): number {
    const stamp = this.#stamp;
    const epoch = this.#epoch;
    let h = termHash(term) & this.#mask;
    for (;;) {
      if (stamp[h] !== epoch) return -1;
      if (this.#keys[h] === term) return this.#at[h]!;
      h = (h + 1) & this.#mask;
    }
  }

  /** A table twice as large, holding the terms counted so far. */
  #grow(): void {
    const cap = 2 * (this.#mask + 1);
    this.#mask = cap - 1;
    this.#keys = new Array<string>(cap);
    this.#at = new Int32Array(cap);
    this.#stamp = new Int32Array(cap);
    this.#epoch = 1;
    for (let n = 0; n < this.size; n++) {
      let h = termHash(this.terms[n]!) & this.#mask;
      while (this.#stamp[h] === 1) h = (h + 1) & this.#mask;
      this.#stamp[h] = 1;
      this.#keys[h] = this.terms[n]!;
      this.#at[h] = n;
    }
  }
}

/** FNV-1a of a string's code units, finalised. */
function termHash(t: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) >>> 0 ^ (h >>> 12);
}

/**
 * Sublinear term frequency: 1 + ln(tf) for tf >= 1, and tf itself below 1
 * (weighted counts can be fractional), so the curve is continuous,
 * increasing and never negative.
 */
export function sublinear(tf: number): number {
  return tf >= 1 ? 1 + Math.log(tf) : Math.max(0, tf);
}

/** Euclidean norm. */
export function norm(v: SparseVector): number {
  let s = 0;
  for (const w of v.values()) s += w * w;
  return Math.sqrt(s);
}

/** Dot product (iterates the smaller vector). */
export function dot(a: SparseVector, b: SparseVector): number {
  const small = a.size <= b.size ? a : b;
  const large = small === a ? b : a;
  let s = 0;
  for (const [t, w] of small) {
    const x = large.get(t);
    if (x !== undefined) s += w * x;
  }
  return s;
}

/** Cosine similarity; 0 when either vector is empty or all zero. For non-negative weights the result is in [0, 1]. */
export function cosine(a: SparseVector, b: SparseVector): number {
  const na = norm(a);
  const nb = norm(b);
  if (na === 0 || nb === 0) return 0;
  return Math.min(1, Math.max(-1, dot(a, b) / (na * nb)));
}

/**
 * Document frequencies: how many documents (pages) contained each term.
 * Bounded: when more than `capacity` terms are held, the rarest terms are
 * evicted (lowest df first; among equal df the oldest first) down to 90% of
 * the capacity. An evicted term counts as unseen again (highest idf), which
 * is what a rare term deserves anyway.
 */
export class DocFreq {
  readonly capacity: number;
  #df = new Map<string, number>();
  #docs = 0;

  constructor(capacity = 200_000) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new TypeError(`DocFreq capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
  }

  /** Number of documents added. */
  get documents(): number {
    return this.#docs;
  }

  /** Number of distinct terms held. */
  get size(): number {
    return this.#df.size;
  }

  /** Counts one document: each distinct term of `terms` once. */
  addDocument(terms: Iterable<string>): void {
    this.addDistinct(new Set(terms));
  }

  /** Counts one document whose terms are already distinct (a term-count map's keys): no set is built. */
  addDistinct(terms: Iterable<string>): void {
    this.#docs++;
    for (const t of terms) this.#df.set(t, (this.#df.get(t) ?? 0) + 1);
    if (this.#df.size > this.capacity) this.#evict(Math.floor(this.capacity * 0.9));
  }

  /** addDistinct of `terms[0..n)` (distinct), without an iterator. */
  addDistinctTerms(terms: readonly string[], n: number): void {
    this.#docs++;
    const df = this.#df;
    for (let i = 0; i < n; i++) {
      const t = terms[i]!;
      df.set(t, (df.get(t) ?? 0) + 1);
    }
    if (df.size > this.capacity) this.#evict(Math.floor(this.capacity * 0.9));
  }

  /** Documents that contained `term` (0 if unseen or evicted). */
  df(term: string): number {
    return this.#df.get(term) ?? 0;
  }

  /** Smoothed inverse document frequency: ln((N + 1) / (df + 1)) + 1, always >= 1. */
  idf(term: string): number {
    return Math.log((this.#docs + 1) / (this.df(term) + 1)) + 1;
  }

  #evict(target: number): void {
    let remove = this.#df.size - target;
    const histogram = new Map<number, number>();
    for (const n of this.#df.values()) histogram.set(n, (histogram.get(n) ?? 0) + 1);
    // smallest df value `cut` such that all terms with df <= cut cover `remove`
    let cut = 0;
    let covered = 0;
    for (const n of [...histogram.keys()].sort((x, y) => x - y)) {
      cut = n;
      covered += histogram.get(n)!;
      if (covered >= remove) break;
    }
    for (const [t, n] of this.#df) {
      if (remove === 0) break;
      if (n < cut) {
        this.#df.delete(t);
        remove--;
      }
    }
    for (const [t, n] of this.#df) {
      if (remove === 0) break;
      if (n === cut) {
        this.#df.delete(t);
        remove--;
      }
    }
  }
}

/** TF-IDF weights: sublinear(tf) x idf(term) for every term of `tf`. */
export function tfidf(tf: SparseVector, docFreq: DocFreq): SparseVector {
  const out: SparseVector = new Map();
  for (const [t, n] of tf) {
    const w = sublinear(n) * docFreq.idf(t);
    if (w > 0) out.set(t, w);
  }
  return out;
}
