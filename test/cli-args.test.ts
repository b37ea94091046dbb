// The one argument layer (src/commands/args.ts), issue 21 items 8, 10, 11. What broke:
// `--concurrency -3` and a flag without its value printed Node's "argument is
// ambiguous" with no FC code; `--concurrency 1e9` and 20-digit numbers were
// accepted; `--max-pages 0` crawled nothing while `--max-pages-per-host 0`
// meant no limit; `-V` and `version` were unknown; `crawl --help` listed
// neither -h nor the exit codes; README's flag table had drifted from --help;
// `npm ci` warned about install scripts not covered by allowScripts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { helpText, parseCommand, usageProblems } from '../src/commands/args.ts';
import { CRAWL_SPEC } from '../src/commands/crawl.ts';
import { COMMAND_SPECS } from '../src/cli.ts';
import { CLI_DOC, cliReference } from '../src/tools/cli-docs.ts';
import { ROOT, runMain } from './helpers/cli.ts';

const SEED = ['--seed', 'http://x.example/'];

test('a negative number after a flag is its value, reported against the range', () => {
  assert.deepEqual(usageProblems(CRAWL_SPEC, [...SEED, '--concurrency', '-3']), ['crawl: --concurrency: must be ≥ 1, got -3']);
  assert.deepEqual(usageProblems(CRAWL_SPEC, [...SEED, '--max-time', '-1']), ['crawl: --max-time: must be ≥ 0.001, got -1']);
  assert.deepEqual(usageProblems(CRAWL_SPEC, [...SEED, '--concurrency=-3']), ['crawl: --concurrency: must be ≥ 1, got -3']);
});

test('absurd numbers are refused: exponents, 20 digits, above the range', () => {
  assert.match(usageProblems(CRAWL_SPEC, [...SEED, '--concurrency', '1e9'])[0], /^crawl: --concurrency: must be an integer, got "1e9"$/);
  assert.match(usageProblems(CRAWL_SPEC, [...SEED, '--concurrency', '1000000000'])[0], /^crawl: --concurrency: must be ≤ 10000/);
  assert.match(usageProblems(CRAWL_SPEC, [...SEED, '--max-pages', '12345678901234567890'])[0], /^crawl: --max-pages: must be ≤/);
  assert.match(usageProblems(CRAWL_SPEC, [...SEED, '--max-time', '1e9'])[0], /^crawl: --max-time: must be a number/);
});

test('a flag without its value, an unknown flag, a value for a switch: one line each', () => {
  assert.deepEqual(usageProblems(CRAWL_SPEC, ['--seed']), ['crawl: --seed: needs a value (URL)']);
  assert.match(usageProblems(CRAWL_SPEC, ['--store', '--fresh'])[0], /^crawl: --store: needs a value .*got the flag --fresh$/);
  const many = usageProblems(CRAWL_SPEC, ['--bogus', '--concurrency', '0', '--fresh=yes', '--log-format', 'xml']);
  assert.equal(many.length, 4, many.join('\n'));
  for (const line of many) assert.match(line, /^crawl: --[a-z-]+: /);
  // `-` is a value (stdin), not a flag
  assert.deepEqual(usageProblems(CRAWL_SPEC, ['--seeds', '-']), []);
});

test('--max-pages 0 and --max-pages-per-host 0 both mean no limit', () => {
  const { args } = parseCommand(CRAWL_SPEC, [...SEED, '--max-pages', '0', '--max-pages-per-host', '0', '--max-frontier', '0']);
  assert.equal(args.number('max-pages'), Infinity);
  assert.equal(args.number('max-pages-per-host'), Infinity);
  assert.equal(args.number('max-frontier'), Infinity);
  assert.equal(parseCommand(CRAWL_SPEC, SEED).args.number('max-pages-per-host'), 10_000);
});

test('the CLI: every mistake is one FC_USAGE line, exit 2; -V and version print the version', async () => {
  const r = await runMain(['crawl', ...SEED, '--concurrency', '-3', '--max-time', '-1']);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 2, r.stderr);
  for (const line of lines) assert.match(line, /^focuscrawl: FC_USAGE: crawl: --(concurrency|max-time): must be ≥/);
  const t = await runMain(['train', '--max-examples', '-5']);
  assert.equal(t.code, 2);
  assert.equal(t.stderr, 'focuscrawl: FC_USAGE: train: --max-examples: must be ≥ 1, got -5\n');
  for (const v of ['-V', '--version', 'version']) {
    const out = await runMain([v]);
    assert.equal(out.code, 0, v);
    assert.match(out.stdout, /^\d+\.\d+\.\d+\n$/, v);
  }
});

test('every command\'s --help comes from its table: -h, every flag, the exit codes', async () => {
  for (const [name, load] of Object.entries(COMMAND_SPECS)) {
    const spec = await load();
    const text = helpText(spec);
    assert.match(text, /-h, --help/, name);
    assert.match(text, /\nExit codes:\n {2}0 /, name);
    for (const f of spec.flags) assert.ok(text.includes(`--${f.name}`), `${name} --help lists --${f.name}`);
  }
  const r = await runMain(['crawl', '-h']);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, helpText(CRAWL_SPEC));
  assert.equal((await runMain(['help', 'crawl'])).stdout, helpText(CRAWL_SPEC));
});

test('docs/cli.md is the generated reference (npm run docs:cli), and README points to it', async () => {
  assert.equal(await readFile(CLI_DOC, 'utf8'), await cliReference(), 'docs/cli.md is stale: run npm run docs:cli');
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  assert.match(readme, /\]\(docs\/cli\.md\)/);
  assert.match(readme, /\.\/bin\/focuscrawl|npx focuscrawl/);
  // no flag table of its own that could drift: every flag README's user part
  // names exists, and each command line in it uses only its command's flags
  const specs = new Map<string, Set<string>>();
  for (const [name, load] of Object.entries(COMMAND_SPECS)) specs.set(name, new Set([...(await load()).flags.map((f) => f.name), 'help']));
  const known = new Set([...specs.values()].flatMap((s) => [...s]));
  const user = readme.slice(0, readme.indexOf('\n## Dependencies'));
  assert.ok(user.length > 1000 && user.length < readme.length, 'README has a "## Dependencies" section after its user part');
  let checked = 0;
  for (const m of user.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)) {
    checked++;
    assert.ok(known.has(m[1]!), `README names --${m[1]}, which no command has`);
  }
  // a command line, with its continuation lines (trailing backslash)
  for (const m of user.replace(/\\\n\s*/g, ' ').matchAll(/^focuscrawl ([a-z-]+)(.*)$/gm)) {
    const flags = specs.get(m[1]!);
    assert.ok(flags, `README runs focuscrawl ${m[1]}, which is no command`);
    for (const f of m[2]!.split('|')[0]!.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)) assert.ok(flags.has(f[1]!), `README: focuscrawl ${m[1]} has no --${f[1]}`);
  }
  assert.ok(checked >= 10, `README names flags (found ${checked})`);
});

test('package.json allowScripts covers every dependency with an install script', async () => {
  const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const allowed = pkg.allowScripts ?? {};
  for (const [where, entry] of Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)) {
    if (entry.hasInstallScript !== true) continue;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    assert.equal(typeof allowed[name], 'boolean', `allowScripts decides ${name}`);
  }
});
