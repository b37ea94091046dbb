/**
 * Test helper: a real redis-server on a free loopback port, no persistence,
 * its files in a temp dir; stopped (and the dir removed) by `stop`.
 * Tests skip with REDIS_SKIP (a reason) when redis-server is not installed;
 * .ci/run installs it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

function findRedisServer(): string | null {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? 'redis-server' : null;
}

export const REDIS_SERVER = findRedisServer();
export const REDIS_SKIP: string | false = REDIS_SERVER === null ? 'needs redis-server on PATH (.ci/run installs it with apt-get)' : false;

export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:PORT/0 */
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A port free right now (bound to 0 and closed: redis-server has no `--port 0`). */
async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve, reject) => srv.listen(0, '127.0.0.1', resolve).on('error', reject));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** Wait until the server answers PING (a raw RESP exchange, no client library). */
async function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let got = '';
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.on('error', () => done(false));
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => {
      got += d;
      if (got.includes('\r\n')) done(got.startsWith('+PONG'));
    });
  });
}

/** Start redis-server on a free loopback port; retries once on a port race. */
export async function startRedis(): Promise<RedisServer> {
  if (REDIS_SERVER === null) throw new Error('redis-server is not installed');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-redis-'));
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let exited = false;
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('exit', () => (exited = true));
    for (let i = 0; i < 100 && !exited; i++) {
      if (await ping(port)) {
        const stop = async () => {
          if (!exited) {
            const gone = new Promise((resolve) => child.once('exit', resolve));
            child.kill('SIGTERM');
            await Promise.race([gone, sleep(3000)]);
            if (!exited) child.kill('SIGKILL');
          }
          await rm(dir, { recursive: true, force: true });
        };
        return { port, url: `redis://127.0.0.1:${port}/0`, child, stop };
      }
      await sleep(50);
    }
    child.kill('SIGKILL');
    if (attempt >= 2) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start: ${stderr}`);
    }
  }
}

let counter = 0;

/** A crawl name not used before in this process (each test gets its own keys). */
export function uniqueCrawl(prefix = 't'): string {
  return `${prefix}${process.pid}-${++counter}-${Date.now().toString(36)}`;
}
