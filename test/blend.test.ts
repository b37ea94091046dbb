// The blended (stacked NB + linear) link classifier of issue 24:
// fitStacking, and `train --classifier blend` on the bundled fixture web.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOGIT_CAP, fitStacking, logit, sharpenFromLogits } from '../src/relevance/learn/blend.ts';
import { sigmoid } from '../src/relevance/learn/bernoulli-nb.ts';
import { binaryMetrics, seededRandom } from '../src/relevance/learn/metrics.ts';
import { Model, loadModel } from '../src/relevance/model.ts';
import { readWarc } from '../src/relevance/train/from-warc.ts';
import { runTrain } from '../src/commands/train.ts';
import { sink } from './helpers/sink.ts';

const fx = (f: string): string => fileURLToPath(new URL(`../fixtures/${f}`, import.meta.url));

/** n examples of two standard normal columns, labels drawn from σ(a·x₁ + b·x₂ + c). */
function synthetic(n: number, [a, b, c]: [number, number, number], seed: number): { columns: [Float64Array, Float64Array]; labels: (0 | 1)[] } {
  const random = seededRandom(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const x1 = new Float64Array(n);
  const x2 = new Float64Array(n);
  const labels: (0 | 1)[] = [];
  for (let i = 0; i < n; i++) {
    x1[i] = normal();
    x2[i] = normal();
    labels.push(random() < sigmoid(a * x1[i] + b * x2[i] + c) ? 1 : 0);
  }
  return { columns: [x1, x2], labels };
}

test('fitStacking recovers the weights that generated the labels', () => {
  for (const truth of [[1.5, -0.7, 0.3], [0.2, 2.0, -1.0]] as [number, number, number][]) {
    const { columns, labels } = synthetic(20000, truth, 7);
    const w = fitStacking(columns, labels);
    assert.equal(w.length, 3);
    // the maximum-likelihood estimate on 20,000 examples: standard errors ≈ 0.02–0.03
    for (let j = 0; j < 3; j++) assert.ok(Math.abs(w[j] - truth[j]) < 0.1, `weight ${j}: ${w[j]} vs ${truth[j]} (${w.join(', ')})`);
  }
});

test('fitStacking gives a useless column no weight, and refuses one class or ragged columns', () => {
  const { columns, labels } = synthetic(10000, [2, 0, 0], 3);
  const w = fitStacking(columns, labels);
  assert.ok(Math.abs(w[1]) < 0.1, `noise column weight ${w[1]}`);
  assert.ok(w[0] > 1.8 && w[0] < 2.2, `signal column weight ${w[0]}`);
  assert.throws(() => fitStacking([new Float64Array(3)], [1, 1, 1]), /both classes/);
  assert.throws(() => fitStacking([new Float64Array(2)], [0, 1, 1]), /every column needs 3 values/);
});

test('sharpenFromLogits: sd of NB log odds ÷ sd of the blend\'s, clamped to [1, 100]', () => {
  // issue 24, sharpen=auto: the factor that makes the blend's log odds spread like NB's
  const { columns } = synthetic(5000, [0, 0, 0], 11);
  const zBlend = Float64Array.from(columns[0], (z) => 1.5 * z - 2);
  const zNb = Float64Array.from(columns[0], (z, i) => 9 * z + 0 * columns[1][i] + 4);
  assert.equal(sharpenFromLogits(zNb, zBlend), 6);
  // only the spreads count, not the order or the centre
  const sd = (z: Float64Array): number => Math.sqrt(z.reduce((t, v) => t + v * v, 0) / z.length - (z.reduce((t, v) => t + v, 0) / z.length) ** 2);
  const k = sharpenFromLogits(Float64Array.from(columns[1], (z) => -4 * z), zBlend);
  assert.ok(Math.abs(k - (4 * sd(columns[1])) / (1.5 * sd(columns[0]))) < 1e-4, `k ${k}`);
  // NB no wider than the blend: no sharpening (k ≥ 1); far wider: the cap
  assert.equal(sharpenFromLogits(zBlend, zNb), 1);
  assert.equal(sharpenFromLogits(Float64Array.from(zBlend, (z) => 1000 * z), zBlend), 100);
  // a blend that says one thing for every link: 1
  assert.equal(sharpenFromLogits(zNb, new Float64Array(zNb.length).fill(-3)), 1);
  assert.throws(() => sharpenFromLogits([1, 2], [1]), TypeError);
  assert.throws(() => sharpenFromLogits([], []), TypeError);
});

test('logit inverts σ and clips at ±LOGIT_CAP (0 and 1 included)', () => {
  for (const z of [-5, -0.5, 0, 1.25, 7]) assert.ok(Math.abs(logit(sigmoid(z)) - z) < 1e-9);
  assert.equal(logit(0), -LOGIT_CAP);
  assert.equal(logit(1), LOGIT_CAP);
  assert.equal(logit(1e-300), -LOGIT_CAP);
});

test('train --classifier blend on the bundled fixture web: stacked weights fitted out of fold, links ranked better than chance', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'fc-blend-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const out = join(dir, 'solar-blend.json');
  const stdout = sink();
  const stderr = sink();
  const code = await runTrain(['--warc', fx('web.warc.gz'), '--labels', fx('web-labels.tsv'), '--target', 'solar', '--classifier', 'blend', '--out', out], { stdout, stderr });
  assert.equal(code, 0, stderr.text());
  assert.equal(stdout.text(), '');
  assert.match(stderr.text(), /blend link \d/);
  const model = await loadModel(out);
  assert.equal(model.classifier, 'blend');
  const blend = model.json.blend!;
  assert.ok(blend.weights.every(Number.isFinite), `weights ${blend.weights}`);
  // out-of-fold AUCs of both parts and the blend, on the training data's own (site) folds
  for (const k of ['nb', 'linear', 'blend']) assert.ok(blend.inner![k] > 0.5, `inner ${k} ${blend.inner![k]}`);
  // the stored model ranks the fixture's links (its own training links: a smoke check, not a held-out figure)
  const data = await readWarc({ warcs: [fx('web.warc.gz')], labels: fx('web-labels.tsv'), target: 'solar', hubLinks: true });
  const scores = data.links.map((l) => model.linkProbability(l.anchor, l.context, l.url, { url: l.parentUrl ?? '', title: l.parentTitle ?? '', relevant: l.parentRelevant ?? false }));
  assert.ok(scores.every((p) => p >= 0 && p <= 1));
  const auc = binaryMetrics(scores, data.links.map((l) => l.label)).auc;
  assert.ok(auc > 0.7, `link AUC ${auc}`);
  // issue 24: K of sharpen=auto is stored (blend.sharpen) and survives a round trip; a file
  // without the field (written before it) still loads, scores the same and has K = 1
  assert.ok(typeof blend.sharpen === 'number' && blend.sharpen >= 1 && blend.sharpen <= 100, `sharpen ${blend.sharpen}`);
  assert.equal(model.linkSharpen, blend.sharpen);
  const again = Model.fromJSON(JSON.parse(JSON.stringify(model.json)));
  assert.equal(again.linkSharpen, blend.sharpen);
  const old = JSON.parse(JSON.stringify(model.json));
  delete old.blend.sharpen;
  const before = Model.fromJSON(old);
  assert.equal(before.linkSharpen, 1);
  const l0 = data.links[0]!;
  const parent = { url: l0.parentUrl ?? '', title: l0.parentTitle ?? '', relevant: false };
  assert.equal(before.linkProbability(l0.anchor, l0.context, l0.url, parent), model.linkProbability(l0.anchor, l0.context, l0.url, parent));
  for (const bad of [0.5, 101, 'auto', null]) assert.throws(() => Model.fromJSON({ ...model.json, blend: { ...model.json.blend!, sharpen: bad } }), /blend\.sharpen/);
});
