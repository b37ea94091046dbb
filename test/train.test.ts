import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WARCRecord, WARCSerializer } from 'warcio';
import { DEFAULT_WARC_PAGE_MIN_DF, MODEL_VERSION, Model, ModelError, discriminativeTerms, loadModel, saveModel, type ModelJSON } from '../src/relevance/model.ts';
import type { LinearCompactJSON } from '../src/relevance/learn/linear.ts';
import { runTrain } from '../src/commands/train.ts';
import { readLabels, readWarc } from '../src/relevance/train/from-warc.ts';
import { readLines, readTexts, textPage } from '../src/relevance/train/from-texts.ts';
import type { ParsedPage } from '../src/types.ts';
import { sink } from './helpers/sink.ts';

async function train(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = sink();
  const stderr = sink();
  const code = await runTrain(args, { stdout, stderr });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const html = (title: string, body: string): string => `<html><head><title>${title}</title></head><body>${body}</body></html>`;
const a = (href: string, text: string): string => `<p><a href="${href}">${text}</a></p>`;

const COURSE_TEXT = '<p>Course syllabus, homework assignments, lecture notes and the final exam. The instructor holds office hours.</p>';
const PROF_TEXT = '<p>Professor of computer science. Research interests, publications, journal papers and grants.</p>';
const STUDENT_TEXT = '<p>Graduate student home page: my resume, my advisor, my hobbies and favorite music.</p>';

/**
 * The tiny web (university a, unless noted). Link examples with
 * --where university=a and --target course (labelled, kept targets only; no
 * self links, no unlabelled or filtered-out targets):
 *   cs101 -> cs102 (+), prof (-)            [self link and elsewhere.test skipped]
 *   cs102 -> cs101 (+), prof (-)
 *   cs103 -> cs102 (+)
 *   prof  -> cs101 (+), student (-)
 *   student -> prof (-)
 *   dept  -> cs101 (+), cs103 (+), prof (-), student (-)   [hidden: university b, skipped]
 * = 12 link examples, 6 positive. Page examples: 6 (3 course).
 * notes.txt is labelled but text/plain; missing.html is labelled but not archived.
 */
const PAGES: { url: string; label: string; university: string; body: string; type?: string }[] = [
  {
    url: 'http://u.test/cs101.html',
    label: 'course',
    university: 'a',
    body: html('CS101 course', COURSE_TEXT + a('cs102.html', 'CS102 course syllabus') + a('prof.html', 'Professor Smith home page') + a('#top', 'top') + a('http://elsewhere.test/x', 'elsewhere')),
  },
  {
    url: 'http://u.test/cs102.html',
    label: 'course',
    university: 'a',
    body: html('CS102 course', COURSE_TEXT + a('cs101.html', 'CS101 course homework') + a('prof.html', 'Professor Smith')),
  },
  { url: 'http://u.test/cs103.html', label: 'course', university: 'a', body: html('CS103 course', COURSE_TEXT + a('cs102.html', 'CS102 lecture notes')) },
  {
    url: 'http://u.test/prof.html',
    label: 'faculty',
    university: 'a',
    body: html('Professor Smith', PROF_TEXT + a('cs101.html', 'CS101 course') + a('student.html', 'my student Jones')),
  },
  { url: 'http://u.test/student.html', label: 'student', university: 'a', body: html('Jones', STUDENT_TEXT + a('prof.html', 'my advisor professor Smith')) },
  {
    url: 'http://u.test/dept.html',
    label: 'other',
    university: 'a',
    body: html('Department', '<p>Department news and events.</p>' + a('cs101.html', 'CS101 course') + a('cs103.html', 'CS103 course') + a('prof.html', 'faculty professor') + a('student.html', 'student') + a('hidden.html', 'CS999 course')),
  },
  { url: 'http://u.test/hidden.html', label: 'course', university: 'b', body: html('CS999 course', COURSE_TEXT + a('cs101.html', 'CS101 course')) },
  { url: 'http://u.test/notes.txt', label: 'course', university: 'a', body: 'plain text course notes', type: 'text/plain' },
];
const MISSING = { url: 'http://u.test/missing.html', label: 'course', university: 'a' };

async function writeWarc(path: string): Promise<void> {
  const parts: Uint8Array[] = [];
  for (const p of PAGES) {
    const record = WARCRecord.create(
      { url: p.url, type: 'response', warcVersion: 'WARC/1.1', statusline: 'HTTP/1.0 200 OK', httpHeaders: { 'Content-Type': p.type ?? 'text/html' } },
      [Buffer.from(p.body, 'utf8')],
    );
    parts.push(await WARCSerializer.serialize(record, { gzip: true }));
  }
  await writeFile(path, Buffer.concat(parts));
}

function page(title: string, content: string): ParsedPage {
  return { ...textPage(title), blocks: { title, heading: '', content, navigation: '', anchor: '', other: '' } };
}

let dir: string;
let warc: string;
let labels: string;
let modelPath: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fc-train-'));
  warc = join(dir, 'tiny.warc.gz');
  labels = join(dir, 'labels.tsv');
  modelPath = join(dir, 'course.json');
  await writeWarc(warc);
  const rows = [...PAGES, MISSING].map((p) => `${p.url}\t${p.label}\t${p.university}`);
  await writeFile(labels, ['url\tlabel\tuniversity', ...rows, ''].join('\n'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('train from a WARC', () => {
  test('counts exactly the constructed page and link examples', async () => {
    const data = await readWarc({ warcs: [warc], labels, target: 'course', where: [{ column: 'university', value: 'a' }] });
    assert.equal(data.pages.length, 6);
    assert.equal(data.pages.filter((p) => p.label === 1).length, 3);
    assert.equal(data.links.length, 12);
    assert.equal(data.links.filter((l) => l.label === 1).length, 6);
    assert.equal(data.counts.labelRowsFilteredOut, 1);
    assert.equal(data.counts.labelledNotInWarc, 1);
    assert.equal(data.counts.skippedNotHtml, 1);
    assert.equal(data.counts.parsedPages, 6);
    const anchors = data.links.map((l) => l.anchor);
    assert.ok(!anchors.includes('CS999 course'), 'a link to a filtered-out row is no example');
    assert.ok(!anchors.includes('elsewhere') && !anchors.includes('top'));
  });

  test('train --warc --classifier linear: the page judge keeps features of DEFAULT_WARC_PAGE_MIN_DF pages, links of --min-df', async () => {
    // issue 24 item 3: --page-min-df (default DEFAULT_WARC_PAGE_MIN_DF with --warc) cuts the page judge only
    const fit = async (extra: string[]): Promise<ModelJSON> => {
      const out = join(dir, `lin${extra.join('')}.json`);
      const r = await train(['--warc', warc, '--labels', labels, '--target', 'course', '--classifier', 'linear', '--min-df', '1', ...extra, '--out', out]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(await readFile(out, 'utf8')) as ModelJSON;
    };
    const [dflt, one] = [await fit([]), await fit(['--page-min-df', '1'])];
    assert.equal(dflt.training.options.pageMinDf, DEFAULT_WARC_PAGE_MIN_DF);
    assert.equal(one.training.options.pageMinDf, 1);
    const page = (j: ModelJSON): LinearCompactJSON => j.linear!.page as LinearCompactJSON;
    const link = (j: ModelJSON): LinearCompactJSON => j.linear!.link as LinearCompactJSON;
    assert.ok(page(dflt).df.length > 0 && page(dflt).df.every((c) => c >= DEFAULT_WARC_PAGE_MIN_DF));
    assert.deepEqual(page(dflt).names, page(one).names.filter((_, j) => page(one).df[j] >= DEFAULT_WARC_PAGE_MIN_DF));
    assert.ok(link(dflt).df.includes(1), 'the link classifier keeps --min-df 1');
    assert.deepEqual(link(dflt), link(one));
  });

  test('without the filter the other university counts too', async () => {
    const data = await readWarc({ warcs: [warc], labels, target: 'course' });
    assert.equal(data.pages.length, 7);
    // + dept -> hidden (+), + hidden -> cs101 (+)
    assert.equal(data.links.length, 14);
    assert.equal(data.links.filter((l) => l.label === 1).length, 8);
  });

  test('--where COLUMN!=VALUE keeps the rows whose column is anything else', async () => {
    // keeping university a out (leave-one-out training) leaves only b's page and its link
    const out = await readWarc({ warcs: [warc], labels, target: 'course', where: [{ column: 'university', value: 'a', negate: true }] });
    assert.deepEqual(out.pages.map((p) => p.label), [1]);
    assert.equal(out.counts.labelRowsFilteredOut, 8);
    assert.deepEqual(out.links, [], 'hidden.html links only to a filtered-out row');
    // != b is = a here: the same examples as the first test
    const notB = await readWarc({ warcs: [warc], labels, target: 'course', where: [{ column: 'university', value: 'b', negate: true }] });
    assert.equal(notB.pages.length, 6);
    assert.equal(notB.links.length, 12);
    const r = await train(['--warc', warc, '--labels', labels, '--target', 'course', '--where', 'university!=b', '--no-hub-links', '--out', join(dir, 'not-b.json')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /6 page examples \(3 positive\), 12 link examples \(6 positive\)/);
    assert.deepEqual((await loadModel(join(dir, 'not-b.json'))).json.training.options.where, ['university!=b']);
  });

  test('host lists label links and pages when the labels file has no row (Han et al. algorithm 2, docs/algorithms.md#automatic-link-labels)', async () => {
    const pos = join(dir, 'pos.txt');
    const neg = join(dir, 'neg.txt');
    await writeFile(pos, '# topic sites\nELSEWHERE.test\n');
    await writeFile(neg, 'other.test:80\n');
    const data = await readWarc({ warcs: [warc], labels, target: 'course', where: [{ column: 'university', value: 'a' }], positiveHosts: pos, negativeHosts: neg });
    assert.equal(data.links.length, 13);
    assert.equal(data.links.filter((l) => l.label === 1).length, 7);
    assert.equal(data.counts.linksFromHosts, 1);
    assert.ok(data.links.some((l) => l.anchor === 'elsewhere' && l.label === 1));
  });

  test('trains a model whose classifiers separate the classes', async () => {
    // Han et al.'s links (only links to target pages positive;
    // docs/algorithms.md#automatic-link-labels): --no-hub-links
    const r = await train(['--warc', warc, '--labels', labels, '--target', 'course', '--where', 'university=a', '--no-hub-links', '--out', modelPath]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /6 page examples \(3 positive\), 12 link examples \(6 positive\)/);
    assert.match(r.stderr, /in-sample accuracy: page/);
    const model = await loadModel(modelPath);
    assert.equal(model.target, 'course');
    assert.equal(model.threshold, 0.5);
    // from a WARC the defaults are group 4 and a class-balanced link classifier
    assert.equal(model.group, 4);
    const json = model.json;
    assert.equal(json.link.classifier.balanced, true);
    assert.equal(json.training.options.balancedLinks, true);
    assert.equal(json.format, 'focuscrawl-model');
    assert.equal(json.version, 3);
    assert.match(json.createdBy, /^focuscrawl \d/);
    assert.equal(json.training.counts.links, 12);
    assert.equal(json.training.counts.linkPositives, 6);
    assert.deepEqual(json.training.options.where, ['university=a']);
    assert.ok(model.terms.includes('syllabus'), `terms: ${model.terms.join(' ')}`);
    assert.ok(!model.terms.includes('professor'));
    const onTopic = page('CS200 course', 'Syllabus and homework for the course; lecture notes, exam and instructor office hours.');
    const offTopic = page('Professor Brown', 'Professor of computer science: research interests and publications.');
    assert.ok(model.pageProbability(onTopic) > 0.5, `on-topic ${model.pageProbability(onTopic)}`);
    assert.ok(model.pageProbability(offTopic) < 0.5, `off-topic ${model.pageProbability(offTopic)}`);
    const good = model.linkProbability('CS300 course syllabus', '');
    const bad = model.linkProbability('Professor Brown home page', '');
    assert.ok(good > bad, `link ${good} vs ${bad}`);
    for (const density of ['gaussian', 'kernel'] as const) {
      const g = model.kdeProbability('CS300 course syllabus', '', density);
      const b = model.kdeProbability('Professor Brown home page', '', density);
      assert.ok(g >= 0 && g <= 1 && b >= 0 && b <= 1);
      assert.ok(g > b, `${density}: ${g} vs ${b}`);
    }
    assert.deepEqual((await readdir(dir)).filter((f) => f.endsWith('.tmp')), [], 'no temp file left behind');
  });

  test('hub links are on by default from a WARC; --no-hub-links, --no-balanced-links and --feature-group turn the defaults off', async () => {
    // the tiny web's hubs (pages linking to a course page): prof (-> cs101) and
    // dept; so cs102 -> prof, student -> prof and dept -> prof become positive,
    // but not cs101 -> prof: prof leads back to cs101 only, which a crawl on
    // cs101 already has
    const on = join(dir, 'hubs.json');
    let r = await train(['--warc', warc, '--labels', labels, '--target', 'course', '--where', 'university=a', '--out', on]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /3 links to hub pages .* relabelled positive/);
    assert.match(r.stderr, /12 link examples \(9 positive\)/);
    const data = await readWarc({ warcs: [warc], labels, target: 'course', where: [{ column: 'university', value: 'a' }], hubLinks: true });
    const toProf = data.links.filter((l) => l.url === 'http://u.test/prof.html').map((l) => [l.parentUrl, l.label]);
    assert.deepEqual(toProf.sort(), [
      ['http://u.test/cs101.html', 0], ['http://u.test/cs102.html', 1], ['http://u.test/dept.html', 1], ['http://u.test/student.html', 1],
    ]);
    const hubs = (await loadModel(on)).json;
    assert.equal(hubs.training.options.hubLinks, true);
    const f = join(dir, 'g2u.json');
    r = await train(['--warc', warc, '--labels', labels, '--target', 'course', '--where', 'university=a', '--feature-group', '2', '--no-balanced-links', '--no-hub-links', '--out', f]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /12 link examples \(6 positive\)/);
    const json = (await loadModel(f)).json;
    assert.equal(json.link.group, 2);
    assert.notEqual(json.link.classifier.balanced, true);
    assert.equal(json.training.options.balancedLinks, undefined);
    assert.equal(json.training.options.hubLinks, undefined);
  });

  test('train --classifier blend stores a stacked link classifier that round-trips through the file and keeps the NB judge', async () => {
    const out = join(dir, 'blend.json');
    const r = await train(['--warc', warc, '--labels', labels, '--target', 'course', '--where', 'university=a', '--classifier', 'blend', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /blend link \d/);
    const model = await loadModel(out);
    assert.equal(model.classifier, 'blend');
    const json = model.json;
    assert.equal(json.classifier, 'blend');
    assert.equal(json.version, MODEL_VERSION); // its linear part has the compact layout of version 5
    assert.equal(json.linear, undefined);
    assert.equal(json.blend!.weights.length, 3);
    assert.ok(json.blend!.weights.every(Number.isFinite));
    assert.equal(json.blend!.link.type, 'linear-lr');
    // the page judge is the NB one: the same as an NB model's trained on the same data
    const nbPath = join(dir, 'blend-nb.json');
    assert.equal((await train(['--warc', warc, '--labels', labels, '--target', 'course', '--where', 'university=a', '--classifier', 'nb', '--out', nbPath])).code, 0);
    const nb = await loadModel(nbPath);
    const p = page('CS200 course', 'Syllabus and homework for the course; lecture notes, exam and instructor office hours.');
    assert.equal(model.pageProbability(p), nb.pageProbability(p));
    // the link score is the stacked one: σ(a·logit(P_nb) + b·logit(P_lin) + c), not NB's
    const parent = { url: 'http://v.test/dept.html', title: 'Department', relevant: false };
    const links: [string, string, string][] = [['CS300 course syllabus', 'lecture notes', 'http://v.test/cs300.html'], ['Professor Brown home page', 'research', 'http://v.test/brown.html']];
    const scores = links.map(([an, ctx, url]) => model.linkProbability(an, ctx, url, parent));
    assert.ok(scores[0] > scores[1], `link ${scores[0]} vs ${scores[1]}`);
    assert.ok(links.some(([an, ctx, url], i) => Math.abs(nb.linkProbability(an, ctx, url, parent) - scores[i]) > 1e-6), 'blend scores differ from NB');
    // save/load: equal scores from the document, the file and a second save of it
    const again = join(dir, 'blend-again.json');
    await saveModel(again, json);
    const reloaded = await loadModel(again);
    for (const [an, ctx, url] of links) assert.equal(reloaded.linkProbability(an, ctx, url, parent), model.linkProbability(an, ctx, url, parent));
    const fresh = Model.fromJSON(JSON.parse(await readFile(out, 'utf8')));
    for (const [an, ctx, url] of links) assert.equal(fresh.linkProbability(an, ctx, url, parent), model.linkProbability(an, ctx, url, parent));
    // malformed blend parts are refused with the field named
    assert.throws(() => Model.fromJSON({ ...structuredClone(json), blend: { ...json.blend!, weights: [1, 2] } }), /"blend.weights" must be three finite numbers/);
    assert.throws(() => Model.fromJSON({ ...structuredClone(json), blend: undefined }), /"blend" must be an object/);
    assert.throws(() => Model.fromJSON({ ...structuredClone(json), version: 2 }), /needs model version 3, 4 or 5/);
  });

  test('a page that links only up to a target above it (a homework page to its course) is no hub', async () => {
    // cs1's 96f offering links to its homework, which links two levels up to
    // the course, and to Ann's page, which links to the course from outside
    // its tree. Only Ann's page leads somewhere new.
    const web: [string, string, string][] = [
      ['http://v.test/c/cs1/', 'course', html('CS1', COURSE_TEXT + a('96f/', 'Fall 1996 offering'))],
      ['http://v.test/c/cs1/96f/', 'course', html('CS1 fall 96', COURSE_TEXT + a('hw5.html', 'homework 5') + a('/people/ann.html', 'Ann, the TA'))],
      ['http://v.test/c/cs1/96f/hw5.html', 'other', html('Homework 5', '<p>Due Friday.</p>' + a('/c/cs1/', 'back to CS1'))],
      ['http://v.test/people/ann.html', 'other', html('Ann', STUDENT_TEXT + a('/c/cs1/', 'I teach CS1'))],
    ];
    const parts: Uint8Array[] = [];
    for (const [url, , body] of web) {
      const record = WARCRecord.create({ url, type: 'response', warcVersion: 'WARC/1.1', statusline: 'HTTP/1.0 200 OK', httpHeaders: { 'Content-Type': 'text/html' } }, [Buffer.from(body, 'utf8')]);
      parts.push(await WARCSerializer.serialize(record, { gzip: true }));
    }
    const treeWarc = join(dir, 'tree.warc.gz');
    const treeLabels = join(dir, 'tree.tsv');
    await writeFile(treeWarc, Buffer.concat(parts));
    await writeFile(treeLabels, ['url\tlabel', ...web.map(([url, label]) => `${url}\t${label}`), ''].join('\n'));
    const data = await readWarc({ warcs: [treeWarc], labels: treeLabels, target: 'course', hubLinks: true });
    const from96f = data.links.filter((l) => l.parentUrl === 'http://v.test/c/cs1/96f/').map((l) => [l.url, l.label]);
    assert.deepEqual(from96f.sort(), [['http://v.test/c/cs1/96f/hw5.html', 0], ['http://v.test/people/ann.html', 1]]);
  });

  test('an unknown --where column or target is a usage error', async () => {
    let r = await train(['--warc', warc, '--labels', labels, '--target', 'course', '--where', 'campus=a', '--out', join(dir, 'x.json')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^focuscrawl: FC_USAGE: .*campus.*\n$/);
    r = await train(['--warc', warc, '--labels', labels, '--target', 'cooking', '--out', join(dir, 'x.json')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /FC_USAGE: target "cooking"/);
    assert.equal(existsSync(join(dir, 'x.json')), false);
  });

  test('readLabels canonicalises URLs and reports its rows', async () => {
    const f = join(dir, 'l2.tsv');
    await writeFile(f, 'url\tlabel\nHTTP://U.test/a/index.html\tcourse\nnot a url\tcourse\nhttp://u.test/a/\tother\n');
    const t = await readLabels(f);
    assert.deepEqual([...t.labels], [['http://u.test/a/', 'course']]);
    assert.equal(t.rows, 3);
    assert.equal(t.skipped, 1);
    assert.equal(t.duplicates, 1);
  });
});

describe('train from texts', () => {
  const LINES = [
    { s: '股市大涨 银行 股票 投资者 获利', l: 'news_finance', k: '股票,银行' },
    { s: '央行 降息 银行 利率 股票 市场', l: 'news_finance', k: '利率' },
    { s: '基金 投资 股票 收益 银行 理财', l: 'news_finance', k: '' },
    { s: '足球 比赛 球队 进球 冠军', l: 'news_sports', k: '足球' },
    { s: '篮球 球队 比赛 球员 冠军', l: 'news_sports', k: '' },
    { s: '旅游 景点 酒店 门票 游客', l: 'news_travel', k: '旅游' },
  ];

  test('trains from NDJSON, skipping malformed lines with a count on stderr', async () => {
    const f = join(dir, 'texts.ndjson');
    const good = LINES.map((x) => JSON.stringify({ sentence: x.s, label_desc: x.l, keywords: x.k }));
    const bad = ['{not json', '[1, 2]', JSON.stringify({ label_desc: 'news_finance' }), JSON.stringify({ sentence: 5, label_desc: 'news_sports' }), JSON.stringify({ sentence: 'x', label_desc: null })];
    await writeFile(f, [good[0], bad[0], good[1], '', bad[1], good[2], good[3], bad[2], bad[3], good[4], bad[4], good[5]].join('\r\n'));
    const out = join(dir, 'fin.json');
    const r = await train(['--texts', f, '--text-field', 'sentence', '--label-field', 'label_desc', '--context-field', 'keywords', '--target', 'news_finance', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /skipped 5 malformed of 11 lines \(first: .*texts\.ndjson:2: not JSON\)/);
    assert.match(r.stderr, /6 page examples \(3 positive\), 6 link examples \(3 positive\)/);
    const model = await loadModel(out);
    assert.equal(model.json.training.source, 'texts');
    assert.equal(model.json.training.counts.malformed, 5);
    // texts keep Han et al.'s defaults (docs/algorithms.md#nb-link): group 2, the classes' own counts
    assert.equal(model.group, 2);
    assert.notEqual(model.json.link.classifier.balanced, true);
    assert.ok(model.linkProbability('银行 股票 大涨', '') > model.linkProbability('足球 比赛 冠军', ''));
    assert.ok(model.pageProbability(textPage('银行 股票 投资')) > 0.5);
    assert.ok(model.pageProbability(textPage('球队 比赛 冠军')) < 0.5);
    assert.ok(model.terms.includes('股票'), model.terms.join(' '));
  });

  test('readTexts takes numbers as labels and a missing context as empty', async () => {
    const f = join(dir, 'num.ndjson');
    await writeFile(f, [JSON.stringify({ t: 'stock market bank', y: 104 }), JSON.stringify({ t: 'football match', y: 103 })].join('\n'));
    const data = await readTexts({ files: [f], textField: 't', labelField: 'y', contextField: 'kw', target: '104' });
    assert.deepEqual(data.links.map((l) => [l.anchor, l.context, l.label]), [['stock market bank', '', 1], ['football match', '', 0]]);
  });

  test('a file with no usable line, or without the target, is a usage error', async () => {
    const f = join(dir, 'junk.ndjson');
    await writeFile(f, 'nope\n{"a": 1}\n');
    let r = await train(['--texts', f, '--text-field', 'sentence', '--label-field', 'label_desc', '--target', 'x', '--out', join(dir, 'j.json')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /focuscrawl: FC_USAGE: no usable line/);
    const g = join(dir, 'only-sports.ndjson');
    await writeFile(g, JSON.stringify({ sentence: '足球', label_desc: 'news_sports' }) + '\n');
    r = await train(['--texts', g, '--text-field', 'sentence', '--label-field', 'label_desc', '--target', 'news_finance', '--out', join(dir, 'j.json')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /FC_USAGE: target "news_finance" matches no usable line/);
  });

  test('readLines splits LF and CRLF, drops a BOM and caps long lines', async () => {
    const f = join(dir, 'lines.txt');
    await writeFile(f, '\uFEFFone\r\ntwo\n' + 'x'.repeat(50) + '\nlast');
    const got: (string | null)[] = [];
    for await (const l of readLines(f, 20)) got.push(l);
    assert.deepEqual(got, ['one', 'two', null, 'last']);
  });
});

describe('model file', () => {
  let valid: ModelJSON;
  let g2: string;
  before(async () => {
    // group 2, unbalanced: the layout version 1 files had
    g2 = join(dir, 'model-file-g2.json');
    const r = await train(['--warc', warc, '--labels', labels, '--target', 'course', '--where', 'university=a', '--feature-group', '2', '--no-balanced-links', '--out', g2]);
    assert.equal(r.code, 0, r.stderr);
    valid = JSON.parse(await readFile(g2, 'utf8')) as ModelJSON;
  });

  const cases: [string, (m: any) => unknown][] = [
    ['wrong format', (m) => ({ ...m, format: 'other-model' })],
    ['version 6', (m) => ({ ...m, version: 6 })],
    ['version 1 with feature group 3 (URL features changed in version 2)', (m) => ({ ...m, version: 1, link: { ...m.link, group: 3 } })],
    ['link classifier with a non-boolean "balanced"', (m) => ({ ...m, link: { ...m.link, classifier: { ...m.link.classifier, balanced: 'yes' } } })],
    ['version as a string', (m) => ({ ...m, version: '1' })],
    ['missing page classifier', (m) => ({ ...m, page: undefined })],
    ['page classifier of the wrong type', (m) => ({ ...m, page: 'bayes' })],
    ['page classifier with bad counts', (m) => ({ ...m, page: { ...m.page, nPos: -1 } })],
    ['missing link classifier', (m) => ({ ...m, link: { ...m.link, classifier: undefined } })],
    ['bad feature group', (m) => ({ ...m, link: { ...m.link, group: 5 } })],
    ['domain terms not strings', (m) => ({ ...m, link: { ...m.link, domainTerms: [1, 2] } })],
    ['kernel classifier swapped', (m) => ({ ...m, kde: { ...m.kde, kernel: m.kde.gaussian } })],
    ['missing vectorizer', (m) => ({ ...m, kde: { ...m.kde, vectorizer: null } })],
    ['threshold as a string', (m) => ({ ...m, threshold: '0.5' })],
    ['threshold above 1', (m) => ({ ...m, threshold: 2 })],
    ['terms not an array', (m) => ({ ...m, terms: 'course' })],
    ['empty target', (m) => ({ ...m, target: '' })],
    ['training counts not numbers', (m) => ({ ...m, training: { ...m.training, counts: { pages: 'six' } } })],
    ['an array', () => [1, 2]],
  ];
  for (const [name, mutate] of cases) {
    test(`loadModel rejects: ${name}`, async () => {
      const f = join(dir, 'bad.json');
      await writeFile(f, JSON.stringify(mutate(structuredClone(valid))));
      await assert.rejects(loadModel(f), (err: unknown) => err instanceof ModelError && err.code === 'FC_BAD_MODEL');
    });
  }

  test('loadModel rejects a truncated file, an empty file and a missing file', async () => {
    const text = await readFile(modelPath, 'utf8');
    const f = join(dir, 'trunc.json');
    await writeFile(f, text.slice(0, Math.floor(text.length / 2)));
    await assert.rejects(loadModel(f), { code: 'FC_BAD_MODEL', message: /not valid JSON/ });
    await writeFile(f, '');
    await assert.rejects(loadModel(f), { code: 'FC_BAD_MODEL' });
    await assert.rejects(loadModel(join(dir, 'nope.json')), { code: 'FC_BAD_MODEL', message: /cannot read/ });
  });

  test('the messages name the problem', async () => {
    assert.throws(() => Model.fromJSON({ ...valid, version: 6 }, 'm.json'), /m\.json: unsupported model version number 6/);
    assert.throws(() => Model.fromJSON({ ...valid, version: 1, link: { ...valid.link, group: 3 } }, 'm.json'), /version 1 model with link feature group 3.*retrain/);
    assert.throws(() => Model.fromJSON({ ...valid, format: 'x' }, 'm.json'), /not a focuscrawl model/);
  });

  test('a version 1 file (groups 1 and 2 unchanged) still loads and scores as a version 2 one', () => {
    // versions 1 and 2 are Naive Bayes files: the trained (linear) model without its linear parts
    const { classifier: _classifier, linear: _linear, ...nb } = structuredClone(valid);
    const v1 = Model.fromJSON({ ...nb, version: 1 }, 'v1.json');
    const v2 = Model.fromJSON({ ...nb, version: 2 }, 'v2.json');
    assert.equal(v1.group, 2);
    assert.equal(v1.linkProbability('CS300 course', 'syllabus'), v2.linkProbability('CS300 course', 'syllabus'));
  });

  test('a group-4, class-balanced link classifier round-trips through the model file and reads the URL and parent', async () => {
    const f = join(dir, 'g4.json');
    const r = await train(['--warc', warc, '--labels', labels, '--target', 'course', '--where', 'university=a', '--feature-group', '4', '--balanced-links', '--out', f]);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(await readFile(f, 'utf8')) as ModelJSON;
    assert.equal(json.version, 3);
    assert.equal(json.link.group, 4);
    assert.equal(json.link.classifier.balanced, true);
    assert.equal(json.training.options.balancedLinks, true);
    assert.ok(Object.keys(json.link.classifier.features).some((k) => k.startsWith('u:')), 'URL features were learnt');
    const copy = join(dir, 'g4-copy.json');
    await saveModel(copy, json);
    const [m1, m2] = [await loadModel(f), await loadModel(copy)];
    const args = ['CS300', 'syllabus', 'http://a.test/courses/cs300/', { url: 'http://a.test/', title: 'Courses', relevant: true }] as const;
    assert.equal(m1.linkProbability(...args), m2.linkProbability(...args));
    assert.notEqual(m1.linkProbability('CS300', 'syllabus'), m1.linkProbability(...args), 'the URL and parent change the score');
  });

  test("WARC link examples carry their target URL and the parent page's URL, title and label", async () => {
    const data = await readWarc({ warcs: [warc], labels, target: 'course', where: [{ column: 'university', value: 'a' }] });
    const fromCourse = data.links.find((l) => l.anchor === 'CS102 course syllabus');
    assert.deepEqual(
      { url: fromCourse?.url, parentUrl: fromCourse?.parentUrl, parentTitle: fromCourse?.parentTitle, parentRelevant: fromCourse?.parentRelevant },
      { url: 'http://u.test/cs102.html', parentUrl: 'http://u.test/cs101.html', parentTitle: 'CS101 course', parentRelevant: true },
    );
    const fromProf = data.links.find((l) => l.anchor === 'CS101 course' && l.parentTitle === 'Professor Smith');
    assert.equal(fromProf?.parentRelevant, false);
  });

  test('saveModel round-trips exactly; a model loaded twice scores the same', async () => {
    const f = join(dir, 'copy.json');
    await saveModel(f, valid);
    assert.deepEqual(JSON.parse(await readFile(f, 'utf8')), valid);
    const [m1, m2] = [await loadModel(g2), await loadModel(f)];
    assert.equal(m1.linkProbability('CS300 course', 'syllabus'), m2.linkProbability('CS300 course', 'syllabus'));
    await assert.rejects(saveModel(join(dir, 'no-such-dir', 'm.json'), valid), { code: 'FC_USAGE' });
  });

  test('discriminativeTerms ranks a frequent positive token above a rare one, drops numbers', () => {
    const docs = [
      { tokens: ['course', 'rare', '101'], label: 1 as const },
      { tokens: ['course', 'rare', '101'], label: 1 as const },
      { tokens: ['course'], label: 1 as const },
      { tokens: ['course'], label: 1 as const },
      { tokens: ['course', 'professor'], label: 0 as const },
      { tokens: ['professor'], label: 0 as const },
      { tokens: ['professor'], label: 0 as const },
      { tokens: ['professor'], label: 0 as const },
      { tokens: ['professor'], label: 0 as const },
    ];
    assert.deepEqual(discriminativeTerms(docs, 10), ['course', 'rare']);
    assert.deepEqual(discriminativeTerms(docs, 1), ['course']);
  });
});

describe('runTrain command line', () => {
  test('--help goes to stdout, exit 0', async () => {
    const r = await train(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: focuscrawl train --warc/);
    assert.equal(r.stderr, '');
  });

  const usage: [string, string[]][] = [
    ['no arguments', []],
    ['an unknown flag', ['--bogus']],
    ['both --warc and --texts', ['--warc', 'a', '--texts', 'b', '--target', 'x', '--out', 'o']],
    ['no --target', ['--texts', 'b', '--text-field', 's', '--label-field', 'l', '--out', 'o']],
    ['no --out', ['--texts', 'b', '--text-field', 's', '--label-field', 'l', '--target', 'x']],
    ['--texts without fields', ['--texts', 'b', '--target', 'x', '--out', 'o']],
    ['--warc without labels or hosts', ['--warc', 'a', '--target', 'x', '--out', 'o']],
    ['a malformed --where', ['--warc', 'a', '--labels', 'l', '--where', 'nocolumn', '--target', 'x', '--out', 'o']],
    ['a --where with no column', ['--warc', 'a', '--labels', 'l', '--where', '!=a', '--target', 'x', '--out', 'o']],
    ['--labels with --texts', ['--texts', 'b', '--labels', 'l', '--text-field', 's', '--label-field', 'l', '--target', 'x', '--out', 'o']],
    ['a bad --feature-group', ['--texts', 'b', '--text-field', 's', '--label-field', 'l', '--target', 'x', '--out', 'o', '--feature-group', '5']],
    ['a missing --texts file', ['--texts', '/nonexistent/t.ndjson', '--text-field', 's', '--label-field', 'l', '--target', 'x', '--out', 'o']],
    ['a missing WARC file', ['--warc', '/nonexistent/w.warc', '--labels', '/nonexistent/l.tsv', '--target', 'x', '--out', 'o']],
  ];
  for (const [name, args] of usage) {
    test(`usage error: ${name} -> exit 2, one line on stderr`, async () => {
      const r = await train(args);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^focuscrawl: FC_USAGE: [^\n]+\n$/);
    });
  }
});
