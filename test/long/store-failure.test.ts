// Store failures: a store locked by another crawl, a store directory that
// cannot be written, a disk that fills up (file size limit; full tmpfs).
// Each must end the crawl with ONE line on stderr naming FC_STORE(_LOCKED)
// and the store, exit code 1, and leave a store that the next run resumes
// with no page lost or printed twice.
//
// Regressions: a journal append cut short by a full disk wrote half a line
// and reported success, so the page's record went out while the next open
// dropped the torn batch: the page was fetched and printed a second time.
// `--fresh` deleted a store another crawl had open. A failing putMeta (live
// stats) surfaced as an internal error instead of FC_STORE.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Journal } from '../../src/store/journal.ts';
import { CrawlStore } from '../../src/store/level.ts';
import { fixtureReplay, ROOT, tempDir } from '../helpers/cli.ts';
import { checkClosure, checkUnion, runUntilKilled, startCountingProxy, type CrawlRun } from '../helpers/crash.ts';

const IS_ROOT = process.getuid?.() === 0;
const execFileAsync = promisify(execFile);

function crawlArgs(proxy: string, store: string, ...more: string[]): string[] {
  return ['crawl', '--seeds', 'fixtures/demo-seeds.txt', '--proxy', proxy, '--store', store, '--concurrency', '8', '--per-host', '4', '--quiet', ...more];
}

/** Whether `unshare -rm` can make a private mount namespace and mount a tmpfs in it. */
function canUnshareMount(): boolean {
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt'], { stdio: 'ignore' });
  return r.status === 0;
}
const SKIP_UNSHARE = canUnshareMount() ? false : 'needs `unshare -rm` with mount rights (util-linux; user namespaces or root)';

/** The failed run: exit 1, nothing but one `focuscrawl: CODE: ...` line on stderr, naming the store. */
function assertOneLineFailure(run: CrawlRun, code: string, store: string): void {
  assert.equal(run.code, 1, run.stderr);
  const lines = run.stderr.trim().split('\n');
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], new RegExp(`^focuscrawl: ${code}: `));
  assert.ok(lines[0].includes(store), `the message names the store ${store}: ${lines[0]}`);
}

/** Resume on `store` to the end, then check the union of `runs` and that no link was lost. */
async function resumeAndCheck(replay: string, store: string, runs: CrawlRun[], failing: number[]): Promise<void> {
  const last = await runUntilKilled(crawlArgs(replay, store), null, runs.length);
  assert.equal(last.code, 0, last.stderr);
  const all = [...runs, last];
  const s = await CrawlStore.open(store);
  try {
    const union = await checkUnion(all, s, { failing });
    assert.deepEqual(union.violations, []);
    assert.deepEqual(union.missing, [], 'a failed write loses no record (the window is only for kills)');
    assert.equal(s.frontierSize, 0);
    const closure = await checkClosure(s, replay);
    assert.deepEqual(closure.violations, []);
    assert.ok(s.pages > 300, `the resumed crawl finished the fixture web (${s.pages} pages)`);
  } finally {
    await s.close();
  }
}

// the cases are independent (own replay proxy, temp dir, store): run them side by side
describe('store failures', { concurrency: true }, () => {
  test('a journal append cut short by the file size limit leaves no torn line and fails with FC_STORE', async (t) => {
    const { dir, cleanup } = await tempDir();
    t.after(cleanup);
    const file = path.join(dir, 'focuscrawl.journal');
    const script = path.join(dir, 'append.ts');
    await writeFile(
      script,
      `import { Journal } from ${JSON.stringify(path.join(ROOT, 'src', 'store', 'journal.ts'))};\n` +
        `const { journal } = Journal.open(process.argv[2]);\n` +
        `let ok = 0;\n` +
        `try { for (;;) { journal.append({ b: ok + 1, ops: [{ t: 'p', s: 'log', k: String(ok), v: 'x'.repeat(300) }] }); ok++; } }\n` +
        `catch (e) { console.log(JSON.stringify({ ok, code: e.code })); }\n`,
    );
    // 4 KiB per file; SIGXFSZ ignored, so a write past the limit is short or fails with EFBIG
    const { stdout } = await execFileAsync('bash', ['-c', 'trap "" XFSZ; ulimit -f 4; exec "$@"', 'bash', process.execPath, '--import', 'tsx', script, file], {
      cwd: ROOT,
    });
    const { ok, code } = JSON.parse(stdout) as { ok: number; code: string };
    assert.equal(code, 'FC_STORE');
    assert.ok(ok > 0);
    const text = await readFile(file, 'utf8');
    assert.ok(text.endsWith('\n'), 'no partial line at the end');
    const reopened = Journal.open(file);
    reopened.journal.close();
    assert.equal(reopened.entries.length, ok, 'every append that returned is in the journal, no other');
  });

  test('disk full (file size limit): FC_STORE, exit 1, one line; the next run resumes, nothing lost or printed twice', async (t) => {
    const { url: replay, dir } = await fixtureReplay(t);
    const store = path.join(dir, 'store');
    // 100 KiB per file: the journal or LevelDB's log hits it some 30 pages in
    const limited = await runUntilKilled(crawlArgs(replay, store), null, 0, (argv) => ['bash', '-c', 'trap "" XFSZ; ulimit -f 100; exec "$@"', 'bash', ...argv]);
    assertOneLineFailure(limited, 'FC_STORE', store);
    assert.ok(limited.lines.length > 0, 'the limit was hit mid-crawl');
    await resumeAndCheck(replay, store, [limited], [0]);
  });

  test('disk full (a full tmpfs): FC_STORE, exit 1, one line; the store resumes elsewhere, nothing lost or printed twice', { skip: SKIP_UNSHARE }, async (t) => {
    const { url: replay, dir } = await fixtureReplay(t);
    const mnt = path.join(dir, 'mnt');
    await mkdir(mnt);
    const store = path.join(dir, 'store');
    // a 160 KiB tmpfs in a private mount namespace; what the crawl left on it is copied out afterwards
    const script = 'mount -t tmpfs -o size=160k tmpfs "$1" || exit 99; mnt=$1; out=$2; shift 2; "$@"; rc=$?; cp -a "$mnt/store" "$out" || exit 98; exit $rc';
    const full = await runUntilKilled(crawlArgs(replay, path.join(mnt, 'store')), null, 0, (argv) => ['unshare', '-rm', 'sh', '-c', script, 'sh', mnt, store, ...argv]);
    assertOneLineFailure(full, 'FC_STORE', path.join(mnt, 'store'));
    assert.match(full.stderr, /No space left on device|disk full/);
    await resumeAndCheck(replay, store, [full], [0]);
  });

  test('store directory read-only (a read-only bind mount): FC_STORE, exit 1, one line; untouched, it resumes', { skip: SKIP_UNSHARE }, async (t) => {
    const { url: replay, dir } = await fixtureReplay(t);
    const store = path.join(dir, 'store');
    const first = await runUntilKilled(crawlArgs(replay, store, '--max-pages', '40'), null, 0);
    assert.equal(first.code, 0, first.stderr);
    const script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 99; shift; exec "$@"';
    const readOnly = await runUntilKilled(crawlArgs(replay, store), null, 1, (argv) => ['unshare', '-rm', 'sh', '-c', script, 'sh', store, ...argv]);
    assertOneLineFailure(readOnly, 'FC_STORE', store);
    assert.match(readOnly.stderr, /Read-only file system/);
    assert.deepEqual(readOnly.lines, []);
    await resumeAndCheck(replay, store, [first, readOnly], [1]);
  });

  test(
    'store directory not writable (chmod 0500): FC_STORE, exit 1, one line; once writable again, it resumes',
    { skip: IS_ROOT ? 'runs as root, which permission bits do not stop (the read-only mount test covers this)' : false },
    async (t) => {
      const { url: replay, dir } = await fixtureReplay(t);
      const store = path.join(dir, 'store');
      const first = await runUntilKilled(crawlArgs(replay, store, '--max-pages', '40'), null, 0);
      assert.equal(first.code, 0, first.stderr);
      await chmod(store, 0o500);
      let denied: CrawlRun;
      try {
        denied = await runUntilKilled(crawlArgs(replay, store), null, 1);
      } finally {
        await chmod(store, 0o700);
      }
      assertOneLineFailure(denied, 'FC_STORE', store);
      assert.deepEqual(denied.lines, []);
      await resumeAndCheck(replay, store, [first, denied], [1]);
    },
  );

  test('a store in use by a running crawl: a second crawl, with or without --fresh, gets FC_STORE_LOCKED and exit 1; the first finishes unharmed', async (t) => {
    const { url: replay, dir } = await fixtureReplay(t);
    let release!: () => void;
    const held = startCountingProxy(replay, { hold: new Promise<void>((resolve) => (release = resolve)) });
    const gate = await held;
    t.after(() => {
      release();
      return gate.close();
    });
    const store = path.join(dir, 'store');
    const running = runUntilKilled(crawlArgs(gate.url, store), null, 0);
    // the first crawl's requests are held at the proxy: once one arrives, it has the store open
    while (gate.received === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const more of [[], ['--fresh']]) {
      const second = await runUntilKilled(crawlArgs(replay, store, ...more), null, 1);
      assertOneLineFailure(second, 'FC_STORE_LOCKED', store);
      assert.deepEqual(second.lines, []);
    }
    release();
    const first = await running;
    assert.equal(first.code, 0, first.stderr);
    const s = await CrawlStore.open(store);
    try {
      const union = await checkUnion([first], s);
      assert.deepEqual(union.violations, []);
      assert.equal(union.records, union.logged, 'the first crawl printed every record it committed');
      const closure = await checkClosure(s, replay);
      assert.deepEqual(closure.violations, []);
    } finally {
      await s.close();
    }
  });
});
