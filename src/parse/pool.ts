/**
 * A pool of worker threads that run parseBody (src/parse/body.ts) off the
 * main thread: `--workers N` (src/stages/parse-workers.ts is its stage).
 *
 * - Pages go to a worker in batches, one message a batch: a
 *   message that wakes a sleeping thread cost the sender 0.2–0.7 ms of CPU
 *   on the 2-core VM this was measured on (docs/results/workers.md), about
 *   as much as parsing the page. Pages wait in one FIFO queue here until
 *   `minBatch` of them are queued (then they leave at the end of the
 *   event loop's turn, setImmediate, with any asked for in the same turn),
 *   or until starved() finds none in a worker (the stage calls it when the
 *   crawl would otherwise wait for one), or FLUSH_MS after the first was
 *   queued. A worker has at most BATCHES_PER_WORKER batches sent to it (one
 *   parsing, one waiting) of at most BATCH_PAGES pages. Each page's answer
 *   comes back on its own as soon as it is parsed (the worker's messages
 *   find the main thread busy, and cost it little).
 * - The body is copied once into an ArrayBuffer of its own size, which is
 *   transferred (not copied again) to the worker: the fetched Buffer stays
 *   with the item, because a page whose worker dies is sent again, and
 *   --warc-out / --pages-out still need it. (Transferring the fetched
 *   Buffer's own memory is not safe in general: a body under 4 KiB is a
 *   slice of Node's shared 8 KiB pool.)
 * - A parse that throws answers the ItemError toItemError makes of it, as
 *   the in-thread stage would. A worker that dies (process.exit, an
 *   out-of-memory abort, a crash) is replaced at once; the page it was
 *   parsing (the first unanswered one) is tried once more, on the new
 *   worker, and when that one dies too the page's answer is
 *   FC_WORKER_CRASH; the pages sent behind it are sent again without
 *   counting an attempt.
 * - close() terminates every worker; pages still pending answer
 *   FC_INTERNAL (nobody waits for them by then).
 * `parse()` never rejects.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ItemError, ParsedPage } from '../types.ts';
import type { ParseOptions } from './body.ts';
import type { PageTermCounts } from '../relevance/topic.ts';

/** A page sent to a worker (in an array: one batch a message). */
export interface ParseRequest {
  id: number;
  url: string;
  headerCharset: string | null;
  body: Uint8Array;
  /** also compute the page's SimHash (pageFingerprint, the pool's FingerprintOptions) */
  fingerprint: boolean;
}

/** A worker's workerData: what is the same for every page. */
export interface WorkerSetup {
  faults: boolean;
  parse: ParseOptions;
  fingerprint?: FingerprintOptions;
  /** the segmenter to count the terms of every page with, for the relevance judge */
  termCounts?: string;
}

/** The options of pageFingerprint (src/stages/dedup.ts), the segmenter by name. */
export interface FingerprintOptions {
  minTokens: number;
  segmenter: string;
}

/** A worker's answer to one ParseRequest (one message each, in the order of the batch). */
export type ParseAnswer = { id: number; page: ParsedPage; simhash?: string | null; terms?: PageTermCounts } | { id: number; error: ItemError };

/**
 * What parse() resolves to: `simhash` when the fingerprint was asked for
 * (null: too few tokens); `terms`, the judge's term counts of the page
 * (pageTermCounts, src/relevance/topic.ts), when the pool counts them.
 */
export type ParseOutcome = { page: ParsedPage; simhash?: string | null; terms?: PageTermCounts } | { error: ItemError };

/** Batches sent to one worker at a time (one parsing, one waiting). */
const BATCHES_PER_WORKER = 2;

/** The most pages in one batch. */
const BATCH_PAGES = 16;

/** The longest a page waits in the queue for others to share its batch (ms). */
const FLUSH_MS = 5;

/** The heap cap of one worker (MB): a page that needs more kills only its worker (FC_WORKER_CRASH). */
const WORKER_HEAP_MB = 256;

/** The most parse workers a crawl takes (--workers). */
export const MAX_WORKERS = 64;

/**
 * --workers when not given: 1 with 3 or more cores, else 0 (in-thread).
 * Measured (BENCHMARKS.md, "The second core"): one worker takes 10–25% of
 * the main thread's CPU per page off it but adds ~12% to the process's;
 * a second worker adds CPU and takes nothing more off (the main thread,
 * not the parse, is the limit), and on 2 cores the crawl already keeps
 * ~1.5 cores busy in-thread (V8's GC and compiler threads, LevelDB), so
 * the worker competes with the main thread for the second one.
 */
export function defaultWorkers(cores = availableParallelism()): number {
  return cores >= 3 ? 1 : 0;
}

export interface ParsePoolOptions {
  /** worker threads (>= 1) */
  size: number;
  /** the parse options of every page */
  parse?: ParseOptions;
  /** near-duplicate fingerprints, for the pages parse() asks it of */
  fingerprint?: FingerprintOptions;
  /**
   * count the relevance judge's terms of every parsed page with the
   * segmenter of this name (pageTermCounts, src/relevance/topic.ts)
   */
  termCounts?: string;
  /**
   * pages gathered before a batch leaves unasked (by starved() or flush())
   * (default 1: every page leaves at the end of the event loop's turn it
   * was asked in)
   */
  minBatch?: number;
  /**
   * test hook: the workers fail on purpose for URLs with `throw` or `crash`
   * in them (src/parse/worker.ts); default false (CrawlConfig.parseFaults
   * sets it for a crawl)
   */
  faults?: boolean;
}

interface Task {
  id: number;
  url: string;
  headerCharset: string | null;
  body: Buffer;
  fingerprint: boolean;
  attempts: number;
  resolve: (o: ParseOutcome) => void;
}

interface Slot {
  worker: Worker;
  /** batches sent to it, in the order it answers them */
  sent: Task[][];
  /** what the worker reported before it exited, if anything */
  failure: string | null;
}

/** The worker's entry: the compiled .js beside this file, or the .ts source through tsx (a git checkout). */
function workerEntry(): URL {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new URL('./worker.js', self);
  // tsx is registered in this thread only (bin/focuscrawl calls register()): the worker registers it too
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', self).href;
  const boot = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

export class ParsePool {
  readonly size: number;
  /** workers started again after one died */
  restarts = 0;
  readonly #opts: ParsePoolOptions;
  readonly #entry = workerEntry();
  readonly #slots: Slot[] = [];
  readonly #queue: Task[] = [];
  #nextId = 1;
  #closed = false;
  #flushing = false;
  #timer: NodeJS.Timeout | null = null;
  readonly #minBatch: number;
  /** messages posted to the workers (batches), and pages in them: for benches and tests */
  readonly sent = { batches: 0, pages: 0 };

  constructor(opts: ParsePoolOptions) {
    if (!Number.isInteger(opts.size) || opts.size < 1) throw new TypeError(`size must be a positive integer, got ${opts.size}`);
    this.size = opts.size;
    this.#opts = opts;
    this.#minBatch = opts.minBatch ?? 1;
    if (!Number.isInteger(this.#minBatch) || this.#minBatch < 1) throw new TypeError(`minBatch must be a positive integer, got ${opts.minBatch}`);
    for (let i = 0; i < opts.size; i++) this.#slots.push(this.#start());
  }

  /**
   * Parse one fetched body (as parseBody(body, url, headerCharset, opts.parse)
   * would) in a worker; with `fingerprint` (and the pool's fingerprint
   * options) also its SimHash.
   */
  parse(body: Buffer, url: string, headerCharset: string | null, fingerprint = false): Promise<ParseOutcome> {
    if (this.#closed) return Promise.resolve(closedOutcome());
    return new Promise((resolve) => {
      this.#queue.push({ id: this.#nextId++, url, headerCharset, body, fingerprint: fingerprint && this.#opts.fingerprint !== undefined, attempts: 0, resolve });
      if (this.#queue.length >= this.#minBatch) this.#flushSoon();
      else this.#timer ??= setTimeout(() => this.flush(), FLUSH_MS);
    });
  }

  /**
   * The caller is about to wait for a page it asked for: when no page is in
   * a worker (so the one it waits for is still queued here), send the
   * queued ones now. (Pages in a worker are older than the queued ones.)
   */
  starved(): void {
    if (this.#queue.length === 0) return;
    for (const s of this.#slots) if (s.sent.length > 0) return;
    this.flush();
  }

  /** Send the pages queued now, as far as the workers take more batches. */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#dispatch();
  }

  /** Terminate the workers (idempotent). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    for (const t of this.#queue.splice(0)) t.resolve(closedOutcome());
    for (const s of this.#slots) for (const b of s.sent.splice(0)) for (const t of b) t.resolve(closedOutcome());
    await Promise.all(this.#slots.map((s) => s.worker.terminate()));
  }

  #start(): Slot {
    const worker = new Worker(this.#entry, {
      workerData: {
        faults: this.#opts.faults === true,
        parse: this.#opts.parse ?? {},
        ...(this.#opts.fingerprint === undefined ? {} : { fingerprint: this.#opts.fingerprint }),
        ...(this.#opts.termCounts === undefined ? {} : { termCounts: this.#opts.termCounts }),
      } satisfies WorkerSetup,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      // the worker's own output would interleave with the records: it has none, but never stdout
      stdout: true,
    });
    worker.stdout.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    const slot: Slot = { worker, sent: [], failure: null };
    worker.on('message', (a: ParseAnswer) => this.#answer(slot, a));
    worker.on('error', (err) => {
      slot.failure = (err as Error)?.message ?? String(err);
    });
    worker.on('exit', (code) => this.#exited(slot, code));
    return slot;
  }

  /** Dispatch at the end of this turn of the event loop: the pages asked for until then leave in one batch. */
  #flushSoon(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    setImmediate(() => {
      this.#flushing = false;
      this.flush();
    });
  }

  #dispatch(): void {
    if (this.#closed) return;
    while (this.#queue.length > 0) {
      let best: Slot | null = null;
      let free = 0;
      for (const s of this.#slots) {
        if (s.sent.length >= BATCHES_PER_WORKER) continue;
        free++;
        if (best === null || s.sent.length < best.sent.length) best = s;
      }
      if (best === null) return;
      // the free workers share the queue
      const batch = this.#queue.splice(0, Math.min(BATCH_PAGES, Math.ceil(this.#queue.length / free)));
      best.sent.push(batch);
      const reqs: ParseRequest[] = [];
      const moved: ArrayBuffer[] = [];
      for (const t of batch) {
        // one copy into a buffer of the body's own size, then moved, not copied, to the worker
        const bytes = new Uint8Array(t.body.byteLength);
        bytes.set(t.body);
        reqs.push({ id: t.id, url: t.url, headerCharset: t.headerCharset, body: bytes, fingerprint: t.fingerprint });
        moved.push(bytes.buffer);
      }
      this.sent.batches++;
      this.sent.pages += batch.length;
      best.worker.postMessage(reqs, moved);
    }
  }

  #answer(slot: Slot, a: ParseAnswer): void {
    const batch = slot.sent[0];
    if (batch === undefined || batch[0].id !== a.id) return;
    const t = batch.shift()!;
    if (batch.length === 0) slot.sent.shift();
    if ('error' in a) t.resolve({ error: a.error });
    else {
      const outcome: ParseOutcome = { page: a.page };
      if (a.simhash !== undefined) outcome.simhash = a.simhash;
      if (a.terms !== undefined) outcome.terms = a.terms;
      t.resolve(outcome);
    }
    if (this.#queue.length >= this.#minBatch) this.#flushSoon();
    else if (this.#queue.length > 0) this.#timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  #exited(slot: Slot, code: number): void {
    if (this.#closed) return;
    const i = this.#slots.indexOf(slot);
    if (i < 0) return;
    const why = slot.failure ?? `exit code ${code}`;
    const [head, ...behind] = slot.sent.splice(0).flat();
    const again: Task[] = [];
    if (head !== undefined) {
      head.attempts++;
      if (head.attempts >= 2) head.resolve({ error: { code: 'FC_WORKER_CRASH', message: `the parse worker died twice on this page (${why})` } });
      else again.push(head);
    }
    this.#queue.unshift(...again, ...behind);
    this.restarts++;
    this.#slots[i] = this.#start();
    this.#dispatch();
  }
}

function closedOutcome(): ParseOutcome {
  return { error: { code: 'FC_INTERNAL', message: 'the parse workers were closed' } };
}
