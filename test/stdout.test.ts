// stdout is the data channel: when its reader goes away (`| head -5`) the
// crawler exits 0 and leaves a consistent store; when its reader is slow the
// crawl slows down instead of buffering records in memory (that test and
// --max-time's: test/long/stdout-pressure.test.ts, issue 25).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkStoreCounts } from './helpers/records.ts';
import { BIN, ROOT, parseLines, fixtureReplay } from './helpers/cli.ts';

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

  await checkStoreCounts(store, 5); // at least the five printed pages are committed
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
