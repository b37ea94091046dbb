/**
 * The crawl's stderr: log lines and stats records as readable text or, with
 * `--log-format json`, one JSON object a line; and on a terminal a progress
 * line redrawn in place (`\r` + clear-line), at most PROGRESS_MIN_MS apart,
 * erased before any other line is written and at exit.
 *
 * Text lines go through sanitizeForTerminal: they may quote pages (URLs,
 * titles, messages), and a control character must not reach the terminal.
 */
import { formatProgress, formatStatsLine, type StatsSnapshot } from './stats.ts';
import { LOG_LINE_MAX, sanitizeForTerminal } from './terminal.ts';

/** Shortest time between two progress redraws. */
export const PROGRESS_MIN_MS = 250;

/** Carriage return + ANSI "erase the whole line". */
const CLEAR_LINE = '\r\x1b[2K';

/** Where the log goes: process.stderr, or anything with `write` (tests). */
export interface LogStream {
  isTTY?: boolean;
  write(chunk: string): unknown;
}

export type LogFormat = 'text' | 'json';

export interface CrawlLogOptions {
  format: LogFormat;
  /** draw the progress line (the CLI: stderr is a TTY and stdout is not the terminal) */
  progress: boolean;
  now?: () => number;
}

/** A line that is already one JSON object (json mode passes it through). */
function isJsonObject(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

export class CrawlLog {
  readonly #stream: LogStream;
  readonly #format: LogFormat;
  readonly #progress: boolean;
  readonly #now: () => number;
  /** a progress line is on screen */
  #drawn = false;
  #lastDraw = -Infinity;

  constructor(stream: LogStream, opts: CrawlLogOptions) {
    this.#stream = stream;
    this.#format = opts.format;
    this.#progress = opts.progress && stream.isTTY === true;
    this.#now = opts.now ?? Date.now;
  }

  /**
   * One log line. Text: sanitised and written. JSON: a line that is already
   * a JSON object is written as is, any other becomes {"type":"log","message"}.
   */
  line(text: string): void {
    if (this.#format === 'json') this.#write(isJsonObject(text) ? text : JSON.stringify({ type: 'log', message: sanitizeForTerminal(text, LOG_LINE_MAX) }));
    else this.#write(sanitizeForTerminal(text, LOG_LINE_MAX));
  }

  /** A stats record: formatStatsLine, or the snapshot as JSON. */
  stats(snapshot: StatsSnapshot): void {
    this.#write(this.#format === 'json' ? JSON.stringify(snapshot) : formatStatsLine(snapshot));
  }

  /** A failure that ends the command, with its code (JSON: {"type":"fatal","code","message"}). */
  fatal(code: string, message: string): void {
    const text = sanitizeForTerminal(message, LOG_LINE_MAX);
    this.#write(this.#format === 'json' ? JSON.stringify({ type: 'fatal', code, message: text }) : `focuscrawl: ${code}: ${text}`);
  }

  /** Redraw the progress line (skipped when disabled or drawn less than PROGRESS_MIN_MS ago). */
  progress(snapshot: StatsSnapshot): void {
    if (!this.#progress) return;
    const now = this.#now();
    if (now - this.#lastDraw < PROGRESS_MIN_MS) return;
    this.#lastDraw = now;
    this.#stream.write(`${CLEAR_LINE}${formatProgress(snapshot)}`);
    this.#drawn = true;
  }

  /** Erase the progress line, if one is on screen. */
  clear(): void {
    if (!this.#drawn) return;
    this.#stream.write(CLEAR_LINE);
    this.#drawn = false;
  }

  #write(line: string): void {
    this.clear();
    this.#stream.write(`${line}\n`);
  }
}
