/**
 * Crawl from code and consume the records: the bundled fixture web, served
 * offline by the replay proxy, crawled best-first for "solar energy".
 *
 *   node --import tsx examples/crawl-records.ts [MAX_PAGES]
 *
 * Prints one line per relevant page (relevance, title, URL), then the summary.
 */
import { fileURLToPath } from 'node:url';
import { crawl, createReplayServer, loadTopic } from 'focuscrawl';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const maxPages = Number(process.argv[2] ?? 40);

const replay = await createReplayServer({ warcs: [fixture('web.warc.gz')] });
try {
  const run = crawl({
    seeds: ['http://www.webdir.example/', 'http://news.example.cn/'],
    topic: await loadTopic(fixture('demo-topic.json')),
    proxy: replay.url, // every request goes to the archive, none to the network
    maxPages,
  });
  for await (const record of run) {
    if (record.type === 'page' && record.relevant) {
      console.log(`${record.relevance.toFixed(2)}  ${record.title ?? '-'}  ${record.url}`);
    }
  }
  const s = await run.summary;
  console.log(`summary: ${s.pages} pages, ${s.relevant} relevant, ${s.errors} errors (${s.stopped})`);
} finally {
  await replay.close();
}
