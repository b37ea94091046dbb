/**
 * The command line. Data goes to stdout, everything else to stderr.
 * Exit codes: 0 done (also when stdout was closed early, e.g. `| head`),
 * 1 runtime failure (store locked or unwritable, internal error),
 * 2 bad input (unknown flag, missing seeds, unreadable topic, malformed URL),
 * 130/143 interrupted by SIGINT/SIGTERM (the store stays consistent).
 */
import { flagError, helpText, parseCommand, usageProblems, type CommandSpec } from './args.ts';
import { FocuscrawlError, UsageError } from './errors.ts';
import { parseDomain, parsePattern } from './scope.ts';
import { parseSkipExtensions } from './extensions.ts';
import type { CrawlConfig } from './pipeline.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from './term.ts';
import { VERSION } from './version.ts';

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
  expand-topic  mine extension terms for a topic (seed 002's feature library)
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

/** Each command's flag table (src/args.ts), loaded with the command; docs/cli.md is generated from them. */
export const COMMAND_SPECS: Record<string, () => Promise<CommandSpec>> = {
  crawl: async () => (await import('./crawl-flags.ts')).CRAWL_SPEC,
  replay: async () => (await import('./replay/command.ts')).REPLAY_SPEC,
  train: async () => (await import('./train/command.ts')).TRAIN_SPEC,
  eval: async () => (await import('./eval/command.ts')).EVAL_SPEC,
  compare: async () => (await import('./eval/compare.ts')).COMPARE_SPEC,
  'expand-topic': async () => (await import('./etfl/command.ts')).EXPAND_TOPIC_SPEC,
  'gen-web': async () => (await import('./genweb/command.ts')).GENWEB_SPEC,
  stats: async () => (await import('./stats-command.ts')).STATS_SPEC,
  records: async () => (await import('./records-command.ts')).RECORDS_SPEC,
};

/** The top-level help (`focuscrawl --help`). */
export const mainHelp = (): string => MAIN_HELP;

/** Exit code for an error: 2 for bad input, 1 otherwise. */
function exitCodeOf(err: FocuscrawlError): number {
  return err.code === 'FC_USAGE' || err.code === 'FC_BAD_TOPIC' || err.code === 'FC_BAD_MODEL' ? 2 : 1;
}

/** --text: the cap of a record's main text (100,000 characters: a long article, not a dump of a 1 MB page). */
const DEFAULT_TEXT_CHARS = 100_000;

/** --param KEY=VALUE values: numbers where they parse as one, else strings. */
export function parseParams(values: string[]): Record<string, number | string> {
  const params: Record<string, number | string> = {};
  for (const v of values) {
    const m = /^([A-Za-z][\w.-]*)=(.*)$/.exec(v);
    if (m === null) throw flagError('crawl', 'param', `wants KEY=VALUE, got ${JSON.stringify(v)}`);
    const n = Number(m[2]);
    params[m[1]] = m[2].trim() !== '' && Number.isFinite(n) ? n : m[2];
  }
  return params;
}

function parseAuth(values: string[]): CrawlConfig['auth'] {
  const auth: CrawlConfig['auth'] = {};
  for (const v of values) {
    const m = /^([^=]+)=([^:]*):(.*)$/.exec(v);
    if (m === null) throw flagError('crawl', 'auth', `wants HOST=USER:PASS, got ${JSON.stringify(v)}`);
    auth[m[1].toLowerCase()] = { user: m[2], pass: m[3] };
  }
  return auth;
}

async function crawlCommand(argv: string[]): Promise<number> {
  const { CRAWL_SPEC } = await import('./crawl-flags.ts');
  const { help, args } = parseCommand(CRAWL_SPEC, argv);
  if (help) {
    process.stdout.write(helpText(CRAWL_SPEC));
    return 0;
  }
  const [{ canonicalize }, { readSeedsFile }, { loadTopic }, { needsModel }, { loadModel }, { getSegmenter }, { runCrawl }, { CrawlLog }] = await Promise.all([
    import('./url.ts'),
    import('./seeds.ts'),
    import('./topic.ts'),
    import('./scorers/index.ts'),
    import('./model.ts'),
    import('./text/segmenter.ts'),
    import('./pipeline.ts'),
    import('./crawl-log.ts'),
  ]);
  const num = (name: string): number => args.number(name)!;
  const opt = (name: string): number | undefined => args.number(name);
  let seeds = args.strings('seed');
  for (const s of seeds) if (canonicalize(s) === null) throw flagError(CRAWL_SPEC, 'seed', `not an http(s) URL: ${JSON.stringify(s)}`);
  const store = args.string('store')!;
  if (args.has('lease-ms') && !/^rediss?:\/\//i.test(store)) throw flagError(CRAWL_SPEC, 'lease-ms', 'needs --store redis://HOST:PORT/DB');
  const proxy = args.string('proxy');
  if (proxy !== undefined) {
    let proto = '';
    try {
      proto = new URL(proxy).protocol;
    } catch {
      /* reported below */
    }
    if (proto !== 'http:' && proto !== 'https:') throw flagError(CRAWL_SPEC, 'proxy', `not an http(s) URL: ${JSON.stringify(proxy)}`);
  }
  const params = parseParams(args.strings('param'));
  const auth = parseAuth(args.strings('auth'));
  const skipExtensions = args.has('skip-extensions') ? parseSkipExtensions(args.string('skip-extensions')!) : undefined;
  const scope = {
    domains: args.strings('allow-domain').map(parseDomain),
    include: args.strings('include').map((v) => parsePattern('include', v)),
    exclude: args.strings('exclude').map((v) => parsePattern('exclude', v)),
  };
  // concat, not push(...): a seeds file may hold more URLs than a call has room for arguments
  const seedsFile = args.string('seeds');
  if (seedsFile !== undefined) seeds = seeds.concat(await readSeedsFile(seedsFile));
  const topicFile = args.string('topic');
  const topic = topicFile === undefined ? null : await loadTopic(topicFile);
  const segmenter = getSegmenter(args.string('segmenter'));
  const modelFile = args.string('model');
  const model = modelFile === undefined ? null : await loadModel(modelFile, segmenter);
  // a model's link classifier is what it was trained for: nb-link by default (RESULTS.md, "Leave one university out")
  const strategy = args.string('strategy') ?? (model !== null ? 'nb-link' : topic !== null ? 'best-first' : 'bfs');
  if (needsModel(strategy) && model === null) throw flagError(CRAWL_SPEC, 'strategy', `${strategy} needs --model FILE (focuscrawl train)`);
  if (strategy !== 'bfs' && topic === null && model === null) throw flagError(CRAWL_SPEC, 'strategy', `${strategy} needs --topic FILE`);
  const density = args.string('density');
  if (density !== undefined) params.density = density;
  // etfl reads its feature library (synonyms, kinds, mined terms) from the topic file
  if (strategy === 'etfl' && topicFile !== undefined) params.libraryPath ??= topicFile;
  const logFormat = args.string('log-format') as 'text' | 'json';
  const statsIntervalS = opt('stats-interval');
  const maxTimeS = opt('max-time');
  const timeout = opt('timeout-ms');
  const quiet = args.bool('quiet') === true;
  // a progress line only in text mode on a terminal, and not when records go to that terminal too
  const progress = !quiet && logFormat === 'text' && process.stderr.isTTY === true && process.stdout.isTTY !== true;
  const log = new CrawlLog(process.stderr, { format: logFormat, progress });
  const config: CrawlConfig = {
    seeds,
    topic,
    model,
    strategy,
    params,
    segmenter,
    tunnel: opt('tunnel') ?? Infinity,
    storeDir: store,
    fresh: args.bool('fresh') === true,
    leaseMs: opt('lease-ms'),
    maxPages: opt('max-pages') ?? Infinity,
    maxTimeMs: maxTimeS === undefined ? undefined : maxTimeS * 1000,
    maxDepth: opt('max-depth') ?? Infinity,
    maxFrontier: opt('max-frontier') ?? Infinity,
    scope,
    skipExtensions,
    dropIndex: args.bool('keep-index-html') !== true,
    stripSessionIds: args.bool('keep-session-ids') !== true,
    maxPagesPerHost: num('max-pages-per-host'),
    traps: {
      maxRepeat: num('max-path-repeat'),
      maxSegments: num('max-path-segments'),
      maxUrlLength: num('max-url-length'),
    },
    proxy,
    sitemaps: args.strings('sitemap'),
    sitemapsFromRobots: args.bool('sitemaps-from-robots') === true,
    sitemapMaxUrls: num('sitemap-max-urls'),
    nearDupDistance: num('near-dup-distance'),
    nearDupMinTokens: num('near-dup-min-tokens'),
    allowPrivate: args.bool('allow-private') === true,
    warcOut: args.string('warc-out'),
    warcMaxSize: opt('warc-max-size'),
    pagesOut: args.string('pages-out'),
    textChars: opt('text-max-chars') ?? (args.bool('text') === true ? DEFAULT_TEXT_CHARS : 0),
    outlinks: args.bool('outlinks') === true,
    concurrency: num('concurrency'),
    perHost: num('per-host'),
    delayMs: num('delay-ms'),
    delayExplicit: args.has('delay-ms'),
    delayFactor: num('delay-factor'),
    hostDiversity: num('host-diversity'),
    holdBack: num('hold-back'),
    maxBytes: num('max-bytes'),
    maxLinksPerPage: num('max-links-per-page'),
    userAgent: args.string('user-agent'),
    auth,
    timeouts: { connectMs: timeout, headersMs: timeout, bodyMs: timeout, fetchMs: num('fetch-timeout-ms') },
    retry: {
      retries: num('retries'),
      baseMs: num('retry-base-ms'),
      maxRetryAfterMs: num('max-retry-after') * 1000,
    },
    quiet,
    statsIntervalMs: statsIntervalS === undefined ? undefined : Math.round(statsIntervalS * 1000),
    logFormat,
    logStats: quiet ? undefined : (snapshot) => log.stats(snapshot),
    progress: progress ? (snapshot) => log.progress(snapshot) : undefined,
    output: process.stdout,
    log: (line) => log.line(line),
  };
  const ac = new AbortController();
  let signalCode = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    signalCode = sig === 'SIGINT' ? 130 : 143;
    ac.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await runCrawl({ ...config, signal: ac.signal });
  } catch (err) {
    // through the log: the progress line is erased first, and with --log-format json it is a JSON line
    if (!(err instanceof FocuscrawlError)) throw err;
    log.fatal(err.code, err.message);
    return exitCodeOf(err);
  } finally {
    log.clear();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return signalCode;
}

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
    if (cmd === 'crawl') return await crawlCommand(rest);
    if (cmd === 'replay') return await (await import('./replay/command.ts')).runReplay(rest);
    if (cmd === 'train') return await (await import('./train/command.ts')).runTrain(rest);
    if (cmd === 'eval') return await (await import('./eval/command.ts')).runEval(rest);
    if (cmd === 'compare') return await (await import('./eval/compare.ts')).runCompare(rest);
    if (cmd === 'expand-topic') return await (await import('./etfl/command.ts')).runExpandTopic(rest);
    if (cmd === 'gen-web') return await (await import('./genweb/command.ts')).runGenWeb(rest);
    if (cmd === 'stats') return await (await import('./stats-command.ts')).runStats(rest);
    if (cmd === 'records') return await (await import('./records-command.ts')).runRecords(rest);
    throw new UsageError(`unknown command ${JSON.stringify(cmd)} (try focuscrawl --help)`);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      const oneLine = (err as Error).message.replace(/\s*\n\s*/g, ' ');
      process.stderr.write(`focuscrawl: ${sanitizeForTerminal(oneLine, LOG_LINE_MAX)} (try focuscrawl ${sanitizeForTerminal(String(cmd), 100)} --help)\n`);
      return 2;
    }
    if (err instanceof FocuscrawlError) {
      // messages quote URLs and lines from seeds files, topics and pages
      process.stderr.write(`focuscrawl: ${err.code}: ${sanitizeForTerminal(err.message, LOG_LINE_MAX)}\n`);
      return exitCodeOf(err);
    }
    const stack = ((err as Error)?.stack ?? String(err)).split('\n').map((line) => sanitizeForTerminal(line, LOG_LINE_MAX));
    process.stderr.write(`focuscrawl: internal error: ${stack.join('\n')}\n`);
    return 1;
  }
}
