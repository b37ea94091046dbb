/**
 * `context-graph` (Diligenti et al., VLDB 2000; beyond the seeds): a
 * layered link classifier, trained on the link graph of labelled pages
 * (`focuscrawl train --warc ... --layers`; src/relevance/learn/layers.ts), predicts
 * for each link how many links its target is from a target page: layer 0
 * (a target), 1, 2, or the last layer ("3 or more, or never"). The
 * frontier takes the lowest predicted layer first and, within a layer, the
 * most confident prediction first, as the paper's per-layer queues do.
 *
 * A link's score (higher first; the frontier orders by it) is
 *   (top − k) + confidence,  k = argmax_c P(c | link),
 * where the confidence, in [0, 1), is m/(1+m) with m = ln P(k) − ln P(k′),
 * the margin over the runner-up class k′ (Naive Bayes posteriors saturate
 * at 1 in floating point; the margin keeps their order). In the last layer
 * it is 1/(1+m) instead: a link the classifier is less sure leads nowhere
 * goes first.
 *
 * With `--param value=discounted` the score is instead the discounted
 * number of targets reached through the link (Rennie & McCallum, ICML
 * 1999): Σ_k γ^k P(k | link), with γ = `gamma` (default 0.5, fixed a priori,
 * not tuned on the evaluation webs).
 *
 * With `--param value=expected` (issue 22, this project's own form; not
 * in either paper) the score is the expected discounted reward
 * Σ_k γ^k P(k) of a distribution that combines three classifiers:
 *   - the page-layer classifier on the page the link is on (its own text,
 *     classified once per page): Q(j), and the trained transitions
 *     T[j][k] = P(link layer k | page layer j) give a prior over the link's
 *     layer R(k) = Σ_j Q(j) T[j][k];
 *   - the layered link classifier L(k) (class-balanced, uniform prior, so
 *     proportional to its likelihood): P̃(k) ∝ L(k) R(k);
 *   - the link's own target probability t (nb-link's score; with hub links
 *     trained, "a target or a page linking to one"): it sets the mass of
 *     the near layers, P(k) = t P̃(k)/Σ_{near} P̃ for k ≤ 1 and
 *     (1 − t) P̃(k)/Σ_{far} P̃ for k ≥ 2.
 * A model without the page-layer part (older `--layers` models) uses R = 1,
 * as does `--param pageLayers=0` (to measure what the page part adds).
 *
 * `--param combine=…` (issue 22, this project's own; overrides `value`)
 * combines nb-link's score t with the layers (planned and measured in
 * docs/results/webkb-context-graph.md, "Combining nb-link with the learned
 * layers"):
 *   - `rankmean`: ½(q(t) + q(d)), d = Σ_k γ^k L(k) the layered link
 *     classifier's discounted value (no page prior) and q the running rank
 *     of a score among the crawl's scores of the same kind so far
 *     (src/relevance/scorers/running-rank.ts);
 *   - `rankmax`: max(q(t), q(d)) + 10⁻⁶·min(q(t), q(d)): the union of the
 *     two orders;
 *   - `floor`: max(t, E), E the `value=expected` score (with the page prior
 *     unless `pageLayers=0`);
 *   - `tier` (issue 24, for a calibrated t: the blend or linear link
 *     classifier; docs/results/webkb-classifier.md): links with t ≥
 *     `tierAt` (default 0.5) first, ordered by t; the rest after, ordered
 *     by the layers alone (`tierRest=layers`, the default: E with t = 0)
 *     or by E (`tierRest=expected`). What floor does with NB's saturated
 *     t (≈ 1 or ≈ 0), written for a t that spreads over (0, 1).
 * `--param sharpen=K` (issue 24; with floor) takes t′ = σ(K·logit t) for t:
 * a calibrated t on NB's wider log-odds scale; `sharpen=auto` takes K
 * from the model (`blend.sharpen`, sd of NB's ÷ the blend's out-of-fold
 * log odds, computed by train; K = 1 for a model without it). Neither
 * tier, sharpen=5 nor sharpen=auto passed the rule written before the
 * leave-one-university-out run with the blend model
 * (docs/results/webkb-classifier.md): all stay parameters, and
 * nb-link-layers is floor with every model.
 * Needs --model with a `layers` section.
 *
 * `nb-link-layers` (its own name: context-graph with `combine=floor,
 * pageLayers=0`, the variant that passed the rule written before the
 * leave-one-university-out run) is the default strategy of a crawl whose
 * model carries layers; nb-link stays the default for a model without.
 */
import { UsageError } from '../../errors.ts';
import { SHARPEN_RANGE } from '../learn/blend.ts';
import type { Scorer } from '../../types.ts';
import { numberParam, type LearnedModel, type ScorerContext } from './context.ts';
import { PARENT_RELEVANT_AT } from './nb-link.ts';
import { RunningRank } from './running-rank.ts';

/** γ of the discounted value when the `gamma` parameter is not given. */
export const DEFAULT_GAMMA = 0.5;
/** The largest margin counted (ln of the smallest positive double ratio is about −745). */
const MAX_MARGIN = 745;

/** The layer-first score of a link from its layer probabilities P(0..top) (see the module doc). */
export function layerScore(p: readonly number[]): number {
  const top = p.length - 1;
  let k = 0;
  for (let c = 1; c <= top; c++) if (p[c]! > p[k]!) k = c;
  let second = -1;
  for (let c = 0; c <= top; c++) if (c !== k && (second < 0 || p[c]! > p[second]!)) second = c;
  const ratio = p[second]! > 0 ? Math.log(p[k]!) - Math.log(p[second]!) : MAX_MARGIN;
  const m = Math.min(MAX_MARGIN, Math.max(0, Number.isFinite(ratio) ? ratio : MAX_MARGIN));
  const confidence = k < top ? m / (1 + m) : 1 / (1 + m);
  return top - k + confidence;
}

/** Σ_k γ^k P(k): the discounted-reward value of a link (Rennie & McCallum 1999). */
export function discountedScore(p: readonly number[], gamma: number): number {
  let v = 0;
  for (let k = 0; k < p.length; k++) v += gamma ** k * p[k]!;
  return v;
}

/**
 * The expected discounted reward of a link (value=expected; see the module
 * doc): `link` L(k), the parent page's layer probabilities `page` Q(j) and
 * `transitions` T[j][k] (both null: no page prior), the link's target
 * probability `t` and γ.
 */
export function expectedScore(link: readonly number[], page: readonly number[] | null, transitions: readonly (readonly number[])[] | null, t: number, gamma: number): number {
  const top = link.length - 1;
  const mixed = link.map((l, k) => {
    if (page === null || transitions === null) return l;
    let r = 0;
    for (let j = 0; j < page.length; j++) r += page[j]! * (transitions[j]?.[k] ?? 0);
    return l * r;
  });
  // near: layers 0 and 1 (0 alone when there are only two layers)
  const nearTop = top >= 2 ? 1 : 0;
  const near = mixed.slice(0, nearTop + 1);
  const far = mixed.slice(nearTop + 1);
  const sum = (v: readonly number[]): number => v.reduce((a, b) => a + b, 0);
  const nearSum = sum(near);
  const farSum = sum(far);
  const p = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0));
  let v = 0;
  for (let k = 0; k <= top; k++) {
    const share = k <= nearTop ? (nearSum > 0 ? mixed[k]! / nearSum : 1 / near.length) * p : (farSum > 0 ? mixed[k]! / farSum : 1 / far.length) * (1 - p);
    v += gamma ** k * share;
  }
  return v;
}

/** The parameters `nb-link-layers` adds to context-graph's (the caller's override them). */
export const NB_LINK_LAYERS_PARAMS: Readonly<Record<string, number | string>> = { combine: 'floor', pageLayers: 0 };

/** Does `model` carry a layered link classifier (`train --layers`)? */
export function hasLayers(model: LearnedModel | null): model is LearnedModel & Required<Pick<LearnedModel, 'layerProbabilities'>> {
  return model !== null && model.layerProbabilities !== undefined && model.layerProbabilities('', '') !== null;
}

/** `nb-link-layers`: nb-link's t as the floor of the layers' expected value (see the module doc). */
export function createNbLinkLayersScorer(ctx: ScorerContext): Scorer {
  if (!hasLayers(ctx.model)) throw new UsageError('--strategy nb-link-layers needs a trained --model with layers (focuscrawl train --warc ... --layers); without layers use nb-link');
  return { ...createContextGraphScorer({ ...ctx, params: { ...NB_LINK_LAYERS_PARAMS, ...ctx.params } }), name: 'nb-link-layers' };
}

/** The `combine` rules (see the module doc). */
export const COMBINE_RULES = ['rankmean', 'rankmax', 'floor', 'tier'] as const;
export type CombineRule = (typeof COMBINE_RULES)[number];

/**
 * The score of a `rankmean` or `rankmax` link from the running ranks `qt`
 * (nb-link's t) and `qd` (the discounted layer value), both in [0, 1]; a
 * tiny share of the raw t and d keeps the order within a rank bin.
 */
export function rankCombine(rule: 'rankmean' | 'rankmax', qt: number, qd: number, t: number, d: number): number {
  const tie = 1e-9 * (t + d);
  return rule === 'rankmean' ? (qt + qd) / 2 + tie : Math.max(qt, qd) + 1e-6 * Math.min(qt, qd) + tie;
}

/**
 * σ(k·logit(t)): a probability's log odds stretched k times about ½
 * (`sharpen`, issue 24); k = 1 leaves t as it is.
 */
export function sharpen(t: number, k: number): number {
  const p = Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0;
  if (k === 1 || p === 0 || p === 1) return p;
  return 1 / (1 + ((1 - p) / p) ** k);
}

/** The `floor` score: the expected value E with nb-link's t as its floor. */
export function floorScore(t: number, expected: number): number {
  return Math.max(Number.isFinite(t) ? t : 0, expected);
}

/** What orders the links below the `tier` threshold (see the module doc). */
export const TIER_RESTS = ['layers', 'expected'] as const;
export type TierRest = (typeof TIER_RESTS)[number];
/** `tierAt` when not given: a calibrated probability's own cut. */
export const DEFAULT_TIER_AT = 0.5;

/**
 * The `tier` score (issue 24): a link with t ≥ `at` goes first, ordered by
 * t (1 + t); the rest after, ordered by the layers alone (`rest` =
 * 'layers': the expected value with t = 0, ⅛ + ⅛·P̃2/(P̃2+P̃3) at γ = ½)
 * or by the expected value E with t (`rest` = 'expected').
 */
export function tierScore(t: number, link: readonly number[], page: readonly number[] | null, transitions: readonly (readonly number[])[] | null, gamma: number, at: number, rest: TierRest): number {
  const p = Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0;
  if (p >= at) return 1 + p;
  return expectedScore(link, page, transitions, rest === 'layers' ? 0 : p, gamma);
}

export function createContextGraphScorer(ctx: ScorerContext): Scorer {
  const model = ctx.model;
  if (model === null) throw new UsageError('--strategy context-graph needs a trained --model with layers (focuscrawl train --warc ... --layers)');
  if (!hasLayers(model)) {
    throw new UsageError('--strategy context-graph needs a model with a layered link classifier: this model has none (retrain it with focuscrawl train --warc ... --layers)');
  }
  const value = ctx.params.value ?? 'layer';
  if (value !== 'layer' && value !== 'discounted' && value !== 'expected') throw new UsageError(`context-graph: param value must be layer, discounted or expected, got ${JSON.stringify(value)}`);
  const gamma = ctx.params.gamma ?? DEFAULT_GAMMA;
  if (typeof gamma !== 'number' || !(gamma > 0 && gamma <= 1)) throw new UsageError(`context-graph: param gamma must be a number in (0, 1], got ${JSON.stringify(gamma)}`);
  const combine = ctx.params.combine;
  if (combine !== undefined && !(COMBINE_RULES as readonly unknown[]).includes(combine)) throw new UsageError(`context-graph: param combine must be ${COMBINE_RULES.join(', ')}, got ${JSON.stringify(combine)}`);
  const threshold = typeof ctx.params.threshold === 'number' ? ctx.params.threshold : PARENT_RELEVANT_AT;
  const tierAt = numberParam(ctx, 'context-graph', 'tierAt', DEFAULT_TIER_AT, { min: 0, max: 1 });
  // `sharpen=auto` (issue 24): the model's own K (model.linkSharpen; 1 when it has none, so NB models are unchanged)
  const sharpenBy = ctx.params.sharpen === 'auto' ? (model.linkSharpen ?? 1) : numberParam(ctx, 'context-graph', 'sharpen', 1, { min: SHARPEN_RANGE[0], max: SHARPEN_RANGE[1] });
  const tierRest = ctx.params.tierRest ?? 'layers';
  if (!(TIER_RESTS as readonly unknown[]).includes(tierRest)) throw new UsageError(`context-graph: param tierRest must be ${TIER_RESTS.join(' or ')}, got ${JSON.stringify(tierRest)}`);
  const layers = model.layerProbabilities.bind(model);
  const usePages = ctx.params.pageLayers ?? 1;
  if (usePages !== 0 && usePages !== 1) throw new UsageError(`context-graph: param pageLayers must be 0 or 1, got ${JSON.stringify(usePages)}`);
  const transitions = usePages === 1 ? (model.layerTransitions ?? null) : null;
  /** the page-layer probabilities of each page links are scored on (classified once per page) */
  const pageLayers = new WeakMap<object, number[] | null>();
  const pageLayerOf = (page: Parameters<Scorer['linkScore']>[1]): number[] | null => {
    if (transitions === null || model.pageLayerProbabilities === undefined) return null;
    let q = pageLayers.get(page);
    if (q === undefined) pageLayers.set(page, (q = model.pageLayerProbabilities(page)));
    return q;
  };
  /** the running ranks of nb-link's t and of the discounted layer value (combine=rankmean|rankmax) */
  const tRanks = new RunningRank();
  const dRanks = new RunningRank();
  return {
    name: 'context-graph',
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link, page, pageRelevance) => {
      const parent = { url: page.base, title: page.title, relevant: pageRelevance >= threshold };
      const p = layers(link.anchor, link.context, link.url, parent);
      if (p === null) return 0;
      if (combine === 'floor') {
        const raw = model.linkProbability(link.anchor, link.context, link.url, parent);
        const t = sharpenBy === 1 ? raw : sharpen(raw, sharpenBy);
        return floorScore(t, expectedScore(p, pageLayerOf(page), transitions, t, gamma as number));
      }
      if (combine === 'tier') {
        const t = model.linkProbability(link.anchor, link.context, link.url, parent);
        return tierScore(t, p, pageLayerOf(page), transitions, gamma as number, tierAt, tierRest as TierRest);
      }
      if (combine === 'rankmean' || combine === 'rankmax') {
        const t = model.linkProbability(link.anchor, link.context, link.url, parent);
        const d = discountedScore(p, gamma as number);
        return rankCombine(combine, tRanks.addAndRank(t), dRanks.addAndRank(d), t, d);
      }
      if (value === 'expected') return expectedScore(p, pageLayerOf(page), transitions, model.linkProbability(link.anchor, link.context, link.url, parent), gamma as number);
      return value === 'discounted' ? discountedScore(p, gamma) : layerScore(p);
    },
  };
}
