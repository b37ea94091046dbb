import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pipeline } from 'node:stream/promises';
import iconv from 'iconv-lite';
import { parseBody } from '../src/parse/body.ts';
import { parseStage } from '../src/stages/parse.ts';
import type { CrawlItem, FetchResult } from '../src/types.ts';

function fetched(url: string, body: Buffer | null, over: Partial<FetchResult> = {}): CrawlItem {
  return {
    entry: { url, score: 1, depth: 0, parent: null },
    fetch: {
      url,
      finalUrl: url,
      redirects: [url],
      status: 200,
      headers: {},
      contentType: body === null ? 'image/png' : 'text/html',
      headerCharset: null,
      body,
      bytes: body?.length ?? 1234,
      truncated: false,
      fetchedAt: '2024-01-01T00:00:00.000Z',
      ms: 5,
      replay: false,
      ...over,
    },
  };
}

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const i of items) yield i;
}

async function collect(source: AsyncIterable<CrawlItem>): Promise<CrawlItem[]> {
  const out: CrawlItem[] = [];
  for await (const i of source) out.push(i);
  return out;
}

const GBK_HTML =
  '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"><title>财经频道</title></head>' +
  '<body><p>今日股市行情分析：' +
  '银行股领涨。'.repeat(50) +
  '<a href="/stock/600000.html">浦发银行</a></p></body></html>';

test('parseStage: GBK page labelled only in <meta>, decoded in small chunks; body dropped', async () => {
  const bytes = iconv.encode(GBK_HTML, 'gbk');
  const item = fetched('http://finance.example.cn/index.html', bytes, { finalUrl: 'http://finance.example.cn/zh/index.html' });
  const [out] = await collect(parseStage(from([item]), { chunkSize: 7, contextChars: 12 }));
  assert.equal(out, item);
  assert.equal(out.fetch!.body, null);
  const page = out.page!;
  assert.equal(page.charset, 'gbk');
  assert.equal(page.title, '财经频道');
  assert.match(page.blocks.content, /^今日股市行情分析：银行股领涨。/);
  assert.equal(page.links.length, 1);
  assert.equal(page.links[0].url, 'http://finance.example.cn/stock/600000.html');
  assert.equal(page.links[0].anchor, '浦发银行');
  assert.equal(page.links[0].context, '银行股领涨。银行股领涨。');
  // chunking does not change the result
  assert.deepEqual(parseBody(bytes, 'http://finance.example.cn/zh/index.html', null, { contextChars: 12 }), page);
});

test('parseStage: header charset wins; windows-1252 bytes 0x80-0x9F decode correctly', async () => {
  const latin = Buffer.from('<title>Caf\xe9 \x93Java\x94 \x97 1997</title><a href=x.html>na\xefve</a>', 'latin1');
  const [out] = await collect(parseStage(from([fetched('http://h.example/', latin, { headerCharset: 'iso-8859-1' })]), {}));
  assert.equal(out.page!.charset, 'windows-1252');
  assert.equal(out.page!.title, 'Café “Java” — 1997');
  assert.equal(out.page!.links[0].anchor, 'naïve');
});

test('parseStage: error items and items without body pass through unchanged, in order', async () => {
  const failed: CrawlItem = { entry: { url: 'http://down.example/', score: 1, depth: 1, parent: null }, error: { code: 'FC_NETWORK', message: 'refused' } };
  const withErrorAndBody = fetched('http://e.example/', Buffer.from('<a href=x>x</a>'));
  withErrorAndBody.error = { code: 'FC_ROBOTS_DISALLOWED', message: 'no' };
  const image = fetched('http://h.example/logo.png', null);
  const html = fetched('http://h.example/a.html', Buffer.from('<title>A</title>'));
  const snapshot = JSON.stringify([failed, withErrorAndBody, image]);
  const out = await collect(parseStage(from([failed, withErrorAndBody, image, html]), {}));
  assert.equal(JSON.stringify(out.slice(0, 3)), snapshot);
  assert.equal(out[0], failed);
  assert.equal(out[1].page, undefined);
  assert.ok(Buffer.isBuffer(out[1].fetch!.body), 'an item with an error keeps its body');
  assert.equal(out[2].page, undefined);
  assert.equal(out[3].page!.title, 'A');
  assert.equal(out[3].page!.charset, 'windows-1252');
});

test('parseStage works inside stream.pipeline', async () => {
  const items = ['a', 'b', 'c'].map((n) => fetched(`http://h.example/${n}.html`, Buffer.from(`<title>${n}</title><a href=${n}2.html>${n}</a>`)));
  const titles: string[] = [];
  await pipeline(from(items), (src: AsyncIterable<CrawlItem>) => parseStage(src, { maxLinks: 1 }), async (src: AsyncIterable<CrawlItem>) => {
    for await (const i of src) titles.push(`${i.page!.title}:${i.page!.links[0].url}`);
  });
  assert.deepEqual(titles, ['a:http://h.example/a2.html', 'b:http://h.example/b2.html', 'c:http://h.example/c2.html']);
});
