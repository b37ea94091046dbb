/** A test HTTP server on 127.0.0.1 port 0, closed when the test ends. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Start a server on 127.0.0.1:0, closed after the test; returns its base URL. */
export async function serve(t: TestContext, handler: Handler): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
