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

test('the parts are loaded from their own files, not from the index', () => {
  assert.equal(undici.deep, true);
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
