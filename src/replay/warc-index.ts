/**
 * Index of the `response` records of WARC files by canonical URL, and a
 * reader that fetches one archived HTTP response on demand. A `revisit`
 * record (a deduplicating crawler's "same payload as before", as Heritrix and
 * wget write them) stands for the response it refers to, found by
 * `WARC-Refers-To-Target-URI` or else by `WARC-Payload-Digest`.
 *
 * Only locations are kept in memory: for a per-record-gzip file the byte
 * offset and length of the record's gzip member (a lookup inflates just that
 * member), for an uncompressed file the offset and length of the record.
 * Offsets come from warcio's parser exactly as its own indexer reports them
 * (`parser.offset`, `parser.recordLength` after skipping the record).
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { pipeline as pipelinePromise } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { AsyncIterReader, HeadersMultiMap, WARCParser } from 'warcio';
import { canonicalize } from '../url.ts';
import { CapExceededError, FocuscrawlError, UsageError } from '../errors.ts';

/** Largest HTTP payload served for one record (bytes). */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

/** Room for the WARC and HTTP header blocks on top of the body cap. */
const HEADER_ROOM = 1024 * 1024;

/** Where one record lives. */
export interface WarcLocation {
  /** path of the WARC file, as given to buildIndex (or its inflated temporary copy, for a whole-file gzip) */
  file: string;
  /** byte offset of the gzip member (gzip) or of the record (uncompressed) */
  offset: number;
  /** byte length of the gzip member or of the record (header block + content) */
  length: number;
  /** true when the file is gzip-compressed, one member per record */
  gzip: boolean;
}

/** Canonical URL -> record location, first response record per URL wins. */
export interface WarcIndex {
  /** the WARC files, in the order given */
  readonly files: readonly string[];
  /** canonical URL -> location */
  readonly entries: ReadonlyMap<string, WarcLocation>;
  /** response records with an http(s) target URI seen (duplicates included) */
  readonly responseRecords: number;
  /**
   * `revisit` records (a deduplicating crawler's "same payload as before")
   * whose URL had no response record and whose original was found: the URL
   * is served from the original response record
   */
  readonly revisitsResolved: number;
}

/** One archived HTTP response. */
export interface ArchivedResponse {
  status: number;
  statusText: string;
  /** archived headers in order, minus Transfer-Encoding and invalid ones */
  headers: [string, string][];
  /** payload as archived (de-chunked, Content-Encoding untouched) */
  body: Buffer;
}

async function isGzipFile(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/** Thrown inside indexFile when a gzip file holds several records per member. */
class NotPerRecordGzip extends Error {}

/** A response or revisit record with an http(s) target URI, as scanRecords finds it. */
interface Scanned {
  type: 'response' | 'revisit';
  url: string;
  /** WARC-Payload-Digest */
  digest: string | null;
  /** a revisit's WARC-Refers-To-Target-URI, canonical */
  refersTo: string | null;
  loc: WarcLocation;
}

/** A WARC file as indexed: `read` is the file itself or its inflated copy. */
interface Source {
  file: string;
  read: string;
  gzip: boolean;
}

/**
 * The response and revisit records of `source`, in file order. Throws
 * NotPerRecordGzip for a gzip file with several records in a member,
 * UsageError naming `source.file` for an unreadable one, FocuscrawlError
 * FC_BAD_WARC for one that is empty or does not start with a WARC record.
 */
async function* scanRecords(source: Source): AsyncGenerator<Scanned> {
  const { file, read, gzip } = source;
  const parser = new WARCParser(createReadStream(read), { parseHttp: false });
  let lastOffset = -1;
  let records = 0;
  try {
    for await (const record of parser) {
      // warcio takes any first line for a version line: a file that does not start with one is not a WARC
      const version = record.warcHeaders.protocol ?? '';
      if (records++ === 0 && !/^WARC\/\d+\.\d+$/.test(version)) {
        throw new FocuscrawlError('FC_BAD_WARC', `${file}: not a WARC file (it starts with ${JSON.stringify(version.slice(0, 40))}, not a WARC/1.x version line)`);
      }
      await record.skipFully();
      const offset = parser.offset;
      if (gzip) {
        // A whole-file (or multi-record) gzip member gives every record the same offset.
        if (offset <= lastOffset) throw new NotPerRecordGzip();
        lastOffset = offset;
      }
      const type = record.warcType;
      if (type !== 'response' && type !== 'revisit') continue;
      const target = record.warcTargetURI;
      const url = target ? canonicalize(target) : null;
      if (url === null) continue;
      const refersTo = type === 'revisit' ? record.warcRefersToTargetURI : null;
      yield {
        type,
        url,
        digest: record.warcPayloadDigest ?? null,
        refersTo: refersTo ? canonicalize(refersTo) : null,
        loc: { file: read, offset, length: parser.recordLength, gzip },
      };
    }
  } catch (err) {
    if (err instanceof FocuscrawlError || err instanceof NotPerRecordGzip) throw err;
    throw new UsageError(`${file}: not a readable WARC file (${(err as Error).message})`, { cause: err });
  }
  // an empty file
  if (records === 0) throw new FocuscrawlError('FC_BAD_WARC', `${file}: not a WARC file (no WARC record in it)`);
}

/** What indexing collects: response locations by URL, the revisit records, and the files as read. */
interface Found {
  entries: Map<string, WarcLocation>;
  revisits: Scanned[];
  sources: Source[];
}

/** Add the records of `source` to `found`; returns the number of response records. */
async function indexRecords(source: Source, found: Found): Promise<number> {
  let responses = 0;
  for await (const r of scanRecords(source)) {
    if (r.type === 'revisit') found.revisits.push(r);
    else {
      responses++;
      if (!found.entries.has(r.url)) found.entries.set(r.url, r.loc);
    }
  }
  found.sources.push(source);
  return responses;
}

/**
 * Index `file` into `found`. A gzip file compressed as a whole (or several
 * records per member) cannot be read one record at a time: it is inflated
 * once into an uncompressed temporary copy, which is indexed instead and
 * deleted when the process exits.
 */
async function indexFile(file: string, found: Found): Promise<number> {
  const gzip = await isGzipFile(file);
  if (!gzip) return indexRecords({ file, read: file, gzip: false }, found);
  // staged: a file found not to be per-record gzip part-way adds nothing
  const staged: Found = { entries: new Map(), revisits: [], sources: [] };
  try {
    const n = await indexRecords({ file, read: file, gzip: true }, staged);
    for (const [url, loc] of staged.entries) if (!found.entries.has(url)) found.entries.set(url, loc);
    found.revisits.push(...staged.revisits);
    found.sources.push(...staged.sources);
    return n;
  } catch (err) {
    if (!(err instanceof NotPerRecordGzip)) throw err;
  }
  return indexRecords({ file, read: await inflatedCopy(file), gzip: false }, found);
}

/** Temporary inflated copies of whole-file gzip WARCs, deleted at exit. */
const inflated = new Map<string, string>();
let cleanupHooked = false;

async function inflatedCopy(file: string): Promise<string> {
  const known = inflated.get(file);
  if (known !== undefined) return known;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'focuscrawl-warc-'));
  const copy = path.join(dir, `${path.basename(file).replace(/\.gz$/i, '')}`);
  try {
    await pipelinePromise(createReadStream(file), createGunzip(), createWriteStream(copy));
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new UsageError(`${file}: not a readable gzip file (${(err as Error).message})`, { cause: err });
  }
  inflated.set(file, copy);
  if (!cleanupHooked) {
    cleanupHooked = true;
    process.once('exit', () => {
      for (const c of inflated.values()) rmSync(path.dirname(c), { recursive: true, force: true });
    });
  }
  return copy;
}

/**
 * Index the `response` records (http(s) target URI) of `files`, in order,
 * and the `revisit` records whose original response is in them.
 * A gzip file compressed as a whole is inflated into a temporary copy first
 * (see indexFile). Throws UsageError (FC_USAGE) for an unreadable or
 * malformed file, FocuscrawlError FC_BAD_WARC for a file that is empty or
 * does not start with a WARC record (not a WARC file).
 */
export async function buildIndex(files: string[]): Promise<WarcIndex> {
  const found: Found = { entries: new Map(), revisits: [], sources: [] };
  let responseRecords = 0;
  for (const file of files) responseRecords += await indexFile(file, found);
  // A revisit stands for the response it refers to, by URL, else by payload
  // digest, in any of the files; a URL's own response record wins. Digests
  // are looked up in a second scan, only for the revisits that need one, so
  // an archive without such revisits holds no digest per record.
  const { entries } = found;
  const byUrl = (r: Scanned): WarcLocation | undefined => (r.refersTo === null ? undefined : entries.get(r.refersTo));
  const pending = found.revisits.filter((r) => !entries.has(r.url));
  const wanted = new Set(pending.filter((r) => byUrl(r) === undefined && r.digest !== null).map((r) => r.digest!));
  const byDigest = new Map<string, WarcLocation>();
  for (const source of wanted.size > 0 ? found.sources : []) {
    for await (const r of scanRecords(source)) {
      if (r.type === 'response' && r.digest !== null && wanted.has(r.digest) && !byDigest.has(r.digest)) byDigest.set(r.digest, r.loc);
    }
  }
  let revisitsResolved = 0;
  for (const r of pending) {
    if (entries.has(r.url)) continue;
    const original = byUrl(r) ?? (r.digest === null ? undefined : byDigest.get(r.digest));
    if (original === undefined) continue;
    entries.set(r.url, original);
    revisitsResolved++;
  }
  return { files: [...files], entries, responseRecords, revisitsResolved };
}

/** Source of the record bytes at `loc`, decompressed, aborting past `limit` bytes. */
async function* recordBytes(loc: WarcLocation, limit: number): AsyncGenerator<Uint8Array> {
  const raw = createReadStream(loc.file, { start: loc.offset, end: loc.offset + loc.length - 1 });
  // pipeline forwards a read error of `raw` to the gunzip stream being iterated
  const stream = loc.gzip ? pipeline(raw, createGunzip(), () => {}) : raw;
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) throw new CapExceededError(`archived record for ${loc.file}@${loc.offset}`, limit);
      yield chunk;
    }
  } finally {
    raw.destroy();
    if (stream !== raw) stream.destroy();
  }
}

/** Archived header pairs, multi-values split, unsendable ones dropped. */
function headerPairs(headers: HeadersMultiMap | Headers): [string, string][] {
  const out: [string, string][] = [];
  const push = (name: string, value: string): void => {
    if (name.toLowerCase() === 'transfer-encoding') return;
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      return;
    }
    out.push([name, value]);
  };
  if (headers instanceof HeadersMultiMap) {
    for (const name of headers.keys()) {
      for (const value of headers.getMultiple(name) ?? []) push(name, value);
    }
  } else {
    for (const [name, value] of headers) push(name, value);
  }
  return out;
}

/**
 * The archived response for `canonicalUrl` (a key of `index.entries`), or
 * null when the archive has none. Reads and inflates just that record.
 * Throws CapExceededError (FC_CAP_EXCEEDED) when the payload exceeds
 * `maxBodyBytes`, FocuscrawlError FC_BAD_WARC when the record has no usable
 * HTTP status line.
 */
export async function readResponse(
  index: WarcIndex,
  canonicalUrl: string,
  maxBodyBytes: number = MAX_BODY_BYTES,
): Promise<ArchivedResponse | null> {
  const loc = index.entries.get(canonicalUrl);
  if (loc === undefined) return null;
  const source = recordBytes(loc, maxBodyBytes + HEADER_ROOM);
  try {
    const parser = new WARCParser(new AsyncIterReader(source, null), { keepHeadersCase: true });
    const record = await parser.parse();
    const http = record?.httpHeaders;
    if (!record || !http) throw new FocuscrawlError('FC_BAD_WARC', `no HTTP response in record for ${canonicalUrl}`);
    const status = Number(http.statusCode);
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new FocuscrawlError('FC_BAD_WARC', `bad archived status line "${http.statusline}" for ${canonicalUrl}`);
    }
    const headers = headerPairs(http.headers);
    let chunked = false;
    for (const [name, value] of http.headers) {
      if (name.toLowerCase() === 'transfer-encoding' && /chunked/i.test(value)) chunked = true;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of new AsyncIterReader(record.reader, null, chunked)) {
      size += chunk.length;
      if (size > maxBodyBytes) throw new CapExceededError(`archived body of ${canonicalUrl}`, maxBodyBytes);
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
    return { status, statusText: http.statusText ?? '', headers, body: Buffer.concat(chunks, size) };
  } finally {
    await source.return(undefined);
  }
}
