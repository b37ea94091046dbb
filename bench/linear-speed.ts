/**
 * Speed of the linear model's scoring (issue 24: ≥ 100,000 links/s on one
 * core): a `train --texts --classifier linear` model of news_finance on
 * the even lines of TNEWS dev scores the link contexts and judges the
 * pages of a web generated (gen-web, seed 1) from the odd lines, as the
 * crawler calls it (Model.linkProbability with the page's URL and title,
 * Model.pageProbability of a parsed page). Also times the string path
 * (LinearClassifier.probability(linkGrams(...))) the fast path replaced.
 * Each pass is timed --runs times; prints the median (min–max).
 *
 *   node --import tsx bench/linear-speed.ts [--runs 3] [--group 2] [--write]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generatePortalWeb } from '../src/tools/genweb/portal.ts';
import { parseBody } from '../src/parse/body.ts';
import { normaliseCharset } from '../src/parse/charset.ts';
import { fitModel, linkGrams, type Model } from '../src/relevance/model.ts';
import { LinearClassifier } from '../src/relevance/learn/linear.ts';
import { isFeatureGroup } from '../src/relevance/learn/features.ts';
import { readTexts } from '../src/relevance/train/from-texts.ts';
import type { ParsedPage } from '../src/types.ts';
import { writeSection } from './lib/sections.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TNEWS = path.resolve(ROOT, '..', 'shared', 'corpora', 'tnews', 'tnews-dev.ndjson');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, group: { type: 'string', default: '2' }, write: { type: 'boolean', default: false } } });
if (!existsSync(TNEWS)) {
  process.stderr.write(`linear-speed: ${TNEWS} is missing (../shared/corpora beside the repo)\n`);
  process.exit(2);
}
const runs = Number(values.runs);
const group = Number(values.group);
if (!isFeatureGroup(group)) throw new Error(`--group must be 1-4, got ${values.group}`);

const lines = readFileSync(TNEWS, 'utf8').split('\n').filter((l) => l.trim() !== '');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'linear-speed-'));
const trainFile = path.join(tmp, 'train.ndjson');
await writeFile(trainFile, `${lines.filter((_, i) => i % 2 === 0).join('\n')}\n`);
const data = await readTexts({ files: [trainFile], textField: 'sentence', labelField: 'label_desc', contextField: 'keywords', target: 'news_finance' });
await rm(tmp, { recursive: true, force: true });
const model: Model = fitModel(data, { target: 'news_finance', classifier: 'linear', group }).model;
const linkClf = LinearClassifier.fromJSON(model.json.linear!.link);

const web = generatePortalWeb(
  lines.filter((_, i) => i % 2 === 1).map((l) => {
    const o = JSON.parse(l) as { sentence: string; label_desc: string; keywords?: string };
    return { sentence: o.sentence, label: o.label_desc, keywords: o.keywords };
  }),
  { seed: 1 },
);
const pages: ParsedPage[] = [];
for (const rec of web.records) {
  if (rec.status !== 200 || rec.url.endsWith('/robots.txt')) continue;
  const ct = rec.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  pages.push(parseBody(rec.body, rec.url, normaliseCharset(/charset=([^;\s]+)/i.exec(ct)?.[1])));
}
const links = pages.flatMap((p) => p.links.map((l) => ({ l, p })));

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Per pass: items per wall-clock second and per CPU second of this process (the machine is shared: CPU time leaves out waiting for a core). */
function time(label: string, n: number, pass: () => number): { label: string; rates: number[]; cpuRates: number[] } {
  pass(); // warm-up
  const rates: number[] = [];
  const cpuRates: number[] = [];
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const sink = pass();
    const s = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    if (!Number.isFinite(sink)) throw new Error('non-finite score');
    rates.push(n / s);
    cpuRates.push(n / ((c.user + c.system) / 1e6));
  }
  process.stderr.write(`linear-speed: ${label}: wall ${rates.map((x) => Math.round(x)).join(', ')} /s; CPU ${cpuRates.map((x) => Math.round(x)).join(', ')} /s\n`);
  return { label, rates, cpuRates };
}
const results = [
  time('links/s, Model.linkProbability (hashed fast path)', links.length, () => {
    let s = 0;
    for (const { l, p } of links) s += model.linkProbability(l.anchor, l.context, l.url, { url: p.base, title: p.title, relevant: false });
    return s;
  }),
  time('links/s, probability(linkGrams(...)) (string path, before)', links.length, () => {
    let s = 0;
    for (const { l, p } of links) s += linkClf.probability(linkGrams(l.anchor, l.context, { group, url: l.url, parentUrl: p.base, parentTitle: p.title, parentRelevant: false }));
    return s;
  }),
  time('pages/s, Model.pageProbability', pages.length, () => {
    let s = 0;
    for (const p of pages) s += model.pageProbability(p);
    return s;
  }),
];
const fmt = (xs: number[]): string => `${Math.round(median(xs)).toLocaleString('en-US')} (${Math.round(Math.min(...xs)).toLocaleString('en-US')}–${Math.round(Math.max(...xs)).toLocaleString('en-US')})`;
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
const section = [
  '## Linear model scoring speed (issue 24)',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores, shared with other jobs: load average ${os.loadavg()[0].toFixed(1)} at the end), ` +
    `Node ${process.version}, commit ${commit}. Command: \`node --import tsx bench/linear-speed.ts ${process.argv.slice(2).join(' ')}\`. ` +
    `Model: news_finance, \`--classifier linear\`, link feature group ${group}, trained on the even lines of TNEWS dev (link vocabulary ${linkClf.size} features); ` +
    `inputs: the ${links.length} links and ${pages.length} HTML pages of gen-web seed 1 of the odd lines. One thread; median of ${runs} passes (min–max) after a warm-up pass, per wall-clock second and per CPU second (user + system) of the process, which on a shared machine leaves out the time spent waiting for a core.`,
  '',
  '| what | per wall-clock second | per CPU second of the process |',
  '|---|---|---|',
  ...results.map((r) => `| ${r.label} | ${fmt(r.rates)} | ${fmt(r.cpuRates)} |`),
].join('\n');
process.stdout.write(`${section}\n`);
if (values.write) await writeSection(path.join(ROOT, 'BENCHMARKS.md'), 'linear-speed', section, '# Benchmarks');
