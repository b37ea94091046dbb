/**
 * The command line. Data goes to stdout, everything else to stderr.
 * Exit codes: 0 done (also when stdout was closed early, e.g. `| head`),
 * 1 runtime failure (store locked or unwritable, internal error),
 * 2 bad input (unknown flag, missing seeds, unreadable topic, malformed URL),
 * 130/143 interrupted by SIGINT/SIGTERM (the store stays consistent).
 */
import { parseArgs } from 'node:util';
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
  stats         pages, harvest, errors, latency of a crawl store, finished or running
  records       the records a crawl committed, from its store, as it printed them
`;

/** The crawl command's help; the defaults come from the modules it loads. */
function crawlHelp(strategies: string[], maxPagesPerHost: number, maxLinks: number, traps: { maxRepeat: number; maxSegments: number; maxUrlLength: number }): string {
  return `Usage: focuscrawl crawl --seed URL [--seed URL ...] | --seeds FILE [options]

Seeds:
  --seed URL            a start URL (repeatable)
  --seeds FILE          start URLs, one a line (# comments, blank lines); - reads them
                        from stdin: ... | focuscrawl crawl --seeds - ...

Topic and strategy:
  --topic FILE          topic.json: {"name": "...", "terms": ["..."], "threshold": 0.2}
  --strategy NAME       ${strategies.join(' | ')}
                        (default: nb-link with a model, best-first with a topic, else bfs)
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
  --max-time S          stop after S seconds of this run (decimals allowed); requests in
                        flight go back to the frontier, rerun to go on (exit 0)
  --max-depth N         do not queue links more than N hops from a seed (default: no limit)
  --max-frontier N      keep at most the N best queued URLs (default: no limit)
  --allow-domain D      queue only URLs on D or its subdomains (repeatable: any of them;
                        cornell.edu allows www.cs.cornell.edu; also for redirects:
                        FC_OUT_OF_SCOPE); seeds are always fetched
  --include REGEX       queue only URLs that match one of these (repeatable; JavaScript
                        regular expression, unanchored, tested on the canonical URL)
  --exclude REGEX       never queue URLs that match one of these (repeatable)
  --skip-extensions L   do not queue links or sitemap entries whose path ends in one of
                        these extensions, files that are not pages (comma-separated;
                        default: pdf, ps, gz, zip, images, audio, video, office files,
                        ...: README "Files that are not pages"; none = queue them all)
  --sitemap URL|FILE    queue the URLs of a sitemap (urlset, sitemapindex, text, .gz) at
                        depth 1, scored like links (repeatable); entries on another host
                        than the sitemap are dropped unless its robots.txt lists it
  --sitemaps-from-robots
                        also read the sitemaps named by each seed host's robots.txt
  --sitemap-max-urls N  URLs taken from all sitemaps together (default 1000000)
  --near-dup-distance K a page within Hamming distance K of an earlier page's SimHash is
                        a near-duplicate: "duplicateOf" in its record, its links are not
                        queued (default 3; 0 = off; at most 10)
  --near-dup-min-tokens N
                        pages with fewer tokens are never near-duplicates (default 30)
  --keep-index-html     do not treat /dir/index.html and /dir/ as one URL
  --keep-session-ids    do not strip session ids from URLs (;jsessionid=, PHPSESSID=,
                        sessionid=, session_id=, osCsid=, CFID=, CFTOKEN=, ASPSESSIONID*=,
                        and sid= when its value is a 16+ character token)
Crawler traps (0 turns a limit off):
  --max-pages-per-host N
                        at most N pages per host; then its queued URLs become
                        FC_HOST_BUDGET records (no request) and links to it are
                        dropped (default ${maxPagesPerHost}; counted across resumed runs)
  --max-path-repeat N   drop links whose path has a segment or group of segments more
                        than N times in a row: /a/a/a/, /a/b/a/b/a/b/ (default ${traps.maxRepeat})
  --max-path-segments N drop links with more than N path segments (default ${traps.maxSegments})
  --max-url-length N    drop links longer than N characters (default ${traps.maxUrlLength})
Politeness:
  --concurrency N       requests in flight in all (default 8)
  --per-host N          requests in flight per host (default 1)
  --delay-ms N          pause between requests to one host (default 1000; robots.txt
                        Crawl-delay wins when larger; not applied to replay-proxy answers
                        unless given explicitly)
  --delay-factor F      also pause F times as long as the host's last request took (at
                        most 30 s; default 0 = off): a slow server is asked less often,
                        as Heritrix's delay factor (its default is 5)
  --host-diversity K    every K consecutive fetches from K different hosts when possible
  --hold-back Q         while a request is in flight and the best queued URL's host is
                        about one request from free, leave a slot empty rather than fill
                        it with a URL in the bottom Q of the queue by score (0..1,
                        default 0.5: at most the median; 0 = fill every free slot)
  --user-agent STRING   User-Agent header (default names focuscrawl and its version)
HTTP:
  --proxy URL           send every request through this HTTP forward proxy (e.g. replay)
  --allow-private       also fetch loopback, private, link-local and cloud-metadata
                        addresses (refused by default: FC_PRIVATE_ADDRESS; not checked
                        with --proxy, which resolves names itself)
  --max-bytes N         body cap per page (default 1048576; the record says truncated)
  --max-links-per-page N
                        links read per HTML page (default ${maxLinks}); more are dropped:
                        the record says "caps": ["links"], the summary counts them as
                        links-per-page
  --auth HOST=USER:PASS basic credentials sent only to HOST (repeatable)
  --timeout-ms N        connect, response-headers and body-gap timeout, each (defaults
                        10000, 20000, 30000): FC_TIMEOUT
  --fetch-timeout-ms N  cap on one whole request, body included (default 60000): FC_TIMEOUT
Retries:
  --retries N           fetch a URL again after FC_NETWORK, FC_TIMEOUT or HTTP 429, 500,
                        502, 503, 504, at most N more times (default 2); the record of
                        the last attempt says "attempts"
  --retry-base-ms N     after such a failure its host waits N * 2^(attempt-1) ms, +-25%
                        (default 1000), or the answer's Retry-After
  --max-retry-after S   cap on any host wait, seconds (default 120); an answer with a
                        longer Retry-After is not retried
Records (stdout):
  --text                each HTML page's record carries its main text as "text": the
                        visible text in document order, one line per block, navigation
                        (menus, headers, footers, link lists) left out; the title is
                        "title" (default: no text)
  --text-max-chars N    cap of "text", characters (default 100000; implies --text); a
                        cut text has "textTruncated": true
  --outlinks            each page record lists its followable links as "outlinks":
                        [{"url", "anchor", "score"}], each canonical URL once
Output files (records still go to stdout):
  --warc-out DIR        also archive every fetched response in DIR as WARC/1.1, gzip per
                        record: request + response records (redirect hops too) and a
                        metadata record with score, relevance, depth, parent, strategy;
                        written before the page is committed; the file being written ends
                        in .open. \`focuscrawl replay --warc FILE --warc FILE ...\` serves them
  --warc-max-size N     roll over to a new WARC file at N bytes (default 1G; suffixes
                        k, M, G = 1000^n, Ki, Mi, Gi = 1024^n)
  --pages-out DIR       save each kept page body as DIR/ab/<md5 of its URL> (seed 001's
                        page repository; ab = the hash's first two hex digits)
State:
  --store DIR           crawl state (LevelDB; default ./focuscrawl-store). Rerunning with
                        the same store resumes; seeds are optional then
  --fresh               delete the store first
  --store redis://HOST:PORT/DB[?crawl=NAME]
                        crawl state on a Redis server, shared by several crawl
                        workers (processes, machines): each URL is fetched by one
                        worker, --per-host, --delay-ms and --max-pages hold across them
  --lease-ms N          with Redis: a worker's claimed URLs return to the frontier
                        N ms after it dies (default 30000)
Logging (stderr):
  --stats-interval S    a stats record every S seconds (default 10; 0 = none): pages,
                        pages/s, harvest, frontier, hosts, errors by code, fetch latency
                        p50/p95/p99, bytes; a final one at exit (also kept in the store)
  --log-format FORMAT   text (default) | json: every stderr line is one JSON object
  --quiet               no stats, progress line or summary on stderr
`;
}

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

/** --lease-ms: an integer >= 100, only with a redis:// --store. */
function leaseMs(value: string | undefined, store: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^rediss?:\/\//i.test(store ?? '')) throw new UsageError('--lease-ms needs --store redis://HOST:PORT/DB');
  const n = positiveInt('lease-ms', value, 0);
  if (n < 100) throw new UsageError(`--lease-ms must be at least 100, got ${JSON.stringify(value)}`);
  return n;
}

/** A trap limit: a non-negative integer, where 0 means no limit (Infinity). */
function limit(name: string, value: string | undefined, fallback: number): number {
  const n = positiveInt(name, value, fallback);
  return n === 0 ? Infinity : n;
}

/** A positive integer flag (0 refused), or `fallback` when absent. */
function atLeastOne(name: string, value: string | undefined, fallback: number): number {
  const n = positiveInt(name, value, fallback);
  if (n < 1) throw new UsageError(`--${name} must be at least 1, got ${JSON.stringify(value)}`);
  return n;
}

/** A timeout flag in ms (at least 1), or undefined for the default. */
function timeoutMs(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = positiveInt(name, value, 0);
  if (n < 1) throw new UsageError(`--${name} must be at least 1`);
  return n;
}

/** A byte size: an integer with an optional k/M/G (1000^n) or Ki/Mi/Gi (1024^n) suffix, at least 1. */
function byteSize(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{1,15})\s*(k|ki|m|mi|g|gi|t|ti)?b?$/i.exec(value.trim());
  if (m === null || Number(m[1]) < 1) throw new UsageError(`--${name} must be a positive number of bytes (e.g. 1G, 500M), got ${JSON.stringify(value)}`);
  const unit = (m[2] ?? '').toLowerCase();
  const power = { '': 0, k: 1, m: 2, g: 3, t: 4 }[unit.replace('i', '') as '' | 'k' | 'm' | 'g' | 't'];
  return Number(m[1]) * (unit.endsWith('i') ? 1024 : 1000) ** power;
}

/** --text: the cap of a record's main text (100,000 characters: a long article, not a dump of a 1 MB page). */
const DEFAULT_TEXT_CHARS = 100_000;

/** --text / --text-max-chars: the cap of a record's main text, 0 without either flag. */
function textChars(text: boolean, max: string | undefined): number {
  if (max === undefined) return text ? DEFAULT_TEXT_CHARS : 0;
  const n = positiveInt('text-max-chars', max, DEFAULT_TEXT_CHARS);
  if (n < 1) throw new UsageError(`--text-max-chars must be at least 1, got ${n}`);
  return n;
}

/**
 * A flag holding a number, decimals allowed (--stats-interval, --max-time,
 * --delay-factor): at least 0, or above 0 with `positive`; `unit` names
 * what it counts in the message. Undefined when the flag was not given.
 */
function decimalFlag(name: string, value: string | undefined, opts: { unit?: string; positive?: boolean } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || (opts.positive === true ? n <= 0 : n < 0)) {
    throw new UsageError(`--${name} must be a number${opts.unit === undefined ? '' : ` of ${opts.unit}`} ${opts.positive === true ? '> 0' : '>= 0'}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** --hold-back: a share from 0 (off) to 1 (src/stages/frontier-source.ts). */
function holdBack(value: string | undefined): number | undefined {
  const q = decimalFlag('hold-back', value);
  if (q !== undefined && q > 1) throw new UsageError(`--hold-back must be from 0 to 1, got ${JSON.stringify(value)}`);
  return q;
}

/** --near-dup-distance: 0 (off) to 10, default 3 (src/simhash.ts). */
function nearDupDistance(value: string | undefined): number {
  const k = positiveInt('near-dup-distance', value, 3);
  if (k > 10) throw new UsageError(`--near-dup-distance must be 0..10, got ${k}`);
  return k;
}

/** --param KEY=VALUE values: numbers where they parse as one, else strings. */
export function parseParams(values: string[]): Record<string, number | string> {
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
  const [
    { canonicalize },
    { readSeedsFile },
    { loadTopic },
    { knownStrategies, needsModel },
    { loadModel },
    { getSegmenter },
    { runCrawl },
    { DEFAULT_MAX_PAGES_PER_HOST },
    { DEFAULT_MAX_LINKS },
    { DEFAULT_TRAP_LIMITS },
    { DEFAULT_RETRY_POLICY },
    { CrawlLog },
  ] = await Promise.all([
    import('./url.ts'),
    import('./seeds.ts'),
    import('./topic.ts'),
    import('./scorers/index.ts'),
    import('./model.ts'),
    import('./text/segmenter.ts'),
    import('./pipeline.ts'),
    import('./host-budget.ts'),
    import('./parse/page-parser.ts'),
    import('./traps.ts'),
    import('./retry.ts'),
    import('./crawl-log.ts'),
  ]);
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      seed: { type: 'string', multiple: true },
      seeds: { type: 'string' },
      sitemap: { type: 'string', multiple: true },
      'sitemaps-from-robots': { type: 'boolean' },
      'sitemap-max-urls': { type: 'string' },
      'near-dup-distance': { type: 'string' },
      'near-dup-min-tokens': { type: 'string' },
      topic: { type: 'string' },
      model: { type: 'string' },
      strategy: { type: 'string' },
      param: { type: 'string', multiple: true },
      density: { type: 'string' },
      tunnel: { type: 'string' },
      segmenter: { type: 'string' },
      'max-pages': { type: 'string' },
      'max-time': { type: 'string' },
      'max-depth': { type: 'string' },
      'max-frontier': { type: 'string' },
      'allow-domain': { type: 'string', multiple: true },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
      'skip-extensions': { type: 'string' },
      'keep-index-html': { type: 'boolean' },
      'keep-session-ids': { type: 'boolean' },
      'max-pages-per-host': { type: 'string' },
      'max-path-repeat': { type: 'string' },
      'max-path-segments': { type: 'string' },
      'max-url-length': { type: 'string' },
      store: { type: 'string' },
      proxy: { type: 'string' },
      'allow-private': { type: 'boolean' },
      'warc-out': { type: 'string' },
      'warc-max-size': { type: 'string' },
      'pages-out': { type: 'string' },
      text: { type: 'boolean' },
      'text-max-chars': { type: 'string' },
      outlinks: { type: 'boolean' },
      concurrency: { type: 'string' },
      'per-host': { type: 'string' },
      'delay-ms': { type: 'string' },
      'delay-factor': { type: 'string' },
      'host-diversity': { type: 'string' },
      'hold-back': { type: 'string' },
      'max-bytes': { type: 'string' },
      'max-links-per-page': { type: 'string' },
      'timeout-ms': { type: 'string' },
      'fetch-timeout-ms': { type: 'string' },
      retries: { type: 'string' },
      'retry-base-ms': { type: 'string' },
      'max-retry-after': { type: 'string' },
      'user-agent': { type: 'string' },
      auth: { type: 'string', multiple: true },
      fresh: { type: 'boolean' },
      quiet: { type: 'boolean' },
      'stats-interval': { type: 'string' },
      'lease-ms': { type: 'string' },
      'log-format': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    process.stdout.write(crawlHelp(knownStrategies(), DEFAULT_MAX_PAGES_PER_HOST, DEFAULT_MAX_LINKS, DEFAULT_TRAP_LIMITS));
    return 0;
  }
  let seeds = [...(values.seed ?? [])];
  for (const s of seeds) if (canonicalize(s) === null) throw new UsageError(`--seed is not an http(s) URL: ${JSON.stringify(s)}`);
  // concat, not push(...): a seeds file may hold more URLs than a call has room for arguments
  if (values.seeds !== undefined) seeds = seeds.concat(await readSeedsFile(values.seeds));
  const topic = values.topic === undefined ? null : await loadTopic(values.topic);
  const segmenter = getSegmenter(values.segmenter ?? 'node-rs');
  const model = values.model === undefined ? null : await loadModel(values.model, segmenter);
  // a model's link classifier is what it was trained for: nb-link by default (RESULTS.md, "Leave one university out")
  const strategy = values.strategy ?? (model !== null ? 'nb-link' : topic !== null ? 'best-first' : 'bfs');
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
  const logFormat = values['log-format'] ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json') throw new UsageError(`--log-format must be text or json, got ${JSON.stringify(logFormat)}`);
  const statsIntervalS = decimalFlag('stats-interval', values['stats-interval'], { unit: 'seconds' });
  const maxTimeS = decimalFlag('max-time', values['max-time'], { unit: 'seconds', positive: true });
  const quiet = values.quiet === true;
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
    tunnel: positiveInt('tunnel', values.tunnel, Infinity),
    storeDir: values.store ?? './focuscrawl-store',
    fresh: values.fresh === true,
    leaseMs: leaseMs(values['lease-ms'], values.store),
    maxPages: positiveInt('max-pages', values['max-pages'], Infinity),
    maxTimeMs: maxTimeS === undefined ? undefined : maxTimeS * 1000,
    maxDepth: positiveInt('max-depth', values['max-depth'], Infinity),
    maxFrontier: positiveInt('max-frontier', values['max-frontier'], Infinity),
    scope: {
      domains: (values['allow-domain'] ?? []).map(parseDomain),
      include: (values.include ?? []).map((v) => parsePattern('include', v)),
      exclude: (values.exclude ?? []).map((v) => parsePattern('exclude', v)),
    },
    skipExtensions: values['skip-extensions'] === undefined ? undefined : parseSkipExtensions(values['skip-extensions']),
    dropIndex: values['keep-index-html'] !== true,
    stripSessionIds: values['keep-session-ids'] !== true,
    maxPagesPerHost: limit('max-pages-per-host', values['max-pages-per-host'], DEFAULT_MAX_PAGES_PER_HOST),
    traps: {
      maxRepeat: limit('max-path-repeat', values['max-path-repeat'], DEFAULT_TRAP_LIMITS.maxRepeat),
      maxSegments: limit('max-path-segments', values['max-path-segments'], DEFAULT_TRAP_LIMITS.maxSegments),
      maxUrlLength: limit('max-url-length', values['max-url-length'], DEFAULT_TRAP_LIMITS.maxUrlLength),
    },
    proxy: values.proxy,
    sitemaps: values.sitemap ?? [],
    sitemapsFromRobots: values['sitemaps-from-robots'] === true,
    sitemapMaxUrls: positiveInt('sitemap-max-urls', values['sitemap-max-urls'], 1_000_000),
    nearDupDistance: nearDupDistance(values['near-dup-distance']),
    nearDupMinTokens: positiveInt('near-dup-min-tokens', values['near-dup-min-tokens'], 30),
    allowPrivate: values['allow-private'] === true,
    warcOut: values['warc-out'],
    warcMaxSize: byteSize('warc-max-size', values['warc-max-size']),
    pagesOut: values['pages-out'],
    textChars: textChars(values.text === true, values['text-max-chars']),
    outlinks: values.outlinks === true,
    concurrency,
    perHost,
    delayMs: positiveInt('delay-ms', values['delay-ms'], 1000),
    delayExplicit: values['delay-ms'] !== undefined,
    delayFactor: decimalFlag('delay-factor', values['delay-factor']) ?? 0,
    hostDiversity: positiveInt('host-diversity', values['host-diversity'], 0),
    holdBack: holdBack(values['hold-back']),
    maxBytes: positiveInt('max-bytes', values['max-bytes'], 1024 * 1024),
    maxLinksPerPage: atLeastOne('max-links-per-page', values['max-links-per-page'], DEFAULT_MAX_LINKS),
    userAgent: values['user-agent'],
    auth: parseAuth(values.auth ?? []),
    timeouts: {
      connectMs: timeoutMs('timeout-ms', values['timeout-ms']),
      headersMs: timeoutMs('timeout-ms', values['timeout-ms']),
      bodyMs: timeoutMs('timeout-ms', values['timeout-ms']),
      fetchMs: timeoutMs('fetch-timeout-ms', values['fetch-timeout-ms']),
    },
    retry: {
      retries: positiveInt('retries', values.retries, DEFAULT_RETRY_POLICY.retries),
      baseMs: positiveInt('retry-base-ms', values['retry-base-ms'], DEFAULT_RETRY_POLICY.baseMs),
      maxRetryAfterMs: positiveInt('max-retry-after', values['max-retry-after'], DEFAULT_RETRY_POLICY.maxRetryAfterMs / 1000) * 1000,
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
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      process.stdout.write(MAIN_HELP);
      return 0;
    }
    if (cmd === '--version' || cmd === '-v') {
      process.stdout.write(`${VERSION}\n`);
      return 0;
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
