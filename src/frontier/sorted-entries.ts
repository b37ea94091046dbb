/**
 * A list of frontier entries sorted by key, for the frontier head's buffer
 * and window (src/frontier/head.ts): what a sorted array gives (position,
 * binary search, insert and remove at a position), stored as a list of
 * short runs. Inserting into or removing from one array of 4,096 entries
 * moved on average half of them (`Array.prototype.splice` moves object
 * pointers one by one, ~0.5 ns each: ~1 µs a call, 1.6–2.3% of a
 * best-first crawl's CPU); here it moves at most one run of
 * {@link RUN_MAX}. Positions are global, as in the array; looking one up
 * walks the runs, but a walk goes on from the last one looked up, so a
 * scan from the front costs what an array's does.
 */
import type { KeyedEntry } from './head.ts';

/** A run longer than this is split in two. */
export const RUN_MAX = 64;
/** A run shorter than this is merged into a neighbour when both fit in one. */
const RUN_MIN = RUN_MAX / 4;

export class SortedEntries {
  /** the runs, in key order; none is empty */
  #runs: KeyedEntry[][] = [];
  #length = 0;
  /** the last run a position was found in, and the position of its first entry */
  #at = 0;
  #atStart = 0;

  get length(): number {
    return this.#length;
  }

  /** The entry at position `i`, undefined outside [0, length). */
  at(i: number): KeyedEntry | undefined {
    if (i < 0 || i >= this.#length) return undefined;
    const r = this.#find(i);
    return this.#runs[r]![i - this.#atStart];
  }

  /** The last entry (the worst). */
  last(): KeyedEntry | undefined {
    const run = this.#runs[this.#runs.length - 1];
    return run === undefined ? undefined : run[run.length - 1];
  }

  /** Where `key` is, or would go (the first position whose key is not below it). */
  search(key: string): number {
    const runs = this.#runs;
    // the first run whose last key is not below `key`
    let lo = 0;
    let hi = runs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const run = runs[mid]!;
      if (run[run.length - 1]!.key < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo === runs.length) return this.#length;
    const run = runs[lo]!;
    let a = 0;
    let b = run.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (run[mid]!.key < key) a = mid + 1;
      else b = mid;
    }
    return this.#startOf(lo) + a;
  }

  /** Insert `ke` at position `i` (0..length); the caller keeps the order. */
  insert(i: number, ke: KeyedEntry): void {
    if (i < 0 || i > this.#length) throw new RangeError(`no position ${i} in ${this.#length}`);
    if (this.#runs.length === 0) {
      this.#runs.push([ke]);
      this.#length = 1;
      this.#reset();
      return;
    }
    let r: number;
    let at: number;
    if (i === this.#length) {
      // at the end: into the last run
      r = this.#runs.length - 1;
      at = this.#runs[r]!.length;
    } else {
      r = this.#find(i);
      at = i - this.#atStart;
    }
    const run = this.#runs[r]!;
    run.push(ke);
    for (let j = run.length - 1; j > at; j--) run[j] = run[j - 1]!;
    run[at] = ke;
    this.#length++;
    if (run.length > RUN_MAX) {
      this.#runs.splice(r + 1, 0, run.splice(run.length >>> 1));
      this.#reset();
    }
  }

  /** Append `ke`: its key must be above every key held (else it is inserted in order). */
  push(ke: KeyedEntry): void {
    const last = this.last();
    if (last !== undefined && !(last.key < ke.key)) {
      this.insert(this.search(ke.key), ke);
      return;
    }
    const run = this.#runs[this.#runs.length - 1];
    if (run === undefined || run.length >= RUN_MAX) this.#runs.push([ke]);
    else run.push(ke);
    this.#length++;
  }

  /** Remove and return the entry at position `i` (0..length-1). */
  removeAt(i: number): KeyedEntry {
    if (i < 0 || i >= this.#length) throw new RangeError(`no entry at ${i} of ${this.#length}`);
    const r = this.#find(i);
    const run = this.#runs[r]!;
    const at = i - this.#atStart;
    const ke = run[at]!;
    for (let j = at; j < run.length - 1; j++) run[j] = run[j + 1]!;
    run.pop();
    this.#length--;
    this.#settle(r);
    this.#reset();
    return ke;
  }

  /** Remove and return the last entry. */
  pop(): KeyedEntry | undefined {
    const run = this.#runs[this.#runs.length - 1];
    if (run === undefined) return undefined;
    const ke = run.pop()!;
    this.#length--;
    if (run.length === 0) this.#runs.pop();
    this.#reset();
    return ke;
  }

  /** Remove and return up to `count` entries from position `start` (clamped to the list), in order. */
  removeRange(start: number, count: number): KeyedEntry[] {
    const from = Math.max(0, Math.min(start, this.#length));
    const end = Math.min(this.#length, from + Math.max(0, count));
    const out: KeyedEntry[] = [];
    if (end <= from) return out;
    let r = this.#find(from);
    let at = from - this.#atStart;
    let left = end - from;
    while (left > 0) {
      const run = this.#runs[r]!;
      const take = Math.min(left, run.length - at);
      for (const ke of run.splice(at, take)) out.push(ke);
      left -= take;
      this.#length -= take;
      if (run.length === 0) this.#runs.splice(r, 1);
      else r++;
      at = 0;
    }
    // the cut may leave short runs at its two ends
    const runs = this.#runs;
    for (let q = 0; q + 1 < runs.length; ) {
      if ((runs[q]!.length < RUN_MIN || runs[q + 1]!.length < RUN_MIN) && runs[q]!.length + runs[q + 1]!.length <= RUN_MAX) {
        for (const ke of runs[q + 1]!) runs[q]!.push(ke);
        runs.splice(q + 1, 1);
      } else {
        q++;
      }
    }
    this.#reset();
    return out;
  }

  /** Remove every entry. */
  clear(): void {
    this.#runs = [];
    this.#length = 0;
    this.#reset();
  }

  /** The entries in order, as a new array. */
  toArray(): KeyedEntry[] {
    const out: KeyedEntry[] = [];
    for (const run of this.#runs) for (const ke of run) out.push(ke);
    return out;
  }

  *[Symbol.iterator](): IterableIterator<KeyedEntry> {
    for (const run of this.#runs) yield* run;
  }

  /** The run holding position `i` (< length); sets #at and #atStart to it. */
  #find(i: number): number {
    let r = this.#at;
    let start = this.#atStart;
    if (i < start) {
      r = 0;
      start = 0;
    }
    const runs = this.#runs;
    while (i >= start + runs[r]!.length) {
      start += runs[r]!.length;
      r++;
    }
    this.#at = r;
    this.#atStart = start;
    return r;
  }

  /** The position of run `r`'s first entry. */
  #startOf(r: number): number {
    if (r === this.#at) return this.#atStart;
    let start = 0;
    let from = 0;
    if (r > this.#at) {
      from = this.#at;
      start = this.#atStart;
    }
    for (let q = from; q < r; q++) start += this.#runs[q]!.length;
    this.#at = r;
    this.#atStart = start;
    return start;
  }

  /** After run `r` shrank: drop it when empty, or merge a short one into a neighbour. */
  #settle(r: number): void {
    const runs = this.#runs;
    const run = runs[r]!;
    if (run.length === 0) {
      runs.splice(r, 1);
      return;
    }
    if (run.length >= RUN_MIN) return;
    const next = runs[r + 1];
    if (next !== undefined && run.length + next.length <= RUN_MAX) {
      for (const ke of next) run.push(ke);
      runs.splice(r + 1, 1);
      return;
    }
    const prev = runs[r - 1];
    if (prev !== undefined && prev.length + run.length <= RUN_MAX) {
      for (const ke of run) prev.push(ke);
      runs.splice(r, 1);
    }
  }

  #reset(): void {
    this.#at = 0;
    this.#atStart = 0;
  }
}
