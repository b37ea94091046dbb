/**
 * The per-host page budget (`--max-pages-per-host`, issue 5): a host that
 * has given `max` pages gets no more requests, which ends an endless URL
 * space (a calendar's `?month=N+1`, a search with ever new parameters)
 * that the path rules of src/urls/traps.ts cannot see.
 *
 * Counting: a committed page record (an HTTP answer, any status) counts
 * against the host of the URL taken from the frontier (`record.url`; a
 * redirect to another host counts against the host that was asked). Error
 * records do not count. A URL is admitted while the host's committed pages
 * plus its admitted-but-uncommitted URLs are below `max`, so the cap holds
 * exactly even with several requests to a host in flight (as --max-pages
 * counts in-flight URLs); a refused URL becomes an FC_HOST_BUDGET record
 * (src/stages/host-budget.ts). Links to a host whose committed pages reached
 * `max` are not queued (src/stages/sink.ts).
 *
 * Persistence: the counts are derived from the store's log, the truth. A
 * checkpoint `{records, hosts}` (meta key `hostPages`) saves a resume from
 * reading the whole log: `restore` loads it and counts only the records
 * after it; `save` writes one at the end of a run, and only when the counts
 * cover exactly the first `store.committed` records, so a checkpoint is
 * never ahead of or inconsistent with the log (a killed run just leaves the
 * previous one, and the next run reads more of the log).
 *
 * Memory: one map entry per host with a committed page (~100 bytes each).
 */
import { hostOfCanonical } from '../urls/canonical.ts';
import { logKey } from '../store/keys.ts';
import type { Store } from '../store/types.ts';

/**
 * Default budget: 10,000 pages, about 2.8 hours of one host at the default
 * 1 s politeness delay. Large enough for a whole department or product
 * site, small enough that a trap host ends instead of feeding the crawl
 * forever. Heritrix has no default quota, but its operators watch a
 * console; a focused crawl streaming to a pipe should end by itself.
 */
export const DEFAULT_MAX_PAGES_PER_HOST = 10_000;

/** Meta key of the checkpoint. */
export const HOST_PAGES_KEY = 'hostPages';

/** The store API the budget reads and writes. */
export type BudgetStore = Pick<Store, 'log' | 'getMeta' | 'putMeta' | 'committed'>;

/** The part of a committed record the budget looks at. */
export interface CountedRecord {
  type: string;
  url: string;
}

export interface HostBudgetOptions {
  /** pages per host, a positive integer or Infinity (no budget: every method is a no-op) */
  max: number;
  /** called once when a host's committed pages reach `max` in this run */
  onFull?: (host: string) => void;
}

interface Checkpoint {
  records: number;
  hosts: [string, number][];
}

function isCheckpoint(v: unknown): v is Checkpoint {
  const c = v as Checkpoint | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    Number.isSafeInteger(c.records) &&
    c.records >= 0 &&
    Array.isArray(c.hosts) &&
    c.hosts.every((h) => Array.isArray(h) && typeof h[0] === 'string' && Number.isSafeInteger(h[1]) && h[1] > 0)
  );
}

export class HostBudget {
  readonly max: number;
  readonly #onFull: ((host: string) => void) | undefined;
  /** committed pages per host */
  readonly #pages = new Map<string, number>();
  /** admitted, not yet committed URLs per host */
  readonly #pending = new Map<string, number>();
  readonly #admitted = new Set<string>();
  /** log records counted: the counts cover log records 1..#records */
  #records = 0;

  constructor(opts: HostBudgetOptions) {
    if (!(opts.max === Infinity || (Number.isSafeInteger(opts.max) && opts.max >= 1))) {
      throw new TypeError(`max pages per host must be a positive integer or Infinity, got ${opts.max}`);
    }
    this.max = opts.max;
    this.#onFull = opts.onFull;
  }

  /** Committed pages of `host` (as counted so far). */
  pagesOf(host: string): number {
    return this.#pages.get(host) ?? 0;
  }

  /** Whether `host` has given its `max` committed pages (its links are not queued). */
  isFull(host: string): boolean {
    return this.pagesOf(host) >= this.max;
  }

  /**
   * May `url` (canonical, from the frontier) be fetched? Yes reserves a
   * place in its host's budget until its record is committed. Asking again
   * for a URL already admitted (a retry) answers yes without a second place.
   */
  admit(url: string): boolean {
    if (this.max === Infinity || this.#admitted.has(url)) return true;
    const host = hostOfCanonical(url);
    const pending = this.#pending.get(host) ?? 0;
    if (this.pagesOf(host) + pending >= this.max) return false;
    this.#admitted.add(url);
    this.#pending.set(host, pending + 1);
    return true;
  }

  /** A record was committed (every record, in commit order): count it and free its reservation. */
  committed(record: CountedRecord): void {
    if (this.max === Infinity) return;
    const host = this.#count(record);
    if (this.#admitted.delete(record.url)) {
      const pending = (this.#pending.get(host) ?? 1) - 1;
      if (pending === 0) this.#pending.delete(host);
      else this.#pending.set(host, pending);
    }
    if (record.type === 'page' && this.pagesOf(host) === this.max) this.#onFull?.(host);
  }

  #count(record: CountedRecord): string {
    this.#records++;
    const host = hostOfCanonical(record.url);
    if (record.type === 'page') this.#pages.set(host, this.pagesOf(host) + 1);
    return host;
  }

  /**
   * Rebuild the counts of earlier runs: the checkpoint (when valid and not
   * ahead of the log) plus the log records after it. Call once, before
   * the crawl starts.
   */
  async restore(store: BudgetStore): Promise<void> {
    if (this.max === Infinity) return;
    const saved = await store.getMeta(HOST_PAGES_KEY);
    let from = 0;
    if (isCheckpoint(saved) && saved.records <= store.committed) {
      for (const [host, n] of saved.hosts) this.#pages.set(host, n);
      from = saved.records;
    }
    this.#records = from;
    const range = from === 0 ? {} : { gt: logKey(from) };
    for await (const record of store.log(range)) this.#count(record as CountedRecord);
  }

  /**
   * Write the checkpoint, when the counts cover exactly the store's
   * committed records (else keep the previous one). Call at the end of a
   * run, before the store closes.
   */
  async save(store: BudgetStore): Promise<void> {
    if (this.max === Infinity || this.#records !== store.committed) return;
    const checkpoint: Checkpoint = { records: this.#records, hosts: [...this.#pages] };
    await store.putMeta(HOST_PAGES_KEY, checkpoint);
  }
}
