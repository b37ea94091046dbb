/**
 * How a bench runs a checkout's focuscrawl, and what a crawl costs at the
 * margin (issue 23 item 1; bench/politeness-cpu.ts `--entry`, `--pages A,B`).
 *
 * - `src`: the checkout's bin/focuscrawl as it runs in a git checkout (the
 *   TypeScript sources through tsx).
 * - `dist`: the checkout's compiled dist/ as an installed package runs it:
 *   a package directory laid out as npm installs it (package.json, bin/,
 *   dist/; no src/), so bin/focuscrawl takes its plain-node branch and
 *   loads dist/cli.js without tsx.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';

export type Entry = 'src' | 'dist';

/** `src`, `dist` or `src,dist` (both, alternating): the entries to measure, in order. */
export function parseEntries(text: string): Entry[] {
  const out = text.split(',').map((e) => {
    if (e !== 'src' && e !== 'dist') throw new Error(`--entry must be src, dist or src,dist, got ${text}`);
    return e;
  });
  if (new Set(out).size !== out.length) throw new Error(`--entry names an entry twice: ${text}`);
  return out;
}

/** `--pages N` or `--pages A,B` (two crawl lengths, A < B, for the cost at the margin). */
export function parseLengths(text: string): number[] {
  const out = text.split(',').map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < 1) throw new Error(`--pages must be N or A,B (positive integers), got ${text}`);
    return Number(p);
  });
  if (out.length > 2) throw new Error(`--pages takes one or two lengths, got ${text}`);
  if (out.length === 2 && out[0] >= out[1]) throw new Error(`--pages A,B needs A < B, got ${text}`);
  return out;
}

/** CPU seconds and HTML pages of one crawl. */
export interface Cost {
  cpu: number;
  html: number;
}

/**
 * CPU ms per HTML page at the margin between a shorter crawl `a` and a
 * longer one `b`: (CPU_b − CPU_a) / (HTML_b − HTML_a). What does not grow
 * with the crawl (start-up, compiling code, shutdown) cancels out.
 */
export function marginMs(a: Cost, b: Cost): number {
  if (b.html <= a.html) throw new Error(`the longer crawl has ${b.html} HTML pages, the shorter ${a.html}: no margin`);
  return ((b.cpu - a.cpu) / (b.html - a.html)) * 1000;
}

/** Newest modification time (ms) of the files under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Why `repo`'s dist/ must be (re)built, or undefined when it is current:
 * dist/cli.js is missing, or older than a file under src/ or than
 * package.json or tsconfig.build.json.
 */
export function distStale(repo: string): string | undefined {
  const cli = path.join(repo, 'dist', 'cli.js');
  if (!existsSync(cli)) return 'dist/cli.js is missing';
  const built = statSync(cli).mtimeMs;
  const inputs = [newestMtime(path.join(repo, 'src')), ...['package.json', 'tsconfig.build.json'].map((f) => {
    const p = path.join(repo, f);
    return existsSync(p) ? statSync(p).mtimeMs : 0;
  })];
  return Math.max(...inputs) > built ? 'src/, package.json or tsconfig.build.json is newer than dist/cli.js' : undefined;
}

/** Build `repo`'s dist/ (`npm run build` there) when {@link distStale} says so; returns why it built, or undefined. */
export function ensureDist(repo: string): string | undefined {
  const why = distStale(repo);
  if (why === undefined) return undefined;
  execFileSync('npm', ['run', '-s', 'build'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
  return why;
}

/**
 * Lay out `repo` as an installed package in `dir` (package.json and
 * bin/focuscrawl copied, dist/ a symbolic link to the checkout's; no src/)
 * and return the bin's path there. Node resolves the link, so dist/'s own
 * imports find the checkout's node_modules.
 */
export function installedBin(repo: string, dir: string): string {
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  copyFileSync(path.join(repo, 'package.json'), path.join(dir, 'package.json'));
  copyFileSync(path.join(repo, 'bin', 'focuscrawl'), path.join(dir, 'bin', 'focuscrawl'));
  if (!existsSync(path.join(dir, 'dist'))) symlinkSync(path.join(repo, 'dist'), path.join(dir, 'dist'), 'dir');
  return path.join(dir, 'bin', 'focuscrawl');
}
