/**
 * `focuscrawl train`: fit a model file (src/model.ts) from a WARC plus
 * labels, or from labelled NDJSON texts. Progress and the summary go to
 * stderr; stdout stays empty (except --help).
 */
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { FocuscrawlError, UsageError } from '../errors.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from '../term.ts';
import { DEFAULT_DOMAIN_TERMS, DEFAULT_TOPIC_TERMS, fitModel, saveModel, type InSampleMetrics, type TrainingData } from '../model.ts';
import { DEFAULT_MAX_EXAMPLES, readTexts } from './from-texts.ts';
import { readWarc } from './from-warc.ts';
import { parseWhere } from './where.ts';
import { isFeatureGroup } from '../learn/features.ts';

const USAGE = `Usage:
  focuscrawl train --warc FILE... --labels FILE --target LABEL [--where COL[!]=VAL]...
                   [--positive-hosts FILE] [--negative-hosts FILE] --out MODEL.json [options]
  focuscrawl train --texts FILE.ndjson... --text-field F --label-field F --target LABEL
                   [--context-field F] --out MODEL.json [options]

Fit a model for --model strategies: a page classifier (relevance judge), a
Bernoulli Naive Bayes link-context classifier (seed 000) and TF-IDF Naive
Bayes link classifiers with Gaussian and kernel densities (seed 001).

From a WARC (pages parsed as the crawler parses them):
  --warc FILE            WARC file (.warc or .warc.gz; repeatable)
  --labels FILE          TSV with a header row: url<TAB>label<TAB>...; labelled pages
                         are page examples, links to labelled URLs link examples
  --where COL=VAL        use only label rows whose column COL is VAL (COL!=VAL: is not
                         VAL; repeatable, all must hold); other rows are not used at
                         all (keeps them unseen)
  --positive-hosts FILE  links to these hosts (one a line) are positive examples,
  --negative-hosts FILE  links to these negative (seed 000, algorithm 2); pages on
                         them are page examples when the labels file has no row
  --hub-links            also count as positive a link to a page that links to a
                         target page other than the link's own page (a hub one
                         step away; context-graph level 1);
                         the default (--no-hub-links: only links to target pages)
From labelled texts (NDJSON, one object a line; malformed lines are skipped):
  --texts FILE           NDJSON file (repeatable)
  --text-field F         field with the text: the anchor of a link example and the
                         text of a page example
  --label-field F        field with the label
  --context-field F      optional field with the link context
Common:
  --target LABEL         the label to find (positive class)
  --out FILE             where to write the model (atomically)
  --feature-group 1|2|3|4  link features: 1 anchor words, 2 anchor + context words +
                         domain flags (seed 000), 3 group 2 + the link's URL (path
                         words, same-host, depth, extension flags), 4 group 3 +
                         words of the title of the page it is on (default: 4 with
                         --warc, 2 with --texts, whose examples have no URL or page)
  --balanced-links       class-balanced link classifier: each class's counts
                         scaled to half the examples before smoothing (as if
                         trained on a balanced set, like seed 000's); the default
                         with --warc (--no-balanced-links: the classes' own
                         counts, the default with --texts)
  --domain-terms N       size of the mined domain dictionary (default ${DEFAULT_DOMAIN_TERMS})
  --terms N              discriminative terms stored as the model's topic (default ${DEFAULT_TOPIC_TERMS})
  --classifier nb|linear page judge and nb-link/online link classifier: Bernoulli
                         NB, or calibrated logistic regression on TF-IDF of
                         character 1-3-grams (L2 by cross-validation, Platt
                         scaling; the judge reads title, headings and content,
                         and calls a page of link density > 0.8 a hub)
                         (default: linear with --texts, nb with --warc)
  --max-examples N       train on a uniform sample of at most N page and N link
                         examples (default ${DEFAULT_MAX_EXAMPLES})
  -h, --help             show this help

Exit codes: 0 written, 2 bad input (FC_USAGE), 1 internal error.
`;

/** Where runTrain writes (tests); default: the process streams. */
export interface TrainIo {
  stdout?: Writable;
  stderr?: Writable;
}

function integer(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
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
      return 2;
    }
    if (err instanceof FocuscrawlError) {
      stderr.write(`focuscrawl: ${err.code}: ${sanitizeForTerminal(err.message.replace(/\s*\n\s*/g, ' '), LOG_LINE_MAX)}\n`);
      return err.code === 'FC_USAGE' || err.code === 'FC_BAD_MODEL' ? 2 : 1;
    }
    stderr.write(`focuscrawl: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    return 1;
  }
}

async function train(argv: string[], stdout: Writable, log: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    // --no-balanced-links, --no-hub-links: the defaults of --warc turned off
    allowNegative: true,
    options: {
      warc: { type: 'string', multiple: true },
      labels: { type: 'string' },
      where: { type: 'string', multiple: true },
      'positive-hosts': { type: 'string' },
      'negative-hosts': { type: 'string' },
      'hub-links': { type: 'boolean' },
      texts: { type: 'string', multiple: true },
      'text-field': { type: 'string' },
      'label-field': { type: 'string' },
      'context-field': { type: 'string' },
      target: { type: 'string' },
      out: { type: 'string' },
      'feature-group': { type: 'string' },
      'balanced-links': { type: 'boolean' },
      'domain-terms': { type: 'string' },
      terms: { type: 'string' },
      'max-examples': { type: 'string' },
      classifier: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    stdout.write(USAGE);
    return 0;
  }
  const warcs = values.warc ?? [];
  const texts = values.texts ?? [];
  if ((warcs.length > 0) === (texts.length > 0)) throw new UsageError('give either --warc FILE... or --texts FILE... (see --help)');
  const target = values.target?.trim();
  if (!target) throw new UsageError('--target LABEL is required (see --help)');
  if (!values.out) throw new UsageError('--out FILE is required (see --help)');
  // the defaults measured best for links of a web (RESULTS.md: the three
  // universities, and each university left out of training); texts give a
  // link example no URL or page, so they keep seed 000's group 2 as it was
  const fromWarc = warcs.length > 0;
  const groupValue = values['feature-group'] ?? (fromWarc ? '4' : '2');
  const group = Number(groupValue);
  if (!/^[1-4]$/.test(groupValue) || !isFeatureGroup(group)) throw new UsageError(`--feature-group must be 1, 2, 3 or 4, got ${JSON.stringify(groupValue)}`);
  const balancedLinks = values['balanced-links'] ?? fromWarc;
  const domainTerms = integer('domain-terms', values['domain-terms'], DEFAULT_DOMAIN_TERMS, 0);
  const terms = integer('terms', values.terms, DEFAULT_TOPIC_TERMS, 1);
  const maxExamples = integer('max-examples', values['max-examples'], DEFAULT_MAX_EXAMPLES, 1);
  // linear: measured better on texts (RESULTS.md, page judge and 5-fold CV); WARC models keep NB until measured
  const classifier = values.classifier ?? (fromWarc ? 'nb' : 'linear');
  if (classifier !== 'nb' && classifier !== 'linear') throw new UsageError(`--classifier must be nb or linear, got ${JSON.stringify(classifier)}`);

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
      maxExamples,
      log,
    });
  } else {
    for (const f of ['labels', 'where', 'positive-hosts', 'negative-hosts', 'hub-links'] as const) {
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
  const { json } = fitModel(data, { target, group, domainTerms, terms, balancedLinks, classifier });
  await saveModel(values.out, json);
  const c = json.training.counts;
  const s = json.training.inSample;
  log(`target ${JSON.stringify(target)} from ${json.training.source}: ${c.pages} page examples (${c.pagePositives} positive), ${c.links} link examples (${c.linkPositives} positive), ${json.training.seconds.toFixed(1)} s`);
  log(`in-sample accuracy: ${[metricsLine('page', s.page), metricsLine('link', s.link), metricsLine('gaussian', s.gaussian), metricsLine('kernel', s.kernel), metricsLine('linear page', s.linearPage), metricsLine('linear link', s.linearLink)].filter((x) => x !== '').join('; ')}`);
  log(`terms: ${json.terms.slice(0, 15).join(' ')}${json.terms.length > 15 ? ' …' : ''}`);
  log(`wrote ${values.out}`);
  return 0;
}
