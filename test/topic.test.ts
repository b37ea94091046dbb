import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { DEFAULT_THRESHOLD, PROFILE_TERMS, SMALL_TEXT_TOKENS, TopicModel, loadTopic, parseTopic, strongestTerms } from '../src/relevance/topic.ts';
import { cosine, sublinear, termFreq, tfidf, type SparseVector } from '../src/relevance/text/vector.ts';
import { TopicError } from '../src/errors.ts';
import { CONTEXT_WEIGHT, anchorSimilarity } from '../src/relevance/scorers/best-first.ts';

const isBadTopic = (re: RegExp) => (e: unknown) => e instanceof TopicError && e.code === 'FC_BAD_TOPIC' && re.test(e.message);

test('parseTopic: valid topic, threshold default 0.2, terms trimmed, unknown keys ignored', () => {
  assert.equal(DEFAULT_THRESHOLD, 0.2);
  assert.deepEqual(parseTopic({ name: 'solar', terms: [' solar energy ', '光伏'], extra: 1 }, 't.json'), {
    name: 'solar',
    terms: ['solar energy', '光伏'],
    threshold: 0.2,
  });
  assert.equal(parseTopic({ name: 'x', terms: ['a'], threshold: 0 }, 't').threshold, 0);
  assert.equal(parseTopic({ name: 'x', terms: ['a'], threshold: 1 }, 't').threshold, 1);
});

test('parseTopic: each malformed case is FC_BAD_TOPIC with a message naming the problem and the source', () => {
  const cases: [unknown, RegExp][] = [
    [null, /^t\.json: expected a JSON object.*got null/],
    [[1, 2], /expected a JSON object.*an array/],
    ['solar', /expected a JSON object.*the string "solar"/],
    [{ terms: ['a'] }, /"name" must be a non-empty string, got nothing/],
    [{ name: '  ', terms: ['a'] }, /"name" must be a non-empty string/],
    [{ name: 'x' }, /"terms" must be a non-empty array of strings, got nothing/],
    [{ name: 'x', terms: [] }, /"terms" must be a non-empty array.*an empty array/],
    [{ name: 'x', terms: 'solar' }, /"terms" must be a non-empty array.*the string "solar"/],
    [{ name: 'x', terms: ['a', 3] }, /"terms"\[1\] must be a non-empty string, got number 3/],
    [{ name: 'x', terms: ['a', ''] }, /"terms"\[1\] must be a non-empty string/],
    [{ name: 'x', terms: ['a'], threshold: 1.5 }, /"threshold" must be a number between 0 and 1, got number 1.5/],
    [{ name: 'x', terms: ['a'], threshold: -0.1 }, /"threshold"/],
    [{ name: 'x', terms: ['a'], threshold: '0.3' }, /"threshold".*the string "0.3"/],
    [{ name: 'x', terms: ['a'], threshold: null }, /"threshold".*null/],
  ];
  for (const [json, re] of cases) assert.throws(() => parseTopic(json, 't.json'), isBadTopic(re), JSON.stringify(json));
});

test('loadTopic: reads a file (with BOM), reports unreadable files and bad JSON with line and column', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fc-topic-'));
  try {
    const good = path.join(dir, 'good.json');
    await writeFile(good, '\uFEFF{"name": "finance", "terms": ["股票", "bond market"], "threshold": 0.3}');
    assert.deepEqual(await loadTopic(good), { name: 'finance', terms: ['股票', 'bond market'], threshold: 0.3 });

    await assert.rejects(loadTopic(path.join(dir, 'missing.json')), isBadTopic(/cannot read topic file .*missing\.json.*ENOENT/));

    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, '{\n  "name": "x",\n  "terms": ["a"],\n}\n');
    await assert.rejects(loadTopic(broken), isBadTopic(/broken\.json: invalid JSON at line 4 column 1: /));
    // V8 reports no position for some errors: the message still says what is wrong
    await writeFile(broken, '{"name": "x", "terms": ["a",]}');
    await assert.rejects(loadTopic(broken), isBadTopic(/broken\.json: invalid JSON: .*\]/));

    const wrong = path.join(dir, 'wrong.json');
    await writeFile(wrong, '{"name": "x", "terms": "a"}');
    await assert.rejects(loadTopic(wrong), isBadTopic(/wrong\.json: "terms" must be/));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('TopicModel: terms are tokenised like pages (multi-word terms split, Chinese segmented)', () => {
  const model = new TopicModel(parseTopic({ name: 'solar', terms: ['Solar Energy', '太阳能', 'the PV'] }, 't'));
  assert.deepEqual(model.termTokens, [['solar', 'energy'], ['太阳', '太阳能'], ['pv']]);
});

test('TopicModel: a topic of only stop words / single letters is FC_BAD_TOPIC', () => {
  assert.throws(() => new TopicModel(parseTopic({ name: 'empty', terms: ['the', 'of it', 'x'] }, 't')), isBadTopic(/no indexable words/));
});

test('similarity equals its definition (stable sort of every term, cut to PROFILE_TERMS) on generated vectors with ties', () => {
  // similarity() selects the strongest terms without sorting the whole
  // vector; this is the plain definition it replaced, to the last bit.
  const model = new TopicModel(parseTopic({ name: 'solar', terms: ['solar energy', 'panel', 'photovoltaic', 'inverter'] }, 't'));
  for (const doc of ['solar panel roof', 'energy prices', 'inverter photovoltaic panel solar energy grid']) model.docFreq.addDocument(model.tokens(doc));
  const reference = (tf: SparseVector): number => {
    const topicTf: SparseVector = new Map();
    for (const tokens of model.termTokens) if (tokens.every((t) => tf.has(t))) termFreq(tokens, 1, topicTf);
    const profile: SparseVector = new Map();
    for (const t of topicTf.keys()) profile.set(t, sublinear(tf.get(t)!));
    if (profile.size === 0) return 0;
    for (const [t, n] of [...tf].sort((a, b) => b[1] - a[1]).slice(0, PROFILE_TERMS)) profile.set(t, sublinear(n));
    return cosine(profile, tfidf(topicTf, model.docFreq));
  };
  const words = ['solar', 'energy', 'panel', 'photovoltaic', 'inverter', ...Array.from({ length: 120 }, (_, i) => `w${i}`)];
  const vector = fc.array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(0.5, 1, 1, 2, 3, 1.5, 7)), { maxLength: 150 })
    .map((pairs) => { const tf: SparseVector = new Map(); for (const [w, n] of pairs) tf.set(w, (tf.get(w) ?? 0) + n); return tf; });
  fc.assert(fc.property(vector, (tf) => {
    assert.equal(model.similarity(tf), reference(tf));
    assert.deepEqual(strongestTerms(tf, 7), [...tf].sort((a, b) => b[1] - a[1]).slice(0, 7).map(([t]) => t));
  }), { seed: 20261125, numRuns: 3000 });
});

test('anchorSimilarity, which skips links naming no topic word, equals similarity of the weighted anchor and context counts', () => {
  const model = new TopicModel(parseTopic({ name: 'solar', terms: ['solar energy', 'panel', '光伏'] }, 't'));
  for (const doc of ['solar panel roof', 'energy prices', '光伏 panel']) model.docFreq.addDocument(model.tokens(doc));
  const text = fc.array(fc.constantFrom('solar', 'energy', 'Panel', 'panels', '光伏', 'roof', 'the', 'grid', ' ', ', '), { maxLength: 12 }).map((w) => w.join(' '));
  fc.assert(fc.property(text, text, (anchor, context) => {
    const tf = termFreq(model.tokens(anchor));
    termFreq(model.tokens(context), CONTEXT_WEIGHT, tf);
    assert.equal(anchorSimilarity(model, anchor, context), model.similarity(tf));
  }), { seed: 20261125, numRuns: 2000 });
  assert.ok(anchorSimilarity(model, 'solar energy', '') > 0);
  assert.equal(model.mentionsTopic(model.tokens('roof grid')), false);
  assert.equal(model.mentionsTopic(model.tokens('the energy')), true);
});

test('linkSimilarity (scratch arrays, no Map per link) equals similarity of the Map counts, short and long texts', () => {
  // anchorSimilarity counts short texts in arrays instead of termFreq's Maps;
  // topic terms share tokens so topic counts exceed 1, and texts run past
  // SMALL_TEXT_TOKENS (the Map path) and past PROFILE_TERMS distinct terms
  const model = new TopicModel(parseTopic({ name: 'solar', terms: ['solar energy', 'solar panel', 'panel', 'grid inverter energy'] }, 't'));
  for (const doc of ['solar panel roof', 'energy prices', 'grid inverter', 'panel w3 w7']) model.docFreq.addDocument(model.tokens(doc));
  const words = ['solar', 'Energy', 'panel', 'grid', 'inverter', 'the', ...Array.from({ length: 70 }, (_, i) => `w${i}`)];
  const text = fc.array(fc.constantFrom(...words), { maxLength: 60 }).map((w) => w.join(' '));
  let small = 0;
  fc.assert(fc.property(text, text, fc.constantFrom(CONTEXT_WEIGHT, 1, 0.25), (anchor, context, weight) => {
    const a = model.tokens(anchor);
    const c = model.tokens(context);
    if (a.length + c.length <= SMALL_TEXT_TOKENS) small++;
    const tf = termFreq(a);
    termFreq(c, weight, tf);
    assert.equal(model.linkSimilarity(a, c, weight), model.similarity(tf));
  }), { seed: 20261127, numRuns: 3000 });
  assert.ok(small > 500, `${small} short texts`);
});

test('mayMention is false only for text whose tokens name no topic token', () => {
  const fragment = fc.constantFrom(
    'solar', 'SOLAR', "solar's", 'Solar-energy', 'solarpanel', 'energy', 'c++', 'c', 'x.y', 'don\u2019t', "don't", 'dont',
    '光伏', 'ｓｏｌａｒ', 'panel', 'roof', ' ', ', ', '(', '|', '.*', '1997', '12345', 'the', '\n',
  );
  const text = fc.array(fragment, { maxLength: 10 }).map((w) => w.join(''));
  const terms = fc.array(fc.constantFrom('solar energy', 'panel', '光伏', 'c++ x.y', "don't stop", 'ｓｏｌａｒ', '1997', 'a|b', 'roof.*'), { minLength: 1, maxLength: 4 });
  fc.assert(fc.property(terms, text, (t, s) => {
    let model: TopicModel;
    try {
      model = new TopicModel(parseTopic({ name: 'p', terms: t }, 't'));
    } catch (err) {
      if (err instanceof TopicError) return; // a topic of stop words and single letters only
      throw err;
    }
    if (!model.mayMention(s)) assert.equal(model.mentionsTopic(model.tokens(s)), false, `${JSON.stringify(s)} for ${JSON.stringify(t)}`);
  }), { seed: 20261125, numRuns: 3000 });
  const model = new TopicModel(parseTopic({ name: 'solar', terms: ['solar energy', '光伏'] }, 't'));
  assert.equal(model.mayMention('Roof and grid (the .* kind)'), false, 'ASCII text without a topic token');
  assert.equal(model.mayMention('The SOLAR roof'), true, 'any case');
  assert.equal(model.mayMention('屋顶'), true, 'non-ASCII text is not decided without tokenizing');
  const zh = new TopicModel(parseTopic({ name: 'finance', terms: ['股票'] }, 't'));
  assert.equal(zh.mayMention('stocks and funds'), false, 'no topic token is ASCII');
});
