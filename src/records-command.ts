/**
 * `focuscrawl records --store DIR [--after N] [--type page|error]`: the
 * records a crawl committed, from its store's log, in commit order, one
 * NDJSON line each, as the crawl printed them on stdout.
 *
 * What it is for: a crawl's stdout that was lost or cut short (a consumer
 * that died, a disk that filled, the microseconds between a commit and its
 * stdout write at a kill), and re-reading a finished crawl without crawling
 * again (`focuscrawl records --store s | focuscrawl eval ...`). Since the
 * concatenated stdout of all runs on a store is the log in order, `--after
 * N` with N the number of lines already saved prints exactly the rest.
 *
 * A LevelDB store a crawl holds is locked: FC_STORE_LOCKED (exit 1). A Redis
 * store is read while workers write to it (the records committed so far).
 */
import type { Writable } from 'node:stream';
import { helpText, parseCommand, type CommandSpec } from './args.ts';
import { LineOutput } from './output.ts';
import { openRedisStore, requireStore } from './stats-command.ts';
import { CrawlStore, logKey } from './store.ts';
import { isRedisStore, type Store } from './store/types.ts';
import { stringifyForTerminal } from './term.ts';

export const RECORDS_SPEC: CommandSpec = {
  name: 'records',
  usage: ['records --store DIR [--after N] [--type page|error]'],
  summary:
    'Print the records a crawl committed (its store\'s log), in commit order, one JSON object a line, as the crawl printed them: a lost or cut-short stdout recovered, or a finished crawl read again without crawling.',
  flags: [
    { group: 'Options', name: 'store', type: 'string', value: 'DIR', default: './focuscrawl-store', help: 'the crawl store, or redis://HOST:PORT/DB?crawl=NAME for a Redis store' },
    { group: 'Options', name: 'after', type: 'int', min: 0, max: Number.MAX_SAFE_INTEGER, default: 0, help: 'skip the first N records (N = the lines already saved: the stdout of all runs on a store is its log in order)' },
    { group: 'Options', name: 'type', type: 'choice', value: 'T', choices: ['page', 'error'], help: 'only records of this type' },
  ],
  notes: `A store a running crawl holds is locked (FC_STORE_LOCKED, exit 1); a Redis
store can be read while workers crawl.`,
  exitCodes: [
    [0, 'printed, or stdout was closed early; also --help'],
    [1, 'the store is locked (FC_STORE_LOCKED) or cannot be opened (FC_STORE), an internal error'],
    [2, 'bad input: FC_USAGE'],
  ],
};

/** Open the store at `location` (a LevelDB directory or a redis:// URL). */
async function openStore(location: string): Promise<Store> {
  if (isRedisStore(location)) return openRedisStore(location);
  await requireStore(location);
  return CrawlStore.open(location);
}

/** Run `focuscrawl records` with its own arguments; resolves to the exit code (errors are thrown). */
export async function runRecords(argv: string[], io: { stdout?: Writable } = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const { help, args } = parseCommand(RECORDS_SPEC, argv);
  if (help) {
    stdout.write(helpText(RECORDS_SPEC));
    return 0;
  }
  const after = args.number('after')!;
  const type = args.string('type');
  const store = await openStore(args.string('store')!);
  // a reader that goes away (| head) ends the listing, exit 0
  let closed = false;
  const out = new LineOutput(stdout, () => (closed = true));
  try {
    for await (const record of store.log(after > 0 ? { gt: logKey(after) } : {})) {
      if (closed) break;
      if (type !== undefined && (record as { type?: unknown }).type !== type) continue;
      // the same escaping as the crawl's stdout (C1 controls, bidi, U+2028)
      const wait = out.write(`${stringifyForTerminal(record)}\n`);
      if (wait !== undefined) await wait;
    }
  } finally {
    out.detach();
    await store.close();
  }
  return 0;
}
