// The command-line contract: help and version on stdout with exit 0; bad
// input gets one line on stderr and exit 2, never a stack trace; a locked
// store exits 1 with its code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CrawlStore } from '../src/store.ts';
import { runCli, tempDir } from './helpers/cli.ts';

test('--help and --version go to stdout, exit 0', async () => {
  for (const args of [['--help'], ['crawl', '--help'], ['replay', '--help']]) {
    const r = await runCli(args);
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
  for (const [args, pattern] of cases) {
    const r = await runCli(args);
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
  const r = await runCli(['crawl', '--seed', 'http://x.example/', '--store', dir, '--fresh']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /does not look like a focuscrawl store/);
});
