/**
 * The one argument layer of every command. Each command declares its flags
 * as a table (`CommandSpec`); from that table come
 *  (a) the util.parseArgs options,
 *  (b) validation: types, ranges and choices, one line
 *      `<command>: --flag: <what is wrong>` per mistake (FC_USAGE, exit 2),
 *  (c) the `--help` text (stdout, exit 0, with -h and the exit codes), and
 *  (d) the Markdown reference in docs/cli.md (`npm run docs:cli`).
 *
 * Adding a flag is one entry in its command's table; the command then reads
 * it with `args.int('name')`, `args.string('name')`, ... (docs/cli.md, "Adding a flag").
 *
 * Before util.parseArgs sees argv, a flag that takes a value takes the next
 * word as its value even when that starts with '-' (`--concurrency -3` is a
 * range mistake, not Node's "argument is ambiguous"), unless that word is one
 * of the command's own flags (`--store --fresh`: "--store: needs a value").
 */
import { parseArgs } from 'node:util';
import { UsageError } from './errors.ts';

/**
 * A flag's type. int: an integer in decimal digits; number: a decimal
 * number (no exponent); bytes: an integer with an optional k/M/G (1000^n)
 * or Ki/Mi/Gi (1024^n) suffix; choice: one of `choices`; string; boolean
 * (no value).
 */
export type FlagType = 'int' | 'number' | 'bytes' | 'choice' | 'string' | 'boolean';

export interface Flag {
  /** The long name, without `--`. */
  name: string;
  /** A one-letter alias, without `-`. */
  short?: string;
  type: FlagType;
  /** The value's placeholder in help (N, FILE, URL, ...); from the type when absent. */
  value?: string;
  /** May be given more than once (values in order). */
  multiple?: boolean;
  /** Inclusive range of int, number and bytes values. */
  min?: number;
  max?: number;
  /** int: 0 means no limit (the value read is Infinity); 0 is allowed even when `min` is larger. */
  zeroIsNoLimit?: boolean;
  /** The values of a choice flag. */
  choices?: readonly string[];
  /** The value when the flag is not given (and what help shows as the default). */
  default?: number | string | boolean;
  /** What help says about the default, when it is not `default` as it is (or there is none). */
  defaultText?: string;
  /** A boolean that also has a `--no-NAME` form. */
  negatable?: boolean;
  /** One or more sentences; wrapped for --help, one table cell in docs/cli.md. */
  help: string;
  /** The heading it is listed under in --help and docs/cli.md. */
  group: string;
}

export interface CommandSpec {
  /** The command word (`crawl`), as in `focuscrawl crawl`. */
  name: string;
  /** Usage lines, each without the leading `Usage: `. */
  usage: string[];
  /** What the command does: a paragraph under the usage lines. */
  summary: string;
  flags: Flag[];
  /** Words after the flags are allowed (compare: crawl flags after `--`). */
  positionals?: boolean;
  /** Text after the flags (notes), already formatted. */
  notes?: string;
  /** [exit code, meaning]; the default is EXIT_CODES. */
  exitCodes?: Array<[number, string]>;
}

/** What most commands exit with. */
export const EXIT_CODES: Array<[number, string]> = [
  [0, 'done; also --help and --version'],
  [1, 'runtime failure: an output or store that cannot be written or opened, an internal error'],
  [2, 'bad input: FC_USAGE (unknown flag, bad or missing value), FC_BAD_TOPIC, FC_BAD_MODEL'],
];

/** The -h/--help flag every command has. */
const HELP_FLAG: Flag = { name: 'help', short: 'h', type: 'boolean', help: 'show this help and exit', group: '' };

function flagsOf(spec: CommandSpec): Flag[] {
  return [...spec.flags, HELP_FLAG];
}

function placeholder(f: Flag): string {
  if (f.type === 'boolean') return '';
  if (f.value !== undefined) return f.value;
  if (f.type === 'int' || f.type === 'bytes') return 'N';
  if (f.type === 'number') return 'X';
  if (f.type === 'choice') return (f.choices ?? []).join('|');
  return 'VALUE';
}

/** `--name VALUE` (and `-x`). */
function signature(f: Flag): string {
  const v = placeholder(f);
  const long = `--${f.name}${v === '' ? '' : ` ${v}`}`;
  return f.short === undefined ? long : `-${f.short}, ${long}`;
}

function fmt(n: number): string {
  return Number.isFinite(n) ? String(n) : 'no limit';
}

/** The sentence help adds about the default and the range, if any. */
function facts(f: Flag): string {
  const parts: string[] = [];
  if (f.defaultText !== undefined) parts.push(`default: ${f.defaultText}`);
  else if (f.default !== undefined && f.default !== false) parts.push(`default: ${f.default}`);
  if (f.type === 'int' || f.type === 'number' || f.type === 'bytes') {
    const lo = f.min;
    const hi = f.max;
    if (lo !== undefined && hi !== undefined) parts.push(`${lo}..${hi}`);
    else if (lo !== undefined) parts.push(`≥ ${lo}`);
    else if (hi !== undefined) parts.push(`≤ ${hi}`);
    if (f.zeroIsNoLimit === true) parts.push('0 = no limit');
  }
  if (f.multiple === true) parts.push('repeatable');
  if (f.negatable === true) parts.push(`--no-${f.name} turns it off`);
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

const NAME_COL = 26;
const TEXT_WIDTH = 62;

function groupsOf(flags: Flag[]): Array<[string, Flag[]]> {
  const groups = new Map<string, Flag[]>();
  for (const f of flags) {
    const g = groups.get(f.group) ?? [];
    g.push(f);
    groups.set(f.group, g);
  }
  return [...groups];
}

function exitCodesOf(spec: CommandSpec): Array<[number, string]> {
  return spec.exitCodes ?? EXIT_CODES;
}

/** The `--help` text of a command. */
export function helpText(spec: CommandSpec): string {
  const out: string[] = [];
  spec.usage.forEach((u, i) => out.push(`${i === 0 ? 'Usage: ' : '       '}focuscrawl ${u}`));
  out.push('', ...wrap(spec.summary, NAME_COL + TEXT_WIDTH));
  for (const [group, flags] of groupsOf(flagsOf(spec))) {
    out.push('', `${group === '' ? 'Help' : group}:`);
    for (const f of flags) {
      const sig = `  ${signature(f)}`;
      const text = wrap(`${f.help}${facts(f)}`, TEXT_WIDTH);
      if (sig.length + 1 >= NAME_COL) out.push(sig, ...text.map((t) => `${' '.repeat(NAME_COL)}${t}`));
      else out.push(`${sig.padEnd(NAME_COL)}${text[0] ?? ''}`, ...text.slice(1).map((t) => `${' '.repeat(NAME_COL)}${t}`));
    }
  }
  if (spec.notes !== undefined) out.push('', spec.notes.trimEnd());
  out.push('', 'Exit codes:');
  for (const [code, meaning] of exitCodesOf(spec)) {
    const text = wrap(meaning, TEXT_WIDTH + NAME_COL - 8);
    out.push(`  ${String(code).padEnd(6)}${text[0]}`, ...text.slice(1).map((t) => `${' '.repeat(8)}${t}`));
  }
  out.push('Errors: one line `focuscrawl: CODE: message` on stderr each (docs/exit-codes.md).');
  return `${out.join('\n')}\n`;
}

function mdCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** The Markdown reference of a command (a section of docs/cli.md). */
export function markdownReference(spec: CommandSpec): string {
  const out: string[] = [`## focuscrawl ${spec.name}`, '', '```', ...spec.usage.map((u) => `focuscrawl ${u}`), '```', '', spec.summary];
  for (const [group, flags] of groupsOf(flagsOf(spec))) {
    out.push('', `### ${group === '' ? 'Help' : group}`, '', '| flag | value | default | meaning |', '|---|---|---|---|');
    for (const f of flags) {
      const name = `\`--${f.name}\`${f.short === undefined ? '' : `, \`-${f.short}\``}`;
      const range: string[] = [];
      if (f.type === 'int' || f.type === 'number' || f.type === 'bytes') {
        range.push(f.type === 'int' ? 'integer' : f.type === 'bytes' ? 'bytes (k, M, G, Ki, Mi, Gi)' : 'number');
        if (f.min !== undefined || f.max !== undefined) range.push(`${f.min ?? '…'}..${f.max ?? '…'}`);
        if (f.zeroIsNoLimit === true) range.push('0 = no limit');
      } else if (f.type === 'choice') range.push((f.choices ?? []).map((c) => `\`${c}\``).join(', '));
      else if (f.type === 'string') range.push(placeholder(f));
      else range.push(f.negatable === true ? `switch (\`--no-${f.name}\`)` : 'switch');
      if (f.multiple === true) range.push('repeatable');
      const dflt = f.defaultText ?? (f.default === undefined || f.default === false ? '' : String(f.default));
      out.push(`| ${name} | ${mdCell(range.join('; '))} | ${mdCell(dflt)} | ${mdCell(f.help)} |`);
    }
  }
  if (spec.notes !== undefined) out.push('', '```', spec.notes.trimEnd(), '```');
  out.push('', '| exit | meaning |', '|---|---|', ...exitCodesOf(spec).map(([c, m]) => `| ${c} | ${mdCell(m)} |`));
  return `${out.join('\n')}\n`;
}

/** The typed, validated values of one command line. */
export class Args {
  readonly spec: CommandSpec;
  readonly positionals: string[];
  private readonly values: Map<string, unknown>;
  private readonly given: Set<string>;

  constructor(spec: CommandSpec, values: Map<string, unknown>, given: Set<string>, positionals: string[]) {
    this.spec = spec;
    this.values = values;
    this.given = given;
    this.positionals = positionals;
  }

  private flag(name: string, types: FlagType[]): Flag {
    const f = flagsOf(this.spec).find((x) => x.name === name);
    if (f === undefined || !types.includes(f.type)) throw new TypeError(`${this.spec.name}: no ${types.join('/')} flag --${name} in its table`);
    return f;
  }

  /** Whether the flag was on the command line. */
  has(name: string): boolean {
    this.flag(name, ['int', 'number', 'bytes', 'choice', 'string', 'boolean']);
    return this.given.has(name);
  }

  /** A boolean flag: true or false when given (false: --no-NAME), else its default or undefined. */
  bool(name: string): boolean | undefined {
    const f = this.flag(name, ['boolean']);
    return this.given.has(name) ? (this.values.get(name) as boolean) : (f.default as boolean | undefined);
  }

  /** A string or choice flag (the last one given), else its default. */
  string(name: string): string | undefined {
    const f = this.flag(name, ['string', 'choice']);
    return this.given.has(name) ? (this.values.get(name) as string) : (f.default as string | undefined);
  }

  /** A repeatable string flag: all values in order ([] when absent). */
  strings(name: string): string[] {
    this.flag(name, ['string', 'choice']);
    return (this.values.get(name) as string[] | undefined) ?? [];
  }

  /** An int, number or bytes flag (Infinity for 0 with zeroIsNoLimit), else its default. */
  number(name: string): number | undefined {
    const f = this.flag(name, ['int', 'number', 'bytes']);
    return this.given.has(name) ? (this.values.get(name) as number) : (f.default as number | undefined);
  }
}

/** A FC_USAGE error about one flag, in the layer's form. */
export function flagError(spec: CommandSpec | string, flag: string, what: string, options?: { cause?: unknown }): UsageError {
  return new UsageError(`${typeof spec === 'string' ? spec : spec.name}: --${flag}: ${what}`, options);
}

function quote(s: string): string {
  return JSON.stringify(s);
}

/** Parse one value of `f`; a string is what is wrong with it. */
function convert(f: Flag, raw: string): { value: unknown } | string {
  if (f.type === 'string') return { value: raw };
  if (f.type === 'choice') {
    const choices = f.choices ?? [];
    return choices.includes(raw) ? { value: raw } : `must be one of ${choices.join(', ')}, got ${quote(raw)}`;
  }
  let n: number;
  const text = raw.trim();
  if (f.type === 'int') {
    if (!/^[+-]?\d+$/.test(text)) return `must be an integer, got ${quote(raw)}`;
    n = Number(text);
  } else if (f.type === 'number') {
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return `must be a number, got ${quote(raw)}`;
    n = Number(text);
  } else {
    const m = /^(\d+)\s*(k|ki|m|mi|g|gi|t|ti)?b?$/i.exec(text);
    if (m === null) return `must be a number of bytes (e.g. 1G, 500M, 65536), got ${quote(raw)}`;
    const unit = (m[2] ?? '').toLowerCase();
    const power = { '': 0, k: 1, m: 2, g: 3, t: 4 }[unit.replace('i', '') as '' | 'k' | 'm' | 'g' | 't'];
    n = Number(m[1]) * (unit.endsWith('i') ? 1024 : 1000) ** power;
  }
  if (f.zeroIsNoLimit === true && n === 0) return { value: Infinity };
  if (f.min !== undefined && n < f.min) return `must be ≥ ${f.min}${f.zeroIsNoLimit === true ? ' (or 0 for no limit)' : ''}, got ${raw}`;
  if (f.max !== undefined && n > f.max) return `must be ≤ ${fmt(f.max)}, got ${raw}`;
  if (!Number.isSafeInteger(Math.ceil(n))) return `is too large, got ${raw}`;
  return { value: n };
}

interface Scan {
  args: string[];
  problems: string[];
  help: boolean;
}

/**
 * Rewrite `--flag value` and `-x value` to `--flag=value` for flags that
 * take a value, so a value starting with '-' reaches the flag; report
 * unknown flags and missing values. Stops at `--`.
 */
function prescan(spec: CommandSpec, argv: string[]): Scan {
  const flags = flagsOf(spec);
  const byLong = new Map(flags.map((f) => [f.name, f]));
  const byShort = new Map(flags.filter((f) => f.short !== undefined).map((f) => [f.short!, f]));
  const lookup = (word: string): Flag | undefined => {
    if (word.startsWith('--')) {
      const name = word.slice(2).split('=')[0];
      const f = byLong.get(name);
      if (f !== undefined) return f;
      const neg = name.startsWith('no-') ? byLong.get(name.slice(3)) : undefined;
      return neg?.negatable === true ? neg : undefined;
    }
    return /^-[A-Za-z]$/.test(word) ? byShort.get(word[1]) : undefined;
  };
  const args: string[] = [];
  const problems: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--') {
      args.push(...argv.slice(i));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      args.push(word);
      continue;
    }
    const f = lookup(word);
    if (f === undefined) {
      problems.push(`${spec.name}: ${word.split('=')[0]}: unknown flag (see focuscrawl ${spec.name} --help)`);
      continue;
    }
    if (f.name === 'help') help = true;
    if (f.type === 'boolean') {
      if (word.includes('=')) problems.push(`${spec.name}: --${f.name}: takes no value, got ${quote(word.slice(word.indexOf('=') + 1))}`);
      else args.push(word);
      continue;
    }
    if (word.includes('=')) {
      args.push(word);
      continue;
    }
    const next = argv[i + 1];
    if (next === undefined || next === '--' || (next.startsWith('-') && lookup(next) !== undefined)) {
      problems.push(`${spec.name}: --${f.name}: needs a value (${placeholder(f)})${next === undefined ? '' : `, got the flag ${next}`}`);
      continue;
    }
    args.push(`--${f.name}=${next}`);
    i++;
  }
  return { args, problems, help };
}

interface Parsed {
  args: Args;
  problems: string[];
  help: boolean;
}

function parse(spec: CommandSpec, argv: string[]): Parsed {
  const scan = prescan(spec, argv);
  const problems = [...scan.problems];
  const flags = flagsOf(spec);
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const f of flags) {
    options[f.name] = { type: f.type === 'boolean' ? 'boolean' : 'string', ...(f.multiple === true ? { multiple: true } : {}), ...(f.short === undefined ? {} : { short: f.short }) };
  }
  const values = new Map<string, unknown>();
  const given = new Set<string>();
  let positionals: string[] = [];
  try {
    const parsed = parseArgs({ args: scan.args, options, strict: true, allowPositionals: true, allowNegative: true, tokens: false });
    positionals = parsed.positionals;
    if (positionals.length > 0 && spec.positionals !== true) {
      problems.push(`${spec.name}: unexpected argument ${quote(positionals[0])} (flags start with --; see focuscrawl ${spec.name} --help)`);
    }
    for (const f of flags) {
      const raw = (parsed.values as Record<string, unknown>)[f.name];
      if (raw === undefined) continue;
      given.add(f.name);
      if (f.type === 'boolean') {
        if (raw === false && f.negatable !== true) problems.push(`${spec.name}: --no-${f.name}: unknown flag`);
        values.set(f.name, raw);
        continue;
      }
      const list = Array.isArray(raw) ? (raw as string[]) : [raw as string];
      const out: unknown[] = [];
      for (const r of list) {
        const c = convert(f, r);
        if (typeof c === 'string') problems.push(`${spec.name}: --${f.name}: ${c}`);
        else out.push(c.value);
      }
      values.set(f.name, f.multiple === true ? out : out[out.length - 1]);
    }
  } catch (err) {
    // the prescan leaves parseArgs little to refuse; whatever it still does is one usage line
    if (problems.length === 0) problems.push(`${spec.name}: ${(err as Error).message.replace(/\s*\n\s*/g, ' ')}`);
  }
  return { args: new Args(spec, values, given, positionals), problems, help: scan.help };
}

/** A usage error's message without its leading `<command>: ` (for commands that prefix their own name). */
export function ownMessage(spec: CommandSpec, err: Error): string {
  return err.message.startsWith(`${spec.name}: `) ? err.message.slice(spec.name.length + 2) : err.message;
}

/** Every mistake on the command line, one line each (`<command>: --flag: what`); [] when there is none or -h/--help is given. */
export function usageProblems(spec: CommandSpec, argv: string[]): string[] {
  const p = parse(spec, argv);
  return p.help ? [] : p.problems;
}

/**
 * Parse a command line by its table. `help` is true for -h/--help (print
 * helpText(spec), exit 0; nothing else is checked). Throws a UsageError
 * with the first mistake; src/cli.ts reports all of them first (usageProblems).
 */
export function parseCommand(spec: CommandSpec, argv: string[]): { help: boolean; args: Args } {
  const p = parse(spec, argv);
  if (p.help) return { help: true, args: p.args };
  if (p.problems.length > 0) throw new UsageError(p.problems[0]);
  return { help: false, args: p.args };
}
