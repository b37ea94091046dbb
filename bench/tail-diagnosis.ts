/**
 * Where a crawl loses the tail (issue 22 item 3): for one crawl of a labelled
 * web (a `compare` run's NDJSON), the targets fetched after the crawl had 80%
 * of them, with their in-links on the archive's link graph: which kind of
 * page links to them (by label), whether those parents were fetched before
 * the target, how long after, and whether the crawl judged them relevant.
 *
 *   node --import tsx bench/tail-diagnosis.ts --warc W.warc.gz --labels L.tsv --run R.ndjson [--target news_finance] [--from 0.8]
 *
 * Pages are counted as status-200 pages in output order (as `eval --status 200`).
 * Prints a summary to stdout (data), nothing else.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readLinkGraph } from '../src/tools/eval/oracle.ts';
import { canonicalize } from '../src/urls/canonical.ts';

const { values } = parseArgs({
  options: {
    warc: { type: 'string' },
    labels: { type: 'string' },
    run: { type: 'string' },
    target: { type: 'string', default: 'news_finance' },
    from: { type: 'string', default: '0.8' },
  },
});
if (!values.warc || !values.labels || !values.run) {
  process.stderr.write('tail-diagnosis: --warc, --labels and --run are required\n');
  process.exit(2);
}
const target = values.target!;
const from = Number(values.from);
const label = new Map<string, string>();
for (const line of readFileSync(values.labels, 'utf8').split('\n').slice(1)) {
  const [u, l] = line.split('\t');
  if (u && l) label.set(canonicalize(u) ?? u, l);
}
const graph = await readLinkGraph([values.warc]);
const into: number[][] = graph.urls.map(() => []);
graph.out.forEach((outs, v) => { for (const w of outs) into[w]!.push(v); });

interface Rec { url: string; status: number; score?: number; relevance?: number; relevant?: boolean; parent?: string | null }
const order = new Map<string, number>(); // canonical URL → page number (1-based, status 200)
const rec = new Map<string, Rec>();
let n = 0;
for (const line of readFileSync(values.run, 'utf8').split('\n')) {
  if (!line.startsWith('{')) continue;
  const r = JSON.parse(line) as Rec & { type?: string };
  if (r.type !== 'page' || r.status !== 200) continue;
  const key = canonicalize(r.url) ?? r.url;
  if (order.has(key)) continue;
  order.set(key, ++n);
  rec.set(key, r);
}
const isTarget = (u: string): boolean => label.get(u) === target;
const targets = [...label.keys()].filter(isTarget);
const fetchedTargets = targets.filter((u) => order.has(u)).sort((a, b) => order.get(a)! - order.get(b)!);
const cut = Math.ceil(from * targets.length);
const late = fetchedTargets.slice(cut - 1 + 1);
const early = fetchedTargets.slice(0, cut);
const kind = (u: string): string => {
  const l = label.get(u) ?? '?';
  if (l === target) return 'target article';
  if (l === `hub:${target}`) return 'target hub';
  if (l.startsWith('hub:')) return 'other hub';
  if (l.startsWith('forum:')) return 'forum';
  if (l === 'home') return 'home';
  return 'other article';
};
const host = (u: string): string => new URL(u).host;
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!; };
const describe = (group: string[], name: string): void => {
  const parentsBy = new Map<string, { n: number; fetchedBefore: number; relevant: number }>();
  const waits: number[] = [];
  const firstRelevantWaits: number[] = [];
  const scores: number[] = [];
  let withRelevantParent = 0;
  const hostsOf = new Map<string, number>();
  for (const u of group) {
    const at = order.get(u)!;
    const r = rec.get(u)!;
    if (typeof r.score === 'number') scores.push(r.score);
    hostsOf.set(host(u), (hostsOf.get(host(u)) ?? 0) + 1);
    const ps = into[graph.ids.get(u)!]!.map((v) => graph.urls[v]!).filter((p) => p !== u);
    let firstSeen = Infinity;
    let firstRel = Infinity;
    for (const p of ps) {
      const k = kind(p);
      const e = parentsBy.get(k) ?? { n: 0, fetchedBefore: 0, relevant: 0 };
      e.n++;
      const pAt = order.get(p);
      if (pAt !== undefined && pAt < at) {
        e.fetchedBefore++;
        firstSeen = Math.min(firstSeen, pAt);
        if (rec.get(p)!.relevant === true) { e.relevant++; firstRel = Math.min(firstRel, pAt); }
      }
      parentsBy.set(k, e);
    }
    if (firstSeen < Infinity) waits.push(at - firstSeen);
    if (firstRel < Infinity) { withRelevantParent++; firstRelevantWaits.push(at - firstRel); }
  }
  process.stdout.write(`\n## ${name}: ${group.length} targets (pages ${order.get(group[0]!)}–${order.get(group.at(-1)!)})\n`);
  process.stdout.write(`hosts: ${[...hostsOf].map(([h, c]) => `${h} ${c}`).join(', ')}\n`);
  process.stdout.write(`score at fetch: median ${median(scores).toFixed(3)}; judged relevant: ${group.filter((u) => rec.get(u)!.relevant).length}\n`);
  process.stdout.write(`in-links per target: ${([...parentsBy.values()].reduce((a, e) => a + e.n, 0) / group.length).toFixed(1)}\n`);
  for (const [k, e] of [...parentsBy].sort((a, b) => b[1].n - a[1].n)) {
    process.stdout.write(`  from ${k}: ${e.n} links, parent fetched before the target ${e.fetchedBefore}, of those judged relevant ${e.relevant}\n`);
  }
  process.stdout.write(`targets with a relevant parent fetched before: ${withRelevantParent}; pages from first known parent to fetch: median ${median(waits)}; from first relevant parent: median ${median(firstRelevantWaits)}\n`);
};
process.stdout.write(`${values.run}: ${n} pages, ${targets.length} targets, ${fetchedTargets.length} fetched; ${Math.round(from * 100)}% reached at page ${order.get(fetchedTargets[cut - 1]!)}\n`);
describe(early, `first ${Math.round(from * 100)}%`);
describe(late, `after ${Math.round(from * 100)}%`);
// the directories and hosts of the late targets: how relevant the fetched pages there were before them
const dirOf = (u: string): string => u.slice(0, u.lastIndexOf('/') + 1);
for (const [unit, keyOf] of [['host', host], ['directory', dirOf]] as const) {
  const rates: number[] = [];
  const counts: number[] = [];
  for (const u of late) {
    const at = order.get(u)!;
    let f = 0;
    let rel = 0;
    for (const [v, i] of order) if (i < at && keyOf(v) === keyOf(u)) { f++; if (rec.get(v)!.relevant) rel++; }
    counts.push(f);
    if (f > 0) rates.push(rel / f);
  }
  process.stdout.write(`late targets' ${unit}: fetched pages there before them median ${median(counts)}, judged-relevant rate median ${median(rates).toFixed(2)} (${rates.length} with any)\n`);
}
