/**
 * How much the TNEWS labels themselves overlap (issue 21 item 3: what
 * bounds the finance and tech page judge).
 *
 *   node --import tsx bench/label-overlap.ts [--pairs 5]
 *
 * 1. The 15-class confusion of 5-fold CV on all dev headlines: the
 *    judge's training features (pageGrams of the headline with its
 *    keywords as body), one LinearClassifier per class fitted as the v4
 *    judge's (class-balanced, λ by CV on the same 5 folds, Platt), each
 *    headline predicted as the class of its highest out-of-fold
 *    probability.
 * 2. Near-duplicate headlines: pairs whose character 2-gram sets have
 *    Jaccard ≥ 0.5, or with the same non-empty keyword set; counted by
 *    label pair among finance, tech and stock, and a few differently
 *    labelled pairs quoted.
 * 3. A ceiling: clusters of near-duplicates (connected components over all
 *    headlines) judged as one (each cluster called the target iff the
 *    target is its most frequent label): the P / R of the best judge that
 *    cannot tell near-duplicates apart, on the headlines.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pageGrams } from '../src/relevance/model.ts';
import { textPage } from '../src/relevance/train/from-texts.ts';
import { LinearClassifier, prepare } from '../src/relevance/learn/linear.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TNEWS = path.resolve(ROOT, '..', 'shared', 'corpora', 'tnews', 'tnews-dev.ndjson');
const { values } = parseArgs({ options: { pairs: { type: 'string', default: '5' }, 'no-cv': { type: 'boolean', default: false } } });
if (!existsSync(TNEWS)) {
  process.stderr.write(`label-overlap: ${TNEWS} is missing\n`);
  process.exit(2);
}
const cpu0 = process.cpuUsage();
type Row = { sentence: string; label_desc: string; keywords?: string };
const rows = readFileSync(TNEWS, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Row);
const short = (l: string): string => l.replace('news_', '');
const FOCUS = ['news_finance', 'news_tech', 'news_stock'];
const out = (s = ''): boolean => process.stdout.write(`${s}\n`);

// 1. 15-class confusion of 5-fold CV
if (!values['no-cv']) {
  const examples = rows.map((o) => ({ features: pageGrams(textPage(o.sentence, typeof o.keywords === 'string' ? o.keywords : '')), cls: o.label_desc }));
  const classes = [...new Set(examples.map((e) => e.cls))].sort();
  const prep = prepare(examples, { folds: 5 });
  const held = classes.map((c) => {
    const fit = LinearClassifier.fitPrepared(prep, examples.map((e) => (e.cls === c ? 1 : 0)), { folds: 5 });
    process.stderr.write(`label-overlap: ${c} λ ${fit.classifier.lambda}\n`);
    return fit.heldOut;
  });
  const predicted = examples.map((_, i) => {
    let best = 0;
    for (let c = 1; c < classes.length; c++) if (held[c][i] > held[best][i]) best = c;
    return classes[best];
  });
  const correct = predicted.filter((p, i) => p === examples[i].cls).length;
  out(`15-class 5-fold CV on ${rows.length} headlines: accuracy ${(correct / rows.length).toFixed(3)}`);
  out();
  out('| true label | headlines | predicted itself | predicted finance | predicted tech | predicted stock | predicted house | precision of the prediction |');
  out('|---|---|---|---|---|---|---|---|');
  for (const c of [...FOCUS, 'news_house', 'news_sports']) {
    const idx = examples.map((e, i) => (e.cls === c ? i : -1)).filter((i) => i >= 0);
    const share = (p: string): string => (idx.filter((i) => predicted[i] === p).length / idx.length).toFixed(2);
    const calledC = predicted.filter((p) => p === c).length;
    out(`| ${short(c)} | ${idx.length} | ${share(c)} | ${share('news_finance')} | ${share('news_tech')} | ${share('news_stock')} | ${share('news_house')} | ${(idx.filter((i) => predicted[i] === c).length / Math.max(1, calledC)).toFixed(2)} |`);
  }
  out();
}

// 2. near-duplicates
const bigrams = rows.map((o) => {
  const s = o.sentence.normalize('NFKC').toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');
  const set = new Set<string>();
  for (let i = 0; i + 1 < s.length; i++) set.add(s.slice(i, i + 2));
  return set;
});
const keyOf = rows.map((o) => (typeof o.keywords === 'string' && o.keywords.trim() !== '' ? o.keywords.split(',').map((k) => k.trim()).filter(Boolean).sort().join(',') : ''));
const jaccard = (a: Set<string>, b: Set<string>): number => {
  if (a.size === 0 || b.size === 0) return 0;
  const [s, l] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const x of s) if (l.has(x)) inter++;
  return inter / (a.size + b.size - inter);
};
const parent = rows.map((_, i) => i);
const find = (i: number): number => {
  while (parent[i] !== i) i = parent[i] = parent[parent[i]];
  return i;
};
const pairCounts = new Map<string, number>();
const conflicts: { i: number; j: number; jac: number; sameKeys: boolean }[] = [];
let pairs = 0;
/** each headline's nearest other headline by 2-gram Jaccard (a 1-NN view of the overlap) */
const nearest = rows.map(() => ({ j: -1, jac: -1 }));
/** pairs of finance, tech and stock sharing at least 2 keywords, by label pair */
const sharedKeys = new Map<string, number>();
const keyPairs: { i: number; j: number; shared: number }[] = [];
const keySets = keyOf.map((k) => new Set(k === '' ? [] : k.split(',')));
for (let i = 0; i < rows.length; i++) {
  for (let j = i + 1; j < rows.length; j++) {
    const jac = jaccard(bigrams[i], bigrams[j]);
    if (jac > nearest[i].jac) nearest[i] = { j, jac };
    if (jac > nearest[j].jac) nearest[j] = { j: i, jac };
    if (FOCUS.includes(rows[i].label_desc) && FOCUS.includes(rows[j].label_desc) && keySets[i].size > 0 && keySets[j].size > 0) {
      let shared = 0;
      for (const k of keySets[i]) if (keySets[j].has(k)) shared++;
      if (shared >= 2) {
        keyPairs.push({ i, j, shared });
        const key = [short(rows[i].label_desc), short(rows[j].label_desc)].sort().join(' – ');
        sharedKeys.set(key, (sharedKeys.get(key) ?? 0) + 1);
      }
    }
    const sameKeys = keyOf[i] !== '' && keyOf[i] === keyOf[j];
    if (jac < 0.5 && !sameKeys) continue;
    pairs++;
    parent[find(i)] = find(j);
    const a = rows[i].label_desc;
    const b = rows[j].label_desc;
    if (!FOCUS.includes(a) || !FOCUS.includes(b)) continue;
    const key = [short(a), short(b)].sort().join(' – ');
    pairCounts.set(key, (pairCounts.get(key) ?? 0) + 1);
    if (a !== b) conflicts.push({ i, j, jac, sameKeys });
  }
}
out(`Near-duplicate pairs (char 2-gram Jaccard ≥ 0.5 or the same non-empty keyword set) among all ${rows.length} headlines: ${pairs}; among finance, tech and stock, by label pair:`);
out();
out('| label pair | pairs |');
out('|---|---|');
for (const [k, n] of [...pairCounts].sort((a, b) => b[1] - a[1])) out(`| ${k} | ${n} |`);
out();
const inConflict = new Map<string, Set<number>>();
for (const { i, j } of conflicts) {
  for (const x of [i, j]) {
    const c = rows[x].label_desc;
    inConflict.set(c, (inConflict.get(c) ?? new Set()).add(x));
  }
}
for (const c of FOCUS) {
  const n = rows.filter((o) => o.label_desc === c).length;
  out(`- ${short(c)}: ${inConflict.get(c)?.size ?? 0} of ${n} headlines (${(((inConflict.get(c)?.size ?? 0) / n) * 100).toFixed(1)}%) have a near-duplicate labelled another of finance, tech, stock`);
}
out();
out('Pairs of finance, tech and stock headlines sharing at least 2 keywords, by label pair: ' + [...sharedKeys].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', '));
out();
for (const c of ['news_finance', 'news_tech']) {
  const other = c === 'news_finance' ? 'news_tech' : 'news_finance';
  const n = rows.filter((o) => o.label_desc === c).length;
  const withKeys = rows.filter((o, i) => o.label_desc === c && keySets[i].size > 0).length;
  const twin = (l: string): number => new Set(keyPairs.flatMap(({ i, j }) => [[i, j], [j, i]]).filter(([a, b]) => rows[a].label_desc === c && rows[b].label_desc === l).map(([a]) => a)).size;
  out(`- ${short(c)}: ${withKeys} of ${n} headlines have keywords; ${twin(other)} share at least 2 keywords with a ${short(other)} headline, ${twin(c)} with another ${short(c)} headline`);
}
out();
out('Finance and tech headlines sharing the most keywords:');
out();
for (const { i, j, shared } of keyPairs.filter(({ i, j }) => new Set([rows[i].label_desc, rows[j].label_desc]).size === 2 && [rows[i].label_desc, rows[j].label_desc].every((l) => l === 'news_finance' || l === 'news_tech')).sort((a, b) => b.shared - a.shared || jaccard(bigrams[b.i], bigrams[b.j]) - jaccard(bigrams[a.i], bigrams[a.j])).slice(0, Number(values.pairs))) {
  out(`- ${short(rows[i].label_desc)} 「${rows[i].sentence}」 (${keyOf[i]}) / ${short(rows[j].label_desc)} 「${rows[j].sentence}」 (${keyOf[j]}): ${shared} shared`);
}
out();
out('| label | headlines | its nearest headline (2-gram Jaccard) is labelled: finance | tech | stock | same label | median Jaccard to it |');
out('|---|---|---|---|---|---|---|');
for (const c of FOCUS) {
  const idx = rows.map((o, i) => (o.label_desc === c ? i : -1)).filter((i) => i >= 0);
  const share = (l: string): string => (idx.filter((i) => rows[nearest[i].j].label_desc === l).length / idx.length).toFixed(2);
  const jacs = idx.map((i) => nearest[i].jac).sort((a, b) => a - b);
  out(`| ${short(c)} | ${idx.length} | ${share('news_finance')} | ${share('news_tech')} | ${share('news_stock')} | ${share(c)} | ${jacs[Math.floor(jacs.length / 2)].toFixed(2)} |`);
}
out();
out('Differently labelled near-duplicates (highest Jaccard first):');
out();
for (const { i, j, jac, sameKeys } of conflicts.sort((a, b) => b.jac - a.jac).slice(0, Number(values.pairs))) {
  out(`- ${short(rows[i].label_desc)} 「${rows[i].sentence}」 / ${short(rows[j].label_desc)} 「${rows[j].sentence}」 (Jaccard ${jac.toFixed(2)}${sameKeys ? ', same keywords' : ''})`);
}
out();

// 3. the cluster ceiling
const clusters = new Map<number, number[]>();
rows.forEach((_, i) => clusters.set(find(i), [...(clusters.get(find(i)) ?? []), i]));
const multi = [...clusters.values()].filter((c) => c.length > 1);
out(`Near-duplicate clusters: ${multi.length} of more than one headline, holding ${multi.reduce((s, c) => s + c.length, 0)} headlines; largest ${Math.max(...multi.map((c) => c.length))}.`);
out();
out('| target | best P / R of a judge that cannot tell near-duplicates apart (headlines) |');
out('|---|---|');
for (const t of ['news_finance', 'news_sports', 'news_tech']) {
  let tp = 0, fp = 0, fn = 0;
  for (const members of clusters.values()) {
    const by = new Map<string, number>();
    for (const i of members) by.set(rows[i].label_desc, (by.get(rows[i].label_desc) ?? 0) + 1);
    const nt = by.get(t) ?? 0;
    const top = Math.max(...by.values());
    if (nt > 0 && nt === top) {
      tp += nt;
      fp += members.length - nt;
    } else fn += nt;
  }
  out(`| ${short(t)} | ${(tp / (tp + fp)).toFixed(3)} / ${(tp / (tp + fn)).toFixed(3)} |`);
}
const cpu = process.cpuUsage(cpu0);
process.stderr.write(`label-overlap: cpu ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s\n`);
