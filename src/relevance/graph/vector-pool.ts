/**
 * A pool of Float64Array vectors for power iterations that run round after
 * round (hits, ipagerank: every `p` pages). A round at the graph's caps
 * needs several vectors of up to `maxEdges` doubles; allocating them every
 * round made the garbage collector run for them. Pure: no I/O.
 */
export class VectorPool {
  readonly #free: Float64Array[] = [];
  readonly #keep: number;

  /** Keeps at most `keep` vectors (the most recently given). */
  constructor(keep = 8) {
    this.#keep = keep;
  }

  /** A zeroed vector of length n: a pooled one when one has that length. */
  take(n: number): Float64Array {
    for (let i = this.#free.length - 1; i >= 0; i--) {
      if (this.#free[i].length === n) return this.#free.splice(i, 1)[0].fill(0);
    }
    return new Float64Array(n);
  }

  /** Give vectors back for later `take`s; the caller must not use them after. */
  give(...vs: Float64Array[]): void {
    for (const v of vs) if (!this.#free.includes(v)) this.#free.push(v);
    if (this.#free.length > this.#keep) this.#free.splice(0, this.#free.length - this.#keep);
  }

  /** Vectors held now. */
  get size(): number {
    return this.#free.length;
  }
}
