/**
 * Crash bench: crawl the WebKB archive through the replay proxy, SIGKILL the
 * crawler at random moments, resume on the same store every time, and check
 * the union of all outputs against the final store, the server's request
 * log and an uninterrupted reference run. See RELIABILITY.md.
 *
 *   node --import tsx bench/crash-bench.ts [--kills 20] [--seed N] [--max-pages 2000]
 *     [--concurrency 16] [--write]
 *
 * `--max-pages 0` crawls everything reachable (about 31,000 URLs, mostly
 * 404s for links that leave the archive) and then also compares the set of
 * URLs reached with the reference run's. With --write the results replace
 * the section `crash-bench-<max-pages or all>` of RELIABILITY.md. Exit code:
 * 0 every check passed, 1 a check failed, 2 no archive or bad arguments.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Rng } from '../src/util/random.ts';
import { createReplayServer } from '../src/replay/server.ts';
import { CrawlStore } from '../src/store/level.ts';
import type { OutputRecord } from '../src/types.ts';
import {
  checkClosure, checkRequests, checkUnion, crashAndResume, reachedUrls, readLog, runUntilKilled, startCountingProxy,
  type CrawlRun, type KillAt,
} from '../test/helpers/crash.ts';
import { writeSection } from './lib/sections.ts';
import { WEBKB_SEEDS, WEBKB_WARC } from './lib/webkb.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RELIABILITY_MD = path.join(REPO, 'RELIABILITY.md');

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function pagesOf(run: CrawlRun): number {
  return run.lines.filter((l) => (JSON.parse(l) as OutputRecord).type === 'page').length;
}

/**
 * The kill plan: a mix of kills during start-up (module loading, store
 * open, journal replay), at a random time mid-crawl, and synchronously when
 * a random record arrives (its LevelDB batch is being written then). Kills
 * are spread so the crawl is still running at each: a run is allowed about
 * twice its share of the pages still to do.
 */
function planner(rng: Rng, kills: number, target: number, startupMs: number, pagesPerMs: number) {
  return (i: number, done: readonly CrawlRun[]): KillAt => {
    const remaining = Math.max(2, target - done.reduce((n, r) => n + pagesOf(r), 0));
    const share = Math.max(2, Math.floor((2 * remaining) / (kills - i + 1)));
    const u = rng.next();
    if (u < 0.2) return { kind: 'startup', ms: rng.int(Math.ceil(startupMs * 1.2)) };
    if (u < 0.5) return { kind: 'time', ms: rng.int(Math.max(1, Math.ceil(share / pagesPerMs))) };
    return { kind: 'line', line: rng.range(1, share) };
  };
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ` +
    `${os.type()} ${os.release()}, Node ${process.version}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string', default: '20' },
      seed: { type: 'string' },
      'max-pages': { type: 'string', default: '2000' },
      concurrency: { type: 'string', default: '16' },
      write: { type: 'boolean', default: false },
    },
  });
  const kills = Number(values.kills);
  const maxPages = Number(values['max-pages']);
  const concurrency = Number(values.concurrency);
  const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
  for (const [name, n] of [['kills', kills], ['max-pages', maxPages], ['concurrency', concurrency], ['seed', seed]] as const) {
    if (!Number.isSafeInteger(n) || n < 0) {
      process.stderr.write(`crash-bench: --${name} must be a non-negative integer\n`);
      return 2;
    }
  }
  if (!existsSync(WEBKB_WARC)) {
    process.stderr.write(`crash-bench: needs the WebKB archive at ${WEBKB_WARC} (../shared is not beside this clone)\n`);
    return 2;
  }
  const command = `node --import tsx bench/crash-bench.ts --kills ${kills} --seed ${seed} --max-pages ${maxPages} --concurrency ${concurrency}`;
  process.stderr.write(`crash-bench: seed ${seed}\n${command}\n`);
  const loadBefore = os.loadavg()[0];
  const started = Date.now();
  const replay = await createReplayServer({ warcs: [WEBKB_WARC] });
  const counting = await startCountingProxy(replay.url);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-crash-bench-'));
  try {
    const args = (proxy: string, store: string): string[] => [
      'crawl', ...WEBKB_SEEDS.flatMap((s) => ['--seed', s]), '--proxy', proxy, '--store', store,
      '--concurrency', String(concurrency), '--per-host', String(concurrency), '--quiet',
      ...(maxPages > 0 ? ['--max-pages', String(maxPages)] : []),
    ];

    process.stderr.write('crash-bench: reference run (no kills)\n');
    const reference = await runUntilKilled(args(replay.url, path.join(tmp, 'reference')), null);
    if (reference.code !== 0) throw new Error(`reference run failed: ${reference.stderr}`);
    const referencePages = pagesOf(reference);
    const startupMs = reference.firstLineMs ?? 1000;
    const pagesPerMs = referencePages / Math.max(1, reference.ms - startupMs);

    const store = path.join(tmp, 'store');
    const rng = new Rng(seed);
    const runs = await crashAndResume({
      args: args(counting.url, store),
      kills,
      plan: planner(rng, kills, maxPages > 0 ? maxPages : referencePages, startupMs, pagesPerMs),
      inspect: store,
      beforeRun: (i) => (counting.run = i),
      afterRun: (r) =>
        process.stderr.write(
          `crash-bench: run ${r.index} ${r.kill === null ? 'to the end' : JSON.stringify(r.kill)}: ` +
            `${r.killed ? 'killed' : `exit ${r.code ?? r.signal}`} after ${r.lines.length} records, ${(r.ms / 1000).toFixed(1)} s` +
            `${r.snapshot ? `, ${r.snapshot.pending} batch(es) journaled but not in LevelDB` : ''}\n`,
        ),
    });
    counting.run = -1;

    const s = await CrawlStore.open(store);
    let lines: string[];
    let failed: string[];
    try {
      const union = await checkUnion(runs, s);
      const requests = checkRequests(counting.requests, runs);
      const closure = await checkClosure(s, replay.url);
      failed = [...union.violations, ...requests.violations, ...closure.violations];
      const expectedPages = maxPages > 0 ? maxPages : referencePages;
      if (maxPages > 0 && referencePages !== maxPages) failed.push(`the reference run fetched ${referencePages} pages, not ${maxPages}`);
      if (s.pages !== expectedPages) failed.push(`the final store holds ${s.pages} pages, not ${expectedPages}`);
      let reachedNote = 'not compared (a --max-pages crawl reaches an order-dependent subset)';
      if (maxPages === 0) {
        const want = reachedUrls(reference.lines.map((l) => JSON.parse(l) as OutputRecord));
        const got = reachedUrls(await readLog(s));
        const lost = [...want].filter((u) => !got.has(u));
        const extra = [...got].filter((u) => !want.has(u));
        if (lost.length + extra.length > 0) failed.push(`reached URLs differ from the reference: ${lost.length} lost, ${extra.length} extra`);
        reachedNote = `${got.size} URLs, ${lost.length} not reached that the reference reached, ${extra.length} extra`;
      }
      const killed = runs.filter((r) => r.killed);
      const byKind = (k: KillAt['kind']) => killed.filter((r) => r.kill?.kind === k).length;
      const pending = killed.filter((r) => (r.snapshot?.pending ?? 0) > 0).length;
      const replayed = killed.reduce((n, r) => n + (r.snapshot?.pending ?? 0), 0);
      const noStore = killed.filter((r) => r.snapshot === null).length;
      const torn = killed.filter((r) => r.snapshot?.tornJournal === true).length;
      const ms = runs.map((r) => r.ms);
      lines = [
        `Machine: ${machine()}. ${new Date().toISOString().slice(0, 10)}; 1-minute load average ${loadBefore.toFixed(2)} before, ` +
          `${os.loadavg()[0].toFixed(2)} after (the machine was shared).`,
        '',
        `Command: \`${command}\` (seed ${seed})`,
        '',
        '| | |',
        '|---|---|',
        `| kills sent | ${killed.length} of ${kills} planned (${byKind('startup')} during start-up, ${byKind('time')} at a random time, ${byKind('line')} right after a record) |`,
        `| kills before the store existed | ${noStore} |`,
        `| kills with journaled batches LevelDB had not applied (replayed on the next open) | ${pending} (${replayed} batches) |`,
        `| kills inside a journal append (torn last line) | ${torn} |`,
        `| runs | ${runs.length}; every resume opened the store: ${runs.every((r) => r.killed || r.code === 0) ? 'yes' : 'NO'} |`,
        `| records printed (all runs) | ${union.records} |`,
        `| final store | ${s.pages} pages (expected ${expectedPages}), ${union.logged} records, ${s.frontierSize} queued |`,
        `| URLs printed twice | ${union.duplicates.length} |`,
        `| printed records not in the store (lost commits) | ${union.lost.length} |`,
        `| committed records missing from stdout (allowed: kill between journal append and stdout write) | ${union.missing.length} |`,
        `| server: requests / URLs | ${requests.requests} / ${requests.urls} |`,
        `| server: URLs requested in 2+ runs (killed between request and commit) | ${requests.refetchedAfterKill} |`,
        `| server: URLs requested after their record was printed | ${requests.afterCommit.length} |`,
        `| server: URLs requested twice in one run | ${requests.twiceInRun.length} |`,
        `| frontier closure: links of ${closure.pages} committed 2xx pages neither queued nor done | ${closure.lost.length} of ${closure.links} |`,
        `| reached URLs vs the reference | ${reachedNote} |`,
        `| run time, median (min–max) | ${(median(ms) / 1000).toFixed(1)} s (${(Math.min(...ms) / 1000).toFixed(1)}–${(Math.max(...ms) / 1000).toFixed(1)} s) |`,
        `| reference run (no kills) | ${(reference.ms / 1000).toFixed(1)} s, ${referencePages} pages |`,
        `| bench wall time | ${((Date.now() - started) / 1000).toFixed(0)} s |`,
        `| verdict | ${failed.length === 0 ? 'every check passed' : `FAILED: ${failed.join('; ')}`} |`,
      ];
    } finally {
      await s.close();
    }
    const section = lines.join('\n');
    process.stdout.write(`${section}\n`);
    if (values.write) await writeSection(RELIABILITY_MD, `crash-bench-${maxPages > 0 ? maxPages : 'all'}`, section, '# Reliability');
    return failed.length === 0 ? 0 : 1;
  } finally {
    await counting.close();
    await replay.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
