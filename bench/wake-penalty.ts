/**
 * What a wake-up from idle costs in CPU on this machine (issue 23 item 2).
 *
 *   node --import tsx bench/wake-penalty.ts [--units 1000] [--runs 3] [--modes burst,turn,1,5,50,50x10]
 *
 * A fixed unit of JavaScript work (parse a 30 KB JSON document, touch a
 * 50,000-key Map, split 3.6 KB of text into words, stringify the document
 * back: ~0.3 ms, about a crawled page's worth) is done `--units` times, and
 * the process CPU (process.cpuUsage: user + sys) per unit is reported for
 * each mode:
 *
 * - `burst`: back to back;
 * - `turn`: each after one event-loop turn (setImmediate: no idle time);
 * - `S`: each after a sleep of S ms (the event loop idles on a timer);
 * - `SxK`: K units after each sleep of S ms.
 *
 * Modes alternate within each run; medians (min–max) over `--runs`. The
 * unit is the same in every mode, so CPU above `burst`'s is what waking from
 * idle costs (cold caches and the scheduler, not JavaScript): a wait-bound
 * polite crawl wakes from idle for every few pages, an impolite one rarely.
 * The work runs on the main thread only; nothing else runs in the process.
 * About 3 minutes with the defaults (the 50 ms sleeps).
 */
import os from 'node:os';
import { setImmediate as turn, setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { cell, fmt, machine, spread } from './lib/measure.ts';

const { values } = parseArgs({
  options: {
    units: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'burst,turn,1,5,50,50x10' },
  },
  strict: true,
  allowPositionals: false,
});
const units = Number(values.units);
const runs = Number(values.runs);
if (!(Number.isInteger(units) && units > 0 && Number.isInteger(runs) && runs > 0)) throw new Error('--units and --runs must be positive integers');
interface Mode {
  name: string;
  /** ms slept before each group of `per` units; -1: a setImmediate turn; 0: none */
  sleepMs: number;
  per: number;
}
const modes: Mode[] = values.modes!.split(',').map((m) => {
  if (m === 'burst') return { name: m, sleepMs: 0, per: 1 };
  if (m === 'turn') return { name: m, sleepMs: -1, per: 1 };
  const [s, k] = m.split('x').map(Number);
  if (!(s > 0) || (k !== undefined && !(Number.isInteger(k) && k > 0))) throw new Error(`--modes: bad mode ${m}`);
  return { name: m, sleepMs: s, per: k ?? 1 };
});

const doc = JSON.stringify({ items: Array.from({ length: 400 }, (_, i) => ({ id: i, name: `item ${i} astronomy star galaxy`, tags: ['a', 'b', String(i)] })) });
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(80);
const table = new Map<string, number>();
/** One unit of work; returns a number so it is not optimised away. */
function work(): number {
  const o = JSON.parse(doc) as { items: { id: number; name: string; tags: string[] }[] };
  let n = 0;
  for (const it of o.items) {
    table.set(`k${(it.id * 7919) % 50_000}`, it.name.length);
    n += it.tags.length;
  }
  n += (text.match(/\b\w+\b/g) ?? []).length;
  return n + JSON.stringify(o).length;
}

/** CPU µs per unit in one mode. */
async function measureMode(mode: Mode): Promise<number> {
  let sink = 0;
  const t0 = process.cpuUsage();
  for (let i = 0; i < units; i++) {
    if (i % mode.per === 0) {
      if (mode.sleepMs === -1) await turn();
      else if (mode.sleepMs > 0) await sleep(mode.sleepMs);
    }
    sink += work();
  }
  const t = process.cpuUsage(t0);
  if (sink === 0) throw new Error('no work done');
  return (t.user + t.system) / units;
}

for (let i = 0; i < 300; i++) work(); // warm up: compiled, the Map grown
const loadBefore = os.loadavg()[0];
const results = new Map<string, number[]>(modes.map((m) => [m.name, []]));
for (let r = 0; r < runs; r++) {
  for (const mode of modes) {
    const us = await measureMode(mode);
    results.get(mode.name)!.push(us);
    process.stderr.write(`wake-penalty: run ${r + 1}/${runs}, ${mode.name}: ${fmt(us, 1)} µs CPU per unit\n`);
  }
}
const burst = spread(results.get('burst') ?? results.get(modes[0].name)!).median;
const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; 1-minute load average ${fmt(loadBefore, 2)} before, ${fmt(os.loadavg()[0], 2)} after. ` +
    `Command: \`${`node --import tsx bench/wake-penalty.ts ${process.argv.slice(2).join(' ')}`.trim()}\`.`,
  '',
  `${fmt(units)} units a mode, medians (min–max) of ${runs} runs, modes alternating.`,
  '',
  '| mode | CPU µs per unit | over back to back, µs per unit | per wake-up, µs |',
  '|---|---|---|---|',
  ...modes.map((m) => {
    const s = spread(results.get(m.name)!);
    const over = s.median - burst;
    return `| ${m.name} | ${cell(s, 1)} | ${fmt(over, 1)} | ${m.sleepMs > 0 ? fmt(over * m.per, 0) : '–'} |`;
  }),
];
process.stdout.write(`${lines.join('\n')}\n`);
