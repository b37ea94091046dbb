/** Test helpers: run the real CLI as a child process, and temp dirs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, type TestContext } from 'node:test';
import { once } from 'node:events';
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

/** One child process per test file that runs the CLI's main() on request (test/helpers/cli-host.mjs). */
interface Host {
  child: ChildProcess;
  ready: Promise<void>;
  pending: Map<number, { resolve: (r: CliResult) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>;
  next: number;
  stderr: string;
}
let host: Host | undefined;

// The host ends with the file's tests, and is waited for: a child nobody
// waits for is left out of the CPU time `time` reports.
after(async () => {
  const h = host;
  if (h === undefined || h.child.exitCode !== null || h.child.signalCode !== null) return;
  const exited = once(h.child, 'exit');
  h.child.ref(); // else this process may end first
  h.child.disconnect();
  await exited;
});

/** Keep the test process alive exactly while a request is out. */
function holdHost(h: Host): void {
  const busy = h.pending.size > 0;
  for (const handle of [h.child, h.child.channel, h.child.stdout, h.child.stderr] as Array<{ ref?: () => void; unref?: () => void } | null | undefined>) {
    if (busy) handle?.ref?.();
    else handle?.unref?.();
  }
}

function startHost(): Host {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', LOOPBACK_DNS, path.join(ROOT, 'test', 'helpers', 'cli-host.mjs')], {
    cwd: ROOT,
    env: { ...process.env, FC_CLI: new URL('../../src/cli.ts', import.meta.url).href },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const h: Host = { child, ready: Promise.resolve(), pending: new Map(), next: 0, stderr: '' };
  child.stdout!.resume(); // a write that missed the swap; nobody reads it
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (h.stderr = (h.stderr + d).slice(-10_000)));
  h.ready = new Promise((resolve, reject) => {
    child.on('message', (m: { ready?: true; id?: number; result?: CliResult }) => {
      if (m.ready === true) return resolve();
      const p = h.pending.get(m.id!);
      if (p === undefined) return;
      clearTimeout(p.timer);
      h.pending.delete(m.id!);
      holdHost(h);
      p.resolve(m.result!);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (host === h) host = undefined;
      const err = new Error(`CLI host exited (${code ?? signal}): ${h.stderr}`);
      reject(err);
      for (const p of h.pending.values()) {
        clearTimeout(p.timer);
        p.reject(err);
      }
      h.pending.clear();
    });
  });
  h.ready.catch(() => {});
  return h;
}

/**
 * Runs the CLI's main() with `args` in this test file's CLI host: one child
 * process, started on first use, that keeps the CLI's modules loaded (a
 * process start with tsx costs ~0.4 s of CPU), and runs one main() at a
 * time with stdout and stderr captured; `code` is the exit code main()
 * returns (bin/focuscrawl sets it as process.exitCode) and `signal` is
 * always null. For tests that are not about the process boundary; runCli
 * runs the real bin (exit codes, signals, a closed stdout).
 */
export async function runMain(args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const h = (host ??= startHost());
  await h.ready;
  const id = h.next++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      h.child.kill('SIGKILL'); // the requests queued behind this one fail too
      reject(new Error(`CLI timed out: ${args.join(' ')}\n${h.stderr}`));
    }, opts.timeoutMs ?? 120_000);
    h.pending.set(id, { resolve, reject, timer });
    holdHost(h);
    h.child.send({ id, args, cwd: opts.cwd ?? ROOT });
  });
}

/** runMain for each argument list in turn. */
export async function runMainEach(cases: string[][]): Promise<CliResult[]> {
  const out: CliResult[] = [];
  for (const args of cases) out.push(await runMain(args));
  return out;
}
