/**
 * `--where COLUMN=VALUE` / `--where COLUMN!=VALUE`: filters on the columns
 * of a labels file, shared by `focuscrawl train` (which rows are training
 * examples) and `focuscrawl eval` / `compare` (which rows are scored).
 */
import { UsageError } from '../../errors.ts';

/** A `--where COLUMN=VALUE` (or `COLUMN!=VALUE`, `negate`) filter on a labels file. */
export interface WhereFilter {
  column: string;
  value: string;
  /** keep the rows whose column is not `value` (`--where COLUMN!=VALUE`) */
  negate?: boolean;
}

/** A filter as the command line writes it: `COLUMN=VALUE` or `COLUMN!=VALUE`. */
export function whereText(w: WhereFilter): string {
  return `${w.column}${w.negate === true ? '!=' : '='}${w.value}`;
}

/** The `--where` flag values; throws UsageError (FC_USAGE) for one that is neither form. */
export function parseWhere(values: readonly string[]): WhereFilter[] {
  return values.map((v) => {
    const m = /^([^=!]+)(!?)=(.*)$/.exec(v);
    if (m === null || m[1]!.trim() === '') throw new UsageError(`--where wants COLUMN=VALUE or COLUMN!=VALUE, got ${JSON.stringify(v)}`);
    return { column: m[1]!.trim(), value: m[3]!.trim(), ...(m[2] === '!' ? { negate: true } : {}) };
  });
}

/**
 * The column index of each filter in a header row (names compared exactly,
 * trimmed); throws UsageError naming the file's columns for a missing one.
 */
export function whereColumns(where: readonly WhereFilter[], header: readonly string[], file: string): [number, WhereFilter][] {
  return where.map((w) => {
    const i = header.indexOf(w.column);
    if (i === -1) throw new UsageError(`--where ${whereText(w)}: ${file} has no column ${JSON.stringify(w.column)} (columns: ${header.join(', ')})`);
    return [i, w];
  });
}

/** True when the row's fields pass every filter. */
export function rowMatches(fields: readonly string[], filters: readonly [number, WhereFilter][]): boolean {
  return filters.every(([i, w]) => ((fields[i] ?? '').trim() === w.value) !== (w.negate === true));
}
