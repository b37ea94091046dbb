/**
 * The seeds file of `crawl --seeds FILE`: one http(s) URL a line; blank
 * lines and lines starting with `#` are skipped; leading and trailing
 * whitespace (also CR of CRLF files and a BOM) is ignored. FILE `-` is
 * standard input (`… | focuscrawl crawl --seeds - …`), named `stdin` in
 * messages.
 *
 * Policy: a seeds file with any bad line is refused as a whole (FC_USAGE,
 * exit 2) before anything is crawled, with one message naming the first bad
 * line (file:line, the reason, the line itself) and how many bad lines there
 * are and where. The file is read to its end first (streamed, every line
 * capped), so one run reports the whole extent of the damage.
 */
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.ts';
import { readLines } from '../util/read-lines.ts';
import { canonicalize } from '../urls/canonical.ts';

/**
 * Longest seeds-file line (bytes). Longer URLs cannot be requested from most
 * servers anyway (request-line limits of 8 KiB are common); a longer line is
 * skipped unbuffered and reported as bad.
 */
export const MAX_SEED_LINE_BYTES = 8 * 1024;

/** Characters of a bad line quoted in the message. */
const QUOTE_CHARS = 200;
/** Line numbers of further bad lines listed in the message. */
const LIST_LINES = 5;

/** What one line of a seeds file holds. */
export type SeedLine = { kind: 'skip' } | { kind: 'url'; url: string } | { kind: 'bad'; reason: string };

/**
 * Classifies one line of a seeds file (pure): blank or comment → skip; an
 * http(s) URL → url (trimmed, not canonicalised); anything else → bad with
 * the reason. A URL with whitespace or a control character inside is bad
 * (it would otherwise be silently percent-encoded or have it removed).
 */
export function classifySeedLine(line: string): SeedLine {
  const s = line.trim();
  if (s === '' || s.startsWith('#')) return { kind: 'skip' };
  if (canonicalize(s) !== null) {
    if (!/[\s\x00-\x1f\x7f]/.test(s)) return { kind: 'url', url: s };
    return { kind: 'bad', reason: 'whitespace or a control character inside the URL (one URL a line; write a space as %20)' };
  }
  let scheme = '';
  try {
    scheme = new URL(s).protocol;
  } catch {
    // not a URL at all
  }
  return { kind: 'bad', reason: scheme === '' ? 'not an http(s) URL' : `not an http(s) URL (scheme ${scheme})` };
}

/**
 * The seed URLs of `file` (see the module comment; `-`: `stdin`, by
 * default process.stdin). Throws UsageError (FC_USAGE) when the file cannot
 * be read or has a bad line.
 */
export async function readSeedsFile(file: string, stdin: () => Readable = () => process.stdin): Promise<string[]> {
  const seeds: string[] = [];
  let first: { line: number; reason: string; text: string } | null = null;
  const more: number[] = [];
  let bad = 0;
  let n = 0;
  const lines = file === '-' ? readLines('stdin', MAX_SEED_LINE_BYTES, stdin) : readLines(file, MAX_SEED_LINE_BYTES);
  for await (const line of lines) {
    n++;
    const c: SeedLine = line === null ? { kind: 'bad', reason: `line longer than ${MAX_SEED_LINE_BYTES} bytes` } : classifySeedLine(line);
    if (c.kind === 'url') seeds.push(c.url);
    if (c.kind !== 'bad') continue;
    bad++;
    if (first === null) first = { line: n, reason: c.reason, text: line?.trim() ?? '' };
    else if (more.length < LIST_LINES) more.push(n);
  }
  if (first === null) return seeds;
  const quote = first.text === '' ? '' : `: ${JSON.stringify(first.text.slice(0, QUOTE_CHARS))}${first.text.length > QUOTE_CHARS ? '…' : ''}`;
  const rest = bad === 1 ? '' : ` (${bad} bad lines in all; also line${more.length > 1 ? 's' : ''} ${more.join(', ')}${bad - 1 > more.length ? ', …' : ''})`;
  throw new UsageError(`${file === '-' ? 'stdin' : file}:${first.line}: ${first.reason}${quote}${rest}`);
}
