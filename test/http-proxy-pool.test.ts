// Regression: through --proxy, undici's ProxyAgent kept one pool (and its
// connections) to the proxy per target host and never dropped it, so a crawl
// of 200,000 hosts grew to ~1 GB of RSS. Plain-http targets now share one pool.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { FocuscrawlError } from '../src/errors.ts';
import { HttpClient } from '../src/fetch/http.ts';

/** A fake forward proxy counting its connections; answers with the request line it got. */
async function countingProxy(t: TestContext, status = 200): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = http.createServer((req, res) => {
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(`${req.url} ${req.headers.host}`);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

test('requests to many hosts through a proxy share proxyConnections connections', async (t) => {
  const proxy = await countingProxy(t);
  const c = new HttpClient({ proxy: proxy.url, proxyConnections: 4 });
  t.after(() => c.close());
  const hosts = Array.from({ length: 60 }, (_, i) => `h${i}.example`);
  const hops = await Promise.all(hosts.map((h) => c.get(`http://${h}:8080/a/b?q=1`, { maxBytes: 1000 })));
  hops.forEach((hop, i) => assert.equal(hop.body?.toString(), `http://${hosts[i]}:8080/a/b?q=1 ${hosts[i]}:8080`));
  assert.ok(proxy.connections() <= 4, `${proxy.connections()} connections to the proxy`);
});

test("a 407 from the proxy is FC_NETWORK, not the page's status", async (t) => {
  const proxy = await countingProxy(t, 407);
  const c = new HttpClient({ proxy: proxy.url });
  t.after(() => c.close());
  await assert.rejects(c.get('http://example.org/', { maxBytes: 1000 }), (err: unknown) => {
    assert.ok(err instanceof FocuscrawlError);
    assert.equal(err.code, 'FC_NETWORK');
    return true;
  });
});
