/**
 * Pages-out stage (`--pages-out DIR`): Zou et al.'s page repository
 * (docs/algorithms.md#page-repository). Every
 * fetched body the crawl kept (HTML and XHTML pages, any status) is saved as
 * a file named by the 32-hex-character MD5 of the page's canonical URL (the
 * record's `url`, the URL requested), e.g. http://www.scu.edu.cn/ ->
 * `35/355bd40a1cffbb871d1fce0048a19972`.
 *
 * Files fan out into 256 subdirectories by the first two hex characters: a
 * crawl of a million pages puts about 4,000 files in each instead of a
 * million in one (ext4 copes with that through its hashed directories, but
 * `ls`, shell globs, backups and some file systems do not).
 *
 * The bytes are the body as received with its Content-Encoding undone, cut
 * at --max-bytes. Each file is written to a temporary name in its
 * subdirectory and renamed into place, so a reader (or a crash) never sees
 * a half-written page; a page fetched again (a resumed or retried URL)
 * replaces its file. The item is yielded after the rename, so every
 * committed page has its file (not fsynced: a killed process loses nothing,
 * a crashed machine may).
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PagesOutError } from '../errors.ts';
import type { CrawlItem } from '../types.ts';

/** `md5(url)` as 32 hex characters (Zou et al.'s page file name, docs/algorithms.md#page-repository). */
export function pageFileName(url: string): string {
  return createHash('md5').update(url, 'utf8').digest('hex');
}

/** Path of a page's file under `dir`: `dir/ab/ab...` (fan-out by the first two hex characters). */
export function pageFilePath(dir: string, url: string): string {
  const name = pageFileName(url);
  return path.join(dir, name.slice(0, 2), name);
}

/** Writes page bodies into a directory, atomically. */
export class PageStore {
  readonly dir: string;
  private readonly made = new Set<string>();
  private seq = 0;
  /** files written and bytes in them */
  pages = 0;
  bytes = 0;

  private constructor(dir: string) {
    this.dir = dir;
  }

  /** A store in `dir`, which is created now (PagesOutError when it cannot be). */
  static async create(dir: string): Promise<PageStore> {
    const abs = path.resolve(dir);
    try {
      await mkdir(abs, { recursive: true });
      if (!(await stat(abs)).isDirectory()) throw new Error('not a directory');
    } catch (err) {
      throw new PagesOutError(`cannot use --pages-out ${abs}: ${(err as Error).message}`, { cause: err });
    }
    return new PageStore(abs);
  }

  /** Save `body` as the page of `url` (temp file, then rename); returns its path. */
  async save(url: string, body: Buffer): Promise<string> {
    const file = pageFilePath(this.dir, url);
    const sub = path.dirname(file);
    const tmp = path.join(sub, `.${path.basename(file)}.${process.pid}.${this.seq++}.tmp`);
    try {
      if (!this.made.has(sub)) {
        await mkdir(sub, { recursive: true });
        this.made.add(sub);
      }
      await writeFile(tmp, body);
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => {});
      throw new PagesOutError(`cannot write ${file}: ${(err as Error).message}`, { cause: err });
    }
    this.pages++;
    this.bytes += body.length;
    return file;
  }
}

export interface PagesOutOptions {
  store: Pick<PageStore, 'save'>;
  /** set `fetch.body = null` after saving (default true) */
  dropBody?: boolean;
}

/** Pipeline stage: saves each kept body under md5(item.entry.url), then yields the item. */
export async function* pagesOutStage(source: AsyncIterable<CrawlItem>, opts: PagesOutOptions): AsyncGenerator<CrawlItem> {
  const dropBody = opts.dropBody !== false;
  for await (const item of source) {
    const f = item.fetch;
    if (f !== undefined && f.body !== null) {
      await opts.store.save(item.entry.url, f.body);
      if (dropBody) f.body = null;
    }
    yield item;
  }
}
