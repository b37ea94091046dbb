// The command-line contract: help and version on stdout with exit 0; bad
// input gets one line on stderr and exit 2, never a stack trace; a locked
// store exits 1 with its code. The cases run in this file's CLI host
// (runMain, one process); a few run the real bin too (runCli), for the exit
// status the process ends with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CrawlStore } from '../src/store/level.ts';
import { STORE_MARKER } from '../src/store/dir.ts';
import { runCli, runMain, runMainEach, tempDir } from './helpers/cli.ts';

test('--help and --version go to stdout, exit 0', async () => {
  for (const args of [['--help'], ['crawl', '--help'], ['replay', '--help']]) {
    const r = await runMain(args);
    assert.equal(r.code, 0, args.join(' '));
    assert.match(r.stdout, /Usage/);
    assert.equal(r.stderr, '');
  }
  const v = await runCli(['--version']);
  assert.equal(v.code, 0);
  assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
});

test('bad input: one line on stderr, exit 2, no stack trace', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const badJson = path.join(dir, 'bad.json');
  await writeFile(badJson, '{"name": "x", "terms": [');
  const junkSeeds = path.join(dir, 'seeds.txt');
  await writeFile(junkSeeds, 'http://ok.example/\n# comment\n\nnot a url at all\n');
  const store = path.join(dir, 'store');
  const cases: Array<[string[], RegExp]> = [
    [['crawl', '--bogus'], /bogus/],
    [['frobnicate'], /unknown command/],
    [['crawl', '--store', store], /no seeds/],
    [['crawl', '--seed', 'ftp://x.example/'], /not an http\(s\) URL/],
    [['crawl', '--seed', 'http://x.example/', '--topic', path.join(dir, 'missing.json')], /FC_BAD_TOPIC/],
    [['crawl', '--seed', 'http://x.example/', '--topic', badJson], /FC_BAD_TOPIC/],
    [['crawl', '--seeds', junkSeeds], /seeds\.txt:4: not an http\(s\) URL/],
    [['crawl', '--seed', 'http://x.example/', '--strategy', 'nope'], /--strategy: must be one of/],
    [['crawl', '--seed', 'http://x.example/', '--strategy', 'best-first'], /needs --topic/],
    [['crawl', '--seed', 'http://x.example/', '--max-pages', '-3'], /--max-pages/],
    [['crawl', '--seed', 'http://x.example/', '--proxy', 'nonsense'], /--proxy/],
    [['crawl', '--seed', 'http://x.example/', '--auth', 'nouser'], /--auth/],
    [['replay'], /--warc/],
    [['crawl', '--seed', 'http://x.example/', '--segmenter', 'foo'], /unknown segmenter/],
    [['crawl', '--seed', 'http://x.example/', '--model', path.join(dir, 'missing.json')], /FC_BAD_MODEL/],
    [['crawl', '--seed', 'http://x.example/', '--topic', badJson.replace('bad', 'missing'), '--strategy', 'nb-link'], /FC_BAD_TOPIC|--model/],
    [['crawl', '--seed', 'http://x.example/', '--param', 'novalue'], /--param/],
    [['crawl', '--seed', 'http://x.example/', '--tunnel', 'x'], /--tunnel/],
  ];
  const results = await runMainEach(cases.map(([args]) => args));
  // the first case also as its own process (the bin as a user runs it)
  results.push(await runCli(cases[0]![0]));
  for (const [i, [args, pattern]] of [...cases, cases[0]!].entries()) {
    const r = results[i]!;
    assert.equal(r.code, 2, `${args.join(' ')} -> ${r.code}: ${r.stderr}`);
    assert.equal(r.stdout, '', args.join(' '));
    assert.match(r.stderr, pattern, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line for ${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('a store locked by another process: FC_STORE_LOCKED, exit 1', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const holder = await CrawlStore.open(dir);
  t.after(() => holder.close());
  const r = await runCli(['crawl', '--seed', 'http://x.example/', '--store', dir]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /FC_STORE_LOCKED/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});

test('--fresh refuses to delete a folder that is not a store', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  await writeFile(path.join(dir, 'precious.txt'), 'keep me');
  const r = await runMain(['crawl', '--seed', 'http://x.example/', '--store', dir, '--fresh']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /FC_USAGE: --store .* is not a focuscrawl store/);
  assert.deepEqual(await readdir(dir), ['precious.txt']);
});

// A seed the address guard refuses: a crawl that sends no request (FC_PRIVATE_ADDRESS) and still commits a record.
const NO_REQUEST = ['--seed', 'http://127.0.0.1:1/', '--quiet', '--stats-interval', '0'];

test('a directory with a user file: crawl into it, then --fresh: the user file survives', async (t) => {
  // What broke (issue 21): `crawl --store DIR` wrote LevelDB files among the
  // user's, and `--fresh` then saw CURRENT and deleted the whole directory.
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  await writeFile(path.join(dir, 'notes.txt'), 'mine');
  const crawl = await runMain(['crawl', ...NO_REQUEST, '--store', dir]);
  assert.equal(crawl.code, 2, crawl.stderr);
  assert.match(crawl.stderr, /FC_USAGE: --store .* is not a focuscrawl store/);
  assert.ok(crawl.stderr.includes(dir), 'names the directory');
  const fresh = await runMain(['crawl', ...NO_REQUEST, '--store', dir, '--fresh']);
  assert.equal(fresh.code, 2, fresh.stderr);
  assert.deepEqual(await readdir(dir), ['notes.txt'], 'nothing written, nothing deleted');
  assert.equal(await readFile(path.join(dir, 'notes.txt'), 'utf8'), 'mine');
});

test('--fresh on a store among user files (an earlier version wrote it there) deletes only the store\'s files', async (t) => {
  // What broke (issue 21): --fresh removed the directory with everything in it.
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const first = await runMain(['crawl', ...NO_REQUEST, '--store', dir]);
  assert.equal(first.code, 0, first.stderr);
  // as an earlier focuscrawl left it: no marker, and the user's files beside it
  await rm(path.join(dir, STORE_MARKER));
  await writeFile(path.join(dir, 'notes.txt'), 'mine');
  await mkdir(path.join(dir, 'src'));
  await writeFile(path.join(dir, 'src', 'main.c'), 'int main;');
  const fresh = await runMain(['crawl', ...NO_REQUEST, '--store', dir, '--fresh']);
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.equal(await readFile(path.join(dir, 'notes.txt'), 'utf8'), 'mine');
  assert.equal(await readFile(path.join(dir, 'src', 'main.c'), 'utf8'), 'int main;');
  // the store started over: one committed record, not two
  const records = await runMain(['records', '--store', dir]);
  assert.equal(records.code, 0, records.stderr);
  assert.equal(records.stdout.trim().split('\n').length, 1);
});

test('a bare `crawl` fails with "no seeds" before creating ./focuscrawl-store', async (t) => {
  // What broke (issue 21): the default store was created, then "no seeds" found.
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  for (const args of [['crawl'], ['crawl', '--fresh'], ['crawl', '--store', 'elsewhere']]) {
    const r = await runMain(args, { cwd: dir });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /FC_USAGE: no seeds/);
    assert.deepEqual(await readdir(dir), [], `${args.join(' ')} created nothing`);
  }
});

test('--store where mkdir answers ENOENT under an existing parent: FC_STORE, exit 1', { skip: !existsSync('/proc/self') && 'needs /proc' }, async () => {
  // What broke (issue 21): fs.mkdir's recursive mode retried forever at ~90% CPU and ignored SIGTERM.
  const r = await runMain(['crawl', '--seed', 'http://x.example/', '--store', '/proc/nonexistent/x'], { timeoutMs: 60_000 });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /FC_STORE: cannot create store \/proc\/nonexistent\/x/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});
