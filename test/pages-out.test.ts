/**
 * --pages-out: docs/algorithms.md#page-repository (src/stages/pages-out.ts): each
 * kept body saved as DIR/ab/<md5 of the URL>, written atomically.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PageStore, pageFileName, pageFilePath, pagesOutStage } from '../src/stages/pages-out.ts';
import type { CrawlItem, FetchResult } from '../src/types.ts';
import { fixtureReplay, parseLines, ROOT, tempDir, runMain } from './helpers/cli.ts';

test("pageFileName is the MD5 of the URL as 32 hex characters (Zou et al.'s example, docs/algorithms.md#page-repository)", () => {
  assert.equal(pageFileName('http://www.scu.edu.cn/'), '355bd40a1cffbb871d1fce0048a19972');
  assert.equal(pageFilePath('/x', 'http://www.scu.edu.cn/'), path.join('/x', '35', '355bd40a1cffbb871d1fce0048a19972'));
  assert.equal(pageFileName('http://例子.example/路径'), createHash('md5').update('http://例子.example/路径', 'utf8').digest('hex'));
});

test('PageStore.save writes the bytes under dir/ab/md5, replaces an earlier file, leaves no temp file', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const store = await PageStore.create(path.join(dir, 'pages'));
  const url = 'http://a.example/p';
  const gbk = Buffer.from([0xc4, 0xe3, 0xba, 0xc3]); // bytes as received, not re-encoded
  const file = await store.save(url, gbk);
  assert.equal(file, pageFilePath(path.join(dir, 'pages'), url));
  assert.deepEqual(await readFile(file), gbk);
  await store.save(url, Buffer.from('second'));
  assert.equal((await readFile(file)).toString(), 'second');
  assert.deepEqual(await readdir(path.dirname(file)), [path.basename(file)], 'no temp files left');
  assert.equal(store.pages, 2);
  await store.save('http://a.example/empty', Buffer.alloc(0));
  assert.equal((await readFile(pageFilePath(store.dir, 'http://a.example/empty'))).length, 0);
});

test('PageStore: an unusable directory is FC_PAGES_OUT, at creation and on a failed write', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const file = path.join(dir, 'f');
  await writeFile(file, 'x');
  await assert.rejects(PageStore.create(file), { code: 'FC_PAGES_OUT' });
  const store = await PageStore.create(path.join(dir, 'ok'));
  const url = 'http://a.example/';
  // the fan-out subdirectory is taken by a file: the write fails with the coded error
  await writeFile(path.dirname(pageFilePath(store.dir, url)), 'in the way');
  await assert.rejects(store.save(url, Buffer.from('x')), { code: 'FC_PAGES_OUT' });
});

test('pagesOutStage saves items with a body before yielding them, then drops the body', async () => {
  const saved: string[] = [];
  const order: string[] = [];
  const store = {
    save: async (url: string, body: Buffer): Promise<string> => {
      saved.push(`${url}=${body.toString()}`);
      order.push(`save ${url}`);
      return url;
    },
  };
  const fetch = (body: Buffer | null): FetchResult => ({
    url: 'x', finalUrl: 'x', redirects: [], status: 200, headers: {}, contentType: 'text/html', headerCharset: null,
    body, bytes: body?.length ?? 0, truncated: false, fetchedAt: '', ms: 0, replay: false,
  });
  const items: CrawlItem[] = [
    { entry: { url: 'http://a.example/1', score: 0, depth: 0, parent: null }, fetch: fetch(Buffer.from('one')) },
    { entry: { url: 'http://a.example/2', score: 0, depth: 0, parent: null }, fetch: fetch(null) },
    { entry: { url: 'http://a.example/3', score: 0, depth: 0, parent: null }, error: { code: 'FC_NETWORK', message: 'x' } },
  ];
  async function* source(): AsyncGenerator<CrawlItem> {
    yield* items;
  }
  for await (const item of pagesOutStage(source(), { store })) {
    order.push(`yield ${item.entry.url}`);
    if (item.fetch) assert.equal(item.fetch.body, null);
  }
  assert.deepEqual(saved, ['http://a.example/1=one']);
  assert.deepEqual(order, ['save http://a.example/1', 'yield http://a.example/1', 'yield http://a.example/2', 'yield http://a.example/3']);
});

test('crawl --pages-out: every page with a kept body has its file, the bytes the record counts', async (t) => {
  const { url: proxy, dir } = await fixtureReplay(t);
  const out = path.join(dir, 'pages');
  const r = await runMain(['crawl', '--seeds', path.join(ROOT, 'fixtures', 'demo-seeds.txt'), '--topic', path.join(ROOT, 'fixtures', 'demo-topic.json'),
    '--proxy', proxy, '--store', path.join(dir, 'store'), '--max-pages', '60', '--pages-out', out, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const pages = parseLines(r.stdout).filter((x) => x.type === 'page');
  assert.equal(pages.length, 60);
  let files = 0;
  for (const p of pages) {
    const file = pageFilePath(out, p.url);
    if (p.contentType === 'text/html') {
      const body = await readFile(file);
      assert.equal(body.length, p.bytes, p.url);
      assert.match(body.subarray(0, 2000).toString('latin1'), /<html|<!doctype/i, p.url);
      files++;
    } else {
      await assert.rejects(readFile(file), { code: 'ENOENT' }, `${p.url}: ${p.contentType} body was not kept`);
    }
  }
  assert.ok(files >= 40);
  // fan-out: only two-hex-digit subdirectories, each holding names that start with them
  let total = 0;
  for (const sub of await readdir(out)) {
    assert.match(sub, /^[0-9a-f]{2}$/);
    for (const name of await readdir(path.join(out, sub))) {
      assert.match(name, new RegExp(`^${sub}[0-9a-f]{30}$`));
      total++;
    }
  }
  assert.equal(total, files);
});
