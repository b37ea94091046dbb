// bench/lib/thread-cpu.mjs (bench/politeness-cpu.ts --threads): Node 20
// names no thread, so the preload tells them apart by creation order; these
// check that order against the pool sizes and that V8's background work
// lands in the `v8` share and nowhere else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PRELOAD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bench/lib/thread-cpu.mjs');
/** allocation-heavy (scavenges and mark-compacts, which V8 runs partly on its workers), then one fs call */
const CHURN = 'let a = []; for (let i = 0; i < 4e6; i++) { a.push({ i, s: "x" + i }); if (a.length > 3e5) a = []; } require("fs").readFile("/proc/self/stat", () => {});';

interface Threads { main: number; v8: number; aux: number; libuv: number; other: number; threads: number; v8Pool: number; uvPool: number }

function threadCpu(flags: string[], env: Record<string, string> = {}): Threads {
  const r = spawnSync(process.execPath, [...flags, '--import', PRELOAD, '-e', CHURN], { env: { ...process.env, ...env }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const line = /^thread-cpu: (.*)$/m.exec(r.stderr);
  assert.ok(line, r.stderr);
  return JSON.parse(line[1]) as Threads;
}

test('thread-cpu: the thread count follows both pool sizes', () => {
  const t = threadCpu(['--v8-pool-size=2'], { UV_THREADPOOL_SIZE: '3' });
  assert.equal(t.v8Pool, 2);
  assert.equal(t.uvPool, 3);
  // main, delayed-task thread, 2 V8 workers, inspector signal thread, 3 libuv
  assert.equal(t.threads, 1 + 1 + 2 + 1 + 3);
  assert.equal(t.other, 0);
});

test('thread-cpu: background GC is counted as V8 workers, and moves to main without them', () => {
  const on = threadCpu([]);
  assert.equal(on.threads, 11);
  assert.ok(on.v8 > 0, JSON.stringify(on));
  assert.ok(on.main > 0, JSON.stringify(on));
  const off = threadCpu(['--single-threaded']);
  assert.equal(off.v8, 0, JSON.stringify(off));
  assert.equal(off.libuv + off.other + off.aux, 0, JSON.stringify(off));
});
