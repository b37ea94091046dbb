/**
 * The published package works for a user: `npm pack` (which builds dist/
 * through prepack), install the tarball into a scratch project, then there:
 * import { crawl, stages, createStore } from 'focuscrawl' in plain Node and
 * crawl the fixture web through the replay proxy; run `npx focuscrawl
 * --version` and `--help`; typecheck a TypeScript consumer and the examples
 * against the installed .d.ts files. tsx is moved out of the way first, so
 * everything here must run from dist/ with plain node.
 *
 * Needs npm and the npm registry (the tarball's dependencies are installed);
 * skipped without npm. Slow (a build and an install): not a timed assertion,
 * the timeout is only a bound.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, tempDir } from '../helpers/cli.ts';

const NPM = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const SKIP_NPM = NPM.status === 0 ? false : 'npm is not on PATH';
const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** Plain-Node user code: crawl the fixture web through the replay proxy, stages, store. */
const USER_MJS = `
import { crawl, stages, createStore, createReplayServer, loadTopic, knownStrategies, VERSION } from 'focuscrawl';
import path from 'node:path';

const [warc, topicFile, storeDir] = process.argv.slice(2);
const replay = await createReplayServer({ warcs: [warc] });
try {
  const run = crawl({
    seeds: ['http://www.webdir.example/', 'http://news.example.cn/'],
    topic: await loadTopic(topicFile),
    proxy: replay.url,
    maxPages: 20,
    store: storeDir,
  });
  const records = [];
  for await (const record of run) records.push(record);
  const summary = await run.summary;
  const store = await createStore(storeDir);
  let logged = 0;
  for await (const _ of store.log()) logged++;
  await store.close();
  console.log(JSON.stringify({
    version: VERSION,
    records: records.length,
    relevant: records.filter((r) => r.type === 'page' && r.relevant).length,
    summary,
    logged,
    stages: Object.keys(stages),
    strategies: knownStrategies(),
  }));
} finally {
  await replay.close();
}
`;

/** A TypeScript consumer: must typecheck against the installed declarations. */
const CONSUMER_TS = `
import { crawl, stages, createStore, type CrawlItem, type CrawlSummary, type Scorer, FocuscrawlError } from 'focuscrawl';
import { pipeline } from 'node:stream/promises';

export async function main(): Promise<CrawlSummary> {
  const run = crawl({ seeds: ['https://example.org/'], maxPages: 1, concurrency: 2 });
  for await (const record of run) {
    if (record.type === 'page') {
      const status: number = record.status;
      void status;
      // @ts-expect-error status is a number (the record types resolved)
      const wrongStatus: string = record.status;
      void wrongStatus;
    } else {
      const code: string = record.code;
      void code;
    }
  }
  const summary = await run.summary;
  // @ts-expect-error pages is a number: this fails if the declarations resolved to any
  const wrong: string = summary.pages;
  void wrong;
  const store = await createStore('./store');
  const n: number = store.pages;
  void n;
  // @ts-expect-error pages is a number (the store's declarations resolved)
  const wrongPages: string = store.pages;
  void wrongPages;
  await store.close();
  const scorer: Scorer = { name: 'zero', pageRelevance: () => 0, linkScore: () => 0 };
  await pipeline(
    stages.fromUrls(['https://example.org/']),
    (src: AsyncIterable<CrawlItem>) => stages.parse(src),
    (src: AsyncIterable<CrawlItem>) => stages.classify(src, { scorer, threshold: 0.5 }),
    async (src: AsyncIterable<CrawlItem>) => { for await (const _ of src) void _; },
  );
  const err: unknown = null;
  if (err instanceof FocuscrawlError) console.log(err.code);
  return summary;
}
`;

test('npm pack -> npm install -> import, bin and types work from dist/ without tsx', { skip: SKIP_NPM, timeout: 900_000 }, async (t) => {
  const { dir, cleanup } = await tempDir('focuscrawl-package-');
  t.after(cleanup);
  const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

  // pack (prepack builds dist/)
  const packDir = path.join(dir, 'pack');
  await mkdir(packDir);
  const packed = await run('npm', ['pack', '--pack-destination', packDir], ROOT);
  assert.equal(packed.code, 0, `npm pack failed:\n${packed.stderr}`);
  const tarballs = (await readdir(packDir)).filter((f) => f.endsWith('.tgz'));
  assert.equal(tarballs.length, 1, `one tarball: ${tarballs.join(', ')}`);
  const tarball = path.join(packDir, tarballs[0]);
  t.diagnostic(`npm pack (with build): ${packed.ms} ms`);

  // the tarball holds dist, bin and package.json, not the sources or tests
  const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  assert.equal(listing.status, 0, listing.stderr);
  const files = listing.stdout.split('\n').filter((f) => f !== '');
  for (const f of ['package/package.json', 'package/bin/focuscrawl', 'package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/cli.js']) {
    assert.ok(files.includes(f), `${f} is packed`);
  }
  for (const f of files) assert.doesNotMatch(f, /^package\/(src|test|fixtures|bench|examples)\//, `${f} is not packed`);

  // install into a scratch project
  const scratch = path.join(dir, 'scratch');
  await mkdir(scratch);
  await writeFile(path.join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }));
  const installed = await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], scratch);
  assert.equal(installed.code, 0, `npm install failed:\n${installed.stderr}`);
  t.diagnostic(`npm install <tarball> in a scratch project: ${installed.ms} ms`);
  const installedPkg = path.join(scratch, 'node_modules', 'focuscrawl');
  assert.ok(!existsSync(path.join(installedPkg, 'src')), 'no src/ in the installed package');

  // nothing below may need tsx
  const tsx = path.join(scratch, 'node_modules', 'tsx');
  if (existsSync(tsx)) await rename(tsx, `${tsx}.moved-away`);

  // plain Node user code
  await writeFile(path.join(scratch, 'user.mjs'), USER_MJS);
  const user = await run(process.execPath, ['user.mjs', path.join(ROOT, 'fixtures', 'web.warc.gz'), path.join(ROOT, 'fixtures', 'demo-topic.json'), path.join(dir, 'store')], scratch);
  assert.equal(user.code, 0, user.stderr);
  const out = JSON.parse(user.stdout) as {
    version: string; records: number; relevant: number; logged: number; stages: string[]; strategies: string[];
    summary: { pages: number; errors: number; relevant: number; stopped: string };
  };
  assert.equal(out.version, pkg.version);
  assert.equal(out.summary.pages, 20);
  assert.equal(out.summary.stopped, 'done');
  assert.equal(out.records, out.summary.pages + out.summary.errors);
  assert.equal(out.relevant, out.summary.relevant);
  assert.ok(out.relevant > 0);
  assert.equal(out.logged, out.records);
  assert.ok(out.stages.includes('fetch') && out.stages.includes('parse') && out.stages.includes('sink'));
  assert.ok(out.strategies.includes('best-first'));

  // the bin, through npx, with plain node
  const version = await run('npx', ['--no-install', 'focuscrawl', '--version'], scratch);
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout.trim(), pkg.version);
  const help = await run('npx', ['--no-install', 'focuscrawl', '--help'], scratch);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^focuscrawl \S+: a focused web crawler/);
  assert.match(help.stdout, /focuscrawl crawl --seed URL/);
  const bad = await run('npx', ['--no-install', 'focuscrawl', 'crawl', '--no-such-flag'], scratch);
  assert.equal(bad.code, 2, bad.stderr);

  // declarations: present, and a TypeScript consumer (and the examples) typecheck against them
  for (const f of ['index.d.ts', 'pipeline.d.ts', 'store/level.d.ts', 'store/types.d.ts', 'types.d.ts', 'errors.d.ts']) {
    assert.ok(existsSync(path.join(installedPkg, 'dist', f)), `dist/${f}`);
  }
  await writeFile(path.join(scratch, 'consumer.ts'), CONSUMER_TS);
  await mkdir(path.join(scratch, 'examples'));
  const examples = (await readdir(path.join(ROOT, 'examples'))).filter((f) => f.endsWith('.ts'));
  for (const f of examples) await copyFile(path.join(ROOT, 'examples', f), path.join(scratch, 'examples', f));
  await writeFile(path.join(scratch, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true,
      // as most projects do; the @ts-expect-error lines in consumer.ts catch declarations that resolve to any
      skipLibCheck: true,
      types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    },
    files: ['consumer.ts', ...examples.map((f) => `examples/${f}`)],
  }));
  const tsc = await run(process.execPath, [TSC, '-p', scratch], scratch);
  assert.equal(tsc.code, 0, `tsc:\n${tsc.stdout}${tsc.stderr}`);
});
