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
import { helpText, ownMessage, parseCommand, type CommandSpec } from '../args.ts';
import type { Writable } from 'node:stream';
import { WARCRecord, WARCSerializer, WARC_1_1 } from 'warcio';
import { FocuscrawlError, UsageError } from '../errors.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from '../term.ts';
import { generatePortalWeb, WARCINFO_DESCRIPTION, type Headline, type PortalWeb } from './portal.ts';

/** Most headlines read (without --limit a longer file is a usage error). */
export const MAX_HEADLINES = 500_000;

export const GENWEB_SPEC: CommandSpec = {
  name: 'gen-web',
  usage: ['gen-web --headlines FILE.ndjson --out web.warc.gz [options]'],
  summary:
    'Build a synthetic portal-style Chinese web from labelled headlines: portal homes, per-category channel hosts with paginated hubs, one article page per headline (the headline is its title and anchor text), related-article links, forum threads that tunnel to small single-topic sites, dead links, robots.txt, GBK / GB18030 / UTF-8 pages. Every record says its links are synthetic.',
  flags: [
    { group: 'Options', name: 'headlines', type: 'string', value: 'FILE', help: 'NDJSON, one headline object a line (required)' },
    { group: 'Options', name: 'text-field', type: 'string', value: 'NAME', default: 'sentence', help: 'field with the headline text' },
    { group: 'Options', name: 'label-field', type: 'string', value: 'NAME', default: 'label_desc', help: 'field with the label' },
    { group: 'Options', name: 'keywords-field', type: 'string', value: 'NAME', default: 'keywords', help: 'field with comma-separated keywords (optional per line)' },
    { group: 'Options', name: 'seed', type: 'int', min: 0, max: 0xffffffff, default: 1, help: 'PRNG seed' },
    { group: 'Options', name: 'limit', type: 'int', min: 1, max: MAX_HEADLINES, defaultText: `all, at most ${MAX_HEADLINES}`, help: 'use only the first N valid headlines' },
    { group: 'Options', name: 'hosts', type: 'int', min: 1, max: 50, default: 3, help: 'number of portals' },
    { group: 'Options', name: 'page-size', type: 'int', min: 5, max: 200, default: 20, help: 'article links per hub page' },
    { group: 'Options', name: 'hidden-share', type: 'number', min: 0, max: 0.5, default: 0.08, help: "share of each label's headlines reachable only through tunnels" },
    { group: 'Options', name: 'out', type: 'string', value: 'FILE', help: 'WARC to write (.warc.gz, required)' },
    { group: 'Options', name: 'labels-out', type: 'string', value: 'FILE', defaultText: 'beside --out, <name>-labels.tsv', help: 'labels TSV url, label, site' },
    { group: 'Options', name: 'seeds-out', type: 'string', value: 'FILE', defaultText: 'beside --out, <name>-seeds.txt', help: 'seed URLs, one a line' },
  ],
  notes: `Lines that are not JSON objects with a non-empty text and label are skipped
and counted. stdout gets one JSON summary line; stderr a human one.`,
  exitCodes: [
    [0, 'written; also --help'],
    [1, 'an output cannot be written, an internal error'],
    [2, 'bad input: FC_USAGE (a bad flag, an unreadable or empty headline file)'],
  ],
};

/** Longest NDJSON line read (characters); longer lines count as malformed. */
export const MAX_LINE_CHARS = 64 * 1024;

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
  let parsed;
  try {
    parsed = parseCommand(GENWEB_SPEC, argv);
  } catch (err) {
    return fail(2, `FC_USAGE: ${ownMessage(GENWEB_SPEC, err as Error)}`);
  }
  if (parsed.help) {
    stdout.write(helpText(GENWEB_SPEC));
    return 0;
  }
  const { args } = parsed;
  const headlines = args.string('headlines');
  const outFile = args.string('out');
  let web: PortalWeb;
  let read: HeadlineFile;
  let seed: number;
  const started = performance.now();
  try {
    if (headlines === undefined) throw new UsageError('--headlines FILE is required (see --help)');
    if (outFile === undefined) throw new UsageError('--out FILE is required (see --help)');
    seed = args.number('seed')!;
    const limit = args.number('limit') ?? Infinity;
    const hosts = args.number('hosts')!;
    const pageSize = args.number('page-size')!;
    const share = args.number('hidden-share')!;
    const fields = { text: args.string('text-field')!, label: args.string('label-field')!, keywords: args.string('keywords-field')! };
    read = await readHeadlines(headlines, fields, limit);
    if (read.headlines.length === 0) throw new UsageError(`no usable headlines in ${headlines} (${read.malformed} malformed lines; fields ${fields.text} / ${fields.label})`);
    web = generatePortalWeb(read.headlines, { seed, hosts, pageSize, hiddenShare: share });
  } catch (err) {
    if (err instanceof FocuscrawlError && err.code === 'FC_USAGE') return fail(2, err.message);
    throw err;
  }
  const out = resolve(outFile!);
  const labelsOut = resolve(args.string('labels-out') ?? beside(out, '-labels.tsv'));
  const seedsOut = resolve(args.string('seeds-out') ?? beside(out, '-seeds.txt'));
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
