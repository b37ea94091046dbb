/**
 * Where records go: NDJSON lines written straight to a Writable (stdout in
 * the CLI). Writes are synchronous for files and for pipes on Linux, so a
 * line handed to `write` is in the kernel before the next statement runs;
 * the sink relies on that to put a record on stdout and commit its page
 * microseconds apart. When the stream asks for a pause (`write` returns
 * false), `write` returns a promise that settles on 'drain': the crawl waits
 * instead of buffering. When the reader goes away (EPIPE), `onClosed` fires
 * once and further lines are dropped.
 */
import type { Writable } from 'node:stream';

export class LineOutput {
  readonly #stream: Writable;
  #closed = false;
  #onClosed: () => void;

  constructor(stream: Writable, onClosed: () => void) {
    this.#stream = stream;
    this.#onClosed = onClosed;
    stream.on('error', this.#close);
    stream.on('close', this.#close);
  }

  /** The reader is gone (EPIPE, destroyed stream). */
  get closed(): boolean {
    return this.#closed;
  }

  #close = (): void => {
    if (this.#closed) return;
    this.#closed = true;
    this.#onClosed();
  };

  /** Write one line; a promise when the stream wants the writer to wait. */
  write(line: string): Promise<void> | undefined {
    if (this.#closed || this.#stream.destroyed) return undefined;
    if (this.#stream.write(line)) return undefined;
    return new Promise((resolve) => {
      const done = (): void => {
        this.#stream.off('drain', done);
        this.#stream.off('close', done);
        this.#stream.off('error', done);
        resolve();
      };
      this.#stream.on('drain', done);
      this.#stream.on('close', done);
      this.#stream.on('error', done);
    });
  }

  /** Stop listening to the stream (it is not ended: stdout stays open). */
  detach(): void {
    this.#stream.off('error', this.#close);
    this.#stream.off('close', this.#close);
  }
}
