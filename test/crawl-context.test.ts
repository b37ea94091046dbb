import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlContext, Ticket } from '../src/crawl/context.ts';
import type { CrawlSummary } from '../src/crawl/summary.ts';
import { DEFAULT_RETRY_POLICY } from '../src/frontier/retry.ts';
import type { CrawlItem, FetchResult, OutputRecord } from '../src/types.ts';

/** A scheduler and in-flight set that count what the context does to them. */
function harness() {
  const calls = { start: [] as string[], finish: [] as { host: string; url: string; requested: boolean }[], backoff: 0, wake: 0, deleted: [] as string[] };
  const active = new Map<string, number>();
  const scheduler = {
    start: (host: string) => {
      calls.start.push(host);
      active.set(host, (active.get(host) ?? 0) + 1);
    },
    finish: (host: string, url: string, _replay: boolean, requested = true) => {
      // as HostScheduler: a slot given back twice is a bug
      if ((active.get(host) ?? 0) === 0) throw new Error(`finish() without start() for ${host}`);
      active.set(host, active.get(host)! - 1);
      calls.finish.push({ host, url, requested });
    },
    backoff: () => void calls.backoff++,
    hopDelayMs: () => 0,
  };
  const inflight = { delete: (url: string) => void calls.deleted.push(url), wake: () => void calls.wake++ };
  const summary: CrawlSummary = { pages: 0, relevant: 0, errors: 0, totalPages: 0, frontier: 0, ms: 0, stopped: 'done', dropped: {} };
  const committed: OutputRecord[] = [];
  const ctx = new CrawlContext({ scheduler, inflight, retry: DEFAULT_RETRY_POLICY, summary, observe: (r) => committed.push(r) });
  /** what the frontier source does for a URL it takes */
  const take = (url: string): CrawlItem => {
    scheduler.start(new URL(url).host);
    const item: CrawlItem = { entry: { url, score: 1, depth: 0, parent: null } };
    item.ticket = ctx.issue(item);
    return item;
  };
  return { calls, active, summary, committed, ctx, take };
}

const fetched = { status: 200, headers: {}, replay: false, ms: 5, redirects: [] } as unknown as FetchResult;
const page = (url: string, relevant: boolean): OutputRecord => ({ type: 'page', url, relevant }) as unknown as OutputRecord;
const error = (url: string): OutputRecord => ({ type: 'error', url, code: 'FC_PRIVATE_ADDRESS' }) as unknown as OutputRecord;

describe('CrawlContext', () => {
  it('a ticket released twice frees its host slot once', () => {
    const h = harness();
    const item = h.take('http://a.test/1');
    assert.ok(item.ticket instanceof Ticket);
    item.ticket.release(true);
    item.ticket.release(true);
    h.ctx.onFetched(item, true);
    assert.equal(h.calls.finish.length, 1);
    assert.equal(h.active.get('a.test'), 0);
    assert.equal((item.ticket as Ticket).released, true);
  });

  it('a page: released by the fetch stage, settled by the sink, each once', () => {
    const h = harness();
    const item = h.take('http://a.test/p');
    item.fetch = fetched;
    h.ctx.onFetched(item, true);
    h.ctx.onCommitted(item, page(item.entry.url, true));
    assert.deepEqual(h.calls.finish, [{ host: 'a.test', url: 'http://a.test/p', requested: true }]);
    assert.deepEqual(h.calls.deleted, ['http://a.test/p']);
    assert.deepEqual([h.summary.pages, h.summary.relevant, h.summary.errors], [1, 1, 0]);
    assert.equal(h.committed.length, 1);
  });

  it('an error refused before the fetch: released once, without a request', () => {
    const h = harness();
    const item = h.take('http://a.test/private');
    item.error = { code: 'FC_PRIVATE_ADDRESS', message: 'private address' };
    h.ctx.onFetched(item, false);
    h.ctx.onCommitted(item, error(item.entry.url));
    assert.deepEqual(h.calls.finish, [{ host: 'a.test', url: 'http://a.test/private', requested: false }]);
    assert.deepEqual(h.calls.deleted, ['http://a.test/private']);
    assert.deepEqual([h.summary.pages, h.summary.errors], [0, 1]);
  });

  it('a retry: released once, out of flight once, not counted', () => {
    const h = harness();
    const item = h.take('http://a.test/503');
    item.fetch = { ...fetched, status: 503 } as FetchResult;
    h.ctx.onFetched(item, true);
    h.ctx.onRetry(item);
    h.ctx.onRetry(item);
    assert.equal(h.calls.finish.length, 1);
    assert.deepEqual(h.calls.deleted, ['http://a.test/503']);
    assert.deepEqual([h.summary.pages, h.summary.errors], [0, 0]);
    assert.equal(h.committed.length, 0);
  });

  it('an abort: the fetch stage releases the slot; the URL stays in flight (it goes back to the frontier)', () => {
    const h = harness();
    const item = h.take('http://a.test/slow');
    item.error = { code: 'FC_NETWORK', message: 'aborted' };
    h.ctx.onFetched(item, true);
    assert.equal(h.calls.finish.length, 1);
    assert.deepEqual(h.calls.deleted, []);
    assert.equal(h.active.get('a.test'), 0);
  });

  it('the sink settles an item the fetch stage never released (the safety net), once', () => {
    const h = harness();
    const item = h.take('http://a.test/x');
    h.ctx.onCommitted(item, error(item.entry.url));
    item.ticket!.settle();
    item.ticket!.release(true);
    assert.deepEqual(h.calls.finish, [{ host: 'a.test', url: 'http://a.test/x', requested: false }]);
    assert.deepEqual(h.calls.deleted, ['http://a.test/x']);
  });

  it('two items of one host each give back their own slot', () => {
    const h = harness();
    const a = h.take('http://a.test/1');
    const b = h.take('http://a.test/2');
    h.ctx.onFetched(a, true);
    h.ctx.onFetched(a, true);
    assert.equal(h.active.get('a.test'), 1);
    h.ctx.onFetched(b, true);
    assert.equal(h.active.get('a.test'), 0);
  });

  it('an item without a ticket gets one on first use, then behaves the same', () => {
    const h = harness();
    const item: CrawlItem = { entry: { url: 'http://b.test/', score: 1, depth: 0, parent: null } };
    h.active.set('b.test', 1);
    h.ctx.onFetched(item, true);
    h.ctx.onCommitted(item, page(item.entry.url, false));
    assert.equal(h.calls.finish.length, 1);
    assert.deepEqual([h.summary.pages, h.summary.relevant], [1, 0]);
  });

  it('a redirect hop to another host takes a slot there and gives it back once', async () => {
    const h = harness();
    const done = await h.ctx.beforeHop('http://c.test/', { origin: 'http://a.test/', replay: false, elapsedMs: 0, signal: new AbortController().signal });
    assert.ok(done !== undefined);
    assert.equal(h.active.get('c.test'), 1);
    done(false);
    done(false);
    assert.equal(h.active.get('c.test'), 0);
    assert.equal(h.calls.finish.length, 1);
    const same = await h.ctx.beforeHop('http://a.test/b', { origin: 'http://a.test/', replay: false, elapsedMs: 0, signal: new AbortController().signal });
    assert.equal(same, undefined);
  });

  it('counts dropped and capped links in the summary', () => {
    const h = harness();
    h.ctx.onDrop('http://a.test/x.pdf', 'file-extension');
    h.ctx.onDrop('http://a.test/y.pdf', 'file-extension');
    h.ctx.onCapped(7);
    assert.deepEqual(h.summary.dropped, { 'file-extension': 2, 'links-per-page': 7 });
  });
});
