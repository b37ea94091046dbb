/**
 * Three `focuscrawl crawl` workers (real CLI processes) on one Redis crawl
 * while the redis-server under them is restarted mid-crawl, with an
 * append-only file: the union of the workers' stdout must be the store's
 * crawl log exactly (every committed URL printed once, nothing printed that
 * is not committed). See RELIABILITY.md, "Redis restarts".
 * Needs redis-server; the web is the synthetic one, served on loopback.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { crawlKeys } from '../src/store/redis.ts';
import { parseLines, runCli, spawnCli, type CliResult } from './helpers/cli.ts';
import { REDIS_SKIP, startRedis, uniqueCrawl, type RedisServer } from './helpers/redis.ts';
import { syntheticWebDir } from './helpers/synthetic-web.ts';

const PAGES = 450;

/** URLs that occur more than once. */
function repeated(urls: string[]): string[] {
  const seen = new Set<string>();
  return urls.filter((u) => (seen.has(u) ? true : (seen.add(u), false)));
}

async function crawlLog(server: RedisServer, crawl: string): Promise<any[]> {
  const r = new Redis(server.port, '127.0.0.1');
  try {
    return (await r.lrange(crawlKeys(crawl)[3], 0, -1)).map((x) => JSON.parse(x));
  } finally {
    r.disconnect();
  }
}

/** The summary a worker logged on stderr (--log-format json). */
function summaryOf(r: CliResult): any {
  const line = r.stderr.split('\n').find((l) => l.startsWith('{"type":"summary"'));
  return line === undefined ? undefined : JSON.parse(line);
}

/** Run 3 workers; restart Redis (`how`) once they have printed `at` records between them. */
async function crawlThroughRestart(server: RedisServer, proxy: string, how: 'shutdown' | 'kill', at: number): Promise<{ runs: CliResult[]; crawl: string }> {
  const crawl = uniqueCrawl(how);
  const args = [
    'crawl', '--seed', 'http://h0.example/p/0', '--proxy', proxy, '--store', `${server.url}?crawl=${crawl}`,
    '--max-pages', String(PAGES), '--concurrency', '4', '--per-host', '2', '--delay-ms', '0', '--lease-ms', '2000', '--stats-interval', '0', '--log-format', 'json',
  ];
  let printed = 0;
  let restarted: Promise<void> | undefined;
  const runs = [0, 1, 2].map(() => {
    const child = spawnCli(args);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      printed += d.split('\n').length - 1;
      if (printed >= at && restarted === undefined) restarted = server.restart(how);
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    return new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  });
  const done = await Promise.all(runs);
  assert.ok(restarted !== undefined, `Redis was restarted mid-crawl (after ${at} of ${PAGES} records)`);
  await restarted;
  return { runs: done, crawl };
}

describe('Redis restarted under 3 crawl workers: exactly-once output', { skip: REDIS_SKIP, concurrency: false }, () => {
  for (const how of ['shutdown', 'kill'] as const) {
    const what = how === 'shutdown' ? 'clean SHUTDOWN (AOF)' : 'SIGKILL (appendfsync everysec)';
    test(`${what}: the union of stdout is the crawl log, no URL missing, none twice`, async (t) => {
      // What broke: after a restart ioredis re-sent a commit whose reply the
      // restart had swallowed; the script, applied twice, found its own URL
      // done and answered "duplicate", so the worker never printed a record
      // the store had committed (1–2 per run). After a SIGKILL the last
      // second of commits could also be lost after their records were
      // printed; the URLs were fetched again and printed twice.
      const server = await startRedis({ aof: 'everysec' });
      t.after(() => server.stop());
      const { web } = await syntheticWebDir(t, 40);
      const { runs, crawl } = await crawlThroughRestart(server, web.url, how, PAGES / 3);
      for (const r of runs) assert.equal(r.code, 0, r.stderr);
      const printed = runs.flatMap((r) => parseLines(r.stdout));
      const log = await crawlLog(server, crawl);
      const replays = runs.map((r) => summaryOf(r)?.storeReplays ?? { sent: 0, conflicts: 0 });
      t.diagnostic(`printed per worker: ${runs.map((r) => parseLines(r.stdout).length).join(', ')}; log ${log.length}; requests ${web.hits()}; commits replayed ${replays.map((x) => x.sent).join(', ')}`);
      assert.deepEqual(replays.map((x) => x.conflicts), [0, 0, 0], 'no replayed commit found its URL committed by another worker');
      assert.deepEqual(repeated(printed.map((x) => x.url)), [], 'no URL printed twice');
      assert.deepEqual(repeated(log.map((x) => x.url)), [], 'no URL committed twice');
      const inLog = new Set(log.map((x) => x.url));
      const inOut = new Set(printed.map((x) => x.url));
      assert.deepEqual(log.filter((x) => !inOut.has(x.url)).map((x) => x.url), [], 'every committed record was printed');
      assert.deepEqual(printed.filter((x) => !inLog.has(x.url)).map((x) => x.url), [], 'every printed record is committed');
      assert.equal(log.filter((x) => x.type === 'page').length, PAGES, 'the crawl finished: --max-pages pages');
    });
  }
});
