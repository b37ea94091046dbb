// Resume after SIGKILL: a crawl killed three times mid-crawl and restarted on
// the same store must fetch no committed URL again and lose none: the
// concatenated outputs hold each URL once and exactly --max-pages pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { CrawlStore } from '../src/store.ts';
import { parseLines, runCli, fixtureReplay } from './helpers/cli.ts';
import { runUntilKilled } from './helpers/crash.ts';

const MAX_PAGES = 200;

test('SIGKILL three times mid-crawl, resume: no URL twice, total equals --max-pages', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const store = path.join(dir, 'store');
  const args = [
    'crawl', '--seeds', 'fixtures/demo-seeds.txt', '--topic', 'fixtures/demo-topic.json',
    '--proxy', replayUrl, '--store', store, '--max-pages', String(MAX_PAGES), '--concurrency', '4', '--quiet',
  ];
  const outputs: string[] = [];
  for (const killAfter of [30, 45, 40]) {
    const { lines, killed } = await runUntilKilled(args, { kind: 'line', line: killAfter });
    assert.ok(killed && lines.length >= killAfter, 'the crawl was killed mid-crawl, not after it ended');
    outputs.push(...lines);
  }
  const last = await runCli(args);
  assert.equal(last.code, 0, last.stderr);
  outputs.push(...last.stdout.split('\n').filter((l) => l !== ''));

  const records = parseLines(outputs.join('\n'));
  const urls = records.map((r) => r.url);
  assert.equal(new Set(urls).size, urls.length, 'a URL appeared twice in the concatenated outputs');
  const pages = records.filter((r) => r.type === 'page');
  assert.equal(pages.length, MAX_PAGES);

  // The store agrees: exactly MAX_PAGES committed pages, the same URLs.
  const s = await CrawlStore.open(store);
  try {
    assert.equal(s.pages, MAX_PAGES);
    const logged: string[] = [];
    for await (const rec of s.log()) logged.push((rec as { url: string }).url);
    assert.deepEqual(logged.sort(), [...urls].sort());
  } finally {
    await s.close();
  }
});
