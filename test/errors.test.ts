// One error table (issue 26, item 3). What broke: each command mapped error
// codes to exit statuses its own way, so the same bad input exited
// differently: a --warc file that is not a WARC was FC_BAD_WARC exit 2 for
// `replay` but exit 1 for `train` and `expand-topic`; eval and compare turned
// any coded error other than FC_USAGE into a stack trace and exit 1. Three
// classes were never thrown, ModelError lived in model.ts and some codes
// were bare strings, so a misspelt code was no error at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import * as errors from '../src/errors.ts';
import { ERROR_CODES, FetchError, FocuscrawlError, exitStatusOf, type ErrorCode, type ErrorCodeInfo } from '../src/errors.ts';
import { EXIT_CODES_DOC, codeTable, withCodeTable } from '../src/tools/error-docs.ts';
import { MAX_LINE_CHARS } from '../src/tools/etfl/expand.ts';
import { CrawlStore } from '../src/store/level.ts';
import { ROOT, runMainEach, tempFiles } from './helpers/cli.ts';

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];
const info = (code: string): ErrorCodeInfo => (ERROR_CODES as Record<string, ErrorCodeInfo>)[code];

/** One instance of every error class errors.ts exports (the test fails when a class is added without one). */
const SAMPLES: Record<string, () => FocuscrawlError> = {
  UsageError: () => new errors.UsageError('m'),
  TopicError: () => new errors.TopicError('m'),
  ModelError: () => new errors.ModelError('m'),
  BadWarcError: () => new errors.BadWarcError('m'),
  CapExceededError: () => new errors.CapExceededError('a line', 10),
  StoreLockedError: () => new errors.StoreLockedError('/tmp/s'),
  StoreError: () => new errors.StoreError('m'),
  WarcError: () => new errors.WarcError('m'),
  PagesOutError: () => new errors.PagesOutError('m'),
  StalledError: () => new errors.StalledError('state'),
  NetworkError: () => new errors.NetworkError('m'),
  TimeoutError: () => new errors.TimeoutError('m'),
  BadHostError: () => new errors.BadHostError('a..b'),
  TooManyRedirectsError: () => new errors.TooManyRedirectsError('m'),
  BadRedirectError: () => new errors.BadRedirectError('m'),
  DecodeError: () => new errors.DecodeError('m'),
  PrivateAddressError: () => new errors.PrivateAddressError('localhost', 'localhost', 'loopback'),
  HostBudgetError: () => new errors.HostBudgetError('a.test', 3),
  SitemapError: () => new errors.SitemapError('m'),
};

test('the table: every code has a class or is record-only, a stable code string, an exit status when fatal', () => {
  const exported = Object.entries(errors)
    .filter(([, v]) => typeof v === 'function' && v.prototype instanceof FocuscrawlError && v !== FetchError)
    .map(([name]) => name)
    .sort();
  assert.deepEqual(Object.keys(SAMPLES).sort(), exported, 'a sample of every exported error class');
  const classes = new Map<string, ErrorCode>();
  for (const code of CODES) {
    const row = info(code);
    assert.match(code, /^FC_[A-Z]+(_[A-Z]+)*$/, code);
    assert.ok(row.exit !== null || row.record || row.warning === true, `${code}: fatal, a record or a warning`);
    assert.ok(row.exit === null || row.exit === 1 || row.exit === 2, `${code}: exit 1 or 2`);
    assert.ok(row.when.length > 0, `${code}: documented`);
    if (row.class === null) {
      assert.ok(row.record && row.exit === null, `${code}: a code without a class is record-only`);
      continue;
    }
    assert.ok(!classes.has(row.class), `${row.class}: one code a class`);
    classes.set(row.class, code);
    const make = SAMPLES[row.class];
    assert.ok(make !== undefined, `${code}: class ${row.class} is exported by src/errors.ts`);
    const err = make();
    assert.equal(err.code, code, row.class);
    assert.equal(err.name, row.class);
    assert.equal(exitStatusOf(err), row.exit ?? 1, `${code}: exit status`);
    assert.ok((err instanceof FetchError) === row.record, `${row.class}: a FetchError exactly when a record code`);
  }
  assert.deepEqual([...classes.keys()].sort(), exported, 'every class is in the table');
  // no code: an internal error (1); a util.parseArgs error is a usage error
  assert.equal(exitStatusOf(new Error('bug')), 1);
  assert.equal(exitStatusOf(Object.assign(new TypeError('x'), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })), 2);
  assert.equal(exitStatusOf(Object.assign(new Error('x'), { code: 'ENOENT' })), 1);
});

async function* tsFiles(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* tsFiles(p);
    else if (e.name.endsWith('.ts')) yield p;
  }
}

test("every 'FC_...' string literal in src/ and every code in docs/exit-codes.md is a declared code", async () => {
  const literal = /['"`](FC_[A-Z_]*[A-Z])(?=['"`:])/g;
  const found = new Set<string>();
  for await (const file of tsFiles(path.join(ROOT, 'src'))) {
    for (const m of (await readFile(file, 'utf8')).matchAll(literal)) {
      found.add(m[1]);
      assert.ok(Object.hasOwn(ERROR_CODES, m[1]), `${path.relative(ROOT, file)}: ${m[1]} is not in ERROR_CODES`);
    }
  }
  assert.ok(found.size >= 20, `the scan sees the literals (${found.size})`);
  for (const m of (await readFile(EXIT_CODES_DOC, 'utf8')).matchAll(/`(FC_[A-Z_]*[A-Z])`/g)) {
    assert.ok(Object.hasOwn(ERROR_CODES, m[1]), `docs/exit-codes.md: ${m[1]} is not in ERROR_CODES`);
  }
});

test('docs/exit-codes.md agrees with the table (generated table fresh; each hand-written table lists its codes)', async () => {
  const doc = await readFile(EXIT_CODES_DOC, 'utf8');
  assert.ok(doc.includes(codeTable()), 'docs/exit-codes.md is stale: run npm run docs:errors');
  assert.equal(withCodeTable(doc), doc);
  /** codes in the first column of the table under `heading` */
  const section = (heading: string): Set<string> => {
    const start = doc.indexOf(`\n## ${heading}`);
    assert.ok(start >= 0, heading);
    const end = doc.indexOf('\n## ', start + 1);
    const text = doc.slice(start, end < 0 ? undefined : end);
    return new Set([...text.matchAll(/^\| `(FC_[A-Z_]+)` \|/gm)].map((m) => m[1]));
  };
  const sections: Array<[string, (row: ErrorCodeInfo) => boolean]> = [
    ['Input errors (exit 2)', (row) => row.exit === 2],
    ['Runtime errors (exit 1)', (row) => row.exit === 1],
    ['Warnings', (row) => row.warning === true],
    ['Per-URL error records', (row) => row.record],
  ];
  for (const [heading, belongs] of sections) {
    const listed = section(heading);
    assert.deepEqual([...listed].sort(), CODES.filter((c) => belongs(info(c))).sort(), `the table under "${heading}"`);
  }
});


test('every command exits with the status the table gives for each kind of bad input it can hit', async (t) => {
  const { dir, file } = await tempFiles(t, 'fc-errors-');
  const topic = await file('topic.json', JSON.stringify({ name: 'courses', terms: ['course', 'homework', 'syllabus'] }));
  const badTopic = await file('bad-topic.json', '{"name": "x", "terms": [');
  const badModel = await file('bad-model.json', '{"format": "focuscrawl-model", "version": 3}');
  const notWarc = await file('not-a-warc.warc', '{"this": "is json"}\n');
  const labels = await file('labels.tsv', 'url\tlabel\nhttp://a.test/\tcourse\n');
  const records = await file('records.ndjson', '{"type":"page","url":"http://a.test/","status":200,"relevant":true}\n');
  const pages = await file('pages.ndjson', '{"url":"http://a.test/","text":"course homework"}\n');
  const longLine = await file('long.ndjson', 'x'.repeat(MAX_LINE_CHARS + 10));
  const headlines = await file('headlines.ndjson', '{"sentence":"课程作业","label_desc":"edu"}\n');
  const aFile = await file('a-file', 'not a directory\n');
  const under = (name: string): string => path.join(aFile, name); // ENOTDIR: cannot be written
  const held = path.join(dir, 'held-store');
  const holder = await CrawlStore.open(held);
  t.after(() => holder.close());
  const missing = path.join(dir, 'missing');
  const out = path.join(dir, 'out.json');

  // [command line, the code it fails with (null: no code), the exit status the table gives]
  const cases: Array<[string[], ErrorCode | null]> = [
    [['crawl', '--store', path.join(dir, 's1')], 'FC_USAGE'],
    [['crawl', '--seed', 'http://a.test/', '--topic', badTopic, '--store', path.join(dir, 's2')], 'FC_BAD_TOPIC'],
    [['crawl', '--seed', 'http://a.test/', '--model', badModel, '--store', path.join(dir, 's3')], 'FC_BAD_MODEL'],
    [['crawl', '--seed', 'http://a.test/', '--store', held], 'FC_STORE_LOCKED'],
    [['train', '--target', 'course', '--out', out], 'FC_USAGE'],
    [['train', '--warc', notWarc, '--labels', labels, '--target', 'course', '--out', out], 'FC_BAD_WARC'],
    [['eval', '--target', 'course', '--input', records], 'FC_USAGE'],
    [['eval', '--labels', labels, '--target', 'course', '--input', records, '--plot', under('plot.svg')], null],
    [['compare', '--labels', labels, '--target', 'course', '--seed', 'http://a.test/', '--strategies', 'bfs'], 'FC_USAGE'],
    [['replay'], 'FC_USAGE'],
    [['replay', '--warc', missing], 'FC_USAGE'],
    [['replay', '--warc', notWarc], 'FC_BAD_WARC'],
    [['expand-topic', '--pages', pages, '--out', out], 'FC_USAGE'],
    [['expand-topic', '--topic', badTopic, '--pages', pages, '--out', out], 'FC_BAD_TOPIC'],
    [['expand-topic', '--topic', topic, '--warc', notWarc, '--out', out], 'FC_BAD_WARC'],
    [['expand-topic', '--topic', topic, '--pages', longLine, '--out', out], 'FC_CAP_EXCEEDED'],
    [['expand-topic', '--topic', topic, '--pages', pages, '--out', under('out.json')], null],
    [['gen-web', '--out', path.join(dir, 'web.warc')], 'FC_USAGE'],
    [['gen-web', '--headlines', headlines, '--out', under('web.warc')], null],
    [['stats', '--store', missing], 'FC_USAGE'],
    [['records', '--store', missing], 'FC_USAGE'],
    [['records', '--store', held], 'FC_STORE_LOCKED'],
  ];
  const results = await runMainEach(cases.map(([args]) => args));
  cases.forEach(([args, code], i) => {
    const r = results[i];
    const what = `${args.join(' ')} -> exit ${r.code}: ${r.stderr}`;
    assert.equal(r.code, code === null ? 1 : info(code).exit, what);
    // the line names the code where the command's form does (docs/exit-codes.md "The error line"), never another
    const named = [...r.stderr.matchAll(/\bFC_[A-Z_]*[A-Z]\b/g)].map((m) => m[0]);
    assert.ok(named.every((c) => c === code), `names only ${code}: ${what}`);
    const codedForm = ['crawl', 'train', 'eval', 'compare', 'stats', 'records'].includes(args[0]) || (args[0] === 'replay' && code === 'FC_BAD_WARC');
    if (code !== null && codedForm) assert.ok(named.includes(code), `names ${code}: ${what}`);
    assert.doesNotMatch(r.stderr, /\n\s+at /, `no stack trace: ${what}`);
  });
});
