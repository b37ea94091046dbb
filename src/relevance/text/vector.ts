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
