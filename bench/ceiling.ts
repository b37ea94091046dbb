/**
 * The ceiling contender of bench/crawl-bench.ts: the cheapest possible client
 * for a given URL list. A plain undici loop (`request` through
 * `ProxyAgent({ uri, proxyTunnel: false })`), N workers pulling the next URL,
 * each body read to its end and thrown away: no parsing, no scoring, no store,
 * no robots.txt, no politeness.
 *
 *   node --import tsx bench/ceiling.ts --proxy http://127.0.0.1:PORT --urls FILE [--concurrency 16] [--parse]
 *
 * FILE holds one URL a line. Prints one JSON line on stdout:
 * `{"fetched": n, "bytes": n, "errors": n, "statuses": {"200": n, ...}, "links": n}`
 * (a request that fails counts in `errors`, not in `fetched`).
 *
 * With --parse, each body is also decoded as UTF-8 and fed, chunk by chunk,
 * to an htmlparser2 SAX parser that counts the `href`s of `a` tags (`links`):
 * the least any crawler built on htmlparser2 does with a page, so its speed
 * bounds what such a crawler can reach on this machine.
 * Exit code 0, or 2 on bad arguments.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Parser } from 'htmlparser2';
import { ProxyAgent, request } from 'undici';

/** What one ceiling run did. */
interface CeilingResult {
  fetched: number;
  bytes: number;
  errors: number;
  statuses: Record<string, number>;
  /** `a href`s seen (--parse only) */
  links: number;
}

/** Fetch every URL of `urls` through `proxy` with `concurrency` requests in flight, reading each body fully. */
async function fetchAll(urls: readonly string[], proxy: string, concurrency: number, parse: boolean): Promise<CeilingResult> {
  const dispatcher = new ProxyAgent({ uri: proxy, proxyTunnel: false });
  const result: CeilingResult = { fetched: 0, bytes: 0, errors: 0, statuses: {}, links: 0 };
  const onopentag = (name: string, attrs: Record<string, string>): void => {
    if (name === 'a' && attrs.href !== undefined) result.links++;
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < urls.length) {
      const url = urls[next++];
      try {
        const { statusCode, body } = await request(url, { dispatcher });
        const decoder = parse ? new TextDecoder() : null;
        const parser = parse ? new Parser({ onopentag }, { decodeEntities: true }) : null;
        for await (const chunk of body) {
          result.bytes += (chunk as Buffer).length;
          if (parser !== null) parser.write(decoder!.decode(chunk as Buffer, { stream: true }));
        }
        if (parser !== null) parser.end(decoder!.decode());
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
      parse: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const concurrency = Number(values.concurrency);
  if (values.proxy === undefined || values.urls === undefined || !Number.isInteger(concurrency) || concurrency < 1) {
    process.stderr.write('usage: node --import tsx bench/ceiling.ts --proxy URL --urls FILE [--concurrency N] [--parse]\n');
    return 2;
  }
  const urls = (await readFile(values.urls, 'utf8')).split('\n').filter((line) => line !== '');
  const result = await fetchAll(urls, values.proxy, concurrency, values.parse === true);
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

process.exitCode = await main();
