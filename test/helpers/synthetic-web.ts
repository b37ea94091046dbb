/**
 * An endless synthetic web for tests, served as an HTTP forward proxy on
 * 127.0.0.1 (the crawler reaches it with --proxy): any host h<N>.example,
 * any path /p/<N>; each page links to 8 other pages on 8 hosts. It counts
 * the requests it answers. Links are synthetic.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { tempDir } from './cli.ts';

export interface SyntheticWeb {
  url: string;
  hits: () => number;
  close: () => Promise<void>;
}

export async function startSyntheticWeb(hosts = 10): Promise<SyntheticWeb> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    const u = new URL(req.url ?? '/', 'http://h0.example');
    if (u.pathname === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    const n = Number(u.pathname.split('/').pop()) || 0;
    const links = Array.from({ length: 8 }, (_, i) => {
      const m = n * 8 + i + 1;
      return `<li><a href="http://h${m % hosts}.example/p/${m}">page ${m} about topic ${m % 7}</a></li>`;
    }).join('');
    const body = `<html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1><p>${'Synthetic text. '.repeat(20)}</p><ul>${links}</ul></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The synthetic web and a temporary directory for one test, both closed when it ends (as fixtureReplay for the fixture web). */
export async function syntheticWebDir(t: TestContext, hosts?: number): Promise<{ web: SyntheticWeb; dir: string }> {
  const web = await startSyntheticWeb(hosts);
  const { dir, cleanup } = await tempDir();
  t.after(async () => {
    await web.close();
    await cleanup();
  });
  return { web, dir };
}
