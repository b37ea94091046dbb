/**
 * WARC/1.1 writer for `focuscrawl crawl --warc-out DIR`.
 *
 * Records are built and serialised with warcio (WARCRecord.create,
 * WARCSerializer); digests are computed here with node:crypto (warcio's
 * hash-wasm costs about 1 ms a record) and each record is compressed as its
 * own gzip member with node:zlib, so a reader can seek
 * to any record (src/replay/warc-index.ts does).
 *
 * Files: `<prefix>-<yyyyMMddHHmmssSSS>-<serial>.warc.gz`, each opened with a
 * `warcinfo` record, which is in it before the file has that name (see
 * openFile): a kill never leaves an empty or headless file. A file being
 * written is named `*.warc.gz.open` and is
 * fsynced and renamed when closed (Heritrix's convention): a name without
 * `.open` is a finished file. A file rolls over before a page's records
 * would take it past `maxSize` bytes (a single larger page gets a file of its
 * own). Files are created on the first page, so a crawl that fetches nothing
 * leaves no file.
 *
 * One page (its request/response pairs, redirect hops first, and its
 * metadata record) is one `write(2)` of whole gzip members, awaited: no
 * buffer grows in the writer (backpressure is the caller awaiting
 * writePage), and once writePage resolves the records are in the kernel's
 * hands, so they survive a killed process (not a crashed machine: there is
 * no fsync per page, as for the store's journal). A file left `.open` by a
 * killed crawl holds whole records only, unless the kill fell inside a
 * write(2) larger than the kernel writes at once (then its last gzip member
 * is cut short).
 *
 * Conventions for decoded bodies (as Nutch and StormCrawler write them): the
 * body is stored as received after Content-Encoding was undone, so the
 * original `Content-Encoding`, `Transfer-Encoding` and `Content-Length`
 * headers are kept renamed `X-Crawler-Content-Encoding` and so on, and a
 * `Content-Length` with the stored length is written. A body cut at the
 * byte cap, or not kept at all (a type focuscrawl does not parse, a redirect
 * body), gets `WARC-Truncated`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCb, gzipSync } from 'node:zlib';
import { WARCRecord, WARCSerializer, WARC_1_1 } from 'warcio';
import { WarcError } from '../errors.ts';

const gzipAsync = promisify(gzipCb);

/**
 * Records up to this size are compressed synchronously: zlib's thread-pool
 * round trip costs more CPU than compressing a few KB (measured 300 vs 80
 * µs for 8 KB); larger ones go to the thread pool so the event loop is not
 * held for long.
 */
const SYNC_GZIP_MAX = 256 * 1024;

/** One gzip member. */
function gzip(record: Uint8Array): Promise<Buffer> | Buffer {
  return record.length <= SYNC_GZIP_MAX ? gzipSync(record) : gzipAsync(record);
}

/** Default `--warc-max-size`: 1 GB, the usual WARC file size. */
export const DEFAULT_WARC_MAX_SIZE = 1_000_000_000;

/** Prefix of the renamed transport headers of a decoded body. */
export const CRAWLER_HEADER_PREFIX = 'X-Crawler-';

/** Headers that describe the bytes on the wire, not the stored (decoded) body. */
const WIRE_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

/** Why a stored body is incomplete (WARC 1.1 `WARC-Truncated`). */
export type TruncatedReason = 'length' | 'time' | 'disconnect' | 'unspecified';

/** One HTTP request and its answer. */
export interface WarcExchange {
  /** the URL requested (WARC-Target-URI) */
  url: string;
  /** ISO-8601 time the request started (WARC-Date) */
  date: string;
  /** request headers as sent (name -> value) */
  requestHeaders: Record<string, string>;
  status: number;
  /** reason phrase; default the standard one for the status */
  statusText?: string;
  /** response headers as received, names any case, repeated headers joined */
  headers: Record<string, string>;
  /** the body as stored (after Content-Encoding was undone); null: not kept (stored empty) */
  body: Buffer | null;
  /** set when the stored body is not the whole body */
  truncated?: TruncatedReason | null;
}

/** Everything written for one page: its exchanges (redirect hops first) and metadata fields. */
export interface WarcPage {
  exchanges: WarcExchange[];
  /** `application/warc-fields` of a metadata record about the last response; omitted when undefined */
  metadata?: Record<string, string | number | boolean | null | undefined>;
}

export interface WarcWriterOptions {
  /** directory of the WARC files (created if missing) */
  dir: string;
  /** roll over to a new file before one would pass this many bytes (default 1 GB) */
  maxSize?: number;
  /** file name prefix (default 'focuscrawl') */
  prefix?: string;
  /** fields of each file's warcinfo record (software, format and conformsTo are filled in) */
  info?: Record<string, string>;
  /** clock for file names (tests) */
  now?: () => Date;
}

/** `yyyyMMddHHmmssSSS` in UTC (Heritrix's 17-digit timestamp). */
function timestamp17(d: Date): string {
  return d.toISOString().replace(/[-:T.Z]/g, '').slice(0, 17);
}

function recordId(): string {
  return `<urn:uuid:${randomUUID()}>`;
}

function sha256(...parts: Uint8Array[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return `sha256:${h.digest('hex')}`;
}

/** `content-type` -> `Content-Type`. */
function titleCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/**
 * A header value as undici gives it (each byte one latin1 char) in the form
 * warcio's UTF-8 encoder writes back as the original bytes, when they are
 * UTF-8; other bytes stay latin1 characters.
 */
function wireValue(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(value)) return value;
  const raw = Buffer.from(value, 'latin1');
  const utf8 = raw.toString('utf8');
  return Buffer.from(utf8, 'utf8').equals(raw) ? utf8 : value;
}

/**
 * The response headers to archive with a decoded body of `storedLength`
 * bytes: `Content-Encoding`, `Transfer-Encoding` and `Content-Length` renamed
 * `X-Crawler-*`, then the real `Content-Length`. Names title-cased, order kept.
 */
export function archivedResponseHeaders(headers: Record<string, string>, storedLength: number): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const shown = titleCase(lower);
    out.push([WIRE_HEADERS.has(lower) ? CRAWLER_HEADER_PREFIX + shown : shown, wireValue(value)]);
  }
  out.push(['Content-Length', String(storedLength)]);
  return out;
}

/** Text of an `application/warc-fields` block; values on one line. */
function warcFields(fields: Record<string, string | number | boolean | null | undefined>): Buffer {
  let text = '';
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    text += `${name}: ${String(value).replace(/[\r\n]+/g, ' ')}\r\n`;
  }
  return Buffer.from(text, 'utf8');
}

/** One serialised (uncompressed) record, with digests precomputed so warcio does not hash. */
async function serialize(record: WARCRecord, block: Buffer, payload: Buffer | null): Promise<Uint8Array> {
  const head = record.httpHeaders === null ? new Uint8Array(0) : Buffer.from(record.httpHeaders.toString() + '\r\n', 'utf8');
  if (record.warcType !== 'warcinfo') {
    record.warcHeaders.headers.set('WARC-Block-Digest', sha256(head, block));
    record.warcHeaders.headers.set('WARC-Payload-Digest', sha256(payload ?? block));
  }
  return WARCSerializer.serialize(record, { gzip: false });
}

const EMPTY = Buffer.alloc(0);

/** The records of one exchange: [request, response], the response's id. */
async function exchangeRecords(ex: WarcExchange, warcinfoId: string): Promise<{ records: Uint8Array[]; responseId: string }> {
  const responseId = recordId();
  const u = new URL(ex.url);
  const body = ex.body ?? EMPTY;
  const request = WARCRecord.create(
    {
      url: ex.url,
      date: ex.date,
      type: 'request',
      warcVersion: WARC_1_1,
      statusline: `GET ${u.pathname}${u.search} HTTP/1.1`,
      httpHeaders: Object.fromEntries(Object.entries(ex.requestHeaders).map(([k, v]) => [titleCase(k.toLowerCase()), v])),
      warcHeaders: { 'WARC-Record-ID': recordId(), 'WARC-Warcinfo-ID': warcinfoId, 'WARC-Concurrent-To': responseId },
    },
    [],
  );
  const warcHeaders: Record<string, string> = { 'WARC-Record-ID': responseId, 'WARC-Warcinfo-ID': warcinfoId };
  if (ex.truncated) warcHeaders['WARC-Truncated'] = ex.truncated;
  const reason = (ex.statusText ?? STATUS_CODES[ex.status] ?? '').replace(/[^\t\x20-\x7e]/g, '');
  const response = WARCRecord.create(
    {
      url: ex.url,
      date: ex.date,
      type: 'response',
      warcVersion: WARC_1_1,
      statusline: `HTTP/1.1 ${ex.status}${reason === '' ? '' : ' ' + reason}`,
      // an array keeps every header (warcio takes [name, value] pairs)
      httpHeaders: archivedResponseHeaders(ex.headers, body.length) as unknown as Record<string, string>,
      warcHeaders,
    },
    body.length === 0 ? [] : [new Uint8Array(body.buffer, body.byteOffset, body.length)],
  );
  return { records: [await serialize(request, EMPTY, EMPTY), await serialize(response, body, body)], responseId };
}

/** One open output file. */
interface OpenFile {
  /** final name (without .open) */
  path: string;
  fh: FileHandle;
  size: number;
  warcinfoId: string;
  /** pages written to it */
  pages: number;
}

/**
 * Writes pages as WARC/1.1 (gzip per record) into `opts.dir`, rolling over
 * by size. Calls are serialised; a failed write leaves the writer failed
 * (every later call throws the same WarcError, FC_WARC).
 */
export class WarcWriter {
  readonly dir: string;
  readonly maxSize: number;
  readonly prefix: string;
  private readonly info: Record<string, string>;
  private readonly now: () => Date;
  private file: OpenFile | null = null;
  private serial = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private failed: WarcError | null = null;
  private closed = false;
  /** finished files (renamed), in order */
  readonly files: string[] = [];
  /** compressed bytes written to all files */
  bytes = 0;
  /** pages written */
  pages = 0;

  private constructor(opts: WarcWriterOptions) {
    this.dir = path.resolve(opts.dir);
    this.maxSize = opts.maxSize ?? DEFAULT_WARC_MAX_SIZE;
    if (!(Number.isFinite(this.maxSize) && this.maxSize >= 1)) throw new TypeError(`maxSize must be a positive number, got ${this.maxSize}`);
    this.prefix = opts.prefix ?? 'focuscrawl';
    this.info = opts.info ?? {};
    this.now = opts.now ?? (() => new Date());
  }

  /** A writer for `opts.dir`, which is created now (WarcError when it cannot be). */
  static async create(opts: WarcWriterOptions): Promise<WarcWriter> {
    const w = new WarcWriter(opts);
    try {
      await mkdir(w.dir, { recursive: true });
      if (!(await stat(w.dir)).isDirectory()) throw new Error('not a directory');
    } catch (err) {
      throw new WarcError(`cannot use --warc-out ${w.dir}: ${(err as Error).message}`, { cause: err });
    }
    return w;
  }

  /** The file being written (its final name; on disk it ends in `.open`), or null. */
  get current(): string | null {
    return this.file?.path ?? null;
  }

  /**
   * Write one page's records as one write; resolves once they are written
   * (handed to the kernel). Returns the compressed bytes written.
   */
  writePage(page: WarcPage): Promise<number> {
    return this.serialised(() => this.doWritePage(page));
  }

  /**
   * Close the current file: fsync, then rename `.open` away. Idempotent.
   * After a failed write the file is closed but keeps its `.open` name (its
   * last record may be incomplete) and this resolves: the write threw already.
   */
  close(): Promise<void> {
    const run = async (): Promise<void> => {
      this.closed = true;
      if (this.failed !== null) {
        await this.file?.fh.close().catch(() => {});
        this.file = null;
        return;
      }
      try {
        await this.closeFile();
      } catch (err) {
        this.failed = err as WarcError;
        throw err;
      }
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  private serialised<T>(fn: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      if (this.failed !== null) throw this.failed;
      try {
        return await fn();
      } catch (err) {
        this.failed = err instanceof WarcError ? err : new WarcError(`cannot write WARC in ${this.dir}: ${(err as Error).message}`, { cause: err });
        throw this.failed;
      }
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  private async doWritePage(page: WarcPage): Promise<number> {
    if (this.closed) throw new TypeError('WarcWriter is closed');
    if (page.exchanges.length === 0) return 0;
    // records refer to the warcinfo of their file, so the file is chosen first;
    // a rollover re-serialises the page for the new file (rare)
    let file = this.file ?? (await this.openFile());
    let batch = await this.pageBytes(page, file.warcinfoId);
    if (file.pages > 0 && file.size + batch.length > this.maxSize) {
      await this.closeFile();
      file = await this.openFile();
      batch = await this.pageBytes(page, file.warcinfoId);
    }
    await writeAll(file.fh, batch, file.path);
    file.size += batch.length;
    file.pages++;
    this.bytes += batch.length;
    this.pages++;
    return batch.length;
  }

  /** The page's records, each its own gzip member, concatenated. */
  private async pageBytes(page: WarcPage, warcinfoId: string): Promise<Buffer> {
    const members: Buffer[] = [];
    let lastResponse = '';
    for (const ex of page.exchanges) {
      const { records, responseId } = await exchangeRecords(ex, warcinfoId);
      for (const r of records) members.push(await gzip(r));
      lastResponse = responseId;
    }
    if (page.metadata !== undefined) {
      const last = page.exchanges[page.exchanges.length - 1];
      const block = warcFields(page.metadata);
      const meta = WARCRecord.create(
        {
          url: last.url,
          date: last.date,
          type: 'metadata',
          warcVersion: WARC_1_1,
          warcHeaders: {
            'WARC-Record-ID': recordId(),
            'WARC-Warcinfo-ID': warcinfoId,
            'WARC-Concurrent-To': lastResponse,
            'WARC-Refers-To': lastResponse,
            'Content-Type': 'application/warc-fields',
          },
        },
        [new Uint8Array(block.buffer, block.byteOffset, block.length)],
      );
      members.push(await gzip(await serialize(meta, block, null)));
    }
    return Buffer.concat(members);
  }

  /**
   * Create the next file. Its warcinfo record is built first and written
   * to `<name>.open.tmp`, which is then hard-linked to `<name>.open` (that
   * fails rather than clobber another crawl's file) and unlinked: a
   * `*.warc.gz.open` file never exists without its whole warcinfo record,
   * so a kill at any moment leaves a valid file or none. A kill between
   * creating the temporary file and linking it can leave that `.tmp`
   * file, which no WARC reader takes for a WARC file.
   */
  private async openFile(): Promise<OpenFile> {
    const stamp = timestamp17(this.now());
    for (let tries = 0; ; tries++) {
      const name = `${this.prefix}-${stamp}-${String(this.serial++).padStart(5, '0')}.warc.gz`;
      const final = path.join(this.dir, name);
      const warcinfoId = recordId();
      const bytes = await this.warcinfoBytes(name, warcinfoId);
      // never clobber: another crawl may write into the same directory
      if (await exists(final)) continue;
      const tmp = `${final}.open.tmp`;
      let fh: FileHandle;
      try {
        fh = await open(tmp, 'wx');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST' && tries < 1000) continue;
        throw new WarcError(`cannot create ${tmp}: ${(err as Error).message}`, { cause: err });
      }
      try {
        await writeAll(fh, bytes, tmp);
        await publish(tmp, final + '.open');
      } catch (err) {
        await fh.close().catch(() => {});
        await unlink(tmp).catch(() => {});
        if ((err as NodeJS.ErrnoException).code === 'EEXIST' && tries < 1000) continue;
        throw err instanceof WarcError ? err : new WarcError(`cannot create ${final}.open: ${(err as Error).message}`, { cause: err });
      }
      await unlink(tmp).catch(() => {});
      const file: OpenFile = { path: final, fh, size: bytes.length, warcinfoId, pages: 0 };
      this.file = file;
      this.bytes += bytes.length;
      return file;
    }
  }

  /** The gzipped warcinfo record of file `name`. */
  private async warcinfoBytes(name: string, warcinfoId: string): Promise<Buffer> {
    const block = warcFields({
      software: this.info.software ?? 'focuscrawl',
      format: 'WARC File Format 1.1',
      conformsTo: 'http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
      ...this.info,
    });
    const record = WARCRecord.create(
      {
        date: this.now().toISOString(),
        type: 'warcinfo',
        warcVersion: WARC_1_1,
        filename: name,
        warcHeaders: { 'WARC-Record-ID': warcinfoId, 'Content-Type': 'application/warc-fields' },
      },
      [new Uint8Array(block.buffer, block.byteOffset, block.length)],
    );
    return gzip(await serialize(record, block, null));
  }

  private async closeFile(): Promise<void> {
    const file = this.file;
    if (file === null) return;
    this.file = null;
    try {
      await file.fh.sync();
      await file.fh.close();
      await rename(file.path + '.open', file.path);
    } catch (err) {
      await file.fh.close().catch(() => {});
      throw new WarcError(`cannot finish ${file.path}: ${(err as Error).message}`, { cause: err });
    }
    this.files.push(file.path);
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Give the file `tmp` the name `target` unless that name is taken (EEXIST):
 * a hard link, then the caller unlinks `tmp`. On a file system without hard
 * links, a rename (the caller checked the name was free).
 */
async function publish(tmp: string, target: string): Promise<void> {
  try {
    await link(tmp, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    if (await exists(target)) throw Object.assign(new Error(`${target} exists`), { code: 'EEXIST' });
    await rename(tmp, target);
  }
}

/** Write all of `buf` at the end of the file (short writes continued); WarcError on failure. */
async function writeAll(fh: FileHandle, buf: Buffer, name: string): Promise<void> {
  let off = 0;
  try {
    while (off < buf.length) {
      const { bytesWritten } = await fh.write(buf, off, buf.length - off);
      if (bytesWritten <= 0) throw new Error('write wrote nothing');
      off += bytesWritten;
    }
  } catch (err) {
    throw new WarcError(`cannot write ${name}.open: ${(err as Error).message}`, { cause: err });
  }
}
