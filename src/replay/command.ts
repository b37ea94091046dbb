/**
 * `focuscrawl replay --warc FILE... [--port N]`: serve WARC files as an HTTP
 * forward proxy on 127.0.0.1 until SIGINT/SIGTERM.
 */
import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { helpText, ownMessage, parseCommand, type CommandSpec } from '../args.ts';
import type { Writable } from 'node:stream';
import { FocuscrawlError } from '../errors.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from '../term.ts';
import { createReplayServer } from './server.ts';

export const REPLAY_SPEC: CommandSpec = {
  name: 'replay',
  usage: ['replay --warc FILE|DIR [--warc FILE|DIR...] [--port N]'],
  summary:
    'Serve the response records of WARC files (.warc, or .warc.gz: one gzip member per record, or the whole file gzipped, which is inflated once into a temporary copy) as an HTTP forward proxy on 127.0.0.1. URLs are matched in canonical form; the first record for a URL wins; unknown URLs answer 404.',
  flags: [
    { group: 'Options', name: 'warc', type: 'string', value: 'FILE|DIR', multiple: true, help: "a WARC file to serve (at least one); a directory serves the .warc/.warc.gz files in it (e.g. crawl --warc-out's)" },
    { group: 'Options', name: 'port', type: 'int', min: 0, max: 65535, default: 0, help: 'port to listen on (0: any free port)' },
  ],
  notes: `The first stdout line is {"listening":"http://127.0.0.1:PORT"}.
Stops on SIGINT or SIGTERM.`,
  exitCodes: [
    [0, 'stopped by SIGINT or SIGTERM; also --help'],
    [1, 'cannot listen on the port, an internal error'],
    [2, 'bad input: FC_USAGE (a bad flag, a WARC file that cannot be read or parsed)'],
  ],
};

/** Where runReplay writes, and what stops it (tests); defaults: process streams, signals only. */
export interface ReplayIo {
  stdout?: Writable;
  stderr?: Writable;
  /** aborting it stops the server like SIGINT/SIGTERM */
  signal?: AbortSignal;
}

async function unreadable(file: string): Promise<string | null> {
  try {
    await access(file, constants.R_OK);
    if (!(await stat(file)).isFile()) return `${file} is not a file`;
    return null;
  } catch (err) {
    return `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

/** Closed WARC files (`.warc`, `.warc.gz`) as `crawl --warc-out` names them; not `*.open` ones. */
const WARC_NAME = /\.warc(\.gz)?$/i;

/**
 * The files of the --warc arguments: a directory stands for the WARC files
 * directly in it, in name order (`--warc-out` names sort by time, then
 * serial). A file still named `*.open` (a crawl writing it, or killed while
 * it did) is left out: rename it to serve what it holds.
 */
async function expandWarcArgs(args: string[]): Promise<string[] | string> {
  const files: string[] = [];
  for (const arg of args) {
    let isDir = false;
    try {
      isDir = (await stat(arg)).isDirectory();
    } catch {
      // unreadable() names the problem below
    }
    if (!isDir) {
      files.push(arg);
      continue;
    }
    let names: string[];
    try {
      names = (await readdir(arg)).filter((n) => WARC_NAME.test(n)).sort();
    } catch (err) {
      return `cannot read ${arg} (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    if (names.length === 0) return `${arg} holds no .warc or .warc.gz file`;
    files.push(...names.map((n) => path.join(arg, n)));
  }
  return files;
}

/** Resolves when SIGINT/SIGTERM arrives or `signal` aborts. */
function untilStopped(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop);
  });
}

/**
 * Run `focuscrawl replay` with its own arguments (after the subcommand).
 * Returns the exit code: 0 after a clean stop or --help, 2 for bad
 * arguments/unreadable or malformed WARC (one line on stderr), 1 when the
 * server cannot start (e.g. port in use).
 */
export async function runReplay(argv: string[], io: ReplayIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const fail = (code: number, message: string): number => {
    // messages quote file names and malformed WARC content
    stderr.write(`focuscrawl replay: ${sanitizeForTerminal(message, LOG_LINE_MAX)}\n`);
    return code;
  };

  let parsed;
  try {
    parsed = parseCommand(REPLAY_SPEC, argv);
  } catch (err) {
    return fail(2, `FC_USAGE: ${ownMessage(REPLAY_SPEC, err as Error)}`);
  }
  if (parsed.help) {
    stdout.write(helpText(REPLAY_SPEC));
    return 0;
  }
  const { args } = parsed;
  if (args.strings('warc').length === 0) return fail(2, 'FC_USAGE: --warc: at least one FILE is required (see --help)');
  const warcs = await expandWarcArgs(args.strings('warc'));
  if (typeof warcs === 'string') return fail(2, warcs);
  const port = args.number('port')!;
  for (const file of warcs) {
    const problem = await unreadable(file);
    if (problem !== null) return fail(2, problem);
  }

  let server;
  try {
    server = await createReplayServer({ warcs, port, host: '127.0.0.1' });
  } catch (err) {
    // bad input (exit 2): an unreadable file (FC_USAGE), or one that is not a WARC (FC_BAD_WARC, named in the line)
    const code = err instanceof FocuscrawlError ? err.code : null;
    if (code === 'FC_BAD_WARC') return fail(2, `${code}: ${(err as Error).message}`);
    return fail(code === 'FC_USAGE' ? 2 : 1, (err as Error).message);
  }
  const stopped = untilStopped(io.signal);
  stdout.write(JSON.stringify({ listening: server.url }) + '\n');
  const revisits = server.index.revisitsResolved;
  stderr.write(`replay: ${server.records} records from ${warcs.length} files${revisits > 0 ? ` (${revisits} of them revisits of an earlier response)` : ''}\n`);
  await stopped;
  await server.close();
  return 0;
}
