/**
 * Plug a scorer of your own into the crawler. This one keeps best-first's
 * page judge (the topic's TF-IDF relevance) and link scores, and adds a bonus
 * to links whose anchor text names the topic: those pages are fetched first.
 *
 *   node --import tsx examples/custom-scorer.ts [MAX_PAGES]
 *
 * Prints the strategy name, the harvest and the first five relevant pages.
 */
import { fileURLToPath } from 'node:url';
import { crawl, createReplayServer, createScorer, loadTopic, type Scorer } from 'focuscrawl';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const maxPages = Number(process.argv[2] ?? 40);

const topic = await loadTopic(fixture('demo-topic.json'));
const base = createScorer('best-first', topic);
const anchorWords = /solar|photovoltaic|太阳能|光伏/i;

const scorer: Scorer = {
  name: 'anchor-boost',
  pageRelevance: (page, item) => base.pageRelevance(page, item),
  linkScore: (link, page, relevance) => base.linkScore(link, page, relevance) + (anchorWords.test(link.anchor) ? 1 : 0),
};

const replay = await createReplayServer({ warcs: [fixture('web.warc.gz')] });
try {
  const run = crawl({ seeds: ['http://www.webdir.example/', 'http://news.example.cn/'], topic, scorer, proxy: replay.url, maxPages });
  const relevant: string[] = [];
  let strategy = '';
  for await (const record of run) {
    strategy = record.strategy;
    if (record.type === 'page' && record.relevant) relevant.push(record.url);
  }
  const s = await run.summary;
  console.log(`strategy: ${strategy}`);
  console.log(`harvest: ${s.relevant}/${s.pages}`);
  for (const url of relevant.slice(0, 5)) console.log(`relevant: ${url}`);
} finally {
  await replay.close();
}
