// Parser CPU on documents nested past MAX_NESTING (issue 21, item 5): best of 5 after a warm-up round.
// node --import tsx bench/parser-nesting.ts
import { PageParser } from '../src/parse/page-parser.ts';
const body = Array.from({ length: 2000 }, (_, i) => `<p>text ${i} <a href=/l${i}>link ${i}</a></p>`).join('');
const docs = { shallow: body, fonts500: `${'<font size=2>'.repeat(500)}${body}`, fonts600: `${'<font size=2>'.repeat(600)}${body}`,
  deep100k: `<title>t</title>${'<div>'.repeat(100_000)}<a href=/below>below</a>${'</div>'.repeat(100_000)}` };
for (let round = 0; round < 2; round++) for (const [name, doc] of Object.entries(docs)) {
  let best = Infinity;
  for (let k = 0; k < 5; k++) {
    const t0 = process.cpuUsage();
    const p = new PageParser('http://a.test/');
    p.write(doc);
    p.end();
    const u = process.cpuUsage(t0);
    best = Math.min(best, (u.user + u.system) / 1000);
  }
  if (round === 1) console.log(name, `${doc.length} chars`, `best of 5: ${best.toFixed(1)} ms CPU`);
}
