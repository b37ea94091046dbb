/**
 * `etfl` (Wu & Li 2015, docs/algorithms.md#etfl): extended topic feature library + tag-block relevance.
 *
 * - Library: the terms of ctx.topic plus, when given, an extended topic
 *   file (`library` argument, or param `libraryPath`: a path read
 *   synchronously when the scorer is built; relative to the working
 *   directory; usually the --topic file itself): kinds, synonyms (concept
 *   substitution) and confirmed mined terms. See src/relevance/etfl/library.ts.
 * - pageRelevance = ctx.judge(page), the shared judge, so `relevance` means
 *   the same for every strategy. Alongside, the scorer computes the page's
 *   tag-block relevance R(p) (src/relevance/etfl/blocks.ts; IDF from the substituted
 *   tokens of the pages fetched before it) and counts the page into its
 *   own document frequencies.
 * - linkScore: with Sim = the library similarity of the link's anchor
 *   (tokens weight 1) and context window (weight 0.5) after substitution,
 *   a link on a page with R(p) ≥ η scores R(p) + Sim (in [0, 2]); a link on
 *   an off-topic page scores offTopicFactor × (R(p) + Sim) (default 0.1: at
 *   most 0.1 × (η + 1)), so it is fetched only when nothing better waits.
 * - Online mining (observe): pages with R(p) ≥ η feed a TermMiner (top-L
 *   pages per static term, each cut to its strongest terms: bounded); every
 *   M scored pages the top-n terms by W = (f/f_max)·ln(N/n_e) become the
 *   library's online mined terms, replacing the previous round's (so the
 *   library holds at most n of them). No user confirmation online:
 *   `focuscrawl expand-topic` is the confirmed, offline path.
 *
 * Params (ctx.params; numbers or numeric strings):
 *   eta             page threshold η            default: the topic's threshold
 *   lambda          λ of the block weights      default 0.5
 *   offTopicFactor  factor for off-topic pages  default 0.1
 *   mineEvery       M, pages between rounds     default 100 (0: no online mining)
 *   mineTopN        n, terms mined per round    default 10
 *   mineTopL        L, pages per static term    default 20
 *   libraryPath     extended topic file         default none
 */
import { TopicError, UsageError } from '../../errors.ts';
import { DEFAULT_LAMBDA, scoreBlocks } from '../etfl/blocks.ts';
import { TermMiner } from '../etfl/miner.ts';
import { FeatureLibrary, libraryFromTopic, loadTopicLibrarySync, mergeLibraries, type EtflLibrary } from '../etfl/library.ts';
import type { Segmenter } from '../text/segmenter.ts';
import { DocFreq, termFreq, type SparseVector } from '../text/vector.ts';
import type { CrawlItem, PageLink, ParsedPage, Scorer } from '../../types.ts';
import { CONTEXT_WEIGHT } from './best-first.ts';
import type { ScorerContext } from './context.ts';

export type { EtflLibrary } from '../etfl/library.ts';

/** Defaults of the numeric params (eta defaults to the topic's threshold). */
export const ETFL_DEFAULTS = {
  lambda: DEFAULT_LAMBDA,
  offTopicFactor: 0.1,
  mineEvery: 100,
  mineTopN: 10,
  mineTopL: 20,
} as const;

/** Terms kept of each page held for mining. */
const MINE_PAGE_TERMS = 300;
/** Capacity of the scorer's document-frequency table. */
const DOCFREQ_CAPACITY = 100_000;

/** An etfl scorer: a Scorer that also shows its library and R(p) (for tests and logs). */
export interface EtflScorer extends Scorer {
  /** the library at work (mined terms change online) */
  readonly library: FeatureLibrary;
  /** the page threshold η */
  readonly eta: number;
  /** R(p) of a page (cached from pageRelevance, else computed without counting the page) */
  blockRelevance(page: ParsedPage): number;
  /** distinct pages the online miner holds (bounded by mineTopL × static terms) */
  readonly minerPages: number;
}

function numberParam(params: ScorerContext['params'], name: string, fallback: number, ok: (x: number) => boolean, what: string): number {
  const v = params[name];
  if (v === undefined || v === '') return fallback;
  const x = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(x) || !ok(x)) throw new UsageError(`etfl param ${name} must be ${what}, got ${JSON.stringify(v)}`);
  return x;
}

const unit = (x: number): boolean => x >= 0 && x <= 1;
const count = (x: number): boolean => Number.isInteger(x) && x >= 0;
const positive = (x: number): boolean => Number.isInteger(x) && x >= 1;

interface Scored {
  relevance: number;
  tf: SparseVector;
}

/**
 * The etfl scorer over `ctx`. `library` (optional) is an extended topic
 * already loaded; otherwise param `libraryPath` names one (read now, with
 * readFileSync). Either is merged into ctx.topic's terms. Throws UsageError
 * (FC_USAGE) for a bad param, TopicError (FC_BAD_TOPIC) for an unreadable
 * or malformed library file.
 */
export function createEtflScorer(ctx: ScorerContext, library?: EtflLibrary): EtflScorer {
  const p = ctx.params;
  const lambda = numberParam(p, 'lambda', ETFL_DEFAULTS.lambda, unit, 'a number in [0, 1]');
  const offTopicFactor = numberParam(p, 'offTopicFactor', ETFL_DEFAULTS.offTopicFactor, unit, 'a number in [0, 1]');
  const mineEvery = numberParam(p, 'mineEvery', ETFL_DEFAULTS.mineEvery, count, 'a non-negative integer');
  const mineTopN = numberParam(p, 'mineTopN', ETFL_DEFAULTS.mineTopN, count, 'a non-negative integer');
  const mineTopL = numberParam(p, 'mineTopL', ETFL_DEFAULTS.mineTopL, positive, 'a positive integer');
  const eta = numberParam(p, 'eta', ctx.topic.topic.threshold, unit, 'a number in [0, 1]');

  let lib: EtflLibrary = libraryFromTopic(ctx.topic.topic);
  const extra = library ?? libraryFile(p.libraryPath);
  if (extra !== null) lib = mergeLibraries(lib, extra);
  // segment Han text exactly as the shared judge does
  const segmenter: Segmenter = { name: 'topic', cut: (text) => ctx.topic.tokens(text) };
  const features = new FeatureLibrary(lib, { segmenter, docFreq: new DocFreq(DOCFREQ_CAPACITY) });
  const baseTokens = new Set(features.libraryTokens);
  const miner = new TermMiner(features.staticTokens(), { topL: mineTopL, maxPageTerms: MINE_PAGE_TERMS });
  const cache = new WeakMap<ParsedPage, Scored>();
  let scoredPages = 0;

  const relevanceOf = (page: ParsedPage): number => {
    const hit = cache.get(page);
    if (hit !== undefined) return hit.relevance;
    const s = scoreBlocks(page, features, lambda);
    cache.set(page, { relevance: s.relevance, tf: s.tf });
    return s.relevance;
  };

  return {
    name: 'etfl',
    library: features,
    eta,
    get minerPages() {
      return miner.pages;
    },
    blockRelevance: relevanceOf,
    pageRelevance(page: ParsedPage, _item: CrawlItem): number {
      const s = scoreBlocks(page, features, lambda);
      features.docFreq.addDistinct(s.tf.keys());
      cache.set(page, { relevance: s.relevance, tf: s.tf });
      return ctx.judge(page);
    },
    linkScore(link: PageLink, page: ParsedPage, _pageRelevance: number): number {
      const r = relevanceOf(page);
      const tf = termFreq(features.tokens(link.anchor));
      termFreq(features.tokens(link.context), CONTEXT_WEIGHT, tf);
      const score = r + features.similarity(tf);
      return r >= eta ? score : offTopicFactor * score;
    },
    observe(item: CrawlItem): void {
      const page = item.page;
      const s = page === undefined ? undefined : cache.get(page);
      if (page === undefined || s === undefined) return;
      cache.delete(page);
      scoredPages++;
      if (s.relevance >= eta) miner.offer(s.tf);
      if (mineEvery > 0 && scoredPages % mineEvery === 0) {
        features.setMined(miner.mine(features.docFreq, baseTokens, mineTopN).map((m) => m.term));
      }
    },
  };
}

function libraryFile(v: string | number | undefined): EtflLibrary | null {
  if (v === undefined || v === '') return null;
  if (typeof v !== 'string') throw new TopicError(`etfl param libraryPath must be a file path, got ${JSON.stringify(v)}`);
  return loadTopicLibrarySync(v);
}
