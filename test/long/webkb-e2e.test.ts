// End to end through the real CLI and the replay proxy on the real 1997
// WebKB web (when ../shared is present). Moved out of test/crawl-e2e.test.ts
// for issue 25: replaying the 12 MB archive is the long suite's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalize } from '../../src/urls/canonical.ts';
import { SKIP_WEBKB, WEBKB_WARC, SHARED, parseLines, runCli, fixtureReplay } from '../helpers/cli.ts';
import { checkPageRecord } from '../helpers/records.ts';

test('WebKB replay: a breadth-first crawl of the real 1997 web', { skip: SKIP_WEBKB }, async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t, WEBKB_WARC);
  const r = await runCli([
    'crawl', '--seed', 'http://www.cs.cornell.edu/', '--seed', 'http://www.cs.utexas.edu/', '--seed', 'http://www.cs.washington.edu/',
    '--proxy', replayUrl, '--store', path.join(dir, 's'), '--max-pages', '400', '--concurrency', '8', '--per-host', '2',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const records = parseLines(r.stdout);
  const pages = records.filter((x) => x.type === 'page');
  assert.equal(pages.length, 400);
  pages.forEach(checkPageRecord);
  const inArchive = new Set(
    readFileSync(path.join(SHARED, 'webkb', 'labels.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => canonicalize(l.split('\t')[0])),
  );
  const ok = pages.filter((p) => p.status === 200);
  // Which of the many same-depth links fill the 400 pages depends on host timing
  // at --concurrency 8: measured 101–158 archived (200) pages over 8 local
  // runs and 96 in a loaded CI run (120 every time at --concurrency 1). The
  // floor only has to catch a replay/canonicalization mismatch, which makes
  // nearly every page a 404.
  assert.ok(ok.length >= 50, `${ok.length} archived pages among 400`);
  for (const p of ok) assert.ok(inArchive.has(p.finalUrl), `200 for an archived URL: ${p.finalUrl}`);
  for (const p of pages.filter((x) => x.status === 404)) assert.ok(!inArchive.has(p.finalUrl), `404 only outside the archive: ${p.url}`);
  assert.ok(ok.filter((p) => p.title).length / ok.length > 0.9, 'titles extracted from 1997 HTML');
  // breadth-first: every page's parent was fetched (and printed) before it, one level up
  const seen = new Map<string, number>();
  for (const p of pages) {
    if (p.depth > 0) {
      assert.ok(seen.has(p.parent), `parent of ${p.url} printed first`);
      assert.equal(p.depth, seen.get(p.parent)! + 1);
    }
    seen.set(p.url, p.depth);
    seen.set(p.finalUrl, p.depth);
  }
  // What could break (timing, not a bug): this asserted that the first three
  // records are the seeds. The three are taken first, but records come in
  // commit order, and a child of a fast seed can commit before a slow seed
  // answers (its host's robots.txt first). Breadth-first order is what the
  // parent and depth checks above assert; here, the seeds are the depth-0 pages.
  assert.deepEqual(pages.filter((p) => p.depth === 0).map((p) => p.url).sort(), ['http://www.cs.cornell.edu/', 'http://www.cs.utexas.edu/', 'http://www.cs.washington.edu/']);
});
