// The stall watchdog (src/stall.ts). What broke: a full test run once saw a
// crawl end with exit 13 ("unsettled top-level await"), no error line and
// no summary, which is what Node does when the event loop empties while the
// crawl still waits on a wake-up. The watchdog turns that into one more
// look at the frontier, or a coded error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StalledError } from '../src/errors.ts';
import { stallWatchdog } from '../src/stall.ts';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('stallWatchdog: wakes the crawl and logs the state; fails with FC_STALLED after maxStalls wake-ups without progress', async () => {
  let progress = 0;
  let wakes = 0;
  const lines: string[] = [];
  const failures: StalledError[] = [];
  const watchdog = stallWatchdog({ progress: () => progress, wake: () => wakes++, fail: (e) => failures.push(e), describe: () => '2 URLs in flight', log: (l) => lines.push(l), maxStalls: 2 });
  const onIdle = async (): Promise<void> => {
    watchdog();
    await tick();
  };
  await onIdle();
  await onIdle();
  assert.equal(wakes, 2);
  assert.equal(lines.length, 2);
  assert.match(lines[0], /2 URLs in flight/);
  progress = 5; // the wake-ups helped: the count starts again
  await onIdle();
  await onIdle();
  assert.equal(wakes, 4);
  assert.equal(failures.length, 0);
  await onIdle();
  assert.equal(wakes, 4, 'no more wake-ups once it fails');
  assert.equal(failures.length, 1);
  assert.equal(failures[0].code, 'FC_STALLED');
  assert.match(failures[0].message, /2 URLs in flight/);
  await onIdle();
  assert.equal(failures.length, 1, 'fails once');
});

/** Run a script that awaits a wake-up nothing else will send, with the watchdog on 'beforeExit'. */
function runStalled(wakeHelps: boolean): ReturnType<typeof spawnSync> {
  const stall = fileURLToPath(new URL('../src/stall.ts', import.meta.url));
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
  assert.match(String(r.stderr), /nothing left to wait on \(test state\)/);
});

test('a stall that waking does not end fails with FC_STALLED (exit 1), not exit 13', () => {
  const r = runStalled(false);
  assert.equal(r.status, 1, String(r.stderr));
  assert.match(String(r.stderr), /FC_STALLED/);
  assert.equal(String(r.stderr).match(/nothing left to wait on/g)?.length, 3, 'three wake-ups first');
});
