/** UTF-16 helpers of the parser: cut strings without splitting a surrogate pair. */

/** True for a UTF-16 high (leading) surrogate code unit. */
export function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** True for a UTF-16 low (trailing) surrogate code unit. */
export function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Where to cut `s` to keep at most its first `n` code units without
 * splitting a surrogate pair (a cut emoji would leave a lone surrogate).
 */
export function headEnd(s: string, n: number): number {
  return n > 0 && n < s.length && isHigh(s.charCodeAt(n - 1)) && isLow(s.charCodeAt(n)) ? n - 1 : n;
}

/** The first `n` code units of `s` or fewer, never half a surrogate pair. */
export function headOf(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, headEnd(s, n));
}
