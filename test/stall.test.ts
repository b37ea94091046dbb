// The stall watchdog (src/frontier/stall.ts). What broke: a full test run once saw a
// crawl end with exit 13 ("unsettled top-level await"), no error line and
// no summary, which is what Node does when the event loop empties while the
// crawl still waits. The watchdog keeps the loop alive and wakes the crawl,
// or ends it with a coded error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StalledError } from '../src/errors.ts';
import { stallWatchdog } from '../src/frontier/stall.ts';

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('stallWatchdog: logs once per stall, wakes the crawl after intervalMs, fails with FC_STALLED after giveUpMs without progress', async () => {
  let clock = 0;
  let progress = 0;
  let wakes = 0;
  const lines: string[] = [];
  const failures: StalledError[] = [];
  const onIdle = stallWatchdog({
    progress: () => progress,
    wake: () => wakes++,
    fail: (e) => failures.push(e),
    describe: () => '2 URLs in flight',
    log: (l) => lines.push(l),
    intervalMs: 5,
    giveUpMs: 100,
    now: () => clock,
  });
  onIdle();
  assert.equal(wakes, 0, 'not at once: after intervalMs');
  await later(20);
  assert.equal(wakes, 1);
  clock = 60;
  onIdle();
  await later(20);
  assert.equal(wakes, 2);
  assert.equal(lines.length, 1, 'one log line per stall');
  assert.match(lines[0], /2 URLs in flight/);
  progress = 1; // the crawl moved: a new stall starts its own clock
  clock = 150;
  onIdle();
  await later(20);
  assert.equal(wakes, 3);
  assert.equal(lines.length, 2);
  assert.equal(failures.length, 0);
  clock = 250; // 100 ms without progress
  onIdle();
  await later(20);
  assert.equal(wakes, 3, 'no wake-up once it fails');
  assert.equal(failures.length, 1);
  assert.equal(failures[0].code, 'FC_STALLED');
  assert.match(failures[0].message, /2 URLs in flight/);
  onIdle();
  await later(20);
  assert.equal(failures.length, 1, 'fails once');
});

/** Run a script that awaits something only the watchdog's wake-up (or failure) settles, with the watchdog on 'beforeExit'. */
function runStalled(wakeHelps: boolean): ReturnType<typeof spawnSync> {
  const stall = fileURLToPath(new URL('../src/frontier/stall.ts', import.meta.url));
  const script = `
    import { stallWatchdog } from ${JSON.stringify(stall)};
    let resolve;
    const waiting = new Promise((r) => (resolve = r));
    let failure = null;
    const onIdle = stallWatchdog({
      progress: () => 0,
      wake: () => { if (${wakeHelps}) resolve('woken'); },
      fail: (err) => { failure = err; resolve('failed'); },
      describe: () => 'test state',
      log: (line) => process.stderr.write(line + '\\n'),
      intervalMs: 20,
      giveUpMs: 200,
    });
    process.on('beforeExit', onIdle);
    const how = await waiting;
    process.off('beforeExit', onIdle);
    if (failure !== null) { process.stderr.write(failure.code + '\\n'); process.exitCode = 1; }
    else process.stdout.write(how);
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
}

test('a process whose awaited wake-up was lost is woken from beforeExit instead of ending with exit 13', () => {
  const r = runStalled(true);
  assert.equal(r.status, 0, String(r.stderr));
  assert.equal(r.stdout, 'woken');
  assert.match(String(r.stderr), /the event loop emptied with the crawl unfinished \(test state\)/);
});

test('a stall that waking does not end fails with FC_STALLED (exit 1) after giveUpMs, not exit 13', () => {
  const started = Date.now();
  const r = runStalled(false);
  assert.equal(r.status, 1, String(r.stderr));
  assert.match(String(r.stderr), /FC_STALLED/);
  assert.equal(String(r.stderr).match(/event loop emptied/g)?.length, 1, 'logged once');
  assert.ok(Date.now() - started >= 200, 'kept alive until giveUpMs');
});
