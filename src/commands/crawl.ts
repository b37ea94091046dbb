/**
 * `focuscrawl crawl`: its flags, one entry each (src/commands/args.ts generates
 * parsing, validation, --help and docs/cli.md from it), and the command,
 * which turns them into a CrawlConfig and runs the pipeline. A limit that
 * counts something (pages, frontier, path trap limits) takes 0 for "no limit".
 */
import { flagError, helpText, parseCommand, type Args, type CommandSpec, type Flag } from './args.ts';
import { exitStatusOf, FocuscrawlError } from '../errors.ts';
import type { CrawlConfig } from '../crawl/config.ts';
import { parseSkipExtensions } from '../urls/extensions.ts';
import { parseDomain, parsePattern } from '../urls/scope.ts';
import { DEFAULT_MAX_PAGES_PER_HOST } from '../frontier/host-budget.ts';
import { DEFAULT_RETRY_POLICY } from '../frontier/retry.ts';
import { knownStrategies } from '../relevance/scorers/index.ts';
import { DEFAULT_HOLD_BACK } from '../stages/frontier-source.ts';
import { DEFAULT_TRAP_LIMITS } from '../urls/traps.ts';
import { DEFAULT_MAX_LINKS } from '../parse/page-parser.ts';
import { MAX_WORKERS } from '../parse/pool.ts';
import { DEFAULT_EXPLORE } from '../relevance/scorers/explore.ts';

/** The longest setTimeout Node keeps (ms): a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** The largest count a limit flag takes (a trillion). */
const MAX_COUNT = 1e12;

const SEEDS = 'Seeds';
const TOPIC = 'Topic and strategy';
const SCOPE = 'Scope';
const TRAPS = 'Crawler traps';
const POLITE = 'Politeness';
const HTTP = 'HTTP';
const RETRIES = 'Retries';
const RECORDS = 'Records (stdout)';
const FILES = 'Output files (records still go to stdout)';
const STATE = 'State';
const LOGGING = 'Logging (stderr)';

const FLAGS: Flag[] = [
  { group: SEEDS, name: 'seed', type: 'string', value: 'URL', multiple: true, help: 'a start URL' },
  { group: SEEDS, name: 'seeds', type: 'string', value: 'FILE', help: 'start URLs, one a line (# comments, blank lines); - reads them from stdin: ... | focuscrawl crawl --seeds - ...' },

  { group: TOPIC, name: 'topic', type: 'string', value: 'FILE', help: 'topic.json: {"name": "...", "terms": ["..."], "threshold": 0.2} (docs/topic-format.md)' },
  { group: TOPIC, name: 'strategy', type: 'choice', value: 'NAME', choices: knownStrategies(), defaultText: 'nb-link-layers with a model that has layers (train --warc), nb-link with another model (train --texts, --no-layers), best-first with a topic, else bfs', help: `how the frontier is ordered: ${knownStrategies().join(', ')}` },
  { group: TOPIC, name: 'model', type: 'string', value: 'FILE', help: 'a model from `focuscrawl train`: judges page relevance, scores links for nb-link and bayes-kde (docs/model-format.md)' },
  { group: TOPIC, name: 'param', type: 'string', value: 'KEY=VALUE', multiple: true, help: 'a strategy parameter, e.g. roundSize=10; overrides the topic file\'s "params"' },
  { group: TOPIC, name: 'density', type: 'choice', choices: ['kernel', 'gaussian'], defaultText: 'kernel', help: 'the bayes-kde density (the same as --param density=NAME)' },
  { group: TOPIC, name: 'explore', type: 'number', value: 'X', min: 0, max: 1, default: DEFAULT_EXPLORE, help: 'share of fetches taken in breadth-first order while the crawl compares them with the strategy\'s picks; then most fetches go to breadth-first order unless the strategy\'s picks are judged to harvest more (docs/explore.md: 0.5 shrinks the worst cases of the keyword strategies); 0 = the strategy alone, as its paper defines it' },
  { group: TOPIC, name: 'site-lane', type: 'number', value: 'X', min: 0, max: 1, defaultText: '0.5 for nb-link, nb-link-layers and online with --model, else 0', help: 'share of fetches taken from the host whose fetched pages were judged relevant at the highest rate (a Beta prior: one page proves little), while it beats the recent harvest (docs/explore.md); 0 = the strategy alone, as its paper defines it' },
  { group: TOPIC, name: 'tunnel', type: 'int', value: 'K', min: 0, max: 1_000_000, defaultText: 'no limit', help: 'follow at most K consecutive off-topic hops (0 = hard focus)' },
  { group: TOPIC, name: 'segmenter', type: 'string', value: 'NAME', default: 'node-rs', help: 'Chinese word segmentation: node-rs (@node-rs/jieba) or nodejieba (an optional package, if installed)' },

  { group: SCOPE, name: 'max-pages', type: 'int', min: 1, max: MAX_COUNT, zeroIsNoLimit: true, defaultText: 'no limit', help: 'stop after N pages (counted across resumed runs)' },
  { group: SCOPE, name: 'max-time', type: 'number', value: 'S', min: 0.001, max: Math.floor(MAX_TIMER_MS / 1000), defaultText: 'no limit', help: 'stop after S seconds of this run (decimals allowed); requests in flight go back to the frontier, rerun to go on (exit 0)' },
  { group: SCOPE, name: 'max-depth', type: 'int', min: 0, max: 1_000_000, defaultText: 'no limit', help: 'do not queue links more than N hops from a seed (0: the seeds only)' },
  { group: SCOPE, name: 'max-frontier', type: 'int', min: 1, max: MAX_COUNT, zeroIsNoLimit: true, defaultText: 'no limit', help: 'keep at most the N best queued URLs' },
  { group: SCOPE, name: 'allow-domain', type: 'string', value: 'D', multiple: true, help: 'queue only URLs on D or its subdomains (any of them; cornell.edu allows www.cs.cornell.edu; also for redirects: FC_OUT_OF_SCOPE); seeds are always fetched' },
  { group: SCOPE, name: 'include', type: 'string', value: 'REGEX', multiple: true, help: 'queue only URLs that match one of these (JavaScript regular expression, unanchored, tested on the canonical URL)' },
  { group: SCOPE, name: 'exclude', type: 'string', value: 'REGEX', multiple: true, help: 'never queue URLs that match one of these' },
  { group: SCOPE, name: 'skip-extensions', type: 'string', value: 'LIST', defaultText: 'pdf, ps, gz, zip, images, audio, video, office files, ... (docs/crawling.md, "Files that are not pages")', help: 'do not queue links or sitemap entries whose path ends in one of these extensions (comma-separated; none = queue them all)' },
  { group: SCOPE, name: 'sitemap', type: 'string', value: 'URL|FILE', multiple: true, help: 'queue the URLs of a sitemap (urlset, sitemapindex, text, .gz) at depth 1, scored like links; entries on another host than the sitemap are dropped unless its robots.txt lists it' },
  { group: SCOPE, name: 'sitemaps-from-robots', type: 'boolean', help: "also read the sitemaps named by each seed host's robots.txt" },
  { group: SCOPE, name: 'sitemap-max-urls', type: 'int', min: 1, max: 1e9, default: 1_000_000, help: 'URLs taken from all sitemaps together' },
  { group: SCOPE, name: 'near-dup-distance', type: 'int', value: 'K', min: 0, max: 10, default: 3, help: 'a page within Hamming distance K of an earlier page\'s SimHash is a near-duplicate: "duplicateOf" in its record, its links are not queued (0 = off)' },
  { group: SCOPE, name: 'near-dup-min-tokens', type: 'int', min: 0, max: 1_000_000, default: 30, help: 'pages with fewer tokens are never near-duplicates' },
  { group: SCOPE, name: 'keep-index-html', type: 'boolean', help: 'do not treat /dir/index.html and /dir/ as one URL' },
  { group: SCOPE, name: 'keep-session-ids', type: 'boolean', help: 'do not strip session ids from URLs (;jsessionid=, PHPSESSID=, sessionid=, session_id=, osCsid=, CFID=, CFTOKEN=, ASPSESSIONID*=, and sid= when its value is a 16+ character token)' },

  { group: TRAPS, name: 'max-pages-per-host', type: 'int', min: 1, max: MAX_COUNT, zeroIsNoLimit: true, default: DEFAULT_MAX_PAGES_PER_HOST, help: 'at most N pages per host (counted across resumed runs); then its queued URLs become FC_HOST_BUDGET records (no request) and links to it are dropped' },
  { group: TRAPS, name: 'max-path-repeat', type: 'int', min: 1, max: 1_000_000, zeroIsNoLimit: true, default: DEFAULT_TRAP_LIMITS.maxRepeat, help: 'drop links whose path has a segment or group of segments more than N times in a row: /a/a/a/, /a/b/a/b/a/b/' },
  { group: TRAPS, name: 'max-path-segments', type: 'int', min: 1, max: 1_000_000, zeroIsNoLimit: true, default: DEFAULT_TRAP_LIMITS.maxSegments, help: 'drop links with more than N path segments' },
  { group: TRAPS, name: 'max-url-length', type: 'int', min: 1, max: 100_000_000, zeroIsNoLimit: true, default: DEFAULT_TRAP_LIMITS.maxUrlLength, help: 'drop links longer than N characters' },

  { group: POLITE, name: 'concurrency', type: 'int', min: 1, max: 10_000, default: 8, help: 'requests in flight in all' },
  { group: POLITE, name: 'per-host', type: 'int', min: 1, max: 1000, default: 1, help: 'requests in flight per host' },
  { group: POLITE, name: 'delay-ms', type: 'int', min: 0, max: MAX_TIMER_MS, default: 1000, help: 'pause between requests to one host (robots.txt Crawl-delay wins when larger; not applied to replay-proxy answers unless given explicitly)' },
  { group: POLITE, name: 'delay-factor', type: 'number', value: 'F', min: 0, max: 1000, default: 0, help: "also pause F times as long as the host's last request took (at most 30 s; 0 = off): a slow server is asked less often, as Heritrix's delay factor (its default is 5)" },
  { group: POLITE, name: 'host-diversity', type: 'int', value: 'K', min: 0, max: 10_000, default: 0, help: 'every K consecutive fetches from K different hosts when possible (0 = off)' },
  { group: POLITE, name: 'hold-back', type: 'number', value: 'Q', min: 0, max: 1, default: DEFAULT_HOLD_BACK, help: "while a request is in flight and the best queued URL's host is about one request from free, leave a slot empty rather than fill it with a URL in the bottom Q of the queue by score (0.5: at most the median; 0 = fill every free slot)" },
  { group: POLITE, name: 'user-agent', type: 'string', value: 'STRING', defaultText: 'names focuscrawl and its version', help: 'the User-Agent header' },

  { group: HTTP, name: 'proxy', type: 'string', value: 'URL', help: 'send every request through this HTTP forward proxy (e.g. focuscrawl replay)' },
  { group: HTTP, name: 'allow-private', type: 'boolean', help: 'also fetch loopback, private, link-local and cloud-metadata addresses (refused by default: FC_PRIVATE_ADDRESS; not checked with --proxy, which resolves names itself)' },
  { group: HTTP, name: 'max-bytes', type: 'int', min: 1, max: 2 ** 30, default: 1024 * 1024, help: 'body cap per page (the record says truncated)' },
  { group: HTTP, name: 'max-links-per-page', type: 'int', min: 1, max: 10_000_000, default: DEFAULT_MAX_LINKS, help: 'links read per HTML page; more are dropped: the record says "caps": ["links"], the summary counts them as links-per-page' },
  { group: HTTP, name: 'workers', type: 'int', min: 0, max: MAX_WORKERS, defaultText: '1 with 3 or more cores, else 0', help: 'parse pages (charset, HTML, link contexts, near-duplicate SimHash) in N worker threads, 0 = on the main thread; pages leave the parse in the order they came (docs/workers.md)' },
  { group: HTTP, name: 'auth', type: 'string', value: 'HOST=USER:PASS', multiple: true, help: 'basic credentials sent only to HOST' },
  { group: HTTP, name: 'timeout-ms', type: 'int', min: 1, max: MAX_TIMER_MS, defaultText: '10000, 20000, 30000', help: 'connect, response-headers and body-gap timeout, each: FC_TIMEOUT' },
  { group: HTTP, name: 'fetch-timeout-ms', type: 'int', min: 1, max: MAX_TIMER_MS, default: 60000, help: 'cap on one whole request, body included: FC_TIMEOUT' },

  { group: RETRIES, name: 'retries', type: 'int', min: 0, max: 100, default: DEFAULT_RETRY_POLICY.retries, help: 'fetch a URL again after FC_NETWORK, FC_TIMEOUT or HTTP 429, 500, 502, 503, 504, at most N more times; the record of the last attempt says "attempts"' },
  { group: RETRIES, name: 'retry-base-ms', type: 'int', min: 0, max: MAX_TIMER_MS, default: DEFAULT_RETRY_POLICY.baseMs, help: "after such a failure its host waits N * 2^(attempt-1) ms, +-25%, or the answer's Retry-After" },
  { group: RETRIES, name: 'max-retry-after', type: 'int', value: 'S', min: 0, max: Math.floor(MAX_TIMER_MS / 1000), default: DEFAULT_RETRY_POLICY.maxRetryAfterMs / 1000, help: 'cap on any host wait, seconds; an answer with a longer Retry-After is not retried' },

  { group: RECORDS, name: 'text', type: 'boolean', help: 'each HTML page\'s record carries its main text as "text": the visible text in document order, one line per block, navigation (menus, headers, footers, link lists) left out; the title is "title"' },
  { group: RECORDS, name: 'text-max-chars', type: 'int', min: 1, max: 1e9, defaultText: '100000', help: 'cap of "text", characters (implies --text); a cut text has "textTruncated": true' },
  { group: RECORDS, name: 'outlinks', type: 'boolean', help: 'each page record lists its followable links as "outlinks": [{"url", "anchor", "score"}], each canonical URL once' },

  { group: FILES, name: 'warc-out', type: 'string', value: 'DIR', help: 'also archive every fetched response in DIR as WARC/1.1, gzip per record: request + response records (redirect hops too) and a metadata record with score, relevance, depth, parent, strategy; written before the page is committed; the file being written ends in .open. `focuscrawl replay --warc FILE ...` serves them' },
  { group: FILES, name: 'warc-max-size', type: 'bytes', min: 1, max: 2 ** 50, defaultText: '1G', help: 'roll over to a new WARC file at N bytes' },
  { group: FILES, name: 'pages-out', type: 'string', value: 'DIR', help: "save each kept page body as DIR/ab/<md5 of its URL> (Zou et al.'s page repository, docs/algorithms.md#page-repository; ab = the hash's first two hex digits)" },

  { group: STATE, name: 'store', type: 'string', value: 'DIR|redis://HOST:PORT/DB[?crawl=NAME]', default: './focuscrawl-store', help: 'crawl state: a LevelDB directory (rerunning with the same store resumes; seeds are optional then), or a Redis server shared by several crawl workers (each URL is fetched by one worker; --per-host, --delay-ms and --max-pages hold across them)' },
  { group: STATE, name: 'fresh', type: 'boolean', help: "delete the store's own files first, nothing else (refused if DIR is not a focuscrawl store: docs/store-directory.md; with Redis, deletes the crawl's keys)" },
  { group: STATE, name: 'lease-ms', type: 'int', min: 100, max: MAX_TIMER_MS, defaultText: '30000', help: "with a Redis store: a worker's claimed URLs return to the frontier N ms after it dies" },

  { group: LOGGING, name: 'stats-interval', type: 'number', value: 'S', min: 0, max: Math.floor(MAX_TIMER_MS / 1000), default: 10, help: 'a stats record every S seconds (0 = none): pages, pages/s, harvest, frontier, hosts, errors by code, fetch latency p50/p95/p99, bytes; a final one at exit (also kept in the store)' },
  { group: LOGGING, name: 'log-format', type: 'choice', choices: ['text', 'json'], default: 'text', help: 'json: every stderr line is one JSON object' },
  { group: LOGGING, name: 'quiet', type: 'boolean', help: 'no stats, progress line or summary on stderr' },
];

export const CRAWL_SPEC: CommandSpec = {
  name: 'crawl',
  usage: ['crawl --seed URL [--seed URL ...] | --seeds FILE [options]'],
  summary: 'Fetch the pages most likely on topic first; one NDJSON record per URL (a page or an error) on stdout, logs on stderr.',
  flags: FLAGS,
  exitCodes: [
    [0, 'done, a limit was reached, or stdout was closed early (| head); also --help'],
    [1, 'runtime failure: the store is locked (FC_STORE_LOCKED) or cannot be opened or written (FC_STORE), a --warc-out or --pages-out file cannot be written, the crawl stalled (FC_STALLED), an internal error'],
    [2, 'bad input: FC_USAGE (unknown flag, bad or missing value, bad seeds), FC_BAD_TOPIC, FC_BAD_MODEL; FC_CAP_EXCEEDED (a store batch over its cap)'],
    [130, 'interrupted by SIGINT (Ctrl-C); the store is consistent, rerun with the same --store to resume'],
    [143, 'interrupted by SIGTERM; as for 130'],
  ],
};

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

/** The modules the crawl loads (after --help: it needs none of them). */
async function loadModules() {
  const [{ canonicalize }, { readSeedsFile }, { loadTopic }, { needsModel, modelStrategy }, { loadModel }, { getSegmenter }, { runCrawl }, { CrawlLog }] = await Promise.all([
    import('../urls/canonical.ts'),
    import('../seeds/file.ts'),
    import('../relevance/topic.ts'),
    import('../relevance/scorers/index.ts'),
    import('../relevance/model.ts'),
    import('../relevance/text/segmenter.ts'),
    import('../pipeline.ts'),
    import('../output/crawl-log.ts'),
  ]);
  return { canonicalize, readSeedsFile, loadTopic, needsModel, modelStrategy, loadModel, getSegmenter, runCrawl, CrawlLog };
}

type Modules = Awaited<ReturnType<typeof loadModules>>;
type CrawlLogger = InstanceType<Modules['CrawlLog']>;

/** `focuscrawl crawl ARGV`: runs the crawl; resolves to the exit code. */
export async function runCrawlCommand(argv: string[]): Promise<number> {
  const { help, args } = parseCommand(CRAWL_SPEC, argv);
  if (help) {
    process.stdout.write(helpText(CRAWL_SPEC));
    return 0;
  }
  const m = await loadModules();
  const { config, log } = await crawlConfigOf(args, m);
  return runWithSignals(m, config, log);
}

/** The flags as a CrawlConfig (FC_USAGE for a bad value), the files they name read. */
async function crawlConfigOf(args: Args, m: Modules): Promise<{ config: CrawlConfig; log: CrawlLogger }> {
  let seeds = args.strings('seed');
  for (const s of seeds) if (m.canonicalize(s) === null) throw flagError(CRAWL_SPEC, 'seed', `not an http(s) URL: ${JSON.stringify(s)}`);
  const store = args.string('store')!;
  if (args.has('lease-ms') && !/^rediss?:\/\//i.test(store)) throw flagError(CRAWL_SPEC, 'lease-ms', 'needs --store redis://HOST:PORT/DB');
  const proxy = args.string('proxy');
  if (proxy !== undefined) checkProxy(proxy);
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
  if (seedsFile !== undefined) seeds = seeds.concat(await m.readSeedsFile(seedsFile));
  const focus = await focusOf(args, m, params);
  const logFormat = args.string('log-format') as 'text' | 'json';
  const quiet = args.bool('quiet') === true;
  // a progress line only in text mode on a terminal, and not when records go to that terminal too
  const progress = !quiet && logFormat === 'text' && process.stderr.isTTY === true && process.stdout.isTTY !== true;
  const log = new m.CrawlLog(process.stderr, { format: logFormat, progress });
  const config: CrawlConfig = {
    seeds,
    ...focus,
    params,
    storeDir: store,
    scope,
    skipExtensions,
    proxy,
    auth,
    ...limitsOf(args),
    quiet,
    logFormat,
    logStats: quiet ? undefined : (snapshot) => log.stats(snapshot),
    progress: progress ? (snapshot) => log.progress(snapshot) : undefined,
    output: process.stdout,
    log: (line) => log.line(line),
  };
  return { config, log };
}

function checkProxy(proxy: string): void {
  let proto = '';
  try {
    proto = new URL(proxy).protocol;
  } catch {
    /* reported below */
  }
  if (proto !== 'http:' && proto !== 'https:') throw flagError(CRAWL_SPEC, 'proxy', `not an http(s) URL: ${JSON.stringify(proxy)}`);
}

/** --topic, --model, --strategy and the parameters they take (`params` gets --density and etfl's library). */
async function focusOf(args: Args, m: Modules, params: Record<string, number | string>): Promise<Pick<CrawlConfig, 'topic' | 'model' | 'strategy' | 'segmenter'>> {
  const topicFile = args.string('topic');
  const topic = topicFile === undefined ? null : await m.loadTopic(topicFile);
  const segmenter = m.getSegmenter(args.string('segmenter'));
  const modelFile = args.string('model');
  const model = modelFile === undefined ? null : await m.loadModel(modelFile, segmenter);
  // a model's link classifier is what it was trained for: nb-link by default (RESULTS.md, "Leave one university out"), nb-link-layers with layers
  const strategy = args.string('strategy') ?? (model !== null ? m.modelStrategy(model) : topic !== null ? 'best-first' : 'bfs');
  if (m.needsModel(strategy) && model === null) throw flagError(CRAWL_SPEC, 'strategy', `${strategy} needs --model FILE (focuscrawl train)`);
  if (strategy !== 'bfs' && topic === null && model === null) throw flagError(CRAWL_SPEC, 'strategy', `${strategy} needs --topic FILE`);
  const density = args.string('density');
  if (density !== undefined) params.density = density;
  // etfl reads its feature library (synonyms, kinds, mined terms) from the topic file
  if (strategy === 'etfl' && topicFile !== undefined) params.libraryPath ??= topicFile;
  return { topic, model, strategy, segmenter };
}

/** The numeric and boolean flags: limits, politeness, HTTP, retries, records, output files. */
function limitsOf(args: Args) {
  const num = (name: string): number => args.number(name)!;
  const opt = (name: string): number | undefined => args.number(name);
  const statsIntervalS = opt('stats-interval');
  const maxTimeS = opt('max-time');
  const timeout = opt('timeout-ms');
  return {
    tunnel: opt('tunnel') ?? Infinity,
    explore: opt('explore'),
    siteLane: opt('site-lane'),
    fresh: args.bool('fresh') === true,
    leaseMs: opt('lease-ms'),
    maxPages: opt('max-pages') ?? Infinity,
    maxTimeMs: maxTimeS === undefined ? undefined : maxTimeS * 1000,
    maxDepth: opt('max-depth') ?? Infinity,
    maxFrontier: opt('max-frontier') ?? Infinity,
    dropIndex: args.bool('keep-index-html') !== true,
    stripSessionIds: args.bool('keep-session-ids') !== true,
    maxPagesPerHost: num('max-pages-per-host'),
    traps: { maxRepeat: num('max-path-repeat'), maxSegments: num('max-path-segments'), maxUrlLength: num('max-url-length') },
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
    workers: opt('workers'),
    perHost: num('per-host'),
    delayMs: num('delay-ms'),
    delayExplicit: args.has('delay-ms'),
    delayFactor: num('delay-factor'),
    hostDiversity: num('host-diversity'),
    holdBack: num('hold-back'),
    maxBytes: num('max-bytes'),
    maxLinksPerPage: num('max-links-per-page'),
    userAgent: args.string('user-agent'),
    timeouts: { connectMs: timeout, headersMs: timeout, bodyMs: timeout, fetchMs: num('fetch-timeout-ms') },
    retry: { retries: num('retries'), baseMs: num('retry-base-ms'), maxRetryAfterMs: num('max-retry-after') * 1000 },
    statsIntervalMs: statsIntervalS === undefined ? undefined : Math.round(statsIntervalS * 1000),
  } satisfies Partial<CrawlConfig>;
}

/** Run the crawl; SIGINT and SIGTERM stop it (exit 130, 143), a coded error is logged (its exit status). */
async function runWithSignals(m: Modules, config: CrawlConfig, log: CrawlLogger): Promise<number> {
  const ac = new AbortController();
  let signalCode = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    signalCode = sig === 'SIGINT' ? 130 : 143;
    ac.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await m.runCrawl({ ...config, signal: ac.signal });
  } catch (err) {
    // through the log: the progress line is erased first, and with --log-format json it is a JSON line
    if (!(err instanceof FocuscrawlError)) throw err;
    log.fatal(err.code, err.message);
    return exitStatusOf(err);
  } finally {
    log.clear();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return signalCode;
}
