/**
 * Shared-store benchmark: 1, 2 and 3 `focuscrawl crawl` workers on one
 * Redis store (--store redis://...), best-first over the WebKB replay (one
 * replay proxy in its own process, one redis-server started here).
 *
 *   node --import tsx bench/redis-workers.ts [--pages 1000] [--runs 1] [--workers 1,2,3] [--concurrency 6] [--per-host 2] [--strategy best-first]
 *
 * --concurrency is the total over the workers (each gets its share): on
 * WebKB the number of requests in flight decides how far the crawl strays
 * into the long tail of small hosts (1 worker at --concurrency 24 harvests
 * like 3 workers at 8 each), so configurations compare at equal totals.
 *
 * Per configuration: wall time from spawn to the last exit; crawl rate =
 * pages / (last fetchedAt - first fetchedAt) over all workers' records,
 * which leaves out each worker's start-up (tsx, jieba: seconds of CPU);
 * Redis round-trips per record as the workers counted them (their JSON
 * summary's storeRoundTrips), EVALSHA calls per record and all commands
 * run per record (INFO commandstats deltas; these count the commands the
 * Lua scripts run inside Redis too); duplicates across workers.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { readFileSync } from 'node:fs';
import { canonicalize } from '../src/urls/canonical.ts';
import { startRedis } from '../test/helpers/redis.ts';
import { machine, REPO, startReplay } from './lib/measure.ts';
import { WEBKB_COURSE_TOPIC, WEBKB_LABELS, WEBKB_SEEDS, WEBKB_WARC } from './lib/webkb.ts';

interface Worker {
  stdout: string;
  code: number | null;
  /** storeRoundTrips of the worker's JSON summary */
  roundTrips: number;
}

function runWorker(args: string[]): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO, 'bin/focuscrawl'), ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) process.stderr.write(stderr);
      let roundTrips = NaN;
      for (const line of stderr.split('\n')) {
        if (!line.startsWith('{')) continue;
        const v = JSON.parse(line) as { type?: string; storeRoundTrips?: number };
        if (v.type === 'summary') roundTrips = v.storeRoundTrips ?? NaN;
      }
      resolve({ stdout, code, roundTrips });
    });
  });
}

/** calls per command from INFO commandstats */
async function commandStats(r: Redis): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const line of (await r.info('commandstats')).split('\n')) {
    const m = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (m) out.set(m[1], Number(m[2]));
  }
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '1000' },
      runs: { type: 'string', default: '1' },
      workers: { type: 'string', default: '1,2,3' },
      concurrency: { type: 'string', default: '6' },
      'per-host': { type: 'string', default: '2' },
      strategy: { type: 'string', default: 'best-first' },
    },
    strict: true,
  });
  const pages = Number(values.pages);
  const runs = Number(values.runs);
  const counts = values.workers.split(',').map(Number);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-redis-bench-'));
  const topic = path.join(dir, 'topic.json');
  await writeFile(topic, JSON.stringify(WEBKB_COURSE_TOPIC));
  const redis = await startRedis();
  const replay = await startReplay(WEBKB_WARC);
  const admin = new Redis(redis.port, '127.0.0.1');
  const label = new Map<string, string>();
  for (const line of readFileSync(WEBKB_LABELS, 'utf8').trim().split('\n').slice(1)) {
    const [url, l] = line.split('\t');
    const c = canonicalize(url);
    if (c !== null) label.set(c, l);
  }
  console.log(`# ${machine()}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at start`);
  console.log(`# ${pages} pages ${values.strategy} over the WebKB replay, --concurrency ${values.concurrency} in all (shared evenly by the workers), --per-host ${values['per-host']} across workers`);
  console.log('| workers | run | wall s | crawl pages/s | pages per worker | harvest (judge) | harvest (labels: course) | round-trips/record (client) | EVALSHA/record (server) | commands run/record (server, in scripts too) | duplicates |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  try {
    for (const n of counts) {
      for (let run = 1; run <= runs; run++) {
        const store = `${redis.url}?crawl=bench-${n}-${run}`;
        const share = String(Math.max(1, Math.round(Number(values.concurrency) / n)));
        const args = [
          'crawl', ...WEBKB_SEEDS.flatMap((s) => ['--seed', s]), '--topic', topic, '--strategy', values.strategy, '--proxy', replay.url, '--store', store,
          '--max-pages', String(pages), '--concurrency', share, '--per-host', values['per-host'], '--stats-interval', '0', '--log-format', 'json',
        ];
        const before = await commandStats(admin);
        const t0 = Date.now();
        const workers = await Promise.all(Array.from({ length: n }, () => runWorker(args)));
        const wall = (Date.now() - t0) / 1000;
        const after = await commandStats(admin);
        const delta = new Map<string, number>();
        for (const [k, v] of after) delta.set(k, v - (before.get(k) ?? 0) - (k === 'info' ? 1 : 0));
        const records = workers.flatMap((w) => w.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; url: string; finalUrl: string; fetchedAt: string; relevant?: boolean }));
        const pageRecords = records.filter((r) => r.type === 'page');
        const times = records.map((r) => Date.parse(r.fetchedAt)).sort((a, b) => a - b);
        const span = (times[times.length - 1] - times[0]) / 1000;
        const total = [...delta.values()].reduce((a, b) => a + b, 0);
        const evalsha = (delta.get('evalsha') ?? 0) + (delta.get('eval') ?? 0);
        const roundTrips = workers.reduce((a, w) => a + w.roundTrips, 0);
        const dups = records.length - new Set(records.map((r) => r.url)).size;
        const per = workers.map((w) => w.stdout.split('\n').filter((l) => l.includes('"type":"page"')).length).join('/');
        const harvest = pageRecords.filter((p) => p.relevant === true).length / pageRecords.length;
        const labelled = pageRecords.filter((p) => label.get(p.finalUrl) === 'course').length / pageRecords.length;
        console.log(
          `| ${n} | ${run} | ${wall.toFixed(1)} | ${(pageRecords.length / span).toFixed(1)} | ${per} | ${(harvest * 100).toFixed(1)}% | ${(labelled * 100).toFixed(1)}% | ` +
            `${(roundTrips / records.length).toFixed(2)} | ${(evalsha / records.length).toFixed(2)} | ${(total / records.length).toFixed(1)} | ${dups} |`,
        );
        if (workers.some((w) => w.code !== 0)) console.log(`# run failed: exit codes ${workers.map((w) => w.code)}`);
      }
    }
  } finally {
    admin.disconnect();
    await replay.stop();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`# load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at end`);
}

await main();
