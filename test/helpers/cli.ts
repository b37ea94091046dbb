/** Test helpers: run the real CLI as a child process, and temp dirs. */
import { spawn, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createReplayServer } from '../../src/replay/server.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = path.join(ROOT, 'bin', 'focuscrawl');
export const SHARED = path.resolve(ROOT, '..', 'shared', 'corpora');
export const WEBKB_WARC = path.join(SHARED, 'webkb', 'webkb.warc.gz');
export const HAVE_WEBKB = existsSync(WEBKB_WARC);
export const SKIP_WEBKB = HAVE_WEBKB ? false : `needs ${WEBKB_WARC} (../shared is not beside this clone)`;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Preloaded into CLI children: name lookups stay on the machine (see the file). */
export const LOOPBACK_DNS = pathToFileURL(path.join(ROOT, 'test', 'helpers', 'loopback-dns.mjs')).href;

/** Spawn `bin/focuscrawl ...args`, its name lookups loopback-only (LOOPBACK_DNS). */
export function spawnCli(args: string[], opts: { cwd?: string } = {}): ChildProcess {
  return spawn(process.execPath, ['--import', LOOPBACK_DNS, BIN, ...args], { cwd: opts.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Run the CLI to completion and collect its output. */
export function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, opts);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI timed out: ${args.join(' ')}\n${stderr}`));
    }, opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Parse NDJSON text into objects (every line must parse). */
export function parseLines(text: string): any[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

/** A fresh temp dir, removed by the returned cleanup. */
export async function tempDir(prefix = 'focuscrawl-test-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A temp dir removed when the test ends, and a writer of files in it. */
export async function tempFiles(t: TestContext, prefix?: string): Promise<{ dir: string; file: (name: string, content: string | Buffer) => Promise<string> }> {
  const { dir, cleanup } = await tempDir(prefix);
  t.after(cleanup);
  return {
    dir,
    file: async (name, content) => {
      const p = path.join(dir, name);
      await writeFile(p, content);
      return p;
    },
  };
}

/**
 * A replay proxy for the bundled fixture web plus a temp dir, both closed
 * and removed when the test ends.
 */
export async function fixtureReplay(t: TestContext, warc = path.join(ROOT, 'fixtures', 'web.warc.gz')): Promise<{ url: string; dir: string }> {
  const replay = await createReplayServer({ warcs: [warc] });
  const { dir, cleanup } = await tempDir();
  t.after(async () => {
    await replay.close();
    await cleanup();
  });
  return { url: replay.url, dir };
}

/**
 * Runs the CLI's main() once per argument list, all in ONE child process
 * (a process start costs seconds on a loaded machine), capturing what each
 * call writes to stdout and stderr; `code` is the exit code main() returns
 * (bin/focuscrawl sets it as process.exitCode). runCli covers the real
 * process for a few of the same cases.
 */
export async function runMainEach(cases: string[][]): Promise<CliResult[]> {
  const cli = new URL('../../src/cli.ts', import.meta.url).href;
  const script = `
    import { main } from ${JSON.stringify(cli)};
    process.stdout.setMaxListeners(0); // main() adds an 'error' listener per call
    const out = [];
    const write = { out: process.stdout.write, err: process.stderr.write };
    for (const args of JSON.parse(process.env.FC_CASES)) {
      const r = { code: null, signal: null, stdout: '', stderr: '' };
      process.stdout.write = (c) => ((r.stdout += c), true);
      process.stderr.write = (c) => ((r.stderr += c), true);
      try {
        r.code = await main(args);
      } finally {
        process.stdout.write = write.out;
        process.stderr.write = write.err;
      }
      out.push(r);
    }
    process.stdout.write(JSON.stringify(out));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, FC_CASES: JSON.stringify(cases) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 0, `harness failed: ${stderr}`);
  return JSON.parse(stdout) as CliResult[];
}
