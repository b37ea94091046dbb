/**
 * A small least-recently-used map built on `Map` insertion order: the first
 * key in the map is the least recently used one. `get` and `set` count as a
 * use; `has` and `peek` do not.
 */
export class Lru<K, V> {
  /** most entries kept; setting a new key beyond it evicts the least recently used */
  #capacity: number;
  readonly #map = new Map<K, V>();
  readonly #onEvict: ((key: K, value: V) => void) | undefined;

  /** `onEvict` is called with every entry dropped for room (not for delete() or a set() that replaces). */
  constructor(capacity: number, opts: { onEvict?: (key: K, value: V) => void } = {}) {
    checkCapacity(capacity);
    this.#capacity = capacity;
    this.#onEvict = opts.onEvict;
  }

  get capacity(): number {
    return this.#capacity;
  }

  /** Keep at most `capacity` entries from now on (a smaller one evicts the least recently used at once). */
  resize(capacity: number): void {
    checkCapacity(capacity);
    this.#capacity = capacity;
    while (this.#map.size > capacity) this.evictOldest();
  }

  /** Drop the least recently used entry (calling onEvict); false when empty. */
  evictOldest(): boolean {
    const next = this.#map.entries().next();
    if (next.done === true) return false;
    const [key, value] = next.value;
    this.#map.delete(key);
    this.#onEvict?.(key, value);
    return true;
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
    if (this.#map.size > this.#capacity) this.evictOldest();
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

function checkCapacity(capacity: number): void {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new TypeError(`Lru capacity must be a positive integer, got ${capacity}`);
  }
}
