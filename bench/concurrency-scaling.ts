/**
 * Does per-host politeness serialise the crawl? Issue 4: "with many hosts,
 * throughput scales with --concurrency up to the CPU limit".
 *
 *   node --import tsx bench/concurrency-scaling.ts [--concurrency 1,2,4,8,16,32,64]
 *        [--latency-ms 50] [--delay-ms 1000] [--strategies bfs,best-first]
 *        [--hosts 10000] [--pages N] [--runs 3] [--section NAME] [--write]
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
 * hosts. Writes the `concurrency-scaling` section (or `--section`) of
 * docs/results/concurrency-scaling.md with `--write`.
 *
 * Issue 23 item 3 (latency-bound crawls): `--latency-ms 0,200 --hosts 100000
 * --concurrency 1024 --pages 4000`. Each latency gets its own proxy child,
 * and every run crawls at each of them in turn, so the zero-latency crawl
 * (the CPU limit) and the slow one are measured in the same run. Also
 * reported: the crawler's CPU per page (GNU time, start-up included), the
 * proxy's CPU per page (its /proc/PID/stat, so it can be seen not to be the
 * limit) and HTML pages/s (answers 200 text/html). With 0 among the
 * latencies, a second table puts each slow crawl's HTML pages/s against
 * min(concurrency / latency, the zero-latency crawl's HTML pages/s at the
 * same concurrency); the target is ≥ 0.9.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { REPO, RUN_DIST, binNodeSetup, codeVersion, fmt, machine, measure, processCpuSeconds, spread, startProxy, type ProxyChild } from './lib/measure.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';
import { SYNTH_SPEC, SYNTH_TOPIC, synthSpecArg } from './lib/synthetic.ts';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1,2,4,8,16,32,64' },
    'latency-ms': { type: 'string', default: '50' },
    hosts: { type: 'string', default: String(SYNTH_SPEC.hosts) },
    pages: { type: 'string' },
    section: { type: 'string', default: 'concurrency-scaling' },
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
const latencies = ints('latency-ms', values['latency-ms']!);
const [hostCount] = ints('hosts', values.hosts!);
const fixedPages = values.pages === undefined ? undefined : ints('pages', values.pages)[0];
// 10 pages a host at least, so a host has pages to link to
const webSpec = { ...SYNTH_SPEC, pages: Math.max(SYNTH_SPEC.pages, 10 * hostCount), hosts: hostCount };
const [delayMs] = ints('delay-ms', values['delay-ms']!);
const [runs] = ints('runs', values.runs!);
const strategies = values.strategies!.split(',').filter(Boolean);
const pagesFor = (c: number): number => fixedPages ?? Math.min(4000, Math.max(300, 60 * c));

interface Run {
  pagesPerSec: number;
  /** pages answered 200 with text/html, per second of the same span */
  htmlPerSec: number;
  requestsPerSec: number;
  hosts: number;
  /** crawler CPU (user + sys, start-up included) per page, ms */
  cpuMsPerPage: number;
  /** the proxy child's CPU during the crawl per page, ms */
  proxyCpuMsPerPage: number;
  /** 1-minute load average when the crawl started */
  load: number;
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-scaling-'));
const synth = new SyntheticWeb(webSpec);
const seeds = synth.seeds(SYNTH_TOPIC, 3);
const topicFile = path.join(tmp, 'topic.json');
await writeFile(topicFile, JSON.stringify(synth.topicFile(SYNTH_TOPIC)));
const proxies = new Map<number, ProxyChild>();
for (const latencyMs of latencies) {
  proxies.set(latencyMs, await startProxy('synthetic proxy', ['--import', 'tsx', path.join(REPO, 'fixtures/serve-synthetic.ts'),
    synthSpecArg(webSpec), '--latency-ms', String(latencyMs)]));
}
const bin = binNodeSetup();
const loadBefore = os.loadavg()[0];
const results = new Map<string, Run[]>();
try {
  await measure(['npm', 'run', '-s', 'build'], path.join(tmp, 'time'), 'build', { timeoutMs: 300_000 });
  for (let r = 0; r < runs; r++) {
    for (const strategy of strategies) {
      for (const c of concurrencies) {
       for (const latencyMs of latencies) {
        const proxy = proxies.get(latencyMs)!;
        const pages = pagesFor(c);
        const load = os.loadavg()[0];
        const proxyCpu0 = processCpuSeconds(proxy.pid);
        const m = await measure([
          process.execPath, ...bin.flags, RUN_DIST, 'crawl', ...seeds.flatMap((s) => ['--seed', s]),
          '--strategy', strategy, ...(strategy === 'bfs' ? [] : ['--topic', topicFile]),
          '--proxy', proxy.url, '--store', path.join(tmp, 'store'), '--fresh', '--max-pages', String(pages),
          '--concurrency', String(c), '--per-host', '1', '--delay-ms', String(delayMs), '--quiet',
        ], path.join(tmp, 'time'), `${strategy} c${c}`, { timeoutMs: 600_000, env: bin.env });
        const proxyCpu = processCpuSeconds(proxy.pid) - proxyCpu0;
        const records = m.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; fetchedAt: string; host: string; status?: number; contentType?: string | null });
        const fetched = records.filter((x) => x.type === 'page');
        const times = fetched.map((x) => Date.parse(x.fetchedAt)).sort((a, b) => a - b);
        const span = (times[times.length - 1] - times[0]) / 1000;
        const hosts = new Set(fetched.map((x) => x.host)).size;
        const html = fetched.filter((x) => x.status === 200 && (x.contentType ?? '').startsWith('text/html')).length;
        const run: Run = {
          pagesPerSec: (fetched.length - 1) / span, htmlPerSec: html / span, requestsPerSec: (fetched.length + hosts - 1) / span, hosts,
          cpuMsPerPage: (1000 * m.cpu) / fetched.length, proxyCpuMsPerPage: (1000 * proxyCpu) / fetched.length, load,
        };
        const key = `${strategy} ${c} ${latencyMs}`;
        results.set(key, [...(results.get(key) ?? []), run]);
        process.stderr.write(`concurrency-scaling: run ${r + 1}, ${strategy}, concurrency ${c}, latency ${latencyMs} ms: ${fmt(run.pagesPerSec, 0)} pages/s ` +
          `(${fmt(run.htmlPerSec, 0)} HTML), ${run.hosts} hosts, crawler ${fmt(run.cpuMsPerPage, 2)} CPU ms/page, proxy ${fmt(run.proxyCpuMsPerPage, 2)}, load ${fmt(load, 2)}\n`);
       }
      }
    }
  }
} finally {
  for (const proxy of proxies.values()) await proxy.stop();
  await rm(tmp, { recursive: true, force: true });
}

const rows: string[] = [];
const med = (rs: Run[], f: (x: Run) => number): number => spread(rs.map(f)).median;
const range = (rs: Run[], f: (x: Run) => number, digits = 0): string => {
  const p = spread(rs.map(f));
  return `${fmt(p.median, digits)} (${fmt(p.min, digits)}–${fmt(p.max, digits)})`;
};
const multi = latencies.length > 1;
for (const strategy of strategies) {
  for (const c of concurrencies) {
    for (const latencyMs of latencies) {
      const rs = results.get(`${strategy} ${c} ${latencyMs}`)!;
      const q = med(rs, (x) => x.requestsPerSec);
      const bound = latencyMs > 0 ? (1000 * c) / latencyMs : Infinity;
      rows.push(`| ${strategy} |${multi ? ` ${latencyMs} |` : ''} ${c} | ${pagesFor(c).toLocaleString('en-US')} | ${range(rs, (x) => x.pagesPerSec)} |` +
        `${multi ? ` ${range(rs, (x) => x.htmlPerSec)} |` : ''} ${fmt(q, 0)} | ${Number.isFinite(bound) ? fmt(bound, 0) : '–'} | ` +
        `${Number.isFinite(bound) ? fmt(q / bound, 2) : '–'} | ${fmt(med(rs, (x) => x.hosts), 0)} |` +
        `${multi ? ` ${range(rs, (x) => x.cpuMsPerPage, 2)} | ${fmt(med(rs, (x) => x.proxyCpuMsPerPage), 2)} |` : ''}`);
    }
  }
}
// issue 23 item 3: HTML pages/s at latency L against min(C / L, the zero-latency crawl's)
const targetRows: string[] = [];
if (latencies.includes(0)) {
  for (const strategy of strategies) {
    for (const c of concurrencies) {
      const cpuLimit = med(results.get(`${strategy} ${c} 0`)!, (x) => x.htmlPerSec);
      for (const latencyMs of latencies.filter((l) => l > 0)) {
        const got = med(results.get(`${strategy} ${c} ${latencyMs}`)!, (x) => x.htmlPerSec);
        const limit = Math.min((1000 * c) / latencyMs, cpuLimit);
        const share = got / limit;
        targetRows.push(`| ${strategy} | ${c} | ${latencyMs} | ${fmt(got, 0)} | ${fmt((1000 * c) / latencyMs, 0)} | ${fmt(cpuLimit, 0)} | ` +
          `${fmt(share, 2)} (target ≥ 0.9: ${share >= 0.9 ? 'met' : 'NOT met'}) |`);
      }
    }
  }
}
const loads = [...results.values()].flat().map((x) => x.load);
const command = `node --import tsx bench/concurrency-scaling.ts ${process.argv.slice(2).filter((a) => a !== '--write').join(' ')}`.trim();
const section = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; ${codeVersion()}; 1-minute load average ${fmt(loadBefore, 2)} before, ${fmt(os.loadavg()[0], 2)} after` +
    `${multi ? ` (at the start of each crawl ${fmt(Math.min(...loads), 2)}–${fmt(Math.max(...loads), 2)})` : ''}. Command: \`${command} --write\`.`,
  '',
  `The synthetic web (${fmt(webSpec.pages)} pages on ${fmt(webSpec.hosts)} hosts) through a proxy that answers after ${latencies.join(' or ')} ms` +
    `${multi ? ' (one proxy child per latency; every run crawls at each in turn)' : ''}; focuscrawl from the compiled build with the bin's node flags, \`--per-host 1 --delay-ms ${delayMs}\` (applied to the proxy's answers too). Median (min–max) over ${runs} run(s). pages/s: pages after the first over the time from the first request to the last. requests/s: the same with each host's robots.txt request counted (hosts fetched). Latency bound: concurrency / latency, the requests C requests in flight make a second with no CPU or politeness limit; "of bound": requests/s as a share of it.` +
    `${multi ? ' HTML pages/s: page records answered 200 text/html over the same span. CPU ms per page: the crawler\'s user + sys over its whole run (start-up included) per page record; proxy: the proxy child\'s CPU over the same crawl per page (it runs as its own process).' : ''}`,
  '',
  `| strategy |${multi ? ' latency ms |' : ''} concurrency | pages | pages/s |${multi ? ' HTML pages/s |' : ''} requests/s | latency bound | of bound | hosts fetched |${multi ? ' crawler CPU ms per page | proxy CPU ms per page |' : ''}`,
  `|---|${multi ? '---|' : ''}---|---|---|${multi ? '---|' : ''}---|---|---|---|${multi ? '---|---|' : ''}`,
  ...rows,
  ...(targetRows.length === 0 ? [] : [
    '',
    '| strategy | concurrency | latency ms | HTML pages/s | concurrency / latency | HTML pages/s at 0 ms (CPU limit) | of min(the two) |',
    '|---|---|---|---|---|---|---|',
    ...targetRows,
    '',
    'Medians. Issue 23 item 3\'s target: at least 0.9 of min(concurrency / latency, the CPU limit measured at zero latency in the same run).',
  ]),
].join('\n');
process.stdout.write(`${section}\n`);
if (values.write) await writeSection(resultsDoc('concurrency-scaling'), values.section!, section, '# Politeness and concurrency');
