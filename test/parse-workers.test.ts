import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { parseBody } from '../src/parse/body.ts';
import { ParsePool } from '../src/parse/pool.ts';
import { parseWorkersStage } from '../src/stages/parse-workers.ts';
import { mapOrdered } from '../src/util/iter.ts';
import { pageFingerprint } from '../src/stages/dedup.ts';
import { fingerprintToHex } from '../src/relevance/simhash.ts';
import { PAGE_TERM_FREQ, pageTermCounts, TopicModel } from '../src/relevance/topic.ts';
import type { CrawlItem } from '../src/types.ts';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { checkStoreCounts } from './helpers/records.ts';
import { BIN, ROOT, fixtureReplay, parseLines, runMainEach, spawnCli } from './helpers/cli.ts';
import { serve } from './helpers/serve.ts';
import { Writable } from 'node:stream';
import { runCrawl } from '../src/pipeline.ts';
import { loopbackLookup } from '../src/fetch/lookup.ts';

const PAGE = Buffer.from('<html><head><title>Solar cells</title></head><body><nav><a href="/menu">Menu</a></nav>' +
  '<p>Photovoltaic <a href="/pv" rel="nofollow">panels</a> convert light. <a href="http://other.example/x">more</a></p></body></html>');

function item(url: string, body: Buffer | null, error?: CrawlItem['error']): CrawlItem {
  return {
    entry: { url, score: 1, depth: 0, parent: null },
    ...(error ? { error } : {}),
    fetch: {
      url, finalUrl: url, redirects: [url], status: 200, headers: {}, contentType: 'text/html', headerCharset: null,
      body, bytes: body?.length ?? 0, truncated: false, fetchedAt: '2024-01-01T00:00:00.000Z', ms: 1, replay: false,
    },
  };
}

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const i of items) yield i;
}

test('mapOrdered keeps the source order, holds at most `window`, and with window 1 takes an item only when asked', async () => {
  let taken = 0;
  async function* counted(): AsyncGenerator<number> {
    for (let i = 0; i < 6; i++) {
      taken++;
      yield i;
    }
  }
  let held = 0;
  let maxHeld = 0;
  const out: number[] = [];
  // later items finish first: order must still be the source's
  for await (const v of mapOrdered(counted(), 3, async (i) => {
    held++;
    maxHeld = Math.max(maxHeld, held);
    await new Promise((r) => setTimeout(r, (6 - i) * 3));
    held--;
    return i * 10;
  })) out.push(v);
  assert.deepEqual(out, [0, 10, 20, 30, 40, 50]);
  assert.equal(maxHeld, 3);

  taken = 0;
  const it = mapOrdered(counted(), 1, async (i) => i);
  assert.deepEqual(await it.next(), { value: 0, done: false });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(taken, 1, 'nothing taken ahead of the consumer at window 1');
  await it.return(undefined);
});

test('a pool parses as parseBody does; a parse that throws and a worker that dies give coded errors', async () => {
  const pool = new ParsePool({ size: 2, parse: { contextChars: 20 }, faults: true });
  try {
    const url = 'http://a.example/dir/page';
    assert.deepEqual(await pool.parse(PAGE, url, null), { page: parseBody(PAGE, url, null, { contextChars: 20 }) });
    // a GBK body in the shared 8 KiB Buffer pool: it is copied, the pool's other bytes untouched
    const small = Buffer.from('<meta charset="gbk"><title>\xc4\xe3\xba\xc3</title>', 'latin1');
    const before = Buffer.from(small.buffer).toString('latin1');
    const gbk = await pool.parse(small, url, null);
    assert.ok('page' in gbk);
    assert.equal(gbk.page.title, '你好');
    assert.equal(Buffer.from(small.buffer).toString('latin1'), before);
    assert.deepEqual(await pool.parse(PAGE, 'http://a.example/throw', null), { error: { code: 'FC_INTERNAL', message: 'parse fault injected for http://a.example/throw' } });
    const [crashed, after] = await Promise.all([pool.parse(PAGE, 'http://a.example/crash', null), pool.parse(PAGE, url, null)]);
    assert.equal('error' in crashed && crashed.error.code, 'FC_WORKER_CRASH');
    assert.ok(pool.restarts >= 2, `${pool.restarts} restarts`);
    assert.ok('page' in after, 'a page queued behind the crash is parsed by the new worker');
  } finally {
    await pool.close();
  }
  assert.deepEqual(await pool.parse(PAGE, 'http://a.example/', null), { error: { code: 'FC_INTERNAL', message: 'the parse workers were closed' } });
});

// Each page used to be a message of its own to the worker; waking the sleeping worker cost the main
// thread ~0.25 ms of CPU a message on the 2-core VM (docs/results/workers.md): pages now go in batches.
test('a pool sends the pages asked for together in one message; a page short of a batch leaves on starved(), or on its own', async () => {
  const pool = new ParsePool({ size: 1, parse: { contextChars: 20 }, minBatch: 4 });
  try {
    const url = (i: number) => `http://a.example/p${i}`;
    const want = (i: number) => ({ page: parseBody(PAGE, url(i), null, { contextChars: 20 }) });
    assert.deepEqual(await Promise.all([0, 1, 2, 3].map((i) => pool.parse(PAGE, url(i), null))), [0, 1, 2, 3].map(want));
    assert.deepEqual(pool.sent, { batches: 1, pages: 4 });
    const two = Promise.all([4, 5].map((i) => pool.parse(PAGE, url(i), null)));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(pool.sent, { batches: 1, pages: 4 }, 'two pages of a batch of four wait');
    pool.starved();
    assert.deepEqual(pool.sent, { batches: 2, pages: 6 }, 'starved() sends them at once');
    assert.deepEqual(await two, [4, 5].map(want));
    // nobody calls starved(): the page still leaves, on a timer
    assert.deepEqual(await pool.parse(PAGE, url(6), null), want(6));
    assert.deepEqual(pool.sent, { batches: 3, pages: 7 });
  } finally {
    await pool.close();
  }
});

test('a worker that dies in a batch: the page it was parsing is tried once more, the others are parsed', async () => {
  const pool = new ParsePool({ size: 1, minBatch: 4, faults: true });
  try {
    const urls = ['http://a.example/1', 'http://a.example/crash', 'http://a.example/2', 'http://a.example/throw'];
    const out = await Promise.all(urls.map((u) => pool.parse(PAGE, u, null)));
    assert.equal(pool.sent.batches >= 3, true, `${pool.sent.batches} batches`);
    assert.deepEqual(out[0], { page: parseBody(PAGE, urls[0], null) });
    assert.equal('error' in out[1] && out[1].error.code, 'FC_WORKER_CRASH');
    assert.deepEqual(out[2], { page: parseBody(PAGE, urls[2], null) });
    assert.equal('error' in out[3] && out[3].error.code, 'FC_INTERNAL');
    assert.equal(pool.restarts, 2);
  } finally {
    await pool.close();
  }
});

test('a pool computes the near-duplicate SimHash the dedup stage would, when asked', async () => {
  const pool = new ParsePool({ size: 1, fingerprint: { minTokens: 5, segmenter: 'node-rs' } });
  try {
    const zh = Buffer.from('<title>太阳能</title><p>太阳能电池把光变成电。光伏板装在屋顶上，晴天发电最多。</p><p>Solar panels on roofs make power.</p>');
    for (const body of [PAGE, zh]) {
      const url = 'http://a.example/';
      const want = pageFingerprint(parseBody(body, url, null), 5);
      assert.ok(want !== null);
      const got = await pool.parse(body, url, null, true);
      assert.ok('page' in got);
      assert.equal(got.simhash, fingerprintToHex(want));
      assert.equal(Object.hasOwn(await pool.parse(body, url, null), 'simhash'), false, 'not asked: not computed');
    }
  } finally {
    await pool.close();
  }
});

test('a pool counts the judge\'s terms of each page; the judge takes them and judges as it would have', async () => {
  const pool = new ParsePool({ size: 1, termCounts: 'node-rs', fingerprint: { minTokens: 5, segmenter: 'node-rs' } });
  try {
    const zh = Buffer.from('<title>太阳能</title><h1>Solar</h1><p>太阳能电池把光变成电。光伏板装在屋顶上，晴天发电最多。</p><p>Solar panels on roofs make power.</p>');
    const topic = { name: 'solar', terms: ['solar', '太阳能', 'photovoltaic'], threshold: 0.2 };
    const here = new TopicModel(topic);
    const there = new TopicModel(topic);
    for (const [i, body] of [PAGE, zh, PAGE].entries()) {
      const url = `http://a.example/${i}`;
      const page = parseBody(body, url, null);
      const got = await pool.parse(body, url, null, i === 1);
      assert.ok('page' in got && got.terms !== undefined);
      assert.deepEqual(got.terms, pageTermCounts(page, 'node-rs'));
      const items = [];
      for await (const it of parseWorkersStage(from([item(url, body)]), { pool, window: 1 })) items.push(it);
      assert.deepEqual(items[0].page![PAGE_TERM_FREQ as never], got.terms, 'the stage hands them on with the page');
      assert.equal(there.judge(items[0].page!), here.judge(page), 'same relevance, same IDF table after');
    }
    // read, not recomputed: counts that say otherwise change the verdict
    const page = parseBody(PAGE, 'http://a.example/', null);
    const plain = new TopicModel(topic).judge(page);
    Object.assign(page, { [PAGE_TERM_FREQ]: { segmenter: 'node-rs', terms: ['solar'], counts: new Float64Array([3]) } });
    assert.notEqual(new TopicModel(topic).judge(page), plain);
    assert.equal(new TopicModel(topic, { segmenter: { name: 'mine', cut: (t: string) => [t] } }).pageTermFreq(page).has('photovoltaic'), true, 'another segmenter splits the page itself');
  } finally {
    await pool.close();
  }
});

test('parseWorkersStage: items leave in order; error items and null bodies pass through; bodies dropped unless kept', async () => {
  const pool = new ParsePool({ size: 2 });
  try {
    const items = [
      item('http://a.example/1', PAGE),
      item('http://a.example/2', null),
      item('http://a.example/3', PAGE, { code: 'FC_TIMEOUT', message: 'slow' }),
      ...Array.from({ length: 9 }, (_, i) => item(`http://a.example/p${i}`, PAGE)),
    ];
    const out: CrawlItem[] = [];
    for await (const it of parseWorkersStage(from(items), { pool, window: 4 })) out.push(it);
    assert.deepEqual(out.map((i) => i.entry.url), items.map((i) => i.entry.url));
    assert.equal(out[0].page?.title, 'Solar cells');
    assert.equal(out[0].fetch?.body, null);
    assert.equal(out[1].page, undefined);
    assert.equal(out[2].page, undefined);
    assert.ok(out[2].fetch?.body !== null, 'an error item is not touched');
    for (const i of out.slice(3)) assert.equal(i.page?.links.length, 3);
    const kept = [];
    for await (const it of parseWorkersStage(from([item('http://a.example/k', PAGE)]), { pool, window: 2, keepBody: true })) kept.push(it);
    assert.ok(kept[0].page !== undefined && kept[0].fetch?.body?.equals(PAGE));
  } finally {
    await pool.close();
  }
  // a window smaller than the batch the pool gathers: the stage's starved() sends the pages
  const batching = new ParsePool({ size: 1, minBatch: 8 });
  try {
    const items = Array.from({ length: 12 }, (_, i) => item(`http://a.example/b${i}`, PAGE));
    const out: CrawlItem[] = [];
    for await (const it of parseWorkersStage(from(items), { pool: batching, window: 3 })) out.push(it);
    assert.deepEqual(out.map((i) => i.entry.url), items.map((i) => i.entry.url));
    for (const i of out) assert.equal(i.page?.links.length, 3);
    assert.equal(batching.sent.pages, 12);
  } finally {
    await batching.close();
  }
});

/** A record without its timing fields. */
function untimed(r: Record<string, unknown>): Record<string, unknown> {
  const { fetchedAt: _f, ms: _m, ...rest } = r;
  return rest;
}

test('crawl: the records are the same with --workers 0 and --workers 2 at --concurrency 1, and the process exits', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const args = (workers: string) => [
    'crawl', '--seeds', 'fixtures/demo-seeds.txt', '--topic', 'fixtures/demo-topic.json', '--strategy', 'best-first', '--text', '--outlinks',
    '--proxy', replayUrl, '--store', path.join(dir, `w${workers}`), '--max-pages', '60', '--concurrency', '1', '--workers', workers, '--quiet', '--stats-interval', '0',
  ];
  const [inThread, pooled] = await runMainEach([args('0'), args('2')]);
  assert.equal(inThread.code, 0, inThread.stderr);
  assert.equal(pooled.code, 0, pooled.stderr);
  const a = parseLines(inThread.stdout).map(untimed);
  const b = parseLines(pooled.stdout).map(untimed);
  assert.equal(a.filter((r) => r.type === 'page').length, 60);
  assert.ok(a.some((r) => r.charset === 'gbk'), 'the GBK pages are in it');
  assert.ok(a.filter((r) => typeof r.simhash === 'string').length >= 20, 'near-duplicate fingerprints (computed in the workers with --workers 2)');
  assert.deepEqual(b, a);
});

test('crawl with 2 workers: a parse that throws and a worker that dies are coded error records; the crawl goes on to the end', async (t) => {
  const html = (links: string[]) => `<html><head><title>t</title></head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
  const base = await serve(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(req.url === '/' ? html(['/throw', '/crash', '/a', '/b']) : html(['/']));
  });
  const { dir } = await fixtureReplay(t);
  let text = '';
  const output = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk);
      cb();
    },
  });
  // the faults are injected through the crawl's config (parseFaults), as nothing but a test sets it
  const summary = await runCrawl({
    seeds: [`${base}/`], topic: null, strategy: 'bfs', storeDir: path.join(dir, 's'), fresh: false, maxPages: Infinity, maxDepth: Infinity,
    maxFrontier: Infinity, dropIndex: true, allowPrivate: true, concurrency: 4, perHost: 4, delayMs: 0, delayExplicit: true, hostDiversity: 0,
    maxBytes: 1 << 20, auth: {}, quiet: true, output, log: () => {}, lookup: loopbackLookup(), workers: 2, parseFaults: true,
  });
  assert.equal(summary.stopped, 'done', 'the crawl ran to its end');
  const byPath = new Map(parseLines(text).map((x) => [new URL(x.url).pathname, x]));
  assert.equal(byPath.get('/throw')?.type, 'error');
  assert.equal(byPath.get('/throw')?.code, 'FC_INTERNAL');
  assert.equal(byPath.get('/crash')?.type, 'error');
  assert.equal(byPath.get('/crash')?.code, 'FC_WORKER_CRASH');
  for (const p of ['/', '/a', '/b']) assert.equal(byPath.get(p)?.type, 'page', p);
});

test('crawl --workers 2 | head -5, and SIGINT: the workers end with the process, exit 0 and 130, the stores are consistent', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const common = (store: string) => ['crawl', '--seeds', 'fixtures/demo-seeds.txt', '--topic', 'fixtures/demo-topic.json', '--proxy', replayUrl, '--store', store, '--quiet', '--workers', '2'];
  const headStore = path.join(dir, 'head');
  const script = `"${process.execPath}" "${BIN}" ${common(headStore).map((a) => `"${a}"`).join(' ')} | head -5; echo "crawler exit: \${PIPESTATUS[0]}" >&2`;
  const { stdout, stderr } = await promisify(execFile)('bash', ['-c', script], { cwd: ROOT });
  assert.equal(parseLines(stdout).length, 5);
  assert.match(stderr, /crawler exit: 0$/m);
  await checkStoreCounts(headStore, 5);

  const intStore = path.join(dir, 'int');
  const child = spawnCli(common(intStore));
  let out = '';
  child.stdout!.setEncoding('utf8');
  const first = new Promise<void>((resolve) => child.stdout!.on('data', (d: string) => {
    out += d;
    if (out.includes('\n')) resolve();
  }));
  await first;
  child.kill('SIGINT');
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 130);
  await checkStoreCounts(intStore, 1);
});
