/**
 * Does per-host politeness serialise the crawl? Issue 4: "with many hosts,
 * throughput scales with --concurrency up to the CPU limit".
 *
 *   node --import tsx bench/concurrency-scaling.ts [--concurrency 1,2,4,8,16,32,64]
 *        [--latency-ms 50] [--delay-ms 1000] [--strategies bfs,best-first]
 *        [--runs 3] [--write]
 *
 * The synthetic web (fixtures/serve-synthetic.ts, 1,000,000 pages on 10,000
 * hosts) is served by a proxy child that answers every request after
 * `--latency-ms`, as a remote server would. focuscrawl (the compiled build
 * with the bin's node flags) crawls it politely: one request per host at a
 * time (`--per-host 1`) and `--delay-ms` between two requests to a host,
 * given explicitly so that it applies to these proxy answers too. Each
 * concurrency C crawls 60 × C pages (at least 300, at most 4,000), so every
 * run lasts a few seconds.
 *
 * pages/s is in-crawl throughput: pages after the first over the time from
 * the first request to the last (the records' fetchedAt), so Node's start-up
 * and the store's close are left out. Each new host also costs a robots.txt
 * request, as slow as a page, so requests/s counts pages + hosts. Without
 * politeness or CPU limits a crawl with C requests in flight would make
 * C / latency requests a second ("latency bound"); "of bound" is the
 * measured requests/s as a share of it. The politeness bound is
 * hosts / (delay + latency) per second, far above the others with 10,000
 * hosts. Writes the `concurrency-scaling` section of BENCHMARKS.md with
 * `--write`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { REPO, RUN_DIST, binNodeSetup, codeVersion, fmt, machine, measure, spread, startProxy } from './lib/measure.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';

const SYNTH_SPEC = { seed: 1, pages: 1_000_000, hosts: 10_000 };
const SYNTH_TOPIC = 'astronomy';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1,2,4,8,16,32,64' },
    'latency-ms': { type: 'string', default: '50' },
    'delay-ms': { type: 'string', default: '1000' },
    strategies: { type: 'string', default: 'bfs,best-first' },
    runs: { type: 'string', default: '3' },
    write: { type: 'boolean', default: false },
  },
  strict: true,
  allowPositionals: false,
});
const ints = (name: string, text: string): number[] => {
  if (!/^\d+(,\d+)*$/.test(text)) throw new Error(`--${name} must be integers separated by commas, got ${text}`);
  return text.split(',').map(Number);
};
const concurrencies = ints('concurrency', values.concurrency!).filter((c) => c > 0);
const [latencyMs] = ints('latency-ms', values['latency-ms']!);
const [delayMs] = ints('delay-ms', values['delay-ms']!);
const [runs] = ints('runs', values.runs!);
const strategies = values.strategies!.split(',').filter(Boolean);
const pagesFor = (c: number): number => Math.min(4000, Math.max(300, 60 * c));

interface Run {
  pagesPerSec: number;
  requestsPerSec: number;
  hosts: number;
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-scaling-'));
const synth = new SyntheticWeb(SYNTH_SPEC);
const seeds = synth.seeds(SYNTH_TOPIC, 3);
const topicFile = path.join(tmp, 'topic.json');
await writeFile(topicFile, JSON.stringify(synth.topicFile(SYNTH_TOPIC)));
const proxy = await startProxy('synthetic proxy', ['--import', 'tsx', path.join(REPO, 'fixtures/serve-synthetic.ts'),
  `${SYNTH_SPEC.seed}:${SYNTH_SPEC.pages}:${SYNTH_SPEC.hosts}`, '--latency-ms', String(latencyMs)]);
const bin = binNodeSetup();
const loadBefore = os.loadavg()[0];
const results = new Map<string, Run[]>();
try {
  await measure(['npm', 'run', '-s', 'build'], path.join(tmp, 'time'), 'build', { timeoutMs: 300_000 });
  for (let r = 0; r < runs; r++) {
    for (const strategy of strategies) {
      for (const c of concurrencies) {
        const pages = pagesFor(c);
        const m = await measure([
          process.execPath, ...bin.flags, RUN_DIST, 'crawl', ...seeds.flatMap((s) => ['--seed', s]),
          '--strategy', strategy, ...(strategy === 'bfs' ? [] : ['--topic', topicFile]),
          '--proxy', proxy.url, '--store', path.join(tmp, 'store'), '--fresh', '--max-pages', String(pages),
          '--concurrency', String(c), '--per-host', '1', '--delay-ms', String(delayMs), '--quiet',
        ], path.join(tmp, 'time'), `${strategy} c${c}`, { timeoutMs: 600_000, env: bin.env });
        const records = m.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; fetchedAt: string; host: string });
        const fetched = records.filter((x) => x.type === 'page');
        const times = fetched.map((x) => Date.parse(x.fetchedAt)).sort((a, b) => a - b);
        const span = (times[times.length - 1] - times[0]) / 1000;
        const hosts = new Set(fetched.map((x) => x.host)).size;
        const run: Run = { pagesPerSec: (fetched.length - 1) / span, requestsPerSec: (fetched.length + hosts - 1) / span, hosts };
        const key = `${strategy} ${c}`;
        results.set(key, [...(results.get(key) ?? []), run]);
        process.stderr.write(`concurrency-scaling: run ${r + 1}, ${strategy}, concurrency ${c}: ${fmt(run.pagesPerSec, 0)} pages/s, ${run.hosts} hosts\n`);
      }
    }
  }
} finally {
  await proxy.stop();
  await rm(tmp, { recursive: true, force: true });
}

const rows: string[] = [];
for (const strategy of strategies) {
  for (const c of concurrencies) {
    const rs = results.get(`${strategy} ${c}`)!;
    const p = spread(rs.map((x) => x.pagesPerSec));
    const q = spread(rs.map((x) => x.requestsPerSec));
    const bound = (1000 * c) / latencyMs;
    rows.push(`| ${strategy} | ${c} | ${pagesFor(c).toLocaleString('en-US')} | ${fmt(p.median, 0)} (${fmt(p.min, 0)}–${fmt(p.max, 0)}) | ${fmt(q.median, 0)} | ${fmt(bound, 0)} | ${fmt(q.median / bound, 2)} | ${fmt(spread(rs.map((x) => x.hosts)).median, 0)} |`);
  }
}
const command = `node --import tsx bench/concurrency-scaling.ts ${process.argv.slice(2).filter((a) => a !== '--write').join(' ')}`.trim();
const section = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; ${codeVersion()}; 1-minute load average ${fmt(loadBefore, 2)} before, ${fmt(os.loadavg()[0], 2)} after. Command: \`${command} --write\`.`,
  '',
  `The synthetic web (1,000,000 pages on 10,000 hosts) through a proxy that answers after ${latencyMs} ms; focuscrawl from the compiled build with the bin's node flags, \`--per-host 1 --delay-ms ${delayMs}\` (applied to the proxy's answers too). Median (min–max) over ${runs} run(s). pages/s: pages after the first over the time from the first request to the last. requests/s: the same with each host's robots.txt request counted (hosts fetched). Latency bound: concurrency / ${latencyMs} ms, the requests C requests in flight make a second with no CPU or politeness limit; "of bound": requests/s as a share of it.`,
  '',
  '| strategy | concurrency | pages | pages/s | requests/s | latency bound | of bound | hosts fetched |',
  '|---|---|---|---|---|---|---|---|',
  ...rows,
].join('\n');
process.stdout.write(`${section}\n`);
if (values.write) await writeSection(resultsDoc('concurrency-scaling'), 'concurrency-scaling', section, '# Politeness and concurrency');
