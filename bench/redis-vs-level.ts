/**
 * One crawl worker on the Redis store against the same crawl on the
 * LevelDB store, alternating in one run: best-first over the synthetic web
 * (fixtures/serve-synthetic.ts, HTML pages, no latency), one local
 * redis-server started here (no persistence unless --aof).
 *
 *   node --import tsx bench/redis-vs-level.ts [--pages 3000] [--concurrency 64] [--runs 3] [--strategy best-first] [--per-host 1] [--aof everysec]
 *
 * Per store: pages/s (page records / wall time from spawn to exit, start-up
 * included, as a user sees it), the crawler's CPU per 1,000 pages (GNU
 * time: user + sys) and, for Redis, the server's CPU per 1,000 pages (INFO
 * cpu deltas) and its memory per URL at the end of the crawl (used_memory
 * delta without the log / queued + committed URLs). Medians (min–max).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { RedisStore, crawlKeys } from '../src/store/redis.ts';
import { startRedis } from '../test/helpers/redis.ts';
import { REPO, binNodeSetup, cell, codeVersion, fmt, machine, measure, spread, startProxy } from './lib/measure.ts';
import { SYNTH_SPEC, SYNTH_TOPIC, synthSpecArg } from './lib/synthetic.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '64' },
    runs: { type: 'string', default: '3' },
    strategy: { type: 'string', default: 'best-first' },
    aof: { type: 'string' },
    'per-host': { type: 'string', default: '1' },
  },
  strict: true,
});
const pages = Number(values.pages);
const runs = Number(values.runs);
const aof = values.aof as 'everysec' | 'always' | undefined;

async function info(r: Redis): Promise<{ cpu: number; mem: number }> {
  const cpu = await r.info('cpu');
  const mem = await r.info('memory');
  const num = (s: string, k: string) => Number(new RegExp(`^${k}:([\\d.]+)`, 'm').exec(s)![1]);
  return { cpu: num(cpu, 'used_cpu_user') + num(cpu, 'used_cpu_sys'), mem: num(mem, 'used_memory') };
}

interface Run {
  pages: number;
  wall: number;
  cpu: number;
  redisCpu?: number;
  bytesPerUrl?: number;
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-redis-vs-level-'));
const synth = new SyntheticWeb(SYNTH_SPEC);
const seeds = synth.seeds(SYNTH_TOPIC, 3);
const topicFile = path.join(tmp, 'topic.json');
await writeFile(topicFile, JSON.stringify(synth.topicFile(SYNTH_TOPIC)));
const proxy = await startProxy('synthetic proxy', ['--import', 'tsx', path.join(REPO, 'fixtures/serve-synthetic.ts'), synthSpecArg()]);
const redis = await startRedis(aof === undefined ? {} : { aof });
const admin = new Redis(redis.port, '127.0.0.1');
const bin = binNodeSetup();
const load0 = os.loadavg();
const results = { level: [] as Run[], redis: [] as Run[] };
try {
  for (let r = 0; r < runs; r++) {
    // alternate which goes first, so a drift in the machine's load hits both
    const order: ('level' | 'redis')[] = r % 2 === 0 ? ['level', 'redis'] : ['redis', 'level'];
    for (const kind of order) {
      const crawl = `cmp-${r}`;
      const store = kind === 'level' ? path.join(tmp, 'store') : `${redis.url}?crawl=${crawl}`;
      const before = await info(admin);
      const m = await measure([
        process.execPath, ...bin.flags, path.join(REPO, 'bin/focuscrawl'), 'crawl', ...seeds.flatMap((s) => ['--seed', s]),
        '--strategy', values.strategy, '--topic', topicFile, '--proxy', proxy.url, '--store', store, '--fresh', '--max-pages', String(pages),
        '--concurrency', values.concurrency, '--per-host', values['per-host'], '--delay-ms', '0', '--quiet',
      ], path.join(tmp, 'time'), kind, { timeoutMs: 600_000, env: bin.env });
      const after = await info(admin);
      const n = m.stdout.split('\n').filter((l) => l.includes('"type":"page"')).length;
      const run: Run = { pages: n, wall: m.wall, cpu: m.cpu };
      if (kind === 'redis') {
        const keys = crawlKeys(crawl);
        const logBytes = Number((await admin.call('MEMORY', 'USAGE', keys[3], 'SAMPLES', '0')) ?? 0);
        const urls = (await admin.zcard(keys[0])) + Number(await admin.hget(keys[4], 'committed'));
        run.redisCpu = after.cpu - before.cpu;
        run.bytesPerUrl = (after.mem - before.mem - logBytes) / urls;
        await RedisStore.destroy(store);
      }
      results[kind].push(run);
      process.stderr.write(`redis-vs-level: run ${r + 1}/${runs} ${kind}: ${n} pages, ${fmt(m.wall, 1)} s wall, ${fmt(n / m.wall, 1)} pages/s, ${fmt(m.cpu, 1)} CPU s` +
        (run.redisCpu === undefined ? '' : `, redis-server ${fmt(run.redisCpu, 2)} CPU s, ${fmt(run.bytesPerUrl!, 0)} B/URL`) + '\n');
    }
  }
} finally {
  admin.disconnect();
  await redis.stop();
  await proxy.stop();
  await rm(tmp, { recursive: true, force: true });
}
const load1 = os.loadavg();
console.log(`# ${machine()}; ${codeVersion()}; load average ${load0.map((x) => x.toFixed(1)).join(' ')} at start, ${load1.map((x) => x.toFixed(1)).join(' ')} at end`);
console.log(`# ${pages} pages ${values.strategy} over the synthetic web, --concurrency ${values.concurrency}, --per-host ${values['per-host']}, --delay-ms 0; ${runs} runs alternating; redis-server ${aof === undefined ? 'without persistence' : `appendfsync ${aof}`}`);
console.log('| store | pages/s | crawler CPU s per 1,000 pages | redis-server CPU s per 1,000 pages | Redis B/URL (no log) |');
console.log('|---|---|---|---|---|');
for (const kind of ['level', 'redis'] as const) {
  const rs = results[kind];
  const pps = spread(rs.map((x) => x.pages / x.wall));
  const cpu = spread(rs.map((x) => (x.cpu / x.pages) * 1000));
  const rcpu = kind === 'redis' ? cell(spread(rs.map((x) => (x.redisCpu! / x.pages) * 1000)), 2) : '–';
  const bpu = kind === 'redis' ? cell(spread(rs.map((x) => x.bytesPerUrl!))) : '–';
  console.log(`| ${kind === 'level' ? 'LevelDB (directory)' : 'Redis (one worker)'} | ${cell(pps, 1)} | ${cell(cpu, 2)} | ${rcpu} | ${bpu} |`);
}
const ratio = spread(results.redis.map((x, i) => (x.pages / x.wall) / (results.level[i].pages / results.level[i].wall)));
console.log(`# Redis / LevelDB pages/s, per run pair: ${cell(ratio, 2)}`);
