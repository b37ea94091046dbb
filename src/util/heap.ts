/** A binary min-heap ordered by `less`. */
export class MinHeap<T> {
  readonly #less: (a: T, b: T) => boolean;
  #items: T[] = [];

  constructor(less: (a: T, b: T) => boolean) {
    this.#less = less;
  }

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const a = this.#items;
    let i = a.push(item) - 1;
    while (i > 0) {
      const up = (i - 1) >>> 1;
      if (!this.#less(a[i], a[up])) break;
      [a[i], a[up]] = [a[up], a[i]];
      i = up;
    }
  }

  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      this.#down(0);
    }
    return top;
  }

  /** Keep only the items `keep` accepts (O(n)). */
  filter(keep: (item: T) => boolean): void {
    this.#items = this.#items.filter(keep);
    for (let i = (this.#items.length >>> 1) - 1; i >= 0; i--) this.#down(i);
  }

  #down(i: number): void {
    const a = this.#items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.#less(a[l], a[m])) m = l;
      if (r < a.length && this.#less(a[r], a[m])) m = r;
      if (m === i) return;
      [a[i], a[m]] = [a[m], a[i]];
      i = m;
    }
  }
}
