/**
 * Zou et al.'s "improved TF-IDF" (docs/algorithms.md#bayes-kde; reconstructed: the cosine-normalised form)
 * with document frequencies learnt from a training set E:
 *
 *   w_s = tf_s · ln(|E| / df_s) / sqrt(Σ_r (tf_r · ln(|E| / df_r))²)
 *
 * tf = raw count of the term in the document, df = training documents that
 * contain it. A term in every training document has weight 0 and is left
 * out of the vector; terms outside the vocabulary are ignored.
 */
import type { SparseVector } from '../text/vector.ts';

/** The serialised vectorizer: training documents and the df of each vocabulary term. */
export interface TfIdfJSON {
  type: 'tfidf';
  docs: number;
  df: Record<string, number>;
}

/** Options of TfIdfVectorizer.fit. */
export interface TfIdfOptions {
  /** drop terms in fewer training documents (default 2) */
  minDf?: number;
  /** keep at most this many terms, highest df first, ties by term (default 5000) */
  maxFeatures?: number;
}

/** A fitted TF-IDF vectorizer (immutable). */
export class TfIdfVectorizer {
  /** |E|: training documents */
  readonly docs: number;
  readonly #df: ReadonlyMap<string, number>;
  readonly #idf = new Map<string, number>();

  private constructor(docs: number, df: ReadonlyMap<string, number>) {
    this.docs = docs;
    this.#df = df;
    for (const [t, n] of df) this.#idf.set(t, Math.log(docs / n));
  }

  /**
   * Learns the vocabulary and document frequencies from `docs` (each a
   * token list; a token counts once per document). Terms with df < minDf
   * are dropped; of the rest the `maxFeatures` most frequent are kept.
   * Throws TypeError for bad options.
   */
  static fit(docs: Iterable<readonly string[]>, opts: TfIdfOptions = {}): TfIdfVectorizer {
    const minDf = opts.minDf ?? 2;
    const maxFeatures = opts.maxFeatures ?? 5000;
    if (!Number.isInteger(minDf) || minDf < 1) throw new TypeError(`minDf must be a positive integer, got ${minDf}`);
    if (!Number.isInteger(maxFeatures) || maxFeatures < 0) throw new TypeError(`maxFeatures must be a non-negative integer, got ${maxFeatures}`);
    let n = 0;
    const df = new Map<string, number>();
    for (const doc of docs) {
      n++;
      for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1);
    }
    const kept = [...df]
      .filter(([, c]) => c >= minDf)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, maxFeatures);
    return new TfIdfVectorizer(n, new Map(kept));
  }

  /** Number of vocabulary terms. */
  get size(): number {
    return this.#df.size;
  }

  /** ln(|E| / df) of a vocabulary term; undefined outside the vocabulary. */
  idf(term: string): number | undefined {
    return this.#idf.get(term);
  }

  /** The unit-norm TF-IDF vector of a token list; empty when no token has a positive weight. */
  transform(tokens: readonly string[]): SparseVector {
    const tf = new Map<string, number>();
    for (const t of tokens) if (this.#idf.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    const out: SparseVector = new Map();
    let sum = 0;
    for (const [t, n] of tf) {
      const w = n * this.#idf.get(t)!;
      if (w > 0) {
        out.set(t, w);
        sum += w * w;
      }
    }
    const norm = Math.sqrt(sum);
    for (const [t, w] of out) out.set(t, w / norm);
    return out;
  }

  /** Plain JSON; fromJSON(toJSON()) transforms identically. */
  toJSON(): TfIdfJSON {
    return { type: 'tfidf', docs: this.docs, df: Object.fromEntries(this.#df) };
  }

  /**
   * Rebuilds a vectorizer from toJSON() output. Throws TypeError when the
   * type tag is wrong, `docs` is not a non-negative integer, or a df is not
   * an integer in 1..docs.
   */
  static fromJSON(json: unknown): TfIdfVectorizer {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new TypeError('tfidf model: expected an object');
    const o = json as Record<string, unknown>;
    if (o.type !== 'tfidf') throw new TypeError(`tfidf model: "type" must be "tfidf", got ${JSON.stringify(o.type)}`);
    const docs = o.docs;
    if (typeof docs !== 'number' || !Number.isInteger(docs) || docs < 0) throw new TypeError('tfidf model: "docs" must be a non-negative integer');
    if (typeof o.df !== 'object' || o.df === null || Array.isArray(o.df)) throw new TypeError('tfidf model: "df" must be an object');
    const df = new Map<string, number>();
    for (const [t, n] of Object.entries(o.df)) {
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > docs) {
        throw new TypeError(`tfidf model: df of ${JSON.stringify(t)} must be an integer in 1..${docs}, got ${JSON.stringify(n)}`);
      }
      df.set(t, n);
    }
    return new TfIdfVectorizer(docs, df);
  }
}
