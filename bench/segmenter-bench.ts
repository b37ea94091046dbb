/**
 * The two Chinese segmenters side by side (issue 3): `@node-rs/jieba` (the
 * default) and `nodejieba` (optional), both in search mode with HMM, as
 * src/relevance/text/segmenter.ts calls them, on the TNEWS dev headlines.
 *
 *   node --import tsx bench/segmenter-bench.ts [--runs 3] [--mb 8] [--write]
 *
 * Each backend runs in a fresh child process per run: load = the first cut
 * (addon + dictionary), throughput = MB of UTF-8 headline text cut per
 * second (the headlines repeated to --mb MB), RSS after loading and after
 * the throughput pass. Agreement: how many headlines the two cut into the
 * same word sequence, and the token-level F1 of nodejieba's words against
 * node-rs's (multisets per headline, summed), with each package's own
 * dictionary and with nodejieba given node-rs's dictionary (and an empty
 * user dictionary). Needs ../shared/corpora and nodejieba (exits 2 saying
 * which is missing). --write puts the tables into BENCHMARKS.md, section
 * `segmenters`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getSegmenter, type Segmenter } from '../src/relevance/text/segmenter.ts';
import { REPO, cell, codeVersion, fmt, machine, spread } from './lib/measure.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';

const TNEWS = path.join(REPO, '../shared/corpora/tnews/tnews-dev.ndjson');
const require = createRequire(import.meta.url);
const RS_DICT = path.join(path.dirname(require.resolve('@node-rs/jieba/package.json')), 'dict.txt');

type Backend = 'node-rs' | 'nodejieba';

/**
 * The backend as `--segmenter` uses it (src/relevance/text/segmenter.ts); `rsDict`:
 * nodejieba given node-rs's dictionary and an empty user dictionary.
 */
function load(backend: Backend, rsDict = false): Segmenter {
  if (!rsDict) return getSegmenter(backend);
  const nj = require('nodejieba') as { load(o?: object): void; cutForSearch(t: string, hmm?: boolean): string[] };
  const empty = path.join(os.tmpdir(), 'segmenter-bench-empty-user.dict');
  writeFileSync(empty, '');
  nj.load({ dict: RS_DICT, userDict: empty });
  return { name: 'nodejieba (node-rs dictionary)', cut: (t) => nj.cutForSearch(t, true) };
}

function headlines(): string[] {
  return readFileSync(TNEWS, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { sentence: string }).sentence);
}

/** Child: time loading and cutting, print one JSON line. */
function child(backend: Backend, mb: number): void {
  const lines = headlines();
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const cutter = load(backend);
  cutter.cut(lines[0]);
  const loadMs = performance.now() - t0;
  const rssLoaded = process.memoryUsage().rss;
  const target = mb * 2 ** 20;
  let bytes = 0;
  const t1 = performance.now();
  for (let i = 0; bytes < target; i = (i + 1) % lines.length) {
    cutter.cut(lines[i]);
    bytes += Buffer.byteLength(lines[i]);
  }
  const s = (performance.now() - t1) / 1000;
  process.stdout.write(JSON.stringify({ loadMs, mbPerS: bytes / 2 ** 20 / s, rssBaseMb: rss0 / 2 ** 20, rssLoadedMb: rssLoaded / 2 ** 20, rssEndMb: process.memoryUsage().rss / 2 ** 20 }) + '\n');
}

/** Identical headlines, and token F1 of b's words against a's (multisets). */
function agreement(a: Segmenter, b: Segmenter, lines: string[]): { identical: number; f1: number } {
  let identical = 0;
  let common = 0;
  let na = 0;
  let nb = 0;
  for (const line of lines) {
    const x = a.cut(line);
    const y = b.cut(line);
    if (x.length === y.length && x.every((w, i) => w === y[i])) identical++;
    const count = new Map<string, number>();
    for (const w of x) count.set(w, (count.get(w) ?? 0) + 1);
    for (const w of y) {
      const c = count.get(w) ?? 0;
      if (c > 0) {
        common++;
        count.set(w, c - 1);
      }
    }
    na += x.length;
    nb += y.length;
  }
  return { identical, f1: (2 * common) / (na + nb) };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      mb: { type: 'string', default: '8' },
      write: { type: 'boolean', default: false },
      child: { type: 'string' },
    },
  });
  const mb = Number(values.mb);
  if (values.child !== undefined) {
    child(values.child as Backend, mb);
    return 0;
  }
  if (!existsSync(TNEWS)) {
    process.stderr.write(`segmenter-bench: ${TNEWS} is missing (../shared/corpora beside the clone)\n`);
    return 2;
  }
  try {
    require.resolve('nodejieba');
  } catch {
    process.stderr.write('segmenter-bench: nodejieba is not installed (npm_config_yes=true npm install nodejieba; it builds with a C++ compiler)\n');
    return 2;
  }
  const runs = Number(values.runs);
  const rows: string[] = [];
  for (const backend of ['node-rs', 'nodejieba'] as const) {
    const results: { loadMs: number; mbPerS: number; rssBaseMb: number; rssLoadedMb: number; rssEndMb: number }[] = [];
    for (let r = 0; r < runs; r++) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/segmenter-bench.ts'), '--child', backend, '--mb', String(mb)], { cwd: REPO, encoding: 'utf8' });
      results.push(JSON.parse(out));
    }
    const of = (f: (x: (typeof results)[number]) => number, digits = 0): string => cell(spread(results.map(f)), digits);
    const version = (require(`${backend === 'node-rs' ? '@node-rs/jieba' : 'nodejieba'}/package.json`) as { version: string }).version;
    rows.push(`| ${backend === 'node-rs' ? '@node-rs/jieba' : 'nodejieba'} ${version} | ${of((x) => x.loadMs)} | ${of((x) => x.mbPerS, 1)} | ` +
      `${of((x) => x.rssLoadedMb - x.rssBaseMb)} | ${of((x) => x.rssEndMb)} |`);
    process.stderr.write(`segmenter-bench: ${rows[rows.length - 1]}\n`);
  }
  const lines = headlines();
  const rs = load('node-rs');
  const own = agreement(rs, load('nodejieba'), lines);
  const same = agreement(rs, load('nodejieba', true), lines);
  const pct = (n: number): string => `${((100 * n) / lines.length).toFixed(1)}%`;
  const section = [
    '### Chinese segmenters: @node-rs/jieba vs nodejieba',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; 1-minute load average ${os.loadavg()[0].toFixed(2)} at the end. ` +
      `Code: ${codeVersion()}. Command: \`node --import tsx bench/segmenter-bench.ts --runs ${runs} --mb ${mb}${values.write ? ' --write' : ''}\`.`,
    '',
    `Both in search mode with HMM (\`cutForSearch(text, true)\`), as \`--segmenter\` uses them, on the ${fmt(lines.length)} TNEWS dev headlines ` +
      `(repeated to ${mb} MB for the throughput). One fresh process per run; median (min–max) of ${runs}. Load = the first cut ` +
      '(native addon and dictionary); RSS growth = from before loading to after the first cut; RSS at the end = the whole process after the throughput pass.',
    '',
    '| package | load ms | MB/s | RSS growth on load, MB | RSS at the end, MB |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    'Agreement over the same headlines (nodejieba against @node-rs/jieba):',
    '',
    '| dictionaries | headlines cut identically | token F1 |',
    '|---|---|---|',
    `| each package's own | ${fmt(own.identical)} (${pct(own.identical)}) | ${own.f1.toFixed(3)} |`,
    `| both node-rs's dict.txt (nodejieba: an empty user dictionary) | ${fmt(same.identical)} (${pct(same.identical)}) | ${same.f1.toFixed(3)} |`,
    '',
  ].join('\n');
  process.stdout.write(section);
  if (values.write) await writeSection(resultsDoc('segmenters'), 'segmenters', section, '# Chinese segmenters');
  return 0;
}

process.exitCode = await main();
