/**
 * A string-keyed table in insertion order, as a `Map` is, for the store's
 * per-commit plan (src/store/level.ts) and the sink's links of a page:
 * made once and emptied for every use, so its arrays keep the size they
 * grew to. A `Map` per commit was made from scratch and grown by
 * rehashing as the commit's 30-odd operations, seen marks and links
 * arrived (~10 KB of a page's allocation, issue 23).
 *
 * Same behaviour as a Map for get / has / set / delete / size and the
 * order of iteration: a new key goes last, setting a key that is there
 * keeps its place, deleting one and setting it again puts it last.
 * Iteration is by position: `end` positions, each `live` or deleted.
 *
 * By default keys are hashed on their last 8 characters and their
 * length: the store's keys end in hex digits of an MD5 or a sequence
 * number, which differ there. Keys that may share their ends (URLs:
 * `.../index.html`) take `hashAll`, a hash of every character.
 */
const EMPTY = -1;
const GONE = -2;
/** by default clear() keeps tables of at most this many slots; larger ones start again small */
const KEEP_SLOTS = 4096;

export class KeyTable<V> {
  /** open addressing: a position (>= 0), EMPTY or GONE (deleted) */
  #slots: Int32Array;
  #mask: number;
  /** slots not EMPTY (live or GONE): the table grows before they fill it */
  #used = 0;
  #keys: string[] = [];
  #values: V[] = [];
  #live: Uint8Array;
  #end = 0;
  #size = 0;
  /** slots of a new or restarted table */
  readonly #initial: number;
  /** clear() keeps a table of at most this many slots */
  readonly #keep: number;
  readonly #hashAll: boolean;

  /**
   * @param capacity keys held before the table first grows
   * @param keepSlots clear() keeps a table grown to at most this many slots
   *   (twice the keys it held); a larger one starts again at `capacity`
   * @param hashAll hash every character of a key, not only the last 8
   */
  constructor(capacity = 32, keepSlots = KEEP_SLOTS, hashAll = false) {
    this.#hashAll = hashAll;
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.#initial = n;
    this.#keep = keepSlots;
    this.#slots = new Int32Array(n).fill(EMPTY);
    this.#mask = n - 1;
    this.#live = new Uint8Array(n);
  }

  /** Live keys. */
  get size(): number {
    return this.#size;
  }

  /** Positions 0..end-1 have been used since the last clear. */
  get end(): number {
    return this.#end;
  }

  live(i: number): boolean {
    return this.#live[i] === 1;
  }

  keyAt(i: number): string {
    return this.#keys[i]!;
  }

  valueAt(i: number): V {
    return this.#values[i]!;
  }

  has(key: string): boolean {
    return this.#slots[this.#find(key)]! >= 0;
  }

  get(key: string): V | undefined {
    const at = this.#slots[this.#find(key)]!;
    return at >= 0 ? this.#values[at] : undefined;
  }

  set(key: string, value: V): void {
    const slot = this.#find(key);
    const at = this.#slots[slot]!;
    if (at >= 0) {
      this.#values[at] = value;
      return;
    }
    if (this.#end >= this.#live.length || (this.#used + 1) * 2 > this.#slots.length) {
      this.#grow();
      this.set(key, value);
      return;
    }
    const i = this.#end++;
    this.#keys[i] = key;
    this.#values[i] = value;
    this.#live[i] = 1;
    this.#size++;
    // a GONE slot on the key's path is reused (find returned the EMPTY one after it)
    const reuse = this.#firstGone(key, slot);
    if (reuse < 0) this.#used++;
    this.#slots[reuse >= 0 ? reuse : slot] = i;
  }

  delete(key: string): boolean {
    const slot = this.#find(key);
    const at = this.#slots[slot]!;
    if (at < 0) return false;
    this.#slots[slot] = GONE;
    this.#live[at] = 0;
    this.#keys[at] = '';
    this.#values[at] = undefined as V;
    this.#size--;
    return true;
  }

  /** Empty the table, keeping its arrays (unless they grew past `keepSlots`). */
  clear(): void {
    if (this.#end === 0 && this.#used === 0) return;
    if (this.#slots.length > this.#keep) {
      // (a large batch, e.g. many seeds: not worth clearing per commit)
      this.#reset(this.#initial);
      return;
    }
    this.#slots.fill(EMPTY);
    this.#live.fill(0, 0, this.#end);
    // let go of the keys and values (the arrays keep their length)
    this.#keys.fill('', 0, this.#end);
    this.#values.fill(undefined as V, 0, this.#end);
    this.#end = 0;
    this.#used = 0;
    this.#size = 0;
  }

  /** The live keys in order (a new array). */
  keys(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.#end; i++) if (this.#live[i] === 1) out.push(this.#keys[i]!);
    return out;
  }

  /** The live values in order (a new array). */
  values(): V[] {
    const out: V[] = [];
    for (let i = 0; i < this.#end; i++) if (this.#live[i] === 1) out.push(this.#values[i]!);
    return out;
  }

  /** The slot holding `key`, or the EMPTY slot where its probe ended. */
  #find(key: string): number {
    const slots = this.#slots;
    const mask = this.#mask;
    let s = hash(key, this.#hashAll) & mask;
    for (;;) {
      const at = slots[s]!;
      if (at === EMPTY) return s;
      if (at >= 0 && this.#keys[at] === key) return s;
      s = (s + 1) & mask;
    }
  }

  /** The first GONE slot on `key`'s probe before `stop`, or -1. */
  #firstGone(key: string, stop: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    for (let s = hash(key, this.#hashAll) & mask; s !== stop; s = (s + 1) & mask) if (slots[s] === GONE) return s;
    return -1;
  }

  /** Twice the room, live entries kept in order (positions renumbered). */
  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    const live = this.#live;
    const end = this.#end;
    this.#reset(this.#slots.length * 2);
    for (let i = 0; i < end; i++) if (live[i] === 1) this.set(keys[i]!, values[i]!);
  }

  /** Fresh, empty arrays with room for `n` slots. */
  #reset(n: number): void {
    this.#slots = new Int32Array(n).fill(EMPTY);
    this.#mask = n - 1;
    this.#live = new Uint8Array(n);
    this.#keys = [];
    this.#values = [];
    this.#end = 0;
    this.#used = 0;
    this.#size = 0;
  }
}

/** A hash of the last 8 characters (`all`: of every character) and the length. */
function hash(key: string, all: boolean): number {
  const n = key.length;
  let h = n;
  for (let i = all || n <= 8 ? 0 : n - 8; i < n; i++) h = (Math.imul(h, 0x01000193) ^ key.charCodeAt(i)) | 0;
  return (h ^ (h >>> 15)) >>> 0;
}
