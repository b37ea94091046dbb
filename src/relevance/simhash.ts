/**
 * Near-duplicate detection: 64-bit SimHash (Charikar 2002, as used for web
 * pages by Manku, Jain & Das Sarma, WWW 2007) and a band index that finds an
 * earlier fingerprint within Hamming distance k without scanning them all.
 *
 * Fingerprint of a text: its tokens (src/relevance/text/tokenize.ts, stop words kept),
 * overlapping shingles of SHINGLE (3) tokens, each hashed to 64 bits (two
 * independent 32-bit lanes, no BigInt); bit i of the fingerprint is 1 when
 * more shingle occurrences have bit i set than not. Identical texts give
 * identical fingerprints; a small edit flips a few bits; unrelated texts
 * differ in about 32 of 64 bits.
 *
 * Band index (the permuted-tables idea of Manku et al., in its simplest
 * form): the 64 bits are cut into k + 1 bands. Two fingerprints within
 * distance k differ in at most k bits, so by pigeonhole at least one band is
 * identical in both. Each band has a bucket table (at most 2^16 buckets; a
 * band wider than 16 bits is hashed into them) whose buckets are chains of
 * entry ids, newest first; a lookup walks the fingerprint's bucket in every
 * band and computes the exact distance of each candidate. At most
 * `maxCandidates` entries are looked at per band (newest first), so a
 * hostile site that makes thousands of pages share one band costs bounded
 * time per lookup; an older near-duplicate beyond that window can be missed.
 *
 * Memory: typed arrays only. Per entry 8 bytes (fingerprint) + 4 (ref) +
 * 4 × (k + 1) (chain links): 28 bytes for k = 3, up to twice that while the
 * arrays grow by doubling; plus a fixed 256 KiB per band (1 MiB for k = 3).
 * One million pages: about 28 MB (56 MB worst case just after a doubling).
 */

/** A 64-bit fingerprint as two unsigned 32-bit halves. */
export interface Fingerprint {
  hi: number;
  lo: number;
}

/** Tokens per shingle. */
export const SHINGLE = 3;
/** Default Hamming distance for "near-duplicate" (Manku et al.: k = 3 for 64-bit fingerprints). */
export const DEFAULT_NEAR_DUP_DISTANCE = 3;
/** Largest supported distance (11 bands of 5–6 bits: buckets get long, but it still works). */
export const MAX_NEAR_DUP_DISTANCE = 10;
/** Candidates examined per band and lookup, newest first. */
export const DEFAULT_MAX_CANDIDATES = 4096;
/** Bucket table bits per band (2^16 buckets of 4 bytes). */
const TABLE_BITS = 16;

/** Murmur3's 32-bit finaliser: full avalanche. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Two independent 32-bit hashes of a string (FNV-1a lanes with different seeds and primes, finalised). */
function hashToken(s: string, out: Uint32Array, i: number): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  out[2 * i] = fmix32(a);
  out[2 * i + 1] = fmix32(b ^ 0x27d4eb2f);
}

let tokenHashes = new Uint32Array(1024);
const votes = new Int32Array(64);

/**
 * The SimHash of a token list (its first `count`), or null when it has fewer than `minTokens`
 * tokens (default 1): too little text to say anything.
 */
export function simhashTokens(tokens: readonly string[], minTokens = 1, count = tokens.length): Fingerprint | null {
  const n = count;
  if (n < Math.max(1, minTokens)) return null;
  // the token hashes and bit votes in arrays reused from call to call: a
  // typed array of more than 64 bytes is backed outside the heap, costly to
  // make and to collect for every page
  if (tokenHashes.length < 2 * n) tokenHashes = new Uint32Array(Math.max(2 * n, 2 * tokenHashes.length));
  const th = tokenHashes;
  for (let i = 0; i < n; i++) hashToken(tokens[i], th, i);
  // bit i of the result is 1 when more than half of the shingles have it:
  // the set bits of each shingle hash are counted per position in bit
  // slices (eight 32-bit planes per half, plane p holding bit p of each
  // position's count: an add is a ripple of ANDs and XORs, not 64 adds),
  // emptied into `ones` every 255 shingles
  const ones = votes.fill(0);
  const w = Math.min(SHINGLE, n);
  const shingles = n - w + 1;
  let l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0;
  let h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0;
  let held = 0;
  for (let s = 0; s < shingles; s++) {
    // combine the window's token hashes (order matters), then avalanche
    let x = 0x2545f491 ^ w;
    let y = 0x68e31da4 ^ w;
    for (let j = 0; j < w; j++) {
      x = Math.imul((x << 5) | (x >>> 27), 0x9e3779b1) ^ th[2 * (s + j)];
      y = Math.imul((y << 7) | (y >>> 25), 0x85ebca77) ^ th[2 * (s + j) + 1];
    }
    const lo = fmix32(x);
    const hi = fmix32(y ^ lo);
    let c = lo;
    let t = l0 & c; l0 ^= c; c = t;
    t = l1 & c; l1 ^= c; c = t;
    t = l2 & c; l2 ^= c; c = t;
    t = l3 & c; l3 ^= c; c = t;
    t = l4 & c; l4 ^= c; c = t;
    t = l5 & c; l5 ^= c; c = t;
    t = l6 & c; l6 ^= c; c = t;
    l7 ^= c;
    c = hi;
    t = h0 & c; h0 ^= c; c = t;
    t = h1 & c; h1 ^= c; c = t;
    t = h2 & c; h2 ^= c; c = t;
    t = h3 & c; h3 ^= c; c = t;
    t = h4 & c; h4 ^= c; c = t;
    t = h5 & c; h5 ^= c; c = t;
    t = h6 & c; h6 ^= c; c = t;
    h7 ^= c;
    if (++held === 255 || s === shingles - 1) {
      for (let b = 0; b < 32; b++) {
        ones[b] += ((l0 >>> b) & 1) | (((l1 >>> b) & 1) << 1) | (((l2 >>> b) & 1) << 2) | (((l3 >>> b) & 1) << 3) |
          (((l4 >>> b) & 1) << 4) | (((l5 >>> b) & 1) << 5) | (((l6 >>> b) & 1) << 6) | (((l7 >>> b) & 1) << 7);
        ones[32 + b] += ((h0 >>> b) & 1) | (((h1 >>> b) & 1) << 1) | (((h2 >>> b) & 1) << 2) | (((h3 >>> b) & 1) << 3) |
          (((h4 >>> b) & 1) << 4) | (((h5 >>> b) & 1) << 5) | (((h6 >>> b) & 1) << 6) | (((h7 >>> b) & 1) << 7);
      }
      l0 = l1 = l2 = l3 = l4 = l5 = l6 = l7 = 0;
      h0 = h1 = h2 = h3 = h4 = h5 = h6 = h7 = 0;
      held = 0;
    }
  }
  // more ones than zeros: 2 * ones - shingles > 0
  let lo = 0;
  let hi = 0;
  for (let b = 0; b < 32; b++) {
    if (2 * ones[b] > shingles) lo |= 1 << b;
    if (2 * ones[32 + b] > shingles) hi |= 1 << b;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

/** Set bits of a 32-bit integer. */
function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Hamming distance of two fingerprints (0–64). */
export function hammingDistance(a: Fingerprint, b: Fingerprint): number {
  return popcount32((a.hi ^ b.hi) >>> 0) + popcount32((a.lo ^ b.lo) >>> 0);
}

/** 16 lower-case hex digits, high half first. */
export function fingerprintToHex(fp: Fingerprint): string {
  return fp.hi.toString(16).padStart(8, '0') + fp.lo.toString(16).padStart(8, '0');
}

/** The fingerprint of 16 hex digits, or null when `s` is not that. */
export function fingerprintFromHex(s: unknown): Fingerprint | null {
  if (typeof s !== 'string' || !/^[0-9a-f]{16}$/i.test(s)) return null;
  return { hi: parseInt(s.slice(0, 8), 16) >>> 0, lo: parseInt(s.slice(8), 16) >>> 0 };
}

/** Bits [start, start + width) of the 64-bit value hi:lo (bit 0 = lowest of lo); width <= 32. */
function bitsOf(hi: number, lo: number, start: number, width: number): number {
  let v: number;
  if (start >= 32) v = hi >>> (start - 32);
  else if (start + width <= 32) v = lo >>> start;
  else v = (lo >>> start) | (hi << (32 - start));
  return width === 32 ? v >>> 0 : (v & ((1 << width) - 1)) >>> 0;
}

export interface SimHashIndexOptions {
  /** Hamming distance that counts as near (1..MAX_NEAR_DUP_DISTANCE; default 3) */
  maxDistance?: number;
  /** entries examined per band and lookup, newest first (default 4096) */
  maxCandidates?: number;
}

/** A match found by {@link SimHashIndex.nearest}. */
export interface NearMatch {
  /** entry id (insertion order, from 0) */
  id: number;
  /** the ref the entry was added with (or set by setRef) */
  ref: number;
  distance: number;
}

/** Fingerprints with refs, searchable by Hamming distance ≤ k (see the module comment). */
export class SimHashIndex {
  readonly maxDistance: number;
  readonly maxCandidates: number;
  private readonly bands: { start: number; width: number; direct: boolean }[];
  private readonly tableBits: number[];
  private readonly heads: Int32Array[];
  private next: Int32Array[];
  private fps: Uint32Array;
  private refs: Uint32Array;
  private n = 0;

  constructor(opts: SimHashIndexOptions = {}) {
    const k = opts.maxDistance ?? DEFAULT_NEAR_DUP_DISTANCE;
    if (!Number.isInteger(k) || k < 1 || k > MAX_NEAR_DUP_DISTANCE) {
      throw new TypeError(`maxDistance must be an integer 1..${MAX_NEAR_DUP_DISTANCE}, got ${k}`);
    }
    this.maxDistance = k;
    this.maxCandidates = opts.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
    const count = k + 1;
    this.bands = [];
    let start = 0;
    for (let i = 0; i < count; i++) {
      const width = Math.floor(64 / count) + (i < 64 % count ? 1 : 0);
      this.bands.push({ start, width, direct: width <= TABLE_BITS });
      start += width;
    }
    this.tableBits = this.bands.map((b) => Math.min(b.width, TABLE_BITS));
    this.heads = this.tableBits.map((bits) => new Int32Array(1 << bits).fill(-1));
    this.next = this.bands.map(() => new Int32Array(16));
    this.fps = new Uint32Array(32);
    this.refs = new Uint32Array(16);
  }

  /** Number of entries. */
  get size(): number {
    return this.n;
  }

  /** Bytes held by the typed arrays (capacity, not just the used part). */
  get bytes(): number {
    let b = this.fps.byteLength + this.refs.byteLength;
    for (const a of this.heads) b += a.byteLength;
    for (const a of this.next) b += a.byteLength;
    return b;
  }

  private slot(band: number, fp: Fingerprint): number {
    const { start, width, direct } = this.bands[band];
    const v = bitsOf(fp.hi, fp.lo, start, width);
    return direct ? v : Math.imul(v, 0x9e3779b1) >>> (32 - this.tableBits[band]);
  }

  private grow(): void {
    const cap = this.refs.length * 2;
    const fps = new Uint32Array(cap * 2);
    fps.set(this.fps);
    this.fps = fps;
    const refs = new Uint32Array(cap);
    refs.set(this.refs);
    this.refs = refs;
    this.next = this.next.map((old) => {
      const a = new Int32Array(cap);
      a.set(old);
      return a;
    });
  }

  /** Add a fingerprint with a ref (an unsigned 32-bit number the caller chooses); returns its id. */
  add(fp: Fingerprint, ref = 0): number {
    if (this.n === this.refs.length) this.grow();
    const id = this.n++;
    this.fps[2 * id] = fp.hi;
    this.fps[2 * id + 1] = fp.lo;
    this.refs[id] = ref;
    for (let b = 0; b < this.bands.length; b++) {
      const s = this.slot(b, fp);
      this.next[b][id] = this.heads[b][s];
      this.heads[b][s] = id;
    }
    return id;
  }

  /** Change the ref of entry `id`. */
  setRef(id: number, ref: number): void {
    if (!(id >= 0 && id < this.n)) throw new RangeError(`no entry ${id}`);
    this.refs[id] = ref;
  }

  /**
   * The entry nearest to `fp` within maxDistance (ties: the earliest), or
   * null. Looks at most maxCandidates entries per band.
   */
  nearest(fp: Fingerprint): NearMatch | null {
    let best = -1;
    let bestD = this.maxDistance + 1;
    for (let b = 0; b < this.bands.length; b++) {
      const next = this.next[b];
      let id = this.heads[b][this.slot(b, fp)];
      for (let seen = 0; id !== -1 && seen < this.maxCandidates; seen++, id = next[id]) {
        const d = popcount32((this.fps[2 * id] ^ fp.hi) >>> 0) + popcount32((this.fps[2 * id + 1] ^ fp.lo) >>> 0);
        if (d < bestD || (d === bestD && id < best)) {
          bestD = d;
          best = id;
        }
      }
    }
    return best === -1 ? null : { id: best, ref: this.refs[best], distance: bestD };
  }
}
