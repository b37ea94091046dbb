/**
 * `focuscrawl train`: fit a model file (src/relevance/model.ts) from a WARC plus
 * labels, or from labelled NDJSON texts. Progress and the summary go to
 * stderr; stdout stays empty (except --help).
 */
import { helpText, parseCommand, type CommandSpec } from './args.ts';
import type { Writable } from 'node:stream';
import { exitStatusOf, FocuscrawlError, UsageError } from '../errors.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from '../output/terminal.ts';
import { DEFAULT_DOMAIN_TERMS, DEFAULT_TOPIC_TERMS, DEFAULT_WARC_PAGE_MIN_DF, fitModel, saveModel, type ClassifierKind, type InSampleMetrics, type TrainingData } from '../relevance/model.ts';
import { DEFAULT_MAX_EXAMPLES, readTexts } from '../relevance/train/from-texts.ts';
import { readWarc } from '../relevance/train/from-warc.ts';
import { parseWhere } from '../relevance/train/where.ts';
import { isFeatureGroup } from '../relevance/learn/features.ts';
import { DEFAULT_MIN_DF } from '../relevance/learn/linear.ts';

const WARC = 'From a WARC (pages parsed as the crawler parses them)';
const TEXTS = 'From labelled texts (NDJSON, one object a line; malformed lines are skipped)';
const COMMON = 'Common';

export const TRAIN_SPEC: CommandSpec = {
  name: 'train',
  usage: [
    'train --warc FILE... --labels FILE --target LABEL [--where COL[!]=VAL]... [--positive-hosts FILE] [--negative-hosts FILE] --out MODEL.json [options]',
    'train --texts FILE.ndjson... --text-field F --label-field F --target LABEL [--context-field F] --out MODEL.json [options]',
  ],
  summary:
    'Fit a model for --model strategies: a page classifier (relevance judge), a Bernoulli Naive Bayes link-context classifier (Han et al. 2010, docs/algorithms.md#nb-link) and TF-IDF Naive Bayes link classifiers with Gaussian and kernel densities (Zou et al. 2009, docs/algorithms.md#bayes-kde).',
  flags: [
    { group: WARC, name: 'warc', type: 'string', value: 'FILE', multiple: true, help: 'WARC file (.warc or .warc.gz)' },
    { group: WARC, name: 'labels', type: 'string', value: 'FILE', help: 'TSV with a header row: url<TAB>label<TAB>...; labelled pages are page examples, links to labelled URLs link examples' },
    { group: WARC, name: 'where', type: 'string', value: 'COL=VAL', multiple: true, help: 'use only label rows whose column COL is VAL (COL!=VAL: is not VAL; all must hold); other rows are not used at all (keeps them unseen)' },
    { group: WARC, name: 'positive-hosts', type: 'string', value: 'FILE', help: 'links to these hosts (one a line) are positive examples (Han et al. 2010, algorithm 2: docs/algorithms.md#automatic-link-labels); pages on them are page examples when the labels file has no row' },
    { group: WARC, name: 'negative-hosts', type: 'string', value: 'FILE', help: 'links to these hosts are negative examples' },
    { group: WARC, name: 'hub-links', type: 'boolean', negatable: true, defaultText: 'on', help: "also count as positive a link to a page that links to a target page other than the link's own page (a hub one step away; context-graph level 1); off: only links to target pages" },
    { group: WARC, name: 'layers', type: 'boolean', negatable: true, defaultText: 'on', help: "also fit a layered link classifier (context graph, Diligenti et al. 2000): links labelled with their target's distance to a target page (0, 1, 2, 3+) in the WARC's link graph; used by the default nb-link-layers and by context-graph (docs/context-graph.md); off: a model half the size that crawls with nb-link" },
    { group: TEXTS, name: 'texts', type: 'string', value: 'FILE', multiple: true, help: 'NDJSON file' },
    { group: TEXTS, name: 'text-field', type: 'string', value: 'F', help: 'field with the text: the anchor of a link example and the text of a page example' },
    { group: TEXTS, name: 'label-field', type: 'string', value: 'F', help: 'field with the label' },
    { group: TEXTS, name: 'context-field', type: 'string', value: 'F', help: 'optional field with the link context' },
    { group: COMMON, name: 'target', type: 'string', value: 'LABEL', help: 'the label to find (positive class)' },
    { group: COMMON, name: 'out', type: 'string', value: 'FILE', help: 'where to write the model (atomically)' },
    { group: COMMON, name: 'feature-group', type: 'choice', value: '1|2|3|4', choices: ['1', '2', '3', '4'], defaultText: '4 with --warc, 2 with --texts, whose examples have no URL or page', help: "link features: 1 anchor words, 2 anchor + context words + domain flags (Han et al. 2010, docs/algorithms.md#nb-link), 3 group 2 + the link's URL (path words, same-host, depth, extension flags), 4 group 3 + words of the title of the page it is on" },
    { group: COMMON, name: 'balanced-links', type: 'boolean', negatable: true, defaultText: 'on with --warc, off with --texts', help: "class-balanced link classifier: each class's counts scaled to half the examples before smoothing (as if trained on a balanced set, like Han et al.'s, docs/algorithms.md#nb-link); off: the classes' own counts" },
    { group: COMMON, name: 'domain-terms', type: 'int', min: 0, max: 1_000_000, default: DEFAULT_DOMAIN_TERMS, help: 'size of the mined domain dictionary' },
    { group: COMMON, name: 'terms', type: 'int', min: 1, max: 1_000_000, default: DEFAULT_TOPIC_TERMS, help: "discriminative terms stored as the model's topic" },
    { group: COMMON, name: 'classifier', type: 'choice', value: 'nb|linear|blend', choices: ['nb', 'linear', 'blend'], defaultText: 'linear with --texts, nb with --warc', help: "page judge and nb-link/online link classifier: Bernoulli NB, or calibrated logistic regression on TF-IDF of character 1-3-grams (L2 by cross-validation, Platt scaling; the judge reads title, headings and content, calls a page of link density > 0.8 a hub, and the model's threshold is its held-out precision = recall point), or blend: the NB page judge and a link classifier stacking NB's and the linear one's log odds, weights fitted on their out-of-fold (site-grouped) predictions" },
    { group: COMMON, name: 'min-df', type: 'int', min: 1, max: 1_000_000, default: DEFAULT_MIN_DF, help: 'linear classifiers: keep only the features seen in at least N training examples (the link classifier counts links; the page judge pages, unless --page-min-df); features seen once are noise the model file would carry' },
    { group: COMMON, name: 'page-min-df', type: 'int', min: 1, max: 1_000_000, defaultText: `${DEFAULT_WARC_PAGE_MIN_DF} with --warc, the --min-df value with --texts`, help: "linear page judge: keep only the features seen in at least N training pages (web pages share many rare word pairs that cost file size and little held-out AUC: docs/results/model-size.md)" },
    { group: COMMON, name: 'max-examples', type: 'int', min: 1, max: 1e9, default: DEFAULT_MAX_EXAMPLES, help: 'train on a uniform sample of at most N page and N link examples' },
  ],
  exitCodes: [
    [0, 'written; also --help'],
    [1, 'an internal error'],
    [2, 'bad input: FC_USAGE (a bad flag, unreadable input, an --out that cannot be written), FC_BAD_MODEL, FC_BAD_WARC (a --warc file that is not a WARC file)'],
  ],
};

/** Where runTrain writes (tests); default: the process streams. */
export interface TrainIo {
  stdout?: Writable;
  stderr?: Writable;
}

function metricsLine(name: string, m: InSampleMetrics | undefined): string {
  if (m === undefined) return '';
  const auc = m.auc === null ? '' : `, AUC ${m.auc.toFixed(3)}`;
  return `${name} ${m.accuracy.toFixed(3)} (P ${m.precision.toFixed(2)} R ${m.recall.toFixed(2)}${auc}, n ${m.n})`;
}

/**
 * Run `focuscrawl train` with its own arguments (after the subcommand).
 * Returns the exit code: 0 when the model was written or after --help;
 * 2 for bad input (one line `focuscrawl: FC_USAGE: message` on stderr, or
 * another coded input error such as FC_BAD_MODEL); 1 for an internal error.
 */
export async function runTrain(argv: string[], io: TrainIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const log = (line: string): void => {
    // lines quote malformed rows of labels and texts files
    stderr.write(`train: ${sanitizeForTerminal(line, LOG_LINE_MAX)}\n`);
  };
  try {
    return await train(argv, stdout, log);
  } catch (err) {
    const code = (err as { code?: unknown })?.code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      stderr.write(`focuscrawl: FC_USAGE: ${sanitizeForTerminal((err as Error).message.replace(/\s*\n\s*/g, ' '), LOG_LINE_MAX)} (see focuscrawl train --help)\n`);
      return exitStatusOf(err);
    }
    if (err instanceof FocuscrawlError) {
      stderr.write(`focuscrawl: ${err.code}: ${sanitizeForTerminal(err.message.replace(/\s*\n\s*/g, ' '), LOG_LINE_MAX)}\n`);
      return exitStatusOf(err);
    }
    stderr.write(`focuscrawl: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    return exitStatusOf(err);
  }
}

async function train(argv: string[], stdout: Writable, log: (line: string) => void): Promise<number> {
  const { help, args } = parseCommand(TRAIN_SPEC, argv);
  if (help) {
    stdout.write(helpText(TRAIN_SPEC));
    return 0;
  }
  const values = {
    warc: args.strings('warc'),
    labels: args.string('labels'),
    where: args.has('where') ? args.strings('where') : undefined,
    'positive-hosts': args.string('positive-hosts'),
    'negative-hosts': args.string('negative-hosts'),
    'hub-links': args.bool('hub-links'),
    layers: args.bool('layers'),
    texts: args.strings('texts'),
    'text-field': args.string('text-field'),
    'label-field': args.string('label-field'),
    'context-field': args.string('context-field'),
    target: args.string('target'),
    out: args.string('out'),
    'feature-group': args.string('feature-group'),
    'balanced-links': args.bool('balanced-links'),
  };
  const warcs = values.warc ?? [];
  const texts = values.texts ?? [];
  if ((warcs.length > 0) === (texts.length > 0)) throw new UsageError('give either --warc FILE... or --texts FILE... (see --help)');
  const target = values.target?.trim();
  if (!target) throw new UsageError('--target LABEL is required (see --help)');
  if (!values.out) throw new UsageError('--out FILE is required (see --help)');
  // the defaults measured best for links of a web (RESULTS.md: the three
  // universities, and each university left out of training); texts give a
  // link example no URL or page, so they keep Han et al.'s group 2 (docs/algorithms.md#nb-link) as it was
  const fromWarc = warcs.length > 0;
  const groupValue = values['feature-group'] ?? (fromWarc ? '4' : '2');
  const group = Number(groupValue);
  if (!/^[1-4]$/.test(groupValue) || !isFeatureGroup(group)) throw new UsageError(`--feature-group must be 1, 2, 3 or 4, got ${JSON.stringify(groupValue)}`);
  const balancedLinks = values['balanced-links'] ?? fromWarc;
  const domainTerms = args.number('domain-terms')!;
  const terms = args.number('terms')!;
  const maxExamples = args.number('max-examples')!;
  const minDf = args.number('min-df')!;
  const pageMinDf = args.number('page-min-df') ?? (fromWarc ? DEFAULT_WARC_PAGE_MIN_DF : minDf);
  // linear: measured better on texts (RESULTS.md, page judge and 5-fold CV). WARC models keep NB:
  // the linear and blended link classifiers' held-out AUC on WebKB is higher on average
  // (docs/results/webkb-link-auc.md), but with the default nb-link-layers both need more pages
  // to 80% than NB in 5 of 9 leave-one-university-out cells (docs/results/webkb-classifier.md)
  const classifier = (args.string('classifier') ?? (fromWarc ? 'nb' : 'linear')) as ClassifierKind;

  let data: TrainingData;
  if (warcs.length > 0) {
    for (const f of ['text-field', 'label-field', 'context-field'] as const) {
      if (values[f] !== undefined) throw new UsageError(`--${f} applies to --texts, not --warc`);
    }
    const where = parseWhere(values.where ?? []);
    if (values.labels === undefined && where.length > 0) throw new UsageError('--where filters the --labels file; give --labels FILE');
    if (values.labels === undefined && values['positive-hosts'] === undefined && values['negative-hosts'] === undefined) {
      throw new UsageError('--warc needs --labels FILE and/or --positive-hosts/--negative-hosts FILE (see --help)');
    }
    data = await readWarc({
      warcs,
      labels: values.labels,
      target,
      where,
      positiveHosts: values['positive-hosts'],
      negativeHosts: values['negative-hosts'],
      hubLinks: values['hub-links'] !== false,
      layers: values.layers !== false,
      maxExamples,
      log,
    });
  } else {
    for (const f of ['labels', 'where', 'positive-hosts', 'negative-hosts', 'hub-links', 'layers'] as const) {
      if (values[f] !== undefined) throw new UsageError(`--${f} applies to --warc, not --texts`);
    }
    if (!values['text-field'] || !values['label-field']) throw new UsageError('--texts needs --text-field F and --label-field F (see --help)');
    data = await readTexts({
      files: texts,
      textField: values['text-field'],
      labelField: values['label-field'],
      contextField: values['context-field'],
      target,
      maxExamples,
      log,
    });
  }
  const { json } = fitModel(data, { target, group, domainTerms, terms, balancedLinks, classifier, ...(classifier === 'linear' ? { linearOptions: { minDf }, pageMinDf } : {}) });
  await saveModel(values.out, json);
  const c = json.training.counts;
  const s = json.training.inSample;
  log(`target ${JSON.stringify(target)} from ${json.training.source}: ${c.pages} page examples (${c.pagePositives} positive), ${c.links} link examples (${c.linkPositives} positive), ${json.training.seconds.toFixed(1)} s`);
  log(`in-sample accuracy: ${[metricsLine('page', s.page), metricsLine('link', s.link), metricsLine('gaussian', s.gaussian), metricsLine('kernel', s.kernel), metricsLine('linear page', s.linearPage), metricsLine('linear link', s.linearLink), metricsLine('blend link', s.blendLink)].filter((x) => x !== '').join('; ')}`);
  if (json.layers !== undefined) log(`layers: 0..${json.layers.top}, ${Object.keys(json.layers.classifier.features).length} features, links per layer ${json.layers.classifier.classCounts.join(', ')}`);
  log(`terms: ${json.terms.slice(0, 15).join(' ')}${json.terms.length > 15 ? ' …' : ''}`);
  log(`wrote ${values.out}`);
  return 0;
}
