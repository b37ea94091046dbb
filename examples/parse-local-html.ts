/**
 * Reuse the parser on local HTML files: title, charset, links with their
 * context windows, and the topic's relevance judge, without any fetching.
 *
 *   node --import tsx examples/parse-local-html.ts [FILE.html...]
 *
 * Prints one JSON line per file.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScorer, loadTopic, parseHtml } from 'focuscrawl';

const here = path.dirname(fileURLToPath(import.meta.url));
const files = process.argv.length > 2
  ? process.argv.slice(2)
  : (await readdir(path.join(here, 'pages'))).filter((f) => f.endsWith('.html')).sort().map((f) => path.join(here, 'pages', f));

const topic = await loadTopic(path.join(here, '..', 'fixtures', 'demo-topic.json'));
const judge = createScorer('best-first', topic);

for (const file of files) {
  // The URL the page would have on its site resolves its relative links (a
  // file: URL would not: the parser keeps http(s) links only). The charset
  // comes from a BOM or <meta> (null: there is no Content-Type header).
  const url = new URL(path.basename(file), 'https://pages.example/').href;
  const page = parseHtml(await readFile(file), url, null);
  const relevance = judge.pageRelevance(page, { entry: { url, score: 0, depth: 0, parent: null } });
  console.log(JSON.stringify({
    file: path.basename(file),
    title: page.title,
    charset: page.charset,
    lang: page.lang,
    relevance: Math.round(relevance * 1000) / 1000,
    relevant: relevance >= topic.threshold,
    links: page.links.map((l) => ({ url: l.url, anchor: l.anchor })),
  }));
}
