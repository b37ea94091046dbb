/**
 * The ceiling contender of bench/crawl-bench.ts: the cheapest possible client
 * for a given URL list. A plain undici loop (`request` through
 * `ProxyAgent({ uri, proxyTunnel: false })`), N workers pulling the next URL,
 * each body read to its end and thrown away: no parsing, no scoring, no store,
 * no robots.txt, no politeness.
 *
 *   node --import tsx bench/ceiling.ts --proxy http://127.0.0.1:PORT --urls FILE [--concurrency 16]
 *
 * FILE holds one URL a line. Prints one JSON line on stdout:
 * `{"fetched": n, "bytes": n, "errors": n, "statuses": {"200": n, ...}}`
 * (a request that fails counts in `errors`, not in `fetched`).
 * Exit code 0, or 2 on bad arguments.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ProxyAgent, request } from 'undici';

/** What one ceiling run did. */
interface CeilingResult {
  fetched: number;
  bytes: number;
  errors: number;
  statuses: Record<string, number>;
}

/** Fetch every URL of `urls` through `proxy` with `concurrency` requests in flight, reading each body fully. */
async function fetchAll(urls: readonly string[], proxy: string, concurrency: number): Promise<CeilingResult> {
  const dispatcher = new ProxyAgent({ uri: proxy, proxyTunnel: false });
  const result: CeilingResult = { fetched: 0, bytes: 0, errors: 0, statuses: {} };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < urls.length) {
      const url = urls[next++];
      try {
        const { statusCode, body } = await request(url, { dispatcher });
        for await (const chunk of body) result.bytes += (chunk as Buffer).length;
        result.fetched++;
        result.statuses[statusCode] = (result.statuses[statusCode] ?? 0) + 1;
      } catch {
        result.errors++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  } finally {
    await dispatcher.close();
  }
  return result;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      proxy: { type: 'string' },
      urls: { type: 'string' },
      concurrency: { type: 'string', default: '16' },
    },
    strict: true,
    allowPositionals: false,
  });
  const concurrency = Number(values.concurrency);
  if (values.proxy === undefined || values.urls === undefined || !Number.isInteger(concurrency) || concurrency < 1) {
    process.stderr.write('usage: node --import tsx bench/ceiling.ts --proxy URL --urls FILE [--concurrency N]\n');
    return 2;
  }
  const urls = (await readFile(values.urls, 'utf8')).split('\n').filter((line) => line !== '');
  const result = await fetchAll(urls, values.proxy, concurrency);
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

process.exitCode = await main();
