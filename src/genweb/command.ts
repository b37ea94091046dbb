/**
 * `focuscrawl gen-web --headlines FILE.ndjson --out web.warc.gz`: build a
 * synthetic portal-style Chinese web from labelled headlines (see
 * src/genweb/portal.ts) and write it as a WARC (one gzip member per record,
 * pure-JS gzip, fixed WARC-Dates and record ids, so the same input and seed
 * give identical bytes), a labels TSV and a seeds file.
 *
 * Also runnable directly: `node --import tsx src/genweb/command.ts --help`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { WARCRecord, WARCSerializer, WARC_1_1 } from 'warcio';
import { FocuscrawlError, UsageError } from '../errors.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from '../term.ts';
import { generatePortalWeb, WARCINFO_DESCRIPTION, type Headline, type PortalWeb } from './portal.ts';

const USAGE = `Usage: focuscrawl gen-web --headlines FILE.ndjson --out web.warc.gz [options]

Build a synthetic portal-style Chinese web from labelled headlines: portal
homes, per-category channel hosts with paginated hubs, one article page per
headline (the headline is its title and anchor text), related-article links,
forum threads that tunnel to small single-topic sites, dead links, robots.txt,
GBK / GB18030 / UTF-8 pages. Every record says its links are synthetic.

  --headlines FILE       NDJSON, one headline object a line (required)
  --text-field NAME      field with the headline text (default sentence)
  --label-field NAME     field with the label (default label_desc)
  --keywords-field NAME  field with comma-separated keywords (default keywords; optional per line)
  --seed N               PRNG seed, 0-4294967295 (default 1)
  --limit N              use only the first N valid headlines
  --hosts N              number of portals (default 3, 1-50)
  --page-size N          article links per hub page (default 20, 5-200)
  --hidden-share X       share of each label's headlines reachable only through tunnels (default 0.08, 0-0.5)
  --out FILE             WARC to write (.warc.gz, required)
  --labels-out FILE      labels TSV url, label, site (default: beside --out, <name>-labels.tsv)
  --seeds-out FILE       seed URLs, one a line (default: beside --out, <name>-seeds.txt)
  -h, --help             show this help

Lines that are not JSON objects with a non-empty text and label are skipped
and counted. stdout gets one JSON summary line; stderr a human one.
`;

/** Longest NDJSON line read (characters); longer lines count as malformed. */
export const MAX_LINE_CHARS = 64 * 1024;

/** Most headlines read (without --limit a longer file is a usage error). */
export const MAX_HEADLINES = 500_000;

/** Field names of the headline NDJSON. */
export interface HeadlineFields {
  text: string;
  label: string;
  keywords: string;
}

/** What readHeadlines found. */
export interface HeadlineFile {
  headlines: Headline[];
  /** non-blank lines skipped: not JSON, not an object, missing/empty text or label, too long */
  malformed: number;
}

/** Where runGenWeb writes (tests); default: the process streams. */
export interface GenWebIo {
  stdout?: Writable;
  stderr?: Writable;
}

/** One headline from a parsed NDJSON value, or null when it lacks a usable text or label. */
function toHeadline(value: unknown, fields: HeadlineFields): Headline | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  const text = o[fields.text];
  const label = typeof o[fields.label] === 'number' ? String(o[fields.label]) : o[fields.label];
  if (typeof text !== 'string' || text.trim() === '' || typeof label !== 'string' || label === '' || /[\t\r\n]/.test(label)) return null;
  if (label === 'home' || /^(hub|forum):/.test(label)) return null;
  const kw = o[fields.keywords];
  return typeof kw === 'string' && kw !== '' ? { sentence: text, label, keywords: kw } : { sentence: text, label };
}

/**
 * Read headlines from an NDJSON file (UTF-8, optional BOM). Blank lines are
 * ignored; malformed ones are counted and skipped; reading stops after
 * `limit` valid headlines. Throws UsageError when the file cannot be read or
 * holds more than MAX_HEADLINES headlines without a limit.
 */
export async function readHeadlines(file: string, fields: HeadlineFields, limit = Infinity): Promise<HeadlineFile> {
  const headlines: Headline[] = [];
  let malformed = 0;
  let line = '';
  let tooLong = false;
  let first = true;
  const take = (raw: string): void => {
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (first) {
      first = false;
      if (text.startsWith('\ufeff')) text = text.slice(1);
    }
    if (text.trim() === '') return;
    let h: Headline | null = null;
    try {
      h = toHeadline(JSON.parse(text), fields);
    } catch {
      h = null;
    }
    if (h === null) malformed++;
    else headlines.push(h);
  };
  const stream = createReadStream(file, { encoding: 'utf8' });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
        const piece = chunk.slice(start, nl);
        if (tooLong || line.length + piece.length > MAX_LINE_CHARS) malformed++;
        else take(line + piece);
        line = '';
        tooLong = false;
        start = nl + 1;
        if (headlines.length >= limit) return { headlines, malformed };
      }
      const rest = chunk.slice(start);
      if (!tooLong && line.length + rest.length > MAX_LINE_CHARS) {
        tooLong = true;
        line = '';
      } else if (!tooLong) {
        line += rest;
      }
      if (headlines.length > MAX_HEADLINES) throw new UsageError(`${file} has more than ${MAX_HEADLINES} headlines; use --limit`);
    }
  } catch (err) {
    if (err instanceof FocuscrawlError) throw err;
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  } finally {
    stream.destroy();
  }
  if (tooLong) malformed++;
  else if (line !== '' && headlines.length < limit) take(line);
  return { headlines, malformed };
}

/** A deterministic `urn:uuid:` from a key (SHA-1, version-5 layout). */
function uuid(key: string): string {
  const h = createHash('sha1').update(`focuscrawl-gen-web:${key}`).digest('hex');
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const WARC_DATE0 = Date.UTC(2024, 5, 1, 8, 0, 0);
const warcDate = (i: number): string => new Date(WARC_DATE0 + i * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The web as WARC/1.1 bytes: a warcinfo record (description
 * WARCINFO_DESCRIPTION) then one `response` record per web record, each its
 * own gzip member (pako), WARC-Date 2024-06-01T08:00:00Z + i seconds,
 * record ids derived from `seed` and the URL. Same input, same bytes.
 */
export async function portalWarc(web: PortalWeb, seed: number): Promise<Buffer> {
  const infoId = `<${uuid(`${seed}/warcinfo`)}>`;
  const parts: Uint8Array[] = [];
  const push = async (r: WARCRecord): Promise<void> => {
    parts.push(await WARCSerializer.serialize(r, { gzip: true, preferPako: true }));
  };
  await push(
    WARCRecord.createWARCInfo(
      { warcVersion: WARC_1_1, date: warcDate(0), warcHeaders: { 'WARC-Record-ID': infoId } },
      {
        software: 'focuscrawl gen-web (src/genweb)',
        format: 'WARC File Format 1.1',
        description: WARCINFO_DESCRIPTION,
        isPartOf: `focuscrawl generated portal web, seed ${seed}`,
      },
    ),
  );
  for (let i = 0; i < web.records.length; i++) {
    const r = web.records[i];
    const headers: Record<string, string> = {};
    for (const [k, v] of r.headers) headers[k] = v;
    // Digests computed here (node:crypto) instead of by warcio (hash-wasm, ~1 ms a record);
    // the block is the HTTP header block as warcio writes it, then the body.
    const statusline = `HTTP/1.1 ${r.status} ${r.statusText}`;
    const head = Buffer.from(`${[statusline, ...r.headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n')}\r\n\r\n`, 'utf8');
    const payloadDigest = `sha256:${createHash('sha256').update(r.body).digest('hex')}`;
    const blockDigest = `sha256:${createHash('sha256').update(head).update(r.body).digest('hex')}`;
    await push(
      WARCRecord.create(
        {
          url: r.url,
          date: warcDate(i + 1),
          type: 'response',
          warcVersion: WARC_1_1,
          statusline,
          httpHeaders: headers,
          warcHeaders: {
            'WARC-Record-ID': `<${uuid(`${seed}/response ${r.url}`)}>`,
            'WARC-Warcinfo-ID': infoId,
            'WARC-Payload-Digest': payloadDigest,
            'WARC-Block-Digest': blockDigest,
          },
        },
        [new Uint8Array(r.body.buffer, r.body.byteOffset, r.body.length)],
      ),
    );
  }
  return Buffer.concat(parts);
}

/** Labels TSV: header `url\tlabel\tsite`, one row per labelled page. */
export function labelsTsv(web: PortalWeb): string {
  return `url\tlabel\tsite\n${web.labels.map((l) => `${l.url}\t${l.label}\t${l.site}\n`).join('')}`;
}

function intFlag(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,10}$/.test(value) || Number(value) > max) throw new UsageError(`--${name} must be an integer 0-${max}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** `<dir>/<name>-<suffix>` for an output beside `out` (name without .warc/.warc.gz/.gz). */
function beside(out: string, suffix: string): string {
  return out.replace(/(\.warc)?(\.gz)?$/i, '') + suffix;
}

/**
 * Run `focuscrawl gen-web` with its own arguments (after the subcommand).
 * Returns the exit code: 0 done or --help, 2 bad arguments / unreadable or
 * empty headline file (one line on stderr), 1 when an output cannot be written.
 */
export async function runGenWeb(argv: string[], io: GenWebIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const fail = (code: number, message: string): number => {
    stderr.write(`focuscrawl gen-web: ${sanitizeForTerminal(message.replace(/\s*\n\s*/g, ' '), LOG_LINE_MAX)}\n`);
    return code;
  };
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        headlines: { type: 'string' },
        'text-field': { type: 'string' },
        'label-field': { type: 'string' },
        'keywords-field': { type: 'string' },
        seed: { type: 'string' },
        limit: { type: 'string' },
        hosts: { type: 'string' },
        'page-size': { type: 'string' },
        'hidden-share': { type: 'string' },
        out: { type: 'string' },
        'labels-out': { type: 'string' },
        'seeds-out': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (err) {
    return fail(2, `${(err as Error).message} (see --help)`);
  }
  if (values.help) {
    stdout.write(USAGE);
    return 0;
  }
  let web: PortalWeb;
  let read: HeadlineFile;
  let seed: number;
  const started = performance.now();
  try {
    if (values.headlines === undefined) throw new UsageError('--headlines FILE is required (see --help)');
    if (values.out === undefined) throw new UsageError('--out FILE is required (see --help)');
    seed = intFlag('seed', values.seed, 1, 0xffffffff);
    const limit = values.limit === undefined ? Infinity : intFlag('limit', values.limit, 0, MAX_HEADLINES);
    if (limit === 0) throw new UsageError('--limit must be at least 1');
    const hosts = intFlag('hosts', values.hosts, 3, 50);
    const pageSize = intFlag('page-size', values['page-size'], 20, 200);
    const share = values['hidden-share'] === undefined ? 0.08 : Number(values['hidden-share']);
    if (values['hidden-share'] !== undefined && (values['hidden-share'].trim() === '' || !(share >= 0 && share <= 0.5))) {
      throw new UsageError(`--hidden-share must be a number 0-0.5, got ${JSON.stringify(values['hidden-share'])}`);
    }
    const fields = { text: values['text-field'] ?? 'sentence', label: values['label-field'] ?? 'label_desc', keywords: values['keywords-field'] ?? 'keywords' };
    read = await readHeadlines(values.headlines, fields, limit);
    if (read.headlines.length === 0) throw new UsageError(`no usable headlines in ${values.headlines} (${read.malformed} malformed lines; fields ${fields.text} / ${fields.label})`);
    web = generatePortalWeb(read.headlines, { seed, hosts, pageSize, hiddenShare: share });
  } catch (err) {
    if (err instanceof FocuscrawlError && err.code === 'FC_USAGE') return fail(2, err.message);
    throw err;
  }
  const out = resolve(values.out);
  const labelsOut = resolve(values['labels-out'] ?? beside(out, '-labels.tsv'));
  const seedsOut = resolve(values['seeds-out'] ?? beside(out, '-seeds.txt'));
  const warc = await portalWarc(web, seed);
  try {
    for (const f of [out, labelsOut, seedsOut]) await mkdir(dirname(f), { recursive: true });
    await writeFile(out, warc);
    await writeFile(labelsOut, labelsTsv(web));
    await writeFile(seedsOut, web.seeds.join('\n') + '\n');
  } catch (err) {
    return fail(1, `cannot write output: ${(err as Error).message}`);
  }
  const ms = Math.round(performance.now() - started);
  stdout.write(JSON.stringify({ out, labels: labelsOut, seeds: seedsOut, headlines: read.headlines.length, malformed: read.malformed, records: web.records.length + 1, bytes: warc.length, ms, ...web.stats }) + '\n');
  stderr.write(
    `gen-web: ${read.headlines.length} headlines (${read.malformed} malformed lines skipped) -> ${web.stats.pages} pages on ${web.stats.hosts} hosts ` +
      `(${web.stats.articles} articles, ${web.stats.hubs} hubs, ${web.stats.forum} forum threads, ${web.stats.tunnels} tunnels), ${warc.length} bytes in ${ms} ms\n`,
  );
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runGenWeb(process.argv.slice(2));
}
