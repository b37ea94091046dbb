/**
 * Crawler-trap rules for links (issue 5): pure checks of a canonical URL,
 * applied where links are queued (src/stages/sink.ts). Modelled on
 * Heritrix's decide rules; the numbers are Heritrix's defaults:
 *
 * - `url-length`: the canonical URL is longer than `maxUrlLength`
 *   characters (2083, Heritrix's MAX_URI_LENGTH, the old Internet Explorer
 *   limit). Canonical URLs are ASCII, so characters are bytes.
 * - `path-segments`: the path has more than `maxSegments` segments (20, as
 *   TooManyPathSegmentsDecideRule). `/a/b/c` and `/a/b/c/` have 3, `/` has 0.
 * - `path-repetition`: some segment, or group of consecutive segments,
 *   occurs more than `maxRepeat` times in a row (2, as
 *   PathologicalPathDecideRule): `/a/a/` and `/a/b/a/b/` pass, `/a/a/a/`,
 *   `/x/a/b/a/b/a/b/y` and `/a////` (three empty segments) are traps. The
 *   last segment counts too, with or without a trailing slash (`/a/a/a`
 *   is a trap), which is one step stricter than Heritrix's regex.
 *
 * Only the path is examined; a query-string trap (a calendar's `?month=N`)
 * is what the per-host page budget is for (src/frontier/host-budget.ts).
 */

export type TrapReason = 'url-length' | 'path-segments' | 'path-repetition';

/** Trap limits; `Infinity` turns a rule off. */
export interface TrapLimits {
  /** most consecutive occurrences of a segment or segment group (integer >= 1) */
  maxRepeat: number;
  /** most path segments */
  maxSegments: number;
  /** most characters in the canonical URL */
  maxUrlLength: number;
}

/** Heritrix's defaults: 2 repeats, 20 segments, 2083 characters. */
export const DEFAULT_TRAP_LIMITS: Readonly<TrapLimits> = Object.freeze({ maxRepeat: 2, maxSegments: 20, maxUrlLength: 2083 });

/** Path segments of a canonical URL, without the empty one after a trailing slash. */
export function pathSegments(url: string): string[] {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return [];
  const q = url.indexOf('?', start);
  const path = url.slice(start, q < 0 ? undefined : q);
  if (path === '/') return [];
  const segments = path.slice(1).split('/');
  if (segments[segments.length - 1] === '') segments.pop();
  return segments;
}

/** pathSegments(url).length, without building the segments. */
export function segmentCount(url: string): number {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return 0;
  const q = url.indexOf('?', start);
  const end = q < 0 ? url.length : q;
  if (end - start === 1) return 0; // the path is '/'
  let n = 1;
  for (let i = start + 1; i < end; i++) if (url.charCodeAt(i) === 0x2f) n++;
  if (url.charCodeAt(end - 1) === 0x2f) n--; // the empty segment after a trailing slash
  return n;
}

/**
 * Whether some run of `k` segments occurs more than `maxRepeat` times in a
 * row. A window of (maxRepeat + 1) * k segments has period k exactly when
 * maxRepeat * k consecutive positions j have seg[j] === seg[j + k], so one
 * pass per k finds it: O(n^2) compares for n segments.
 */
export function hasRepetition(segments: readonly string[], maxRepeat: number): boolean {
  if (!Number.isFinite(maxRepeat)) return false;
  const n = segments.length;
  for (let k = 1; k * (maxRepeat + 1) <= n; k++) {
    const need = maxRepeat * k;
    let run = 0;
    for (let j = 0; j + k < n; j++) {
      run = segments[j] === segments[j + k] ? run + 1 : 0;
      if (run >= need) return true;
    }
  }
  return false;
}

/**
 * The trap rule a canonical URL breaks, or null when it breaks none.
 * Rules are checked in the order url-length, path-segments,
 * path-repetition (the cheap ones first; the first two bound the third).
 */
export function trapReason(url: string, limits: Readonly<TrapLimits> = DEFAULT_TRAP_LIMITS): TrapReason | null {
  if (url.length > limits.maxUrlLength) return 'url-length';
  // most URLs have too few segments to repeat any: counted without
  // splitting (the sink asks for every link of every page)
  const n = segmentCount(url);
  if (n > limits.maxSegments) return 'path-segments';
  if (!(n >= limits.maxRepeat + 1)) return null;
  const segments = pathSegments(url);
  if (segments.length > limits.maxSegments) return 'path-segments';
  if (hasRepetition(segments, limits.maxRepeat)) return 'path-repetition';
  return null;
}
