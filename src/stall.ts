/**
 * A watchdog for a crawl that waits on something nothing will ever signal.
 *
 * The crawl's stages wait on promises: the frontier source on a wake-up
 * (a commit, a released host) or a politeness timer. Idle keep-alive
 * sockets do not hold the event loop open, so if a wake-up were ever lost
 * while nothing else is pending, the loop would empty with the crawl
 * unfinished. Node then ends the process with exit 13 ("unsettled
 * top-level await"), no error line and no summary: a crawl that stops
 * early and says nothing. (A full test run saw this once, 2026-11-26, and
 * it did not come back in 60 runs of the same test.)
 *
 * Node emits 'beforeExit' when the loop empties; work scheduled from it
 * keeps the process alive (and the event comes again when the loop next
 * empties). The handler made here wakes the crawl, from an immediate, so that
 * it looks at its state again (a lost wake-up costs nothing more), and
 * says so on the log with what the crawl was waiting for. When it fires
 * `maxStalls` times in a row with no progress in between, it fails the
 * crawl with a StalledError (FC_STALLED) instead, so the process ends with
 * a coded error and the state in the message. Pure: no I/O of its own.
 */
import { StalledError } from './errors.ts';

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
  /** wake-ups in a row without progress before failing (default 3) */
  maxStalls?: number;
}

/** The 'beforeExit' handler: wake the crawl (in an immediate), or fail it after `maxStalls` idle wake-ups. */
export function stallWatchdog(opts: StallWatchdogOptions): () => void {
  const maxStalls = opts.maxStalls ?? 3;
  let stalls = 0;
  let last = Number.NaN;
  let failed = false;
  return () => {
    if (failed) return;
    const now = opts.progress();
    if (now !== last) {
      last = now;
      stalls = 0;
    }
    stalls++;
    if (stalls > maxStalls) {
      failed = true;
      const err = new StalledError(opts.describe());
      setImmediate(() => opts.fail(err));
      return;
    }
    opts.log?.(`focuscrawl: the crawl had nothing left to wait on (${opts.describe()}); looking at the frontier again`);
    // an immediate keeps the loop alive: if the crawl waits again with nothing pending, 'beforeExit' comes back
    setImmediate(opts.wake);
  };
}
