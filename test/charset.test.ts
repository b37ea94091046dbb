import { test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { createDecoder, looksLikeUtf8, normaliseCharset, prescanMetaCharset, sniffCharset } from '../src/parse/charset.ts';

const html = (head: string, body = 'hello'): Buffer => Buffer.from(`<html><head>${head}</head><body>${body}</body></html>`, 'latin1');

test('sniffCharset: source precedence and label normalisation', () => {
  const cases: Array<[string, Buffer, string | null, string]> = [
    ['UTF-8 BOM beats header and meta', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), html('<meta charset="gbk">')]), 'big5', 'utf-8'],
    ['UTF-16LE BOM', Buffer.from([0xff, 0xfe, 0x3c, 0x00]), 'utf-8', 'utf-16le'],
    ['UTF-16BE BOM', Buffer.from([0xfe, 0xff, 0x00, 0x3c]), null, 'utf-16be'],
    ['header beats meta', html('<meta charset="gbk">'), 'big5', 'big5'],
    ['header label is normalised', html(''), 'GB2312', 'gbk'],
    ['quoted header label', html(''), '"utf-8"', 'utf-8'],
    ['unknown header falls through to meta', html('<meta charset="gb2312">'), 'x-bogus', 'gbk'],
    ['meta charset, unquoted, upper case', html('<META CHARSET=Big5>'), null, 'big5'],
    ['meta charset single-quoted', html("<meta charset='x-sjis'>"), null, 'shift_jis'],
    ['http-equiv Content-Type', html('<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'), null, 'gbk'],
    ['http-equiv, attributes reversed, unquoted', html('<meta content="text/html;charset=ISO-8859-1" http-equiv=content-type>'), null, 'windows-1252'],
    ['meta in a comment is ignored', html('<!-- <meta charset="big5"> --><meta charset="gbk">'), null, 'gbk'],
    ['unknown meta label falls to the next meta', html('<meta charset="nope"><meta charset="latin1">'), null, 'windows-1252'],
    ['meta utf-16 means utf-8', html('<meta charset="utf-16">'), null, 'utf-8'],
    ['junk markup before meta', html('<!WA0><title>x</ti<meta charset=gbk>'), null, 'gbk'],
    ['meta beyond 4096 bytes is not seen', html(' '.repeat(5000) + '<meta charset="gbk">'), null, 'windows-1252'],
    ['no label, ASCII only: windows-1252', html(''), null, 'windows-1252'],
    ['no label, Latin-1 bytes: windows-1252', Buffer.from('<p>caf\xe9 na\xefve</p>', 'latin1'), null, 'windows-1252'],
    ['no label, valid UTF-8 non-ASCII: utf-8', Buffer.from('<p>café 中文</p>', 'utf8'), null, 'utf-8'],
    ['empty header label falls through', Buffer.from('<p>café</p>', 'utf8'), '', 'utf-8'],
  ];
  for (const [name, body, header, want] of cases) {
    assert.equal(sniffCharset(body, header), want, name);
  }
});

test('normaliseCharset maps aliases and rejects unknown labels', () => {
  assert.equal(normaliseCharset('gb2312'), 'gbk');
  assert.equal(normaliseCharset(' Latin1 '), 'windows-1252');
  assert.equal(normaliseCharset('iso-8859-1'), 'windows-1252');
  assert.equal(normaliseCharset('x-sjis'), 'shift_jis');
  assert.equal(normaliseCharset('UTF8'), 'utf-8');
  assert.equal(normaliseCharset('no-such-charset'), null);
  assert.equal(normaliseCharset(''), null);
  assert.equal(normaliseCharset(null), null);
});

test('prescanMetaCharset tolerates junk and returns null without a label', () => {
  assert.equal(prescanMetaCharset(Buffer.from('<meta name=x><meta')), null);
  assert.equal(prescanMetaCharset(Buffer.from('<meta http-equiv=refresh content="0; url=x">')), null);
  assert.equal(prescanMetaCharset(Buffer.from('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=euc-kr">')), 'euc-kr');
});

test('looksLikeUtf8: truncated multi-byte tail is tolerated, invalid bytes are not', () => {
  const bytes = Buffer.from('中文', 'utf8');
  assert.equal(looksLikeUtf8(bytes.subarray(0, bytes.length - 1)), true);
  assert.equal(looksLikeUtf8(Buffer.from([0x61, 0xe9, 0x62])), false);
  assert.equal(looksLikeUtf8(Buffer.from('ascii')), false);
});

test('GBK, GB18030, Big5, Latin-1 and UTF-8 bytes decode to the expected text', () => {
  const cases: Array<[string, string, string]> = [
    ['gbk', 'gb2312', '金融新闻：股票与债券'],
    ['gb18030', 'gb18030', '金融𠀀新闻'],
    ['big5', 'big5', '繁體中文網頁'],
    ['windows-1252', 'latin1', 'Café naïve — Zürich'],
    ['utf-8', 'utf8', 'Grüße 中文 ✓'],
  ];
  for (const [label, iconvName, text] of cases) {
    const doc = `<html><head><meta http-equiv="Content-Type" content="text/html; charset=${iconvName}"></head><body>${text}</body></html>`;
    const bytes = iconv.encode(doc, iconvName === 'latin1' ? 'windows-1252' : iconvName);
    const cs = sniffCharset(bytes, null);
    assert.equal(cs, label, iconvName);
    assert.equal(createDecoder(cs).decode(bytes), doc, iconvName);
  }
});

test('createDecoder never throws and replaces malformed bytes', () => {
  assert.equal(createDecoder('utf-8').decode(Buffer.from([0x61, 0xff, 0x62])), 'a\ufffdb');
  assert.equal(createDecoder('no-such-charset').encoding, 'windows-1252');
  assert.equal(createDecoder('utf-8').decode(Buffer.from([0xef, 0xbb, 0xbf, 0x61])), 'a');
});

test('windows-1252 bytes 0x80-0x9F decode to their characters, streamed or not', () => {
  const bytes = Buffer.from([0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0x97, 0x20, 0xe9]);
  const want = '€ “q” — é';
  assert.equal(createDecoder('windows-1252').decode(bytes), want);
  assert.equal(createDecoder('latin1').decode(bytes), want);
  const d = createDecoder('windows-1252');
  assert.equal(d.decode(bytes.subarray(0, 4), { stream: true }) + d.decode(bytes.subarray(4), { stream: true }) + d.decode(), want);
});

// Regression: Node 20's own 'gbk' TextDecoder dropped € (GBK 0x80) and
// garbled characters outside GB2312; GBK pages must decode as GB18030 does.
test('createDecoder("gbk") decodes € and rare Han like GB18030', () => {
  const text = '价格€100，䶮';
  const bytes = iconv.encode(text, 'gb18030');
  assert.equal(createDecoder('gbk').decode(bytes), text);
  assert.equal(createDecoder('gb2312').decode(bytes), text);
});
