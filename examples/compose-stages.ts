/**
 * Compose the stages yourself with stream.pipeline: fetch a fixed list of
 * URLs (no frontier, no store), parse and judge them, print the records as
 * NDJSON. The parse stage runs as a Duplex stream to show `Duplex.from`.
 *
 *   node --import tsx examples/compose-stages.ts [URL...]
 */
import { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createReplayServer, createRobotsCache, createScorer, HttpClient, loadTopic, stages, type CrawlItem } from 'focuscrawl';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const urls = process.argv.length > 2 ? process.argv.slice(2) : [
  'http://www.webdir.example/',
  'http://news.example.cn/',
  'http://www.webdir.example/no-such-page',
];

const replay = await createReplayServer({ warcs: [fixture('web.warc.gz')] });
const client = new HttpClient({ proxy: replay.url });
const scorer = createScorer('best-first', await loadTopic(fixture('demo-topic.json')));
try {
  await pipeline(
    stages.fromUrls(urls),
    (src: AsyncIterable<CrawlItem>) => stages.robots(src, { robots: createRobotsCache(client) }),
    (src: AsyncIterable<CrawlItem>) => stages.fetch(src, { client, concurrency: 4, maxBytes: 1024 * 1024 }),
    Duplex.from((src: AsyncIterable<CrawlItem>) => stages.parse(src)),
    (src: AsyncIterable<CrawlItem>) => stages.classify(src, { scorer, threshold: 0.2 }),
    // stages are plain async-generator functions: they also nest as calls
    async (items: AsyncIterable<CrawlItem>) => {
      for await (const record of stages.toRecords(items, { strategy: scorer.name })) process.stdout.write(`${JSON.stringify(record)}\n`);
    },
  );
} finally {
  await client.close();
  await replay.close();
}
