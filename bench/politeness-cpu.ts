/**
 * Does politeness cost CPU? Issue 23 item 2: CPU per HTML page with
 * `--delay-ms 1000` within 5% of `--delay-ms 0` (waiting is timers, not
 * scanning).
 *
 *   node --import tsx bench/politeness-cpu.ts [--pages 6000] [--concurrency 64]
 *     [--delays 0,1000] [--runs 3] [--strategy bfs] [--repo DIR ...] [--cpu-prof DIR] [--gc]
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
 * `--cpu-prof DIR` writes a V8 CPU profile of every crawl there. `--gc`
 * counts each crawl's garbage collections (bench/lib/gc-count.mjs, a
 * preload) and reports scavenges and mark-compacts per 1,000 HTML pages:
 * counts, unlike CPU seconds, do not move with the machine's load.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startSyntheticProxy } from '../fixtures/serve-synthetic.ts';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { REPO, binNodeSetup, cell, codeVersion, fmt, machine, measure, spread } from './lib/measure.ts';
import { SYNTH_SPEC, SYNTH_TOPIC } from './lib/synthetic.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '6000' },
    concurrency: { type: 'string', default: '64' },
    delays: { type: 'string', default: '0,1000' },
    runs: { type: 'string', default: '3' },
    strategy: { type: 'string', default: 'bfs' },
    repo: { type: 'string', multiple: true, default: [REPO] },
    'cpu-prof': { type: 'string' },
    gc: { type: 'boolean', default: false },
  },
  strict: true,
  allowPositionals: false,
});
const int = (name: string, text: string): number => {
  if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a non-negative integer, got ${text}`);
  return Number(text);
};
const pages = int('pages', values.pages!);
const concurrency = int('concurrency', values.concurrency!);
const runs = int('runs', values.runs!);
const delays = values.delays!.split(',').map((d) => int('delays', d));
const strategy = values.strategy!;
const repos = values.repo!.map((r) => path.resolve(r));

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
  /** garbage collections (with --gc): scavenges, mark-compacts */
  minor: number;
  major: number;
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
const loadBefore = os.loadavg()[0];
/** results per checkout and delay */
const key = (repo: string, delay: number): string => `${repo}\0${delay}`;
const results = new Map<string, Run[]>(repos.flatMap((repo) => delays.map((d) => [key(repo, d), []] as [string, Run[]])));
try {
  for (let r = 0; r < runs; r++) for (const [ri, repo] of repos.entries()) {
    const bin = binNodeSetup(repo);
    for (const delay of delays) {
      const gc = values.gc ? ['--import', path.join(REPO, 'bench/lib/gc-count.mjs')] : [];
      const prof = values['cpu-prof'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'])}`, `--cpu-prof-name=repo${ri + 1}-delay${delay}-run${r + 1}.cpuprofile`];
      asked.requests = 0;
      asked.robots = 0;
      const m = await measure([
        process.execPath, ...bin.flags, ...gc, ...prof, path.join(repo, 'bin/focuscrawl'), 'crawl', ...seeds.flatMap((s) => ['--seed', s]),
        '--strategy', strategy, ...(strategy === 'bfs' ? [] : ['--topic', topicFile]),
        '--proxy', proxy.url, '--store', path.join(tmp, 'store'), '--fresh', '--max-pages', String(pages),
        '--concurrency', String(concurrency), '--per-host', '1', '--delay-ms', String(delay), '--quiet',
      ], path.join(tmp, 'time'), `delay ${delay}`, { timeoutMs: 300_000, env: bin.env });
      const counted = /^gc-count: (.*)$/m.exec(m.stderr);
      const gcs = counted === null ? { minor: NaN, major: NaN } : (JSON.parse(counted[1]) as { minor: number; major: number });
      const run: Run = { cpu: m.cpu, wall: m.wall, rss: m.rssMb, ...countPages(m.stdout), ...asked, minor: gcs.minor, major: gcs.major };
      results.get(key(repo, delay))!.push(run);
      process.stderr.write(
        `politeness-cpu: run ${r + 1}/${runs}, ${repos.length > 1 ? `${repo}, ` : ''}delay ${delay} ms: ${run.html} HTML of ${run.pages} pages on ${run.hosts} hosts, ` +
          `${fmt(run.cpu, 2)} CPU s (${fmt((run.cpu / run.html) * 1000, 2)} ms per HTML page), ${fmt(run.wall, 2)} s wall, ` +
          `${run.robots} robots.txt of ${run.requests} requests` +
          (values.gc ? `, ${fmt((run.minor / run.html) * 1000)} scavenges and ${fmt((run.major / run.html) * 1000, 1)} mark-compacts per 1,000 HTML pages` : '') + '\n',
      );
    }
  }
} finally {
  await proxy.close();
  await rm(tmp, { recursive: true, force: true });
}

const rows: string[] = [];
const perPage = new Map<string, number>();
const perRequest = new Map<string, number>();
for (const repo of repos) for (const delay of delays) {
  const rs = results.get(key(repo, delay))!;
  const ms = spread(rs.map((x) => (x.cpu / x.html) * 1000));
  perPage.set(key(repo, delay), ms.median);
  perRequest.set(key(repo, delay), spread(rs.map((x) => (x.cpu / x.requests) * 1000)).median);
  rows.push(`| ${repos.length > 1 ? `${checkout(repo)} | ` : ''}${delay} | ${fmt(spread(rs.map((x) => x.html)).median)} | ${fmt(spread(rs.map((x) => x.hosts)).median)} | ${cell(spread(rs.map((x) => x.cpu)), 2)} | ${cell(ms, 2)} | ` +
    `${cell(spread(rs.map((x) => x.html / x.wall)))} | ${cell(spread(rs.map((x) => x.rss)))} | ` +
    `${fmt(spread(rs.map((x) => x.robots)).median)} | ${cell(spread(rs.map((x) => (x.cpu / x.requests) * 1000)), 2)} |` +
    (values.gc ? ` ${cell(spread(rs.map((x) => (x.minor / x.html) * 1000)))} | ${cell(spread(rs.map((x) => (x.major / x.html) * 1000)), 1)} |` : ''));
}
const command = `node --import tsx bench/politeness-cpu.ts ${process.argv.slice(2).join(' ')}`.trim();
const section = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; code ${repos.map((r) => (r === REPO ? codeVersion() : `in ${r}`)).join(', ')}; ` +
    `1-minute load average ${fmt(loadBefore, 2)} before, ${fmt(os.loadavg()[0], 2)} after. Command: \`${command}\`.`,
  '',
  `${strategy}, ${fmt(pages)} pages, concurrency ${concurrency}, \`--per-host 1\`; median (min–max) over ${runs} runs, ${repos.length > 1 ? 'checkouts and ' : ''}delays alternating.`,
  '',
  `| ${repos.length > 1 ? 'checkout | ' : ''}--delay-ms | HTML pages | hosts | CPU s (user+sys) | CPU ms per HTML page | HTML pages/s (wall) | peak RSS MB | robots.txt requests | CPU ms per request |${values.gc ? ' scavenges per 1,000 HTML pages | mark-compacts per 1,000 |' : ''}`,
  `|${repos.length > 1 ? '---|' : ''}---|---|---|---|---|---|---|---|---|${values.gc ? '---|---|' : ''}`,
  ...rows,
  '',
  ...repos.flatMap((repo) => delays.slice(1).map((d) =>
    `CPU per HTML page at ${d} ms against ${delays[0]} ms${repos.length > 1 ? ` (${checkout(repo)})` : ''}: ${fmt((perPage.get(key(repo, d))! / perPage.get(key(repo, delays[0]))! - 1) * 100, 1)}%; ` +
      `per request: ${fmt((perRequest.get(key(repo, d))! / perRequest.get(key(repo, delays[0]))! - 1) * 100, 1)}%.`)),
].join('\n');
process.stdout.write(`${section}\n`);

/** A checkout's name in the table: its directory. */
function checkout(repo: string): string {
  return repo === REPO ? 'this checkout' : path.basename(repo);
}
