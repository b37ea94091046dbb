/**
 * CPU of the classify and near-duplicate stages alone, on pages parsed
 * beforehand (issue 23 item 1: what the judge, link scoring and SimHash
 * cost per HTML page, without the crawl's noise).
 *
 *   node --max-semi-space-size=1 --no-allocation-site-pretenuring --import tsx \
 *     bench/classify-speed.ts [--pages 3000] [--rounds 5] [--strategy best-first]
 *
 * Pages: the first `--pages` 200 pages a best-first crawl of the synthetic
 * web (the bench webs' 1:1000000:10000) from three `astronomy` seeds
 * fetches (one at a time, best score first: a crawl's mix of on- and
 * off-topic pages), parsed once by the parse stage. Each round builds a fresh scorer (topic `astronomy`; the IDF table
 * learns from the pages in order, as in a crawl) and a fresh
 * NearDuplicates, and runs every page through `classifyStage` then
 * `dedupStage`. Reports CPU µs per page (process.cpuUsage, user + sys) of
 * the median round after a warm-up round, and a digest of every page's
 * relevance, outlink scores and simhash: two checkouts that print the same
 * digest scored every page and link alike (compare old code by running this
 * file inside a `git archive` of it).
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { createScorer } from '../src/relevance/scorers/index.ts';
import { classifyStage } from '../src/stages/classify.ts';
import { dedupStage, NearDuplicates } from '../src/stages/dedup.ts';
import { parseStage } from '../src/stages/parse.ts';
import type { CrawlItem } from '../src/types.ts';
import { SYNTH_SPEC, SYNTH_TOPIC } from './lib/synthetic.ts';

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '5' }, strategy: { type: 'string', default: 'best-first' } },
  strict: true,
});
const nPages = Number(values.pages);
const rounds = Number(values.rounds);
if (!Number.isInteger(nPages) || nPages < 1 || !Number.isInteger(rounds) || rounds < 1) throw new Error('--pages and --rounds must be positive integers');

const web = new SyntheticWeb(SYNTH_SPEC);
const topic = web.topicFile(SYNTH_TOPIC);
// the pages a best-first crawl from three seeds reaches (scores by this
// checkout's scorer; outlinks in a max-heap, ties first found), so that the
// mix of on- and off-topic pages and links is a crawl's, not a random draw's
const bodies: { url: string; body: Buffer }[] = [];
{
  const scorer = createScorer('best-first', topic);
  const queue: { url: string; score: number; n: number }[] = [];
  const seen = new Set<string>();
  let order = 0;
  const before = (a: { score: number; n: number }, b: { score: number; n: number }): boolean => a.score > b.score || (a.score === b.score && a.n < b.n);
  const push = (url: string, score: number): void => {
    if (seen.has(url)) return;
    seen.add(url);
    queue.push({ url, score, n: order++ });
    for (let i = queue.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!before(queue[i]!, queue[p]!)) break;
      [queue[i], queue[p]] = [queue[p]!, queue[i]!];
      i = p;
    }
  };
  const pop = (): string => {
    const top = queue[0]!;
    const last = queue.pop()!;
    if (queue.length > 0) {
      queue[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < queue.length && before(queue[l]!, queue[m]!)) m = l;
        if (r < queue.length && before(queue[r]!, queue[m]!)) m = r;
        if (m === i) break;
        [queue[i], queue[m]] = [queue[m]!, queue[i]!];
        i = m;
      }
    }
    return top.url;
  };
  for (const s of web.seeds(SYNTH_TOPIC, 3)) push(s, 1);
  while (bodies.length < nPages && queue.length > 0) {
    const url = pop();
    const u = new URL(url);
    if (u.pathname === '/robots.txt') continue;
    const r = web.page(u.host, u.pathname);
    if (r.status !== 200) continue;
    const body = Buffer.from(r.html, 'utf8');
    bodies.push({ url, body });
    async function* one(): AsyncGenerator<CrawlItem> {
      yield { entry: { url }, url, depth: 0, fetch: { finalUrl: url, status: 200, headerCharset: 'utf-8', body } } as unknown as CrawlItem;
    }
    for await (const item of classifyStage(parseStage(one(), {}), { scorer, threshold: topic.threshold ?? 0.2 })) {
      for (const o of item.outlinks ?? []) push(o.canonical ?? o.url, o.score);
    }
  }
}
async function* raw(): AsyncGenerator<CrawlItem> {
  for (const p of bodies) {
    yield { entry: { url: p.url }, url: p.url, depth: 0, fetch: { finalUrl: p.url, status: 200, headerCharset: 'utf-8', body: p.body } } as unknown as CrawlItem;
  }
}
const parsed: CrawlItem[] = [];
for await (const item of parseStage(raw(), {})) parsed.push(item);

async function round(): Promise<string> {
  const scorer = createScorer(values.strategy!, topic);
  const dedup = new NearDuplicates({ maxDistance: 3, urlOfCommit: async () => null });
  async function* items(): AsyncGenerator<CrawlItem> {
    for (const p of parsed) {
      const { relevance: _r, relevant: _v, outlinks: _o, simhash: _s, duplicateOf: _d, ...rest } = p;
      yield { ...rest } as CrawlItem;
    }
  }
  const hash = createHash('sha256');
  for await (const item of dedupStage(classifyStage(items(), { scorer, threshold: topic.threshold ?? 0.2 }), { dedup })) {
    hash.update(`${item.relevance} ${item.simhash ?? '-'} ${item.duplicateOf ?? '-'}`);
    for (const o of item.outlinks ?? []) hash.update(` ${o.score}`);
    hash.update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

const cpuMs = (t0: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(t0);
  return (u.user + u.system) / 1000;
};
const times: number[] = [];
let digest = '';
for (let r = 0; r <= rounds; r++) {
  const t0 = process.cpuUsage();
  const d = await round();
  const ms = cpuMs(t0);
  if (r > 0) times.push(ms);
  if (digest !== '' && d !== digest) throw new Error(`round ${r}: digest ${d} differs from ${digest}`);
  digest = d;
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
process.stdout.write(
  `${values.strategy}, ${parsed.length} pages: classify + dedup ${((median * 1000) / parsed.length).toFixed(0)} µs per page ` +
    `(median of ${rounds}; min ${((times[0]! * 1000) / parsed.length).toFixed(0)}, max ${((times[times.length - 1]! * 1000) / parsed.length).toFixed(0)}); digest ${digest}\n`,
);
