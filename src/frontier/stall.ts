/**
 * A watchdog for a crawl whose event loop empties while it is unfinished.
 *
 * The crawl's stages wait on promises: the frontier source waits on a
 * wake-up (a commit, a released host) or a politeness timer, and a request
 * waits on its socket. Neither undici's idle keep-alive sockets nor its
 * timeout timers hold the event loop open. If a wake-up were lost, or a
 * request waited on a socket that is not referenced, the loop would empty
 * with the crawl unfinished. Node then ends the process with exit 13
 * ("unsettled top-level await"), no error line and no summary: a crawl that
 * stops early and says nothing. (A full test run saw this once, on
 * 2026-11-26; it did not come back in 60 runs of the same test.)
 *
 * Node emits 'beforeExit' when the loop empties; work scheduled from it
 * keeps the process alive, and the event comes again when the loop next
 * empties. The handler made here logs the state, keeps the loop alive with
 * a timer for `intervalMs` (an unreferenced socket's answer still arrives
 * meanwhile), then wakes the crawl so that it looks at its state again. A
 * lost wake-up costs one interval. When `giveUpMs` pass with no progress,
 * it fails the crawl with a StalledError (FC_STALLED) instead, so the
 * process ends with a coded error and the state in the message.
 */
import { StalledError } from '../errors.ts';

export interface StallWatchdogOptions {
  /** a number that grows while the crawl moves (committed records) */
  progress: () => number;
  /** make the crawl look at its state again */
  wake: () => void;
  /** end the crawl with this error */
  fail: (err: StalledError) => void;
  /** what the crawl is waiting for, for the log line and the error */
  describe: () => string;
  log?: (line: string) => void;
  /** how long each 'beforeExit' keeps the loop alive before waking the crawl (default 1,000 ms) */
  intervalMs?: number;
  /** fail after this long without progress while the loop keeps emptying (default 90,000 ms) */
  giveUpMs?: number;
  /** clock (tests) */
  now?: () => number;
}

/** The 'beforeExit' handler: keep the loop alive and wake the crawl, or fail it after `giveUpMs` without progress. */
export function stallWatchdog(opts: StallWatchdogOptions): () => void {
  const intervalMs = opts.intervalMs ?? 1000;
  const giveUpMs = opts.giveUpMs ?? 90_000;
  const now = opts.now ?? Date.now;
  let last = Number.NaN;
  let since = 0;
  let failed = false;
  return () => {
    if (failed) return;
    const p = opts.progress();
    const t = now();
    if (p !== last) {
      last = p;
      since = t;
      opts.log?.(`focuscrawl: the event loop emptied with the crawl unfinished (${opts.describe()}); waking it in ${intervalMs} ms`);
    }
    if (t - since >= giveUpMs) {
      failed = true;
      const err = new StalledError(`${opts.describe()}; no progress for ${Math.round((t - since) / 1000)} s`);
      setImmediate(() => opts.fail(err));
      return;
    }
    setTimeout(opts.wake, intervalMs);
  };
}
