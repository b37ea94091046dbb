/**
 * Parse stage speed against htmlparser2's own (issue 23 item 1: the parse
 * stage within 3× of htmlparser2 on the same pages).
 *
 *   node --max-semi-space-size=1 --no-allocation-site-pretenuring --import tsx \
 *     bench/parse-speed.ts [--pages 3000] [--rounds 5] [--write]
 *
 * (the V8 flags of bin/focuscrawl's first line, so the heap behaves as in a
 * crawl; the command printed with the table names the flags used).
 *
 * Pages: `--pages` HTML pages of the synthetic web (fixtures/synthetic-web.ts,
 * the bench webs' 1:1000000:10000), ids drawn with a fixed seed, as UTF-8
 * bytes (the parse stage's input). Contenders, one thread, each round
 * parsing every page once:
 *  - htmlparser2: `Buffer.toString('utf8')` and a `Parser` with the parse
 *    stage's options and no callbacks (the tokenizer and its tag stack);
 *  - htmlparser2 + callbacks: the same with empty onopentag/onclosetag/ontext
 *    (what attributes and text events cost before any work on them);
 *  - parse stage: `parseStage` (src/stages/parse.ts) over items holding the
 *    bodies: sniffing, decoding, PageParser, the ParsedPage.
 * MB/s = body bytes per CPU second (process.cpuUsage, user + sys) of the
 * median round after a warm-up round; ratio = htmlparser2 MB/s / parse stage MB/s.
 * `--write` puts the table into section `parse-speed` of
 * docs/results/cpu-per-page.md (linked from BENCHMARKS.md).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Parser } from 'htmlparser2';
import { SyntheticWeb } from '../fixtures/synthetic-web.ts';
import { parseStage } from '../src/stages/parse.ts';
import type { CrawlItem } from '../src/types.ts';
import { codeVersion, fmt, machine } from './lib/measure.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';
import { SYNTH_SPEC } from './lib/synthetic.ts';

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '5' }, write: { type: 'boolean', default: false } },
  strict: true,
});
const nPages = Number(values.pages);
const rounds = Number(values.rounds);
if (!Number.isInteger(nPages) || nPages < 1 || !Number.isInteger(rounds) || rounds < 1) throw new Error('--pages and --rounds must be positive integers');

const web = new SyntheticWeb(SYNTH_SPEC);
let seed = 12345;
const rand = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const pages: { url: string; body: Buffer }[] = [];
while (pages.length < nPages) {
  const id = Math.floor(rand() * 1_000_000);
  const url = web.urlOf(id);
  const u = new URL(url);
  const r = web.page(u.host, u.pathname);
  if (r.status === 200) pages.push({ url, body: Buffer.from(r.html, 'utf8') });
}
const bytes = pages.reduce((s, p) => s + p.body.length, 0);
const PARSER_OPTS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false };

let sink = 0;
const contenders: Record<string, () => Promise<void> | void> = {
  htmlparser2: () => {
    for (const p of pages) {
      const parser = new Parser({}, PARSER_OPTS);
      parser.end(p.body.toString('utf8'));
    }
  },
  'htmlparser2 + callbacks': () => {
    for (const p of pages) {
      const parser = new Parser({
        onopentag: (name, attribs) => { sink += name.length + (attribs.href === undefined ? 0 : 1); },
        onclosetag: (name) => { sink += name.length; },
        ontext: (text) => { sink += text.length; },
      }, PARSER_OPTS);
      parser.end(p.body.toString('utf8'));
    }
  },
  'parse stage': async () => {
    async function* items(): AsyncGenerator<CrawlItem> {
      for (const p of pages) {
        yield { url: p.url, depth: 0, fetch: { finalUrl: p.url, status: 200, headerCharset: 'utf-8', body: p.body } } as unknown as CrawlItem;
      }
    }
    for await (const item of parseStage(items(), { keepBody: true })) sink += item.page!.links.length;
  },
};

const cpuMs = (t0: NodeJS.CpuUsage): number => { const u = process.cpuUsage(t0); return (u.user + u.system) / 1000; };
const results = new Map<string, number[]>();
for (let r = 0; r <= rounds; r++) {
  for (const [name, run] of Object.entries(contenders)) {
    const t0 = process.cpuUsage();
    await run();
    const ms = cpuMs(t0);
    if (r > 0) results.set(name, [...(results.get(name) ?? []), ms]);
  }
}
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const mbps = (ms: number): number => bytes / 1e6 / (ms / 1000);
const raw = mbps(median(results.get('htmlparser2')!));
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; code ${codeVersion()}. Command: ` +
    `\`${['node', ...process.execArgv.filter((a) => a.startsWith('--') && a !== '--import' && !a.startsWith('--import=')), '--import tsx bench/parse-speed.ts', ...process.argv.slice(2)].join(' ')}\`.` +
    ` 1-minute load average ${fmt(os.loadavg()[0], 1)}${os.loadavg()[0] > 2 ? ' (loaded: CPU times inflated)' : ''}.`,
  '',
  `${fmt(pages.length)} synthetic-web pages, ${fmt(bytes / pages.length / 1024, 1)} KB each on average (${fmt(bytes / 1e6, 1)} MB); median of ${rounds} rounds after a warm-up round, CPU time.`,
  '',
  '| contender | CPU ms per round | µs per page | MB/s | htmlparser2 MB/s ÷ this |',
  '|---|---|---|---|---|',
  ...[...results].map(([name, xs]) => {
    const m = median(xs);
    return `| ${name} | ${fmt(m, 0)} (${fmt(Math.min(...xs), 0)}–${fmt(Math.max(...xs), 0)}) | ${fmt((m * 1000) / pages.length, 0)} | ${fmt(mbps(m), 1)} | ${fmt(raw / mbps(m), 2)}× |`;
  }),
].join('\n');
process.stdout.write(`${table}\n`);
if (values.write) await writeSection(resultsDoc('cpu-per-page'), 'parse-speed', table);
if (sink === -1) process.stdout.write('\n');
