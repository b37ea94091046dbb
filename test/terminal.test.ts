import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEFAULT_TERMINAL_MAX, sanitizeForTerminal, stringifyForTerminal } from '../src/output/terminal.ts';

/** Characters a terminal acts on, or that make the line lie about its content. */
const DANGEROUS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

test('plain text, including non-ASCII and astral characters, passes unchanged', () => {
  for (const s of ['https://example.com/a?b=c&d=e#f', '北京 新闻 – “quotes” ’', 'emoji 😀 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '']) {
    assert.equal(sanitizeForTerminal(s), s);
  }
});

test('C0 and C1 controls, DEL, ESC and CSI become visible escapes', () => {
  assert.equal(sanitizeForTerminal('a\x1b[2Jb'), 'a\\x1b[2Jb');
  assert.equal(sanitizeForTerminal('\x1b]8;;http://evil/\x07click\x1b]8;;\x07'), '\\x1b]8;;http://evil/\\x07click\\x1b]8;;\\x07');
  assert.equal(sanitizeForTerminal('x\u009b31m'), 'x\\x9b31m');
  assert.equal(sanitizeForTerminal('ok\rFAKE'), 'ok\\rFAKE');
  assert.equal(sanitizeForTerminal('a\nb\tc'), 'a\\nb\\tc');
  assert.equal(sanitizeForTerminal('a\bb\0c\x7fd'), 'a\\x08b\\x00c\\x7fd');
  assert.equal(sanitizeForTerminal('\u0085'), '\\x85');
});

test('bidi overrides and isolates, line separators and lone surrogates are escaped', () => {
  // "txt.exe" shown as "exe.txt" by an RLO: the escape shows the trick
  assert.equal(sanitizeForTerminal('evil\u202Etxt.exe'), 'evil\\u202Etxt.exe');
  assert.equal(sanitizeForTerminal('\u2066a\u2069'), '\\u2066a\\u2069');
  assert.equal(sanitizeForTerminal('a\u2028b\u2029'), 'a\\u2028b\\u2029');
  assert.equal(sanitizeForTerminal('a\ud800b'), 'a\\uD800b');
  assert.equal(sanitizeForTerminal('\udc00'), '\\uDC00');
  assert.equal(sanitizeForTerminal('😀'), '😀');
});

test('long text is cut to maxLen with an ellipsis, never inside an escape or a surrogate pair', () => {
  assert.equal(sanitizeForTerminal('abcdef', 6), 'abcdef');
  assert.equal(sanitizeForTerminal('abcdefg', 6), 'abcde…');
  assert.equal(sanitizeForTerminal('abcd\x1bxyz', 8), 'abcd…');
  assert.equal(sanitizeForTerminal('ab😀😀', 4), 'ab…');
  assert.equal(sanitizeForTerminal('x'.repeat(1000)).length, DEFAULT_TERMINAL_MAX);
  assert.equal(sanitizeForTerminal('\x1b\x1b', 1), '…');
  assert.equal(sanitizeForTerminal('abc', Infinity), 'abc');
  assert.throws(() => sanitizeForTerminal('abc', 0), TypeError);
});

test('property: no dangerous character survives, the cap holds, safe input is kept', () => {
  const anyChar = fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)),
    fc.constantFrom('\x1b', '\u009b', '\x07', '\r', '\b', '\0', '\x7f', '\u202e', '\u2067', '\ud83d', '\ude00', '😀', 'a'),
  );
  fc.assert(
    fc.property(fc.array(anyChar, { maxLength: 80 }), fc.integer({ min: 1, max: 120 }), (chars, max) => {
      const s = chars.join('');
      const out = sanitizeForTerminal(s, max);
      assert.ok(!DANGEROUS.test(out), JSON.stringify(out));
      assert.ok(out.length <= max);
      // the output is well-formed UTF-16, so it encodes to UTF-8 and back unchanged
      assert.equal(Buffer.from(out, 'utf8').toString('utf8'), out);
      if (!DANGEROUS.test(s) && s.length <= max) assert.equal(out, s);
    }),
  );
});

test('stringifyForTerminal: same value as JSON.stringify, no raw C0/C1/DEL/bidi/U+2028 and no lone surrogate', () => {
  assert.equal(stringifyForTerminal({ t: 'a\u009bb\u202e\u2028\x7f' }), '{"t":"a\\u009bb\\u202e\\u2028\\u007f"}');
  assert.equal(stringifyForTerminal({ t: '北京 😀' }), '{"t":"北京 😀"}');
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 20 }), (a, b) => {
      const value = { a, nested: [b, { [a]: 1 }] };
      const line = stringifyForTerminal(value);
      assert.deepEqual(JSON.parse(line), value);
      assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]/.test(line.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')), line);
    }),
  );
});
