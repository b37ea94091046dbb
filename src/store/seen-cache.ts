/**
 * The store's in-memory cache of seen marks, in typed arrays: a 16-way
 * set-associative cache with least-recently-used replacement inside each
 * set, keyed by the first 64 bits of the URL key (the URL's MD5 in hex,
 * src/urls/canonical.ts urlKey). A slot costs 25 bytes and no garbage, against ~250
 * bytes for an entry of a Map-based LRU, so the same memory holds ten
 * times the marks: on a web whose pages link to many pages of their own
 * site, most links are then found without a LevelDB read.
 *
 * A queued mark is kept as its score and seq; its frontier key is rebuilt
 * from them (`frontierKey`), so the cache holds no strings at all. A seq
 * above 2^32 - 1 does not fit its slot: such a mark is not cached (the
 * store reads it back when it is needed). Two URL
 * keys that agree in 64 bits would share a slot; for a crawl of 10^7 URLs
 * the chance of that is about 3·10^-6, and the store itself identifies a
 * URL by its 128-bit MD5.
 */

/** A seen mark: queued under frontier key `k` with `score`, done, or known absent (null). */
export type SeenMark = { s: 'q'; k: string; score: number } | { s: 'd' } | null;

/**
 * Slots per set. With 4, a cache 70% full already lost about one mark in
 * fourteen to full sets (a crawl re-read 12,000 of them from LevelDB over
 * 50,000 pages); with 16, a lookup compares up to 16 tags, and next to
 * nothing is lost before the cache is full (BENCHMARKS.md, session 23).
 */
export const SEEN_CACHE_WAYS = 16;
const WAYS = SEEN_CACHE_WAYS;
const EMPTY = 0;
const ABSENT = 1;
const QUEUED = 2;
const DONE = 3;
/** Largest seq a slot holds (a Uint32Array). */
const MAX_SEQ = 0xffffffff;
/** The use clock is a Uint32Array too: at this count every slot's use is reset (LRU order is lost once per 4·10^9 uses). */
const MAX_CLOCK = 0xffffffff;

/** First 32-bit word of the 8 hex digits of `s` from `at` (lower-case or upper-case). */
function hexWord(s: string, at: number): number {
  let v = 0;
  for (let i = at; i < at + 8; i++) {
    const c = s.charCodeAt(i);
    // '0'-'9' -> 0-9, 'a'-'f' / 'A'-'F' -> 10-15
    v = (v << 4) | (c <= 57 ? c - 48 : (c | 32) - 87);
  }
  return v >>> 0;
}

export class SeenCache {
  /** number of slots */
  readonly capacity: number;
  readonly #sets: number;
  readonly #tagHi: Uint32Array;
  readonly #tagLo: Uint32Array;
  readonly #state: Uint8Array;
  readonly #score: Float64Array;
  readonly #seq: Uint32Array;
  readonly #used: Uint32Array;
  #clock = 0;
  #size = 0;

  /**
   * @param capacity slots, a power of two of at least SEEN_CACHE_WAYS
   * @param frontierKey the store's frontier key of (score, seq)
   * @param seqOf the seq part of a frontier key
   */
  constructor(
    capacity: number,
    private readonly frontierKey: (score: number, seq: number) => string,
    private readonly seqOf: (key: string) => number,
  ) {
    if (!Number.isInteger(capacity) || capacity < WAYS || (capacity & (capacity - 1)) !== 0) {
      throw new TypeError(`SeenCache capacity must be a power of two of at least ${WAYS}, got ${capacity}`);
    }
    this.capacity = capacity;
    this.#sets = capacity / WAYS;
    this.#tagHi = new Uint32Array(capacity);
    this.#tagLo = new Uint32Array(capacity);
    this.#state = new Uint8Array(capacity);
    this.#score = new Float64Array(capacity);
    this.#seq = new Uint32Array(capacity);
    this.#used = new Uint32Array(capacity);
  }

  /** number of marks held */
  get size(): number {
    return this.#size;
  }

  /** Slot of `uk`, or -1; `set` is the first slot of its set. */
  #find(hi: number, lo: number, set: number): number {
    for (let i = set; i < set + WAYS; i++) {
      if (this.#state[i] !== EMPTY && this.#tagHi[i] === hi && this.#tagLo[i] === lo) return i;
    }
    return -1;
  }

  /** The cached mark of URL key `uk` (null: known absent), or undefined when not cached. Counts as a use. */
  get(uk: string): SeenMark | undefined {
    const hi = hexWord(uk, 0);
    const lo = hexWord(uk, 8);
    const slot = this.#find(hi, lo, (lo & (this.#sets - 1)) * WAYS);
    if (slot < 0) return undefined;
    this.#touch(slot);
    switch (this.#state[slot]) {
      case ABSENT:
        return null;
      case DONE:
        return { s: 'd' };
      default:
        return { s: 'q', k: this.frontierKey(this.#score[slot], this.#seq[slot]), score: this.#score[slot] };
    }
  }

  /** Cache `mark` for URL key `uk`, replacing the least recently used mark of its set when the set is full. */
  set(uk: string, mark: SeenMark): void {
    const hi = hexWord(uk, 0);
    const lo = hexWord(uk, 8);
    const set = (lo & (this.#sets - 1)) * WAYS;
    let slot = this.#find(hi, lo, set);
    if (slot < 0) {
      slot = set;
      for (let i = set; i < set + WAYS; i++) {
        if (this.#state[i] === EMPTY) {
          slot = i;
          break;
        }
        if (this.#used[i] < this.#used[slot]) slot = i;
      }
      if (this.#state[slot] === EMPTY) this.#size++;
      this.#tagHi[slot] = hi;
      this.#tagLo[slot] = lo;
    }
    this.#touch(slot);
    if (mark === null) this.#state[slot] = ABSENT;
    else if (mark.s === 'd') this.#state[slot] = DONE;
    else {
      const seq = this.seqOf(mark.k);
      if (!(Number.isInteger(seq) && seq >= 0 && seq <= MAX_SEQ)) {
        // does not fit: not cached, and no older mark of this key stays behind
        this.#state[slot] = EMPTY;
        this.#size--;
        return;
      }
      this.#state[slot] = QUEUED;
      this.#score[slot] = mark.score;
      this.#seq[slot] = seq;
    }
  }

  /** Count a use of `slot` (least recently used = lowest count in its set). */
  #touch(slot: number): void {
    if (this.#clock === MAX_CLOCK) {
      this.#used.fill(0);
      this.#clock = 0;
    }
    this.#used[slot] = ++this.#clock;
  }

  /** Forget every mark (after a failed batch the cache may be ahead of the database). */
  clear(): void {
    this.#state.fill(EMPTY);
    this.#size = 0;
  }
}
