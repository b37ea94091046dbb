/** Small helpers for async iterables. */

/** The first `limit` items of `it` (closing it early when there are more). */
export async function firstN<T>(it: AsyncIterable<T>, limit: number): Promise<T[]> {
  const rows: T[] = [];
  if (limit <= 0) return rows;
  for await (const row of it) {
    rows.push(row);
    if (rows.length >= limit) break;
  }
  return rows;
}

/**
 * One waiter and its wake-up: the loop of a pulling stage sleeps in wait()
 * until a call, a pull or an abort has changed something and calls notify()
 * (a bound function, usable as a listener). A notify() with no one waiting
 * is dropped: the loop checks its state before it waits again.
 */
export class Wakeup {
  #wake: (() => void) | null = null;
  readonly notify = (): void => {
    const w = this.#wake;
    this.#wake = null;
    w?.();
  };

  wait(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }
}

/**
 * Demand-driven pulls from one source for the loop of a pulling stage
 * (mapConcurrent, mapOrdered, the fetch stage): pull() asks the source for
 * one item (the loop calls it only while no pull is `pending`); the item
 * goes to `onItem`, the end sets `done`, an error sets `done` and goes to
 * `onError`; each then wakes the loop with `notify`. close() ends a source
 * that is not done (the consumer stopped early).
 */
export class Puller<T> {
  pending = false;
  done = false;
  readonly #it: AsyncIterator<T>;
  readonly #onItem: (item: T) => void;
  readonly #onError: (err: unknown) => void;
  readonly #notify: () => void;

  constructor(source: AsyncIterable<T>, onItem: (item: T) => void, onError: (err: unknown) => void, notify: () => void) {
    this.#it = source[Symbol.asyncIterator]();
    this.#onItem = onItem;
    this.#onError = onError;
    this.#notify = notify;
  }

  pull(): void {
    this.pending = true;
    this.#it.next().then(
      (r) => {
        this.pending = false;
        if (r.done === true) this.done = true;
        else this.#onItem(r.value);
        this.#notify();
      },
      (err: unknown) => {
        this.pending = false;
        this.done = true;
        this.#onError(err);
        this.#notify();
      },
    );
  }

  close(): void {
    if (!this.done) void Promise.resolve(this.#it.return?.()).catch(() => {});
  }
}

/**
 * `fn` applied to every item of `source`, up to `limit` calls at once,
 * results in completion order. `fn` returns its result at once when it has
 * it (a quick call: a cached robots.txt verdict) and a promise only when it
 * must wait (a slow call: a robots.txt fetch). Pulling is driven by demand:
 * the source is pulled only while the consumer waits, no result is ready
 * and fewer than `limit` slow calls run. So quick calls pass one at a time
 * as the consumer asks (nothing is taken from the source ahead of need: a
 * crawl's frontier keeps choosing with the latest scores), and a slow call
 * makes it pull the next item at once, so slow calls do not hold up the
 * rest. An error from `source` or `fn` is thrown once the calls already
 * running have settled; when the consumer stops early, the source is
 * closed and running calls are left to settle unread.
 */
export async function* mapConcurrent<T, U>(source: AsyncIterable<T>, limit: number, fn: (item: T) => U | Promise<U>): AsyncGenerator<U> {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${limit}`);
  const results: U[] = [];
  let running = 0;
  let failure: { err: unknown } | null = null;
  const wakeup = new Wakeup();
  const notify = wakeup.notify;
  const run = (item: T): void => {
    let out: U | Promise<U>;
    try {
      out = fn(item);
    } catch (err) {
      failure ??= { err };
      return;
    }
    if (!(out instanceof Promise)) {
      results.push(out);
      return;
    }
    running++;
    out.then(
      (u) => results.push(u),
      (err: unknown) => (failure ??= { err }),
    ).finally(() => {
      running--;
      notify();
    });
  };
  // a quick call leaves its result to yield; a slow one lets the loop pull the next item now
  // (it once waited a setImmediate to tell them apart: one slow call started per event-loop turn)
  const src = new Puller(
    source,
    (item) => {
      if (failure === null) run(item);
    },
    (err) => (failure ??= { err }),
    notify,
  );
  try {
    for (;;) {
      if (results.length === 0 && !src.done && failure === null && !src.pending && running < limit) src.pull();
      if (results.length > 0) {
        yield results.shift() as U;
        continue;
      }
      if ((src.done || failure !== null) && !src.pending && running === 0) {
        if (failure !== null) throw (failure as { err: unknown }).err;
        return;
      }
      await wakeup.wait();
    }
  } finally {
    src.close();
  }
}

/**
 * `fn` applied to every item of `source`, results in the order of the
 * source: an ordered parallel map with at most `window` items taken and not
 * yet yielded (the bounded in-flight window is the backpressure). Pulling
 * is driven by demand as in the fetch stage: the source is pulled only
 * while the consumer waits for an item and fewer than `window` are held, so
 * with `window` 1 an item is taken only once the one before it has been
 * handed on and the consumer asks again (what a plain for-await stage does).
 * `fn` may return its result at once (no promise, no tick lost) or a
 * promise. An error from `source` or `fn` is thrown at once, in place of the
 * next result; results still pending are left to settle unread. When the
 * consumer stops early, the source is closed. `onWait`, when given, is
 * called each time the consumer is about to wait for the oldest item held
 * (taken, not yet finished): the parse workers send the pages they were
 * gathering into a batch then (src/parse/pool.ts).
 */
export async function* mapOrdered<T, U>(source: AsyncIterable<T>, window: number, fn: (item: T) => U | Promise<U>, onWait?: () => void): AsyncGenerator<U> {
  if (!Number.isInteger(window) || window < 1) throw new TypeError(`window must be a positive integer, got ${window}`);
  const held: { done: boolean; value?: U }[] = [];
  let failure: { err: unknown } | null = null;
  const wakeup = new Wakeup();
  const notify = wakeup.notify;
  const start = (item: T): void => {
    const slot: { done: boolean; value?: U } = { done: false };
    held.push(slot);
    let out: U | Promise<U>;
    try {
      out = fn(item);
    } catch (err) {
      failure ??= { err };
      return;
    }
    if (!(out instanceof Promise)) {
      slot.value = out;
      slot.done = true;
      return;
    }
    out.then(
      (v) => {
        slot.value = v;
        slot.done = true;
        notify();
      },
      (err: unknown) => {
        failure ??= { err };
        notify();
      },
    );
  };
  const src = new Puller(source, start, (err) => (failure ??= { err }), notify);
  try {
    for (;;) {
      if (failure !== null) throw (failure as { err: unknown }).err;
      if (!src.done && !src.pending && held.length < window) src.pull();
      if (held.length > 0 && held[0].done) {
        yield held.shift()!.value as U;
        continue;
      }
      if (src.done && !src.pending && held.length === 0) return;
      if (onWait !== undefined && held.length > 0) onWait();
      await wakeup.wait();
    }
  } finally {
    src.close();
  }
}
