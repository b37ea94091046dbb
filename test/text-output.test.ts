// `crawl --text`: each HTML page's record carries its main text (the
// parser's MainText, test/page-parser.test.ts), end to end through the CLI
// and the replay proxy over the bundled fixture web.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { parseLines, fixtureReplay, runMain } from './helpers/cli.ts';

async function crawl(replayUrl: string, store: string, extra: string[]): Promise<any[]> {
  const r = await runMain([
    'crawl', '--seeds', 'fixtures/demo-seeds.txt', '--topic', 'fixtures/demo-topic.json',
    '--proxy', replayUrl, '--store', store, '--max-pages', '40', '--quiet', ...extra,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return parseLines(r.stdout).filter((x) => x.type === 'page');
}

test('crawl --text: HTML pages carry their main text; --text-max-chars cuts it and says so; without --text no text', async (t) => {
  const { url, dir } = await fixtureReplay(t);
  const withText = await crawl(url, path.join(dir, 'text'), ['--text']);
  const html = withText.filter((p) => p.contentType === 'text/html' && p.status === 200);
  assert.ok(html.length >= 20, `${html.length} HTML pages`);
  for (const p of withText) {
    if (p.contentType === 'text/html') {
      assert.equal(typeof p.text, 'string', p.url);
      assert.doesNotMatch(p.text, /\n\n|^\s|\s$| {2}/, `one line per block, trimmed: ${p.url}`);
    } else {
      assert.equal(p.text, undefined, `no text for ${p.contentType}: ${p.url}`);
    }
    assert.equal(p.textTruncated, undefined, 'nothing cut at the default cap');
  }
  // pages have text, and it is not the title repeated (the title is its own field)
  const nonEmpty = html.filter((p) => p.text.length > 100);
  assert.ok(nonEmpty.length >= 0.8 * html.length, `${nonEmpty.length} of ${html.length} pages with > 100 characters of text`);
  // the Chinese pages were decoded (GBK, GB18030) before their text was taken
  assert.ok(html.some((p) => p.charset !== 'utf-8' && /[\u4e00-\u9fff]{10}/.test(p.text)), 'Chinese text from a non-UTF-8 page');

  const capped = await crawl(url, path.join(dir, 'capped'), ['--text-max-chars', '50']);
  const cut = capped.filter((p) => p.textTruncated === true);
  assert.ok(cut.length >= 10, `${cut.length} texts cut at 50 characters`);
  for (const p of capped.filter((x) => x.contentType === 'text/html')) {
    assert.ok(p.text.length <= 50, `${p.text.length} characters: ${p.url}`);
    // a cut text is the start of the whole one
    const full = withText.find((x) => x.url === p.url);
    if (full !== undefined) {
      assert.ok(full.text.startsWith(p.text), p.url);
      assert.equal(p.textTruncated === true, full.text.length > p.text.length, p.url);
    }
  }

  const without = await crawl(url, path.join(dir, 'plain'), []);
  assert.ok(without.length >= 20);
  for (const p of without) {
    assert.equal('text' in p, false);
    assert.equal('textTruncated' in p, false);
  }
});

test('crawl --text-max-chars: a bad value is one FC_USAGE line and exit 2', async () => {
  for (const v of ['0', '-1', 'x', '']) {
    const r = await runMain(['crawl', '--seed', 'http://x.example/', '--text-max-chars', v]);
    assert.equal(r.code, 2, `${v}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /--text-max-chars/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
