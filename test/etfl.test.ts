import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { TopicError } from '../src/errors.ts';
import { IMPACT_PRESETS, blockWeights, estimateKeyTags, keyTagImpact, scoreBlocks, ETFL_BLOCKS } from '../src/relevance/etfl/blocks.ts';
import { runExpandTopic } from '../src/commands/expand-topic.ts';
import { TermMiner } from '../src/relevance/etfl/miner.ts';
import { FeatureLibrary, libraryFromTopic, loadTopicLibrary, loadTopicLibrarySync, parseSynonyms, parseTopicLibrary, type EtflLibrary } from '../src/relevance/etfl/library.ts';
import { createEtflScorer } from '../src/relevance/scorers/etfl.ts';
import type { ScorerContext } from '../src/relevance/scorers/context.ts';
import { TopicModel, parseTopic } from '../src/relevance/topic.ts';
import type { CrawlItem, PageLink, ParsedPage } from '../src/types.ts';
import { makePage } from './helpers/pages.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURES = path.join(ROOT, 'fixtures');

const page = makePage;

function link(anchor: string, context = ''): PageLink {
  return { url: 'http://127.0.0.1/x', anchor, context, tag: 'a', nofollow: false, block: 'content' };
}

const NAV = 'Home News Sport Weather Contact About us';
const FILLER =
  'The report describes the installation, the costs over ten years and the maintenance plan agreed with the city council. ' +
  'Residents were invited to a meeting in the town hall where engineers answered questions about safety and noise.';

function library(json: unknown): EtflLibrary {
  return parseTopicLibrary(json, '/virtual/topic.json', () => {
    throw new Error('no file expected');
  });
}

async function tmpdir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'etfl-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.text += chunk.toString('utf8');
    cb();
  }
}

// ---- library and concept substitution ---------------------------------------

test('concept substitution: a page in synonyms scores like one using the concept', () => {
  const lib = new FeatureLibrary(
    library({
      name: 'solar',
      terms: ['solar energy', '太阳能'],
      synonyms: { 'solar energy': ['photovoltaics', 'sun power'], 太阳能: ['光伏'] },
    }),
  );
  assert.equal(lib.substitute('Sun Power and PHOTOVOLTAICS'), ' solar energy  and  solar energy ');
  const concept = page('Rooftop solar energy for homes', { content: `Solar energy on the roof. ${FILLER}`, navigation: NAV });
  const synonyms = page('Rooftop photovoltaics for homes', { content: `Sun power on the roof. ${FILLER}`, navigation: NAV });
  const zhConcept = page('家庭太阳能', { content: '屋顶太阳能发电越来越普及，居民可以节省电费。' });
  const zhSynonym = page('家庭光伏', { content: '屋顶光伏发电越来越普及，居民可以节省电费。' });
  for (const p of [concept, synonyms, zhConcept, zhSynonym]) lib.docFreq.addDocument(scoreBlocks(p, lib).tf.keys());
  const a = scoreBlocks(concept, lib).relevance;
  assert.ok(a > 0.2, `concept page R = ${a}`);
  assert.equal(scoreBlocks(synonyms, lib).relevance, a);
  assert.equal(scoreBlocks(zhSynonym, lib).relevance, scoreBlocks(zhConcept, lib).relevance);
  assert.ok(scoreBlocks(zhSynonym, lib).relevance > 0.2);

  // without the synonyms the same page does not match at all
  const plain = new FeatureLibrary(libraryFromTopic(parseTopic({ name: 'solar', terms: ['solar energy', '太阳能'] }, 'test')));
  assert.equal(scoreBlocks(synonyms, plain).relevance, 0);
});

test('concept substitution respects Latin word boundaries, not Han ones; longest synonym first; one pass', () => {
  const lib = new FeatureLibrary(
    library({ name: 'x', terms: ['solar'], synonyms: { solar: ['pv', 'pv panel'], 'solar panel': ['pv module'], 太阳能: ['光伏'], chain: ['solar'] } }),
  );
  assert.equal(lib.substitute('pvc pipes'), 'pvc pipes');
  assert.equal(lib.substitute('a pv panel.'), 'a  solar .');
  assert.equal(lib.substitute('pv module'), ' solar panel ');
  assert.equal(lib.substitute('光伏组件'), ' 太阳能 组件');
  // "solar" is a synonym of "chain": replaced once, the result is not substituted again
  assert.equal(lib.substitute('pv'), ' solar ');
  assert.equal(lib.substitute('solar'), ' chain ');
  // static terms go through the same substitution, so the page still matches the term "solar"
  const p = page('solar news', { content: 'solar' });
  assert.ok(scoreBlocks(p, lib).relevance > 0);
});

test('library loading: plain terms, kinds, inline and file synonyms, mined', async (t) => {
  const dir = await tmpdir(t);
  await writeFile(path.join(dir, 'syn.txt'), '# concept<TAB>synonyms\n\n太阳能\t光伏，光伏发电、solar pv\nsolar energy\tphotovoltaics, sun power\n');
  const topic = {
    name: 'solar',
    terms: ['solar energy', 'inverter'],
    threshold: 0.3,
    kinds: { actors: ['IEA', 'inverter'], cues: ['subsidy'] },
    synonyms: 'syn.txt',
    mined: ['rooftop', { term: 'grid', w: 0.5, from: 'solar energy' }, 'rooftop'],
  };
  await writeFile(path.join(dir, 'topic.json'), JSON.stringify(topic));
  const lib = await loadTopicLibrary(path.join(dir, 'topic.json'));
  assert.deepEqual(loadTopicLibrarySync(path.join(dir, 'topic.json')), lib);
  assert.equal(lib.threshold, 0.3);
  assert.deepEqual(lib.staticTerms, [
    { term: 'solar energy', kind: null },
    { term: 'inverter', kind: 'actors' },
    { term: 'IEA', kind: 'actors' },
    { term: 'subsidy', kind: 'cues' },
  ]);
  assert.deepEqual(lib.synonyms.get('太阳能'), ['光伏', '光伏发电', 'solar pv']);
  assert.deepEqual(lib.synonyms.get('solar energy'), ['photovoltaics', 'sun power']);
  assert.deepEqual(lib.mined, ['rooftop', 'grid']);

  // typed terms alone are enough
  assert.deepEqual(library({ name: 'x', kinds: { domain: ['tax'] } }).staticTerms, [{ term: 'tax', kind: 'domain' }]);
  // inline synonyms
  assert.deepEqual([...library({ name: 'x', terms: ['a1'], synonyms: { a1: ['b1', 'a1', 'b1'] } }).synonyms], [['a1', ['b1']]]);
});

test('library loading: bad input is FC_BAD_TOPIC', async (t) => {
  const dir = await tmpdir(t);
  const isBad = (re: RegExp) => (e: unknown) => e instanceof TopicError && e.code === 'FC_BAD_TOPIC' && re.test(e.message);
  await writeFile(path.join(dir, 'bad.txt'), 'ok\tfine\nno tab on this line\n');
  await writeFile(path.join(dir, 'topic.json'), JSON.stringify({ name: 's', terms: ['a1'], synonyms: 'bad.txt' }));
  await assert.rejects(loadTopicLibrary(path.join(dir, 'topic.json')), isBad(/bad\.txt:2: .*no tab/));
  assert.throws(() => loadTopicLibrarySync(path.join(dir, 'topic.json')), isBad(/bad\.txt:2/));
  await writeFile(path.join(dir, 'topic2.json'), JSON.stringify({ name: 's', terms: ['a1'], synonyms: 'missing.txt' }));
  await assert.rejects(loadTopicLibrary(path.join(dir, 'topic2.json')), isBad(/cannot read .*missing\.txt/));
  assert.throws(() => loadTopicLibrarySync(path.join(dir, 'topic2.json')), isBad(/missing\.txt/));
  await assert.rejects(loadTopicLibrary(path.join(dir, 'nope.json')), isBad(/cannot read/));
  await writeFile(path.join(dir, 'broken.json'), '{"name": ');
  await assert.rejects(loadTopicLibrary(path.join(dir, 'broken.json')), isBad(/invalid JSON/));
  assert.throws(() => parseSynonyms('a\t ,, ', 'f'), isBad(/f:1: .*no synonyms/));
  assert.throws(() => parseSynonyms('\tb', 'f'), isBad(/f:1: empty concept/));
  assert.throws(() => library({ name: 'x', terms: ['a1'], kinds: { people: ['b'] } }), isBad(/unknown kind "people"/));
  assert.throws(() => library({ name: 'x', terms: ['a1'], synonyms: ['b'] }), isBad(/"synonyms"/));
  assert.throws(() => library({ name: 'x', terms: ['a1'], synonyms: { a1: 'b' } }), isBad(/"synonyms"."a1"/));
  assert.throws(() => library({ name: 'x', terms: ['a1'], mined: [3] }), isBad(/"mined"\[0\]/));
  assert.throws(() => library({ name: 'x' }), isBad(/"terms"/));
});

// ---- block weights and R(p) -------------------------------------------------

test('block weights follow impact = λ·k/(k+1) + (1−λ)·preset and sum to 1 over present blocks', () => {
  const k = { title: 1, content: 3, navigation: 9, anchor: 4, other: 0 };
  for (const lambda of [0, 0.25, 0.5, 1]) {
    const w = blockWeights(k, lambda);
    const impact = (b: (typeof ETFL_BLOCKS)[number]): number => (k[b] > 0 ? lambda * (k[b] / (k[b] + 1)) + (1 - lambda) * IMPACT_PRESETS[b] : 0);
    const sum = ETFL_BLOCKS.reduce((s, b) => s + impact(b), 0);
    for (const b of ETFL_BLOCKS) assert.ok(Math.abs(w[b] - impact(b) / sum) < 1e-12, `${b} at λ=${lambda}`);
    assert.ok(Math.abs(ETFL_BLOCKS.reduce((s, b) => s + w[b], 0) - 1) < 1e-12);
    assert.equal(w.other, 0);
  }
  // λ = 0: presets only; more key tags -> more weight at λ = 1
  const presets = blockWeights(k, 0);
  assert.ok(Math.abs(presets.title / presets.content - IMPACT_PRESETS.title / IMPACT_PRESETS.content) < 1e-12);
  assert.ok(blockWeights(k, 1).navigation > blockWeights(k, 1).title);
  assert.equal(keyTagImpact(0), 0);
  assert.equal(keyTagImpact(1), 0.5);
  assert.deepEqual(blockWeights({ title: 0, content: 0, navigation: 0, anchor: 0, other: 0 }), { title: 0, content: 0, navigation: 0, anchor: 0, other: 0 });
  assert.throws(() => blockWeights(k, 1.5), TypeError);
  assert.deepEqual(estimateKeyTags({ title: 5, heading: 5, content: 61, navigation: 8, anchor: 1, other: 0 }), {
    title: 1,
    content: 3 + 2,
    navigation: 2,
    anchor: 1,
    other: 0,
  });
});

const SOLAR_TOPIC = parseTopic({ name: 'solar', terms: ['solar energy', 'photovoltaic', 'solar panel', '太阳能', '光伏'], threshold: 0.2 }, 'test');

const ON = page('Rooftop solar energy: how photovoltaic panels work', {
  heading: 'Choosing a solar panel',
  content:
    'A photovoltaic cell turns sunlight into electricity. Solar energy systems on a roof combine many cells into a solar panel; ' +
    'an inverter converts the direct current for the house. Panel efficiency and shading decide the yield of solar energy.',
  navigation: NAV,
  anchor: 'Solar panel prices Photovoltaic news Contact',
});
const OFF = page('Slow-cooked beef stew recipe', {
  heading: 'Ingredients and method',
  content: 'Brown the beef in batches, then soften onions, carrots and celery. Add stock, red wine and thyme and simmer for three hours.',
  navigation: NAV,
  anchor: 'Soup recipes Desserts Contact',
});
const INCIDENTAL = page('Municipal library opening hours', {
  content:
    'The central library opens at nine every weekday and at ten on Saturdays. Members may borrow twelve books and four films. ' +
    'The reading room hosts a chess club and a knitting circle. A small photovoltaic roof was fitted during the renovation. ' +
    'Study rooms must be booked at the front desk; printing and scanning cost ten cents a page.',
  navigation: NAV,
});
const ZH_ON = page('光伏发电走进千家万户', { content: '屋顶光伏和太阳能热水器在农村越来越普及，光伏组件价格下降，太阳能发电的收益稳定。', navigation: '首页 新闻 体育' });
const ZH_OFF = page('红烧肉的家常做法', { content: '五花肉切块焯水，锅中放少许油和冰糖炒出糖色，加入葱姜八角料酒生抽，小火炖一个小时。', navigation: '首页 新闻 体育' });

test('R(p) separates on-topic from off-topic pages at the topic threshold', () => {
  const lib = new FeatureLibrary(libraryFromTopic(SOLAR_TOPIC));
  const pages = [ON, OFF, INCIDENTAL, ZH_ON, ZH_OFF];
  for (const p of pages) lib.docFreq.addDocument(scoreBlocks(p, lib).tf.keys());
  const r = pages.map((p) => scoreBlocks(p, lib));
  for (const s of r) assert.ok(Math.abs(ETFL_BLOCKS.reduce((a, b) => a + s.weights[b], 0) - 1) < 1e-12);
  assert.ok(r[0].relevance >= 0.2 && r[3].relevance >= 0.2, `on-topic ${r[0].relevance} ${r[3].relevance}`);
  assert.ok(r[1].relevance < 0.2 && r[2].relevance < 0.2 && r[4].relevance < 0.2, `off-topic ${r[1].relevance} ${r[2].relevance} ${r[4].relevance}`);
  assert.equal(r[1].relevance, 0);
  assert.ok(r[2].relevance > 0);
  assert.ok(r[0].scores.title > 0 && r[0].scores.navigation === 0);
});

// ---- mining -------------------------------------------------------------------

test('W = (f(e)/f_max)·ln(N/n_e) on a hand example', () => {
  const miner = new TermMiner([{ term: 'solar', tokens: ['solar'] }, { term: 'wind', tokens: ['wind'] }], { topL: 2 });
  miner.offer(new Map([['solar', 4], ['panel', 2], ['roof', 1]])); // about solar 4/7
  miner.offer(new Map([['solar', 1], ['panel', 1], ['cake', 8]])); // about solar 1/10
  miner.offer(new Map([['solar', 2], ['inverter', 2]])); // about solar 2/4: pushes the cake page out (L = 2)
  miner.offer(new Map([['wind', 3], ['turbine', 3]]));
  const df = new Map([['panel', 5], ['roof', 20], ['inverter', 2], ['turbine', 4], ['solar', 10], ['wind', 10]]);
  const docs = { documents: 100, df: (t: string) => df.get(t) ?? 0 };
  const got = miner.mine(docs, new Set(['solar', 'wind']), 10);
  // solar's pages: {solar 4, panel 2, roof 1} + {solar 2, inverter 2}: f_max = 6
  const expected = [
    { term: 'turbine', w: (3 / 3) * Math.log(100 / 4), from: 'wind' },
    { term: 'inverter', w: (2 / 6) * Math.log(100 / 2), from: 'solar' },
    { term: 'panel', w: (2 / 6) * Math.log(100 / 5), from: 'solar' },
    { term: 'roof', w: (1 / 6) * Math.log(100 / 20), from: 'solar' },
  ];
  assert.equal(got.length, expected.length);
  got.forEach((g, i) => {
    assert.equal(g.term, expected[i].term);
    assert.equal(g.from, expected[i].from);
    assert.ok(Math.abs(g.w - expected[i].w) < 1e-12, `${g.term}: ${g.w} vs ${expected[i].w}`);
  });
  assert.ok(!got.some((g) => g.term === 'cake'), 'the page least about solar fell out of the top-L');
  assert.deepEqual(miner.mine(docs, new Set(['solar', 'wind']), 1).map((g) => g.term), ['turbine']);
  assert.equal(miner.pages, 3);
});

// ---- the scorer -------------------------------------------------------------

function context(params: Record<string, number | string> = {}): ScorerContext {
  const topic = new TopicModel(SOLAR_TOPIC);
  return { topic, model: null, judge: (p) => topic.judge(p), params };
}

const item = (p: ParsedPage): CrawlItem => ({ entry: { url: 'http://127.0.0.1/', score: 0, depth: 0, parent: null }, page: p });

test('scorer: shared judge for pages; links on off-topic pages rank below equal links on on-topic pages', () => {
  const ctx = context();
  const reference = new TopicModel(SOLAR_TOPIC);
  const scorer = createEtflScorer(ctx);
  assert.equal(scorer.name, 'etfl');
  assert.equal(scorer.eta, 0.2);
  for (const p of [ON, OFF, INCIDENTAL, ZH_ON, ZH_OFF]) assert.equal(scorer.pageRelevance(p, item(p)), reference.judge(p));
  const rOn = scorer.blockRelevance(ON);
  const rOff = scorer.blockRelevance(INCIDENTAL);
  assert.ok(rOn >= scorer.eta && rOff < scorer.eta && rOff > 0);
  for (const l of [link('Solar panel buying guide', 'photovoltaic prices'), link('Contact us'), link('光伏新闻')]) {
    const on = scorer.linkScore(l, ON, 0.9);
    const off = scorer.linkScore(l, INCIDENTAL, 0.9);
    assert.ok(on > off, `${l.anchor}: ${on} vs ${off}`);
    assert.ok(on >= rOn);
    assert.ok(off <= 0.1 * (rOff + 1) + 1e-12);
  }
  const good = scorer.linkScore(link('Solar panel buying guide'), ON, 0);
  const plain = scorer.linkScore(link('Contact us'), ON, 0);
  assert.ok(good > plain && Math.abs(plain - rOn) < 1e-12);
  // off-topic: exactly offTopicFactor × (R(p) + Sim)
  const sim = good - rOn;
  assert.ok(Math.abs(scorer.linkScore(link('Solar panel buying guide'), INCIDENTAL, 0) - 0.1 * (rOff + sim)) < 1e-12);
});

test('scorer: params are validated; libraryPath loads synonyms; a bad library is FC_BAD_TOPIC', async (t) => {
  assert.throws(() => createEtflScorer(context({ lambda: 2 })), (e: unknown) => (e as { code?: string }).code === 'FC_USAGE');
  assert.throws(() => createEtflScorer(context({ mineTopL: 0 })), /mineTopL/);
  assert.equal(createEtflScorer(context({ eta: '0.35' })).eta, 0.35);
  const dir = await tmpdir(t);
  await writeFile(path.join(dir, 'syn.tsv'), 'solar energy\tsun power\n');
  await writeFile(path.join(dir, 'topic.json'), JSON.stringify({ name: 'solar', terms: ['solar energy'], synonyms: 'syn.tsv' }));
  const scorer = createEtflScorer(context({ libraryPath: path.join(dir, 'topic.json') }));
  assert.ok(scorer.linkScore(link('Sun power for homes'), ON, 0) > scorer.linkScore(link('Beef for homes'), ON, 0));
  await writeFile(path.join(dir, 'syn.tsv'), 'no tab\n');
  assert.throws(() => createEtflScorer(context({ libraryPath: path.join(dir, 'topic.json') })), (e: unknown) => (e as { code?: string }).code === 'FC_BAD_TOPIC');
});

function solarArticle(i: number): ParsedPage {
  return page(`Solar energy field report ${i}`, {
    content: `Solar energy heliostat towers track the sun. Every heliostat mirror of plant ${i} focuses sunlight; photovoltaic arrays add power. ${FILLER}`,
    navigation: NAV,
  });
}

function offArticle(i: number): ParsedPage {
  return page(`Football results ${i}`, { content: `The home side won ${i} to nil after a late goal. ${FILLER}`, navigation: NAV });
}

test('scorer: online mining adds terms after M pages; memory stays bounded', () => {
  const scorer = createEtflScorer(context({ mineEvery: 6, mineTopN: 3, mineTopL: 2 }));
  const feed = (p: ParsedPage): void => {
    scorer.pageRelevance(p, item(p));
    scorer.observe!(item(p), []);
  };
  const heliostatLink = link('heliostat maintenance');
  const before = scorer.linkScore(heliostatLink, solarArticle(0), 0);
  for (let i = 0; i < 5; i++) feed(i % 2 ? offArticle(i) : solarArticle(i));
  assert.equal(scorer.library.mined.length, 0);
  feed(offArticle(5));
  assert.ok(scorer.library.mined.includes('heliostat'), `mined: ${scorer.library.mined.join(', ')}`);
  assert.ok(scorer.library.mined.length <= 3);
  assert.ok(!scorer.library.mined.some((t) => ['football', 'goal', 'results'].includes(t)), `mined: ${scorer.library.mined.join(', ')}`);
  const after = scorer.linkScore(heliostatLink, solarArticle(0), 0);
  assert.ok(after > before, `a mined term raises link scores: ${before} -> ${after}`);
  // many more pages: the miner holds at most L pages per static term, the library at most n mined terms
  for (let i = 6; i < 300; i++) feed(i % 3 ? solarArticle(i) : offArticle(i));
  assert.ok(scorer.minerPages <= 2 * SOLAR_TOPIC.terms.length, `miner holds ${scorer.minerPages} pages`);
  assert.ok(scorer.library.mined.length <= 3);
});

// ---- expand-topic -------------------------------------------------------------

test('expand-topic: usage errors exit 2 with one line; --help exits 0', async () => {
  const run = async (args: string[]) => {
    const out = new Sink();
    const err = new Sink();
    const code = await runExpandTopic(args, { stdout: out, stderr: err });
    return { code, out: out.text, err: err.text };
  };
  const help = await run(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /^Usage: focuscrawl expand-topic/);
  for (const args of [
    [],
    ['--bogus'],
    ['--topic', 't.json', '--warc', 'w.warc'],
    ['--topic', 't.json', '--out', 'o.json'],
    ['--topic', 't.json', '--pages', 'p', '--warc', 'w', '--out', 'o'],
    ['--topic', 't.json', '--warc', 'w', '--target', 'solar', '--out', 'o'],
    ['--topic', 't.json', '--pages', 'p', '--top-n', '0', '--out', 'o'],
    ['--topic', path.join(FIXTURES, 'demo-topic.json'), '--pages', '/nonexistent/pages.ndjson', '--out', 'o'],
  ]) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.err, /^focuscrawl expand-topic: [^\n]+\n$/, args.join(' '));
  }
});

test('expand-topic --pages: NDJSON pages with labels', async (t) => {
  const dir = await tmpdir(t);
  const rows = [];
  for (let i = 0; i < 6; i++) rows.push({ title: `Solar energy plant ${i}`, text: `The heliostat field of solar energy plant ${i} uses molten salt storage.`, label: 'solar' });
  for (let i = 0; i < 12; i++) rows.push({ title: `Match report ${i}`, text: `The striker scored twice in match ${i}; the heliostat was not mentioned.`, label: 'sport' });
  rows.push({ sentence: '光伏电站并网发电 熔盐储能', keywords: '光伏,储能', label_desc: 'solar' });
  await writeFile(path.join(dir, 'pages.ndjson'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n\n');
  await writeFile(path.join(dir, 'topic.json'), JSON.stringify({ name: 'solar', terms: ['solar energy', '光伏'] }));
  const out = new Sink();
  const err = new Sink();
  const outFile = path.join(dir, 'sub-expanded.json');
  const code = await runExpandTopic(['--topic', path.join(dir, 'topic.json'), '--pages', path.join(dir, 'pages.ndjson'), '--target', 'solar', '--top-n', '12', '--out', outFile], { stdout: out, stderr: err });
  assert.equal(code, 0, err.text);
  const lines = out.text.trim().split('\n').map((l) => JSON.parse(l) as { term: string; w: number; from: string });
  assert.equal(lines.length, 12);
  const terms = lines.map((l) => l.term);
  // the single Chinese page: its terms are rare (n_e = 1) and frequent there (f/f_max high)
  for (const want of ['熔盐', '储能']) assert.equal(lines.find((l) => l.term === want)?.from, '光伏', terms.join(', '));
  // the English solar pages: molten and salt are in all six of them; heliostat is also in every sport page (lower idf)
  for (const want of ['molten', 'salt']) assert.equal(lines.find((l) => l.term === want)?.from, 'solar energy', terms.join(', '));
  const w = (term: string): number => lines.find((l) => l.term === term)?.w ?? 0;
  assert.ok(w('heliostat') < w('molten'));
  assert.ok(!terms.some((x) => ['striker', 'scored', 'match'].includes(x)), terms.join(', '));
  assert.match(err.text, /19 pages, 7 labelled solar, 12 candidates/);
  const written = JSON.parse(await readFile(outFile, 'utf8')) as { terms: string[]; mined: string[] };
  assert.deepEqual(written.terms, ['solar energy', '光伏']);
  assert.deepEqual(written.mined, terms);
});

test('expand-topic on the fixture web (--target solar) writes a topic with mined terms', async (t) => {
  const dir = await tmpdir(t);
  const outFile = path.join(dir, 'topic-expanded.json');
  const out = new Sink();
  const err = new Sink();
  const code = await runExpandTopic(
    [
      '--topic', path.join(FIXTURES, 'demo-topic.json'),
      '--warc', path.join(FIXTURES, 'web.warc.gz'),
      '--labels', path.join(FIXTURES, 'web-labels.tsv'),
      '--target', 'solar',
      '--top-n', '15',
      '--out', outFile,
    ],
    { stdout: out, stderr: err },
  );
  assert.equal(code, 0, err.text);
  assert.match(err.text, /362 pages, 123 labelled solar, 15 candidates/);
  const lines = out.text.trim().split('\n').map((l) => JSON.parse(l) as { term: string; w: number; from: string });
  assert.equal(lines.length, 15);
  const original = JSON.parse(await readFile(path.join(FIXTURES, 'demo-topic.json'), 'utf8')) as { terms: string[] };
  for (let i = 1; i < lines.length; i++) assert.ok(lines[i - 1].w >= lines[i].w);
  for (const l of lines) {
    assert.ok(l.w > 0 && original.terms.includes(l.from), JSON.stringify(l));
    assert.ok(!original.terms.some((s) => s.toLowerCase().split(' ').includes(l.term)), `${l.term} is already a topic word`);
  }
  const lib = await loadTopicLibrary(outFile);
  assert.deepEqual(lib.staticTerms.map((s) => s.term), original.terms);
  assert.deepEqual(lib.mined, lines.map((l) => l.term));
  // the mined terms come from the solar pages: at least one says something about energy systems
  assert.ok(lines.some((l) => ['grid', 'storage', '储能', 'wind', 'panels', '屋顶'].includes(l.term)), lines.map((l) => l.term).join(', '));
});
