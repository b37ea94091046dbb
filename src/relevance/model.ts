/**
 * The model file written by `focuscrawl train` and read by `crawl --model`:
 * one JSON document holding a page classifier (the relevance judge), a
 * link-context classifier (docs/algorithms.md#nb-link, Bernoulli Naive Bayes over feature
 * group 1 to 4), a TF-IDF vectorizer with two continuous Naive Bayes link
 * classifiers (docs/algorithms.md#bayes-kde, Gaussian and kernel densities), and the target's
 * most discriminative terms (usable as a term topic). docs/model-format.md
 * describes every field.
 *
 * This module also fits that document from labelled examples (fitModel), so
 * the file and the way it is made are described in one place; the readers
 * in src/train/ only turn WARC files or labelled texts into examples.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ModelError, UsageError } from '../errors.ts';
import { formatBytes, readCapped } from '../util/read-capped.ts';
import type { ParsedPage } from '../types.ts';
import type { LearnedModel, LinkParent } from './scorers/context.ts';
import type { Segmenter } from './text/segmenter.ts';
import { tokenize } from './text/tokenize.ts';
import { classDocFreq, isFeatureGroup, linkDensity, linkFeatures, pageFeatures, pageMainText, type FeatureGroup } from './learn/features.ts';
import { BernoulliNB, sigmoid, type BernoulliNBJSON } from './learn/bernoulli-nb.ts';
import { TfIdfVectorizer, type TfIdfJSON } from './learn/tfidf.ts';
import { ContinuousNB, type ContinuousNBJSON } from './learn/continuous-nb.ts';
import { MultiNB, type MultiNBJSON } from './learn/multi-nb.ts';
import { binaryMetrics } from './learn/metrics.ts';
import { DEFAULT_MIN_DF, LinearClassifier, LinearRivals, MIN_RIVAL_EXAMPLES, oneVsRestShare, prepare, textGrams, trainOneVsRest, type LinearJSON, type LinearOptions, type RivalsJSON } from './learn/linear.ts';
import { groupKFold, kFoldIndices } from './learn/metrics.ts';
import { clipLogit, fitStacking, logit, populationSd, SHARPEN_RANGE, sharpenFromLogits } from './learn/blend.ts';
import { VERSION } from '../util/version.ts';

/** The `format` every model file carries. */
export const MODEL_FORMAT = 'focuscrawl-model';
/**
 * The highest `version` this code writes. Version 2 added link feature group 4 and
 * changed group 3's URL features (urlFeatures in learn/features.ts);
 * version 3 added `classifier` and, with `classifier: "linear"`, the
 * calibrated linear page judge and link classifier (`linear`); version 4
 * added `linear.rivals` (the one-vs-rest judge); version 5 stores the
 * linear parts compactly (LinearCompactJSON: vocabulary arrays, document
 * counts instead of idf, integer weights), a third of the bytes, and adds
 * `linear.rivals.power` (the share's power, 2 in new files: a version 4
 * reader would score the share to the power 1 at a threshold chosen for
 * power 2). A linear model is written as version 5 (an older focuscrawl
 * refuses it); a Naive Bayes one is still version 3, so an older
 * focuscrawl reads it. Versions 3 and 4 still load (the features layout;
 * version 4 rivals score with power 1).
 * `classifier: "blend"` (the stacked NB + linear link classifier, whose
 * linear part has the compact layout) is written as version 5 too.
 */
export const MODEL_VERSION = 5;
/**
 * Versions this code reads: a version 1 file is read as it is (groups 1
 * and 2 are unchanged), except one with group 3, which is refused with a
 * message to retrain.
 */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3, 4, 5];

/**
 * Which learner judges pages and scores links for nb-link / online:
 * Bernoulli NB (versions 1 and 2), the calibrated linear classifier, or
 * 'blend': NB's page judge and a link classifier stacking NB's and the
 * linear one's log odds (fitBlendLink).
 */
export type ClassifierKind = 'nb' | 'linear' | 'blend';
/**
 * Largest model file read (bytes); a larger one is refused unread
 * (FC_BAD_MODEL). The WebKB course model trained with the default caps
 * is 0.6 MiB (3.4 MiB linear: version 5, page judge min-df 3); the learners' caps bound any model
 * to a few tens of MiB.
 */
export const MAX_MODEL_BYTES = 64 * 1024 * 1024;
/** Page-probability threshold written into new models (P(target | page) ≥ it: relevant). */
export const DEFAULT_MODEL_THRESHOLD = 0.5;
/** Domain-dictionary size used when the trainer is not told otherwise. */
export const DEFAULT_DOMAIN_TERMS = 50;
/** Number of discriminative terms stored in `terms`. */
export const DEFAULT_TOPIC_TERMS = 30;
/** In-sample metrics are measured on at most this many examples per classifier (evenly spaced). */
export const ACCURACY_SAMPLE = 5000;

/** FC_BAD_MODEL; declared in src/errors.ts with every other code, exported here too for existing importers. */
export { ModelError };

/** In-sample quality of one classifier (on the examples it was fitted on). */
export interface InSampleMetrics {
  /** fraction predicted right at threshold 0.5 */
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
  /** ROC AUC; null when the sample has one class only */
  auc: number | null;
  /** examples measured (at most ACCURACY_SAMPLE) */
  n: number;
}

/** `training`: where the model came from (informational; never used for scoring). */
export interface TrainingInfo {
  /** 'warc' (WARC + labels/host lists) or 'texts' (labelled NDJSON texts) */
  source: string;
  /** input files, as given on the command line */
  files: string[];
  /** example counts (pages, pagePositives, links, linkPositives, and the reader's own counts) */
  counts: Record<string, number>;
  /** the options the model was trained with */
  options: Record<string, unknown>;
  /** wall time of reading and fitting, seconds */
  seconds: number;
  /** in-sample metrics per classifier: page, link, gaussian, kernel */
  inSample: Record<string, InSampleMetrics>;
}

/** The model file, version 3 (versions 1 and 2 have the same fields but `classifier` and `linear`). */
export interface ModelJSON {
  format: typeof MODEL_FORMAT;
  version: 1 | 2 | 3 | 4 | typeof MODEL_VERSION;
  /** version 3: 'linear' when `linear` judges pages and scores links; absent or 'nb': the Naive Bayes parts do */
  classifier?: ClassifierKind;
  /**
   * with classifier 'linear': the page judge over textGrams(pageMainText)
   * and the link classifier over linkGrams; `hubDensity`: a page whose
   * linkDensity is above it is a hub, never relevant; `rivals` (version 4 and 5,
   * texts labelled with several classes): the other classes' one-vs-rest
   * classifiers, the judge's score is then the target's share
   * (oneVsRestShare, to `rivals.power`: version 5) and `threshold` the
   * share's held-out cut
   */
  linear?: { page: LinearJSON; link: LinearJSON; hubDensity: number; rivals?: RivalsJSON };
  /**
   * with classifier 'blend': the linear link classifier (as `linear.link`)
   * and the stacking weights [a, b, c]: P = σ(a·logit(P_nb) + b·logit(P_lin) + c),
   * P_nb the `link.classifier`'s; `inner`: out-of-fold AUC of nb, linear and
   * blend on the folds the weights were fitted on (informational)
   */
  blend?: BlendJSON;
  target: string;
  createdBy: string;
  training: TrainingInfo;
  page: BernoulliNBJSON;
  link: { group: FeatureGroup; domainTerms: string[]; classifier: BernoulliNBJSON };
  kde: { vectorizer: TfIdfJSON; gaussian: ContinuousNBJSON; kernel: ContinuousNBJSON };
  terms: string[];
  threshold: number;
  /**
   * Optional (any version; `train --warc --layers`): the layered link
   * classifier of a context graph (Diligenti et al. 2000), over the link
   * features of `link.group` and `link.domainTerms`; classes 0..top, the
   * layer of the link's target (src/relevance/learn/layers.ts), `top` meaning "top
   * or more links from a target, or none".
   */
  layers?: {
    top: number;
    classifier: MultiNBJSON;
    /**
     * optional (`train --layers` since issue 22's learned context graph):
     * the page-layer classifier, over the page's own pageFeatures, classes
     * 0..top (the page's own layer), class-balanced
     */
    page?: MultiNBJSON;
    /**
     * optional, with `page`: transitions[j][k] = P(a link's layer is k | the
     * page it is on is in layer j), from the training links (Laplace-smoothed
     * counts, rows summing to 1)
     */
    transitions?: number[][];
  };
}

/** `blend` of a model file (classifier 'blend'). */
export interface BlendJSON {
  link: LinearJSON;
  weights: [number, number, number];
  inner?: Record<string, number>;
  /** optional (issue 24): K of nb-link-layers' `sharpen=auto`, sd of NB's ÷ the blend's out-of-fold log odds (sharpenFromLogits) */
  sharpen?: number;
}

/**
 * The tokens the TF-IDF link classifiers see: the anchor's tokens followed
 * by the context's, one bag (Zou et al., docs/algorithms.md#bayes-kde, treat the link context as one text).
 */
export function linkTokens(anchor: string, context: string, segmenter?: Segmenter): string[] {
  return [...tokenize(anchor, { segmenter }), ...tokenize(context, { segmenter })];
}

/** The features the linear page judge reads: textGrams of pageMainText. */
export function pageGrams(page: ParsedPage): string[] {
  return textGrams(pageMainText(page));
}

/**
 * The features the linear link classifier reads: textGrams of the anchor,
 * textGrams of the context both prefixed 'c:' (the anchor/context
 * distinction of Han et al. 2010, docs/algorithms.md#nb-link) and unprefixed (a context word is also evidence as the same
 * word in the anchor: held-out AUC on TNEWS 0.904 / 0.949 / 0.900 for
 * finance / sports / tech against 0.899 / 0.944 / 0.891 with 'c:' only,
 * RESULTS.md linear-cv), and for feature group 3 and up
 * urlFeatures of the target, for group 4 the parent title's grams prefixed
 * 'p:' and PARENT_RELEVANT_FLAG (as linkFeatures adds them).
 */
export function linkGrams(anchor: string, context: string, opts: { group: FeatureGroup; url?: string; parentUrl?: string; parentTitle?: string; parentRelevant?: boolean }): string[] {
  const out = [...textGrams(anchor), ...textGrams(context, 'c:'), ...textGrams(context)];
  if (opts.group >= 3) {
    // the URL and parent features of linkFeatures, without anchor/context words (no segmenter needed)
    const extra = linkFeatures('', '', { group: opts.group, url: opts.url, parentUrl: opts.parentUrl, parentRelevant: opts.parentRelevant });
    out.push(...extra);
    if (opts.group === 4 && opts.parentTitle) out.push(...textGrams(opts.parentTitle, 'p:'));
  }
  return out;
}

/**
 * The site of a URL, for grouping training examples by where they come
 * from: its host's last two labels (`www.cs.cornell.edu` -> `cornell.edu`),
 * or three when those look like a country's second level (`ox.ac.uk`:
 * a two-letter top level under a label of at most three letters). '' for a
 * string that is not an absolute URL. An approximation of the registrable
 * domain, without a public-suffix list.
 */
export function siteOf(url: string): string {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
  if (/^[\d.]+$/.test(host) || host.startsWith('[')) return host;
  const labels = host.split('.');
  const n = labels.length;
  const three = n >= 3 && labels[n - 1].length === 2 && labels[n - 2].length <= 3;
  return labels.slice(three ? -3 : -2).join('.');
}

/**
 * The linear link classifier of a model (fitModel with classifier
 * 'linear'), and the rows it was trained on. λ, Platt and the threshold
 * come from cross-validation over whole sites (the parent page's siteOf)
 * when every link example has a parent: crawls score links on sites
 * training never saw, and random folds rewarded memorising a site's URL
 * words and titles (docs/results/webkb-link-auc.md). One vector: URL,
 * parent and context features normalised apart were measured and lost
 * Cornell student (held-out AUC 0.748 against 0.784, same page).
 */
export function trainLinearLink(
  links: readonly LinkExample[],
  group: FeatureGroup,
  linearOptions?: LinearOptions,
): { link: LinearClassifier; rows: { features: string[]; label: 0 | 1 }[]; heldOut: Float64Array; folds: number[][] } {
  const rows = links.map((l) => ({
    features: linkGrams(l.anchor, l.context, { group, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant }),
    label: l.label,
  }));
  const sites = links.every((l) => l.parentUrl !== undefined) ? links.map((l) => siteOf(l.parentUrl!)) : undefined;
  const options: LinearOptions = { ...linearOptions, ...(sites === undefined ? {} : { groups: sites }) };
  const labels = rows.map((r) => r.label);
  const nPos = labels.reduce<number>((s, y) => s + y, 0);
  if (nPos === 0 || nPos === labels.length) throw new TypeError('LinearClassifier.train needs examples of both classes');
  const { classifier, heldOut } = LinearClassifier.fitPrepared(prepare(rows, options), labels, options);
  // the folds fitPrepared held out (the same rule: site groups, else seeded random folds)
  const k = options.folds ?? 3;
  const folds = (options.groups === undefined ? null : groupKFold(options.groups, k)) ?? kFoldIndices(rows.length, k, options.seed ?? 1);
  return { link: classifier, rows, heldOut, folds };
}

/**
 * The blended link classifier (issue 24, stacking): the linear link
 * classifier of trainLinearLink and weights [a, b, c] of
 * P = σ(a·logit(P_nb) + b·logit(P_lin) + c), a logistic regression
 * (fitStacking) on out-of-fold predictions of both: the linear model's
 * held-out probabilities from its own cross-validation, and NB's from
 * BernoulliNB fits on the same folds (whole sites held out when the links
 * have parents), over `nbExamples` (linkFeatures of the links, in the
 * same order; the model's domain terms, fitted on every page). Nothing of
 * a held-out university is seen: the folds are within the training data.
 */
export function fitBlendLink(
  links: readonly LinkExample[],
  nbExamples: readonly { features: string[]; label: 0 | 1 }[],
  group: FeatureGroup,
  opts: { balanced?: boolean; linearOptions?: LinearOptions } = {},
): { link: LinearClassifier; weights: [number, number, number]; inner: Record<string, number>; sharpen: number; rows: { features: string[]; label: 0 | 1 }[] } {
  const { link, rows, heldOut, folds } = trainLinearLink(links, group, opts.linearOptions);
  const n = links.length;
  const zNb = new Float64Array(n);
  for (const test of folds) {
    const inTest = new Uint8Array(n);
    for (const i of test) inTest[i] = 1;
    const train = nbExamples.filter((_, i) => inTest[i] === 0);
    // a fold whose training part lacks a class: NB says nothing (log odds 0)
    const pos = train.reduce((s, e) => s + e.label, 0);
    if (pos === 0 || pos === train.length) continue;
    const nb = BernoulliNB.train(train, { balanced: opts.balanced === true });
    for (const i of test) zNb[i] = clipLogit(nb.logOdds(nbExamples[i].features));
  }
  const zLin = Float64Array.from(heldOut, (p) => logit(p));
  const labels = rows.map((r) => r.label);
  const [a, b, c] = fitStacking([zNb, zLin], labels);
  const r4 = (x: number): number => Math.round(x * 10000) / 10000;
  const blended = Array.from(zNb, (z, i) => a * z + b * zLin[i] + c);
  const inner: Record<string, number> = { nb: r4(binaryMetrics(Array.from(zNb), labels).auc), linear: r4(binaryMetrics(Array.from(zLin), labels).auc), blend: r4(binaryMetrics(blended, labels).auc) };
  // informational (bench/webkb-link-auc.ts): the convex mix α·zNb/sdNb + (1−α)·zLin/sdLin of
  // the standardised logits whose out-of-fold AUC is highest (α in steps of 0.05, the lowest on ties)
  const [sdNb, sdLin] = [populationSd(zNb) || 1, populationSd(zLin) || 1];
  let bestMix = { alpha: 0, auc: -Infinity };
  for (let k = 0; k <= 20; k++) {
    const alpha = k / 20;
    const auc = binaryMetrics(Array.from(zNb, (z, i) => (alpha * z) / sdNb + ((1 - alpha) * zLin[i]) / sdLin), labels).auc;
    if (auc > bestMix.auc + 1e-9) bestMix = { alpha, auc };
  }
  Object.assign(inner, { mixAlpha: bestMix.alpha, mix: r4(bestMix.auc), sdNb: r4(sdNb), sdLinear: r4(sdLin) });
  return { link, weights: [a, b, c], inner, sharpen: sharpenFromLogits(zNb, blended), rows };
}

/** A loaded, validated model: the LearnedModel every learning strategy uses. */
export class Model implements LearnedModel {
  readonly target: string;
  readonly terms: readonly string[];
  /** P(target | page) at or above this counts as relevant */
  readonly threshold: number;
  /** link feature group: 1 anchor words, 2 + context words + domain flags (docs/algorithms.md#nb-link), 3 + target URL, 4 + parent title */
  readonly group: FeatureGroup;
  readonly domainTerms: ReadonlySet<string>;
  /** the validated file content */
  readonly json: ModelJSON;
  readonly #page: BernoulliNB;
  readonly #link: BernoulliNB;
  readonly #vectorizer: TfIdfVectorizer;
  readonly #gaussian: ContinuousNB;
  readonly #kernel: ContinuousNB;
  readonly #layers: MultiNB | null;
  readonly #pageLayers: MultiNB | null;
  /** P(link layer k | parent page layer j), or null without a page-layer classifier */
  readonly layerTransitions: readonly (readonly number[])[] | null;
  readonly #segmenter: Segmenter | undefined;
  /** the last layer of the layered link classifier (classes 0..top), or null when the model has none */
  readonly topLayer: number | null;
  readonly #linear: { page: LinearClassifier; link: LinearClassifier; hubDensity: number; rivals: LinearRivals | null } | null;
  readonly #blend: { link: LinearClassifier; weights: readonly [number, number, number] } | null;
  /** the learner behind pageProbability and linkProbability */
  readonly classifier: ClassifierKind;
  /** K of nb-link-layers' `sharpen=auto`: the model file's `blend.sharpen`, 1 without it (issue 24) */
  readonly linkSharpen: number;

  private constructor(
    json: ModelJSON,
    parts: { page: BernoulliNB; link: BernoulliNB; vectorizer: TfIdfVectorizer; gaussian: ContinuousNB; kernel: ContinuousNB; layers?: MultiNB | null; pageLayers?: { classifier: MultiNB; transitions: number[][] } | null; linear: { page: LinearClassifier; link: LinearClassifier; hubDensity: number; rivals: LinearRivals | null } | null; blend?: { link: LinearClassifier; weights: [number, number, number] } | null },
    segmenter?: Segmenter,
  ) {
    this.json = json;
    this.target = json.target;
    this.terms = Object.freeze([...json.terms]);
    this.threshold = json.threshold;
    this.group = json.link.group;
    this.domainTerms = new Set(json.link.domainTerms);
    this.#page = parts.page;
    this.#link = parts.link;
    this.#vectorizer = parts.vectorizer;
    this.#gaussian = parts.gaussian;
    this.#kernel = parts.kernel;
    this.#layers = parts.layers ?? null;
    this.topLayer = this.#layers === null ? null : this.#layers.classes - 1;
    this.#pageLayers = parts.pageLayers?.classifier ?? null;
    this.layerTransitions = parts.pageLayers?.transitions ?? null;
    this.#linear = parts.linear;
    this.#blend = parts.blend ?? null;
    this.classifier = parts.linear !== null ? 'linear' : this.#blend !== null ? 'blend' : 'nb';
    this.linkSharpen = this.#blend === null ? 1 : (json.blend?.sharpen ?? 1);
    this.#segmenter = segmenter;
  }

  /**
   * Validates a parsed model document and builds the model. `source` names
   * the file in messages. Throws ModelError (FC_BAD_MODEL) naming the first
   * problem: not an object, wrong `format`, `version` not in
   * READABLE_VERSIONS (or version 1 with group 3), or any
   * field missing or of the wrong type (the classifiers validate their own
   * parts). `segmenter` is used for Han text (default: the tokenizer's).
   */
  static fromJSON(json: unknown, source = 'model', segmenter?: Segmenter): Model {
    const bad = (what: string, cause?: unknown): never => {
      throw new ModelError(`${source}: ${what}`, cause === undefined ? undefined : { cause });
    };
    if (!isObject(json)) return bad(`expected a JSON object, got ${describe(json)}`);
    if (json.format !== MODEL_FORMAT) return bad(`not a focuscrawl model ("format" is ${describe(json.format)}, expected "${MODEL_FORMAT}")`);
    if (!READABLE_VERSIONS.includes(json.version as number)) {
      return bad(`unsupported model version ${describe(json.version)} (this focuscrawl reads versions ${READABLE_VERSIONS.join(', ')}; retrain with focuscrawl train)`);
    }
    if (typeof json.target !== 'string' || json.target === '') bad(`"target" must be a non-empty string, got ${describe(json.target)}`);
    if (typeof json.createdBy !== 'string') bad(`"createdBy" must be a string, got ${describe(json.createdBy)}`);
    checkTraining(json.training, bad);
    if (!isStringArray(json.terms)) bad(`"terms" must be an array of strings, got ${describe(json.terms)}`);
    const threshold = json.threshold;
    if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
      bad(`"threshold" must be a number between 0 and 1, got ${describe(threshold)}`);
    }
    const link = json.link;
    if (!isObject(link)) return bad(`"link" must be an object, got ${describe(link)}`);
    if (!isFeatureGroup(link.group)) bad(`"link.group" must be 1, 2, 3 or 4, got ${describe(link.group)}`);
    if (json.version === 1 && link.group === 3) {
      bad('a version 1 model with link feature group 3 (its URL features changed in version 2): retrain it with focuscrawl train --feature-group 3');
    }
    if (!isStringArray(link.domainTerms)) bad(`"link.domainTerms" must be an array of strings, got ${describe(link.domainTerms)}`);
    const kde = json.kde;
    if (!isObject(kde)) return bad(`"kde" must be an object, got ${describe(kde)}`);

    const part = <T>(name: string, value: unknown, make: (v: unknown) => T): T => {
      if (!isObject(value)) return bad(`"${name}" must be an object, got ${describe(value)}`);
      try {
        return make(value);
      } catch (err) {
        return bad(`"${name}" is malformed: ${(err as Error)?.message ?? String(err)}`, err);
      }
    };
    const page = part('page', json.page, (v) => BernoulliNB.fromJSON(v));
    const linkNb = part('link.classifier', link.classifier, (v) => BernoulliNB.fromJSON(v));
    const vectorizer = part('kde.vectorizer', kde.vectorizer, (v) => TfIdfVectorizer.fromJSON(v));
    const gaussian = part('kde.gaussian', kde.gaussian, (v) => ContinuousNB.fromJSON(v));
    const kernel = part('kde.kernel', kde.kernel, (v) => ContinuousNB.fromJSON(v));
    if (gaussian.density !== 'gaussian') bad(`"kde.gaussian" has density ${describe(gaussian.density)}, expected "gaussian"`);
    if (kernel.density !== 'kernel') bad(`"kde.kernel" has density ${describe(kernel.density)}, expected "kernel"`);
    let layers: MultiNB | null = null;
    let pageLayers: { classifier: MultiNB; transitions: number[][] } | null = null;
    if (json.layers !== undefined) {
      const l = json.layers;
      if (!isObject(l)) return bad(`"layers" must be an object, got ${describe(l)}`);
      layers = part('layers.classifier', l.classifier, (v) => MultiNB.fromJSON(v));
      if (l.top !== layers.classes - 1) bad(`"layers.top" must be ${layers.classes - 1} (its classifier's classes less one), got ${describe(l.top)}`);
      if (l.page !== undefined) {
        const C = layers.classes;
        const classifier = part('layers.page', l.page, (v) => MultiNB.fromJSON(v));
        if (classifier.classes !== C) bad(`"layers.page" must have ${C} classes (as "layers.classifier"), got ${classifier.classes}`);
        const t = l.transitions;
        const row = (r: unknown): boolean => Array.isArray(r) && r.length === C && r.every((x) => typeof x === 'number' && x >= 0 && x <= 1) && Math.abs(r.reduce((a: number, b: number) => a + b, 0) - 1) < 1e-6;
        if (!Array.isArray(t) || t.length !== C || !t.every(row)) bad(`"layers.transitions" must be ${C} rows of ${C} probabilities summing to 1 (with "layers.page"), got ${describe(t)}`);
        pageLayers = { classifier, transitions: t as number[][] };
      } else if (l.transitions !== undefined) bad('"layers.transitions" needs "layers.page"');
    }
    let linear: { page: LinearClassifier; link: LinearClassifier; hubDensity: number; rivals: LinearRivals | null } | null = null;
    let blend: { link: LinearClassifier; weights: [number, number, number] } | null = null;
    if (json.version === 3 || json.version === 4 || json.version === 5) {
      // version 5: the compact layout of the linear parts; 3 and 4: the features layout
      const layout = json.version === 5 ? 'compact' : 'features';
      const kind = json.classifier ?? 'nb';
      if (kind !== 'nb' && kind !== 'linear' && kind !== 'blend') bad(`"classifier" must be "nb", "linear" or "blend", got ${describe(kind)}`);
      if (kind === 'blend') {
        const bl = json.blend;
        if (!isObject(bl)) return bad(`"blend" must be an object when "classifier" is "blend", got ${describe(bl)}`);
        const w = bl.weights;
        if (!Array.isArray(w) || w.length !== 3 || !w.every((x) => typeof x === 'number' && Number.isFinite(x))) bad(`"blend.weights" must be three finite numbers, got ${describe(w)}`);
        if (bl.sharpen !== undefined && !(typeof bl.sharpen === 'number' && bl.sharpen >= SHARPEN_RANGE[0] && bl.sharpen <= SHARPEN_RANGE[1])) bad(`"blend.sharpen" must be a number in [${SHARPEN_RANGE.join(', ')}] when given, got ${describe(bl.sharpen)}`);
        blend = { link: part('blend.link', bl.link, (v) => LinearClassifier.fromJSON(v, layout)), weights: [...(w as number[])] as [number, number, number] };
      }
      if (kind === 'linear') {
        const lin = json.linear;
        if (!isObject(lin)) return bad(`"linear" must be an object when "classifier" is "linear", got ${describe(lin)}`);
        const hubDensity = lin.hubDensity;
        if (typeof hubDensity !== 'number' || !(hubDensity > 0 && hubDensity <= 1)) bad(`"linear.hubDensity" must be a number in (0, 1], got ${describe(hubDensity)}`);
        const pageLin = part('linear.page', lin.page, (v) => LinearClassifier.fromJSON(v, layout));
        let rivals: LinearRivals | null = null;
        if (lin.rivals !== undefined) {
          if (json.version === 3) bad(`"linear.rivals" needs model version 4 or 5, this file is version ${describe(json.version)}`);
          if (json.version === 4 && isObject(lin.rivals) && lin.rivals.power !== undefined) bad('"linear.rivals.power" needs model version 5, this file is version 4');
          rivals = part('linear.rivals', lin.rivals, (v) => LinearRivals.fromJSON(v, pageLin));
        }
        linear = {
          page: pageLin,
          link: part('linear.link', lin.link, (v) => LinearClassifier.fromJSON(v, layout)),
          hubDensity: hubDensity as number,
          rivals,
        };
      }
    } else if ((json.classifier !== undefined && json.classifier !== 'nb') || json.linear !== undefined || json.blend !== undefined) {
      bad(`a linear or blended classifier needs model version 3, 4 or 5, this file is version ${describe(json.version)}`);
    }
    return new Model(json as unknown as ModelJSON, { page, link: linkNb, vectorizer, gaussian, kernel, layers, pageLayers, linear, blend }, segmenter);
  }

  /**
   * P(target | page). Naive Bayes models: the page classifier over
   * pageFeatures (learn/features.ts). Linear models: 0 for a hub (a page
   * whose linkDensity is above `linear.hubDensity`: its own text is a small
   * part of it), else the calibrated linear judge over the character
   * n-grams of pageMainText (title, headings, content: no anchors, no
   * navigation), whose L2-normalised TF-IDF vector makes a whole page and a
   * one-line training text comparable. With `linear.rivals` (version 4
   * and 5): the target's share of the one-vs-rest probabilities of every
   * class (oneVsRestShare, to the file's power: 1 in version 4), so a page whose words are more another class's
   * than the target's is not the target's.
   */
  pageProbability(page: ParsedPage): number {
    const lin = this.#linear;
    if (lin === null) return this.#page.probability(pageFeatures(page, { segmenter: this.#segmenter }));
    if (linkDensity(page) > lin.hubDensity) return 0;
    const texts: [string, string][] = [[pageMainText(page), '']];
    const p = lin.page.calibrate(lin.page.marginOfTexts(texts));
    return lin.rivals === null ? p : oneVsRestShare(p, lin.rivals.probabilitiesOfTexts(texts), lin.rivals.power);
  }

  /**
   * P(+ | link context): Bernoulli NB over linkFeatures of the model's group
   * and domain terms (docs/algorithms.md#nb-link). `url` (the target) and `parent` (the page
   * the link is on) feed groups 3 and 4; lower groups ignore them.
   */
  linkProbability(anchor: string, context: string, url?: string, parent?: LinkParent): number {
    if (this.#linear !== null) return this.#linear.link.calibrate(this.#linearLinkMargin(this.#linear.link, anchor, context, url, parent));
    const nb = this.#link.logOdds(
      linkFeatures(anchor, context, { group: this.group, domainTerms: this.domainTerms, segmenter: this.#segmenter, url, parentUrl: parent?.url, parentTitle: parent?.title, parentRelevant: parent?.relevant }),
    );
    if (this.#blend === null) return sigmoid(nb);
    // the stacked classifier: σ(a·logit(P_nb) + b·logit(P_lin) + c), logits clipped as in fitBlendLink
    const { link, weights } = this.#blend;
    const lin = clipLogit(link.platt[0] * this.#linearLinkMargin(link, anchor, context, url, parent) + link.platt[1]);
    return sigmoid(weights[0] * clipLogit(nb) + weights[1] * lin + weights[2]);
  }

  /** The margin of a linear link classifier on linkGrams(...), without building the grams (LinearClassifier.marginOfTexts). */
  #linearLinkMargin(link: LinearClassifier, anchor: string, context: string, url?: string, parent?: LinkParent): number {
    if (this.group < 3) return link.marginOfTexts([[anchor, ''], [context, 'c:'], [context, '']]);
    const extra = linkFeatures('', '', { group: this.group, url, parentUrl: parent?.url, parentRelevant: parent?.relevant });
    const texts: [string, string][] = [[anchor, ''], [context, 'c:'], [context, '']];
    if (this.group === 4 && parent?.title) texts.push([parent.title, 'p:']);
    return link.marginOfTexts(texts, extra);
  }

  /**
   * P(layer k | link) for k = 0..topLayer: the layered link classifier of
   * a context graph over the same features as linkProbability; null when
   * the model has no `layers` section.
   */
  layerProbabilities(anchor: string, context: string, url?: string, parent?: LinkParent): number[] | null {
    if (this.#layers === null) return null;
    return this.#layers.probabilities(
      linkFeatures(anchor, context, { group: this.group, domainTerms: this.domainTerms, segmenter: this.#segmenter, url, parentUrl: parent?.url, parentTitle: parent?.title, parentRelevant: parent?.relevant }),
    );
  }

  /**
   * P(layer j | page) for j = 0..topLayer: the page-layer classifier over
   * the page's own pageFeatures (how many links the page is from a target);
   * null when the model has none (trained before it, or without --layers).
   */
  pageLayerProbabilities(page: ParsedPage): number[] | null {
    if (this.#pageLayers === null) return null;
    return this.#pageLayers.probabilities(pageFeatures(page, { segmenter: this.#segmenter }));
  }

  /** P(+ | link context): continuous NB over the TF-IDF vector of linkTokens(anchor, context) (docs/algorithms.md#bayes-kde). */
  kdeProbability(anchor: string, context: string, density: 'gaussian' | 'kernel'): number {
    const nb = density === 'gaussian' ? this.#gaussian : this.#kernel;
    return nb.probability(this.#vectorizer.transform(linkTokens(anchor, context, this.#segmenter)));
  }
}

/**
 * Reads and validates a model file (see Model.fromJSON). Throws ModelError
 * (FC_BAD_MODEL) when the file is missing, unreadable, not JSON (e.g.
 * truncated), of another format or version, or malformed.
 */
export async function loadModel(path: string, segmenter?: Segmenter): Promise<Model> {
  let bytes: Buffer | null;
  try {
    bytes = await readCapped(path, MAX_MODEL_BYTES);
  } catch (err) {
    throw new ModelError(`cannot read model file ${path}: ${(err as Error).message}`, { cause: err });
  }
  if (bytes === null) throw new ModelError(`${path}: too large: more than ${formatBytes(MAX_MODEL_BYTES)}, the cap on model files`);
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new ModelError(`${path}: empty file, expected a model from focuscrawl train`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ModelError(`${path}: not valid JSON (truncated or corrupt?): ${(err as Error).message}`, { cause: err });
  }
  return Model.fromJSON(json, path, segmenter);
}

/**
 * Writes a model document atomically: to a temporary file beside `path`,
 * then renamed over it, so a reader never sees half a model. Throws
 * UsageError (FC_USAGE) when the file cannot be written (e.g. its folder
 * does not exist).
 */
export async function saveModel(path: string, json: ModelJSON): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, JSON.stringify(json) + '\n', { flag: 'wx' });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw new UsageError(`cannot write model file ${path}: ${(err as Error).message}`, { cause: err });
  }
}

// ---- fitting ----------------------------------------------------------------

/** A labelled page, already reduced to its features (pageFeatures). */
export interface PageExample {
  features: string[];
  label: 0 | 1;
  /** the linear judge's features (pageGrams); required to fit classifier 'linear' */
  grams?: string[];
  /** the example's own class (labelled texts): with several classes, the linear judge is one-vs-rest (trainOneVsRest) */
  cls?: string;
}

/** A labelled link: the link context of a link whose target's label is known. */
export interface LinkExample {
  anchor: string;
  context: string;
  label: 0 | 1;
  /** the link's target URL (feature groups 3 and 4); absent for text examples */
  url?: string;
  /** URL of the page the link is on (groups 3 and 4: same-host flag); absent for text examples */
  parentUrl?: string;
  /** title of the page the link is on (group 4); absent for text examples */
  parentTitle?: string;
  /** the page the link is on is a target page (group 4); absent when unknown */
  parentRelevant?: boolean;
}

/** A link labelled with the context-graph layer of its target (src/relevance/learn/layers.ts). */
export interface LayerLinkExample extends Omit<LinkExample, 'label'> {
  /** 0..top */
  layer: number;
  /** the layer of the page the link is on (0..top), when known */
  parentLayer?: number;
}

/** A page (its pageFeatures) labelled with its own context-graph layer. */
export interface LayerPageExample {
  features: string[];
  /** 0..top */
  layer: number;
}

/** What a reader (src/train/from-*.ts) hands to fitModel. */
export interface TrainingData {
  /** 'warc' or 'texts' */
  source: string;
  files: string[];
  pages: PageExample[];
  links: LinkExample[];
  /** the reader's own counts (rows, skipped lines, ...), copied into training.counts */
  counts: Record<string, number>;
  /** the reader's options, copied into training.options */
  options: Record<string, unknown>;
  /** wall time the reader took, seconds (added to training.seconds) */
  seconds: number;
  /** with `train --layers`: links labelled with their target's layer, 0..layerTop (a `layers` section is fitted) */
  layerLinks?: LayerLinkExample[];
  /** with `train --layers`: pages labelled with their own layer (a `layers.page` classifier is fitted) */
  layerPages?: LayerPageExample[];
  /** the last layer of layerLinks */
  layerTop?: number;
}

/** Options of fitModel. */
export interface FitOptions {
  /** the label the model finds (recorded as `target`) */
  target: string;
  /** link feature group (default 2) */
  group?: FeatureGroup;
  /** domain dictionary size (default DEFAULT_DOMAIN_TERMS) */
  domainTerms?: number;
  /** number of `terms` (default DEFAULT_TOPIC_TERMS) */
  terms?: number;
  /** class-balanced link classifier (BernoulliNBOptions.balanced; default false) */
  balancedLinks?: boolean;
  /** 'linear': also fit the calibrated linear page judge and link classifier, which then score; 'blend': the NB page judge and the stacked link classifier of fitBlendLink (default 'nb') */
  classifier?: ClassifierKind;
  /** linear only: link density above which a page is a hub (default DEFAULT_HUB_DENSITY) */
  hubDensity?: number;
  /**
   * linear only: judge pages one-vs-rest against the other classes of the
   * page examples (their `cls`) when at least two other classes have
   * MIN_RIVAL_EXAMPLES examples (default true; false: the target-vs-rest
   * judge of version 3)
   */
  rivals?: boolean;
  /** linear only: options of LinearClassifier.train (tests use fewer lambdas) */
  linearOptions?: LinearOptions;
  /**
   * linear only: the page judge's (and its rivals') minimum document count
   * (LinearOptions.minDf; default linearOptions.minDf, else DEFAULT_MIN_DF);
   * the link classifier keeps linearOptions.minDf. `train --warc` passes
   * DEFAULT_WARC_PAGE_MIN_DF (docs/results/model-size.md).
   */
  pageMinDf?: number;
  segmenter?: Segmenter;
}

/**
 * Link density above which the linear judge calls a page a hub (not
 * relevant whatever it links to): more than four fifths of its visible
 * text is link text. How it was chosen: a round number between the
 * article and hub densities of one generated portal web (split 0, web 1
 * of bench/page-judge.ts: articles with related-article lists median 0.50,
 * at most 0.68; hubs median 0.98; homes 0.99), i.e. by eye on a web that
 * is also evaluated; texts-trained models have no pages to choose it on.
 * It matters little there: without the rule, at the held-out threshold
 * (measured with the refit weights, before the fold mean of LinearClassifier),
 * precision / recall on that web were finance 0.50 / 0.65 (0.51 / 0.65
 * with it), sports 0.94 / 0.82 (0.95 / 0.82), tech 0.57 / 0.89 (0.62 / 0.89).
 */
export const DEFAULT_HUB_DENSITY = 0.8;

/**
 * `train --warc`'s minimum document count of the linear page judge
 * (FitOptions.pageMinDf; `--page-min-df`). Chosen by leave-one-university-out
 * page AUC on WebKB (bench/webkb-page-auc.ts, docs/results/model-size.md):
 * 3 loses at most 0.0020 in every (university, target) cell and makes the
 * course model 3.45 MiB (5.01 with 2); 4 (2.84 MiB) lost 0.0032 for Texas
 * course, beyond the 0.003 allowed.
 */
export const DEFAULT_WARC_PAGE_MIN_DF = 3;

/** The unprefixed tokens of a page's features (pageFeatures adds 't:' title features, tokens never contain ':'). */
function pageTokens(features: readonly string[]): string[] {
  return features.filter((f) => !f.startsWith('t:'));
}

const DIGITS_ONLY = /^\p{Nd}+$/u;

/**
 * The `size` tokens most typical of the positive examples: the z-score of
 * the log odds ratio of a token occurring in a positive vs a negative
 * example (document counts, each example counts a token once, +½ in every
 * cell):
 *   δ = ln((d₊+½)/(n₊−d₊+½)) − ln((d₋+½)/(n₋−d₋+½)),
 *   z = δ / sqrt(1/(d₊+½) + 1/(n₊−d₊+½) + 1/(d₋+½) + 1/(n₋−d₋+½)).
 * Dividing by the standard error ranks a token found in most positive
 * examples above one found in two positives and no negative (the plain
 * smoothed log odds favours such rare tokens). Kept: z > 0, d₊ ≥ 2, not
 * all digits. Order: z descending, then d₊ descending, then the token.
 */
export function discriminativeTerms(examples: Iterable<{ tokens: readonly string[]; label: 0 | 1 }>, size: number): string[] {
  const { nPos, nNeg, df } = classDocFreq(examples);
  const scored: [string, number, number][] = [];
  for (const [t, [p, n]] of df) {
    if (p < 2 || DIGITS_ONLY.test(t)) continue;
    const delta = Math.log((p + 0.5) / (nPos - p + 0.5)) - Math.log((n + 0.5) / (nNeg - n + 0.5));
    const z = delta / Math.sqrt(1 / (p + 0.5) + 1 / (nPos - p + 0.5) + 1 / (n + 0.5) + 1 / (nNeg - n + 0.5));
    if (z > 0) scored.push([t, z, p]);
  }
  scored.sort((a, b) => b[1] - a[1] || b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return scored.slice(0, size).map(([t]) => t);
}

/**
 * Fits every part of a model from `data` and returns the model document
 * (not yet saved) and the loaded model.
 *
 * - page: BernoulliNB on the page examples' features.
 * - domain terms: discriminativeTerms over the page examples' tokens (pages
 *   of the target vs the rest), `domainTerms` of them (group 2 only);
 *   `terms` is the top `terms` of the same ranking.
 * - link: BernoulliNB on linkFeatures(anchor, context, group, domain terms),
 *   class-balanced when `balancedLinks`.
 * - kde: TF-IDF vectorizer fitted on linkTokens of the link examples, then
 *   ContinuousNB with Gaussian and with kernel densities on their vectors.
 * Each learner runs with its own default options (src/learn/).
 *
 * Classes are not reweighted or resampled: the priors are the class
 * frequencies of the examples (the counts are in `training.counts`).
 * Throws UsageError (FC_USAGE) when either example set lacks a class.
 */
export function fitModel(data: TrainingData, opts: FitOptions): { json: ModelJSON; model: Model } {
  const started = performance.now();
  const group = opts.group ?? 2;
  const segmenter = opts.segmenter;
  const pagePositives = data.pages.reduce((n, p) => n + p.label, 0);
  const linkPositives = data.links.reduce((n, l) => n + l.label, 0);
  requireBothClasses('page', data.pages.length, pagePositives, opts.target);
  requireBothClasses('link', data.links.length, linkPositives, opts.target);

  const page = BernoulliNB.train(data.pages);

  const tokenDocs = data.pages.map((p) => ({ tokens: pageTokens(p.features), label: p.label }));
  const domainTerms = group >= 2 ? discriminativeTerms(tokenDocs, opts.domainTerms ?? DEFAULT_DOMAIN_TERMS) : [];
  const terms = discriminativeTerms(tokenDocs, opts.terms ?? DEFAULT_TOPIC_TERMS);
  const domainSet = new Set(domainTerms);

  const linkExamples = data.links.map((l) => ({
    features: linkFeatures(l.anchor, l.context, { group, domainTerms: domainSet, segmenter, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant }),
    label: l.label,
  }));
  const link = BernoulliNB.train(linkExamples, { balanced: opts.balancedLinks === true });

  const bags = data.links.map((l) => linkTokens(l.anchor, l.context, segmenter));
  const vectorizer = TfIdfVectorizer.fit(bags);
  const vectors = bags.map((b) => vectorizer.transform(b));
  const labels = data.links.map((l) => l.label);
  const gaussian = ContinuousNB.train(vectors, labels, { density: 'gaussian' });
  const kernel = ContinuousNB.train(vectors, labels, { density: 'kernel' });

  // the layered link classifier (context graph): class-balanced with a
  // uniform prior, fixed a priori (the far layer is most links)
  let layers: ModelJSON['layers'];
  let layerCounts: Record<string, number> = {};
  if (data.layerLinks !== undefined && data.layerLinks.length > 0) {
    const top = data.layerTop ?? Math.max(...data.layerLinks.map((l) => l.layer));
    const layerExamples = data.layerLinks.map((l) => ({
      features: linkFeatures(l.anchor, l.context, { group, domainTerms: domainSet, segmenter, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant }),
      label: l.layer,
    }));
    const nb = MultiNB.train(layerExamples, top + 1, { balanced: true });
    layers = { top, classifier: nb.toJSON() };
    layerCounts = Object.fromEntries(nb.classCounts.map((n, k) => [`layer${k}Links`, n]));
    // the page-layer classifier (a page's layer from its own text, classified
    // once per page and propagated to its links through the transitions),
    // class-balanced as the link one: layer 0..2 pages are few
    const withParent = data.layerLinks.filter((l) => l.parentLayer !== undefined);
    if (data.layerPages !== undefined && new Set(data.layerPages.map((p) => p.layer)).size >= 2 && withParent.length > 0) {
      const pageNb = MultiNB.train(data.layerPages.map((p) => ({ features: p.features, label: p.layer })), top + 1, { balanced: true });
      const counts = Array.from({ length: top + 1 }, () => new Array<number>(top + 1).fill(1));
      for (const l of withParent) counts[l.parentLayer!]![l.layer]!++;
      const transitions = counts.map((r) => {
        const n = r.reduce((a, b) => a + b, 0);
        return r.map((c) => c / n);
      });
      layers = { ...layers, page: pageNb.toJSON(), transitions };
      for (const [k, n] of pageNb.classCounts.entries()) layerCounts[`layer${k}Pages`] = n;
    }
  }

  const inSample: Record<string, InSampleMetrics> = {
    page: measure(data.pages, (p) => page.probability(p.features)),
    link: measure(linkExamples, (l) => link.probability(l.features)),
  };
  const indexed = vectors.map((v, i) => ({ v, label: labels[i] }));
  inSample.gaussian = measure(indexed, (x) => gaussian.probability(x.v));
  inSample.kernel = measure(indexed, (x) => kernel.probability(x.v));

  let linear: ModelJSON['linear'];
  const classifier = opts.classifier ?? 'nb';
  const minDf = opts.linearOptions?.minDf ?? DEFAULT_MIN_DF;
  const pageMinDf = opts.pageMinDf ?? minDf;
  if (classifier === 'linear') {
    const pageRows = data.pages.map((p) => {
      if (p.grams === undefined) throw new UsageError('cannot train a linear page judge: the page examples carry no text grams');
      return { features: p.grams, label: p.label };
    });
    // Platt and the threshold from held-out examples shaped as the judge reads
    // them (pageGrams of each held-out example's own page), see LinearClassifier
    // one vs rest when every page example has a class and at least two other classes can be rivals
    const perClass = new Map<string | undefined, number>();
    for (const p of data.pages) perClass.set(p.cls, (perClass.get(p.cls) ?? 0) + 1);
    const rivalClasses = [...perClass].filter(([c, n]) => c !== opts.target && n >= MIN_RIVAL_EXAMPLES).length;
    const oneVsRest = opts.rivals !== false && !perClass.has(undefined) && perClass.has(opts.target) && rivalClasses >= 2;
    let linearPage: LinearClassifier;
    let rivals: LinearRivals | undefined;
    const pageOptions: LinearOptions = { ...opts.linearOptions, minDf: pageMinDf };
    if (oneVsRest) {
      const ovr = trainOneVsRest(data.pages.map((p) => ({ features: p.grams!, cls: p.cls! })), opts.target, pageOptions);
      linearPage = ovr.target;
      rivals = ovr.rivals;
      inSample.linearPage = measure(pageRows, (p) => oneVsRestShare(ovr.target.probability(p.features), ovr.rivals.probabilities(p.features), ovr.rivals.power));
    } else {
      linearPage = LinearClassifier.train(pageRows, pageOptions);
      inSample.linearPage = measure(pageRows, (p) => linearPage.probability(p.features));
    }
    const { link: linearLink, rows: linkRows } = trainLinearLink(data.links, group, opts.linearOptions);
    inSample.linearLink = measure(linkRows, (l) => linearLink.probability(l.features));
    linear = { page: linearPage.toJSON(), link: linearLink.toJSON(), hubDensity: opts.hubDensity ?? DEFAULT_HUB_DENSITY, ...(rivals === undefined ? {} : { rivals: rivals.toJSON() }) };
  }
  let blend: BlendJSON | undefined;
  if (classifier === 'blend') {
    const fitted = fitBlendLink(data.links, linkExamples, group, { balanced: opts.balancedLinks === true, linearOptions: opts.linearOptions });
    blend = { link: fitted.link.toJSON(), weights: fitted.weights, inner: fitted.inner, sharpen: fitted.sharpen };
    const [wa, wb, wc] = fitted.weights;
    const indexedLinks = linkExamples.map((e, i) => ({ i, label: e.label }));
    inSample.blendLink = measure(indexedLinks, ({ i }) => sigmoid(wa * clipLogit(link.logOdds(linkExamples[i].features)) + wb * logit(fitted.link.probability(fitted.rows[i].features)) + wc));
  }

  const seconds = data.seconds + (performance.now() - started) / 1000;
  const json: ModelJSON = {
    format: MODEL_FORMAT,
    // linear parts: the compact layout of version 5; Naive Bayes only: version 3, which older readers read
    version: linear === undefined && blend === undefined ? 3 : MODEL_VERSION,
    target: opts.target,
    createdBy: `focuscrawl ${VERSION}`,
    training: {
      source: data.source,
      files: [...data.files],
      counts: { ...data.counts, pages: data.pages.length, pagePositives, links: data.links.length, linkPositives, ...layerCounts },
      options: { ...data.options, group, classifier, ...(opts.balancedLinks === true ? { balancedLinks: true } : {}), domainTerms: opts.domainTerms ?? DEFAULT_DOMAIN_TERMS, terms: opts.terms ?? DEFAULT_TOPIC_TERMS, ...(classifier === 'linear' ? { minDf, pageMinDf } : {}) },
      seconds: Math.round(seconds * 1000) / 1000,
      inSample,
    },
    page: page.toJSON(),
    link: { group, domainTerms, classifier: link.toJSON() },
    kde: { vectorizer: vectorizer.toJSON(), gaussian: gaussian.toJSON(), kernel: kernel.toJSON() },
    terms,
    // linear: the judge's F1-maximising cut on held-out examples (LinearClassifier.threshold)
    // one-vs-rest: the same cut of the target's share (LinearRivals.threshold)
    threshold: linear === undefined ? DEFAULT_MODEL_THRESHOLD : (linear.rivals?.threshold ?? linear.page.threshold ?? DEFAULT_MODEL_THRESHOLD),
    classifier,
    ...(linear === undefined ? {} : { linear }),
    ...(blend === undefined ? {} : { blend }),
    ...(layers === undefined ? {} : { layers }),
  };
  // Round-trip, so the model returned is exactly what loading the saved file gives.
  const saved = JSON.parse(JSON.stringify(json)) as ModelJSON;
  return { json: saved, model: Model.fromJSON(saved, 'trained model', segmenter) };
}

function requireBothClasses(kind: string, n: number, positives: number, target: string): void {
  if (positives === 0 || positives === n) {
    const what = n === 0 ? 'none' : positives === 0 ? `all ${n} are not ${JSON.stringify(target)}` : `all ${n} are ${JSON.stringify(target)}`;
    throw new UsageError(`cannot train: the ${kind} classifier needs examples of both classes (${kind} examples: ${what})`);
  }
}

/** In-sample metrics of `score` on at most ACCURACY_SAMPLE evenly spaced items. */
function measure<T extends { label: 0 | 1 }>(items: readonly T[], score: (item: T) => number): InSampleMetrics {
  const step = Math.max(1, items.length / ACCURACY_SAMPLE);
  const scores: number[] = [];
  const labels: (0 | 1)[] = [];
  let right = 0;
  for (let i = 0; i < items.length; i += step) {
    const item = items[Math.floor(i)];
    const s = score(item);
    scores.push(s);
    labels.push(item.label);
    if ((s > 0.5 ? 1 : 0) === item.label) right++;
  }
  const m = binaryMetrics(scores, labels);
  const r = (x: number): number => Math.round(x * 10000) / 10000;
  return { accuracy: r(right / Math.max(1, scores.length)), precision: r(m.precision), recall: r(m.recall), f1: r(m.f1), auc: Number.isNaN(m.auc) ? null : r(m.auc), n: scores.length };
}

// ---- validation helpers ------------------------------------------------------

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function checkTraining(t: unknown, bad: (what: string) => never): void {
  if (!isObject(t)) bad(`"training" must be an object, got ${describe(t)}`);
  const o = t as Record<string, unknown>;
  if (typeof o.source !== 'string') bad(`"training.source" must be a string, got ${describe(o.source)}`);
  if (!isObject(o.counts) || !Object.values(o.counts).every((n) => typeof n === 'number' && Number.isFinite(n))) {
    bad(`"training.counts" must be an object of numbers, got ${describe(o.counts)}`);
  }
  if (!isObject(o.options)) bad(`"training.options" must be an object, got ${describe(o.options)}`);
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
