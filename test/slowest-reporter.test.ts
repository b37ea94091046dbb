// The fast suite's ten-slowest reporter (test/helpers/slowest.mjs, issue 25):
// fed the runner's events, it lists the slowest tests, slowest first,
// without suites or tests that only hold subtests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
// @ts-expect-error: a plain JavaScript reporter, no declarations
import slowest from './helpers/slowest.mjs';

type Event = { type: string; data: Record<string, unknown> };

const FILE = path.join(process.cwd(), 'test', 'x.test.ts');

function done(name: string, nesting: number, ms: number, extra: Record<string, unknown> = {}, type = 'test:pass'): Event {
  return { type, data: { name, nesting, file: FILE, details: { duration_ms: ms, ...extra } } };
}

async function report(events: Event[]): Promise<string> {
  async function* source(): AsyncGenerator<Event> {
    yield* events;
  }
  let out = '';
  for await (const chunk of (slowest as (s: AsyncGenerator<Event>) => AsyncGenerator<string>)(source())) out += chunk;
  return out;
}

test('lists the slowest tests first, at most ten, without suites and parents', async () => {
  const events: Event[] = [];
  for (let i = 1; i <= 12; i++) events.push(done(`t${i}`, 0, i * 100));
  events.push(done('kid', 1, 5000), done('parent', 0, 5100)); // a test with a subtest
  events.push(done('inner', 1, 50), done('suite', 0, 9000, { type: 'suite' }));
  events.push(done('broken', 0, 1500, {}, 'test:fail'));
  events.push(done(FILE, 0, 180_000, {}, 'test:fail')); // a file that timed out as a whole
  events.push({ type: 'test:diagnostic', data: { nesting: 0, message: 'tests 16' } });
  const lines = (await report(events)).trim().split('\n');
  // 12 tests, kid, inner, broken and the file: not the parent, not the suite
  assert.match(lines[0], /^# the 10 slowest tests \(of 16 without subtests, /);
  const rows = lines.slice(1).map((l) => /^#\s+([\d.]+) s  (\S+)  (.*)$/.exec(l));
  assert.ok(rows.every((r) => r !== null && r[2] === path.join('test', 'x.test.ts')), lines.join('\n'));
  assert.deepEqual(rows.map((r) => r![3]), ['(the whole file)  (failed)', 'kid', 'broken  (failed)', 't12', 't11', 't10', 't9', 't8', 't7', 't6']);
  assert.deepEqual(rows.map((r) => r![1]).slice(0, 4), ['180.0', '5.0', '1.5', '1.2']);
});

test('prints nothing when no test ran', async () => {
  assert.equal(await report([{ type: 'test:diagnostic', data: { nesting: 0, message: 'tests 0' } }]), '');
});
