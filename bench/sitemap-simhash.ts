/**
 * Sitemaps as a seed source, and near-duplicate detection, on the WebKB
 * replay (issue 6).
 *
 *   node --import tsx bench/sitemap-simhash.ts [--pages 2000] [--universities washington,cornell]
 *        [--skip-sitemap] [--skip-simhash] [--skip-exhaust] [--out DIR]
 *
 * 1. Sitemaps. A 1997 web has none, so one is built per university from the
 *    archive's labelled URLs of that university (sorted by URL, as a site's
 *    generator would list them) and given as a local file (`--sitemap FILE`;
 *    the crawl goes through the replay proxy, which only knows the archive).
 *    For bfs and best-first ("course" topic) it crawls 1,500 pages seeded
 *    (a) by the university's department home page, (b) by the sitemap alone,
 *    and reports harvest@500/1000 over every fetch (the replay's 404s for
 *    links leaving the archive included: they cost a request too) and
 *    recall of that university's course pages at 500/1000/1500.
 * 2. Near-duplicates. Crawls `--pages` pages from the three department home
 *    pages with bfs and best-first (concurrency 1, so both runs fetch in
 *    the same order until a duplicate changes it), --near-dup-distance 3 and 0:
 *    near-duplicates found (with example pairs), harvest and course recall
 *    at the end. Then (unless --skip-exhaust) a breadth-first crawl to an
 *    empty frontier with and without detection: the fetches saved and what
 *    they cost in archived and course pages.
 * 3. CPU: every HTML page of the archive parsed once, then fingerprinted
 *    (src/stages/dedup.ts pageFingerprint) in a loop: µs per page; and the
 *    near-duplicate pairs of the whole archive at k = 3 by the band index.
 *
 * Prints markdown. The machine is shared: timings are indicative.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate, parseLabels, type CurvePoint, type Labels } from '../src/tools/eval/metrics.ts';
import { parseContentType } from '../src/fetch/http.ts';
import { buildIndex, readResponse } from '../src/replay/warc-index.ts';
import { SimHashIndex, type Fingerprint } from '../src/relevance/simhash.ts';
import { pageFingerprint } from '../src/stages/dedup.ts';
import { parseBody } from '../src/parse/body.ts';
import { canonicalize } from '../src/urls/canonical.ts';
import { runFocuscrawl } from './lib/focus.ts';
import { startReplay } from './lib/measure.ts';
import { WEBKB_COURSE_TOPIC, WEBKB_LABELS, WEBKB_SEEDS, WEBKB_WARC } from './lib/webkb.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    universities: { type: 'string', default: 'washington,cornell' },
    'skip-sitemap': { type: 'boolean', default: false },
    'skip-simhash': { type: 'boolean', default: false },
    'skip-exhaust': { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(os.tmpdir(), 'focuscrawl-sitemap-simhash') },
  },
});
if (!existsSync(WEBKB_WARC)) {
  process.stderr.write(`sitemap-simhash: ${WEBKB_WARC} is missing (../shared/corpora beside the repo)\n`);
  process.exit(2);
}
const out = values.out!;
await mkdir(out, { recursive: true });
const PAGES = Number(values.pages);
const HOMES: Record<string, string> = {
  cornell: 'http://www.cs.cornell.edu/',
  texas: 'http://www.cs.utexas.edu/',
  washington: 'http://www.cs.washington.edu/',
};
const CRAWL_FLAGS = ['--concurrency', '8', '--per-host', '4', '--quiet', '--fresh'];
const topicFile = path.join(out, 'course-topic.json');
await writeFile(topicFile, JSON.stringify(WEBKB_COURSE_TOPIC));

const labelsTsv = readFileSync(WEBKB_LABELS, 'utf8');
const labels: Labels = parseLabels(labelsTsv).labels;
/** canonical URL -> university */
const university = new Map<string, string>();
for (const line of labelsTsv.trim().split('\n').slice(1)) {
  const [url, , uni] = line.split('\t');
  const c = canonicalize(url);
  if (c !== null && !university.has(c)) university.set(c, uni);
}

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const log = (s: string): void => void process.stderr.write(`sitemap-simhash: ${s}\n`);
const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `${(100 * v).toFixed(1)}%`);
const at = (curve: CurvePoint[], n: number): CurvePoint | null => curve[n - 1] ?? null;

function records(ndjson: string): Record<string, any>[] {
  return ndjson
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, any>);
}

const replay = await startReplay(WEBKB_WARC);
try {
  const strategyArgs = (s: string): string[] => (s === 'bfs' ? ['--strategy', 'bfs'] : ['--strategy', s, '--topic', topicFile]);

  // ---- 1. sitemaps -------------------------------------------------------------
  if (!values['skip-sitemap']) {
    say('## Sitemap seeding (WebKB replay, target course; every fetch counts, 404s included)\n');
    say('| university | strategy | seeds | pages fetched | archived (200) | harvest@500 | harvest@1000 | course recall@500 | @1000 | @1500 |');
    say('|---|---|---|---|---|---|---|---|---|---|');
    for (const uni of values.universities!.split(',')) {
      const urls = [...university].filter(([, u]) => u === uni).map(([url]) => url).sort();
      const targets = urls.filter((u) => labels.get(u) === 'course');
      const sitemap = path.join(out, `${uni}-sitemap.xml`);
      const esc = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
      await writeFile(sitemap, `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `<url><loc>${esc(u)}</loc></url>`).join('\n')}\n</urlset>\n`);
      for (const strategy of ['bfs', 'best-first']) {
        for (const [name, seedArgs] of [
          ['home page', ['--seed', HOMES[uni]]],
          [`sitemap (${urls.length} URLs)`, ['--sitemap', sitemap]],
        ] as const) {
          log(`${uni} ${strategy} ${name}`);
          const stdout = await runFocuscrawl([
            'crawl', ...seedArgs, ...strategyArgs(strategy), '--proxy', replay.url, '--store', path.join(out, 'store-sm'), '--max-pages', '1500', ...CRAWL_FLAGS,
          ]);
          const recs = records(stdout);
          const { curve, summary } = evaluate(recs, labels, { target: 'course', status: null, reachable: urls });
          const h = (n: number) => (at(curve, n) === null ? null : at(curve, n)!.harvest);
          // recall of this university's course pages (the last point when the crawl ended earlier)
          const r = (n: number) => (curve.length === 0 ? 0 : (at(curve, n) ?? curve[curve.length - 1]).found / Math.max(1, targets.length));
          const archived = recs.filter((x) => x.type === 'page' && x.status === 200).length;
          say(`| ${uni} | ${strategy} | ${name} | ${summary.pages} | ${archived} | ${pct(h(500))} | ${pct(h(1000))} | ${pct(r(500))} | ${pct(r(1000))} | ${pct(r(1500))} |`);
        }
      }
    }
    say('');
  }

  // ---- 2. near-duplicates in crawls ------------------------------------------------
  if (!values['skip-simhash']) {
    say(`## Near-duplicates in ${PAGES}-page crawls from the three department home pages\n`);
    say('Concurrency 1, so that both runs fetch in the same order until a duplicate changes it.\n');
    say('| strategy | --near-dup-distance | pages fetched | archived (200) | near-duplicates | their links not queued | harvest (course / fetched) | course found | wall s |');
    say('|---|---|---|---|---|---|---|---|---|');
    const examples: Record<string, any>[] = [];
    for (const strategy of ['bfs', 'best-first']) {
      for (const k of ['3', '0']) {
        log(`${PAGES} pages ${strategy} k=${k}`);
        const t0 = performance.now();
        const stdout = await runFocuscrawl([
          'crawl', ...WEBKB_SEEDS.flatMap((s) => ['--seed', s]), ...strategyArgs(strategy), '--near-dup-distance', k,
          '--proxy', replay.url, '--store', path.join(out, 'store-nd'), '--max-pages', String(PAGES), '--concurrency', '1', '--quiet', '--fresh',
        ]);
        const wall = (performance.now() - t0) / 1000;
        const recs = records(stdout);
        const dups = recs.filter((x) => x.duplicateOf !== undefined);
        examples.push(...dups);
        const { summary } = evaluate(recs, labels, { target: 'course', status: null });
        const archived = recs.filter((x) => x.type === 'page' && x.status === 200).length;
        say(`| ${strategy} | ${k} | ${summary.pages} | ${archived} | ${dups.length} | ${dups.reduce((a, d) => a + (d.links as number), 0)} | ${pct(summary.harvest)} | ${summary.found} | ${wall.toFixed(0)} |`);
      }
    }
    const showExamples = (title: string, list: Record<string, any>[]): void => {
      say(`\n${title}: duplicate ← original`);
      if (list.length === 0) say('- (none)');
      for (const d of list.slice(0, 8)) say(`- ${d.url} ← ${d.duplicateOf} (title "${d.title ?? ''}")`);
    };
    showExamples(`Near-duplicates in the ${PAGES}-page crawls`, examples);

    if (!values['skip-exhaust']) {
      say('\n## Breadth-first to an empty frontier, with and without near-duplicate detection\n');
      say('| --near-dup-distance | pages fetched | archived pages (200) | course pages | near-duplicates |');
      say('|---|---|---|---|---|');
      const full: Record<string, { pages: number; ok: number; course: number }> = {};
      const exhaustiveDups: Record<string, any>[] = [];
      for (const k of ['3', '0']) {
        log(`exhaustive bfs k=${k}`);
        const stdout = await runFocuscrawl([
          'crawl', ...WEBKB_SEEDS.flatMap((s) => ['--seed', s]), '--strategy', 'bfs', '--near-dup-distance', k,
          '--proxy', replay.url, '--store', path.join(out, 'store-full'), '--concurrency', '16', '--per-host', '8', '--quiet', '--fresh',
        ]);
        const recs = records(stdout).filter((x) => x.type === 'page');
        const ok = recs.filter((x) => x.status === 200);
        const course = ok.filter((x) => labels.get(x.url) === 'course').length;
        full[k] = { pages: recs.length, ok: ok.length, course };
        if (k === '3') exhaustiveDups.push(...recs.filter((x) => x.duplicateOf !== undefined));
        say(`| ${k} | ${recs.length} | ${ok.length} | ${course} | ${recs.filter((x) => x.duplicateOf !== undefined).length} |`);
      }
      const saved = full['0'].pages - full['3'].pages;
      showExamples('Near-duplicates of the exhaustive crawl', exhaustiveDups);
      say(`\nFetches saved: ${saved} (${pct(saved / full['0'].pages)}); archived pages not reached: ${full['0'].ok - full['3'].ok}; course pages not reached: ${full['0'].course - full['3'].course}.`);
    }
    say('');
  }

  // ---- 3. CPU cost, and the archive's own near-duplicate pairs ------------------------
  {
    log('parsing the archive');
    const index = await buildIndex([WEBKB_WARC]);
    const pages: { url: string; page: ReturnType<typeof parseBody> }[] = [];
    let parseMs = 0;
    for (const url of index.entries.keys()) {
      const res = await readResponse(index, url);
      if (res === null || res.status !== 200) continue;
      const ct = res.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? null;
      const { type, charset } = parseContentType(ct);
      if (type !== null && type !== 'text/html') continue;
      const t0 = performance.now();
      const page = parseBody(res.body, url, charset);
      parseMs += performance.now() - t0;
      pages.push({ url, page });
    }
    // warm up, then time
    for (const p of pages.slice(0, 200)) pageFingerprint(p.page);
    const times: number[] = [];
    const fps: (Fingerprint | null)[] = [];
    for (const p of pages) {
      const t0 = performance.now();
      fps.push(pageFingerprint(p.page));
      times.push(performance.now() - t0);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    say(`## CPU cost of fingerprinting (${pages.length} archived HTML pages)\n`);
    say(`- pageFingerprint (tokenise + 3-shingles + SimHash): mean ${(mean * 1000).toFixed(0)} µs/page, p50 ${(sorted[Math.floor(sorted.length / 2)] * 1000).toFixed(0)} µs, p95 ${(sorted[Math.floor(sorted.length * 0.95)] * 1000).toFixed(0)} µs`);
    say(`- for comparison, parsing the same pages: mean ${((parseMs / pages.length) * 1000).toFixed(0)} µs/page`);
    say(`- pages with fewer than 30 distinct tokens (never duplicates): ${fps.filter((f) => f === null).length}`);
    const idx = new SimHashIndex({ maxDistance: 3 });
    const ids: number[] = [];
    let dup = 0;
    const dist = new Map<number, number>();
    const pairs: string[] = [];
    const t0 = performance.now();
    fps.forEach((f, i) => {
      if (f === null) return;
      const m = idx.nearest(f);
      if (m !== null) {
        dup++;
        dist.set(m.distance, (dist.get(m.distance) ?? 0) + 1);
        if (pairs.length < 10 && m.distance > 0) pairs.push(`${pages[i].url} ≈ ${pages[ids[m.ref]].url} (distance ${m.distance})`);
        return;
      }
      ids.push(i);
      idx.add(f, ids.length - 1);
    });
    const lookupMs = performance.now() - t0;
    say(`- band index over the whole archive: ${dup} near-duplicates at k = 3 (by distance: ${[...dist].sort((a, b) => a[0] - b[0]).map(([d, n]) => `${d}: ${n}`).join(', ')}); lookups+adds ${((lookupMs / fps.length) * 1000).toFixed(1)} µs/page; index ${idx.size} entries, ${(idx.bytes / 1024).toFixed(0)} KiB`);
    say('\nExamples at distance 1–3 (archive order):');
    for (const p of pairs) say(`- ${p}`);
    for (const k of [6, 10]) {
      const wide = new SimHashIndex({ maxDistance: k });
      const wideIds: number[] = [];
      let n = 0;
      const ex: string[] = [];
      fps.forEach((f, i) => {
        if (f === null) return;
        const m = wide.nearest(f);
        if (m !== null) {
          n++;
          if (ex.length < 5 && m.distance > 3) ex.push(`${pages[i].url} ≈ ${pages[wideIds[m.ref]].url} (distance ${m.distance})`);
          return;
        }
        wideIds.push(i);
        wide.add(f, wideIds.length - 1);
      });
      say(`\nAt k = ${k}: ${n} near-duplicates in the archive; examples beyond distance 3:`);
      for (const e of ex) say(`- ${e}`);
    }
  }
} finally {
  await replay.stop();
}
