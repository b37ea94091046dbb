/** Shared pieces of the focus experiments (webkb-results, chinese-web-results). */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/focuscrawl', import.meta.url));

/** Run `focuscrawl ...args`; resolves to its stdout, rejects with the end of its stderr. */
export function runFocuscrawl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`focuscrawl ${args[0]} exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

/** What `focuscrawl compare` prints per run and view (the fields the tables use). */
export interface FocusSummary {
  run: string;
  status: number | null;
  found: number;
  targets: number;
  pagesTo50: number | null;
  pagesTo80: number | null;
  pagesTo90: number | null;
  harvestAt: Record<string, number | null>;
}

/** The status-`status` summaries of a compare run's stdout. */
export function summariesOf(compareStdout: string, status: number): FocusSummary[] {
  return compareStdout
    .split('\n')
    .filter((l) => l.includes('"summary"'))
    .map((l) => JSON.parse(l) as FocusSummary)
    .filter((s) => s.status === status);
}

const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `${(100 * v).toFixed(1)}%`);

/**
 * Table cells of one run: pages to 50/80%, the ratio to the baseline's pages
 * to 80%, pages to 90%, harvest@200/500/1000, found/targets.
 */
export function focusCells(s: FocusSummary, baseline: FocusSummary | undefined): string {
  const ratio = baseline?.pagesTo80 && s.pagesTo80 ? (s.pagesTo80 / baseline.pagesTo80).toFixed(2) : '–';
  return `${s.pagesTo50 ?? '–'} | ${s.pagesTo80 ?? '–'} | ${ratio} | ${s.pagesTo90 ?? '–'} | ${pct(s.harvestAt['200'])} | ${pct(s.harvestAt['500'])} | ${pct(s.harvestAt['1000'])} | ${s.found}/${s.targets}`;
}
