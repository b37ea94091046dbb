/**
 * The keys of the crawl store's frontier and log (src/store/level.ts), also
 * used outside it: the seen cache stores frontier keys, the host budget and
 * the live stats read the log from a log key.
 */

/** scratch for frontierKey's float bits (one per module: keys are made one at a time) */
const KEY_VIEW = new DataView(new ArrayBuffer(8));
const SEQ_HEX = 14; // 0x1fffffffffffff = Number.MAX_SAFE_INTEGER fits in 14 hex digits

/**
 * Frontier key of an entry: a forward iterator yields the HIGHEST score first
 * and equal scores in ascending `seq` (FIFO). The first 16 hex digits are the
 * float64 bits of -score made lexicographically sortable (negative numbers:
 * all bits flipped; others: sign bit flipped; -0 is folded into +0), then
 * '!', then `seq` as 14 hex digits. Throws TypeError for NaN or a bad seq.
 */
export function frontierKey(score: number, seq: number): string {
  if (typeof score !== 'number' || Number.isNaN(score)) throw new TypeError(`bad frontier score: ${score}`);
  if (!Number.isSafeInteger(seq) || seq < 0) throw new TypeError(`bad frontier seq: ${seq}`);
  const view = KEY_VIEW;
  view.setFloat64(0, score === 0 ? 0 : -score);
  let hi = view.getUint32(0);
  let lo = view.getUint32(4);
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else {
    hi = (hi | 0x80000000) >>> 0;
  }
  return `${hex(hi)}${hex(lo)}!${seq.toString(16).padStart(SEQ_HEX, '0')}`;
}

/** 8 hex digits of a uint32 (at module level: made per call, the closure showed in CPU profiles) */
function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/** The seq part of a frontier key. */
export function seqOf(key: string): number {
  return parseInt(key.slice(17), 16);
}

/** Log key of the n-th committed record (n from 1); `log({ gt: logKey(n) })` resumes after it. */
export function logKey(n: number): string {
  return String(n).padStart(16, '0');
}
