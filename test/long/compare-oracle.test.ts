// Moved from test/eval.test.ts to the long suite (issue 25: the fast suite
// keeps `compare` on the fixture web; the oracle's unit tests are in
// test/oracle.test.ts): compare --oracle, real crawls beside simulated ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { runCompare } from '../../src/commands/compare.ts';
import { ROOT, parseLines } from '../helpers/cli.ts';
import { sink } from '../helpers/sink.ts';

test('compare --oracle: simulated crawls that know the labels, on the link graph of the archive, next to the real ones', async () => {
  const fx = (f: string): string => path.join(ROOT, 'fixtures', f);
  const out = sink();
  const err = sink();
  const code = await runCompare([
    '--warc', fx('web.warc.gz'), '--labels', fx('web-labels.tsv'), '--target', 'solar', '--seeds', fx('demo-seeds.txt'),
    '--strategies', 'bfs', '--status', '200', '--at', '50,100', '--oracle',
  ], { stdout: out, stderr: err });
  assert.equal(code, 0, err.text());
  const byRun = new Map(parseLines(out.text()).filter((s) => s.status === 200).map((s) => [s.run, s]));
  assert.deepEqual([...byRun.keys()], ['bfs', 'oracle-link', 'oracle-layer1', 'oracle-layer2', 'oracle-graph']);
  const bfs = byRun.get('bfs')!;
  for (const name of ['oracle-link', 'oracle-layer1', 'oracle-layer2', 'oracle-graph']) {
    const o = byRun.get(name)!;
    // the same archived pages are reachable (robots.txt obeyed), found sooner
    assert.equal(o.pages, bfs.pages, name);
    assert.equal(o.found, bfs.found, name);
    assert.ok(o.pagesTo80 < bfs.pagesTo80, `${name} ${o.pagesTo80} vs bfs ${bfs.pagesTo80}`);
    assert.ok(o.harvestAt['100'] > bfs.harvestAt['100'], name);
  }
  // knowing more never needs more pages here
  assert.ok(byRun.get('oracle-graph')!.pagesTo80 <= byRun.get('oracle-layer1')!.pagesTo80);
  assert.ok(byRun.get('oracle-layer1')!.pagesTo80 <= byRun.get('oracle-link')!.pagesTo80);
  assert.match(err.text(), /\| oracle-graph \| /);
  // a seed outside the archive: a warning, no oracle runs
  const lone = sink();
  const warned = sink();
  assert.equal(await runCompare([
    '--warc', fx('web.warc.gz'), '--labels', fx('web-labels.tsv'), '--target', 'solar', '--seed', 'http://not-archived.example/',
    '--strategies', 'bfs', '--max-pages', '5', '--oracle',
  ], { stdout: lone, stderr: warned }), 0, warned.text());
  assert.deepEqual(parseLines(lone.text()).map((s) => s.run), ['bfs']);
  assert.match(warned.text(), /--oracle: no seed is an archived page/);
});
