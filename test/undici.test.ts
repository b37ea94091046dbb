// src/fetch/undici.ts loads undici's dispatchers and error classes from their
// own files instead of undici's index (start-up time and memory). These
// tests fail when an undici release moves or renames those files.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import * as all from 'undici';
import { undici } from '../src/fetch/undici.ts';

const execFileP = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '..');

// What was weak: the first test checked `undici.deep`, a flag the module
// sets on itself. Now a process that loads src/fetch/undici.ts alone uses
// the parts against a loopback server and looks at what `deep` stands for:
// undici's index never loaded, the dispatchers' request method still there,
// the errors they throw instances of the error classes given beside them.
test('the parts work alone: a request answers, errors are the given classes, undici\'s index is not loaded', async (t) => {
  const server = http.createServer((req, res) => res.end(`got ${req.url}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const script = `
    import { createRequire } from 'node:module';
    import { undici } from './src/fetch/undici.ts';
    const out = [];
    const agent = new undici.Agent();
    const res = await agent.request({ origin: ${JSON.stringify(origin)}, path: '/p', method: 'GET' });
    out.push(res.statusCode + ' ' + (await res.body.text()));
    await agent.close();
    try {
      new undici.Pool(${JSON.stringify(origin)}, { connections: -1 });
      out.push('no throw');
    } catch (err) {
      out.push('invalid argument: ' + (err instanceof undici.errors.InvalidArgumentError) + ', undici error: ' + (err instanceof undici.errors.UndiciError));
    }
    const cache = Object.keys(createRequire(import.meta.url).cache);
    out.push('index loaded: ' + cache.some((f) => /undici[\\\\/]index\\.js$/.test(f)));
    console.log(JSON.stringify(out));
  `;
  const { stdout } = await execFileP(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO });
  assert.deepEqual(JSON.parse(stdout), ['200 got /p', 'invalid argument: true, undici error: true', 'index loaded: false']);
});

test('the parts are the classes undici exports', () => {
  assert.equal(undici.Agent, all.Agent);
  assert.equal(undici.Pool, all.Pool);
  assert.equal(undici.ProxyAgent, all.ProxyAgent);
  assert.equal(undici.errors, all.errors);
  assert.equal(undici.errors.HeadersTimeoutError, all.errors.HeadersTimeoutError);
});

test('the HTTP client fetches, directly and through a proxy, in a process that never loads undici\'s index', async (t) => {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end(`${req.method} ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // the server answers as a forward proxy would: absolute-form targets arrive as the path
  const script = `
    import { createRequire } from 'node:module';
    import { HttpClient } from './src/fetch/http.ts';
    const out = [];
    for (const opts of [{ allowPrivate: true }, { proxy: ${JSON.stringify(origin)} }]) {
      const client = new HttpClient(opts);
      const text = await client.getText(${JSON.stringify(`${origin}/a`)}, { maxBytes: 1000 });
      out.push(text.status + ' ' + text.body);
      await client.close();
    }
    const cache = Object.keys(createRequire(import.meta.url).cache);
    out.push('index loaded: ' + cache.some((f) => /undici[\\\\/]index\\.js$/.test(f)));
    console.log(JSON.stringify(out));
  `;
  const { stdout } = await execFileP(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO });
  assert.deepEqual(JSON.parse(stdout), ['200 GET /a', `200 GET ${origin}/a`, 'index loaded: false']);
});
