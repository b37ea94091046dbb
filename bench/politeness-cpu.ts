/**
 * Does politeness cost CPU? Issue 23 item 2: CPU per HTML page with
 * `--delay-ms 1000` within 5% of `--delay-ms 0` (waiting is timers, not
 * scanning).
 *
 *   node --import tsx bench/politeness-cpu.ts [--pages 6000 | --pages A,B] [--concurrency 64]
 *     [--delays 0,1000] [--runs 3] [--strategy bfs] [--repo DIR ...] [--entry src|dist|src,dist]
 *     [--cpu-prof DIR] [--gc] [--threads] [--node-flags=FLAGS ...] [--list H[,H...] [--list-order grouped|interleaved]]
 *
 * The synthetic web (fixtures/serve-synthetic.ts, 1,000,000 pages on 10,000
 * hosts, no latency) is served by a proxy in this process (not measured:
 * GNU time measures the crawl alone), which counts the requests; focuscrawl crawls it from
 * `bin/focuscrawl` of `--repo` (default: this checkout; give another
 * checkout to measure older code against the same proxy; repeat `--repo` to
 * compare checkouts) with that bin's node flags, `--per-host 1` and each
 * `--delay-ms`, given explicitly so it applies to the proxy's answers too.
 * Checkouts and delays alternate within each run (repo A delay 0, A 1000,
 * B 0, B 1000, then A again ...), so a change of load on a shared machine
 * hits all alike.
 *
 * Reported per delay: process CPU (user + sys, GNU time) per HTML page, i.e.
 * per page record answered 200 with a text/html body (not 404s, which cost
 * no parsing), HTML pages/s of wall time (spawn to exit) and peak RSS. Medians (min–max).
 * Also robots.txt requests and CPU per HTTP request (pages, robots.txt and
 * redirect hops): a polite crawl spreads over more hosts, and a robots.txt
 * fetch per new host is work politeness owes, not waiting.
 * Also frontier entries added (the final summary's frontier size plus the
 * records: each record was an entry) and CPU per unit of work, a unit being
 * an HTML page, a robots.txt request or a frontier entry added.
 * `--cpu-prof DIR` writes a V8 CPU profile of every crawl there. `--gc`
 * counts each crawl's garbage collections (bench/lib/gc-count.mjs, a
 * preload) and reports scavenges, their pause ms and mark-compacts per
 * 1,000 HTML pages: counts, unlike CPU seconds and pause ms, do not move
 * with the machine's load.
 * `--threads` reports each crawl's CPU by thread (bench/lib/thread-cpu.mjs,
 * a preload): the main thread, V8's worker threads (background GC and
 * TurboFan), libuv's pool and the rest (LevelDB's compaction thread).
 * `--node-flags=FLAGS` (repeatable; the `=` form, as FLAGS start with `--`) adds a variant of every checkout run
 * with FLAGS after its bin's own node flags (e.g. `--single-threaded-gc`);
 * variants alternate like checkouts, and the bin's flags alone come first.
 *
 * `--entry` (bench/lib/entry.ts): `src` (the default) runs each checkout's
 * bin/focuscrawl as in a git checkout, the TypeScript sources through tsx;
 * `dist` runs its compiled dist/ as an installed package does: the
 * checkout's package.json and bin/focuscrawl copied into a temporary package
 * directory with a link to its dist/ and no src/, so the bin loads
 * dist/cli.js with plain node (no tsx), with the node flags on its first
 * line. A checkout's dist/ is built first (`npm run build` in it) when
 * dist/cli.js is missing or older than src/, package.json or
 * tsconfig.build.json. `src,dist` measures both, alternating like checkouts.
 * Also reported per checkout and entry: start-up CPU alone, the median CPU
 * of `focuscrawl --version` and of a 1-page crawl (same flags, delay 0).
 *
 * `--pages A,B` (A < B): every crawl is run at both lengths, alternating
 * with checkouts, entries and delays (A then B back to back), and the
 * report adds the CPU per HTML page at the margin,
 * (CPU_B − CPU_A) / (HTML_B − HTML_A) of each run's pair, median (min–max)
 * over the runs: what a longer crawl costs per page once the fixed part
 * (start-up, compiling code, shutdown) is paid.
 *
 * `--list H[,H...]`: the same-crawl control. Instead of the open crawl from
 * three seeds, crawl a fixed list of `--pages` page URLs of the synthetic
 * web, spread evenly over H hosts (`--seeds FILE --max-depth 0`: no link is
 * queued), once per H. Both delays then fetch the same pages on the same
 * hosts with the same robots.txt requests, so any difference in CPU per page
 * is what waiting costs (timers, parking, scans, the source's loop). The
 * hosts are spread over the web's 10,000 and skip those whose robots.txt
 * disallows a directory (every listed page is fetched); each host's pages
 * are its first pages/H (home, then /d0/...). `--list-order grouped` (the
 * default) lists a host's pages together, as a site's links are found
 * together; `interleaved` lists one page of every host, then the next.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startSyntheticProxy } from '../fixtures/serve-synthetic.ts';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { type Entry, ensureDist, installedBin, marginMs, parseEntries, parseLengths } from './lib/entry.ts';
import { REPO, binNodeSetup, cell, codeVersion, fmt, machine, measure, spread } from './lib/measure.ts';

const SYNTH_SPEC = { seed: 1, pages: 1_000_000, hosts: 10_000 };
const SYNTH_TOPIC = 'astronomy';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '6000' },
    concurrency: { type: 'string', default: '64' },
    delays: { type: 'string', default: '0,1000' },
    runs: { type: 'string', default: '3' },
    strategy: { type: 'string', default: 'bfs' },
    repo: { type: 'string', multiple: true, default: [REPO] },
    entry: { type: 'string', default: 'src' },
    'cpu-prof': { type: 'string' },
    gc: { type: 'boolean', default: false },
    list: { type: 'string' },
    'list-order': { type: 'string', default: 'grouped' },
    threads: { type: 'boolean', default: false },
    'node-flags': { type: 'string', multiple: true },
  },
  strict: true,
  allowPositionals: false,
});
const int = (name: string, text: string): number => {
  if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a non-negative integer, got ${text}`);
  return Number(text);
};
/** crawl lengths: one, or two for the cost at the margin */
const lengths = parseLengths(values.pages!);
const entries = parseEntries(values.entry!);
const concurrency = int('concurrency', values.concurrency!);
const runs = int('runs', values.runs!);
const delays = values.delays!.split(',').map((d) => int('delays', d));
const strategy = values.strategy!;
/**
 * What is measured: each checkout, and each with each `--node-flags`
 * variant: `DIR` or `DIR\u0001FLAGS` (dirOf, flagsOf; named by checkout()).
 */
const variants = ['', ...(values['node-flags'] ?? [])];
const repos = values.repo!.flatMap((r) => variants.map((v) => (v === '' ? path.resolve(r) : `${path.resolve(r)}\u0001${v}`)));
const dirOf = (t: string): string => t.split('\u0001')[0];
const flagsOf = (t: string): string[] => (t.split('\u0001')[1] ?? '').split(/\s+/).filter(Boolean);
/** host counts of the same-crawl control; empty: the open crawl */
const lists = values.list === undefined ? [] : values.list.split(',').map((h) => int('list', h));
const listOrder = values['list-order']!;
if (listOrder !== 'grouped' && listOrder !== 'interleaved') throw new Error(`--list-order must be grouped or interleaved, got ${listOrder}`);
/** what is crawled: 0 for the open crawl, else the list's host count */
const cases = lists.length === 0 ? [0] : lists;

interface Run {
  cpu: number;
  wall: number;
  /** peak RSS, MB */
  rss: number;
  html: number;
  pages: number;
  /** hosts with a page record: each cost a robots.txt request too */
  hosts: number;
  /** robots.txt requests the proxy answered */
  robots: number;
  /** all requests the proxy answered */
  requests: number;
  /** frontier entries added: the final frontier size plus the records (each was an entry) */
  entries: number;
  /** garbage collections (with --gc): scavenges, mark-compacts */
  minor: number;
  major: number;
  /** scavenges' pause ms (with --gc) */
  minorMs: number;
  /** CPU s by thread (with --threads): main, V8 workers, libuv pool, the rest */
  th: { main: number; v8: number; libuv: number; other: number };
}

/** Frontier entries added, from the summary line (`--log-format json`) on a crawl's stderr: its final frontier plus its records. */
function entriesAdded(stderr: string): number {
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{"type":"summary"')) continue;
    const s = JSON.parse(line) as { pages: number; errors: number; frontier: number };
    return s.frontier + s.pages + s.errors;
  }
  throw new Error('no summary line on the crawl\'s stderr');
}

/**
 * The same-crawl control's list: `pages` page URLs of `web` on `hosts`
 * hosts spread over its host range, skipping hosts whose robots.txt
 * disallows a directory; each host's first pages (home, /d0/p1.html, ...).
 */
function listUrls(web: SyntheticWeb, pages: number, hosts: number, order: 'grouped' | 'interleaved'): string[] {
  const perHost = Math.ceil(pages / hosts);
  const hostSize = Math.floor(web.pages / web.hosts);
  if (hosts > web.hosts || perHost > hostSize) throw new Error(`--list ${hosts}: ${pages} pages need ${perHost} a host, more than the ${hostSize} a host has (or more hosts than ${web.hosts})`);
  const chosen: number[] = [];
  for (let i = 0; i < hosts; i++) {
    let h = Math.floor((i * web.hosts) / hosts);
    while (h < web.hosts && (web.disallows(h) || (chosen.length > 0 && chosen[chosen.length - 1] >= h))) h++;
    if (h >= web.hosts) throw new Error(`--list ${hosts}: ran out of hosts`);
    chosen.push(h);
  }
  const url = (h: number, local: number): string => {
    const id = Math.ceil((h * web.pages) / web.hosts) + local;
    const info = web.info(id);
    if (info.host !== h || info.local !== local) throw new Error(`page ${local} of host ${h}: the layout changed`);
    return web.urlOf(id);
  };
  const out: string[] = [];
  if (order === 'grouped') for (const h of chosen) for (let j = 0; j < perHost; j++) out.push(url(h, j));
  else for (let j = 0; j < perHost; j++) for (const h of chosen) out.push(url(h, j));
  return out.slice(0, pages);
}

/** HTML pages (status 200, text/html) and all page records of a crawl's NDJSON. */
function countPages(ndjson: string): { html: number; pages: number; hosts: number } {
  let html = 0;
  let all = 0;
  const hosts = new Set<string>();
  for (const line of ndjson.split('\n')) {
    if (line === '') continue;
    const r = JSON.parse(line) as { type: string; url: string; status?: number; contentType?: string | null };
    if (r.type !== 'page') continue;
    all++;
    hosts.add(new URL(r.url).host);
    if (r.status === 200 && (r.contentType ?? '').startsWith('text/html')) html++;
  }
  return { html, pages: all, hosts: hosts.size };
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-polite-cpu-'));
const synth = new SyntheticWeb(SYNTH_SPEC);
const seeds = synth.seeds(SYNTH_TOPIC, 3);
const topicFile = path.join(tmp, 'topic.json');
await writeFile(topicFile, JSON.stringify(synth.topicFile(SYNTH_TOPIC)));
const asked = { requests: 0, robots: 0 };
const proxy = await startSyntheticProxy(synth, {
  onRequest: (url) => {
    asked.requests++;
    if (url.endsWith('/robots.txt')) asked.robots++;
  },
});
/** list files per length and host count */
const listFiles = new Map<string, string>();
for (const len of lengths) for (const h of lists) {
  const file = path.join(tmp, `list-${len}-${h}.txt`);
  await writeFile(file, `${listUrls(synth, len, h, listOrder).join('\n')}\n`);
  listFiles.set(`${len}\0${h}`, file);
}
/** the bin each checkout runs per entry: its own (src) or its installed layout's (dist) */
const bins = new Map<string, string>();
for (const [ri, repo] of repos.entries()) for (const entry of entries) {
  if (entry === 'src') {
    bins.set(`${repo}\0${entry}`, path.join(dirOf(repo), 'bin/focuscrawl'));
    continue;
  }
  process.stderr.write(`politeness-cpu: ${dirOf(repo)}: dist/ ... `);
  const built = ensureDist(dirOf(repo));
  process.stderr.write(built === undefined ? 'current\n' : `built (${built})\n`);
  bins.set(`${repo}\0${entry}`, installedBin(dirOf(repo), path.join(tmp, `package${ri + 1}`)));
}
const loadBefore = os.loadavg()[0];
/** results per checkout, entry, case, delay and length */
const key = (repo: string, entry: Entry, c: number, delay: number, len: number): string => `${repo}\0${entry}\0${c}\0${delay}\0${len}`;
const results = new Map<string, Run[]>();
for (const repo of repos) for (const entry of entries) for (const c of cases) for (const d of delays) for (const len of lengths) results.set(key(repo, entry, c, d, len), []);
/** start-up CPU s per checkout and entry: `--version`, and a 1-page crawl (with its peak RSS) */
const startup = new Map<string, { version: number[]; one: number[]; oneRss: number[] }>();
for (const repo of repos) for (const entry of entries) startup.set(`${repo}\0${entry}`, { version: [], one: [], oneRss: [] });
/**
 * Each crawl's store: a directory that does not exist yet, removed by this
 * process after the crawl. (One store reused with `--fresh` made each crawl
 * open and delete the one before it, ~0.3 s of CPU after a 6,000-page crawl,
 * charged to the next crawl: to the shorter length after the longer one.)
 */
const store = path.join(tmp, 'store');
try {
  for (let r = 0; r < runs; r++) for (const c of cases) for (const [ri, repo] of repos.entries()) for (const entry of entries) {
    const setup = binNodeSetup(dirOf(repo));
    const bin = { env: setup.env, flags: [...setup.flags, ...flagsOf(repo)] };
    const focuscrawl = bins.get(`${repo}\0${entry}`)!;
    const crawl = (start: string[], len: number, delay: number, extra: string[]): string[] => [
      process.execPath, ...bin.flags, ...extra, focuscrawl, 'crawl', ...start,
      '--strategy', strategy, ...(strategy === 'bfs' ? [] : ['--topic', topicFile]),
      '--proxy', proxy.url, '--store', store, '--fresh', '--max-pages', String(len),
      '--concurrency', String(concurrency), '--per-host', '1', '--delay-ms', String(delay),
      '--stats-interval', '0', '--log-format', 'json',
    ];
    const tag = `repo${ri + 1}-${entries.length > 1 ? `${entry}-` : ''}`;
    if (c === cases[0]) {
      // start-up alone: the CLI's --version, and a crawl of one page
      const s = startup.get(`${repo}\0${entry}`)!;
      const v = await measure([process.execPath, ...bin.flags, focuscrawl, '--version'], path.join(tmp, 'time'), `${tag}version`, { timeoutMs: 60_000, env: bin.env });
      const one = await measure(crawl(seeds.flatMap((x) => ['--seed', x]), 1, 0, []), path.join(tmp, 'time'), `${tag}1-page`, {
        timeoutMs: 60_000, env: bin.env, echo: (line) => !line.startsWith('{"type":"summary"'),
      });
      await rm(store, { recursive: true, force: true });
      s.version.push(v.cpu);
      s.one.push(one.cpu);
      s.oneRss.push(one.rssMb);
      process.stderr.write(`politeness-cpu: run ${r + 1}/${runs}, ${repos.length > 1 ? `${checkout(repo)}, ` : ''}entry ${entry}: start-up ${fmt(v.cpu, 2)} CPU s (--version), ${fmt(one.cpu, 2)} (1-page crawl)\n`);
    }
    for (const delay of delays) for (const len of lengths) {
      const name = `${tag}${c === 0 ? '' : `list${c}-`}delay${delay}-${lengths.length > 1 ? `pages${len}-` : ''}run${r + 1}`;
      const gc = [...(values.gc ? ['--import', path.join(REPO, 'bench/lib/gc-count.mjs')] : []), ...(values.threads ? ['--import', path.join(REPO, 'bench/lib/thread-cpu.mjs')] : [])];
      const prof = values['cpu-prof'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'])}`, `--cpu-prof-name=${name}.cpuprofile`];
      const start = c === 0 ? seeds.flatMap((s) => ['--seed', s]) : ['--seeds', listFiles.get(`${len}\0${c}`)!, '--max-depth', '0'];
      asked.requests = 0;
      asked.robots = 0;
      const m = await measure(crawl(start, len, delay, [...gc, ...prof]), path.join(tmp, 'time'), `${entries.length > 1 ? `${entry}, ` : ''}${c === 0 ? '' : `list ${c}, `}delay ${delay}`, {
        timeoutMs: 300_000,
        env: bin.env,
        echo: (line) => !line.startsWith('{"type":"summary"') && !line.startsWith('gc-count: ') && !line.startsWith('thread-cpu: '),
      });
      await rm(store, { recursive: true, force: true });
      const counted = /^gc-count: (.*)$/m.exec(m.stderr);
      const gcs = counted === null ? { minor: NaN, major: NaN, minorMs: NaN } : (JSON.parse(counted[1]) as { minor: number; major: number; minorMs?: number });
      const threaded = /^thread-cpu: (.*)$/m.exec(m.stderr);
      const th = threaded === null ? { main: NaN, v8: NaN, libuv: NaN, other: NaN } : (JSON.parse(threaded[1]) as Run['th']);
      const run: Run = { cpu: m.cpu, wall: m.wall, rss: m.rssMb, ...countPages(m.stdout), ...asked, entries: entriesAdded(m.stderr), minor: gcs.minor, major: gcs.major, minorMs: gcs.minorMs ?? NaN, th };
      results.get(key(repo, entry, c, delay, len))!.push(run);
      process.stderr.write(
        `politeness-cpu: run ${r + 1}/${runs}, ${repos.length > 1 ? `${checkout(repo)}, ` : ''}${entries.length > 1 ? `entry ${entry}, ` : ''}${c === 0 ? '' : `list of ${c} hosts, `}delay ${delay} ms${lengths.length > 1 ? `, ${len} pages` : ''}: ${run.html} HTML of ${run.pages} pages on ${run.hosts} hosts, ` +
          `${fmt(run.cpu, 2)} CPU s (${fmt((run.cpu / run.html) * 1000, 2)} ms per HTML page), ${fmt(run.wall, 2)} s wall, ` +
          `${run.robots} robots.txt of ${run.requests} requests, ${run.entries} frontier entries` +
          (values.gc ? `, ${fmt((run.minor / run.html) * 1000)} scavenges (${fmt((run.minorMs / run.html) * 1000)} ms of their pauses) and ${fmt((run.major / run.html) * 1000, 1)} mark-compacts per 1,000 HTML pages` : '') +
          (values.threads ? `, CPU s by thread: main ${fmt(th.main, 2)}, V8 workers ${fmt(th.v8, 2)}, libuv ${fmt(th.libuv, 2)}, other ${fmt(th.other, 2)}` : '') + '\n',
      );
    }
  }
} finally {
  await proxy.close();
  await rm(tmp, { recursive: true, force: true });
}

/** leading cells naming what differs between rows: checkout, entry, list hosts */
const lead = (repo: string, entry: Entry, c?: number): string =>
  `${repos.length > 1 ? `${checkout(repo)} | ` : ''}${entries.length > 1 ? `${entry} | ` : ''}${lists.length > 0 && c !== undefined ? `${c} | ` : ''}`;
const leadHead = (withList: boolean): [string, string] => {
  const names = [...(repos.length > 1 ? ['checkout'] : []), ...(entries.length > 1 ? ['entry'] : []), ...(withList && lists.length > 0 ? ['H'] : [])];
  return [names.map((n) => `${n} | `).join(''), names.map(() => '---|').join('')];
};
const rows: string[] = [];
const perPage = new Map<string, number>();
const perRequest = new Map<string, number>();
const perUnit = new Map<string, number>();
/** CPU ms per unit of work: an HTML page, a robots.txt request or a frontier entry added */
const unitMs = (x: Run): number => (x.cpu / (x.html + x.robots + x.entries)) * 1000;
for (const repo of repos) for (const entry of entries) for (const c of cases) for (const delay of delays) for (const len of lengths) {
  const k = key(repo, entry, c, delay, len);
  const rs = results.get(k)!;
  const ms = spread(rs.map((x) => (x.cpu / x.html) * 1000));
  perPage.set(k, ms.median);
  perRequest.set(k, spread(rs.map((x) => (x.cpu / x.requests) * 1000)).median);
  perUnit.set(k, spread(rs.map(unitMs)).median);
  const med = (f: (x: Run) => number): string => fmt(spread(rs.map(f)).median);
  rows.push(`| ${lead(repo, entry, c)}${delay} | ${lengths.length > 1 ? `${fmt(len)} | ` : ''}${med((x) => x.html)} | ${med((x) => x.hosts)} | ${cell(spread(rs.map((x) => x.cpu)), 2)} | ${cell(ms, 2)} | ` +
    `${cell(spread(rs.map((x) => x.html / x.wall)))} | ${cell(spread(rs.map((x) => x.wall)), 1)} | ${cell(spread(rs.map((x) => x.rss)))} | ` +
    `${med((x) => x.robots)} | ${cell(spread(rs.map((x) => (x.cpu / x.requests) * 1000)), 2)} | ${med((x) => x.entries)} | ${cell(spread(rs.map(unitMs)), 3)} |` +
    (values.gc ? ` ${cell(spread(rs.map((x) => (x.minor / x.html) * 1000)))} | ${cell(spread(rs.map((x) => (x.minorMs / x.html) * 1000)))} | ${cell(spread(rs.map((x) => (x.major / x.html) * 1000)), 1)} |` : '') +
    (values.threads ? ` ${(['main', 'v8', 'libuv', 'other'] as const).map((t) => `${cell(spread(rs.map((x) => (x.th[t] / x.html) * 1000)), 2)} (${fmt(spread(rs.map((x) => (x.th[t] / x.cpu) * 100)).median)}%)`).join(' | ')} |` : ''));
}
/** the cost at the margin between the two lengths, per checkout, entry, case and delay: each run's pair, then medians */
const margins: string[] = [];
if (lengths.length === 2) {
  const [a, b] = lengths;
  const [head, rule] = leadHead(true);
  margins.push(
    `| ${head}--delay-ms | CPU ms per HTML page, ${fmt(a)} pages | CPU ms per HTML page, ${fmt(b)} pages | **CPU ms per HTML page at the margin** | fixed CPU s (CPU − margin × HTML pages) |`,
    `|${rule}---|---|---|---|---|`,
  );
  for (const repo of repos) for (const entry of entries) for (const c of cases) for (const delay of delays) {
    const ra = results.get(key(repo, entry, c, delay, a))!;
    const rb = results.get(key(repo, entry, c, delay, b))!;
    const ms = ra.map((x, i) => marginMs(x, rb[i]));
    const fixed = ra.map((x, i) => x.cpu - (ms[i] / 1000) * x.html);
    margins.push(`| ${lead(repo, entry, c)}${delay} | ${cell(spread(ra.map((x) => (x.cpu / x.html) * 1000)), 2)} | ${cell(spread(rb.map((x) => (x.cpu / x.html) * 1000)), 2)} | ` +
      `**${cell(spread(ms), 2)}** | ${cell(spread(fixed), 2)} |`);
  }
}
const [startHead, startRule] = leadHead(false);
const startRows = [
  `| ${startHead}\`--version\` CPU s | 1-page crawl CPU s | 1-page crawl peak RSS MB |`,
  `|${startRule}---|---|---|`,
  ...repos.flatMap((repo) => entries.map((entry) => {
    const s = startup.get(`${repo}\0${entry}`)!;
    return `| ${lead(repo, entry)}${cell(spread(s.version), 2)} | ${cell(spread(s.one), 2)} | ${cell(spread(s.oneRss))} |`;
  })),
];
const command = `node --import tsx bench/politeness-cpu.ts ${process.argv.slice(2).join(' ')}`.trim();
const pct = (m: Map<string, number>, k: (d: number) => string, d: number): string =>
  `${fmt((m.get(k(d))! / m.get(k(delays[0]))! - 1) * 100, 1)}%`;
const [tableHead, tableRule] = leadHead(true);
const entryNames: Record<Entry, string> = {
  src: 'src (bin/focuscrawl in the checkout: TypeScript through tsx)',
  dist: 'dist (the compiled dist/ as an installed package runs it: plain node, no tsx)',
};
const section = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; code ${[...new Set(repos.map(dirOf))].map((r) => (r === REPO ? codeVersion() : `in ${r}`)).join(', ')}; ` +
    `entry ${entries.map((e) => entryNames[e]).join(', ')}; ` +
    `1-minute load average ${fmt(loadBefore, 2)} before, ${fmt(os.loadavg()[0], 2)} after. Command: \`${command}\`.`,
  '',
  `${strategy}, ${lengths.map((l) => fmt(l)).join(' and ')} pages, concurrency ${concurrency}, \`--per-host 1\`` +
    `${lists.length > 0 ? `, a fixed list of pages on H hosts (\`--seeds FILE --max-depth 0\`, ${listOrder})` : ''}; ` +
    `median (min–max) over ${runs} runs, ${repos.length > 1 ? 'checkouts and ' : ''}${entries.length > 1 ? 'entries and ' : ''}delays${lengths.length > 1 ? ' and lengths' : ''} alternating. A unit of work: an HTML page, a robots.txt request or a frontier entry added.`,
  '',
  `| ${tableHead}--delay-ms | ${lengths.length > 1 ? '--pages | ' : ''}HTML pages | hosts | CPU s (user+sys) | CPU ms per HTML page | HTML pages/s (wall) | wall s | peak RSS MB | robots.txt requests | CPU ms per request | frontier entries added | CPU ms per unit of work |${values.gc ? ' scavenges per 1,000 HTML pages | scavenge pause ms per 1,000 (loaded) | mark-compacts per 1,000 |' : ''}${values.threads ? ' CPU ms per HTML page by thread (share): main | V8 workers | libuv pool | other |' : ''}`,
  `|${tableRule}---|${lengths.length > 1 ? '---|' : ''}---|---|---|---|---|---|---|---|---|---|---|${values.gc ? '---|---|---|' : ''}${values.threads ? '---|---|---|---|' : ''}`,
  ...rows,
  ...(delays.length > 1 ? [''] : []),
  ...repos.flatMap((repo) => entries.flatMap((entry) => cases.flatMap((c) => lengths.flatMap((len) => delays.slice(1).map((d) => {
    const k = (dd: number): string => key(repo, entry, c, dd, len);
    const what = [...(repos.length > 1 ? [checkout(repo)] : []), ...(entries.length > 1 ? [entry] : []), ...(lengths.length > 1 ? [`${fmt(len)} pages`] : [])];
    return `${c === 0 ? '' : `H = ${c}: `}CPU per HTML page at ${d} ms against ${delays[0]} ms${what.length > 0 ? ` (${what.join(', ')})` : ''}: ${pct(perPage, k, d)}; ` +
      `per request: ${pct(perRequest, k, d)}; per unit of work: ${pct(perUnit, k, d)}.`;
  }))))),
  ...(margins.length > 0 ? ['', `At the margin: each run's (CPU_B − CPU_A) / (HTML_B − HTML_A) of the ${fmt(lengths[1])}- and ${fmt(lengths[0])}-page crawls, median (min–max) over the runs; the fixed CPU is the ${fmt(lengths[0])}-page crawl's CPU less the margin times its HTML pages.`, '', ...margins] : []),
  '',
  `Start-up alone, CPU s (user+sys), median (min–max) over ${runs} runs: \`focuscrawl --version\`, and a 1-page crawl (the same flags, \`--delay-ms 0\`).`,
  '',
  ...startRows,
].join('\n');
process.stdout.write(`${section}\n`);

/** A checkout's name in the table: its directory. */
function checkout(repo: string): string {
  const name = dirOf(repo) === REPO ? 'this checkout' : path.basename(dirOf(repo));
  return flagsOf(repo).length === 0 ? name : `${name} + \`${flagsOf(repo).join(' ')}\``;
}
