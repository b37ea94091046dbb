/**
 * Crawl throughput benchmark: focuscrawl best-first against a plain undici
 * loop (bench/ceiling.ts) over the WebKB archive, both through ONE replay
 * proxy running in its own process. See bench/README.md.
 *
 *   node --import tsx bench/crawl-bench.ts [--pages 3000] [--runs 3] [--concurrency 16]
 *     [--warmup 1] [--write] [--cpu-prof]
 *
 * Every contender runs as a child process under GNU time (`/usr/bin/time`),
 * which reports its user+sys CPU seconds and peak RSS; wall time is measured
 * here from spawn to exit. Run i of the ceiling fetches exactly the URLs that
 * run i of focuscrawl output records for, in the same order.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  GNU_TIME, REPO, cell, codeVersion, fmt, machine, measure as measureChild, readCrawlOutput, spread, startReplay, summarise,
  type CrawlOutput, type Measured, type RunResult,
} from './lib/measure.ts';
import { WEBKB_COURSE_TOPIC, WEBKB_SEEDS, WEBKB_WARC } from './lib/webkb.ts';

const BENCHMARKS_MD = path.join(REPO, 'BENCHMARKS.md');
const START_MARK = '<!-- crawl-bench:start -->';
const END_MARK = '<!-- crawl-bench:end -->';
/** A child running longer than this is treated as stalled and killed. */
const CHILD_TIMEOUT_MS = 120_000;

/** Run `argv` under GNU time, killed as stalled after CHILD_TIMEOUT_MS. */
const measure = (argv: string[], timeFile: string, label: string): Promise<Measured> =>
  measureChild(argv, timeFile, label, { timeoutMs: CHILD_TIMEOUT_MS });

/** Self time per function of a V8 .cpuprofile, largest first: [label, ms, share of all samples]. */
function topSelfTime(profile: CpuProfile, limit: number): [string, number, number][] {
  const ids = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map<number, number>();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const total = profile.samples.length;
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / Math.max(total, 1);
  const byFunction = new Map<string, number>();
  for (const [id, n] of counts) {
    // Line numbers are left out: in tsx-compiled files they point into generated code.
    const { functionName, url } = ids.get(id)!.callFrame;
    const where = url === '' ? '' : ` ${url.replace(/^file:\/\//, '').replace(REPO + '/', '')}`;
    const label = `${functionName || '(anonymous)'}${where}`;
    byFunction.set(label, (byFunction.get(label) ?? 0) + n);
  }
  return [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([label, n]) => [label, n * msPerSample, n / total]);
}

/** The parts of a V8 .cpuprofile used here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  startTime: number;
  endTime: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '3000' },
      runs: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '16' },
      warmup: { type: 'string', default: '1' },
      write: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const num = (name: 'pages' | 'runs' | 'concurrency' | 'warmup', min: number): number => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${values[name]}`);
    return n;
  };
  const pages = num('pages', 1);
  const runs = num('runs', 1);
  const concurrency = num('concurrency', 1);
  const warmup = num('warmup', 0);
  if (!existsSync(WEBKB_WARC)) {
    process.stderr.write(`crawl-bench: ${WEBKB_WARC} is absent; nothing to benchmark\n`);
    return 2;
  }
  if (!existsSync(GNU_TIME)) {
    process.stderr.write(`crawl-bench: ${GNU_TIME} (GNU time) is needed to measure CPU and peak RSS of child processes\n`);
    return 2;
  }

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-bench-'));
  const topicFile = path.join(tmp, 'topic.json');
  await writeFile(topicFile, JSON.stringify(WEBKB_COURSE_TOPIC));
  const loadBefore = os.loadavg()[0];
  const code = codeVersion();
  const replay = await startReplay(WEBKB_WARC);
  const crawlArgs = (store: string): string[] => [
    path.join(REPO, 'bin/focuscrawl'), 'crawl',
    ...WEBKB_SEEDS.flatMap((s) => ['--seed', s]),
    '--topic', topicFile, '--strategy', 'best-first', '--proxy', replay.url,
    '--store', store, '--fresh', '--max-pages', String(pages),
    '--concurrency', String(concurrency), '--per-host', String(concurrency), '--quiet',
  ];
  const crawlRuns: RunResult[] = [];
  const ceilingRuns: RunResult[] = [];
  const outputs: CrawlOutput[] = [];
  /** `focuscrawl --version`: what Node + tsx start-up alone costs */
  const startup: RunResult[] = [];
  try {
    process.stderr.write(`crawl-bench: replay proxy ${replay.url}; ${warmup} warm-up + ${runs} runs of ${pages} pages\n`);
    for (let i = 0; i < warmup + runs; i++) {
      const counted = i >= warmup;
      const tag = counted ? `run ${i - warmup + 1}/${runs}` : `warm-up ${i + 1}/${warmup}`;
      const crawl = await measure([process.execPath, ...crawlArgs(path.join(tmp, `store-${i}`))], path.join(tmp, 'time.txt'), `focuscrawl ${tag}`);
      const output = readCrawlOutput(crawl.stdout);
      const urlFile = path.join(tmp, `urls-${i}.txt`);
      await writeFile(urlFile, output.urls.join('\n') + '\n');
      const ceiling = await measure(
        [process.execPath, '--import', 'tsx', path.join(REPO, 'bench/ceiling.ts'), '--proxy', replay.url, '--urls', urlFile, '--concurrency', String(concurrency)],
        path.join(tmp, 'time.txt'),
        `ceiling ${tag}`,
      );
      const ceilingOut = JSON.parse(ceiling.stdout) as { fetched: number; errors: number };
      if (ceilingOut.errors > 0) throw new Error(`ceiling ${tag}: ${ceilingOut.errors} of ${output.urls.length} requests failed`);
      const c = { pages: output.pages, wall: crawl.wall, cpu: crawl.cpu, rssMb: crawl.rssMb };
      const u = { pages: ceilingOut.fetched, wall: ceiling.wall, cpu: ceiling.cpu, rssMb: ceiling.rssMb };
      process.stderr.write(
        `  ${tag}: focuscrawl ${c.pages} pages in ${c.wall.toFixed(2)} s, cpu ${c.cpu.toFixed(2)} s, ${c.rssMb.toFixed(0)} MB; ` +
          `ceiling ${u.pages} URLs in ${u.wall.toFixed(2)} s, cpu ${u.cpu.toFixed(2)} s, ${u.rssMb.toFixed(0)} MB\n`,
      );
      if (!counted) continue;
      crawlRuns.push(c);
      ceilingRuns.push(u);
      outputs.push(output);
    }
    for (let i = 0; i < runs; i++) {
      const m = await measure([process.execPath, path.join(REPO, 'bin/focuscrawl'), '--version'], path.join(tmp, 'time.txt'), 'start-up');
      startup.push({ pages: 0, wall: m.wall, cpu: m.cpu, rssMb: m.rssMb });
    }
    if (values['cpu-prof']) {
      const profDir = path.join(tmp, 'prof');
      await measure([process.execPath, '--cpu-prof', `--cpu-prof-dir=${profDir}`, ...crawlArgs(path.join(tmp, 'store-prof'))], path.join(tmp, 'time.txt'), 'focuscrawl --cpu-prof');
      // One profile per thread (CPU.date.time.pid.THREAD.seq.cpuprofile); thread 0 runs the crawl,
      // the other is tsx's module-loader worker.
      const files = (await readdir(profDir)).filter((f) => f.endsWith('.cpuprofile')).sort();
      const file = files.find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)) ?? files[0];
      const profile = JSON.parse(await readFile(path.join(profDir, file), 'utf8')) as CpuProfile;
      process.stderr.write('crawl-bench: top self time of the crawler (one profiled run, not in the table):\n');
      for (const [label, ms, share] of topSelfTime(profile, 25)) {
        process.stderr.write(`  ${(share * 100).toFixed(1).padStart(5)}%  ${fmt(ms).padStart(6)} ms  ${label}\n`);
      }
    }
  } finally {
    await replay.stop();
    await rm(tmp, { recursive: true, force: true });
  }

  const fc = summarise(crawlRuns);
  const ce = summarise(ceilingRuns);
  const last = outputs[outputs.length - 1];
  const statuses = [...last.statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${fmt(n)} × ${s}`).join(', ');
  const command = `node --import tsx bench/crawl-bench.ts ${process.argv.slice(2).join(' ')}`.trim();
  const section = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; ` +
      `1-minute load average ${fmt(loadBefore, 2)} before the bench, ${fmt(os.loadavg()[0], 2)} after it ` +
      '(the bench itself keeps about 2 processes busy; more than that means other work shared the machine: ' +
      'trust CPU s per 1,000 pages over pages/s then).',
    '',
    `Code: ${code}. Command: \`${command}\` (pages ${fmt(pages)}, runs ${runs}, warm-up runs ${warmup}, concurrency ${concurrency}).`,
    '',
    `| contender | pages/s | CPU s per 1,000 pages | peak RSS MB |`,
    `|---|---|---|---|`,
    `| focuscrawl best-first | ${cell(fc.pps)} | ${cell(fc.cpuPerK, 2)} | ${cell(fc.rss)} |`,
    `| ceiling (undici loop, same URLs) | ${cell(ce.pps)} | ${cell(ce.cpuPerK, 2)} | ${cell(ce.rss)} |`,
    `| focuscrawl / ceiling (medians) | ${(fc.pps.median / ce.pps.median).toFixed(2)}× | ` +
      `${(fc.cpuPerK.median / ce.cpuPerK.median).toFixed(2)}× | ${(fc.rss.median / ce.rss.median).toFixed(2)}× |`,
    '',
    'Median (min–max) over the runs. Wall time runs from spawn to exit of the child process, so it includes ' +
      'Node and tsx start-up; CPU and peak RSS are the child\'s (GNU time), the replay proxy\'s are not counted. ' +
      `Start-up alone (\`node bin/focuscrawl --version\`, median of ${runs}): ${fmt(spread(startup.map((r) => r.wall)).median, 2)} s wall, ` +
      `${fmt(spread(startup.map((r) => r.cpu)).median, 2)} CPU s, ${fmt(spread(startup.map((r) => r.rssMb)).median)} MB peak RSS.`,
    '',
    `What was fetched (last run): ${fmt(last.urls.length)} URLs, ${fmt(last.pages)} page records (${statuses}), ` +
      `${fmt(last.errors)} error records, ${fmt(last.relevant)} relevant to the topic. The ceiling fetches the same URLs ` +
      'but no robots.txt, and parses, scores and stores nothing.',
  ].join('\n');
  process.stdout.write(section + '\n');
  if (values.write) {
    const doc = existsSync(BENCHMARKS_MD) ? await readFile(BENCHMARKS_MD, 'utf8') : '# Benchmarks\n';
    const start = doc.indexOf(START_MARK);
    const end = doc.indexOf(END_MARK);
    const block = `${START_MARK}\n${section}\n${END_MARK}`;
    const next = start >= 0 && end > start
      ? doc.slice(0, start) + block + doc.slice(end + END_MARK.length)
      : `${doc.trimEnd()}\n\n${block}\n`;
    await writeFile(BENCHMARKS_MD, next);
    process.stderr.write(`crawl-bench: wrote ${path.relative(REPO, BENCHMARKS_MD)}\n`);
  }
  return 0;
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`crawl-bench: ${(err as Error)?.message ?? String(err)}\n`);
  return 1;
});
