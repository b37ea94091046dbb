/**
 * The parser's golden output (test/parse-golden.test.ts): every HTML page of
 * the fixture web (fixtures/web.warc.gz: GBK, GB18030, Latin-1, <base>,
 * frames, image maps, nofollow, generic titles) and 200 synthetic-web pages,
 * each parsed by parseBody under three option sets, as one line per page:
 * its URL and a hash of each ParsedPage's JSON. A change to the parser that
 * must not change its output (a speed-up) keeps every line.
 *
 * Written from the parser as it was before the speed-ups of issue 23
 * (commit 8c05435) with
 *   node --import tsx test/helpers/parse-golden.ts --write
 * Rewrite it only for a change meant to alter the parser's output, and say so.
 */
import { createHash } from 'node:crypto';
import { createReadStream, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WARCParser } from 'warcio';
import { SyntheticWeb } from '../../fixtures/synthetic-web.ts';
import { parseBody, type ParseOptions } from '../../src/parse/body.ts';
import type { ParsedPage } from '../../src/types.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const GOLDEN_FILE = path.join(HERE, '..', 'golden', 'parse-golden.tsv');

/** A body as the parse stage gets it. */
export interface GoldenDoc {
  url: string;
  body: Buffer;
  headerCharset: string | null;
}

/** Defaults; main text and a short window; every cap small, and odd decode steps. */
export const GOLDEN_OPTIONS: readonly ParseOptions[] = [
  {},
  { contextChars: 20, mainTextChars: 100_000 },
  { contextChars: 7, maxLinks: 5, maxTextChars: 300, maxAnchorChars: 9, mainTextChars: 250, chunkSize: 333 },
];

export async function goldenDocs(): Promise<GoldenDoc[]> {
  const docs: GoldenDoc[] = [];
  for await (const r of new WARCParser(createReadStream(path.join(HERE, '..', '..', 'fixtures', 'web.warc.gz')))) {
    if (r.warcType !== 'response') continue;
    const ct = r.httpHeaders?.headers.get('content-type') ?? '';
    const body = Buffer.from(await r.readFully(false));
    if (!/html/i.test(ct)) continue;
    docs.push({ url: r.warcTargetURI ?? '', body, headerCharset: /charset=([^;]+)/i.exec(ct)?.[1].trim() ?? null });
  }
  const web = new SyntheticWeb({ seed: 1, pages: 1_000_000, hosts: 10_000 });
  for (let id = 0, n = 0; n < 200; id += 4_999) {
    const url = web.urlOf(id);
    const u = new URL(url);
    const r = web.page(u.host, u.pathname);
    if (r.status !== 200) continue;
    docs.push({ url, body: Buffer.from(r.html, 'utf8'), headerCharset: n % 2 === 0 ? 'utf-8' : null });
    n++;
  }
  return docs;
}

export function pageHash(page: ParsedPage): string {
  return createHash('sha256').update(JSON.stringify(page)).digest('hex').slice(0, 16);
}

/** One line per doc: URL, then the page's hash under each of GOLDEN_OPTIONS. */
export function goldenLine(doc: GoldenDoc): string {
  return [doc.url, ...GOLDEN_OPTIONS.map((o) => pageHash(parseBody(doc.body, doc.url, doc.headerCharset, o)))].join('\t');
}

if (process.argv.includes('--write') && process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const docs = await goldenDocs();
  writeFileSync(GOLDEN_FILE, docs.map(goldenLine).join('\n') + '\n');
  process.stderr.write(`${docs.length} pages → ${GOLDEN_FILE}\n`);
}
