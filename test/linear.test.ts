// The calibrated linear classifier (issue 24) and the linear page judge of
// texts-trained models (issue 21 item 3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MIN_DF, DEFAULT_SHARE_POWER, LinearClassifier, LinearRivals, WEIGHT_SCALE, bestF1Threshold, breakEvenThreshold, fitPlatt, oneVsRestShare, prepare, textGrams, trainOneVsRest, type LinearCompactJSON, type RivalsCompactJSON, type RivalsFeaturesJSON } from '../src/relevance/learn/linear.ts';
import { linkDensity, nonSpaceLength, pageMainText } from '../src/relevance/learn/features.ts';
import { groupKFold, seededRandom } from '../src/relevance/learn/metrics.ts';
import { Model, fitModel, linkGrams, loadModel, MODEL_VERSION, siteOf, type ModelJSON } from '../src/relevance/model.ts';
import { readTexts, textPage } from '../src/relevance/train/from-texts.ts';
import { runTrain } from '../src/commands/train.ts';
import { generatePortalWeb } from '../src/tools/genweb/portal.ts';
import { parseBody } from '../src/parse/body.ts';
import { normaliseCharset } from '../src/parse/charset.ts';
import { Writable } from 'node:stream';

const FIXTURE = fileURLToPath(new URL('../fixtures/headlines-zh.ndjson', import.meta.url));
const OLD_V4 = fileURLToPath(new URL('../fixtures/models/linear-v4.json', import.meta.url));

/** n examples: label 1 has 'good', label 0 'bad', both 6 noise features of 40. */
function noisy(n: number, seed: number): { features: string[]; label: 0 | 1 }[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const label = (i % 3 === 0 ? 1 : 0) as 0 | 1;
    const noise = Array.from({ length: 6 }, () => `n${Math.floor(random() * 40)}`);
    return { features: [label === 1 ? 'good' : 'bad', ...noise], label };
  });
}

test('textGrams: character 1-3-grams of Han text, words and word bigrams of Latin text, with a prefix', () => {
  assert.deepEqual(textGrams('股市涨'), ['股', '股市', '股市涨', '市', '市涨', '涨']);
  assert.deepEqual(textGrams('Solar Panel, a test', 'c:'), ['c:solar', 'c:panel', 'c:solar panel', 'c:test', 'c:panel test']);
});

test('LinearClassifier learns separable data among noise features', () => {
  const clf = LinearClassifier.train(noisy(300, 3));
  assert.ok(clf.probability(['good', 'n1', 'n2']) > 0.9, String(clf.probability(['good', 'n1', 'n2'])));
  assert.ok(clf.probability(['bad', 'n1', 'n2']) < 0.1);
  assert.ok(clf.margin(['good']) > clf.margin(['bad']));
});

test('Platt calibration maps a held-out score to the observed rate', () => {
  // margins z ~ labels drawn with P(+ | z) = σ(2z − 1): Platt recovers A ≈ 2, B ≈ −1
  const random = seededRandom(11);
  const z: number[] = [];
  const y: (0 | 1)[] = [];
  for (let i = 0; i < 4000; i++) {
    const m = random() * 6 - 3;
    z.push(m);
    y.push(random() < 1 / (1 + Math.exp(-(2 * m - 1))) ? 1 : 0);
  }
  const [a, b] = fitPlatt(z, y);
  assert.ok(Math.abs(a - 2) < 0.25 && Math.abs(b + 1) < 0.25, `A ${a}, B ${b}`);
  // a trained classifier: an example scored 0.5 is about as often + as −
  const clf = LinearClassifier.train(noisy(300, 5));
  assert.ok(clf.probability(['n1', 'n2']) > 0.05 && clf.probability(['n1', 'n2']) < 0.95, 'no evidence: not certain');
});

test('LinearClassifier is deterministic with a seed and round-trips through JSON', () => {
  const data = noisy(200, 9);
  const a = LinearClassifier.train(data, { seed: 4 });
  const b = LinearClassifier.train(data, { seed: 4 });
  assert.deepEqual(a.toJSON(), b.toJSON());
  const c = LinearClassifier.fromJSON(JSON.parse(JSON.stringify(a.toJSON())));
  for (const f of [['good', 'n3'], ['bad'], ['n7', 'n8', 'n9']]) assert.ok(Math.abs(a.probability(f) - c.probability(f)) < 1e-4);
  assert.throws(() => LinearClassifier.fromJSON({ ...a.toJSON(), platt: [1] }), /platt/);
  assert.throws(() => LinearClassifier.train([{ features: ['x'], label: 1 }, { features: ['y'], label: 1 }]), TypeError);
});

test('nonSpaceLength (linkDensity without building strings) counts as s.replace(/\\s+/g, "").length', () => {
  // every BMP code unit, alone and between letters: the hand-written white-space set must be \s exactly
  for (let c = 0; c < 0x10000; c++) {
    const s = `a${String.fromCharCode(c)}b`;
    assert.equal(nonSpaceLength(s), s.replace(/\s+/g, '').length, `U+${c.toString(16)}`);
  }
  const mixed = ' 课程\u3000 Course\tpage\n\u00a0\ufeff😀 x ';
  assert.equal(nonSpaceLength(mixed), mixed.replace(/\s+/g, '').length);
  assert.equal(nonSpaceLength(''), 0);
});

test('pageMainText leaves out anchors and navigation; linkDensity measures them', () => {
  const page = textPage('标题', '正文内容');
  page.blocks.anchor = '链接一 链接二 链接三 链接四';
  page.blocks.navigation = '首页';
  assert.equal(pageMainText(page), '标题\n正文内容');
  assert.equal(linkDensity(page), 14 / 18);
  assert.equal(linkDensity(textPage('x')), 0);
});

const fast = { lambdas: [1e-3, 1e-2], folds: 3 };

test('a linear model file (version 3) round-trips; a version 2 file loads and scores as before', async () => {
  const data = await readTexts({ files: [FIXTURE], textField: 'sentence', labelField: 'label', contextField: 'keywords', target: 'fin' });
  const { json, model } = fitModel(data, { target: 'fin', classifier: 'linear', linearOptions: fast });
  assert.equal(json.version, MODEL_VERSION);
  assert.equal(json.classifier, 'linear');
  assert.equal(model.classifier, 'linear');
  const again = Model.fromJSON(JSON.parse(JSON.stringify(json)));
  const page = textPage('股市大涨，银行迎来新机会', '利率 基金');
  assert.equal(again.pageProbability(page), model.pageProbability(page));
  assert.equal(again.linkProbability('基金下调', '债券'), model.linkProbability('基金下调', '债券'));
  assert.ok(model.linkProbability('基金下调，债券怎么走', '') > model.linkProbability('足球爆冷，球员遗憾出局', ''));
  assert.throws(() => Model.fromJSON({ ...json, linear: { ...json.linear, hubDensity: 2 } }), /hubDensity/);
  assert.throws(() => Model.fromJSON({ ...json, version: 2 }), /needs model version 3/);

  // an old file: version 2, no classifier field, NB parts only
  const nb = fitModel(data, { target: 'fin', classifier: 'nb' });
  const v2 = structuredClone(nb.json) as ModelJSON;
  v2.version = 2;
  delete v2.classifier;
  const old = Model.fromJSON(v2, 'v2.json');
  assert.equal(old.classifier, 'nb');
  assert.equal(old.pageProbability(page), nb.model.pageProbability(page));
  assert.equal(old.linkProbability('基金下调', '债券'), nb.model.linkProbability('基金下调', '债券'));
});

// Versions 3 and 4 wrote features as object keys, and a feature named
// `__proto__` was lost (set the object's prototype instead); version 5
// keeps the names in an array. Guards that it stays so, through training too.
test('a version 5 linear model with features named __proto__ and constructor round-trips and scores as saved', () => {
  const data = noisy(300, 13).map(({ features: [f, ...noise], label }) => ({ features: [f === 'good' ? '__proto__' : 'constructor', 'toString', ...noise], label }));
  const clf = LinearClassifier.train(data, { seed: 2 });
  assert.ok(clf.weightOf('__proto__') > 0 && clf.weightOf('constructor') < 0, `weights ${clf.weightOf('__proto__')}, ${clf.weightOf('constructor')}`);
  const text = JSON.stringify(clf.toJSON());
  const json = JSON.parse(text) as LinearCompactJSON;
  for (const f of ['__proto__', 'constructor', 'toString']) assert.ok(json.names.includes(f), `${f} is in the saved names`);
  const loaded = LinearClassifier.fromJSON(json, 'compact');
  assert.equal(JSON.stringify(loaded.toJSON()), text, 'saved again: the same file');
  for (const f of ['__proto__', 'constructor']) {
    assert.equal(loaded.weightOf(f), json.weights[json.names.indexOf(f)] * json.scale);
    assert.equal(loaded.idf.get(f), clf.idf.get(f));
  }
  for (const x of [['__proto__', 'n1'], ['constructor', 'n1'], ['__proto__'], ['constructor', 'toString'], ['n2']]) {
    assert.ok(Math.abs(loaded.probability(x) - clf.probability(x)) < 1e-4, `${x}: ${loaded.probability(x)} vs ${clf.probability(x)}`);
  }
  assert.ok(loaded.probability(['__proto__', 'n1']) > 0.9 && loaded.probability(['constructor', 'n1']) < 0.1);
});

test('linear parts (version 5, with and without rivals) save, load and save to the same JSON', async () => {
  // issue 24: fromJSON fills the scoring table's typed arrays without Maps;
  // a file loaded and saved again must be the same file
  const data = await readTexts({ files: [FIXTURE], textField: 'sentence', labelField: 'label', contextField: 'keywords', target: 'fin' });
  const plain = fitModel(data, { target: 'fin', classifier: 'linear', rivals: false, linearOptions: fast }).json;
  const ovr = fitModel(data, { target: 'fin', classifier: 'linear', linearOptions: fast }).json;
  assert.equal(plain.version, MODEL_VERSION);
  assert.equal(ovr.version, MODEL_VERSION);
  assert.ok(plain.linear?.rivals === undefined);
  assert.ok(ovr.linear?.rivals !== undefined, 'the fixture trains rivals');
  assert.equal(ovr.linear?.rivals?.power, DEFAULT_SHARE_POWER);
  for (const json of [plain, ovr]) {
    const text = JSON.stringify(json.linear);
    const lin = JSON.parse(text) as NonNullable<ModelJSON['linear']>;
    const page = LinearClassifier.fromJSON(lin.page, 'compact');
    const link = LinearClassifier.fromJSON(lin.link, 'compact');
    const rivals = lin.rivals === undefined ? undefined : LinearRivals.fromJSON(lin.rivals, page);
    const saved = { page: page.toJSON(), link: link.toJSON(), hubDensity: lin.hubDensity, ...(rivals === undefined ? {} : { rivals: rivals.toJSON() }) };
    assert.equal(JSON.stringify(saved), text);
    // the accessors read the numbers the file stands for: idf from the document counts, weights in units of scale
    const p = lin.page as LinearCompactJSON;
    assert.equal(page.size, p.names.length);
    for (let j = 0; j < 50; j++) {
      assert.equal(page.idf.get(p.names[j]), Math.log((1 + p.docs) / (1 + p.df[j])) + 1);
      assert.equal(page.weightOf(p.names[j]), p.weights[j] * p.scale);
      assert.ok(Number.isInteger(p.weights[j]));
    }
    assert.equal(page.weightOf('not a feature'), 0);
    assert.equal(page.idf.has('not a feature'), false);
  }
  const r = ovr.linear!.rivals! as RivalsCompactJSON;
  const page = LinearClassifier.fromJSON(ovr.linear!.page);
  assert.throws(() => LinearRivals.fromJSON({ ...r, weights: r.weights.slice(1) }, page), /columns/);
  assert.throws(() => LinearRivals.fromJSON({ ...r, weights: [r.weights[0].slice(1), ...r.weights.slice(1)] }, page), /integers/);
  assert.throws(() => LinearRivals.fromJSON({ ...r, weights: [r.weights[0].map((w) => w + 0.5), ...r.weights.slice(1)] }, page), /integers/);
  const pj = ovr.linear!.page as LinearCompactJSON;
  assert.throws(() => LinearClassifier.fromJSON({ ...pj, df: pj.df.slice(1) }), /"df"/);
  assert.throws(() => LinearClassifier.fromJSON({ ...pj, df: pj.df.map(() => pj.docs + 1) }), /"df"/);
  assert.throws(() => LinearClassifier.fromJSON({ ...pj, scale: 0 }), /"scale"/);
  // a version 5 file must have the compact layout, a version 3 or 4 file the features layout
  assert.throws(() => Model.fromJSON({ ...ovr, version: 4 }), /features/);
});

test('minDf prunes the features of fewer training examples and keeps the others', () => {
  // issue 24 item 3: features seen in one or two examples are most of a
  // headline model's vocabulary (and of its file); minDf drops them
  const examples = [
    { features: ['common', 'common', 'twice', 'once-a'], label: 1 as const },
    { features: ['common', 'twice', 'thrice'], label: 0 as const },
    { features: ['common', 'thrice', 'once-b'], label: 1 as const },
    { features: ['common', 'thrice'], label: 0 as const },
  ];
  const vocab = (minDf: number): string[] => prepare(examples, { minDf, folds: 2 }).vocab.map(([f]) => f);
  assert.deepEqual(vocab(1), ['common', 'thrice', 'twice', 'once-a', 'once-b']);
  assert.deepEqual(vocab(2), ['common', 'thrice', 'twice']);
  assert.deepEqual(vocab(3), ['common', 'thrice']);
  assert.deepEqual(prepare(examples, { folds: 2 }).vocab.map(([f]) => f), vocab(DEFAULT_MIN_DF));
  // the idf of a kept feature is computed from all examples, as before pruning
  const p = prepare(examples, { minDf: 3, folds: 2 });
  assert.equal(p.idf[1], Math.log(5 / 4) + 1);
  // a pruned feature is not in the trained classifier (its weight is 0 and it is not in the file)
  const clf = LinearClassifier.train([...examples, ...examples, ...examples], { minDf: 6, lambdas: [1e-2], folds: 2 });
  assert.deepEqual((clf.toJSON() as LinearCompactJSON).names, ['common', 'thrice', 'twice']);
  assert.equal(clf.weightOf('once-a'), 0);
  assert.throws(() => prepare(examples, { minDf: 0, folds: 2 }), /minDf/);
});

test('train --min-df N keeps the linear features of at least N examples and records N', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'fc-mindf-'));
  try {
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    const fit = async (extra: string[]): Promise<ModelJSON> => {
      const out = join(dir, `m${extra.join('')}.json`);
      const code = await runTrain(['--texts', FIXTURE, '--text-field', 'sentence', '--label-field', 'label', '--context-field', 'keywords', '--target', 'fin', ...extra, '--out', out], { stdout: sink, stderr: sink });
      assert.equal(code, 0);
      return JSON.parse(await readFile(out, 'utf8')) as ModelJSON;
    };
    const [two, three] = [await fit([]), await fit(['--min-df', '3'])];
    assert.equal(two.training.options.minDf, 2);
    assert.equal(three.training.options.minDf, 3);
    for (const [json, n] of [[two, 2], [three, 3]] as const) {
      for (const part of [json.linear!.page, json.linear!.link] as LinearCompactJSON[]) assert.ok(part.df.every((c) => c >= n), `every df >= ${n}`);
    }
    const names = (j: ModelJSON): number => (j.linear!.page as LinearCompactJSON).names.length;
    assert.ok(names(three) < names(two), `${names(three)} < ${names(two)} page features`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('pageMinDf prunes only the page judge: the link classifier and the kept judge are as trained alone', async () => {
  // issue 24 item 3: the WebKB page judge was 3.55 of the 5.01 MiB model,
  // mostly features of 2-3 pages; a higher minimum count for the judge alone
  // must leave the link classifier (minDf 2) untouched
  const data = await readTexts({ files: [FIXTURE], textField: 'sentence', labelField: 'label', contextField: 'keywords', target: 'fin' });
  const linearOptions = { lambdas: [1e-3], minDf: 2 };
  const base = fitModel(data, { target: 'fin', classifier: 'linear', rivals: false, linearOptions }).json;
  const cut = fitModel(data, { target: 'fin', classifier: 'linear', rivals: false, linearOptions, pageMinDf: 3 }).json;
  assert.equal(base.training.options.pageMinDf, 2, 'pageMinDf defaults to minDf');
  assert.equal(cut.training.options.pageMinDf, 3);
  assert.equal(cut.training.options.minDf, 2);
  const page = (j: ModelJSON): LinearCompactJSON => j.linear!.page as LinearCompactJSON;
  const link = (j: ModelJSON): LinearCompactJSON => j.linear!.link as LinearCompactJSON;
  // the judge: exactly the features of >= 3 pages, in the same order as before the cut
  const kept = page(base).names.filter((_, j) => page(base).df[j] >= 3);
  assert.ok(kept.length > 0 && kept.length < page(base).names.length, `${kept.length} of ${page(base).names.length} kept`);
  assert.deepEqual(page(cut).names, kept);
  assert.deepEqual(page(cut).df, page(base).df.filter((c) => c >= 3));
  assert.equal(page(cut).docs, page(base).docs, 'idf of a kept feature unchanged');
  // ... and the judge LinearClassifier.train fits with minDf 3 (refitted on the kept features)
  const alone = LinearClassifier.train(data.pages.map((p) => ({ features: p.grams!, label: p.label })), { ...linearOptions, minDf: 3 });
  assert.deepEqual(page(cut), JSON.parse(JSON.stringify(alone.toJSON())));
  // the link classifier is the one of the uncut model, feature for feature and weight for weight
  assert.ok(link(cut).df.some((c) => c === 2), 'the link classifier keeps features of 2 examples');
  assert.deepEqual(link(cut), link(base));
  // the saved file loads and scores as trained: the kept judge, the same links
  const model = Model.fromJSON(JSON.parse(JSON.stringify(cut)));
  const text = data.pages[0];
  const judge = LinearClassifier.fromJSON(page(cut));
  assert.equal(model.pageProbability(textPage('股市大涨 基金 银行')), judge.calibrate(judge.marginOfTexts([[pageMainText(textPage('股市大涨 基金 银行')), '']])));
  assert.ok(Math.abs(judge.probability(text.grams!) - alone.probability(text.grams!)) < 1e-4);
});

test('the compact layout (version 5) scores as the trained classifiers within 1e-4', async () => {
  // issue 24 item 3: weights are stored as integers in units of WEIGHT_SCALE
  // and idf as document counts; a reloaded judge must score as the one in memory
  const data = await readTexts({ files: [FIXTURE], textField: 'sentence', labelField: 'label', contextField: 'keywords', target: 'fin' });
  const { target, rivals } = trainOneVsRest(data.pages.map((p) => ({ features: p.grams!, cls: p.cls! })), 'fin', fast);
  const json = JSON.parse(JSON.stringify({ page: target.toJSON(), rivals: rivals.toJSON() })) as { page: LinearCompactJSON; rivals: RivalsCompactJSON };
  assert.equal(json.page.scale, WEIGHT_SCALE);
  const page = LinearClassifier.fromJSON(json.page, 'compact');
  const again = LinearRivals.fromJSON(json.rivals, page);
  // every headline, and pages made of 20 headlines each
  const bags = data.pages.map((p) => p.grams!);
  for (let i = 0; i + 20 <= bags.length; i += 20) bags.push(bags.slice(i, i + 20).flat());
  let worst = 0;
  for (const bag of bags) {
    worst = Math.max(worst, Math.abs(page.probability(bag) - target.probability(bag)));
    const a = again.probabilities(bag);
    rivals.probabilities(bag).forEach((p, k) => (worst = Math.max(worst, Math.abs(a[k] - p))));
  }
  assert.ok(worst < 1e-4, `largest change of a probability: ${worst}`);
  assert.ok(worst > 0, 'the weights were rounded');
});

test('old model files still load: version 4 (rivals) and 3 (features layout) score as when written', async () => {
  // fixtures/models/linear-v4.json was written by the code before version 5
  // (commit 8c05435, fitModel on fixtures/headlines-zh.ndjson, lambdas 1e-3 and 1e-2)
  const v4 = JSON.parse(await readFile(OLD_V4, 'utf8')) as ModelJSON;
  assert.equal(v4.version, 4);
  const model = await loadModel(OLD_V4);
  const page = textPage('股市大涨，银行迎来新机会', '利率 基金');
  // the scores the writing code gave
  assert.equal(model.pageProbability(page), 0.990336422263242);
  assert.equal(model.linkProbability('基金下调', '债券'), 0.8844412976248781);
  // the features layout saves back as read
  const lin = v4.linear!;
  const target = LinearClassifier.fromJSON(lin.page, 'features');
  const rivals = LinearRivals.fromJSON(lin.rivals!, target);
  assert.equal(JSON.stringify({ page: target.toJSON(), link: LinearClassifier.fromJSON(lin.link, 'features').toJSON(), hubDensity: lin.hubDensity, rivals: rivals.toJSON() }), JSON.stringify(lin));
  // a version 3 file: the same without rivals
  const v3 = structuredClone(v4);
  v3.version = 3;
  delete v3.linear!.rivals;
  assert.equal(Model.fromJSON(v3).linkProbability('基金下调', '债券'), 0.8844412976248781);
  assert.throws(() => Model.fromJSON({ ...v4, version: 3 }), /rivals" needs model version 4 or 5/);
  // rivals' weights for some features only, in another order than the vocabulary's: saved as read
  const r = lin.rivals! as RivalsFeaturesJSON;
  const some = Object.keys(r.weights).reverse().filter((_, i) => i % 3 !== 0);
  const partial = { ...r, weights: Object.fromEntries(some.map((f) => [f, r.weights[f]])) };
  assert.equal(JSON.stringify(LinearRivals.fromJSON(JSON.parse(JSON.stringify(partial)), target).toJSON()), JSON.stringify(partial));
  assert.throws(() => LinearRivals.fromJSON({ ...r, weights: { ...r.weights, 'not a feature': r.weights[some[0]] } }, target), /not in the target/);
  assert.throws(() => LinearRivals.fromJSON({ ...r, weights: { [some[0]]: [1] } }, target), /finite weights/);
  // a features-layout file that says version 5 is refused
  assert.throws(() => Model.fromJSON({ ...v4, version: 5 }), /linear\.page/);
});

test('issue 21 item 3: a texts-trained model does not call an off-topic hub of on-topic headlines relevant', async () => {
  // What broke: `train --texts` fitted the page judge on one-line pages (the
  // headline as title) and judged whole pages by every word on them, anchors
  // and navigation included, so a channel hub listing twenty finance
  // headlines, and every other page of a portal web, came out relevant 1.0.
  const dir = await mkdtemp(join(tmpdir(), 'fc-judge-'));
  try {
    const lines = (await readFile(FIXTURE, 'utf8')).split('\n').filter((l) => l.trim() !== '');
    const train = join(dir, 'train.ndjson');
    await writeFile(train, lines.filter((_, i) => i % 2 === 0).join('\n') + '\n');
    const out = join(dir, 'fin.json');
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    const code = await runTrain(['--texts', train, '--text-field', 'sentence', '--label-field', 'label', '--context-field', 'keywords', '--target', 'fin', '--out', out], { stdout: sink, stderr: sink });
    assert.equal(code, 0);
    const model = await loadModel(out);
    const headlines = lines.filter((_, i) => i % 2 === 1).map((l) => {
      const o = JSON.parse(l) as { sentence: string; label: string; keywords: string };
      return { sentence: o.sentence, label: o.label, keywords: o.keywords };
    });
    const web = generatePortalWeb(headlines, { seed: 3, hosts: 1, pageSize: 10, hiddenShare: 0 });
    const labelOf = new Map(web.labels.map((l) => [l.url, l.label]));
    const judged: { label: string; relevant: boolean }[] = [];
    for (const rec of web.records) {
      const label = labelOf.get(rec.url);
      if (label === undefined) continue;
      const ct = rec.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
      const page = parseBody(rec.body, rec.url, normaliseCharset(/charset=([^;\s]+)/i.exec(ct)?.[1]));
      judged.push({ label, relevant: model.pageProbability(page) >= model.threshold });
    }
    const of = (pred: (l: string) => boolean): { label: string; relevant: boolean }[] => judged.filter((j) => pred(j.label));
    const hubs = of((l) => l === 'hub:fin' || l === 'home');
    const articles = of((l) => l === 'fin');
    const others = of((l) => l === 'sport' || l === 'food');
    assert.ok(hubs.length > 0 && articles.length > 0 && others.length > 0);
    assert.deepEqual(hubs.filter((j) => j.relevant), [], 'no finance hub or home page is relevant');
    assert.ok(articles.filter((j) => j.relevant).length >= articles.length / 2, `finance articles relevant: ${articles.filter((j) => j.relevant).length} of ${articles.length}`);
    assert.ok(others.filter((j) => j.relevant).length <= others.length / 10, `other articles relevant: ${others.filter((j) => j.relevant).length} of ${others.length}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('marginOfTexts (the hashed fast path) scores exactly as margin(textGrams(...))', () => {
  // text of every shape textGrams handles: Han runs, Latin words and bigrams,
  // mixed runs, digits, full-width forms (NFKC), an astral Han character, one-letter words
  const random = seededRandom(21);
  const alphabet = [...'股市涨停资金流入中国〇⺀ ab Zé\u0301ß1２ＡＢ，。.-_ \n𠀀𠀁'];
  const noise = Array.from({ length: 30 }, () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
  const texts = ['股市涨停，资金流入', 'Solar Panel a test of solar panel', 'ARM中国组建合资公司5G芯片', 'ＡＢＣ全角１２３', '𠀀𠀁中文 x y zz', '', '…！？', ...noise];
  const examples = texts.flatMap((t, i) => [
    { features: [...textGrams(t), ...textGrams(texts[(i + 1) % texts.length], 'c:'), 'u:host'], label: 1 as const },
    { features: [...textGrams(texts[(i + 3) % texts.length]), ...textGrams(t.slice(2), 'c:')], label: 0 as const },
  ]);
  const clf = LinearClassifier.train([...examples, ...examples], { lambdas: [1e-3], minDf: 1 });
  assert.ok(clf.size > 50, String(clf.size));
  for (const a of texts) {
    for (const c of texts) {
      const slow = clf.margin([...textGrams(a), ...textGrams(c, 'c:'), 'u:host']);
      const fast = clf.marginOfTexts([[a, ''], [c, 'c:']], ['u:host']);
      assert.ok(Math.abs(slow - fast) < 1e-9, `${a} | ${c}: ${slow} vs ${fast}`);
    }
  }
  // a round-tripped classifier hashes the same vocabulary
  const back = LinearClassifier.fromJSON(clf.toJSON());
  assert.ok(Math.abs(back.marginOfTexts([[texts[0], '']]) - back.margin(textGrams(texts[0]))) < 1e-9);
});

test('breakEvenThreshold calls as many positive as there are; bestF1Threshold maximises F1; train stores the former', () => {
  // 3 positives: the cut between the 3rd and 4th highest, whatever the labels' order
  assert.ok(Math.abs(breakEvenThreshold([0.9, 0.8, 0.7, 0.6, 0.2, 0.1], [1, 1, 0, 1, 0, 0]) - 0.65) < 1e-12);
  // ties stay together on the positive side
  assert.equal(breakEvenThreshold([0.5, 0.5, 0.1], [1, 0, 0]), 0.3);
  // scores 0.9 0.8 (+) 0.7 (−) 0.6 (+) 0.2 0.1 (−): best F1 = 6/7 at the cut between 0.6 and 0.2
  assert.equal(bestF1Threshold([0.9, 0.8, 0.7, 0.6, 0.2, 0.1], [1, 1, 0, 1, 0, 0]), 0.4);
  // ties stay together
  assert.equal(bestF1Threshold([0.5, 0.5, 0.1], [1, 0, 0]), 0.3);
  const clf = LinearClassifier.train(noisy(300, 5));
  assert.ok(clf.threshold > 0 && clf.threshold < 1, String(clf.threshold));
  // on its training examples (a stand-in for held-out ones here) about as many are called + as are +
  const ex = noisy(300, 5);
  const called = ex.filter((e) => clf.probability(e.features) >= clf.threshold).length;
  assert.ok(Math.abs(called - 100) <= 25, `${called} called positive of 100`);
  assert.equal(LinearClassifier.fromJSON(clf.toJSON()).threshold, Number(clf.threshold.toPrecision(6)));
  const { threshold: _dropped, ...old } = clf.toJSON();
  assert.equal(LinearClassifier.fromJSON(old).threshold, 0.5, 'a file without a threshold keeps 0.5');
});

test('Model.linkProbability (fast path) scores as the classifier on linkGrams, for every feature group', async () => {
  const data = await readTexts({ files: [FIXTURE], textField: 'sentence', labelField: 'label', contextField: 'keywords', target: 'fin' });
  for (const group of [1, 2, 3, 4] as const) {
    const { model } = fitModel(data, { target: 'fin', classifier: 'linear', group, linearOptions: { lambdas: [1e-3], minDf: 1 } });
    const clf = LinearClassifier.fromJSON(model.json.linear!.link);
    const cases: [string, string, string, { url: string; title: string; relevant: boolean }][] = [
      ['股市大涨', '基金 股票 银行', 'http://finance.example.cn/a.html', { url: 'http://finance.example.cn/', title: '财经频道 股市', relevant: true }],
      ['球队夺冠', '比赛,冠军', 'http://sports.example.cn/b', { url: 'http://www.example.cn/', title: '', relevant: false }],
    ];
    for (const [anchor, context, url, parent] of cases) {
      const slow = clf.probability(linkGrams(anchor, context, { group, url, parentUrl: parent.url, parentTitle: parent.title, parentRelevant: parent.relevant }));
      const fast = model.linkProbability(anchor, context, url, parent);
      assert.ok(Math.abs(slow - fast) < 1e-9, `group ${group} ${anchor}: ${slow} vs ${fast}`);
    }
  }
});

/**
 * Examples from `sites` sites: each site's own token (`s3:k0`, ...) marks its
 * positives there but means nothing elsewhere (another token per site), and
 * a weak shared feature `w` is on 60% of positives and 40% of negatives.
 */
function sitedExamples(sites: number, perSite: number, seed: number): { features: string[]; label: 0 | 1; site: string }[] {
  const random = seededRandom(seed);
  const out: { features: string[]; label: 0 | 1; site: string }[] = [];
  for (let s = 0; s < sites; s++) {
    for (let i = 0; i < perSite; i++) {
      const label = (i % 4 === 0 ? 1 : 0) as 0 | 1;
      const features = [`s${s}:${label === 1 ? 'k0' : `k${1 + (i % 3)}`}`, `n${Math.floor(random() * 30)}`];
      if (random() < (label === 1 ? 0.6 : 0.4)) features.push('w');
      out.push({ features, label, site: `site${s}.example` });
    }
  }
  return out;
}

// Broke: λ and Platt were chosen by random folds, which hold out examples of
// sites the fold's fit saw, so site-specific words looked like they
// generalised (WebKB leave-one-university-out: inner CV AUC 0.965 against
// 0.754 on the held-out university). With `groups` a fold holds whole sites.
test('groupKFold keeps each group in one fold, balanced, deterministic', () => {
  const groups = ['a', 'a', 'a', 'b', 'b', 'c', 'd', 'a', 'c', 'e'];
  const folds = groupKFold(groups, 3)!;
  assert.deepEqual(folds.flat().sort((x, y) => x - y), groups.map((_, i) => i));
  for (const g of new Set(groups)) assert.equal(new Set(folds.filter((f) => f.some((i) => groups[i] === g))).size, 1, `group ${g} in one fold`);
  assert.deepEqual(folds, [[0, 1, 2, 7], [3, 4, 6], [5, 8, 9]]);
  assert.deepEqual(groupKFold(groups, 3), folds);
  assert.equal(groupKFold(['a', 'b'], 3), null, 'fewer groups than folds');
});

test('LinearClassifier.train with groups cross-validates on unseen sites', () => {
  const data = sitedExamples(6, 80, 3);
  const examples = data.map(({ features, label }) => ({ features, label }));
  const random = LinearClassifier.train(examples, { minDf: 1 });
  const grouped = LinearClassifier.train(examples, { minDf: 1, groups: data.map((e) => e.site) });
  const best = (cv: Readonly<Record<string, number>> | undefined): number => Math.max(...Object.values(cv ?? {}));
  // random folds: the site tokens are seen in training, AUC near 1
  assert.ok(best(random.cv) > 0.95, JSON.stringify(random.cv));
  // whole sites held out: only the weak shared feature carries over
  assert.ok(best(grouped.cv) < 0.7, JSON.stringify(grouped.cv));
  // calibrated on unseen sites, a new site's example is not scored as certain
  const p = grouped.probability(['s99:k0', 'w']);
  assert.ok(p > 0.05 && p < 0.95, String(p));
  assert.throws(() => LinearClassifier.train(examples, { groups: ['x'] }), TypeError);
});

test('siteOf: the host without its subdomains', () => {
  assert.equal(siteOf('http://www.cs.cornell.edu/Info/People/'), 'cornell.edu');
  assert.equal(siteOf('http://HARLIE.ee.cornell.edu/mems'), 'cornell.edu');
  assert.equal(siteOf('https://www.ox.ac.uk/a'), 'ox.ac.uk');
  assert.equal(siteOf('http://localhost:8080/'), 'localhost');
  assert.equal(siteOf('http://127.0.0.1:80/'), '127.0.0.1');
  assert.equal(siteOf('not a url'), '');
});

test('issue 21 item 3: a page of mostly tech words with some finance words is not finance when a tech class exists', async () => {
  // What broke: the linear judge was target vs rest. Words that finance
  // shares with tech (company, chip, funding) are rare in the rest as a
  // whole (sport, food, travel, ...), so they weighed for finance, and tech
  // articles were most of finance's false positives on generated webs
  // (369 of 582). The one-vs-rest judge scores finance's share of every
  // class's probability, and the tech classifier absorbs the shared words.
  const random = seededRandom(7);
  const pick = (ws: string[], k: number): string[] => Array.from({ length: k }, () => ws[Math.floor(random() * ws.length)]);
  const shared = ['company', 'chip', 'funding', 'startup', 'shares'];
  const own: Record<string, string[]> = {
    fin: ['bank', 'bond', 'loan', 'rate', 'yield', 'credit'],
    tech: ['phone', 'software', 'server', 'cloud', 'robot', 'app'],
    sport: ['goal', 'match', 'coach', 'league', 'score', 'team'],
    food: ['noodle', 'recipe', 'spicy', 'soup', 'rice', 'chef'],
    travel: ['hotel', 'flight', 'beach', 'visa', 'tour', 'island'],
    car: ['engine', 'sedan', 'brake', 'suv', 'dealer', 'tyre'],
  };
  // fin and tech: two own words and, in most texts, two shared ones; a text is its words in any order
  const texts: { sentence: string; label: string; keywords: string }[] = [];
  for (const [label, words] of Object.entries(own)) {
    for (let i = 0; i < 60; i++) {
      const ws = [...pick(words, 2), ...((label === 'fin' || label === 'tech') && random() < 0.8 ? pick(shared, 2) : [])];
      texts.push({ sentence: ws.join(' '), label, keywords: '' });
    }
  }
  const data = {
    source: 'texts',
    files: [],
    counts: {},
    options: {},
    seconds: 0,
    pages: texts.map((t) => ({ features: [t.sentence], label: (t.label === 'fin' ? 1 : 0) as 0 | 1, grams: textGrams(t.sentence), cls: t.label })),
    links: texts.map((t) => ({ anchor: t.sentence, context: '', label: (t.label === 'fin' ? 1 : 0) as 0 | 1 })),
  };
  const page = textPage('company chip funding startup', 'shares company chip phone software server funding bank');
  const judge = (m: Model): boolean => m.pageProbability(page) >= m.threshold;
  const ovr = fitModel(data, { target: 'fin', classifier: 'linear', linearOptions: fast });
  assert.equal(judge(ovr.model), false, `one vs rest: finance share ${ovr.model.pageProbability(page)} < ${ovr.model.threshold}`);
  // a finance page with the same shared words stays finance
  const fin = textPage('bank loan company chip', 'rate bond funding shares credit');
  assert.ok(ovr.model.pageProbability(fin) >= ovr.model.threshold, `finance page: ${ovr.model.pageProbability(fin)}`);
  assert.equal(ovr.json.version, MODEL_VERSION);
  assert.deepEqual(ovr.json.linear?.rivals?.labels, ['car', 'food', 'sport', 'tech', 'travel']);
  // the target-vs-rest judge of version 3 (the old judge) calls the tech page finance
  const binary = fitModel(data, { target: 'fin', classifier: 'linear', rivals: false, linearOptions: fast });
  assert.equal(binary.json.version, MODEL_VERSION);
  assert.equal(judge(binary.model), true, `target vs rest: ${binary.model.pageProbability(page)} >= ${binary.model.threshold}`);
  // the rivals round-trip through the file
  const again = Model.fromJSON(JSON.parse(JSON.stringify(ovr.json)));
  assert.equal(again.pageProbability(page), ovr.model.pageProbability(page));
  // a version 4 file (the features layout) cannot carry a power: its readers score with power 1
  const v4 = JSON.parse(await readFile(OLD_V4, 'utf8')) as ModelJSON;
  assert.throws(() => Model.fromJSON({ ...v4, linear: { ...v4.linear!, rivals: { ...v4.linear!.rivals!, power: 2 } } }), /rivals.power" needs model version 5/);
  assert.throws(() => Model.fromJSON({ ...ovr.json, linear: { ...ovr.json.linear, rivals: { ...ovr.json.linear!.rivals, bias: [1] } } }), /bias/);
});

test('issue 21 item 3: the one-vs-rest share lets the strongest rivals decide, not the sum of a dozen faint ones', async () => {
  // What broke: the version 4 judge scored P_t / (P_t + Σ P_r). With 14
  // calibrated rivals, a page the judge finds faintly finance among diffuse
  // classes (every rival at 0.05: 0.65 in all) scored below a tech page on
  // which finance is a clear second to tech, so finance's false positives
  // were mostly tech articles (280 of 495 on the generated webs) while its
  // own articles fell under the cut. The share of squares (version 5)
  // ranks them the other way round.
  const faintFinance = oneVsRestShare(0.3, [0.2, ...Array<number>(13).fill(0.05)], DEFAULT_SHARE_POWER);
  const techPage = oneVsRestShare(0.3, [0.6, ...Array<number>(13).fill(0.01)], DEFAULT_SHARE_POWER);
  assert.ok(faintFinance > techPage, `faint finance ${faintFinance} > tech page ${techPage}`);
  assert.ok(oneVsRestShare(0.3, [0.2, ...Array<number>(13).fill(0.05)]) < oneVsRestShare(0.3, [0.6, ...Array<number>(13).fill(0.01)]), 'power 1 (version 4) ranks them the other way');
  assert.equal(oneVsRestShare(0, [0, 0], 2), 0);
  assert.equal(oneVsRestShare(0.5, [0.5], 2), 0.5);

  // a trained judge stores its power and its threshold is the held-out cut of that share;
  // rivals without a power (as version 4 wrote them) score with power 1
  const data = await readTexts({ files: [FIXTURE], textField: 'sentence', labelField: 'label', contextField: 'keywords', target: 'fin' });
  const { json, model } = fitModel(data, { target: 'fin', classifier: 'linear', linearOptions: fast });
  assert.equal(json.version, 5);
  assert.equal(json.linear!.rivals!.power, DEFAULT_SHARE_POWER);
  const page = textPage('股市大涨，银行迎来新机会', '利率 基金 手机 芯片');
  const pageLin = LinearClassifier.fromJSON(json.linear!.page, 'compact');
  const rivals = LinearRivals.fromJSON(json.linear!.rivals, pageLin);
  const texts: [string, string][] = [[pageMainText(page), '']];
  const pT = pageLin.calibrate(pageLin.marginOfTexts(texts));
  const pR = rivals.probabilitiesOfTexts(texts);
  assert.ok(Math.abs(model.pageProbability(page) - oneVsRestShare(pT, pR, 2)) < 1e-12);
  const { power: _power, ...unpowered } = json.linear!.rivals!;
  const v4 = Model.fromJSON({ ...json, linear: { ...json.linear!, rivals: unpowered } });
  assert.ok(Math.abs(v4.pageProbability(page) - oneVsRestShare(pT, pR, 1)) < 1e-12);
  assert.throws(() => LinearRivals.fromJSON({ ...json.linear!.rivals!, power: 0.5 }, pageLin), /power/);
});
