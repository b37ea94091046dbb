/**
 * The command line. Data goes to stdout, everything else to stderr.
 * Exit codes: 0 done (also when stdout was closed early, e.g. `| head`),
 * 1 runtime failure (store locked or unwritable, internal error),
 * 2 bad input (unknown flag, missing seeds, unreadable topic, malformed URL),
 * 130/143 interrupted by SIGINT/SIGTERM (the store stays consistent).
 */
import { helpText, usageProblems, type CommandSpec } from './commands/args.ts';
import { exitStatusOf, FocuscrawlError, UsageError } from './errors.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from './output/terminal.ts';
import { VERSION } from './util/version.ts';

// Every command, and everything the crawl needs, is imported when it runs:
// `--version`, `--help` and each command load only their own modules (vega,
// warcio, the learners and the crawl pipeline are tens of MB of RSS together).

const MAIN_HELP = `focuscrawl ${VERSION}: a focused web crawler that streams NDJSON

Usage:
  focuscrawl crawl --seed URL [--seed URL ...] | --seeds FILE [options]
  focuscrawl replay --warc FILE... [--port N]
  focuscrawl stats --store DIR [--log-format text|json]
  focuscrawl records --store DIR [--after N] [--type page|error]
  focuscrawl train | eval | compare | expand-topic | gen-web ...
  focuscrawl -h | --help | help [COMMAND]
  focuscrawl -V | --version | version
  focuscrawl COMMAND -h | --help

From a git checkout: ./bin/focuscrawl ... or npx focuscrawl ... (docs/cli.md).

Commands:
  crawl         fetch the pages most likely on topic first; one NDJSON record per URL on stdout
  replay        serve WARC files as an HTTP forward proxy on 127.0.0.1 (offline crawling)
  train         learn a model (page and link-context classifiers) from labelled pages or texts
  eval          harvest rate and target recall of a crawl's records against labels (+ SVG plot)
  compare       crawl one archive with several strategies and compare them (table + plot)
  expand-topic  mine extension terms for a topic (docs/algorithms.md#etfl)
  gen-web       build a synthetic Chinese portal web (WARC) from labelled headlines
  stats         pages, harvest, errors, latency of a crawl store, finished or running
  records       the records a crawl committed, from its store, as it printed them

Exit codes:
  0     done; also --help and --version
  1     runtime failure (store locked or unwritable, output unwritable, internal error)
  2     bad input: FC_USAGE (unknown command or flag, bad or missing value),
        FC_BAD_TOPIC, FC_BAD_MODEL; one line \`focuscrawl: CODE: message\` each
  130   crawl interrupted by SIGINT; 143: by SIGTERM (the store stays consistent)
`;

/** Each command's flag table (src/commands/args.ts), loaded with the command; docs/cli.md is generated from them. */
export const COMMAND_SPECS: Record<string, () => Promise<CommandSpec>> = {
  crawl: async () => (await import('./commands/crawl.ts')).CRAWL_SPEC,
  replay: async () => (await import('./commands/replay.ts')).REPLAY_SPEC,
  train: async () => (await import('./commands/train.ts')).TRAIN_SPEC,
  eval: async () => (await import('./commands/eval.ts')).EVAL_SPEC,
  compare: async () => (await import('./commands/compare.ts')).COMPARE_SPEC,
  'expand-topic': async () => (await import('./commands/expand-topic.ts')).EXPAND_TOPIC_SPEC,
  'gen-web': async () => (await import('./commands/gen-web.ts')).GENWEB_SPEC,
  stats: async () => (await import('./commands/stats.ts')).STATS_SPEC,
  records: async () => (await import('./commands/records.ts')).RECORDS_SPEC,
};

/** The top-level help (`focuscrawl --help`). */
export const mainHelp = (): string => MAIN_HELP;

/** Run the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  // A reader that goes away (`| head`) must not crash us: the crawl notices
  // through its own listener and stops; late write errors are dropped here.
  process.stdout.on('error', () => {});
  try {
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || (cmd === 'help' && rest.length === 0)) {
      process.stdout.write(MAIN_HELP);
      return 0;
    }
    if (cmd === '--version' || cmd === '-V' || cmd === '-v' || cmd === 'version') {
      process.stdout.write(`${VERSION}\n`);
      return 0;
    }
    if (cmd === 'help') {
      const spec = Object.hasOwn(COMMAND_SPECS, rest[0]) ? await COMMAND_SPECS[rest[0]]() : undefined;
      if (spec === undefined) throw new UsageError(`help: unknown command ${JSON.stringify(rest[0])} (try focuscrawl --help)`);
      process.stdout.write(helpText(spec));
      return 0;
    }
    if (Object.hasOwn(COMMAND_SPECS, cmd)) {
      // every mistake on the command line, one line each, before the command runs
      const problems = usageProblems(await COMMAND_SPECS[cmd](), rest);
      if (problems.length > 0) {
        for (const p of problems) process.stderr.write(`focuscrawl: FC_USAGE: ${sanitizeForTerminal(p, LOG_LINE_MAX)}\n`);
        return 2;
      }
    }
    if (cmd === 'crawl') return await (await import('./commands/crawl.ts')).runCrawlCommand(rest);
    if (cmd === 'replay') return await (await import('./commands/replay.ts')).runReplay(rest);
    if (cmd === 'train') return await (await import('./commands/train.ts')).runTrain(rest);
    if (cmd === 'eval') return await (await import('./commands/eval.ts')).runEval(rest);
    if (cmd === 'compare') return await (await import('./commands/compare.ts')).runCompare(rest);
    if (cmd === 'expand-topic') return await (await import('./commands/expand-topic.ts')).runExpandTopic(rest);
    if (cmd === 'gen-web') return await (await import('./commands/gen-web.ts')).runGenWeb(rest);
    if (cmd === 'stats') return await (await import('./commands/stats.ts')).runStats(rest);
    if (cmd === 'records') return await (await import('./commands/records.ts')).runRecords(rest);
    throw new UsageError(`unknown command ${JSON.stringify(cmd)} (try focuscrawl --help)`);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      const oneLine = (err as Error).message.replace(/\s*\n\s*/g, ' ');
      process.stderr.write(`focuscrawl: ${sanitizeForTerminal(oneLine, LOG_LINE_MAX)} (try focuscrawl ${sanitizeForTerminal(String(cmd), 100)} --help)\n`);
      return exitStatusOf(err);
    }
    if (err instanceof FocuscrawlError) {
      // messages quote URLs and lines from seeds files, topics and pages
      process.stderr.write(`focuscrawl: ${err.code}: ${sanitizeForTerminal(err.message, LOG_LINE_MAX)}\n`);
      return exitStatusOf(err);
    }
    const stack = ((err as Error)?.stack ?? String(err)).split('\n').map((line) => sanitizeForTerminal(line, LOG_LINE_MAX));
    process.stderr.write(`focuscrawl: internal error: ${stack.join('\n')}\n`);
    return exitStatusOf(err);
  }
}
