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
import { parseArgs } from 'node:util';
import { FocuscrawlError, UsageError } from '../errors.ts';
import { expandTopic, loadLabels, ndjsonPages, warcPages, type PageSource } from './expand.ts';
import { FeatureLibrary, loadTopicLibrary } from './library.ts';

const USAGE = `Usage: focuscrawl expand-topic --topic FILE (--pages FILE | --warc FILE...)
                               [--labels FILE --target LABEL] [--top-n N] [--top-l L]
                               [--eta X] --out FILE

Mine candidate topic terms (seed 002): for each static term of the topic, the
top-L pages about it; every other term e scores W = (f(e)/f_max) * ln(N/n_e)
(f: frequency in those pages, N: pages read, n_e: pages holding e). The N
best become candidates.

  --topic FILE     topic.json (plain, or extended: kinds, synonyms, mined)
  --pages FILE     NDJSON pages: {"url","title","blocks"|"text"|"sentence","label"}
  --warc FILE      WARC file of crawled pages (repeatable); HTML responses are parsed
  --labels FILE    url<TAB>label lines (e.g. a corpus' labels.tsv)
  --target LABEL   pages with this label are "about the topic" (default: pages
                   whose tag-block relevance R(p) >= eta)
  --top-n N        candidates kept (default 20)
  --top-l L        pages per static term (default 50)
  --eta X          page threshold without --target (default: the topic's threshold)
  --out FILE       the topic again, with the candidates under "mined" (review them)
  -h, --help       show this help

stdout: one {"term","w","from"} line per candidate, best first; a summary on stderr.
`;

/** Codes of bad input (exit 2). */
const INPUT_ERRORS = new Set(['FC_USAGE', 'FC_BAD_TOPIC', 'FC_CAP_EXCEEDED']);

/** Where runExpandTopic writes (tests); default: the process streams. */
export interface ExpandIo {
  stdout?: Writable;
  stderr?: Writable;
}

function count(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
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
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        topic: { type: 'string' },
        pages: { type: 'string' },
        warc: { type: 'string', multiple: true },
        labels: { type: 'string' },
        target: { type: 'string' },
        'top-n': { type: 'string' },
        'top-l': { type: 'string' },
        eta: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (err) {
    return fail(2, `${(err as Error).message} (see --help)`);
  }
  if (values.help) {
    stdout.write(USAGE);
    return 0;
  }
  try {
    const topicFile = values.topic as string | undefined;
    const pagesFile = values.pages as string | undefined;
    const warcs = (values.warc as string[] | undefined) ?? [];
    const labelsFile = values.labels as string | undefined;
    const target = (values.target as string | undefined) ?? null;
    const out = values.out as string | undefined;
    if (topicFile === undefined) throw new UsageError('--topic FILE is required (see --help)');
    if (out === undefined) throw new UsageError('--out FILE is required (see --help)');
    if ((pagesFile === undefined) === (warcs.length === 0)) throw new UsageError('give either --pages FILE or --warc FILE... (see --help)');
    if (labelsFile !== undefined && target === null) throw new UsageError('--labels needs --target LABEL');
    if (target !== null && target.trim() === '') throw new UsageError('--target must not be empty');
    if (target !== null && warcs.length > 0 && labelsFile === undefined) throw new UsageError('--target with --warc needs --labels FILE');
    const topN = count('top-n', values['top-n'] as string | undefined, 20);
    const topL = count('top-l', values['top-l'] as string | undefined, 50);
    let eta: number | undefined;
    if (values.eta !== undefined) {
      eta = Number(values.eta);
      if ((values.eta as string).trim() === '' || !(eta >= 0 && eta <= 1)) throw new UsageError(`--eta must be a number in [0, 1], got ${JSON.stringify(values.eta)}`);
    }
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
