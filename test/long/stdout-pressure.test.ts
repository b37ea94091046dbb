// stdout under pressure, moved out of test/stdout.test.ts for issue 25: a
// 2,000-page crawl whose reader pauses must stop fetching and keep its RSS
// bounded, and an endless crawl stops at --max-time. Both judge "stalled" or
// "went on" from what happens within a few hundred ms or 1.5 s, which a
// machine busy with three other test files does not give them: they run in
// the long suite, one file at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlStore } from '../../src/store/level.ts';
import { parseLines, runCli, spawnCli } from '../helpers/cli.ts';
import { syntheticWebDir } from '../helpers/synthetic-web.ts';

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? 0 : Number(m[1]);
}

test('a paused reader stops the crawl; RSS stays bounded; resuming finishes it', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const { web, dir } = await syntheticWebDir(t);
  const maxPages = 2000;
  const child = spawnCli([
    'crawl', '--seed', 'http://h0.example/p/0', '--proxy', web.url, '--store', path.join(dir, 's'),
    '--max-pages', String(maxPages), '--concurrency', '16', '--per-host', '2', '--delay-ms', '0', '--quiet',
  ]);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // Nobody reads stdout yet: the pipe fills up and the crawler must wait.
  let hitsBefore = -1;
  for (let i = 0; i < 50; i++) {
    await sleep(200);
    const now = web.hits();
    if (now > 0 && now === hitsBefore) break; // no request in the last 200 ms: it stalled
    hitsBefore = now;
  }
  const stalledAt = web.hits();
  await sleep(500);
  assert.equal(web.hits(), stalledAt, 'no request while stdout is full');
  assert.ok(stalledAt < maxPages / 2, `stalled after ${stalledAt} requests, not at the end of the crawl`);
  const rss = rssKb(child.pid!);
  assert.ok(rss > 0 && rss < 300 * 1024, `RSS ${rss} kB while stalled`);

  let text = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (text += d));
  assert.equal(await exited, 0);
  const records = parseLines(text);
  assert.equal(records.filter((r) => r.type === 'page').length, maxPages);
  // Regression: at concurrency > 10 Node warned about a listener leak on
  // the fetch stage's abort signal; stderr must stay clean.
  assert.equal(stderr, '');
});

test('--max-time: an endless crawl stops by itself (exit 0, "time-limit"); the store is consistent and the next run goes on', async (t) => {
  const { web, dir } = await syntheticWebDir(t);
  const store = path.join(dir, 's');
  // the synthetic web never runs out of pages: without the limit this run would end only at the test's timeout
  const run = () => runCli(['crawl', '--seed', 'http://h0.example/p/0', '--proxy', web.url, '--store', store, '--max-time', '1.5', '--concurrency', '8', '--per-host', '2', '--delay-ms', '0', '--log-format', 'json']);
  const first = await run();
  assert.equal(first.code, 0, first.stderr);
  const summary = parseLines(first.stderr).find((l) => l.type === 'summary');
  assert.equal(summary.stopped, 'time-limit');
  const printed = parseLines(first.stdout).length;
  assert.ok(printed > 0);
  assert.equal(summary.pages + summary.errors, printed);
  const second = await run();
  assert.equal(second.code, 0, second.stderr);
  const urls = [...parseLines(first.stdout), ...parseLines(second.stdout)].map((r) => r.url);
  assert.ok(parseLines(second.stdout).length > 0, 'the second run went on');
  assert.equal(new Set(urls).size, urls.length, 'no URL fetched twice across the runs');
  const s = await CrawlStore.open(store);
  try {
    assert.equal(s.committed, urls.length);
  } finally {
    await s.close();
  }
  const bad = await runCli(['crawl', '--seed', 'http://h0.example/p/0', '--max-time', '0']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--max-time/);
});
