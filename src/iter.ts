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
