/**
 * Throughput side by side (issue 4): focuscrawl (best-first, nb-link),
 * Crawlee's CheerioCrawler (in-memory and default persisted storage) and the
 * undici ceiling crawl the same web through ONE forward proxy, in the same
 * run, each as a child process under GNU time (CPU user + sys, peak RSS);
 * wall time from spawn to exit.
 *
 *   node --import tsx bench/side-by-side.ts [--web webkb|synthetic] [--pages N]
 *     [--runs 3] [--warmup 0] [--concurrency 16] [--contenders LIST] [--model FILE]
 *     [--timeout-s S] [--politeness] [--write]
 *
 * --web webkb (default): the WebKB archive through `focuscrawl replay`, seeds
 * the Cornell, Texas and Washington CS home pages, default 3,000 pages.
 * --web synthetic: fixtures/serve-synthetic.ts (1,000,000 pages, 10,000
 * hosts), seeds three astronomy home pages, default 50,000 pages.
 * Contenders (default all, run in this order in every run): best-first,
 * nb-link, hits, ipagerank, crawlee-memory, crawlee-persisted, ceiling,
 * ceiling-parse. The ceiling fetches the URLs the first focuscrawl
 * contender of the same run fetched, in order; ceiling-parse does the same
 * and also runs each body through htmlparser2 (bench/ceiling.ts --parse).
 * nb-link uses a model trained once per bench run from the WebKB archive
 * (`focuscrawl train --where university=misc --target course`) unless
 * --model names one. --write puts the table into BENCHMARKS.md, section
 * `side-by-side-<web>`.
 *
 * --politeness (issue 23 item 5): every contender crawls politely, each by
 * its own rule set the same: focuscrawl its defaults made explicit
 * (`--per-host 1 --delay-ms 1000`, explicit so they apply to the proxy's
 * replay-tagged answers too), Crawlee `sameDomainDelaySecs: 1` with the same
 * maxConcurrency. The ceiling has no politeness and is left out of the
 * targets. The targets are then on HTML pages (200, text/html) alone: ≥ 5×
 * Crawlee in-memory's HTML pages/s at ≤ ½ its peak RSS. --write puts the
 * table into docs/results/side-by-side-<web>-polite.md and a summary into
 * BENCHMARKS.md.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
import {
  GNU_TIME, REPO, RUN_DIST, binNodeSetup, cell, codeVersion, fmt, machine, measure, readCrawlOutput, startProxy, startReplay, summarise,
  type ProxyChild, type RunResult,
} from './lib/measure.ts';
import { resultsDoc, writeSection, writeSplitSection } from './lib/sections.ts';
import { SYNTH_SPEC, SYNTH_TOPIC, synthSpecArg } from './lib/synthetic.ts';
import { WEBKB_COURSE_TOPIC, WEBKB_LABELS, WEBKB_SEEDS, WEBKB_WARC } from './lib/webkb.ts';

/** The contenders that are focuscrawl crawls, named by strategy. */
const STRATEGIES = ['best-first', 'nb-link', 'hits', 'ipagerank'] as const;
const CONTENDERS = [...STRATEGIES, 'crawlee-memory', 'crawlee-persisted', 'ceiling', 'ceiling-parse'] as const;
const FOCUSCRAWL = new Set<string>(STRATEGIES);
type Contender = (typeof CONTENDERS)[number];
const LABEL: Record<Contender, string> = {
  'best-first': 'focuscrawl best-first (LevelDB)',
  'nb-link': 'focuscrawl nb-link (LevelDB)',
  hits: 'focuscrawl hits (LevelDB)',
  ipagerank: 'focuscrawl ipagerank (LevelDB)',
  'crawlee-memory': 'Crawlee CheerioCrawler, in-memory storage',
  'crawlee-persisted': 'Crawlee CheerioCrawler, default persisted storage',
  ceiling: 'ceiling (undici loop, same URLs)',
  'ceiling-parse': 'ceiling + htmlparser2 (the loop, each body through a SAX parser counting `a href`s)',
};

/** What one run of one contender fetched, beyond its timing. */
interface Fetched {
  /** requests that got an HTTP answer */
  pages: number;
  statuses: Record<string, number>;
  /** requests without a usable answer, by reason */
  failures: Record<string, number>;
  /** distinct hosts of the URLs fetched (focuscrawl: each also costs a robots.txt request, not counted as a page) */
  hosts?: number;
  /** pages answered 200 with text/html (focuscrawl and Crawlee) */
  html?: number;
}

/**
 * bench/ceiling.ts and bench/crawlee-contender.ts compiled to JavaScript
 * (esbuild, types stripped, packages left as imports) under
 * node_modules/.cache, where their imports resolve from the repository's
 * node_modules.
 */
async function compileContenders(): Promise<{ ceiling: string; crawlee: string }> {
  const { build } = await import('esbuild');
  const outdir = path.join(REPO, 'node_modules/.cache/focuscrawl-bench');
  const entries = { ceiling: 'bench/ceiling.ts', crawlee: 'bench/crawlee-contender.ts' };
  await build({
    entryPoints: Object.values(entries).map((e) => path.join(REPO, e)),
    outdir, outExtension: { '.js': '.mjs' }, bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'warning',
  });
  const out = (entry: string): string => path.join(outdir, `${path.basename(entry, '.ts')}.mjs`);
  return { ceiling: out(entries.ceiling), crawlee: out(entries.crawlee) };
}

function statusText(f: Fetched): string {
  const parts = Object.entries(f.statuses).sort().map(([s, n]) => `${fmt(n)} × ${s}`);
  for (const [why, n] of Object.entries(f.failures)) parts.push(`${fmt(n)} failed (${why})`);
  if (f.hosts !== undefined) parts.push(`${fmt(f.hosts)} hosts`);
  return parts.join(', ');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      web: { type: 'string', default: 'webkb' },
      pages: { type: 'string' },
      runs: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '0' },
      concurrency: { type: 'string', default: '16' },
      contenders: { type: 'string', default: CONTENDERS.join(',') },
      model: { type: 'string' },
      entry: { type: 'string', default: 'src' },
      'timeout-s': { type: 'string' },
      write: { type: 'boolean', default: false },
      politeness: { type: 'boolean', default: false },
      // extra flags for every focuscrawl crawl, e.g. --crawl-flags='--parse-workers 1'
      'crawl-flags': { type: 'string', default: '' },
    },
    strict: true,
    allowPositionals: false,
  });
  const web = values.web;
  if (web !== 'webkb' && web !== 'synthetic') throw new Error(`--web must be webkb or synthetic, got ${web}`);
  const num = (name: 'pages' | 'runs' | 'concurrency' | 'warmup' | 'timeout-s', fallback: number, min: number): number => {
    const n = values[name] === undefined ? fallback : Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${values[name]}`);
    return n;
  };
  const pages = num('pages', web === 'webkb' ? 3000 : 50_000, 1);
  const runs = num('runs', 3, 1);
  const warmup = num('warmup', 0, 0);
  const concurrency = num('concurrency', 16, 1);
  // Crawlee with persisted storage managed ~30 pages/s on a loaded 2-core machine.
  const timeoutMs = num('timeout-s', Math.max(300, Math.ceil(pages / 20)), 1) * 1000;
  const contenders = values.contenders!.split(',') as Contender[];
  const entry = values.entry;
  const polite = values.politeness;
  /** the per-host delay when --politeness: focuscrawl's default, and Crawlee's sameDomainDelaySecs */
  const POLITE_DELAY_MS = 1000;
  if (entry !== 'src' && entry !== 'dist') throw new Error(`--entry must be src or dist, got ${entry}`);
  for (const c of contenders) if (!CONTENDERS.includes(c)) throw new Error(`unknown contender ${c}; known: ${CONTENDERS.join(', ')}`);
  const needsModel = contenders.includes('nb-link') && values.model === undefined;
  if ((web === 'webkb' || needsModel) && !existsSync(WEBKB_WARC)) {
    process.stderr.write(`side-by-side: ${WEBKB_WARC} is absent; nothing to benchmark\n`);
    return 2;
  }
  if (!existsSync(GNU_TIME)) {
    process.stderr.write(`side-by-side: ${GNU_TIME} (GNU time) is needed to measure CPU and peak RSS of child processes\n`);
    return 2;
  }

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-side-by-side-'));
  const timeFile = path.join(tmp, 'time.txt');
  const code = codeVersion();
  let proxy: ProxyChild | undefined;
  const results = new Map<Contender, RunResult[]>(contenders.map((c) => [c, []]));
  const fetched = new Map<Contender, Fetched>();
  const loads: number[] = [];
  const loadBefore = os.loadavg()[0];
  try {
    let model = values.model;
    if (needsModel) {
      model = path.join(tmp, 'course.model.json');
      process.stderr.write('side-by-side: training the nb-link model (WebKB, misc universities, target course)...\n');
      await measure(
        [process.execPath, path.join(REPO, 'bin/focuscrawl'), 'train', '--warc', WEBKB_WARC, '--labels', WEBKB_LABELS,
          '--where', 'university=misc', '--target', 'course', '--out', model],
        timeFile, 'train', { timeoutMs: 600_000 },
      );
    }
    let seeds: string[];
    const topicFile = path.join(tmp, 'topic.json');
    if (web === 'webkb') {
      seeds = WEBKB_SEEDS;
      await writeFile(topicFile, JSON.stringify(WEBKB_COURSE_TOPIC));
      proxy = await startReplay(WEBKB_WARC);
    } else {
      const synth = new SyntheticWeb(SYNTH_SPEC);
      seeds = synth.seeds(SYNTH_TOPIC, 3);
      await writeFile(topicFile, JSON.stringify(synth.topicFile(SYNTH_TOPIC)));
      proxy = await startProxy('synthetic proxy', ['--import', 'tsx', path.join(REPO, 'fixtures/serve-synthetic.ts'), synthSpecArg()]);
    }
    const proxyUrl = proxy.url;
    process.stderr.write(`side-by-side: ${web} through ${proxyUrl}; ${warmup} warm-up + ${runs} runs of ${pages} pages; ${contenders.join(', ')}\n`);

    // src: `node bin/focuscrawl` (the TypeScript sources through tsx, as in a
    // checkout, without the bin's node flags); dist: the compiled build with
    // the flags and environment the bin's first line gives an installed package.
    if (entry === 'dist') {
      process.stderr.write('side-by-side: npm run build (dist/)...\n');
      await measure(['npm', 'run', '-s', 'build'], timeFile, 'build', { timeoutMs: 300_000 });
    }
    const bin = entry === 'dist' ? binNodeSetup() : undefined;
    const entryArgv = bin !== undefined
      ? [process.execPath, ...bin.flags, RUN_DIST]
      : [process.execPath, path.join(REPO, 'bin/focuscrawl')];
    const entryEnv = bin?.env;
    const crawlFlags = values['crawl-flags'].split(/\s+/).filter((f) => f !== '');
    const focuscrawl = (strategy: string, store: string): string[] => [
      ...entryArgv, 'crawl',
      ...seeds.flatMap((s) => ['--seed', s]),
      '--strategy', strategy, ...(strategy === 'nb-link' ? ['--model', model!] : ['--topic', topicFile]),
      '--proxy', proxyUrl, '--store', store, '--fresh', '--max-pages', String(pages),
      '--concurrency', String(concurrency),
      ...(polite ? ['--per-host', '1', '--delay-ms', String(POLITE_DELAY_MS)] : ['--per-host', String(concurrency)]), '--quiet',
      ...crawlFlags,
    ];
    // the ceiling and Crawlee run as plain JavaScript too: no contender pays tsx's start-up
    const plain = await compileContenders();
    const crawlee = (storage: string): string[] => [
      process.execPath, plain.crawlee,
      '--proxy', proxyUrl, ...seeds.flatMap((s) => ['--seed', s]), '--pages', String(pages),
      '--concurrency', String(concurrency), '--storage', storage,
      ...(polite ? ['--same-domain-delay-s', String(POLITE_DELAY_MS / 1000)] : []),
    ];

    for (let i = 0; i < warmup + runs; i++) {
      const counted = i >= warmup;
      const tag = counted ? `run ${i - warmup + 1}/${runs}` : `warm-up ${i + 1}/${warmup}`;
      const load = os.loadavg()[0];
      if (counted) loads.push(load);
      process.stderr.write(`side-by-side: ${tag}, 1-minute load average ${load.toFixed(2)}\n`);
      let urls: string[] | undefined;
      for (const c of contenders) {
        const dir = path.join(tmp, `${c}-${i}`);
        let m;
        let f: Fetched;
        if (FOCUSCRAWL.has(c)) {
          m = await measure(focuscrawl(c, dir), timeFile, `${c} ${tag}`, { timeoutMs, env: entryEnv });
          const out = readCrawlOutput(m.stdout);
          urls ??= out.urls;
          f = {
            pages: out.pages, statuses: Object.fromEntries(out.statuses), failures: out.errors > 0 ? { 'error records': out.errors } : {},
            hosts: new Set(out.urls.map((u) => new URL(u).host)).size, html: out.html,
          };
        } else if (c === 'crawlee-memory' || c === 'crawlee-persisted') {
          const storage = c === 'crawlee-memory' ? 'memory' : 'persisted';
          m = await measure(crawlee(storage), timeFile, `${c} ${tag}`, { timeoutMs, env: { CRAWLEE_STORAGE_DIR: dir } });
          const out = JSON.parse(m.stdout) as { answered: number; html: number; statuses: Record<string, number>; failures: Record<string, number> };
          f = { pages: out.answered, statuses: out.statuses, failures: out.failures, html: out.html };
        } else {
          if (urls === undefined) throw new Error(`${c} needs a focuscrawl contender before it in --contenders`);
          const urlFile = path.join(tmp, `urls-${i}.txt`);
          await writeFile(urlFile, urls.join('\n') + '\n');
          m = await measure(
            [process.execPath, plain.ceiling, '--proxy', proxyUrl, '--urls', urlFile, '--concurrency', String(concurrency), ...(c === 'ceiling-parse' ? ['--parse'] : [])],
            timeFile, `${c} ${tag}`, { timeoutMs },
          );
          const out = JSON.parse(m.stdout) as { fetched: number; errors: number; statuses: Record<string, number> };
          f = { pages: out.fetched, statuses: out.statuses, failures: out.errors > 0 ? { 'request errors': out.errors } : {} };
        }
        await rm(dir, { recursive: true, force: true });
        process.stderr.write(
          `  ${tag} ${c}: ${f.pages} pages${f.html === undefined ? '' : ` (${f.html} HTML)`} in ${m.wall.toFixed(2)} s (${(f.pages / m.wall).toFixed(0)}/s), ` +
            `cpu ${m.cpu.toFixed(2)} s, ${m.rssMb.toFixed(0)} MB; ${statusText(f)}\n`,
        );
        if (!counted) continue;
        results.get(c)!.push({ pages: f.pages, html: f.html, wall: m.wall, cpu: m.cpu, rssMb: m.rssMb });
        fetched.set(c, f);
      }
    }
  } finally {
    await proxy?.stop();
    await rm(tmp, { recursive: true, force: true });
  }

  const sum = new Map([...results].map(([c, r]) => [c, summarise(r)]));
  /** `median (min–max)`, or – when the contender does not count HTML pages */
  const htmlCell = (x: { median: number; min: number; max: number }, digits = 0): string => (Number.isFinite(x.median) ? cell(x, digits) : '–');
  const rows = contenders.map((c) => {
    const s = sum.get(c)!;
    const html = polite ? ` ${htmlCell(s.htmlPps)} | ${htmlCell(s.htmlCpuMs, 2)} |` : '';
    return `| ${LABEL[c]} | ${cell(s.pages)} | ${cell(s.pps)} |${html} ${cell(s.cpuPerK, 2)} | ${cell(s.rss)} | ${statusText(fetched.get(c)!)} |`;
  });
  /** ratio of medians a/b of `metric`, or undefined when either contender did not run */
  const ratio = (a: Contender, b: Contender, metric: 'pps' | 'rss' | 'cpuPerK' | 'htmlPps' | 'htmlCpuMs'): number | undefined =>
    sum.has(a) && sum.has(b) ? sum.get(a)![metric].median / sum.get(b)![metric].median : undefined;
  const times = (r: number | undefined): string => (r === undefined ? '–' : `${r.toFixed(2)}×`);
  const verdict = (r: number | undefined, target: number, atLeast: boolean): string =>
    r === undefined ? 'not measured' : `${r.toFixed(2)}× (target ${atLeast ? '≥' : '≤'} ${target}×: ${(atLeast ? r >= target : r <= target) ? 'met' : 'NOT met'})`;
  // --politeness: issue 23 item 5's targets, on HTML pages alone
  const politeTargets = contenders.filter((c) => FOCUSCRAWL.has(c)).map((c) =>
    `| ${c} | ${verdict(ratio(c, 'crawlee-memory', 'htmlPps'), 5, true)} | ${verdict(ratio(c, 'crawlee-memory', 'rss'), 0.5, false)} | ` +
      `${times(ratio('crawlee-memory', c, 'htmlCpuMs'))} | ${times(ratio(c, 'crawlee-persisted', 'htmlPps'))} / ${times(ratio(c, 'crawlee-persisted', 'rss'))} |`);
  const targets = contenders.filter((c) => FOCUSCRAWL.has(c)).map((c) =>
    `| ${c} | ${verdict(ratio(c, 'crawlee-memory', 'pps'), 3, true)} | ${verdict(ratio(c, 'ceiling', 'pps'), 0.5, true)} | ` +
      `${verdict(ratio(c, 'crawlee-memory', 'rss'), 0.5, false)} | ${times(ratio(c, 'crawlee-persisted', 'pps'))} / ` +
      `${times(ratio(c, 'crawlee-persisted', 'rss'))} | ${times(ratio('crawlee-memory', c, 'cpuPerK'))} / ` +
      `${times(ratio('ceiling', c, 'cpuPerK'))} |`);
  // The issue: hits and ipagerank cost at most 15% of best-first's throughput.
  const graphCost = (['hits', 'ipagerank'] as const).filter((c) => sum.has(c) && sum.has('best-first')).map((c) =>
    `| ${c} | ${verdict(ratio(c, 'best-first', 'pps'), 0.85, true)} | ${times(ratio(c, 'best-first', 'cpuPerK'))} | ` +
      `${times(ratio(c, 'best-first', 'rss'))} |`);
  // what parsing alone leaves of the ceiling: a crawler built on htmlparser2 gets no closer
  const parseShare = ratio('ceiling-parse', 'ceiling', 'pps');
  const parseBound = parseShare === undefined ? undefined
    : `The ceiling with htmlparser2 reaches ${parseShare.toFixed(2)}× the plain ceiling's pages/s ` +
      `(${sum.get('ceiling-parse')!.pps.median.toFixed(0)} against ${sum.get('ceiling')!.pps.median.toFixed(0)}): ` +
      `parsing each page with the parser the design prescribes, and nothing else, ${parseShare >= 0.5 ? 'is not what keeps a crawler under' : 'already puts a crawler under'} the issue's 0.5× of the ceiling.`;
  const command = `node --import tsx bench/side-by-side.ts ${process.argv.slice(2).join(' ')}`.trim();
  const what = web === 'webkb'
    ? 'the WebKB archive (`focuscrawl replay`), seeds the Cornell, Texas and Washington CS home pages; the archive answers 404 ' +
      'for most links that leave it, and those answers count as pages for every contender'
    : `the synthetic web (\`fixtures/serve-synthetic.ts ${synthSpecArg()}\`, English pages), ` +
      `seeds three ${SYNTH_TOPIC} home pages, best-first topic ${SYNTH_TOPIC}`;
  const politeNote = `Politeness on for every contender, each by its own rule: focuscrawl \`--per-host 1 --delay-ms ${POLITE_DELAY_MS}\` ` +
    `(its defaults, given explicitly so they apply to the proxy's answers), Crawlee \`sameDomainDelaySecs: ${POLITE_DELAY_MS / 1000}\` ` +
    'with the same maxConcurrency; the ceiling has none. HTML pages: answers 200 with text/html (focuscrawl: page records; Crawlee: handled requests).';
  const politeTable = [
    '| focuscrawl vs | HTML pages/s vs Crawlee in-memory | peak RSS vs Crawlee in-memory | HTML pages per CPU second vs Crawlee in-memory | HTML pages/s / peak RSS vs Crawlee persisted |',
    '|---|---|---|---|---|',
    ...politeTargets,
    '',
    'Ratios of medians. The targets are issue 23 item 5\'s (≥ 5× Crawlee in-memory\'s HTML pages/s at ≤ ½ its peak RSS).',
  ];
  const section = [
    `#### ${web === 'webkb' ? 'WebKB' : 'Synthetic web'}, ${fmt(pages)} pages, concurrency ${concurrency}${polite ? ', politeness on' : ''}`,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}. 1-minute load average at the start of each run: ` +
      `${loads.map((l) => fmt(l, 2)).join(', ')} (before the bench ${fmt(loadBefore, 2)}, after ${fmt(os.loadavg()[0], 2)}); ` +
      'the bench keeps about 2 processes busy (contender + proxy), so more than 2 means other work shared the machine and ' +
      'pages/s is depressed and noisy: trust CPU s per 1,000 pages and peak RSS more.',
    '',
    `Code: ${code}. Command: \`${command}\` (runs ${runs}, warm-up runs ${warmup}). Web: ${what}. ` +
      'Every contender talks to the same proxy child (its CPU is not counted) with the same seeds and concurrency.',
    '',
    ...(polite ? [politeNote, ''] : []),
    `| contender | pages answered | pages/s |${polite ? ' HTML pages/s | CPU ms per HTML page |' : ''} CPU s per 1,000 pages | peak RSS MB | what was fetched (last run) |`,
    `|---|---|---|${polite ? '---|---|' : ''}---|---|---|`,
    ...rows,
    '',
    `Median (min–max) over ${runs} runs; pages/s = pages answered / wall seconds from spawn to exit (Node start-up included ` +
      `for all; the ceiling and Crawlee run as JavaScript compiled by esbuild${entry === 'dist' ? '' : ', focuscrawl through tsx'}). focuscrawl: page records of any status (robots.txt requests ` +
      `not counted), full pipeline with LevelDB, run from ${entry === 'dist'
        ? 'the compiled `dist/cli.js` with the node flags and environment that `bin/focuscrawl` gives an installed package'
        : 'the TypeScript sources through tsx (`node bin/focuscrawl` in the checkout)'}. ` +
      'Crawlee: requests that reached the request handler (cheerio parse, `enqueueLinks` of every `a[href]`, strategy `all`, no robots.txt), ' +
      'minConcurrency = maxConcurrency; text/plain accepted so 404 answers are pages. Ceiling: the URLs of the first focuscrawl ' +
      'contender of the same run, body read and dropped; ceiling + htmlparser2: the same, each body also decoded and parsed (SAX, `a href`s counted).',
    '',
    ...(polite ? politeTable : [
      '| focuscrawl vs | pages/s vs Crawlee in-memory | pages/s vs ceiling | peak RSS vs Crawlee in-memory | pages/s / peak RSS vs Crawlee persisted | ' +
        'pages per CPU second vs Crawlee in-memory / vs ceiling |',
      '|---|---|---|---|---|---|',
      ...targets,
      '',
      'Ratios of medians. The targets are the issue\'s (≥ 3× Crawlee in-memory, ≥ 50% of the ceiling, ≤ ½ of Crawlee\'s peak RSS). ' +
        'The last column compares CPU cost instead of wall time (Crawlee\'s CPU s per page / focuscrawl\'s): on a shared machine it ' +
        'moves much less than pages/s, and where the contender\'s own CPU is the bottleneck pages/s follows it.',
    ]),
    ...(parseBound === undefined ? [] : ['', parseBound]),
    ...(graphCost.length === 0 ? [] : [
      '',
      '| link-graph strategy vs best-first | pages/s | CPU s per 1,000 pages | peak RSS |',
      '|---|---|---|---|',
      ...graphCost,
      '',
      'Ratios of medians; the issue\'s target is a throughput cost of at most 15% (pages/s ≥ 0.85× best-first\'s).',
    ]),
  ].join('\n');
  process.stdout.write(section + '\n');
  if (values.write && polite) {
    // the full table in docs/results, a short summary in BENCHMARKS.md (≤ 20 KB)
    const name = `side-by-side-${web}-polite`;
    const s = (c: Contender): ReturnType<typeof summarise> | undefined => sum.get(c);
    const fc = s('best-first');
    const cm = s('crawlee-memory');
    const summary = fc === undefined || cm === undefined ? `Politeness on, ${fmt(pages)} pages, concurrency ${concurrency}.`
      : `Politeness on (\`--per-host 1 --delay-ms ${POLITE_DELAY_MS}\`; Crawlee \`sameDomainDelaySecs: ${POLITE_DELAY_MS / 1000}\`), ` +
        `${fmt(pages)} pages, concurrency ${concurrency}, ${code.replace(/^commit /, '')}: best-first ${fmt(fc.htmlPps.median)} HTML pages/s, ` +
        `${fmt(fc.rss.median)} MB; Crawlee ${fmt(cm.htmlPps.median)}, ${fmt(cm.rss.median)} MB: ` +
        `${verdict(ratio('best-first', 'crawlee-memory', 'htmlPps'), 5, true)}, RSS ${verdict(ratio('best-first', 'crawlee-memory', 'rss'), 0.5, false)}.`;
    await writeSplitSection('BENCHMARKS.md', name, section, summary, '# Side by side with Crawlee, politeness on');
    process.stderr.write(`side-by-side: wrote docs/results/${name}.md and BENCHMARKS.md\n`);
  } else if (values.write) {
    // BENCHMARKS.md keeps the synthetic web's table; the WebKB one is in docs/results (issue 26 item 5: ≤ 20 KB)
    const file = web === 'webkb' ? resultsDoc(`side-by-side-${web}`) : path.join(REPO, 'BENCHMARKS.md');
    await writeSection(file, `side-by-side-${web}`, section, web === 'webkb' ? '# Side by side with Crawlee: WebKB' : '# Benchmarks');
    process.stderr.write(`side-by-side: wrote ${path.relative(REPO, file)}\n`);
  }
  return 0;
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`side-by-side: ${(err as Error)?.message ?? String(err)}\n`);
  return 1;
});
