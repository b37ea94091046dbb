/**
 * A synchronous write-ahead journal for store batches.
 *
 * LevelDB applies a batch on a worker thread, some time after `batch()` is
 * called. The crawler needs one instant at which a page counts as committed,
 * adjacent to the instant its record reaches stdout, so a SIGKILL can fall
 * between the two only within a couple of microseconds: this journal is that
 * instant. Each batch is appended here with one synchronous `write(2)`
 * (NDJSON: `{"b": batchNumber, "ops": [...]}`) before it goes to LevelDB;
 * a process killed after the append but before LevelDB finished gets the
 * batch replayed on the next open. A torn last line (killed mid-append) is
 * a batch that never happened and is ignored. A short write (disk full,
 * file size limit) is cut off again and fails the append, so a batch whose
 * line is torn is never reported as committed.
 *
 * Like LevelDB's own log, the journal is not fsynced: it protects against a
 * crashed or killed process, not against a crashed machine.
 */
import { closeSync, ftruncateSync, openSync, readFileSync, writeSync, fstatSync } from 'node:fs';
import { CapExceededError, StoreError } from '../errors.ts';

export interface JournalOp {
  /** 'p' put, 'd' del */
  t: 'p' | 'd';
  /** sublevel name */
  s: string;
  k: string;
  v?: unknown;
}

export interface JournalEntry {
  /** batch number, increasing */
  b: number;
  ops: JournalOp[];
}

/** Truncate once the journal grows past this and LevelDB has every batch. */
const TRUNCATE_AT = 8 * 1024 * 1024;
/** One batch larger than this cannot be journaled (a page with ~100k links). */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/**
 * The buffer appends encode their line into is kept for the next append up
 * to this size (a page's batch is ~7 KB); a larger line gets a buffer of
 * its own, let go after the append.
 */
const KEEP_BUFFER_BYTES = 256 * 1024;

export class Journal {
  readonly #fd: number;
  readonly path: string;
  /** bytes of complete entries: where the next append starts */
  #size: number;
  /** set when a failed append could not be undone: the journal takes no more */
  #broken: Error | null = null;
  /**
   * where appends encode their line, reused: a new buffer per append was
   * ~7 KB of external memory per commit, which V8 counts towards its next
   * garbage collection
   */
  #line: Buffer = Buffer.allocUnsafe(16 * 1024);

  private constructor(path: string, fd: number) {
    this.path = path;
    this.#fd = fd;
    this.#size = fstatSync(fd).size;
  }

  /** Open (creating) the journal at `path` and read its complete entries. */
  static open(path: string): { journal: Journal; entries: JournalEntry[] } {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new StoreError(`cannot read journal ${path}: ${(err as Error).message}`, { cause: err });
      }
    }
    const entries: JournalEntry[] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch {
        break; // torn last append: that batch never committed
      }
    }
    const fd = openSync(path, 'a');
    return { journal: new Journal(path, fd), entries };
  }

  /**
   * Append one entry with a single synchronous write; it is committed once
   * this returns. Throws StoreError (FC_STORE) when the write fails or is
   * short (disk full: ENOSPC; file size limit: EFBIG), after cutting the
   * partial line off again; CapExceededError for an oversized entry.
   */
  append(entry: JournalEntry): void {
    this.appendJson(JSON.stringify(entry));
  }

  /**
   * append() of an entry already in JSON (`JSON.parse(json)` is the
   * JournalEntry), without its newline.
   */
  appendJson(json: string): void {
    if (this.#broken !== null) throw new StoreError(`journal ${this.path} is unusable after a failed write: ${this.#broken.message}`);
    // the JSON and its newline are encoded into one buffer: appending '\n' to
    // the string would make V8 copy it whole (a flat string) to encode it
    const bytes = Buffer.byteLength(json) + 1;
    if (bytes > MAX_ENTRY_BYTES) throw new CapExceededError('store batch', MAX_ENTRY_BYTES);
    let line = this.#line;
    if (bytes > line.length) {
      line = Buffer.allocUnsafe(bytes <= KEEP_BUFFER_BYTES ? Math.min(KEEP_BUFFER_BYTES, Math.max(bytes, 2 * line.length)) : bytes);
      if (line.length <= KEEP_BUFFER_BYTES) this.#line = line;
    }
    line.write(json);
    line[bytes - 1] = 0x0a;
    let written: number;
    try {
      written = writeSync(this.#fd, line, 0, bytes);
    } catch (err) {
      throw new StoreError(`cannot append to journal ${this.path}: ${(err as Error).message}`, { cause: err });
    }
    if (written === bytes) {
      this.#size += written;
      return;
    }
    const short = new StoreError(`cannot append to journal ${this.path}: short write (${written} of ${bytes} bytes: disk full or file size limit)`);
    try {
      ftruncateSync(this.#fd, this.#size);
    } catch (err) {
      this.#broken = short;
      throw new StoreError(`${short.message}; cutting the partial entry off failed too: ${(err as Error).message}`, { cause: err });
    }
    throw short;
  }

  /** The journal has grown past the size at which truncateIfLarge empties it. */
  get large(): boolean {
    return this.#size >= TRUNCATE_AT;
  }

  /** Drop every entry; call only when LevelDB holds all journaled batches. */
  truncateIfLarge(): void {
    if (this.large) this.clear();
  }

  /** Empty the journal (after a replay). */
  clear(): void {
    ftruncateSync(this.#fd, 0);
    this.#size = 0;
  }

  close(): void {
    closeSync(this.#fd);
  }
}
