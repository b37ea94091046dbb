/**
 * The bundled fixture web (fixtures/web.warc.gz, web-labels.tsv, demo-topic.json,
 * demo-seeds.txt) is reproducible and keeps the properties the demo, the
 * benchmarks and the harvest-rate tests rely on: labels match the archive,
 * Chinese pages really are GBK / GB18030 bytes, every link resolves inside the
 * archive except a fixed list of deliberate dead links, robots.txt rules are in
 * place, the parser edge cases are present, and one on-topic site is reachable
 * only through off-topic pages (a tunnel).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { Parser } from 'htmlparser2';
import { WARCParser } from 'warcio';
import { canonicalize, hostOf } from '../src/urls/canonical.ts';

interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  isDisallowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}
// robots-parser is CommonJS and its typings declare an ESM default export; require() it to get the function.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, txt: string) => Robots;

const repo = fileURLToPath(new URL('../', import.meta.url));
const fx = (name: string): string => join(repo, 'fixtures', name);

/** Link targets that are deliberately not in the archive (404 / unknown host for a crawler). */
const EXPECTED_DANGLING = [
  'http://ads.tracker.example/click?id=1',
  'http://ads.tracker.example/click?id=2',
  'http://ads.tracker.example/click?id=3',
  'http://spam-pills.example/',
  'http://www.bet-fast.example/',
  'http://www.greenhome.example/shop/',
  'http://www.iea-pvps.example/',
  'http://www.solar-lab.example/login',
];

interface Rec {
  url: string;
  status: number;
  /** HTTP headers, names lower-cased */
  headers: Map<string, string>;
  body: Buffer;
}

interface Archive {
  warcinfo: string;
  firstType: string;
  recs: Map<string, Rec>;
}

async function loadArchive(): Promise<Archive> {
  const recs = new Map<string, Rec>();
  let warcinfo = '';
  let firstType = '';
  for await (const r of new WARCParser(createReadStream(fx('web.warc.gz')))) {
    if (firstType === '') firstType = r.warcType ?? '';
    if (r.warcType === 'warcinfo') {
      warcinfo = Buffer.from(await r.readFully(false)).toString('utf8');
      continue;
    }
    assert.equal(r.warcType, 'response');
    const url = r.warcTargetURI ?? '';
    assert.ok(!recs.has(url), `duplicate record for ${url}`);
    const headers = new Map<string, string>();
    for (const [k, v] of r.httpHeaders?.headers ?? []) headers.set(k.toLowerCase(), v);
    const body = Buffer.from(await r.readFully(false));
    recs.set(url, { url, status: Number(r.httpHeaders?.statusCode), headers, body });
  }
  return { warcinfo, firstType, recs };
}

const archive = loadArchive();

interface Label {
  url: string;
  label: string;
  site: string;
}

function loadLabels(): Label[] {
  const lines = readFileSync(fx('web-labels.tsv'), 'utf8').split('\n');
  assert.equal(lines[0], 'url\tlabel\tsite');
  assert.equal(lines.at(-1), '', 'file ends with a newline');
  return lines.slice(1, -1).map((l) => {
    const [url, label, site, ...rest] = l.split('\t');
    assert.equal(rest.length, 0, l);
    return { url, label, site };
  });
}

const isHtml = (r: Rec): boolean => r.status === 200 && (r.headers.get('content-type') ?? '').startsWith('text/html');

/** Charset from the Content-Type header, else from <meta charset> / <meta http-equiv> in the first 1024 bytes. */
function declaredCharset(r: Rec): { charset: string | null; where: 'header' | 'meta' | null } {
  const h = /charset=([\w-]+)/i.exec(r.headers.get('content-type') ?? '');
  if (h) return { charset: h[1].toLowerCase(), where: 'header' };
  const m = /<meta[^>]+charset=["']?([\w-]+)/i.exec(r.body.subarray(0, 1024).toString('latin1'));
  if (m) return { charset: m[1].toLowerCase(), where: 'meta' };
  return { charset: null, where: null };
}

const DECODER: Record<string, string> = { 'utf-8': 'utf-8', gbk: 'gbk', gb2312: 'gbk', gb18030: 'gb18030', 'iso-8859-1': 'latin1' };

function decode(r: Rec): string {
  const { charset } = declaredCharset(r);
  assert.ok(charset !== null && charset in DECODER, `${r.url}: charset ${charset}`);
  // WHATWG maps gbk to the gb18030 decoder; Node's ICU 'gbk' decoder does not, so use gb18030 for both here.
  const enc = DECODER[charset] === 'gbk' ? 'gb18030' : DECODER[charset];
  return new TextDecoder(enc, { fatal: true }).decode(r.body);
}

interface Extracted {
  links: { url: string | null; tag: string; rel: string }[];
  /** resolved <base href>, null when the page has none */
  base: string | null;
  title: string | null;
  metaRobots: string | null;
}

/** a/area/frame/iframe link targets of a page, resolved against <base href> (as the crawler's parser must). */
function extract(pageUrl: string, html: string): Extracted {
  const raw: { href: string; tag: string; rel: string }[] = [];
  let baseHref: string | null = null;
  let title: string | null = null;
  let inTitle = false;
  let metaRobots: string | null = null;
  const p = new Parser({
    onopentag(name, attrs) {
      if (name === 'base' && baseHref === null && attrs.href !== undefined) baseHref = attrs.href;
      if ((name === 'a' || name === 'area') && attrs.href !== undefined) raw.push({ href: attrs.href, tag: name, rel: attrs.rel ?? '' });
      if ((name === 'frame' || name === 'iframe') && attrs.src !== undefined) raw.push({ href: attrs.src, tag: name, rel: '' });
      if (name === 'title') {
        inTitle = true;
        title = '';
      }
      if (name === 'meta' && attrs.name?.toLowerCase() === 'robots') metaRobots = attrs.content ?? '';
    },
    ontext(text) {
      if (inTitle) title += text;
    },
    onclosetag(name) {
      if (name === 'title') inTitle = false;
    },
  });
  p.end(html);
  const base = baseHref === null ? null : new URL(baseHref, pageUrl).href;
  return { links: raw.map((l) => ({ url: canonicalize(l.href, base ?? pageUrl), tag: l.tag, rel: l.rel })), base, title, metaRobots };
}

async function pagesWithLinks(): Promise<Map<string, Extracted>> {
  const { recs } = await archive;
  const out = new Map<string, Extracted>();
  for (const r of recs.values()) if (isHtml(r)) out.set(r.url, extract(r.url, decode(r)));
  return out;
}

test('regenerating the fixture gives byte-identical files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fixture-web-'));
  try {
    const out = join(dir, 'web.warc.gz');
    execFileSync(process.execPath, ['--import', 'tsx', fx('gen-fixture-web.ts'), '--out', out], { cwd: repo, stdio: 'pipe' });
    assert.ok(readFileSync(out).equals(readFileSync(fx('web.warc.gz'))), 'web.warc.gz differs from a fresh run: regenerate and commit it');
    assert.equal(readFileSync(join(dir, 'web-labels.tsv'), 'utf8'), readFileSync(fx('web-labels.tsv'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the archive is small and says first that it is synthetic', async () => {
  const { warcinfo, firstType } = await archive;
  assert.ok(statSync(fx('web.warc.gz')).size < 1024 * 1024);
  assert.equal(firstType, 'warcinfo');
  assert.match(warcinfo, /^software: focuscrawl fixtures\/gen-fixture-web\.ts\r$/m);
  assert.match(warcinfo, /^description: synthetic test web; all pages and links are generated\r$/m);
});

test('web-labels.tsv lists exactly the HTML pages of the archive', async () => {
  const { recs } = await archive;
  const labels = loadLabels();
  const urls = new Set(labels.map((l) => l.url));
  assert.equal(urls.size, labels.length, 'no duplicate rows');
  for (const l of labels) {
    assert.equal(canonicalize(l.url), l.url, 'label URLs are canonical');
    assert.ok(l.label === 'solar' || l.label === 'other', l.label);
    assert.equal(l.site, hostOf(l.url));
    const r = recs.get(l.url);
    assert.ok(r !== undefined && isHtml(r), `${l.url} has an HTML 200 record`);
  }
  const html = [...recs.values()].filter(isHtml).map((r) => r.url);
  assert.equal(html.length, labels.length);
  for (const u of html) assert.ok(urls.has(u), `${u} is labelled`);
  const solar = labels.filter((l) => l.label === 'solar').length;
  assert.ok(labels.length >= 300 && solar >= 80 && labels.length - solar >= 2 * solar - 20, `${solar}/${labels.length}`);
  assert.ok(new Set(labels.map((l) => l.site)).size >= 8);
});

test('Chinese pages are real GBK / GB18030 bytes; Latin-1 pages are Latin-1', async () => {
  const { recs } = await archive;
  const labels = new Map(loadLabels().map((l) => [l.url, l.label]));
  const zhTerms: string[] = JSON.parse(readFileSync(fx('demo-topic.json'), 'utf8')).terms.filter((t: string) => /\p{Script=Han}/u.test(t));
  const seen = new Map<string, number>();
  let astral = 0;
  for (const r of recs.values()) {
    if (!isHtml(r)) continue;
    const { charset, where } = declaredCharset(r);
    assert.ok(charset !== null, `${r.url} declares a charset`);
    seen.set(`${DECODER[charset]}/${where}`, (seen.get(`${DECODER[charset]}/${where}`) ?? 0) + 1);
    if (DECODER[charset] === 'utf-8') {
      new TextDecoder('utf-8', { fatal: true }).decode(r.body);
      continue;
    }
    assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(r.body), `${r.url} is not UTF-8`);
    if (DECODER[charset] === 'gbk') {
      const text = new TextDecoder('gbk', { fatal: true }).decode(r.body);
      assert.ok(iconv.encode(text, 'gbk').equals(r.body), `${r.url}: TextDecoder('gbk') loses nothing`);
      if (labels.get(r.url) === 'solar') assert.ok(zhTerms.some((t) => text.includes(t)), `${r.url} has a Chinese topic term`);
    } else if (DECODER[charset] === 'gb18030') {
      const text = new TextDecoder('gb18030', { fatal: true }).decode(r.body);
      assert.ok(iconv.encode(text, 'gb18030').equals(r.body), `${r.url}: gb18030 round trip`);
      if (/\p{Script=Han}/u.test(text) && /[\u{20000}-\u{2FFFF}]/u.test(text)) astral++;
      if (labels.get(r.url) === 'solar') assert.ok(zhTerms.some((t) => text.includes(t)), `${r.url} has a Chinese topic term`);
    } else {
      assert.equal(DECODER[charset], 'latin1');
      assert.match(new TextDecoder('latin1').decode(r.body), /[éñóûè]/);
    }
  }
  for (const k of ['gbk/header', 'gbk/meta', 'gb18030/header', 'gb18030/meta', 'latin1/header', 'latin1/meta', 'utf-8/header', 'utf-8/meta']) {
    assert.ok((seen.get(k) ?? 0) > 0, `some page has charset ${k}`);
  }
  assert.ok(astral > 0, 'some GB18030 page has a four-byte (non-GBK) character');
});

test('every link target is archived, except the deliberate dead links', async () => {
  const { recs } = await archive;
  const missing = new Set<string>();
  for (const [url, page] of await pagesWithLinks()) {
    for (const l of page.links) {
      assert.ok(l.url !== null, `${url}: every href is an http URL`);
      if (!recs.has(l.url)) missing.add(l.url);
    }
  }
  assert.deepEqual([...missing].sort(), EXPECTED_DANGLING);
  for (const r of recs.values()) {
    if (r.status !== 301) continue;
    const target = recs.get(r.headers.get('location') ?? '');
    assert.ok(target !== undefined && isHtml(target), `${r.url} redirects to an archived page`);
  }
});

test('robots.txt: one per host, a disallowed prefix with linked pages, a crawl delay', async () => {
  const { recs } = await archive;
  const hosts = new Set([...recs.keys()].map(hostOf));
  for (const h of hosts) {
    const r = recs.get(`http://${h}/robots.txt`);
    assert.ok(r && r.status === 200 && r.headers.get('content-type')?.startsWith('text/plain'), `robots.txt for ${h}`);
  }
  const robots = (h: string) => robotsParser(`http://${h}/robots.txt`, recs.get(`http://${h}/robots.txt`)!.body.toString('utf8'));
  const news = robots('news.example.cn');
  // (robots-parser answers isDisallowed === true for URLs of other hosts, so filter by host first)
  const blocked = loadLabels().filter((l) => l.site === 'news.example.cn' && news.isDisallowed(l.url, 'focuscrawl'));
  assert.ok(blocked.length >= 5, `${blocked.length} pages under a disallowed prefix`);
  assert.ok(blocked.every((l) => new URL(l.url).pathname.startsWith('/archive/') && l.label === 'solar'));
  const linkedFromAllowed = [...(await pagesWithLinks())].some(
    ([u, p]) => news.isAllowed(u, 'focuscrawl') === true && p.links.some((l) => blocked.some((b) => b.url === l.url)),
  );
  assert.ok(linkedFromAllowed, 'a disallowed page is linked from an allowed one');
  assert.equal(robots('www.weather-now.example').getCrawlDelay('focuscrawl'), 1);
  assert.equal(robots('www.celebbuzz.example').isAllowed('http://www.celebbuzz.example/', 'focuscrawl'), true);
});

test('the parser edge cases are present', async () => {
  const { recs } = await archive;
  const pages = [...(await pagesWithLinks()).values()];
  const tags = new Set(pages.flatMap((p) => p.links.map((l) => l.tag)));
  assert.deepEqual([...tags].sort(), ['a', 'area', 'frame', 'iframe']);
  assert.ok(pages.some((p) => p.links.some((l) => /\bnofollow\b/.test(l.rel) && l.url !== null && recs.has(l.url))), 'rel=nofollow to an archived page');
  assert.ok(pages.some((p) => p.metaRobots === 'nofollow'));
  assert.ok(pages.some((p) => p.base !== null && p.links.some((l) => l.url?.startsWith(p.base!))), 'a <base href> page with links relative to it');
  assert.ok(pages.filter((p) => p.title === null).length >= 3, 'pages without <title>');
  assert.ok(pages.some((p) => p.title === 'Untitled') && pages.some((p) => p.title === 'Home') && pages.some((p) => p.title === '首页'));
  const types = [...recs.values()].filter((r) => r.status === 200).map((r) => r.headers.get('content-type') ?? '');
  assert.ok(types.includes('application/pdf') && types.some((t) => t.startsWith('image/')));
  assert.ok([...recs.values()].filter((r) => r.status === 301).length >= 2);
});

test('blog.windandsun.example is reachable from the seeds only through off-topic pages', async () => {
  const { recs } = await archive;
  const labels = new Map(loadLabels().map((l) => [l.url, l.label]));
  const pages = await pagesWithLinks();
  const follow = (u: string): string => {
    const r = recs.get(u);
    return r?.status === 301 ? (r.headers.get('location') ?? u) : u;
  };
  const blog = 'blog.windandsun.example';
  let inbound = 0;
  for (const [u, p] of pages) {
    if (hostOf(u) === blog) continue;
    for (const l of p.links) {
      if (l.url === null || hostOf(follow(l.url)) !== blog) continue;
      inbound++;
      assert.equal(labels.get(u), 'other', `${u} links into the blog`);
    }
  }
  assert.ok(inbound >= 2);
  assert.ok([...labels].filter(([u, l]) => hostOf(u) === blog && l === 'solar').length >= 10);
  // breadth-first over all links from the seeds reaches the blog
  const seeds = readFileSync(fx('demo-seeds.txt'), 'utf8').split('\n').filter(Boolean);
  const seen = new Set(seeds);
  const queue = [...seeds];
  while (queue.length) {
    const p = pages.get(queue.shift()!);
    for (const l of p?.links ?? []) {
      const t = l.url === null ? null : follow(l.url);
      if (t !== null && pages.has(t) && !seen.has(t)) {
        seen.add(t);
        queue.push(t);
      }
    }
  }
  assert.ok(seen.has(`http://${blog}/`));
});

test('seeds are portal pages linking to on- and off-topic pages; the topic has English and Chinese terms', async () => {
  const labels = new Map(loadLabels().map((l) => [l.url, l.label]));
  const pages = await pagesWithLinks();
  const seeds = readFileSync(fx('demo-seeds.txt'), 'utf8').split('\n').filter(Boolean);
  assert.ok(seeds.length >= 2 && seeds.length <= 3);
  for (const s of seeds) {
    assert.equal(labels.get(s), 'other', `${s} is a labelled portal page`);
    const targets = pages.get(s)!.links.map((l) => labels.get(l.url ?? ''));
    assert.ok(targets.includes('solar') && targets.includes('other'), s);
  }
  const topic = JSON.parse(readFileSync(fx('demo-topic.json'), 'utf8'));
  assert.equal(topic.name, 'solar');
  assert.equal(topic.threshold, 0.2);
  assert.ok(topic.terms.some((t: string) => /^[a-z ]+$/.test(t)) && topic.terms.some((t: string) => /\p{Script=Han}/u.test(t)));
});
