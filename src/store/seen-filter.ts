/**
 * A growing Bloom filter over url keys (src/urls/canonical.ts `urlKey`: 32 hex digits
 * of an MD5): "definitely never added" or "maybe added". The store asks it
 * before reading a seen mark from LevelDB, so links never seen (most new
 * links of a page) cost no read. Keys are never removed: a key whose mark
 * was dropped stays "maybe", which only costs a read.
 *
 * It grows by layers (scalable Bloom filter): each layer holds twice as many
 * keys as the one before, with at least 10 bits per key (rounded up to a
 * power of two: under 1% false positives), so memory follows the seen set:
 * 2 to 4 bytes per key (about 4 MB at a million URLs).
 */

/** Keys per layer of the first layer; each further layer doubles it. */
const FIRST_LAYER_KEYS = 1 << 16;
/** Bits per key, at least: 10 bits and 7 probes give ~0.8% false positives per layer. */
const BITS_PER_KEY = 10;
const PROBES = 7;

interface Layer {
  bits: Uint32Array;
  /** number of bits, a power of two */
  size: number;
  capacity: number;
  count: number;
}

/** Set of url keys with false positives and no false negatives. */
export class SeenFilter {
  readonly #layers: Layer[] = [];

  /** Bytes held by the bit arrays. */
  get bytes(): number {
    let n = 0;
    for (const l of this.#layers) n += l.bits.byteLength;
    return n;
  }

  /** Add a url key (32 hex digits; other strings are hashed first). */
  add(key: string): void {
    hashKey(key);
    this.#add();
  }

  /** Add a url key unless mayHave(key) already holds (one hashing for both). */
  addIfMissing(key: string): void {
    hashKey(key);
    if (!this.#has()) this.#add();
  }

  /** Add the key hashed last (H1, H2). */
  #add(): void {
    let layer = this.#layers.at(-1);
    if (layer === undefined || layer.count >= layer.capacity) {
      const capacity = FIRST_LAYER_KEYS << this.#layers.length;
      const size = 2 ** Math.ceil(Math.log2(capacity * BITS_PER_KEY));
      layer = { bits: new Uint32Array(size / 32), size, capacity, count: 0 };
      this.#layers.push(layer);
    }
    const h1 = H1;
    const h2 = H2;
    const mask = layer.size - 1;
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & mask;
      layer.bits[bit >>> 5] |= 1 << (bit & 31);
    }
    layer.count++;
  }

  /** False when `key` was certainly never added. */
  mayHave(key: string): boolean {
    if (this.#layers.length === 0) return false;
    hashKey(key);
    return this.#has();
  }

  /** mayHave of the key hashed last (H1, H2). */
  #has(): boolean {
    const h1 = H1;
    const h2 = H2;
    for (const layer of this.#layers) {
      const mask = layer.size - 1;
      let all = true;
      for (let i = 0; i < PROBES && all; i++) {
        const bit = (h1 + Math.imul(i, h2)) & mask;
        all = (layer.bits[bit >>> 5] & (1 << (bit & 31))) !== 0;
      }
      if (all) return true;
    }
    return false;
  }
}

/** The two hashes of the key last given to hashKey (module scratch: no pair allocated per key). */
let H1 = 0;
let H2 = 0;

/**
 * Two 32-bit hashes of a key into H1 and H2: a url key's MD5 hex digits are
 * uniform already (its first 8 and next 8 digits as numbers); anything else
 * (not 32 lower-case hex digits) goes through FNV-1a. Digits are read with
 * charCodeAt: a regex test, two slices and two parseInts were ~4% of the
 * sink and store's CPU (bench/sink-commit.ts).
 */
function hashKey(key: string): void {
  if (key.length === 32) {
    let a = 0;
    let b = 0;
    let i = 0;
    for (; i < 32; i++) {
      const c = key.charCodeAt(i);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (d < 0) break;
      if (i < 8) a = (a << 4) | d;
      else if (i < 16) b = (b << 4) | d;
    }
    if (i === 32) {
      H1 = a | 0;
      H2 = b | 1;
      return;
    }
  }
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < key.length; i++) {
    a = Math.imul(a ^ key.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ key.charCodeAt(i), 0x5bd1e995);
  }
  H1 = a;
  H2 = b | 1;
}
