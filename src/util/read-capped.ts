/**
 * Whole-file reads with a size cap, for input files that are parsed in one
 * piece (topic and model JSON). A regular file over the cap is refused from
 * its size before anything is read; anything else (a FIFO, /dev/zero, a file
 * growing while it is read) is refused as soon as more than the cap has
 * arrived, so a huge input never sits in memory whole.
 */
import { open } from 'node:fs/promises';

/**
 * The bytes of `path` when it holds at most `maxBytes` bytes, else null.
 * Rejects with the fs error (ENOENT, EACCES, EISDIR, ...) when the file
 * cannot be read.
 */
export async function readCapped(path: string, maxBytes: number): Promise<Buffer | null> {
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat();
    if (st.isFile() && st.size > maxBytes) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of fh.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) return null;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size);
  } finally {
    await fh.close();
  }
}

/** `n` bytes in the largest binary unit that keeps it at least 1 (e.g. "16 MiB"). */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}
