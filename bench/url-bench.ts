/**
 * Cost of `canonicalize` per URL: the crawl canonicalises every link of
 * every page (about 20 a page on the synthetic web), so a microsecond here
 * is about 1% of a 50,000-page crawl's main thread.
 *
 *   node --import tsx bench/url-bench.ts [--runs 5]
 *
 * Three URL sets of 20,000 each: plain absolute links (the synthetic web's
 * shape), relative links resolved against a page URL, and links with a
 * fragment, `index.html` and a session id (every rewrite taken). Each run
 * canonicalises each set 10 times after a warm-up pass; the figure is the
 * median over runs of µs per URL, with the min–max.
 */
import { parseArgs } from 'node:util';
import os from 'node:os';
import { canonicalize } from '../src/urls/canonical.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write('url-bench: --runs must be a positive integer\n');
  process.exit(2);
}

const N = 20_000;
const sets: Record<string, Array<[string, string | undefined]>> = {
  'absolute links': Array.from({ length: N }, (_, i) => [`http://h${i % 997}.synth/p${i * 7}/article-${i}.html`, undefined]),
  'relative links': Array.from({ length: N }, (_, i) => [`../s${i % 50}/page${i}.html?x=${i}`, `http://h${i % 499}.test/a/b/c.html`]),
  'fragment, index.html, session id': Array.from({ length: N }, (_, i) => [`HTTP://H${i % 97}.Test:80/d${i}/index.html;jsessionid=ABCDEF0123456789AB${i}?q=%7e${i}#top`, undefined]),
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const cpu = os.cpus();
console.log(`${new Date().toISOString().slice(0, 10)}, ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, Node ${process.version}; runs ${runs}`);
console.log('| URLs | µs per URL, median (min–max) |');
console.log('|---|---|');
for (const [name, urls] of Object.entries(sets)) {
  const per: number[] = [];
  for (let r = 0; r < runs; r++) {
    for (const [u, b] of urls) canonicalize(u, b);
    const t = process.hrtime.bigint();
    for (let k = 0; k < 10; k++) for (const [u, b] of urls) canonicalize(u, b);
    per.push(Number(process.hrtime.bigint() - t) / 1e3 / (10 * urls.length));
  }
  console.log(`| ${name} | ${median(per).toFixed(2)} (${Math.min(...per).toFixed(2)}–${Math.max(...per).toFixed(2)}) |`);
}
