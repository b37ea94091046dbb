/**
 * The synthetic web generator (fixtures/synthetic-web.ts) and its proxy
 * (fixtures/serve-synthetic.ts): determinism, size, out-degree, the SkyReach
 * properties of docs/algorithms.md#topics-on-the-web (hubs, sibling locality, tunnels into islands), robots.txt,
 * and a short focused crawl through the proxy.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { writeFile } from 'node:fs/promises';
import { startSyntheticProxy } from '../fixtures/serve-synthetic.ts';
import { DIR_SIZE, HUB_FACTOR, parseWebSpec, SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { parseLines, tempDir, runMain } from './helpers/cli.ts';

/** GET `url` through the forward proxy at `proxy` (absolute-form request). */
function viaProxy(proxy: string, url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(proxy);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('same seed, same web; another seed, another web', () => {
  const a = new SyntheticWeb();
  const b = new SyntheticWeb();
  const c = new SyntheticWeb({ seed: 2 });
  let differs = 0;
  for (const id of [0, 1, 99, 12_345, 500_000, 999_999]) {
    assert.equal(a.html(id), b.html(id));
    assert.deepEqual(a.links(id), b.links(id));
    if (a.html(id) !== c.html(id)) differs++;
  }
  assert.equal(differs, 6);
});

test('the default web has 1,000,000 pages on 10,000 hosts, every URL round-trips', () => {
  const web = new SyntheticWeb();
  assert.equal(web.pages, 1_000_000);
  let total = 0;
  for (let h = 0; h < web.hosts; h++) total += web.hostSize(h);
  assert.equal(total, 1_000_000);
  for (const id of [0, 1, 20, 21, 99, 100, 101, 777_777, 999_999]) {
    const url = web.urlOf(id);
    assert.equal(web.pageId(url), id, url);
    assert.equal(web.labelOf(url), web.info(id).label);
  }
  assert.equal(web.urlOf(999_999), 'http://h9999.synth/d4/p99.html');
  assert.equal(web.pageId('http://h10000.synth/'), null);
  assert.equal(web.pageId('http://h1.synth/d0/p100.html'), null, 'past the host');
  assert.equal(web.pageId('http://h1.synth/d1/p5.html'), null, 'wrong directory');
  assert.equal(web.pageId('http://h1.synth/d0/p5.html?x=1'), null);
  assert.equal(web.labelOf('http://example.com/'), null);
  assert.throws(() => web.info(1_000_000), TypeError);
  assert.throws(() => new SyntheticWeb({ pages: 100, hosts: 100 }), TypeError);
  assert.deepEqual(parseWebSpec('7:20000000:200000'), { seed: 7, pages: 20_000_000, hosts: 200_000 });
  assert.throws(() => parseWebSpec('7:x'), TypeError);
});

test('out-degree: normal pages spread around the configured mean, hubs have many more links', () => {
  for (const outDegree of [20, 40]) {
    const web = new SyntheticWeb({ outDegree });
    const degrees: number[] = [];
    const hubDegrees: number[] = [];
    for (let id = 1; degrees.length < 1500; id += 613) {
      const n = web.links(id).length;
      (web.info(id).hub ? hubDegrees : degrees).push(n);
    }
    const mean = degrees.reduce((s, n) => s + n, 0) / degrees.length;
    assert.ok(mean > 0.8 * outDegree && mean <= outDegree, `mean ${mean} for out-degree ${outDegree}`);
    assert.ok(Math.min(...degrees) >= 0.3 * outDegree && Math.max(...degrees) <= 1.5 * outDegree);
    assert.ok(new Set(degrees).size > outDegree / 2, 'degrees vary');
    assert.ok(hubDegrees.length > 0, 'some sampled pages are hubs');
    for (const n of hubDegrees) assert.ok(n > 0.6 * HUB_FACTOR * outDegree, `hub with ${n} links`);
  }
});

test('hubs link to their own topic; normal pages stay near home (sibling and site locality)', () => {
  const web = new SyntheticWeb();
  let hubLinks = 0;
  let hubSameTopic = 0;
  let links = 0;
  let sameTopic = 0;
  let sameHost = 0;
  let sameDir = 0;
  for (let id = 3; id < web.pages; id += 4999) {
    const info = web.info(id);
    for (const l of web.links(id)) {
      const target = web.pageId(l.url);
      if (target === null) continue; // a dead link
      const t = web.info(target);
      if (info.hub) {
        hubLinks++;
        if (t.topic === info.topic) hubSameTopic++;
        continue;
      }
      links++;
      if (t.topic === info.topic) sameTopic++;
      if (t.host === info.host) sameHost++;
      if (t.host === info.host && Math.floor((t.local - 1) / DIR_SIZE) === Math.floor((info.local - 1) / DIR_SIZE)) sameDir++;
    }
  }
  assert.ok(hubLinks > 200, `${hubLinks} hub links`);
  assert.ok(hubSameTopic / hubLinks > 0.9, `hub links on topic: ${hubSameTopic / hubLinks}`);
  assert.ok(sameTopic / links > 0.7, `links on topic: ${sameTopic / links}`);
  assert.ok(sameHost / links > 0.7, `links on the same host: ${sameHost / links}`);
  assert.ok(sameDir / links > 0.4, `links in the same directory: ${sameDir / links}`);
});

test('tunnels: islands are reachable only through a chain of off-topic pages', () => {
  const web = new SyntheticWeb({ pages: 3000, hosts: 100, islandShare: 0.1, hubShare: 0.05 });
  const islands = Array.from({ length: web.hosts }, (_, h) => h).filter((h) => web.isIsland(h));
  assert.ok(islands.length >= 5, `${islands.length} islands`);
  // every link into an island, from anywhere in the web
  const into = new Map<number, { from: number; to: number }[]>();
  for (let id = 0; id < web.pages; id++) {
    const from = web.info(id);
    for (const l of web.links(id)) {
      const to = web.pageId(l.url);
      if (to === null) continue;
      const h = web.info(to).host;
      if (web.isIsland(h) && h !== from.host) into.set(h, [...(into.get(h) ?? []), { from: id, to }]);
    }
  }
  for (const island of islands) {
    const topic = web.primaryTopic(island);
    const entries = into.get(island) ?? [];
    assert.equal(entries.length, 1, `island h${island}: one way in`);
    const [{ from, to }] = entries;
    assert.equal(web.info(to).local, 0, 'the tunnel ends at the island home');
    // walk the chain back: tunnel pages of other topics, from the on-topic home of the host before
    const tunnelHost = island - 1;
    const chain = web.chainLength(tunnelHost);
    assert.ok(chain >= 1 && chain <= 3);
    assert.equal(web.info(from).host, tunnelHost);
    const home = web.pageId(`http://h${tunnelHost}.synth/`)!;
    assert.equal(web.info(home).topic, topic, 'the tunnel starts on topic');
    let at = home;
    for (let step = 0; step < chain; step++) {
      const next = web.links(at).map((l) => web.pageId(l.url)!).find((t) => t !== null && web.info(t).kind === 'tunnel');
      assert.ok(next !== undefined, `step ${step} of the tunnel into h${island}`);
      assert.notEqual(web.info(next).topic, topic, 'tunnel pages are off topic');
      at = next;
    }
    assert.equal(at, from);
    for (let id = web.pageId(`http://h${island}.synth/`)!; id < to + web.hostSize(island); id++) {
      assert.equal(web.info(id).topic, topic, 'an island is one topic');
    }
  }
});

test('robots.txt allows all, some hosts disallow /d1/; pages say they are synthetic', () => {
  const web = new SyntheticWeb();
  const disallowing = Array.from({ length: 400 }, (_, h) => h).filter((h) => web.disallows(h));
  assert.ok(disallowing.length > 5 && disallowing.length < 50, `${disallowing.length} of 400`);
  assert.match(web.robots(`h${disallowing[0]}.synth`).text, /^Disallow: \/d1\/$/m);
  const open = Array.from({ length: 400 }, (_, h) => h).find((h) => !web.disallows(h))!;
  assert.match(web.robots(`h${open}.synth`).text, /^Disallow:$/m);
  assert.equal(web.robots('h10000.synth').status, 404);
  assert.match(web.html(5), /<meta name="synthetic" content="focuscrawl synthetic web/);
});

test('the proxy serves pages, robots.txt and 404s outside the web', async (t) => {
  const web = new SyntheticWeb();
  const proxy = await startSyntheticProxy(web);
  t.after(() => proxy.close());
  const page = await viaProxy(proxy.url, 'http://h12.synth/d2/p45.html');
  assert.equal(page.status, 200);
  assert.equal(page.headers['x-focuscrawl-replay'], 'synthetic');
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(page.body, web.html(web.pageId('http://h12.synth/d2/p45.html')!));
  const robots = await viaProxy(proxy.url, 'http://h12.synth/robots.txt');
  assert.equal(robots.status, 200);
  assert.match(robots.body, /^User-agent: \*$/m);
  for (const url of ['http://h12.synth/d0/p100.html', 'http://h10000.synth/', 'http://example.com/', 'http://H12.SYNTH/d9/p1.html']) {
    const r = await viaProxy(proxy.url, url);
    assert.equal(r.status, 404, url);
    assert.equal(r.headers['x-focuscrawl-replay'], 'synthetic');
  }
});

test('the proxy with latencyMs answers no sooner than that, with the same page', async (t) => {
  const web = new SyntheticWeb();
  const proxy = await startSyntheticProxy(web, { latencyMs: 120 });
  t.after(() => proxy.close());
  const started = performance.now();
  const page = await viaProxy(proxy.url, 'http://h12.synth/d2/p45.html');
  assert.ok(performance.now() - started >= 115, 'waited the latency');
  assert.equal(page.status, 200);
  assert.equal(page.body, web.html(web.pageId('http://h12.synth/d2/p45.html')!));
});

test('a best-first crawl through the proxy finds its topic', async (t) => {
  const web = new SyntheticWeb();
  const proxy = await startSyntheticProxy(web);
  const { dir, cleanup } = await tempDir();
  t.after(async () => {
    await proxy.close();
    await cleanup();
  });
  const topicFile = path.join(dir, 'topic.json');
  await writeFile(topicFile, JSON.stringify(web.topicFile('sailing')));
  const seeds = web.seeds('sailing', 2).flatMap((s) => ['--seed', s]);
  const res = await runMain(['crawl', ...seeds, '--proxy', proxy.url, '--topic', topicFile, '--store', path.join(dir, 'store'), '--max-pages', '40', '--concurrency', '8', '--quiet']);
  assert.equal(res.code, 0, res.stderr);
  const pages = parseLines(res.stdout).filter((r) => r.type === 'page');
  assert.equal(pages.length, 40);
  const onTopic = pages.filter((r) => web.labelOf(r.url) === 'sailing').length;
  assert.ok(onTopic >= 30, `${onTopic} of 40 pages on topic`);
});
