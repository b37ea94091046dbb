/**
 * How well the layer classifiers of `train --layers` generalise, measured
 * inside a leave-one-university-out training set only (no held-out
 * university is read): train on misc and one university, test on another.
 *
 *   node --import tsx bench/webkb-layer-cv.ts [--train-on washington] [--test-on texas] [--target course]
 *
 * Prints, per layer 0..3, the recall of the link layer classifier (on the
 * test university's links) and of the page-layer classifier (on its
 * pages), and the macro-averaged recall of each: the layer classes are
 * balanced in training, so chance is 1/4.
 */
import { parseArgs } from 'node:util';
import { fitModel } from '../src/relevance/model.ts';
import { MultiNB } from '../src/relevance/learn/multi-nb.ts';
import { linkFeatures } from '../src/relevance/learn/features.ts';
import { readWarc } from '../src/relevance/train/from-warc.ts';
import { parseTrainFlags } from './lib/simulate.ts';
import { WEBKB_LABELS, WEBKB_TRAIN_FLAGS, WEBKB_UNIVERSITIES, WEBKB_WARC } from './lib/webkb.ts';

const { values } = parseArgs({ options: { 'train-on': { type: 'string', default: 'washington' }, 'test-on': { type: 'string', default: 'texas' }, target: { type: 'string', default: 'course' } } });
const trainOn = values['train-on']!;
const testOn = values['test-on']!;
const target = values.target!;
const flags = parseTrainFlags(WEBKB_TRAIN_FLAGS);
const others = Object.keys(WEBKB_UNIVERSITIES).filter((u) => u !== trainOn);
const train = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: others.map((u) => ({ column: 'university', value: u, negate: true })), hubLinks: flags.hubLinks, layers: true });
const test = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: [{ column: 'university', value: testOn }], hubLinks: flags.hubLinks, layers: true });
const { json } = fitModel(train, { target, group: flags.group, balancedLinks: flags.balancedLinks });
const linkNb = MultiNB.fromJSON(json.layers!.classifier);
const pageNb = MultiNB.fromJSON(json.layers!.page!);
const domain = new Set(json.link.domainTerms);
const argmax = (p: number[]): number => p.indexOf(Math.max(...p));
const top = json.layers!.top;
const recall = (rows: { layer: number; pred: number }[]): number[] =>
  Array.from({ length: top + 1 }, (_, k) => {
    const of = rows.filter((r) => r.layer === k);
    return of.length === 0 ? NaN : of.filter((r) => r.pred === k).length / of.length;
  });
const links = test.layerLinks!.map((l) => ({ layer: l.layer, pred: argmax(linkNb.probabilities(linkFeatures(l.anchor, l.context, { group: flags.group, domainTerms: domain, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant }))) }));
const pages = test.layerPages!.map((p) => ({ layer: p.layer, pred: argmax(pageNb.probabilities(p.features)) }));
const count = (rows: { layer: number }[]): number[] => Array.from({ length: top + 1 }, (_, k) => rows.filter((r) => r.layer === k).length);
const fmt = (v: number[]): string => v.map((x) => (Number.isNaN(x) ? '–' : x.toFixed(2))).join(' / ');
const macro = (v: number[]): string => (v.filter((x) => !Number.isNaN(x)).reduce((a, b) => a + b, 0) / v.filter((x) => !Number.isNaN(x)).length).toFixed(2);
process.stdout.write(`target ${target}, trained on misc + ${trainOn}, tested on ${testOn}\n`);
process.stdout.write(`training examples per layer 0..${top}: links ${count(train.layerLinks!).join(', ')}; pages ${count(train.layerPages!).join(', ')}\n`);
process.stdout.write(`test examples per layer: links ${count(links).join(', ')}; pages ${count(pages).join(', ')}\n`);
process.stdout.write(`recall per layer, links: ${fmt(recall(links))} (macro ${macro(recall(links))})\n`);
process.stdout.write(`recall per layer, pages: ${fmt(recall(pages))} (macro ${macro(recall(pages))})\n`);
