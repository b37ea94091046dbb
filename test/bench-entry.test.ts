// bench/politeness-cpu.ts --entry and --pages A,B (bench/lib/entry.ts):
// parsing the two options, the CPU per HTML page at the margin between two
// crawl lengths, and when a checkout's dist/ counts as stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { distStale, marginMs, parseEntries, parseLengths } from '../bench/lib/entry.ts';

test('--pages takes one length, or two with the shorter first', () => {
  assert.deepEqual(parseLengths('6000'), [6000]);
  assert.deepEqual(parseLengths('3000,12000'), [3000, 12000]);
  for (const bad of ['12000,3000', '3000,3000', '0', '3000,', '1,2,3', '6e3', '-1']) {
    assert.throws(() => parseLengths(bad), /--pages/, bad);
  }
});

test('--entry is src, dist or both, each once', () => {
  assert.deepEqual(parseEntries('src'), ['src']);
  assert.deepEqual(parseEntries('dist'), ['dist']);
  assert.deepEqual(parseEntries('src,dist'), ['src', 'dist']);
  for (const bad of ['tsx', 'src,src', '', 'src,']) assert.throws(() => parseEntries(bad), /--entry/, bad);
});

test('the margin is the extra CPU over the extra HTML pages: the fixed part cancels', () => {
  // 2.3 s fixed, 1.1 ms a page: 3,000 pages cost 5.6 s, 12,000 cost 15.5 s
  const fixed = 2.3;
  const a = { cpu: fixed + 3000 * 0.0011, html: 3000 };
  const b = { cpu: fixed + 12000 * 0.0011, html: 12000 };
  assert.ok(Math.abs(marginMs(a, b) - 1.1) < 1e-9);
  // the whole-crawl figure carries the fixed part; the margin does not
  assert.ok(((a.cpu / a.html) * 1000) > 1.8);
  // per HTML page, not per requested page: 9,000 more HTML pages, 9.9 s more CPU
  assert.ok(Math.abs(marginMs({ cpu: 5, html: 2900 }, { cpu: 14.9, html: 11900 }) - 1.1) < 1e-9);
  assert.throws(() => marginMs(b, a), /no margin/);
  assert.throws(() => marginMs(a, a), /no margin/);
});

test('dist/ is stale when missing or older than src/, package.json or tsconfig.build.json', async () => {
  const repo = await mkdtemp(path.join(os.tmpdir(), 'bench-entry-'));
  try {
    await mkdir(path.join(repo, 'src', 'stages'), { recursive: true });
    await writeFile(path.join(repo, 'src', 'stages', 'parse.ts'), '');
    await writeFile(path.join(repo, 'package.json'), '{}');
    assert.match(distStale(repo) ?? '', /missing/);
    await mkdir(path.join(repo, 'dist'));
    await writeFile(path.join(repo, 'dist', 'cli.js'), '');
    const t = (s: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    await utimes(path.join(repo, 'src', 'stages', 'parse.ts'), t(1), t(1));
    await utimes(path.join(repo, 'package.json'), t(1), t(1));
    await utimes(path.join(repo, 'dist', 'cli.js'), t(2), t(2));
    assert.equal(distStale(repo), undefined);
    // a source file (nested) edited after the build
    await utimes(path.join(repo, 'src', 'stages', 'parse.ts'), t(3), t(3));
    assert.match(distStale(repo) ?? '', /newer/);
    await utimes(path.join(repo, 'dist', 'cli.js'), t(4), t(4));
    assert.equal(distStale(repo), undefined);
    await utimes(path.join(repo, 'package.json'), t(5), t(5));
    assert.match(distStale(repo) ?? '', /newer/);
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
});
