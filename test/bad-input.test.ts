// Bad CLI input (issue 5): every bad seeds, topic or model file gets exit 2,
// exactly one line on stderr `focuscrawl: FC_...: ` naming the file (and the
// line for seeds), and nothing on stdout. What broke before: a 200k-line
// seeds file crashed with "Maximum call stack size exceeded" (push(...seeds)),
// topic and model files were read whole whatever their size, a seeds line
// with a space inside was silently percent-encoded into another URL, and a
// topic of stop words only was refused without naming its file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { MAX_MODEL_BYTES, ModelError, fitModel, loadModel, type ModelJSON } from '../src/relevance/model.ts';
import { readCapped } from '../src/util/read-capped.ts';
import { MAX_SEED_LINE_BYTES, classifySeedLine, readSeedsFile } from '../src/seeds/file.ts';
import { MAX_TOPIC_BYTES, loadTopic } from '../src/relevance/topic.ts';
import { parseLines, runCli, runMainEach, tempFiles, type CliResult, runMain } from './helpers/cli.ts';

/** A sparse file of `size` bytes (nothing is written, so it is cheap however large). */
async function sparse(p: string, size: number): Promise<string> {
  const fh = await open(p, 'w');
  await fh.truncate(size);
  await fh.close();
  return p;
}

/** A small but complete model document (fitted on a handful of examples). */
function tinyModel(): ModelJSON {
  const pages = [
    { features: ['t:course', 'course', 'homework', 'syllabus'], label: 1 as const },
    { features: ['t:course', 'course', 'lecture', 'exam'], label: 1 as const },
    { features: ['t:home', 'student', 'hobby', 'music'], label: 0 as const },
    { features: ['t:lab', 'research', 'project', 'paper'], label: 0 as const },
  ];
  const links = [
    { anchor: 'course page', context: 'homework syllabus', label: 1 as const },
    { anchor: 'cs101 course', context: 'lecture exam', label: 1 as const },
    { anchor: 'my hobbies', context: 'music guitar', label: 0 as const },
    { anchor: 'research', context: 'project paper', label: 0 as const },
  ];
  return fitModel({ source: 'texts', files: [], pages, links, counts: {}, options: {}, seconds: 0 }, { target: 'course' }).json;
}

/** The CLI contract for bad input: exit 2, one stderr line `focuscrawl: FC_X: ...` matching `re`, empty stdout. */
function assertBadInput(r: CliResult, code: string, re: RegExp, what: string): void {
  assert.equal(r.code, 2, `${what}: exit ${r.code}: ${r.stderr}`);
  assert.equal(r.stdout, '', `${what}: nothing on stdout`);
  const lines = r.stderr.split('\n');
  assert.equal(lines.length, 2, `${what}: exactly one line on stderr: ${JSON.stringify(r.stderr)}`);
  assert.equal(lines[1], '', what);
  assert.ok(lines[0].startsWith(`focuscrawl: ${code}: `), `${what}: ${lines[0]}`);
  assert.match(lines[0], re, what);
}


test('classifySeedLine: blank and # lines skipped, http(s) kept, anything else bad with its reason', () => {
  const cases: Array<[string, 'skip' | 'url' | RegExp]> = [
    ['', 'skip'],
    ['   \t ', 'skip'],
    ['# a comment', 'skip'],
    ['  # indented comment', 'skip'],
    ['http://a.example/', 'url'],
    ['  https://a.example/x?y=1  ', 'url'],
    ['\uFEFFhttp://a.example/', 'url'],
    ['http://a.example/\r', 'url'],
    ['http://bücher.example/', 'url'],
    ['http://a.example/%zz', 'url'],
    ['HTTP://A.EXAMPLE/%7e', 'url'],
    ['http://[::1]:8080/', 'url'],
    ['ftp://a.example/', /^not an http\(s\) URL \(scheme ftp:\)$/],
    ['javascript:alert(1)', /scheme javascript:/],
    ['mailto:someone@a.example', /scheme mailto:/],
    ['file:///etc/passwd', /scheme file:/],
    ['a.example/no-scheme', /^not an http\(s\) URL$/],
    ['not a url at all', /^not an http\(s\) URL$/],
    ['http://%zz.example/', /^not an http\(s\) URL$/],
    ['http://ex%00ample.com/', /^not an http\(s\) URL$/],
    ['http://a.example:99999/', /^not an http\(s\) URL$/],
    ['http://[::1/', /^not an http\(s\) URL$/],
    ['http://', /^not an http\(s\) URL$/],
    ['http://a.example/ http://b.example/', /whitespace or a control character/],
    ['http://a.example/ # trailing comment', /whitespace/],
    ['http://a.example/a\tb', /whitespace/],
    ['http://a.example/a\u0000b', /control character/],
    ['http://a.example/a\u3000b', /whitespace/],
  ];
  for (const [line, want] of cases) {
    const c = classifySeedLine(line);
    if (typeof want === 'string') assert.equal(c.kind, want, JSON.stringify(line));
    else {
      assert.equal(c.kind, 'bad', JSON.stringify(line));
      assert.match((c as { reason: string }).reason, want, JSON.stringify(line));
    }
  }
  assert.deepEqual(classifySeedLine('  https://a.example/x  '), { kind: 'url', url: 'https://a.example/x' });
});

test('readSeedsFile: BOM, CRLF, comments; bad lines counted and listed in one message; overlong lines', async (t) => {
  const { file } = await tempFiles(t, 'fc-bad-input-');
  const good = await file('good.txt', '\uFEFFhttp://a.example/\r\n# comment\r\n\r\n  https://b.example/x  \r\nhttp://bücher.example/\n');
  assert.deepEqual(await readSeedsFile(good), ['http://a.example/', 'https://b.example/x', 'http://bücher.example/']);
  assert.deepEqual(await readSeedsFile(await file('empty.txt', '')), []);

  const many = await file('many.txt', ['http://ok.example/', 'ftp://x/', 'ok', ...Array(10).fill('nope'), 'http://ok.example/2'].join('\n'));
  await assert.rejects(readSeedsFile(many), (err: Error & { code?: string }) => {
    assert.equal(err.code, 'FC_USAGE');
    assert.equal(err.message, `${many}:2: not an http(s) URL (scheme ftp:): "ftp://x/" (12 bad lines in all; also lines 3, 4, 5, 6, 7, …)`);
    return true;
  });

  const long = await file('long.txt', `http://ok.example/\nhttp://a.example/${'x'.repeat(MAX_SEED_LINE_BYTES)}\n`);
  await assert.rejects(readSeedsFile(long), { code: 'FC_USAGE', message: `${long}:2: line longer than ${MAX_SEED_LINE_BYTES} bytes` });
  await assert.rejects(readSeedsFile(path.join(path.dirname(long), 'missing.txt')), { code: 'FC_USAGE', message: /cannot read .*missing\.txt: ENOENT/ });
});

test('loadTopic: every malformed file is FC_BAD_TOPIC naming the file', async (t) => {
  const { dir, file } = await tempFiles(t, 'fc-bad-input-');
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['notjson.json', 'name: solar\nterms: [solar]\n', /invalid JSON/],
    ['truncated.json', '{"name": "solar", "terms": ["solar", "photo', /invalid JSON at line 1 column 44: Unterminated string/],
    ['truncated2.json', '{"name": "solar", "terms": [', /invalid JSON: Unexpected end of JSON input/],
    ['empty.json', '  \n', /empty file/],
    ['binary.json', Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x1b]), /invalid JSON/],
    ['array.json', '["solar"]', /expected a JSON object.*an array/],
    ['name-type.json', '{"name": 5, "terms": ["solar"]}', /"name" must be a non-empty string, got number 5/],
    ['terms-type.json', '{"name": "x", "terms": "solar"}', /"terms" must be a non-empty array/],
    ['terms-empty.json', '{"name": "x", "terms": []}', /"terms" must be a non-empty array.*an empty array/],
    ['term-type.json', '{"name": "x", "terms": ["solar", 7]}', /"terms"\[1\] must be a non-empty string/],
    ['term-blank.json', '{"name": "x", "terms": ["  "]}', /"terms"\[0\] must be a non-empty string/],
    ['threshold.json', '{"name": "x", "terms": ["solar"], "threshold": "0.3"}', /"threshold" must be a number between 0 and 1/],
    ['params.json', '{"name": "x", "terms": ["solar"], "params": [1]}', /"params" must be an object/],
    ['version.json', '{"version": 2, "name": "x", "terms": ["solar"]}', /unsupported topic version number 2/],
    ['version-str.json', '{"version": "1", "name": "x", "terms": ["solar"]}', /unsupported topic version the string "1"/],
    ['stopwords.json', '{"name": "x", "terms": ["the", "a", "!!"]}', /"terms" contain no indexable words/],
  ];
  for (const [name, content, re] of cases) {
    const p = await file(name, content);
    await assert.rejects(loadTopic(p), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'FC_BAD_TOPIC', name);
      assert.ok(err.message.includes(p), `${name}: names the file: ${err.message}`);
      assert.match(err.message, re, name);
      return true;
    });
  }
  await assert.rejects(loadTopic(dir), { code: 'FC_BAD_TOPIC', message: /cannot read topic file .*EISDIR/ });
  const huge = await sparse(path.join(dir, 'huge.json'), MAX_TOPIC_BYTES + 1);
  await assert.rejects(loadTopic(huge), { code: 'FC_BAD_TOPIC', message: `${huge}: too large: more than 16 MiB, the cap on topic files` });
  assert.deepEqual(await loadTopic(await file('v1.json', '{"version": 1, "name": "x", "terms": ["solar"]}')), { name: 'x', terms: ['solar'], threshold: 0.2 });
});

test('loadModel: every malformed file is FC_BAD_MODEL naming the file', async (t) => {
  const { dir, file } = await tempFiles(t, 'fc-bad-input-');
  const valid = tinyModel();
  const text = JSON.stringify(valid);
  const without = (key: keyof ModelJSON): string => JSON.stringify({ ...valid, [key]: undefined });
  const cases: Array<[string, string, RegExp]> = [
    ['notjson.json', 'format=focuscrawl-model', /not valid JSON/],
    ['truncated.json', text.slice(0, Math.floor(text.length * 0.7)), /not valid JSON \(truncated or corrupt\?\)/],
    ['empty.json', '', /empty file/],
    ['format.json', JSON.stringify({ ...valid, format: 'sklearn' }), /not a focuscrawl model/],
    ['version.json', JSON.stringify({ ...valid, version: 6 }), /unsupported model version number 6/],
    ['no-version.json', without('version'), /unsupported model version nothing/],
    ['no-page.json', without('page'), /"page" must be an object/],
    ['no-kde.json', without('kde'), /"kde" must be an object/],
    ['no-terms.json', without('terms'), /"terms" must be an array of strings/],
    ['threshold.json', JSON.stringify({ ...valid, threshold: 7 }), /"threshold" must be a number between 0 and 1/],
    ['page-broken.json', JSON.stringify({ ...valid, page: { type: 'bernoulli-nb' } }), /"page" is malformed/],
    ['topic-instead.json', '{"name": "x", "terms": ["solar"]}', /not a focuscrawl model/],
  ];
  for (const [name, content, re] of cases) {
    const p = await file(name, content);
    await assert.rejects(loadModel(p), (err: unknown) => {
      assert.ok(err instanceof ModelError, name);
      assert.equal(err.code, 'FC_BAD_MODEL', name);
      assert.ok(err.message.includes(p), `${name}: names the file: ${err.message}`);
      assert.match(err.message, re, name);
      return true;
    });
  }
  const huge = await sparse(path.join(dir, 'huge.json'), MAX_MODEL_BYTES + 1);
  await assert.rejects(loadModel(huge), { code: 'FC_BAD_MODEL', message: `${huge}: too large: more than 64 MiB, the cap on model files` });
  const ok = await loadModel(await file('ok.json', `\uFEFF${text}`));
  assert.equal(ok.target, 'course');
});

test('readCapped: a stream that never ends is cut at the cap, not read whole', { skip: !existsSync('/dev/zero') && 'needs /dev/zero' }, async () => {
  assert.equal(await readCapped('/dev/zero', 1024 * 1024), null);
});

test('CLI: bad seeds, topic and model files: exit 2, one line on stderr naming the file, nothing on stdout', async (t) => {
  const { dir, file } = await tempFiles(t, 'fc-bad-input-');
  const store = path.join(dir, 'store');
  const seed = ['--seed', 'http://x.example/', '--store', store];
  const junk = await file('junk-seeds.txt', [
    '# seeds', '', 'http://ok.example/', 'ftp://files.example/', 'javascript:alert(1)', 'mailto:a@b.example', 'http://a.example/ b',
  ].join('\r\n'));
  const bigLines: string[] = [];
  for (let i = 0; i < 200_000; i++) bigLines.push(`http://h${i}.example/p`);
  const big = await file('big-seeds.txt', `${bigLines.join('\n')}\nnot a url\n`);
  const longLine = await file('long-seeds.txt', `http://ok.example/\nhttp://a.example/${'x'.repeat(1024 * 1024)}\n`);
  const model = JSON.stringify(tinyModel());
  const cases: Array<[string, string[], string, RegExp]> = [
    ['seeds with junk lines', ['crawl', '--seeds', junk, '--store', store], 'FC_USAGE',
      /junk-seeds\.txt:4: not an http\(s\) URL \(scheme ftp:\): "ftp:\/\/files\.example\/" \(4 bad lines in all; also lines 5, 6, 7\)$/],
    ['a missing seeds file', ['crawl', '--seeds', path.join(dir, 'missing.txt'), '--store', store], 'FC_USAGE', /cannot read .*missing\.txt: ENOENT/],
    ['a 200k-line seeds file', ['crawl', '--seeds', big, '--store', store], 'FC_USAGE', /big-seeds\.txt:200001: not an http\(s\) URL: "not a url"$/],
    ['a 1 MiB seeds line', ['crawl', '--seeds', longLine, '--store', store], 'FC_USAGE', /long-seeds\.txt:2: line longer than 8192 bytes$/],
    ['a topic that is not JSON', ['crawl', ...seed, '--topic', await file('t1.json', 'solar, photovoltaic\n')], 'FC_BAD_TOPIC', /t1\.json: invalid JSON/],
    ['a truncated topic', ['crawl', ...seed, '--topic', await file('t2.json', '{"name": "x",\n "terms": ["a"')], 'FC_BAD_TOPIC', /t2\.json: invalid JSON/],
    ['a topic of another version', ['crawl', ...seed, '--topic', await file('t3.json', '{"version": 3, "name": "x", "terms": ["a"]}')], 'FC_BAD_TOPIC', /t3\.json: unsupported topic version/],
    ['a topic with empty terms', ['crawl', ...seed, '--topic', await file('t4.json', '{"name": "x", "terms": []}')], 'FC_BAD_TOPIC', /t4\.json: "terms" must be/],
    ['a topic of stop words', ['crawl', ...seed, '--topic', await file('t5.json', '{"name": "x", "terms": ["the"]}')], 'FC_BAD_TOPIC', /t5\.json: "terms" contain no indexable words/],
    ['a 50 MB topic', ['crawl', ...seed, '--topic', await sparse(path.join(dir, 't6.json'), 50_000_000)], 'FC_BAD_TOPIC', /t6\.json: too large: more than 16 MiB/],
    ['a model that is not JSON', ['crawl', ...seed, '--model', await file('m1.json', 'PK\u0003\u0004 not json')], 'FC_BAD_MODEL', /m1\.json: not valid JSON/],
    ['a truncated model', ['crawl', ...seed, '--model', await file('m2.json', model.slice(0, 500))], 'FC_BAD_MODEL', /m2\.json: not valid JSON \(truncated or corrupt\?\)/],
    ['a model of another version', ['crawl', ...seed, '--model', await file('m3.json', model.replace(/"version":\d+/, '"version":99'))], 'FC_BAD_MODEL', /m3\.json: unsupported model version number 99/],
    ['a model with a field missing', ['crawl', ...seed, '--model', await file('m4.json', model.replace('"kde":', '"kdx":'))], 'FC_BAD_MODEL', /m4\.json: "kde" must be an object/],
    ['a 100 MB model', ['crawl', ...seed, '--model', await sparse(path.join(dir, 'm5.json'), 100_000_000)], 'FC_BAD_MODEL', /m5\.json: too large: more than 64 MiB/],
  ];
  const results = await runMainEach(cases.map(([, args]) => args));
  cases.forEach(([what, , code, re], i) => assertBadInput(results[i], code, re, what));
  // the same through the real process: exit status, streams
  const real = [0, 9, 11];
  const runs = await Promise.all(real.map((i) => runCli(cases[i][1])));
  real.forEach((i, j) => assertBadInput(runs[j], cases[i][2], cases[i][3], `${cases[i][0]} (process)`));
  assert.equal(existsSync(store), false, 'bad input is refused before the store is created');
});

test('CLI: a seeds file with BOM, CRLF, comments, IDN and percent oddities is crawled with canonical URLs', async (t) => {
  const { dir, file } = await tempFiles(t, 'fc-bad-input-');
  // a forward proxy standing in for the web: answers every page, 404 for robots.txt
  const requested: string[] = [];
  const proxy = http.createServer((req, res) => {
    requested.push(req.url ?? '');
    if ((req.url ?? '').endsWith('/robots.txt')) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<title>ok</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const seeds = await file('seeds.txt', [
    '\uFEFF# seeds for issue 5',
    'http://bücher.example/',
    '',
    '  HTTP://Pct.Example/%7euser/%c3%bc?q=%2f#frag  ',
    '# http://commented.example/',
    'http://idn.example./a/./b/../index.html',
    '',
  ].join('\r\n'));
  const r = await runMain(['crawl', '--seeds', seeds, '--proxy', proxyUrl, '--store', path.join(dir, 'store'), '--delay-ms', '0', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const urls = parseLines(r.stdout).map((rec: { url: string }) => rec.url).sort();
  assert.deepEqual(urls, ['http://idn.example/a/', 'http://pct.example/~user/%C3%BC?q=%2F', 'http://xn--bcher-kva.example/']);
  assert.ok(requested.includes('http://xn--bcher-kva.example/'), `the IDN host is requested in punycode: ${requested.join(' ')}`);
});

test('--seeds - reads the seeds from stdin; a bad line there is FC_USAGE naming stdin:LINE', async () => {
  const { Readable } = await import('node:stream');
  const from = (text: string) => () => Readable.from([Buffer.from(text)]);
  assert.deepEqual(await readSeedsFile('-', from('# seeds\nhttp://a.example/\n\nhttps://b.example/x\n')), ['http://a.example/', 'https://b.example/x']);
  await assert.rejects(readSeedsFile('-', from('http://a.example/\nftp://c.example/\n')), { code: 'FC_USAGE', message: /^stdin:2: not an http\(s\) URL/ });
});
