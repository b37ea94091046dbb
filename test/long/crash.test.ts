// Crash safety: a crawl of the fixture web SIGKILLed five times (during
// start-up, right after a record arrived, i.e. while its LevelDB batch is
// being written, and at a moment mid-crawl) and resumed on the same store
// each time must, over the union of its outputs, print no URL twice, lose
// no committed record (bar the documented window: at most one per kill),
// and reach exactly the URLs an uninterrupted crawl reaches. The replay
// proxy's view agrees: no URL is requested again after its record was
// printed. The bench version (20 kills on WebKB) is bench/crash-bench.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { CrawlStore } from '../../src/store/level.ts';
import type { OutputRecord } from '../../src/types.ts';
import { fixtureReplay } from '../helpers/cli.ts';
import {
  checkClosure, checkRequests, checkUnion, crashAndResume, reachedUrls, readLog, runUntilKilled, startCountingProxy, type KillAt,
} from '../helpers/crash.ts';

const KILLS: KillAt[] = [
  { kind: 'startup', ms: 300 },
  { kind: 'line', line: 30 },
  { kind: 'time', ms: 150 },
  { kind: 'line', line: 1 },
  { kind: 'line', line: 70 },
];

function crawlArgs(proxy: string, store: string): string[] {
  return ['crawl', '--seeds', 'fixtures/demo-seeds.txt', '--proxy', proxy, '--store', store, '--concurrency', '16', '--per-host', '4', '--quiet'];
}

test('five SIGKILLs, resumed each time: no URL twice, nothing lost, the same URLs as an uninterrupted crawl', async (t) => {
  const { url: replay, dir } = await fixtureReplay(t);
  const counting = await startCountingProxy(replay);
  t.after(() => counting.close());
  const store = path.join(dir, 'store');
  const [reference, runs] = await Promise.all([
    runUntilKilled(crawlArgs(replay, path.join(dir, 'reference')), null),
    crashAndResume({
      args: crawlArgs(counting.url, store),
      kills: KILLS.length,
      plan: (i) => KILLS[i],
      inspect: store,
      beforeRun: (i) => (counting.run = i),
    }),
  ]);
  assert.equal(reference.code, 0, reference.stderr);
  counting.run = -1; // the closure check's re-fetches are not the crawl's
  for (const run of runs.slice(0, -1)) assert.ok(run.killed, `run ${run.index} ended before its kill (${JSON.stringify(run.kill)})`);

  const s = await CrawlStore.open(store);
  try {
    const union = await checkUnion(runs, s);
    assert.deepEqual(union.violations, []);
    const requests = checkRequests(counting.requests, runs);
    assert.deepEqual(requests.violations, []);
    const closure = await checkClosure(s, replay);
    assert.deepEqual(closure.violations, []);
    assert.ok(closure.links > 0, 'the closure check saw links');
    const expected = reachedUrls(reference.lines.map((l) => JSON.parse(l) as OutputRecord));
    assert.deepEqual([...reachedUrls(await readLog(s))].sort(), [...expected].sort());
    assert.equal(s.frontierSize, 0);
    const pending = runs.reduce((n, r) => n + (r.snapshot?.pending ?? 0), 0);
    t.diagnostic(
      `${union.kills} kills, ${union.records} records, ${union.storePages} pages, ${union.missing.length} missing, ` +
        `${requests.refetchedAfterKill} URLs re-requested after a kill, ${pending} journaled batches replayed`,
    );
  } finally {
    await s.close();
  }
});
