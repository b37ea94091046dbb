// The parser and the classify stage skip WHATWG parsing for URLs that
// isSimpleHttpUrl accepts; this checks that such a URL is exactly what the
// slow path (new URL / canonicalize through URL) would return.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalize, isSimpleHttpUrl } from '../src/urls/canonical.ts';
import { PageParser } from '../src/parse/page-parser.ts';

/** canonicalize through WHATWG URL (a base defeats the fast path). */
const slowCanonical = (s: string): string | null => canonicalize(s, 'http://base.test/');

const ACCEPTED = [
  'http://h1234.synth/',
  'http://h1234.synth/d2/p42.html',
  'https://www.example.com/a/b-c_d~e.f/',
  'http://localhost/x',
  'http://a-b.c-d.org/..x/.y/z..',
];
const REFUSED = [
  'http://H1234.synth/', // upper-case host
  'http://1.2.3.4/', // IPv4
  'http://a.0x7f/', // last label a number
  'http://a.b1/x/../y', // dot segment
  'http://a.b/x/.', // dot segment at the end
  'http://a.b/x/%2e/', // escape
  'http://a.b:80/', // port
  'http://a.b/index.html', // default file
  'http://a.b/x/Default.HTM',
  'http://a.b/?q=1', // query
  'http://a.b/#f', // fragment
  'http://u@a.b/', // user info
  'http://xn--bcher-kva.example/', // punycode
  'http://a..b/', // empty label
  'http://a.b./', // trailing dot
  'http://a.b', // no path
  'ftp://a.b/',
  'http://a.b/x y',
  'http://a.b/x\\y',
];

test('accepted URLs serialise and canonicalise to themselves', () => {
  for (const s of ACCEPTED) {
    assert.equal(isSimpleHttpUrl(s), true, s);
    assert.equal(new URL(s).href, s, s);
    assert.equal(slowCanonical(s), s, s);
    assert.equal(canonicalize(s), s, s);
  }
  for (const s of REFUSED) assert.equal(isSimpleHttpUrl(s), false, s);
});

test('on random URL-like strings the fast path agrees with WHATWG URL and canonicalize', () => {
  const hostParts = ['a', 'b9', 'x', 'c', 'a.', '.b', '-', '.', '0', '1.2', 'xn--', 'A', '0x1', ':8', '@'];
  const pathParts = ['/', '..', '.', 'x', 'index.html', 'Index.htm', '~', '_', 'Z', '%2e', '?q', '#', '-', ' ', '\\'];
  let seed = 7;
  const rand = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % n;
  let accepted = 0;
  for (let i = 0; i < 20_000; i++) {
    let s = rand(2) === 0 ? 'http://' : 'https://';
    for (let j = 1 + rand(3); j > 0; j--) s += hostParts[rand(hostParts.length)];
    if (rand(8) !== 0) s += '/';
    for (let j = rand(8); j > 0; j--) s += pathParts[rand(pathParts.length)];
    if (!isSimpleHttpUrl(s)) continue;
    accepted++;
    assert.equal(new URL(s).href, s, s);
    assert.equal(slowCanonical(s), s, s);
  }
  assert.ok(accepted > 100, `only ${accepted} random strings were accepted`);
});

test('links with simple absolute hrefs come out as before (resolved, copied)', () => {
  const p = new PageParser('http://page.test/dir/');
  p.write('<a href=" http://h1.synth/d1/p2.html ">one</a><a href="/rel/x.html">two</a><a href="HTTP://H1.SYNTH/A">three</a>');
  assert.deepEqual(p.end().links.map((l) => l.url), ['http://h1.synth/d1/p2.html', 'http://page.test/rel/x.html', 'http://h1.synth/A']);
});
