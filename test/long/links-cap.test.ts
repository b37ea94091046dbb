// Regression (issue 21, item 6): the parser kept 5,000 links per page under
// a cap that was neither a flag nor documented, and the links past it were
// counted nowhere: a page with 10,000 links gave `links: 5000` and the
// summary's dropped-links count left the other 5,000 out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { parseLines, runCli, tempDir } from '../helpers/cli.ts';
import { serve } from '../helpers/serve.ts';

/** A site whose /big page links to /l/0 ... /l/9999 (depth 1 is not crawled: --max-depth 0 would skip the count). */
async function bigPage(t: import('node:test').TestContext): Promise<string> {
  return serve(t, (req, res) => {
    const p = req.url ?? '/';
    if (p !== '/big') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
    const links = Array.from({ length: 10_000 }, (_, i) => `<a href="/l/${i}">link ${i}</a>`).join('\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`);
  });
}

async function crawl(t: import('node:test').TestContext, base: string, extra: string[]) {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runCli([
    'crawl', '--seed', `${base}/big`, '--store', path.join(dir, 's'), '--max-pages', '1',
    '--allow-private', '--delay-ms', '0', '--stats-interval', '0', '--log-format', 'json', ...extra,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const page = parseLines(r.stdout).find((x) => x.url === `${base}/big`);
  const summary = r.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((x) => x.type === 'summary');
  return { page, summary };
}

test('e2e: a page with 10,000 links: the default cap keeps 5,000, the record says caps links, the summary counts the other 5,000', async (t) => {
  const base = await bigPage(t);
  const { page, summary } = await crawl(t, base, []);
  assert.equal(page.links, 5000);
  assert.deepEqual(page.caps, ['links']);
  assert.equal(summary.dropped['links-per-page'], 5000);
  const more = await crawl(t, base, ['--max-links-per-page', '20000']);
  assert.equal(more.page.links, 10_000);
  assert.equal(more.page.caps, undefined);
  assert.equal(more.summary.dropped['links-per-page'], undefined);
  const few = await crawl(t, base, ['--max-links-per-page', '100']);
  assert.equal(few.page.links, 100);
  assert.equal(few.summary.dropped['links-per-page'], 9900);
});

test('e2e: a bad --max-links-per-page is exit 2 with FC_USAGE', async () => {
  for (const bad of ['0', '-1', '1.5', 'many', '']) {
    const r = await runCli(['crawl', '--seed', 'http://a.test/', '--store', '/nonexistent/never', '--max-links-per-page', bad]);
    assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
    assert.match(r.stderr, /--max-links-per-page/);
  }
});
