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
 * `fn` applied to every item of `source`, up to `limit` calls at once,
 * results in completion order. Pulling is driven by demand: the source is
 * pulled only while the consumer waits, no result is ready and fewer than
 * `limit` calls run. So when `fn` is quick, items pass one at a time as the
 * consumer asks (nothing is taken from the source ahead of need: a crawl's
 * frontier keeps choosing with the latest scores); only slow calls (a
 * robots.txt fetch) make it pull more, so they do not hold up the rest. An error from `source` or `fn` is thrown once
 * the calls already running have settled; when the consumer stops early,
 * the source is closed and running calls are left to settle unread.
 */
export async function* mapConcurrent<T, U>(source: AsyncIterable<T>, limit: number, fn: (item: T) => Promise<U>): AsyncGenerator<U> {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${limit}`);
  const it = source[Symbol.asyncIterator]();
  const results: U[] = [];
  let running = 0;
  let pulling = false;
  let sourceDone = false;
  let failure: { err: unknown } | null = null;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const run = (item: T): void => {
    running++;
    fn(item).then(
      (u) => results.push(u),
      (err: unknown) => (failure ??= { err }),
    ).finally(() => {
      running--;
      notify();
    });
  };
  const pull = (): void => {
    pulling = true;
    it.next().then(
      (r) => {
        pulling = false;
        if (r.done === true) {
          sourceDone = true;
          notify();
        } else if (failure === null) {
          run(r.value);
          // let a quick call finish first: only a slow one should make us pull more
          setImmediate(notify);
        } else notify();
      },
      (err: unknown) => {
        pulling = false;
        sourceDone = true;
        failure ??= { err };
        notify();
      },
    );
  };
  try {
    for (;;) {
      if (results.length === 0 && !sourceDone && failure === null && !pulling && running < limit) pull();
      if (results.length > 0) {
        yield results.shift() as U;
        continue;
      }
      if ((sourceDone || failure !== null) && !pulling && running === 0) {
        if (failure !== null) throw (failure as { err: unknown }).err;
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    if (!sourceDone) void Promise.resolve(it.return?.()).catch(() => {});
  }
}
