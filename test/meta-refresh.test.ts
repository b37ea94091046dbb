// <meta http-equiv=refresh content="N; url=…">: a moved page's pointer (the
// 1997 WebKB web has students' home pages that moved this way) is a link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageParser } from '../src/parse/page-parser.ts';
import { refreshUrl } from '../src/parse/meta-refresh.ts';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';
import { serve } from './helpers/serve.ts';

test('refreshUrl reads the content value as HTML does', () => {
  const cases: Array<[string, string | null]> = [
    ['0; URL=http://www-ccs.cs.umass.edu/~pxuan', 'http://www-ccs.cs.umass.edu/~pxuan'],
    ['10; url="http://b.test/y" trailing', 'http://b.test/y'],
    ["0;url='/rel'", '/rel'],
    ['  3 , http://d.test/z  ', 'http://d.test/z'],
    ['0.5;URL = /p', '/p'],
    ['5', null],
    ['0; ', null],
    ['url=http://c.test/', null],
    ['x; url=/no', null],
    ['', null],
  ];
  for (const [content, want] of cases) assert.equal(refreshUrl(content), want, content);
});

test('PageParser: a meta refresh URL is a link (tag meta, resolved, nofollow from <meta robots>), any chunking', () => {
  const html = '<html><head><base href="http://moved.test/dir/"><META HTTP-EQUIV=Refresh CONTENT="0; URL=new.html"><title>Moved</title></head><body>This page has moved.</body></html>';
  const parse = (chunks: string[]) => {
    const p = new PageParser('http://old.test/~me/');
    for (const c of chunks) p.write(c);
    return p.end();
  };
  const page = parse([html]);
  assert.deepEqual(page.links.map((l) => [l.tag, l.url, l.anchor, l.nofollow]), [['meta', 'http://moved.test/dir/new.html', '', false]]);
  assert.deepEqual(parse([...html]), page);
  const nofollow = parse(['<meta name=robots content=nofollow><meta http-equiv="refresh" content="0;url=/x">']);
  assert.equal(nofollow.links[0].nofollow, true);
  assert.equal(parse(['<meta http-equiv="refresh" content="30">']).links.length, 0, 'a plain reload is no link');
});

test('crawl: a page that moved by meta refresh leads the crawl to its new address', async (t) => {
  const hits: string[] = [];
  const base = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    hits.push(req.url!);
    const body =
      req.url === '/'
        ? '<html><head><meta http-equiv="refresh" content="0; url=/new-home/"></head><body>Moved.</body></html>'
        : '<html><head><title>New home</title></head><body>Welcome.</body></html>';
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runMain(['crawl', '--seed', `${base}/`, '--store', dir, '--allow-private', '--quiet', '--delay-ms', '0']);
  assert.equal(r.code, 0, r.stderr);
  const pages = parseLines(r.stdout);
  assert.deepEqual(pages.map((p) => [p.url, p.depth]), [[`${base}/`, 0], [`${base}/new-home/`, 1]]);
  assert.deepEqual(hits, ['/', '/new-home/']);
});
