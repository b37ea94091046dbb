/**
 * Crawl speed with a linear model against a Naive Bayes model (issue 24:
 * no regression in crawl pages/s beyond 10%): two models of one WebKB
 * target trained on the same examples (WEBKB_TRAIN_FLAGS, every labelled
 * page), `--classifier nb` and `--classifier linear`, then the same crawl
 * (`focuscrawl crawl --strategy S --model M`, the three seeds, one replay
 * proxy in its own process) with each, alternating nb, linear, nb, ... so
 * that load from other work falls on both alike. Every crawl runs as a
 * child under GNU time: wall time, user + sys CPU seconds. Reported per
 * model: pages/s (page records per wall second) and CPU seconds per 1,000
 * HTML pages (page records whose content type is HTML), median (min–max)
 * of the runs after a warm-up pair; on a loaded machine the CPU figure is
 * the fairer one. Each run also crawls `--max-pages 1` with the same model
 * (Node start-up, tsx, loading the model, one page): the CPU per HTML page
 * without start-up is (CPU − that run's CPU) / (HTML pages − its HTML
 * pages). The model load alone (loadModel: read, JSON.parse, validate,
 * compile) is timed in this process, CPU median of 5 loads. The two crawls
 * need not fetch the same pages (the models order the frontier
 * differently).
 *
 *   node --import tsx bench/model-crawl-speed.ts [--target course] [--strategy nb-link]
 *        [--pages 1500] [--runs 3] [--concurrency 16] [--write]
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { statSync } from 'node:fs';
import { fitModel, loadModel, saveModel, type ClassifierKind } from '../src/relevance/model.ts';
import { readWarc } from '../src/relevance/train/from-warc.ts';
import { GNU_TIME, REPO, codeVersion, measure, spread, startReplay } from './lib/measure.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';
import { parseTrainFlags } from './lib/simulate.ts';
import { WEBKB_LABELS, WEBKB_SEEDS, WEBKB_TRAIN_FLAGS, WEBKB_WARC } from './lib/webkb.ts';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'course' },
    strategy: { type: 'string', default: 'nb-link' },
    pages: { type: 'string', default: '1500' },
    runs: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    write: { type: 'boolean', default: false },
  },
});
const fail = (message: string): never => {
  process.stderr.write(`model-crawl-speed: ${message}\n`);
  process.exit(2);
};
const int = (name: 'pages' | 'runs' | 'concurrency'): number => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive integer, got ${values[name]}`);
  return n;
};
const pages = int('pages');
const runs = int('runs');
const concurrency = int('concurrency');
if (!existsSync(WEBKB_WARC) || !existsSync(WEBKB_LABELS)) fail(`${WEBKB_WARC} or its labels are missing`);
if (!existsSync(GNU_TIME)) fail(`${GNU_TIME} (GNU time) is needed`);

const target = values.target!;
const flags = parseTrainFlags(WEBKB_TRAIN_FLAGS);
const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-model-speed-'));
const loadBefore = os.loadavg()[0];
const code = codeVersion();
const kinds: ClassifierKind[] = ['nb', 'linear'];
const modelFile = (c: ClassifierKind): string => path.join(tmp, `${target}-${c}.json`);
process.stderr.write(`model-crawl-speed: training ${target} models...\n`);
const data = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, hubLinks: flags.hubLinks });
for (const c of kinds) {
  const { json } = fitModel(data, { target, group: flags.group, balancedLinks: flags.balancedLinks, classifier: c });
  await saveModel(modelFile(c), json);
}
// the model load alone, in this process: CPU ms of loadModel, median of 5 (after one unmeasured load)
const load = new Map<ClassifierKind, { ms: number; bytes: number }>();
for (const c of kinds) {
  await loadModel(modelFile(c));
  const ms: number[] = [];
  for (let k = 0; k < 5; k++) {
    const before = process.cpuUsage();
    await loadModel(modelFile(c));
    const used = process.cpuUsage(before);
    ms.push((used.user + used.system) / 1000);
  }
  load.set(c, { ms: spread(ms).median, bytes: statSync(modelFile(c)).size });
}
const replay = await startReplay(WEBKB_WARC);
const results = new Map<ClassifierKind, { pps: number[]; cpuPerK: number[]; cpuPerKNet: number[]; startCpu: number[]; html: number[]; relevant: number[] }>(
  kinds.map((c) => [c, { pps: [], cpuPerK: [], cpuPerKNet: [], startCpu: [], html: [], relevant: [] }]),
);
/** One crawl with model c of at most maxPages page records: its timing and its page, HTML and relevant records. */
const crawl = async (c: ClassifierKind, maxPages: number, tag: string): Promise<{ wall: number; cpu: number; records: number; html: number; relevant: number }> => {
  const argv = [
    process.execPath, path.join(REPO, 'bin/focuscrawl'), 'crawl', ...WEBKB_SEEDS.flatMap((s) => ['--seed', s]),
    '--strategy', values.strategy!, '--model', modelFile(c), '--proxy', replay.url,
    '--store', path.join(tmp, `store-${c}-${tag}`), '--fresh', '--max-pages', String(maxPages),
    '--concurrency', String(concurrency), '--per-host', String(concurrency), '--quiet',
  ];
  const m = await measure(argv, path.join(tmp, 'time.txt'), `${c} ${tag}`, { timeoutMs: 300_000 });
  let records = 0;
  let html = 0;
  let relevant = 0;
  for (const line of m.stdout.split('\n')) {
    if (line === '') continue;
    const r = JSON.parse(line) as { type: string; contentType?: string | null; relevant?: boolean };
    if (r.type !== 'page') continue;
    records++;
    if (/html/i.test(r.contentType ?? '')) html++;
    if (r.relevant === true) relevant++;
  }
  return { wall: m.wall, cpu: m.cpu, records, html, relevant };
};
try {
  for (let i = 0; i <= runs; i++) {
    for (const c of i % 2 === 0 ? kinds : [...kinds].reverse()) {
      const tag = i === 0 ? 'warm-up' : `run ${i}`;
      const one = await crawl(c, 1, `${i}-start`);
      const m = await crawl(c, pages, String(i));
      const { records, html, relevant } = m;
      process.stderr.write(`  ${c} ${tag}: ${records} pages (${html} HTML, ${relevant} relevant) in ${m.wall.toFixed(2)} s, cpu ${m.cpu.toFixed(2)} s; --max-pages 1: cpu ${one.cpu.toFixed(2)} s (${one.html} HTML)\n`);
      if (i === 0) continue;
      const r = results.get(c)!;
      r.pps.push(records / m.wall);
      r.cpuPerK.push((m.cpu / Math.max(html, 1)) * 1000);
      r.cpuPerKNet.push(((m.cpu - one.cpu) / Math.max(html - one.html, 1)) * 1000);
      r.startCpu.push(one.cpu);
      r.html.push(html);
      r.relevant.push(relevant);
    }
  }
} finally {
  await replay.stop();
  await rm(tmp, { recursive: true, force: true });
}
const cell = (xs: number[], digits: number): string => {
  const s = spread(xs);
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
};
const nb = results.get('nb')!;
const lin = results.get('linear')!;
const ratio = (a: number[], b: number[]): string => (spread(a).median / spread(b).median).toFixed(2);
const command = `node --import tsx bench/model-crawl-speed.ts ${process.argv.slice(2).join(' ')}`.trim();
const section = [
  '## Crawl speed with a linear model against Naive Bayes (issue 24)',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus()[0]?.model} (${os.cpus().length} cores, shared: 1-minute load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after), Node ${process.version}, ${code}. ` +
    `Command: \`${command}\`. Models of ${target} trained on every labelled WebKB page (\`${WEBKB_TRAIN_FLAGS}\`, \`--classifier nb\` and \`--classifier linear\`); each crawl \`--strategy ${values.strategy} --max-pages ${pages} --concurrency ${concurrency}\` from the three seeds through one replay proxy, the models alternating, median (min–max) of ${runs} runs each after a warm-up pair. CPU: the crawler process's user + sys (GNU time), per 1,000 HTML page records (about a quarter of the page records; the rest are 404s of pages the archive lacks), with everything ("all") and without start-up ("net": less the CPU of a \`--max-pages 1\` crawl with the same model in the same run, which pays Node start-up, tsx and the model load); model load: \`loadModel\` alone in the bench process (read, JSON.parse, validate, compile), CPU median of 5. The two crawls fetch different pages, so pages/s also reflects which hosts each frontier waits on.`,
  '',
  '| model | file | model load CPU | pages/s | CPU s per 1,000 HTML pages, all | start-up CPU s (\`--max-pages 1\`) | CPU s per 1,000 HTML pages, net | HTML pages | relevant |',
  '|---|---|---|---|---|---|---|---|---|',
  ...kinds.map((c) => {
    const r = results.get(c)!;
    const l = load.get(c)!;
    return `| ${c} | ${(l.bytes / 2 ** 20).toFixed(1)} MiB | ${l.ms.toFixed(0)} ms | ${cell(r.pps, 1)} | ${cell(r.cpuPerK, 2)} | ${cell(r.startCpu, 2)} | ${cell(r.cpuPerKNet, 2)} | ${cell(r.html, 0)} | ${cell(r.relevant, 0)} |`;
  }),
  `| linear ÷ nb (medians) | ${(load.get('linear')!.bytes / load.get('nb')!.bytes).toFixed(1)} | ${(load.get('linear')!.ms / load.get('nb')!.ms).toFixed(1)} | ${ratio(lin.pps, nb.pps)} | ${ratio(lin.cpuPerK, nb.cpuPerK)} | ${ratio(lin.startCpu, nb.startCpu)} | ${ratio(lin.cpuPerKNet, nb.cpuPerKNet)} | | |`,
].join('\n');
process.stdout.write(`${section}\n`);
if (values.write) await writeSection(resultsDoc('model-crawl-speed'), 'model-crawl-speed', section, '# Crawl speed by model');
