// The parser's output, byte for byte, against test/golden/parse-golden.tsv
// (written by the parser before issue 23's speed-ups): a speed-up must not
// change a link, anchor, context window, text block, flag or title.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GOLDEN_FILE, GOLDEN_OPTIONS, goldenDocs, goldenLine, pageHash } from './helpers/parse-golden.ts';
import { parseBody } from '../src/parse/body.ts';
import { PageParser } from '../src/parse/page-parser.ts';
import { createDecoder, sniffCharset } from '../src/parse/charset.ts';

const docs = goldenDocs();

test('every golden page parses to the same records as before (3 option sets)', async () => {
  const want = readFileSync(GOLDEN_FILE, 'utf8').trimEnd().split('\n');
  const all = await docs;
  assert.ok(all.length >= 500, `${all.length} golden pages`);
  assert.equal(all.length, want.length, 'one golden line per page');
  for (let i = 0; i < all.length; i++) assert.equal(goldenLine(all[i]), want[i], `page ${i}`);
});

test('golden pages fed one character (code point) at a time give the same page as the body at once', async () => {
  const all = await docs;
  for (let i = 0; i < all.length; i += 5) {
    const d = all[i];
    const charset = sniffCharset(d.body, d.headerCharset);
    const text = createDecoder(charset).decode(d.body);
    const opts = GOLDEN_OPTIONS[1];
    const p = new PageParser(d.url, { charset, contextChars: opts.contextChars, mainTextChars: opts.mainTextChars });
    for (const ch of text) p.write(ch);
    assert.equal(pageHash(p.end()), pageHash(parseBody(d.body, d.url, d.headerCharset, opts)), d.url);
  }
});
