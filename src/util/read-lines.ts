/**
 * Reading a text file line by line with a cap on the line length: the seeds
 * file (src/seeds/file.ts) and the training readers (src/relevance/train/).
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.ts';

/** Longest line read by default (bytes); the training readers report a longer line as malformed (NDJSON) or reject it (labels). */
export const MAX_LINE_BYTES = 1024 * 1024;

/**
 * The lines of a UTF-8 text file without their line ends (LF or CRLF; a
 * leading BOM is dropped). A line longer than `maxLineBytes` is yielded as
 * null (its bytes are skipped, never buffered). Throws UsageError (FC_USAGE)
 * when the file cannot be read. `open` gives the bytes instead of the file
 * at `path` (which then only names them in messages), e.g. stdin.
 */
export async function* readLines(path: string, maxLineBytes = MAX_LINE_BYTES, open: () => Readable = () => createReadStream(path)): AsyncGenerator<string | null> {
  const decoder = new TextDecoder('utf-8');
  let parts: Buffer[] = [];
  let size = 0;
  let overlong = false;
  let first = true;
  const take = (): string | null => {
    let line: string | null = null;
    if (!overlong) {
      line = decoder.decode(Buffer.concat(parts, size));
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (first) line = line.replace(/^\uFEFF/, '');
    }
    first = false;
    parts = [];
    size = 0;
    overlong = false;
    return line;
  };
  let stream;
  try {
    stream = open();
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        const end = nl === -1 ? chunk.length : nl;
        if (!overlong) {
          if (size + end - start > maxLineBytes) {
            overlong = true;
            parts = [];
            size = 0;
          } else if (end > start) {
            parts.push(chunk.subarray(start, end));
            size += end - start;
          }
        }
        if (nl === -1) break;
        yield take();
        start = nl + 1;
      }
    }
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
  } finally {
    stream?.destroy();
  }
  if (size > 0 || overlong) yield take();
}
