/**
 * A small least-recently-used map built on `Map` insertion order: the first
 * key in the map is the least recently used one. `get` and `set` count as a
 * use; `has` and `peek` do not.
 */
export class Lru<K, V> {
  /** most entries kept; setting a new key beyond it evicts the least recently used */
  readonly capacity: number;
  readonly #map = new Map<K, V>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new TypeError(`Lru capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** number of entries */
  get size(): number {
    return this.#map.size;
  }

  /** value of `key` (marking it most recently used), or undefined */
  get(key: K): V | undefined {
    if (!this.#map.has(key)) return undefined;
    const value = this.#map.get(key) as V;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  /** value of `key` without changing its recency, or undefined */
  peek(key: K): V | undefined {
    return this.#map.get(key);
  }

  /** whether `key` is present (does not change its recency) */
  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** store `value` under `key` as most recently used; evicts the oldest entry when over capacity */
  set(key: K, value: V): this {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.capacity) {
      const oldest = this.#map.keys().next().value as K;
      this.#map.delete(oldest);
    }
    return this;
  }

  /** the entries, least recently used first (does not change their recency) */
  entries(): IterableIterator<[K, V]> {
    return this.#map.entries();
  }

  /** remove `key`; true when it was present */
  delete(key: K): boolean {
    return this.#map.delete(key);
  }
}
