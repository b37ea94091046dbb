/**
 * --hold-back, proven from the server side. Two hosts: A serves an endless
 * chain of on-topic pages (each links to three more), B an off-topic page
 * linking to many off-topic pages. One request per host, answers take 30 ms,
 * no delay between requests. Filling every free slot sends half the requests
 * to B while A answers; holding back keeps B's links (all in the bottom
 * half of the queue) waiting for A, which is never more than a request away.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';
import { serve } from './helpers/serve.ts';

const ANSWER_MS = 30;

function page(title: string, body: string, links: [string, string][]): string {
  const a = links.map(([href, text]) => `<li><a href="${href}">${text}</a></li>`).join('');
  return `<html><head><title>${title}</title></head><body><p>${body}</p><ul>${a}</ul></body></html>`;
}

async function twoHosts(t: TestContext): Promise<{ a: string; b: string; requests: { a: number; b: number } }> {
  const requests = { a: 0, b: 0 };
  const answer = (res: import('node:http').ServerResponse, html: string) =>
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(html), ANSWER_MS);
  const a = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    requests.a++;
    const n = Number(req.url!.slice(1)) || 0;
    const links: [string, string][] = [1, 2, 3].map((k) => [`/${3 * n + k}`, `solar panel report ${3 * n + k}`]);
    answer(res, page(`Solar energy ${n}`, 'Solar panels and photovoltaic solar power for clean renewable energy.', links));
  });
  const b = await serve(t, (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    requests.b++;
    const links: [string, string][] = Array.from({ length: 30 }, (_, k) => [`/r${k}`, `soup recipe ${k}`]);
    answer(res, page('Kitchen', 'Soup, bread and cake recipes for the weekend.', req.url === '/' ? links : []));
  });
  return { a, b, requests };
}

async function crawl(t: TestContext, extra: string[]): Promise<{ a: number; b: number; pages: number }> {
  const { a, b, requests } = await twoHosts(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const topic = path.join(dir, 'topic.json');
  await writeFile(topic, JSON.stringify({ name: 'solar', terms: ['solar', 'solar energy', 'photovoltaic', 'renewable energy'] }));
  const r = await runMain([
    'crawl', '--seed', `${a}/0`, '--seed', `${b}/`, '--topic', topic, '--store', path.join(dir, 'store'),
    '--allow-private', '--quiet', '--max-pages', '16', '--concurrency', '4', '--per-host', '1', '--delay-ms', '0', ...extra,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const pages = parseLines(r.stdout).filter((rec) => rec.type === 'page').length;
  return { ...requests, pages };
}

test('by default, off-topic links wait while the on-topic host is a request from free', async (t) => {
  const held = await crawl(t, []);
  assert.equal(held.pages, 16);
  // B's home page (a seed) and, while A's first page was still being read, one of its links
  assert.ok(held.b <= 3, `${held.b} requests to the off-topic host`);
});

test('--hold-back 0 fills every free slot: the off-topic host gets a share of the requests', async (t) => {
  const filled = await crawl(t, ['--hold-back', '0']);
  assert.equal(filled.pages, 16);
  assert.ok(filled.b >= 5, `${filled.b} requests to the off-topic host`);
});

test('--hold-back outside 0..1 is a usage error (exit 2)', async () => {
  for (const bad of ['1.5', '-0.1', 'half']) {
    const r = await runMain(['crawl', '--seed', 'http://127.0.0.1:9/', '--hold-back', bad]);
    assert.equal(r.code, 2, `--hold-back ${bad}: ${r.stderr}`);
    assert.match(r.stderr, /hold-back|holdBack/);
  }
});
