import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WARCRecord, WARCSerializer } from 'warcio';
import { graphLayers, linkLayer } from '../src/relevance/learn/layers.ts';
import { MultiNB } from '../src/relevance/learn/multi-nb.ts';
import { Model, ModelError, loadModel, type ModelJSON } from '../src/relevance/model.ts';
import { createScorer, modelStrategy, needsModel } from '../src/relevance/scorers/index.ts';
import { DEFAULT_SITE_LANE, defaultSiteLane } from '../src/relevance/scorers/site-lane.ts';
import { discountedScore, expectedScore, floorScore, layerScore, rankCombine, sharpen, tierScore } from '../src/relevance/scorers/context-graph.ts';
import { RANK_BINS, RunningRank } from '../src/relevance/scorers/running-rank.ts';
import { seededRandom } from '../src/util/random.ts';
import type { LearnedModel } from '../src/relevance/scorers/context.ts';
import { runTrain } from '../src/commands/train.ts';
import { readWarc } from '../src/relevance/train/from-warc.ts';
import type { PageLink } from '../src/types.ts';
import { makePage } from './helpers/pages.ts';
import { sink } from './helpers/sink.ts';

describe('context-graph layers', () => {
  test('layers by backward BFS: several targets, a cycle, unreachable pages, 3+ capped', () => {
    // 0 and 5 are targets. 1 -> 0; 2 -> 1; 3 -> 2 (3 links away: 3+); 4 <-> 6 cycle reaching nothing;
    // 7 -> 5 and 7 -> 2 (layer 1 through 5); 8 -> 8? self loops ignored; 9 isolated.
    const out = [[1], [0], [1], [2], [6], [], [4], [5, 2], [8], []];
    const layers = graphLayers(out, [0, 5]);
    assert.deepEqual([...layers], [0, 1, 2, 3, 3, 0, 3, 1, 3, 3]);
    // a cycle through a target: 0 -> 1 -> 0, both stay as they are
    assert.deepEqual([...graphLayers([[1], [0]], [0])], [0, 1]);
    // top 2: layers 0, 1 and "2 or more"
    assert.deepEqual([...graphLayers(out, [0, 5], 2)], [0, 1, 2, 2, 2, 0, 2, 1, 2, 2]);
    // no targets: every page in the last layer
    assert.deepEqual([...graphLayers(out, [])], new Array(10).fill(3));
  });

  test("a link's layer leaves out the way back to the page it is on", () => {
    // 0 is a target (a course) linking to 1 (its homework), which links only back to 0: from 0, 1 leads nowhere new
    // 2 links to 1 too: from 2, 1 is a page one link from a target
    const out = [[1], [0], [1]];
    const layers = graphLayers(out, [0]);
    assert.deepEqual([...layers], [0, 1, 2]);
    assert.equal(linkLayer(out, layers, 0, 1), 3);
    assert.equal(linkLayer(out, layers, 2, 1), 1);
    assert.equal(linkLayer(out, layers, 1, 0), 0);
  });
});

describe('multi-class Naive Bayes', () => {
  test('learns three classes and round-trips through JSON', () => {
    const ex = [
      ...Array.from({ length: 5 }, () => ({ features: ['a', 'x'], label: 0 })),
      ...Array.from({ length: 5 }, () => ({ features: ['b', 'x'], label: 1 })),
      ...Array.from({ length: 20 }, () => ({ features: ['c'], label: 2 })),
    ];
    const nb = MultiNB.train(ex, 3, { balanced: true });
    const pa = nb.probabilities(['a']);
    assert.ok(pa[0]! > 0.9, String(pa));
    assert.ok(nb.probabilities(['b'])[1]! > 0.9);
    assert.ok(nb.probabilities(['c'])[2]! > 0.9);
    const back = MultiNB.fromJSON(JSON.parse(JSON.stringify(nb.toJSON())));
    assert.deepEqual(back.probabilities(['a', 'x']), nb.probabilities(['a', 'x']));
    assert.throws(() => MultiNB.fromJSON({ ...nb.toJSON(), classCounts: [1] }), TypeError);
    assert.throws(() => MultiNB.train([{ features: [], label: 3 }], 3), TypeError);
  });
});

const link = (anchor: string): PageLink => ({ url: `http://127.0.0.1/${anchor}`, anchor, context: '', tag: 'a', nofollow: false, block: 'content' });

/** A model whose layer classifier answers from a table by anchor. */
function fakeModel(table: Record<string, number[]> | null): LearnedModel {
  return {
    target: 'course',
    terms: ['course'],
    pageProbability: () => 0,
    linkProbability: () => 0.5,
    kdeProbability: () => 0.5,
    ...(table === null ? {} : { layerProbabilities: (anchor: string) => table[anchor] ?? [0.25, 0.25, 0.25, 0.25] }),
  };
}

describe('context-graph scorer', () => {
  const table = {
    // layer 1, barely
    near: [0.3, 0.35, 0.2, 0.15],
    // layer 0, barely: goes before any layer-1 link however sure
    target: [0.3, 0.29, 0.21, 0.2],
    // layer 1, sure
    sure: [0.01, 0.97, 0.01, 0.01],
    // layer 2
    two: [0.1, 0.1, 0.7, 0.1],
    // 3+, unsure / sure
    far: [0.2, 0.2, 0.2, 0.4],
    void: [0.001, 0.001, 0.001, 0.997],
  };
  const page = makePage('a page', {});

  test('orders by predicted layer first, confidence second', () => {
    const s = createScorer('context-graph', null, { model: fakeModel(table) });
    const score = (a: string): number => s.linkScore(link(a), page, 0);
    const order = Object.keys(table).sort((a, b) => score(b) - score(a));
    assert.deepEqual(order, ['target', 'sure', 'near', 'two', 'far', 'void']);
    for (const a of Object.keys(table)) assert.ok(score(a) >= 0 && score(a) < 4);
  });

  test('layerScore never saturates: a sure prediction still outranks a surer one of a higher layer', () => {
    assert.ok(layerScore([1, 0, 0, 0]) > layerScore([0.6, 0.4, 0, 0]));
    assert.ok(layerScore([0.6, 0.4, 0, 0]) > layerScore([0, 1, 0, 0]));
    assert.ok(Number.isFinite(layerScore([1, 0, 0, 0])));
  });

  test('value=discounted is Σ γ^k P(k) (Rennie & McCallum)', () => {
    const s = createScorer('context-graph', null, { model: fakeModel(table), params: { value: 'discounted', gamma: 0.5 } });
    assert.equal(s.linkScore(link('two'), page, 0), discountedScore(table.two, 0.5));
    assert.equal(discountedScore([0.5, 0.5, 0, 0], 0.5), 0.75);
    // the discounted value can rank a likely layer-1 link above an unsure layer-0 one, which the layer order cannot
    const flat = [0.26, 0.25, 0.25, 0.24];
    assert.ok(discountedScore(table.sure, 0.5) > discountedScore(flat, 0.5));
    assert.ok(layerScore(table.sure) < layerScore(flat));
  });

  test('value=expected: the target probability sets the near layers\' mass, the layers split it, the parent page shifts it', () => {
    const flat = [0.25, 0.25, 0.25, 0.25];
    // no page prior: t = 1 puts all mass on layers 0 and 1 (split by L), t = 0 on 2 and 3
    assert.equal(expectedScore(flat, null, null, 1, 0.5), 0.5 * 1 + 0.5 * 0.5);
    assert.equal(expectedScore(flat, null, null, 0, 0.5), 0.5 * 0.25 + 0.5 * 0.125);
    // a higher target probability ranks higher with the same layers; with the same t, a likelier layer 0 ranks higher
    assert.ok(expectedScore(flat, null, null, 0.6, 0.5) > expectedScore(flat, null, null, 0.4, 0.5));
    assert.ok(expectedScore([0.6, 0.2, 0.1, 0.1], null, null, 0.5, 0.5) > expectedScore([0.2, 0.6, 0.1, 0.1], null, null, 0.5, 0.5));
    // the parent page's layer: links on a page near a target (its transitions favour layer 0 and 2) beat the same link on a far page
    const T = [
      [0.4, 0.1, 0.4, 0.1],
      [0.4, 0.1, 0.4, 0.1],
      [0.1, 0.4, 0.1, 0.4],
      [0.05, 0.05, 0.1, 0.8],
    ];
    const nearPage = expectedScore(flat, [0, 1, 0, 0], T, 0.5, 0.5);
    const farPage = expectedScore(flat, [0, 0, 0, 1], T, 0.5, 0.5);
    assert.ok(nearPage > farPage, `${nearPage} ≤ ${farPage}`);
    // the value is Σ γ^k P(k): in [γ^top, 1]
    for (const v of [nearPage, farPage]) assert.ok(v >= 0.125 && v <= 1);
  });

  test('value=expected reads the parent page once per page and needs only the layers', () => {
    let pageCalls = 0;
    const model: LearnedModel = {
      ...fakeModel(table),
      linkProbability: (anchor: string) => (anchor === 'sure' ? 0.9 : 0.1),
      pageLayerProbabilities: () => {
        pageCalls++;
        return [0.1, 0.7, 0.1, 0.1];
      },
      layerTransitions: [
        [0.25, 0.25, 0.25, 0.25],
        [0.7, 0.1, 0.1, 0.1],
        [0.25, 0.25, 0.25, 0.25],
        [0.25, 0.25, 0.25, 0.25],
      ],
    };
    const s = createScorer('context-graph', null, { model, params: { value: 'expected' } });
    const score = (a: string): number => s.linkScore(link(a), page, 0);
    assert.ok(score('sure') > score('near'));
    assert.ok(score('void') < score('two'));
    assert.equal(pageCalls, 1);
    // pageLayers=0: no page prior, the page is not classified
    const noPages = createScorer('context-graph', null, { model, params: { value: 'expected', pageLayers: 0 } });
    assert.equal(noPages.linkScore(link('two'), page, 0), expectedScore(table.two, null, null, 0.1, 0.5));
    assert.equal(pageCalls, 1);
    assert.throws(() => createScorer('context-graph', null, { model, params: { value: 'expected', pageLayers: 2 } }), (err: unknown) => (err as { code?: string }).code === 'FC_USAGE');
    // a model without the page part still scores (no page prior)
    const plain = createScorer('context-graph', null, { model: fakeModel(table), params: { value: 'expected' } });
    assert.equal(plain.linkScore(link('two'), page, 0), expectedScore(table.two, null, null, 0.5, 0.5));
  });

  test('FC_USAGE without a model, or with a model that has no layers, or a bad param', () => {
    const usage = (err: unknown): boolean => (err as { code?: string }).code === 'FC_USAGE' && /layers/.test((err as Error).message);
    assert.throws(() => createScorer('context-graph', { name: 't', terms: ['course'], threshold: 0.2 }), usage);
    assert.throws(() => createScorer('context-graph', null, { model: fakeModel(null) }), usage);
    assert.throws(() => createScorer('context-graph', null, { model: fakeModel(table), params: { value: 'reward' } }), (err: unknown) => (err as { code?: string }).code === 'FC_USAGE');
  });
});

describe('context-graph combine (issue 22: nb-link with the layers)', () => {
  test('RunningRank: the share of the scores seen below, ties half, on a logit grid', () => {
    const r = new RunningRank();
    assert.equal(r.rank(0.3), 0.5);
    for (const x of [0.1, 0.5, 0.9]) r.add(x);
    assert.equal(r.size, 3);
    assert.equal(r.rank(0.5), 1.5 / 3);
    assert.equal(r.rank(0.9), 2.5 / 3);
    assert.equal(r.rank(0.95), 1);
    assert.equal(r.rank(0.01), 0);
    assert.equal(r.addAndRank(0.5), 2 / 4);
    // saturated NB posteriors: 0 and 1e-30 share the lowest bin, 1 the highest; 1 − 1e-12 still ranks below 1; NaN counts as 0
    assert.equal(RunningRank.binOf(0), 0);
    assert.equal(RunningRank.binOf(1e-30), 0);
    assert.equal(RunningRank.binOf(NaN), 0);
    assert.equal(RunningRank.binOf(1), RANK_BINS - 1);
    assert.ok(RunningRank.binOf(1 - 1e-12) < RunningRank.binOf(1));
    assert.ok(RunningRank.binOf(0.999) > RunningRank.binOf(0.99));
    // against the exact mid-rank of 2,000 seeded values
    const next = seededRandom(7);
    const xs = Array.from({ length: 2000 }, () => next());
    const big = new RunningRank();
    for (const x of xs) big.add(x);
    for (const x of xs.slice(0, 50)) {
      const exact = (xs.filter((y) => y < x).length + xs.filter((y) => y === x).length / 2) / xs.length;
      assert.ok(Math.abs(big.rank(x) - exact) < 0.01, `${x}: ${big.rank(x)} against ${exact}`);
    }
  });

  test('rankmean puts a link both scores like first; rankmax takes either top first', () => {
    // (rank of t, rank of d): nb-link's top with the layers' bottom, and a link both put second
    const oneSided: [number, number, number, number] = [0.95, 0.05, 0.99, 0.13];
    const both: [number, number, number, number] = [0.6, 0.6, 0.5, 0.5];
    assert.ok(rankCombine('rankmean', ...both) > rankCombine('rankmean', ...oneSided));
    assert.ok(rankCombine('rankmax', ...oneSided) > rankCombine('rankmax', ...both));
    // symmetric: the layers' top alone goes first too
    assert.ok(rankCombine('rankmax', 0.05, 0.95, 0, 0) > rankCombine('rankmax', ...both));
    // the same max: the larger min first
    assert.ok(rankCombine('rankmax', 0.9, 0.5, 0, 0) > rankCombine('rankmax', 0.2, 0.9, 0, 0));
    // the same ranks: the raw scores order; a rank step outweighs them
    assert.ok(rankCombine('rankmean', 0.5, 0.5, 0.3, 0.3) > rankCombine('rankmean', 0.5, 0.5, 0.2, 0.3));
    assert.ok(rankCombine('rankmean', 0.5, 0.5 + 1e-6, 0, 0) > rankCombine('rankmean', 0.5, 0.5, 1, 1));
    assert.ok(Math.abs(rankCombine('rankmean', 0.4, 0.8, 0, 0) - 0.6) < 1e-12);
    assert.ok(Math.abs(rankCombine('rankmax', 0.4, 0.8, 0, 0) - (0.8 + 0.4e-6)) < 1e-12);
  });

  test("floor: the expected value, never below nb-link's t", () => {
    assert.equal(floorScore(0.9, 0.47), 0.9);
    assert.equal(floorScore(0.1, 0.2), 0.2);
    assert.equal(floorScore(NaN, 0.2), 0.2);
    // a hub link nb-link is sure of, which the layers call layer 1, falls behind a middling layer-0 link in value=expected, not with the floor
    const hub = expectedScore([0.01, 0.9, 0.05, 0.04], null, null, 0.95, 0.5);
    const middling = expectedScore([0.9, 0.01, 0.05, 0.04], null, null, 0.6, 0.5);
    assert.ok(hub < middling, `${hub} ≥ ${middling}`);
    assert.ok(floorScore(0.95, hub) > floorScore(0.6, middling));
  });

  const layersOf = {
    // layer 0, sure (the layers' top)
    layertop: [0.97, 0.01, 0.01, 0.01],
    both: [0.5, 0.3, 0.1, 0.1],
    nbtop: [0.001, 0.001, 0.001, 0.997],
    neither: [0.0005, 0.0005, 0.001, 0.998],
  };
  const tOf: Record<string, number> = { layertop: 0.001, neither: 0.01, both: 0.6, nbtop: 0.99 };
  const model: LearnedModel = { ...fakeModel(layersOf), linkProbability: (anchor: string) => tOf[anchor] ?? 0.5 };
  const page = makePage('a page', {});
  /** the scores of the four links after a crawl that scored 30 links like `neither` and 10 like each other */
  const after = (combine: string): Record<string, number> => {
    const s = createScorer('context-graph', null, { model, params: { combine } });
    for (const a of Object.keys(layersOf)) for (let i = 0; i < (a === 'neither' ? 30 : 10); i++) s.linkScore(link(a), page, 0);
    return Object.fromEntries(Object.keys(layersOf).map((a) => [a, s.linkScore(link(a), page, 0)]));
  };

  test('the scorer ranks each score within its own crawl: rankmean and rankmax order the same links differently', () => {
    const mean = after('rankmean');
    const byMean = Object.keys(mean).sort((a, b) => mean[b]! - mean[a]!);
    assert.deepEqual(byMean, ['both', 'nbtop', 'layertop', 'neither']);
    const max = after('rankmax');
    const byMax = Object.keys(max).sort((a, b) => max[b]! - max[a]!);
    assert.deepEqual(byMax, ['nbtop', 'layertop', 'both', 'neither']);
    // a fresh scorer (a new crawl) starts with no history: its first link ranks ½ on both
    const fresh = createScorer('context-graph', null, { model, params: { combine: 'rankmean' } });
    assert.ok(Math.abs(fresh.linkScore(link('nbtop'), page, 0) - 0.5) < 1e-6);
  });

  test('combine=floor overrides value; a bad combine is FC_USAGE', () => {
    const s = createScorer('context-graph', null, { model, params: { value: 'layer', combine: 'floor', pageLayers: 0 } });
    assert.equal(s.linkScore(link('both'), page, 0), floorScore(0.6, expectedScore(layersOf.both, null, null, 0.6, 0.5)));
    assert.equal(s.linkScore(link('nbtop'), page, 0), 0.99);
    assert.throws(() => createScorer('context-graph', null, { model, params: { combine: 'sum' } }), (err: unknown) => (err as { code?: string }).code === 'FC_USAGE' && /combine/.test((err as Error).message));
  });

  test('nb-link-layers is combine=floor without the page prior, the default of a model with layers, with the site lane', () => {
    assert.equal(modelStrategy(model), 'nb-link-layers');
    assert.equal(modelStrategy(fakeModel(null)), 'nb-link');
    assert.ok(needsModel('nb-link-layers'));
    assert.equal(defaultSiteLane('nb-link-layers', true), DEFAULT_SITE_LANE);
    const pages = { ...model, pageLayerProbabilities: () => [0.1, 0.7, 0.1, 0.1], layerTransitions: [0, 1, 2, 3].map((j) => [0, 1, 2, 3].map((k) => (j === k ? 0.7 : 0.1))) };
    const s = createScorer('nb-link-layers', null, { model: pages });
    assert.equal(s.name, 'nb-link-layers');
    for (const a of Object.keys(layersOf)) assert.equal(s.linkScore(link(a), page, 0), floorScore(tOf[a]!, expectedScore(layersOf[a as keyof typeof layersOf], null, null, tOf[a]!, 0.5)));
    // its parameters can still be overridden
    const withPages = createScorer('nb-link-layers', null, { model: pages, params: { pageLayers: 1 } });
    assert.notEqual(withPages.linkScore(link('layertop'), page, 0), s.linkScore(link('layertop'), page, 0));
    assert.throws(() => createScorer('nb-link-layers', null, { model: fakeModel(null) }), (err: unknown) => (err as { code?: string }).code === 'FC_USAGE' && /layers/.test((err as Error).message));
  });

  test('tier (issue 24): t at or above tierAt first, by t; the rest by the layers alone, or by E', () => {
    const far = [0.01, 0.01, 0.9, 0.08]; // b = P2/(P2+P3) ≈ 0.92: a link two links from a target
    const dead = [0.01, 0.01, 0.08, 0.9]; // b ≈ 0.08
    // above the cut: 1 + t, whatever the layers say
    assert.equal(tierScore(0.5, dead, null, null, 0.5, 0.5, 'layers'), 1.5);
    assert.ok(tierScore(0.9, dead, null, null, 0.5, 0.5, 'layers') > tierScore(0.6, far, null, null, 0.5, 0.5, 'layers'));
    // below it, every link after every link above
    assert.ok(tierScore(0.49, far, null, null, 0.5, 0.5, 'layers') < tierScore(0.5, dead, null, null, 0.5, 0.5, 'layers'));
    // rest=layers: t below the cut does not count (E with t = 0: ⅛ + ⅛b at γ = ½)
    assert.equal(tierScore(0.4, dead, null, null, 0.5, 0.5, 'layers'), tierScore(0.01, dead, null, null, 0.5, 0.5, 'layers'));
    assert.ok(Math.abs(tierScore(0.4, far, null, null, 0.5, 0.5, 'layers') - (1 / 8 + (1 / 8) * (0.9 / 0.98))) < 1e-12);
    assert.ok(tierScore(0.01, far, null, null, 0.5, 0.5, 'layers') > tierScore(0.45, dead, null, null, 0.5, 0.5, 'layers'));
    // rest=expected: E with t, as floor's E
    assert.equal(tierScore(0.4, dead, null, null, 0.5, 0.5, 'expected'), expectedScore(dead, null, null, 0.4, 0.5));
    assert.ok(tierScore(0.45, dead, null, null, 0.5, 0.5, 'expected') > tierScore(0.01, dead, null, null, 0.5, 0.5, 'expected'));
    // no t: the rest
    assert.equal(tierScore(NaN, far, null, null, 0.5, 0.5, 'expected'), expectedScore(far, null, null, 0, 0.5));
  });

  test('sharpen: log odds stretched k times about ½, k = 1 the identity', () => {
    for (const t of [0, 1e-300, 0.03, 0.3, 0.5, 0.7, 0.999, 1]) assert.equal(sharpen(t, 1), t);
    assert.equal(sharpen(0.5, 5), 0.5);
    assert.ok(Math.abs(sharpen(0.3, 5) + sharpen(0.7, 5) - 1) < 1e-12);
    // σ(5·logit 0.2) = 1 / (1 + 4⁵)
    assert.ok(Math.abs(sharpen(0.2, 5) - 1 / (1 + 4 ** 5)) < 1e-15);
    assert.ok(sharpen(0.2, 5) < sharpen(0.21, 5) && sharpen(0.8, 5) < sharpen(0.81, 5));
    assert.equal(sharpen(NaN, 5), 0);
  });

  test('nb-link-layers with combine=tier or sharpen; bad parameters are FC_USAGE', () => {
    const tier = createScorer('nb-link-layers', null, { model, params: { combine: 'tier' } });
    const sc = Object.fromEntries(Object.keys(layersOf).map((a) => [a, tier.linkScore(link(a), page, 0)]));
    assert.deepEqual(Object.keys(sc).sort((a, b) => sc[b]! - sc[a]!), ['nbtop', 'both', 'layertop', 'neither']);
    assert.equal(sc.both, 1.6);
    assert.equal(sc.layertop, expectedScore(layersOf.layertop, null, null, 0, 0.5));
    const at = createScorer('nb-link-layers', null, { model, params: { combine: 'tier', tierAt: 0.7, tierRest: 'expected' } });
    assert.equal(at.linkScore(link('both'), page, 0), expectedScore(layersOf.both, null, null, 0.6, 0.5));
    const sharp = createScorer('nb-link-layers', null, { model, params: { sharpen: 5 } });
    assert.equal(sharp.linkScore(link('both'), page, 0), floorScore(sharpen(0.6, 5), expectedScore(layersOf.both, null, null, sharpen(0.6, 5), 0.5)));
    const usage = (params: Record<string, number | string>) => () => createScorer('nb-link-layers', null, { model, params });
    const isUsage = (err: unknown): boolean => (err as { code?: string }).code === 'FC_USAGE';
    assert.throws(usage({ combine: 'tier', tierRest: 'nb' }), isUsage);
    assert.throws(usage({ combine: 'tier', tierAt: 1.5 }), isUsage);
    assert.throws(usage({ sharpen: 0.5 }), isUsage);
    assert.throws(usage({ sharpen: 'car' }), isUsage);
    // sharpen=auto (issue 24): the model's own K, as the same number given by hand
    const own = createScorer('nb-link-layers', null, { model: { ...model, linkSharpen: 3.25 }, params: { sharpen: 'auto' } });
    const byHand = createScorer('nb-link-layers', null, { model, params: { sharpen: 3.25 } });
    for (const a of Object.keys(layersOf)) assert.equal(own.linkScore(link(a), page, 0), byHand.linkScore(link(a), page, 0));
    assert.notEqual(own.linkScore(link('both'), page, 0), createScorer('nb-link-layers', null, { model, params: { sharpen: 'auto' } }).linkScore(link('both'), page, 0));
  });

  test("an NB model's nb-link-layers scores are those of floor, whatever t (the variants are parameters only)", () => {
    // issue 24: the variants for calibrated link scores must not move an NB model's crawl
    const ts = [0, 1e-300, 1e-9, 0.019, 0.2, 0.5, 0.77, 1 - 1e-12, 1, NaN];
    const nbModel: LearnedModel = {
      ...fakeModel(layersOf),
      linkProbability: (anchor: string) => ts[Number(anchor.split(':')[1])]!,
      layerProbabilities: (anchor: string) => layersOf[anchor.split(':')[0] as keyof typeof layersOf],
    };
    const plain = createScorer('nb-link-layers', null, { model: nbModel });
    const one = createScorer('nb-link-layers', null, { model: nbModel, params: { sharpen: 1 } });
    // sharpen=auto on a model with no K of its own (NB): K = 1, floor as it was
    const auto = createScorer('nb-link-layers', null, { model: nbModel, params: { sharpen: 'auto' } });
    for (const a of Object.keys(layersOf)) {
      for (let i = 0; i < ts.length; i++) {
        const l = link(`${a}:${i}`);
        const want = floorScore(ts[i]!, expectedScore(layersOf[a as keyof typeof layersOf], null, null, ts[i]!, 0.5));
        assert.equal(plain.linkScore(l, page, 0), want);
        assert.equal(one.linkScore(l, page, 0), want);
        assert.equal(auto.linkScore(l, page, 0), want);
      }
    }
  });
});

// ---- training from a WARC ---------------------------------------------------

const html = (title: string, body: string): string => `<html><head><title>${title}</title></head><body>${body}</body></html>`;
const a = (href: string, text: string): string => `<p><a href="${href}">${text}</a></p>`;
const COURSE = '<p>Course syllabus, homework, lecture notes and the exam.</p>';

/**
 * dept -> courses (list) -> cs101, cs102 (targets); cs101 -> hw1 -> cs101 (back only);
 * dept -> people -> prof -> cs102; dept -> dead.html (not archived)
 */
const PAGES: [string, string, string][] = [
  ['dept.html', 'other', html('Department', a('courses.html', 'Courses') + a('people.html', 'People') + a('dead.html', 'Old news'))],
  ['courses.html', 'other', html('Course list', a('cs101.html', 'CS101 course') + a('cs102.html', 'CS102 course'))],
  ['cs101.html', 'course', html('CS101', COURSE + a('hw1.html', 'Homework 1'))],
  ['cs102.html', 'course', html('CS102', COURSE)],
  ['hw1.html', 'other', html('Homework 1', a('cs101.html', 'back to CS101'))],
  ['people.html', 'other', html('People', a('prof.html', 'Professor Smith'))],
  ['prof.html', 'faculty', html('Professor Smith', a('cs102.html', 'I teach CS102'))],
];

let dir: string;
let warc: string;
let labels: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fc-cg-'));
  warc = join(dir, 'tiny.warc.gz');
  labels = join(dir, 'labels.tsv');
  const parts: Uint8Array[] = [];
  for (const [path, , body] of PAGES) {
    const record = WARCRecord.create({ url: `http://u.test/${path}`, type: 'response', warcVersion: 'WARC/1.1', statusline: 'HTTP/1.0 200 OK', httpHeaders: { 'Content-Type': 'text/html' } }, [Buffer.from(body)]);
    parts.push(await WARCSerializer.serialize(record, { gzip: true }));
  }
  await writeFile(warc, Buffer.concat(parts));
  await writeFile(labels, ['url\tlabel', ...PAGES.map(([p, l]) => `http://u.test/${p}\t${l}`), ''].join('\n'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});


describe('train --layers', () => {
  test('labels each link with the layer of its target, seen from its page', async () => {
    const data = await readWarc({ warcs: [warc], labels, target: 'course', layers: true });
    const got = new Map((data.layerLinks ?? []).map((l) => [`${l.parentUrl!.slice(14)}>${l.url!.slice(14)}`, l.layer]));
    assert.deepEqual(
      Object.fromEntries([...got].sort()),
      {
        'courses.html>cs101.html': 0,
        'courses.html>cs102.html': 0,
        'cs101.html>hw1.html': 3, // hw1 only links back to cs101
        'dept.html>courses.html': 1,
        'dept.html>dead.html': 3, // not archived: a dead end
        'dept.html>people.html': 2,
        'hw1.html>cs101.html': 0,
        'people.html>prof.html': 1,
        'prof.html>cs102.html': 0,
      },
    );
    assert.equal(data.layerTop, 3);
    // each link knows its page's layer; each page is an example of its own layer
    const parents = new Map((data.layerLinks ?? []).map((l) => [l.parentUrl!.slice(14), l.parentLayer]));
    assert.deepEqual(Object.fromEntries([...parents].sort()), { 'courses.html': 1, 'cs101.html': 0, 'dept.html': 2, 'hw1.html': 1, 'people.html': 2, 'prof.html': 1 });
    assert.deepEqual((data.layerPages ?? []).map((p) => p.layer).sort(), [0, 0, 1, 1, 1, 2, 2]);
    const plain = await readWarc({ warcs: [warc], labels, target: 'course' });
    assert.equal(plain.layerLinks, undefined);
  });

  test('the model round-trips with and without layers', async () => {
    const train = async (extra: string[], out: string): Promise<ModelJSON> => {
      const stderr = sink();
      const code = await runTrain(['--warc', warc, '--labels', labels, '--target', 'course', '--out', out, ...extra], { stdout: sink(), stderr });
      assert.equal(code, 0, stderr.text());
      return JSON.parse(await readFile(out, 'utf8')) as ModelJSON;
    };
    const withPath = join(dir, 'with.json');
    // layers are fitted by default (--layers is on unless --no-layers)
    const withJson = await train([], withPath);
    assert.equal(withJson.layers?.top, 3);
    assert.equal(withJson.layers?.classifier.classCounts.reduce((x, y) => x + y, 0), 9);
    const loaded = await loadModel(withPath);
    assert.equal(loaded.topLayer, 3);
    const p = loaded.layerProbabilities('CS101 course', '', 'http://u.test/cs101.html', { url: 'http://u.test/courses.html', title: 'Course list' });
    assert.equal(p?.length, 4);
    assert.ok(Math.abs(p!.reduce((x, y) => x + y, 0) - 1) < 1e-9);
    assert.deepEqual(Model.fromJSON(JSON.parse(JSON.stringify(loaded.json))).layerProbabilities('Courses', ''), loaded.layerProbabilities('Courses', ''));
    // the page-layer classifier and the transitions: classes 0..3, rows of probabilities
    assert.equal(withJson.layers?.page?.classCounts.reduce((x, y) => x + y, 0), PAGES.length);
    assert.equal(withJson.layers?.transitions?.length, 4);
    for (const row of withJson.layers!.transitions!) assert.ok(Math.abs(row.reduce((x, y) => x + y, 0) - 1) < 1e-9);
    const q = loaded.pageLayerProbabilities(makePage('CS101 course', { title: 'CS101' }));
    assert.equal(q?.length, 4);
    // the scorer runs on it
    createScorer('context-graph', null, { model: loaded });
    createScorer('context-graph', null, { model: loaded, params: { value: 'expected' } }).linkScore(link('Courses'), makePage('Department', {}), 0);
    // a crawl with it and no --strategy runs nb-link-layers
    assert.equal(modelStrategy(loaded), 'nb-link-layers');
    // an NB model has no K of its own (issue 24): sharpen=auto scores every link as floor does
    assert.equal(loaded.linkSharpen, 1);
    const [floorNb, autoNb] = ([{}, { sharpen: 'auto' }] as Record<string, string>[]).map((params) => createScorer('nb-link-layers', null, { model: loaded, params }));
    const deptPage = makePage('Department', {});
    for (const anchor of ['Courses', 'People', 'CS101 course', 'Old news']) assert.equal(autoNb.linkScore(link(anchor), deptPage, 0), floorNb.linkScore(link(anchor), deptPage, 0));

    const withoutPath = join(dir, 'without.json');
    const withoutJson = await train(['--no-layers'], withoutPath);
    assert.equal(withoutJson.layers, undefined);
    const plain = await loadModel(withoutPath);
    assert.equal(plain.topLayer, null);
    assert.equal(plain.layerProbabilities('Courses', ''), null);
    assert.equal(modelStrategy(plain), 'nb-link');
    assert.throws(() => createScorer('context-graph', null, { model: plain }), (err: unknown) => (err as { code?: string }).code === 'FC_USAGE');

    // a malformed layers section is FC_BAD_MODEL
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ ...withJson, layers: { top: 5, classifier: withJson.layers!.classifier } }));
    await assert.rejects(loadModel(bad), (err: unknown) => err instanceof ModelError);
    await writeFile(bad, JSON.stringify({ ...withJson, layers: { top: 3, classifier: { type: 'bernoulli-nb' } } }));
    await assert.rejects(loadModel(bad), (err: unknown) => err instanceof ModelError);
    await writeFile(bad, JSON.stringify({ ...withJson, layers: { ...withJson.layers, transitions: [[1, 0, 0, 0]] } }));
    await assert.rejects(loadModel(bad), (err: unknown) => err instanceof ModelError && /transitions/.test(err.message));
    await writeFile(bad, JSON.stringify({ ...withJson, layers: { top: 3, classifier: withJson.layers!.classifier, transitions: withJson.layers!.transitions } }));
    await assert.rejects(loadModel(bad), (err: unknown) => err instanceof ModelError && /needs "layers.page"/.test(err.message));
  });
});
