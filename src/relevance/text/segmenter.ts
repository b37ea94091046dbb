/**
 * Chinese word segmentation backends. The tokenizer hands each run of Han
 * characters to a Segmenter; everything else is split by Unicode word runs.
 *
 * Backends:
 * - `node-rs` (default): `@node-rs/jieba`, jieba's search-engine mode
 *   (`cutForSearch(text, true)`, docs/algorithms.md#word-segmentation), which emits the sub-words of long
 *   words as well as the words, so "太阳能" gives 太阳 and 太阳能. The
 *   dictionary (~0.1-0.2 s to load) is loaded on the first `cut`, once per
 *   process, so text without Han characters never pays for it.
 * - `nodejieba`: an optionalDependency, which builds from source (a C++
 *   compiler, and `npm_config_yes=true` for its install script's npx); when
 *   it is not installed, asking for it is a usage error. Also search mode
 *   with HMM; it cuts ~20% of TNEWS headlines differently from node-rs
 *   (BENCHMARKS.md, segmenters).
 */
import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';
import { UsageError } from '../../errors.ts';

// Both packages are CommonJS and loaded on the first cut: the native addon and
// the 5 MB dictionary (dict.js also reads the 6 MB idf file) cost ~20 MB of RSS,
// which a crawl of text without Han characters never needs.
const require = createRequire(import.meta.url);

/** Splits a run of Han text into words. */
export interface Segmenter {
  readonly name: string;
  /** words of `text` (search mode: sub-words included), no whitespace or punctuation entries */
  cut(text: string): string[];
}

let jieba: Jieba | null = null;

const nodeRs: Segmenter = {
  name: 'node-rs',
  cut(text: string): string[] {
    if (jieba === null) {
      const { Jieba: JiebaClass } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
      const { dict } = require('@node-rs/jieba/dict.js') as typeof import('@node-rs/jieba/dict.js');
      jieba = JiebaClass.withDict(dict);
    }
    return jieba.cutForSearch(text, true);
  },
};

interface NodejiebaModule {
  cutForSearch(text: string, hmm?: boolean): string[];
}

let nodejieba: Segmenter | null = null;

function loadNodejieba(): Segmenter {
  if (nodejieba) return nodejieba;
  let mod: NodejiebaModule;
  try {
    mod = require('nodejieba') as NodejiebaModule;
  } catch (err) {
    throw new UsageError(
      "segmenter 'nodejieba' needs the optional package nodejieba, which is not installed (it builds from source: npm_config_yes=true npm install nodejieba, with a C++ compiler), or use --segmenter node-rs",
      { cause: err },
    );
  }
  nodejieba = { name: 'nodejieba', cut: (text) => mod.cutForSearch(text, true) };
  return nodejieba;
}

const BACKENDS: Record<string, () => Segmenter> = {
  'node-rs': () => nodeRs,
  nodejieba: loadNodejieba,
};

/** Names accepted by getSegmenter(). */
export function knownSegmenters(): string[] {
  return Object.keys(BACKENDS);
}

/**
 * The segmenter called `name` (default `node-rs`). Cheap: the dictionary is
 * loaded on first use. Throws UsageError (FC_USAGE) for an unknown name or
 * a backend whose package is not installed.
 */
export function getSegmenter(name = 'node-rs'): Segmenter {
  const make = Object.hasOwn(BACKENDS, name) ? BACKENDS[name] : undefined;
  if (!make) {
    throw new UsageError(`unknown segmenter '${name}' (known: ${knownSegmenters().join(', ')})`);
  }
  return make();
}
