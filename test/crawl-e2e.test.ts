// End to end through the real CLI and the replay proxy: the bundled fixture
// web. The real 1997 WebKB web: test/long/webkb-e2e.test.ts; nodejieba:
// test/long/nodejieba.test.ts (issue 25: the long suite).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { parseLines, fixtureReplay, runMain } from './helpers/cli.ts';
import { checkPageRecord, fixtureLabels } from './helpers/records.ts';

test('fixture web: focused crawl records, robots, charsets, and best-first beats bfs', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const labels = fixtureLabels();
  const harvest: Record<string, number> = {};
  for (const strategy of ['best-first', 'bfs']) {
    const r = await runMain([
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
