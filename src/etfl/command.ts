/**
 * `focuscrawl expand-topic`: the offline, user-confirmed path of seed 002's
 * dynamic terms. Mines candidate terms (W formula, src/etfl/expand.ts) from
 * a page collection, prints them as NDJSON and writes the topic file again
 * with the candidates under "mined" for the user to review before crawling.
 */
import { constants } from 'node:fs';
import { access, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { helpText, ownMessage, parseCommand, type CommandSpec } from '../args.ts';
import { FocuscrawlError, UsageError } from '../errors.ts';
import { expandTopic, loadLabels, ndjsonPages, warcPages, type PageSource } from './expand.ts';
import { FeatureLibrary, loadTopicLibrary } from './library.ts';

export const EXPAND_TOPIC_SPEC: CommandSpec = {
  name: 'expand-topic',
  usage: ['expand-topic --topic FILE (--pages FILE | --warc FILE...) [--labels FILE --target LABEL] [--top-n N] [--top-l L] [--eta X] --out FILE'],
  summary:
    'Mine candidate topic terms (seed 002): for each static term of the topic, the top-L pages about it; every other term e scores W = (f(e)/f_max) * ln(N/n_e) (f: frequency in those pages, N: pages read, n_e: pages holding e). The N best become candidates.',
  flags: [
    { group: 'Options', name: 'topic', type: 'string', value: 'FILE', help: 'topic.json (plain, or extended: kinds, synonyms, mined)' },
    { group: 'Options', name: 'pages', type: 'string', value: 'FILE', help: 'NDJSON pages: {"url","title","blocks"|"text"|"sentence","label"}' },
    { group: 'Options', name: 'warc', type: 'string', value: 'FILE', multiple: true, help: 'WARC file of crawled pages; HTML responses are parsed' },
    { group: 'Options', name: 'labels', type: 'string', value: 'FILE', help: "url<TAB>label lines (e.g. a corpus' labels.tsv)" },
    { group: 'Options', name: 'target', type: 'string', value: 'LABEL', defaultText: 'pages whose tag-block relevance R(p) >= eta', help: 'pages with this label are "about the topic"' },
    { group: 'Options', name: 'top-n', type: 'int', min: 1, max: 1_000_000, default: 20, help: 'candidates kept' },
    { group: 'Options', name: 'top-l', type: 'int', value: 'L', min: 1, max: 1_000_000, default: 50, help: 'pages per static term' },
    { group: 'Options', name: 'eta', type: 'number', min: 0, max: 1, defaultText: "the topic's threshold", help: 'page threshold without --target' },
    { group: 'Options', name: 'out', type: 'string', value: 'FILE', help: 'the topic again, with the candidates under "mined" (review them)' },
  ],
  notes: 'stdout: one {"term","w","from"} line per candidate, best first; a summary on stderr.',
  exitCodes: [
    [0, 'written; also --help'],
    [1, 'an output that cannot be written, an internal error'],
    [2, 'bad input: FC_USAGE (a bad flag, unreadable input), FC_BAD_TOPIC, FC_CAP_EXCEEDED'],
  ],
};

/** Codes of bad input (exit 2). */
const INPUT_ERRORS = new Set(['FC_USAGE', 'FC_BAD_TOPIC', 'FC_CAP_EXCEEDED']);

/** Where runExpandTopic writes (tests); default: the process streams. */
export interface ExpandIo {
  stdout?: Writable;
  stderr?: Writable;
}

async function readable(file: string, what: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
    if (!(await stat(file)).isFile()) throw new UsageError(`${what} ${file} is not a file`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${what} ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
  }
}

/**
 * The expanded topic file: every key of the original, "mined" = the old
 * mined terms plus `terms`; a relative "synonyms" path is rewritten to stay
 * valid from `out`'s folder.
 */
function expandedJson(raw: Record<string, unknown>, topicFile: string, out: string, terms: string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...raw };
  if (typeof raw.synonyms === 'string' && !path.isAbsolute(raw.synonyms)) {
    const abs = path.resolve(path.dirname(topicFile), raw.synonyms);
    copy.synonyms = path.relative(path.dirname(path.resolve(out)), abs).split(path.sep).join('/');
  }
  const old = Array.isArray(raw.mined) ? raw.mined : [];
  const have = new Set(old.map((m) => (typeof m === 'string' ? m : (m as { term?: unknown })?.term)));
  copy.mined = [...old, ...terms.filter((t) => !have.has(t))];
  return copy;
}

/**
 * Run `focuscrawl expand-topic` with its own arguments (after the
 * subcommand). Returns the exit code: 0 done or --help; 2 bad arguments,
 * unreadable input, bad topic (FC_USAGE, FC_BAD_TOPIC; one line on stderr);
 * 1 other failures (e.g. --out not writable).
 */
export async function runExpandTopic(argv: string[], io: ExpandIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const fail = (code: number, message: string): number => {
    stderr.write(`focuscrawl expand-topic: ${message}\n`);
    return code;
  };
  let parsed;
  try {
    parsed = parseCommand(EXPAND_TOPIC_SPEC, argv);
  } catch (err) {
    return fail(2, `FC_USAGE: ${ownMessage(EXPAND_TOPIC_SPEC, err as Error)}`);
  }
  if (parsed.help) {
    stdout.write(helpText(EXPAND_TOPIC_SPEC));
    return 0;
  }
  const { args } = parsed;
  try {
    const topicFile = args.string('topic');
    const pagesFile = args.string('pages');
    const warcs = args.strings('warc');
    const labelsFile = args.string('labels');
    const target = args.string('target') ?? null;
    const out = args.string('out');
    if (topicFile === undefined) throw new UsageError('--topic FILE is required (see --help)');
    if (out === undefined) throw new UsageError('--out FILE is required (see --help)');
    if ((pagesFile === undefined) === (warcs.length === 0)) throw new UsageError('give either --pages FILE or --warc FILE... (see --help)');
    if (labelsFile !== undefined && target === null) throw new UsageError('--labels needs --target LABEL');
    if (target !== null && target.trim() === '') throw new UsageError('--target must not be empty');
    if (target !== null && warcs.length > 0 && labelsFile === undefined) throw new UsageError('--target with --warc needs --labels FILE');
    const topN = args.number('top-n')!;
    const topL = args.number('top-l')!;
    const eta = args.number('eta');
    for (const f of [pagesFile, labelsFile].filter((x): x is string => x !== undefined)) await readable(f, 'file');
    for (const f of warcs) await readable(f, 'WARC file');

    const library = await loadTopicLibrary(topicFile);
    const raw = JSON.parse((await readFile(topicFile, 'utf8')).replace(/^\uFEFF/, '')) as Record<string, unknown>;
    const lib = new FeatureLibrary(library);
    const labels = labelsFile === undefined ? null : await loadLabels(labelsFile);
    const source: PageSource = pagesFile !== undefined ? ndjsonPages(pagesFile, labels) : warcPages(warcs, labels);
    const result = await expandTopic(lib, source, { target, topN, topL, eta });

    for (const c of result.candidates) stdout.write(JSON.stringify({ term: c.term, w: Math.round(c.w * 1e4) / 1e4, from: c.from }) + '\n');
    const json = expandedJson(raw, topicFile, out, result.candidates.map((c) => c.term));
    await writeFile(out, JSON.stringify(json, null, 2) + '\n');
    const about = target !== null ? `labelled ${target}` : `with R(p) >= ${eta ?? library.threshold}`;
    stderr.write(`expand-topic: ${result.pages} pages, ${result.topicPages} ${about}, ${result.candidates.length} candidates -> ${out}\n`);
    if (result.topicPages === 0) stderr.write(`expand-topic: warning: no page about the topic, nothing mined\n`);
    return 0;
  } catch (err) {
    if (err instanceof FocuscrawlError) return fail(INPUT_ERRORS.has(err.code) ? 2 : 1, err.message);
    return fail(1, (err as Error).message);
  }
}
