/**
 * The site lane's tables (docs/results/tail.md): two `bench/chinese-web-results.ts`
 * --out directories, one crawled without and one with `--site-lane`, compared per
 * strategy on the dev web (split 0 seed 2, where the lane was designed) and on
 * the other five webs separately: pages to 50 / 80 / 90% as × bfs and × the graph
 * oracle (median, min–max), harvest@200.
 *
 *   node --import tsx bench/site-lane-compare.ts --base DIR --lane DIR [--label "site lane 0.5"] [--strategies best-first,nb-link,online]
 *
 * bfs and the oracles are read from --base. Prints markdown to stdout.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    lane: { type: 'string' },
    label: { type: 'string', default: 'site lane' },
    strategies: { type: 'string', default: 'best-first,nb-link,online' },
  },
});
if (!values.base || !values.lane) {
  process.stderr.write('site-lane-compare: --base and --lane are required\n');
  process.exit(2);
}
const WEBS = ['0-2', '0-3', '0-4', '1-2', '1-3', '1-4'];
const DEV = '0-2';
type Summary = { pagesTo50: number | null; pagesTo80: number | null; pagesTo90: number | null; harvestAt: Record<string, number> };
const read = (dir: string, web: string, run: string): Summary | null => {
  const f = path.join(dir, `summaries-${web}`, `${run}.json`);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Summary) : null;
};
const KEYS = ['pagesTo50', 'pagesTo80', 'pagesTo90'] as const;
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const cell = (xs: number[]): string => (xs.length === 0 ? '–' : xs.length === 1 ? xs[0]!.toFixed(2) : `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`);
const pct = (xs: number[]): string => (xs.length === 0 ? '–' : xs.length === 1 ? `${(100 * xs[0]!).toFixed(1)}%` : `${(100 * median(xs)).toFixed(1)}% (${(100 * Math.min(...xs)).toFixed(1)}–${(100 * Math.max(...xs)).toFixed(1)})`);
const row = (name: string, dir: string, run: string, webs: string[]): string => {
  const byBfs: number[][] = [[], [], []];
  const byOracle: number[][] = [[], [], []];
  const h: number[] = [];
  let n = 0;
  for (const w of webs) {
    const s = read(dir, w, run);
    const bfs = read(values.base!, w, 'bfs');
    const oracle = read(values.base!, w, 'oracle-graph');
    if (s === null || bfs === null || oracle === null) continue;
    n++;
    KEYS.forEach((k, i) => {
      const v = s[k] ?? Infinity;
      byBfs[i]!.push(v / bfs[k]!);
      byOracle[i]!.push(v / oracle[k]!);
    });
    h.push(s.harvestAt['200']!);
  }
  return `| ${name} | ${n} | ${byBfs.map(cell).join(' · ')} | ${byOracle.map(cell).join(' · ')} | ${pct(h)} |`;
};
for (const [title, webs] of [['dev web (split 0 seed 2)', [DEV]], ['the other five webs', WEBS.filter((w) => w !== DEV)]] as const) {
  process.stdout.write(`\n${title}:\n\n| crawl | webs | × bfs, 50 · 80 · 90% | × oracle, 50 · 80 · 90% | harvest@200 |\n|---|---|---|---|---|\n`);
  for (const s of values.strategies!.split(',')) {
    process.stdout.write(`${row(s, values.base!, s, [...webs])}\n`);
    process.stdout.write(`${row(`${s}, ${values.label}`, values.lane!, s, [...webs])}\n`);
  }
}
