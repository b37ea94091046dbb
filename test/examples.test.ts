/**
 * The library API (src/index.ts) and the runnable examples in examples/.
 * Each example imports from 'focuscrawl' as a user would; here a module
 * resolve hook maps that name to src/index.ts, so the examples run against
 * the sources (never a stale dist/). They run offline, against the fixture
 * web through the replay proxy or local files.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as api from '../src/index.ts';
import { fixtureReplay, ROOT, tempDir } from './helpers/cli.ts';

/** Run examples/NAME with tsx and 'focuscrawl' resolved to src/index.ts. */
async function runExample(name: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { dir, cleanup } = await tempDir('focuscrawl-examples-');
  try {
    const index = pathToFileURL(path.join(ROOT, 'src', 'index.ts')).href;
    await writeFile(
      path.join(dir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {\n` +
        `  return next(specifier === 'focuscrawl' ? ${JSON.stringify(index)} : specifier, context);\n}\n`,
    );
    await writeFile(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(path.join(dir, 'register.mjs')).href, path.join(ROOT, 'examples', name), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    return { code, stdout, stderr };
  } finally {
    await cleanup();
  }
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');

describe('examples', { timeout: 240_000 }, () => {
  test('crawl-records: crawls the fixture web from code and prints the relevant pages and the summary', async () => {
    const r = await runExample('crawl-records.ts', ['40']);
    assert.equal(r.code, 0, r.stderr);
    const out = lines(r.stdout);
    const m = /^summary: (\d+) pages, (\d+) relevant, (\d+) errors \((\w[\w-]*)\)$/.exec(out.at(-1) ?? '');
    assert.ok(m, `last line is the summary: ${out.at(-1)}`);
    const [, pages, relevant, , stopped] = m;
    assert.equal(Number(pages), 40);
    assert.equal(stopped, 'done');
    assert.ok(Number(relevant) >= 10, `best-first finds relevant pages: ${relevant}`);
    const pageLines = out.slice(0, -1);
    assert.equal(pageLines.length, Number(relevant));
    for (const l of pageLines) assert.match(l, /^(0\.\d\d|1\.00) {2}.+ {2}http:\/\/\S+$/);
  });

  test('custom-scorer: records are named after the plugged-in scorer', async () => {
    const r = await runExample('custom-scorer.ts', ['30']);
    assert.equal(r.code, 0, r.stderr);
    const out = lines(r.stdout);
    assert.equal(out[0], 'strategy: anchor-boost');
    const h = /^harvest: (\d+)\/(\d+)$/.exec(out[1] ?? '');
    assert.ok(h, out[1]);
    assert.equal(Number(h[2]), 30);
    assert.ok(Number(h[1]) >= 5, `the boosted crawl finds relevant pages: ${h[1]}`);
    const relevant = out.slice(2);
    assert.equal(relevant.length, Math.min(5, Number(h[1])));
    for (const l of relevant) assert.match(l, /^relevant: http:\/\//);
  });

  test('parse-local-html: parses local files (UTF-8 and GBK) and judges them against the topic', async () => {
    const r = await runExample('parse-local-html.ts');
    assert.equal(r.code, 0, r.stderr);
    const recs = lines(r.stdout).map((l) => JSON.parse(l));
    assert.deepEqual(recs.map((x) => x.file), ['guangfu-gbk.html', 'recipes.html', 'solar.html']);
    const [gbk, recipes, solar] = recs;
    assert.equal(gbk.charset, 'gbk');
    assert.equal(gbk.title, '光伏电站并网发电');
    assert.equal(gbk.relevant, true);
    assert.deepEqual(gbk.links, [{ url: 'https://pages.example/news/solar.html', anchor: '光伏发电新闻' }]);
    assert.equal(recipes.relevant, false);
    assert.equal(recipes.relevance, 0);
    assert.equal(solar.relevant, true);
    assert.ok(solar.links.some((l: { url: string }) => l.url === 'https://pages.example/perovskite.html'));
  });

  test('compose-stages: a hand-built stream.pipeline yields one record per URL, 404 included', async () => {
    const r = await runExample('compose-stages.ts');
    assert.equal(r.code, 0, r.stderr);
    const recs = lines(r.stdout).map((l) => JSON.parse(l));
    assert.equal(recs.length, 3);
    const byUrl = new Map(recs.map((x) => [x.url, x]));
    assert.equal(byUrl.get('http://www.webdir.example/')?.status, 200);
    assert.equal(byUrl.get('http://news.example.cn/')?.charset, 'gbk');
    assert.equal(byUrl.get('http://www.webdir.example/no-such-page')?.status, 404);
    for (const x of recs) {
      assert.equal(x.type, 'page');
      assert.equal(x.strategy, 'best-first');
    }
  });
});

describe('library API', { timeout: 120_000 }, () => {
  test('the exported surface is the documented one (a change here is a deliberate API change)', () => {
    assert.deepEqual(Object.keys(api).sort(), [
      'BadHostError', 'BadRedirectError', 'BadWarcError', 'CapExceededError', 'CrawlStream', 'DEFAULT_SKIP_EXTENSIONS', 'DEFAULT_THRESHOLD', 'DecodeError',
      'ERROR_CODES', 'FetchError', 'FocuscrawlError', 'HostBudgetError', 'HttpClient', 'ModelError', 'NearDuplicates', 'NetworkError', 'PageParser',
      'PagesOutError', 'PrivateAddressError', 'RobotsCache', 'SitemapError', 'StalledError', 'StoreError', 'StoreLockedError', 'TimeoutError', 'TooManyRedirectsError',
      'TopicError', 'TopicModel', 'UsageError', 'VERSION', 'WarcError', 'canonicalize', 'compileSkipExtensions', 'crawl', 'createReplayServer',
      'createRobotsCache', 'createScorer', 'createStore', 'exitStatusOf', 'fromUrls', 'getSegmenter', 'isValidHostname', 'knownStrategies', 'loadModel',
      'loadTopic', 'loopbackLookup', 'needsModel', 'parseHtml', 'parseTopic', 'relevanceThreshold', 'sniffCharset', 'stages', 'systemLookup', 'toItemError',
      'toRecord', 'toRecords',
    ]);
    assert.deepEqual(Object.keys(api.stages), ['fromUrls', 'addressGuard', 'robots', 'fetch', 'parse', 'classify', 'dedup', 'toRecords', 'sink']);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(api.VERSION, pkg.version);
  });

  test('every coded error is exported: its class carries its code and exit status, records carry the code', () => {
    // What was weak: this test grepped src/errors.ts for 'class X ', which
    // says nothing about what a library user gets. Now every class in the
    // error table is taken from the library API and used.
    const ctors = api as unknown as Record<string, new (...args: unknown[]) => Error>;
    let classes = 0;
    for (const [code, row] of Object.entries(api.ERROR_CODES) as [string, { exit: 1 | 2 | null; record: boolean; class: string | null }][]) {
      if (row.class === null) {
        assert.ok(row.record, `${code}: a code without a class is written into records only`);
        continue;
      }
      const Cls = ctors[row.class];
      assert.equal(typeof Cls, 'function', `${row.class} is exported`);
      const err = new Cls('a.example', '127.0.0.1', 'loopback') as api.FocuscrawlError;
      assert.ok(err instanceof api.FocuscrawlError, row.class);
      assert.ok(err instanceof Error, row.class);
      assert.equal(err.code, code, row.class);
      assert.equal(err.name, row.class);
      assert.equal(api.exitStatusOf(err), row.exit ?? 1, `${code}: exit status`);
      assert.equal(api.toItemError(err).code, code, `${code}: as a record`);
      assert.equal(err instanceof api.FetchError, row.record, `${row.class}: a FetchError exactly when a per-URL code`);
      classes++;
    }
    assert.ok(classes >= 15, `classes checked: ${classes}`);
    assert.equal(api.exitStatusOf(new api.UsageError('x')), 2);
    assert.equal(api.exitStatusOf(new api.StoreLockedError('/s')), 1);
    assert.equal(api.exitStatusOf(new Error('bug')), 1);
    const cause = new Error('root');
    assert.equal(new api.StoreError('x', { cause }).cause, cause);
    assert.deepEqual(api.toItemError(new api.TimeoutError('slow')), { code: 'FC_TIMEOUT', message: 'slow' });
    assert.deepEqual(api.toItemError(new RangeError('oops')), { code: 'FC_INTERNAL', message: 'oops' });
  });

  test('crawl(): breaking out of for-await stops the crawl, the store is consistent and can be opened', async (t) => {
    const { url, dir } = await fixtureReplay(t);
    const store = path.join(dir, 'store');
    const run = api.crawl({ seeds: ['http://www.webdir.example/'], proxy: url, store, maxPages: 200 });
    let seen = 0;
    for await (const record of run) {
      assert.ok(record.type === 'page' || record.type === 'error');
      if (++seen === 3) break;
    }
    const summary = await run.summary;
    assert.equal(summary.stopped, 'output-closed');
    assert.ok(summary.pages >= 3 && summary.pages < 200, `pages ${summary.pages}`);
    const s = await api.createStore(store);
    try {
      let logged = 0;
      for await (const _ of s.log()) logged++;
      assert.equal(logged, summary.pages + summary.errors);
      assert.equal(s.pages, summary.totalPages);
    } finally {
      await s.close();
    }
  });

  test('crawl(): bad input errors the stream with the coded error and rejects summary', async () => {
    const run = api.crawl({ seeds: ['ftp://example.org/'] });
    await assert.rejects(async () => {
      for await (const _ of run) assert.fail('no record expected');
    }, (err: unknown) => err instanceof api.UsageError && err.code === 'FC_USAGE');
    await assert.rejects(run.summary, { code: 'FC_USAGE' });
    await assert.rejects(async () => {
      for await (const _ of api.crawl({ seeds: ['http://a.example/'], strategy: 'no-such' })) assert.fail('no record expected');
    }, { code: 'FC_USAGE' });
    for (const holdBack of [-0.5, 1.5, NaN]) {
      await assert.rejects(async () => {
        for await (const _ of api.crawl({ seeds: ['http://a.example/'], holdBack })) assert.fail('no record expected');
      }, { code: 'FC_USAGE' }, `holdBack ${holdBack}`);
    }
    for (const skipExtensions of ['pdf', ['*.pdf']]) {
      await assert.rejects(async () => {
        for await (const _ of api.crawl({ seeds: ['http://a.example/'], skipExtensions: skipExtensions as string[] })) assert.fail('no record expected');
      }, { code: 'FC_USAGE' }, `skipExtensions ${JSON.stringify(skipExtensions)}`);
    }
  });

  test('crawl(): resume().summary runs a crawl for its summary only; a temporary store is removed', async (t) => {
    const { url, dir } = await fixtureReplay(t);
    // the default store is made in os.tmpdir(), which follows TMPDIR
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    t.after(() => {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    });
    const summary = await api.crawl({ seeds: ['http://www.webdir.example/'], proxy: url, maxPages: 5 }).resume().summary;
    assert.equal(summary.pages, 5);
    assert.equal(summary.stopped, 'done');
    assert.deepEqual(await readdir(dir), []);
  });

  test('crawl(): textChars and outlinks give the records text and outlinks, as --text-max-chars and --outlinks do', async (t) => {
    const { url } = await fixtureReplay(t);
    const records = await api.crawl({ seeds: ['http://www.webdir.example/'], proxy: url, maxPages: 5, textChars: 60, outlinks: true }).toArray();
    const html = records.filter((r: any) => r.type === 'page' && r.contentType === 'text/html');
    assert.ok(html.length >= 3);
    for (const r of html) {
      assert.equal(typeof r.text, 'string');
      assert.ok(r.text.length <= 60);
      assert.ok(Array.isArray(r.outlinks));
    }
    assert.ok(html.some((r: any) => r.textTruncated === true && r.outlinks.length > 0));
  });

  test('crawl(): an AbortSignal ends the stream normally with stopped "aborted"', async (t) => {
    const { url } = await fixtureReplay(t);
    const ac = new AbortController();
    const run = api.crawl({ seeds: ['http://www.webdir.example/'], proxy: url, maxPages: 200, signal: ac.signal });
    let seen = 0;
    for await (const _ of run) if (++seen === 2) ac.abort();
    const summary = await run.summary;
    assert.equal(summary.stopped, 'aborted');
    assert.ok(summary.pages < 200);
    assert.equal(seen, summary.pages + summary.errors, 'every committed record was delivered');
  });

  test('stages compose with stream.pipeline and Duplex.from; a bad URL is an error record, not a throw', async (t) => {
    const { url } = await fixtureReplay(t);
    const client = new api.HttpClient({ proxy: url });
    t.after(() => client.close());
    const records: api.OutputRecord[] = [];
    await pipeline(
      api.stages.fromUrls(['http://www.webdir.example/', 'mailto:someone@example.org']),
      Duplex.from((src: AsyncIterable<api.CrawlItem>) => api.stages.fetch(src, { client, concurrency: 2, maxBytes: 1 << 20 })),
      (src: AsyncIterable<api.CrawlItem>) => api.stages.parse(src),
      (src: AsyncIterable<api.CrawlItem>) => api.stages.toRecords(src),
      async (src: AsyncIterable<api.OutputRecord>) => {
        for await (const r of src) records.push(r);
      },
    );
    assert.equal(records.length, 2);
    const bad = records.find((r) => r.type === 'error');
    assert.equal(bad?.type === 'error' && bad.code, 'FC_USAGE');
    const ok = records.find((r) => r.type === 'page');
    assert.equal(ok?.type === 'page' && ok.status, 200);
    assert.equal(ok?.type === 'page' && typeof ok.title, 'string');
  });

  test('createStore({ level }) opens a store on any abstract-level database', async () => {
    const { MemoryLevel } = await import('memory-level');
    const s = await api.createStore({ level: new MemoryLevel() });
    assert.equal(s.pages, 0);
    assert.equal(await s.addSeeds([{ url: 'http://a.example/', score: 1, depth: 0, parent: null }]), 1);
    assert.equal(s.frontierSize, 1);
    await s.close();
  });
});
