/**
 * The command line. Data goes to stdout, everything else to stderr.
 * Exit codes: 0 done (also when stdout was closed early, e.g. `| head`),
 * 1 runtime failure (store locked or unwritable, internal error),
 * 2 bad input (unknown flag, missing seeds, unreadable topic, malformed URL),
 * 130/143 interrupted by SIGINT/SIGTERM (the store stays consistent).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { FocuscrawlError, UsageError } from './errors.ts';
import { canonicalize } from './url.ts';
import { loadTopic } from './topic.ts';
import { knownStrategies, needsModel } from './scorers/index.ts';
import { loadModel } from './model.ts';
import { getSegmenter } from './text/segmenter.ts';
import { runCrawl, type CrawlConfig } from './pipeline.ts';
import { runReplay } from './replay/command.ts';
import { runTrain } from './train/command.ts';
import { runEval } from './eval/command.ts';
import { runCompare } from './eval/compare.ts';
import { runExpandTopic } from './etfl/command.ts';
import { runGenWeb } from './genweb/command.ts';
import { VERSION } from './version.ts';

const MAIN_HELP = `focuscrawl ${VERSION}: a focused web crawler that streams NDJSON

Usage:
  focuscrawl crawl --seed URL [--seed URL ...] | --seeds FILE [options]
  focuscrawl replay --warc FILE... [--port N]
  focuscrawl train | eval | compare | expand-topic | gen-web ...
  focuscrawl --help | --version
  focuscrawl <command> --help

Commands:
  crawl         fetch the pages most likely on topic first; one NDJSON record per URL on stdout
  replay        serve WARC files as an HTTP forward proxy on 127.0.0.1 (offline crawling)
  train         learn a model (page and link-context classifiers) from labelled pages or texts
  eval          harvest rate and target recall of a crawl's records against labels (+ SVG plot)
  compare       crawl one archive with several strategies and compare them (table + plot)
  expand-topic  mine extension terms for a topic (seed 002's feature library)
  gen-web       build a synthetic Chinese portal web (WARC) from labelled headlines
`;

const CRAWL_HELP = `Usage: focuscrawl crawl --seed URL [--seed URL ...] | --seeds FILE [options]

Topic and strategy:
  --topic FILE          topic.json: {"name": "...", "terms": ["..."], "threshold": 0.2}
  --strategy NAME       ${knownStrategies().join(' | ')}
                        (default: best-first with a topic or model, else bfs)
  --model FILE          a model from \`focuscrawl train\`: judges page relevance, scores
                        links for nb-link and bayes-kde
  --param KEY=VALUE     strategy parameter (repeatable), e.g. roundSize=10, density=gaussian;
                        overrides the topic file's "params"
  --density NAME        bayes-kde density: kernel (default) | gaussian
  --tunnel K            follow at most K consecutive off-topic hops (default: no limit;
                        0 = hard focus)
  --segmenter NAME      Chinese word segmentation: node-rs (default, @node-rs/jieba) |
                        nodejieba (optional package, if installed)
Scope:
  --max-pages N         stop after N pages (counted across resumed runs; default: no limit)
  --max-depth N         do not queue links more than N hops from a seed (default: no limit)
  --max-frontier N      keep at most the N best queued URLs (default: no limit)
  --keep-index-html     do not treat /dir/index.html and /dir/ as one URL
Politeness:
  --concurrency N       requests in flight in all (default 8)
  --per-host N          requests in flight per host (default 1)
  --delay-ms N          pause between requests to one host (default 1000; robots.txt
                        Crawl-delay wins when larger; not applied to replay-proxy answers
                        unless given explicitly)
  --host-diversity K    every K consecutive fetches from K different hosts when possible
  --user-agent STRING   User-Agent header (default names focuscrawl and its version)
HTTP:
  --proxy URL           send every request through this HTTP forward proxy (e.g. replay)
  --max-bytes N         body cap per page (default 1048576; the record says truncated)
  --auth HOST=USER:PASS basic credentials sent only to HOST (repeatable)
State:
  --store DIR           crawl state (LevelDB; default ./focuscrawl-store). Rerunning with
                        the same store resumes; seeds are optional then
  --fresh               delete the store first
  --quiet               no progress or summary on stderr
`;

/** Exit code for an error: 2 for bad input, 1 otherwise. */
function exitCodeOf(err: FocuscrawlError): number {
  return err.code === 'FC_USAGE' || err.code === 'FC_BAD_TOPIC' || err.code === 'FC_BAD_MODEL' ? 2 : 1;
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || value.trim() === '') {
    throw new UsageError(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return n;
}

async function readSeeds(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read seeds file ${file}: ${(err as Error).message}`, { cause: err });
  }
  const seeds: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const s = line.trim();
    if (s === '' || s.startsWith('#')) return;
    if (canonicalize(s) === null) throw new UsageError(`${file}:${i + 1}: not an http(s) URL: ${JSON.stringify(s.slice(0, 200))}`);
    seeds.push(s);
  });
  return seeds;
}

function parseParams(values: string[]): Record<string, number | string> {
  const params: Record<string, number | string> = {};
  for (const v of values) {
    const m = /^([A-Za-z][\w.-]*)=(.*)$/.exec(v);
    if (m === null) throw new UsageError(`--param wants KEY=VALUE, got ${JSON.stringify(v)}`);
    const n = Number(m[2]);
    params[m[1]] = m[2].trim() !== '' && Number.isFinite(n) ? n : m[2];
  }
  return params;
}

function parseAuth(values: string[]): CrawlConfig['auth'] {
  const auth: CrawlConfig['auth'] = {};
  for (const v of values) {
    const m = /^([^=]+)=([^:]*):(.*)$/.exec(v);
    if (m === null) throw new UsageError(`--auth wants HOST=USER:PASS, got ${JSON.stringify(v)}`);
    auth[m[1].toLowerCase()] = { user: m[2], pass: m[3] };
  }
  return auth;
}

async function crawlCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      seed: { type: 'string', multiple: true },
      seeds: { type: 'string' },
      topic: { type: 'string' },
      model: { type: 'string' },
      strategy: { type: 'string' },
      param: { type: 'string', multiple: true },
      density: { type: 'string' },
      tunnel: { type: 'string' },
      segmenter: { type: 'string' },
      'max-pages': { type: 'string' },
      'max-depth': { type: 'string' },
      'max-frontier': { type: 'string' },
      'keep-index-html': { type: 'boolean' },
      store: { type: 'string' },
      proxy: { type: 'string' },
      concurrency: { type: 'string' },
      'per-host': { type: 'string' },
      'delay-ms': { type: 'string' },
      'host-diversity': { type: 'string' },
      'max-bytes': { type: 'string' },
      'user-agent': { type: 'string' },
      auth: { type: 'string', multiple: true },
      fresh: { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    process.stdout.write(CRAWL_HELP);
    return 0;
  }
  const seeds = [...(values.seed ?? [])];
  for (const s of seeds) if (canonicalize(s) === null) throw new UsageError(`--seed is not an http(s) URL: ${JSON.stringify(s)}`);
  if (values.seeds !== undefined) seeds.push(...(await readSeeds(values.seeds)));
  const topic = values.topic === undefined ? null : await loadTopic(values.topic);
  const segmenter = getSegmenter(values.segmenter ?? 'node-rs');
  const model = values.model === undefined ? null : await loadModel(values.model, segmenter);
  const strategy = values.strategy ?? (topic === null && model === null ? 'bfs' : 'best-first');
  if (!knownStrategies().includes(strategy)) {
    throw new UsageError(`unknown --strategy ${JSON.stringify(strategy)}; known: ${knownStrategies().join(', ')}`);
  }
  if (needsModel(strategy) && model === null) throw new UsageError(`--strategy ${strategy} needs --model FILE (focuscrawl train)`);
  if (strategy !== 'bfs' && topic === null && model === null) throw new UsageError(`--strategy ${strategy} needs --topic FILE`);
  const params = parseParams(values.param ?? []);
  if (values.density !== undefined) params.density = values.density;
  // etfl reads its feature library (synonyms, kinds, mined terms) from the topic file
  if (strategy === 'etfl' && values.topic !== undefined) params.libraryPath ??= values.topic;
  if (values.proxy !== undefined) {
    let proto = '';
    try {
      proto = new URL(values.proxy).protocol;
    } catch {
      /* reported below */
    }
    if (proto !== 'http:' && proto !== 'https:') throw new UsageError(`--proxy is not an http(s) URL: ${JSON.stringify(values.proxy)}`);
  }
  const concurrency = positiveInt('concurrency', values.concurrency, 8);
  const perHost = positiveInt('per-host', values['per-host'], 1);
  if (concurrency < 1 || perHost < 1) throw new UsageError('--concurrency and --per-host must be at least 1');
  const config: CrawlConfig = {
    seeds,
    topic,
    model,
    strategy,
    params,
    segmenter,
    tunnel: positiveInt('tunnel', values.tunnel, Infinity),
    storeDir: values.store ?? './focuscrawl-store',
    fresh: values.fresh === true,
    maxPages: positiveInt('max-pages', values['max-pages'], Infinity),
    maxDepth: positiveInt('max-depth', values['max-depth'], Infinity),
    maxFrontier: positiveInt('max-frontier', values['max-frontier'], Infinity),
    dropIndex: values['keep-index-html'] !== true,
    proxy: values.proxy,
    concurrency,
    perHost,
    delayMs: positiveInt('delay-ms', values['delay-ms'], 1000),
    delayExplicit: values['delay-ms'] !== undefined,
    hostDiversity: positiveInt('host-diversity', values['host-diversity'], 0),
    maxBytes: positiveInt('max-bytes', values['max-bytes'], 1024 * 1024),
    userAgent: values['user-agent'],
    auth: parseAuth(values.auth ?? []),
    quiet: values.quiet === true,
    output: process.stdout,
    log: (line) => process.stderr.write(`${line}\n`),
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
  } finally {
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
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      process.stdout.write(MAIN_HELP);
      return 0;
    }
    if (cmd === '--version' || cmd === '-v') {
      process.stdout.write(`${VERSION}\n`);
      return 0;
    }
    if (cmd === 'crawl') return await crawlCommand(rest);
    if (cmd === 'replay') return await runReplay(rest);
    if (cmd === 'train') return await runTrain(rest);
    if (cmd === 'eval') return await runEval(rest);
    if (cmd === 'compare') return await runCompare(rest);
    if (cmd === 'expand-topic') return await runExpandTopic(rest);
    if (cmd === 'gen-web') return await runGenWeb(rest);
    throw new UsageError(`unknown command ${JSON.stringify(cmd)} (try focuscrawl --help)`);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      const oneLine = (err as Error).message.replace(/\s*\n\s*/g, ' ');
      process.stderr.write(`focuscrawl: ${oneLine} (try focuscrawl ${cmd} --help)\n`);
      return 2;
    }
    if (err instanceof FocuscrawlError) {
      process.stderr.write(`focuscrawl: ${err.code}: ${err.message}\n`);
      return exitCodeOf(err);
    }
    process.stderr.write(`focuscrawl: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    return 1;
  }
}
