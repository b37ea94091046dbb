// Learning primitives of docs/algorithms.md#nb-link and
// docs/algorithms.md#bayes-kde: Bernoulli NB, link/page features,
// TF-IDF, continuous (Gaussian / kernel) NB, metrics, k-fold splits, KL divergence.
// Hand computations pin the formulas; a regression in smoothing, priors,
// normalisation or the absent-feature term changes the numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BernoulliNB, sigmoid } from '../src/relevance/learn/bernoulli-nb.ts';
import { ContinuousNB } from '../src/relevance/learn/continuous-nb.ts';
import { PARENT_RELEVANT_FLAG, linkFeatures, mineDomainTerms, pageFeatures, urlFeatures, urlTokens } from '../src/relevance/learn/features.ts';
import { klDivergence, klDivergenceShared } from '../src/relevance/learn/kl.ts';
import { binaryMetrics, informationGain, kFoldIndices, seededRandom } from '../src/relevance/learn/metrics.ts';
import { TfIdfVectorizer } from '../src/relevance/learn/tfidf.ts';
import type { ParsedPage } from '../src/types.ts';
import type { SparseVector } from '../src/relevance/text/vector.ts';

const close = (actual: number, expected: number, eps = 1e-9): void =>
  assert.ok(Math.abs(actual - expected) <= eps, `expected ${expected}, got ${actual}`);

// ---- BernoulliNB -------------------------------------------------------------

test('BernoulliNB recovers an obvious rule among noise features', () => {
  const random = seededRandom(7);
  const examples = Array.from({ length: 200 }, (_, i) => {
    const label = (i % 2) as 0 | 1;
    const noise = Array.from({ length: 5 }, () => `n${Math.floor(random() * 30)}`);
    return { features: [label === 1 ? 'good' : 'bad', ...noise], label };
  });
  const nb = BernoulliNB.train(examples);
  assert.ok(nb.probability(['good', 'n1', 'n2']) > 0.95);
  assert.ok(nb.probability(['bad', 'n1', 'n2']) < 0.05);
  assert.deepEqual(nb.topFeatures(1), ['good']);
});

test('BernoulliNB Laplace smoothing matches a hand computation on 4 examples', () => {
  const nb = BernoulliNB.train(
    [
      { features: ['a', 'b'], label: 1 },
      { features: ['a'], label: 1 },
      { features: ['b'], label: 0 },
      { features: ['c'], label: 0 },
    ],
    { minCount: 0 },
  );
  assert.deepEqual(nb.toJSON(), { type: 'bernoulli-nb', nPos: 2, nNeg: 2, features: { a: [2, 0], b: [1, 1], c: [0, 1] } });
  // p+(a)=3/4 p-(a)=1/4; p+(b)=p-(b)=1/2; p+(c)=1/4 p-(c)=1/2; priors 3/6 each
  // x={a}: P(x|+)=3/4·1/2·3/4=9/32, P(x|-)=1/4·1/2·1/2=2/32 -> 9/11
  close(nb.probability(['a']), 9 / 11);
  // x={c}: P(x|+)=1/4·1/2·1/4=1/32, P(x|-)=3/4·1/2·1/2=6/32 -> 1/7
  close(nb.probability(['c']), 1 / 7);
  // x={}: P(x|+)=1/4·1/2·3/4=3/32, P(x|-)=3/4·1/2·1/2=6/32 -> 1/3; unknown features are ignored
  close(nb.probability(['zzz']), 1 / 3);
  // repeats count once
  close(nb.probability(['a', 'a']), 9 / 11);
});

test('BernoulliNB minCount and maxFeatures keep the informative features', () => {
  const examples = [
    { features: ['rare', 'pos', 'x'], label: 1 as const },
    { features: ['pos', 'x'], label: 1 as const },
    { features: ['neg', 'x'], label: 0 as const },
    { features: ['neg', 'x'], label: 0 as const },
  ];
  assert.deepEqual(Object.keys(BernoulliNB.train(examples).toJSON().features).sort(), ['neg', 'pos', 'x']);
  assert.deepEqual(Object.keys(BernoulliNB.train(examples, { maxFeatures: 2 }).toJSON().features).sort(), ['neg', 'pos']);
});

test('BernoulliNB probability is in [0,1] and finite with 10k features', () => {
  const all = Array.from({ length: 10_000 }, (_, i) => `f${i}`);
  const examples = [
    ...Array.from({ length: 5 }, () => ({ features: all, label: 1 as const })),
    ...Array.from({ length: 5 }, () => ({ features: ['other'], label: 0 as const })),
  ];
  const nb = BernoulliNB.train(examples);
  assert.equal(nb.size, 10_001);
  const pAll = nb.probability(all);
  const pNone = nb.probability(['other']);
  const pHalf = nb.probability(all.slice(0, 5000));
  for (const p of [pAll, pNone, pHalf]) assert.ok(Number.isFinite(p) && p >= 0 && p <= 1, String(p));
  assert.equal(pAll, 1);
  assert.equal(pNone, 0);
  assert.ok(Number.isFinite(nb.logOdds(all)) && nb.logOdds(all) > 1000);
  assert.equal(sigmoid(-1e6), 0);
  assert.equal(sigmoid(1e6), 1);
});

test('BernoulliNB JSON round trip predicts identically', () => {
  const random = seededRandom(3);
  const examples = Array.from({ length: 300 }, () => {
    const features = Array.from({ length: 6 }, () => `w${Math.floor(random() * 50)}`);
    return { features, label: (features.includes('w1') || features.includes('w2') ? 1 : 0) as 0 | 1 };
  });
  const nb = BernoulliNB.train(examples);
  const back = BernoulliNB.fromJSON(JSON.parse(JSON.stringify(nb)));
  for (const ex of examples.slice(0, 50)) assert.equal(back.probability(ex.features), nb.probability(ex.features));
});

test('BernoulliNB.fromJSON rejects malformed input with TypeError', () => {
  const bad: unknown[] = [
    null,
    'x',
    [],
    {},
    { type: 'tfidf', nPos: 1, nNeg: 1, features: {} },
    { type: 'bernoulli-nb', nPos: -1, nNeg: 1, features: {} },
    { type: 'bernoulli-nb', nPos: 1.5, nNeg: 1, features: {} },
    { type: 'bernoulli-nb', nPos: 1, nNeg: 1, features: [] },
    { type: 'bernoulli-nb', nPos: 1, nNeg: 1, features: { a: [1] } },
    { type: 'bernoulli-nb', nPos: 1, nNeg: 1, features: { a: [2, 0] } },
    { type: 'bernoulli-nb', nPos: 1, nNeg: 1, features: { a: ['1', 0] } },
  ];
  for (const json of bad) assert.throws(() => BernoulliNB.fromJSON(json), TypeError, JSON.stringify(json));
  assert.throws(() => BernoulliNB.train([{ features: ['a'], label: 2 as 0 }]), TypeError);
});

// ---- features ----------------------------------------------------------------

test('linkFeatures: group 1 is anchor words, group 2 adds context words and domain flags', () => {
  assert.deepEqual(linkFeatures('Stock market news', 'Read the latest stock prices here', { group: 1 }), ['a:stock', 'a:market', 'a:news']);
  assert.deepEqual(linkFeatures('Stock market news', 'Read the latest stock prices here', { group: 2, domainTerms: new Set(['stock']) }), [
    'a:stock', 'a:market', 'a:news', 'c:read', 'c:latest', 'c:stock', 'c:prices', 'a:#domain', 'c:#domain',
  ]);
  assert.deepEqual(linkFeatures('Stock news', 'stock stock', { group: 2 }), ['a:stock', 'a:news', 'c:stock']);
});

test('linkFeatures segments Chinese with jieba search mode and keeps a:/c: distinct', () => {
  assert.deepEqual(linkFeatures('股票市场大涨', '财经新闻 股票 基金', { group: 2, domainTerms: new Set(['基金']) }), [
    'a:股票', 'a:市场', 'a:股票市场', 'a:大涨', 'c:财经', 'c:新闻', 'c:财经新闻', 'c:股票', 'c:基金', 'c:#domain',
  ]);
  assert.deepEqual(linkFeatures('股票市场大涨', '财经新闻', { group: 1 }), ['a:股票', 'a:市场', 'a:股票市场', 'a:大涨']);
});

test('pageFeatures: t: title tokens plus distinct visible-text tokens', () => {
  const page: ParsedPage = {
    title: 'Solar Panels',
    charset: 'utf-8',
    blocks: { title: 'Solar Panels', heading: 'Installing', content: 'solar cells convert light', navigation: 'home contact', anchor: 'panels', other: 'subscribe' },
    links: [],
    base: 'http://example.org/',
    noindex: false,
    nofollow: false,
    lang: null,
  };
  assert.deepEqual(pageFeatures(page), [
    't:solar', 't:panels', 'solar', 'panels', 'installing', 'cells', 'convert', 'light', 'home', 'contact', 'subscribe',
  ]);
});

test('mineDomainTerms ranks tokens by smoothed log-odds of the positive class', () => {
  const ex = (tokens: string[], label: 0 | 1) => ({ tokens, label });
  const terms = mineDomainTerms(
    [ex(['stock', 'fund', 'the'], 1), ex(['stock', 'fund'], 1), ex(['stock', 'bank', 'the'], 1), ex(['the', 'football'], 0), ex(['the', 'fund'], 0), ex(['bank'], 1)],
    { size: 3 },
  );
  // stock: (3+1)/6 vs (0+1)/4; bank: (2+1)/6 vs 1/4; fund: (2+1)/6 vs 2/4 -> score 0, dropped; the: below 0
  assert.deepEqual(terms, ['stock', 'bank']);
});

// ---- TF-IDF ------------------------------------------------------------------

test('TfIdfVectorizer weights match the formula and vectors have unit norm', () => {
  const docs = [['a', 'b', 'x'], ['a', 'c', 'x'], ['b', 'c', 'c', 'x'], ['d', 'x']];
  const v = TfIdfVectorizer.fit(docs, { minDf: 1 });
  close(v.idf('a')!, Math.log(4 / 2));
  close(v.idf('d')!, Math.log(4 / 1));
  // x is in every document: idf 0, left out
  const t = v.transform(['a', 'c', 'c', 'x', 'unknown']);
  assert.deepEqual([...t.keys()].sort(), ['a', 'c']);
  close(t.get('a')!, 1 / Math.sqrt(5));
  close(t.get('c')!, 2 / Math.sqrt(5));
  const u = v.transform(['d', 'b', 'b']);
  // d: 1·ln4, b: 2·ln2 -> equal weights
  close(u.get('d')!, Math.SQRT1_2);
  close(u.get('b')!, Math.SQRT1_2);
  assert.equal(v.transform([]).size, 0);
  assert.equal(v.transform(['x']).size, 0);
  for (const vec of [t, u]) close(Math.hypot(...vec.values()), 1);
  // minDf and maxFeatures (by df)
  assert.equal(TfIdfVectorizer.fit(docs).idf('d'), undefined);
  assert.equal(TfIdfVectorizer.fit(docs, { minDf: 1, maxFeatures: 1 }).size, 1);
  assert.notEqual(TfIdfVectorizer.fit(docs, { minDf: 1, maxFeatures: 1 }).idf('x'), undefined);
  // JSON
  const back = TfIdfVectorizer.fromJSON(JSON.parse(JSON.stringify(v)));
  assert.deepEqual([...back.transform(['a', 'c', 'c'])], [...v.transform(['a', 'c', 'c'])]);
  for (const bad of [null, { type: 'tfidf', docs: 1, df: { a: 2 } }, { type: 'tfidf', docs: -1, df: {} }, { type: 'x', docs: 1, df: {} }]) {
    assert.throws(() => TfIdfVectorizer.fromJSON(bad), TypeError);
  }
});

// ---- ContinuousNB ------------------------------------------------------------

function clusters(n: number, seed: number): { vectors: SparseVector[]; labels: (0 | 1)[] } {
  const random = seededRandom(seed);
  const vectors: SparseVector[] = [];
  const labels: (0 | 1)[] = [];
  for (let i = 0; i < n; i++) {
    const label = (i % 2) as 0 | 1;
    const main = label === 1 ? 'pos' : 'neg';
    const v: SparseVector = new Map([[main, 0.8 + 0.15 * random()]]);
    if (random() < 0.5) v.set('shared', 0.3 + 0.2 * random());
    vectors.push(v);
    labels.push(label);
  }
  return { vectors, labels };
}

for (const density of ['gaussian', 'kernel'] as const) {
  test(`ContinuousNB (${density}) separates two clusters and round-trips through JSON`, () => {
    const { vectors, labels } = clusters(200, 11);
    const nb = ContinuousNB.train(vectors, labels, { density });
    assert.equal(nb.density, density);
    const test = clusters(40, 12);
    const scores = test.vectors.map((v) => nb.probability(v));
    const m = binaryMetrics(scores, test.labels);
    assert.equal(m.f1, 1);
    assert.equal(m.auc, 1);
    for (const p of scores) assert.ok(p >= 0 && p <= 1);
    const back = ContinuousNB.fromJSON(JSON.parse(JSON.stringify(nb)));
    for (const v of test.vectors) assert.equal(back.probability(v), nb.probability(v));
    assert.equal(back.density, density);
  });
}

const normal = (x: number, mu: number, sigma: number): number =>
  Math.exp(-((x - mu) ** 2) / (2 * sigma * sigma)) / (sigma * Math.sqrt(2 * Math.PI));

test('ContinuousNB kernel density matches a hand computation for 1 feature', () => {
  const vectors: SparseVector[] = [new Map([['x', 0.2]]), new Map([['x', 0.4]]), new Map(), new Map(), new Map([['x', 0.1]]), new Map()];
  const labels: (0 | 1)[] = [1, 1, 0, 0, 0, 0];
  const nb = ContinuousNB.train(vectors, labels, { density: 'kernel' });
  const sPos = 1 / Math.sqrt(2);
  const sNeg = 1 / 2;
  const prior = 3 / 8; // (2 + 1) / (6 + 2)
  const expected = (x: number): number => {
    const pPos = (normal(x, 0.2, sPos) + normal(x, 0.4, sPos)) / 2;
    const pNeg = (3 * normal(x, 0, sNeg) + normal(x, 0.1, sNeg)) / 4;
    return (prior * pPos) / (prior * pPos + (1 - prior) * pNeg);
  };
  close(nb.probability(new Map([['x', 0.3]])), expected(0.3), 1e-12);
  close(nb.probability(new Map()), expected(0), 1e-12); // absent = 0, still counts
  close(nb.probability(new Map([['other', 1]])), expected(0), 1e-12);
  const json = nb.toJSON();
  assert.deepEqual(json.kernel?.values, [[[[0.2, 1], [0.4, 1]]], [[[0, 3], [0.1, 1]]]]);
});

test('ContinuousNB gaussian uses ML mean/variance floored at 1/n', () => {
  const vectors: SparseVector[] = [new Map([['x', 0.2]]), new Map([['x', 0.4]]), new Map(), new Map(), new Map([['x', 0.1]]), new Map()];
  const labels: (0 | 1)[] = [1, 1, 0, 0, 0, 0];
  const json = ContinuousNB.train(vectors, labels, { density: 'gaussian' }).toJSON();
  close(json.gaussian!.mean[0][0], 0.3);
  close(json.gaussian!.mean[1][0], 0.025);
  assert.deepEqual(json.gaussian!.variance, [[1 / 2], [1 / 4]]); // ML 0.01 and 0.001875, below the floors
  // many points: the ML variance wins
  const many = Array.from({ length: 40 }, (_, i) => new Map([['x', i % 2]]));
  const j2 = ContinuousNB.train(many, many.map((_, i) => (i < 20 ? 1 : 0)), { density: 'gaussian' }).toJSON();
  close(j2.gaussian!.variance[0][0], 0.25);
});

test('ContinuousNB caps kernel points per class and selects maxFeatures features', () => {
  const { vectors, labels } = clusters(400, 5);
  const nb = ContinuousNB.train(vectors, labels, { density: 'kernel', maxPoints: 10, maxFeatures: 1 });
  const json = nb.toJSON();
  assert.deepEqual(json.kernel!.points, [10, 10]);
  close(json.kernel!.sigma[0], 1 / Math.sqrt(10));
  assert.equal(json.features.length, 1);
  // deterministic
  assert.deepEqual(ContinuousNB.train(vectors, labels, { density: 'kernel', maxPoints: 10, maxFeatures: 1 }).toJSON(), json);
});

test('ContinuousNB rejects bad input and malformed JSON', () => {
  assert.throws(() => ContinuousNB.train([new Map()], [1], { density: 'kernel' }), TypeError); // one class only
  assert.throws(() => ContinuousNB.train([new Map()], [1, 0], { density: 'kernel' }), TypeError);
  const good = ContinuousNB.train(clusters(20, 1).vectors, clusters(20, 1).labels, { density: 'kernel' }).toJSON();
  const broken: unknown[] = [
    null,
    { ...good, type: 'bernoulli-nb' },
    { ...good, density: 'uniform' },
    { ...good, prior: 1 },
    { ...good, features: ['a', 'a'] },
    { ...good, kernel: { ...good.kernel!, points: [1, 1] } },
    { ...good, kernel: undefined },
    { ...good, density: 'gaussian' },
  ];
  for (const json of broken) assert.throws(() => ContinuousNB.fromJSON(json), TypeError);
});

// ---- metrics -----------------------------------------------------------------

test('binaryMetrics: AUC of perfect, inverse, tied and partly tied rankings; P/R/F1', () => {
  const labels: (0 | 1)[] = [0, 0, 1, 1];
  assert.equal(binaryMetrics([0.1, 0.2, 0.8, 0.9], labels).auc, 1);
  assert.equal(binaryMetrics([0.9, 0.8, 0.2, 0.1], labels).auc, 0);
  assert.equal(binaryMetrics([0.5, 0.5, 0.5, 0.5], labels).auc, 0.5);
  const m = binaryMetrics([0.5, 0.5, 0.2, 0.8], [1, 0, 0, 1]);
  assert.equal(m.auc, 0.875); // (0.5 + 1 + 1 + 1) / 4
  assert.deepEqual([m.precision, m.recall, m.n, m.positives], [1, 0.5, 4, 2]); // 0.5 is not > 0.5
  close(m.f1, 2 / 3);
  const none = binaryMetrics([0.1, 0.2], [1, 0]);
  assert.deepEqual([none.precision, none.recall, none.f1], [0, 0, 0]);
  assert.ok(Number.isNaN(binaryMetrics([0.1], [1]).auc));
  assert.equal(binaryMetrics([0.1, 0.6], [1, 0], 0.05).precision, 0.5);
  assert.throws(() => binaryMetrics([0.1], [1, 0]), TypeError);
  assert.throws(() => binaryMetrics([NaN], [1]), TypeError);
});

test('binaryMetrics: AUC of a random ranking is near 0.5', () => {
  const random = seededRandom(99);
  const scores = Array.from({ length: 4000 }, () => random());
  const labels = scores.map(() => (random() < 0.3 ? 1 : 0) as 0 | 1);
  assert.ok(Math.abs(binaryMetrics(scores, labels).auc - 0.5) < 0.03);
});

test('kFoldIndices partitions 0..n-1 into k near-equal deterministic folds', () => {
  const folds = kFoldIndices(23, 5, 42);
  assert.equal(folds.length, 5);
  assert.deepEqual(folds.map((f) => f.length), [5, 5, 5, 4, 4]);
  assert.deepEqual(folds.flat().sort((a, b) => a - b), Array.from({ length: 23 }, (_, i) => i));
  assert.deepEqual(kFoldIndices(23, 5, 42), folds);
  assert.notDeepEqual(kFoldIndices(23, 5, 43), folds);
  assert.notDeepEqual(folds[0], [0, 1, 2, 3, 4]); // shuffled
  assert.deepEqual(kFoldIndices(0, 1, 1), [[]]);
  assert.throws(() => kFoldIndices(3, 4, 1), TypeError);
  assert.throws(() => kFoldIndices(3, 0, 1), TypeError);
});

test('informationGain: 0 for an uninformative feature, H(C) for a perfect one', () => {
  close(informationGain(10, 10, 5, 5), 0);
  close(informationGain(10, 10, 10, 0), Math.log(2));
  assert.ok(informationGain(10, 10, 8, 2) > informationGain(10, 10, 6, 4));
});

// ---- KL ----------------------------------------------------------------------

test('klDivergence: 0 for equal distributions, hand cases, smoothing', () => {
  const p = new Map([['a', 3], ['b', 1], ['c', 7]]);
  assert.equal(klDivergence(p, p), 0);
  assert.equal(klDivergence(p, new Map([['a', 6], ['b', 2], ['c', 14]]), 0), 0);
  // P = (1/2, 1/2), Q = (3/4, 1/4)
  close(klDivergence(new Map([['a', 1], ['b', 1]]), new Map([['a', 3], ['b', 1]]), 0), 0.5 * Math.log(2 / 3) + 0.5 * Math.log(2));
  // add-one over the union {a, b}: P = (2/3, 1/3) from p = {a: 1}; Q = (1/3, 2/3) from q = {b: 1}
  close(klDivergence(new Map([['a', 1]]), new Map([['b', 1]])), (2 / 3) * Math.log(2) + (1 / 3) * Math.log(1 / 2));
  assert.equal(klDivergence(new Map([['a', 1]]), new Map([['b', 1]]), 0), Infinity);
  assert.equal(klDivergence(new Map(), new Map()), 0);
  assert.throws(() => klDivergence(new Map([['a', -1]]), new Map()), TypeError);
  assert.throws(() => klDivergence(new Map([['a', 1]]), new Map(), 0), TypeError);
});

test('klDivergenceShared keeps only words counted on both sides (Han et al. eqs. 3-5, docs/algorithms.md#kl-divergence)', () => {
  const p = new Map([['a', 1], ['b', 1], ['only-p', 50]]);
  const q = new Map([['a', 3], ['b', 1], ['only-q', 9]]);
  close(klDivergenceShared(p, q), 0.5 * Math.log(2 / 3) + 0.5 * Math.log(2));
  assert.ok(Number.isNaN(klDivergenceShared(new Map([['a', 1]]), new Map([['b', 1]]))));
});

test('urlTokens splits the path and query at non-alphanumerics and letter/digit boundaries, keeps ~', () => {
  assert.deepEqual(urlTokens('http://www.cs.example.edu/Info/Courses/Spring-97/CS415/'), ['info', 'courses', 'spring', '97', 'cs', '415']);
  assert.deepEqual(urlTokens('http://a.example/%7Ejoe/cs100.html?x=1'), ['~', 'joe', 'cs', '100', 'html', 'x', '1']);
  assert.deepEqual(urlTokens('http://a.example/'), []);
  assert.deepEqual(urlTokens('not a url'), []);
  assert.deepEqual(urlTokens('http://a.example/%E0%A4%A/x'), ['e', '0', 'a', '4', 'x'], 'a malformed escape is tokenised as it stands');
});

test('urlFeatures: prefixed URL words plus same-host, depth, extension, digits, tilde-home and query flags', () => {
  assert.deepEqual(urlFeatures('http://a.example/courses/cs415/', 'http://a.example/teaching.html'), [
    'u:courses', 'u:cs', 'u:415', 'u:#same-host', 'u:#depth=2', 'u:#dir', 'u:#digits-last',
  ]);
  assert.deepEqual(urlFeatures('http://b.example/~joe/', 'http://a.example/'), ['u:~', 'u:joe', 'u:#other-host', 'u:#depth=1', 'u:#dir', 'u:#tilde-home']);
  assert.deepEqual(urlFeatures('http://b.example/~joe/index.html'), ['u:~', 'u:joe', 'u:index', 'u:html', 'u:#depth=2', 'u:#ext=html', 'u:#tilde-home']);
  assert.deepEqual(urlFeatures('http://b.example/a/b/c/d/e/f/g/h/people?id=3'), [
    'u:a', 'u:b', 'u:c', 'u:d', 'u:e', 'u:f', 'u:g', 'u:h', 'u:people', 'u:id', 'u:3', 'u:#depth=6', 'u:#noext', 'u:#query',
  ]);
  assert.deepEqual(urlFeatures('http://b.example/x', 'not a url'), ['u:x', 'u:#depth=1', 'u:#noext'], 'a bad parent URL gives no host flag');
  assert.deepEqual(urlFeatures('no url'), []);
});

test('feature groups: 3 adds the URL features, 4 also the parent title words and the relevant-parent flag; 1 and 2 ignore both', () => {
  const url = 'http://a.example/courses/';
  const parent = { url, parentUrl: 'http://a.example/', parentTitle: 'Course list', parentRelevant: true };
  assert.deepEqual(linkFeatures('home', 'spring', { group: 3, ...parent }), ['a:home', 'c:spring', 'u:courses', 'u:#same-host', 'u:#depth=1', 'u:#dir']);
  assert.deepEqual(linkFeatures('home', 'spring', { group: 4, ...parent }), [
    'a:home', 'c:spring', 'u:courses', 'u:#same-host', 'u:#depth=1', 'u:#dir', 'p:course', 'p:list', PARENT_RELEVANT_FLAG,
  ]);
  assert.deepEqual(linkFeatures('home', 'spring', { group: 4, url, parentRelevant: false }), ['a:home', 'c:spring', 'u:courses', 'u:#depth=1', 'u:#dir']);
  assert.deepEqual(linkFeatures('home', 'spring', { group: 2, ...parent }), ['a:home', 'c:spring']);
  assert.deepEqual(linkFeatures('home', 'spring', { group: 1, ...parent }), ['a:home']);
  // the anchor word "courses" and the URL word "courses" are different features
  assert.deepEqual(linkFeatures('courses', '', { group: 3, url }).filter((f) => f.endsWith('courses')), ['a:courses', 'u:courses']);
});

test('BernoulliNB balanced: a rare feature seen only in the large class no longer counts for the small one', () => {
  // 2 positives, 20 negatives; "rare" is in 2 negatives only, "good" in both positives
  const examples = [
    ...Array.from({ length: 2 }, () => ({ features: ['good'], label: 1 as const })),
    ...Array.from({ length: 18 }, () => ({ features: ['common'], label: 0 as const })),
    ...Array.from({ length: 2 }, () => ({ features: ['rare'], label: 0 as const })),
  ];
  const plain = BernoulliNB.train(examples);
  const balanced = BernoulliNB.train(examples, { balanced: true });
  // plain Laplace: P(rare|+) = 1/4 > P(rare|−) = 3/22, so "rare" raises the log-odds (the bias balancing removes)
  assert.ok(plain.logOdds(['rare']) > plain.logOdds([]));
  // balanced: P(rare|+) = (0 + 1)/(11 + 2), P(rare|−) = (2·11/20 + 1)/(11 + 2)
  assert.ok(balanced.logOdds(['rare']) < balanced.logOdds([]));
  const w = Math.log(1 / 13 / (2.1 / 13)) - Math.log((1 - 1 / 13) / (1 - 2.1 / 13));
  assert.ok(Math.abs(balanced.logOdds(['rare']) - balanced.logOdds([]) - w) < 1e-12);
  assert.ok(balanced.logOdds(['good']) > balanced.logOdds(['common']));
  // the flag survives the JSON round trip; an unbalanced model writes no flag (old files read as before)
  assert.equal(balanced.toJSON().balanced, true);
  assert.equal('balanced' in plain.toJSON(), false);
  assert.equal(BernoulliNB.fromJSON(JSON.parse(JSON.stringify(balanced.toJSON()))).logOdds(['rare']), balanced.logOdds(['rare']));
  assert.throws(() => BernoulliNB.fromJSON({ ...balanced.toJSON(), balanced: 1 }), /"balanced" must be a boolean/);
});
