import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CurveSampler, Evaluator, evaluate, parseLabels } from '../src/tools/eval/metrics.ts';
import { downsample, plotCurves } from '../src/tools/eval/plot.ts';
import { readRecords, runEval } from '../src/commands/eval.ts';
import { runCompare } from '../src/commands/compare.ts';
import { ROOT, parseLines, tempDir } from './helpers/cli.ts';
import { sink } from './helpers/sink.ts';

const LABELS_TSV = [
  'url\tlabel\tsite',
  'http://a.example/index.html\tsolar\ta', // canonical: http://a.example/
  'http://a.example/t1\tsolar\ta',
  'http://a.example/t2\tsolar\ta',
  'http://a.example/t3\tsolar\ta',
  'HTTP://A.EXAMPLE/t4#frag\tsolar\ta', // canonical: http://a.example/t4
  'http://a.example/o1\tother\ta',
  'http://a.example/o2\tother\ta',
  'http://a.example/o2\tsolar\ta', // repeated URL: the first label counts
  'mailto:x@a.example\tsolar\ta', // not http(s): skipped
  '',
].join('\n');

const page = (url: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'page', url, finalUrl: url, status: 200, ...extra });

/** A hand-made crawl: see the comments for what each record counts as. */
const RECORDS: unknown[] = [
  page('http://a.example/'), // n1 relevant
  { type: 'error', url: 'http://a.example/gone', code: 'FC_NETWORK' }, // not a page
  page('http://a.example/o1'), // n2
  page('http://a.example/r', { finalUrl: 'http://a.example/t1' }), // n3 relevant through finalUrl
  page('http://a.example/t1'), // duplicate of n3's finalUrl
  page('http://a.example/t2', { status: 404 }), // n4 relevant (any status counts)
  page('http://a.example/x'), // n5 unlabelled
  page('http://a.example/index.html'), // duplicate of n1 after canonicalisation
  { type: 'summary', pages: 3 }, // neither page nor error
  page('http://a.example/t3'), // n6 relevant
  page('http://a.example/t4'), // n7 relevant
];

test('parseLabels canonicalises URLs, keeps the first label, counts bad rows', () => {
  const { labels, badRows, duplicates } = parseLabels(LABELS_TSV);
  assert.equal(labels.get('http://a.example/'), 'solar');
  assert.equal(labels.get('http://a.example/t4'), 'solar');
  assert.equal(labels.get('http://a.example/o2'), 'other');
  assert.equal(labels.size, 7);
  assert.equal(badRows, 1);
  assert.equal(duplicates, 1);
  assert.throws(() => parseLabels('address\tclass\nhttp://a.example/\tx\n'), TypeError);
  // columns are found by name, in any order
  assert.equal(parseLabels('label\turl\nsolar\thttp://b.example/a\n').labels.get('http://b.example/a'), 'solar');
});

test('parseLabels with --where keeps only the rows that pass: the others are unlabelled', () => {
  const tsv = 'url\tlabel\tsite\nhttp://a.example/1\tsolar\ta\nhttp://b.example/1\tsolar\tb\nhttp://b.example/2\tother\tb\n';
  const onlyA = parseLabels(tsv, [{ column: 'site', value: 'a' }]);
  assert.deepEqual([...onlyA.labels.keys()], ['http://a.example/1']);
  assert.equal(onlyA.filteredOut, 2);
  const notA = parseLabels(tsv, [{ column: 'site', value: 'a', negate: true }]);
  assert.deepEqual([...notA.labels.keys()], ['http://b.example/1', 'http://b.example/2']);
  assert.throws(() => parseLabels(tsv, [{ column: 'campus', value: 'a' }], 'l.tsv'), { code: 'FC_USAGE', message: /l\.tsv has no column "campus"/ });
});

// What broke: eval read lines of at most 1 MiB and skipped longer ones
// without a word, so a page record made long by --text and --outlinks (a
// page with thousands of links) was left out of the harvest and recall.
test('runEval: a 3 MB record (long text and outlinks) is scored like any other', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const labels = path.join(dir, 'l.tsv');
  await writeFile(labels, 'url\tlabel\nhttp://a.example/1\tsolar\nhttp://a.example/2\tsolar\n');
  const long = { ...page('http://a.example/1'), text: 'x'.repeat(2_500_000), outlinks: Array.from({ length: 10_000 }, (_, i) => ({ url: `http://a.example/l/${i}`, anchor: 'a link of the page', score: 0.5 })) };
  const crawl = `${JSON.stringify(long)}\n${JSON.stringify(page('http://a.example/2'))}\n`;
  assert.ok(crawl.length > 3_000_000);
  const out = sink();
  const err = sink();
  // in 64 KiB chunks, as a pipe delivers stdin
  const chunks = Array.from({ length: Math.ceil(crawl.length / 65536) }, (_, i) => crawl.slice(i * 65536, (i + 1) * 65536));
  const code = await runEval(['--labels', labels, '--target', 'solar'], { stdin: Readable.from(chunks), stdout: out, stderr: err });
  assert.equal(code, 0, err.text());
  const summary = parseLines(out.text()).find((r) => r.type === 'summary');
  assert.equal(summary.pages, 2);
  assert.equal(summary.relevant, 2);
});

test('readRecords: a line past the cap is skipped and reported, the lines after it are read', async () => {
  const lines = ['{"a":1}', JSON.stringify({ long: 'y'.repeat(5000) }), '{"b":2}', JSON.stringify({ long: 'z'.repeat(3000) }), '{"c":3}'];
  const text = lines.join('\n') + '\n';
  const chunks = Array.from({ length: Math.ceil(text.length / 700) }, (_, i) => text.slice(i * 700, (i + 1) * 700));
  const rows: object[] = [];
  const bad: string[] = [];
  await readRecords(Readable.from(chunks), (r) => rows.push(r), (why) => bad.push(why), 1000);
  assert.deepEqual(rows, [{ a: 1 }, { b: 2 }, { c: 3 }]);
  assert.deepEqual(bad, ['a line longer than 1000 characters (skipped)', 'a line longer than 1000 characters (skipped)']);
});

test('runEval --where: recall over the kept targets only; an unknown column is exit 2', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const labels = path.join(dir, 'sites.tsv');
  await writeFile(labels, 'url\tlabel\tsite\nhttp://a.example/1\tsolar\ta\nhttp://b.example/1\tsolar\tb\nhttp://b.example/2\tsolar\tb\n');
  const crawl = [page('http://a.example/1'), page('http://b.example/1')].map((r) => JSON.stringify(r)).join('\n') + '\n';
  const run = async (...more: string[]): Promise<{ code: number; out: string; err: string }> => {
    const out = sink();
    const err = sink();
    const code = await runEval(['--labels', labels, '--target', 'solar', ...more], { stdin: Readable.from([crawl]), stdout: out, stderr: err });
    return { code, out: out.text(), err: err.text() };
  };
  const all = parseLines((await run()).out).find((r) => r.type === 'summary');
  assert.equal(all.targets, 3);
  assert.equal(all.relevant, 2);
  const b = await run('--where', 'site!=a');
  assert.equal(b.code, 0, b.err);
  const onlyB = parseLines(b.out).find((r) => r.type === 'summary');
  assert.equal(onlyB.targets, 2);
  assert.equal(onlyB.relevant, 1, 'a.example/1 is unlabelled now');
  assert.match(b.err, /2 labelled URLs kept by --where site!=a, 1 rows left out/);
  const bad = await run('--where', 'campus=a');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /FC_USAGE: --where campus=a: .* has no column "campus"/);
});

test('harvest and recall per N, pages to 50/80/90 %, harvest@K and F on a hand-made crawl', () => {
  const { labels } = parseLabels(LABELS_TSV);
  const { curve, summary } = evaluate(RECORDS, labels, { target: 'solar', at: [1, 2, 5, 10] });
  assert.deepEqual(curve.map((p) => p.n), [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(curve.map((p) => p.relevant), [1, 1, 2, 3, 3, 4, 5]);
  assert.deepEqual(curve.map((p) => p.harvest), [1, 1 / 2, 2 / 3, 3 / 4, 3 / 5, 4 / 6, 5 / 7]);
  assert.deepEqual(curve.map((p) => p.recall), [1 / 5, 1 / 5, 2 / 5, 3 / 5, 3 / 5, 4 / 5, 1]);
  assert.equal(summary.targets, 5);
  assert.equal(summary.pages, 7);
  assert.equal(summary.pagesTo50, 4);
  assert.equal(summary.pagesTo80, 6);
  assert.equal(summary.pagesTo90, 7);
  assert.deepEqual(summary.harvestAt, { '1': 1, '2': 0.5, '5': 0.6, '10': null });
  assert.equal(summary.harvest, 5 / 7);
  assert.equal(summary.recall, 1);
  assert.ok(Math.abs(summary.f1 - 5 / 6) < 1e-12);
  assert.equal(summary.errors, 1);
  assert.equal(summary.duplicates, 2);
  assert.equal(summary.unlabelled, 1);
  assert.equal(summary.skippedStatus, 0);
});

test('the status filter counts only pages with that status', () => {
  const { labels } = parseLabels(LABELS_TSV);
  const { curve, summary } = evaluate(RECORDS, labels, { target: 'solar', status: 200 });
  assert.equal(summary.status, 200);
  assert.equal(summary.pages, 6);
  assert.equal(summary.skippedStatus, 1);
  assert.deepEqual(curve.map((p) => p.found), [1, 1, 2, 2, 3, 4]);
  assert.equal(summary.pagesTo50, 5);
  assert.equal(summary.pagesTo80, 6);
  assert.equal(summary.pagesTo90, null);
  assert.equal(summary.harvest, 4 / 6);
  assert.equal(summary.recall, 4 / 5);
});

test('reachable URLs restrict the recall denominator, not the harvest', () => {
  const { labels } = parseLabels(LABELS_TSV);
  const { summary } = evaluate(RECORDS, labels, { target: 'solar', reachable: ['http://a.example/index.htm', 'http://a.example/t1', 'http://a.example/t2'] });
  assert.equal(summary.targets, 3);
  assert.equal(summary.recall, 1);
  assert.equal(summary.pagesTo50, 3);
  assert.equal(summary.pagesTo90, 4);
  assert.equal(summary.relevant, 5);
});

test('a page labelled on its finalUrl takes that label, not the url one', () => {
  const labels = new Map([['http://b.example/a', 'solar'], ['http://b.example/b', 'other']]);
  const ev = new Evaluator(labels, { target: 'solar' });
  assert.equal(ev.add(page('http://b.example/a', { finalUrl: 'http://b.example/b' }))?.relevant, 0);
  assert.equal(ev.add(page('http://b.example/a')), null); // its url was counted already
  assert.equal(ev.summary().duplicates, 1);
  assert.equal(ev.add('not an object'), null);
  assert.equal(ev.summary().pages, 1);
});

test('CurveSampler keeps a bounded, evenly spaced subset ending at the last point', () => {
  const s = new CurveSampler(100);
  for (let n = 1; n <= 1003; n++) s.add({ n, relevant: 0, found: 0, harvest: 0, recall: 0 });
  const pts = s.points();
  assert.ok(pts.length <= 101 && pts.length >= 50, `${pts.length} points`);
  assert.equal(pts[pts.length - 1].n, 1003);
  const gaps = new Set(pts.slice(1, -1).map((p, i) => p.n - pts[i].n));
  assert.equal(gaps.size, 1);
  assert.deepEqual(downsample([1, 2, 3, 4, 5, 6, 7, 8, 9], 3), [1, 5, 9]);
});

test('plotCurves renders both runs with vega: names, axis titles, line paths', async () => {
  const mk = (h: number) => Array.from({ length: 2000 }, (_, i) => ({ n: i + 1, harvest: h, recall: (i + 1) / 2000 }));
  const svg = await plotCurves([{ name: 'run-alpha', points: mk(0.3) }, { name: 'run-beta', points: mk(0.8) }], { title: 'solar' });
  assert.match(svg, /^<svg /);
  for (const s of ['run-alpha', 'run-beta', 'pages fetched', 'harvest rate', 'recall', 'Harvest rate', 'Target recall']) assert.ok(svg.includes(s), s);
  assert.ok((svg.match(/<path/g) ?? []).length >= 4);
  // the two curve lines: each drawn with at most 500 points
  const lines = [...svg.matchAll(/<path[^>]*d="(M[^"]*)"[^>]*stroke-width="2"/g)].map((m) => m[1].split(/[ML]/).length - 1);
  assert.equal(lines.length, 4, 'two runs in two panels');
  for (const n of lines) assert.ok(n > 100 && n <= 500, `${n} points`);
});


async function labelsFile(dir: string): Promise<string> {
  const file = path.join(dir, 'labels.tsv');
  await writeFile(file, LABELS_TSV);
  return file;
}

test('runEval skips and counts malformed lines and prints curves and a summary', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const lines = RECORDS.map((r) => JSON.stringify(r));
  lines.splice(2, 0, 'not json', '42', '{"type":"page",', '[1,2]', '', 'also bad', 'and this');
  const out = sink();
  const err = sink();
  const code = await runEval(['--labels', await labelsFile(dir), '--target', 'solar', '--name', 'hand', '--status', '200', '--every', '2'], {
    stdin: Readable.from([lines.join('\n') + '\n']),
    stdout: out,
    stderr: err,
  });
  assert.equal(code, 0, err.text());
  const recs = parseLines(out.text());
  const summaries = recs.filter((r) => r.type === 'summary');
  assert.equal(summaries.length, 2);
  assert.deepEqual(summaries.map((s) => s.status), [null, 200]);
  assert.equal(summaries[0].malformed, 6);
  assert.equal(summaries[0].pages, 7);
  assert.equal(summaries[0].pagesTo80, 6);
  assert.equal(summaries[1].pages, 6);
  const curve = recs.filter((r) => r.type === 'curve' && r.status === null);
  assert.deepEqual(curve.map((c) => c.n), [2, 4, 6, 7]);
  assert.equal(curve[1].harvest, 0.75);
  assert.ok(recs.every((r) => r.run === 'hand'));
  assert.match(err.text(), /skipped a malformed line: Could not parse row not json/);
  assert.match(err.text(), /6 malformed lines skipped in all/);
});

test('runEval with several inputs writes one plot with every run', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const a = path.join(dir, 'a.ndjson');
  const b = path.join(dir, 'b.ndjson');
  await writeFile(a, RECORDS.map((r) => JSON.stringify(r)).join('\n'));
  await writeFile(b, RECORDS.slice().reverse().map((r) => JSON.stringify(r)).join('\n'));
  const svgFile = path.join(dir, 'out.svg');
  const out = sink();
  const err = sink();
  const code = await runEval(['--labels', await labelsFile(dir), '--target', 'solar', '--input', a, '--name', 'forward', '--input', b, '--name', 'backward', '--plot', svgFile], { stdout: out, stderr: err });
  assert.equal(code, 0, err.text());
  const summaries = parseLines(out.text()).filter((r) => r.type === 'summary');
  assert.deepEqual(summaries.map((s) => s.run), ['forward', 'backward']);
  const svg = await readFile(svgFile, 'utf8');
  assert.ok(svg.includes('forward') && svg.includes('backward'));

  // Regression: with --status both views were drawn on one page axis, so the
  // filtered curves (fewer pages) were squashed; now only they are drawn.
  const filteredSvg = path.join(dir, 'status.svg');
  const code2 = await runEval(['--labels', await labelsFile(dir), '--target', 'solar', '--input', a, '--name', 'forward', '--status', '200', '--plot', filteredSvg], { stdout: sink(), stderr: err });
  assert.equal(code2, 0, err.text());
  const svg2 = await readFile(filteredSvg, 'utf8');
  assert.ok(svg2.includes('forward') && svg2.includes('status 200'));
  assert.ok(!svg2.includes('[status'), 'one series per run, named by the run');
});

test('runEval usage errors exit 2 with one stderr line; --help exits 0', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const labels = await labelsFile(dir);
  const cases = [
    ['--target', 'solar'],
    ['--labels', labels],
    ['--labels', labels, '--target', 'solar', '--bogus'],
    ['--labels', labels, '--target', 'nope'],
    ['--labels', path.join(dir, 'missing.tsv'), '--target', 'solar'],
    ['--labels', labels, '--target', 'solar', '--every', '0'],
    ['--labels', labels, '--target', 'solar', '--at', '10,x'],
    ['--labels', labels, '--target', 'solar', '--input', path.join(dir, 'missing.ndjson')],
    ['--labels', labels, '--target', 'solar', '--input', labels, '--input', labels, '--name', 'one'],
  ];
  for (const argv of cases) {
    const out = sink();
    const err = sink();
    const code = await runEval(argv, { stdin: Readable.from([]), stdout: out, stderr: err });
    assert.equal(code, 2, argv.join(' '));
    assert.equal(err.text().trim().split('\n').length, 1, err.text());
    assert.equal(out.text(), '');
  }
  const out = sink();
  assert.equal(await runEval(['--help'], { stdout: out }), 0);
  assert.match(out.text(), /Usage: focuscrawl eval/);
});

test('compare crawls the fixture web with bfs and best-first; best-first harvests more', async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const fx = (f: string): string => path.join(ROOT, 'fixtures', f);
  const svgFile = path.join(dir, 'compare.svg');
  const out = sink();
  const err = sink();
  const code = await runCompare([
    '--warc', fx('web.warc.gz'), '--labels', fx('web-labels.tsv'), '--target', 'solar',
    '--seeds', fx('demo-seeds.txt'), '--topic', fx('demo-topic.json'),
    '--strategies', 'bfs,best-first', '--max-pages', '100', '--plot', svgFile, '--out-dir', path.join(dir, 'runs'),
  ], { stdout: out, stderr: err });
  assert.equal(code, 0, err.text());
  const summaries = parseLines(out.text());
  assert.deepEqual(summaries.map((s) => [s.type, s.run]), [['summary', 'bfs'], ['summary', 'best-first']]);
  const [bfs, best] = summaries;
  // A summary counts distinct final URLs: when a URL and the target it
  // redirects to are both in flight at once, both are fetched (100 records)
  // but they count once (CI saw 99 for bfs).
  for (const s of [bfs, best]) {
    assert.ok(s.pages >= 95 && s.pages <= 100, `${s.run}: ${s.pages} pages`);
    assert.equal(s.pages + s.duplicates, 100);
  }
  assert.ok(best.harvest > bfs.harvest, `harvest best-first ${best.harvest} vs bfs ${bfs.harvest}`);
  assert.ok(best.recall > bfs.recall);
  assert.match(err.text(), /\| run \| pages \|/);
  assert.match(err.text(), new RegExp(`\\| best-first \\| ${best.pages} \\|`));
  const svg = await readFile(svgFile, 'utf8');
  assert.ok(svg.includes('<path') && svg.includes('best-first') && svg.includes('bfs'));
  // each run's records were kept
  assert.equal(parseLines(await readFile(path.join(dir, 'runs', 'bfs.ndjson'), 'utf8')).filter((r) => r.type === 'page').length, 100);
});

test('compare: a strategy the crawler rejects fails its run, the others go on, exit 1', async () => {
  const fx = (f: string): string => path.join(ROOT, 'fixtures', f);
  const out = sink();
  const err = sink();
  const code = await runCompare([
    '--warc', fx('web.warc.gz'), '--labels', fx('web-labels.tsv'), '--target', 'solar',
    '--seed', 'http://www.webdir.example/', '--strategies', 'no-such-strategy,bfs', '--max-pages', '10',
  ], { stdout: out, stderr: err });
  assert.equal(code, 1);
  assert.deepEqual(parseLines(out.text()).map((s) => s.run), ['bfs']);
  assert.match(err.text(), /no-such-strategy: the crawl failed \(exit 2\)/);
  assert.match(err.text(), /--strategy: must be one of/);
  const usage = sink();
  assert.equal(await runCompare(['--labels', fx('web-labels.tsv'), '--target', 'solar'], { stdout: out, stderr: usage }), 2);
  assert.equal(usage.text().trim().split('\n').length, 1);
});
