/**
 * The second core (issue 23 item 4): the same crawl with `--workers 0`
 * (parse on the main thread) against 1 and 2 parse worker threads.
 *
 *   node --import tsx bench/workers-cpu.ts [--pages 6000] [--concurrency 64]
 *     [--workers 0,1,2] [--strategies bfs,best-first] [--runs 3] [--delay-ms 0]
 *     [--dist]
 *
 * The synthetic web (fixtures/serve-synthetic.ts, 1,000,000 pages on 10,000
 * hosts, no latency) is served by a proxy child; focuscrawl crawls it with
 * the bin's node flags, `--per-host 1` and `--delay-ms` (explicit, so it
 * applies to the proxy's answers too). `--dist` runs the compiled CLI
 * (`npm run build` first; workers then load plain .js, not tsx). Within
 * each run the worker counts alternate (0, 1, 2, 0, 1, 2, ...) for each
 * strategy, so a change of load on a shared machine hits all alike.
 *
 * Reported per strategy and worker count: HTML pages/s of wall time (spawn
 * to exit), process CPU (user + sys of all threads, GNU time), CPU ms per
 * HTML page, the main thread's share of it (its /proc/PID/task/PID/stat,
 * sampled every 100 ms: on a loaded machine the main thread's CPU per page,
 * not pages/s, says how far one process can go), peak RSS. Medians (min–max).
 */
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { REPO, RUN_DIST, binNodeSetup, cell, codeVersion, fmt, machine, measure, spread, startProxy } from './lib/measure.ts';
import { SYNTH_SPEC, SYNTH_TOPIC, synthSpecArg } from './lib/synthetic.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '6000' },
    concurrency: { type: 'string', default: '64' },
    workers: { type: 'string', default: '0,1,2' },
    strategies: { type: 'string', default: 'bfs,best-first' },
    runs: { type: 'string', default: '3' },
    'delay-ms': { type: 'string', default: '0' },
    dist: { type: 'boolean', default: false },
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
const delayMs = int('delay-ms', values['delay-ms']!);
const workerCounts = values.workers!.split(',').map((w) => int('workers', w));
const strategies = values.strategies!.split(',');

interface Run {
  cpu: number;
  /** CPU seconds of the main thread alone */
  mainCpu: number;
  wall: number;
  rss: number;
  html: number;
  pages: number;
}

/** HTML pages (status 200, text/html) and all page records of a crawl's NDJSON. */
function countPages(ndjson: string): { html: number; pages: number } {
  let html = 0;
  let all = 0;
  for (const line of ndjson.split('\n')) {
    if (line === '') continue;
    const r = JSON.parse(line) as { type: string; status?: number; contentType?: string | null };
    if (r.type !== 'page') continue;
    all++;
    if (r.status === 200 && (r.contentType ?? '').startsWith('text/html')) html++;
  }
  return { html, pages: all };
}

const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/**
 * Follow the main thread's CPU of the node process whose command line holds
 * `marker`, until stop() (the last sample before it exited; 100 ms lost at most).
 */
function mainThreadCpu(marker: string): { stop: () => number } {
  let pid: string | null = null;
  let last = 0;
  const sample = async (): Promise<void> => {
    try {
      if (pid === null) {
        for (const p of await readdir('/proc')) {
          if (!/^\d+$/.test(p)) continue;
          const argv = (await readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')).split('\0');
          if (argv[0] === process.execPath && argv.includes(marker)) pid = p;
        }
      }
      if (pid === null) return;
      const stat = await readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      last = (Number(f[11]) + Number(f[12])) / TICKS; // utime, stime: fields 14 and 15
    } catch {
      /* exited */
    }
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void sample().finally(() => (busy = false));
  }, 100);
  return { stop: () => (clearInterval(timer), last) };
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-workers-cpu-'));
const synth = new SyntheticWeb(SYNTH_SPEC);
const seeds = synth.seeds(SYNTH_TOPIC, 3);
const topicFile = path.join(tmp, 'topic.json');
await writeFile(topicFile, JSON.stringify(synth.topicFile(SYNTH_TOPIC)));
const proxy = await startProxy('synthetic proxy', ['--import', 'tsx', path.join(REPO, 'fixtures/serve-synthetic.ts'), synthSpecArg()]);
const bin = binNodeSetup();
const entry = values.dist ? RUN_DIST : path.join(REPO, 'bin/focuscrawl');
const loadBefore = os.loadavg()[0];
const key = (s: string, w: number): string => `${s}/${w}`;
const results = new Map<string, Run[]>();
try {
  for (let r = 0; r < runs; r++) {
    for (const strategy of strategies) {
      for (const workers of workerCounts) {
        const label = `${strategy} --workers ${workers}`;
        const store = path.join(tmp, `store-${r}-${strategy}-${workers}`);
        const main = mainThreadCpu(store);
        const m = await measure([
          process.execPath, ...bin.flags, entry, 'crawl', ...seeds.flatMap((s) => ['--seed', s]),
          '--strategy', strategy, ...(strategy === 'bfs' ? [] : ['--topic', topicFile]),
          '--proxy', proxy.url, '--store', store, '--fresh', '--max-pages', String(pages),
          '--concurrency', String(concurrency), '--per-host', '1', '--delay-ms', String(delayMs), '--workers', String(workers), '--quiet',
        ], path.join(tmp, 'time'), label, { timeoutMs: 600_000, env: bin.env });
        const run: Run = { cpu: m.cpu, mainCpu: main.stop(), wall: m.wall, rss: m.rssMb, ...countPages(m.stdout) };
        await rm(store, { recursive: true, force: true });
        if (!results.has(key(strategy, workers))) results.set(key(strategy, workers), []);
        results.get(key(strategy, workers))!.push(run);
        process.stderr.write(
          `workers-cpu: run ${r + 1}/${runs}, ${label}: ${run.html} HTML of ${run.pages} pages, ${fmt(run.html / run.wall)} HTML pages/s, ` +
            `${fmt(run.cpu, 2)} CPU s (${fmt((run.cpu / run.html) * 1000, 2)} ms per HTML page, main thread ${fmt((run.mainCpu / run.html) * 1000, 2)}), ${fmt(run.rss)} MB, ${fmt(run.wall, 2)} s wall\n`,
        );
      }
    }
  }
} finally {
  await proxy.stop();
  await rm(tmp, { recursive: true, force: true });
}

const rows: string[] = [];
for (const strategy of strategies) {
  const base = spread(results.get(key(strategy, workerCounts[0]))!.map((x) => x.html / x.wall)).median;
  for (const workers of workerCounts) {
    const rs = results.get(key(strategy, workers))!;
    const pps = spread(rs.map((x) => x.html / x.wall));
    rows.push(`| ${strategy} | ${workers} | ${fmt(spread(rs.map((x) => x.html)).median)} | ${cell(pps)} | ${fmt((pps.median / base - 1) * 100, 0)}% | ` +
      `${cell(spread(rs.map((x) => x.cpu)), 1)} | ${cell(spread(rs.map((x) => (x.cpu / x.html) * 1000)), 2)} | ${cell(spread(rs.map((x) => (x.mainCpu / x.html) * 1000)), 2)} | ` +
      `${cell(spread(rs.map((x) => x.rss)))} |`);
  }
}
const command = `node --import tsx bench/workers-cpu.ts ${process.argv.slice(2).join(' ')}`.trim();
const section = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; code ${codeVersion()}${values.dist ? ' (compiled, dist/)' : ' (tsx checkout)'}; ` +
    `1-minute load average ${fmt(loadBefore, 2)} before, ${fmt(os.loadavg()[0], 2)} after. Command: \`${command}\`.`,
  '',
  `${fmt(pages)} pages, concurrency ${concurrency}, \`--per-host 1 --delay-ms ${delayMs}\`; median (min–max) over ${runs} runs, worker counts alternating.`,
  '',
  '| strategy | --workers | HTML pages | HTML pages/s (wall) | vs first | CPU s (user+sys) | CPU ms per HTML page | main thread CPU ms per HTML page | peak RSS MB |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows,
].join('\n');
process.stdout.write(`${section}\n`);
