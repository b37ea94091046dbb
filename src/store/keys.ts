/**
 * The keys of the crawl store's frontier and log (src/store/level.ts), also
 * used outside it: the seen cache stores frontier keys, the host budget and
 * the live stats read the log from a log key.
 */

/** scratch for frontierKey's float bits (one per module: keys are made one at a time) */
const KEY_VIEW = new DataView(new ArrayBuffer(8));
const SEQ_HEX = 14; // 0x1fffffffffffff = Number.MAX_SAFE_INTEGER fits in 14 hex digits
/** length of a frontier key: 16 hex digits, '!', SEQ_HEX hex digits */
const KEY_LENGTH = 17 + SEQ_HEX;
/** scratch for frontierKey's characters: the key is cut from it as one string */
const KEY_CHARS = Buffer.alloc(KEY_LENGTH);
/** character codes of the hex digits */
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * Frontier key of an entry: a forward iterator yields the HIGHEST score first
 * and equal scores in ascending `seq` (FIFO). The first 16 hex digits are the
 * float64 bits of -score made lexicographically sortable (negative numbers:
 * all bits flipped; others: sign bit flipped; -0 is folded into +0), then
 * '!', then `seq` as 14 hex digits. Throws TypeError for NaN or a bad seq.
 * The digits are written to a scratch buffer and read out as one string
 * (the pieces and pads of `toString(16)` were ~2% of a crawl's allocation:
 * a key is made for every queued link and every seen mark read from the cache).
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
  const b = KEY_CHARS;
  for (let i = 7; i >= 0; i--) {
    b[i] = HEX_DIGITS[hi & 15]!;
    hi >>>= 4;
  }
  for (let i = 15; i >= 8; i--) {
    b[i] = HEX_DIGITS[lo & 15]!;
    lo >>>= 4;
  }
  b[16] = 0x21; // '!'
  // seq < 2^53: its low 28 bits, then the rest (< 2^25)
  let low = seq % 0x10000000;
  let high = (seq - low) / 0x10000000;
  for (let i = KEY_LENGTH - 1; i > KEY_LENGTH - 8; i--) {
    b[i] = HEX_DIGITS[low & 15]!;
    low >>>= 4;
  }
  for (let i = KEY_LENGTH - 8; i >= 17; i--) {
    b[i] = HEX_DIGITS[high & 15]!;
    high >>>= 4;
  }
  return b.toString('latin1', 0, KEY_LENGTH);
}

/**
 * The seq part of a frontier key: `parseInt(key.slice(17), 16)`, read with
 * charCodeAt (no slice; the seen cache asks it for every queued mark it
 * keeps). Hex digits up to the first other character; NaN when there is none.
 */
export function seqOf(key: string): number {
  let v = 0;
  let i = 17;
  for (; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) break;
    v = v * 16 + d;
  }
  return i === 17 ? NaN : v;
}

/** Log key of the n-th committed record (n from 1); `log({ gt: logKey(n) })` resumes after it. */
export function logKey(n: number): string {
  return String(n).padStart(16, '0');
}
