// `focuscrawl records`: a store's log printed as the crawl printed its
// stdout, to recover a lost or cut-short stdout and to re-read a crawl.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { CrawlStore } from '../src/store/level.ts';
import { BIN, ROOT, parseLines, runCli, runMain, tempDir, fixtureReplay } from './helpers/cli.ts';
import { syntheticWebDir } from './helpers/synthetic-web.ts';
import { REDIS_SKIP, startRedis, uniqueCrawl } from './helpers/redis.ts';

test('records: the log is the crawl stdout byte for byte, over two runs; --after N prints the rest; --type filters', async (t) => {
  const { url, dir } = await fixtureReplay(t);
  const store = path.join(dir, 'store');
  const crawl = (maxPages: number) =>
    runMain(['crawl', '--seeds', 'fixtures/demo-seeds.txt', '--topic', 'fixtures/demo-topic.json', '--proxy', url, '--store', store, '--max-pages', String(maxPages), '--quiet', '--text']);
  const first = await crawl(25);
  const second = await crawl(60); // resumes the same store
  assert.equal(first.code, 0, first.stderr);
  assert.equal(second.code, 0, second.stderr);
  const printed = first.stdout + second.stdout;
  const lines = printed.split('\n').filter(Boolean);
  assert.ok(lines.length >= 60, `${lines.length} records`);

  const all = await runMain(['records', '--store', store]);
  assert.equal(all.code, 0, all.stderr);
  assert.equal(all.stderr, '');
  assert.equal(all.stdout, printed, 'the same lines in the same order');

  const rest = await runMain(['records', '--store', store, '--after', String(first.stdout.split('\n').filter(Boolean).length)]);
  assert.equal(rest.stdout, second.stdout, '--after N: what came after the first N lines');
  assert.equal((await runMain(['records', '--store', store, '--after', String(lines.length)])).stdout, '');

  const records = parseLines(printed);
  const errors = await runMain(['records', '--store', store, '--type', 'error']);
  assert.deepEqual(parseLines(errors.stdout), records.filter((r) => r.type === 'error'));
  const pages = await runMain(['records', '--store', store, '--type', 'page', '--after', '10']);
  assert.deepEqual(parseLines(pages.stdout), records.slice(10).filter((r) => r.type === 'page'));
});

test('records: a store a crawl holds is FC_STORE_LOCKED (exit 1); bad values exit 2 with one line; --help', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const held = await CrawlStore.open(path.join(dir, 'held'));
  t.after(() => held.close());
  const locked = await runCli(['records', '--store', path.join(dir, 'held')]);
  assert.equal(locked.code, 1, locked.stderr);
  assert.match(locked.stderr, /FC_STORE_LOCKED/);
  assert.equal(locked.stdout, '');

  for (const [args, pattern] of [
    [['--after', '-1'], /--after/],
    [['--after', 'x'], /--after/],
    [['--after', ''], /--after/],
    [['--type', 'pages'], /--type/],
    [['--store', path.join(dir, 'missing')], /FC_USAGE/],
    [['--store', ROOT], /not a focuscrawl store/],
    [['--bogus'], /bogus/],
  ] as const) {
    const r = await runMain(['records', '--store', path.join(dir, 'held'), ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.equal(r.stdout, '');
  }
  const help = await runMain(['records', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: focuscrawl records/);
});

test('records | head -3: exit 0, three records, no error', async (t) => {
  const { web, dir } = await syntheticWebDir(t);
  const store = path.join(dir, 's');
  // enough records (~600 × ~0.5 KB) to fill the pipe, so the writer meets EPIPE
  const c = await runMain(['crawl', '--seed', 'http://h0.example/p/0', '--proxy', web.url, '--store', store, '--max-pages', '600', '--concurrency', '8', '--per-host', '2', '--delay-ms', '0', '--quiet']);
  assert.equal(c.code, 0, c.stderr);
  const script = `"${process.execPath}" "${BIN}" records --store "${store}" | head -3; echo "records exit: \${PIPESTATUS[0]}" >&2`;
  const { stdout, stderr } = await promisify(execFile)('bash', ['-c', script], { cwd: ROOT });
  assert.equal(parseLines(stdout).length, 3);
  assert.deepEqual(parseLines(stdout), parseLines(c.stdout).slice(0, 3));
  assert.match(stderr, /records exit: 0$/m);
  assert.doesNotMatch(stderr, /Error|at /);
});

test('records --store redis://…: the shared log as the crawl printed it', { skip: REDIS_SKIP }, async (t) => {
  const redis = await startRedis();
  const { url } = await fixtureReplay(t);
  t.after(() => redis.stop());
  const store = `${redis.url}?crawl=${uniqueCrawl('records')}`;
  const c = await runMain(['crawl', '--seeds', 'fixtures/demo-seeds.txt', '--proxy', url, '--store', store, '--max-pages', '20', '--quiet']);
  assert.equal(c.code, 0, c.stderr);
  assert.ok(parseLines(c.stdout).length >= 20);
  const r = await runMain(['records', '--store', store]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, c.stdout);
  assert.equal((await runMain(['records', '--store', store, '--after', '5'])).stdout, c.stdout.split('\n').slice(5).join('\n'));
});
