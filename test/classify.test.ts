import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyStage } from '../src/stages/classify.ts';
import { createScorer } from '../src/relevance/scorers/index.ts';
import { parseTopic } from '../src/relevance/topic.ts';
import type { CrawlItem, FetchResult, PageLink, ParsedPage, Scorer } from '../src/types.ts';
import type { CanonOptions } from '../src/urls/canonical.ts';

const topic = parseTopic({ name: 'solar', terms: ['solar energy', 'photovoltaic'] }, 'test');

function fetchResult(status: number, contentType: string | null = 'text/html'): FetchResult {
  return {
    url: 'http://127.0.0.1/p',
    finalUrl: 'http://127.0.0.1/p',
    redirects: ['http://127.0.0.1/p'],
    status,
    headers: {},
    contentType,
    headerCharset: null,
    body: null,
    bytes: 0,
    truncated: false,
    fetchedAt: new Date(0).toISOString(),
    ms: 1,
    replay: false,
  };
}

function link(url: string, anchor: string, nofollow = false): PageLink {
  return { url, anchor, context: '', tag: 'a', nofollow, block: 'content' };
}

function page(links: PageLink[], nofollow = false): ParsedPage {
  const title = 'Solar energy and photovoltaic panels';
  return {
    title,
    charset: 'utf-8',
    blocks: { title, heading: '', content: 'How photovoltaic cells turn solar energy into electricity.', navigation: '', anchor: '', other: '' },
    links,
    base: 'http://127.0.0.1/',
    noindex: false,
    nofollow,
    lang: null,
  };
}

function entry(url = 'http://127.0.0.1/p'): CrawlItem['entry'] {
  return { url, score: 0, depth: 0, parent: null };
}

async function run(items: CrawlItem[], opts: { scorer?: Scorer; threshold?: number; maxOutlinks?: number; canonOptions?: CanonOptions } = {}): Promise<CrawlItem[]> {
  async function* source() {
    yield* items;
  }
  const out: CrawlItem[] = [];
  const scorer = opts.scorer ?? createScorer('best-first', topic);
  for await (const item of classifyStage(source(), { scorer, threshold: opts.threshold ?? 0.2, maxOutlinks: opts.maxOutlinks, canonOptions: opts.canonOptions })) out.push(item);
  return out;
}

test('a relevant 2xx page: relevance, relevant, scored outlinks without nofollow links', async () => {
  const links = [
    link('http://127.0.0.1/a', 'photovoltaic basics'),
    link('http://127.0.0.1/b', 'sponsored', true),
    link('http://127.0.0.1/c', 'contact'),
  ];
  const [item] = await run([{ entry: entry(), fetch: fetchResult(200), page: page(links) }]);
  assert.ok(item.relevance! >= 0.2 && item.relevance! <= 1, String(item.relevance));
  assert.equal(item.relevant, true);
  assert.deepEqual(item.outlinks!.map((o) => [o.url, o.anchor]), [
    ['http://127.0.0.1/a', 'photovoltaic basics'],
    ['http://127.0.0.1/c', 'contact'],
  ]);
  assert.ok(item.outlinks![0].score > item.outlinks![1].score);
  assert.ok(Math.abs(item.outlinks![1].score - item.relevance!) < 1e-12);
});

test('each link is canonicalised once with the crawl\'s options, handed to linkScore and kept on the outlink; one with no canonical form is dropped', async () => {
  const links = [
    link('HTTP://127.0.0.1:80/d/index.html#top', 'photovoltaic'),
    link('ftp://127.0.0.1/file', 'ftp'),
    link('http://127.0.0.1/e/./f', 'contact'),
  ];
  for (const [canonOptions, first] of [[{}, 'http://127.0.0.1/d/'], [{ dropIndex: false }, 'http://127.0.0.1/d/index.html']] as const) {
    const seen: Array<string | undefined> = [];
    const scorer: Scorer = { name: 'spy', pageRelevance: () => 0.5, linkScore: (_l, _p, _r, url) => (seen.push(url), 1) };
    const [item] = await run([{ entry: entry(), fetch: fetchResult(200), page: page(links) }], { scorer, canonOptions });
    assert.deepEqual(seen, [first, 'http://127.0.0.1/e/f']);
    assert.deepEqual(item.outlinks!.map((o) => [o.url, o.canonical]), [
      ['HTTP://127.0.0.1:80/d/index.html#top', first],
      ['http://127.0.0.1/e/./f', 'http://127.0.0.1/e/f'],
    ]);
  }
});

test('page-level nofollow drops every link; the threshold decides relevant', async () => {
  const [item] = await run([{ entry: entry(), fetch: fetchResult(200), page: page([link('http://127.0.0.1/a', 'x')], true) }], { threshold: 1 });
  assert.deepEqual(item.outlinks, []);
  assert.equal(item.relevant, false);
  assert.ok(item.relevance! > 0);
});

test('error items pass through untouched, in order', async () => {
  const failed: CrawlItem = { entry: entry('http://127.0.0.1/e'), error: { code: 'FC_NETWORK', message: 'refused' } };
  const ok: CrawlItem = { entry: entry(), fetch: fetchResult(200), page: page([]) };
  const out = await run([failed, ok]);
  assert.equal(out[0], failed);
  assert.deepEqual(Object.keys(out[0]).sort(), ['entry', 'error']);
  assert.equal(out[1], ok);
  assert.equal(typeof ok.relevance, 'number');
});

test('a fetch without a page (non-HTML) gets relevance 0, not relevant, no outlinks', async () => {
  const [item] = await run([{ entry: entry(), fetch: fetchResult(200, 'application/pdf') }]);
  assert.equal(item.relevance, 0);
  assert.equal(item.relevant, false);
  assert.deepEqual(item.outlinks, []);
});

test('an HTML error page (404) is judged but its links are not followed', async () => {
  const [item] = await run([{ entry: entry(), fetch: fetchResult(404), page: page([link('http://127.0.0.1/a', 'photovoltaic')]) }]);
  assert.ok(item.relevance! > 0);
  assert.deepEqual(item.outlinks, []);
});

test('maxOutlinks caps the outlinks, in document order', async () => {
  const links = Array.from({ length: 10 }, (_, i) => link(`http://127.0.0.1/${i}`, `link ${i}`));
  const [item] = await run([{ entry: entry(), fetch: fetchResult(200), page: page(links) }], { maxOutlinks: 3 });
  assert.deepEqual(item.outlinks!.map((o) => o.url), ['http://127.0.0.1/0', 'http://127.0.0.1/1', 'http://127.0.0.1/2']);
});

test('a scorer that throws turns the item into an error item; bad numbers are sanitised', async () => {
  const throwing: Scorer = {
    name: 'boom',
    pageRelevance: () => {
      throw new Error('scorer bug');
    },
    linkScore: () => 0,
  };
  const [bad] = await run([{ entry: entry(), fetch: fetchResult(200), page: page([]) }], { scorer: throwing });
  assert.deepEqual(bad.error, { code: 'FC_INTERNAL', message: 'scorer bug' });
  assert.equal(bad.relevance, undefined);

  const nan: Scorer = { name: 'nan', pageRelevance: () => Number.NaN, linkScore: () => Number.POSITIVE_INFINITY };
  const [item] = await run([{ entry: entry(), fetch: fetchResult(200), page: page([link('http://127.0.0.1/a', 'a')]) }], { scorer: nan });
  assert.equal(item.relevance, 0);
  assert.equal(item.outlinks![0].score, 0);
});
