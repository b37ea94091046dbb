/**
 * URLs taken from the frontier and not yet committed, plus a wake-up signal
 * the frontier source waits on: it wakes when a page is committed (new links,
 * a free page budget) or a host is released (politeness), or after a timeout.
 */
export class Inflight {
  readonly #urls = new Set<string>();
  #waiters = new Set<() => void>();
  #wakes = 0;

  get size(): number {
    return this.#urls.size;
  }

  has(url: string): boolean {
    return this.#urls.has(url);
  }

  add(url: string): void {
    this.#urls.add(url);
  }

  /** The URL was committed (or given up): forget it and wake the source. */
  delete(url: string): void {
    this.#urls.delete(url);
    this.wake();
  }

  /**
   * How many times wake() was called: read it before looking at the state,
   * pass it to wait(), and a wake-up in between is not lost.
   */
  get wakes(): number {
    return this.#wakes;
  }

  /** Wake everything waiting in wait(). */
  wake(): void {
    this.#wakes++;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const w of waiters) w();
  }

  /**
   * Resolve on the next wake(), or after `ms` (Infinity: only on wake); at
   * once when `since` (a {@link wakes} count read earlier) is behind, i.e.
   * a wake-up came after it was read.
   */
  wait(ms = Infinity, signal?: AbortSignal, since?: number): Promise<void> {
    if (since !== undefined && since !== this.#wakes) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.#waiters.delete(done);
        resolve();
      };
      if (Number.isFinite(ms)) timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
      this.#waiters.add(done);
    });
  }
}
