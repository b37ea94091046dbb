// stdout is the data channel: when its reader goes away (`| head -5`) the
// crawler exits 0 and leaves a consistent store; when its reader is slow the
// crawl slows down instead of buffering records in memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { CrawlStore } from '../src/store.ts';
import { BIN, ROOT, parseLines, runCli, spawnCli, fixtureReplay } from './helpers/cli.ts';
import { syntheticWebDir } from './helpers/synthetic-web.ts';

test('| head -5: exit 0, five records, the store opens and agrees', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const store = path.join(dir, 'store');
  const script =
    `"${process.execPath}" "${BIN}" crawl --seeds fixtures/demo-seeds.txt --topic fixtures/demo-topic.json ` +
    `--proxy ${replayUrl} --store "${store}" --quiet | head -5; echo "crawler exit: \${PIPESTATUS[0]}" >&2`;
  const { stdout, stderr } = await promisify(execFile)('bash', ['-c', script], { cwd: ROOT });
  assert.equal(parseLines(stdout).length, 5);
  assert.match(stderr, /crawler exit: 0$/m);
  assert.doesNotMatch(stderr, /Error|at /);

  const s = await CrawlStore.open(store);
  try {
    assert.ok(s.committed >= 5, 'at least the five printed pages are committed');
    assert.equal(s.committed, s.pages + s.errors);
    let logged = 0;
    for await (const _ of s.log()) logged++;
    assert.equal(logged, s.committed);
    let queued = 0;
    for await (const _ of s.frontier()) queued++;
    assert.equal(queued, s.frontierSize);
  } finally {
    await s.close();
  }
});

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

test('seeds piped in: `… | focuscrawl crawl --seeds - …` crawls them', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const script =
    `printf '# from a pipe\\nhttp://www.webdir.example/\\nhttp://news.example.cn/\\n' | ` +
    `"${process.execPath}" "${BIN}" crawl --seeds - --strategy bfs --proxy ${replayUrl} --store "${path.join(dir, 'store')}" --max-pages 6 --quiet`;
  const { stdout } = await promisify(execFile)('bash', ['-c', script], { cwd: ROOT });
  const records = parseLines(stdout);
  assert.equal(records.length, 6);
  assert.deepEqual(records.filter((r) => r.depth === 0).map((r) => r.url).sort(), ['http://news.example.cn/', 'http://www.webdir.example/']);
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
