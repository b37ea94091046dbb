/**
 * Test helper: a real redis-server on a free loopback port, no persistence
 * unless asked for (`aof`), its files in a temp dir; stopped (and the dir
 * removed) by `stop`; `restart` stops it (cleanly or with SIGKILL) and starts
 * it again on the same port and dir, as an operator restarting Redis would.
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
  /**
   * Stop the server (`shutdown`: SIGTERM, which Redis handles as SHUTDOWN:
   * the AOF is written and fsynced; `kill`: SIGKILL, writes not yet fsynced
   * are lost) and start it again on the same port and dir; resolves once it
   * answers PING. `downMs`: how long it stays down.
   */
  restart(how: 'shutdown' | 'kill', downMs?: number): Promise<void>;
}

export interface RedisServerOptions {
  /** append-only file with this fsync policy (default: no persistence at all) */
  aof?: 'everysec' | 'always';
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

/** Spawn redis-server on `port`; resolves once it answers PING, or with its stderr when it exited or never answered. */
async function spawnServer(port: number, dir: string, opts: RedisServerOptions): Promise<{ child: ChildProcess } | { failed: string }> {
  const persistence = opts.aof ? ['--appendonly', 'yes', '--appendfsync', opts.aof] : ['--appendonly', 'no'];
  const child = spawn(REDIS_SERVER!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let exited = false;
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.on('exit', () => (exited = true));
  for (let i = 0; i < 100 && !exited; i++) {
    if (await ping(port)) return { child };
    await sleep(50);
  }
  child.kill('SIGKILL');
  return { failed: stderr };
}

async function stopChild(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await Promise.race([gone, sleep(3000)]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await gone;
  }
}

/** Start redis-server on a free loopback port; retries on a port race. */
export async function startRedis(opts: RedisServerOptions = {}): Promise<RedisServer> {
  if (REDIS_SERVER === null) throw new Error('redis-server is not installed');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-redis-'));
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const started = await spawnServer(port, dir, opts);
    if ('child' in started) {
      const server: RedisServer = {
        port,
        url: `redis://127.0.0.1:${port}/0`,
        child: started.child,
        stop: async () => {
          await stopChild(server.child, 'SIGTERM');
          await rm(dir, { recursive: true, force: true });
        },
        restart: async (how, downMs = 0) => {
          await stopChild(server.child, how === 'shutdown' ? 'SIGTERM' : 'SIGKILL');
          if (downMs > 0) await sleep(downMs);
          const again = await spawnServer(port, dir, opts);
          if ('failed' in again) throw new Error(`redis-server did not restart on port ${port}: ${again.failed}`);
          server.child = again.child;
        },
      };
      return server;
    }
    if (attempt >= 2) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start: ${started.failed}`);
    }
  }
}

let counter = 0;

/** A crawl name not used before in this process (each test gets its own keys). */
export function uniqueCrawl(prefix = 't'): string {
  return `${prefix}${process.pid}-${++counter}-${Date.now().toString(36)}`;
}
