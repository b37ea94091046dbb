/**
 * Stop words: function words that carry no topic. Tokens are compared after
 * NFKC + lower-casing, so the lists are lower-case. Written for focuscrawl
 * (a compact list, not a copy of any published one).
 */

/** ~190 English function words (articles, pronouns, auxiliaries, prepositions, conjunctions, contractions). */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all almost also although am among an and another any are
  aren't around as at be because been before being below between both but by can can't cannot could
  couldn't did didn't do does doesn't doing don't down during each either else etc even ever every
  few for from further get gets got had hadn't has hasn't have haven't having he he's her here hers
  herself him himself his how however i i'm i've if in into is isn't it it's its itself just least
  less let's may me might more most much must my myself neither no nor not now of off often on once
  only or other others our ours ourselves out over own per please quite rather same shall she should
  shouldn't since so some such than that that's the their theirs them themselves then there there's
  these they they're this those though through thus to too under until up upon us very via was
  wasn't we we're were weren't what what's when where whether which while who whom whose why will
  with within without won't would wouldn't yet you you're your yours yourself yourselves`
    .split(/\s+/)
    .filter(Boolean),
);

/** ~150 Chinese function words (particles, pronouns, prepositions, conjunctions, adverbs, measure words). */
export const CHINESE_STOPWORDS: ReadonlySet<string> = new Set(
  `的 了 着 过 是 在 和 与 及 或 而 但 也 都 就 还 又 再 才 只 很 更 最 太 不 没 没有 无 非 被 把 让 给 对 向
  从 自 于 以 为 为了 因 因为 所以 由于 如果 虽然 但是 然而 而且 并且 或者 还是 以及 即 即使 因此 于是 然后
  我 你 他 她 它 我们 你们 他们 她们 它们 自己 这 那 这个 那个 这些 那些 这里 那里 这样 那样 哪 哪里 什么
  怎么 怎样 如何 为何 谁 其 之 其中 此 该 每 各 某 啊 吧 呢 吗 嘛 呀 哦 哈 么 个 些 种 地 得 所 等 等等
  已 已经 曾 曾经 将 将要 会 能 可 可以 要 应 应该 一 一个 一些 一种 上 下 中 里 后 前 时 时候 之后 之前
  有 有的 就是 只是 不是 还有 如 比 跟 同 则`
    .split(/\s+/)
    .filter(Boolean),
);

/** Both lists in one set: one lookup per token (the tokenizer asks for every word of every page). */
const STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH_STOPWORDS, ...CHINESE_STOPWORDS]);

/** True when `token` (already NFKC + lower-cased) is an English or Chinese stop word. */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

/** Length of the longest ASCII stop word. */
let maxAsciiStop = 0;
/**
 * The ASCII stop words in an open-addressing table keyed by spanHash: an
 * ASCII token is looked up without being cut out of its text. A table of
 * small integers, not a Map keyed by the hash: half of all 32-bit hashes
 * do not fit a small integer, and a Map boxed each of those in a new
 * heap number for every token of every page.
 */
const ASCII_STOP_WORDS: string[] = [];
const STOP_BITS = 11;
/** word index + 1 per slot, 0 = empty */
const STOP_TABLE = new Int32Array(1 << STOP_BITS);
const stopSlot = (h: number): number => (Math.imul(h, 0x9e3779b1) >>> (32 - STOP_BITS));
for (const w of STOPWORDS) {
  if (!/^[\x00-\x7f]*$/.test(w)) continue;
  maxAsciiStop = Math.max(maxAsciiStop, w.length);
  ASCII_STOP_WORDS.push(w);
  let slot = stopSlot(spanHash(w, 0, w.length));
  while (STOP_TABLE[slot] !== 0) slot = (slot + 1) & ((1 << STOP_BITS) - 1);
  STOP_TABLE[slot] = ASCII_STOP_WORDS.length;
}

/**
 * The hash of a span with each code unit `| 0x20` (lower-cased, for ASCII
 * letters; digits and apostrophes are unchanged): the tokenizer computes
 * the same number as it scans (tokenize.ts tokenizeAscii).
 */
function spanHash(text: string, start: number, end: number): number {
  let h = end - start;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + (text.charCodeAt(i) | 0x20)) | 0;
  return h;
}

/**
 * isStopword(text.slice(start, end).toLowerCase()) for a span of ASCII
 * letters, digits and apostrophes (which `| 0x20` lower-cases); `h` is
 * spanHash of the span, which the tokenizer passes as it has it: the
 * tokenizer's question, asked without lower-casing the text or cutting
 * the span out (a stop word is dropped, so its string would be garbage).
 */
export function isFoldedAsciiStopword(text: string, start: number, end: number, h = spanHash(text, start, end)): boolean {
  const n = end - start;
  if (n > maxAsciiStop || n <= 0) return false;
  let slot = stopSlot(h);
  for (let k = STOP_TABLE[slot]!; k !== 0; slot = (slot + 1) & ((1 << STOP_BITS) - 1), k = STOP_TABLE[slot]!) {
    const w = ASCII_STOP_WORDS[k - 1]!;
    if (w.length !== n) continue;
    let i = 0;
    while (i < n && w.charCodeAt(i) === (text.charCodeAt(start + i) | 0x20)) i++;
    if (i === n) return true;
  }
  return false;
}
