// One word split per page shared by the relevance judge and the SimHash
// (issue 23): both must give exactly what each tokenising on its own gave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TopicModel, BLOCK_WEIGHTS, PAGE_TERM_FREQ, pageTermCounts } from '../src/relevance/topic.ts';
import { pageFingerprint, MAX_FINGERPRINT_CHARS } from '../src/stages/dedup.ts';
import { fingerprintToHex, simhashTokens, type Fingerprint } from '../src/relevance/simhash.ts';
import { tokenize } from '../src/relevance/text/tokenize.ts';
import { DocFreq, TermCounts, termFreq } from '../src/relevance/text/vector.ts';
import { blockWords, linkIndex } from '../src/relevance/text/page-words.ts';
import { makePage } from './helpers/pages.ts';
import { anchorSimilarity, bestFirstScore, CONTEXT_WEIGHT } from '../src/relevance/scorers/best-first.ts';
import { parseBody } from '../src/parse/body.ts';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
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
  return referenceFingerprintOf(page, 30);
}

function referenceFingerprintOf(page: ParsedPage, minTokens: number): string | null {
  const parts = [page.blocks.title, page.blocks.heading, page.blocks.content, page.blocks.other];
  for (const l of page.links) if (l.block !== 'navigation' && l.anchor !== '') parts.push(l.anchor);
  const tokens = tokenize(parts.join(' \n ').slice(0, MAX_FINGERPRINT_CHARS), { stopwords: false });
  if (tokens.length < minTokens || new Set(tokens).size < minTokens) return null;
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

// Anchors split once per page (linkWords): the judge's anchor block, the
// SimHash's anchors and each link's anchor and context are read from that
// split when they are joins of anchors. A link page whose pieces were
// joined differently (two spaces, no space, a comma) must take the old
// path; the numbers must be the old ones to the last bit.

/** A context for link i: its neighbours' anchors joined as the parser joins them, or a near miss, or its own text. */
function contextFor(r: () => number, anchors: string[], i: number): string {
  const prev = i > 0 ? anchors[i - 1]! : null;
  const next = i + 1 < anchors.length ? anchors[i + 1]! : null;
  const x = r();
  if (x < 0.35 && prev !== null && next !== null) return `${prev} ${next}`;
  if (x < 0.45 && prev !== null) return prev;
  if (x < 0.55 && next !== null) return next;
  if (x < 0.6 && prev !== null && next !== null) return `${prev}  ${next}`;
  if (x < 0.65 && prev !== null && next !== null) return `${prev}${next}`;
  if (x < 0.7 && prev !== null && next !== null) return `${prev}'${next}`;
  if (x < 0.75) return '';
  return text(r, 1 + Math.floor(r() * 12));
}

function linkedPage(r: () => number): ParsedPage {
  const n = Math.floor(r() * 9);
  const anchors: string[] = [];
  for (let i = 0; i < n; i++) anchors.push(r() < 0.15 ? '' : r() < 0.1 ? text(r, 30) : text(r, 1 + Math.floor(r() * 4)));
  const links = anchors.map((anchor, i) => ({ url: `http://h/${i}`, anchor, context: contextFor(r, anchors, i), nofollow: false, block: r() < 0.3 ? 'navigation' : 'content' }) as PageLink);
  const joined = anchors.filter((a) => a !== '').join(' ');
  const x = r();
  const anchor = x < 0.6 ? joined : x < 0.7 ? anchors.filter((a) => a !== '').join('  ') : x < 0.75 ? `${joined} more` : x < 0.8 ? anchors.filter((a) => a !== '').join("'") : x < 0.9 ? anchors.join('') : text(r, 5);
  return makePage(text(r, 3), { heading: text(r, 4), content: text(r, 20 + Math.floor(r() * 60)), anchor, navigation: r() < 0.5 ? '' : text(r, 4) }, links);
}

test('anchors split once per page: term counts, fingerprints and link scores are the old ones', () => {
  const r = rng(20261128);
  const model = new TopicModel({ name: 't', terms: ['solar energy', 'panel', 'über', 'οδος', 'w1'], threshold: 0.2 });
  let scored = 0;
  let shared = 0;
  for (let i = 0; i < 600; i++) {
    const page = linkedPage(r);
    const fresh = structuredClone(page);
    // the IDF table moves between pages as in a crawl
    if (i % 3 === 0) model.docFreq.addDistinct(referenceTermFreq(fresh).keys());
    const order = i % 3;
    // classify's order (judge, links, then the fingerprint), links first, or the fingerprint alone
    if (order === 0) assert.deepEqual([...model.pageTermFreq(page)], [...referenceTermFreq(fresh)], `page ${i}: term counts`);
    if (order !== 2) {
      for (const link of page.links) {
        const want = anchorSimilarity(model, link.anchor, link.context);
        assert.equal(model.linkSimilarityOnPage(page, link, CONTEXT_WEIGHT), want, `page ${i}: link ${JSON.stringify(link)}`);
        if (want > 0) scored++;
      }
      if (order === 1) assert.deepEqual([...model.pageTermFreq(page)], [...referenceTermFreq(fresh)], `page ${i}: term counts after links`);
    }
    if (page.blocks.anchor === page.links.map((l) => l.anchor).filter((a) => a !== '').join(' ') && page.links.length > 0) shared++;
    assert.equal(hex(pageFingerprint(page, 10)), referenceFingerprintOf(fresh, 10), `page ${i}: fingerprint`);
  }
  assert.ok(scored > 300, `${scored} links scored above 0`);
  assert.ok(shared > 200, `${shared} pages with the anchor block shared`);
});

test('a link not among its page\'s links, and links asked out of order, score as alone', () => {
  const model = new TopicModel({ name: 't', terms: ['solar energy', 'panel'], threshold: 0.2 });
  const anchors = ['Solar energy now', 'the panel', 'energy of the sun', 'Panel solar'];
  const links = anchors.map((anchor, i) => ({ url: `http://h/${i}`, anchor, context: `${anchors[i - 1] ?? ''} ${anchors[i + 1] ?? ''}`.trim(), nofollow: false, block: 'content' }) as PageLink);
  const page = makePage('t', { anchor: anchors.join(' ') }, links);
  const stranger = { ...links[1]!, anchor: 'solar panel', context: 'solar energy' };
  for (const link of [links[3]!, links[0]!, stranger, links[2]!, links[1]!, links[1]!]) {
    assert.equal(bestFirstScore({ topic: model } as never, link, 0.25, page), bestFirstScore({ topic: model } as never, link, 0.25), JSON.stringify(link));
  }
  assert.ok(model.linkSimilarityOnPage(page, links[0]!, CONTEXT_WEIGHT) > 0);
});

test('pages of the synthetic web and of mixed scripts, parsed: the old numbers', () => {
  const web = new SyntheticWeb({ seed: 3, pages: 20_000, hosts: 200 });
  const topic = web.topicFile('astronomy');
  const model = new TopicModel(topic);
  const html: [string, string][] = [];
  for (let id = 0; html.length < 150; id += 37) {
    const url = web.urlOf(id);
    const u = new URL(url);
    const got = web.page(u.host, u.pathname);
    if (got.status === 200) html.push([url, got.html]);
  }
  // link contexts that are text windows, stop words, Han (segmented), a final sigma
  html.push([
    'http://mixed.test/',
    '<html><head><title>Telescope notes</title></head><body><nav><a href="/a">Home</a> <a href="/b">Galaxy maps</a></nav>' +
      '<p>We pointed the telescope at a faint <a href="/c">nebula in Orion</a>, then read about the <a href="/d">ΟΔΟΣ of the planet</a> and 天文望远镜 <a href="/e">望远镜观测星系</a> at night.</p>' +
      '<p><a href="/f">comet</a><a href="/g">asteroid belt</a> and <a href="/h">don\'t miss Saturn\'s rings</a></p></body></html>',
  ]);
  let scored = 0;
  for (const [url, body] of html) {
    const page = parseBody(Buffer.from(body), url, 'utf-8');
    const fresh = structuredClone(page);
    const tf = model.pageTermFreq(page);
    assert.deepEqual([...tf], [...referenceTermFreq(fresh)], `${url}: term counts`);
    model.docFreq.addDistinct(tf.keys());
    for (const link of page.links) {
      const want = anchorSimilarity(model, link.anchor, link.context);
      assert.equal(model.linkSimilarityOnPage(page, link, CONTEXT_WEIGHT), want, `${url}: ${JSON.stringify(link)}`);
      if (want > 0) scored++;
    }
    assert.equal(hex(pageFingerprint(page)), referenceFingerprint(fresh), `${url}: fingerprint`);
  }
  assert.ok(scored > 150, `${scored} links scored above 0`);
});

// The judge counts a page's terms in TermCounts (reused arrays and an
// open-addressing table) and computes the similarity on arrays: no Map per
// page. Reference: the judge as it was, Map counts, addDistinct, similarity.
test('TermCounts counts what termFreq\'s Map counts, in its order, page after page', () => {
  const r = rng(7);
  const counter = new TermCounts();
  for (let i = 0; i < 300; i++) {
    counter.reset();
    const want = new Map<string, number>();
    // up to 3,000 distinct terms: the table grows past its first 1,024 slots mid-text
    const n = Math.floor(r() * (i % 10 === 0 ? 6000 : 200));
    const vocab = i % 10 === 0 ? 3000 : 1 + Math.floor(r() * 300);
    for (let j = 0; j < n; j++) {
      const t = `t${Math.floor(r() * vocab).toString(36)}`;
      const w = [1, 0.5, 3, 0.25][Math.floor(r() * 4)]!;
      counter.add(t, w);
      termFreq([t], w, want);
    }
    assert.deepEqual(
      counter.terms.slice(0, counter.size).map((t, k) => [t, counter.counts[k]]),
      [...want],
      `text ${i}`,
    );
    for (const t of ['t0', 't1', 'tzz', 'missing', ...[...want.keys()].slice(0, 20)]) {
      assert.equal(counter.indexOf(t), want.has(t) ? [...want.keys()].indexOf(t) : -1, `text ${i}: ${t}`);
    }
  }
});

test('the judge on arrays gives what the judge on Maps gave, and learns the same IDF table', () => {
  // a small IDF table too: terms are evicted on the way (oldest first among equal counts)
  for (const capacity of [200_000, 300]) judgeAgainstReference(capacity);
});

function judgeAgainstReference(capacity: number): void {
  const r = rng(2026112801);
  const terms = ['solar energy', 'panel', 'über', 'w1', 'roof'];
  const model = new TopicModel({ name: 't', terms, threshold: 0.2 }, { docFreq: new DocFreq(capacity) });
  const ref = new TopicModel({ name: 't', terms, threshold: 0.2 }, { docFreq: new DocFreq(capacity) });
  let positive = 0;
  for (let i = 0; i < 400; i++) {
    const page = i % 2 === 0 ? linkedPage(r) : randomPage(r, i % 25 === 0 ? 2500 : 20 + Math.floor(r() * 300));
    const fresh = structuredClone(page);
    // some pages come with the counts a parse worker made
    if (i % 5 === 0) (page as unknown as Record<symbol, unknown>)[PAGE_TERM_FREQ] = pageTermCounts(structuredClone(fresh), 'node-rs');
    const tf = referenceTermFreq(fresh);
    ref.docFreq.addDistinct(tf.keys());
    const want = ref.similarity(tf);
    assert.equal(model.judge(page), want, `capacity ${capacity}, page ${i}`);
    if (want > 0) positive++;
    assert.equal(model.docFreq.documents, ref.docFreq.documents);
    assert.equal(model.docFreq.size, ref.docFreq.size);
  }
  for (const t of ['solar', 'energy', 'panel', 'the', 'w1', 'über', 'οδος']) assert.equal(model.docFreq.df(t), ref.docFreq.df(t), t);
  assert.ok(positive > 100, `${positive} pages judged above 0`);
}

test('linkIndex: in order with gaps, out of order, another page, a stranger', () => {
  const links = Array.from({ length: 50 }, (_, i) => ({ url: `http://h/${i}`, anchor: `a${i}`, context: '', nofollow: false, block: 'content' }) as PageLink);
  const page = makePage('t', {}, links);
  const other = makePage('t', {}, [...links].reverse());
  // every third link, as classify asks when it skips nofollow links
  for (let i = 0; i < 50; i += 3) assert.equal(linkIndex(page, links[i]!), i);
  assert.equal(linkIndex(page, links[4]!), 4);
  assert.equal(linkIndex(other, links[4]!), 45);
  assert.equal(linkIndex(page, links[49]!), 49);
  assert.equal(linkIndex(page, { ...links[10]! }), -1);
  assert.equal(linkIndex(page, links[10]!), 10);
});
