/**
 * --skip-extensions (src/urls/extensions.ts): links and sitemap entries to files
 * that are not pages are not queued; seeds and redirects are fetched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compileSkipExtensions, DEFAULT_SKIP_EXTENSIONS, parseSkipExtensions } from '../src/urls/extensions.ts';
import { linksToQueue, type LinkDropReason } from '../src/stages/sink.ts';
import type { CrawlItem, Outlink } from '../src/types.ts';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';
import { makePage } from './helpers/pages.ts';
import { serve } from './helpers/serve.ts';

test('the default list: papers, images, archives and office files are skipped; pages, directories and queries are not', () => {
  const skip = compileSkipExtensions(DEFAULT_SKIP_EXTENSIONS)!;
  for (const url of [
    'http://a.test/papers/focus.pdf',
    'http://a.test/~ann/hw5.ps',
    'http://a.test/~ann/thesis.ps.Z',
    'http://a.test/pub/tr-97.PS.GZ',
    'http://a.test/dist/tool.tar.gz',
    'http://a.test/img/logo.JPG',
    'http://a.test/slides/lecture1.pptx?v=2',
    'http://a.test/style.css#top',
  ]) {
    assert.equal(skip(url), true, url);
  }
  for (const url of [
    'http://a.test/',
    'http://a.test/courses/',
    'http://a.test/courses/cs101',
    'http://a.test/courses/cs101.html',
    'http://a.test/index.php?file=notes.pdf',
    'http://a.test/pdf/',
    'http://a.test/v1.2/notes',
    'http://example.zip/',
    'http://example.zip',
  ]) {
    assert.equal(skip(url), false, url);
  }
});

test('parseSkipExtensions: a comma list (dots and case ignored) or none; anything else is FC_USAGE', () => {
  assert.deepEqual(parseSkipExtensions('pdf, .PS,tar.gz,pdf'), ['pdf', 'ps', 'tar.gz']);
  assert.deepEqual(parseSkipExtensions('none'), []);
  assert.equal(compileSkipExtensions([]), null);
  const only = compileSkipExtensions(parseSkipExtensions('tar.gz'))!;
  assert.equal(only('http://a.test/x.tar.gz'), true);
  assert.equal(only('http://a.test/x.gz'), false);
  for (const bad of ['', 'pdf,', 'p df', '*.pdf', 'pdf;ps']) {
    assert.throws(() => parseSkipExtensions(bad), { code: 'FC_USAGE' }, JSON.stringify(bad));
  }
  assert.throws(() => compileSkipExtensions('pdf' as unknown as string[]), { code: 'FC_USAGE' });
  assert.throws(() => compileSkipExtensions([42 as unknown as string]), { code: 'FC_USAGE' });
});

test('linksToQueue drops a link to a skipped extension as file-extension', () => {
  const links = ['http://a.test/notes.html', 'http://a.test/notes.pdf', 'http://a.test/notes.pdf#p2'];
  const outlinks: Outlink[] = links.map((url) => ({ url, score: 0.5, anchor: '', context: '' }));
  const item: CrawlItem = { entry: { url: 'http://a.test/', score: 1, depth: 0, parent: null }, page: makePage('p'), relevant: true, outlinks };
  const drops: [string, LinkDropReason][] = [];
  const got = linksToQueue(item, Infinity, {}, Infinity, {
    skipExtension: compileSkipExtensions(DEFAULT_SKIP_EXTENSIONS)!,
    onDrop: (url, reason) => drops.push([url, reason]),
  });
  assert.deepEqual(got.map((l) => l.url), ['http://a.test/notes.html']);
  assert.deepEqual(drops, [['http://a.test/notes.pdf', 'file-extension']]);
});

/** A course page linking to its handouts; every request but robots.txt is recorded. */
async function courseSite(t: import('node:test').TestContext): Promise<{ base: string; hits: string[] }> {
  const hits: string[] = [];
  const base = await serve(t, (req, res) => {
    const p = req.url ?? '/';
    if (p === '/robots.txt') return void res.writeHead(404).end();
    hits.push(p);
    if (p === '/hw') return void res.writeHead(302, { location: '/hw1.pdf' }).end();
    if (p.endsWith('.pdf') || p.endsWith('.gz')) return void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
    const links = p === '/course' ? ['/syllabus.html', '/hw1.pdf', '/notes.ps.gz', '/hw'] : [];
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`);
  });
  return { base, hits };
}

async function crawlCourse(t: import('node:test').TestContext, extra: string[]) {
  const { base, hits } = await courseSite(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const sitemap = path.join(dir, 'urls.txt');
  await writeFile(sitemap, `${base}/exam.pdf\n`);
  const r = await runMain([
    'crawl', '--seed', `${base}/course`, '--seed', `${base}/reader.pdf`, '--sitemap', sitemap, '--store', path.join(dir, 's'),
    '--allow-private', '--delay-ms', '0', '--stats-interval', '0', ...extra,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return { r, hits: hits.sort(), records: parseLines(r.stdout) };
}

test('e2e: by default links and sitemap entries to .pdf and .ps.gz are never requested; a seed and a redirect to a PDF are', async (t) => {
  const { r, hits } = await crawlCourse(t, []);
  assert.deepEqual(hits, ['/course', '/hw', '/hw1.pdf', '/reader.pdf', '/syllabus.html']);
  assert.match(r.stderr, /links dropped: file-extension 2/);
  assert.match(r.stderr, /1 not pages by their extension/);
});

test('e2e: --skip-extensions none requests them all; a list of its own replaces the default', async (t) => {
  const all = await crawlCourse(t, ['--skip-extensions', 'none']);
  assert.deepEqual(all.hits, ['/course', '/exam.pdf', '/hw', '/hw1.pdf', '/notes.ps.gz', '/reader.pdf', '/syllabus.html']);
  assert.doesNotMatch(all.r.stderr, /file-extension/);
  const own = await crawlCourse(t, ['--skip-extensions', 'gz']);
  assert.deepEqual(own.hits, ['/course', '/exam.pdf', '/hw', '/hw1.pdf', '/reader.pdf', '/syllabus.html']);
  assert.match(own.r.stderr, /links dropped: file-extension 1/);
});

test('e2e: a bad --skip-extensions is exit 2 with one FC_USAGE line', async () => {
  for (const bad of ['', 'pdf,,ps', '*.pdf']) {
    const r = await runMain(['crawl', '--seed', 'http://a.test/', '--store', '/nonexistent/never', '--skip-extensions', bad]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^focuscrawl: FC_USAGE: [^\n]+\n$/);
  }
});
