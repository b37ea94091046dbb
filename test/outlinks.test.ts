// `crawl --outlinks`: page records list the page's links (url, anchor,
// score), for building link graphs and link-classifier training data from a
// crawl's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { canonicalize } from '../src/urls/canonical.ts';
import { recordOutlinks } from '../src/stages/sink.ts';
import { parseLines, fixtureReplay, runMain } from './helpers/cli.ts';

test('recordOutlinks: each canonical URL once, first anchor, highest score; links without a canonical form dropped', () => {
  const links = [
    { url: 'http://A.test/x#top', score: 0.2, anchor: 'first', context: '' },
    { url: 'http://a.test/y', canonical: 'http://a.test/y', score: 0.5, anchor: 'why', context: '' },
    { url: 'http://a.test/x', score: 0.9, anchor: 'second', context: '' },
    { url: 'mailto:someone@a.test', score: 1, anchor: 'mail', context: '' },
    { url: 'http://a.test/z', canonical: null, score: 1, anchor: 'refused', context: '' },
  ];
  assert.deepEqual(recordOutlinks(links), [
    { url: 'http://a.test/x', anchor: 'first', score: 0.9 },
    { url: 'http://a.test/y', anchor: 'why', score: 0.5 },
  ]);
  assert.deepEqual(recordOutlinks([]), []);
});

test('crawl --outlinks: every page lists its links; each page fetched from a link is among its parent\'s outlinks', async (t) => {
  const { url, dir } = await fixtureReplay(t);
  const crawl = async (store: string, extra: string[]) => {
    const r = await runMain(['crawl', '--seeds', 'fixtures/demo-seeds.txt', '--topic', 'fixtures/demo-topic.json', '--proxy', url, '--store', store, '--max-pages', '50', '--quiet', ...extra]);
    assert.equal(r.code, 0, r.stderr);
    return parseLines(r.stdout).filter((x) => x.type === 'page');
  };
  const pages = await crawl(path.join(dir, 'with'), ['--outlinks']);
  const byUrl = new Map<string, any>(pages.map((p) => [p.url, p]));
  let linked = 0;
  for (const p of pages) {
    assert.ok(Array.isArray(p.outlinks), p.url);
    const urls = p.outlinks.map((l: any) => l.url);
    assert.equal(new Set(urls).size, urls.length, `each URL once: ${p.url}`);
    assert.ok(p.outlinks.length <= p.links, `${p.outlinks.length} distinct of ${p.links} links`);
    for (const l of p.outlinks) {
      assert.equal(canonicalize(l.url), l.url);
      assert.equal(typeof l.anchor, 'string');
      assert.ok(Number.isFinite(l.score));
    }
    if (p.status === 200 && p.contentType === 'text/html') assert.ok(p.outlinks.length > 0 || p.links === 0, p.url);
    const parent = p.parent === null ? undefined : byUrl.get(p.parent);
    if (parent !== undefined) {
      assert.ok(parent.outlinks.some((l: any) => l.url === p.url), `${p.url} is a link of its parent ${p.parent}`);
      linked++;
    }
  }
  assert.ok(linked >= 30, `${linked} pages checked against their parent's outlinks`);
  for (const p of await crawl(path.join(dir, 'without'), [])) assert.equal('outlinks' in p, false);
});
