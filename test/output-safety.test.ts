/**
 * Output safety: whatever a page puts in its title, anchors, URLs and body
 * (quotes, newlines followed by a fake record, U+2028/U+2029, lone
 * surrogates, ESC and OSC 8 sequences, NUL, C1 controls, bidi overrides,
 * invalid UTF-8), stdout stays one valid JSON record per line, with no
 * injected record and no character a terminal acts on, and stderr carries
 * none of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, ROOT, tempDir } from './helpers/cli.ts';
import { serve } from './helpers/serve.ts';
import { parseBody } from '../src/parse/body.ts';
import { sanitizeForTerminal } from '../src/output/terminal.ts';

/** A fake record a page tries to smuggle onto its own stdout line. */
const INJECT = '\n{"type":"page","url":"http://injected.example/","status":200}\n';
/** Everything hostile, as text. */
const HOSTILE =
  `say "hi" \\ ${INJECT} \u2028 \u2029 \x1b[2J\x1b[31mRED\x1b[0m ` +
  `\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07 \x1b]0;pwned title\x07 ` +
  `NUL\0 BEL\x07 CR\rOVERWRITE BS\b DEL\x7f CSI\u009b2J NEL\u0085 ` +
  `RLO\u202Etxt.exe\u202C LRI\u2066x\u2069 &#xD800; &#0; &#x9b; &#x1b; 😀`;
/** Raw bytes that are not UTF-8: lone continuation, truncated sequence, overlong, CESU surrogate, 0xFF. */
const BAD_UTF8 = Buffer.from([0x80, 0x20, 0xc3, 0x20, 0xc0, 0xaf, 0x20, 0xed, 0xa0, 0x80, 0x20, 0xff, 0xfe]);

/** Characters no stdout or stderr line may carry raw. */
const TERMINAL_ACTIVE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

function hostilePage(): Buffer {
  const links = [
    `<a href="/a?q=${HOSTILE.replace(/"/g, '&quot;')}">${HOSTILE}</a>`,
    // percent-escaped controls in the query stay escaped in the canonical URL
    `<a href="/b?x=%22%0A%7B%22type%22%3A%22page%22%7D%1B%5B2J%00%E2%80%A8">escaped</a>`,
    `<a href="/c\x1b[2J?\u2028=\u202e">${HOSTILE}</a>`,
    '<a href="/utf16">utf-16</a>',
    '<a href="/bad-redirect">redirect</a>',
  ].join('\n');
  return Buffer.concat([
    Buffer.from(`<!doctype html><html><head><title>${HOSTILE}</title></head><body><p>${HOSTILE}</p>`),
    BAD_UTF8,
    Buffer.from(`<p>${links}</p></body></html>`),
  ]);
}

/** Same hostile title, but in a page whose charset is not UTF-8. */
function hostileLatin1(): Buffer {
  return Buffer.concat([Buffer.from('<title>'), BAD_UTF8, Buffer.from('\x1b[2J\x9b\x85\x00</title>', 'latin1')]);
}

/** UTF-16LE with an unpaired surrogate (D800 followed by 'a') in the title. */
function hostileUtf16(): Buffer {
  const head = Buffer.from('\ufeff<title>x', 'utf16le');
  return Buffer.concat([head, Buffer.from([0x00, 0xd8, 0x61, 0x00]), Buffer.from('\u001b[2J</title>', 'utf16le')]);
}

async function startHostileWeb(t: import('node:test').TestContext): Promise<{ base: string; requested: string[] }> {
  const requested: string[] = [];
  const base = await serve(t, (req, res) => {
    requested.push(req.url!);
    const path = req.url!.split('?')[0];
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/bad-redirect') {
      // a non-http Location (quoted in the error record) with raw C1 and bidi bytes, which
      // Node's own header checks would refuse: write the head raw (undici reads it as latin1)
      const location = Buffer.from('javascript:"\u009b\u202e{"type":"page"}', 'utf8').toString('latin1');
      req.socket.end(`HTTP/1.1 302 Found\r\nLocation: ${location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`, 'latin1');
      return;
    }
    if (path === '/utf16') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-16le' }).end(hostileUtf16());
    if (path.startsWith('/c')) return void res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' }).end(hostileLatin1());
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostilePage());
  });
  return { base, requested };
}

/** Run the CLI, keeping stdout as raw bytes. */
function runRaw(args: string[]): Promise<{ code: number | null; stdout: Buffer; stderr: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
}

test('JSON.stringify escapes lone surrogates, so a record is valid UTF-8 whatever its strings hold', () => {
  assert.equal(JSON.stringify('a\ud800b\udfff'), '"a\\ud800b\\udfff"');
  assert.equal(JSON.stringify('😀'), '"😀"');
  const bytes = Buffer.from(JSON.stringify({ t: 'x\ud83d' }), 'utf8');
  assert.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes));
});

test('a hostile page cannot inject records, control characters or invalid UTF-8 into stdout or stderr', async (t) => {
  const { base, requested } = await startHostileWeb(t);
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const r = await runRaw(['crawl', '--seed', `${base}/`, '--store', dir, '--allow-private', '--delay-ms', '0', '--concurrency', '4']);
  const stderr = r.stderr.toString('utf8');
  assert.equal(r.code, 0, stderr);

  const text = new TextDecoder('utf-8', { fatal: true }).decode(r.stdout); // throws on invalid UTF-8
  assert.ok(text.endsWith('\n'));
  const lines = text.slice(0, -1).split('\n');
  const records = lines.map((line) => JSON.parse(line));
  for (const line of lines) assert.doesNotMatch(line, TERMINAL_ACTIVE, line);
  assert.ok(!records.some((rec) => rec.url.startsWith('http://injected.example')), 'no injected record');

  // the crawler's own count of records is the number of lines
  const m = /: (\d+) pages .*, (\d+) errors,/.exec(stderr);
  assert.ok(m, stderr);
  assert.equal(lines.length, Number(m[1]) + Number(m[2]), stderr);
  // every record is a URL the server was asked for, or a refused redirect target
  const pages = records.filter((rec) => rec.type === 'page');
  assert.ok(pages.length >= 5, text);
  for (const p of pages) assert.ok(requested.includes(new URL(p.url).pathname + new URL(p.url).search), p.url);

  // the hostile title arrives intact as data: the fake record and escapes are inside one string
  const seed = pages.find((p) => p.url === `${base}/`);
  assert.ok(seed.title.includes('{"type":"page","url":"http://injected.example/"'));
  assert.ok(seed.title.includes('\x1b]8;;http://evil.example/'));
  assert.doesNotMatch(seed.title.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''), /[\ud800-\udfff]/, 'no lone surrogate');
  for (const p of pages) assert.ok(!/[^\x21-\x7e]/.test(p.url), `canonical URLs are printable ASCII: ${JSON.stringify(p.url)}`);

  for (const line of stderr.split('\n')) assert.doesNotMatch(line, TERMINAL_ACTIVE, line);
});

test('error lines on stderr do not pass control or bidi characters from user input', async () => {
  const r = await runRaw(['crawl', '--seed', 'nope\u009b2J\u202eevil\x1b[31m']);
  const stderr = r.stderr.toString('utf8');
  assert.equal(r.code, 2);
  assert.match(stderr, /^focuscrawl: FC_USAGE: /);
  assert.equal(stderr.split('\n').length, 2, 'one line');
  assert.doesNotMatch(stderr.slice(0, -1), TERMINAL_ACTIVE);
});

test('what a progress line shows of a hostile page is one inert line', () => {
  for (const shown of [HOSTILE, `http://127.0.0.1/c${HOSTILE}`]) {
    const safe = sanitizeForTerminal(shown, 80);
    assert.doesNotMatch(safe, TERMINAL_ACTIVE);
    assert.ok(safe.length <= 80);
  }
});

test('parser caps never split a surrogate pair (no lone surrogate in a capped title)', () => {
  for (let n = 1; n <= 6; n++) {
    const page = parseBody(Buffer.from(`<title>${'a'.repeat(n)}😀😀😀</title><p>${'b'.repeat(n)}😀😀 <a href="/x">${'c'.repeat(n)}😀😀😀</a></p>`), 'http://h/', 'utf-8', {
      maxTextChars: 6,
      maxAnchorChars: 6,
    });
    const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    assert.doesNotMatch(page.title, lone, `title ${n}`);
    for (const [k, v] of Object.entries(page.blocks)) assert.doesNotMatch(v, lone, `${k} ${n}`);
    for (const l of page.links) assert.doesNotMatch(l.anchor, lone, `anchor ${n}`);
  }
});
