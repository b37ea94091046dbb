/**
 * HTTP forward proxy that answers from WARC files instead of the web.
 *
 * Requests arrive in absolute-form (`GET http://host/path HTTP/1.1`, what
 * undici's ProxyAgent with `proxyTunnel: false` sends) or origin-form with a
 * Host header. The target is canonicalised (src/urls/canonical.ts) and looked up in the
 * index; unknown URLs (including a host's /robots.txt) answer 404. Every
 * answer carries `x-focuscrawl-replay: 1`. Nothing is logged.
 *
 * The proxy plumbing (createProxyServer) takes any lookup from canonical URL
 * to response, so other "archives" (fixtures/serve-synthetic.ts) reuse it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { canonicalize } from '../urls/canonical.ts';
import { toItemError } from '../errors.ts';
import { buildIndex, readResponse, type ArchivedResponse, type WarcIndex } from './warc-index.ts';

/** Header added to every answer of the replay proxy. */
export const REPLAY_HEADER = 'x-focuscrawl-replay';

/** Response headers that describe one connection, not the resource. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization',
  'te', 'trailer', 'trailers', 'transfer-encoding', 'upgrade', 'content-length',
]);

/** The answer for a canonical URL, or null when there is none (404). */
export type ResponseLookup = (canonicalUrl: string) => Promise<ArchivedResponse | null>;

/** A running forward proxy. */
export interface ProxyServer {
  /** `http://HOST:PORT`, the proxy URI to give to undici's ProxyAgent */
  url: string;
  port: number;
  /** stop listening and drop all connections */
  close(): Promise<void>;
}

/** Options of createProxyServer. */
export interface ProxyServerOptions {
  lookup: ResponseLookup;
  /** value of the x-focuscrawl-replay header on every answer (default '1') */
  tag?: string;
  /** default 0: any free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
}

/** A running replay proxy. */
export interface ReplayServer extends ProxyServer {
  /** distinct canonical URLs served */
  records: number;
  /** the index being served */
  index: WarcIndex;
}

/** Options of createReplayServer. */
export interface ReplayServerOptions {
  warcs: string[];
  /** default 0: any free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
}

function sendText(res: ServerResponse, tag: string, status: number, text: string, extra: [string, string][] = []): void {
  const body = Buffer.from(text + '\n', 'utf8');
  const head: string[] = [REPLAY_HEADER, tag, 'content-type', 'text/plain; charset=utf-8',
    'content-length', String(body.length)];
  for (const [k, v] of extra) head.push(k, v);
  res.writeHead(status, head);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** Absolute http(s) URL the request asks for, or null. */
function targetOf(req: IncomingMessage): string | null {
  const raw = req.url ?? '';
  if (raw.startsWith('/')) {
    const host = req.headers.host;
    return host ? `http://${host}${raw}` : null;
  }
  return /^https?:\/\//i.test(raw) ? raw : null;
}

/** Status codes whose answers never have a body. */
function bodiless(status: number): boolean {
  return status === 204 || status === 304;
}

async function handle(lookup: ResponseLookup, tag: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendText(res, tag, 405, `method ${req.method} not supported by the replay proxy`, [['allow', 'GET, HEAD']]);
    return;
  }
  const target = targetOf(req);
  const canon = target === null ? null : canonicalize(target);
  if (canon === null) {
    sendText(res, tag, 400, `not an http(s) URL: ${req.url}`);
    return;
  }
  let archived;
  try {
    archived = await lookup(canon);
  } catch (err) {
    const { code, message } = toItemError(err);
    sendText(res, tag, 502, `${code}: ${message}`);
    return;
  }
  if (archived === null) {
    sendText(res, tag, 404, `not in archive: ${canon}`);
    return;
  }
  const connectionTokens = new Set<string>();
  for (const [name, value] of archived.headers) {
    if (name.toLowerCase() === 'connection') {
      for (const t of value.split(',')) connectionTokens.add(t.trim().toLowerCase());
    }
  }
  const head: string[] = [];
  for (const [name, value] of archived.headers) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || connectionTokens.has(lower) || lower === REPLAY_HEADER) continue;
    head.push(name, value);
  }
  head.push(REPLAY_HEADER, tag);
  const noBody = bodiless(archived.status);
  if (!noBody) head.push('content-length', String(archived.body.length));
  const reason = /^[\t\x20-\x7e\x80-\xff]*$/.test(archived.statusText) && archived.statusText !== ''
    ? archived.statusText
    : undefined;
  res.writeHead(archived.status, reason, head);
  res.end(req.method === 'HEAD' || noBody ? undefined : archived.body);
}

function refuseConnect(tag: string, socket: Duplex): void {
  const body = 'CONNECT (https tunnelling) is not supported by the replay proxy\n';
  socket.on('error', () => {});
  socket.end(
    `HTTP/1.1 501 Not Implemented\r\n${REPLAY_HEADER}: ${tag}\r\ncontent-type: text/plain; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Index `opts.warcs` (buildIndex; its UsageError propagates) and start the
 * proxy on `opts.host`:`opts.port` (default 127.0.0.1, any free port).
 * GET and HEAD answer the archived status, headers (minus hop-by-hop ones)
 * and body with a recomputed Content-Length; unknown URL -> 404, non-http(s)
 * target -> 400, other methods -> 405, CONNECT -> 501, unreadable or oversized
 * record -> 502 (body names the error code).
 */
export async function createReplayServer(opts: ReplayServerOptions): Promise<ReplayServer> {
  const index = await buildIndex(opts.warcs);
  const proxy = await createProxyServer({ lookup: (canon) => readResponse(index, canon), port: opts.port, host: opts.host });
  return { ...proxy, records: index.entries.size, index };
}

/**
 * Start a forward proxy on `opts.host`:`opts.port` (default 127.0.0.1, any
 * free port) that answers GET and HEAD from `opts.lookup` (status, headers
 * minus hop-by-hop ones, body with a recomputed Content-Length), tagging
 * every answer `x-focuscrawl-replay: <opts.tag>`. null from the lookup ->
 * 404, non-http(s) target -> 400, other methods -> 405, CONNECT -> 501, a
 * lookup that throws -> 502 (body names the error code).
 */
export async function createProxyServer(opts: ProxyServerOptions): Promise<ProxyServer> {
  const { lookup } = opts;
  const tag = opts.tag ?? '1';
  const host = opts.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    handle(lookup, tag, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendText(res, tag, 500, toItemError(err).message);
      else res.destroy();
    });
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => refuseConnect(tag, socket));
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    socket.on('error', () => {});
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\n${REPLAY_HEADER}: ${tag}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('replay server has no TCP address');
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
