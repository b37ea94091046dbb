import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MemoryLevel } from 'memory-level';
import { Level } from 'level';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { linksToQueue, SINK_TURN_MS, sinkStage, toRecord } from '../src/stages/sink.ts';
import { CrawlStore } from '../src/store/level.ts';
import type { Commit, CommitHooks, Store } from '../src/store/types.ts';
import type { CrawlItem, FetchResult, FrontierEntry, Outlink, OutputRecord, ParsedPage, QueuedLink } from '../src/types.ts';

const PAGE_FIELDS = [
  'url', 'finalUrl', 'status', 'fetchedAt', 'depth', 'parent', 'host', 'contentType', 'charset',
  'bytes', 'truncated', 'title', 'score', 'relevance', 'relevant', 'links', 'strategy', 'ms',
];
const ERROR_FIELDS = ['type', 'url', 'code', 'message', 'fetchedAt', 'depth', 'parent', 'strategy'];

function entry(url: string, over: Partial<FrontierEntry> = {}): FrontierEntry {
  return { url, score: 0.75, depth: 1, parent: 'http://seed.test/', seq: 7, ...over };
}

function fetched(url: string, over: Partial<FetchResult> = {}): FetchResult {
  return {
    url,
    finalUrl: url,
    redirects: [url],
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    contentType: 'text/html',
    headerCharset: 'utf-8',
    body: Buffer.from('<title>x</title>'),
    bytes: 1234,
    truncated: false,
    fetchedAt: '2024-01-02T03:04:05.000Z',
    ms: 42,
    replay: false,
    ...over,
  };
}

function parsed(over: Partial<ParsedPage> = {}): ParsedPage {
  return {
    title: 'A page',
    charset: 'windows-1252',
    blocks: { title: 'A page', heading: '', content: 'text', navigation: '', anchor: '', other: '' },
    links: [],
    base: 'http://a.test/',
    noindex: false,
    nofollow: false,
    lang: null,
    ...over,
  };
}

function out(url: string, score = 0.5, anchor = '', context = ''): Outlink {
  return { url, score, anchor, context };
}

/** A fully processed HTML page item. */
function pageItem(url: string, outlinks: Outlink[] = [], over: Partial<CrawlItem> = {}): CrawlItem {
  return { entry: entry(url), fetch: fetched(url), page: parsed(), relevance: 0.6, relevant: true, outlinks, ...over };
}

function byUrl(links: QueuedLink[]): QueuedLink[] {
  return [...links].sort((a, b) => (a.url < b.url ? -1 : 1));
}

describe('linksToQueue', () => {
  it('gives each URL once, in first-seen order with its best score, as a Map of the links did', () => {
    // issue 23: the page's links by URL went from a new Map per page to a
    // table reused by every page; order, best score (first on ties) and
    // the self-link and negative-score drops must stay those of the Map
    const url = fc.integer({ min: 0, max: 40 }).map((n) => (n === 0 ? 'http://a.test/page' : n === 1 ? 'http://a.test/final' : `http://h${n % 7}.test/d/${n % 5}/index.html`));
    const link = fc.record({ url, score: fc.oneof(fc.double({ min: -1, max: 2, noNaN: true }), fc.constant(NaN)), anchor: fc.constantFrom('', 'a', 'b') });
    fc.assert(
      fc.property(fc.array(link, { maxLength: 120, size: 'max' }), (links) => {
        const item = pageItem('http://a.test/page', links.map((l) => ({ ...out(l.url, l.score, l.anchor), canonical: l.url })));
        item.fetch = fetched('http://a.test/page', { finalUrl: 'http://a.test/final', redirects: ['http://a.test/page', 'http://a.test/final'] });
        const best = new Map<string, { url: string; score: number; anchor: string }>();
        for (const l of links) {
          if (l.url === 'http://a.test/page' || l.url === 'http://a.test/final') continue;
          const score = Number.isFinite(l.score) ? l.score : 0;
          if (score < 0) continue;
          const known = best.get(l.url);
          if (known !== undefined && known.score >= score) continue;
          best.set(l.url, { url: l.url, score, anchor: l.anchor });
        }
        const got = linksToQueue(item, 5).map((q) => ({ url: q.url, score: q.score, anchor: q.anchor }));
        assert.deepEqual(got, [...best.values()]);
      }),
      { seed: 20261127, numRuns: 500 },
    );
  });

  it('canonicalises, drops non-http(s), unparseable and self links (requested and final URL)', () => {
    const item = pageItem('http://a.test/page', [
      out('HTTP://B.test:80/x/../y#frag', 0.9, 'why'),
      out('mailto:me@a.test'),
      out('javascript:void(0)'),
      out('ftp://a.test/file'),
      out('data:text/html,hi'),
      out('not a url'),
      out('http://a.test/page#top'),
      out('http://a.test/final'),
      out('https://a.test/page', 0.3, 'other scheme'),
      out('http://a.test/dir/index.html', 0.4, 'index'),
    ]);
    item.fetch = fetched('http://a.test/page', { finalUrl: 'http://a.test/final', redirects: ['http://a.test/page', 'http://a.test/final'] });
    const common = { depth: 2, parent: 'http://a.test/final', context: '', offTopicHops: 0 };
    assert.deepEqual(byUrl(linksToQueue(item, 5)), [
      { url: 'http://a.test/dir/', score: 0.4, anchor: 'index', ...common },
      { url: 'http://b.test/y', score: 0.9, anchor: 'why', ...common },
      { url: 'https://a.test/page', score: 0.3, anchor: 'other scheme', ...common },
    ]);
    const keepIndex = linksToQueue(item, 5, { dropIndex: false }).map((l) => l.url);
    assert.ok(keepIndex.includes('http://a.test/dir/index.html'));
  });

  it('takes the canonical URL classify computed (null: dropped) instead of computing it again', () => {
    const item = pageItem('http://a.test/', [
      { ...out('http://c.test/a/index.html', 0.5), canonical: 'http://c.test/a/index.html' },
      { ...out('http://c.test/b', 0.5), canonical: null },
      out('http://c.test/d/index.html', 0.5),
    ]);
    assert.deepEqual(linksToQueue(item, 5).map((l) => l.url).sort(), ['http://c.test/a/index.html', 'http://c.test/d/']);
  });

  it('deduplicates canonical URLs keeping the best score (first one on ties)', () => {
    const item = pageItem('http://a.test/', [
      out('http://c.test/a', 0.2, 'low'),
      out('http://C.test/a#x', 0.9, 'high'),
      out('http://c.test/./a', 0.5, 'mid'),
      out('http://c.test/b', 0.3, 'first'),
      out('http://c.test/b', 0.3, 'second'),
    ]);
    const links = byUrl(linksToQueue(item, 5));
    assert.deepEqual(
      links.map((l) => [l.url, l.score, l.anchor]),
      [
        ['http://c.test/a', 0.9, 'high'],
        ['http://c.test/b', 0.3, 'first'],
      ],
    );
  });

  it('scores a NaN link score as 0', () => {
    const [l] = linksToQueue(pageItem('http://a.test/', [out('http://c.test/', NaN)]), 5);
    assert.equal(l.score, 0);
  });

  it('respects maxDepth: no links from a page at maxDepth', () => {
    const links = [out('http://c.test/')];
    assert.deepEqual(linksToQueue(pageItem('http://a.test/', links, { entry: entry('http://a.test/', { depth: 2 }) }), 2), []);
    assert.deepEqual(
      linksToQueue(pageItem('http://a.test/', links, { entry: entry('http://a.test/', { depth: 2 }) }), 3).map((l) => l.depth),
      [3],
    );
    assert.deepEqual(linksToQueue(pageItem('http://a.test/', links, { entry: entry('http://a.test/', { depth: 0, parent: null }) }), 0), []);
    assert.deepEqual(linksToQueue(pageItem('http://a.test/', links, { entry: entry('http://a.test/', { depth: 0, parent: null }) }), 1)[0].depth, 1);
  });

  it('offTopicHops: 0 after a relevant page, +1 after an off-topic one', () => {
    const links = [out('http://c.test/')];
    const hops = (relevant: boolean | undefined, parentHops: number | undefined) =>
      linksToQueue(pageItem('http://a.test/', links, { relevant, entry: entry('http://a.test/', { offTopicHops: parentHops }) }), 9)[0]
        .offTopicHops;
    assert.equal(hops(true, 5), 0);
    assert.equal(hops(false, 2), 3);
    assert.equal(hops(false, undefined), 1);
    assert.equal(hops(undefined, 0), 1, 'not classified as relevant counts as off-topic');
  });

  it('no outlinks: nothing to queue', () => {
    assert.deepEqual(linksToQueue(pageItem('http://a.test/', []), 5), []);
    assert.deepEqual(linksToQueue({ entry: entry('http://a.test/'), fetch: fetched('http://a.test/') }, 5), []);
  });
});

describe('toRecord', () => {
  it('page: every documented field, from entry, fetch, page and classification', () => {
    const item = pageItem('http://a.test/p', [out('http://b.test/1'), out('http://b.test/1'), out('mailto:x@y')]);
    item.fetch = fetched('http://a.test/p', {
      finalUrl: 'http://b.test:8080/q',
      redirects: ['http://a.test/p', 'http://b.test:8080/q'],
      status: 203,
      truncated: true,
    });
    const rec = toRecord(item, 'best-first');
    assert.deepEqual(rec, {
      type: 'page',
      url: 'http://a.test/p',
      finalUrl: 'http://b.test:8080/q',
      status: 203,
      fetchedAt: '2024-01-02T03:04:05.000Z',
      depth: 1,
      parent: 'http://seed.test/',
      host: 'b.test:8080',
      contentType: 'text/html',
      charset: 'windows-1252',
      bytes: 1234,
      truncated: true,
      title: 'A page',
      score: 0.75,
      relevance: 0.6,
      relevant: true,
      links: 3,
      strategy: 'best-first',
      ms: 42,
    });
    assert.deepEqual(Object.keys(rec), ['type', ...PAGE_FIELDS]);
  });

  it('page without a parsed body (non-HTML) or classification: null title, header charset, zero relevance', () => {
    const url = 'http://a.test/file.pdf';
    const rec = toRecord(
      { entry: entry(url, { depth: 0, parent: null }), fetch: fetched(url, { contentType: 'application/pdf', headerCharset: null, status: 404 }) },
      'bfs',
    );
    assert.equal(rec.type, 'page');
    assert.deepEqual(
      { ...rec },
      {
        type: 'page',
        url,
        finalUrl: url,
        status: 404,
        fetchedAt: '2024-01-02T03:04:05.000Z',
        depth: 0,
        parent: null,
        host: 'a.test',
        contentType: 'application/pdf',
        charset: null,
        bytes: 1234,
        truncated: false,
        title: null,
        score: 0.75,
        relevance: 0,
        relevant: false,
        links: 0,
        strategy: 'bfs',
        ms: 42,
      },
    );
  });

  it('error item: the documented error fields; fetchedAt now when nothing was fetched', () => {
    const before = Date.now();
    const rec = toRecord({ entry: entry('http://a.test/x'), error: { code: 'FC_ROBOTS_DISALLOWED', message: 'disallowed' } }, 'bfs');
    const after = Date.now();
    assert.equal(rec.type, 'error');
    assert.deepEqual(Object.keys(rec), ERROR_FIELDS);
    const { fetchedAt, ...rest } = rec;
    assert.deepEqual(rest, {
      type: 'error',
      url: 'http://a.test/x',
      code: 'FC_ROBOTS_DISALLOWED',
      message: 'disallowed',
      depth: 1,
      parent: 'http://seed.test/',
      strategy: 'bfs',
    });
    assert.equal(new Date(fetchedAt).toISOString(), fetchedAt);
    assert.ok(Date.parse(fetchedAt) >= before - 1 && Date.parse(fetchedAt) <= after + 1);
  });

  it('error item with a fetch result: fetchedAt from the fetch, the error wins over the page', () => {
    const item = pageItem('http://a.test/x', [out('http://b.test/')], { error: { code: 'FC_REDIRECT_SEEN', message: 'seen' } });
    assert.deepEqual(toRecord(item, 'bfs'), {
      type: 'error',
      url: 'http://a.test/x',
      code: 'FC_REDIRECT_SEEN',
      message: 'seen',
      fetchedAt: '2024-01-02T03:04:05.000Z',
      depth: 1,
      parent: 'http://seed.test/',
      strategy: 'bfs',
    });
  });

  it('an item with neither fetch nor error is an FC_INTERNAL error record', () => {
    const rec = toRecord({ entry: entry('http://a.test/x') }, 'bfs');
    assert.equal(rec.type, 'error');
    assert.equal(rec.type === 'error' && rec.code, 'FC_INTERNAL');
  });
});

describe('sinkStage', () => {
  async function openStore(t: TestContext): Promise<CrawlStore> {
    const store = await CrawlStore.open(new MemoryLevel<string, any>());
    t.after(() => store.close());
    return store;
  }

  async function logOf(store: CrawlStore): Promise<object[]> {
    const out: object[] = [];
    for await (const r of store.log()) out.push(r);
    return out;
  }

  async function* from(items: CrawlItem[], pulled?: CrawlItem[]): AsyncGenerator<CrawlItem> {
    for (const i of items) {
      pulled?.push(i);
      yield i;
    }
  }

  function scenario() {
    const seedUrl = 'http://a.test/';
    const seedItem = pageItem(seedUrl, [out('http://a.test/one', 0.9), out('http://b.test/two#x', 0.2), out('http://a.test/')], {
      entry: { url: seedUrl, score: 1e6, depth: 0, parent: null, seq: 1 },
    });
    const redirected = pageItem('http://a.test/one', [], { entry: entry('http://a.test/one', { parent: seedUrl }) });
    redirected.fetch = fetched('http://a.test/one', {
      finalUrl: 'http://a.test/three',
      redirects: ['http://a.test/one', 'http://a.test/mid', 'http://a.test/three'],
    });
    const failed: CrawlItem = {
      entry: entry('http://b.test/two', { parent: seedUrl }),
      error: { code: 'FC_NETWORK', message: 'refused' },
      outlinks: [out('http://never.test/')],
    };
    return { seedUrl, items: [seedItem, redirected, failed] };
  }

  describe('a store with a commit window (Redis)', () => {
    // What was slow: the sink awaited each commit before the next, so a Redis
    // worker spent a network round-trip per page doing nothing (5.4 s of a
    // 12 s crawl of 500 pages); commits now overlap up to Store.commitWindow.
    function windowStore(window: number) {
      const pending: { url: string; answer: () => void; fail: (e: Error) => void }[] = [];
      const store = {
        commitWindow: window,
        commit(c: Commit, hooks: CommitHooks = {}) {
          return new Promise<{ added: number; raised: number }>((resolve, reject) => {
            pending.push({
              url: c.entry.url,
              answer: () => {
                hooks.beforeBatch?.();
                resolve({ added: 0, raised: 0 });
              },
              fail: reject,
            });
          });
        },
      } as unknown as Store;
      return { store, pending };
    }
    const settle = async () => {
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    };
    const urls = ['a', 'b', 'c', 'd', 'e'].map((x) => `http://${x}.test/`);

    it('sends up to that many commits before the first answer, and prints each record in order once its commit is answered', async () => {
      const { store, pending } = windowStore(3);
      const emitted: string[] = [];
      const committed: string[] = [];
      const done = sinkStage(from(urls.map((u) => pageItem(u))), {
        store, strategy: 'bfs', maxDepth: 3,
        emit: (line) => (emitted.push(JSON.parse(line).url), undefined),
        onCommitted: (item) => committed.push(item.entry.url),
      });
      await settle();
      assert.deepEqual(pending.map((p) => p.url), urls.slice(0, 3), 'three commits in flight, none more');
      assert.deepEqual(emitted, [], 'nothing printed before an answer');
      for (let i = 0; i < urls.length; i++) {
        pending.shift()!.answer();
        await settle();
        assert.deepEqual(emitted, urls.slice(0, i + 1), `record ${i} printed with its answer, in order`);
        assert.ok(pending.length <= 3);
      }
      await done;
      assert.deepEqual(committed, urls);
    });

    it('a failed commit rejects the sink; its record is not printed', async () => {
      const { store, pending } = windowStore(3);
      const emitted: string[] = [];
      const done = sinkStage(from(urls.map((u) => pageItem(u))), {
        store, strategy: 'bfs', maxDepth: 3,
        emit: (line) => (emitted.push(JSON.parse(line).url), undefined),
      });
      await settle();
      pending.shift()!.answer();
      pending.shift()!.fail(new Error('store gone'));
      for (const p of pending.splice(0)) p.answer();
      await assert.rejects(done, /store gone/);
      assert.ok(!emitted.includes(urls[1]));
      assert.equal(emitted[0], urls[0]);
    });
  });

  it('emits one NDJSON line per item inside the commit, then calls onCommitted(item, record) once it is stored', async (t) => {
    const store = await openStore(t);
    const { seedUrl, items } = scenario();
    await store.addSeeds([{ url: seedUrl, score: 1e6, depth: 0, parent: null }]);
    const events: string[] = [];
    const lines: string[] = [];
    // (before the sink: it lets go of a committed item's page and outlinks)
    const expected = items.map((item) => toRecord(item, 'best-first'));
    let i = 0;
    await sinkStage(from(items), {
      store,
      strategy: 'best-first',
      maxDepth: 3,
      emit: (line) => {
        events.push(`emit ${i}`);
        lines.push(line);
        // the commit's reads are done and its batch not yet written
        assert.equal(store.committed, i, 'emit comes before the batch is applied');
        return undefined;
      },
      onCommitted: (item, record) => {
        events.push(`committed ${i}`);
        assert.equal(item, items[i], 'onCommitted gets the item itself');
        assert.deepEqual(record, JSON.parse(lines[i]), 'the record that was emitted');
        assert.equal(store.committed, i + 1, 'the batch is applied when onCommitted runs');
        i++;
      },
    });
    assert.deepEqual(events, ['emit 0', 'committed 0', 'emit 1', 'committed 1', 'emit 2', 'committed 2']);
    assert.ok(lines.every((l) => l.endsWith('\n') && l.indexOf('\n') === l.length - 1), 'one line each');
    const records = lines.map((l) => JSON.parse(l) as OutputRecord);
    assert.deepEqual(records.map((r) => [r.type, r.url]), [
      ['page', 'http://a.test/'],
      ['page', 'http://a.test/one'],
      ['error', 'http://b.test/two'],
    ]);
    assert.deepEqual(records.slice(0, 2), expected.slice(0, 2));
    // an error without a fetch is stamped when it reaches the sink
    assert.deepEqual(records[2], { ...expected[2], fetchedAt: records[2].fetchedAt });
    assert.deepEqual(await logOf(store), records, 'the log holds exactly the emitted records, in order');
    assert.equal(store.pages, 2);
    assert.equal(store.errors, 1);
  });

  it('lets go of a committed item\'s page and outlinks once the strategy has seen them', async (t) => {
    // What was wasteful: a committed item kept its page (links, anchors,
    // contexts, text blocks) and scored outlinks. The item is old by then
    // (promoted while its fetch and the fetch stage's queue lasted), and a
    // dead old object keeps what it points to alive through every scavenge
    // until the next mark-compact: the page's products, dead a millisecond
    // after they were made, were copied twice and promoted.
    const store = await openStore(t);
    const { seedUrl, items } = scenario();
    await store.addSeeds([{ url: seedUrl, score: 1e6, depth: 0, parent: null }]);
    const seenByStrategy: string[] = [];
    await sinkStage(from(items), {
      store,
      strategy: 'best-first',
      maxDepth: 3,
      emit: () => undefined,
      onCommitted: (item) => assert.ok(item.error !== undefined || item.page !== undefined, 'onCommitted still sees the page'),
      scorer: {
        observe: (item) => {
          if (item.page !== undefined) seenByStrategy.push(item.entry.url);
        },
      },
    });
    assert.deepEqual(seenByStrategy, ['http://a.test/', 'http://a.test/one'], 'observe still sees the pages');
    for (const item of items) {
      assert.equal(item.page, undefined);
      assert.equal(item.outlinks, undefined);
    }
    assert.equal(items[0].fetch?.status, 200, 'the fetch result stays');
    assert.equal(store.pages, 2);
  });

  it('marks the page, its redirect hops done and queues canonical links; an error record queues none', async (t) => {
    const store = await openStore(t);
    const { seedUrl, items } = scenario();
    await store.addSeeds([{ url: seedUrl, score: 1e6, depth: 0, parent: null }]);
    const probe = ['http://a.test/', 'http://a.test/one', 'http://b.test/two', 'http://a.test/mid', 'http://a.test/three', 'http://never.test/'];
    const statuses: Record<string, unknown>[] = [];
    for (const item of items) {
      await sinkStage(from([item]), { store, strategy: 'bfs', maxDepth: 3, emit: () => undefined });
      const v = await Promise.all(probe.map((u) => store.status(u)));
      statuses.push(Object.fromEntries(probe.map((u, k) => [u, v[k]])));
    }
    const [afterSeed, afterRedirect, afterError] = statuses;
    assert.deepEqual(afterSeed, {
      'http://a.test/': 'done',
      'http://a.test/one': 'queued',
      'http://b.test/two': 'queued',
      'http://a.test/mid': null,
      'http://a.test/three': null,
      'http://never.test/': null,
    });
    assert.equal(afterRedirect['http://a.test/mid'], 'done');
    assert.equal(afterRedirect['http://a.test/three'], 'done');
    assert.equal(afterRedirect['http://a.test/one'], 'done');
    assert.equal(afterError['http://b.test/two'], 'done');
    assert.equal(afterError['http://never.test/'], null);
    assert.equal(store.frontierSize, 0);
  });

  it('queues links with depth, parent, score, anchor and offTopicHops, and not beyond maxDepth', async (t) => {
    const store = await openStore(t);
    const a = pageItem('http://a.test/', [out('http://c.test/1', 0.25, 'one')], {
      entry: entry('http://a.test/', { depth: 1, offTopicHops: 4 }),
      relevant: false,
    });
    const deep = pageItem('http://d.test/', [out('http://c.test/2', 0.5)], { entry: entry('http://d.test/', { depth: 2 }) });
    await sinkStage(from([a, deep]), { store, strategy: 'bfs', maxDepth: 2, emit: () => undefined });
    const rows: FrontierEntry[] = [];
    for await (const { entry: e } of store.frontier()) rows.push(e);
    assert.deepEqual(rows, [{ url: 'http://c.test/1', score: 0.25, depth: 2, parent: 'http://a.test/', anchor: 'one', offTopicHops: 5, seq: 1 }]);
  });

  it('keeps anchor and context in frontier entries only for a strategy that reads them back (readsQueuedText)', async (t) => {
    const queued = async (scorer: { readsQueuedText?: boolean } | undefined): Promise<FrontierEntry[]> => {
      const store = await openStore(t);
      const page = pageItem('http://a.test/', [out('http://c.test/1', 0.25, 'one', 'the context of one')]);
      await sinkStage(from([page]), { store, strategy: 'x', maxDepth: 3, emit: () => undefined, scorer });
      const rows: FrontierEntry[] = [];
      for await (const { entry: e } of store.frontier()) rows.push(e);
      return rows;
    };
    const base = { url: 'http://c.test/1', score: 0.25, depth: 2, parent: 'http://a.test/', offTopicHops: 0, seq: 1 };
    const withText = { ...base, anchor: 'one', context: 'the context of one' };
    assert.deepEqual(await queued(undefined), [withText], 'no strategy: the text is kept');
    assert.deepEqual(await queued({ readsQueuedText: true }), [withText]);
    assert.deepEqual(await queued({}), [base], 'a strategy that does not say it reads the text');
    assert.deepEqual(await queued({ readsQueuedText: false }), [base]);
  });

  it('passes observe the links with their anchor and context even when the store keeps them without', async (t) => {
    // Regression: when frontier entries lost their link text (readsQueuedText),
    // observe() got the links without it too, and hits and ipagerank weighted
    // their link graphs with the similarity of empty text.
    const store = await openStore(t);
    const seen: QueuedLink[] = [];
    const scorer = { observe: (_item: CrawlItem, links: readonly QueuedLink[]) => void seen.push(...links) };
    const page = pageItem('http://a.test/', [out('http://c.test/1', 0.25, 'one', 'the context of one')]);
    await sinkStage(from([page]), { store, strategy: 'x', maxDepth: 3, emit: () => undefined, scorer });
    assert.deepEqual(seen.map((l) => [l.url, l.anchor, l.context]), [['http://c.test/1', 'one', 'the context of one']]);
    const rows: FrontierEntry[] = [];
    for await (const { entry: e } of store.frontier()) rows.push(e);
    assert.equal(rows[0]!.anchor, undefined, 'the stored entry has no text');
  });

  it('waits for the promise emit returns (output backpressure) before taking the next item', async (t) => {
    const store = await openStore(t);
    const items = ['http://a.test/1', 'http://a.test/2'].map((u) => pageItem(u));
    const pulled: CrawlItem[] = [];
    let drain!: () => void;
    let emits = 0;
    const done = sinkStage(from(items, pulled), {
      store,
      strategy: 'bfs',
      maxDepth: 3,
      emit: () => {
        emits++;
        return emits === 1 ? new Promise<void>((r) => (drain = r)) : undefined;
      },
    });
    for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
    assert.equal(emits, 1);
    assert.equal(store.committed, 1, 'the first item is committed');
    assert.equal(pulled.length, 1, 'the second item is not pulled while the output is full');
    drain();
    await done;
    assert.equal(pulled.length, 2);
    assert.equal(store.committed, 2);
  });

  // Regression: once a journaled store stopped waiting for LevelDB, the sink
  // committed every page the fetch stage had finished in one run of
  // microtasks, with no response read and no request written meanwhile: a
  // polite crawl with 50 ms answers got 15% slower.
  it('gives the event loop a turn between items once it has worked SINK_TURN_MS without one', async (t) => {
    const store = await openStore(t); // a MemoryLevel store: its commits never wait for I/O
    const items = Array.from({ length: 6 }, (_, i) => pageItem(`http://a.test/${i}`));
    let committed = 0;
    const turns: number[] = [];
    const tick = (): void => {
      turns.push(committed);
      if (committed < items.length) setImmediate(tick);
    };
    setImmediate(tick);
    await sinkStage(from(items), {
      store,
      strategy: 'bfs',
      maxDepth: 3,
      emit: () => {
        const until = performance.now() + 2 * SINK_TURN_MS; // each item takes longer than the turn interval
        while (performance.now() < until);
        return undefined;
      },
      onCommitted: () => committed++,
    });
    assert.equal(committed, items.length);
    assert.ok(turns.filter((n) => n > 0 && n < items.length).length >= 3, `the event loop turned between items (after ${turns.join(', ')} commits)`);
  });

  async function failingRun(t: TestContext) {
    const store = await openStore(t);
    const counts = { emitted: 0, committed: 0 };
    const run = sinkStage(from([pageItem('http://a.test/', [out('http://b.test/', 0.5)])]), {
      store,
      strategy: 'bfs',
      maxDepth: 3,
      emit: () => (counts.emitted++, undefined),
      onCommitted: () => counts.committed++,
    });
    await store.close(); // the commit's reads fail
    return { run, counts };
  }

  it('a failing commit rejects the stage: no line, no onCommitted', async (t) => {
    const { run, counts } = await failingRun(t);
    await assert.rejects(run);
    assert.deepEqual(counts, { emitted: 0, committed: 0 });
  });

  it('a journaled store logs the record as JSON.stringify gives it, while its line escapes what a terminal acts on', async (t) => {
    // the record is stringified once for the line and the log: the log must
    // keep JSON.stringify's text (as the sublevels would write it), not the
    // line's escapes
    const dir = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-sink-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const store = await CrawlStore.open(dir);
    const title = 'next\u0085line \u2028 \u202e "quoted" ünï';
    const item = pageItem('http://a.test/', [out('http://a.test/b', 0.4)], { page: parsed({ title }) });
    const lines: string[] = [];
    // (before the sink: it lets go of a committed item's page)
    const record = toRecord(item, 'best-first');
    await sinkStage(from([item]), { store, strategy: 'best-first', maxDepth: 3, emit: (line) => void lines.push(line) });
    await store.close();
    assert.equal(lines.length, 1);
    assert.ok(lines[0].includes('next\\u0085line \\u2028 \\u202e'), lines[0]);
    assert.deepEqual(JSON.parse(lines[0]), record);
    const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    const rows: string[] = [];
    for await (const v of db.values({ gt: '!log!', lt: '!log!~' })) rows.push(v);
    await db.close();
    assert.deepEqual(rows, [JSON.stringify(record)]);
  });

  // Regression: only the batch write was wrapped, so a failing read inside
  // commit (getMany, the eviction iterator) escaped as a raw LEVEL_* error.
  it(
    'a failing commit rejects with a coded StoreError (FC_STORE)',
    async (t) => {
      const { run } = await failingRun(t);
      await assert.rejects(run, (err: { code?: string }) => err.code === 'FC_STORE');
    },
  );
});
