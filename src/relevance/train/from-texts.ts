/**
 * Training examples from labelled texts (NDJSON, one object a line), e.g.
 * news headlines: each usable line is one link-context example (its text
 * field is the anchor, its optional context field the context) and one page
 * example (a page whose title and only text is that text). Malformed lines
 * are counted, reported and skipped. Also the line reader and the bounded
 * example sample the WARC reader shares.
 */
import { MAX_LINE_BYTES, readLines } from '../../util/read-lines.ts';
import { UsageError } from '../../errors.ts';
import type { ParsedPage } from '../../types.ts';
import type { Segmenter } from '../text/segmenter.ts';
import { pageFeatures } from '../learn/features.ts';
import { seededRandom } from '../learn/metrics.ts';
import { pageGrams, type LinkExample, type PageExample, type TrainingData } from '../model.ts';

/** Default cap on the examples of each kind kept for training (a uniform sample beyond it). */
export const DEFAULT_MAX_EXAMPLES = 500_000;

export { MAX_LINE_BYTES, readLines };

/**
 * A uniform random sample of at most `capacity` items of a stream
 * (reservoir sampling, seeded, so the same input gives the same sample).
 * Below the capacity it keeps every item in order.
 */
export class Reservoir<T> {
  readonly capacity: number;
  readonly items: T[] = [];
  /** items offered so far */
  seen = 0;
  readonly #random: () => number;

  constructor(capacity: number, seed = 1) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new TypeError(`Reservoir capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.#random = seededRandom(seed);
  }

  add(item: T): void {
    this.seen++;
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    const j = Math.floor(this.#random() * this.seen);
    if (j < this.capacity) this.items[j] = item;
  }
}

/**
 * A page made of one text: the text is its title and its only visible
 * text; `body`, when given, is its content text.
 */
export function textPage(text: string, body = ''): ParsedPage {
  return {
    title: text,
    charset: 'utf-8',
    blocks: { title: text, heading: '', content: body, navigation: '', anchor: '', other: '' },
    links: [],
    base: '',
    noindex: false,
    nofollow: false,
    lang: null,
  };
}

/** Options of readTexts. */
export interface TextsOptions {
  /** NDJSON files, read in order */
  files: string[];
  /** field holding the text (anchor-like; also the page text) */
  textField: string;
  /** field holding the label (a string, or a number taken as its decimal string) */
  labelField: string;
  /** optional field holding the link context (string, or array of strings joined by spaces); missing/null: empty */
  contextField?: string;
  /** label value of the positive class */
  target: string;
  /** cap on examples kept (default DEFAULT_MAX_EXAMPLES; a uniform sample beyond it) */
  maxExamples?: number;
  segmenter?: Segmenter;
  /** progress and warnings, one line each (default: none) */
  log?: (line: string) => void;
}

interface TextRow {
  text: string;
  context: string;
  label: 0 | 1;
  /** the line's own label */
  cls: string;
}

/** Why a parsed NDJSON line is unusable, or its row. */
function rowOf(line: string, opts: TextsOptions): TextRow | string {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  const text = o[opts.textField];
  if (typeof text !== 'string' || text.trim() === '') return `no non-empty string field "${opts.textField}"`;
  const raw = o[opts.labelField];
  let label: string;
  if (typeof raw === 'string') label = raw;
  else if (typeof raw === 'number' && Number.isFinite(raw)) label = String(raw);
  else return `no string or number field "${opts.labelField}"`;
  let context = '';
  if (opts.contextField !== undefined) {
    const c = o[opts.contextField];
    if (typeof c === 'string') context = c;
    else if (Array.isArray(c) && c.every((x) => typeof x === 'string')) context = c.join(' ');
    else if (c !== undefined && c !== null) return `field "${opts.contextField}" is not a string`;
  }
  return { text, context, label: label === opts.target ? 1 : 0, cls: label };
}

/**
 * Reads labelled texts into training examples: per usable line one link
 * example (anchor = text field, context = context field, positive iff the
 * label equals `target`) and one page example (pageFeatures of
 * textPage(text), same label). Blank lines are ignored; malformed lines
 * (not JSON, not an object, missing/empty text, missing label, context of
 * the wrong type, longer than MAX_LINE_BYTES) are counted, reported through
 * `log` and skipped. Throws UsageError (FC_USAGE) when a file is unreadable
 * or no line is usable.
 */
export async function readTexts(opts: TextsOptions): Promise<TrainingData> {
  const started = performance.now();
  const log = opts.log ?? ((): void => {});
  const sample = new Reservoir<TextRow>(opts.maxExamples ?? DEFAULT_MAX_EXAMPLES);
  let lines = 0;
  let malformed = 0;
  let firstProblem = '';
  for (const file of opts.files) {
    let no = 0;
    for await (const line of readLines(file)) {
      no++;
      if (line !== null && line.trim() === '') continue;
      lines++;
      const row = line === null ? `longer than ${MAX_LINE_BYTES} bytes` : rowOf(line, opts);
      if (typeof row === 'string') {
        malformed++;
        if (firstProblem === '') firstProblem = `${file}:${no}: ${row}`;
        continue;
      }
      sample.add(row);
    }
  }
  if (malformed > 0) log(`texts: skipped ${malformed} malformed of ${lines} lines (first: ${firstProblem})`);
  if (sample.seen === 0) {
    throw new UsageError(`no usable line in ${opts.files.join(', ')} (${lines} lines, ${malformed} malformed${firstProblem ? `; first: ${firstProblem}` : ''})`);
  }
  if (sample.seen > sample.capacity) log(`texts: ${sample.seen} usable lines, training on a uniform sample of ${sample.capacity}`);
  const positives = sample.items.reduce((n, r) => n + r.label, 0);
  if (positives === 0) {
    throw new UsageError(`target ${JSON.stringify(opts.target)} matches no usable line of ${opts.files.join(', ')} (field "${opts.labelField}")`);
  }
  const pages: PageExample[] = [];
  const links: LinkExample[] = [];
  for (const r of sample.items) {
    links.push({ anchor: r.text, context: r.context, label: r.label });
    // the linear judge's page also has the context as its body text (an
    // article carries its keywords); the NB features stay as they were
    pages.push({ features: pageFeatures(textPage(r.text), { segmenter: opts.segmenter }), label: r.label, grams: pageGrams(textPage(r.text, r.context)), cls: r.cls });
  }
  return {
    source: 'texts',
    files: [...opts.files],
    pages,
    links,
    counts: { lines, malformed, usable: sample.seen, sampled: sample.items.length },
    options: {
      target: opts.target,
      textField: opts.textField,
      labelField: opts.labelField,
      ...(opts.contextField === undefined ? {} : { contextField: opts.contextField }),
      maxExamples: sample.capacity,
    },
    seconds: (performance.now() - started) / 1000,
  };
}
