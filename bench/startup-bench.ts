/**
 * What a crawl costs before and after its pages: the wall time, CPU and
 * peak RSS of a one-page crawl (start-up, LevelDB open, robots.txt, one
 * fetch, shutdown) and of a 120-page crawl, with and without the entry's
 * `--liftoff-only`, and what the modules a crawl loads cost to import.
 * The web is the bundled fixture (fixtures/web.warc.gz through
 * `focuscrawl replay`), so it runs in any checkout.
 *
 *   node --import tsx bench/startup-bench.ts [--runs 5] [--write]
 *
 * Variants (the compiled dist/, `npm run build` first, as an installed
 * package runs it): **bin** = the node flags and environment on
 * bin/focuscrawl's first line; **bin − liftoff-only** = the same without
 * `--liftoff-only` (V8 then recompiles undici's WebAssembly HTTP parser with
 * TurboFan on a background thread). Imports: each module imported alone in
 * a fresh `node` (median ms of `--runs`). --write puts the tables into
 * BENCHMARKS.md, section `startup`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO, RUN_DIST, binNodeSetup, cell, codeVersion, machine, measure, spread, startReplay, type Spread } from './lib/measure.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, write: { type: 'boolean', default: false } },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);

const fixture = (f: string): string => path.join(REPO, 'fixtures', f);

/** What importing `spec` (then running `then`, given the module as `m`) alone in a fresh node costs: ms and RSS growth in MB, `runs` times. */
function importCost(spec: string, then = ''): { ms: Spread; mb: Spread } {
  const code = `const r = process.memoryUsage().rss; const t = performance.now(); const m = await import(${JSON.stringify(spec)}); ${then}; ` +
    'console.log(JSON.stringify([performance.now() - t, (process.memoryUsage().rss - r) / 2 ** 20]));';
  const ms: number[] = [];
  const mb: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [t, m] = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO, encoding: 'utf8' })) as [number, number];
    ms.push(t);
    mb.push(m);
  }
  return { ms: spread(ms), mb: spread(mb) };
}

async function main(): Promise<void> {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO, stdio: 'inherit' });
  const bin = binNodeSetup();
  const variants: [string, string[]][] = [
    ['bin', bin.flags],
    ['bin − liftoff-only', bin.flags.filter((f) => f !== '--liftoff-only')],
  ];
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'startup-bench-'));
  const timeFile = path.join(tmp, 'time.txt');
  const proxy = await startReplay(fixture('web.warc.gz'));
  const rows: string[] = [];
  try {
    for (const pages of [1, 120]) {
      for (const [name, flags] of variants) {
        const wall: number[] = [];
        const cpu: number[] = [];
        const rss: number[] = [];
        for (let i = 0; i < runs; i++) {
          const store = path.join(tmp, `store-${i}`);
          const m = await measure(
            [process.execPath, ...flags, RUN_DIST, 'crawl', '--seeds', fixture('demo-seeds.txt'), '--topic', fixture('demo-topic.json'),
              '--proxy', proxy.url, '--store', store, '--fresh', '--max-pages', String(pages), '--concurrency', '8', '--quiet'],
            timeFile, `${name} ${pages}`, { timeoutMs: 120_000, env: bin.env },
          );
          wall.push(m.wall * 1000);
          cpu.push(m.cpu * 1000);
          rss.push(m.rssMb);
          await rm(store, { recursive: true, force: true });
        }
        rows.push(`| ${pages} | ${name} | ${cell(spread(wall))} | ${cell(spread(cpu))} | ${cell(spread(rss))} |`);
        process.stderr.write(`startup-bench: ${rows[rows.length - 1]}\n`);
      }
    }
  } finally {
    await proxy.stop();
    await rm(tmp, { recursive: true, force: true });
  }
  const imports: [string, string, string?][] = [
    ['undici (its index: all of undici)', 'undici'],
    ['src/fetch/undici (the dispatchers and errors the client uses)', './dist/fetch/undici.js'],
    ['dist/relevance/scorers/index.js (every strategy)', './dist/relevance/scorers/index.js'],
    ['dist/pipeline.js (what a crawl loads)', './dist/pipeline.js'],
    ['the Chinese segmenter and its dictionary (the first cut of Han text: topics or pages in Chinese)', './dist/relevance/text/segmenter.js', "m.getSegmenter().cut('光伏发电')"],
  ];
  const importRows = imports.map(([label, spec, then]) => {
    const c = importCost(spec, then);
    return `| ${label} | ${cell(c.ms)} | ${cell(c.mb)} |`;
  });
  const section = [
    '### Start-up and shutdown',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; 1-minute load average ${os.loadavg()[0].toFixed(2)} at the end. ` +
      `Code: ${codeVersion()}. Command: \`node --import tsx bench/startup-bench.ts --runs ${runs}${values.write ? ' --write' : ''}\`.`,
    '',
    'A crawl of the bundled fixture web (`fixtures/web.warc.gz` through `focuscrawl replay`, the demo\'s seeds and topic, concurrency 8), ' +
      'run from the compiled `dist/` with the environment of bin/focuscrawl\'s first line. Wall time from spawn to exit; CPU = user + sys; ' +
      `median (min–max) of ${runs} runs.`,
    '',
    '| pages | node flags | wall ms | CPU ms | peak RSS MB |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    'The demo topic has Chinese terms, so every crawl of it loads the Chinese segmenter (last row below); a topic without Han text does not.',
    '',
    `Importing a module alone in a fresh \`node\` (median (min–max) of ${runs}; RSS growth from before the import):`,
    '',
    '| module | ms | RSS MB |',
    '|---|---|---|',
    ...importRows,
    '',
  ].join('\n');
  process.stdout.write(section);
  if (values.write) await writeSection(resultsDoc('startup'), 'startup', section, '# Start-up and shutdown');
}

await main();
