/**
 * Crawl scope (src/urls/scope.ts): --allow-domain, --include and --exclude decide
 * which links and sitemap entries are queued; seeds are always fetched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compileScope, hostNameOf, parseDomain, parsePattern } from '../src/urls/scope.ts';
import { linksToQueue, type LinkDropReason } from '../src/stages/sink.ts';
import type { CrawlItem, Outlink } from '../src/types.ts';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';
import { makePage } from './helpers/pages.ts';
import { serve } from './helpers/serve.ts';

const hostRows: [string, string][] = [
  ['http://www.cs.cornell.edu/', 'www.cs.cornell.edu'],
  ['http://a.test:8080/x?y', 'a.test'],
  ['http://u:p@a.test:81/', 'a.test'],
  ['http://[::1]:8080/', '[::1]'],
  ['https://a.test?q=1', 'a.test'],
];
for (const [url, host] of hostRows) test(`hostNameOf ${url} -> ${host}`, () => assert.equal(hostNameOf(url), host));

test('compileScope normalises the domains it is given (library callers), and refuses a URL as one', () => {
  const inScope = compileScope({ domains: ['Cornell.EDU'] })!;
  assert.equal(inScope('http://www.cs.cornell.edu/'), true);
  assert.throws(() => compileScope({ domains: ['http://cornell.edu/'] }), { code: 'FC_USAGE' });
});

test('compileScope: no rule is no check', () => {
  assert.equal(compileScope({}), null);
  assert.equal(compileScope({ domains: [], include: [], exclude: [] }), null);
});

test('compileScope: a domain allows itself and its subdomains, on any port, and nothing that merely ends like it', () => {
  const inScope = compileScope({ domains: ['cornell.edu', '10.0.0.1'] })!;
  const rows: [string, boolean][] = [
    ['http://cornell.edu/', true],
    ['http://www.cs.cornell.edu/courses/', true],
    ['http://www.cs.cornell.edu:8000/x', true],
    ['http://notcornell.edu/', false],
    ['http://cornell.edu.evil.test/', false],
    ['http://www.cs.utexas.edu/', false],
    ['http://10.0.0.1/a', true],
    ['http://110.0.0.1/a', false],
  ];
  for (const [url, want] of rows) assert.equal(inScope(url), want, url);
});

test('compileScope: include needs one match, exclude vetoes, all rules together', () => {
  const inScope = compileScope({
    domains: ['a.test'],
    include: [/\/courses\//, /\/people\//],
    exclude: [/\.pdf$/, /\?print=/],
  })!;
  const rows: [string, boolean][] = [
    ['http://a.test/courses/cs101/', true],
    ['http://www.a.test/people/smith', true],
    ['http://a.test/news/', false], // no include matches
    ['http://a.test/courses/cs101/notes.pdf', false], // excluded
    ['http://a.test/people/x?print=1', false],
    ['http://b.test/courses/', false], // other domain
  ];
  for (const [url, want] of rows) assert.equal(inScope(url), want, url);
  // a global pattern from a library caller answers the same every time
  const global = compileScope({ include: [/keep/g] })!;
  assert.deepEqual([1, 2, 3].map(() => global('http://a.test/keep/')), [true, true, true]);
  const onlyExclude = compileScope({ exclude: [/logout/] })!;
  assert.equal(onlyExclude('http://b.test/x'), true);
  assert.equal(onlyExclude('http://b.test/logout'), false);
});

const domainRows: [string, string | null][] = [
  ['cornell.edu', 'cornell.edu'],
  ['WWW.CS.Cornell.EDU', 'www.cs.cornell.edu'],
  ['.cornell.edu', 'cornell.edu'],
  ['*.cornell.edu', 'cornell.edu'],
  [' a.test ', 'a.test'],
  ['bücher.example', 'xn--bcher-kva.example'],
  ['127.0.0.1', '127.0.0.1'],
  ['http://a.test/', null],
  ['a.test:80', null],
  ['a.test/path', null],
  ['', null],
  ['a b', null],
];
for (const [value, want] of domainRows) {
  test(`parseDomain ${JSON.stringify(value)} -> ${want ?? 'FC_USAGE'}`, () => {
    if (want !== null) assert.equal(parseDomain(value), want);
    else assert.throws(() => parseDomain(value), { code: 'FC_USAGE' });
  });
}

test('parsePattern: a regular expression, or FC_USAGE with the cause', () => {
  assert.ok(parsePattern('include', '/courses?/').test('http://a.test/course/'));
  assert.throws(() => parsePattern('include', ''), { code: 'FC_USAGE' });
  assert.throws(() => parsePattern('exclude', '(['), (err: Error & { code?: string }) => err.code === 'FC_USAGE' && err.cause instanceof SyntaxError);
});

test('linksToQueue drops links outside the scope as out-of-scope, once per URL', () => {
  const links = ['http://a.test/in', 'http://b.test/out', 'http://b.test/out#again', 'http://a.test/a/a/a/'];
  const outlinks: Outlink[] = links.map((url) => ({ url, score: 0.5, anchor: '', context: '' }));
  const item: CrawlItem = { entry: { url: 'http://a.test/', score: 1, depth: 0, parent: null }, page: makePage('p'), relevant: true, outlinks };
  const drops: [string, LinkDropReason][] = [];
  const got = linksToQueue(item, Infinity, {}, Infinity, {
    inScope: compileScope({ domains: ['a.test'] })!,
    onDrop: (url, reason) => drops.push([url, reason]),
  });
  assert.deepEqual(got.map((l) => l.url), ['http://a.test/in']);
  // a trap is reported as a trap, whatever the scope
  assert.deepEqual(drops, [['http://b.test/out', 'out-of-scope'], ['http://a.test/a/a/a/', 'path-repetition']]);
});

/**
 * A web on one port-0 server reached under two host names, 127.0.0.1 and
 * `other` (localhost): robots.txt is 404, every other request is recorded
 * in `hits` as "host path" and answered by `answer`.
 */
async function twoHostWeb(
  t: import('node:test').TestContext,
  answer: (path: string, res: import('node:http').ServerResponse, other: string) => void,
): Promise<{ base: string; other: string; hits: string[] }> {
  const hits: string[] = [];
  let other = '';
  const base = await serve(t, (req, res) => {
    const p = req.url ?? '/';
    if (p === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    hits.push(`${req.headers.host?.split(':')[0]} ${p}`);
    answer(p, res, other);
  });
  other = base.replace('127.0.0.1', 'localhost');
  return { base, other, hits };
}

test('e2e: --allow-domain, --include and --exclude hold for links and sitemap entries; the seed is fetched anyway', async (t) => {
  const { base, other, hits } = await twoHostWeb(t, (p, res, other) => {
    const links = p === '/start' ? ['/keep/a', '/keep/private/b', '/skip/c', `${other}/keep/d`] : [];
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body>${links.map((l) => `<a href="${l}">link</a>`).join(' ')}</body></html>`);
  });
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const sitemap = path.join(dir, 'urls.txt');
  await writeFile(sitemap, `${base}/keep/e\n${base}/skip/f\n${other}/keep/g\n`);
  const r = await runMain([
    'crawl', '--seed', `${base}/start`, '--sitemap', sitemap, '--store', path.join(dir, 's'), '--allow-private', '--delay-ms', '0',
    '--stats-interval', '0', '--allow-domain', '127.0.0.1', '--include', '^http://[^/]+/keep/', '--exclude', 'private',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const urls = parseLines(r.stdout).map((x) => x.url.slice(base.length)).sort();
  assert.deepEqual(urls, ['/keep/a', '/keep/e', '/start']);
  assert.deepEqual(hits.sort(), ['127.0.0.1 /keep/a', '127.0.0.1 /keep/e', '127.0.0.1 /start']);
  assert.match(r.stderr, /links dropped: out-of-scope 3/);
  assert.match(r.stderr, /2 out of scope/);
});

test('e2e: a redirect out of scope is an FC_OUT_OF_SCOPE record and is not followed; one within it is', async (t) => {
  const { base, hits } = await twoHostWeb(t, (p, res, other) => {
    if (p === '/away') res.writeHead(302, { location: `${other}/landing` }).end();
    else if (p === '/moved') res.writeHead(301, { location: '/here' }).end();
    else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(p === '/start' ? '<a href="/away">away</a> <a href="/moved">moved</a>' : '<p>page</p>');
    }
  });
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runMain([
    'crawl', '--seed', `${base}/start`, '--store', path.join(dir, 's'), '--allow-private', '--delay-ms', '0', '--stats-interval', '0', '--allow-domain', '127.0.0.1',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const records = new Map(parseLines(r.stdout).map((x) => [x.url.slice(base.length), x]));
  assert.equal(records.get('/away')?.type, 'error');
  assert.equal(records.get('/away')?.code, 'FC_OUT_OF_SCOPE');
  assert.equal(records.get('/moved')?.type, 'page');
  assert.equal(records.get('/moved')?.finalUrl, `${base}/here`);
  assert.ok(!hits.some((h) => h.startsWith('localhost')), `no request off scope: ${hits.join(', ')}`);
});

test('e2e: a bad --allow-domain or --include is exit 2 with one FC_USAGE line', async () => {
  for (const args of [['--allow-domain', 'http://a.test/'], ['--include', '(['], ['--exclude', '']]) {
    const r = await runMain(['crawl', '--seed', 'http://a.test/', '--store', '/nonexistent/never', ...args]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^focuscrawl: FC_USAGE: [^\n]+\n$/);
  }
});
