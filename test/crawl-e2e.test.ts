// End to end through the real CLI and the replay proxy: the bundled fixture
// web (always) and the real 1997 WebKB web (when ../shared is present).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { canonicalize } from '../src/url.ts';
import { ROOT, SKIP_WEBKB, WEBKB_WARC, SHARED, parseLines, runCli, fixtureReplay } from './helpers/cli.ts';

const PAGE_FIELDS: Record<string, string[]> = {
  string: ['url', 'finalUrl', 'fetchedAt', 'host', 'strategy'],
  number: ['status', 'depth', 'bytes', 'score', 'relevance', 'links', 'ms'],
  boolean: ['truncated', 'relevant'],
};

function checkPageRecord(r: Record<string, unknown>): void {
  for (const [type, names] of Object.entries(PAGE_FIELDS)) {
    for (const n of names) assert.equal(typeof r[n], type, `${n} of ${JSON.stringify(r)}`);
  }
  for (const n of ['parent', 'contentType', 'charset', 'title']) {
    assert.ok(r[n] === null || typeof r[n] === 'string', `${n} of ${JSON.stringify(r)}`);
  }
  assert.ok(!Number.isNaN(Date.parse(r.fetchedAt as string)));
  assert.equal(canonicalize(r.url as string), r.url, 'record URLs are canonical');
}

function fixtureLabels(): Map<string, string> {
  const rows = readFileSync(path.join(ROOT, 'fixtures', 'web-labels.tsv'), 'utf8').trim().split('\n').slice(1);
  return new Map(rows.map((l) => l.split('\t') as [string, string]));
}

test('fixture web: focused crawl records, robots, charsets, and best-first beats bfs', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const labels = fixtureLabels();
  const harvest: Record<string, number> = {};
  for (const strategy of ['best-first', 'bfs']) {
    const r = await runCli([
      'crawl', '--seeds', 'fixtures/demo-seeds.txt', '--topic', 'fixtures/demo-topic.json', '--strategy', strategy,
      '--proxy', replayUrl, '--store', path.join(dir, strategy), '--max-pages', '100', '--concurrency', '4',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /100 pages/);
    const records = parseLines(r.stdout);
    const pages = records.filter((x) => x.type === 'page');
    assert.equal(pages.length, 100);
    assert.equal(new Set(records.map((x) => x.url)).size, records.length, 'each URL once');
    for (const p of pages) {
      checkPageRecord(p);
      assert.equal(p.strategy, strategy);
      assert.doesNotMatch(p.url, /^http:\/\/news\.example\.cn\/archive\//, 'robots-disallowed path fetched');
    }
    for (const e of records.filter((x) => x.type === 'error')) {
      assert.equal(typeof e.code, 'string');
      assert.equal(typeof e.message, 'string');
    }
    const seedRecord = pages.find((p) => p.url === 'http://news.example.cn/');
    assert.ok(seedRecord, 'the Chinese seed was fetched');
    assert.equal(seedRecord.charset, 'gbk');
    assert.match(seedRecord.title, /[\u4e00-\u9fff]/, 'GBK title decoded to Han characters');
    harvest[strategy] = pages.filter((p) => labels.get(p.finalUrl) === 'solar').length / pages.length;
  }
  // by the fixture's human-made labels, not by the crawler's own judgement
  assert.ok(harvest['best-first'] > 1.5 * harvest.bfs, `harvest@100 best-first ${harvest['best-first']} vs bfs ${harvest.bfs}`);
});

test('WebKB replay: a breadth-first crawl of the real 1997 web', { skip: SKIP_WEBKB }, async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t, WEBKB_WARC);
  const r = await runCli([
    'crawl', '--seed', 'http://www.cs.cornell.edu/', '--seed', 'http://www.cs.utexas.edu/', '--seed', 'http://www.cs.washington.edu/',
    '--proxy', replayUrl, '--store', path.join(dir, 's'), '--max-pages', '400', '--concurrency', '8', '--per-host', '2',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const records = parseLines(r.stdout);
  const pages = records.filter((x) => x.type === 'page');
  assert.equal(pages.length, 400);
  pages.forEach(checkPageRecord);
  const inArchive = new Set(
    readFileSync(path.join(SHARED, 'webkb', 'labels.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => canonicalize(l.split('\t')[0])),
  );
  const ok = pages.filter((p) => p.status === 200);
  // Which of the many same-depth links fill the 400 pages depends on host timing
  // at --concurrency 8: measured 101–158 archived (200) pages over 8 local
  // runs and 96 in a loaded CI run (120 every time at --concurrency 1). The
  // floor only has to catch a replay/canonicalization mismatch, which makes
  // nearly every page a 404.
  assert.ok(ok.length >= 50, `${ok.length} archived pages among 400`);
  for (const p of ok) assert.ok(inArchive.has(p.finalUrl), `200 for an archived URL: ${p.finalUrl}`);
  for (const p of pages.filter((x) => x.status === 404)) assert.ok(!inArchive.has(p.finalUrl), `404 only outside the archive: ${p.url}`);
  assert.ok(ok.filter((p) => p.title).length / ok.length > 0.9, 'titles extracted from 1997 HTML');
  // breadth-first: every page's parent was fetched (and printed) before it, one level up
  const seen = new Map<string, number>();
  for (const p of pages) {
    if (p.depth > 0) {
      assert.ok(seen.has(p.parent), `parent of ${p.url} printed first`);
      assert.equal(p.depth, seen.get(p.parent)! + 1);
    }
    seen.set(p.url, p.depth);
    seen.set(p.finalUrl, p.depth);
  }
  // What could break (timing, not a bug): this asserted that the first three
  // records are the seeds. The three are taken first, but records come in
  // commit order, and a child of a fast seed can commit before a slow seed
  // answers (its host's robots.txt first). Breadth-first order is what the
  // parent and depth checks above assert; here, the seeds are the depth-0 pages.
  assert.deepEqual(pages.filter((p) => p.depth === 0).map((p) => p.url).sort(), ['http://www.cs.cornell.edu/', 'http://www.cs.utexas.edu/', 'http://www.cs.washington.edu/']);
});

const NODEJIEBA_MISSING = ((): string | false => {
  try {
    createRequire(import.meta.url).resolve('nodejieba');
    return false;
  } catch {
    return 'nodejieba (an optional dependency that builds from source) is not installed';
  }
})();

// What broke: this test compared the sets of pages each segmenter judged
// relevant in two best-first crawls at --concurrency 4. Under CI load the two
// crawls fetched different pages within their 60 (29 relevant in common), and
// the test failed though no page was judged differently. It now crawls
// breadth-first one request at a time (the order does not depend on scores)
// and compares the judgement page by page on the pages both crawls fetched.
test('fixture web: --segmenter nodejieba judges the Chinese pages as the default segmenter does', { skip: NODEJIEBA_MISSING }, async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const labels = fixtureLabels();
  const judged: Record<string, Map<string, boolean>> = {};
  for (const segmenter of ['node-rs', 'nodejieba']) {
    const r = await runCli([
      'crawl', '--seed', 'http://news.example.cn/', '--topic', 'fixtures/demo-topic.json', '--segmenter', segmenter,
      '--strategy', 'bfs', '--proxy', replayUrl, '--store', path.join(dir, segmenter), '--max-pages', '60', '--concurrency', '1',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const pages = parseLines(r.stdout).filter((x) => x.type === 'page' && /[\u4e00-\u9fff]/.test(String(x.title)));
    assert.ok(pages.length >= 20, `${segmenter}: ${pages.length} Chinese pages`);
    judged[segmenter] = new Map(pages.map((p) => [p.finalUrl as string, p.relevant === true]));
    // the crawler's judgement agrees with the fixture's labels on most Chinese pages it calls relevant
    const relevant = pages.filter((p) => p.relevant === true).map((p) => p.finalUrl as string);
    const agree = relevant.filter((u) => labels.get(u) === 'solar').length;
    assert.ok(agree >= 0.8 * relevant.length && agree >= 5, `${segmenter}: ${agree} of ${relevant.length}`);
  }
  const common = [...judged['node-rs'].keys()].filter((u) => judged.nodejieba.has(u));
  assert.ok(common.length >= 20, `${common.length} Chinese pages fetched by both crawls`);
  const differ = common.filter((u) => judged['node-rs'].get(u) !== judged.nodejieba.get(u));
  assert.deepEqual(differ, [], 'pages judged differently by the two segmenters');
});

test('fixture web: with a --model and no --strategy the crawl runs nb-link (command and library); with a topic, best-first', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const model = path.join(dir, 'solar.json');
  const trained = await runCli(['train', '--warc', 'fixtures/web.warc.gz', '--labels', 'fixtures/web-labels.tsv', '--target', 'solar', '--out', model]);
  assert.equal(trained.code, 0, trained.stderr);
  const strategies = async (focus: string[], store: string): Promise<Set<unknown>> => {
    const r = await runCli(['crawl', '--seeds', 'fixtures/demo-seeds.txt', ...focus, '--proxy', replayUrl, '--store', path.join(dir, store), '--max-pages', '10', '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    return new Set(parseLines(r.stdout).filter((x) => x.type === 'page').map((x) => x.strategy));
  };
  assert.deepEqual(await strategies(['--model', model], 'm'), new Set(['nb-link']));
  assert.deepEqual(await strategies(['--topic', 'fixtures/demo-topic.json'], 't'), new Set(['best-first']));
  assert.deepEqual(await strategies(['--model', model, '--strategy', 'best-first'], 'mb'), new Set(['best-first']));
  const api = await import('../src/index.ts');
  const run = api.crawl({ seeds: ['http://www.webdir.example/'], model: await api.loadModel(model), proxy: replayUrl, maxPages: 3 });
  const seen = new Set<unknown>();
  for await (const record of run) if (record.type === 'page') seen.add(record.strategy);
  assert.deepEqual(seen, new Set(['nb-link']));
});
