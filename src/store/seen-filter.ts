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
    let layer = this.#layers.at(-1);
    if (layer === undefined || layer.count >= layer.capacity) {
      const capacity = FIRST_LAYER_KEYS << this.#layers.length;
      const size = 2 ** Math.ceil(Math.log2(capacity * BITS_PER_KEY));
      layer = { bits: new Uint32Array(size / 32), size, capacity, count: 0 };
      this.#layers.push(layer);
    }
    const [h1, h2] = hashes(key);
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
    const [h1, h2] = hashes(key);
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

const HEX_KEY = /^[0-9a-f]{32}$/;

/** Two 32-bit hashes of a key: MD5 hex digits are uniform already; anything else goes through FNV-1a. */
function hashes(key: string): [number, number] {
  if (HEX_KEY.test(key)) return [parseInt(key.slice(0, 8), 16) | 0, parseInt(key.slice(8, 16), 16) | 1];
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < key.length; i++) {
    a = Math.imul(a ^ key.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ key.charCodeAt(i), 0x5bd1e995);
  }
  return [a, b | 1];
}
