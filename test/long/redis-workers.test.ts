/**
 * Several `focuscrawl crawl` workers (real CLI processes) share one crawl
 * through a Redis store, over the WebKB replay: no URL is fetched twice,
 * --max-pages holds for the union, focus is kept, and a worker killed with
 * SIGKILL loses nothing (its leased URLs come back after --lease-ms).
 * Needs redis-server and ../shared/corpora/webkb.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { frontierKey } from '../../src/store/keys.ts';
import { crawlKeys, seenBuckets } from '../../src/store/redis.ts';
import { canonicalize } from '../../src/urls/canonical.ts';
import { fixtureReplay, parseLines, runCli, SHARED, spawnCli, SKIP_WEBKB, WEBKB_WARC, type CliResult } from '../helpers/cli.ts';
import { REDIS_SKIP, startRedis, uniqueCrawl, type RedisServer } from '../helpers/redis.ts';

const SEEDS = ['http://www.cs.cornell.edu/', 'http://www.cs.utexas.edu/', 'http://www.cs.washington.edu/'];
const TOPIC = {
  name: 'course',
  terms: ['course', 'syllabus', 'homework', 'lecture', 'assignments', 'exam', 'instructor', 'office hours', 'prerequisites'],
  threshold: 0.2,
};
const PAGES = 300;

let server: RedisServer | undefined;

/**
 * Flags of one worker. `concurrency` is per worker: compare runs at equal
 * totals (how many requests are in flight decides how far a WebKB crawl
 * strays into the long tail of small hosts, whatever the number of workers).
 */
function crawlArgs(store: string, proxy: string, topic: string, extra: string[] = [], pages = PAGES, concurrency = 2): string[] {
  return [
    'crawl', ...SEEDS.flatMap((s) => ['--seed', s]), '--topic', topic, '--proxy', proxy, '--store', store,
    '--max-pages', String(pages), '--concurrency', String(concurrency), '--per-host', '2', '--stats-interval', '0', ...extra,
  ];
}

const pagesOf = (r: CliResult) => parseLines(r.stdout).filter((x) => x.type === 'page');
/** canonical URL -> WebKB label */
function labels(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(path.join(SHARED, 'webkb', 'labels.tsv'), 'utf8').trim().split('\n').slice(1)) {
    const [url, label] = line.split('\t');
    const c = canonicalize(url);
    if (c !== null) out.set(c, label);
  }
  return out;
}

/**
 * Harvest by the archive's human labels ("course" pages / pages). Not by the
 * pages' own `relevant`: the TF-IDF judge learns its IDF from the pages its
 * worker parsed, so each of 3 workers judges with a third of the evidence.
 */
const harvest = (pages: { finalUrl: string }[], byUrl: Map<string, string>) => pages.filter((p) => byUrl.get(p.finalUrl) === 'course').length / pages.length;

/** URLs printed more than once across the outputs. */
function repeated(urls: string[]): string[] {
  const seen = new Set<string>();
  return urls.filter((u) => (seen.has(u) ? true : (seen.add(u), false)));
}

/** Redis holds nothing half-done: no lease left, every queued mark has its frontier entry and back. */
async function checkNothingLost(crawl: string): Promise<{ log: any[]; queued: number }> {
  const r = new Redis(server!.port, '127.0.0.1');
  try {
    const [q, e, , log, , lease, lw, ha, , , ct] = crawlKeys(crawl);
    assert.equal(await r.zcard(lease), 0, 'no lease left');
    assert.equal(await r.hlen(lw), 0, 'no lease owner left');
    assert.equal(await r.hlen(ha), 0, 'no host marked in flight');
    assert.equal(await r.exists(e, ct), 0, 'no key of layout 1');
    // layout 2: a frontier member is "frontier key TAB url TAB entry"
    const members = await r.zrange(q, 0, -1);
    const frontier = new Set(members.map((m) => m.slice(0, 31)));
    assert.equal(frontier.size, members.length, 'one member per frontier key');
    const queuedKeys: string[] = [];
    for (const bucket of seenBuckets(crawl)) {
      // a queued mark is "q" seq (hex) TAB score: queued under frontierKey(score, seq)
      for (const v of Object.values(await r.hgetall(bucket))) {
        if (v.startsWith('d')) continue;
        const [seq, score] = v.slice(1).split('\t');
        queuedKeys.push(frontierKey(Number(score), parseInt(seq, 16)));
      }
    }
    assert.deepEqual(new Set(queuedKeys), frontier, 'every queued mark is in the frontier, every frontier key is marked queued');
    return { log: (await r.lrange(log, 0, -1)).map((x) => JSON.parse(x)), queued: frontier.size };
  } finally {
    r.disconnect();
  }
}

describe('Redis: several crawl workers on one crawl (WebKB replay)', { skip: REDIS_SKIP || SKIP_WEBKB, concurrency: false }, () => {
  before(async () => {
    server = await startRedis();
  });
  after(async () => {
    await server?.stop();
  });

  test('3 workers: no URL fetched twice, the union is --max-pages, mostly the pages one worker fetches', async (t) => {
    const { url: proxy, dir } = await fixtureReplay(t, WEBKB_WARC);
    const topic = path.join(dir, 'topic.json');
    await writeFile(topic, JSON.stringify(TOPIC));
    const single = await runCli(crawlArgs(`${server!.url}?crawl=${uniqueCrawl('one')}`, proxy, topic, [], PAGES, 6));
    assert.equal(single.code, 0, single.stderr);
    const one = pagesOf(single);
    assert.equal(one.length, PAGES);

    const store = `${server!.url}?crawl=${uniqueCrawl('three')}`;
    const runs = await Promise.all([0, 1, 2].map(() => runCli(crawlArgs(store, proxy, topic))));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const outputs = runs.map(pagesOf);
    const records = runs.flatMap((r) => parseLines(r.stdout));
    assert.ok(outputs.filter((o) => o.length > 0).length >= 2, `the work was shared: ${outputs.map((o) => o.length)}`);
    assert.deepEqual(repeated(records.map((x) => x.url)), [], 'no URL fetched by two workers');
    const union = outputs.flat();
    assert.equal(union.length, PAGES);
    const byUrl = labels();
    const h1 = harvest(one, byUrl);
    const h3 = harvest(union, byUrl);
    t.diagnostic(`harvest by labels: one worker ${h1.toFixed(3)}, three ${h3.toFixed(3)}`);
    // What was weak: this test asked for the labelled harvest to be within 5
    // points of one worker's, but the first 300 pages of this crawl hold 2–5
    // course pages (harvest 0.7–1.7%), so almost any order passed. Workers
    // sharing one frontier take its best URLs as one worker does: measured,
    // 245–278 of the 300 pages are ones a single best-first worker fetches,
    // where a breadth-first crawl of the same size shares 87–95 with it.
    const single1 = new Set(one.map((p) => p.url as string));
    const shared = union.filter((p) => single1.has(p.url as string)).length;
    t.diagnostic(`pages also fetched by one worker: ${shared} of ${union.length}`);
    assert.ok(shared >= (2 / 3) * PAGES, `the workers kept the frontier's order: ${shared} of ${PAGES} pages are ones one worker fetches`);
    const { log } = await checkNothingLost(store.split('crawl=')[1]);
    assert.equal(log.length, records.length, 'every committed record was printed');

    // the crawl's totals from any machine
    const stats = await runCli(['stats', '--store', store, '--log-format', 'json']);
    assert.equal(stats.code, 0, stats.stderr);
    const s = JSON.parse(stats.stdout);
    assert.equal(s.pages, PAGES);
    assert.equal(s.state, 'finished');

    // --fresh deletes the crawl's keys: a new crawl starts from the seeds
    const fresh = await runCli(crawlArgs(store, proxy, topic, ['--fresh'], 5));
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.deepEqual(pagesOf(fresh).filter((p) => p.depth === 0).map((p) => p.url).sort(), [...SEEDS].sort(), 'the seeds again');
    assert.equal(pagesOf(fresh).length, 5);
    assert.equal((await checkNothingLost(store.split('crawl=')[1])).log.length, parseLines(fresh.stdout).length);
  });

  test('kill -9 one of 3 workers mid-crawl, start a replacement: nothing lost, nothing fetched twice', async (t) => {
    const { url: proxy, dir } = await fixtureReplay(t, WEBKB_WARC);
    const topic = path.join(dir, 'topic.json');
    await writeFile(topic, JSON.stringify(TOPIC));
    const crawl = uniqueCrawl('kill');
    const store = `${server!.url}?crawl=${crawl}`;
    const args = crawlArgs(store, proxy, topic, ['--lease-ms', '3000']);
    // the victim: killed once it has printed 20 records, with URLs leased and in flight
    const victim = spawnCli(args);
    let victimOut = '';
    const killed = new Promise<void>((resolve) => {
      victim.stdout!.setEncoding('utf8').on('data', (d: string) => {
        victimOut += d;
        if (victimOut.split('\n').length > 20 && victim.exitCode === null && !victim.killed) {
          victim.kill('SIGKILL');
          resolve();
        }
      });
      victim.on('exit', () => resolve());
    });
    victim.stderr!.resume();
    const others = [runCli(args), runCli(args)];
    await killed;
    await new Promise((resolve) => (victim.exitCode !== null || victim.signalCode !== null ? resolve(null) : victim.once('exit', resolve)));
    assert.equal(victim.signalCode, 'SIGKILL', 'the victim was killed mid-crawl (it had not finished)');
    const replacement = await runCli(args);
    const runs = await Promise.all(others);
    for (const r of [...runs, replacement]) assert.equal(r.code, 0, r.stderr);

    // the victim's last line may be cut by the kill
    const victimRecords = parseLines(victimOut.slice(0, victimOut.lastIndexOf('\n') + 1));
    const printed = [...victimRecords, ...[...runs, replacement].flatMap((r) => parseLines(r.stdout))];
    assert.deepEqual(repeated(printed.map((x) => x.url)), [], 'no URL fetched twice');
    const { log } = await checkNothingLost(crawl);
    assert.deepEqual(repeated(log.map((x) => x.url)), [], 'no URL committed twice');
    assert.equal(log.filter((x) => x.type === 'page').length, PAGES, 'the union is --max-pages');
    const printedUrls = new Set(printed.map((x) => x.url));
    // SIGKILL between a commit and its stdout write loses that one record (it is in the log)
    const unprinted = log.filter((x) => !printedUrls.has(x.url));
    assert.ok(unprinted.length <= 1, `committed but not printed: ${unprinted.map((x) => x.url)}`);
  });
});
