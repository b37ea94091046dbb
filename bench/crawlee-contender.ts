/**
 * The Crawlee contender of bench/side-by-side.ts: a `CheerioCrawler` doing the
 * work a link-following crawler must do (fetch through the proxy, parse the
 * HTML with cheerio, enqueue every `a[href]` with strategy 'all'), nothing
 * else: no robots.txt, no scoring, no dataset.
 *
 *   node --import tsx bench/crawlee-contender.ts --proxy URL --seed URL... --pages N
 *     [--concurrency 16] [--storage memory|persisted] [--same-domain-delay-s S]
 *
 * `--storage memory` runs on `MemoryStorage({ persistStorage: false })`;
 * `persisted` on Crawlee's default storage, which writes the request queue to
 * `CRAWLEE_STORAGE_DIR` (the caller sets it to a temporary directory).
 * Concurrency is pinned (minConcurrency = maxConcurrency) so the autoscaled
 * pool does not ramp up from 1. `--same-domain-delay-s` sets Crawlee's own
 * per-domain politeness (`sameDomainDelaySecs`, default 0: none). Prints one
 * JSON line on stdout:
 * `{"answered", "handled", "html", "failed", "statuses": {"200": n, ...}, "failures": {"reason": n}}`,
 * where `answered` counts requests that got any HTTP answer (handled pages,
 * plus pages refused for their Content-Type after the answer came) and `html`
 * the handled pages answered 200 with text/html. text/plain
 * is accepted besides Crawlee's HTML/XML/JSON types: the replay proxy's 404s
 * are text/plain.
 */
import { parseArgs } from 'node:util';
import { CheerioCrawler, Configuration, ProxyConfiguration, log, LogLevel } from '@crawlee/cheerio';
import { MemoryStorage } from '@crawlee/memory-storage';

/** What one Crawlee run did. */
interface ContenderResult {
  answered: number;
  handled: number;
  /** handled pages answered 200 with text/html */
  html: number;
  failed: number;
  statuses: Record<string, number>;
  failures: Record<string, number>;
}

/** A failure's reason without its URL, so failures group: `Content-Type text/plain`, `timeout`, ... */
function reason(message: string): string {
  const type = /served Content-Type ([^,\s]+)/.exec(message);
  if (type) return `Content-Type ${type[1]}`;
  return message.replace(/https?:\/\/\S+/g, 'URL').slice(0, 80);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      proxy: { type: 'string' },
      seed: { type: 'string', multiple: true },
      pages: { type: 'string' },
      concurrency: { type: 'string', default: '16' },
      storage: { type: 'string', default: 'memory' },
      'same-domain-delay-s': { type: 'string', default: '0' },
    },
    strict: true,
    allowPositionals: false,
  });
  const pages = Number(values.pages);
  const concurrency = Number(values.concurrency);
  const storage = values.storage;
  const delaySecs = Number(values['same-domain-delay-s']);
  if (
    !(delaySecs >= 0) || values.proxy === undefined || !values.seed?.length || !Number.isInteger(pages) || pages < 1 ||
    !Number.isInteger(concurrency) || concurrency < 1 || (storage !== 'memory' && storage !== 'persisted')
  ) {
    process.stderr.write('usage: node --import tsx bench/crawlee-contender.ts --proxy URL --seed URL... --pages N [--concurrency N] [--storage memory|persisted] [--same-domain-delay-s S]\n');
    return 2;
  }
  log.setLevel(LogLevel.ERROR);
  const config = storage === 'memory'
    ? new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false }) })
    : Configuration.getGlobalConfig();
  const result: ContenderResult = { answered: 0, handled: 0, html: 0, failed: 0, statuses: {}, failures: {} };
  const crawler = new CheerioCrawler(
    {
      proxyConfiguration: new ProxyConfiguration({ proxyUrls: [values.proxy] }),
      maxRequestsPerCrawl: pages,
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      sameDomainDelaySecs: delaySecs,
      // The replay proxy answers 404 in text/plain: accept it, so a 404 is a handled page as it is
      // for focuscrawl (Crawlee would otherwise fail it, with a logged stack trace, per URL).
      additionalMimeTypes: ['text/plain'],
      async requestHandler({ response, $, enqueueLinks }) {
        result.handled++;
        result.answered++;
        const status = response.statusCode ?? 0;
        result.statuses[status] = (result.statuses[status] ?? 0) + 1;
        if (status === 200 && /^text\/html/i.test(String(response.headers['content-type'] ?? ''))) result.html++;
        // $ exists for HTML and XML answers only.
        if ($ !== undefined) await enqueueLinks({ selector: 'a[href]', strategy: 'all' });
      },
      failedRequestHandler(_context, error) {
        result.failed++;
        const why = reason(error.message);
        if (why.startsWith('Content-Type')) result.answered++;
        result.failures[why] = (result.failures[why] ?? 0) + 1;
      },
    },
    config,
  );
  await crawler.run(values.seed);
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

process.exitCode = await main();
