/**
 * Han et al.'s KL-divergence analysis (§3.2.1, docs/algorithms.md#kl-divergence) reproduced on the WebKB
 * archive (../shared/corpora/webkb/webkb.warc.gz + labels.tsv): are the
 * words of pages and the words of link contexts one distribution?
 *
 * Every HTML response (status 200) is parsed with parseBody(), as the crawler
 * does. Two word distributions, token counts from tokenize() (the tokenizer
 * the classifiers use; stop words dropped, and once more with them kept):
 *   (a) page text: all visible text blocks of a page (title, headings,
 *       content, navigation, anchors, other);
 *   (b) link contexts: anchor + context window of every link on every page.
 * Three numbers, as in the paper: KL(pages || link contexts); KL(page half ||
 * page half); KL(context half || context half), the halves a random split
 * (each item goes to one half with probability ½; mean over SPLITS seeds).
 * Two estimators: the paper's (eqs. 3–5: only words counted on both sides,
 * renormalised, no smoothing; klDivergenceShared) and add-one smoothing over
 * the union vocabulary (klDivergence). Natural log (nats).
 * Two scopes: all pages and links, and the paper's topical setting, here
 * "course" pages vs the contexts of links whose target is a course page.
 *
 *   node --import tsx bench/kl-divergence.ts [--write]
 *
 * Prints a markdown section; --write puts it into RESULTS.md between
 * <!-- kl-divergence:start --> and <!-- kl-divergence:end -->. Exits 2 when
 * the corpus is absent.
 */
import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WARCParser } from 'warcio';
import { klDivergence, klDivergenceShared } from '../src/relevance/learn/kl.ts';
import { seededRandom } from '../src/relevance/learn/metrics.ts';
import { parseBody } from '../src/parse/body.ts';
import { tokenize } from '../src/relevance/text/tokenize.ts';
import { canonicalize } from '../src/urls/canonical.ts';
import type { BlockType } from '../src/types.ts';
import { resultsDoc, writeSection } from './lib/sections.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(REPO, '../shared/corpora/webkb');
const WARC = path.join(CORPUS, 'webkb.warc.gz');
const LABELS = path.join(CORPUS, 'labels.tsv');
const RESULTS_MD = resultsDoc('kl-divergence'); // RESULTS.md keeps a short summary
const TOPIC = 'course';
/** random half-splits averaged */
const SPLITS = 5;
const PAGE_BLOCKS: readonly BlockType[] = ['title', 'heading', 'content', 'navigation', 'anchor', 'other'];
const PAPER = { pagesVsContexts: 2.0865, pageHalves: 0.5676, contextHalves: 0.7828 };

type Counts = Map<string, number>;

/** One collection of texts (pages or link contexts): whole counts and SPLITS random halves. */
class Collection {
  readonly all: Counts = new Map();
  readonly halves: [Counts, Counts][] = Array.from({ length: SPLITS }, () => [new Map(), new Map()]);
  items = 0;
  readonly #random: (() => number)[];

  constructor(seed: number) {
    this.#random = Array.from({ length: SPLITS }, (_, s) => seededRandom(seed * 100 + s));
  }

  add(tokens: readonly string[]): void {
    if (tokens.length === 0) return;
    this.items++;
    const halves = this.#random.map((r, s) => this.halves[s][r() < 0.5 ? 0 : 1]);
    for (const t of tokens) {
      this.all.set(t, (this.all.get(t) ?? 0) + 1);
      for (const h of halves) h.set(t, (h.get(t) ?? 0) + 1);
    }
  }
}

/** Pages and link contexts of one scope, tokenized one way. */
interface Scope {
  pages: Collection;
  contexts: Collection;
}

function newScope(seed: number): Scope {
  return { pages: new Collection(seed), contexts: new Collection(seed + 1) };
}

async function loadLabels(): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  for (const line of (await readFile(LABELS, 'utf8')).split('\n').slice(1)) {
    const [url, label] = line.split('\t');
    const canon = url ? canonicalize(url) : null;
    if (canon && label) labels.set(canon, label);
  }
  return labels;
}

function charsetOf(contentType: string | null): string | null {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return m ? m[1].toLowerCase() : null;
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function range(xs: number[]): string {
  return `${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)}`;
}

/** The three KL numbers of a scope under one estimator; halves as [mean, min–max]. */
function measure(scope: Scope, kl: (p: Counts, q: Counts) => number): { cross: number; pageHalves: number[]; contextHalves: number[] } {
  return {
    cross: kl(scope.pages.all, scope.contexts.all),
    pageHalves: scope.pages.halves.map(([a, b]) => kl(a, b)),
    contextHalves: scope.contexts.halves.map(([a, b]) => kl(a, b)),
  };
}

function sharedWords(p: Counts, q: Counts): number {
  let n = 0;
  for (const w of p.keys()) if (q.has(w)) n++;
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { write: { type: 'boolean', default: false } } });
  if (!existsSync(WARC) || !existsSync(LABELS)) {
    process.stderr.write(`kl-divergence: corpus not found at ${CORPUS} (see ../shared/corpora/README.md)\n`);
    return 2;
  }
  const labels = await loadLabels();
  const variants = [
    { name: 'stop words dropped', stopwords: true },
    { name: 'stop words kept', stopwords: false },
  ];
  // scopes[variant] = { all, topic }
  const scopes = variants.map((_, i) => ({ all: newScope(10 * i + 1), topic: newScope(10 * i + 5) }));
  let pages = 0;
  let links = 0;
  let topicPages = 0;
  let topicLinks = 0;
  const started = performance.now();
  const parser = new WARCParser(createReadStream(WARC));
  for await (const record of parser) {
    if (record.warcType !== 'response' || !record.httpHeaders) continue;
    const url = record.warcTargetURI ?? '';
    const status = Number(record.httpHeaders.statusCode);
    const contentType = record.httpHeaders.headers.get('content-type') ?? null;
    if (status !== 200 || !/^\s*text\/html/i.test(contentType ?? 'text/html')) continue;
    const body = Buffer.from(await record.readFully(true));
    const page = parseBody(body, url, charsetOf(contentType));
    const canon = canonicalize(url);
    const isTopic = canon !== null && labels.get(canon) === TOPIC;
    pages++;
    if (isTopic) topicPages++;
    const pageText = PAGE_BLOCKS.map((b) => page.blocks[b]).join(' ');
    const linkTexts: [string, boolean][] = page.links.map((l) => {
      const target = canonicalize(l.url);
      return [`${l.anchor} ${l.context}`, target !== null && labels.get(target) === TOPIC];
    });
    links += linkTexts.length;
    topicLinks += linkTexts.filter(([, t]) => t).length;
    variants.forEach((v, i) => {
      const tok = (s: string): string[] => tokenize(s, { stopwords: v.stopwords });
      const pageTokens = tok(pageText);
      scopes[i].all.pages.add(pageTokens);
      if (isTopic) scopes[i].topic.pages.add(pageTokens);
      for (const [text, toTopic] of linkTexts) {
        const tokens = tok(text);
        scopes[i].all.contexts.add(tokens);
        if (toTopic) scopes[i].topic.contexts.add(tokens);
      }
    });
  }
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`kl-divergence: ${pages} pages, ${links} links read and tokenized in ${seconds.toFixed(1)} s\n`);

  const rows: string[] = [];
  const sizes: string[] = [];
  /** rows where KL(pages || contexts) does not exceed both half-vs-half values (either estimator) */
  const exceptions: string[] = [];
  variants.forEach((v, i) => {
    for (const [scopeName, scope] of [['all pages / all links', scopes[i].all], [`${TOPIC} pages / links to ${TOPIC} pages`, scopes[i].topic]] as const) {
      const paper = measure(scope, klDivergenceShared);
      const smooth = measure(scope, (p, q) => klDivergence(p, q, 1));
      const label = `${scopeName}, ${v.name}`;
      for (const m of [paper, smooth]) {
        if (!(m.cross > Math.max(...m.pageHalves, ...m.contextHalves))) exceptions.push(label);
      }
      rows.push(
        `| ${label} | ${paper.cross.toFixed(4)} | ${mean(paper.pageHalves).toFixed(4)} (${range(paper.pageHalves)}) | ` +
          `${mean(paper.contextHalves).toFixed(4)} (${range(paper.contextHalves)}) | ${smooth.cross.toFixed(4)} | ` +
          `${mean(smooth.pageHalves).toFixed(4)} | ${mean(smooth.contextHalves).toFixed(4)} |`,
      );
      sizes.push(
        `${label}: ${scope.pages.items} pages with ${scope.pages.all.size} distinct words, ${scope.contexts.items} link contexts ` +
          `with ${scope.contexts.all.size}, ${sharedWords(scope.pages.all, scope.contexts.all)} shared`,
      );
    }
  });
  const cpu = os.cpus();
  const command = `node --import tsx bench/kl-divergence.ts ${process.argv.slice(2).join(' ')}`.trim();
  const section = [
    '## KL divergence: page words vs link-context words (WebKB)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ` +
      `${os.type()} ${os.release()}, Node ${process.version}. Command: \`${command}\` (${seconds.toFixed(0)} s).`,
    '',
    `Data: the ${pages} HTML pages (status 200) of the WebKB archive, parsed with \`parseBody\` as the crawler does, and ` +
      `their ${links} links (${topicPages} "${TOPIC}" pages; ${topicLinks} links point to one). Page text = all visible ` +
      'text blocks; link context = anchor + the heuristic context window (docs/algorithms.md#link-context-window). Tokens from `tokenize()` (the ' +
      'tokenizer the classifiers use). Halves: each page (context) goes to one half with probability ½; mean (min–max) ' +
      `over ${SPLITS} random splits. KL in nats. The paper's estimator (eqs. 3–5) keeps only the words seen on both ` +
      'sides and renormalises; the smoothed one uses add-one smoothing over the union of the two vocabularies.',
    '',
    "| scope | KL(pages ‖ contexts), paper's estimator | page half ‖ page half | context half ‖ context half | KL(pages ‖ contexts), add-one | page halves, add-one | context halves, add-one |",
    '|---|---|---|---|---|---|---|',
    `| **Han et al. 2010** (finance, 1,200 pages / 25,039 link contexts, Chinese) | **${PAPER.pagesVsContexts}** | **${PAPER.pageHalves}** | **${PAPER.contextHalves}** | | | |`,
    ...rows,
    '',
    'Vocabulary: ' + sizes.join('; ') + '.',
    '',
    (exceptions.length === 0
      ? 'Reading: as in the paper, in every row and with both estimators the words of pages and the words of link ' +
        'contexts are further apart than any two random halves of either collection, so a page classifier applied to ' +
        'link contexts works off its training distribution. '
      : `Reading: KL(pages ‖ contexts) does NOT exceed every half-vs-half value in: ${[...new Set(exceptions)].join('; ')}. ` +
        'Where it does, a page classifier applied to link contexts works off its training distribution. ') +
      'Link classifiers (the nb-link and bayes-kde scorers) are therefore trained on link contexts, not on pages. The ' +
      'absolute values are not comparable with the paper (another language, corpus size, and an unknown log base); the ' +
      'ordering is what carries over.',
  ].join('\n');
  process.stdout.write(section + '\n');
  if (values.write) {
    await writeSection(RESULTS_MD, 'kl-divergence', section, '# KL divergence');
    process.stderr.write(`kl-divergence: wrote ${path.relative(REPO, RESULTS_MD)}\n`);
  }
  return 0;
}

/** Replaces the text between the markers in `file` (appending the block when they are missing). */

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`kl-divergence: ${(err as Error)?.stack ?? String(err)}\n`);
  return 1;
});
