/**
 * Redis memory per URL of the shared store (src/store/redis.ts): a
 * simulated best-first crawl straight on the store (no HTTP), one worker,
 * until the frontier holds --urls URLs; then INFO memory (used_memory
 * delta from the empty server) and MEMORY USAGE of each key of the crawl.
 *
 *   node --import tsx bench/redis-memory.ts [--urls 200000] [--links 28] [--keep-text]
 *
 * Links look like the synthetic web's (`http://h<N>.synth/p/<M>.html`); a
 * committed page's record is a 300-byte JSON object (the log is reported
 * apart: it is the user's data, not the frontier). --keep-text stores
 * anchor (~20 chars) and context (~120 chars), as `online` does.
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { RedisStore, crawlKeys } from '../src/store/redis.ts';
import type { CommitLink } from '../src/store/types.ts';
import type { FrontierEntry } from '../src/types.ts';
import { startRedis } from '../test/helpers/redis.ts';

const { values } = parseArgs({ options: { urls: { type: 'string', default: '200000' }, links: { type: 'string', default: '28' }, 'keep-text': { type: 'boolean', default: false } }, strict: true });
const target = Number(values.urls);
const perPage = Number(values.links);
const keepText = values['keep-text'];

let rng = 12345;
const rand = (n: number) => {
  rng ^= rng << 13;
  rng ^= rng >>> 17;
  rng ^= rng << 5;
  return (rng >>> 0) % n;
};

const server = await startRedis();
const admin = new Redis(server.port, '127.0.0.1');
try {
  const mem0 = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
  const crawl = 'mem';
  const store = await RedisStore.open(`${server.url}?crawl=${crawl}`, { perHost: 1000 });
  await store.addSeeds([{ url: 'http://h0.synth/', score: 1, depth: 0, parent: null }]);
  const t0 = process.hrtime.bigint();
  let commits = 0;
  const buf: FrontierEntry[] = [];
  while (store.frontierSize < target) {
    if (buf.length === 0) {
      const r = await store.claim(64);
      for (const e of r.entries) buf.push(e.entry);
      if (buf.length === 0) break;
    }
    const entry = buf.shift()!;
    const links: CommitLink[] = [];
    for (let i = 0; i < perPage; i++) {
      const url = `http://h${rand(10000)}.synth/p/${rand(1_000_000)}.html`;
      links.push({ url, score: Math.round(rand(1_000_000)) / 1_000_000, depth: entry.depth + 1, parent: entry.url, anchor: 'anchor text of a link', context: 'x'.repeat(120) });
    }
    const record = { type: 'page', url: entry.url, finalUrl: entry.url, status: 200, depth: entry.depth, score: entry.score, relevant: true, fetchedAt: new Date().toISOString(), title: 't'.repeat(60), contentType: 'text/html', bytes: 3400, links: perPage, pad: 'p'.repeat(60) };
    await store.commit({ entry, record, countsAsPage: true, links, keepText });
    commits++;
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  await store.releaseClaims();
  const mem1 = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
  const per: Record<string, number> = {};
  let logBytes = 0;
  let total = 0;
  for (const k of crawlKeys(crawl)) {
    const u = Number((await admin.call('MEMORY', 'USAGE', k, 'SAMPLES', '0')) ?? 0);
    const name = k.slice(k.lastIndexOf(':') + 1);
    if (name === 'log') logBytes = u;
    else total += u;
    if (u > 0) per[name] = u;
  }
  const extra: string[] = [];
  for (const k of (await admin.keys(`fc:{${crawl}}:*`)) as string[]) if (!crawlKeys(crawl).includes(k)) extra.push(k);
  let extraBytes = 0;
  for (const k of extra) extraBytes += Number((await admin.call('MEMORY', 'USAGE', k, 'SAMPLES', '0')) ?? 0);
  const urls = store.frontierSize + store.committed;
  const fmt = (b: number) => (b / urls).toFixed(0);
  const lp = ((await admin.call('CONFIG', 'GET', 'hash-max-listpack-entries')) as string[])[1];
  const enc = await admin.object('ENCODING', `fc:{${crawl}}:seen:000`);
  console.log(`# redis-server ${/redis_version:(\S+)/.exec(await admin.info('server'))![1]}, hash-max-listpack-entries ${lp}; seen bucket 000: ${await admin.hlen(`fc:{${crawl}}:seen:000`)} fields, ${enc ?? 'absent'}`);
  console.log(`# ${urls} URLs (${store.frontierSize} queued, ${store.committed} committed, ${commits} commits in ${secs.toFixed(1)} s, ${(commits / secs).toFixed(0)} commits/s), links/page ${perPage}, keepText ${keepText}`);
  console.log(`used_memory delta: ${((mem1 - mem0) / 1e6).toFixed(1)} MB = ${fmt(mem1 - mem0)} B/URL; without the log: ${fmt(mem1 - mem0 - logBytes)} B/URL`);
  console.log(`MEMORY USAGE, B/URL: ${Object.entries(per).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}${extra.length ? `, ${extra.length} bucket keys ${fmt(extraBytes)}` : ''}; all but log ${fmt(total + extraBytes)}`);
  await store.close();
} finally {
  admin.disconnect();
  await server.stop();
}
