// Fuzz (issue 5): generated malformed HTML and URLs through the parse stage
// (charset sniffing, decoding, PageParser) and canonicalize. No exception may
// escape, outlinks must be well-formed http(s) URLs, the parser's caps must
// hold, chunked input must parse exactly like the whole input, and
// canonicalize must return null or an http(s) URL that is its own canonical
// form. Property-based (fast-check) with a fixed seed: a failure prints the
// seed, the run and the shrunk counter-example; FUZZ_SEED=n picks another seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PageParser, type PageParserOptions } from '../src/parse/page-parser.ts';
import { parseBody } from '../src/parse/body.ts';
import { parseStage } from '../src/stages/parse.ts';
import { canonicalize } from '../src/urls/canonical.ts';
import type { CrawlItem, FetchResult, ParsedPage } from '../src/types.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_050_505);
/**
 * Size (issue 25): `npm test` runs a fifth of each property's cases, the
 * first fifth of the same seeded sequence; test/long/fuzz-full.test.ts sets
 * FC_FUZZ_FULL=1 and runs them all (`npm run test:long`).
 */
const FULL = process.env.FC_FUZZ_FULL === '1';
/** The number of cases for a property whose full size is `full`. */
const runs = (full: number): number => (FULL ? full : Math.ceil(full / 5));
/** `runs(full)` for a test name: 6,000 or 1,200. */
const count = (full: number): string => runs(full).toLocaleString('en-US');

/** fc.assert with the fixed seed, which is printed so a failure can be replayed. */
function check<T>(t: { diagnostic: (s: string) => void }, prop: fc.IPropertyWithHooks<T>, numRuns: number): void {
  t.diagnostic(`fast-check seed ${SEED}, ${numRuns} runs (FUZZ_SEED=${SEED} to replay)`);
  fc.assert(prop, { seed: SEED, numRuns, includeErrorInReport: true });
}

const PAGE_URL = 'http://fuzz.example/dir/page.html';

// ---- HTML ----------------------------------------------------------------

const junkUrl = fc.oneof(
  fc.constantFrom(
    'http://a.example/x', 'https://b.example/?q=1#f', '/rel/path', '../up', '//proto.example/rel', '?only=query', '#frag', '',
    ' ', 'javascript:alert(1)', 'mailto:a@b.example', 'data:text/html,<p>', 'ftp://f.example/', 'http://[::1', 'http://%zz/',
    'http://bücher.example/ä', 'HTTP://UPPER.EXAMPLE:80/%7e%2f', 'http://a.example:99999/', '\\\\evil.example\\x', 'http:/x',
    'http://a b.example/', '\u0000', 'http://\uD800.example/', 'https://例え.テスト/パス', 'http://0x7f.1/', 'index.html',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

const attrValue = fc.oneof(
  { arbitrary: junkUrl, weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.constantFrom('nofollow', 'noindex, nofollow', 'none', 'utf-16', 'gbk', 'bogus-charset', 'text/html; charset=shift_jis', 'nav', 'menu', 'robots', 'content-type'), weight: 2 },
  // long values, beyond the anchor cap and the context window
  { arbitrary: fc.tuple(fc.constantFrom('x', 'word ', '字', '&amp;'), fc.integer({ min: 50, max: 700 })).map(([s, n]) => s.repeat(n)), weight: 1 },
);

const TAGS = [
  'a', 'area', 'frame', 'iframe', 'base', 'meta', 'title', 'script', 'style', 'noscript', 'template', 'ul', 'ol', 'li', 'td', 'tr',
  'table', 'nav', 'header', 'footer', 'div', 'p', 'h1', 'h2', 'h4', 'img', 'b', 'strong', 'font', 'html', 'body', 'head',
  'textarea', 'select', 'option', 'label', 'button', 'br', 'svg', 'math', 'noembed', 'noframes', 'plaintext', 'xmp', 'A', 'IMG', 'x-y',
];
const ATTRS = ['href', 'src', 'rel', 'alt', 'title', 'name', 'id', 'class', 'charset', 'content', 'http-equiv', 'lang', 'size', 'HREF', 'on"x'];

const attr = fc.tuple(fc.constantFrom(...ATTRS), attrValue, fc.constantFrom('"', "'", '', 'none', 'open"')).map(([name, value, q]) => {
  if (q === 'none') return ` ${name}`;
  if (q === 'open"') return ` ${name}="${value}`; // unterminated quote
  return ` ${name}=${q}${value}${q}`;
});

const openTag = fc.tuple(fc.constantFrom(...TAGS), fc.array(attr, { maxLength: 4 }), fc.constantFrom('>', ' />', '', '/>')).map(([tag, attrs, end]) => `<${tag}${attrs.join('')}${end}`);
const closeTag = fc.constantFrom(...TAGS).map((tag) => `</${tag}>`);

/** HTML-ish token soup: unclosed tags, stray `<`, broken entities, NUL and lone surrogates, text. */
const token = fc.oneof(
  { arbitrary: openTag, weight: 6 },
  { arbitrary: closeTag, weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 3 },
  { arbitrary: fc.constantFrom('hello world', ' ', '\n\t ', 'solar panel energy', '太阳能光伏发电', '\u00a0\u3000', 'word'), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      '<', '</', '<<', '>', '< a', '<!--', '-->', '<!-- c -->', '<!DOCTYPE html>', '<![CDATA[x]]>', '<?xml ?>', '<!', '</>',
      '&amp;', '&lt;', '&#x110000;', '&#0;', '&#xD800;', '&#55296;', '&notanentity;', '&#', '&', '&#x;', '&nbsp', '&amp',
      '\u0000', '\uD800', '\uDC00', '\uFFFE', '\uFEFF', '\r\n', '\u2028',
      '<base href="http://based.example/b/">', '<base href=":::junk">', '<base href="javascript:x">',
      '<meta charset="utf-16">', '<meta charset=gb2312>', '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
      '<meta name=robots content=nofollow>', '<title>Home</title>', '<h1>A heading</h1>',
    ),
    weight: 3,
  },
);

const soup = fc.array(token, { maxLength: 60 }).map((ts) => ts.join(''));

/** Parser caps, small so that generated documents hit them, or the defaults. */
const parserOpts: fc.Arbitrary<PageParserOptions> = fc.oneof(
  fc.record({
    contextChars: fc.integer({ min: 0, max: 40 }),
    maxLinks: fc.integer({ min: 0, max: 12 }),
    maxTextChars: fc.integer({ min: 0, max: 400 }),
    maxAnchorChars: fc.integer({ min: 0, max: 60 }),
    mainTextChars: fc.integer({ min: 0, max: 300 }),
  }),
  fc.constant({}),
  fc.constant({ mainTextChars: 100_000 }),
);

/**
 * Split `s` at the given positions, moved off the middle of a surrogate pair
 * (a TextDecoder never ends a chunk between the halves of a pair, so the
 * parse stage never feeds them apart; the one-unit-at-a-time test below
 * does).
 */
function splitAt(s: string, cuts: number[]): string[] {
  const inPair = (i: number): boolean => i > 0 && i < s.length && /[\uD800-\uDBFF]/.test(s[i - 1]) && /[\uDC00-\uDFFF]/.test(s[i]);
  const at = [...new Set(cuts.map((c) => (s.length === 0 ? 0 : c % (s.length + 1))).map((c) => (inPair(c) ? c - 1 : c)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const c of at) {
    out.push(s.slice(prev, c));
    prev = c;
  }
  out.push(s.slice(prev));
  return out;
}

function parseChunks(chunks: readonly string[], opts: PageParserOptions): ParsedPage {
  const p = new PageParser(PAGE_URL, opts);
  for (const c of chunks) p.write(c);
  return p.end();
}

/** The invariants every parsed page keeps, whatever its input. */
function assertWellFormed(page: ParsedPage, opts: PageParserOptions): void {
  const maxLinks = opts.maxLinks ?? 5000;
  const maxText = opts.maxTextChars ?? 200_000;
  const maxAnchor = opts.maxAnchorChars ?? 500;
  const n = opts.contextChars ?? 100;
  assert.ok(page.links.length <= maxLinks, `links ${page.links.length} > ${maxLinks}`);
  assert.ok(page.title.length <= maxText);
  for (const [type, text] of Object.entries(page.blocks)) {
    assert.equal(typeof text, 'string');
    assert.ok(text.length <= maxText, `block ${type} is ${text.length} > ${maxText}`);
  }
  for (const l of page.links) {
    assert.equal(typeof l.url, 'string');
    const u = new URL(l.url); // throws if not a URL
    assert.ok(u.protocol === 'http:' || u.protocol === 'https:', l.url);
    assert.equal(u.href, l.url, 'outlinks are serialised URLs');
    assert.ok(l.anchor.length <= maxAnchor, `anchor ${l.anchor.length} > ${maxAnchor}`);
    // context: N characters each side, or the neighbours' anchors
    assert.ok(l.context.length <= Math.max(2 * n, 2 * maxAnchor) + 1, `context ${l.context.length} chars (N ${n}, anchor cap ${maxAnchor})`);
    assert.doesNotMatch(l.anchor, /[^\S ]| {2}/, 'anchor whitespace is collapsed');
    assert.doesNotMatch(l.context, /[^\S ]| {2}/, 'context whitespace is collapsed');
    assert.ok(['a', 'area', 'frame', 'iframe', 'meta'].includes(l.tag));
  }
  assert.equal(typeof page.base, 'string');
  const maxMain = opts.mainTextChars ?? 0;
  if (maxMain === 0) {
    assert.equal(page.text, undefined, 'no main text unless asked for');
  } else {
    assert.equal(typeof page.text, 'string');
    assert.ok(page.text!.length <= maxMain, `main text ${page.text!.length} > ${maxMain}`);
    assert.doesNotMatch(page.text!, /[^\S \n]| {2}|\n\n|^\s|\s$| \n|\n /, 'main text: single spaces and single line breaks, trimmed');
  }
}

/**
 * `html` made to end outside a tag, for the chunking comparisons: htmlparser2
 * 12.0.0 emits garbage text when the input ends inside `<b/` or `</b `, and
 * which garbage depends on the chunking (see the todo test below).
 */
const closed = (html: string): string => `${html}>`;

test(`PageParser: ${count(6000)} documents of HTML token soup: no throw, well-formed links, caps hold, any chunking = whole`, (t) => {
  check(
    t,
    fc.property(soup, parserOpts, fc.array(fc.nat(), { maxLength: 8 }), (html, opts, cuts) => {
      assertWellFormed(parseChunks([html], opts), opts);
      const doc = closed(html);
      const whole = parseChunks([doc], opts);
      assertWellFormed(whole, opts);
      assert.deepEqual(parseChunks(splitAt(doc, cuts), opts), whole, 'split at random points');
    }),
    runs(6000),
  );
});

test(`PageParser: ${count(1000)} documents fed one code point at a time equal the whole`, (t) => {
  check(
    t,
    fc.property(fc.array(token, { maxLength: 25 }).map((ts) => closed(ts.join(''))), parserOpts, (html, opts) => {
      assert.deepEqual(parseChunks([...html], opts), parseChunks([html], opts));
    }),
    runs(1000),
  );
});

// What broke: a cap that fell between the halves of a surrogate pair fed in
// two writes kept the lone high surrogate. Counter-example: "\u0000\u{10000}"
// with maxTextChars 2, fed one UTF-16 unit at a time, gave content
// "\u0000\uD800" instead of "\u0000". PageParser.write now holds a trailing
// high surrogate until the next write.
test(`PageParser: ${count(1000)} documents fed one UTF-16 unit at a time (surrogate pairs cut in two) equal the whole`, (t) => {
  check(
    t,
    fc.property(fc.array(token, { maxLength: 25 }).map((ts) => closed(ts.join(''))), parserOpts, (html, opts) => {
      assert.deepEqual(parseChunks(html.split(''), opts), parseChunks([html], opts));
    }),
    runs(1000),
  );
});

// What broke: upstream htmlparser2 12.0.0, at the end of input inside `<b/`
// (state InSelfClosingTag) or `</b ` (AfterClosingTagName), emits
// ontext(-1, end), and Parser.getSlice(-1, end) slices with a negative start,
// so a body cut by --max-bytes inside such a tag got one or two characters of
// text that depended on the chunk boundaries. PageParser drops text with no
// start (WHATWG: end of input in a tag emits nothing).
test('htmlparser2: input ending inside "<b/" or "</x " parses the same in any chunking', () => {
  for (const [html, cut] of [['<b/', 1], ['</x ', 2], ['ab<a/', 3]] as const) {
    assert.deepEqual(parseChunks([html.slice(0, cut), html.slice(cut)], {}), parseChunks([html], {}), html);
    assert.equal(parseChunks([html], {}).blocks.content, html.slice(0, html.indexOf('<')), html);
  }
});

test(`PageParser: ${count(2000)} arbitrary strings (any code point) parse without a throw`, (t) => {
  check(
    t,
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), parserOpts, fc.array(fc.nat(), { maxLength: 4 }), (s, opts, cuts) => {
      assertWellFormed(parseChunks([s], opts), opts);
      const doc = closed(s);
      assert.deepEqual(parseChunks(splitAt(doc, cuts), opts), parseChunks([doc], opts));
    }),
    runs(2000),
  );
});

const HEADER_CHARSETS = [null, 'utf-8', 'UTF-8', 'utf-16le', 'utf-16be', 'gbk', 'gb2312', 'shift_jis', 'euc-kr', 'iso-2022-jp', 'windows-1252', 'latin1', 'x-user-defined', 'iso-2022-kr', 'replacement', 'bogus', '"utf-8"', ''];

/** Bodies as bytes: random bytes, or token soup encoded in some charset, with a BOM now and then. */
const body = fc.oneof(
  fc.uint8Array({ maxLength: 400 }).map((a) => Buffer.from(a)),
  fc.tuple(soup, fc.constantFrom('utf8', 'utf16le', 'latin1'), fc.constantFrom('', '\uFEFF')).map(([s, enc, bom]) => Buffer.from(bom + s, enc as BufferEncoding)),
  fc.tuple(fc.uint8Array({ maxLength: 40 }), soup, fc.uint8Array({ maxLength: 40 })).map(([a, s, b]) => Buffer.concat([Buffer.from(a), Buffer.from(s), Buffer.from(b)])),
);

test(`parse stage: ${count(2000)} bodies (random bytes, lying <meta charset>, BOMs, odd header charsets) in any byte chunking`, (t) => {
  check(
    t,
    fc.property(body, fc.constantFrom(...HEADER_CHARSETS), parserOpts, fc.integer({ min: 1, max: 64 }), (raw, charset, opts, chunkSize) => {
      const buf = Buffer.concat([raw, Buffer.from('>')]); // see closed()
      const whole = parseBody(buf, PAGE_URL, charset, { ...opts, chunkSize: Math.max(1, buf.length) });
      assertWellFormed(whole, opts);
      assert.deepEqual(parseBody(buf, PAGE_URL, charset, { ...opts, chunkSize }), whole, `chunkSize ${chunkSize}`);
    }),
    runs(2000),
  );
});

test(`parse stage: ${count(500)} generated bodies through parseStage: every item gets a page, none an error`, async (t) => {
  const bodies = fc.sample(fc.tuple(body, fc.constantFrom(...HEADER_CHARSETS)), { seed: SEED, numRuns: runs(500) });
  t.diagnostic(`fast-check seed ${SEED}, ${bodies.length} samples`);
  async function* items(): AsyncGenerator<CrawlItem> {
    for (const [buf, charset] of bodies) {
      const fetch = { url: PAGE_URL, finalUrl: PAGE_URL, headerCharset: charset, body: buf } as unknown as FetchResult;
      yield { entry: { url: PAGE_URL, score: 0, depth: 0, parent: null }, fetch };
    }
  }
  let n = 0;
  for await (const item of parseStage(items(), { chunkSize: 7 })) {
    assert.equal(item.error, undefined, JSON.stringify(item.error));
    assert.ok(item.page !== undefined);
    assert.equal(item.fetch!.body, null);
    assertWellFormed(item.page, {});
    n++;
  }
  assert.equal(n, bodies.length);
});

// Found by this fuzz test: Node 20's streaming gb18030 decoder (used for GBK
// pages) throws ERR_ENCODING_INVALID_ENCODED_DATA on some malformed
// sequences although it is not fatal (euc-jp too), so such a page became an
// FC_INTERNAL error record instead of a parsed page.
test('regression: a malformed GBK / EUC-JP body decoded in small chunks does not throw', () => {
  const cases: Array<[number[], string]> = [
    [[0x81, 0x30, 0x00], 'gbk'],
    [[0x2a, 0x33, 0xfd, 0x49, 0x0f, 0xd1, 0x35], 'gbk'],
    [[0x81, 0x30, 0x00], 'gb18030'],
    [[0x8f, 0xb9, 0x5a, 0x75, 0xe8, 0x4a], 'euc-jp'],
  ];
  for (const [bytes, charset] of cases) {
    const buf = Buffer.from(bytes);
    const whole = parseBody(buf, PAGE_URL, charset, { chunkSize: buf.length });
    for (const chunkSize of [1, 2, 3]) assert.deepEqual(parseBody(buf, PAGE_URL, charset, { chunkSize }), whole, `${charset} ${bytes} in ${chunkSize}-byte chunks`);
  }
});

// ---- URLs ------------------------------------------------------------------

// Found by this fuzz test: decoding an escape can complete a stray '%' before
// it into a new escape ("%4" + "%41" -> "%4A"), which the next call decodes
// again, so canonicalize was not idempotent.
test('regression: canonicalize does not make new escapes out of stray % signs', () => {
  for (const x of ['http://a.example/p%4%41', 'http://a.example/?q=%4%411', 'http://a.example/?%%34%31', 'http://a.example/%%41%42', 'http://a.example/%2%32']) {
    const c = canonicalize(x);
    assert.ok(c !== null, x);
    assert.equal(canonicalize(c), c, `${x} -> ${c} -> ${canonicalize(c)}`);
  }
});

const webUrl = fc.webUrl({
  validSchemes: ['http', 'https'],
  withQueryParameters: true,
  withFragments: true,
  authoritySettings: { withIPv4: true, withIPv6: true, withIPv4Extended: true, withPort: true, withUserInfo: true },
});

const HOSTS = [
  'bücher.example', '例え.テスト', 'xn--bcher-kva.example', 'faß.de', 'ΑΒΓ.gr', 'xn--zz', 'a..b', 'ＥＸＡＭＰＬＥ.com', '-a-.com', 'a_b.com',
  'example.com.', 'example.com..', '.', '127.0.0.1', '0x7f.1', '1.2.3.4.5', '256.1.1.1', '0177.0.0.01', '4294967295', '[::1]',
  '[::ffff:1.2.3.4]', '[fe80::1%25eth0]', '[1:2:3:4:5:6:7:8:9]', 'İstanbul.tr', 'a\u200Bb.com', 'xn--ls8h.la', 'a。b。c', 'ex%41mple.com',
  '%zz.com', 'exa mple.com', 'ex\u0000ample.com',
];

/** Pieces spliced into URLs: percent oddities, IDN, IPv6, ports, backslashes, tabs, newlines, dots. */
const SPLICE = [
  '%zz', '%', '%%', '%0', '%00', '%2F', '%2f', '%7E', '%7e', '%41', '%c3%bc', '%C3%BC', '%E4%BE%8B', '%ff', '%2e', '%2E%2E', '%3F', '%23',
  '\\', '\t', '\n', '\r', ' ', 'ü', '例', '\u0000', '\uD800', '\uDFFF', '..', '/./', '/../', '/%2e%2e/', '#', '?', '??', '@', ':', ':99999',
  ':0', ':-1', ':80', ':443', '[::1]', '[', ']', 'xn--', '/index.html', '/INDEX.HTM', '/default.htm', '.', '//', '\u200B', 'ß', '\uFF0F',
  '&', '=', ';', "'", '"', '<', '>', '`', '{', '}', '|', '^',
];

/** A string with `k` random pieces spliced in at random places. */
function mutate(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(base, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SPLICE)), { minLength: 1, maxLength: 5 })).map(([s, edits]) => {
    let out = s;
    for (const [pos, piece] of edits) {
      const i = pos % (out.length + 1);
      out = out.slice(0, i) + piece + out.slice(i);
    }
    return out;
  });
}

const hostUrl = fc
  .tuple(fc.constantFrom('http://', 'https://', 'HTTP://', 'hTtPs://', 'http:', 'http:\\\\', 'http:/'), fc.constantFrom(...HOSTS), fc.constantFrom('', '/', '/a/b', '/a/./b/../c/index.html', '/%7Euser/', '?q=%41'))
  .map(([s, h, p]) => s + h + p);

const longUrl = fc.tuple(fc.constantFrom('http://long.example/', 'https://例.example/?q='), fc.constantFrom('a', '%41', 'ü/', '../', '%zz'), fc.integer({ min: 100, max: 4000 })).map(([b, piece, n]) => b + piece.repeat(n));

const urlInput = fc.oneof(
  { arbitrary: webUrl, weight: 3 },
  { arbitrary: mutate(webUrl), weight: 4 },
  { arbitrary: hostUrl, weight: 2 },
  { arbitrary: mutate(hostUrl), weight: 2 },
  { arbitrary: longUrl, weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', 'ftp://a/', 'javascript:x', 'mailto:a@b', 'data:,x', 'http://', 'https:', '//a.example/', 'a', '?x', '#y', '../z', '\\\\a.example\\b'), weight: 1 },
);

const relative = fc.oneof(
  fc.constantFrom('', ' ', '.', '..', '../a', './b/../c', '//other.example/x', '///triple', '?q', '#f', '\\\\evil.example', '/\\x', 'javascript:x', 'HTTP:foo', 'http:bar', 'index.html', '%2e%2e/x', 'a b', '\t/t\n'),
  mutate(fc.constantFrom('a/b', '/x/y?z', '../q', '//h.example/p')),
);

/** The properties of a canonicalize result; `r` from input `x` (and `base`). */
function assertCanonical(r: string | null): void {
  if (r === null) return;
  assert.equal(typeof r, 'string');
  const u = new URL(r);
  assert.ok(u.protocol === 'http:' || u.protocol === 'https:', r);
  assert.equal(u.hash, '', 'no fragment');
  assert.equal(u.username + u.password, '', 'no credentials');
  assert.doesNotMatch(r, /[\s\x00-\x1f\x7f]/, 'no whitespace or controls');
  assert.equal(canonicalize(r), r, 'a canonical URL is its own canonical form');
  assert.equal(canonicalize(r, undefined, { dropIndex: true }), r);
}

test(`canonicalize: ${count(10_000)} generated URLs (webUrl + mutations, IDN, percent oddities, IPv6, ports, long): null or a fixed point`, (t) => {
  check(
    t,
    fc.property(urlInput, fc.boolean(), (x, dropIndex) => {
      let r: string | null = null;
      assert.doesNotThrow(() => {
        r = canonicalize(x, undefined, { dropIndex });
      });
      if (r === null) return;
      assertCanonical(dropIndex ? r : canonicalize(r));
      assert.equal(canonicalize(r, undefined, { dropIndex }), r, 'idempotent with the same options');
    }),
    runs(10_000),
  );
});

test(`canonicalize: ${count(10_000)} generated URLs resolved against a generated base: null or a fixed point`, (t) => {
  check(
    t,
    fc.property(fc.oneof(urlInput, relative), fc.oneof(webUrl, mutate(webUrl), hostUrl, fc.constantFrom('', 'not a base', 'mailto:x@y', 'http://')), (x, base) => {
      let r: string | null = null;
      assert.doesNotThrow(() => {
        r = canonicalize(x, base);
      });
      assertCanonical(r);
    }),
    runs(10_000),
  );
});
