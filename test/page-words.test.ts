// One word split per page shared by the relevance judge and the SimHash
// (issue 23): both must give exactly what each tokenising on its own gave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TopicModel, BLOCK_WEIGHTS } from '../src/relevance/topic.ts';
import { pageFingerprint, MAX_FINGERPRINT_CHARS } from '../src/stages/dedup.ts';
import { fingerprintToHex, simhashTokens, type Fingerprint } from '../src/relevance/simhash.ts';
import { tokenize } from '../src/relevance/text/tokenize.ts';
import { termFreq } from '../src/relevance/text/vector.ts';
import { blockWords } from '../src/relevance/text/page-words.ts';
import { makePage } from './helpers/pages.ts';
import type { BlockType, PageLink, ParsedPage } from '../src/types.ts';
import { seededRandom as rng } from '../src/util/random.ts';

// stop words, apostrophes, possessives, digits, a final sigma, full-width letters, combining marks
const WORDS = ['solar', 'energy', 'the', 'of', "don't", "cornell's", 'PANEL', '1997', '123456', 'a', 'x', 'ΟΔΟΣ', 'Ｓｏｌａｒ', 'e\u0301te', "'quoted'", 'page-one', 'it’s', 'über', '42', 'and'];

function text(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r() < 0.5 ? WORDS[Math.floor(r() * WORDS.length)]! : `w${Math.floor(r() * 500).toString(36)}`);
  return out.join(r() < 0.5 ? ' ' : ', ');
}

function randomPage(r: () => number, words: number): ParsedPage {
  const links: PageLink[] = [];
  for (let i = 0; i < 5; i++) {
    links.push({ url: `http://h/${i}`, anchor: r() < 0.2 ? '' : text(r, 3), context: '', nofollow: false, block: r() < 0.3 ? 'navigation' : 'content' } as PageLink);
  }
  const blocks: Partial<Record<BlockType, string>> = { heading: text(r, 4), content: text(r, words), other: r() < 0.5 ? '' : text(r, 6), navigation: text(r, 5), anchor: text(r, 5) };
  const page = makePage(r() < 0.3 ? '' : text(r, 3), blocks, links);
  if (page.blocks.title === '') page.title = text(r, 2);
  return page;
}

const hex = (fp: Fingerprint | null): string | null => (fp === null ? null : fingerprintToHex(fp));

/** pageTermFreq as it was: each block tokenised with stop words dropped */
function referenceTermFreq(page: ParsedPage): Map<string, number> {
  const tf = new Map<string, number>();
  for (const [type, weight] of Object.entries(BLOCK_WEIGHTS) as [BlockType, number][]) {
    const t = type === 'title' ? page.blocks.title || page.title : page.blocks[type];
    if (t) termFreq(tokenize(t), weight, tf);
  }
  return tf;
}

/** pageFingerprint's tokens as they were: the joined text, cut, tokenised with stop words kept */
function referenceFingerprint(page: ParsedPage): string | null {
  const parts = [page.blocks.title, page.blocks.heading, page.blocks.content, page.blocks.other];
  for (const l of page.links) if (l.block !== 'navigation' && l.anchor !== '') parts.push(l.anchor);
  const tokens = tokenize(parts.join(' \n ').slice(0, MAX_FINGERPRINT_CHARS), { stopwords: false });
  if (tokens.length < 30 || new Set(tokens).size < 30) return null;
  const fp = simhashTokens(tokens);
  return fp === null ? null : fingerprintToHex(fp);
}

test('judge and SimHash on a shared split give what each gave tokenising alone', () => {
  const r = rng(20261127);
  const model = new TopicModel({ name: 't', terms: ['solar energy', 'panel'], threshold: 0.2 });
  let fingerprinted = 0;
  for (let i = 0; i < 300; i++) {
    // some pages pass the fingerprint's character cap, which cuts a word
    const page = randomPage(r, i % 10 === 0 ? 3000 : 40 + Math.floor(r() * 200));
    const fresh = structuredClone(page);
    // judge first (as classify runs before dedup), then fingerprint from the cached split
    assert.deepEqual([...model.pageTermFreq(page)].sort(), [...referenceTermFreq(fresh)].sort(), `page ${i}: term counts`);
    const fp = hex(pageFingerprint(page));
    if (fp !== null) fingerprinted++;
    assert.equal(fp, referenceFingerprint(fresh), `page ${i}: fingerprint`);
    // fingerprint alone (a page no judge saw: the worker path)
    assert.equal(hex(pageFingerprint(structuredClone(fresh))), referenceFingerprint(fresh), `page ${i}: fingerprint alone`);
  }
  // most pages carry enough distinct words to be fingerprinted (the rest: fewer than 30)
  assert.ok(fingerprinted > 150, `${fingerprinted} fingerprinted`);
});

test('blockWords splits a block once per page and segmenter', () => {
  const page = makePage('Solar energy', { content: 'the panel of the roof' });
  const a = blockWords(page, 'content', undefined);
  assert.deepEqual(a, ['the', 'panel', 'of', 'the', 'roof']);
  assert.equal(blockWords(page, 'content', undefined), a);
  const seg = { name: 'whole', cut: (s: string) => [s] };
  assert.notEqual(blockWords(page, 'content', seg), a);
});

test('pageFingerprint: 30 distinct words make a fingerprint, 29 repeated to any length do not', () => {
  // the distinct-word check stops counting at the minimum (no Set of every
  // token of the page): the boundary must stay where new Set(tokens).size put it
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i.toString(36)}x`);
  const twentyNine = words(29);
  const page = (content: string) => makePage('', { content }, []);
  assert.equal(pageFingerprint(page([...twentyNine, ...twentyNine, ...twentyNine].join(' '))), null);
  assert.notEqual(pageFingerprint(page([...twentyNine, ...twentyNine, 'another'].join(' '))), null);
  assert.equal(pageFingerprint(page(words(30).join(' ')), 31), null);
  assert.notEqual(pageFingerprint(page(words(31).join(' ')), 31), null);
});
