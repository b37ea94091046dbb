var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// src/errors.ts
function exitStatusOf(err) {
  const code = err?.code;
  if (err instanceof FocuscrawlError) return ERROR_CODES[err.code]?.exit ?? EXIT_OTHER;
  if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) return ERROR_CODES.FC_USAGE.exit;
  return EXIT_OTHER;
}
function toItemError(err) {
  if (err instanceof FocuscrawlError) return { code: err.code, message: err.message };
  const e = err;
  const message = typeof e?.message === "string" ? e.message : String(err);
  return { code: "FC_INTERNAL", message };
}
var ERROR_CODES, EXIT_OTHER, FocuscrawlError, UsageError, TopicError, ModelError, StoreLockedError, StoreError, WarcError, PagesOutError, StalledError, FetchError, NetworkError, TimeoutError, TooManyRedirectsError, BadRedirectError, DecodeError, PrivateAddressError, BadHostError, HostBudgetError, BadWarcError, CapExceededError, SitemapError;
var init_errors = __esm({
  "src/errors.ts"() {
    "use strict";
    ERROR_CODES = {
      // ---- fatal, bad input: exit 2 -------------------------------------------
      FC_USAGE: { exit: 2, record: false, class: "UsageError", when: "bad command line (unknown command or flag, bad value), unreadable or malformed seeds file, a --store that is not a store" },
      FC_BAD_TOPIC: { exit: 2, record: false, class: "TopicError", when: "the topic file (or its synonyms file) is unreadable, too large or malformed" },
      FC_BAD_MODEL: { exit: 2, record: false, class: "ModelError", when: "the model file is unreadable, too large, malformed or of another format or version" },
      FC_BAD_WARC: { exit: 2, record: false, class: "BadWarcError", when: "`replay`: a --warc file is not a WARC file; also the 502 body for an archived record that is not a usable HTTP response" },
      FC_CAP_EXCEEDED: { exit: 2, record: false, class: "CapExceededError", when: "a buffer that cannot be truncated hit its cap (an input line, a store batch); a sitemap over its cap is a warning (FC_SITEMAP line)" },
      // ---- fatal, runtime: exit 1 ---------------------------------------------
      FC_STORE_LOCKED: { exit: 1, record: false, class: "StoreLockedError", when: "another focuscrawl process has the store open" },
      FC_STORE: { exit: 1, record: false, class: "StoreError", when: "the store cannot be opened or written (permissions, disk, corruption, Redis unreachable or reset)" },
      FC_WARC: { exit: 1, record: false, class: "WarcError", when: "a --warc-out file cannot be created or written" },
      FC_PAGES_OUT: { exit: 1, record: false, class: "PagesOutError", when: "a --pages-out file cannot be created or written" },
      FC_STALLED: { exit: 1, record: false, class: "StalledError", when: "the crawl stalled with nothing left that could wake it (a bug)" },
      FC_NETWORK: { exit: 1, record: true, class: "NetworkError", when: "record: connection refused or reset, DNS or TLS failure (retried); fatal: no request of the crawl got an answer" },
      // ---- per-URL error records (stdout of crawl) ----------------------------
      FC_TIMEOUT: { exit: null, record: true, class: "TimeoutError", when: "connect, headers or body timeout (retried)" },
      FC_BAD_HOST: { exit: null, record: true, class: "BadHostError", when: "a malformed host name: not looked up, no request sent" },
      FC_TOO_MANY_REDIRECTS: { exit: null, record: true, class: "TooManyRedirectsError", when: "too many redirects, or a redirect loop" },
      FC_BAD_REDIRECT: { exit: null, record: true, class: "BadRedirectError", when: "a redirect to a non-http(s) or malformed location" },
      FC_REDIRECT_SEEN: { exit: null, record: true, class: null, when: "a redirect to a URL already fetched (recorded, not fetched again)" },
      FC_OUT_OF_SCOPE: { exit: null, record: true, class: null, when: "a redirect that leaves the crawl's scope (--allow-domain, --include, --exclude)" },
      FC_ROBOTS_DISALLOWED: { exit: null, record: true, class: null, when: "robots.txt forbids the URL (or a redirect hop)" },
      FC_ROBOTS_UNAVAILABLE: { exit: null, record: true, class: null, when: "robots.txt answered 429 or 5xx or could not be fetched: the host is off limits for a while" },
      FC_DECODE: { exit: null, record: true, class: "DecodeError", when: "the body cannot be decoded (bad Content-Encoding)" },
      FC_PRIVATE_ADDRESS: { exit: null, record: true, class: "PrivateAddressError", when: "a loopback, private, link-local or metadata address, refused without --allow-private" },
      FC_HOST_BUDGET: { exit: null, record: true, class: "HostBudgetError", when: "the host has given its --max-pages-per-host pages" },
      FC_INTERNAL: { exit: null, record: true, class: null, when: "an unexpected failure in a stage (a bug); an internal error that ends a command has no code, exit 1" },
      // ---- warnings (stderr of crawl) -----------------------------------------
      FC_SITEMAP: { exit: null, record: false, warning: true, class: "SitemapError", when: "a sitemap could not be used (HTTP error, robots.txt, corrupt gzip, not a sitemap); the other sitemaps are used" }
    };
    EXIT_OTHER = 1;
    FocuscrawlError = class extends Error {
      code;
      constructor(code, message, options) {
        super(message, options);
        this.name = new.target.name;
        this.code = code;
      }
    };
    UsageError = class extends FocuscrawlError {
      constructor(message, options) {
        super("FC_USAGE", message, options);
      }
    };
    TopicError = class extends FocuscrawlError {
      constructor(message, options) {
        super("FC_BAD_TOPIC", message, options);
      }
    };
    ModelError = class extends FocuscrawlError {
      constructor(message, options) {
        super("FC_BAD_MODEL", message, options);
      }
    };
    StoreLockedError = class extends FocuscrawlError {
      constructor(dir, options) {
        super("FC_STORE_LOCKED", `store ${dir} is in use by another focuscrawl process`, options);
      }
    };
    StoreError = class extends FocuscrawlError {
      constructor(message, options) {
        super("FC_STORE", message, options);
      }
    };
    WarcError = class extends FocuscrawlError {
      constructor(message, options) {
        super("FC_WARC", message, options);
      }
    };
    PagesOutError = class extends FocuscrawlError {
      constructor(message, options) {
        super("FC_PAGES_OUT", message, options);
      }
    };
    StalledError = class extends FocuscrawlError {
      constructor(state, options) {
        super("FC_STALLED", `the crawl stalled: it was waiting with nothing left that could wake it (${state})`, options);
      }
    };
    FetchError = class extends FocuscrawlError {
    };
    NetworkError = class extends FetchError {
      constructor(message, options) {
        super("FC_NETWORK", message, options);
      }
    };
    TimeoutError = class extends FetchError {
      constructor(message, options) {
        super("FC_TIMEOUT", message, options);
      }
    };
    TooManyRedirectsError = class extends FetchError {
      constructor(message, options) {
        super("FC_TOO_MANY_REDIRECTS", message, options);
      }
    };
    BadRedirectError = class extends FetchError {
      constructor(message, options) {
        super("FC_BAD_REDIRECT", message, options);
      }
    };
    DecodeError = class extends FetchError {
      /** the answer whose body could not be decoded, when one came (HttpClient sets it; --warc-out archives it) */
      response;
      constructor(message, options) {
        super("FC_DECODE", message, options);
      }
    };
    PrivateAddressError = class extends FetchError {
      /** the refused host as in the URL */
      host;
      /** the refused address (the host itself for a refused name such as localhost) */
      address;
      /** the range it falls in, e.g. 'loopback', 'private', 'metadata' */
      range;
      constructor(host, address, range, options) {
        const what = address === host ? host : `${host} (${address})`;
        super("FC_PRIVATE_ADDRESS", `refusing ${what}: ${range} address (--allow-private allows it)`, options);
        this.host = host;
        this.address = address;
        this.range = range;
      }
    };
    BadHostError = class extends FetchError {
      constructor(host, options) {
        super("FC_BAD_HOST", `malformed host name ${JSON.stringify(host)}: not looked up, no request sent`, options);
      }
    };
    HostBudgetError = class extends FetchError {
      constructor(host, max, options) {
        super("FC_HOST_BUDGET", `host ${host} has given its ${max} pages (--max-pages-per-host)`, options);
      }
    };
    BadWarcError = class extends FocuscrawlError {
      constructor(message, options) {
        super("FC_BAD_WARC", message, options);
      }
    };
    CapExceededError = class extends FocuscrawlError {
      constructor(what, limit, options) {
        super("FC_CAP_EXCEEDED", `${what} exceeds ${limit}`, options);
      }
    };
    SitemapError = class extends FocuscrawlError {
      constructor(message, options) {
        super("FC_SITEMAP", message, options);
      }
    };
  }
});

// src/commands/args.ts
import { parseArgs } from "node:util";
function flagsOf(spec) {
  return [...spec.flags, HELP_FLAG];
}
function placeholder(f) {
  if (f.type === "boolean") return "";
  if (f.value !== void 0) return f.value;
  if (f.type === "int" || f.type === "bytes") return "N";
  if (f.type === "number") return "X";
  if (f.type === "choice") return (f.choices ?? []).join("|");
  return "VALUE";
}
function signature(f) {
  const v = placeholder(f);
  const long = `--${f.name}${v === "" ? "" : ` ${v}`}`;
  return f.short === void 0 ? long : `-${f.short}, ${long}`;
}
function fmt(n) {
  return Number.isFinite(n) ? String(n) : "no limit";
}
function facts(f) {
  const parts = [];
  if (f.defaultText !== void 0) parts.push(`default: ${f.defaultText}`);
  else if (f.default !== void 0 && f.default !== false) parts.push(`default: ${f.default}`);
  if (f.type === "int" || f.type === "number" || f.type === "bytes") {
    const lo = f.min;
    const hi = f.max;
    if (lo !== void 0 && hi !== void 0) parts.push(`${lo}..${hi}`);
    else if (lo !== void 0) parts.push(`\u2265 ${lo}`);
    else if (hi !== void 0) parts.push(`\u2264 ${hi}`);
    if (f.zeroIsNoLimit === true) parts.push("0 = no limit");
  }
  if (f.multiple === true) parts.push("repeatable");
  if (f.negatable === true) parts.push(`--no-${f.name} turns it off`);
  return parts.length === 0 ? "" : ` (${parts.join("; ")})`;
}
function wrap(text, width) {
  const lines2 = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines2.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines2.push(line);
  return lines2;
}
function groupsOf(flags) {
  const groups = /* @__PURE__ */ new Map();
  for (const f of flags) {
    const g = groups.get(f.group) ?? [];
    g.push(f);
    groups.set(f.group, g);
  }
  return [...groups];
}
function exitCodesOf(spec) {
  return spec.exitCodes ?? EXIT_CODES;
}
function helpText(spec) {
  const out = [];
  spec.usage.forEach((u, i) => out.push(`${i === 0 ? "Usage: " : "       "}focuscrawl ${u}`));
  out.push("", ...wrap(spec.summary, NAME_COL + TEXT_WIDTH));
  for (const [group, flags] of groupsOf(flagsOf(spec))) {
    out.push("", `${group === "" ? "Help" : group}:`);
    for (const f of flags) {
      const sig = `  ${signature(f)}`;
      const text = wrap(`${f.help}${facts(f)}`, TEXT_WIDTH);
      if (sig.length + 1 >= NAME_COL) out.push(sig, ...text.map((t) => `${" ".repeat(NAME_COL)}${t}`));
      else out.push(`${sig.padEnd(NAME_COL)}${text[0] ?? ""}`, ...text.slice(1).map((t) => `${" ".repeat(NAME_COL)}${t}`));
    }
  }
  if (spec.notes !== void 0) out.push("", spec.notes.trimEnd());
  out.push("", "Exit codes:");
  for (const [code, meaning] of exitCodesOf(spec)) {
    const text = wrap(meaning, TEXT_WIDTH + NAME_COL - 8);
    out.push(`  ${String(code).padEnd(6)}${text[0]}`, ...text.slice(1).map((t) => `${" ".repeat(8)}${t}`));
  }
  out.push("Errors: one line `focuscrawl: CODE: message` on stderr each (docs/exit-codes.md).");
  return `${out.join("\n")}
`;
}
function flagError(spec, flag, what, options) {
  return new UsageError(`${typeof spec === "string" ? spec : spec.name}: --${flag}: ${what}`, options);
}
function quote(s) {
  return JSON.stringify(s);
}
function convert(f, raw) {
  if (f.type === "string") return { value: raw };
  if (f.type === "choice") {
    const choices = f.choices ?? [];
    return choices.includes(raw) ? { value: raw } : `must be one of ${choices.join(", ")}, got ${quote(raw)}`;
  }
  let n;
  const text = raw.trim();
  if (f.type === "int") {
    if (!/^[+-]?\d+$/.test(text)) return `must be an integer, got ${quote(raw)}`;
    n = Number(text);
  } else if (f.type === "number") {
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return `must be a number, got ${quote(raw)}`;
    n = Number(text);
  } else {
    const m = /^(\d+)\s*(k|ki|m|mi|g|gi|t|ti)?b?$/i.exec(text);
    if (m === null) return `must be a number of bytes (e.g. 1G, 500M, 65536), got ${quote(raw)}`;
    const unit2 = (m[2] ?? "").toLowerCase();
    const power = { "": 0, k: 1, m: 2, g: 3, t: 4 }[unit2.replace("i", "")];
    n = Number(m[1]) * (unit2.endsWith("i") ? 1024 : 1e3) ** power;
  }
  if (f.zeroIsNoLimit === true && n === 0) return { value: Infinity };
  if (f.min !== void 0 && n < f.min) return `must be \u2265 ${f.min}${f.zeroIsNoLimit === true ? " (or 0 for no limit)" : ""}, got ${raw}`;
  if (f.max !== void 0 && n > f.max) return `must be \u2264 ${fmt(f.max)}, got ${raw}`;
  if (!Number.isSafeInteger(Math.ceil(n))) return `is too large, got ${raw}`;
  return { value: n };
}
function prescan(spec, argv) {
  const flags = flagsOf(spec);
  const byLong = new Map(flags.map((f) => [f.name, f]));
  const byShort = new Map(flags.filter((f) => f.short !== void 0).map((f) => [f.short, f]));
  const lookup = (word) => {
    if (word.startsWith("--")) {
      const name = word.slice(2).split("=")[0];
      const f = byLong.get(name);
      if (f !== void 0) return f;
      const neg = name.startsWith("no-") ? byLong.get(name.slice(3)) : void 0;
      return neg?.negatable === true ? neg : void 0;
    }
    return /^-[A-Za-z]$/.test(word) ? byShort.get(word[1]) : void 0;
  };
  const args = [];
  const problems = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === "--") {
      args.push(...argv.slice(i));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      args.push(word);
      continue;
    }
    const f = lookup(word);
    if (f === void 0) {
      problems.push(`${spec.name}: ${word.split("=")[0]}: unknown flag (see focuscrawl ${spec.name} --help)`);
      continue;
    }
    if (f.name === "help") help = true;
    if (f.type === "boolean") {
      if (word.includes("=")) problems.push(`${spec.name}: --${f.name}: takes no value, got ${quote(word.slice(word.indexOf("=") + 1))}`);
      else args.push(word);
      continue;
    }
    if (word.includes("=")) {
      args.push(word);
      continue;
    }
    const next = argv[i + 1];
    if (next === void 0 || next === "--" || next.startsWith("-") && lookup(next) !== void 0) {
      problems.push(`${spec.name}: --${f.name}: needs a value (${placeholder(f)})${next === void 0 ? "" : `, got the flag ${next}`}`);
      continue;
    }
    args.push(`--${f.name}=${next}`);
    i++;
  }
  return { args, problems, help };
}
function parse(spec, argv) {
  const scan = prescan(spec, argv);
  const problems = [...scan.problems];
  const flags = flagsOf(spec);
  const options = {};
  for (const f of flags) {
    options[f.name] = { type: f.type === "boolean" ? "boolean" : "string", ...f.multiple === true ? { multiple: true } : {}, ...f.short === void 0 ? {} : { short: f.short } };
  }
  const values = /* @__PURE__ */ new Map();
  const given = /* @__PURE__ */ new Set();
  let positionals = [];
  try {
    const parsed = parseArgs({ args: scan.args, options, strict: true, allowPositionals: true, allowNegative: true, tokens: false });
    positionals = parsed.positionals;
    if (positionals.length > 0 && spec.positionals !== true) {
      problems.push(`${spec.name}: unexpected argument ${quote(positionals[0])} (flags start with --; see focuscrawl ${spec.name} --help)`);
    }
    for (const f of flags) {
      const raw = parsed.values[f.name];
      if (raw === void 0) continue;
      given.add(f.name);
      if (f.type === "boolean") {
        if (raw === false && f.negatable !== true) problems.push(`${spec.name}: --no-${f.name}: unknown flag`);
        values.set(f.name, raw);
        continue;
      }
      const list = Array.isArray(raw) ? raw : [raw];
      const out = [];
      for (const r of list) {
        const c = convert(f, r);
        if (typeof c === "string") problems.push(`${spec.name}: --${f.name}: ${c}`);
        else out.push(c.value);
      }
      values.set(f.name, f.multiple === true ? out : out[out.length - 1]);
    }
  } catch (err) {
    if (problems.length === 0) problems.push(`${spec.name}: ${err.message.replace(/\s*\n\s*/g, " ")}`);
  }
  return { args: new Args(spec, values, given, positionals), problems, help: scan.help };
}
function ownMessage(spec, err) {
  return err.message.startsWith(`${spec.name}: `) ? err.message.slice(spec.name.length + 2) : err.message;
}
function usageProblems(spec, argv) {
  const p = parse(spec, argv);
  return p.help ? [] : p.problems;
}
function parseCommand(spec, argv) {
  const p = parse(spec, argv);
  if (p.help) return { help: true, args: p.args };
  if (p.problems.length > 0) throw new UsageError(p.problems[0]);
  return { help: false, args: p.args };
}
var EXIT_CODES, HELP_FLAG, NAME_COL, TEXT_WIDTH, Args;
var init_args = __esm({
  "src/commands/args.ts"() {
    "use strict";
    init_errors();
    EXIT_CODES = [
      [0, "done; also --help and --version"],
      [1, "runtime failure: an output or store that cannot be written or opened, an internal error"],
      [2, "bad input: FC_USAGE (unknown flag, bad or missing value), FC_BAD_TOPIC, FC_BAD_MODEL"]
    ];
    HELP_FLAG = { name: "help", short: "h", type: "boolean", help: "show this help and exit", group: "" };
    NAME_COL = 26;
    TEXT_WIDTH = 62;
    Args = class {
      spec;
      positionals;
      values;
      given;
      constructor(spec, values, given, positionals) {
        this.spec = spec;
        this.values = values;
        this.given = given;
        this.positionals = positionals;
      }
      flag(name, types) {
        const f = flagsOf(this.spec).find((x) => x.name === name);
        if (f === void 0 || !types.includes(f.type)) throw new TypeError(`${this.spec.name}: no ${types.join("/")} flag --${name} in its table`);
        return f;
      }
      /** Whether the flag was on the command line. */
      has(name) {
        this.flag(name, ["int", "number", "bytes", "choice", "string", "boolean"]);
        return this.given.has(name);
      }
      /** A boolean flag: true or false when given (false: --no-NAME), else its default or undefined. */
      bool(name) {
        const f = this.flag(name, ["boolean"]);
        return this.given.has(name) ? this.values.get(name) : f.default;
      }
      /** A string or choice flag (the last one given), else its default. */
      string(name) {
        const f = this.flag(name, ["string", "choice"]);
        return this.given.has(name) ? this.values.get(name) : f.default;
      }
      /** A repeatable string flag: all values in order ([] when absent). */
      strings(name) {
        this.flag(name, ["string", "choice"]);
        return this.values.get(name) ?? [];
      }
      /** An int, number or bytes flag (Infinity for 0 with zeroIsNoLimit), else its default. */
      number(name) {
        const f = this.flag(name, ["int", "number", "bytes"]);
        return this.given.has(name) ? this.values.get(name) : f.default;
      }
    };
  }
});

// src/output/terminal.ts
function escapeOf(cp) {
  if (cp < 32 || cp >= 127 && cp <= 159) return NAMED[cp] ?? `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp >= 8234 && cp <= 8238 || // LRE RLE PDF LRO RLO
  cp >= 8294 && cp <= 8297 || // LRI RLI FSI PDI
  cp === 8206 || cp === 8207 || cp === 1564 || // LRM RLM ALM
  cp === 8232 || cp === 8233 || // line and paragraph separators
  cp >= 55296 && cp <= 57343) {
    return `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return null;
}
function sanitizeForTerminal(s, maxLen = DEFAULT_TERMINAL_MAX) {
  if (!(maxLen >= 1)) throw new TypeError(`maxLen must be at least 1, got ${maxLen}`);
  const pieces = [];
  let length = 0;
  for (const ch of s) {
    const piece = escapeOf(ch.codePointAt(0)) ?? ch;
    if (length + piece.length > maxLen) {
      while (pieces.length > 0 && length + ELLIPSIS.length > maxLen) length -= pieces.pop().length;
      return pieces.join("") + ELLIPSIS;
    }
    pieces.push(piece);
    length += piece.length;
  }
  return pieces.join("");
}
function stringifyForTerminal(value) {
  return JSON.stringify(value).replace(JSON_RAW_ACTIVE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
var DEFAULT_TERMINAL_MAX, LOG_LINE_MAX, ELLIPSIS, NAMED, JSON_RAW_ACTIVE;
var init_terminal = __esm({
  "src/output/terminal.ts"() {
    "use strict";
    DEFAULT_TERMINAL_MAX = 300;
    LOG_LINE_MAX = 2e3;
    ELLIPSIS = "\u2026";
    NAMED = { 9: "\\t", 10: "\\n", 13: "\\r" };
    JSON_RAW_ACTIVE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  }
});

// src/util/version.ts
var version_exports = {};
__export(version_exports, {
  VERSION: () => VERSION
});
import { readFileSync } from "node:fs";
var VERSION;
var init_version = __esm({
  "src/util/version.ts"() {
    "use strict";
    VERSION = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;
  }
});

// src/urls/extensions.ts
function parseSkipExtensions(value) {
  if (value.trim().toLowerCase() === "none") return [];
  return normaliseExtensions(value.split(","), `--skip-extensions wants extensions separated by commas (pdf,ps,zip) or none, got ${JSON.stringify(value)}`);
}
function normaliseExtensions(list, message) {
  const out = /* @__PURE__ */ new Set();
  for (const v of list) {
    const ext = typeof v === "string" ? v.trim().replace(/^\./, "").toLowerCase() : "";
    if (!EXTENSION.test(ext)) throw new UsageError(message ?? `skipExtensions wants extensions such as "pdf", got ${JSON.stringify(list)}`);
    out.add(ext);
  }
  return [...out];
}
function lastSegment(url) {
  const authority = url.indexOf("//");
  let end = url.length;
  for (const c of ["?", "#"]) {
    const i = url.indexOf(c, authority < 0 ? 0 : authority + 2);
    if (i >= 0 && i < end) end = i;
  }
  const pathStart = url.indexOf("/", authority < 0 ? 0 : authority + 2);
  if (pathStart < 0 || pathStart >= end) return "";
  return url.slice(url.lastIndexOf("/", end - 1) + 1, end).toLowerCase();
}
function compileSkipExtensions(list) {
  list ??= DEFAULT_SKIP_EXTENSIONS;
  if (!Array.isArray(list)) throw new UsageError(`skipExtensions wants an array of extensions such as ["pdf"], got ${JSON.stringify(list)}`);
  const set = new Set(normaliseExtensions(list));
  if (set.size === 0) return null;
  return (url) => {
    const last = lastSegment(url);
    for (let dot = last.indexOf("."); dot >= 0; dot = last.indexOf(".", dot + 1)) {
      if (set.has(last.slice(dot + 1))) return true;
    }
    return false;
  };
}
var DEFAULT_SKIP_EXTENSIONS, EXTENSION;
var init_extensions = __esm({
  "src/urls/extensions.ts"() {
    "use strict";
    init_errors();
    DEFAULT_SKIP_EXTENSIONS = Object.freeze([
      // archives and compressed files
      "7z",
      "7zip",
      "bz2",
      "gz",
      "rar",
      "rpm",
      "sit",
      "tar",
      "tgz",
      "xz",
      "z",
      "zip",
      // images (PostScript among them, as Scrapy has it)
      "ai",
      "bmp",
      "cdr",
      "drw",
      "dxf",
      "eps",
      "gif",
      "ico",
      "jpeg",
      "jpg",
      "mng",
      "pct",
      "png",
      "ps",
      "psd",
      "psp",
      "pst",
      "svg",
      "tif",
      "tiff",
      "webp",
      "wmf",
      // audio
      "aac",
      "aiff",
      "au",
      "flac",
      "m4a",
      "mid",
      "mp3",
      "ogg",
      "ra",
      "wav",
      "wma",
      // video
      "3gp",
      "asf",
      "asx",
      "avi",
      "flv",
      "m4v",
      "mkv",
      "mov",
      "mp4",
      "mpeg",
      "mpg",
      "qt",
      "rm",
      "swf",
      "webm",
      "wmv",
      // documents
      "doc",
      "docx",
      "dvi",
      "odg",
      "odp",
      "ods",
      "odt",
      "pdf",
      "pps",
      "ppt",
      "pptx",
      "rtf",
      "xls",
      "xlsx",
      // other
      "apk",
      "bin",
      "css",
      "dmg",
      "exe",
      "hqx",
      "iso",
      "jar",
      "js",
      "msi",
      "rss",
      "ttf",
      "woff",
      "woff2"
    ]);
    EXTENSION = /^[a-z0-9]+(\.[a-z0-9]+)*$/;
  }
});

// src/urls/scope.ts
function hostNameOf(url) {
  const start2 = url.indexOf("//") + 2;
  let end = url.length;
  for (const c of ["/", "?", "#"]) {
    const i = url.indexOf(c, start2);
    if (i >= 0 && i < end) end = i;
  }
  const host = url.slice(start2, end);
  const at = host.lastIndexOf("@");
  const bare = at >= 0 ? host.slice(at + 1) : host;
  if (bare.startsWith("[")) return bare.slice(0, bare.indexOf("]") + 1);
  const colon = bare.indexOf(":");
  return colon < 0 ? bare : bare.slice(0, colon);
}
function compileScope(rules) {
  const domains = rules.domains ?? [];
  if (domains.length === 0 && (rules.include ?? []).length === 0 && (rules.exclude ?? []).length === 0) return null;
  const names = domains.map(parseDomain);
  const stateless = (re) => re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, "")) : re;
  const include = (rules.include ?? []).map(stateless);
  const exclude = (rules.exclude ?? []).map(stateless);
  const suffixes = names.map((d) => `.${d}`);
  return (url) => {
    if (names.length > 0) {
      const host = hostNameOf(url);
      if (!names.some((d, i) => host === d || host.endsWith(suffixes[i]))) return false;
    }
    if (include.length > 0 && !include.some((re) => re.test(url))) return false;
    return !exclude.some((re) => re.test(url));
  };
}
function parseDomain(value) {
  const v = value.trim().replace(/^\*?\./, "");
  let host = null;
  if (v !== "" && !/[/:?#@\s]/.test(v)) {
    try {
      host = new URL(`http://${v}/`).hostname;
    } catch {
      host = null;
    }
  }
  if (host === null || host === "") throw new UsageError(`--allow-domain wants a domain name such as example.org, got ${JSON.stringify(value)}`);
  return host;
}
function parsePattern(flag, value) {
  if (value === "") throw new UsageError(`--${flag} wants a regular expression, got an empty one`);
  try {
    return new RegExp(value);
  } catch (err) {
    throw new UsageError(`--${flag} ${JSON.stringify(value)} is not a valid regular expression`, { cause: err });
  }
}
var init_scope = __esm({
  "src/urls/scope.ts"() {
    "use strict";
    init_errors();
  }
});

// src/urls/canonical.ts
var canonical_exports = {};
__export(canonical_exports, {
  canonicalize: () => canonicalize,
  canonicalizer: () => canonicalizer,
  hostOf: () => hostOf,
  hostOfCanonical: () => hostOfCanonical,
  originOf: () => originOf,
  urlKey: () => urlKey
});
import { hash } from "node:crypto";
function isSessionParam(name, value) {
  const n = name.toLowerCase();
  if (SESSION_NAMES.has(n) || n.startsWith("aspsessionid")) return true;
  return n === "sid" && SID_TOKEN.test(value);
}
function stripSessionQuery(search) {
  const parts = search.slice(1).split("&");
  const kept = parts.filter((p) => {
    const eq = p.indexOf("=");
    return eq < 0 || !isSessionParam(p.slice(0, eq), p.slice(eq + 1));
  });
  if (kept.length === parts.length) return search;
  return kept.length === 0 ? "" : `?${kept.join("&")}`;
}
function normaliseEscapes(s) {
  let out = "";
  let last = 0;
  for (const m of s.matchAll(ESCAPE)) {
    out += s.slice(last, m.index);
    last = m.index + 3;
    const ch = String.fromCharCode(parseInt(m[1], 16));
    const joins = HEX.test(ch) && OPEN_ESCAPE.test(out);
    out += UNRESERVED.test(ch) && !joins ? ch : `%${m[1].toUpperCase()}`;
  }
  return out + s.slice(last);
}
function canonicalize(input, base, opts = {}) {
  let u;
  try {
    u = base === void 0 ? new URL(input) : new URL(input, base);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  if (u.hostname === "") return null;
  if (u.hash !== "" || input.includes("#")) u.hash = "";
  if (u.username !== "") u.username = "";
  if (u.password !== "") u.password = "";
  if (u.hostname.endsWith(".")) u.hostname = u.hostname.replace(/\.+$/, "");
  const stripSessions = opts.stripSessionIds !== false;
  const pathname = u.pathname;
  let path13 = normaliseEscapes(pathname);
  if (stripSessions && path13.includes(";")) path13 = path13.replace(PATH_PARAM, (m, name, value) => isSessionParam(name, value) ? "" : m);
  if (opts.dropIndex !== false) {
    const slash = path13.lastIndexOf("/");
    if (DEFAULT_FILES.has(path13.slice(slash + 1).toLowerCase())) path13 = path13.slice(0, slash + 1);
  }
  if (path13 !== pathname) u.pathname = path13;
  if (u.search !== "") {
    const search = normaliseEscapes(u.search);
    if (search !== u.search) u.search = search;
  }
  if (stripSessions && u.search !== "") {
    const search = stripSessionQuery(u.search);
    if (search !== u.search) u.search = search;
  }
  return u.search === "" && u.href.endsWith("?") ? u.href.slice(0, -1) : u.href;
}
function canonicalizer(opts) {
  const seen = /* @__PURE__ */ new Map();
  return (href) => {
    let url = seen.get(href);
    if (url === void 0) seen.set(href, url = canonicalize(href, void 0, opts));
    return url;
  };
}
function hostOf(url) {
  return new URL(url).host;
}
function originOf(url) {
  return new URL(url).origin;
}
function urlKey(canonicalUrl) {
  return hash("md5", canonicalUrl, "hex");
}
function hostOfCanonical(url) {
  const start2 = url.indexOf("//") + 2;
  const end = url.indexOf("/", start2);
  return url.slice(start2, end < 0 ? void 0 : end);
}
var DEFAULT_FILES, UNRESERVED, SESSION_NAMES, SID_TOKEN, PATH_PARAM, ESCAPE, HEX, OPEN_ESCAPE;
var init_canonical = __esm({
  "src/urls/canonical.ts"() {
    "use strict";
    DEFAULT_FILES = /* @__PURE__ */ new Set(["index.html", "index.htm", "default.htm", "default.html"]);
    UNRESERVED = /[A-Za-z0-9\-._~]/;
    SESSION_NAMES = /* @__PURE__ */ new Set(["jsessionid", "phpsessid", "sessionid", "session_id", "oscsid", "cfid", "cftoken"]);
    SID_TOKEN = /^[A-Za-z0-9_-]{16,}$/;
    PATH_PARAM = /;([^;=/]*)=([^;/]*)/g;
    ESCAPE = /%([0-9a-fA-F]{2})/g;
    HEX = /[0-9A-Fa-f]/;
    OPEN_ESCAPE = /%[0-9A-Fa-f]?$/;
  }
});

// src/store/keys.ts
function frontierKey(score, seq) {
  if (typeof score !== "number" || Number.isNaN(score)) throw new TypeError(`bad frontier score: ${score}`);
  if (!Number.isSafeInteger(seq) || seq < 0) throw new TypeError(`bad frontier seq: ${seq}`);
  const view = KEY_VIEW;
  view.setFloat64(0, score === 0 ? 0 : -score);
  let hi = view.getUint32(0);
  let lo = view.getUint32(4);
  if (hi & 2147483648) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else {
    hi = (hi | 2147483648) >>> 0;
  }
  const hex = (n) => n.toString(16).padStart(8, "0");
  return `${hex(hi)}${hex(lo)}!${seq.toString(16).padStart(SEQ_HEX, "0")}`;
}
function seqOf(key) {
  return parseInt(key.slice(17), 16);
}
function logKey(n) {
  return String(n).padStart(16, "0");
}
var KEY_VIEW, SEQ_HEX;
var init_keys = __esm({
  "src/store/keys.ts"() {
    "use strict";
    KEY_VIEW = new DataView(new ArrayBuffer(8));
    SEQ_HEX = 14;
  }
});

// src/frontier/host-budget.ts
function isCheckpoint(v) {
  const c = v;
  return typeof c === "object" && c !== null && Number.isSafeInteger(c.records) && c.records >= 0 && Array.isArray(c.hosts) && c.hosts.every((h) => Array.isArray(h) && typeof h[0] === "string" && Number.isSafeInteger(h[1]) && h[1] > 0);
}
var DEFAULT_MAX_PAGES_PER_HOST, HOST_PAGES_KEY, HostBudget;
var init_host_budget = __esm({
  "src/frontier/host-budget.ts"() {
    "use strict";
    init_canonical();
    init_keys();
    DEFAULT_MAX_PAGES_PER_HOST = 1e4;
    HOST_PAGES_KEY = "hostPages";
    HostBudget = class {
      max;
      #onFull;
      /** committed pages per host */
      #pages = /* @__PURE__ */ new Map();
      /** admitted, not yet committed URLs per host */
      #pending = /* @__PURE__ */ new Map();
      #admitted = /* @__PURE__ */ new Set();
      /** log records counted: the counts cover log records 1..#records */
      #records = 0;
      constructor(opts) {
        if (!(opts.max === Infinity || Number.isSafeInteger(opts.max) && opts.max >= 1)) {
          throw new TypeError(`max pages per host must be a positive integer or Infinity, got ${opts.max}`);
        }
        this.max = opts.max;
        this.#onFull = opts.onFull;
      }
      /** Committed pages of `host` (as counted so far). */
      pagesOf(host) {
        return this.#pages.get(host) ?? 0;
      }
      /** Whether `host` has given its `max` committed pages (its links are not queued). */
      isFull(host) {
        return this.pagesOf(host) >= this.max;
      }
      /**
       * May `url` (canonical, from the frontier) be fetched? Yes reserves a
       * place in its host's budget until its record is committed. Asking again
       * for a URL already admitted (a retry) answers yes without a second place.
       */
      admit(url) {
        if (this.max === Infinity || this.#admitted.has(url)) return true;
        const host = hostOfCanonical(url);
        const pending = this.#pending.get(host) ?? 0;
        if (this.pagesOf(host) + pending >= this.max) return false;
        this.#admitted.add(url);
        this.#pending.set(host, pending + 1);
        return true;
      }
      /** A record was committed (every record, in commit order): count it and free its reservation. */
      committed(record) {
        if (this.max === Infinity) return;
        const host = this.#count(record);
        if (this.#admitted.delete(record.url)) {
          const pending = (this.#pending.get(host) ?? 1) - 1;
          if (pending === 0) this.#pending.delete(host);
          else this.#pending.set(host, pending);
        }
        if (record.type === "page" && this.pagesOf(host) === this.max) this.#onFull?.(host);
      }
      #count(record) {
        this.#records++;
        const host = hostOfCanonical(record.url);
        if (record.type === "page") this.#pages.set(host, this.pagesOf(host) + 1);
        return host;
      }
      /**
       * Rebuild the counts of earlier runs: the checkpoint (when valid and not
       * ahead of the log) plus the log records after it. Call once, before
       * the crawl starts.
       */
      async restore(store) {
        if (this.max === Infinity) return;
        const saved = await store.getMeta(HOST_PAGES_KEY);
        let from = 0;
        if (isCheckpoint(saved) && saved.records <= store.committed) {
          for (const [host, n] of saved.hosts) this.#pages.set(host, n);
          from = saved.records;
        }
        this.#records = from;
        const range = from === 0 ? {} : { gt: logKey(from) };
        for await (const record of store.log(range)) this.#count(record);
      }
      /**
       * Write the checkpoint, when the counts cover exactly the store's
       * committed records (else keep the previous one). Call at the end of a
       * run, before the store closes.
       */
      async save(store) {
        if (this.max === Infinity || this.#records !== store.committed) return;
        const checkpoint = { records: this.#records, hosts: [...this.#pages] };
        await store.putMeta(HOST_PAGES_KEY, checkpoint);
      }
    };
  }
});

// src/frontier/retry.ts
function parseRetryAfter(value, now) {
  if (value === null || value === void 0) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1e3;
  if (!HTTP_DATE.test(v)) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}
function attemptOf(item) {
  return (item.entry.attempts ?? 0) + 1;
}
function isRetryable(item) {
  if (item.error !== void 0) return RETRY_CODES.has(item.error.code);
  return item.fetch !== void 0 && !item.fetch.replay && RETRY_STATUSES.has(item.fetch.status);
}
function gotNoAnswer(item) {
  return item.error !== void 0 && RETRY_CODES.has(item.error.code);
}
function retryAfterMs(item, policy) {
  if (item.error !== void 0 || item.fetch === void 0) return null;
  return parseRetryAfter(item.fetch.headers["retry-after"], (policy.now ?? Date.now)());
}
function shouldRetry(item, policy) {
  if (!isRetryable(item) || attemptOf(item) > policy.retries) return false;
  const after = retryAfterMs(item, policy);
  return after === null || after <= policy.maxRetryAfterMs;
}
function hostBackoffMs(item, policy) {
  if (!isRetryable(item)) return 0;
  const after = retryAfterMs(item, policy);
  if (after !== null) return Math.min(after, policy.maxRetryAfterMs);
  const jitter = 0.75 + 0.5 * (policy.random ?? Math.random)();
  return Math.min(Math.round(policy.baseMs * 2 ** (attemptOf(item) - 1) * jitter), policy.maxRetryAfterMs);
}
var RETRY_STATUSES, RETRY_CODES, DEFAULT_RETRY_POLICY, HTTP_DATE;
var init_retry = __esm({
  "src/frontier/retry.ts"() {
    "use strict";
    RETRY_STATUSES = /* @__PURE__ */ new Set([429, 500, 502, 503, 504]);
    RETRY_CODES = /* @__PURE__ */ new Set(["FC_NETWORK", "FC_TIMEOUT"]);
    DEFAULT_RETRY_POLICY = { retries: 2, baseMs: 1e3, maxRetryAfterMs: 12e4 };
    HTTP_DATE = /^[A-Za-z]{3,9}, ?\d|^[A-Za-z]{3} [A-Za-z]{3} /;
  }
});

// src/util/read-capped.ts
import { open } from "node:fs/promises";
async function readCapped(path13, maxBytes) {
  const fh = await open(path13, "r");
  try {
    const st = await fh.stat();
    if (st.isFile() && st.size > maxBytes) return null;
    const chunks = [];
    let size = 0;
    for await (const chunk of fh.createReadStream({ autoClose: false })) {
      size += chunk.length;
      if (size > maxBytes) return null;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size);
  } finally {
    await fh.close();
  }
}
function formatBytes(n) {
  const units = ["bytes", "KiB", "MiB", "GiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}
var init_read_capped = __esm({
  "src/util/read-capped.ts"() {
    "use strict";
  }
});

// src/relevance/text/segmenter.ts
var segmenter_exports = {};
__export(segmenter_exports, {
  getSegmenter: () => getSegmenter,
  knownSegmenters: () => knownSegmenters
});
import { createRequire } from "node:module";
function loadNodejieba() {
  if (nodejieba) return nodejieba;
  let mod;
  try {
    mod = require2("nodejieba");
  } catch (err) {
    throw new UsageError(
      "segmenter 'nodejieba' needs the optional package nodejieba, which is not installed (it builds from source: npm_config_yes=true npm install nodejieba, with a C++ compiler), or use --segmenter node-rs",
      { cause: err }
    );
  }
  nodejieba = { name: "nodejieba", cut: (text) => mod.cutForSearch(text, true) };
  return nodejieba;
}
function knownSegmenters() {
  return Object.keys(BACKENDS);
}
function getSegmenter(name = "node-rs") {
  const make = Object.hasOwn(BACKENDS, name) ? BACKENDS[name] : void 0;
  if (!make) {
    throw new UsageError(`unknown segmenter '${name}' (known: ${knownSegmenters().join(", ")})`);
  }
  return make();
}
var require2, jieba, nodeRs, nodejieba, BACKENDS;
var init_segmenter = __esm({
  "src/relevance/text/segmenter.ts"() {
    "use strict";
    init_errors();
    require2 = createRequire(import.meta.url);
    jieba = null;
    nodeRs = {
      name: "node-rs",
      cut(text) {
        if (jieba === null) {
          const { Jieba: JiebaClass } = require2("@node-rs/jieba");
          const { dict } = require2("@node-rs/jieba/dict.js");
          jieba = JiebaClass.withDict(dict);
        }
        return jieba.cutForSearch(text, true);
      }
    };
    nodejieba = null;
    BACKENDS = {
      "node-rs": () => nodeRs,
      nodejieba: loadNodejieba
    };
  }
});

// src/relevance/text/stopwords.ts
function isStopword(token) {
  return STOPWORDS.has(token);
}
var ENGLISH_STOPWORDS, CHINESE_STOPWORDS, STOPWORDS;
var init_stopwords = __esm({
  "src/relevance/text/stopwords.ts"() {
    "use strict";
    ENGLISH_STOPWORDS = new Set(
      `a about above after again against all almost also although am among an and another any are
  aren't around as at be because been before being below between both but by can can't cannot could
  couldn't did didn't do does doesn't doing don't down during each either else etc even ever every
  few for from further get gets got had hadn't has hasn't have haven't having he he's her here hers
  herself him himself his how however i i'm i've if in into is isn't it it's its itself just least
  less let's may me might more most much must my myself neither no nor not now of off often on once
  only or other others our ours ourselves out over own per please quite rather same shall she should
  shouldn't since so some such than that that's the their theirs them themselves then there there's
  these they they're this those though through thus to too under until up upon us very via was
  wasn't we we're were weren't what what's when where whether which while who whom whose why will
  with within without won't would wouldn't yet you you're your yours yourself yourselves`.split(/\s+/).filter(Boolean)
    );
    CHINESE_STOPWORDS = new Set(
      `\u7684 \u4E86 \u7740 \u8FC7 \u662F \u5728 \u548C \u4E0E \u53CA \u6216 \u800C \u4F46 \u4E5F \u90FD \u5C31 \u8FD8 \u53C8 \u518D \u624D \u53EA \u5F88 \u66F4 \u6700 \u592A \u4E0D \u6CA1 \u6CA1\u6709 \u65E0 \u975E \u88AB \u628A \u8BA9 \u7ED9 \u5BF9 \u5411
  \u4ECE \u81EA \u4E8E \u4EE5 \u4E3A \u4E3A\u4E86 \u56E0 \u56E0\u4E3A \u6240\u4EE5 \u7531\u4E8E \u5982\u679C \u867D\u7136 \u4F46\u662F \u7136\u800C \u800C\u4E14 \u5E76\u4E14 \u6216\u8005 \u8FD8\u662F \u4EE5\u53CA \u5373 \u5373\u4F7F \u56E0\u6B64 \u4E8E\u662F \u7136\u540E
  \u6211 \u4F60 \u4ED6 \u5979 \u5B83 \u6211\u4EEC \u4F60\u4EEC \u4ED6\u4EEC \u5979\u4EEC \u5B83\u4EEC \u81EA\u5DF1 \u8FD9 \u90A3 \u8FD9\u4E2A \u90A3\u4E2A \u8FD9\u4E9B \u90A3\u4E9B \u8FD9\u91CC \u90A3\u91CC \u8FD9\u6837 \u90A3\u6837 \u54EA \u54EA\u91CC \u4EC0\u4E48
  \u600E\u4E48 \u600E\u6837 \u5982\u4F55 \u4E3A\u4F55 \u8C01 \u5176 \u4E4B \u5176\u4E2D \u6B64 \u8BE5 \u6BCF \u5404 \u67D0 \u554A \u5427 \u5462 \u5417 \u561B \u5440 \u54E6 \u54C8 \u4E48 \u4E2A \u4E9B \u79CD \u5730 \u5F97 \u6240 \u7B49 \u7B49\u7B49
  \u5DF2 \u5DF2\u7ECF \u66FE \u66FE\u7ECF \u5C06 \u5C06\u8981 \u4F1A \u80FD \u53EF \u53EF\u4EE5 \u8981 \u5E94 \u5E94\u8BE5 \u4E00 \u4E00\u4E2A \u4E00\u4E9B \u4E00\u79CD \u4E0A \u4E0B \u4E2D \u91CC \u540E \u524D \u65F6 \u65F6\u5019 \u4E4B\u540E \u4E4B\u524D
  \u6709 \u6709\u7684 \u5C31\u662F \u53EA\u662F \u4E0D\u662F \u8FD8\u6709 \u5982 \u6BD4 \u8DDF \u540C \u5219`.split(/\s+/).filter(Boolean)
    );
    STOPWORDS = /* @__PURE__ */ new Set([...ENGLISH_STOPWORDS, ...CHINESE_STOPWORDS]);
  }
});

// src/relevance/text/tokenize.ts
function isAscii(text) {
  return !NON_ASCII.test(text);
}
function tokenize(text, opts = {}) {
  if (isAscii(text)) return tokenizeAscii(text.toLowerCase(), opts.stopwords ?? true);
  return tokenizeGeneral(text, opts);
}
function tokenizeGeneral(text, opts = {}) {
  const dropStop = opts.stopwords ?? true;
  const out = [];
  const keep = (token, han) => {
    if (!han && (token.length < 2 || token.length === 2 && token.codePointAt(0) > 65535)) return;
    if (token.length > 4 && DIGITS.test(token)) return;
    if (dropStop && isStopword(token)) return;
    out.push(token);
  };
  const latin = (part) => {
    const word = part.replace(/^'+|'+$/g, "").replace(/'s$/, "");
    if (word) keep(word, false);
  };
  const normal2 = text.normalize("NFKC").toLowerCase().replace(APOSTROPHES, "'");
  for (const [run] of normal2.matchAll(WORD_RUN)) {
    if (!HAN.test(run)) {
      latin(run);
      continue;
    }
    for (const [part] of run.matchAll(SCRIPT_RUN)) {
      if (HAN.test(part)) {
        const segmenter = opts.segmenter ?? getSegmenter();
        for (const word of segmenter.cut(part)) if (WORDLIKE.test(word)) keep(word, true);
      } else {
        latin(part);
      }
    }
  }
  return out;
}
function isWordChar(c) {
  return c >= 97 && c <= 122 || c >= 48 && c <= 57;
}
function allDigits(text, start2, end) {
  for (let i = start2; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
function tokenizeAscii(text, dropStop) {
  const out = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start2 = i;
    for (; ; ) {
      const c = text.charCodeAt(i);
      if (isWordChar(c) || c === APOSTROPHE && i + 1 < n && isWordChar(text.charCodeAt(i + 1))) i++;
      else break;
    }
    let end = i;
    if (end - start2 >= 2 && text.charCodeAt(end - 1) === 115 && text.charCodeAt(end - 2) === APOSTROPHE) end -= 2;
    const length = end - start2;
    if (length < 2 || length > 4 && allDigits(text, start2, end)) continue;
    const token = text.slice(start2, end);
    if (dropStop && isStopword(token)) continue;
    out.push(token);
  }
  return out;
}
var APOSTROPHES, WORD_RUN, SCRIPT_RUN, HAN, WORDLIKE, DIGITS, NON_ASCII, APOSTROPHE;
var init_tokenize = __esm({
  "src/relevance/text/tokenize.ts"() {
    "use strict";
    init_segmenter();
    init_stopwords();
    APOSTROPHES = /[’‘ʼ]/g;
    WORD_RUN = /[\p{L}\p{N}\p{M}]+(?:'[\p{L}\p{N}\p{M}]+)*/gu;
    SCRIPT_RUN = new RegExp("\\p{Script=Han}+|[^\\p{Script=Han}]+", "gu");
    HAN = new RegExp("\\p{Script=Han}", "u");
    WORDLIKE = /[\p{L}\p{N}]/u;
    DIGITS = new RegExp("^\\p{Nd}+$", "u");
    NON_ASCII = /[^\x00-\x7f]/;
    APOSTROPHE = 39;
  }
});

// src/relevance/text/vector.ts
function termFreq(tokens, weight = 1, into = /* @__PURE__ */ new Map()) {
  for (const t of tokens) into.set(t, (into.get(t) ?? 0) + weight);
  return into;
}
function sublinear(tf) {
  return tf >= 1 ? 1 + Math.log(tf) : Math.max(0, tf);
}
function norm(v) {
  let s = 0;
  for (const w of v.values()) s += w * w;
  return Math.sqrt(s);
}
function tfidf(tf, docFreq) {
  const out = /* @__PURE__ */ new Map();
  for (const [t, n] of tf) {
    const w = sublinear(n) * docFreq.idf(t);
    if (w > 0) out.set(t, w);
  }
  return out;
}
var DocFreq;
var init_vector = __esm({
  "src/relevance/text/vector.ts"() {
    "use strict";
    DocFreq = class {
      capacity;
      #df = /* @__PURE__ */ new Map();
      #docs = 0;
      constructor(capacity = 2e5) {
        if (!Number.isInteger(capacity) || capacity < 1) throw new TypeError(`DocFreq capacity must be a positive integer, got ${capacity}`);
        this.capacity = capacity;
      }
      /** Number of documents added. */
      get documents() {
        return this.#docs;
      }
      /** Number of distinct terms held. */
      get size() {
        return this.#df.size;
      }
      /** Counts one document: each distinct term of `terms` once. */
      addDocument(terms) {
        this.addDistinct(new Set(terms));
      }
      /** Counts one document whose terms are already distinct (a term-count map's keys): no set is built. */
      addDistinct(terms) {
        this.#docs++;
        for (const t of terms) this.#df.set(t, (this.#df.get(t) ?? 0) + 1);
        if (this.#df.size > this.capacity) this.#evict(Math.floor(this.capacity * 0.9));
      }
      /** Documents that contained `term` (0 if unseen or evicted). */
      df(term) {
        return this.#df.get(term) ?? 0;
      }
      /** Smoothed inverse document frequency: ln((N + 1) / (df + 1)) + 1, always >= 1. */
      idf(term) {
        return Math.log((this.#docs + 1) / (this.df(term) + 1)) + 1;
      }
      #evict(target) {
        let remove = this.#df.size - target;
        const histogram = /* @__PURE__ */ new Map();
        for (const n of this.#df.values()) histogram.set(n, (histogram.get(n) ?? 0) + 1);
        let cut = 0;
        let covered = 0;
        for (const n of [...histogram.keys()].sort((x, y) => x - y)) {
          cut = n;
          covered += histogram.get(n);
          if (covered >= remove) break;
        }
        for (const [t, n] of this.#df) {
          if (remove === 0) break;
          if (n < cut) {
            this.#df.delete(t);
            remove--;
          }
        }
        for (const [t, n] of this.#df) {
          if (remove === 0) break;
          if (n === cut) {
            this.#df.delete(t);
            remove--;
          }
        }
      }
    };
  }
});

// src/relevance/topic.ts
var topic_exports = {};
__export(topic_exports, {
  BLOCK_WEIGHTS: () => BLOCK_WEIGHTS,
  DEFAULT_THRESHOLD: () => DEFAULT_THRESHOLD,
  MAX_TOPIC_BYTES: () => MAX_TOPIC_BYTES,
  PROFILE_TERMS: () => PROFILE_TERMS,
  TOPIC_VERSION: () => TOPIC_VERSION,
  TopicModel: () => TopicModel,
  loadTopic: () => loadTopic,
  parseTopic: () => parseTopic,
  strongestTerms: () => strongestTerms
});
function parseTopic(json, source) {
  const bad = (what) => {
    throw new TopicError(`${source}: ${what}`);
  };
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    bad(`expected a JSON object {"name", "terms", "threshold"?}, got ${describe(json)}`);
  }
  const o = json;
  if (o.version !== void 0 && o.version !== TOPIC_VERSION) {
    bad(`unsupported topic version ${describe(o.version)} (this focuscrawl reads version ${TOPIC_VERSION}, or a file without "version")`);
  }
  if (typeof o.name !== "string" || o.name.trim() === "") bad(`"name" must be a non-empty string, got ${describe(o.name)}`);
  if (!Array.isArray(o.terms) || o.terms.length === 0) bad(`"terms" must be a non-empty array of strings, got ${describe(o.terms)}`);
  const terms = o.terms.map((t, i) => {
    if (typeof t !== "string" || t.trim() === "") bad(`"terms"[${i}] must be a non-empty string, got ${describe(t)}`);
    return t.trim();
  });
  let threshold = DEFAULT_THRESHOLD;
  if (o.threshold !== void 0) {
    if (typeof o.threshold !== "number" || !Number.isFinite(o.threshold) || o.threshold < 0 || o.threshold > 1) {
      bad(`"threshold" must be a number between 0 and 1, got ${describe(o.threshold)}`);
    }
    threshold = o.threshold;
  }
  const topic = { name: o.name.trim(), terms, threshold };
  if (o.params !== void 0) topic.params = parseParams(o.params, bad);
  return topic;
}
function parseParams(v, bad) {
  if (typeof v !== "object" || v === null || Array.isArray(v)) bad(`"params" must be an object, got ${describe(v)}`);
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (!(typeof x === "string" || typeof x === "number" && Number.isFinite(x))) bad(`"params"."${k}" must be a number or a string, got ${describe(x)}`);
    out[k] = x;
  }
  return out;
}
async function loadTopic(path13) {
  let bytes;
  try {
    bytes = await readCapped(path13, MAX_TOPIC_BYTES);
  } catch (err) {
    throw new TopicError(`cannot read topic file ${path13}: ${err.message}`, { cause: err });
  }
  if (bytes === null) {
    throw new TopicError(`${path13}: too large: more than ${formatBytes(MAX_TOPIC_BYTES)}, the cap on topic files`);
  }
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  if (text.trim() === "") throw new TopicError(`${path13}: empty file, expected a JSON topic {"name", "terms", "threshold"?}`);
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TopicError(`${path13}: invalid JSON${jsonErrorPlace(text, err)}: ${err.message}`, { cause: err });
  }
  const topic = parseTopic(json, path13);
  if (!topic.terms.some((t) => tokenize(t).length > 0)) {
    throw new TopicError(`${path13}: "terms" contain no indexable words (only stop words, punctuation or single letters)`);
  }
  return topic;
}
function describe(v) {
  if (v === void 0) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return v.length === 0 ? "an empty array" : "an array";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}\u2026` : v)}`;
  if (typeof v === "object") return "an object";
  return `${typeof v} ${String(v)}`;
}
function jsonErrorPlace(text, err) {
  const m = /position (\d+)/.exec(err?.message ?? "");
  if (!m) return "";
  const before = text.slice(0, Number(m[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return ` at line ${line} column ${column}`;
}
function hasAll(tf, tokens) {
  for (const t of tokens) if (!tf.has(t)) return false;
  return true;
}
function strongestTerms(tf, k) {
  const terms = [];
  const counts = [];
  if (k <= 0) return terms;
  tf.forEach((n, t) => {
    let i = terms.length;
    if (i === k) {
      if (!(n > counts[k - 1])) return;
      i = k - 1;
    }
    while (i > 0 && counts[i - 1] < n) {
      terms[i] = terms[i - 1];
      counts[i] = counts[i - 1];
      i--;
    }
    terms[i] = t;
    counts[i] = n;
  });
  return terms;
}
var TOPIC_VERSION, DEFAULT_THRESHOLD, MAX_TOPIC_BYTES, BLOCK_WEIGHTS, PROFILE_TERMS, TopicModel;
var init_topic = __esm({
  "src/relevance/topic.ts"() {
    "use strict";
    init_errors();
    init_read_capped();
    init_tokenize();
    init_vector();
    TOPIC_VERSION = 1;
    DEFAULT_THRESHOLD = 0.2;
    MAX_TOPIC_BYTES = 16 * 1024 * 1024;
    BLOCK_WEIGHTS = {
      title: 3,
      heading: 2,
      content: 1,
      anchor: 0.5,
      other: 0.5,
      navigation: 0.25
    };
    PROFILE_TERMS = 50;
    TopicModel = class {
      topic;
      docFreq;
      /** the distinct tokens of each topic term (terms that leave no token are dropped) */
      termTokens;
      /** every token of every topic term */
      #topicTokens;
      /** finds any ASCII topic token in ASCII text, case-insensitively (null: no topic token is ASCII) */
      #asciiTokens;
      #segmenter;
      /** Throws TopicError (FC_BAD_TOPIC) when no topic term leaves an indexable token (e.g. only stop words). */
      constructor(topic, opts = {}) {
        this.topic = topic;
        this.#segmenter = opts.segmenter;
        this.docFreq = opts.docFreq ?? new DocFreq();
        this.termTokens = topic.terms.map((term) => [...new Set(this.tokens(term))]).filter((t) => t.length > 0);
        if (this.termTokens.length === 0) {
          throw new TopicError(`topic "${topic.name}": its terms contain no indexable words (only stop words, punctuation or single letters)`);
        }
        this.#topicTokens = new Set(this.termTokens.flat());
        const ascii = [...this.#topicTokens].filter(isAscii).map((t) => t.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&"));
        this.#asciiTokens = ascii.length > 0 ? new RegExp(ascii.join("|"), "i") : null;
      }
      /**
       * False only when `tokens(text)` certainly holds no topic token, found
       * without tokenizing: the tokens of ASCII text are substrings of its
       * lower-cased form, so a text in which no ASCII topic token occurs
       * (ignoring case) mentions none. Text with non-ASCII characters: true.
       */
      mayMention(text) {
        if (!isAscii(text)) return true;
        return this.#asciiTokens !== null && this.#asciiTokens.test(text);
      }
      /** Whether any of `tokens` is a token of a topic term (without one, `similarity` of them is 0). */
      mentionsTopic(tokens) {
        for (const t of tokens) if (this.#topicTokens.has(t)) return true;
        return false;
      }
      /** Tokens of `text` with this model's segmenter and stop words. */
      tokens(text) {
        return tokenize(text, { segmenter: this.#segmenter });
      }
      /** Block-weighted term counts of a page (BLOCK_WEIGHTS; title = blocks.title, or page.title when that block is empty). */
      pageTermFreq(page) {
        const tf = /* @__PURE__ */ new Map();
        for (const [type, weight] of Object.entries(BLOCK_WEIGHTS)) {
          const text = type === "title" ? page.blocks.title || page.title : page.blocks[type];
          if (text) termFreq(this.tokens(text), weight, tf);
        }
        return tf;
      }
      /**
       * The relevance judge: counts the page in the IDF table, then returns the
       * similarity of its block-weighted terms to the topic, in [0, 1]. Call it
       * once per fetched page (each call counts a document).
       */
      judge(page) {
        const tf = this.pageTermFreq(page);
        this.docFreq.addDistinct(tf.keys());
        return this.similarity(tf);
      }
      /** Similarity in [0, 1] of raw (possibly weighted) term counts to the topic; see the class doc. Does not touch the IDF table. */
      similarity(tf) {
        let topicTf;
        for (const tokens of this.termTokens) {
          if (hasAll(tf, tokens)) termFreq(tokens, 1, topicTf ??= /* @__PURE__ */ new Map());
        }
        if (topicTf === void 0) return 0;
        const weights = tfidf(topicTf, this.docFreq);
        let profileSq = 0;
        for (const t of topicTf.keys()) {
          const x = sublinear(tf.get(t));
          profileSq += x * x;
        }
        for (const t of strongestTerms(tf, PROFILE_TERMS)) {
          if (topicTf.has(t)) continue;
          const x = sublinear(tf.get(t));
          profileSq += x * x;
        }
        const na = Math.sqrt(profileSq);
        const nb = norm(weights);
        if (na === 0 || nb === 0) return 0;
        let d = 0;
        for (const [t, w] of weights) d += w * sublinear(tf.get(t));
        return Math.min(1, Math.max(-1, d / (na * nb)));
      }
    };
  }
});

// src/relevance/scorers/bayes-kde.ts
function createBayesKdeScorer(ctx) {
  const model = ctx.model;
  if (model === null) throw new UsageError("--strategy bayes-kde needs a trained --model (focuscrawl train)");
  const density = ctx.params.density ?? "kernel";
  if (density !== "kernel" && density !== "gaussian") throw new UsageError(`--density must be kernel or gaussian, got ${JSON.stringify(density)}`);
  return {
    name: "bayes-kde",
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link2) => model.kdeProbability(link2.anchor, link2.context, density)
  };
}
var init_bayes_kde = __esm({
  "src/relevance/scorers/bayes-kde.ts"() {
    "use strict";
    init_errors();
  }
});

// src/relevance/scorers/best-first.ts
function anchorSimilarity(topic, anchor, context) {
  if (!topic.mayMention(anchor) && !topic.mayMention(context)) return 0;
  const anchorTokens = topic.tokens(anchor);
  const contextTokens = topic.tokens(context);
  if (!topic.mentionsTopic(anchorTokens) && !topic.mentionsTopic(contextTokens)) return 0;
  const tf = termFreq(anchorTokens);
  termFreq(contextTokens, CONTEXT_WEIGHT, tf);
  return topic.similarity(tf);
}
function bestFirstScore(ctx, link2, pageRelevance) {
  const page = Number.isFinite(pageRelevance) ? Math.max(0, pageRelevance) : 0;
  return page + anchorSimilarity(ctx.topic, link2.anchor, link2.context);
}
function createBestFirstScorer(ctx) {
  return {
    name: "best-first",
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link2, _page, pageRelevance) => bestFirstScore(ctx, link2, pageRelevance)
  };
}
var CONTEXT_WEIGHT;
var init_best_first = __esm({
  "src/relevance/scorers/best-first.ts"() {
    "use strict";
    init_vector();
    CONTEXT_WEIGHT = 0.5;
  }
});

// src/relevance/scorers/best-n-first.ts
function createBestNFirstScorer(ctx) {
  return {
    name: "best-n-first",
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link2, _page, pageRelevance) => bestFirstScore(ctx, link2, pageRelevance)
  };
}
var DEFAULT_ROUND_SIZE;
var init_best_n_first = __esm({
  "src/relevance/scorers/best-n-first.ts"() {
    "use strict";
    init_best_first();
    DEFAULT_ROUND_SIZE = 10;
  }
});

// src/relevance/scorers/bfs.ts
function createBfsScorer(ctx) {
  return {
    name: "bfs",
    pageRelevance: (page) => ctx.judge(page),
    linkScore: () => 0
  };
}
var init_bfs = __esm({
  "src/relevance/scorers/bfs.ts"() {
    "use strict";
  }
});

// src/relevance/scorers/nb-link.ts
function createNbLinkScorer(ctx) {
  const model = ctx.model;
  if (model === null) throw new UsageError("--strategy nb-link needs a trained --model (focuscrawl train)");
  const threshold = typeof ctx.params.threshold === "number" ? ctx.params.threshold : PARENT_RELEVANT_AT;
  const w = typeof ctx.params.parentWeight === "number" && ctx.params.parentWeight >= 0 ? ctx.params.parentWeight : DEFAULT_PARENT_WEIGHT;
  return {
    name: "nb-link",
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link2, page, pageRelevance) => (model.linkProbability(link2.anchor, link2.context, link2.url, { url: page.base, title: page.title, relevant: pageRelevance >= threshold }) + w * Math.max(0, pageRelevance)) / (1 + w)
  };
}
var DEFAULT_PARENT_WEIGHT, PARENT_RELEVANT_AT;
var init_nb_link = __esm({
  "src/relevance/scorers/nb-link.ts"() {
    "use strict";
    init_errors();
    DEFAULT_PARENT_WEIGHT = 0;
    PARENT_RELEVANT_AT = 0.5;
  }
});

// src/util/random.ts
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = a + 1831565813 >>> 0;
    let t = a;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
function fnv1a(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
var Rng;
var init_random = __esm({
  "src/util/random.ts"() {
    "use strict";
    Rng = class {
      next;
      constructor(seed) {
        this.next = seededRandom(seed);
      }
      /** integer in [0, n) */
      int(n) {
        return Math.floor(this.next() * n);
      }
      /** integer in [lo, hi] */
      range(lo, hi) {
        return lo + this.int(hi - lo + 1);
      }
      chance(p) {
        return this.next() < p;
      }
      pick(arr) {
        return arr[this.int(arr.length)];
      }
      /** Fisher–Yates shuffle in place. */
      shuffle(arr) {
        for (let i = arr.length - 1; i > 0; i--) {
          const j = this.int(i + 1);
          [arr[i], arr[j]] = [arr[j], arr[i]];
        }
        return arr;
      }
      /** k distinct elements in random order (a shuffled copy's prefix). */
      sample(arr, k) {
        return this.shuffle(arr.slice()).slice(0, Math.min(k, arr.length));
      }
    };
  }
});

// src/relevance/learn/metrics.ts
function binaryMetrics(scores, labels, threshold = 0.5) {
  if (scores.length !== labels.length) {
    throw new TypeError(`binaryMetrics: ${scores.length} scores but ${labels.length} labels`);
  }
  let tp = 0;
  let fp = 0;
  let positives = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i];
    const y = labels[i];
    if (Number.isNaN(s)) throw new TypeError(`binaryMetrics: score ${i} is NaN`);
    if (y !== 0 && y !== 1) throw new TypeError(`binaryMetrics: label ${i} must be 0 or 1, got ${String(y)}`);
    if (y === 1) positives++;
    if (s > threshold) {
      if (y === 1) tp++;
      else fp++;
    }
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = positives === 0 ? 0 : tp / positives;
  const f1 = precision + recall === 0 ? 0 : 2 * precision * recall / (precision + recall);
  return { precision, recall, f1, auc: auc(scores, labels, positives), n: scores.length, positives };
}
function auc(scores, labels, positives) {
  const n = scores.length;
  const negatives = n - positives;
  if (positives === 0 || negatives === 0) return NaN;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let rankSum = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && scores[order[j + 1]] === scores[order[i]]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (labels[order[k]] === 1) rankSum += rank;
    i = j + 1;
  }
  return (rankSum - positives * (positives + 1) / 2) / (positives * negatives);
}
function kFoldIndices(n, k, seed) {
  if (!Number.isInteger(n) || n < 0) throw new TypeError(`kFoldIndices: n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(k) || k < 1 || k > Math.max(n, 1)) {
    throw new TypeError(`kFoldIndices: k must be an integer in 1..${Math.max(n, 1)}, got ${k}`);
  }
  const random = seededRandom(seed);
  const idx = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  const folds = Array.from({ length: k }, () => []);
  idx.forEach((v, i) => folds[i % k].push(v));
  for (const f of folds) f.sort((a, b) => a - b);
  return folds;
}
function informationGain(nPos, nNeg, fPos, fNeg) {
  const n = nPos + nNeg;
  if (n === 0) return 0;
  const nF = fPos + fNeg;
  const nNotF = n - nF;
  const cells = [
    [fPos, nPos, nF],
    [fNeg, nNeg, nF],
    [nPos - fPos, nPos, nNotF],
    [nNeg - fNeg, nNeg, nNotF]
  ];
  let s = 0;
  for (const [ncf, nc, nf] of cells) {
    if (ncf > 0) s += ncf * Math.log(n * ncf / (nc * nf));
  }
  return Math.max(0, s / n);
}
var init_metrics = __esm({
  "src/relevance/learn/metrics.ts"() {
    "use strict";
    init_random();
    init_random();
  }
});

// src/relevance/learn/bernoulli-nb.ts
function sigmoid(z) {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}
function isCount(x) {
  return typeof x === "number" && Number.isInteger(x) && x >= 0;
}
var BernoulliNB;
var init_bernoulli_nb = __esm({
  "src/relevance/learn/bernoulli-nb.ts"() {
    "use strict";
    init_metrics();
    BernoulliNB = class _BernoulliNB {
      /** positive training examples */
      nPos;
      /** negative training examples */
      nNeg;
      #counts;
      /** class-balanced likelihoods */
      balanced;
      #weights = /* @__PURE__ */ new Map();
      #base;
      constructor(nPos, nNeg, counts, balanced = false) {
        this.nPos = nPos;
        this.nNeg = nNeg;
        this.#counts = counts;
        this.balanced = balanced;
        let base = Math.log((nPos + 1) / (nNeg + 1));
        const half = (nPos + nNeg) / 2;
        const scalePos = balanced && nPos > 0 ? half / nPos : 1;
        const scaleNeg = balanced && nNeg > 0 ? half / nNeg : 1;
        const sizePos = balanced ? half : nPos;
        const sizeNeg = balanced ? half : nNeg;
        for (const [f, [cPos, cNeg]] of counts) {
          const pPos = (cPos * scalePos + 1) / (sizePos + 2);
          const pNeg = (cNeg * scaleNeg + 1) / (sizeNeg + 2);
          const absent = Math.log((1 - pPos) / (1 - pNeg));
          base += absent;
          this.#weights.set(f, Math.log(pPos / pNeg) - absent);
        }
        this.#base = base;
      }
      /**
       * Trains on `examples` (each: its features, repeats counted once, and its
       * label 0/1). Features in fewer than `minCount` examples are dropped; of
       * the rest the `maxFeatures` with the highest information gain are kept
       * (ties: more examples first, then the feature name). Throws TypeError
       * for a label other than 0/1 or bad options.
       */
      static train(examples, opts = {}) {
        const minCount = opts.minCount ?? 2;
        const maxFeatures = opts.maxFeatures ?? 2e4;
        if (!Number.isInteger(minCount) || minCount < 0) throw new TypeError(`minCount must be a non-negative integer, got ${minCount}`);
        if (!Number.isInteger(maxFeatures) || maxFeatures < 0) throw new TypeError(`maxFeatures must be a non-negative integer, got ${maxFeatures}`);
        let nPos = 0;
        let nNeg = 0;
        const all = /* @__PURE__ */ new Map();
        for (const { features, label } of examples) {
          if (label !== 0 && label !== 1) throw new TypeError(`label must be 0 or 1, got ${String(label)}`);
          if (label === 1) nPos++;
          else nNeg++;
          const side = label === 1 ? 0 : 1;
          for (const f of new Set(features)) {
            let c = all.get(f);
            if (!c) all.set(f, c = [0, 0]);
            c[side]++;
          }
        }
        const ranked = [];
        for (const [f, c] of all) {
          if (c[0] + c[1] >= minCount) ranked.push([f, c, informationGain(nPos, nNeg, c[0], c[1])]);
        }
        ranked.sort((a, b) => b[2] - a[2] || b[1][0] + b[1][1] - (a[1][0] + a[1][1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        const counts = /* @__PURE__ */ new Map();
        for (const [f, c] of ranked.slice(0, maxFeatures)) counts.set(f, c);
        return new _BernoulliNB(nPos, nNeg, counts, opts.balanced === true);
      }
      /** Number of vocabulary features. */
      get size() {
        return this.#counts.size;
      }
      /** ln P(+|x)/P(−|x) for the example with exactly these features present (repeats counted once). */
      logOdds(features) {
        let z = this.#base;
        const seen = /* @__PURE__ */ new Set();
        for (const f of features) {
          const w = this.#weights.get(f);
          if (w === void 0 || seen.has(f)) continue;
          seen.add(f);
          z += w;
        }
        return z;
      }
      /** P(+ | features), in [0, 1]. */
      probability(features) {
        return sigmoid(this.logOdds(features));
      }
      /**
       * The `k` features whose presence most favours the positive class
       * (largest weight w_j, ties by feature name), only those with w_j > 0.
       */
      topFeatures(k) {
        return [...this.#weights].filter(([, w]) => w > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, Math.max(0, k)).map(([f]) => f);
      }
      /** Plain JSON (JSON.stringify-able); fromJSON(toJSON()) predicts identically. */
      toJSON() {
        return {
          type: "bernoulli-nb",
          nPos: this.nPos,
          nNeg: this.nNeg,
          features: Object.fromEntries([...this.#counts].map(([f, [p, n]]) => [f, [p, n]])),
          ...this.balanced ? { balanced: true } : {}
        };
      }
      /**
       * Rebuilds a model from toJSON() output (e.g. after JSON.parse). Throws
       * TypeError naming the problem when `json` is not such an object: wrong
       * type tag, class sizes not non-negative integers, or a feature entry not
       * a pair of non-negative integer counts within the class sizes.
       */
      static fromJSON(json) {
        if (typeof json !== "object" || json === null || Array.isArray(json)) throw new TypeError("bernoulli-nb model: expected an object");
        const o = json;
        if (o.type !== "bernoulli-nb") throw new TypeError(`bernoulli-nb model: "type" must be "bernoulli-nb", got ${JSON.stringify(o.type)}`);
        if (!isCount(o.nPos) || !isCount(o.nNeg)) throw new TypeError('bernoulli-nb model: "nPos" and "nNeg" must be non-negative integers');
        const nPos = o.nPos;
        const nNeg = o.nNeg;
        if (typeof o.features !== "object" || o.features === null || Array.isArray(o.features)) {
          throw new TypeError('bernoulli-nb model: "features" must be an object');
        }
        const counts = /* @__PURE__ */ new Map();
        for (const [f, c] of Object.entries(o.features)) {
          if (!Array.isArray(c) || c.length !== 2 || !isCount(c[0]) || !isCount(c[1]) || c[0] > nPos || c[1] > nNeg) {
            throw new TypeError(`bernoulli-nb model: feature ${JSON.stringify(f)} must be [count+ <= nPos, count- <= nNeg], got ${JSON.stringify(c)}`);
          }
          counts.set(f, [c[0], c[1]]);
        }
        if (o.balanced !== void 0 && typeof o.balanced !== "boolean") throw new TypeError(`bernoulli-nb model: "balanced" must be a boolean, got ${JSON.stringify(o.balanced)}`);
        return new _BernoulliNB(nPos, nNeg, counts, o.balanced === true);
      }
    };
  }
});

// src/relevance/learn/features.ts
function isFeatureGroup(v) {
  return v === 1 || v === 2 || v === 3 || v === 4;
}
function linkFeatures(anchor, context, opts) {
  const anchorTokens = new Set(tokenize(anchor, { segmenter: opts.segmenter }));
  const out = [];
  for (const t of anchorTokens) out.push("a:" + t);
  if (opts.group === 1) return out;
  const contextTokens = new Set(tokenize(context, { segmenter: opts.segmenter }));
  for (const t of contextTokens) out.push("c:" + t);
  const domain = opts.domainTerms;
  if (domain && domain.size > 0) {
    if (hasAny(anchorTokens, domain)) out.push(ANCHOR_DOMAIN_FLAG);
    if (hasAny(contextTokens, domain)) out.push(CONTEXT_DOMAIN_FLAG);
  }
  if (opts.group === 2) return out;
  if (opts.url !== void 0) out.push(...urlFeatures(opts.url, opts.parentUrl));
  if (opts.group === 4) {
    if (opts.parentTitle) for (const t of new Set(tokenize(opts.parentTitle, { segmenter: opts.segmenter }))) out.push("p:" + t);
    if (opts.parentRelevant === true) out.push(PARENT_RELEVANT_FLAG);
  }
  return out;
}
function urlTokens(url) {
  const path13 = urlPath(url);
  if (path13 === null) return [];
  const out = /* @__PURE__ */ new Set();
  if (path13.includes("~")) out.add("~");
  for (const m of path13.toLowerCase().matchAll(new RegExp("\\p{L}+|\\p{Nd}+", "gu"))) if (m[0].length <= 30) out.add(m[0]);
  return [...out];
}
function urlFeatures(url, parentUrl) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const out = urlTokens(url).map((t) => "u:" + t);
  if (parentUrl !== void 0) {
    let parentHost = null;
    try {
      parentHost = new URL(parentUrl).host;
    } catch {
      parentHost = null;
    }
    if (parentHost !== null) out.push(parentHost === u.host ? "u:#same-host" : "u:#other-host");
  }
  const path13 = urlPath(url) ?? "/";
  const pathOnly = path13.split("?")[0];
  const segments = pathOnly.split("/").filter((s) => s !== "");
  out.push(`u:#depth=${Math.min(segments.length, MAX_URL_DEPTH)}`);
  const last = segments.at(-1) ?? "";
  if (pathOnly.endsWith("/") || last === "") out.push("u:#dir");
  else {
    const ext = /\.([a-z0-9]{1,5})$/i.exec(last)?.[1];
    out.push(ext === void 0 ? "u:#noext" : `u:#ext=${ext.toLowerCase()}`);
  }
  if (new RegExp("\\p{Nd}", "u").test(last)) out.push("u:#digits-last");
  if (/^\/~[^/]+\/?(index\.html?)?$/i.test(pathOnly)) out.push("u:#tilde-home");
  if (u.search.length > 1) out.push("u:#query");
  return out;
}
function urlPath(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const raw = u.pathname + u.search;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
function hasAny(tokens, terms) {
  for (const t of tokens) if (terms.has(t)) return true;
  return false;
}
function pageFeatures(page, opts = {}) {
  const seen = /* @__PURE__ */ new Set();
  for (const t of tokenize(page.title || page.blocks.title, { segmenter: opts.segmenter })) seen.add("t:" + t);
  for (const type of PAGE_BLOCKS) {
    const text = page.blocks[type];
    if (text) for (const t of tokenize(text, { segmenter: opts.segmenter })) seen.add(t);
  }
  return [...seen];
}
function classDocFreq(examples) {
  let nPos = 0;
  let nNeg = 0;
  const df = /* @__PURE__ */ new Map();
  for (const ex of examples) {
    if (ex.label === 1) nPos++;
    else nNeg++;
    for (const t of new Set(ex.tokens)) {
      let c = df.get(t);
      if (c === void 0) df.set(t, c = [0, 0]);
      c[ex.label === 1 ? 0 : 1]++;
    }
  }
  return { nPos, nNeg, df };
}
function pageMainText(page) {
  return [page.title || page.blocks.title, page.blocks.heading, page.blocks.content].filter((s) => s).join("\n");
}
function linkDensity(page) {
  const len = (s) => s.replace(/\s+/g, "").length;
  const links = len(page.blocks.anchor) + len(page.blocks.navigation);
  const own = len(page.blocks.heading) + len(page.blocks.content);
  return links + own === 0 ? 0 : links / (links + own);
}
var PARENT_RELEVANT_FLAG, ANCHOR_DOMAIN_FLAG, CONTEXT_DOMAIN_FLAG, MAX_URL_DEPTH, PAGE_BLOCKS;
var init_features = __esm({
  "src/relevance/learn/features.ts"() {
    "use strict";
    init_tokenize();
    PARENT_RELEVANT_FLAG = "p:#relevant";
    ANCHOR_DOMAIN_FLAG = "a:#domain";
    CONTEXT_DOMAIN_FLAG = "c:#domain";
    MAX_URL_DEPTH = 6;
    PAGE_BLOCKS = ["title", "heading", "content", "navigation", "anchor", "other"];
  }
});

// src/util/lru.ts
var Lru;
var init_lru = __esm({
  "src/util/lru.ts"() {
    "use strict";
    Lru = class {
      /** most entries kept; setting a new key beyond it evicts the least recently used */
      capacity;
      #map = /* @__PURE__ */ new Map();
      constructor(capacity) {
        if (!Number.isInteger(capacity) || capacity < 1) {
          throw new TypeError(`Lru capacity must be a positive integer, got ${capacity}`);
        }
        this.capacity = capacity;
      }
      /** number of entries */
      get size() {
        return this.#map.size;
      }
      /** value of `key` (marking it most recently used), or undefined */
      get(key) {
        if (!this.#map.has(key)) return void 0;
        const value = this.#map.get(key);
        this.#map.delete(key);
        this.#map.set(key, value);
        return value;
      }
      /** value of `key` without changing its recency, or undefined */
      peek(key) {
        return this.#map.get(key);
      }
      /** whether `key` is present (does not change its recency) */
      has(key) {
        return this.#map.has(key);
      }
      /** store `value` under `key` as most recently used; evicts the oldest entry when over capacity */
      set(key, value) {
        this.#map.delete(key);
        this.#map.set(key, value);
        if (this.#map.size > this.capacity) {
          const oldest = this.#map.keys().next().value;
          this.#map.delete(oldest);
        }
        return this;
      }
      /** remove `key`; true when it was present */
      delete(key) {
        return this.#map.delete(key);
      }
    };
  }
});

// src/relevance/scorers/online.ts
function num(v, fallback) {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : fallback;
}
function createOnlineScorer(ctx) {
  const retrain = Math.max(1, num(ctx.params.retrain, 100));
  const maxExamples = Math.max(10, num(ctx.params.maxExamples, 5e3));
  const rescoreTop = num(ctx.params.rescoreTop, 2e3);
  const priorWeight = num(ctx.params.priorWeight, 50);
  const threshold = num(ctx.params.threshold, 0.2);
  const group = ctx.params.group === void 0 ? DEFAULT_ONLINE_GROUP : ctx.params.group;
  if (!isFeatureGroup(group)) throw new UsageError(`online: param group must be 1, 2, 3 or 4, got ${JSON.stringify(group)}`);
  const balanced = num(ctx.params.balanced, 1) !== 0;
  const hubs = Math.floor(num(ctx.params.hubs, DEFAULT_ONLINE_HUBS));
  const foundThrough = new Lru(maxExamples);
  const domainTerms = new Set(ctx.topic.termTokens.flat());
  const examples = [];
  const relevantAt = ctx.model !== null ? PARENT_RELEVANT_AT : threshold;
  const fetchedPages = new Lru(TITLE_CACHE);
  const parentOf = (url) => {
    if (url === null) return {};
    const p = fetchedPages.peek(url);
    return { url, title: p?.title, relevant: p?.relevant };
  };
  const features = (anchor, context, url, parent) => linkFeatures(anchor, context, { group, domainTerms, url, parentUrl: parent.url, parentTitle: parent.title, parentRelevant: parent.relevant });
  let classifier = null;
  let trainedOn = 0;
  let sinceTraining = 0;
  const start2 = (anchor, context, url, parent, pageRelevance) => ctx.model !== null ? ctx.model.linkProbability(anchor, context, url, parent) : Math.min(1, (Math.max(0, pageRelevance) + anchorSimilarity(ctx.topic, anchor, context)) / 2);
  const score = (anchor, context, url, parent, pageRelevance) => {
    const prior = start2(anchor, context, url, parent, pageRelevance);
    if (classifier === null) return prior;
    const p = classifier.probability(features(anchor, context, url, parent));
    return (trainedOn * p + priorWeight * prior) / (trainedOn + priorWeight);
  };
  return {
    name: "online",
    readsQueuedText: true,
    // rescore re-reads anchor and context of queued entries
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link2, page, pageRelevance) => ctx.model === null && classifier === null ? bestFirstScore(ctx, link2, pageRelevance) / 2 : score(link2.anchor, link2.context, link2.url, { url: page.base, title: page.title, relevant: pageRelevance >= relevantAt }, pageRelevance),
    observe(item) {
      if (item.page !== void 0) {
        const seen = { title: item.page.title, relevant: (item.relevance ?? 0) >= relevantAt };
        fetchedPages.set(item.entry.url, seen);
        if (item.fetch !== void 0 && item.fetch.finalUrl !== item.entry.url) fetchedPages.set(item.fetch.finalUrl, seen);
      }
      const { anchor = "", context = "", url, parent } = item.entry;
      if (item.page === void 0 || anchor === "" && context === "" && group < 3) return;
      const label = (item.relevance ?? 0) >= threshold ? 1 : 0;
      const f = features(anchor, context, url, parentOf(parent));
      examples.push({ features: f, label });
      if (hubs > 0) {
        const through = { features: f, parent, credited: false };
        foundThrough.set(url, through);
        if (item.fetch !== void 0 && item.fetch.finalUrl !== url) foundThrough.set(item.fetch.finalUrl, through);
        let up = label === 1 ? parent : null;
        for (let level = 0; level < hubs && up !== null; level++) {
          const link2 = foundThrough.peek(up);
          if (link2 === void 0 || link2.credited) break;
          examples.push({ features: link2.features, label: 1 });
          link2.credited = true;
          up = link2.parent;
        }
      }
      if (examples.length > maxExamples) examples.splice(0, examples.length - maxExamples);
      sinceTraining++;
    },
    async rescore(frontier) {
      if (sinceTraining < retrain) return null;
      const positives = examples.reduce((n, e) => n + e.label, 0);
      if (positives < 2 || examples.length - positives < 2) return null;
      sinceTraining = 0;
      classifier = BernoulliNB.train(examples, { minCount: 1, balanced });
      trainedOn = examples.length;
      const updates = [];
      let seen = 0;
      for await (const entry of frontier()) {
        if (seen++ >= rescoreTop) break;
        updates.push({ url: entry.url, score: score(entry.anchor ?? "", entry.context ?? "", entry.url, parentOf(entry.parent), 0) });
      }
      return updates;
    }
  };
}
var DEFAULT_ONLINE_HUBS, DEFAULT_ONLINE_GROUP, TITLE_CACHE;
var init_online = __esm({
  "src/relevance/scorers/online.ts"() {
    "use strict";
    init_bernoulli_nb();
    init_features();
    init_errors();
    init_lru();
    init_best_first();
    init_nb_link();
    DEFAULT_ONLINE_HUBS = 2;
    DEFAULT_ONLINE_GROUP = 4;
    TITLE_CACHE = 1e5;
  }
});

// src/relevance/scorers/context-graph.ts
function layerScore(p) {
  const top = p.length - 1;
  let k = 0;
  for (let c = 1; c <= top; c++) if (p[c] > p[k]) k = c;
  let second = -1;
  for (let c = 0; c <= top; c++) if (c !== k && (second < 0 || p[c] > p[second])) second = c;
  const ratio = p[second] > 0 ? Math.log(p[k]) - Math.log(p[second]) : MAX_MARGIN;
  const m = Math.min(MAX_MARGIN, Math.max(0, Number.isFinite(ratio) ? ratio : MAX_MARGIN));
  const confidence = k < top ? m / (1 + m) : 1 / (1 + m);
  return top - k + confidence;
}
function discountedScore(p, gamma) {
  let v = 0;
  for (let k = 0; k < p.length; k++) v += gamma ** k * p[k];
  return v;
}
function createContextGraphScorer(ctx) {
  const model = ctx.model;
  if (model === null) throw new UsageError("--strategy context-graph needs a trained --model with layers (focuscrawl train --warc ... --layers)");
  if (model.layerProbabilities === void 0 || model.layerProbabilities("", "") === null) {
    throw new UsageError("--strategy context-graph needs a model with a layered link classifier: this model has none (retrain it with focuscrawl train --warc ... --layers)");
  }
  const value = ctx.params.value ?? "layer";
  if (value !== "layer" && value !== "discounted") throw new UsageError(`context-graph: param value must be layer or discounted, got ${JSON.stringify(value)}`);
  const gamma = ctx.params.gamma ?? DEFAULT_GAMMA;
  if (typeof gamma !== "number" || !(gamma > 0 && gamma <= 1)) throw new UsageError(`context-graph: param gamma must be a number in (0, 1], got ${JSON.stringify(gamma)}`);
  const threshold = typeof ctx.params.threshold === "number" ? ctx.params.threshold : PARENT_RELEVANT_AT;
  const layers = model.layerProbabilities.bind(model);
  return {
    name: "context-graph",
    pageRelevance: (page) => ctx.judge(page),
    linkScore: (link2, page, pageRelevance) => {
      const p = layers(link2.anchor, link2.context, link2.url, { url: page.base, title: page.title, relevant: pageRelevance >= threshold });
      if (p === null) return 0;
      return value === "discounted" ? discountedScore(p, gamma) : layerScore(p);
    }
  };
}
var DEFAULT_GAMMA, MAX_MARGIN;
var init_context_graph = __esm({
  "src/relevance/scorers/context-graph.ts"() {
    "use strict";
    init_errors();
    init_nb_link();
    DEFAULT_GAMMA = 0.5;
    MAX_MARGIN = 745;
  }
});

// src/relevance/etfl/blocks.ts
function estimateKeyTags(n) {
  const short = (x) => Math.ceil(x / SHORT_TOKENS);
  return {
    title: n.title > 0 ? 1 : 0,
    content: Math.ceil(n.content / PARAGRAPH_TOKENS) + short(n.heading),
    navigation: short(n.navigation),
    anchor: short(n.anchor),
    other: short(n.other)
  };
}
function keyTagImpact(keyTags) {
  return keyTags > 0 ? keyTags / (keyTags + 1) : 0;
}
function blockWeights(keyTags, lambda = DEFAULT_LAMBDA) {
  if (!(lambda >= 0 && lambda <= 1)) throw new TypeError(`lambda must be in [0, 1], got ${lambda}`);
  const impact = {};
  let sum = 0;
  for (const b of ETFL_BLOCKS) {
    impact[b] = keyTags[b] > 0 ? lambda * keyTagImpact(keyTags[b]) + (1 - lambda) * IMPACT_PRESETS[b] : 0;
    sum += impact[b];
  }
  for (const b of ETFL_BLOCKS) impact[b] = sum > 0 ? impact[b] / sum : 0;
  return impact;
}
function scoreBlocks(page, lib, lambda = DEFAULT_LAMBDA) {
  const b = page.blocks;
  const tok = {
    title: lib.tokens(b.title || page.title),
    heading: lib.tokens(b.heading),
    content: lib.tokens(b.content),
    navigation: lib.tokens(b.navigation),
    anchor: lib.tokens(b.anchor),
    other: lib.tokens(b.other)
  };
  const keyTags = estimateKeyTags({
    title: tok.title.length,
    heading: tok.heading.length,
    content: tok.content.length,
    navigation: tok.navigation.length,
    anchor: tok.anchor.length,
    other: tok.other.length
  });
  const weights = blockWeights(keyTags, lambda);
  const blockTokens = {
    title: tok.title,
    content: [...tok.heading, ...tok.content],
    navigation: tok.navigation,
    anchor: tok.anchor,
    other: tok.other
  };
  const scores = {};
  let relevance = 0;
  for (const t of ETFL_BLOCKS) {
    scores[t] = weights[t] > 0 ? lib.similarity(termFreq(blockTokens[t])) : 0;
    relevance += weights[t] * scores[t];
  }
  const tf = /* @__PURE__ */ new Map();
  for (const [type, tokens] of Object.entries(tok)) termFreq(tokens, BLOCK_WEIGHTS[type], tf);
  return { relevance: Math.min(1, Math.max(0, relevance)), scores, weights, keyTags, tf };
}
var ETFL_BLOCKS, IMPACT_PRESETS, DEFAULT_LAMBDA, PARAGRAPH_TOKENS, SHORT_TOKENS;
var init_blocks = __esm({
  "src/relevance/etfl/blocks.ts"() {
    "use strict";
    init_topic();
    init_vector();
    ETFL_BLOCKS = ["title", "content", "navigation", "anchor", "other"];
    IMPACT_PRESETS = {
      title: 1,
      content: 0.8,
      anchor: 0.4,
      other: 0.2,
      navigation: 0.1
    };
    DEFAULT_LAMBDA = 0.5;
    PARAGRAPH_TOKENS = 30;
    SHORT_TOKENS = 4;
  }
});

// src/relevance/etfl/miner.ts
function isCandidateToken(token) {
  return [...token].length >= 2 && !DIGITS2.test(token);
}
function trim(tf, max) {
  if (tf.size <= max) return new Map(tf);
  return new Map([...tf].sort((a, b) => b[1] - a[1]).slice(0, max));
}
var DIGITS2, TermMiner;
var init_miner = __esm({
  "src/relevance/etfl/miner.ts"() {
    "use strict";
    DIGITS2 = /^[\p{Nd}.,]+$/u;
    TermMiner = class {
      topL;
      maxPageTerms;
      #terms;
      #held;
      constructor(staticTerms, opts = {}) {
        this.topL = opts.topL ?? 50;
        this.maxPageTerms = opts.maxPageTerms ?? 300;
        if (!Number.isInteger(this.topL) || this.topL < 1) throw new TypeError(`topL must be a positive integer, got ${this.topL}`);
        if (!Number.isInteger(this.maxPageTerms) || this.maxPageTerms < 1) throw new TypeError(`maxPageTerms must be a positive integer, got ${this.maxPageTerms}`);
        this.#terms = staticTerms.filter((s) => s.tokens.length > 0);
        this.#held = this.#terms.map(() => []);
      }
      /** Distinct pages held (at most L × static terms). */
      get pages() {
        const set = /* @__PURE__ */ new Set();
        for (const list of this.#held) for (const h of list) set.add(h.tf);
        return set.size;
      }
      /** Offers the (substituted, weighted) term counts of a page about the topic. */
      offer(tf) {
        let total = 0;
        for (const n of tf.values()) total += n;
        if (total <= 0) return;
        let kept = null;
        this.#terms.forEach((s, i) => {
          let min = Infinity;
          for (const t of s.tokens) min = Math.min(min, tf.get(t) ?? 0);
          if (min <= 0) return;
          const about = min / total;
          const list = this.#held[i];
          if (list.length >= this.topL && about <= list[list.length - 1].about) return;
          kept ??= trim(tf, this.maxPageTerms);
          let at = list.length;
          while (at > 0 && list[at - 1].about < about) at--;
          list.splice(at, 0, { about, tf: kept });
          if (list.length > this.topL) list.pop();
        });
      }
      /** The `topN` candidates of highest W (see the module comment), best first; ties by term. */
      mine(docs, exclude, topN) {
        const best = /* @__PURE__ */ new Map();
        const n = docs.documents;
        this.#terms.forEach((s, i) => {
          const f = /* @__PURE__ */ new Map();
          for (const h of this.#held[i]) for (const [t, c] of h.tf) f.set(t, (f.get(t) ?? 0) + c);
          let fmax = 0;
          for (const c of f.values()) fmax = Math.max(fmax, c);
          if (fmax <= 0) return;
          for (const [e, c] of f) {
            if (exclude.has(e) || !isCandidateToken(e)) continue;
            const ne = Math.max(1, docs.df(e));
            if (n <= ne) continue;
            const w = c / fmax * Math.log(n / ne);
            const prev = best.get(e);
            if (prev === void 0 || w > prev.w) best.set(e, { term: e, w, from: s.term });
          }
        });
        return [...best.values()].sort((a, b) => b.w - a.w || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)).slice(0, Math.max(0, topN));
      }
    };
  }
});

// src/relevance/etfl/library.ts
import { readFileSync as readFileSync2, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
function libraryFromTopic(topic) {
  return {
    name: topic.name,
    threshold: topic.threshold,
    staticTerms: topic.terms.map((term) => ({ term, kind: null })),
    synonyms: /* @__PURE__ */ new Map(),
    mined: []
  };
}
function mergeLibraries(a, b) {
  const staticTerms = [...a.staticTerms];
  const seen = new Set(staticTerms.map((s) => s.term));
  for (const s of b.staticTerms) {
    if (!seen.has(s.term)) staticTerms.push(s);
    seen.add(s.term);
  }
  const synonyms = new Map(a.synonyms);
  for (const [concept, syns] of b.synonyms) synonyms.set(concept, [.../* @__PURE__ */ new Set([...synonyms.get(concept) ?? [], ...syns])]);
  return { name: a.name, threshold: a.threshold, staticTerms, synonyms, mined: [.../* @__PURE__ */ new Set([...a.mined, ...b.mined])] };
}
function parseSynonyms(text, source) {
  const out = /* @__PURE__ */ new Map();
  const lines2 = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines2.forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const tab = raw.indexOf("	");
    if (tab < 0) throw new TopicError(`${source}:${i + 1}: expected "concept<TAB>synonym,synonym,...", found no tab`);
    const concept = raw.slice(0, tab).trim();
    const syns = raw.slice(tab + 1).split(/[,，、]/).map((s) => s.trim()).filter((s) => s !== "");
    if (concept === "") throw new TopicError(`${source}:${i + 1}: empty concept before the tab`);
    if (syns.length === 0) throw new TopicError(`${source}:${i + 1}: concept "${concept}" has no synonyms`);
    addSynonyms(out, concept, syns);
  });
  return out;
}
function addSynonyms(into, concept, syns) {
  const list = into.get(concept) ?? [];
  for (const s of syns) if (s !== concept && !list.includes(s)) list.push(s);
  into.set(concept, list);
}
function parseTopicLibrary(json, source, readSynonyms) {
  const bad = (what) => {
    throw new TopicError(`${source}: ${what}`);
  };
  if (typeof json !== "object" || json === null || Array.isArray(json)) bad("expected a JSON object");
  const o = json;
  const staticTerms = [];
  const seen = /* @__PURE__ */ new Set();
  const push = (term, kind) => {
    if (!seen.has(term)) staticTerms.push({ term, kind });
    seen.add(term);
  };
  const stringList = (v, where) => {
    if (!Array.isArray(v)) bad(`${where} must be an array of strings`);
    return v.map((t, i) => {
      if (typeof t !== "string" || t.trim() === "") bad(`${where}[${i}] must be a non-empty string`);
      return t.trim();
    });
  };
  if (o.kinds !== void 0) {
    if (typeof o.kinds !== "object" || o.kinds === null || Array.isArray(o.kinds)) bad('"kinds" must be an object {"actors", "domain", "cues"}');
    for (const key of Object.keys(o.kinds)) {
      if (!TERM_KINDS.includes(key)) bad(`"kinds" has unknown kind "${key}" (known: ${TERM_KINDS.join(", ")})`);
    }
  }
  const kinds = o.kinds ?? {};
  const typed = TERM_KINDS.flatMap((k) => kinds[k] === void 0 ? [] : stringList(kinds[k], `"kinds"."${k}"`).map((t) => [t, k]));
  const base = parseTopic({ ...o, terms: o.terms === void 0 && typed.length > 0 ? typed.map(([t]) => t) : o.terms }, source);
  if (o.terms !== void 0) for (const t of base.terms) push(t, null);
  for (const [t, k] of typed) {
    const i = staticTerms.findIndex((s) => s.term === t);
    if (i >= 0 && staticTerms[i].kind === null) staticTerms[i] = { term: t, kind: k };
    else push(t, k);
  }
  const synonyms = /* @__PURE__ */ new Map();
  if (typeof o.synonyms === "string") {
    if (o.synonyms.trim() === "") bad('"synonyms" must name a file or be an object');
    const file = path.resolve(path.dirname(source), o.synonyms);
    for (const [c, s] of parseSynonyms(readSynonyms(file), file)) addSynonyms(synonyms, c, s);
  } else if (o.synonyms !== void 0) {
    if (typeof o.synonyms !== "object" || o.synonyms === null || Array.isArray(o.synonyms)) {
      bad('"synonyms" must be a file path or an object {"concept": ["synonym", ...]}');
    }
    for (const [concept, list] of Object.entries(o.synonyms)) {
      if (concept.trim() === "") bad('"synonyms" has an empty concept');
      addSynonyms(synonyms, concept.trim(), stringList(list, `"synonyms"."${concept}"`));
    }
  }
  const mined = [];
  if (o.mined !== void 0) {
    if (!Array.isArray(o.mined)) bad('"mined" must be an array');
    o.mined.forEach((m, i) => {
      const term = typeof m === "string" ? m : typeof m === "object" && m !== null ? m.term : void 0;
      if (typeof term !== "string" || term.trim() === "") bad(`"mined"[${i}] must be a non-empty string or {"term": string}`);
      if (!mined.includes(term.trim())) mined.push(term.trim());
    });
  }
  return { name: base.name, threshold: base.threshold, staticTerms, synonyms, mined };
}
function parseJson(text, file) {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw new TopicError(`${file}: invalid JSON: ${err.message}`, { cause: err });
  }
}
function unreadable(file, err) {
  return new TopicError(`cannot read ${file}: ${err.message}`, { cause: err });
}
function tooBig(file, size) {
  return size > MAX_SYNONYMS_BYTES ? new TopicError(`${file}: ${size} bytes, more than the ${MAX_SYNONYMS_BYTES} a synonyms file may have`) : null;
}
function loadTopicLibrarySync(file) {
  let text;
  try {
    text = readFileSync2(file, "utf8");
  } catch (err) {
    throw unreadable(file, err);
  }
  return parseTopicLibrary(parseJson(text, file), file, (syn) => {
    try {
      const big = tooBig(syn, statSync(syn).size);
      if (big) throw big;
      return readFileSync2(syn, "utf8");
    } catch (err) {
      throw err instanceof TopicError ? err : unreadable(syn, err);
    }
  });
}
async function loadTopicLibrary(file) {
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw unreadable(file, err);
  }
  const json = parseJson(text, file);
  const ref = json?.synonyms;
  let synText = "";
  if (typeof ref === "string" && ref.trim() !== "") {
    const syn = path.resolve(path.dirname(file), ref);
    try {
      const big = tooBig(syn, (await stat(syn)).size);
      if (big) throw big;
      synText = await readFile(syn, "utf8");
    } catch (err) {
      throw err instanceof TopicError ? err : unreadable(syn, err);
    }
  }
  return parseTopicLibrary(json, file, () => synText);
}
function normal(s) {
  return s.normalize("NFKC").toLowerCase();
}
function isEdge(ch) {
  return WORD_CHAR.test(ch) && !HAN2.test(ch);
}
function charBefore(s, i) {
  const code = s.charCodeAt(i - 1);
  if (code >= 56320 && code <= 57343 && i >= 2) return s.slice(i - 2, i);
  return s[i - 1];
}
var TERM_KINDS, MAX_SYNONYMS_BYTES, WORD_CHAR, HAN2, FeatureLibrary;
var init_library = __esm({
  "src/relevance/etfl/library.ts"() {
    "use strict";
    init_errors();
    init_tokenize();
    init_topic();
    TERM_KINDS = ["actors", "domain", "cues"];
    MAX_SYNONYMS_BYTES = 16 * 1024 * 1024;
    WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
    HAN2 = new RegExp("\\p{Script=Han}", "u");
    FeatureLibrary = class {
      library;
      #segmenter;
      /** the synonyms, as a trie */
      #trie = { next: /* @__PURE__ */ new Map() };
      #synonymCount = 0;
      #mined;
      #model;
      #libraryTokens;
      /** Throws TopicError (FC_BAD_TOPIC) when no term leaves an indexable token. */
      constructor(library, opts = {}) {
        this.library = library;
        this.#segmenter = opts.segmenter;
        for (const [concept, syns] of library.synonyms) {
          const to = normal(concept);
          for (const syn of syns) {
            const from = normal(syn);
            if (from === "" || from === to) continue;
            let node = this.#trie;
            for (let i = 0; i < from.length; i++) {
              const c = from.charCodeAt(i);
              let child = node.next.get(c);
              if (child === void 0) node.next.set(c, child = { next: /* @__PURE__ */ new Map() });
              node = child;
            }
            if (node.rep !== void 0) continue;
            const chars = [...from];
            node.rep = { from, to, edgeEnd: isEdge(chars[chars.length - 1]) };
            this.#synonymCount++;
          }
        }
        this.#mined = [...library.mined];
        this.#model = this.#buildModel(opts.docFreq);
        this.#libraryTokens = this.#collectTokens();
      }
      /** `text` with every synonym replaced by its concept (see the module comment); NFKC + lower-cased when the library has synonyms, else unchanged. */
      substitute(text) {
        if (this.#synonymCount === 0) return text;
        const s = normal(text);
        let out = "";
        let last = 0;
        for (let i = 0; i < s.length; ) {
          const hit = this.#longestAt(s, i);
          if (hit === void 0) {
            i++;
            continue;
          }
          out += s.slice(last, i) + " " + hit.to + " ";
          i += hit.from.length;
          last = i;
        }
        return last === 0 ? s : out + s.slice(last);
      }
      /** The longest synonym starting at `i` of `s` whose word boundaries hold. */
      #longestAt(s, i) {
        let node = this.#trie.next.get(s.charCodeAt(i));
        if (node === void 0) return void 0;
        if (i > 0 && isEdge(String.fromCodePoint(s.codePointAt(i))) && WORD_CHAR.test(charBefore(s, i))) return void 0;
        let best;
        for (let j = i + 1; node !== void 0; j++) {
          const r = node.rep;
          if (r !== void 0 && !(r.edgeEnd && j < s.length && WORD_CHAR.test(String.fromCodePoint(s.codePointAt(j))))) best = r;
          if (j >= s.length) break;
          node = node.next.get(s.charCodeAt(j));
        }
        return best;
      }
      /** Tokens of `text` after concept substitution. */
      tokens(text) {
        return tokenize(this.substitute(text), { segmenter: this.#segmenter });
      }
      /** The term topic model (substituted terms; shares this library's DocFreq). */
      get model() {
        return this.#model;
      }
      /** Document frequencies of substituted tokens (count pages into it with addDocument). */
      get docFreq() {
        return this.#model.docFreq;
      }
      /** Mined terms in use (the file's, then replaced by setMined). */
      get mined() {
        return this.#mined;
      }
      /** Every token of a static term, concept, synonym or mined term (not worth mining again). */
      get libraryTokens() {
        return this.#libraryTokens;
      }
      /** Static terms with their (substituted) tokens, terms without an indexable token left out. */
      staticTokens() {
        return this.library.staticTerms.map((s) => ({ term: s.term, tokens: [...new Set(this.tokens(s.term))] })).filter((s) => s.tokens.length > 0);
      }
      /** Replaces the mined terms by `terms` (the file's mined terms are kept) and rebuilds the model. */
      setMined(terms) {
        this.#mined = [.../* @__PURE__ */ new Set([...this.library.mined, ...terms])];
        this.#model = this.#buildModel(this.#model.docFreq);
        this.#libraryTokens = this.#collectTokens();
      }
      /** Similarity in [0, 1] of substituted term counts to the library (TopicModel.similarity). */
      similarity(tf) {
        return this.#model.similarity(tf);
      }
      #terms() {
        const lib = this.library;
        const raw = [...lib.staticTerms.map((s) => s.term), ...lib.synonyms.keys(), ...this.#mined];
        return [...new Set(raw.map((t) => this.substitute(t).trim().replace(/\s+/g, " ")).filter((t) => t !== ""))];
      }
      #buildModel(docFreq) {
        const topic = { name: this.library.name, terms: this.#terms(), threshold: this.library.threshold };
        if (topic.terms.length === 0) throw new TopicError(`topic "${topic.name}": no terms`);
        return new TopicModel(topic, { segmenter: this.#segmenter, docFreq });
      }
      #collectTokens() {
        const out = /* @__PURE__ */ new Set();
        const texts = [...this.library.staticTerms.map((s) => s.term), ...this.library.synonyms.keys(), ...[...this.library.synonyms.values()].flat(), ...this.#mined];
        for (const t of texts) {
          for (const tok of tokenize(t, { segmenter: this.#segmenter })) out.add(tok);
          for (const tok of this.tokens(t)) out.add(tok);
        }
        return out;
      }
    };
  }
});

// src/relevance/scorers/etfl.ts
function numberParam(params, name, fallback, ok, what) {
  const v = params[name];
  if (v === void 0 || v === "") return fallback;
  const x = typeof v === "number" ? v : Number(v);
  if (!Number.isFinite(x) || !ok(x)) throw new UsageError(`etfl param ${name} must be ${what}, got ${JSON.stringify(v)}`);
  return x;
}
function createEtflScorer(ctx, library) {
  const p = ctx.params;
  const lambda = numberParam(p, "lambda", ETFL_DEFAULTS.lambda, unit, "a number in [0, 1]");
  const offTopicFactor = numberParam(p, "offTopicFactor", ETFL_DEFAULTS.offTopicFactor, unit, "a number in [0, 1]");
  const mineEvery = numberParam(p, "mineEvery", ETFL_DEFAULTS.mineEvery, count, "a non-negative integer");
  const mineTopN = numberParam(p, "mineTopN", ETFL_DEFAULTS.mineTopN, count, "a non-negative integer");
  const mineTopL = numberParam(p, "mineTopL", ETFL_DEFAULTS.mineTopL, positive, "a positive integer");
  const eta = numberParam(p, "eta", ctx.topic.topic.threshold, unit, "a number in [0, 1]");
  let lib = libraryFromTopic(ctx.topic.topic);
  const extra = library ?? libraryFile(p.libraryPath);
  if (extra !== null) lib = mergeLibraries(lib, extra);
  const segmenter = { name: "topic", cut: (text) => ctx.topic.tokens(text) };
  const features = new FeatureLibrary(lib, { segmenter, docFreq: new DocFreq(DOCFREQ_CAPACITY) });
  const baseTokens = new Set(features.libraryTokens);
  const miner = new TermMiner(features.staticTokens(), { topL: mineTopL, maxPageTerms: MINE_PAGE_TERMS });
  const cache = /* @__PURE__ */ new WeakMap();
  let scoredPages = 0;
  const relevanceOf = (page) => {
    const hit = cache.get(page);
    if (hit !== void 0) return hit.relevance;
    const s = scoreBlocks(page, features, lambda);
    cache.set(page, { relevance: s.relevance, tf: s.tf });
    return s.relevance;
  };
  return {
    name: "etfl",
    library: features,
    eta,
    get minerPages() {
      return miner.pages;
    },
    blockRelevance: relevanceOf,
    pageRelevance(page, _item) {
      const s = scoreBlocks(page, features, lambda);
      features.docFreq.addDistinct(s.tf.keys());
      cache.set(page, { relevance: s.relevance, tf: s.tf });
      return ctx.judge(page);
    },
    linkScore(link2, page, _pageRelevance) {
      const r = relevanceOf(page);
      const tf = termFreq(features.tokens(link2.anchor));
      termFreq(features.tokens(link2.context), CONTEXT_WEIGHT, tf);
      const score = r + features.similarity(tf);
      return r >= eta ? score : offTopicFactor * score;
    },
    observe(item) {
      const page = item.page;
      const s = page === void 0 ? void 0 : cache.get(page);
      if (page === void 0 || s === void 0) return;
      cache.delete(page);
      scoredPages++;
      if (s.relevance >= eta) miner.offer(s.tf);
      if (mineEvery > 0 && scoredPages % mineEvery === 0) {
        features.setMined(miner.mine(features.docFreq, baseTokens, mineTopN).map((m) => m.term));
      }
    }
  };
}
function libraryFile(v) {
  if (v === void 0 || v === "") return null;
  if (typeof v !== "string") throw new TopicError(`etfl param libraryPath must be a file path, got ${JSON.stringify(v)}`);
  return loadTopicLibrarySync(v);
}
var ETFL_DEFAULTS, MINE_PAGE_TERMS, DOCFREQ_CAPACITY, unit, count, positive;
var init_etfl = __esm({
  "src/relevance/scorers/etfl.ts"() {
    "use strict";
    init_errors();
    init_blocks();
    init_miner();
    init_library();
    init_vector();
    init_best_first();
    ETFL_DEFAULTS = {
      lambda: DEFAULT_LAMBDA,
      offTopicFactor: 0.1,
      mineEvery: 100,
      mineTopN: 10,
      mineTopL: 20
    };
    MINE_PAGE_TERMS = 300;
    DOCFREQ_CAPACITY = 1e5;
    unit = (x) => x >= 0 && x <= 1;
    count = (x) => Number.isInteger(x) && x >= 0;
    positive = (x) => Number.isInteger(x) && x >= 1;
  }
});

// src/relevance/graph/link-graph.ts
function largestK(values, n, k) {
  if (k <= 0) return new Int32Array(0);
  if (k >= n) return Int32Array.from({ length: n }, (_, i) => i);
  const work = values.slice(0, n);
  const cut = select(work, n - k);
  const out = new Int32Array(k);
  let m = 0;
  for (let i = 0; i < n && m < k; i++) if (values[i] > cut) out[m++] = i;
  for (let i = 0; i < n && m < k; i++) if (values[i] === cut) out[m++] = i;
  return out;
}
function smallestK(values, n, k) {
  if (k <= 0) return new Int32Array(0);
  if (k >= n) return Int32Array.from({ length: n }, (_, i) => i);
  const cut = select(values.slice(0, n), k - 1);
  const out = new Int32Array(k);
  let m = 0;
  for (let i = 0; i < n && m < k; i++) if (values[i] < cut) out[m++] = i;
  for (let i = 0; i < n && m < k; i++) if (values[i] === cut) out[m++] = i;
  return out;
}
function select(a, r) {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    const pivot = median3(a[lo], a[mid], a[hi]);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (r <= j) hi = j;
    else if (r >= i) lo = i;
    else return a[r];
  }
  return a[r];
}
function median3(x, y, z) {
  return Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
}
function hash2(s) {
  let a = 2166136261;
  let b = 16777619 ^ 2654435769;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619);
    b = Math.imul(b ^ c, 16777619);
  }
  return [a >>> 0, b >>> 0 | 1];
}
var EVICT_TO, LinkGraph, UrlFilter, CrawlGraph;
var init_link_graph = __esm({
  "src/relevance/graph/link-graph.ts"() {
    "use strict";
    EVICT_TO = 0.9;
    LinkGraph = class {
      maxNodes;
      maxEdges;
      src;
      dst;
      weight;
      #outDegree;
      #inDegree;
      #ids = /* @__PURE__ */ new Map();
      #urls = [];
      /** extra URLs (redirect targets) naming a node, only for nodes that have some */
      #aliases = /* @__PURE__ */ new Map();
      #free = [];
      #edgeCount = 0;
      #idLimit = 0;
      #live = 0;
      /** Throws RangeError on caps that are not integers or too small. */
      constructor(opts) {
        if (!Number.isInteger(opts.maxNodes) || opts.maxNodes < 2) throw new RangeError(`maxNodes must be an integer >= 2, got ${opts.maxNodes}`);
        if (!Number.isInteger(opts.maxEdges) || opts.maxEdges < 1) throw new RangeError(`maxEdges must be an integer >= 1, got ${opts.maxEdges}`);
        this.maxNodes = opts.maxNodes;
        this.maxEdges = opts.maxEdges;
        this.src = new Int32Array(opts.maxEdges);
        this.dst = new Int32Array(opts.maxEdges);
        this.weight = new Float32Array(opts.maxEdges);
        this.#outDegree = new Int32Array(opts.maxNodes);
        this.#inDegree = new Int32Array(opts.maxNodes);
      }
      /** Live nodes. */
      get size() {
        return this.#live;
      }
      /** Edges held. */
      get edgeCount() {
        return this.#edgeCount;
      }
      /** One past the highest id ever handed out (<= maxNodes). */
      get idLimit() {
        return this.#idLimit;
      }
      /** Id of `url` (or of the node it is an alias of), if it is a node. */
      id(url) {
        return this.#ids.get(url);
      }
      /** The URL a live node was created with; undefined for a free id. */
      url(id) {
        return this.#urls[id];
      }
      /** Is `id` a live node? */
      has(id) {
        return this.#urls[id] !== void 0;
      }
      outDegree(id) {
        return this.#outDegree[id];
      }
      inDegree(id) {
        return this.#inDegree[id];
      }
      /**
       * Id of `url`, creating the node when absent. Throws RangeError when the
       * graph is full (call `reserve` first).
       */
      add(url) {
        const known = this.#ids.get(url);
        if (known !== void 0) return known;
        if (this.size >= this.maxNodes) throw new RangeError(`link graph full (${this.maxNodes} nodes): reserve() before add()`);
        const id = this.#free.length > 0 ? this.#free.pop() : this.#idLimit++;
        this.#ids.set(url, id);
        this.#urls[id] = url;
        this.#live++;
        return id;
      }
      /** Lets `url` name node `id` too (e.g. the final URL of a redirect). No-op when `url` is already a node or `id` is not live. */
      alias(url, id) {
        if (this.#ids.has(url) || !this.has(id)) return;
        this.#ids.set(url, id);
        const list = this.#aliases.get(id);
        if (list === void 0) this.#aliases.set(id, [url]);
        else list.push(url);
      }
      /** Adds edge src -> dst with `weight`. Throws RangeError when the edge list is full (call `reserve` first). */
      addEdge(src, dst, weight = 1) {
        if (this.#edgeCount >= this.maxEdges) throw new RangeError(`link graph full (${this.maxEdges} edges): reserve() before addEdge()`);
        const e = this.#edgeCount++;
        this.src[e] = src;
        this.dst[e] = dst;
        this.weight[e] = weight;
        this.#outDegree[src]++;
        this.#inDegree[dst]++;
      }
      /**
       * Makes room for `nodes` more nodes and `edges` more edges. When that
       * would exceed a cap, evicts live nodes in increasing order of `key(id)`
       * (ties: lower id first) with all their edges, until nodes and edges are
       * at most 90% of their caps minus the room asked for. Returns the evicted
       * ids (possibly reused by the next `add`): the caller resets its
       * per-node state for them. Requests larger than a cap are clamped to it.
       */
      reserve(nodes, edges, key) {
        const needNodes = Math.min(nodes, this.maxNodes);
        const needEdges = Math.min(edges, this.maxEdges);
        if (this.size + needNodes <= this.maxNodes && this.#edgeCount + needEdges <= this.maxEdges) return new Int32Array(0);
        const nodeTarget = Math.max(0, Math.min(this.maxNodes - needNodes, Math.floor(this.maxNodes * EVICT_TO)));
        const edgeTarget = Math.max(0, Math.min(this.maxEdges - needEdges, Math.floor(this.maxEdges * EVICT_TO)));
        const live = new Int32Array(this.size);
        const liveKeys = new Float64Array(this.size);
        let n = 0;
        for (let id = 0; id < this.#idLimit; id++) {
          if (!this.has(id)) continue;
          const k = key(id);
          liveKeys[n] = Number.isNaN(k) ? -Infinity : k;
          live[n++] = id;
        }
        const lowest = (k) => smallestK(liveKeys, n, k).sort((a, b) => liveKeys[a] - liveKeys[b] || a - b);
        let order = lowest(Math.min(n, Math.max(64, n - nodeTarget)));
        const evicted = [];
        let nodesLeft = n;
        let edgesLeft = this.#edgeCount;
        for (let i = 0; i < n && (nodesLeft > nodeTarget || edgesLeft > edgeTarget); i++) {
          if (i === order.length) order = lowest(Math.min(n, 2 * order.length));
          const id = live[order[i]];
          evicted.push(id);
          nodesLeft--;
          edgesLeft -= this.#outDegree[id] + this.#inDegree[id];
        }
        this.#remove(evicted);
        if (this.#edgeCount + needEdges > this.maxEdges) {
          const more = this.reserve(nodes, edges, key);
          const all = new Int32Array(evicted.length + more.length);
          all.set(evicted);
          all.set(more, evicted.length);
          return all;
        }
        return Int32Array.from(evicted);
      }
      #remove(ids) {
        for (const id of ids) {
          this.#ids.delete(this.#urls[id]);
          for (const alias of this.#aliases.get(id) ?? []) this.#ids.delete(alias);
          this.#aliases.delete(id);
          this.#urls[id] = void 0;
          this.#free.push(id);
          this.#live--;
        }
        let kept = 0;
        for (let e = 0; e < this.#edgeCount; e++) {
          const s = this.src[e];
          const d = this.dst[e];
          if (this.has(s) && this.has(d)) {
            this.src[kept] = s;
            this.dst[kept] = d;
            this.weight[kept] = this.weight[e];
            kept++;
          } else {
            this.#outDegree[s]--;
            this.#inDegree[d]--;
          }
        }
        this.#edgeCount = kept;
      }
    };
    UrlFilter = class {
      #bits;
      #mask;
      #probes;
      /** `log2Bits` in [10, 30]. */
      constructor(log2Bits = 22, probes = 3) {
        if (!Number.isInteger(log2Bits) || log2Bits < 10 || log2Bits > 30) throw new RangeError(`log2Bits must be an integer in [10, 30], got ${log2Bits}`);
        this.#bits = new Uint32Array(2 ** (log2Bits - 5));
        this.#mask = 2 ** log2Bits - 1;
        this.#probes = probes;
      }
      add(url) {
        const [h1, h2] = hash2(url);
        for (let i = 0; i < this.#probes; i++) {
          const bit = h1 + i * h2 & this.#mask;
          this.#bits[bit >>> 5] |= 1 << (bit & 31);
        }
      }
      has(url) {
        const [h1, h2] = hash2(url);
        for (let i = 0; i < this.#probes; i++) {
          const bit = h1 + i * h2 & this.#mask;
          if ((this.#bits[bit >>> 5] & 1 << (bit & 31)) === 0) return false;
        }
        return true;
      }
    };
    CrawlGraph = class {
      graph;
      /** 1 for fetched pages */
      fetched;
      /** the frontier priority of a queued node as last known (NaN: unknown) */
      sent;
      #filter = new UrlFilter();
      #onEvict;
      #candidates;
      #deltas;
      constructor(opts, onEvict) {
        this.graph = new LinkGraph(opts);
        this.fetched = new Uint8Array(opts.maxNodes);
        this.sent = new Float64Array(opts.maxNodes).fill(NaN);
        this.#onEvict = onEvict;
        this.#candidates = new Int32Array(opts.maxNodes);
        this.#deltas = new Float64Array(opts.maxNodes);
      }
      /** Records that `urls` (a page and its redirect chain) were fetched. */
      markFetched(urls) {
        for (const url of urls) {
          this.#filter.add(url);
          const id = this.graph.id(url);
          if (id !== void 0) this.fetched[id] = 1;
        }
      }
      /**
       * The node of a fetched page, created when absent: the node of the first
       * of `urls` (requested URL first, then the final URL) that is one, else a
       * new node for the last; the others become aliases of it. Call `reserve`
       * first.
       */
      pageNode(urls) {
        let id;
        for (const url of urls) {
          id = this.graph.id(url);
          if (id !== void 0) break;
        }
        id ??= this.graph.add(urls[urls.length - 1]);
        for (const url of urls) this.graph.alias(url, id);
        this.fetched[id] = 1;
        return id;
      }
      /** The node of a link target, created when absent (fetched if the filter says so). Call `reserve` first. */
      target(url) {
        const known = this.graph.id(url);
        if (known !== void 0) return known;
        const id = this.graph.add(url);
        this.fetched[id] = this.#filter.has(url) ? 1 : 0;
        return id;
      }
      /** The frontier keeps the best score a URL was queued with: so does `sent`. */
      queued(id, score) {
        if (!(this.sent[id] >= score)) this.sent[id] = score;
      }
      /** LinkGraph.reserve, resetting the per-node state of evicted ids (here and through onEvict). */
      reserve(nodes, edges, key) {
        for (const id of this.graph.reserve(nodes, edges, key)) {
          this.fetched[id] = 0;
          this.sent[id] = NaN;
          this.#onEvict(id);
        }
      }
      /**
       * New priorities for queued nodes: `score(id)` for every live, unfetched
       * node with a known priority that differs from it by more than `epsilon`
       * and where the old or the new priority is at least `floor` (a move
       * between two priorities below it can wait: Scorer.rescore); the `limit`
       * largest differences when there are more. `sent` is updated for those
       * returned, so a node left out stays a candidate. O(maxNodes).
       */
      changes(score, epsilon, limit, floor = -Infinity) {
        const g = this.graph;
        let m = 0;
        for (let id = 0; id < g.idLimit; id++) {
          if (this.fetched[id] === 1 || !g.has(id) || Number.isNaN(this.sent[id])) continue;
          const s = score(id);
          const diff = Math.abs(s - this.sent[id]);
          if (!Number.isFinite(s) || !(diff > epsilon) || s < floor && this.sent[id] < floor) continue;
          this.#candidates[m] = id;
          this.#deltas[m] = diff;
          m++;
        }
        const out = [];
        for (const i of largestK(this.#deltas, m, limit)) {
          const id = this.#candidates[i];
          const s = score(id);
          this.sent[id] = s;
          out.push({ url: g.url(id), score: s });
        }
        return out;
      }
    };
  }
});

// src/relevance/graph/vector-pool.ts
var VectorPool;
var init_vector_pool = __esm({
  "src/relevance/graph/vector-pool.ts"() {
    "use strict";
    VectorPool = class {
      #free = [];
      #keep;
      /** Keeps at most `keep` vectors (the most recently given). */
      constructor(keep = 8) {
        this.#keep = keep;
      }
      /** A zeroed vector of length n: a pooled one when one has that length. */
      take(n) {
        for (let i = this.#free.length - 1; i >= 0; i--) {
          if (this.#free[i].length === n) return this.#free.splice(i, 1)[0].fill(0);
        }
        return new Float64Array(n);
      }
      /** Give vectors back for later `take`s; the caller must not use them after. */
      give(...vs) {
        for (const v of vs) if (!this.#free.includes(v)) this.#free.push(v);
        if (this.#free.length > this.#keep) this.#free.splice(0, this.#free.length - this.#keep);
      }
      /** Vectors held now. */
      get size() {
        return this.#free.length;
      }
    };
  }
});

// src/relevance/graph/hits.ts
function hits(graph, prev, opts = {}) {
  const maxIter = opts.iterations ?? 20;
  const tol = opts.tol ?? 1e-6;
  const pool = opts.buffers ?? new VectorPool();
  const n = graph.idLimit;
  const E = graph.edgeCount;
  const { src, dst } = graph;
  const init = n > 0 ? 1 / Math.sqrt(n) : 0;
  let a = start(pool.take(n), prev?.authority, init);
  let h = start(pool.take(n), prev?.hub, init);
  if (prev !== null && opts.buffers !== void 0) pool.give(prev.authority, prev.hub);
  if (!hasMass(h, src, E)) h.fill(1);
  let na = pool.take(n);
  let nh = pool.take(n);
  const tolMax = opts.tolMax ?? 0;
  let iterations = 0;
  let delta = Infinity;
  let maxChange = Infinity;
  while (iterations < maxIter && E > 0) {
    for (let e = 0; e < E; e++) na[dst[e]] += h[src[e]];
    for (let e = 0; e < E; e++) nh[src[e]] += na[dst[e]];
    const ka = scaleToUnit(na);
    const kh = scaleToUnit(nh);
    delta = 0;
    let da = 0;
    let dh = 0;
    let ma = 0;
    let mh = 0;
    for (let i = 0; i < n; i++) {
      const x = na[i] * ka;
      const y = nh[i] * kh;
      const dx = Math.abs(x - a[i]);
      const dy = Math.abs(y - h[i]);
      delta += dx + dy;
      if (dx > da) da = dx;
      if (dy > dh) dh = dy;
      if (x > ma) ma = x;
      if (y > mh) mh = y;
      na[i] = x;
      nh[i] = y;
      a[i] = 0;
      h[i] = 0;
    }
    [a, na] = [na, a];
    [h, nh] = [nh, h];
    iterations++;
    maxChange = Math.max(ma > 0 ? da / ma : 0, mh > 0 ? dh / mh : 0);
    if (delta < tol || maxChange < tolMax) break;
  }
  if (E === 0) {
    a.fill(0);
    h.fill(0);
    delta = 0;
    maxChange = 0;
  }
  pool.give(na, nh);
  return { authority: a, hub: h, iterations, delta, maxChange };
}
function start(v, prev, init) {
  if (prev === void 0) return v.fill(1);
  const n = v.length;
  for (let i = 0; i < n; i++) {
    const x = i < prev.length ? prev[i] : NaN;
    v[i] = x >= 0 ? x : init;
  }
  return v;
}
function hasMass(h, src, E) {
  for (let e = 0; e < E; e++) if (h[src[e]] > 0) return true;
  return false;
}
function scaleToUnit(v) {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return s === 0 ? 1 : 1 / Math.sqrt(s);
}
var init_hits = __esm({
  "src/relevance/graph/hits.ts"() {
    "use strict";
    init_vector_pool();
  }
});

// src/relevance/scorers/hits.ts
function roundIterations(params, edges, visitsPerEdge, warmStart) {
  if (!warmStart || params.maxWork <= 0 || edges <= 0) return params.iterations;
  return Math.min(params.iterations, Math.max(1, Math.floor(params.maxWork / (edges * visitsPerEdge))));
}
function graphParams(num2) {
  const maxNodes = num2("maxNodes", { min: 10, integer: true });
  const maxEdges = num2("maxEdges", { min: 10, integer: true });
  return {
    p: num2("p", { min: 1, integer: true }),
    threshold: num2("threshold", { min: 0, max: 1 }),
    iterations: num2("iterations", { min: 1, integer: true }),
    tol: num2("tol", { min: 0 }),
    warm: num2("warm", { min: 0, max: 1, integer: true }) === 1,
    maxNodes,
    maxEdges,
    maxOutEdges: Math.min(num2("maxOutEdges", { min: 1, integer: true }), Math.floor(maxNodes / 10), Math.floor(maxEdges / 10)),
    maxRescore: num2("maxRescore", { min: 0, integer: true }),
    epsilon: num2("epsilon", { min: 0 }),
    maxWork: num2("maxWork", { min: 0 })
  };
}
function numberParam2(ctx, strategy, name, fallback, { min = -Infinity, max = Infinity, integer = false } = {}) {
  const raw = ctx.params[name];
  if (raw === void 0) return fallback;
  const v = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isFinite(v) || v < min || v > max || integer && !Number.isInteger(v)) {
    throw new UsageError(`${strategy}: parameter ${name} must be ${integer ? "an integer" : "a number"} in [${min}, ${max}], got ${JSON.stringify(raw)}`);
  }
  return v;
}
function itemUrls(item) {
  const urls = [item.entry.url, ...item.fetch?.redirects ?? []];
  if (item.fetch) urls.push(item.fetch.finalUrl);
  return [...new Set(urls)];
}
function pageCanonicalizer() {
  const perPage = /* @__PURE__ */ new WeakMap();
  return (page, href) => {
    let canonicalOf = perPage.get(page);
    if (canonicalOf === void 0) perPage.set(page, canonicalOf = canonicalizer());
    return canonicalOf(href);
  };
}
function createHitsScorer(ctx) {
  const num2 = (name, opts) => numberParam2(ctx, "hits", name, HITS_DEFAULTS[name], opts);
  const unit2 = { min: 0, max: 1 };
  const A = num2("A", unit2);
  const B = num2("B", unit2);
  const C = num2("C", unit2);
  if (Math.abs(A + B + C - 1) > 1e-6) throw new UsageError(`hits: parameters A + B + C must be 1, got ${A} + ${B} + ${C}`);
  const alpha = num2("alpha", { min: 0 });
  const beta = num2("beta", { min: 0 });
  if (!(beta < alpha)) throw new UsageError(`hits: parameter beta must be below alpha, got alpha ${alpha}, beta ${beta}`);
  const params = graphParams(num2);
  const { p, threshold, tol, warm, maxNodes, maxEdges, maxOutEdges, maxRescore, epsilon } = params;
  const tolMax = num2("tolMax", { min: 0 });
  let authority = new Float64Array(0);
  let hub = new Float64Array(0);
  let parentHub = new Float64Array(0);
  let maxAuthority = 0;
  let maxHub = 0;
  const buffers = new VectorPool();
  const base = new Float64Array(maxNodes);
  const crawl2 = new CrawlGraph({ maxNodes, maxEdges }, (id) => {
    base[id] = 0;
    if (id < authority.length) {
      authority[id] = NaN;
      hub[id] = NaN;
      parentHub[id] = 0;
    }
  });
  const { graph } = crawl2;
  const sims = /* @__PURE__ */ new WeakMap();
  let pages = 0;
  let relevantPages = 0;
  let lastRound = 0;
  let rounds = 0;
  let iterationsRun = 0;
  let active = false;
  const anchorSim = (anchor, context) => ctx.model !== null ? ctx.model.linkProbability(anchor, context) : anchorSimilarity(ctx.topic, anchor, context);
  const normAuthority = (id) => id < authority.length && authority[id] > 0 ? authority[id] / maxAuthority : 0;
  const normParentHub = (id) => id < parentHub.length && parentHub[id] > 0 ? parentHub[id] / maxHub : 0;
  const fused = (id) => base[id] + C * (alpha * normAuthority(id) + beta * normParentHub(id));
  const evictionKey = (id) => {
    if (graph.outDegree(id) > 0) return 10 + (id < hub.length && hub[id] > 0 ? hub[id] / maxHub : 0);
    if (crawl2.fetched[id] === 1) return C * alpha * normAuthority(id);
    return fused(id);
  };
  const canonicalOf = pageCanonicalizer();
  return {
    name: "hits",
    pageRelevance: (page) => ctx.judge(page),
    linkScore(link2, page, pageRelevance, canonical) {
      const rel = Number.isFinite(pageRelevance) ? Math.max(0, pageRelevance) : 0;
      const sim = anchorSim(link2.anchor, link2.context);
      const url = rel >= threshold || active ? canonical ?? canonicalOf(page, link2.url) : null;
      if (rel >= threshold && url !== null) {
        let cache = sims.get(page);
        if (cache === void 0) sims.set(page, cache = /* @__PURE__ */ new Map());
        if (!(cache.get(url) >= sim)) cache.set(url, sim);
      }
      if (!active) return A * (rel + sim);
      const id = url === null ? void 0 : graph.id(url);
      const structure = id === void 0 ? 0 : alpha * normAuthority(id) + beta * normParentHub(id);
      return A * (rel + B * sim) + C * structure;
    },
    observe(item, links) {
      pages++;
      crawl2.markFetched(itemUrls(item));
      const rel = item.relevance ?? 0;
      if (item.error !== void 0 || item.page === void 0 || rel < threshold) {
        for (const link2 of links) {
          const id = graph.id(link2.url);
          if (id !== void 0) crawl2.queued(id, link2.score);
        }
        return;
      }
      relevantPages++;
      const edges = Math.min(maxOutEdges, links.reduce((n, l) => n + (l.score >= 0 ? 1 : 0), 0));
      crawl2.reserve(1 + edges, edges, evictionKey);
      const page = crawl2.pageNode(itemUrls(item));
      const fresh = graph.outDegree(page) === 0;
      const cache = sims.get(item.page);
      let taken = 0;
      for (const link2 of links) {
        if (link2.score < 0 || taken >= edges) {
          const id2 = graph.id(link2.url);
          if (id2 !== void 0) crawl2.queued(id2, link2.score);
          continue;
        }
        taken++;
        const id = crawl2.target(link2.url);
        if (id === page) continue;
        const sim = cache?.get(link2.url) ?? anchorSim(link2.anchor, link2.context);
        base[id] = Math.max(base[id], A * (rel + B * sim));
        crawl2.queued(id, link2.score);
        if (fresh) graph.addEdge(page, id);
      }
    },
    stats: () => ({ pages, rounds, iterations: iterationsRun, nodes: graph.size, edges: graph.edgeCount }),
    rescore(_frontier, floor = -Infinity) {
      if (pages - lastRound < p) return null;
      lastRound = pages;
      if (relevantPages < p) return null;
      active = true;
      rounds++;
      const prev = warm && authority.length > 0 ? { authority, hub } : null;
      const iterations = roundIterations(params, graph.edgeCount, 2, prev !== null);
      const r = hits(graph, prev, { iterations, tol, tolMax: prev === null ? 0 : tolMax, buffers });
      iterationsRun += r.iterations;
      authority = r.authority;
      hub = r.hub;
      if (parentHub.length === authority.length) parentHub.fill(0);
      else parentHub = new Float64Array(authority.length);
      for (let e = 0; e < graph.edgeCount; e++) {
        const h = hub[graph.src[e]];
        const d = graph.dst[e];
        if (h > parentHub[d]) parentHub[d] = h;
      }
      maxAuthority = maxOf(authority);
      maxHub = maxOf(hub);
      const updates = crawl2.changes(fused, epsilon, maxRescore, floor);
      return updates.length > 0 ? updates : null;
    }
  };
}
function maxOf(v) {
  let m = 0;
  for (let i = 0; i < v.length; i++) if (v[i] > m) m = v[i];
  return m;
}
var GRAPH_DEFAULTS, HITS_DEFAULTS;
var init_hits2 = __esm({
  "src/relevance/scorers/hits.ts"() {
    "use strict";
    init_errors();
    init_link_graph();
    init_hits();
    init_vector_pool();
    init_canonical();
    init_best_first();
    GRAPH_DEFAULTS = {
      /** relevance at or above this makes a page relevant */
      threshold: 0.2,
      /** power iterations per round at most */
      iterations: 10,
      /** a round stops early when the L1 change of one iteration is below this */
      tol: 1e-4,
      /** 1: a round starts from the previous round's values; 0: cold start, as in the papers (for comparison) */
      warm: 1,
      /** cap on graph nodes */
      maxNodes: 5e4,
      /** cap on graph edges */
      maxEdges: 1e5,
      /** edges taken from one page at most (its first links) */
      maxOutEdges: 200,
      /**
       * new priorities handed out per round at most (2 per page of a round).
       * Each one moves a frontier entry in the store: over 15,000 synthetic
       * pages ipagerank cost 1.75× best-first's CPU at 2,000 per 100-page round
       * and 1.06× at 200, with WebKB's pages-to-recall within 1% (BENCHMARKS.md).
       * Only moves that reach the frontier head's floor count (Scorer.rescore):
       * on the synthetic web that cut ipagerank's moves by a third and its
       * CPU per page by 8% at 50,000 pages (BENCHMARKS.md, 2026-11-26)
       */
      maxRescore: 200,
      /** a queued URL is re-scored only when its value moved by more than this */
      epsilon: 1e-3,
      /**
       * edge visits per warm-started round at most: a round runs
       * min(iterations, maxWork / (edges · visits per iteration)), at least 1,
       * iterations (roundIterations); 0: off. A HITS iteration visits every
       * edge twice, an IPageRank one once, so hits keeps all 10 iterations up
       * to 25,000 edges and ipagerank up to 50,000; at the 100,000-edge cap a
       * hits round runs 2 (7.8 to 2.8 ms), and the links' structure terms stay
       * as close to HITS' fixed point as with 10 (bench/hits-convergence.ts,
       * BENCHMARKS.md): warm starts carry the iterations over from round to
       * round, and 100 pages change a capped graph little. WebKB's crawl graphs
       * stay far below (hits: 6,200 edges)
       */
      maxWork: 5e5
    };
    HITS_DEFAULTS = {
      /** weight of the text part (A + B + C = 1) */
      A: 0.4,
      /** weight of the anchor similarity inside the text part */
      B: 0.3,
      /** weight of the link-structure part */
      C: 0.3,
      /** weight of Authority(i) (alpha > beta) */
      alpha: 0.7,
      /** weight of Hub(i) */
      beta: 0.3,
      /** round length in fetched pages; also the number of relevant pages before HITS starts */
      p: 100,
      /**
       * a warm-started round also stops once no authority or hub value,
       * divided by the largest, moved by more than this in one iteration (0:
       * off); a cold start runs to `tol` or `iterations`. Off by default: 1e-3
       * made a round at 48,000 nodes a third as costly (bench/graph-bench.ts,
       * 6.4 to 2.2 ms) with WebKB's pages to 80% unchanged, but the early
       * harvest fell (student harvest@200 26% to 19%, faculty harvest@500 14%
       * to 8%), and 1e-4 did the same: small steps early in a crawl do not
       * mean the vectors are near their fixed point
       */
      tolMax: 0,
      ...GRAPH_DEFAULTS
    };
  }
});

// src/relevance/graph/ipagerank.ts
function ipagerank(graph, prev, opts = {}) {
  const d = opts.damping ?? DAMPING;
  if (!(d > 0 && d < 1)) throw new RangeError(`damping must be in (0, 1), got ${d}`);
  const maxIter = opts.iterations ?? 20;
  const tol = opts.tol ?? 1e-6;
  const n = graph.idLimit;
  const E = graph.edgeCount;
  const { src, dst, weight } = graph;
  const base = 1 - d;
  const pool = opts.buffers ?? new VectorPool();
  const even = opts.evenSplit === true;
  const outWeight = pool.take(n);
  const outCount = pool.take(n);
  for (let e = 0; e < E; e++) {
    outWeight[src[e]] += Math.max(0, weight[e]);
    outCount[src[e]]++;
  }
  const share = pool.take(E);
  for (let e = 0; e < E; e++) {
    const s = src[e];
    share[e] = outWeight[s] > 0 ? d * Math.max(0, weight[e]) / outWeight[s] : even ? d / outCount[s] : 0;
  }
  let x = pool.take(n);
  for (let i = 0; i < n; i++) {
    const v = prev !== null && i < prev.length ? prev[i] : NaN;
    x[i] = v >= 0 ? v : base;
  }
  if (prev !== null && opts.buffers !== void 0) pool.give(prev);
  let next = pool.take(n);
  let iterations = 0;
  let delta = 0;
  while (iterations < maxIter) {
    next.fill(base);
    for (let e = 0; e < E; e++) next[dst[e]] += x[src[e]] * share[e];
    delta = 0;
    for (let i = 0; i < n; i++) delta += Math.abs(next[i] - x[i]);
    [x, next] = [next, x];
    iterations++;
    if (delta < tol) break;
  }
  pool.give(outWeight, outCount, share, next);
  return { rank: x, iterations, delta };
}
var DAMPING;
var init_ipagerank = __esm({
  "src/relevance/graph/ipagerank.ts"() {
    "use strict";
    init_vector_pool();
    DAMPING = 0.85;
  }
});

// src/relevance/scorers/ipagerank.ts
function createIPageRankScorer(ctx) {
  const num2 = (name, opts) => numberParam2(ctx, "ipagerank", name, IPAGERANK_DEFAULTS[name], opts);
  const d = num2("d", { min: 0.01, max: 0.99 });
  const c = num2("c", { min: 0, max: 1 });
  const params = graphParams(num2);
  const { p, threshold, tol, warm, maxNodes, maxEdges, maxOutEdges, maxRescore, epsilon } = params;
  const relatedMinPages = num2("relatedMinPages", { min: 1 });
  const relatedLift = num2("relatedLift", { min: 1 });
  const relatedCapacity = num2("relatedCapacity", { min: 1, integer: true });
  const contextWeight = num2("contextWeight", { min: 0, max: 1 });
  const evenSplit = num2("evenSplit", { min: 0, max: 1, integer: true }) === 1;
  const fresh = 1 - d;
  let rank = new Float64Array(0);
  const buffers = new VectorPool();
  const crawl2 = new CrawlGraph({ maxNodes, maxEdges }, (id) => {
    if (id < rank.length) rank[id] = NaN;
  });
  const { graph } = crawl2;
  const rankOf = (id) => id < rank.length && rank[id] >= 0 ? rank[id] : fresh;
  const evictionKey = (id) => {
    if (graph.outDegree(id) > 0) return 1e9 + rankOf(id);
    return crawl2.fetched[id] === 1 ? -1 : rankOf(id);
  };
  const topicTerms = ctx.topic.termTokens;
  const allTitles = new DocFreq(relatedCapacity);
  const relevantTitles = new DocFreq(relatedCapacity);
  const related = (w) => {
    const r = relevantTitles.df(w);
    return r >= relatedMinPages && r * allTitles.documents >= relatedLift * allTitles.df(w) * relevantTitles.documents;
  };
  const relevanceWeight = (anchor, context) => {
    if (ctx.model !== null) return ctx.model.linkProbability(anchor, context);
    const words = new Set(ctx.topic.tokens(anchor));
    const inAnchor = wordsWeight(words);
    if (inAnchor === 1 || contextWeight === 0) return inAnchor;
    for (const w of ctx.topic.tokens(context)) words.add(w);
    return Math.max(inAnchor, contextWeight * wordsWeight(words));
  };
  const wordsWeight = (words) => {
    let best = 0;
    for (const term of topicTerms) {
      let present = 0;
      for (const t of term) if (words.has(t)) present++;
      if (present === term.length) return 1;
      if (present > 0) best = NEAR;
    }
    if (best === 0) {
      for (const w of words) if (related(w)) return NEAR;
    }
    return best;
  };
  const states = /* @__PURE__ */ new WeakMap();
  const stateOf = (page) => {
    let st = states.get(page);
    if (st === void 0) states.set(page, st = { rank: fresh, rw: /* @__PURE__ */ new Map(), best: /* @__PURE__ */ new Map(), sum: -1, count: 0 });
    return st;
  };
  const rwOf = (st, link2) => {
    let rw = st.rw.get(link2);
    if (rw === void 0) st.rw.set(link2, rw = relevanceWeight(link2.anchor, link2.context));
    return rw;
  };
  const canonicalOf = pageCanonicalizer();
  let pages = 0;
  let lastRound = 0;
  let rounds = 0;
  let iterationsRun = 0;
  return {
    name: "ipagerank",
    pageRelevance(page, item) {
      const st = stateOf(page);
      for (const url of itemUrls(item)) {
        const id = graph.id(url);
        if (id !== void 0) {
          st.rank = rankOf(id);
          break;
        }
      }
      return ctx.judge(page);
    },
    linkScore(link2, page, _pageRelevance, canonical) {
      const st = stateOf(page);
      const rw = rwOf(st, link2);
      if (rw < c) return -1;
      if (st.sum < 0) {
        st.sum = 0;
        for (const l of page.links) {
          if (l.nofollow) continue;
          const w = rwOf(st, l);
          if (w < c) continue;
          st.sum += w;
          st.count++;
        }
      }
      const share = st.sum > 0 ? rw / st.sum : evenSplit ? 1 / Math.max(1, st.count) : 0;
      const url = canonical ?? canonicalOf(page, link2.url);
      if (url === null) return fresh + d * st.rank * share;
      if (!(st.best.get(url) >= rw)) st.best.set(url, rw);
      const id = graph.id(url);
      return (id === void 0 ? fresh : rankOf(id)) + d * st.rank * share;
    },
    observe(item, links) {
      pages++;
      const urls = itemUrls(item);
      crawl2.markFetched(urls);
      const page = item.page;
      if (page !== void 0) {
        const words = ctx.topic.tokens(`${page.blocks.title || page.title}
${page.blocks.heading}`);
        allTitles.addDocument(words);
        if ((item.relevance ?? 0) >= threshold) relevantTitles.addDocument(words);
      }
      const edges = item.error === void 0 && page !== void 0 ? Math.min(maxOutEdges, links.reduce((n, l) => n + (l.score >= 0 ? 1 : 0), 0)) : 0;
      if (edges === 0) {
        for (const link2 of links) {
          const id = graph.id(link2.url);
          if (id !== void 0) crawl2.queued(id, link2.score);
        }
        return;
      }
      const st = stateOf(page);
      crawl2.reserve(1 + edges, edges, evictionKey);
      const source = crawl2.pageNode(urls);
      const first = graph.outDegree(source) === 0;
      let taken = 0;
      for (const link2 of links) {
        if (link2.score < 0 || taken >= edges) {
          const id2 = graph.id(link2.url);
          if (id2 !== void 0) crawl2.queued(id2, link2.score);
          continue;
        }
        taken++;
        const id = crawl2.target(link2.url);
        if (id === source) continue;
        crawl2.queued(id, link2.score);
        if (first) graph.addEdge(source, id, st.best.get(link2.url) ?? relevanceWeight(link2.anchor, link2.context));
      }
    },
    stats: () => ({ pages, rounds, iterations: iterationsRun, nodes: graph.size, edges: graph.edgeCount }),
    rescore(_frontier, floor = -Infinity) {
      if (pages - lastRound < p) return null;
      lastRound = pages;
      rounds++;
      const prev = warm && rank.length > 0 ? rank : null;
      const r = ipagerank(graph, prev, { damping: d, iterations: roundIterations(params, graph.edgeCount, 1, prev !== null), tol, buffers, evenSplit });
      iterationsRun += r.iterations;
      rank = r.rank;
      const updates = crawl2.changes(rankOf, epsilon, maxRescore, floor);
      return updates.length > 0 ? updates : null;
    }
  };
}
var IPAGERANK_DEFAULTS, NEAR;
var init_ipagerank2 = __esm({
  "src/relevance/scorers/ipagerank.ts"() {
    "use strict";
    init_link_graph();
    init_ipagerank();
    init_vector_pool();
    init_vector();
    init_hits2();
    IPAGERANK_DEFAULTS = {
      /** damping factor */
      d: DAMPING,
      /** links with RW below this are pruned (0: none) */
      c: 0,
      /** round length in fetched pages */
      p: 100,
      /** a related word occurs in at least this many relevant pages (title/headings) */
      relatedMinPages: 3,
      /** ... and is at least this many times more frequent in relevant pages than in all */
      relatedLift: 2,
      /** tokens remembered per co-occurrence table */
      relatedCapacity: 5e4,
      /** sim of a word found only in the link's context, relative to the anchor's (1: the same) */
      contextWeight: 0.5,
      /** 1: a page whose links all have RW 0 passes its IPR evenly over them (plain PageRank) instead of none */
      evenSplit: 0,
      ...GRAPH_DEFAULTS
    };
    NEAR = 0.5;
  }
});

// src/relevance/scorers/explore.ts
function directoryOf(url) {
  const q = url.indexOf("?");
  const path13 = q < 0 ? url : url.slice(0, q);
  return path13.slice(0, path13.lastIndexOf("/") + 1);
}
function phi(z) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
function withExploration(inner, ctx, explore) {
  const num2 = (name, opts) => numberParam2(ctx, "explore", name, EXPLORE_DEFAULTS[name], opts);
  const start2 = Math.min(1, Math.max(0, explore));
  const maxShare = Math.max(start2, num2("exploreMax", { min: 0, max: 1 }));
  const minShare = start2 / 10;
  const gamma = num2("exploreGamma", { min: 0, max: 1 });
  const tailWindow = num2("tailWindow", { min: 1, integer: true });
  const tailDrop = num2("tailDrop", { min: 0, max: 1 });
  const tailMin = num2("tailMin", { min: 0, integer: true });
  const tailShare = num2("tailShare", { min: 0, max: 1 });
  const maxCandidates = num2("maxCandidates", { min: 1, integer: true });
  const maxNear = num2("maxNear", { min: 1, integer: true });
  const maxLifted = num2("maxLifted", { min: 1, integer: true });
  const nearFirst = num2("exploreNear", { min: 0, max: 1, integer: true }) === 1;
  const threshold = typeof ctx.params.threshold === "number" ? ctx.params.threshold : Number(ctx.params.threshold ?? 0.2);
  const depthOf = /* @__PURE__ */ new Map();
  const buckets = Array.from({ length: DEPTHS }, () => []);
  const heads = new Array(DEPTHS).fill(0);
  let slots = 0;
  const fetched = new Bloom(BLOOM_BITS);
  let near = [];
  const linksOf = new Lru(SIBLING_PAGES);
  const targetDirs = new Lru(TARGET_DIRS);
  const lifted = /* @__PURE__ */ new Map();
  const strategyArm = new Arm(gamma);
  const bfsArm = new Arm(gamma);
  const recent = new Uint8Array(tailWindow);
  let recentCount = 0;
  let recentRelevant = 0;
  let judged = 0;
  let relevantTotal = 0;
  let credit = 0;
  let tailCredit = 0;
  const pages = { strategy: 0, bfs: 0, near: 0 };
  const relevant = { strategy: 0, bfs: 0, near: 0 };
  const liftedCount = { bfs: 0, near: 0 };
  const epsilon = () => {
    const z = (bfsArm.mean - strategyArm.mean) / Math.sqrt(bfsArm.variance + strategyArm.variance);
    const p = phi(z);
    const e = p <= 0.5 ? start2 * 2 * p : start2 + (maxShare - start2) * (2 * p - 1);
    return Math.max(minShare, Math.min(maxShare, e));
  };
  const inTail = () => relevantTotal >= tailMin && recentCount >= tailWindow && recentRelevant / recentCount < tailDrop * (relevantTotal / judged);
  const compact = () => {
    slots = 0;
    for (let d = 0; d < DEPTHS; d++) {
      const live = buckets[d].slice(heads[d]).filter((u) => depthOf.get(u) === d);
      buckets[d] = live;
      heads[d] = 0;
      slots += live.length;
    }
  };
  const addCandidate = (url, depth) => {
    if (depthOf.has(url) || fetched.has(url)) return;
    const d = Math.min(DEPTHS - 1, Math.max(0, depth));
    if (depthOf.size >= maxCandidates) {
      let deepest = DEPTHS - 1;
      while (deepest > d && buckets[deepest].length === heads[deepest]) deepest--;
      if (deepest <= d) return;
      const b = buckets[deepest];
      while (b.length > heads[deepest]) {
        const u = b.pop();
        slots--;
        if (depthOf.get(u) === deepest) {
          depthOf.delete(u);
          break;
        }
      }
      if (depthOf.size >= maxCandidates) return;
    }
    depthOf.set(url, d);
    buckets[d].push(url);
    slots++;
    if (slots > 2 * maxCandidates) compact();
  };
  const pushNear = (url) => {
    if (fetched.has(url) || lifted.has(url)) return;
    near.push(url);
    if (near.length > 2 * maxNear) near = near.slice(near.length - maxNear);
  };
  const takeBfs = () => {
    for (let d = 0; d < DEPTHS; d++) {
      const b = buckets[d];
      while (heads[d] < b.length) {
        const u = b[heads[d]];
        heads[d]++;
        if (depthOf.get(u) === d) {
          depthOf.delete(u);
          if (!lifted.has(u) && !fetched.has(u)) return u;
        }
      }
      if (heads[d] > 0) {
        slots -= heads[d];
        b.length = 0;
        heads[d] = 0;
      }
    }
    return null;
  };
  const takeNear = () => {
    while (near.length > 0) {
      const u = near.pop();
      if (!fetched.has(u) && !lifted.has(u)) {
        depthOf.delete(u);
        return u;
      }
    }
    return null;
  };
  const lift = (url, lane, out) => {
    lifted.set(url, lane);
    if (lifted.size > maxLifted) lifted.delete(lifted.keys().next().value);
    liftedCount[lane]++;
    out.push({ url, score: LIFT_SCORE });
  };
  const wrapper = {
    name: inner.name,
    pageRelevance: (page, item) => inner.pageRelevance(page, item),
    linkScore: (link2, page, pageRelevance, url) => inner.linkScore(link2, page, pageRelevance, url),
    observe(item, links) {
      inner.observe?.(item, links);
      const urls = [item.entry.url, ...item.fetch?.redirects ?? []];
      let lane = "strategy";
      for (const u of urls) {
        fetched.add(u);
        depthOf.delete(u);
        const l = lifted.get(u);
        if (l !== void 0) {
          lane = l;
          lifted.delete(u);
        }
      }
      const isRelevant = item.page !== void 0 && (item.relevance ?? 0) >= threshold;
      if (item.page !== void 0) {
        pages[lane]++;
        if (isRelevant) relevant[lane]++;
        if (lane === "strategy") strategyArm.add(isRelevant);
        else if (lane === "bfs") bfsArm.add(isRelevant);
        judged++;
        if (isRelevant) relevantTotal++;
        const slot = judged % tailWindow;
        if (recentCount === tailWindow) recentRelevant -= recent[slot];
        else recentCount++;
        recent[slot] = isRelevant ? 1 : 0;
        recentRelevant += recent[slot];
      }
      for (const link2 of links) addCandidate(link2.url, link2.depth);
      const self = item.fetch?.finalUrl ?? item.entry.url;
      if (links.length > 0) linksOf.set(self, links.slice(0, SIBLING_LINKS).map((l) => l.url));
      if (isRelevant) {
        targetDirs.set(directoryOf(self), true);
        const parent = item.entry.parent;
        for (const u of (parent === null ? void 0 : linksOf.peek(parent)) ?? []) pushNear(u);
        for (const link2 of links) pushNear(link2.url);
      } else {
        for (const link2 of links) if (targetDirs.has(directoryOf(link2.url))) pushNear(link2.url);
      }
    },
    async rescore(frontier, floor) {
      const own = await inner.rescore?.(frontier, floor) ?? null;
      const out = own === null ? [] : own.filter((r) => !lifted.has(r.url));
      let share = epsilon();
      if (inTail()) {
        const nearShare = Math.max(tailShare, share);
        tailCredit += nearShare;
        while (tailCredit >= 1) {
          tailCredit -= 1;
          const n = takeNear();
          const u = n ?? takeBfs();
          if (u === null) break;
          lift(u, n !== null ? "near" : "bfs", out);
        }
        share = 0;
      }
      credit += share;
      while (credit >= 1) {
        credit -= 1;
        const n = nearFirst ? takeNear() : null;
        const u = n ?? takeBfs();
        if (u === null) break;
        lift(u, n !== null ? "near" : "bfs", out);
      }
      return out.length > 0 ? out : null;
    },
    exploreStats: () => ({
      epsilon: epsilon(),
      pages: { ...pages },
      relevant: { ...relevant },
      lifted: { ...liftedCount },
      tail: inTail(),
      sizes: { candidates: depthOf.size, candidateSlots: slots, near: near.length, lifted: lifted.size }
    })
  };
  const stats = inner.stats;
  if (typeof stats === "function") wrapper.stats = () => stats.call(inner);
  if (inner.readsQueuedText !== void 0) wrapper.readsQueuedText = inner.readsQueuedText;
  return wrapper;
}
var LIFT_SCORE, DEFAULT_EXPLORE, EXPLORE_DEFAULTS, DEPTHS, SIBLING_PAGES, SIBLING_LINKS, TARGET_DIRS, BLOOM_BITS, Bloom, Arm;
var init_explore = __esm({
  "src/relevance/scorers/explore.ts"() {
    "use strict";
    init_hits2();
    init_lru();
    LIFT_SCORE = 5e5;
    DEFAULT_EXPLORE = 0;
    EXPLORE_DEFAULTS = {
      /** the largest share of fetches the bfs lane may get */
      exploreMax: 0.9,
      /** per-arm discount of the bandit's counts (a window of about 1/(1 − gamma) pages) */
      exploreGamma: 0.98,
      /** 1: the exploration lane takes links near a target found first (siblings, the target's links), then BFS order; 0: BFS order only */
      exploreNear: 1,
      /** judged pages in the recent window of the tail test */
      tailWindow: 50,
      /** the tail starts when the window's harvest is below this × the crawl's */
      tailDrop: 0.5,
      /** relevant pages found before the tail test applies */
      tailMin: 5,
      /** share of fetches of the near lane in the tail, at least */
      tailShare: 0.5,
      maxCandidates: 2e4,
      maxNear: 5e3,
      maxLifted: 1e3
    };
    DEPTHS = 64;
    SIBLING_PAGES = 500;
    SIBLING_LINKS = 50;
    TARGET_DIRS = 2e3;
    BLOOM_BITS = 2 ** 23;
    Bloom = class {
      #bits;
      #mask;
      constructor(bits) {
        this.#bits = new Uint32Array(bits >>> 5);
        this.#mask = bits - 1;
      }
      #hashes(s) {
        let h1 = 2166136261;
        let h2 = 2538058380;
        for (let i = 0; i < s.length; i++) {
          const c = s.charCodeAt(i);
          h1 = Math.imul(h1 ^ c, 16777619);
          h2 = Math.imul(h2 ^ c, 1540483477);
          h2 ^= h2 >>> 15;
        }
        return [h1 >>> 0, (h2 | 1) >>> 0];
      }
      add(s) {
        const [a, b] = this.#hashes(s);
        for (let k = 0; k < 3; k++) {
          const bit = a + k * b & this.#mask;
          this.#bits[bit >>> 5] |= 1 << (bit & 31);
        }
      }
      has(s) {
        const [a, b] = this.#hashes(s);
        for (let k = 0; k < 3; k++) {
          const bit = a + k * b & this.#mask;
          if ((this.#bits[bit >>> 5] & 1 << (bit & 31)) === 0) return false;
        }
        return true;
      }
    };
    Arm = class {
      constructor(gamma) {
        this.gamma = gamma;
      }
      gamma;
      hits = 0;
      n = 0;
      add(relevant) {
        this.hits = this.hits * this.gamma + (relevant ? 1 : 0);
        this.n = this.n * this.gamma + 1;
      }
      get mean() {
        return (1 + this.hits) / (2 + this.n);
      }
      get variance() {
        const m = this.mean;
        return m * (1 - m) / (3 + this.n);
      }
    };
  }
});

// src/relevance/scorers/index.ts
var scorers_exports = {};
__export(scorers_exports, {
  createScorer: () => createScorer,
  knownStrategies: () => knownStrategies,
  needsModel: () => needsModel,
  relevanceThreshold: () => relevanceThreshold
});
function knownStrategies() {
  return Object.keys(FACTORIES);
}
function needsModel(name) {
  return NEEDS_MODEL.has(name);
}
function relevanceThreshold(topic, model, params = {}) {
  if (typeof params.threshold === "number") return params.threshold;
  if (model) return model.threshold ?? 0.5;
  return topic?.threshold ?? DEFAULT_THRESHOLD;
}
function createScorer(name, topic, opts = {}) {
  const factory = Object.hasOwn(FACTORIES, name) ? FACTORIES[name] : void 0;
  if (!factory) {
    throw new UsageError(`unknown strategy '${name}' (known: ${knownStrategies().join(", ")})`);
  }
  const model = opts.model ?? null;
  const terms = topic ?? (model ? { name: model.target, terms: [...model.terms], threshold: DEFAULT_THRESHOLD } : null);
  if (terms === null) throw new UsageError(`strategy ${name} needs --topic FILE or --model FILE`);
  const topicModel = new TopicModel(terms, { segmenter: opts.segmenter });
  const params = { threshold: relevanceThreshold(topic, model, opts.params), ...opts.params };
  const ctx = {
    topic: topicModel,
    model,
    judge: model ? (page) => model.pageProbability(page) : (page) => topicModel.judge(page),
    params
  };
  const explore = opts.explore ?? 0;
  if (!(explore >= 0 && explore <= 1)) throw new UsageError(`explore must be a number from 0 to 1, got ${JSON.stringify(opts.explore)}`);
  const scorer = factory(ctx);
  return explore > 0 ? withExploration(scorer, ctx, explore) : scorer;
}
var FACTORIES, NEEDS_MODEL;
var init_scorers = __esm({
  "src/relevance/scorers/index.ts"() {
    "use strict";
    init_errors();
    init_topic();
    init_bayes_kde();
    init_best_first();
    init_best_n_first();
    init_bfs();
    init_nb_link();
    init_online();
    init_context_graph();
    init_etfl();
    init_hits2();
    init_ipagerank2();
    init_explore();
    FACTORIES = {
      bfs: createBfsScorer,
      "best-first": createBestFirstScorer,
      "best-n-first": createBestNFirstScorer,
      "nb-link": createNbLinkScorer,
      "bayes-kde": createBayesKdeScorer,
      etfl: (ctx) => createEtflScorer(ctx),
      hits: createHitsScorer,
      ipagerank: createIPageRankScorer,
      online: createOnlineScorer,
      "context-graph": createContextGraphScorer
    };
    NEEDS_MODEL = /* @__PURE__ */ new Set(["nb-link", "bayes-kde", "context-graph"]);
  }
});

// src/stages/frontier-source.ts
function holdAtOrBelow(head, scheduler, inflight, share) {
  if (!(share > 0) || inflight.size === 0 || head.best === void 0 || head.scoreAt === void 0) return -Infinity;
  const best = head.best();
  if (best === void 0) return -Infinity;
  if (scheduler.waitEstimateMs(hostOfCanonical(best.entry.url), best.entry.url) > scheduler.typicalRequestMs) return -Infinity;
  const bound = head.scoreAt(1 - share);
  return bound < best.entry.score ? bound : -Infinity;
}
async function* frontierSource(opts) {
  const { head, scheduler, inflight, signal } = opts;
  const verdict = ({ entry }) => {
    if (inflight.has(entry.url)) return "skip";
    const host = hostOfCanonical(entry.url);
    if (!scheduler.ready(host)) return "skip";
    return scheduler.diverse(host) ? "take" : "fallback";
  };
  const unsubscribe = head.release === void 0 ? () => {
  } : scheduler.onRelease((host) => head.release(host));
  try {
    yield* pick(opts, verdict);
  } finally {
    unsubscribe();
  }
}
async function* pick(opts, verdict) {
  const { head, scheduler, inflight, signal } = opts;
  let takenInRound = 0;
  while (signal?.aborted !== true) {
    if (opts.roundSize !== void 0 && takenInRound >= opts.roundSize) {
      if (inflight.size > 0) {
        await inflight.wait(Infinity, signal);
        continue;
      }
      takenInRound = 0;
    }
    if (opts.pagesDone() + inflight.size >= opts.maxPages) {
      if (inflight.size === 0) return;
      await inflight.wait(Infinity, signal);
      continue;
    }
    const wakes = inflight.wakes;
    await head.refill();
    const hold = holdAtOrBelow(head, scheduler, inflight, opts.holdBack ?? 0);
    let picked = head.take(verdict, hold, scheduler);
    if (picked === null && hold === -Infinity) {
      if (head.size === 0 && head.complete && inflight.size === 0) return;
      if (await head.grow()) continue;
      picked = await head.scanBeyond(verdict);
    }
    if (picked !== null) {
      inflight.add(picked.entry.url);
      takenInRound++;
      scheduler.start(hostOfCanonical(picked.entry.url));
      const item = { entry: { ...picked.entry } };
      if (opts.issue !== void 0) item.ticket = opts.issue(item);
      yield item;
      continue;
    }
    await inflight.wait(Math.min(scheduler.msUntilNextReady(), head.waitMs?.() ?? Infinity), signal, wakes);
  }
}
var DEFAULT_HOLD_BACK;
var init_frontier_source = __esm({
  "src/stages/frontier-source.ts"() {
    "use strict";
    init_canonical();
    DEFAULT_HOLD_BACK = 0.5;
  }
});

// src/urls/traps.ts
function pathSegments(url) {
  const start2 = url.indexOf("/", url.indexOf("//") + 2);
  if (start2 < 0) return [];
  const q = url.indexOf("?", start2);
  const path13 = url.slice(start2, q < 0 ? void 0 : q);
  if (path13 === "/") return [];
  const segments = path13.slice(1).split("/");
  if (segments[segments.length - 1] === "") segments.pop();
  return segments;
}
function hasRepetition(segments, maxRepeat) {
  if (!Number.isFinite(maxRepeat)) return false;
  const n = segments.length;
  for (let k = 1; k * (maxRepeat + 1) <= n; k++) {
    const need = maxRepeat * k;
    let run = 0;
    for (let j = 0; j + k < n; j++) {
      run = segments[j] === segments[j + k] ? run + 1 : 0;
      if (run >= need) return true;
    }
  }
  return false;
}
function trapReason(url, limits = DEFAULT_TRAP_LIMITS) {
  if (url.length > limits.maxUrlLength) return "url-length";
  const segments = pathSegments(url);
  if (segments.length > limits.maxSegments) return "path-segments";
  if (hasRepetition(segments, limits.maxRepeat)) return "path-repetition";
  return null;
}
var DEFAULT_TRAP_LIMITS;
var init_traps = __esm({
  "src/urls/traps.ts"() {
    "use strict";
    DEFAULT_TRAP_LIMITS = Object.freeze({ maxRepeat: 2, maxSegments: 20, maxUrlLength: 2083 });
  }
});

// src/parse/collapse.ts
var Collapser;
var init_collapse = __esm({
  "src/parse/collapse.ts"() {
    "use strict";
    Collapser = class {
      constructor(out) {
        this.out = out;
      }
      out;
      sep = "";
      started = false;
      brk(line = false) {
        if (line) this.sep = "\n";
        else if (this.sep === "") this.sep = " ";
      }
      reset() {
        this.sep = "";
        this.started = false;
      }
      state() {
        return { sep: this.sep, started: this.started };
      }
      restore(s) {
        this.sep = s.sep;
        this.started = s.started;
      }
      add(s) {
        if (s.length === 0) return;
        let i = 0;
        let j = s.length;
        if (s.charCodeAt(0) === 32) {
          this.brk();
          i = 1;
        }
        const trailing = j > i && s.charCodeAt(j - 1) === 32;
        if (trailing) j--;
        if (i < j) {
          const body = i === 0 && j === s.length ? s : s.slice(i, j);
          this.out(this.started && this.sep !== "" ? this.sep + body : body);
          this.sep = "";
          this.started = true;
        }
        if (trailing) this.brk();
      }
    };
  }
});

// src/parse/utf16.ts
function isHigh(code) {
  return code >= 55296 && code <= 56319;
}
function isLow(code) {
  return code >= 56320 && code <= 57343;
}
function headEnd(s, n) {
  return n > 0 && n < s.length && isHigh(s.charCodeAt(n - 1)) && isLow(s.charCodeAt(n)) ? n - 1 : n;
}
function headOf(s, n) {
  return s.length <= n ? s : s.slice(0, headEnd(s, n));
}
var init_utf16 = __esm({
  "src/parse/utf16.ts"() {
    "use strict";
  }
});

// src/parse/main-text.ts
var MainText;
var init_main_text = __esm({
  "src/parse/main-text.ts"() {
    "use strict";
    init_collapse();
    init_utf16();
    MainText = class {
      constructor(max) {
        this.max = max;
        this.c = new Collapser((piece) => {
          const room = this.max - this.text.length;
          if (piece.length <= room) {
            this.text += piece;
          } else {
            this.text += headOf(piece, room).trimEnd();
            this.truncated = true;
          }
        });
      }
      max;
      text = "";
      truncated = false;
      c;
      mark() {
        return { length: this.text.length, truncated: this.truncated, collapser: this.c.state() };
      }
      restore(m) {
        if (this.text.length > m.length) this.text = this.text.slice(0, m.length);
        this.truncated = m.truncated;
        this.c.restore(m.collapser);
      }
      brk() {
        this.c.brk(true);
      }
      add(s) {
        if (!this.truncated) this.c.add(s);
      }
    };
  }
});

// src/parse/meta-refresh.ts
function refreshUrl(content) {
  const m = /^\s*[0-9.]+\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  if (m === null) return null;
  let url = m[1];
  const q = url[0];
  if (q === '"' || q === "'") {
    const end = url.indexOf(q, 1);
    url = end === -1 ? url.slice(1) : url.slice(1, end);
  }
  url = url.trim();
  return url === "" ? null : url;
}
var init_meta_refresh = __esm({
  "src/parse/meta-refresh.ts"() {
    "use strict";
  }
});

// src/parse/page-parser.ts
import { Parser } from "htmlparser2";
function isGenericTitle(title) {
  const t = (title ?? "").trim().replace(/\s+/g, " ").toLowerCase();
  return GENERIC_TITLES.has(t) || GENERIC_TITLE_PATTERNS.some((re) => re.test(t));
}
function ownCopy(s) {
  return s.length === 0 ? "" : (" " + s).slice(1);
}
function isSpace(c) {
  if (c <= 32) return c === 32 || c >= 9 && c <= 13;
  if (c < 160) return false;
  return c === 160 || c === 5760 || c >= 8192 && c <= 8202 || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288 || c === 65279;
}
function squeeze(s) {
  let spaces = 0;
  let clean = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isSpace(c)) continue;
    spaces++;
    if (c !== 32 || i > 0 && isSpace(s.charCodeAt(i - 1))) clean = false;
  }
  if (clean) return s;
  if (spaces === s.length) return " ";
  return s.replace(WS, " ");
}
function visibleLength(sq) {
  let n = sq.length;
  for (let i = sq.indexOf(" "); i !== -1; i = sq.indexOf(" ", i + 1)) n--;
  return n;
}
function isNofollow(rel) {
  return rel !== void 0 && rel.toLowerCase().split(/\s+/).includes("nofollow");
}
function cutBefore(b, n) {
  if (b.length <= n) return b;
  const start2 = isLow(b.charCodeAt(b.length - n)) ? b.length - n + 1 : b.length - n;
  let w = b.slice(start2);
  const cutWord = b.charCodeAt(start2 - 1) !== 32 && w.charCodeAt(0) !== 32;
  if (cutWord && w.includes(" ")) w = w.slice(w.indexOf(" ") + 1);
  return w;
}
function cutAfter(a, n) {
  if (a.length <= n) return a;
  const end = headEnd(a, n);
  let w = a.slice(0, end);
  const cutWord = a.charCodeAt(end) !== 32 && w.charCodeAt(w.length - 1) !== 32;
  if (cutWord && w.includes(" ")) w = w.slice(0, w.lastIndexOf(" "));
  return w;
}
var DEFAULT_MAX_LINKS, GENERIC_TITLES, GENERIC_TITLE_PATTERNS, BODY_PARAGRAPH_CHARS, TITLE_MAX_CHARS, MAX_NESTING, WS, TrailingSafeParser, RAW_TEXT, FOREIGN_PUSH, CappedParser, CappedText, SKIP, BLOCK_LEVEL, NAV_TAGS, NAV_ATTR, OTHER_TAGS, EMPH_TAGS, LIST_CONTAINERS, HEADING_LEVEL, PageParser;
var init_page_parser = __esm({
  "src/parse/page-parser.ts"() {
    "use strict";
    init_collapse();
    init_main_text();
    init_meta_refresh();
    init_utf16();
    DEFAULT_MAX_LINKS = 5e3;
    GENERIC_TITLES = /* @__PURE__ */ new Set([
      "",
      "untitled",
      "untitled document",
      "untitled page",
      "no title",
      "home",
      "home page",
      "homepage",
      "index",
      "welcome",
      "document",
      "new page",
      "default"
    ]);
    GENERIC_TITLE_PATTERNS = [/^index of\b/, /^new page \d+$/, /^(index|default|home)\.s?html?$/];
    BODY_PARAGRAPH_CHARS = 200;
    TITLE_MAX_CHARS = 150;
    MAX_NESTING = 512;
    WS = /\s+/g;
    TrailingSafeParser = class extends Parser {
      ontext(start2, endIndex) {
        if (start2 < 0) return;
        super.ontext(start2, endIndex);
      }
    };
    RAW_TEXT = /* @__PURE__ */ new Set(["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "plaintext"]);
    FOREIGN_PUSH = /* @__PURE__ */ new Set(["svg", "math", "mi", "mo", "mn", "ms", "mtext", "annotation-xml", "foreignObject", "desc", "title"]);
    CappedParser = class extends TrailingSafeParser {
      /** the open tag being read lies beyond the cap (it is not on the stack) */
      cappedTag = null;
      /** true while the `onopentag` callback of an element beyond the cap runs */
      beyondCap = false;
      /** elements opened beyond the cap so far */
      capped = 0;
      onStrayClose = null;
      /** the tag name htmlparser2 read last */
      lastTagName = "";
      constructor(...args) {
        super(...args);
        const p = this.internals;
        const read = p.readTagName.bind(this);
        p.readTagName = (start2, endIndex) => this.lastTagName = read(start2, endIndex);
      }
      get internals() {
        return this;
      }
      onopentagname(start2, endIndex) {
        const p = this.internals;
        const foreign = p.isInForeignContext();
        super.onopentagname(start2, endIndex);
        this.cappedTag = null;
        const name = p.tagname;
        if (name === "" || this.isVoidElement(name) || p.stack[0] !== name) return;
        const limit = !foreign && RAW_TEXT.has(name) ? MAX_NESTING + 1 : MAX_NESTING;
        if (p.stack.length <= limit) return;
        p.stack.shift();
        if (FOREIGN_PUSH.has(name)) p.foreignContext.shift();
        this.cappedTag = name;
        this.capped++;
      }
      onopentagend(endIndex) {
        const name = this.cappedTag;
        if (name === null) {
          super.onopentagend(endIndex);
          return;
        }
        this.cappedTag = null;
        this.beyondCap = true;
        try {
          super.onopentagend(endIndex);
        } finally {
          this.beyondCap = false;
        }
        this.internals.cbs.onclosetag?.(name, true);
      }
      onselfclosingtag(endIndex) {
        if (this.cappedTag !== null) this.onopentagend(endIndex);
        else super.onselfclosingtag(endIndex);
      }
      onclosetag(start2, endIndex) {
        const p = this.internals;
        const depth = p.stack.length;
        super.onclosetag(start2, endIndex);
        const name = this.lastTagName;
        if (p.stack.length === depth && !this.isVoidElement(name)) this.onStrayClose?.(name);
      }
    };
    CappedText = class {
      constructor(max) {
        this.max = max;
        this.c = new Collapser((piece) => {
          const room = this.max - this.text.length;
          if (room <= 0 || this.full) return;
          this.text += headOf(piece, room);
          this.full = piece.length >= room;
        });
      }
      max;
      text = "";
      /** the cap was reached (a cut before a surrogate pair leaves text one short of max) */
      full = false;
      c;
      brk() {
        this.c.brk();
      }
      add(sq) {
        if (!this.full) this.c.add(sq);
      }
    };
    SKIP = /* @__PURE__ */ new Set(["script", "style", "noscript", "template", "noembed", "noframes", "iframe"]);
    BLOCK_LEVEL = /* @__PURE__ */ new Set([
      "address",
      "article",
      "aside",
      "blockquote",
      "body",
      "br",
      "caption",
      "center",
      "dd",
      "dir",
      "div",
      "dl",
      "dt",
      "fieldset",
      "figcaption",
      "figure",
      "footer",
      "form",
      "frame",
      "frameset",
      "h1",
      "h2",
      "h3",
      "h4",
      "h5",
      "h6",
      "head",
      "header",
      "hr",
      "html",
      "iframe",
      "legend",
      "li",
      "main",
      "menu",
      "nav",
      "ol",
      "option",
      "p",
      "pre",
      "section",
      "select",
      "table",
      "tbody",
      "td",
      "textarea",
      "tfoot",
      "th",
      "thead",
      "title",
      "tr",
      "ul",
      // inline, but never part of a word with the text around them
      "button",
      "img",
      "input",
      "label"
    ]);
    NAV_TAGS = /* @__PURE__ */ new Set(["nav", "header", "footer"]);
    NAV_ATTR = /nav|menu|header|footer|sidebar|breadcrumb/i;
    OTHER_TAGS = /* @__PURE__ */ new Set(["label", "button", "select", "option", "textarea", "legend"]);
    EMPH_TAGS = /* @__PURE__ */ new Set(["b", "strong", "big", "center", "h4", "h5", "h6"]);
    LIST_CONTAINERS = /* @__PURE__ */ new Set(["ul", "ol", "menu", "dir", "dl", "tr", "td", "th"]);
    HEADING_LEVEL = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
    PageParser = class {
      constructor(pageUrl, opts = {}) {
        this.pageUrl = pageUrl;
        this.n = Math.max(0, Math.floor(opts.contextChars ?? 100));
        this.maxLinks = Math.max(0, Math.floor(opts.maxLinks ?? DEFAULT_MAX_LINKS));
        this.maxText = Math.max(0, Math.floor(opts.maxTextChars ?? 2e5));
        this.maxAnchor = Math.max(0, Math.floor(opts.maxAnchorChars ?? 500));
        this.charset = opts.charset ?? "utf-8";
        this.base = pageUrl;
        const mk = () => new CappedText(this.maxText);
        this.blocks = { title: mk(), heading: mk(), content: mk(), navigation: mk(), anchor: mk(), other: mk() };
        this.blockList = Object.values(this.blocks);
        const mainChars = Math.max(0, Math.floor(opts.mainTextChars ?? 0));
        this.main = mainChars > 0 ? new MainText(mainChars) : null;
        this.stream = new Collapser((piece) => this.onStream(piece));
        this.unitText = new Collapser((piece) => {
          const room = BODY_PARAGRAPH_CHARS - this.unit.text.length;
          if (room > 0) this.unit.text += headOf(piece, room);
        });
        this.parser = new CappedParser(
          {
            onopentag: (name, attribs) => this.onOpen(name, attribs),
            onclosetag: (name) => this.onClose(name),
            ontext: (text) => this.onText(text)
          },
          { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false }
        );
        this.parser.onStrayClose = (name) => this.onStrayClose(name);
      }
      pageUrl;
      n;
      maxLinks;
      maxText;
      maxAnchor;
      charset;
      parser;
      ended = false;
      /** a high surrogate that ended the last write (see write) */
      heldHigh = "";
      /** an <a> opened beyond MAX_NESTING is open: the frames below this index were open when it started (-1: none) */
      looseAnchorDepth = -1;
      /** skipped elements opened beyond MAX_NESTING and not yet ended (they are in skipDepth too) */
      looseSkips = 0;
      /** the frames below this index were open when the first of looseSkips started */
      looseSkipDepth = -1;
      /** links past maxLinks (http(s), not rel=nofollow) */
      linksDropped = 0;
      frames = [];
      skipDepth = 0;
      titleDepth = 0;
      titleDone = false;
      navDepth = 0;
      otherDepth = 0;
      emphDepth = 0;
      headings = [];
      blocks;
      blockList;
      segments = [];
      deferredChars = 0;
      /** the deferred text reached its cap (a cut before a surrogate pair can leave room that must stay unused) */
      deferredFull = false;
      /** the main text, when kept (mainTextChars > 0) */
      main;
      base;
      baseSet = false;
      lang = null;
      noindex = false;
      nofollow = false;
      links = [];
      /** visible text stream for context windows */
      stream;
      pos = 0;
      recent = "";
      lastSpan = null;
      anchor = null;
      awaiting = [];
      /** href -> resolve() against the current base (bounded: resolve is asked only for kept links, at most maxLinks) */
      resolved = /* @__PURE__ */ new Map();
      /** title heuristic */
      unitText;
      unit = { text: "", level: void 0, emph: true };
      bodySeen = false;
      bestHeading = null;
      firstEmph = null;
      /**
       * Feed the next piece of decoded HTML. A high surrogate that ends a piece
       * is held until the next one: a pair cut between two writes parses as the
       * whole pair would (a cap falling between the halves must not keep one).
       */
      write(chunk) {
        if (this.ended) throw new Error("PageParser.write() after end()");
        if (this.heldHigh !== "") {
          chunk = this.heldHigh + chunk;
          this.heldHigh = "";
        }
        if (chunk.length > 0 && isHigh(chunk.charCodeAt(chunk.length - 1))) {
          this.heldHigh = chunk.slice(-1);
          chunk = chunk.slice(0, -1);
        }
        if (chunk !== "") this.parser.write(chunk);
      }
      /** Finish parsing (closes every open element) and return the page. */
      end() {
        if (this.ended) throw new Error("PageParser.end() called twice");
        if (this.heldHigh !== "") this.parser.write(this.heldHigh);
        this.heldHigh = "";
        this.parser.end();
        if (this.looseAnchorDepth >= 0) this.endAnchor();
        this.ended = true;
        this.finishUnit();
        for (const p of this.awaiting) this.finish(p, null);
        this.awaiting = [];
        const rawTitle = this.blocks.title.text;
        let title = rawTitle;
        if (isGenericTitle(rawTitle)) title = this.bestHeading?.text ?? this.firstEmph ?? rawTitle;
        title = ownCopy(headOf(title, this.maxText));
        if (this.nofollow) for (const l of this.links) l.nofollow = true;
        const caps = [];
        if (this.parser.capped > 0) caps.push("nesting");
        if (this.linksDropped > 0) caps.push("links");
        const b = this.blocks;
        return {
          title,
          charset: this.charset,
          blocks: {
            title,
            heading: ownCopy(b.heading.text),
            content: ownCopy(b.content.text),
            navigation: ownCopy(b.navigation.text),
            anchor: ownCopy(b.anchor.text),
            other: ownCopy(b.other.text)
          },
          ...this.main !== null ? { text: ownCopy(this.main.text), textTruncated: this.main.truncated } : {},
          links: this.links,
          base: this.base,
          noindex: this.noindex,
          nofollow: this.nofollow,
          lang: this.lang,
          ...caps.length > 0 ? { caps } : {},
          // with <meta name=robots content=nofollow> none of them would have been followed
          ...this.linksDropped > 0 && !this.nofollow ? { linksDropped: this.linksDropped } : {}
        };
      }
      // ---- elements -----------------------------------------------------------
      onOpen(tag, attr) {
        const f = { tag };
        const capped = this.parser.beyondCap;
        if (capped) f.capped = true;
        this.frames.push(f);
        if (this.skipDepth > 0 || SKIP.has(tag)) {
          if (SKIP.has(tag)) {
            f.skip = true;
            this.skipDepth++;
            if (capped) {
              if (this.looseSkips++ === 0) this.looseSkipDepth = this.frames.length - 1;
            }
          }
          if (tag === "iframe" && this.skipDepth === 1 && attr.src !== void 0) {
            this.visualBreak();
            this.zeroLengthLink("iframe", attr.src, attr.title || attr.name || "", attr.rel);
          }
          return;
        }
        if (BLOCK_LEVEL.has(tag)) this.visualBreak();
        switch (tag) {
          case "title":
            if (!this.titleDone && !capped) {
              f.title = true;
              this.titleDepth++;
            }
            break;
          case "html":
            if (this.lang === null && attr.lang !== void 0 && attr.lang.trim() !== "") {
              this.lang = ownCopy(attr.lang.trim());
            }
            break;
          case "base":
            if (!this.baseSet && attr.href !== void 0 && attr.href.trim() !== "") {
              try {
                this.base = new URL(attr.href.trim(), this.pageUrl).href;
                this.baseSet = true;
                this.resolved.clear();
              } catch {
              }
            }
            break;
          case "meta":
            if ((attr["http-equiv"] ?? "").trim().toLowerCase() === "refresh") {
              const target = refreshUrl(attr.content ?? "");
              if (target !== null) this.zeroLengthLink("meta", target, "", void 0);
            }
            if ((attr.name ?? "").trim().toLowerCase() === "robots") {
              for (const d of (attr.content ?? "").toLowerCase().split(/[\s,;]+/)) {
                if (d === "noindex" || d === "none") this.noindex = true;
                if (d === "nofollow" || d === "none") this.nofollow = true;
              }
            }
            break;
          case "a":
            if (attr.href !== void 0) {
              this.startAnchor(f, attr.href, attr.rel);
              if (capped) this.looseAnchorDepth = this.frames.length - 1;
            }
            break;
          case "area":
            if (attr.href !== void 0) this.zeroLengthLink("area", attr.href, attr.alt ?? "", attr.rel);
            break;
          case "frame":
            if (attr.src !== void 0) this.zeroLengthLink("frame", attr.src, attr.title || attr.name || "", attr.rel);
            break;
          case "img":
            if (attr.alt !== void 0 && attr.alt.trim() !== "") {
              this.visibleText(squeeze(` ${attr.alt} `), this.anchor ? void 0 : "other");
            }
            break;
        }
        if (capped) return;
        const level = HEADING_LEVEL[tag];
        if (level !== void 0) {
          f.heading = true;
          this.headings.push(level);
        }
        if (tag !== "html" && tag !== "body" && (NAV_TAGS.has(tag) || NAV_ATTR.test(attr.id ?? "") || NAV_ATTR.test(attr.class ?? ""))) {
          f.nav = true;
          this.navDepth++;
        }
        if (OTHER_TAGS.has(tag)) {
          f.other = true;
          this.otherDepth++;
        }
        if (EMPH_TAGS.has(tag) || tag === "font" && attr.size !== void 0) {
          f.emph = true;
          this.emphDepth++;
        }
        if (LIST_CONTAINERS.has(tag) && this.navDepth === 0) {
          f.segment = true;
          this.segments.push({ frags: [], mainMark: this.main?.mark() ?? null, links: [], spans: 0, anchorChars: 0, plainChars: 0 });
        }
      }
      onClose(tag) {
        let i = this.frames.length - 1;
        while (i >= 0 && this.frames[i].tag !== tag) i--;
        if (i < 0) return;
        if (i < this.looseSkipDepth) this.endLooseSkips(this.looseSkips);
        if (i < this.looseAnchorDepth && this.anchor !== null) this.endAnchor();
        while (this.frames.length > i) this.pop(this.frames.pop());
      }
      /** An end tag that matches no open element: it may end what an element beyond MAX_NESTING began. */
      onStrayClose(tag) {
        if (this.looseSkips > 0) {
          if (SKIP.has(tag)) this.endLooseSkips(1);
          return;
        }
        if (this.skipDepth > 0) return;
        if (tag === "a" && this.looseAnchorDepth >= 0 && this.anchor !== null) this.endAnchor();
        if (BLOCK_LEVEL.has(tag)) this.visualBreak();
      }
      endLooseSkips(n) {
        this.looseSkips -= n;
        this.skipDepth -= n;
        if (this.looseSkips === 0) this.looseSkipDepth = -1;
      }
      pop(f) {
        if (f.skip) {
          if (f.capped !== true) this.skipDepth--;
          return;
        }
        if (this.skipDepth > 0) return;
        if (f.anchor !== void 0 && this.anchor === f.anchor && f.capped !== true) this.endAnchor();
        if (f.segment) this.closeSegment();
        if (f.title) {
          this.titleDepth--;
          this.titleDone = true;
        }
        if (f.heading) this.headings.pop();
        if (f.nav) this.navDepth--;
        if (f.other) this.otherDepth--;
        if (f.emph) this.emphDepth--;
        if (BLOCK_LEVEL.has(f.tag)) this.visualBreak();
      }
      // ---- text ---------------------------------------------------------------
      onText(raw) {
        if (this.skipDepth > 0) return;
        const text = squeeze(raw);
        if (this.titleDepth > 0) {
          this.blocks.title.add(text);
          return;
        }
        this.visibleText(text, void 0);
        this.unitAdd(text);
      }
      /** Visible (squeezed) text: into the context stream, and into its block (or `forced`). */
      visibleText(text, forced) {
        this.stream.add(text);
        const seg = this.segments[this.segments.length - 1];
        if (this.main !== null && this.navDepth === 0 && forced !== "navigation") this.main.add(text);
        if (this.anchor !== null) {
          this.anchor.text.add(text);
          this.blocks.anchor.add(text);
          if (seg) seg.anchorChars += visibleLength(text);
          return;
        }
        const type = forced ?? this.baseType();
        if (seg === void 0) {
          this.blocks[type].add(text);
          return;
        }
        seg.plainChars += visibleLength(text);
        const fixed = type === "navigation";
        const last = seg.frags[seg.frags.length - 1];
        const merge = last !== void 0 && last.t === type && last.fixed === fixed;
        if (merge && text.charCodeAt(0) === 32 && last.s.charCodeAt(last.s.length - 1) === 32) text = text.slice(1);
        if (text === "") return;
        const room = this.maxText - this.deferredChars;
        if (room <= 0 || this.deferredFull) return;
        const s = headOf(text, room);
        this.deferredChars += s.length;
        this.deferredFull = s.length < text.length;
        if (merge) last.s += s;
        else seg.frags.push({ t: type, fixed, s });
      }
      baseType() {
        if (this.navDepth > 0) return "navigation";
        if (this.headings.length > 0) return "heading";
        if (this.otherDepth > 0) return "other";
        return "content";
      }
      /** A block boundary between text runs of the blocks (not of the visible text). */
      blockBreak() {
        for (const b of this.blockList) b.brk();
        const seg = this.segments[this.segments.length - 1];
        if (seg !== void 0) {
          const last = seg.frags[seg.frags.length - 1];
          if (last !== void 0 && last.t !== null) seg.frags.push({ t: null, fixed: false, s: "" });
        }
      }
      /** A block-level element boundary: separates words everywhere. */
      visualBreak() {
        this.main?.brk();
        this.stream.brk();
        this.anchor?.text.brk();
        this.blockBreak();
        this.finishUnit();
      }
      closeSegment() {
        const seg = this.segments.pop();
        if (seg.spans >= 2 && seg.anchorChars >= 2 * seg.plainChars) {
          for (const fr of seg.frags) {
            if (fr.t !== null) {
              fr.t = "navigation";
              fr.fixed = true;
            }
          }
          for (const l of seg.links) l.block = "navigation";
          seg.links = [];
          if (seg.mainMark !== null) this.main.restore(seg.mainMark);
        }
        const parent = this.segments[this.segments.length - 1];
        if (parent !== void 0) {
          for (const fr of seg.frags) parent.frags.push(fr);
          for (const l of seg.links) parent.links.push(l);
          parent.spans += seg.spans;
          parent.anchorChars += seg.anchorChars;
          parent.plainChars += seg.plainChars;
          return;
        }
        for (const fr of seg.frags) {
          if (fr.t === null) for (const b of this.blockList) b.brk();
          else this.blocks[fr.t].add(squeeze(fr.s));
        }
        this.deferredChars = 0;
        this.deferredFull = false;
      }
      // ---- title heuristic ----------------------------------------------------
      unitAdd(text) {
        if (this.bodySeen) return;
        this.unitText.add(text);
        if (visibleLength(text) === 0) return;
        const level = this.headings.length > 0 ? this.headings[this.headings.length - 1] : 0;
        const u = this.unit;
        if (u.level === void 0) u.level = level;
        else if (u.level !== level) u.level = -1;
        u.emph = u.emph && this.emphDepth > 0;
      }
      finishUnit() {
        const u = this.unit;
        if (u.level === void 0) return;
        const text = u.text;
        this.unit = { text: "", level: void 0, emph: true };
        this.unitText.reset();
        if (this.bodySeen) return;
        if (text.length >= BODY_PARAGRAPH_CHARS) {
          this.bodySeen = true;
          return;
        }
        if (text.length > TITLE_MAX_CHARS) return;
        if (u.level >= 1 && u.level <= 3) {
          const better = this.bestHeading === null || u.level < this.bestHeading.level;
          if (better && !isGenericTitle(text)) this.bestHeading = { level: u.level, text };
        } else if (u.emph && this.firstEmph === null && !isGenericTitle(text)) {
          this.firstEmph = text;
        }
      }
      // ---- links and context windows -----------------------------------------
      /** A link's absolute URL; pages repeat their links, so each distinct href is resolved once per base. */
      resolve(raw) {
        let url = this.resolved.get(raw);
        if (url === void 0) this.resolved.set(raw, url = this.resolveOnce(raw));
        return url;
      }
      resolveOnce(raw) {
        const v = raw.trim();
        if (v === "" || v.startsWith("#")) return null;
        try {
          const u = new URL(v, this.base);
          return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
        } catch {
          return null;
        }
      }
      /** Start a link span at the current text position; returns its Pending (null when not kept). */
      startSpan(tag, href, rel) {
        if (this.anchor !== null) this.endAnchor();
        const span = { start: this.pos, end: this.pos, anchor: "" };
        this.retainAwaiting((p) => {
          if (p.next !== null) return true;
          if (span.start - p.end < this.n) {
            p.next = span;
            return true;
          }
          this.finish(p, null);
          return false;
        });
        const seg = this.segments[this.segments.length - 1];
        if (seg !== void 0) seg.spans++;
        if (this.links.length >= this.maxLinks) {
          if (this.resolveOnce(href) !== null && !isNofollow(rel)) this.linksDropped++;
          return { span, pending: null };
        }
        const url = this.resolve(href);
        if (url === null) return { span, pending: null };
        const block = this.baseType();
        const link2 = {
          url,
          anchor: "",
          context: "",
          tag,
          nofollow: isNofollow(rel),
          block
        };
        this.links.push(link2);
        if (seg !== void 0 && block !== "navigation") seg.links.push(link2);
        const prev = this.lastSpan;
        const pending = {
          link: link2,
          end: -1,
          prevIn: prev !== null && span.start - prev.end < this.n,
          prevAnchor: prev?.anchor ?? "",
          before: this.recent.slice(-(this.n + 1)),
          after: "",
          next: null
        };
        return { span, pending };
      }
      /** End a span at the current text position with its final anchor text. */
      endSpan(span, pending, anchor) {
        span.end = this.pos;
        span.anchor = anchor;
        this.retainAwaiting((p) => {
          if (p.next !== span) return true;
          this.finish(p, anchor);
          return false;
        });
        this.lastSpan = span;
        if (pending !== null) {
          pending.end = span.end;
          pending.link.anchor = ownCopy(anchor);
          this.awaiting.push(pending);
        }
      }
      startAnchor(f, href, rel) {
        const { span, pending } = this.startSpan("a", href, rel);
        this.blockBreak();
        const a = { span, pending, text: new CappedText(this.maxAnchor) };
        this.anchor = a;
        f.anchor = a;
      }
      endAnchor() {
        const a = this.anchor;
        this.anchor = null;
        this.looseAnchorDepth = -1;
        this.blockBreak();
        this.endSpan(a.span, a.pending, a.text.text);
      }
      /** area / frame / iframe: a link with an empty span and a given anchor text. */
      zeroLengthLink(tag, href, anchorRaw, rel) {
        const { span, pending } = this.startSpan(tag, href, rel);
        const t = new CappedText(this.maxAnchor);
        t.add(squeeze(anchorRaw));
        if (t.text !== "") {
          this.blockBreak();
          this.blocks.anchor.add(t.text);
          this.blockBreak();
          const seg = this.segments[this.segments.length - 1];
          if (seg !== void 0) seg.anchorChars += visibleLength(t.text);
        }
        this.endSpan(span, pending, t.text);
      }
      /** A piece of the collapsed visible text: ring buffer and after-windows. */
      onStream(piece) {
        this.pos += piece.length;
        this.recent += piece;
        const keep = this.n + 1;
        if (this.recent.length > 4 * keep) this.recent = this.recent.slice(-keep);
        if (this.awaiting.length === 0) return;
        this.retainAwaiting((p) => {
          if (p.next !== null) return true;
          if (p.after.length < keep) p.after += piece.length > keep - p.after.length ? piece.slice(0, keep - p.after.length) : piece;
          if (p.after.length < keep) return true;
          this.finish(p, null);
          return false;
        });
      }
      /** Keep the awaiting links `keep` says true for, in order, in the same array (runs for every link and text piece). */
      retainAwaiting(keep) {
        const a = this.awaiting;
        let j = 0;
        for (let i = 0; i < a.length; i++) if (keep(a[i])) a[j++] = a[i];
        a.length = j;
      }
      /** Set the link's context: from neighbour anchors, or from plain text. */
      finish(p, nextAnchor) {
        let ctx;
        if (p.prevIn || nextAnchor !== null) {
          ctx = [p.prevIn ? p.prevAnchor : "", nextAnchor ?? ""].join(" ");
        } else {
          ctx = cutBefore(p.before, this.n) + " " + cutAfter(p.after, this.n);
        }
        p.link.context = ownCopy(ctx.replace(WS, " ").trim());
      }
    };
  }
});

// src/util/read-lines.ts
import { createReadStream } from "node:fs";
async function* readLines(path13, maxLineBytes = MAX_LINE_BYTES, open4 = () => createReadStream(path13)) {
  const decoder = new TextDecoder("utf-8");
  let parts = [];
  let size = 0;
  let overlong = false;
  let first = true;
  const take = () => {
    let line = null;
    if (!overlong) {
      line = decoder.decode(Buffer.concat(parts, size));
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (first) line = line.replace(/^\uFEFF/, "");
    }
    first = false;
    parts = [];
    size = 0;
    overlong = false;
    return line;
  };
  let stream;
  try {
    stream = open4();
    for await (const chunk of stream) {
      let start2 = 0;
      for (; ; ) {
        const nl = chunk.indexOf(10, start2);
        const end = nl === -1 ? chunk.length : nl;
        if (!overlong) {
          if (size + end - start2 > maxLineBytes) {
            overlong = true;
            parts = [];
            size = 0;
          } else if (end > start2) {
            parts.push(chunk.subarray(start2, end));
            size += end - start2;
          }
        }
        if (nl === -1) break;
        yield take();
        start2 = nl + 1;
      }
    }
  } catch (err) {
    throw new UsageError(`cannot read ${path13}: ${err.message}`, { cause: err });
  } finally {
    stream?.destroy();
  }
  if (size > 0 || overlong) yield take();
}
var MAX_LINE_BYTES;
var init_read_lines = __esm({
  "src/util/read-lines.ts"() {
    "use strict";
    init_errors();
    MAX_LINE_BYTES = 1024 * 1024;
  }
});

// src/seeds/file.ts
var file_exports = {};
__export(file_exports, {
  MAX_SEED_LINE_BYTES: () => MAX_SEED_LINE_BYTES,
  classifySeedLine: () => classifySeedLine,
  readSeedsFile: () => readSeedsFile
});
function classifySeedLine(line) {
  const s = line.trim();
  if (s === "" || s.startsWith("#")) return { kind: "skip" };
  if (canonicalize(s) !== null) {
    if (!/[\s\x00-\x1f\x7f]/.test(s)) return { kind: "url", url: s };
    return { kind: "bad", reason: "whitespace or a control character inside the URL (one URL a line; write a space as %20)" };
  }
  let scheme = "";
  try {
    scheme = new URL(s).protocol;
  } catch {
  }
  return { kind: "bad", reason: scheme === "" ? "not an http(s) URL" : `not an http(s) URL (scheme ${scheme})` };
}
async function readSeedsFile(file, stdin = () => process.stdin) {
  const seeds = [];
  let first = null;
  const more = [];
  let bad = 0;
  let n = 0;
  const lines2 = file === "-" ? readLines("stdin", MAX_SEED_LINE_BYTES, stdin) : readLines(file, MAX_SEED_LINE_BYTES);
  for await (const line of lines2) {
    n++;
    const c = line === null ? { kind: "bad", reason: `line longer than ${MAX_SEED_LINE_BYTES} bytes` } : classifySeedLine(line);
    if (c.kind === "url") seeds.push(c.url);
    if (c.kind !== "bad") continue;
    bad++;
    if (first === null) first = { line: n, reason: c.reason, text: line?.trim() ?? "" };
    else if (more.length < LIST_LINES) more.push(n);
  }
  if (first === null) return seeds;
  const quote2 = first.text === "" ? "" : `: ${JSON.stringify(first.text.slice(0, QUOTE_CHARS))}${first.text.length > QUOTE_CHARS ? "\u2026" : ""}`;
  const rest = bad === 1 ? "" : ` (${bad} bad lines in all; also line${more.length > 1 ? "s" : ""} ${more.join(", ")}${bad - 1 > more.length ? ", \u2026" : ""})`;
  throw new UsageError(`${file === "-" ? "stdin" : file}:${first.line}: ${first.reason}${quote2}${rest}`);
}
var MAX_SEED_LINE_BYTES, QUOTE_CHARS, LIST_LINES;
var init_file = __esm({
  "src/seeds/file.ts"() {
    "use strict";
    init_errors();
    init_read_lines();
    init_canonical();
    MAX_SEED_LINE_BYTES = 8 * 1024;
    QUOTE_CHARS = 200;
    LIST_LINES = 5;
  }
});

// src/relevance/learn/tfidf.ts
var TfIdfVectorizer;
var init_tfidf = __esm({
  "src/relevance/learn/tfidf.ts"() {
    "use strict";
    TfIdfVectorizer = class _TfIdfVectorizer {
      /** |E|: training documents */
      docs;
      #df;
      #idf = /* @__PURE__ */ new Map();
      constructor(docs, df) {
        this.docs = docs;
        this.#df = df;
        for (const [t, n] of df) this.#idf.set(t, Math.log(docs / n));
      }
      /**
       * Learns the vocabulary and document frequencies from `docs` (each a
       * token list; a token counts once per document). Terms with df < minDf
       * are dropped; of the rest the `maxFeatures` most frequent are kept.
       * Throws TypeError for bad options.
       */
      static fit(docs, opts = {}) {
        const minDf = opts.minDf ?? 2;
        const maxFeatures = opts.maxFeatures ?? 5e3;
        if (!Number.isInteger(minDf) || minDf < 1) throw new TypeError(`minDf must be a positive integer, got ${minDf}`);
        if (!Number.isInteger(maxFeatures) || maxFeatures < 0) throw new TypeError(`maxFeatures must be a non-negative integer, got ${maxFeatures}`);
        let n = 0;
        const df = /* @__PURE__ */ new Map();
        for (const doc of docs) {
          n++;
          for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1);
        }
        const kept = [...df].filter(([, c]) => c >= minDf).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, maxFeatures);
        return new _TfIdfVectorizer(n, new Map(kept));
      }
      /** Number of vocabulary terms. */
      get size() {
        return this.#df.size;
      }
      /** ln(|E| / df) of a vocabulary term; undefined outside the vocabulary. */
      idf(term) {
        return this.#idf.get(term);
      }
      /** The unit-norm TF-IDF vector of a token list; empty when no token has a positive weight. */
      transform(tokens) {
        const tf = /* @__PURE__ */ new Map();
        for (const t of tokens) if (this.#idf.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
        const out = /* @__PURE__ */ new Map();
        let sum = 0;
        for (const [t, n] of tf) {
          const w = n * this.#idf.get(t);
          if (w > 0) {
            out.set(t, w);
            sum += w * w;
          }
        }
        const norm2 = Math.sqrt(sum);
        for (const [t, w] of out) out.set(t, w / norm2);
        return out;
      }
      /** Plain JSON; fromJSON(toJSON()) transforms identically. */
      toJSON() {
        return { type: "tfidf", docs: this.docs, df: Object.fromEntries(this.#df) };
      }
      /**
       * Rebuilds a vectorizer from toJSON() output. Throws TypeError when the
       * type tag is wrong, `docs` is not a non-negative integer, or a df is not
       * an integer in 1..docs.
       */
      static fromJSON(json) {
        if (typeof json !== "object" || json === null || Array.isArray(json)) throw new TypeError("tfidf model: expected an object");
        const o = json;
        if (o.type !== "tfidf") throw new TypeError(`tfidf model: "type" must be "tfidf", got ${JSON.stringify(o.type)}`);
        const docs = o.docs;
        if (typeof docs !== "number" || !Number.isInteger(docs) || docs < 0) throw new TypeError('tfidf model: "docs" must be a non-negative integer');
        if (typeof o.df !== "object" || o.df === null || Array.isArray(o.df)) throw new TypeError('tfidf model: "df" must be an object');
        const df = /* @__PURE__ */ new Map();
        for (const [t, n] of Object.entries(o.df)) {
          if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > docs) {
            throw new TypeError(`tfidf model: df of ${JSON.stringify(t)} must be an integer in 1..${docs}, got ${JSON.stringify(n)}`);
          }
          df.set(t, n);
        }
        return new _TfIdfVectorizer(docs, df);
      }
    };
  }
});

// src/relevance/learn/continuous-nb.ts
function gaussianLog(mean, variance) {
  const c = -0.5 * Math.log(variance) - LOG_SQRT_2PI;
  return (x) => c - (x - mean) * (x - mean) / (2 * variance);
}
function kernelLog(values, sigma, points) {
  const logCounts = values.map(([, n]) => Math.log(n));
  const c = -Math.log(points) - Math.log(sigma) - LOG_SQRT_2PI;
  const twoVar = 2 * sigma * sigma;
  return (x) => {
    let max = -Infinity;
    const terms = new Array(values.length);
    for (let k = 0; k < values.length; k++) {
      const d = x - values[k][0];
      terms[k] = logCounts[k] - d * d / twoVar;
      if (terms[k] > max) max = terms[k];
    }
    let s = 0;
    for (const t of terms) s += Math.exp(t - max);
    return c + max + Math.log(s);
  };
}
function isFiniteNumber(x) {
  return typeof x === "number" && Number.isFinite(x);
}
function gaussianParams(vectors, features) {
  const n = vectors.length;
  const floor = 1 / n;
  const mean = features.map((f) => {
    let s = 0;
    for (const v of vectors) s += v.get(f) ?? 0;
    return s / n;
  });
  const variance = features.map((f, j) => {
    const m = mean[j];
    let s = 0;
    let present = 0;
    for (const v of vectors) {
      const x = v.get(f);
      if (x === void 0 || x === 0) continue;
      present++;
      s += (x - m) * (x - m);
    }
    s += (n - present) * m * m;
    return Math.max(s / n, floor);
  });
  return { mean, variance };
}
function reservoir(items, size, random) {
  const out = items.slice(0, size);
  for (let i = size; i < items.length; i++) {
    const j = Math.floor(random() * (i + 1));
    if (j < size) out[j] = items[i];
  }
  return out;
}
function groupValues(points, features) {
  return features.map((f) => {
    const counts = /* @__PURE__ */ new Map();
    for (const v of points) {
      const x = v.get(f) ?? 0;
      counts.set(x, (counts.get(x) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => a[0] - b[0]);
  });
}
var RESERVOIR_SEED, LOG_SQRT_2PI, ContinuousNB;
var init_continuous_nb = __esm({
  "src/relevance/learn/continuous-nb.ts"() {
    "use strict";
    init_bernoulli_nb();
    init_metrics();
    RESERVOIR_SEED = 99536897;
    LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
    ContinuousNB = class _ContinuousNB {
      density;
      /** P(+) */
      prior;
      #json;
      #index = /* @__PURE__ */ new Map();
      /** per class, per feature: log-density */
      #log;
      /** per class, per feature: log-density at 0 */
      #zero;
      /** ln P(+)/P(−) + Σ_j (ln p(0|+) − ln p(0|−)) */
      #base;
      constructor(json) {
        this.#json = json;
        this.density = json.density;
        this.prior = json.prior;
        json.features.forEach((f, j) => this.#index.set(f, j));
        const make = (c) => json.features.map(
          (_, j) => json.density === "gaussian" ? gaussianLog(json.gaussian.mean[c][j], json.gaussian.variance[c][j]) : kernelLog(json.kernel.values[c][j], json.kernel.sigma[c], json.kernel.points[c])
        );
        this.#log = [make(0), make(1)];
        this.#zero = [this.#log[0].map((f) => f(0)), this.#log[1].map((f) => f(0))];
        let base = Math.log(json.prior / (1 - json.prior));
        for (let j = 0; j < json.features.length; j++) base += this.#zero[0][j] - this.#zero[1][j];
        this.#base = base;
      }
      /**
       * Trains on `vectors` with `labels` (0/1, same length). Both classes must
       * be present. Throws TypeError for mismatched lengths, a label other
       * than 0/1, a missing class, a non-finite weight or bad options.
       */
      static train(vectors, labels, opts) {
        const density = opts.density;
        if (density !== "gaussian" && density !== "kernel") throw new TypeError(`density must be 'gaussian' or 'kernel', got ${String(density)}`);
        const maxFeatures = opts.maxFeatures ?? 200;
        const maxPoints = opts.maxPoints ?? 2e3;
        if (!Number.isInteger(maxFeatures) || maxFeatures < 0) throw new TypeError(`maxFeatures must be a non-negative integer, got ${maxFeatures}`);
        if (!Number.isInteger(maxPoints) || maxPoints < 1) throw new TypeError(`maxPoints must be a positive integer, got ${maxPoints}`);
        if (vectors.length !== labels.length) throw new TypeError(`${vectors.length} vectors but ${labels.length} labels`);
        const n = [0, 0];
        const presence = /* @__PURE__ */ new Map();
        vectors.forEach((v, i) => {
          const y = labels[i];
          if (y !== 0 && y !== 1) throw new TypeError(`label ${i} must be 0 or 1, got ${String(y)}`);
          const c = y === 1 ? 0 : 1;
          n[c]++;
          for (const [t, x] of v) {
            if (!Number.isFinite(x)) throw new TypeError(`vector ${i}: weight of ${JSON.stringify(t)} is not finite`);
            if (x === 0) continue;
            let p = presence.get(t);
            if (!p) presence.set(t, p = [0, 0]);
            p[c]++;
          }
        });
        if (n[0] === 0 || n[1] === 0) throw new TypeError("training needs examples of both classes");
        const features = [...presence].map(([t, [p, q]]) => [t, p + q, informationGain(n[0], n[1], p, q)]).sort((a, b) => b[2] - a[2] || b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, maxFeatures).map(([t]) => t);
        const json = {
          type: "continuous-nb",
          density,
          features,
          prior: (n[0] + 1) / (n[0] + n[1] + 2)
        };
        const byClass = [[], []];
        vectors.forEach((v, i) => byClass[labels[i] === 1 ? 0 : 1].push(v));
        if (density === "gaussian") {
          const g = byClass.map((vs) => gaussianParams(vs, features));
          json.gaussian = { mean: [g[0].mean, g[1].mean], variance: [g[0].variance, g[1].variance] };
        } else {
          const random = seededRandom(RESERVOIR_SEED);
          const samples = byClass.map((vs) => reservoir(vs, maxPoints, random));
          json.kernel = {
            sigma: [1 / Math.sqrt(samples[0].length), 1 / Math.sqrt(samples[1].length)],
            points: [samples[0].length, samples[1].length],
            values: [groupValues(samples[0], features), groupValues(samples[1], features)]
          };
        }
        return new _ContinuousNB(json);
      }
      /** The selected features, in model order. */
      get features() {
        return this.#json.features;
      }
      /** ln P(+|x)/P(−|x). Weights of features outside the selected set are ignored. */
      logOdds(v) {
        let z = this.#base;
        for (const [t, x] of v) {
          const j = this.#index.get(t);
          if (j === void 0 || x === 0) continue;
          z += this.#log[0][j](x) - this.#zero[0][j] - (this.#log[1][j](x) - this.#zero[1][j]);
        }
        return z;
      }
      /** P(+ | x), in [0, 1]. */
      probability(v) {
        return sigmoid(this.logOdds(v));
      }
      /** Plain JSON; fromJSON(toJSON()) predicts identically. */
      toJSON() {
        return structuredClone(this.#json);
      }
      /**
       * Rebuilds a model from toJSON() output. Throws TypeError naming the
       * problem when the shape is wrong: type/density tags, prior in (0, 1),
       * features distinct strings, per-class arrays of the features' length,
       * finite means, positive variances and bandwidths, kernel counts positive
       * integers summing to the class's points.
       */
      static fromJSON(json) {
        const bad = (what) => {
          throw new TypeError(`continuous-nb model: ${what}`);
        };
        if (typeof json !== "object" || json === null || Array.isArray(json)) bad("expected an object");
        const o = json;
        if (o.type !== "continuous-nb") bad(`"type" must be "continuous-nb", got ${JSON.stringify(o.type)}`);
        if (o.density !== "gaussian" && o.density !== "kernel") bad(`"density" must be "gaussian" or "kernel", got ${JSON.stringify(o.density)}`);
        if (!isFiniteNumber(o.prior) || o.prior <= 0 || o.prior >= 1) bad('"prior" must be a number in (0, 1)');
        if (!Array.isArray(o.features) || !o.features.every((f) => typeof f === "string") || new Set(o.features).size !== o.features.length) {
          bad('"features" must be an array of distinct strings');
        }
        const features = o.features;
        const k = features.length;
        const pair = (x, name) => {
          if (!Array.isArray(x) || x.length !== 2) bad(`${name} must be a [positive, negative] pair`);
          return x;
        };
        const numbers = (x, name, ok) => {
          if (!Array.isArray(x) || x.length !== k || !x.every((v) => isFiniteNumber(v) && ok(v))) bad(`${name} must be ${k} valid numbers`);
          return x;
        };
        const out = { type: "continuous-nb", density: o.density, features: [...features], prior: o.prior };
        if (o.density === "gaussian") {
          const g = o.gaussian;
          if (typeof g !== "object" || g === null) bad('"gaussian" must be an object');
          const mean = pair(g.mean, "gaussian.mean");
          const variance = pair(g.variance, "gaussian.variance");
          out.gaussian = {
            mean: [numbers(mean[0], "gaussian.mean[0]", () => true), numbers(mean[1], "gaussian.mean[1]", () => true)],
            variance: [numbers(variance[0], "gaussian.variance[0]", (v) => v > 0), numbers(variance[1], "gaussian.variance[1]", (v) => v > 0)]
          };
        } else {
          const kd = o.kernel;
          if (typeof kd !== "object" || kd === null) bad('"kernel" must be an object');
          const sigma = pair(kd.sigma, "kernel.sigma");
          const points = pair(kd.points, "kernel.points");
          const values = pair(kd.values, "kernel.values");
          const check = (c) => {
            const s = sigma[c];
            const m = points[c];
            if (!isFiniteNumber(s) || s <= 0) bad(`kernel.sigma[${c}] must be a positive number`);
            if (!Number.isInteger(m) || m < 1) bad(`kernel.points[${c}] must be a positive integer`);
            const vs = values[c];
            if (!Array.isArray(vs) || vs.length !== k) bad(`kernel.values[${c}] must have ${k} entries`);
            vs.forEach((list, j) => {
              if (!Array.isArray(list) || list.length === 0) bad(`kernel.values[${c}][${j}] must be a non-empty array`);
              let total = 0;
              for (const e of list) {
                if (!Array.isArray(e) || e.length !== 2 || !isFiniteNumber(e[0]) || !Number.isInteger(e[1]) || e[1] < 1) {
                  bad(`kernel.values[${c}][${j}] entries must be [value, count >= 1]`);
                }
                total += e[1];
              }
              if (total !== m) bad(`kernel.values[${c}][${j}] counts sum to ${total}, not kernel.points[${c}] = ${String(m)}`);
            });
            return [s, m];
          };
          const [s0, m0] = check(0);
          const [s1, m1] = check(1);
          const copy = (c) => values[c].map((list) => list.map(([v, n]) => [v, n]));
          out.kernel = { sigma: [s0, s1], points: [m0, m1], values: [copy(0), copy(1)] };
        }
        return new _ContinuousNB(out);
      }
    };
  }
});

// src/relevance/learn/multi-nb.ts
function isCount2(x) {
  return typeof x === "number" && Number.isInteger(x) && x >= 0;
}
function entropy(counts, n) {
  let h = 0;
  for (const c of counts) if (c > 0) h -= c / n * Math.log(c / n);
  return h;
}
var MultiNB;
var init_multi_nb = __esm({
  "src/relevance/learn/multi-nb.ts"() {
    "use strict";
    MultiNB = class _MultiNB {
      classCounts;
      balanced;
      #counts;
      #weights = /* @__PURE__ */ new Map();
      #base;
      constructor(classCounts, counts, balanced) {
        const C = classCounts.length;
        const N = classCounts.reduce((a, b) => a + b, 0);
        this.classCounts = Object.freeze([...classCounts]);
        this.balanced = balanced;
        this.#counts = counts;
        const scale = classCounts.map((n) => balanced && n > 0 ? N / C / n : 1);
        const size = classCounts.map((n, c) => n * scale[c]);
        this.#base = new Float64Array(C);
        for (let c = 0; c < C; c++) this.#base[c] = balanced ? 0 : Math.log((classCounts[c] + 1) / (N + C));
        for (const [f, cs] of counts) {
          const w = new Float64Array(C);
          for (let c = 0; c < C; c++) {
            const p = (cs[c] * scale[c] + 1) / (size[c] + 2);
            const absent = Math.log(1 - p);
            this.#base[c] += absent;
            w[c] = Math.log(p) - absent;
          }
          this.#weights.set(f, w);
        }
      }
      /** Number of classes. */
      get classes() {
        return this.classCounts.length;
      }
      /** Number of vocabulary features. */
      get size() {
        return this.#counts.size;
      }
      /**
       * Trains on `examples` (features, repeats counted once; label 0..classes-1).
       * Throws TypeError for a label out of range or bad options.
       */
      static train(examples, classes, opts = {}) {
        const minCount = opts.minCount ?? 2;
        const maxFeatures = opts.maxFeatures ?? 2e4;
        if (!Number.isInteger(classes) || classes < 2) throw new TypeError(`classes must be an integer \u2265 2, got ${classes}`);
        const classCounts = new Array(classes).fill(0);
        const all = /* @__PURE__ */ new Map();
        for (const { features, label } of examples) {
          if (!Number.isInteger(label) || label < 0 || label >= classes) throw new TypeError(`label must be an integer 0..${classes - 1}, got ${String(label)}`);
          classCounts[label]++;
          for (const f of new Set(features)) {
            let c = all.get(f);
            if (c === void 0) all.set(f, c = new Array(classes).fill(0));
            c[label]++;
          }
        }
        const N = classCounts.reduce((a, b) => a + b, 0);
        const h = entropy(classCounts, N);
        const ranked = [];
        for (const [f, c] of all) {
          const n = c.reduce((a, b) => a + b, 0);
          if (n < minCount) continue;
          const rest = classCounts.map((k, i) => k - c[i]);
          const gain = h - n / N * entropy(c, n) - (N - n > 0 ? (N - n) / N * entropy(rest, N - n) : 0);
          ranked.push([f, c, gain, n]);
        }
        ranked.sort((a, b) => b[2] - a[2] || b[3] - a[3] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        const counts = /* @__PURE__ */ new Map();
        for (const [f, c] of ranked.slice(0, maxFeatures)) counts.set(f, c);
        return new _MultiNB(classCounts, counts, opts.balanced === true);
      }
      /** ln P(c | x) + const for each class (unnormalised). */
      logScores(features) {
        const z = Float64Array.from(this.#base);
        const seen = /* @__PURE__ */ new Set();
        for (const f of features) {
          const w = this.#weights.get(f);
          if (w === void 0 || seen.has(f)) continue;
          seen.add(f);
          for (let c = 0; c < z.length; c++) z[c] += w[c];
        }
        return z;
      }
      /** P(c | x) for each class, summing to 1. */
      probabilities(features) {
        const z = this.logScores(features);
        const max = Math.max(...z);
        const e = [...z].map((v) => Math.exp(v - max));
        const sum = e.reduce((a, b) => a + b, 0);
        return e.map((v) => v / sum);
      }
      toJSON() {
        return {
          type: "multi-bernoulli-nb",
          classCounts: [...this.classCounts],
          features: Object.fromEntries([...this.#counts].map(([f, c]) => [f, [...c]])),
          ...this.balanced ? { balanced: true } : {}
        };
      }
      /** Rebuilds a model from toJSON() output; throws TypeError naming the problem. */
      static fromJSON(json) {
        if (typeof json !== "object" || json === null || Array.isArray(json)) throw new TypeError("multi-bernoulli-nb model: expected an object");
        const o = json;
        if (o.type !== "multi-bernoulli-nb") throw new TypeError(`multi-bernoulli-nb model: "type" must be "multi-bernoulli-nb", got ${JSON.stringify(o.type)}`);
        const cc = o.classCounts;
        if (!Array.isArray(cc) || cc.length < 2 || !cc.every(isCount2)) throw new TypeError('multi-bernoulli-nb model: "classCounts" must be at least two non-negative integers');
        if (typeof o.features !== "object" || o.features === null || Array.isArray(o.features)) throw new TypeError('multi-bernoulli-nb model: "features" must be an object');
        const counts = /* @__PURE__ */ new Map();
        for (const [f, c] of Object.entries(o.features)) {
          if (!Array.isArray(c) || c.length !== cc.length || !c.every((x, i) => isCount2(x) && x <= cc[i])) {
            throw new TypeError(`multi-bernoulli-nb model: feature ${JSON.stringify(f)} must have one count \u2264 its class size per class, got ${JSON.stringify(c)}`);
          }
          counts.set(f, [...c]);
        }
        if (o.balanced !== void 0 && typeof o.balanced !== "boolean") throw new TypeError(`multi-bernoulli-nb model: "balanced" must be a boolean, got ${JSON.stringify(o.balanced)}`);
        return new _MultiNB(cc, counts, o.balanced === true);
      }
    };
  }
});

// src/relevance/learn/linear.ts
function textGrams(text, prefix = "") {
  const out = [];
  let prevWord = null;
  const normal2 = text.normalize("NFKC").toLowerCase();
  for (const [run] of normal2.matchAll(RUN)) {
    if (!HAN3.test(run)) {
      if (run.length < 2) continue;
      out.push(prefix + run);
      if (prevWord !== null) out.push(`${prefix}${prevWord} ${run}`);
      prevWord = run;
      continue;
    }
    prevWord = null;
    for (const [part] of run.matchAll(SCRIPT_RUN2)) {
      if (!HAN3.test(part)) {
        if (part.length >= 2) out.push(prefix + part);
        continue;
      }
      const chars = [...part];
      for (let i = 0; i < chars.length; i++) {
        out.push(prefix + chars[i]);
        if (i + 1 < chars.length) out.push(prefix + chars[i] + chars[i + 1]);
        if (i + 2 < chars.length) out.push(prefix + chars[i] + chars[i + 1] + chars[i + 2]);
      }
    }
  }
  return out;
}
function breakEvenThreshold(probs, labels) {
  let nPos = 0;
  for (const y of labels) nPos += y;
  if (nPos === 0) return 0.5;
  const sorted = [...probs].sort((a, b) => b - a);
  if (nPos >= sorted.length) return sorted[sorted.length - 1] / 2;
  const at = sorted[nPos - 1];
  let k = nPos;
  while (k < sorted.length && sorted[k] === at) k++;
  return k < sorted.length ? (at + sorted[k]) / 2 : at / 2;
}
function classOf(cp) {
  if (cp <= 65535) {
    const c = CLASS_BMP[cp];
    if (c !== 0) return c;
    return CLASS_BMP[cp] = classify(String.fromCharCode(cp));
  }
  return classify(String.fromCodePoint(cp));
}
function classify(ch) {
  return !LETTER.test(ch) ? SEP : HAN3.test(ch) ? HAN_CLASS : OTHER_CLASS;
}
function cpA(h, cp) {
  return cp > 65535 ? stepA(stepA(h, 55296 + (cp - 65536 >> 10)), 56320 + (cp - 65536 & 1023)) : stepA(h, cp);
}
function cpB(h, cp) {
  return cp > 65535 ? stepB(stepB(h, 55296 + (cp - 65536 >> 10)), 56320 + (cp - 65536 & 1023)) : stepB(h, cp);
}
function vectorRow(features, index, idf) {
  const tf = /* @__PURE__ */ new Map();
  for (const f of features) {
    const j = index.get(f);
    if (j !== void 0) tf.set(j, (tf.get(j) ?? 0) + 1);
  }
  const idx = new Int32Array(tf.size);
  const val = new Float64Array(tf.size);
  let k = 0;
  let norm2 = 0;
  for (const [j, c] of tf) {
    idx[k] = j;
    val[k] = (1 + Math.log(c)) * idf[j];
    norm2 += val[k] * val[k];
    k++;
  }
  norm2 = Math.sqrt(norm2);
  if (norm2 > 0) for (let i = 0; i < val.length; i++) val[i] /= norm2;
  return { idx, val };
}
function dotRow(row, w) {
  let z = w[w.length - 1];
  for (let k = 0; k < row.idx.length; k++) z += w[row.idx[k]] * row.val[k];
  return z;
}
function softplus(x) {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}
function fit(rows, labels, idx, d, lambda, maxIter) {
  let nPos = 0;
  for (const i of idx) nPos += labels[i];
  const nNeg = idx.length - nPos;
  const cPos = nPos > 0 ? idx.length / (2 * nPos) : 0;
  const cNeg = nNeg > 0 ? idx.length / (2 * nNeg) : 0;
  const total = nPos * cPos + nNeg * cNeg;
  const objective = (w, grad) => {
    grad.fill(0);
    let loss = 0;
    for (const i of idx) {
      const row = rows[i];
      const y = labels[i];
      const c = (y === 1 ? cPos : cNeg) / total;
      const z = dotRow(row, w);
      loss += c * softplus(y === 1 ? -z : z);
      const g = c * (sigmoid(z) - y);
      for (let k = 0; k < row.idx.length; k++) grad[row.idx[k]] += g * row.val[k];
      grad[d] += g;
    }
    let reg = 0;
    for (let j = 0; j < d; j++) {
      reg += w[j] * w[j];
      grad[j] += lambda * w[j];
    }
    return loss + lambda / 2 * reg;
  };
  return lbfgs(objective, new Float64Array(d + 1), maxIter);
}
function lbfgs(f, w0, maxIter, m = 10) {
  const d = w0.length;
  let w = w0;
  let g = new Float64Array(d);
  let fx = f(w, g);
  const S = [];
  const Y = [];
  const rho = [];
  const dir = new Float64Array(d);
  const alpha = new Array(m);
  const dot = (a, b) => {
    let s = 0;
    for (let i = 0; i < d; i++) s += a[i] * b[i];
    return s;
  };
  for (let iter = 0; iter < maxIter; iter++) {
    const gnorm = Math.sqrt(dot(g, g));
    if (gnorm < 1e-7) break;
    for (let i = 0; i < d; i++) dir[i] = -g[i];
    for (let j = S.length - 1; j >= 0; j--) {
      alpha[j] = rho[j] * dot(S[j], dir);
      const y2 = Y[j];
      for (let i = 0; i < d; i++) dir[i] -= alpha[j] * y2[i];
    }
    if (S.length > 0) {
      const last = S.length - 1;
      const gamma = dot(S[last], Y[last]) / dot(Y[last], Y[last]);
      for (let i = 0; i < d; i++) dir[i] *= gamma;
    } else {
      for (let i = 0; i < d; i++) dir[i] /= gnorm;
    }
    for (let j = 0; j < S.length; j++) {
      const beta = rho[j] * dot(Y[j], dir);
      const s2 = S[j];
      for (let i = 0; i < d; i++) dir[i] += s2[i] * (alpha[j] - beta);
    }
    let slope = dot(g, dir);
    if (slope >= 0) {
      S.length = Y.length = rho.length = 0;
      for (let i = 0; i < d; i++) dir[i] = -g[i] / gnorm;
      slope = -gnorm;
    }
    let step = 1;
    const next = new Float64Array(d);
    const gNext = new Float64Array(d);
    let fNext = Infinity;
    for (let tries = 0; tries < 40; tries++) {
      for (let i = 0; i < d; i++) next[i] = w[i] + step * dir[i];
      fNext = f(next, gNext);
      if (fNext <= fx + 1e-4 * step * slope) break;
      step /= 2;
    }
    if (!(fNext < fx)) break;
    const s = new Float64Array(d);
    const y = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      s[i] = next[i] - w[i];
      y[i] = gNext[i] - g[i];
    }
    const sy = dot(s, y);
    if (sy > 1e-12) {
      if (S.length === m) {
        S.shift();
        Y.shift();
        rho.shift();
      }
      S.push(s);
      Y.push(y);
      rho.push(1 / sy);
    }
    const decrease = fx - fNext;
    w = next;
    g = gNext;
    fx = fNext;
    if (decrease < 1e-10 * Math.max(1, Math.abs(fx))) break;
  }
  return w;
}
function fitPlatt(margins, labels) {
  const n = labels.length;
  let nPos = 0;
  for (const y of labels) nPos += y;
  const nNeg = n - nPos;
  const hi = (nPos + 1) / (nPos + 2);
  const lo = 1 / (nNeg + 2);
  const t = labels.map((y) => y === 1 ? hi : lo);
  let A = 0;
  let B = Math.log((nNeg + 1) / (nPos + 1));
  const nll = (a, b) => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const f = a * margins[i] + b;
      s += f >= 0 ? t[i] * f + Math.log1p(Math.exp(-f)) : (t[i] - 1) * f + Math.log1p(Math.exp(f));
    }
    return s;
  };
  let fval = nll(A, B);
  for (let it = 0; it < 100; it++) {
    let h11 = 1e-12;
    let h22 = 1e-12;
    let h21 = 0;
    let g1 = 0;
    let g2 = 0;
    for (let i = 0; i < n; i++) {
      const f = A * margins[i] + B;
      const p = f >= 0 ? Math.exp(-f) / (1 + Math.exp(-f)) : 1 / (1 + Math.exp(f));
      const q = 1 - p;
      const d2 = p * q;
      h11 += margins[i] * margins[i] * d2;
      h22 += d2;
      h21 += margins[i] * d2;
      const d1 = t[i] - p;
      g1 += margins[i] * d1;
      g2 += d1;
    }
    if (Math.abs(g1) < 1e-6 && Math.abs(g2) < 1e-6) break;
    const det = h11 * h22 - h21 * h21;
    const dA = -(h22 * g1 - h21 * g2) / det;
    const dB = -(-h21 * g1 + h11 * g2) / det;
    const gd = g1 * dA + g2 * dB;
    let step = 1;
    let moved = false;
    while (step >= 1e-10) {
      const nA = A + step * dA;
      const nB = B + step * dB;
      const nf = nll(nA, nB);
      if (nf < fval + 1e-4 * step * gd) {
        A = nA;
        B = nB;
        fval = nf;
        moved = true;
        break;
      }
      step /= 2;
    }
    if (!moved) break;
  }
  return [-A, -B];
}
var DEFAULT_LAMBDAS, HAN3, RUN, SCRIPT_RUN2, LinearClassifier, HASH_A, HASH_B, stepA, stepB, SEP, OTHER_CLASS, HAN_CLASS, LETTER, CLASS_BMP, Compiled;
var init_linear = __esm({
  "src/relevance/learn/linear.ts"() {
    "use strict";
    init_metrics();
    init_bernoulli_nb();
    DEFAULT_LAMBDAS = [1e-5, 1e-4, 1e-3, 0.01];
    HAN3 = new RegExp("\\p{Script=Han}", "u");
    RUN = /[\p{L}\p{N}\p{M}]+/gu;
    SCRIPT_RUN2 = new RegExp("\\p{Script=Han}+|[^\\p{Script=Han}]+", "gu");
    LinearClassifier = class _LinearClassifier {
      lambda;
      platt;
      bias;
      cv;
      /** the precision = recall cut of probability() on held-out examples (0.5 for files without one) */
      threshold;
      #idf;
      #weight;
      #compiled;
      constructor(idf, weight, bias, platt, lambda, cv, threshold) {
        this.#idf = idf;
        this.#weight = weight;
        this.bias = bias;
        this.platt = platt;
        this.lambda = lambda;
        this.cv = cv;
        this.threshold = threshold;
        this.#compiled = new Compiled(idf, weight);
      }
      /** Vocabulary size. */
      get size() {
        return this.#idf.size;
      }
      /** The raw margin z = w·x + b of a feature bag (x: the normalised TF-IDF vector). */
      margin(features) {
        const c = this.#compiled;
        for (const f of features) c.addFeature(f);
        return this.bias + c.finish();
      }
      /**
       * The margin of textGrams(t.text, t.prefix) over all `texts` plus the
       * `features` (as margin(...) of those features, up to rounding), without
       * building the grams: the fast path of the link scorers and the judge.
       */
      marginOfTexts(texts, features = []) {
        const c = this.#compiled;
        for (const [text, prefix] of texts) c.addText(text, prefix);
        for (const f of features) c.addFeature(f);
        return this.bias + c.finish();
      }
      /** The calibrated P(+ | features): σ(A·margin + B). */
      probability(features) {
        return this.calibrate(this.margin(features));
      }
      /** σ(A·z + B): the calibrated probability of a margin. */
      calibrate(z) {
        return sigmoid(this.platt[0] * z + this.platt[1]);
      }
      /**
       * Fits the classifier (see the file comment). Throws TypeError for bad
       * options or when the examples lack a class.
       */
      static train(examples, opts = {}) {
        const lambdas = opts.lambdas ?? DEFAULT_LAMBDAS;
        const k = opts.folds ?? 3;
        const minDf = opts.minDf ?? 2;
        const maxFeatures = opts.maxFeatures ?? 2e5;
        const maxIter = opts.maxIterations ?? 150;
        if (lambdas.length === 0 || !lambdas.every((l) => Number.isFinite(l) && l > 0)) throw new TypeError("lambdas must be positive numbers");
        if (!Number.isInteger(k) || k < 2) throw new TypeError(`folds must be an integer >= 2, got ${k}`);
        const labels = examples.map((e) => e.label);
        const nPos = labels.reduce((s, y) => s + y, 0);
        if (nPos === 0 || nPos === labels.length) throw new TypeError("LinearClassifier.train needs examples of both classes");
        if (labels.length < 2 * k) throw new TypeError(`LinearClassifier.train needs at least ${2 * k} examples`);
        const df = /* @__PURE__ */ new Map();
        for (const e of examples) for (const f of new Set(e.features)) df.set(f, (df.get(f) ?? 0) + 1);
        const vocab = [...df].filter(([, c]) => c >= minDf).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, maxFeatures);
        const index = /* @__PURE__ */ new Map();
        const idf = new Float64Array(vocab.length);
        const n = examples.length;
        vocab.forEach(([f, c], j) => {
          index.set(f, j);
          idf[j] = Math.log((1 + n) / (1 + c)) + 1;
        });
        const rows = examples.map((e) => vectorRow(e.features, index, idf));
        const folds = kFoldIndices(n, k, opts.seed ?? 1);
        const cv = {};
        let best = { lambda: lambdas[lambdas.length - 1], auc: -Infinity, margins: new Float64Array(n), weights: [] };
        for (const lambda of [...lambdas].sort((a, b) => b - a)) {
          const margins = new Float64Array(n);
          const weights = [];
          for (const test of folds) {
            const inTest = new Uint8Array(n);
            for (const i of test) inTest[i] = 1;
            const trainIdx = [];
            for (let i = 0; i < n; i++) if (!inTest[i]) trainIdx.push(i);
            const w2 = fit(rows, labels, trainIdx, vocab.length, lambda, maxIter);
            weights.push(w2);
            for (const i of test) margins[i] = dotRow(rows[i], w2);
          }
          const auc2 = binaryMetrics(Array.from(margins), labels).auc;
          cv[String(lambda)] = Math.round(auc2 * 1e4) / 1e4;
          if (auc2 > best.auc + 1e-3) best = { lambda, auc: auc2, margins, weights };
          if (lambdas.length === 1) break;
        }
        let platt;
        let threshold;
        const compose = opts.composeDocs ?? 0;
        if (compose > 0) {
          const random = seededRandom((opts.seed ?? 1) + 1);
          const docMargins = [];
          const docLabels = [];
          for (const test of folds) {
            const inTest = new Uint8Array(n);
            for (const i of test) inTest[i] = 1;
            const trainIdx = [];
            for (let i = 0; i < n; i++) if (!inTest[i]) trainIdx.push(i);
            const w2 = fit(rows, labels, trainIdx, vocab.length, best.lambda, maxIter);
            const byLabel = [test.filter((i) => labels[i] === 0), test.filter((i) => labels[i] === 1)];
            for (const i of test) {
              const same = byLabel[labels[i]];
              const bag = [...examples[i].features];
              for (let c = 0; c < compose && same.length > 1; c++) bag.push(...examples[same[Math.floor(random() * same.length)]].features);
              docMargins.push(dotRow(vectorRow(bag, index, idf), w2));
              docLabels.push(labels[i]);
            }
          }
          platt = fitPlatt(docMargins, docLabels);
          threshold = breakEvenThreshold(docMargins.map((z) => sigmoid(platt[0] * z + platt[1])), docLabels);
        } else {
          platt = fitPlatt(best.margins, labels);
          threshold = breakEvenThreshold(Array.from(best.margins, (z) => sigmoid(platt[0] * z + platt[1])), labels);
        }
        const w = new Float64Array(vocab.length + 1);
        for (const f of best.weights) for (let j = 0; j < w.length; j++) w[j] += f[j] / best.weights.length;
        const idfMap = /* @__PURE__ */ new Map();
        const weightMap = /* @__PURE__ */ new Map();
        vocab.forEach(([f], j) => {
          idfMap.set(f, idf[j]);
          weightMap.set(f, w[j]);
        });
        return new _LinearClassifier(idfMap, weightMap, w[vocab.length], platt, best.lambda, lambdas.length > 1 ? cv : void 0, threshold);
      }
      /** Plain JSON (numbers rounded to 6 significant digits); fromJSON(toJSON()) scores as this does up to that rounding. */
      toJSON() {
        const r = (x) => Number(x.toPrecision(6));
        const features = {};
        for (const [f, idf] of this.#idf) {
          const w = this.#weight.get(f);
          features[f] = [r(idf), r(w)];
        }
        return { type: "linear-lr", features, bias: r(this.bias), platt: [r(this.platt[0]), r(this.platt[1])], lambda: this.lambda, ...this.cv ? { cv: { ...this.cv } } : {}, threshold: r(this.threshold) };
      }
      /** Rebuilds a classifier from toJSON() output. Throws TypeError naming what is malformed. */
      static fromJSON(json) {
        if (typeof json !== "object" || json === null || Array.isArray(json)) throw new TypeError("linear model: expected an object");
        const o = json;
        if (o.type !== "linear-lr") throw new TypeError(`linear model: "type" must be "linear-lr", got ${JSON.stringify(o.type)}`);
        const finite = (v) => typeof v === "number" && Number.isFinite(v);
        if (!finite(o.bias)) throw new TypeError('linear model: "bias" must be a finite number');
        if (!finite(o.lambda) || o.lambda <= 0) throw new TypeError('linear model: "lambda" must be a positive number');
        if (!Array.isArray(o.platt) || o.platt.length !== 2 || !o.platt.every(finite)) throw new TypeError('linear model: "platt" must be two finite numbers');
        if (typeof o.features !== "object" || o.features === null || Array.isArray(o.features)) throw new TypeError('linear model: "features" must be an object');
        const idf = /* @__PURE__ */ new Map();
        const weight = /* @__PURE__ */ new Map();
        for (const [f, v] of Object.entries(o.features)) {
          if (!Array.isArray(v) || v.length !== 2 || !finite(v[0]) || v[0] <= 0 || !finite(v[1])) {
            throw new TypeError(`linear model: feature ${JSON.stringify(f)} must be [idf > 0, weight]`);
          }
          idf.set(f, v[0]);
          weight.set(f, v[1]);
        }
        let cv;
        if (o.cv !== void 0) {
          if (typeof o.cv !== "object" || o.cv === null || !Object.values(o.cv).every(finite)) throw new TypeError('linear model: "cv" must be an object of numbers');
          cv = { ...o.cv };
        }
        if (o.threshold !== void 0 && (!finite(o.threshold) || o.threshold < 0 || o.threshold > 1)) throw new TypeError('linear model: "threshold" must be a number between 0 and 1');
        return new _LinearClassifier(idf, weight, o.bias, [o.platt[0], o.platt[1]], o.lambda, cv, o.threshold === void 0 ? 0.5 : o.threshold);
      }
    };
    HASH_A = 2166136261;
    HASH_B = 625341585;
    stepA = (h, cu) => Math.imul(h ^ cu, 16777619);
    stepB = (h, cu) => {
      const x = Math.imul(h ^ cu, 1540483477);
      return x ^ x >>> 15;
    };
    SEP = 1;
    OTHER_CLASS = 2;
    HAN_CLASS = 3;
    LETTER = /[\p{L}\p{N}\p{M}]/u;
    CLASS_BMP = new Uint8Array(65536);
    Compiled = class {
      #mask;
      #keyA;
      #keyB;
      /** slot -> feature index + 1 (0: empty) */
      #slot;
      #idf;
      #weight;
      #tf;
      #touched;
      #nTouched = 0;
      /** code points of the run being walked (reused) */
      #cps = new Int32Array(256);
      constructor(idf, weight) {
        let size = 16;
        while (size < idf.size * 2) size *= 2;
        this.#mask = size - 1;
        this.#keyA = new Int32Array(size);
        this.#keyB = new Int32Array(size);
        this.#slot = new Int32Array(size);
        this.#idf = new Float64Array(idf.size);
        this.#weight = new Float64Array(idf.size);
        this.#tf = new Int32Array(idf.size);
        this.#touched = new Int32Array(64);
        let j = 0;
        for (const [f, v] of idf) {
          let a = HASH_A;
          let b = HASH_B;
          for (let i = 0; i < f.length; i++) {
            const cu = f.charCodeAt(i);
            a = stepA(a, cu);
            b = stepB(b, cu);
          }
          let s = a & this.#mask;
          while (this.#slot[s] !== 0) {
            if (this.#keyA[s] === a && this.#keyB[s] === b) throw new TypeError(`linear model: hash collision of feature ${JSON.stringify(f)}`);
            s = s + 1 & this.#mask;
          }
          this.#keyA[s] = a;
          this.#keyB[s] = b;
          this.#slot[s] = j + 1;
          this.#idf[j] = v;
          this.#weight[j] = weight.get(f);
          j++;
        }
      }
      /** Counts the feature with hashes (a, b) when it is in the vocabulary. */
      #count(a, b) {
        let s = a & this.#mask;
        for (; ; ) {
          const j = this.#slot[s];
          if (j === 0) return;
          if (this.#keyA[s] === a && this.#keyB[s] === b) {
            if (this.#tf[j - 1]++ === 0) {
              if (this.#nTouched === this.#touched.length) {
                const grown = new Int32Array(this.#touched.length * 2);
                grown.set(this.#touched);
                this.#touched = grown;
              }
              this.#touched[this.#nTouched++] = j - 1;
            }
            return;
          }
          s = s + 1 & this.#mask;
        }
      }
      addFeature(f) {
        let a = HASH_A;
        let b = HASH_B;
        for (let i = 0; i < f.length; i++) {
          const cu = f.charCodeAt(i);
          a = stepA(a, cu);
          b = stepB(b, cu);
        }
        this.#count(a, b);
      }
      /**
       * Counts textGrams(text, prefix), gram by gram, without building them:
       * one walk over the normalised text by code point classes (CLASS_BMP),
       * runs of letters/digits/marks taken by index, no regular expression and
       * no substring.
       */
      addText(text, prefix) {
        let pa = HASH_A;
        let pb = HASH_B;
        for (let i2 = 0; i2 < prefix.length; i2++) {
          const cu = prefix.charCodeAt(i2);
          pa = stepA(pa, cu);
          pb = stepB(pb, cu);
        }
        const s = text.normalize("NFKC").toLowerCase();
        const n = s.length;
        let prevStart = -1;
        let prevEnd = -1;
        let i = 0;
        while (i < n) {
          const cp0 = s.codePointAt(i);
          if (classOf(cp0) === SEP) {
            i += cp0 > 65535 ? 2 : 1;
            continue;
          }
          let j = i;
          let hasHan = false;
          while (j < n) {
            const cp = s.codePointAt(j);
            const c = classOf(cp);
            if (c === SEP) break;
            if (c === HAN_CLASS) hasHan = true;
            j += cp > 65535 ? 2 : 1;
          }
          if (!hasHan) {
            if (j - i >= 2) {
              let a = pa;
              let b = pb;
              for (let k = i; k < j; k++) {
                const cu = s.charCodeAt(k);
                a = stepA(a, cu);
                b = stepB(b, cu);
              }
              this.#count(a, b);
              if (prevStart >= 0) {
                a = pa;
                b = pb;
                for (let k = prevStart; k < prevEnd; k++) {
                  const cu = s.charCodeAt(k);
                  a = stepA(a, cu);
                  b = stepB(b, cu);
                }
                a = stepA(a, 32);
                b = stepB(b, 32);
                for (let k = i; k < j; k++) {
                  const cu = s.charCodeAt(k);
                  a = stepA(a, cu);
                  b = stepB(b, cu);
                }
                this.#count(a, b);
              }
              prevStart = i;
              prevEnd = j;
            }
          } else {
            prevStart = -1;
            this.#hanRun(s, i, j, pa, pb);
          }
          i = j;
        }
      }
      /** s[start, end), a run with Han: Han stretches give character 1-3-grams, other stretches of 2+ code units a word. */
      #hanRun(s, start2, end, pa, pb) {
        if (this.#cps.length < end - start2) this.#cps = new Int32Array((end - start2) * 2);
        const cps = this.#cps;
        let n = 0;
        for (let i2 = start2; i2 < end; ) {
          const cp = s.codePointAt(i2);
          cps[n++] = cp;
          i2 += cp > 65535 ? 2 : 1;
        }
        let i = 0;
        while (i < n) {
          const han = classOf(cps[i]) === HAN_CLASS;
          let stop = i + 1;
          while (stop < n && classOf(cps[stop]) === HAN_CLASS === han) stop++;
          if (!han) {
            let units = 0;
            for (let k = i; k < stop; k++) units += cps[k] > 65535 ? 2 : 1;
            if (units >= 2) {
              let a = pa;
              let b = pb;
              for (let k = i; k < stop; k++) {
                a = cpA(a, cps[k]);
                b = cpB(b, cps[k]);
              }
              this.#count(a, b);
            }
          } else {
            for (let k = i; k < stop; k++) {
              let a = cpA(pa, cps[k]);
              let b = cpB(pb, cps[k]);
              this.#count(a, b);
              if (k + 1 < stop) {
                a = cpA(a, cps[k + 1]);
                b = cpB(b, cps[k + 1]);
                this.#count(a, b);
                if (k + 2 < stop) {
                  a = cpA(a, cps[k + 2]);
                  b = cpB(b, cps[k + 2]);
                  this.#count(a, b);
                }
              }
            }
          }
          i = stop;
        }
      }
      /** (w·x) / ‖x‖ of the counted features, and resets the counts. */
      finish() {
        let norm2 = 0;
        let dot = 0;
        for (let k = 0; k < this.#nTouched; k++) {
          const j = this.#touched[k];
          const x = (1 + Math.log(this.#tf[j])) * this.#idf[j];
          this.#tf[j] = 0;
          norm2 += x * x;
          dot += x * this.#weight[j];
        }
        this.#nTouched = 0;
        return norm2 > 0 ? dot / Math.sqrt(norm2) : 0;
      }
    };
  }
});

// src/relevance/model.ts
var model_exports = {};
__export(model_exports, {
  ACCURACY_SAMPLE: () => ACCURACY_SAMPLE,
  DEFAULT_DOMAIN_TERMS: () => DEFAULT_DOMAIN_TERMS,
  DEFAULT_HUB_DENSITY: () => DEFAULT_HUB_DENSITY,
  DEFAULT_MODEL_THRESHOLD: () => DEFAULT_MODEL_THRESHOLD,
  DEFAULT_TOPIC_TERMS: () => DEFAULT_TOPIC_TERMS,
  MAX_MODEL_BYTES: () => MAX_MODEL_BYTES,
  MODEL_FORMAT: () => MODEL_FORMAT,
  MODEL_VERSION: () => MODEL_VERSION,
  Model: () => Model,
  ModelError: () => ModelError,
  READABLE_VERSIONS: () => READABLE_VERSIONS,
  discriminativeTerms: () => discriminativeTerms,
  fitModel: () => fitModel,
  linkGrams: () => linkGrams,
  linkTokens: () => linkTokens,
  loadModel: () => loadModel,
  pageGrams: () => pageGrams,
  saveModel: () => saveModel
});
import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
function linkTokens(anchor, context, segmenter) {
  return [...tokenize(anchor, { segmenter }), ...tokenize(context, { segmenter })];
}
function pageGrams(page) {
  return textGrams(pageMainText(page));
}
function linkGrams(anchor, context, opts) {
  const out = [...textGrams(anchor), ...textGrams(context, "c:"), ...textGrams(context)];
  if (opts.group >= 3) {
    const extra = linkFeatures("", "", { group: opts.group, url: opts.url, parentUrl: opts.parentUrl, parentRelevant: opts.parentRelevant });
    out.push(...extra);
    if (opts.group === 4 && opts.parentTitle) out.push(...textGrams(opts.parentTitle, "p:"));
  }
  return out;
}
async function loadModel(path13, segmenter) {
  let bytes;
  try {
    bytes = await readCapped(path13, MAX_MODEL_BYTES);
  } catch (err) {
    throw new ModelError(`cannot read model file ${path13}: ${err.message}`, { cause: err });
  }
  if (bytes === null) throw new ModelError(`${path13}: too large: more than ${formatBytes(MAX_MODEL_BYTES)}, the cap on model files`);
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  if (text.trim() === "") throw new ModelError(`${path13}: empty file, expected a model from focuscrawl train`);
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ModelError(`${path13}: not valid JSON (truncated or corrupt?): ${err.message}`, { cause: err });
  }
  return Model.fromJSON(json, path13, segmenter);
}
async function saveModel(path13, json) {
  const tmp = join(dirname(path13), `.${basename(path13)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(tmp, JSON.stringify(json) + "\n", { flag: "wx" });
    await rename(tmp, path13);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {
    });
    throw new UsageError(`cannot write model file ${path13}: ${err.message}`, { cause: err });
  }
}
function pageTokens(features) {
  return features.filter((f) => !f.startsWith("t:"));
}
function discriminativeTerms(examples, size) {
  const { nPos, nNeg, df } = classDocFreq(examples);
  const scored = [];
  for (const [t, [p, n]] of df) {
    if (p < 2 || DIGITS_ONLY.test(t)) continue;
    const delta = Math.log((p + 0.5) / (nPos - p + 0.5)) - Math.log((n + 0.5) / (nNeg - n + 0.5));
    const z = delta / Math.sqrt(1 / (p + 0.5) + 1 / (nPos - p + 0.5) + 1 / (n + 0.5) + 1 / (nNeg - n + 0.5));
    if (z > 0) scored.push([t, z, p]);
  }
  scored.sort((a, b) => b[1] - a[1] || b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return scored.slice(0, size).map(([t]) => t);
}
function fitModel(data, opts) {
  const started = performance.now();
  const group = opts.group ?? 2;
  const segmenter = opts.segmenter;
  const pagePositives = data.pages.reduce((n, p) => n + p.label, 0);
  const linkPositives = data.links.reduce((n, l) => n + l.label, 0);
  requireBothClasses("page", data.pages.length, pagePositives, opts.target);
  requireBothClasses("link", data.links.length, linkPositives, opts.target);
  const page = BernoulliNB.train(data.pages);
  const tokenDocs = data.pages.map((p) => ({ tokens: pageTokens(p.features), label: p.label }));
  const domainTerms = group >= 2 ? discriminativeTerms(tokenDocs, opts.domainTerms ?? DEFAULT_DOMAIN_TERMS) : [];
  const terms = discriminativeTerms(tokenDocs, opts.terms ?? DEFAULT_TOPIC_TERMS);
  const domainSet = new Set(domainTerms);
  const linkExamples = data.links.map((l) => ({
    features: linkFeatures(l.anchor, l.context, { group, domainTerms: domainSet, segmenter, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant }),
    label: l.label
  }));
  const link2 = BernoulliNB.train(linkExamples, { balanced: opts.balancedLinks === true });
  const bags = data.links.map((l) => linkTokens(l.anchor, l.context, segmenter));
  const vectorizer = TfIdfVectorizer.fit(bags);
  const vectors = bags.map((b) => vectorizer.transform(b));
  const labels = data.links.map((l) => l.label);
  const gaussian = ContinuousNB.train(vectors, labels, { density: "gaussian" });
  const kernel = ContinuousNB.train(vectors, labels, { density: "kernel" });
  let layers;
  let layerCounts = {};
  if (data.layerLinks !== void 0 && data.layerLinks.length > 0) {
    const top = data.layerTop ?? Math.max(...data.layerLinks.map((l) => l.layer));
    const layerExamples = data.layerLinks.map((l) => ({
      features: linkFeatures(l.anchor, l.context, { group, domainTerms: domainSet, segmenter, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant }),
      label: l.layer
    }));
    const nb = MultiNB.train(layerExamples, top + 1, { balanced: true });
    layers = { top, classifier: nb.toJSON() };
    layerCounts = Object.fromEntries(nb.classCounts.map((n, k) => [`layer${k}Links`, n]));
  }
  const inSample = {
    page: measure(data.pages, (p) => page.probability(p.features)),
    link: measure(linkExamples, (l) => link2.probability(l.features))
  };
  const indexed = vectors.map((v, i) => ({ v, label: labels[i] }));
  inSample.gaussian = measure(indexed, (x) => gaussian.probability(x.v));
  inSample.kernel = measure(indexed, (x) => kernel.probability(x.v));
  let linear;
  const classifier = opts.classifier ?? "nb";
  if (classifier === "linear") {
    const pageRows = data.pages.map((p) => {
      if (p.grams === void 0) throw new UsageError("cannot train a linear page judge: the page examples carry no text grams");
      return { features: p.grams, label: p.label };
    });
    const linkRows = data.links.map((l) => ({
      features: linkGrams(l.anchor, l.context, { group, url: l.url, parentUrl: l.parentUrl, parentTitle: l.parentTitle, parentRelevant: l.parentRelevant }),
      label: l.label
    }));
    const linearPage = LinearClassifier.train(pageRows, opts.linearOptions);
    const linearLink = LinearClassifier.train(linkRows, opts.linearOptions);
    inSample.linearPage = measure(pageRows, (p) => linearPage.probability(p.features));
    inSample.linearLink = measure(linkRows, (l) => linearLink.probability(l.features));
    linear = { page: linearPage.toJSON(), link: linearLink.toJSON(), hubDensity: opts.hubDensity ?? DEFAULT_HUB_DENSITY };
  }
  const seconds = data.seconds + (performance.now() - started) / 1e3;
  const json = {
    format: MODEL_FORMAT,
    version: MODEL_VERSION,
    target: opts.target,
    createdBy: `focuscrawl ${VERSION}`,
    training: {
      source: data.source,
      files: [...data.files],
      counts: { ...data.counts, pages: data.pages.length, pagePositives, links: data.links.length, linkPositives, ...layerCounts },
      options: { ...data.options, group, classifier, ...opts.balancedLinks === true ? { balancedLinks: true } : {}, domainTerms: opts.domainTerms ?? DEFAULT_DOMAIN_TERMS, terms: opts.terms ?? DEFAULT_TOPIC_TERMS },
      seconds: Math.round(seconds * 1e3) / 1e3,
      inSample
    },
    page: page.toJSON(),
    link: { group, domainTerms, classifier: link2.toJSON() },
    kde: { vectorizer: vectorizer.toJSON(), gaussian: gaussian.toJSON(), kernel: kernel.toJSON() },
    terms,
    // linear: the judge's F1-maximising cut on held-out examples (LinearClassifier.threshold)
    threshold: linear === void 0 ? DEFAULT_MODEL_THRESHOLD : linear.page.threshold ?? DEFAULT_MODEL_THRESHOLD,
    classifier,
    ...linear === void 0 ? {} : { linear },
    ...layers === void 0 ? {} : { layers }
  };
  const saved = JSON.parse(JSON.stringify(json));
  return { json: saved, model: Model.fromJSON(saved, "trained model", segmenter) };
}
function requireBothClasses(kind, n, positives, target) {
  if (positives === 0 || positives === n) {
    const what = n === 0 ? "none" : positives === 0 ? `all ${n} are not ${JSON.stringify(target)}` : `all ${n} are ${JSON.stringify(target)}`;
    throw new UsageError(`cannot train: the ${kind} classifier needs examples of both classes (${kind} examples: ${what})`);
  }
}
function measure(items, score) {
  const step = Math.max(1, items.length / ACCURACY_SAMPLE);
  const scores = [];
  const labels = [];
  let right = 0;
  for (let i = 0; i < items.length; i += step) {
    const item = items[Math.floor(i)];
    const s = score(item);
    scores.push(s);
    labels.push(item.label);
    if ((s > 0.5 ? 1 : 0) === item.label) right++;
  }
  const m = binaryMetrics(scores, labels);
  const r = (x) => Math.round(x * 1e4) / 1e4;
  return { accuracy: r(right / Math.max(1, scores.length)), precision: r(m.precision), recall: r(m.recall), f1: r(m.f1), auc: Number.isNaN(m.auc) ? null : r(m.auc), n: scores.length };
}
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function isStringArray(v) {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}
function checkTraining(t, bad) {
  if (!isObject(t)) bad(`"training" must be an object, got ${describe2(t)}`);
  const o = t;
  if (typeof o.source !== "string") bad(`"training.source" must be a string, got ${describe2(o.source)}`);
  if (!isObject(o.counts) || !Object.values(o.counts).every((n) => typeof n === "number" && Number.isFinite(n))) {
    bad(`"training.counts" must be an object of numbers, got ${describe2(o.counts)}`);
  }
  if (!isObject(o.options)) bad(`"training.options" must be an object, got ${describe2(o.options)}`);
}
function describe2(v) {
  if (v === void 0) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}\u2026` : v);
  if (typeof v === "object") return "an object";
  return `${typeof v} ${String(v)}`;
}
var MODEL_FORMAT, MODEL_VERSION, READABLE_VERSIONS, MAX_MODEL_BYTES, DEFAULT_MODEL_THRESHOLD, DEFAULT_DOMAIN_TERMS, DEFAULT_TOPIC_TERMS, ACCURACY_SAMPLE, Model, DEFAULT_HUB_DENSITY, DIGITS_ONLY;
var init_model = __esm({
  "src/relevance/model.ts"() {
    "use strict";
    init_errors();
    init_read_capped();
    init_tokenize();
    init_features();
    init_bernoulli_nb();
    init_tfidf();
    init_continuous_nb();
    init_multi_nb();
    init_metrics();
    init_linear();
    init_version();
    MODEL_FORMAT = "focuscrawl-model";
    MODEL_VERSION = 3;
    READABLE_VERSIONS = [1, 2, 3];
    MAX_MODEL_BYTES = 64 * 1024 * 1024;
    DEFAULT_MODEL_THRESHOLD = 0.5;
    DEFAULT_DOMAIN_TERMS = 50;
    DEFAULT_TOPIC_TERMS = 30;
    ACCURACY_SAMPLE = 5e3;
    Model = class _Model {
      target;
      terms;
      /** P(target | page) at or above this counts as relevant */
      threshold;
      /** link feature group: 1 anchor words, 2 + context words + domain flags (docs/algorithms.md#nb-link), 3 + target URL, 4 + parent title */
      group;
      domainTerms;
      /** the validated file content */
      json;
      #page;
      #link;
      #vectorizer;
      #gaussian;
      #kernel;
      #layers;
      #segmenter;
      /** the last layer of the layered link classifier (classes 0..top), or null when the model has none */
      topLayer;
      #linear;
      /** the learner behind pageProbability and linkProbability */
      classifier;
      constructor(json, parts, segmenter) {
        this.json = json;
        this.target = json.target;
        this.terms = Object.freeze([...json.terms]);
        this.threshold = json.threshold;
        this.group = json.link.group;
        this.domainTerms = new Set(json.link.domainTerms);
        this.#page = parts.page;
        this.#link = parts.link;
        this.#vectorizer = parts.vectorizer;
        this.#gaussian = parts.gaussian;
        this.#kernel = parts.kernel;
        this.#layers = parts.layers ?? null;
        this.topLayer = this.#layers === null ? null : this.#layers.classes - 1;
        this.#linear = parts.linear;
        this.classifier = parts.linear === null ? "nb" : "linear";
        this.#segmenter = segmenter;
      }
      /**
       * Validates a parsed model document and builds the model. `source` names
       * the file in messages. Throws ModelError (FC_BAD_MODEL) naming the first
       * problem: not an object, wrong `format`, `version` not in
       * READABLE_VERSIONS (or version 1 with group 3), or any
       * field missing or of the wrong type (the classifiers validate their own
       * parts). `segmenter` is used for Han text (default: the tokenizer's).
       */
      static fromJSON(json, source = "model", segmenter) {
        const bad = (what, cause) => {
          throw new ModelError(`${source}: ${what}`, cause === void 0 ? void 0 : { cause });
        };
        if (!isObject(json)) return bad(`expected a JSON object, got ${describe2(json)}`);
        if (json.format !== MODEL_FORMAT) return bad(`not a focuscrawl model ("format" is ${describe2(json.format)}, expected "${MODEL_FORMAT}")`);
        if (!READABLE_VERSIONS.includes(json.version)) {
          return bad(`unsupported model version ${describe2(json.version)} (this focuscrawl reads versions ${READABLE_VERSIONS.join(" and ")}; retrain with focuscrawl train)`);
        }
        if (typeof json.target !== "string" || json.target === "") bad(`"target" must be a non-empty string, got ${describe2(json.target)}`);
        if (typeof json.createdBy !== "string") bad(`"createdBy" must be a string, got ${describe2(json.createdBy)}`);
        checkTraining(json.training, bad);
        if (!isStringArray(json.terms)) bad(`"terms" must be an array of strings, got ${describe2(json.terms)}`);
        const threshold = json.threshold;
        if (typeof threshold !== "number" || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
          bad(`"threshold" must be a number between 0 and 1, got ${describe2(threshold)}`);
        }
        const link2 = json.link;
        if (!isObject(link2)) return bad(`"link" must be an object, got ${describe2(link2)}`);
        if (!isFeatureGroup(link2.group)) bad(`"link.group" must be 1, 2, 3 or 4, got ${describe2(link2.group)}`);
        if (json.version === 1 && link2.group === 3) {
          bad("a version 1 model with link feature group 3 (its URL features changed in version 2): retrain it with focuscrawl train --feature-group 3");
        }
        if (!isStringArray(link2.domainTerms)) bad(`"link.domainTerms" must be an array of strings, got ${describe2(link2.domainTerms)}`);
        const kde = json.kde;
        if (!isObject(kde)) return bad(`"kde" must be an object, got ${describe2(kde)}`);
        const part = (name, value, make) => {
          if (!isObject(value)) return bad(`"${name}" must be an object, got ${describe2(value)}`);
          try {
            return make(value);
          } catch (err) {
            return bad(`"${name}" is malformed: ${err?.message ?? String(err)}`, err);
          }
        };
        const page = part("page", json.page, (v) => BernoulliNB.fromJSON(v));
        const linkNb = part("link.classifier", link2.classifier, (v) => BernoulliNB.fromJSON(v));
        const vectorizer = part("kde.vectorizer", kde.vectorizer, (v) => TfIdfVectorizer.fromJSON(v));
        const gaussian = part("kde.gaussian", kde.gaussian, (v) => ContinuousNB.fromJSON(v));
        const kernel = part("kde.kernel", kde.kernel, (v) => ContinuousNB.fromJSON(v));
        if (gaussian.density !== "gaussian") bad(`"kde.gaussian" has density ${describe2(gaussian.density)}, expected "gaussian"`);
        if (kernel.density !== "kernel") bad(`"kde.kernel" has density ${describe2(kernel.density)}, expected "kernel"`);
        let layers = null;
        if (json.layers !== void 0) {
          const l = json.layers;
          if (!isObject(l)) return bad(`"layers" must be an object, got ${describe2(l)}`);
          layers = part("layers.classifier", l.classifier, (v) => MultiNB.fromJSON(v));
          if (l.top !== layers.classes - 1) bad(`"layers.top" must be ${layers.classes - 1} (its classifier's classes less one), got ${describe2(l.top)}`);
        }
        let linear = null;
        if (json.version === 3) {
          const kind = json.classifier ?? "nb";
          if (kind !== "nb" && kind !== "linear") bad(`"classifier" must be "nb" or "linear", got ${describe2(kind)}`);
          if (kind === "linear") {
            const lin = json.linear;
            if (!isObject(lin)) return bad(`"linear" must be an object when "classifier" is "linear", got ${describe2(lin)}`);
            const hubDensity = lin.hubDensity;
            if (typeof hubDensity !== "number" || !(hubDensity > 0 && hubDensity <= 1)) bad(`"linear.hubDensity" must be a number in (0, 1], got ${describe2(hubDensity)}`);
            linear = {
              page: part("linear.page", lin.page, (v) => LinearClassifier.fromJSON(v)),
              link: part("linear.link", lin.link, (v) => LinearClassifier.fromJSON(v)),
              hubDensity
            };
          }
        } else if (json.classifier !== void 0 && json.classifier !== "nb" || json.linear !== void 0) {
          bad(`a linear classifier needs model version 3, this file is version ${describe2(json.version)}`);
        }
        return new _Model(json, { page, link: linkNb, vectorizer, gaussian, kernel, layers, linear }, segmenter);
      }
      /**
       * P(target | page). Naive Bayes models: the page classifier over
       * pageFeatures (learn/features.ts). Linear models: 0 for a hub (a page
       * whose linkDensity is above `linear.hubDensity`: its own text is a small
       * part of it), else the calibrated linear judge over the character
       * n-grams of pageMainText (title, headings, content: no anchors, no
       * navigation), whose L2-normalised TF-IDF vector makes a whole page and a
       * one-line training text comparable.
       */
      pageProbability(page) {
        const lin = this.#linear;
        if (lin === null) return this.#page.probability(pageFeatures(page, { segmenter: this.#segmenter }));
        if (linkDensity(page) > lin.hubDensity) return 0;
        return lin.page.calibrate(lin.page.marginOfTexts([[pageMainText(page), ""]]));
      }
      /**
       * P(+ | link context): Bernoulli NB over linkFeatures of the model's group
       * and domain terms (docs/algorithms.md#nb-link). `url` (the target) and `parent` (the page
       * the link is on) feed groups 3 and 4; lower groups ignore them.
       */
      linkProbability(anchor, context, url, parent) {
        if (this.#linear !== null) {
          const link2 = this.#linear.link;
          if (this.group < 3) return link2.calibrate(link2.marginOfTexts([[anchor, ""], [context, "c:"], [context, ""]]));
          const extra = linkFeatures("", "", { group: this.group, url, parentUrl: parent?.url, parentRelevant: parent?.relevant });
          const texts = [[anchor, ""], [context, "c:"], [context, ""]];
          if (this.group === 4 && parent?.title) texts.push([parent.title, "p:"]);
          return link2.calibrate(link2.marginOfTexts(texts, extra));
        }
        return this.#link.probability(
          linkFeatures(anchor, context, { group: this.group, domainTerms: this.domainTerms, segmenter: this.#segmenter, url, parentUrl: parent?.url, parentTitle: parent?.title, parentRelevant: parent?.relevant })
        );
      }
      /**
       * P(layer k | link) for k = 0..topLayer: the layered link classifier of
       * a context graph over the same features as linkProbability; null when
       * the model has no `layers` section.
       */
      layerProbabilities(anchor, context, url, parent) {
        if (this.#layers === null) return null;
        return this.#layers.probabilities(
          linkFeatures(anchor, context, { group: this.group, domainTerms: this.domainTerms, segmenter: this.#segmenter, url, parentUrl: parent?.url, parentTitle: parent?.title, parentRelevant: parent?.relevant })
        );
      }
      /** P(+ | link context): continuous NB over the TF-IDF vector of linkTokens(anchor, context) (docs/algorithms.md#bayes-kde). */
      kdeProbability(anchor, context, density) {
        const nb = density === "gaussian" ? this.#gaussian : this.#kernel;
        return nb.probability(this.#vectorizer.transform(linkTokens(anchor, context, this.#segmenter)));
      }
    };
    DEFAULT_HUB_DENSITY = 0.8;
    DIGITS_ONLY = new RegExp("^\\p{Nd}+$", "u");
  }
});

// src/util/heap.ts
var MinHeap;
var init_heap = __esm({
  "src/util/heap.ts"() {
    "use strict";
    MinHeap = class {
      #less;
      #items = [];
      constructor(less2) {
        this.#less = less2;
      }
      get size() {
        return this.#items.length;
      }
      peek() {
        return this.#items[0];
      }
      push(item) {
        const a = this.#items;
        let i = a.push(item) - 1;
        while (i > 0) {
          const up = i - 1 >>> 1;
          if (!this.#less(a[i], a[up])) break;
          [a[i], a[up]] = [a[up], a[i]];
          i = up;
        }
      }
      pop() {
        const a = this.#items;
        const top = a[0];
        const last = a.pop();
        if (a.length > 0 && last !== void 0) {
          a[0] = last;
          this.#down(0);
        }
        return top;
      }
      /** Keep only the items `keep` accepts (O(n)). */
      filter(keep) {
        this.#items = this.#items.filter(keep);
        for (let i = (this.#items.length >>> 1) - 1; i >= 0; i--) this.#down(i);
      }
      #down(i) {
        const a = this.#items;
        for (; ; ) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < a.length && this.#less(a[l], a[m])) m = l;
          if (r < a.length && this.#less(a[r], a[m])) m = r;
          if (m === i) return;
          [a[i], a[m]] = [a[m], a[i]];
          i = m;
        }
      }
    };
  }
});

// src/frontier/head.ts
function searchKey(entries, key) {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    if (entries[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
var DEFAULT_HEAD_CAPACITY, FrontierHead;
var init_head = __esm({
  "src/frontier/head.ts"() {
    "use strict";
    init_heap();
    init_canonical();
    DEFAULT_HEAD_CAPACITY = 4096;
    FrontierHead = class {
      #load;
      #capacity;
      #low;
      #chunk;
      #buf = [];
      #mark = void 0;
      /** the score of the entry whose key is #mark */
      #markScore = -Infinity;
      #exhausted = false;
      #loading = null;
      /** where the last scanBeyond stopped */
      #cursor = void 0;
      /**
       * The buffer again, by host (take() with a HostGate): every host not
       * parked is in #ready under its best entry's key (plus stale items, whose
       * key is not the host's readyKey), a parked one in #parked when it waits
       * for a time. So a take looks at the hosts in the order of their best
       * entries and never at the entries of a parked host.
       */
      #byHost = /* @__PURE__ */ new Map();
      #ready = new MinHeap((a, b) => a.key < b.key);
      #parked = new MinHeap((a, b) => a.at < b.at);
      #takes = 0;
      #examined = 0;
      /**
       * @param load reads up to `limit` store entries with key > `gt` (all when
       *   undefined), best first
       */
      constructor(opts) {
        this.#load = opts.load;
        this.#capacity = Math.max(4, opts.capacity ?? DEFAULT_HEAD_CAPACITY);
        this.#low = Math.max(1, Math.floor(this.#capacity / 8));
        this.#chunk = Math.max(2, Math.floor(this.#capacity / 4));
      }
      get size() {
        return this.#buf.length;
      }
      /** How many entries take() has passed to its verdict function so far. */
      get examined() {
        return this.#examined;
      }
      /** True when the store holds no entry that is not in the buffer. */
      get complete() {
        return this.#exhausted;
      }
      /**
       * The lowest priority a store entry can have and be buffered (or be about
       * to be: the next load starts beyond it); -Infinity while the buffer holds
       * the whole frontier or nothing was loaded yet. An entry whose priority
       * moves between two values below it changes nothing the crawler takes
       * until the buffer is loaded past it (the re-scores of the link-graph
       * strategies wait for that: see Scorer.rescore).
       */
      get floor() {
        return this.#exhausted || this.#mark === void 0 ? -Infinity : this.#markScore;
      }
      /** The best buffered entry: the one the crawler takes as soon as its host is free. */
      best() {
        return this.#buf[0];
      }
      /**
       * The score of the buffered entry `fraction` of the way down the buffer
       * (0: the best, 0.5: the median, 1: the worst); -Infinity when it is
       * empty. Every store entry beyond the buffer scores at most the worst.
       */
      scoreAt(fraction) {
        const n = this.#buf.length;
        if (n === 0) return -Infinity;
        return this.#buf[Math.min(n - 1, Math.max(0, Math.floor(fraction * (n - 1))))].entry.score;
      }
      /** Record a committed change to the store's frontier. */
      apply(change) {
        if (this.#loading !== null) {
          this.#loading.push(change);
          return;
        }
        for (const key of change.removed) this.#remove(key);
        for (const ke of change.added) {
          if (this.#exhausted || this.#mark !== void 0 && ke.key <= this.#mark) this.#insert(ke);
        }
        while (this.#buf.length > this.#capacity) {
          this.#unindex(this.#buf.pop());
          const last = this.#buf[this.#buf.length - 1];
          this.#mark = last.key;
          this.#markScore = last.entry.score;
          this.#exhausted = false;
        }
      }
      /** Load more entries from the store when the buffer runs low. */
      async refill() {
        if (this.#buf.length < this.#low) await this.#loadMore();
      }
      /**
       * Load one more chunk even though the buffer is not low, up to its
       * capacity: for when every buffered entry is skipped (busy hosts) and the
       * store may hold takeable ones beyond. True when entries were loaded.
       */
      async grow() {
        const before = this.#buf.length;
        await this.#loadMore();
        return this.#buf.length > before;
      }
      /**
       * When the buffer is full and every entry in it is skipped (busy hosts),
       * look at up to `limit` store entries beyond it for one the verdict takes,
       * resuming where the previous scan stopped. The entry found is not
       * buffered: it is taken as it is (the caller puts it in flight; a later
       * refill that meets it sees it in flight and skips it).
       */
      async scanBeyond(verdict, limit = 4096) {
        if (this.#exhausted || this.#mark === void 0) return null;
        let from = this.#cursor !== void 0 && this.#cursor > this.#mark ? this.#cursor : this.#mark;
        for (let seen = 0; seen < limit; ) {
          const want = Math.min(this.#chunk, limit - seen);
          const rows = await this.#load(from, want);
          for (const ke of rows) {
            if (verdict(ke) === "take") {
              this.#cursor = ke.key;
              return ke;
            }
          }
          seen += rows.length;
          if (rows.length < want) break;
          from = rows[rows.length - 1].key;
        }
        this.#cursor = void 0;
        return null;
      }
      async #loadMore() {
        if (this.#exhausted || this.#loading !== null || this.#buf.length >= this.#capacity) return;
        this.#loading = [];
        const want = Math.min(this.#chunk, this.#capacity - this.#buf.length);
        let rows = [];
        let failure = null;
        try {
          rows = await this.#load(this.#mark, want);
        } catch (err) {
          failure = err;
        }
        const pending = this.#loading;
        this.#loading = null;
        if (failure === null) {
          for (const ke of rows) if (this.#mark === void 0 || ke.key > this.#mark) this.#insert(ke);
          if (rows.length > 0) {
            const last = rows[rows.length - 1];
            this.#mark = last.key;
            this.#markScore = last.entry.score;
          }
          if (rows.length < want) this.#exhausted = true;
        }
        for (const change of pending) this.apply(change);
        if (failure !== null) throw failure;
      }
      /**
       * Remove and return the best entry the verdict function takes; if none is
       * taken, the best 'fallback' entry; else null. 'skip' entries stay. With
       * `above`, only entries scoring more than it are looked at.
       *
       * With a `gate`, the verdict is asked only about entries of hosts the gate
       * lets through now: a host that must wait is parked, and none of its
       * entries is looked at again until its time (gate.readyAt) has come or it
       * is released ({@link release}). What is taken is the same as without.
       */
      take(verdict, above = -Infinity, gate) {
        return gate === void 0 ? this.#takeScanning(verdict, above) : this.#takeByHost(verdict, above, gate);
      }
      /** A request to `host` ended: if its entries were set aside, take() looks at them again. */
      release(host) {
        const q = this.#byHost.get(host);
        if (q === void 0 || q.parkedUntil === 0) return;
        q.parkedUntil = 0;
        this.#enqueue(q);
      }
      #takeScanning(verdict, above) {
        let fallback = -1;
        const bounded = above > -Infinity;
        for (let i = 0; i < this.#buf.length && !(bounded && this.#buf[i].entry.score <= above); i++) {
          this.#examined++;
          const v = verdict(this.#buf[i]);
          if (v === "take") return this.#takeAt(i);
          if (v === "fallback" && fallback < 0) fallback = i;
        }
        return fallback >= 0 ? this.#takeAt(fallback) : null;
      }
      #takeAt(i) {
        const ke = this.#buf.splice(i, 1)[0];
        this.#unindex(ke);
        return ke;
      }
      #takeByHost(verdict, above, gate) {
        const now = gate.now();
        for (let p = this.#parked.peek(); p !== void 0 && p.at <= now; p = this.#parked.peek()) {
          this.#parked.pop();
          if (this.#byHost.get(p.q.host) === p.q && p.q.parkedUntil === p.at) {
            p.q.parkedUntil = 0;
            this.#enqueue(p.q);
          }
        }
        const take = ++this.#takes;
        const bounded = above > -Infinity;
        const touched = [];
        let picked;
        let fallback;
        while (picked === void 0) {
          const item = this.#ready.peek();
          if (item === void 0) break;
          const q = item.q;
          if (q.readyKey !== item.key) {
            this.#ready.pop();
            continue;
          }
          if (bounded && item.score <= above) break;
          this.#ready.pop();
          if (q.checkedIn !== take) {
            q.checkedIn = take;
            const at = gate.readyAt(q.host);
            if (at > now) {
              q.parkedUntil = at;
              q.readyKey = null;
              if (at < Infinity) this.#parked.push({ at, q });
              continue;
            }
            touched.push(q);
          }
          const i = searchKey(q.entries, item.key);
          const ke = q.entries[i];
          this.#examined++;
          const v = verdict(ke);
          if (v === "take") {
            picked = ke;
          } else if (v === "fallback") {
            fallback ??= ke;
            q.readyKey = null;
          } else {
            const next = q.entries[i + 1];
            q.readyKey = next === void 0 ? null : next.key;
            if (next !== void 0) this.#ready.push({ key: next.key, score: next.entry.score, q });
          }
        }
        const got = picked ?? fallback;
        if (got !== void 0) {
          this.#buf.splice(this.#search(got.key), 1);
          this.#unindex(got, false);
        }
        for (const q of touched) {
          if (this.#byHost.get(q.host) === q && q.parkedUntil === 0) this.#enqueue(q);
        }
        if (this.#ready.size > 2 * this.#byHost.size + 1024) this.#ready.filter((it) => it.q.readyKey === it.key);
        if (this.#parked.size > 2 * this.#byHost.size + 1024) {
          this.#parked.filter((it) => this.#byHost.get(it.q.host) === it.q && it.q.parkedUntil === it.at);
        }
        return got ?? null;
      }
      /** Put `q` (not parked, not empty) into #ready under its best key. */
      #enqueue(q) {
        const best = q.entries[0];
        q.readyKey = best.key;
        this.#ready.push({ key: best.key, score: best.entry.score, q });
      }
      #index(ke) {
        const host = hostOfCanonical(ke.entry.url);
        let q = this.#byHost.get(host);
        if (q === void 0) {
          q = { host, entries: [], readyKey: null, parkedUntil: 0, checkedIn: 0 };
          this.#byHost.set(host, q);
        }
        const i = searchKey(q.entries, ke.key);
        q.entries.splice(i, 0, ke);
        if (i === 0 && q.parkedUntil === 0) this.#enqueue(q);
      }
      /** Forget a buffered entry in the host index; `requeue`: re-key its host in #ready when it was its best. */
      #unindex(ke, requeue = true) {
        const q = this.#byHost.get(hostOfCanonical(ke.entry.url));
        if (q === void 0) return;
        const i = searchKey(q.entries, ke.key);
        if (q.entries[i]?.key !== ke.key) return;
        q.entries.splice(i, 1);
        if (q.entries.length === 0) {
          this.#byHost.delete(q.host);
          q.readyKey = null;
        } else if (requeue && i === 0 && q.parkedUntil === 0) {
          this.#enqueue(q);
        }
      }
      #search(key) {
        let lo = 0;
        let hi = this.#buf.length;
        while (lo < hi) {
          const mid = lo + hi >>> 1;
          if (this.#buf[mid].key < key) lo = mid + 1;
          else hi = mid;
        }
        return lo;
      }
      #insert(ke) {
        const i = this.#search(ke.key);
        if (this.#buf[i]?.key !== ke.key) {
          this.#buf.splice(i, 0, ke);
          this.#index(ke);
        }
      }
      #remove(key) {
        const i = this.#search(key);
        if (this.#buf[i]?.key === key) this.#unindex(this.#buf.splice(i, 1)[0]);
      }
    };
  }
});

// src/fetch/address-guard.ts
import dns from "node:dns";
import net from "node:net";
function addressRange(ip) {
  const bare = ip.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const family = net.isIP(bare);
  if (family === 0) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const [name, list] of LISTS) if (list.check(bare, type)) return name;
  return null;
}
function isLocalhostName(hostname2) {
  const h = hostname2.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
}
function checkHostname(hostname2, policy = addressRange) {
  if (isLocalhostName(hostname2)) return new PrivateAddressError(hostname2, hostname2, "loopback");
  const bare = hostname2.replace(/^\[(.*)\]$/, "$1");
  if (net.isIP(bare) === 0) return null;
  const range = policy(bare);
  return range === null ? null : new PrivateAddressError(hostname2, bare, range);
}
function firstForbidden(hostname2, addresses, policy) {
  for (const a of addresses) {
    const range = policy(a.address);
    if (range !== null) return new PrivateAddressError(hostname2, a.address, range);
  }
  return null;
}
function guardedLookup(policy = addressRange, resolve2 = dns.lookup) {
  return (hostname2, options, callback) => {
    resolve2(hostname2, { ...options, all: true }, (err, addresses) => {
      if (err !== null) return callback(err, []);
      const refused = firstForbidden(hostname2, addresses, policy);
      if (refused !== null) return callback(refused, []);
      if (options.all === true) return callback(null, addresses);
      if (addresses.length === 0) {
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname2}`), { code: "ENOTFOUND" }), []);
      }
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
async function checkHost(hostname2, policy = addressRange, resolve2 = dns.lookup) {
  const refused = checkHostname(hostname2, policy);
  if (refused !== null || net.isIP(hostname2.replace(/^\[(.*)\]$/, "$1")) !== 0) return refused;
  const addresses = await new Promise((done) => {
    try {
      resolve2(hostname2, { all: true }, (err, found) => done(err === null ? found : []));
    } catch {
      done([]);
    }
  });
  return firstForbidden(hostname2, addresses, policy);
}
var V4, V6, EMBEDDINGS, LISTS;
var init_address_guard = __esm({
  "src/fetch/address-guard.ts"() {
    "use strict";
    init_errors();
    V4 = [
      ["metadata", "169.254.169.254", 32],
      ["broadcast", "255.255.255.255", 32],
      ["loopback", "127.0.0.0", 8],
      ["unspecified", "0.0.0.0", 8],
      ["private", "10.0.0.0", 8],
      ["private", "172.16.0.0", 12],
      ["private", "192.168.0.0", 16],
      ["cgnat", "100.64.0.0", 10],
      ["link-local", "169.254.0.0", 16],
      ["reserved", "192.0.0.0", 24],
      // IETF protocol assignments
      ["benchmark", "198.18.0.0", 15],
      ["multicast", "224.0.0.0", 4],
      ["reserved", "240.0.0.0", 4]
    ];
    V6 = [
      ["metadata", "fd00:ec2::254", 128],
      // AWS IMDS over IPv6
      ["loopback", "::1", 128],
      ["unspecified", "::", 128],
      ["unique-local", "fc00::", 7],
      ["link-local", "fe80::", 10],
      ["multicast", "ff00::", 8]
    ];
    EMBEDDINGS = [
      (hi, lo, p) => [`::ffff:${hi}:${lo}`, 96 + p],
      // IPv4-mapped
      (hi, lo, p) => [`64:ff9b::${hi}:${lo}`, 96 + p],
      // NAT64 well-known prefix
      (hi, lo, p) => [`::${hi}:${lo}`, 96 + p],
      // IPv4-compatible (deprecated)
      (hi, lo, p) => [`2002:${hi}:${lo}::`, 16 + p]
      // 6to4
    ];
    LISTS = (() => {
      const lists = /* @__PURE__ */ new Map();
      const listOf = (name) => {
        let list = lists.get(name);
        if (list === void 0) lists.set(name, list = new net.BlockList());
        return list;
      };
      for (const [name, addr, prefix] of V4) {
        const list = listOf(name);
        list.addSubnet(addr, prefix, "ipv4");
        const n = addr.split(".").map(Number);
        const hi = (n[0] << 8 | n[1]).toString(16);
        const lo = (n[2] << 8 | n[3]).toString(16);
        for (const embed of EMBEDDINGS) {
          const [v6, v6prefix] = embed(hi, lo, prefix);
          list.addSubnet(v6, v6prefix, "ipv6");
        }
      }
      const order = ["metadata", "broadcast", "loopback"];
      for (const [name, addr, prefix] of V6) {
        listOf(name).addSubnet(addr, prefix, "ipv6");
        if (!order.includes(name)) order.push(name);
      }
      for (const name of lists.keys()) if (!order.includes(name)) order.push(name);
      return order.map((name) => [name, lists.get(name)]);
    })();
  }
});

// src/fetch/lookup.ts
import dns2 from "node:dns";
import net2 from "node:net";
function isValidHostname(hostname2) {
  if (net2.isIP(hostname2.replace(/^\[(.*)\]$/, "$1")) !== 0) return true;
  const name = hostname2.endsWith(".") ? hostname2.slice(0, -1) : hostname2;
  if (name === "" || name.length > 253) return false;
  return name.split(".").every((label) => LABEL.test(label));
}
function connectLookup(resolve2) {
  return (hostname2, options, callback) => {
    resolve2(hostname2, { ...options, all: true }, (err, addresses) => {
      if (err !== null) return callback(err, []);
      if (options.all === true) return callback(null, addresses);
      if (addresses.length === 0) {
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname2}`), { code: "ENOTFOUND" }), []);
      }
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
var systemLookup, LABEL;
var init_lookup = __esm({
  "src/fetch/lookup.ts"() {
    "use strict";
    init_errors();
    systemLookup = (hostname2, options, callback) => dns2.lookup(hostname2, options, callback);
    LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;
  }
});

// src/fetch/undici.ts
import { createRequire as createRequire2 } from "node:module";
function load() {
  const require3 = createRequire2(import.meta.url);
  try {
    const Dispatcher = require3("undici/lib/dispatcher/dispatcher.js");
    if (typeof Dispatcher.prototype.request !== "function") Object.assign(Dispatcher.prototype, require3("undici/lib/api/index.js"));
    return {
      Agent: require3("undici/lib/dispatcher/agent.js"),
      Pool: require3("undici/lib/dispatcher/pool.js"),
      ProxyAgent: require3("undici/lib/dispatcher/proxy-agent.js"),
      errors: require3("undici/lib/core/errors.js"),
      deep: true
    };
  } catch {
    const all = require3("undici");
    return { Agent: all.Agent, Pool: all.Pool, ProxyAgent: all.ProxyAgent, errors: all.errors, deep: false };
  }
}
var undici;
var init_undici = __esm({
  "src/fetch/undici.ts"() {
    "use strict";
    undici = load();
  }
});

// src/fetch/http.ts
import { readFileSync as readFileSync3 } from "node:fs";
import { pipeline } from "node:stream";
import zlib from "node:zlib";
function toFetchError(err) {
  for (let e2 = err, depth = 0; e2 instanceof Error && depth < 8; e2 = e2.cause, depth++) {
    if (e2 instanceof FocuscrawlError) return e2;
  }
  if (err instanceof undici.errors.ConnectTimeoutError || err instanceof undici.errors.HeadersTimeoutError || err instanceof undici.errors.BodyTimeoutError || err?.code === "ETIMEDOUT") {
    return new TimeoutError(err.message, { cause: err });
  }
  const e = err;
  const msg = typeof e?.message === "string" && e.message !== "" ? e.message : String(err);
  const code = typeof e?.code === "string" && !msg.includes(e.code) ? `${e.code}: ` : "";
  return new NetworkError(`${code}${msg}`, { cause: err });
}
function parseContentType(value) {
  if (value === null) return { type: null, charset: null };
  const [head, ...params] = value.split(";");
  const type = head.trim().toLowerCase() || null;
  let charset = null;
  for (const p of params) {
    const eq = p.indexOf("=");
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    charset = p.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1").trim().toLowerCase() || null;
    break;
  }
  return { type, charset };
}
function isParseable(contentType, url) {
  if (contentType !== null) return PARSEABLE_TYPES.has(contentType);
  const path13 = new URL(url).pathname;
  const last = path13.slice(path13.lastIndexOf("/") + 1);
  const dot = last.lastIndexOf(".");
  if (dot < 0) return true;
  return PARSEABLE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}
function single(v) {
  if (v === void 0) return null;
  return Array.isArray(v) ? v.length > 0 ? v[v.length - 1] : null : v;
}
function isZlibHeader(head) {
  return head.length >= 2 && (head[0] & 15) === 8 && (head[0] << 8 | head[1]) % 31 === 0;
}
async function* rawChunks(head, it) {
  try {
    if (head.length > 0) yield head;
    for (; ; ) {
      const r = await it.next();
      if (r.done === true) return;
      yield r.value;
    }
  } catch (err) {
    throw toFetchError(err);
  } finally {
    await it.return?.();
  }
}
async function readBody(body, encodingHeader, maxBytes) {
  const encodings = (encodingHeader ?? "").toLowerCase().split(",").map((s) => s.trim()).filter((s) => s !== "" && s !== "identity");
  if (encodings.length > 1) throw new DecodeError(`unsupported content-encoding ${encodingHeader}`);
  const encoding = encodings[0] ?? null;
  const it = body[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  let decoder = null;
  switch (encoding) {
    case null:
      break;
    case "gzip":
    case "x-gzip":
      decoder = zlib.createGunzip();
      break;
    case "br":
      decoder = zlib.createBrotliDecompress();
      break;
    case "deflate": {
      try {
        while (head.length < 2) {
          const r = await it.next();
          if (r.done === true) break;
          head = Buffer.concat([head, r.value]);
        }
      } catch (err) {
        throw toFetchError(err);
      }
      decoder = isZlibHeader(head) ? zlib.createInflate() : zlib.createInflateRaw();
      break;
    }
    default:
      body.on("error", () => {
      }).destroy();
      throw new DecodeError(`unsupported content-encoding ${encodingHeader}`);
  }
  const source = rawChunks(head, it);
  const chunks = decoder === null ? source : pipeline(source, decoder, () => {
  });
  const kept = [];
  let bytes = 0;
  let truncated = false;
  try {
    for await (const chunk of chunks) {
      if (bytes + chunk.length > maxBytes) {
        kept.push(chunk.subarray(0, maxBytes - bytes));
        bytes = maxBytes;
        truncated = true;
        break;
      }
      kept.push(chunk);
      bytes += chunk.length;
    }
  } catch (err) {
    if (err instanceof FocuscrawlError) throw err;
    if (bytes === 0) throw new DecodeError(`cannot decode ${encoding} body: ${err.message}`, { cause: err });
    truncated = true;
  } finally {
    if (!body.readableEnded) body.on("error", () => {
    }).destroy();
  }
  return { body: Buffer.concat(kept, bytes), bytes, truncated };
}
var VERSION2, DEFAULT_USER_AGENT, ACCEPT_HTML, ACCEPT_ANY, HOST_CHECK_TTL_MS, HOST_CHECK_CAPACITY, DUMP_LIMIT, PARSEABLE_TYPES, PARSEABLE_EXTENSIONS, HttpClient;
var init_http = __esm({
  "src/fetch/http.ts"() {
    "use strict";
    init_errors();
    init_lru();
    init_address_guard();
    init_lookup();
    init_undici();
    VERSION2 = JSON.parse(readFileSync3(new URL("../../package.json", import.meta.url), "utf8")).version;
    DEFAULT_USER_AGENT = `focuscrawl/${VERSION2} (+https://github.com/focuscrawl/focuscrawl)`;
    ACCEPT_HTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";
    ACCEPT_ANY = "*/*";
    HOST_CHECK_TTL_MS = 6e4;
    HOST_CHECK_CAPACITY = 4096;
    DUMP_LIMIT = 64 * 1024;
    PARSEABLE_TYPES = /* @__PURE__ */ new Set(["text/html", "application/xhtml+xml"]);
    PARSEABLE_EXTENSIONS = /* @__PURE__ */ new Set(["html", "htm", "shtml", "xhtml", "php", "asp", "aspx", "jsp", "cgi"]);
    HttpClient = class {
      dispatcher;
      /**
       * With an http: proxy, the one pool to it that carries every http: request
       * in absolute form (what ProxyAgent's proxyTunnel:false wrapper sends), so
       * the connections and memory do not grow with the number of hosts; https:
       * targets still tunnel through `dispatcher`. Null without such a proxy.
       */
      proxyPool = null;
      proxyOrigin = "";
      userAgent;
      headersTimeoutMs;
      bodyTimeoutMs;
      fetchTimeoutMs;
      auth;
      /** the address policy when the private-address guard is on, else null */
      guard;
      resolver;
      /** counted by {@link get} */
      outcomes = { answered: 0, failed: 0, firstFailure: null };
      /** hostname -> outcome of {@link checkAddress}, kept HOST_CHECK_TTL_MS */
      hostChecks = new Lru(HOST_CHECK_CAPACITY);
      constructor(opts = {}) {
        this.userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;
        const connectTimeout = opts.connectTimeoutMs ?? 1e4;
        this.headersTimeoutMs = opts.headersTimeoutMs ?? 2e4;
        this.bodyTimeoutMs = opts.bodyTimeoutMs ?? 3e4;
        this.fetchTimeoutMs = opts.fetchTimeoutMs ?? 6e4;
        const connections = opts.connections ?? 8;
        this.auth = new Map(
          Object.entries(opts.auth ?? {}).map(([host, c]) => [
            host.toLowerCase(),
            `Basic ${Buffer.from(`${c.user}:${c.pass}`).toString("base64")}`
          ])
        );
        const common = { connections, headersTimeout: this.headersTimeoutMs, bodyTimeout: this.bodyTimeoutMs };
        this.guard = opts.proxy === void 0 && opts.allowPrivate !== true ? opts.addressPolicy ?? addressRange : null;
        this.resolver = opts.lookup ?? opts.resolver ?? systemLookup;
        const lookup = connectLookup(this.resolver);
        if (opts.proxy !== void 0) {
          const proxyUrl = new URL(opts.proxy);
          if (proxyUrl.protocol === "http:") {
            this.proxyOrigin = proxyUrl.origin;
            this.proxyPool = new undici.Pool(this.proxyOrigin, {
              ...common,
              connections: opts.proxyConnections ?? 64,
              connect: { timeout: connectTimeout, lookup }
            });
          }
          this.dispatcher = new undici.ProxyAgent({
            uri: opts.proxy,
            proxyTunnel: false,
            ...common,
            proxyTls: { timeout: connectTimeout, lookup },
            requestTls: { timeout: connectTimeout },
            // without this, the pools to the proxy would ignore `connections` and the timeouts
            factory: (origin, o) => new undici.Pool(origin, { ...o, ...common })
          });
        } else {
          const guarded = this.guard === null ? lookup : guardedLookup(this.guard, this.resolver);
          this.dispatcher = new undici.Agent({ ...common, connect: { timeout: connectTimeout, lookup: guarded } });
        }
      }
      /**
       * One GET of `url` (http or https), redirects not followed. Rejects with
       * TimeoutError (FC_TIMEOUT; also past fetchTimeoutMs), NetworkError (FC_NETWORK; also on abort),
       * DecodeError (FC_DECODE), BadHostError (FC_BAD_HOST: a malformed host
       * name, never looked up, nothing sent) or, unless private addresses are
       * allowed, PrivateAddressError (FC_PRIVATE_ADDRESS, nothing sent); any
       * HTTP status resolves. Counts its outcome in {@link outcomes}.
       */
      async get(url, opts) {
        const deadline = new AbortController();
        const ms = this.fetchTimeoutMs;
        const timer = setTimeout(() => deadline.abort(new TimeoutError(`no complete response from ${url} within ${ms} ms`)), ms);
        const onAbort = () => deadline.abort(opts.signal?.reason);
        if (opts.signal?.aborted === true) onAbort();
        opts.signal?.addEventListener("abort", onAbort, { once: true });
        try {
          const hop = await this.getWithoutDeadline(url, { ...opts, signal: deadline.signal });
          this.outcomes.answered++;
          return hop;
        } catch (err) {
          const code = err?.code;
          if ((code === "FC_NETWORK" || code === "FC_TIMEOUT") && opts.signal?.aborted !== true) {
            this.outcomes.failed++;
            this.outcomes.firstFailure ??= err;
          }
          throw err;
        } finally {
          clearTimeout(timer);
          opts.signal?.removeEventListener("abort", onAbort);
        }
      }
      /** {@link get} without the fetchTimeoutMs deadline. */
      async getWithoutDeadline(url, opts) {
        const u = new URL(url);
        if (!isValidHostname(u.hostname)) throw new BadHostError(u.hostname);
        if (this.guard !== null) {
          const refused = checkHostname(u.hostname, this.guard);
          if (refused !== null) throw refused;
        }
        const headers = {
          "user-agent": this.userAgent,
          accept: opts.accept === "any" ? ACCEPT_ANY : ACCEPT_HTML,
          "accept-encoding": "gzip, deflate, br"
        };
        const authorization = this.auth.get(u.host);
        if (authorization !== void 0) headers.authorization = authorization;
        let res;
        try {
          const direct = this.proxyPool === null || u.protocol !== "http:";
          if (!direct) headers.host = u.host;
          res = await (direct ? this.dispatcher : this.proxyPool).request({
            origin: direct ? u.origin : this.proxyOrigin,
            path: direct ? u.pathname + u.search : u.origin + u.pathname + u.search,
            method: "GET",
            headers,
            signal: opts.signal,
            headersTimeout: this.headersTimeoutMs,
            bodyTimeout: this.bodyTimeoutMs
          });
        } catch (err) {
          throw toFetchError(err);
        }
        if (res.statusCode === 407 && this.proxyPool !== null && u.protocol === "http:") {
          res.body.on("error", () => {
          }).destroy();
          throw new NetworkError("proxy authentication required (407)");
        }
        const flat = {};
        for (const [name, v] of Object.entries(res.headers)) {
          if (v !== void 0) flat[name.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
        }
        const location = single(res.headers.location);
        const { type, charset } = parseContentType(single(res.headers["content-type"]));
        const hop = {
          status: res.statusCode,
          headers: flat,
          location,
          contentType: type,
          headerCharset: charset,
          body: null,
          bytes: 0,
          truncated: false,
          replay: res.headers["x-focuscrawl-replay"] !== void 0
        };
        const isRedirect = res.statusCode >= 300 && res.statusCode < 400 && location !== null;
        if (isRedirect || opts.accept !== "any" && !isParseable(type, url)) {
          await res.body.dump({ limit: DUMP_LIMIT }).catch(() => {
          });
          return hop;
        }
        let read;
        try {
          read = await readBody(res.body, single(res.headers["content-encoding"]), opts.maxBytes);
        } catch (err) {
          if (err instanceof DecodeError) err.response = { status: hop.status, headers: flat };
          throw err;
        }
        return { ...hop, ...read };
      }
      /**
       * GET `url` following redirects (to any host, at most `maxRedirects`, default
       * 5) and decode the body (capped at `maxBytes`) as UTF-8; for robots.txt.
       * Any final status resolves. Throws TooManyRedirectsError
       * (FC_TOO_MANY_REDIRECTS), BadRedirectError (FC_BAD_REDIRECT: Location not
       * http(s) or malformed), and whatever {@link get} throws.
       */
      async getText(url, opts) {
        const maxRedirects = opts.maxRedirects ?? 5;
        let current = url;
        for (let redirects = 0; ; redirects++) {
          const hop = await this.get(current, { maxBytes: opts.maxBytes, accept: "any", signal: opts.signal });
          if (hop.status < 300 || hop.status >= 400 || hop.location === null) {
            return { status: hop.status, body: hop.body === null ? "" : hop.body.toString("utf8") };
          }
          if (redirects >= maxRedirects) throw new TooManyRedirectsError(`more than ${maxRedirects} redirects from ${url}`);
          let next;
          try {
            next = new URL(hop.location, current);
          } catch (err) {
            throw new BadRedirectError(`${current} redirects to malformed ${JSON.stringify(hop.location)}`, { cause: err });
          }
          if (next.protocol !== "http:" && next.protocol !== "https:") {
            throw new BadRedirectError(`${current} redirects to non-http(s) ${JSON.stringify(hop.location)}`);
          }
          next.hash = "";
          current = next.href;
        }
      }
      /**
       * The PrivateAddressError a request to `url` would meet (its host is a
       * localhost name, a forbidden IP literal, or a name with a forbidden
       * address; names are resolved once per HOST_CHECK_TTL_MS), or null: also
       * when the guard is off or the name does not resolve. Lets a crawl refuse a
       * URL before fetching its robots.txt; the connect-time check in
       * {@link get} is the one that holds against DNS changes.
       */
      checkAddress(url) {
        if (this.guard === null) return Promise.resolve(null);
        const hostname2 = new URL(url).hostname;
        if (!isValidHostname(hostname2)) return Promise.resolve(null);
        const now = Date.now();
        const cached = this.hostChecks.get(hostname2);
        if (cached !== void 0 && now < cached.expires) return cached.refused;
        const refused = checkHost(hostname2, this.guard, this.resolver);
        this.hostChecks.set(hostname2, { expires: now + HOST_CHECK_TTL_MS, refused });
        return refused;
      }
      /** Close all connections (waits for in-flight requests). */
      async close() {
        await Promise.all([this.dispatcher.close(), this.proxyPool?.close()]);
      }
    };
  }
});

// src/frontier/inflight.ts
var Inflight;
var init_inflight = __esm({
  "src/frontier/inflight.ts"() {
    "use strict";
    Inflight = class {
      #urls = /* @__PURE__ */ new Set();
      #waiters = /* @__PURE__ */ new Set();
      #wakes = 0;
      get size() {
        return this.#urls.size;
      }
      has(url) {
        return this.#urls.has(url);
      }
      add(url) {
        this.#urls.add(url);
      }
      /** The URL was committed (or given up): forget it and wake the source. */
      delete(url) {
        this.#urls.delete(url);
        this.wake();
      }
      /**
       * How many times wake() was called: read it before looking at the state,
       * pass it to wait(), and a wake-up in between is not lost.
       */
      get wakes() {
        return this.#wakes;
      }
      /** Wake everything waiting in wait(). */
      wake() {
        this.#wakes++;
        const waiters = [...this.#waiters];
        this.#waiters.clear();
        for (const w of waiters) w();
      }
      /**
       * Resolve on the next wake(), or after `ms` (Infinity: only on wake); at
       * once when `since` (a {@link wakes} count read earlier) is behind, i.e.
       * a wake-up came after it was read.
       */
      wait(ms = Infinity, signal, since) {
        if (since !== void 0 && since !== this.#wakes) return Promise.resolve();
        return new Promise((resolve2) => {
          let timer;
          const done = () => {
            if (timer !== void 0) clearTimeout(timer);
            signal?.removeEventListener("abort", done);
            this.#waiters.delete(done);
            resolve2();
          };
          if (Number.isFinite(ms)) timer = setTimeout(done, Math.max(0, ms));
          signal?.addEventListener("abort", done, { once: true });
          this.#waiters.add(done);
        });
      }
    };
  }
});

// src/util/iter.ts
async function firstN(it, limit) {
  const rows = [];
  if (limit <= 0) return rows;
  for await (const row of it) {
    rows.push(row);
    if (rows.length >= limit) break;
  }
  return rows;
}
async function* mapConcurrent(source, limit, fn) {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${limit}`);
  const it = source[Symbol.asyncIterator]();
  const results = [];
  let running = 0;
  let pulling = false;
  let sourceDone = false;
  let failure = null;
  let wake = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const run = (item) => {
    running++;
    fn(item).then(
      (u) => results.push(u),
      (err) => failure ??= { err }
    ).finally(() => {
      running--;
      notify();
    });
  };
  const pull = () => {
    pulling = true;
    it.next().then(
      (r) => {
        pulling = false;
        if (r.done === true) {
          sourceDone = true;
          notify();
        } else if (failure === null) {
          run(r.value);
          setImmediate(notify);
        } else notify();
      },
      (err) => {
        pulling = false;
        sourceDone = true;
        failure ??= { err };
        notify();
      }
    );
  };
  try {
    for (; ; ) {
      if (results.length === 0 && !sourceDone && failure === null && !pulling && running < limit) pull();
      if (results.length > 0) {
        yield results.shift();
        continue;
      }
      if ((sourceDone || failure !== null) && !pulling && running === 0) {
        if (failure !== null) throw failure.err;
        return;
      }
      await new Promise((resolve2) => {
        wake = resolve2;
      });
    }
  } finally {
    if (!sourceDone) void Promise.resolve(it.return?.()).catch(() => {
    });
  }
}
var init_iter = __esm({
  "src/util/iter.ts"() {
    "use strict";
  }
});

// src/frontier/stall.ts
function stallWatchdog(opts) {
  const intervalMs = opts.intervalMs ?? 1e3;
  const giveUpMs = opts.giveUpMs ?? 9e4;
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
      const err = new StalledError(`${opts.describe()}; no progress for ${Math.round((t - since) / 1e3)} s`);
      setImmediate(() => opts.fail(err));
      return;
    }
    setTimeout(opts.wake, intervalMs);
  };
}
var init_stall = __esm({
  "src/frontier/stall.ts"() {
    "use strict";
    init_errors();
  }
});

// src/output/ndjson.ts
var LineOutput;
var init_ndjson = __esm({
  "src/output/ndjson.ts"() {
    "use strict";
    LineOutput = class {
      #stream;
      #closed = false;
      #onClosed;
      constructor(stream, onClosed) {
        this.#stream = stream;
        this.#onClosed = onClosed;
        stream.on("error", this.#close);
        stream.on("close", this.#close);
      }
      /** The reader is gone (EPIPE, destroyed stream). */
      get closed() {
        return this.#closed;
      }
      #close = () => {
        if (this.#closed) return;
        this.#closed = true;
        this.#onClosed();
      };
      /** Write one line; a promise when the stream wants the writer to wait. */
      write(line) {
        if (this.#closed || this.#stream.destroyed) return void 0;
        if (this.#stream.write(line)) return void 0;
        return new Promise((resolve2) => {
          const done = () => {
            this.#stream.off("drain", done);
            this.#stream.off("close", done);
            this.#stream.off("error", done);
            resolve2();
          };
          this.#stream.on("drain", done);
          this.#stream.on("close", done);
          this.#stream.on("error", done);
        });
      }
      /** Stop listening to the stream (it is not ended: stdout stays open). */
      detach() {
        this.#stream.off("error", this.#close);
        this.#stream.off("close", this.#close);
      }
    };
  }
});

// src/frontier/politeness.ts
function politeDelayMs(delayMs2, crawlDelayMs, factor, elapsedMs) {
  const adaptive = factor > 0 && elapsedMs > 0 ? Math.min(MAX_ADAPTIVE_DELAY_MS, factor * elapsedMs) : 0;
  return Math.max(delayMs2, crawlDelayMs ?? 0, adaptive);
}
var MAX_ADAPTIVE_DELAY_MS, HostScheduler;
var init_politeness = __esm({
  "src/frontier/politeness.ts"() {
    "use strict";
    MAX_ADAPTIVE_DELAY_MS = 3e4;
    HostScheduler = class {
      #opts;
      #hosts = /* @__PURE__ */ new Map();
      /** hosts of the last K-1 fetches started, oldest first */
      #recent = [];
      /** moving average of how long a request took, ms (0 until one ended) */
      #requestMs = 0;
      /** the last answer came from a replay proxy (a guess for hosts not yet answered) */
      #lastReplay = false;
      #releaseListeners = /* @__PURE__ */ new Set();
      constructor(opts) {
        if (!(opts.perHost >= 1)) throw new TypeError("perHost must be >= 1");
        if (!(opts.delayMs >= 0)) throw new TypeError("delayMs must be >= 0");
        if (!((opts.delayFactor ?? 0) >= 0)) throw new TypeError("delayFactor must be >= 0");
        this.#opts = {
          ...opts,
          delayFactor: opts.delayFactor ?? 0,
          delayExplicit: opts.delayExplicit ?? false,
          hostDiversity: opts.hostDiversity ?? 0,
          now: opts.now ?? Date.now
        };
      }
      /** May a request to `host` start now (ignoring host diversity)? */
      ready(host) {
        const s = this.#hosts.get(host);
        return s === void 0 || s.active < this.#opts.perHost && s.nextAt <= this.#opts.now();
      }
      /** The scheduler's clock, ms. */
      now() {
        return this.#opts.now();
      }
      /**
       * When a request to `host` may start (ignoring host diversity), on the
       * clock of {@link now}: a time <= now() when it may now; Infinity while all
       * its slots are in flight (then not before a {@link finish}, which calls
       * the {@link onRelease} listeners). Only time and finish() make it earlier.
       */
      readyAt(host) {
        const s = this.#hosts.get(host);
        if (s === void 0) return 0;
        return s.active < this.#opts.perHost ? s.nextAt : Infinity;
      }
      /** Call `listener` with the host whenever a request ends ({@link finish}); returns the unsubscribe. */
      onRelease(listener) {
        this.#releaseListeners.add(listener);
        return () => this.#releaseListeners.delete(listener);
      }
      /** Would starting `host` now keep the last K fetches on K different hosts? */
      diverse(host) {
        return this.#opts.hostDiversity < 2 || !this.#recent.includes(host);
      }
      /** A request to `host` starts. */
      start(host) {
        let s = this.#hosts.get(host);
        if (s === void 0) {
          s = { active: 0, nextAt: 0, replay: false };
          this.#hosts.set(host, s);
        }
        s.active++;
        const k = this.#opts.hostDiversity;
        if (k >= 2) {
          this.#recent.push(host);
          if (this.#recent.length > k - 1) this.#recent.shift();
        }
      }
      /**
       * A request to `host` (for `url`) ended. `replay` says whether the answer
       * came from a replay proxy; `requested` is false when no request was made
       * after all (robots.txt refused the URL): then no delay follows.
       * `elapsedMs`: how long the request took (for `delayFactor`).
       */
      finish(host, url, replay, requested = true, elapsedMs = 0) {
        const s = this.#hosts.get(host);
        if (s === void 0 || s.active === 0) throw new Error(`finish() without start() for ${host}`);
        s.active--;
        for (const listener of this.#releaseListeners) listener(host);
        if (!requested) return;
        this.#lastReplay = replay;
        if (elapsedMs > 0) this.#requestMs = this.#requestMs === 0 ? elapsedMs : this.#requestMs + (elapsedMs - this.#requestMs) / 16;
        s.replay ||= replay;
        s.nextAt = Math.max(s.nextAt, this.#opts.now() + this.#delayAfter(url, s.replay, elapsedMs));
        if (s.active === 0 && s.nextAt <= this.#opts.now()) this.#hosts.delete(host);
      }
      /** The pause owed after a request for `url` that took `elapsedMs` ends: 0 for replayed hosts unless --delay-ms was explicit. */
      #delayAfter(url, replay, elapsedMs = 0) {
        if (replay && !this.#opts.delayExplicit) return 0;
        return politeDelayMs(this.#opts.delayMs, this.#opts.crawlDelayMs?.(url) ?? null, this.#opts.delayFactor, elapsedMs);
      }
      /**
       * Milliseconds a followed redirect hop to `url` on `host` must wait. When
       * `held` (the item already holds a slot on this host: a same-host hop) it
       * waits the politeness delay after its own request, which just ended
       * (`replay`: that answer came from a replay proxy; `elapsedMs`: how long
       * it took, for `delayFactor`); either way it waits
       * for the host's next allowed start. A hop to another host then calls
       * {@link start} and {@link finish} around its request like any fetch; it
       * does not wait for a free slot there (two items redirecting into each
       * other's hosts would wait forever), so a host can briefly see one
       * request more than `perHost`.
       */
      hopDelayMs(host, url, held, replay, elapsedMs = 0) {
        const s = this.#hosts.get(host);
        const own = held ? this.#delayAfter(url, replay || (s?.replay ?? false), elapsedMs) : 0;
        return Math.max(own, (s?.nextAt ?? 0) - this.#opts.now(), 0);
      }
      /**
       * Make `host` wait at least `ms` from now before its next request (retry
       * backoff or Retry-After, see src/frontier/retry.ts); unlike the politeness delay
       * it applies to replayed answers too.
       */
      backoff(host, ms) {
        if (!(ms > 0)) return;
        let s = this.#hosts.get(host);
        if (s === void 0) {
          s = { active: 0, nextAt: 0, replay: false };
          this.#hosts.set(host, s);
        }
        s.nextAt = Math.max(s.nextAt, this.#opts.now() + ms);
      }
      /** How long a request takes, ms: a moving average over the last ~16 that ended (0 before the first). */
      get typicalRequestMs() {
        return this.#requestMs;
      }
      /**
       * About how many milliseconds until a request for `url` may start on
       * `host`: 0 when it may now; the rest of its delay or backoff; for a host
       * whose slots are all in flight, the delay owed after the request ends
       * (the request's own remaining time is not known and not counted; whether
       * its answer comes from a replay proxy is guessed from the last answer).
       */
      waitEstimateMs(host, url) {
        const s = this.#hosts.get(host);
        if (s === void 0) return 0;
        const now = this.#opts.now();
        const rest = Math.max(0, s.nextAt - now);
        return s.active < this.#opts.perHost ? rest : rest + this.#delayAfter(url, s.replay || this.#lastReplay);
      }
      /** Milliseconds until some delayed host becomes ready; Infinity when none is waiting on a delay. */
      msUntilNextReady() {
        const now = this.#opts.now();
        let best = Infinity;
        for (const [host, s] of this.#hosts) {
          if (s.active === 0 && s.nextAt <= now) this.#hosts.delete(host);
          else if (s.active < this.#opts.perHost && s.nextAt > now) best = Math.min(best, s.nextAt - now);
        }
        return best;
      }
      /** Hosts with a request in flight. */
      get activeHosts() {
        let n = 0;
        for (const s of this.#hosts.values()) if (s.active > 0) n++;
        return n;
      }
    };
  }
});

// src/fetch/robots.ts
import robotsParserModule from "robots-parser";
function cutRobotsBody(body, maxBytes) {
  if (body.length * 3 <= maxBytes) return body;
  const { read } = encoder.encodeInto(body, new Uint8Array(maxBytes));
  if (read >= body.length) return body;
  const next = body.charAt(read);
  if (next === "\n" || next === "\r") return body.slice(0, read);
  const head = body.slice(0, read);
  const eol = Math.max(head.lastIndexOf("\n"), head.lastIndexOf("\r"));
  return eol < 0 ? "" : head.slice(0, eol);
}
function delayMs(seconds) {
  if (seconds === void 0 || !Number.isFinite(seconds) || seconds < 0) return null;
  return Math.round(seconds * 1e3);
}
function raceAbort(p, signal, ms) {
  return new Promise((resolve2, reject) => {
    const onAbort = () => reject(new TimeoutError(`timed out after ${ms} ms`));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve2(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      }
    );
  });
}
async function robotsAllows(robots, url) {
  try {
    const verdict = await robots.check(url);
    if (verdict.allowed) return null;
    return { code: verdict.code ?? "FC_ROBOTS_DISALLOWED", message: verdict.message ?? `robots.txt forbids ${url}` };
  } catch (err) {
    return toItemError(err);
  }
}
var robotsParser, PASSED_THROUGH, encoder, RobotsCache;
var init_robots = __esm({
  "src/fetch/robots.ts"() {
    "use strict";
    init_errors();
    init_lru();
    robotsParser = robotsParserModule;
    PASSED_THROUGH = /* @__PURE__ */ new Set(["FC_NETWORK", "FC_TIMEOUT", "FC_BAD_HOST"]);
    encoder = new TextEncoder();
    RobotsCache = class {
      #fetch;
      #ua;
      #unavailableMs;
      #maxBytes;
      #ttlMs;
      #timeoutMs;
      #now;
      #cache;
      #inflight = /* @__PURE__ */ new Map();
      constructor(opts) {
        if (typeof opts.fetchRobots !== "function") throw new TypeError("fetchRobots must be a function");
        if (typeof opts.userAgent !== "string" || opts.userAgent.trim() === "") {
          throw new TypeError("userAgent must be a non-empty product token");
        }
        this.#fetch = opts.fetchRobots;
        this.#ua = opts.userAgent;
        this.#unavailableMs = opts.unavailableMs ?? 10 * 6e4;
        this.#maxBytes = opts.maxBytes ?? 512 * 1024;
        this.#ttlMs = opts.ttlMs ?? 24 * 36e5;
        this.#timeoutMs = opts.timeoutMs ?? 3e4;
        this.#now = opts.now ?? Date.now;
        this.#cache = new Lru(opts.capacity ?? 1e3);
      }
      /**
       * Whether `url` (absolute http(s)) may be fetched. Fetches the origin's
       * robots.txt when it is not cached (or expired). `${origin}/robots.txt`
       * itself is always allowed, without a fetch. Never rejects for robots
       * trouble (that is a verdict); throws a TypeError for a non-http(s) or
       * malformed URL.
       */
      async check(url) {
        const u = new URL(url);
        if (u.protocol !== "http:" && u.protocol !== "https:") throw new TypeError(`not an http(s) URL: ${url}`);
        if (u.pathname === "/robots.txt" && u.search === "") {
          return { allowed: true, crawlDelayMs: this.crawlDelayMs(url) };
        }
        const entry = await this.#entry(u.origin);
        if (entry.unavailable !== null) {
          return { allowed: false, code: entry.code ?? "FC_ROBOTS_UNAVAILABLE", message: entry.unavailable, crawlDelayMs: null };
        }
        if (entry.robot !== null && entry.robot.isAllowed(u.href, this.#ua) === false) {
          const line = entry.robot.getMatchingLineNumber(u.href, this.#ua);
          return {
            allowed: false,
            code: "FC_ROBOTS_DISALLOWED",
            message: `${u.origin}/robots.txt line ${line} disallows ${u.pathname}${u.search} for ${this.#ua}`,
            crawlDelayMs: entry.crawlDelayMs
          };
        }
        return { allowed: true, crawlDelayMs: entry.crawlDelayMs };
      }
      /**
       * Crawl-delay in ms for `url`'s origin from the cache only: null when the
       * origin's robots.txt is not cached, gives no Crawl-delay for us, or the
       * URL is malformed. Does not change the LRU order.
       */
      crawlDelayMs(url) {
        let origin;
        try {
          origin = new URL(url).origin;
        } catch {
          return null;
        }
        return this.#cache.peek(origin)?.crawlDelayMs ?? null;
      }
      #entry(origin) {
        const cached = this.#cache.get(origin);
        if (cached !== void 0 && this.#now() < cached.expires) return Promise.resolve(cached);
        let pending = this.#inflight.get(origin);
        if (pending === void 0) {
          pending = this.#load(origin).finally(() => this.#inflight.delete(origin));
          this.#inflight.set(origin, pending);
        }
        return pending;
      }
      async #load(origin) {
        const robotsUrl = `${origin}/robots.txt`;
        let entry;
        try {
          const signal = AbortSignal.timeout(this.#timeoutMs);
          const res = await raceAbort(this.#fetch(robotsUrl, signal), signal, this.#timeoutMs);
          entry = this.#fromResponse(robotsUrl, res.status, res.body);
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          const code = err?.code;
          if (typeof code === "string" && PASSED_THROUGH.has(code)) {
            const failure = code;
            entry = { robot: null, crawlDelayMs: null, unavailable: `${robotsUrl} could not be fetched: ${why}`, code: failure, expires: this.#now() + this.#ttlMs };
            if (failure !== "FC_BAD_HOST") return entry;
          } else {
            entry = this.#unavailable(`${robotsUrl} could not be fetched (${why}); ${origin} is off limits`);
          }
        }
        this.#cache.set(origin, entry);
        return entry;
      }
      #fromResponse(robotsUrl, status, body) {
        const expires = this.#now() + this.#ttlMs;
        if (status >= 200 && status < 300) {
          const robot = robotsParser(robotsUrl, cutRobotsBody(body, this.#maxBytes));
          return { robot, crawlDelayMs: delayMs(robot.getCrawlDelay(this.#ua)), unavailable: null, expires };
        }
        if (status >= 300 && status < 500 && status !== 429) {
          return { robot: null, crawlDelayMs: null, unavailable: null, expires };
        }
        return this.#unavailable(`${robotsUrl} answered ${status}; ${new URL(robotsUrl).origin} is off limits`);
      }
      #unavailable(message) {
        return { robot: null, crawlDelayMs: null, unavailable: message, expires: this.#now() + this.#unavailableMs };
      }
    };
  }
});

// src/stages/address-guard.ts
function addressGuardStage(source, opts) {
  return mapConcurrent(source, opts.concurrency ?? 1, async (item) => {
    if (item.error === void 0) {
      const refused = await opts.check(item.entry.url);
      if (refused !== null) item.error = toItemError(refused);
    }
    return item;
  });
}
var init_address_guard2 = __esm({
  "src/stages/address-guard.ts"() {
    "use strict";
    init_errors();
    init_iter();
  }
});

// src/stages/classify.ts
async function* classifyStage(source, opts) {
  const maxOutlinks = opts.maxOutlinks ?? DEFAULT_MAX_LINKS;
  for await (const item of source) {
    if (item.error) {
      yield item;
      continue;
    }
    try {
      Object.assign(item, classify2(item, opts, maxOutlinks));
    } catch (err) {
      item.error = toItemError(err);
    }
    yield item;
  }
}
function classify2(item, { scorer, threshold, canonOptions }, maxOutlinks) {
  const page = item.page;
  if (!page) return { relevance: 0, relevant: false, outlinks: [] };
  const raw = scorer.pageRelevance(page, item);
  const relevance = Number.isFinite(raw) ? Math.min(1, Math.max(0, raw)) : 0;
  const outlinks = [];
  const status = item.fetch?.status ?? 200;
  if (status >= 200 && status < 300 && !page.nofollow) {
    const canonicalOf = canonicalizer(canonOptions);
    for (const link2 of page.links) {
      if (outlinks.length >= maxOutlinks) break;
      if (link2.nofollow) continue;
      const canonical = canonicalOf(link2.url);
      if (canonical === null) continue;
      const score = scorer.linkScore(link2, page, relevance, canonical);
      outlinks.push({ url: link2.url, canonical, score: Number.isFinite(score) ? score : 0, anchor: link2.anchor, context: link2.context });
    }
  }
  return { relevance, relevant: relevance >= threshold, outlinks };
}
var init_classify = __esm({
  "src/stages/classify.ts"() {
    "use strict";
    init_errors();
    init_page_parser();
    init_canonical();
  }
});

// src/relevance/simhash.ts
function fmix32(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507);
  h ^= h >>> 13;
  h = Math.imul(h, 3266489909);
  h ^= h >>> 16;
  return h >>> 0;
}
function hashToken(s, out, i) {
  let a = 2166136261;
  let b = 2538058380;
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    a = Math.imul(a ^ c, 16777619);
    b = Math.imul(b ^ c, 1540483477);
  }
  out[2 * i] = fmix32(a);
  out[2 * i + 1] = fmix32(b ^ 668265263);
}
function simhashTokens(tokens, minTokens = 1) {
  const n = tokens.length;
  if (n < Math.max(1, minTokens)) return null;
  const th = new Uint32Array(2 * n);
  for (let i = 0; i < n; i++) hashToken(tokens[i], th, i);
  const v = new Int32Array(64);
  const w = Math.min(SHINGLE, n);
  const shingles = n - w + 1;
  for (let s = 0; s < shingles; s++) {
    let x = 625341585 ^ w;
    let y = 1759714724 ^ w;
    for (let j = 0; j < w; j++) {
      x = Math.imul(x << 5 | x >>> 27, 2654435761) ^ th[2 * (s + j)];
      y = Math.imul(y << 7 | y >>> 25, 2246822519) ^ th[2 * (s + j) + 1];
    }
    const lo2 = fmix32(x);
    const hi2 = fmix32(y ^ lo2);
    for (let b = 0; b < 32; b++) {
      v[b] += (lo2 >>> b & 1) * 2 - 1;
      v[32 + b] += (hi2 >>> b & 1) * 2 - 1;
    }
  }
  let lo = 0;
  let hi = 0;
  for (let b = 0; b < 32; b++) {
    if (v[b] > 0) lo |= 1 << b;
    if (v[32 + b] > 0) hi |= 1 << b;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}
function popcount32(x) {
  x -= x >>> 1 & 1431655765;
  x = (x & 858993459) + (x >>> 2 & 858993459);
  x = x + (x >>> 4) & 252645135;
  return Math.imul(x, 16843009) >>> 24;
}
function fingerprintToHex(fp) {
  return fp.hi.toString(16).padStart(8, "0") + fp.lo.toString(16).padStart(8, "0");
}
function fingerprintFromHex(s) {
  if (typeof s !== "string" || !/^[0-9a-f]{16}$/i.test(s)) return null;
  return { hi: parseInt(s.slice(0, 8), 16) >>> 0, lo: parseInt(s.slice(8), 16) >>> 0 };
}
function bitsOf(hi, lo, start2, width) {
  let v;
  if (start2 >= 32) v = hi >>> start2 - 32;
  else if (start2 + width <= 32) v = lo >>> start2;
  else v = lo >>> start2 | hi << 32 - start2;
  return width === 32 ? v >>> 0 : (v & (1 << width) - 1) >>> 0;
}
var SHINGLE, DEFAULT_NEAR_DUP_DISTANCE, MAX_NEAR_DUP_DISTANCE, DEFAULT_MAX_CANDIDATES, TABLE_BITS, SimHashIndex;
var init_simhash = __esm({
  "src/relevance/simhash.ts"() {
    "use strict";
    SHINGLE = 3;
    DEFAULT_NEAR_DUP_DISTANCE = 3;
    MAX_NEAR_DUP_DISTANCE = 10;
    DEFAULT_MAX_CANDIDATES = 4096;
    TABLE_BITS = 16;
    SimHashIndex = class {
      maxDistance;
      maxCandidates;
      bands;
      tableBits;
      heads;
      next;
      fps;
      refs;
      n = 0;
      constructor(opts = {}) {
        const k = opts.maxDistance ?? DEFAULT_NEAR_DUP_DISTANCE;
        if (!Number.isInteger(k) || k < 1 || k > MAX_NEAR_DUP_DISTANCE) {
          throw new TypeError(`maxDistance must be an integer 1..${MAX_NEAR_DUP_DISTANCE}, got ${k}`);
        }
        this.maxDistance = k;
        this.maxCandidates = opts.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
        const count2 = k + 1;
        this.bands = [];
        let start2 = 0;
        for (let i = 0; i < count2; i++) {
          const width = Math.floor(64 / count2) + (i < 64 % count2 ? 1 : 0);
          this.bands.push({ start: start2, width, direct: width <= TABLE_BITS });
          start2 += width;
        }
        this.tableBits = this.bands.map((b) => Math.min(b.width, TABLE_BITS));
        this.heads = this.tableBits.map((bits) => new Int32Array(1 << bits).fill(-1));
        this.next = this.bands.map(() => new Int32Array(16));
        this.fps = new Uint32Array(32);
        this.refs = new Uint32Array(16);
      }
      /** Number of entries. */
      get size() {
        return this.n;
      }
      /** Bytes held by the typed arrays (capacity, not just the used part). */
      get bytes() {
        let b = this.fps.byteLength + this.refs.byteLength;
        for (const a of this.heads) b += a.byteLength;
        for (const a of this.next) b += a.byteLength;
        return b;
      }
      slot(band, fp) {
        const { start: start2, width, direct } = this.bands[band];
        const v = bitsOf(fp.hi, fp.lo, start2, width);
        return direct ? v : Math.imul(v, 2654435761) >>> 32 - this.tableBits[band];
      }
      grow() {
        const cap = this.refs.length * 2;
        const fps = new Uint32Array(cap * 2);
        fps.set(this.fps);
        this.fps = fps;
        const refs = new Uint32Array(cap);
        refs.set(this.refs);
        this.refs = refs;
        this.next = this.next.map((old) => {
          const a = new Int32Array(cap);
          a.set(old);
          return a;
        });
      }
      /** Add a fingerprint with a ref (an unsigned 32-bit number the caller chooses); returns its id. */
      add(fp, ref = 0) {
        if (this.n === this.refs.length) this.grow();
        const id = this.n++;
        this.fps[2 * id] = fp.hi;
        this.fps[2 * id + 1] = fp.lo;
        this.refs[id] = ref;
        for (let b = 0; b < this.bands.length; b++) {
          const s = this.slot(b, fp);
          this.next[b][id] = this.heads[b][s];
          this.heads[b][s] = id;
        }
        return id;
      }
      /** Change the ref of entry `id`. */
      setRef(id, ref) {
        if (!(id >= 0 && id < this.n)) throw new RangeError(`no entry ${id}`);
        this.refs[id] = ref;
      }
      /**
       * The entry nearest to `fp` within maxDistance (ties: the earliest), or
       * null. Looks at most maxCandidates entries per band.
       */
      nearest(fp) {
        let best = -1;
        let bestD = this.maxDistance + 1;
        for (let b = 0; b < this.bands.length; b++) {
          const next = this.next[b];
          let id = this.heads[b][this.slot(b, fp)];
          for (let seen = 0; id !== -1 && seen < this.maxCandidates; seen++, id = next[id]) {
            const d = popcount32((this.fps[2 * id] ^ fp.hi) >>> 0) + popcount32((this.fps[2 * id + 1] ^ fp.lo) >>> 0);
            if (d < bestD || d === bestD && id < best) {
              bestD = d;
              best = id;
            }
          }
        }
        return best === -1 ? null : { id: best, ref: this.refs[best], distance: bestD };
      }
    };
  }
});

// src/stages/dedup.ts
function pageFingerprint(page, minTokens = DEFAULT_NEAR_DUP_MIN_TOKENS, segmenter) {
  const parts = BLOCKS.map((b) => page.blocks[b]);
  for (const link2 of page.links) if (link2.block !== "navigation" && link2.anchor !== "") parts.push(link2.anchor);
  let text = parts.join(" \n ");
  if (text.length > MAX_FINGERPRINT_CHARS) text = text.slice(0, MAX_FINGERPRINT_CHARS);
  const tokens = tokenize(text, { stopwords: false, segmenter });
  if (tokens.length < minTokens || new Set(tokens).size < minTokens) return null;
  return simhashTokens(tokens);
}
async function* dedupStage(source, opts) {
  for await (const item of source) {
    try {
      await opts.dedup.check(item);
    } catch (err) {
      item.error = toItemError(err);
    }
    yield item;
  }
}
function urlOfCommitIn(store, logKey2) {
  return async (n) => {
    for await (const r of store.log({ gt: logKey2(n - 1) })) {
      const url = r.url;
      return typeof url === "string" ? url : null;
    }
    return null;
  };
}
var DEFAULT_NEAR_DUP_MIN_TOKENS, MAX_FINGERPRINT_CHARS, BLOCKS, NearDuplicates;
var init_dedup = __esm({
  "src/stages/dedup.ts"() {
    "use strict";
    init_errors();
    init_simhash();
    init_tokenize();
    DEFAULT_NEAR_DUP_MIN_TOKENS = 30;
    MAX_FINGERPRINT_CHARS = 16 * 1024;
    BLOCKS = ["title", "heading", "content", "other"];
    NearDuplicates = class {
      index;
      minTokens;
      /** near-duplicates found in this run */
      found = 0;
      /** pages fingerprinted in this run, and the CPU ms spent on them */
      fingerprinted = 0;
      fingerprintMs = 0;
      urlOfCommit;
      segmenter;
      /** entry id -> URL, for pages indexed but not committed yet */
      pending = /* @__PURE__ */ new Map();
      /** items indexed by check(), waiting for committed() */
      ids = /* @__PURE__ */ new WeakMap();
      constructor(opts) {
        this.index = new SimHashIndex({ maxDistance: opts.maxDistance });
        this.minTokens = opts.minTokens ?? DEFAULT_NEAR_DUP_MIN_TOKENS;
        this.urlOfCommit = opts.urlOfCommit;
        this.segmenter = opts.segmenter;
      }
      /**
       * Rebuild the index from committed records, in commit order (the n-th
       * record is commit n): every page record with a `simhash` and without
       * `duplicateOf`. Returns the number of entries added.
       */
      async restore(records) {
        let n = 0;
        let added = 0;
        for await (const r of records) {
          n++;
          const rec = r;
          if (rec.type !== "page" || rec.duplicateOf !== void 0) continue;
          const fp = fingerprintFromHex(rec.simhash);
          if (fp === null) continue;
          this.index.add(fp, n);
          added++;
        }
        return added;
      }
      /**
       * Fingerprint a 2xx page, look for an earlier near-duplicate, and set
       * `item.simhash` and, when one is found, `item.duplicateOf`; a page that
       * is not a duplicate joins the index.
       */
      async check(item) {
        const status = item.fetch?.status ?? 0;
        if (item.error !== void 0 || item.page === void 0 || status < 200 || status >= 300) return;
        const t0 = performance.now();
        const fp = pageFingerprint(item.page, this.minTokens, this.segmenter);
        this.fingerprintMs += performance.now() - t0;
        this.fingerprinted++;
        if (fp === null) return;
        item.simhash = fingerprintToHex(fp);
        const match = this.index.nearest(fp);
        if (match !== null) {
          const url = this.pending.get(match.id) ?? (match.ref > 0 ? await this.urlOfCommit(match.ref) : null);
          if (url !== null && url !== item.entry.url && url !== item.fetch?.finalUrl) {
            item.duplicateOf = url;
            this.found++;
            return;
          }
        }
        const id = this.index.add(fp, 0);
        this.pending.set(id, item.entry.url);
        this.ids.set(item, id);
      }
      /** The item's page is commit number `n` of the store: its index entry now points there. */
      committed(item, n) {
        const id = this.ids.get(item);
        if (id === void 0) return;
        this.ids.delete(item);
        this.index.setRef(id, n);
        this.pending.delete(id);
      }
    };
  }
});

// src/stages/fetch.ts
import { setMaxListeners } from "node:events";
async function fetchWithRedirects(url, opts, signal) {
  const maxRedirects = opts.maxRedirects ?? 5;
  const started = Date.now();
  const fetchedAt = new Date(started).toISOString();
  const chain = [url];
  const hops = [];
  let current = url;
  let hopDone;
  for (; ; ) {
    let hop;
    const at = chain.length === 1 ? fetchedAt : (/* @__PURE__ */ new Date()).toISOString();
    const hopStarted = Date.now();
    try {
      hop = await opts.client.get(current, { maxBytes: opts.maxBytes, signal });
    } catch (err) {
      hopDone?.(false);
      if (err instanceof DecodeError && err.response !== void 0) {
        hops.push({ url: current, status: err.response.status, headers: err.response.headers, fetchedAt: at });
      }
      if (hops.length > 0) return { refused: toItemError(err), hops };
      throw err;
    }
    hopDone?.(hop.replay);
    hopDone = void 0;
    if (REDIRECT_STATUSES.has(hop.status) && hop.location !== null) {
      hops.push({ url: current, status: hop.status, headers: hop.headers, fetchedAt: at });
      const next = canonicalize(hop.location, current, opts.canonOptions);
      if (next === null) {
        return { refused: toItemError(new BadRedirectError(`${current} redirects to ${JSON.stringify(hop.location)}`)), hops };
      }
      if (chain.includes(next)) return { refused: toItemError(new TooManyRedirectsError(`redirect loop: ${[...chain, next].join(" -> ")}`)), hops };
      if (chain.length > maxRedirects) return { refused: toItemError(new TooManyRedirectsError(`more than ${maxRedirects} redirects from ${url}`)), hops };
      const veto = opts.checkHop === void 0 ? null : await opts.checkHop(next);
      if (veto !== null) return { refused: veto, hops };
      hopDone = await opts.beforeHop?.(next, { origin: url, replay: hop.replay, elapsedMs: Date.now() - hopStarted, signal });
      chain.push(next);
      current = next;
      continue;
    }
    return {
      url,
      finalUrl: current,
      redirects: chain,
      status: hop.status,
      headers: hop.headers,
      contentType: hop.contentType,
      headerCharset: hop.headerCharset,
      body: hop.body,
      bytes: hop.bytes,
      truncated: hop.truncated,
      fetchedAt,
      ms: Date.now() - started,
      replay: hop.replay,
      ...hops.length > 0 ? { hops: [...hops, { url: current, status: hop.status, headers: hop.headers, fetchedAt: at }] } : {}
    };
  }
}
async function* fetchStage(source, opts) {
  if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) {
    throw new TypeError(`concurrency must be a positive integer, got ${opts.concurrency}`);
  }
  const abort = new AbortController();
  setMaxListeners(opts.concurrency + 8, abort.signal);
  const onAbort = () => abort.abort(opts.signal?.reason);
  if (opts.signal?.aborted === true) return;
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const it = source[Symbol.asyncIterator]();
  const finished = [];
  let running = 0;
  let pulling = false;
  let sourceDone = false;
  let sourceError = null;
  let wake = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  abort.signal.addEventListener("abort", notify, { once: true });
  const settle2 = (item, requested) => {
    try {
      opts.onFetched?.(item, requested);
    } catch (err) {
      item.error ??= toItemError(err);
    }
    finished.push(item);
    notify();
  };
  const run = async (item) => {
    try {
      const r = await fetchWithRedirects(item.entry.url, opts, abort.signal);
      if ("refused" in r) {
        item.error = r.refused;
        item.refusedHops = r.hops;
      } else item.fetch = r;
    } catch (err) {
      item.error = toItemError(err);
    }
    running--;
    if (!abort.signal.aborted) settle2(item, true);
  };
  const pull = () => {
    pulling = true;
    it.next().then(
      (r) => {
        pulling = false;
        if (r.done === true) sourceDone = true;
        else if (abort.signal.aborted) return;
        else if (r.value.error !== void 0) settle2(r.value, false);
        else {
          running++;
          void run(r.value);
        }
        notify();
      },
      (err) => {
        pulling = false;
        sourceDone = true;
        sourceError = { err };
        notify();
      }
    );
  };
  try {
    for (; ; ) {
      if (abort.signal.aborted) return;
      if (!sourceDone && !pulling && running + finished.length < opts.concurrency) pull();
      const item = finished.shift();
      if (item !== void 0) {
        yield item;
        continue;
      }
      if (sourceDone && !pulling && running === 0) {
        if (sourceError !== null) throw sourceError.err;
        return;
      }
      await new Promise((resolve2) => {
        wake = resolve2;
      });
    }
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    if (!abort.signal.aborted) abort.abort();
    if (!sourceDone) void Promise.resolve(it.return?.()).catch(() => {
    });
  }
}
var REDIRECT_STATUSES;
var init_fetch = __esm({
  "src/stages/fetch.ts"() {
    "use strict";
    init_errors();
    init_canonical();
    REDIRECT_STATUSES = /* @__PURE__ */ new Set([301, 302, 303, 307, 308]);
  }
});

// src/stages/host-budget.ts
async function* hostBudgetStage(source, opts) {
  for await (const item of source) {
    if (item.error === void 0 && !opts.budget.admit(item.entry.url)) {
      item.error = toItemError(new HostBudgetError(hostOfCanonical(item.entry.url), opts.budget.max));
    }
    yield item;
  }
}
var init_host_budget2 = __esm({
  "src/stages/host-budget.ts"() {
    "use strict";
    init_errors();
    init_canonical();
  }
});

// src/parse/charset.ts
function normaliseCharset(label) {
  if (label == null) return null;
  const l = label.trim().replace(/^["']+|["']+$/g, "").trim();
  if (l === "") return null;
  try {
    return new TextDecoder(l).encoding;
  } catch {
    return null;
  }
}
function bomCharset(body) {
  if (body.length >= 3 && body[0] === 239 && body[1] === 187 && body[2] === 191) return "utf-8";
  if (body.length >= 2 && body[0] === 255 && body[1] === 254) return "utf-16le";
  if (body.length >= 2 && body[0] === 254 && body[1] === 255) return "utf-16be";
  return null;
}
function prescanMetaCharset(body) {
  const head = body.subarray(0, PRESCAN_BYTES).toString("latin1").replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  for (const m of head.matchAll(META_TAG)) {
    let charset = null;
    let httpEquiv = "";
    let content = null;
    for (const a of (m[1] ?? "").matchAll(ATTR)) {
      const name = a[1].toLowerCase();
      const value = a[2] ?? a[3] ?? a[4] ?? "";
      if (name === "charset" && charset === null) charset = value;
      else if (name === "http-equiv") httpEquiv = value.trim().toLowerCase();
      else if (name === "content" && content === null) content = value;
    }
    let label = normaliseCharset(charset);
    if (label === null && httpEquiv === "content-type" && content !== null) {
      label = normaliseCharset(CONTENT_CHARSET.exec(content)?.[1]);
    }
    if (label !== null) return label.startsWith("utf-16") ? "utf-8" : label;
  }
  return null;
}
function looksLikeUtf8(body) {
  let nonAscii = false;
  for (let i = 0; i < body.length; i++) {
    if (body[i] >= 128) {
      nonAscii = true;
      break;
    }
  }
  if (!nonAscii) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(body, { stream: true });
    return true;
  } catch {
    return false;
  }
}
function sniffCharset(body, headerCharset) {
  return bomCharset(body) ?? normaliseCharset(headerCharset) ?? prescanMetaCharset(body) ?? (looksLikeUtf8(body) ? "utf-8" : FALLBACK_CHARSET);
}
function createDecoder(charset) {
  let encoding = FALLBACK_CHARSET;
  try {
    encoding = new TextDecoder(charset).encoding;
  } catch {
  }
  if (encoding === "windows-1252") return new Windows1252Decoder(encoding, { fatal: false });
  if (encoding === "gbk" || encoding === "gb18030") return new OneShotDecoder("gb18030", { fatal: false });
  if (encoding === "euc-jp") return new OneShotDecoder(encoding, { fatal: false });
  return new TextDecoder(encoding, { fatal: false });
}
var PRESCAN_BYTES, FALLBACK_CHARSET, META_TAG, ATTR, CONTENT_CHARSET, Windows1252Decoder, OneShotDecoder;
var init_charset = __esm({
  "src/parse/charset.ts"() {
    "use strict";
    PRESCAN_BYTES = 4096;
    FALLBACK_CHARSET = "windows-1252";
    META_TAG = /<meta(?=[\s/])([^>]*)>/gi;
    ATTR = /([^\s"'=/>]+)\s*(?:=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?/g;
    CONTENT_CHARSET = /charset\s*=\s*["']?\s*([^"'\s;,]+)/i;
    Windows1252Decoder = class extends TextDecoder {
      decode(input) {
        return super.decode(input, { stream: true });
      }
    };
    OneShotDecoder = class extends TextDecoder {
      #parts = [];
      decode(input, options) {
        if (input !== void 0) {
          this.#parts.push(ArrayBuffer.isView(input) ? Buffer.from(input.buffer, input.byteOffset, input.byteLength) : Buffer.from(input));
        }
        if (options?.stream === true) return "";
        const all = Buffer.concat(this.#parts);
        this.#parts = [];
        return super.decode(all);
      }
    };
  }
});

// src/parse/body.ts
function parseBody(body, url, headerCharset, opts = {}) {
  const charset = sniffCharset(body, headerCharset);
  const decoder = createDecoder(charset);
  const parser = new PageParser(url, {
    contextChars: opts.contextChars,
    maxLinks: opts.maxLinks,
    maxTextChars: opts.maxTextChars,
    maxAnchorChars: opts.maxAnchorChars,
    mainTextChars: opts.mainTextChars,
    charset
  });
  const step = Math.max(1, Math.floor(opts.chunkSize ?? DEFAULT_CHUNK_SIZE));
  for (let i = 0; i < body.length; i += step) {
    parser.write(decoder.decode(body.subarray(i, i + step), { stream: true }));
  }
  parser.write(decoder.decode());
  return parser.end();
}
var DEFAULT_CHUNK_SIZE;
var init_body = __esm({
  "src/parse/body.ts"() {
    "use strict";
    init_charset();
    init_page_parser();
    DEFAULT_CHUNK_SIZE = 64 * 1024;
  }
});

// src/stages/parse.ts
async function* parseStage(source, opts = {}) {
  for await (const item of source) {
    const f = item.fetch;
    if (item.error === void 0 && f !== void 0 && f.body !== null) {
      try {
        item.page = parseBody(f.body, f.finalUrl, f.headerCharset, opts);
      } catch (err) {
        item.error = toItemError(err);
      }
      if (opts.keepBody !== true) f.body = null;
    }
    yield item;
  }
}
var init_parse = __esm({
  "src/stages/parse.ts"() {
    "use strict";
    init_body();
    init_errors();
  }
});

// src/stages/robots.ts
function robotsStage(source, opts) {
  return mapConcurrent(source, opts.concurrency ?? 1, async (item) => {
    if (item.error === void 0) {
      const error = await robotsAllows(opts.robots, item.entry.url);
      if (error !== null) item.error = error;
    }
    return item;
  });
}
var init_robots2 = __esm({
  "src/stages/robots.ts"() {
    "use strict";
    init_iter();
    init_robots();
  }
});

// src/stages/sink.ts
import { setImmediate as nextTurn } from "node:timers/promises";
function linksToQueue(item, maxDepth, canon2, tunnel = Infinity, guard = {}, withText = true) {
  const { entry, outlinks } = item;
  if (item.duplicateOf !== void 0) return [];
  if (outlinks === void 0 || outlinks.length === 0 || entry.depth + 1 > maxDepth) return [];
  const self = /* @__PURE__ */ new Set([entry.url, item.fetch?.finalUrl]);
  const hops = item.relevant === true || entry.depth === 0 ? 0 : (entry.offTopicHops ?? 0) + 1;
  if (hops > tunnel) return [];
  const capped = item.page?.linksDropped ?? 0;
  if (capped > 0) guard.onCapped?.(capped);
  const parent = item.fetch?.finalUrl ?? entry.url;
  const best = /* @__PURE__ */ new Map();
  const dropped = /* @__PURE__ */ new Set();
  const canonicalOf = canonicalizer(canon2);
  for (const link2 of outlinks) {
    const url = link2.canonical !== void 0 ? link2.canonical : canonicalOf(link2.url);
    if (url === null || self.has(url)) continue;
    const score = Number.isFinite(link2.score) ? link2.score : 0;
    if (score < 0 || dropped.has(url)) continue;
    const reason3 = trapReason(url, guard.traps ?? DEFAULT_TRAP_LIMITS) ?? (guard.inScope !== void 0 && !guard.inScope(url) ? "out-of-scope" : null) ?? (guard.skipExtension?.(url) === true ? "file-extension" : null) ?? (guard.hostFull?.(hostOfCanonical(url)) === true ? "host-budget" : null);
    if (reason3 !== null) {
      dropped.add(url);
      guard.onDrop?.(url, reason3);
      continue;
    }
    const known = best.get(url);
    if (known !== void 0 && known.score >= score) continue;
    const anchor = withText ? link2.anchor : "";
    const context = withText ? link2.context.slice(0, MAX_CONTEXT) : "";
    best.set(url, { url, score, depth: entry.depth + 1, parent, anchor, context, offTopicHops: hops });
  }
  return [...best.values()];
}
function errorRecord(entry, code, message, fetchedAt, strategy) {
  return { type: "error", url: entry.url, code, message, fetchedAt, depth: entry.depth, parent: entry.parent, strategy };
}
function withAttempts(record, item) {
  const attempts = attemptOf(item);
  return attempts > 1 ? { ...record, attempts } : record;
}
function recordOutlinks(links, canonOptions) {
  const canonicalOf = canonicalizer(canonOptions);
  const byUrl = /* @__PURE__ */ new Map();
  for (const l of links) {
    const url = l.canonical === void 0 ? canonicalOf(l.url) : l.canonical;
    if (url === null) continue;
    const seen = byUrl.get(url);
    if (seen === void 0) byUrl.set(url, { url, anchor: l.anchor, score: l.score });
    else if (l.score > seen.score) seen.score = l.score;
  }
  return [...byUrl.values()];
}
function toRecord(item, strategy, opts = {}) {
  const { entry, fetch } = item;
  if (item.error !== void 0 || fetch === void 0) {
    const err = item.error ?? { code: "FC_INTERNAL", message: "item reached the sink without a fetch result" };
    return withAttempts(errorRecord(entry, err.code, err.message, fetch?.fetchedAt ?? (/* @__PURE__ */ new Date()).toISOString(), strategy), item);
  }
  const record = {
    type: "page",
    url: entry.url,
    finalUrl: fetch.finalUrl,
    status: fetch.status,
    fetchedAt: fetch.fetchedAt,
    depth: entry.depth,
    parent: entry.parent,
    host: hostOfCanonical(fetch.finalUrl),
    contentType: fetch.contentType,
    charset: item.page?.charset ?? fetch.headerCharset,
    bytes: fetch.bytes,
    truncated: fetch.truncated,
    title: item.page?.title ?? null,
    score: entry.score,
    relevance: item.relevance ?? 0,
    relevant: item.relevant ?? false,
    links: item.outlinks?.length ?? 0,
    strategy,
    ms: fetch.ms
  };
  if (item.simhash !== void 0) record.simhash = item.simhash;
  if (item.duplicateOf !== void 0) record.duplicateOf = item.duplicateOf;
  if (item.page?.text !== void 0) {
    record.text = item.page.text;
    if (item.page.textTruncated === true) record.textTruncated = true;
  }
  if (item.page?.caps !== void 0) record.caps = item.page.caps;
  if (opts.outlinks === true) record.outlinks = recordOutlinks(item.outlinks ?? [], opts.canonOptions);
  return withAttempts(record, item);
}
async function learn(store, scorer, item, links, floor) {
  scorer.observe?.(item, links);
  const updates = await scorer.rescore?.(() => frontierEntries(store), floor);
  if (updates && updates.length > 0) await store.reprioritise(updates);
}
async function* frontierEntries(store) {
  for await (const { entry } of store.frontier()) yield entry;
}
async function sinkStage(source, opts) {
  let turn = performance.now();
  for await (const item of source) {
    if (performance.now() - turn >= SINK_TURN_MS) {
      await nextTurn();
      turn = performance.now();
    }
    if (opts.retry !== void 0 && shouldRetry(item, opts.retry)) {
      const attempts = attemptOf(item);
      await opts.store.retry({ ...item.entry, attempts }, { hostDelayMs: opts.hostDelayMs?.(item) });
      const why = item.error?.code ?? `HTTP ${item.fetch?.status}`;
      opts.log?.(`focuscrawl: ${why} for ${item.entry.url}; attempt ${attempts + 1} of ${opts.retry.retries + 1} follows`);
      opts.onRetry?.(item);
      continue;
    }
    const record = toRecord(item, opts.strategy, { outlinks: opts.outlinks, canonOptions: opts.canonOptions });
    const line = `${stringifyForTerminal(record)}
`;
    const keepText = opts.scorer === void 0 || opts.scorer.readsQueuedText === true;
    const withText = keepText || opts.scorer?.observe !== void 0;
    const links = record.type === "page" ? linksToQueue(item, opts.maxDepth, opts.canonOptions, opts.tunnel, opts.linkGuard, withText) : [];
    const alsoDone = item.fetch?.redirects.filter((u) => u !== item.entry.url) ?? [];
    let backpressure;
    await opts.store.commit(
      // a URL that got no answer is re-tryable on the next run (Commit.retryLater)
      { entry: item.entry, record, countsAsPage: record.type === "page", alsoDone, links, keepText, hostDelayMs: opts.hostDelayMs?.(item), retryLater: gotNoAnswer(item) },
      { beforeBatch: () => backpressure = opts.emit(line) }
    );
    opts.onCommitted?.(item, record);
    if (opts.scorer !== void 0) await learn(opts.store, opts.scorer, item, links, opts.rescoreFloor?.() ?? -Infinity);
    if (backpressure !== void 0) await backpressure;
  }
}
var MAX_CONTEXT, SINK_TURN_MS;
var init_sink = __esm({
  "src/stages/sink.ts"() {
    "use strict";
    init_retry();
    init_terminal();
    init_traps();
    init_canonical();
    MAX_CONTEXT = 300;
    SINK_TURN_MS = 1;
  }
});

// src/output/stats.ts
import { TDigest } from "tdigest";
function isCount3(v) {
  return Number.isSafeInteger(v) && v >= 0;
}
function parseSavedStats(v) {
  if (typeof v !== "object" || v === null) return null;
  const s = v;
  if (s.type !== "stats" || !isCount3(s.pages) || !isCount3(s.relevant) || !isCount3(s.bytes) || s.relevant > s.pages) return null;
  if (typeof s.errors !== "object" || s.errors === null || !Object.values(s.errors).every(isCount3)) return null;
  if (!Array.isArray(s.digest) || !s.digest.every((c) => Number.isFinite(c?.mean) && Number.isFinite(c?.n) && c.n > 0)) return null;
  return s;
}
function savedRecords(s) {
  return Object.values(s.errors).reduce((n, c) => n + c, s.pages);
}
function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
function formatBytes2(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}
function percent(x) {
  return `${(x * 100).toFixed(1)}%`;
}
function formatStatsLine(s, label = s.final ? "final stats" : "stats") {
  const errorCodes = Object.entries(s.errors);
  const errorTotal = errorCodes.reduce((n, [, c]) => n + c, 0);
  const errors = errorTotal === 0 ? "errors 0" : `errors ${errorTotal} (${errorCodes.map(([code, n]) => `${sanitizeForTerminal(code, 64)} ${n}`).join(", ")})`;
  const { p50, p95, p99 } = s.latencyMs;
  const latency = p50 === null ? "latency -" : `latency p50 ${Math.round(p50)} ms, p95 ${Math.round(p95)} ms, p99 ${Math.round(p99)} ms`;
  const pages = s.maxPages === null ? `${s.pages} pages` : `${s.pages}/${s.maxPages} pages`;
  return `focuscrawl: ${label}: ${pages}, ${s.pagesPerSec.recent.toFixed(1)} pages/s (run ${s.pagesPerSec.overall.toFixed(1)}), harvest ${percent(s.harvest)} (${s.relevant} relevant), frontier ${s.frontier}, hosts active ${s.hostsActive}, ${errors}, ${latency}, ${formatBytes2(s.bytes)}, ${s.elapsed.toFixed(1)} s`;
}
function formatProgress(s) {
  const pages = s.maxPages === null ? `${s.pages} pages` : `${s.pages}/${s.maxPages} pages`;
  return `${pages}  ${s.pagesPerSec.recent.toFixed(1)} pages/s  harvest ${percent(s.harvest)}  frontier ${s.frontier}`;
}
var RECENT_WINDOW_S, MAX_ERROR_CODES, OTHER_ERRORS, CrawlStats;
var init_stats = __esm({
  "src/output/stats.ts"() {
    "use strict";
    init_terminal();
    RECENT_WINDOW_S = 10;
    MAX_ERROR_CODES = 64;
    OTHER_ERRORS = "other";
    CrawlStats = class {
      #now;
      #pages = 0;
      #relevant = 0;
      #bytes = 0;
      #errors = /* @__PURE__ */ new Map();
      #digest = new TDigest();
      #runStart = null;
      #runPages = 0;
      /** page commits per second: second number and count, slot = second % window */
      #bucketSec = new Float64Array(RECENT_WINDOW_S).fill(-1);
      #bucketCount = new Float64Array(RECENT_WINDOW_S);
      constructor(opts = {}) {
        this.#now = opts.now ?? Date.now;
        const saved = opts.saved;
        if (saved !== void 0 && saved !== null) {
          this.#pages = saved.pages;
          this.#relevant = saved.relevant;
          this.#bytes = saved.bytes;
          for (const [code, n] of Object.entries(saved.errors)) this.#countError(code, n);
          if (saved.digest.length > 0) this.#digest.push_centroid(saved.digest);
        }
      }
      /** Records counted so far (pages and errors, all runs): the store's log position they cover. */
      get records() {
        let n = this.#pages;
        for (const c of this.#errors.values()) n += c;
        return n;
      }
      /** The run starts now: elapsed time and rates count from here. */
      startRun() {
        this.#runStart = this.#now();
        this.#runPages = 0;
        this.#bucketSec.fill(-1);
        this.#bucketCount.fill(0);
      }
      /** Count one committed record. */
      observe(record) {
        if (record.type === "error") {
          this.#countError(record.code, 1);
          return;
        }
        this.#pages++;
        if (record.relevant) this.#relevant++;
        if (isCount3(record.bytes)) this.#bytes += record.bytes;
        if (Number.isFinite(record.ms) && record.ms >= 0) this.#digest.push(record.ms);
        if (this.#runStart === null) return;
        this.#runPages++;
        const sec = Math.floor(this.#now() / 1e3);
        const slot = sec % RECENT_WINDOW_S;
        if (this.#bucketSec[slot] !== sec) {
          this.#bucketSec[slot] = sec;
          this.#bucketCount[slot] = 0;
        }
        this.#bucketCount[slot]++;
      }
      #countError(code, n) {
        const key = this.#errors.has(code) || this.#errors.size < MAX_ERROR_CODES ? code : OTHER_ERRORS;
        this.#errors.set(key, (this.#errors.get(key) ?? 0) + n);
      }
      /** Pages per second over the last RECENT_WINDOW_S seconds of the run (fewer at its start). */
      #recentRate(now) {
        if (this.#runStart === null) return 0;
        const firstSec = Math.floor(now / 1e3) - RECENT_WINDOW_S + 1;
        let n = 0;
        for (let i = 0; i < RECENT_WINDOW_S; i++) if (this.#bucketSec[i] >= firstSec) n += this.#bucketCount[i];
        const spanMs = now - Math.max(firstSec * 1e3, this.#runStart);
        return spanMs > 0 ? n / (spanMs / 1e3) : 0;
      }
      /** The current numbers as a plain JSON object. */
      snapshot(sample) {
        const now = this.#now();
        const elapsedMs = this.#runStart === null ? 0 : now - this.#runStart;
        const [p50, p95, p99] = this.#digest.size() === 0 ? [null, null, null] : this.#digest.percentile([0.5, 0.95, 0.99]).map((x) => round(x, 1));
        const maxPages = sample.maxPages ?? Infinity;
        return {
          type: "stats",
          at: new Date(now).toISOString(),
          final: sample.final ?? false,
          elapsed: round(elapsedMs / 1e3, 1),
          pages: this.#pages,
          relevant: this.#relevant,
          harvest: this.#pages === 0 ? 0 : round(this.#relevant / this.#pages, 4),
          runPages: this.#runPages,
          pagesPerSec: {
            recent: round(this.#recentRate(now), 2),
            overall: elapsedMs > 0 ? round(this.#runPages / (elapsedMs / 1e3), 2) : 0
          },
          maxPages: Number.isFinite(maxPages) ? maxPages : null,
          frontier: sample.frontier,
          hostsActive: sample.activeHosts,
          errors: Object.fromEntries([...this.#errors].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)),
          latencyMs: { p50, p95, p99 },
          bytes: this.#bytes
        };
      }
      /** A snapshot plus the latency digest, for the store's meta; a later run resumes from it. */
      toSaved(sample) {
        this.#digest.compress();
        return { ...this.snapshot(sample), digest: this.#digest.toArray() };
      }
    };
  }
});

// src/output/stats-live.ts
import { readFile as readFile2, rename as rename2, writeFile as writeFile2 } from "node:fs/promises";
import path2 from "node:path";
function asRecord(value) {
  const v = value;
  if (v.type === "page") return value;
  return { ...value, type: "error", code: typeof v.code === "string" ? v.code : "FC_INTERNAL" };
}
async function loadCrawlStats(store, opts = {}) {
  let saved = parseSavedStats(await store.getMeta(STATS_META_KEY));
  if (saved !== null && savedRecords(saved) > store.committed) saved = null;
  const stats = new CrawlStats({ saved, now: opts.now });
  let replayed = 0;
  for await (const value of store.log({ gt: logKey(stats.records) })) {
    stats.observe(asRecord(value));
    replayed++;
  }
  return { stats, saved, replayed };
}
async function writeLiveStats(dir, snapshot) {
  const file = path2.join(dir, LIVE_STATS_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile2(tmp, `${JSON.stringify(snapshot)}
`);
  await rename2(tmp, file);
}
async function readLiveStats(dir) {
  let text;
  try {
    text = await readFile2(path2.join(dir, LIVE_STATS_FILE), "utf8");
  } catch (err) {
    if (err.code === "ENOENT") return null;
    throw err;
  }
  try {
    const v = JSON.parse(text);
    return typeof v === "object" && v !== null && v.type === "stats" ? v : null;
  } catch {
    return null;
  }
}
function withoutDigest(saved) {
  const { digest: _digest, ...snapshot } = saved;
  return snapshot;
}
var STATS_META_KEY, LIVE_STATS_FILE, DEFAULT_STATS_INTERVAL_MS, PROGRESS_INTERVAL_MS, StatsReporter;
var init_stats_live = __esm({
  "src/output/stats-live.ts"() {
    "use strict";
    init_keys();
    init_stats();
    STATS_META_KEY = "stats";
    LIVE_STATS_FILE = "stats.json";
    DEFAULT_STATS_INTERVAL_MS = 1e4;
    PROGRESS_INTERVAL_MS = 250;
    StatsReporter = class {
      #o;
      #timers = [];
      /** the save in progress; a tick skips its save while one runs */
      #saving = null;
      #warned = false;
      /** records counted when the run started */
      #startRecords = 0;
      constructor(opts) {
        if (!(Number.isFinite(opts.intervalMs) && opts.intervalMs >= 0)) throw new TypeError(`intervalMs must be >= 0, got ${opts.intervalMs}`);
        this.#o = opts;
      }
      /** Count a committed record. */
      observe(record) {
        this.#o.stats.observe(record);
      }
      /** Start the run's clock and timers; the first snapshot goes to DIR/stats.json at once. */
      start() {
        const o = this.#o;
        o.stats.startRun();
        this.#startRecords = o.stats.records;
        this.#save(o.stats.toSaved(o.sample()), false);
        if (o.intervalMs > 0) {
          this.#timers.push(
            setInterval(() => {
              const saved = o.stats.toSaved(o.sample());
              o.onStats?.(withoutDigest(saved));
              if (this.#saving === null) this.#save(saved, true);
            }, o.intervalMs).unref()
          );
        }
        if (o.onProgress !== void 0) {
          const onProgress = o.onProgress;
          this.#timers.push(setInterval(() => onProgress(o.stats.snapshot(o.sample())), PROGRESS_INTERVAL_MS).unref());
        }
      }
      #save(saved, meta) {
        const o = this.#o;
        this.#saving = Promise.all([meta ? o.store.putMeta(STATS_META_KEY, saved) : void 0, o.dir === null ? void 0 : writeLiveStats(o.dir, withoutDigest(saved))]).then(() => {
        }).catch((err) => {
          if (this.#warned) return;
          this.#warned = true;
          o.onWarning?.(`focuscrawl: cannot save live stats in ${o.dir}: ${err?.message ?? err}`);
        }).finally(() => {
          this.#saving = null;
        });
      }
      /**
       * Stop the timers, wait for a save in progress, then report the final
       * snapshot and save it to the store's meta (awaited: a failure rejects)
       * and DIR/stats.json. Returns the final snapshot: `previous` (as final)
       * when the run committed nothing.
       */
      async stop() {
        const o = this.#o;
        for (const t of this.#timers) clearInterval(t);
        this.#timers = [];
        await this.#saving;
        const sample = o.sample();
        const idle = o.previous != null && o.stats.records === this.#startRecords;
        const saved = idle ? { ...o.previous, final: true, frontier: sample.frontier, hostsActive: 0, maxPages: Number.isFinite(sample.maxPages ?? Infinity) ? sample.maxPages : null } : o.stats.toSaved({ ...sample, final: true });
        const snapshot = withoutDigest(saved);
        if (o.intervalMs > 0) o.onStats?.(snapshot);
        await o.store.putMeta(STATS_META_KEY, saved);
        this.#save(saved, false);
        await this.#saving;
        return snapshot;
      }
    };
  }
});

// src/store/journal.ts
import { closeSync, ftruncateSync, openSync, readFileSync as readFileSync4, writeSync, fstatSync } from "node:fs";
var TRUNCATE_AT, MAX_ENTRY_BYTES, Journal;
var init_journal = __esm({
  "src/store/journal.ts"() {
    "use strict";
    init_errors();
    TRUNCATE_AT = 8 * 1024 * 1024;
    MAX_ENTRY_BYTES = 64 * 1024 * 1024;
    Journal = class _Journal {
      #fd;
      path;
      /** bytes of complete entries: where the next append starts */
      #size;
      /** set when a failed append could not be undone: the journal takes no more */
      #broken = null;
      constructor(path13, fd) {
        this.path = path13;
        this.#fd = fd;
        this.#size = fstatSync(fd).size;
      }
      /** Open (creating) the journal at `path` and read its complete entries. */
      static open(path13) {
        let text = "";
        try {
          text = readFileSync4(path13, "utf8");
        } catch (err) {
          if (err.code !== "ENOENT") {
            throw new StoreError(`cannot read journal ${path13}: ${err.message}`, { cause: err });
          }
        }
        const entries = [];
        for (const line of text.split("\n")) {
          if (line === "") continue;
          try {
            entries.push(JSON.parse(line));
          } catch {
            break;
          }
        }
        const fd = openSync(path13, "a");
        return { journal: new _Journal(path13, fd), entries };
      }
      /**
       * Append one entry with a single synchronous write; it is committed once
       * this returns. Throws StoreError (FC_STORE) when the write fails or is
       * short (disk full: ENOSPC; file size limit: EFBIG), after cutting the
       * partial line off again; CapExceededError for an oversized entry.
       */
      append(entry) {
        if (this.#broken !== null) throw new StoreError(`journal ${this.path} is unusable after a failed write: ${this.#broken.message}`);
        const json = JSON.stringify(entry);
        const bytes = Buffer.byteLength(json) + 1;
        if (bytes > MAX_ENTRY_BYTES) throw new CapExceededError("store batch", MAX_ENTRY_BYTES);
        const line = Buffer.allocUnsafe(bytes);
        line.write(json);
        line[bytes - 1] = 10;
        let written;
        try {
          written = writeSync(this.#fd, line);
        } catch (err) {
          throw new StoreError(`cannot append to journal ${this.path}: ${err.message}`, { cause: err });
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
          throw new StoreError(`${short.message}; cutting the partial entry off failed too: ${err.message}`, { cause: err });
        }
        throw short;
      }
      /** The journal has grown past the size at which truncateIfLarge empties it. */
      get large() {
        return this.#size >= TRUNCATE_AT;
      }
      /** Drop every entry; call only when LevelDB holds all journaled batches. */
      truncateIfLarge() {
        if (this.large) this.clear();
      }
      /** Empty the journal (after a replay). */
      clear() {
        ftruncateSync(this.#fd, 0);
        this.#size = 0;
      }
      close() {
        closeSync(this.#fd);
      }
    };
  }
});

// src/store/seen-cache.ts
function hexWord(s, at) {
  let v = 0;
  for (let i = at; i < at + 8; i++) {
    const c = s.charCodeAt(i);
    v = v << 4 | (c <= 57 ? c - 48 : (c | 32) - 87);
  }
  return v >>> 0;
}
var SEEN_CACHE_WAYS, WAYS, EMPTY, ABSENT, QUEUED, DONE, MAX_SEQ, MAX_CLOCK, SeenCache;
var init_seen_cache = __esm({
  "src/store/seen-cache.ts"() {
    "use strict";
    SEEN_CACHE_WAYS = 16;
    WAYS = SEEN_CACHE_WAYS;
    EMPTY = 0;
    ABSENT = 1;
    QUEUED = 2;
    DONE = 3;
    MAX_SEQ = 4294967295;
    MAX_CLOCK = 4294967295;
    SeenCache = class {
      /**
       * @param capacity slots, a power of two of at least SEEN_CACHE_WAYS
       * @param frontierKey the store's frontier key of (score, seq)
       * @param seqOf the seq part of a frontier key
       */
      constructor(capacity, frontierKey2, seqOf2) {
        this.frontierKey = frontierKey2;
        this.seqOf = seqOf2;
        if (!Number.isInteger(capacity) || capacity < WAYS || (capacity & capacity - 1) !== 0) {
          throw new TypeError(`SeenCache capacity must be a power of two of at least ${WAYS}, got ${capacity}`);
        }
        this.capacity = capacity;
        this.#sets = capacity / WAYS;
        this.#tagHi = new Uint32Array(capacity);
        this.#tagLo = new Uint32Array(capacity);
        this.#state = new Uint8Array(capacity);
        this.#score = new Float64Array(capacity);
        this.#seq = new Uint32Array(capacity);
        this.#used = new Uint32Array(capacity);
      }
      frontierKey;
      seqOf;
      /** number of slots */
      capacity;
      #sets;
      #tagHi;
      #tagLo;
      #state;
      #score;
      #seq;
      #used;
      #clock = 0;
      #size = 0;
      /** number of marks held */
      get size() {
        return this.#size;
      }
      /** Slot of `uk`, or -1; `set` is the first slot of its set. */
      #find(hi, lo, set) {
        for (let i = set; i < set + WAYS; i++) {
          if (this.#state[i] !== EMPTY && this.#tagHi[i] === hi && this.#tagLo[i] === lo) return i;
        }
        return -1;
      }
      /** The cached mark of URL key `uk` (null: known absent), or undefined when not cached. Counts as a use. */
      get(uk) {
        const hi = hexWord(uk, 0);
        const lo = hexWord(uk, 8);
        const slot = this.#find(hi, lo, (lo & this.#sets - 1) * WAYS);
        if (slot < 0) return void 0;
        this.#touch(slot);
        switch (this.#state[slot]) {
          case ABSENT:
            return null;
          case DONE:
            return { s: "d" };
          default:
            return { s: "q", k: this.frontierKey(this.#score[slot], this.#seq[slot]), score: this.#score[slot] };
        }
      }
      /** Cache `mark` for URL key `uk`, replacing the least recently used mark of its set when the set is full. */
      set(uk, mark) {
        const hi = hexWord(uk, 0);
        const lo = hexWord(uk, 8);
        const set = (lo & this.#sets - 1) * WAYS;
        let slot = this.#find(hi, lo, set);
        if (slot < 0) {
          slot = set;
          for (let i = set; i < set + WAYS; i++) {
            if (this.#state[i] === EMPTY) {
              slot = i;
              break;
            }
            if (this.#used[i] < this.#used[slot]) slot = i;
          }
          if (this.#state[slot] === EMPTY) this.#size++;
          this.#tagHi[slot] = hi;
          this.#tagLo[slot] = lo;
        }
        this.#touch(slot);
        if (mark === null) this.#state[slot] = ABSENT;
        else if (mark.s === "d") this.#state[slot] = DONE;
        else {
          const seq = this.seqOf(mark.k);
          if (!(Number.isInteger(seq) && seq >= 0 && seq <= MAX_SEQ)) {
            this.#state[slot] = EMPTY;
            this.#size--;
            return;
          }
          this.#state[slot] = QUEUED;
          this.#score[slot] = mark.score;
          this.#seq[slot] = seq;
        }
      }
      /** Count a use of `slot` (least recently used = lowest count in its set). */
      #touch(slot) {
        if (this.#clock === MAX_CLOCK) {
          this.#used.fill(0);
          this.#clock = 0;
        }
        this.#used[slot] = ++this.#clock;
      }
      /** Forget every mark (after a failed batch the cache may be ahead of the database). */
      clear() {
        this.#state.fill(EMPTY);
        this.#size = 0;
      }
    };
  }
});

// src/store/seen-filter.ts
function hashes(key) {
  if (HEX_KEY.test(key)) return [parseInt(key.slice(0, 8), 16) | 0, parseInt(key.slice(8, 16), 16) | 1];
  let a = 2166136261;
  let b = 16777619;
  for (let i = 0; i < key.length; i++) {
    a = Math.imul(a ^ key.charCodeAt(i), 16777619);
    b = Math.imul(b ^ key.charCodeAt(i), 1540483477);
  }
  return [a, b | 1];
}
var FIRST_LAYER_KEYS, BITS_PER_KEY, PROBES, SeenFilter, HEX_KEY;
var init_seen_filter = __esm({
  "src/store/seen-filter.ts"() {
    "use strict";
    FIRST_LAYER_KEYS = 1 << 16;
    BITS_PER_KEY = 10;
    PROBES = 7;
    SeenFilter = class {
      #layers = [];
      /** Bytes held by the bit arrays. */
      get bytes() {
        let n = 0;
        for (const l of this.#layers) n += l.bits.byteLength;
        return n;
      }
      /** Add a url key (32 hex digits; other strings are hashed first). */
      add(key) {
        let layer = this.#layers.at(-1);
        if (layer === void 0 || layer.count >= layer.capacity) {
          const capacity = FIRST_LAYER_KEYS << this.#layers.length;
          const size = 2 ** Math.ceil(Math.log2(capacity * BITS_PER_KEY));
          layer = { bits: new Uint32Array(size / 32), size, capacity, count: 0 };
          this.#layers.push(layer);
        }
        const [h1, h2] = hashes(key);
        const mask = layer.size - 1;
        for (let i = 0; i < PROBES; i++) {
          const bit = h1 + Math.imul(i, h2) & mask;
          layer.bits[bit >>> 5] |= 1 << (bit & 31);
        }
        layer.count++;
      }
      /** False when `key` was certainly never added. */
      mayHave(key) {
        if (this.#layers.length === 0) return false;
        const [h1, h2] = hashes(key);
        for (const layer of this.#layers) {
          const mask = layer.size - 1;
          let all = true;
          for (let i = 0; i < PROBES && all; i++) {
            const bit = h1 + Math.imul(i, h2) & mask;
            all = (layer.bits[bit >>> 5] & 1 << (bit & 31)) !== 0;
          }
          if (all) return true;
        }
        return false;
      }
    };
    HEX_KEY = /^[0-9a-f]{32}$/;
  }
});

// src/store/options.ts
var STORE_LEVELDB_OPTIONS;
var init_options = __esm({
  "src/store/options.ts"() {
    "use strict";
    STORE_LEVELDB_OPTIONS = Object.freeze({
      cacheSize: 2 * 2 ** 20,
      writeBufferSize: 2 * 2 ** 20,
      maxOpenFiles: 74,
      maxFileSize: 2 ** 20
    });
  }
});

// src/store/dir.ts
import { mkdir, readdir, readFile as readFile3, rm as rm2, stat as stat2, writeFile as writeFile3 } from "node:fs/promises";
import path3 from "node:path";
function isStoreFile(name) {
  return name === STORE_MARKER || name === JOURNAL_FILE || LIVE_STATS.test(name) || LEVELDB_FILE.test(name);
}
function errCode(err) {
  return err?.code;
}
async function isMarker(file) {
  try {
    const v = JSON.parse(await readFile3(file, "utf8"));
    return typeof v === "object" && v !== null && v.type === MARKER_TYPE;
  } catch {
    return false;
  }
}
async function inspectStoreDir(dir) {
  let names;
  try {
    if (!(await stat2(dir)).isDirectory()) throw new UsageError(`--store ${dir} is not a directory`);
    names = await readdir(dir);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (errCode(err) === "ENOENT") return "missing";
    throw new StoreError(`cannot read store directory ${dir}: ${errCode(err) ?? err.message}`, { cause: err });
  }
  if (names.length === 0) return "empty";
  if (names.includes(STORE_MARKER) && await isMarker(path3.join(dir, STORE_MARKER))) return "store";
  if (names.includes(JOURNAL_FILE)) return "legacy";
  if (names.includes("CURRENT") && names.some((n) => /^MANIFEST-\d+$/.test(n))) return "leveldb";
  return "foreign";
}
function notAStore(dir, why = `other files and no ${STORE_MARKER}`) {
  return new UsageError(`--store ${dir} is not a focuscrawl store (${why}): nothing is written or deleted there; give a new or empty directory`);
}
async function writeStoreMarker(dir) {
  const body = `${JSON.stringify({ type: MARKER_TYPE, version: 1, created: (/* @__PURE__ */ new Date()).toISOString() })}
`;
  try {
    await writeFile3(path3.join(dir, STORE_MARKER), body, { flag: "wx" });
  } catch (err) {
    if (errCode(err) === "EEXIST") return;
    throw new StoreError(`cannot write store ${dir}: ${err.message}`, { cause: err });
  }
}
async function makeStoreDir(dir) {
  const missing = [];
  for (let p = path3.resolve(dir); ; p = path3.dirname(p)) {
    try {
      if (!(await stat2(p)).isDirectory()) throw new StoreError(`cannot create store ${dir}: ${p} is not a directory`);
      break;
    } catch (err) {
      if (err instanceof StoreError) throw err;
      if (errCode(err) !== "ENOENT") throw new StoreError(`cannot create store ${dir}: ${err.message}`, { cause: err });
      missing.push(p);
      if (path3.dirname(p) === p) break;
    }
  }
  for (const p of missing.reverse()) {
    try {
      await mkdir(p);
    } catch (err) {
      if (errCode(err) === "EEXIST") continue;
      throw new StoreError(`cannot create store ${dir}: ${err.message}`, { cause: err });
    }
  }
}
async function removeStoreFiles(dir) {
  const removed = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || entry.name === STORE_MARKER || !isStoreFile(entry.name)) continue;
    await rm2(path3.join(dir, entry.name), { force: true });
    removed.push(entry.name);
  }
  return removed;
}
var STORE_MARKER, MARKER_TYPE, JOURNAL_FILE, LIVE_STATS, LEVELDB_FILE;
var init_dir = __esm({
  "src/store/dir.ts"() {
    "use strict";
    init_errors();
    STORE_MARKER = "focuscrawl-store.json";
    MARKER_TYPE = "focuscrawl-store";
    JOURNAL_FILE = "focuscrawl.journal";
    LIVE_STATS = /^stats\.json(\.\d+\.tmp)?$/;
    LEVELDB_FILE = /^(CURRENT|LOCK|LOG|LOG\.old|MANIFEST-\d+|\d+\.(log|ldb|sst|dbtmp))$/;
  }
});

// src/store/level.ts
import { Level } from "level";
import path4 from "node:path";
function parkedEntry(e) {
  const { attempts: _attempts, seq: _seq, ...rest } = e;
  return rest;
}
function reason(err) {
  const e = err;
  const message = typeof e?.message === "string" ? e.message : String(err);
  const cause = e?.cause?.message;
  return typeof cause === "string" && !message.includes(cause) ? `${message} (${cause})` : message;
}
function isLocked(err) {
  const e = err;
  return e?.code === "LEVEL_LOCKED" || e?.code === "LEVEL_DATABASE_NOT_OPEN" && e.cause?.code === "LEVEL_LOCKED";
}
function toJournal(op) {
  const prefix = op.sublevel?.prefix;
  const name = prefix === void 0 ? void 0 : SUBLEVEL_OF_PREFIX.get(prefix);
  if (name === void 0) throw new TypeError("batch operation outside the store sublevels");
  return op.type === "put" ? { t: "p", s: name, k: op.key, v: op.value } : { t: "d", s: name, k: op.key };
}
function fromJournal(db, op) {
  if (!SUBLEVELS.includes(op.s)) throw new StoreError(`journal names an unknown sublevel ${op.s}`);
  const sublevel = db.sublevel(op.s, { valueEncoding: "json" });
  return op.t === "p" ? { type: "put", sublevel, key: op.k, value: op.v } : { type: "del", sublevel, key: op.k };
}
function readCounters(v) {
  const c = { seq: 0, pages: 0, errors: 0, committed: 0, frontierSize: 0, b: 0 };
  if (v === void 0) return c;
  if (typeof v !== "object" || v === null) throw new StoreError(`store meta ${COUNTERS_KEY} is corrupt`);
  for (const name of Object.keys(c)) {
    const n = v[name];
    if (name === "b" && n === void 0) continue;
    if (!Number.isSafeInteger(n) || n < 0) throw new StoreError(`store meta ${COUNTERS_KEY}.${name} is corrupt`);
    c[name] = n;
  }
  return c;
}
async function claimStoreDir(dir) {
  const kind = await inspectStoreDir(dir);
  if (kind === "foreign") throw notAStore(dir);
  if (kind === "leveldb") return true;
  if (kind === "missing") await makeStoreDir(dir);
  if (kind !== "store") await writeStoreMarker(dir);
  return false;
}
var REQUEUE_BATCH, COUNTERS_KEY, MAX_PENDING_OPS, SEEN_CACHE_SLOTS, SUBLEVELS, SUBLEVEL_OF_PREFIX, Plan, CrawlStore;
var init_level = __esm({
  "src/store/level.ts"() {
    "use strict";
    init_errors();
    init_journal();
    init_seen_cache();
    init_seen_filter();
    init_options();
    init_dir();
    init_keys();
    init_canonical();
    REQUEUE_BATCH = 4096;
    COUNTERS_KEY = "_counters";
    MAX_PENDING_OPS = 16384;
    SEEN_CACHE_SLOTS = 1 << 18;
    SUBLEVELS = ["frontier", "seen", "log", "meta", "parked"];
    SUBLEVEL_OF_PREFIX = new Map(SUBLEVELS.map((n) => [`!${n}!`, n]));
    Plan = class {
      /**
       * @param c counters to update (a copy)
       * @param storedTail when defined, no stored frontier key is greater
       */
      constructor(store, c, storedTail) {
        this.store = store;
        this.c = c;
        this.storedTail = storedTail;
      }
      store;
      c;
      storedTail;
      ops = /* @__PURE__ */ new Map();
      /** urlKey -> seen value after the batch (null: absent) */
      seen = /* @__PURE__ */ new Map();
      /** frontier keys put by this plan -> urlKey and entry */
      added = /* @__PURE__ */ new Map();
      /** frontier keys of the database deleted by this plan */
      deleted = /* @__PURE__ */ new Set();
      /** urlKey -> what enqueue did to that URL */
      outcome = /* @__PURE__ */ new Map();
      /** the worst key left by evict (undefined: frontier empty); null: no eviction */
      survivor = null;
      /**
       * When defined, no frontier key is greater once this plan is written; it
       * is a live key unless a later batch deletes it.
       */
      get tail() {
        if (this.survivor !== null) return this.survivor;
        let t = this.storedTail;
        if (t !== void 0) {
          for (const k of this.added.keys()) if (k > t) t = k;
        }
        return t;
      }
      put(sub, key, value) {
        this.ops.set(`${sub.prefix}${key}`, { type: "put", sublevel: sub, key, value });
      }
      del(sub, key) {
        this.ops.set(`${sub.prefix}${key}`, { type: "del", sublevel: sub, key });
      }
      setSeen(uk, v) {
        this.seen.set(uk, v);
        if (v === null) this.del(this.store.seen, uk);
        else this.put(this.store.seen, uk, v);
      }
      /** Remove the URL's frontier entry, if queued. */
      unqueue(uk) {
        const s = this.seen.get(uk);
        if (s?.s !== "q") return;
        if (this.added.has(s.k)) {
          this.added.delete(s.k);
          this.ops.delete(`${this.store.frontier.prefix}${s.k}`);
        } else {
          this.deleted.add(s.k);
          this.del(this.store.frontier, s.k);
        }
        this.c.frontierSize--;
      }
      markDone(uk) {
        this.unqueue(uk);
        this.setSeen(uk, { s: "d" });
      }
      /**
       * Queue a URL never seen; raise a queued one with a lower score (keeping
       * its seq); skip done ones. `keepText` false leaves anchor and context out.
       */
      enqueue(e, keepText = true) {
        const uk = urlKey(e.url);
        const s = this.seen.get(uk) ?? null;
        if (s?.s === "d" || s?.s === "q" && s.score >= e.score) return;
        let seq;
        if (s === null) {
          seq = ++this.c.seq;
          this.outcome.set(uk, "added");
        } else {
          seq = seqOf(s.k);
          this.unqueue(uk);
          if (!this.outcome.has(uk)) this.outcome.set(uk, "raised");
        }
        const entry = { url: e.url, score: e.score, depth: e.depth, parent: e.parent, seq };
        if (keepText && e.anchor !== void 0 && e.anchor !== "") entry.anchor = e.anchor;
        if (keepText && e.context !== void 0 && e.context !== "") entry.context = e.context;
        if (e.offTopicHops !== void 0) entry.offTopicHops = e.offTopicHops;
        this.place(uk, entry);
      }
      /** Put a URL (not queued in this plan) into the frontier under its score and seq. */
      place(uk, entry) {
        const k = frontierKey(entry.score, entry.seq);
        this.put(this.store.frontier, k, entry);
        this.added.set(k, { uk, entry });
        this.c.frontierSize++;
        this.setSeen(uk, { s: "q", k, score: entry.score });
      }
      /**
       * Evict the lowest-priority entries until the frontier holds at most `max`:
       * merges the database's reverse order (minus keys this plan deletes) with
       * the keys this plan adds. Evicted URLs lose their seen mark.
       */
      async evict(max) {
        if (this.c.frontierSize <= max) return;
        const pending = [...this.added.keys()].sort().reverse();
        const limit = this.c.frontierSize - max + this.deleted.size + 1;
        const range = this.storedTail === void 0 ? { reverse: true, limit } : { reverse: true, limit, lte: this.storedTail };
        await this.store.settled();
        const rows = (await this.store.frontier.iterator(range).all()).filter(
          ([k]) => !this.deleted.has(k)
        );
        let pi = 0;
        let ri = 0;
        const worstIsPending = () => pending[pi] !== void 0 && (rows[ri] === void 0 || pending[pi] > rows[ri][0]);
        while (this.c.frontierSize > max) {
          if (worstIsPending()) {
            const uk = this.added.get(pending[pi++]).uk;
            this.unqueue(uk);
            this.setSeen(uk, null);
            this.outcome.delete(uk);
          } else if (ri < rows.length) {
            const [key, entry] = rows[ri++];
            this.deleted.add(key);
            this.del(this.store.frontier, key);
            this.c.frontierSize--;
            this.setSeen(urlKey(entry.url), null);
          } else {
            throw new StoreError("store is corrupt: the frontier counter exceeds the stored frontier");
          }
        }
        this.survivor = worstIsPending() ? pending[pi] : rows[ri]?.[0];
      }
      count(kind) {
        let n = 0;
        for (const o of this.outcome.values()) if (o === kind) n++;
        return n;
      }
    };
    CrawlStore = class _CrawlStore {
      constructor(db, counters, maxFrontier, onFrontierChange, journal, name, seenFilter, seenCacheSlots) {
        this.db = db;
        this.maxFrontier = maxFrontier;
        this.onFrontierChange = onFrontierChange;
        this.journal = journal;
        this.name = name;
        this.seenFilter = seenFilter;
        this.seenCache = new SeenCache(seenCacheSlots, frontierKey, seqOf);
        this.frontierDb = db.sublevel("frontier", { valueEncoding: "json" });
        this.seenDb = db.sublevel("seen", { valueEncoding: "json" });
        this.logDb = db.sublevel("log", { valueEncoding: "json" });
        this.metaDb = db.sublevel("meta", { valueEncoding: "json" });
        this.parkedDb = db.sublevel("parked", { valueEncoding: "json" });
        this.c = counters;
      }
      db;
      maxFrontier;
      onFrontierChange;
      journal;
      name;
      seenFilter;
      frontierDb;
      seenDb;
      logDb;
      metaDb;
      parkedDb;
      c;
      /** settles when every earlier mutation has */
      queue = Promise.resolve();
      /** when defined, no stored frontier key is greater (see Plan) */
      tail = void 0;
      /** urlKey -> seen mark as committed (null: none) */
      seenCache;
      /** write-behind: operations committed (journaled) and not yet handed to LevelDB, by sublevel prefix + key */
      pending = /* @__PURE__ */ new Map();
      /** write-behind: the group LevelDB is writing, by sublevel prefix + key */
      writing = null;
      /** write-behind: settles when the group being written has */
      written = Promise.resolve();
      /** write-behind: groups handed to LevelDB, and groups it has written */
      groupsStarted = 0;
      groupsWritten = 0;
      /** write-behind: a group's write failed; every later operation fails with this */
      failed = null;
      /**
       * Open (creating it if missing) the store at directory `location`, or on
       * an abstract-level database (e.g. a MemoryLevel in tests; the store takes
       * it over and closes it on `close`). A directory must be missing, empty
       * or a store (src/store/dir.ts): another one is refused with UsageError
       * (FC_USAGE) before anything is written. Throws StoreLockedError
       * (FC_STORE_LOCKED) when another process or instance holds the LevelDB
       * lock, StoreError (FC_STORE) with the cause for any other failure.
       */
      static async open(location, opts = {}) {
        const maxFrontier = opts.maxFrontier ?? Infinity;
        if (!(maxFrontier === Infinity || Number.isSafeInteger(maxFrontier) && maxFrontier >= 1)) {
          throw new TypeError(`maxFrontier must be a positive integer, got ${maxFrontier}`);
        }
        const slots = opts.seenCacheSlots ?? SEEN_CACHE_SLOTS;
        if (!Number.isSafeInteger(slots) || slots < SEEN_CACHE_WAYS || (slots & slots - 1) !== 0) {
          throw new TypeError(`seenCacheSlots must be a power of two of at least ${SEEN_CACHE_WAYS}, got ${slots}`);
        }
        const name = typeof location === "string" ? location : "in-memory store";
        const verify = typeof location === "string" && await claimStoreDir(location);
        let db;
        try {
          db = typeof location === "string" ? new Level(location, STORE_LEVELDB_OPTIONS) : location;
          await db.open();
        } catch (err) {
          if (isLocked(err)) throw new StoreLockedError(name, { cause: err });
          throw new StoreError(`cannot open store ${name}: ${reason(err)}`, { cause: err });
        }
        let journal;
        try {
          const meta = db.sublevel("meta", { valueEncoding: "json" });
          const stored = await meta.get(COUNTERS_KEY);
          if (verify) {
            if (stored === void 0) throw notAStore(name, "a LevelDB database focuscrawl did not write");
            await writeStoreMarker(name);
          }
          let counters = readCounters(stored);
          const journalPath = typeof location === "string" ? path4.join(location, JOURNAL_FILE) : opts.journal;
          if (journalPath !== void 0) {
            const opened = Journal.open(journalPath);
            journal = opened.journal;
            const missing = opened.entries.filter((e) => e.b > counters.b);
            for (const e of missing) await db.batch(e.ops.map((op) => fromJournal(db, op)));
            if (missing.length > 0) counters = readCounters(await meta.get(COUNTERS_KEY));
            journal.clear();
          }
          const seenFilter = new SeenFilter();
          for await (const k of db.sublevel("seen", { valueEncoding: "json" }).keys()) seenFilter.add(k);
          return new _CrawlStore(db, counters, maxFrontier, opts.onFrontierChange, journal, name, seenFilter, slots);
        } catch (err) {
          journal?.close();
          await db.close().catch(() => {
          });
          if (err instanceof StoreError || err instanceof UsageError) throw err;
          throw new StoreError(`cannot read store ${name}: ${reason(err)}`, { cause: err });
        }
      }
      /** Number of entries in the frontier. */
      get frontierSize() {
        return this.c.frontierSize;
      }
      /** Committed records that counted as pages. */
      get pages() {
        return this.c.pages;
      }
      /** Committed records whose `type` is 'error'. */
      get errors() {
        return this.c.errors;
      }
      /** Number of committed records (the log length). */
      get committed() {
        return this.c.committed;
      }
      /**
       * Run `fn` after every earlier mutation settled. Failures of the database
       * (reads included) reject as StoreError (FC_STORE); TypeErrors for bad
       * arguments stay TypeErrors.
       */
      serial(fn) {
        const run = this.queue.then(() => {
          if (this.failed !== null) throw this.failed;
          return fn();
        }).catch((err) => {
          if (err instanceof StoreError || err instanceof TypeError) throw err;
          throw new StoreError(`store ${this.name} failed: ${reason(err)}`, { cause: err });
        });
        this.queue = run.catch(() => {
        });
        return run;
      }
      newPlan() {
        return new Plan({ frontier: this.frontierDb, seen: this.seenDb, settled: () => this.settled() }, { ...this.c }, this.tail);
      }
      /**
       * The seen mark a group not yet written to LevelDB leaves for `uk` (null:
       * it deletes it), or undefined when no such group touches it.
       */
      unwrittenSeen(uk) {
        if (this.pending.size === 0 && this.writing === null) return void 0;
        const k = `${this.seenDb.prefix}${uk}`;
        const op = this.pending.get(k) ?? this.writing?.get(k);
        if (op === void 0) return void 0;
        return op.type === "put" ? op.value : null;
      }
      /**
       * The seen mark of `uk` as far as memory knows it: from the cache or the
       * groups not yet written, null (none) when the filter has never met the
       * key; undefined when only a LevelDB read can tell.
       */
      knownSeen(uk) {
        const cached = this.seenCache.get(uk);
        if (cached !== void 0) return cached;
        const unwritten = this.unwrittenSeen(uk);
        if (unwritten !== void 0) return unwritten;
        return this.seenFilter.mayHave(uk) ? void 0 : null;
      }
      /** Load the current seen marks of `urls` into the plan: from memory (knownSeen), the rest with one getMany. */
      async loadSeen(plan, urls) {
        const misses = [];
        for (const k of new Set(urls.map(urlKey))) {
          const known = this.knownSeen(k);
          if (known !== void 0) plan.seen.set(k, known);
          else misses.push(k);
        }
        if (misses.length === 0) return;
        const values = await this.seenDb.getMany(misses);
        misses.forEach((k, i) => {
          plan.seen.set(k, values[i] ?? null);
        });
      }
      /**
       * Write the plan plus the counters as one batch, then adopt the counters,
       * tail and seen marks and report the frontier delta. With a journal the
       * batch is written behind (see the header): done once journaled. Without
       * one, it is done once LevelDB wrote it, and a failure leaves no trace.
       */
      async apply(plan, extra = [], beforeBatch) {
        if (this.db.status !== "open") throw new StoreError(`cannot write store ${this.name}: the database is ${this.db.status}`);
        plan.c.b = this.c.b + 1;
        const ops = [...plan.ops.values(), ...extra, { type: "put", sublevel: this.metaDb, key: COUNTERS_KEY, value: plan.c }];
        if (this.journal === void 0) {
          beforeBatch?.();
          try {
            await this.db.batch(ops);
          } catch (err) {
            throw new StoreError(`cannot write store ${this.name}: ${reason(err)}`, { cause: err });
          }
          this.adopt(plan);
          return;
        }
        try {
          this.journal.append({ b: plan.c.b, ops: ops.map(toJournal) });
        } catch (err) {
          throw new StoreError(`cannot write store ${this.name}: ${reason(err)}`, { cause: err });
        }
        for (const op of ops) this.pending.set(`${op.sublevel.prefix}${op.key}`, op);
        try {
          beforeBatch?.();
        } finally {
          this.adopt(plan);
          this.writeNextGroup();
        }
        if (this.pending.size > MAX_PENDING_OPS) await this.settled();
        if (this.journal.large) {
          await this.settled();
          this.journal.truncateIfLarge();
        }
      }
      /** Take a committed plan's counters, tail and seen marks, and report its frontier delta. */
      adopt(plan) {
        this.c = plan.c;
        this.tail = plan.tail;
        for (const [k, v] of plan.seen) {
          this.seenCache.set(k, v);
          if (v !== null && !this.seenFilter.mayHave(k)) this.seenFilter.add(k);
        }
        if (this.onFrontierChange !== void 0) {
          const added = [...plan.added].map(([key, { entry }]) => ({ key, entry }));
          this.onFrontierChange({ added, removed: [...plan.deleted] });
        }
      }
      /** Write-behind: hand the pending operations to LevelDB as one group, unless a group is being written. */
      writeNextGroup() {
        if (this.writing !== null || this.pending.size === 0 || this.failed !== null) return;
        const group = this.pending;
        this.pending = /* @__PURE__ */ new Map();
        this.writing = group;
        this.groupsStarted++;
        this.written = this.db.batch([...group.values()]).then(
          () => {
            this.writing = null;
            this.groupsWritten++;
            if (this.pending.size === 0) this.journal?.truncateIfLarge();
            this.writeNextGroup();
          },
          (err) => {
            this.writing = null;
            this.failed = new StoreError(`cannot write store ${this.name}: ${reason(err)}`, { cause: err });
            this.seenCache.clear();
          }
        );
      }
      /**
       * Resolves when every operation committed before the call is in LevelDB
       * (at once without write-behind); rejects with the StoreError of a failed
       * group write. Reads of LevelDB other than seen marks wait for it.
       */
      async settled() {
        const target = this.pending.size > 0 ? this.groupsStarted + 1 : this.groupsStarted;
        while (this.groupsWritten < target && this.failed === null) {
          this.writeNextGroup();
          await this.written;
        }
        if (this.failed !== null) throw this.failed;
      }
      /**
       * Enqueue seed entries in one batch: URLs never seen are added, queued
       * ones with a lower score are raised, done ones are skipped. Returns the
       * number of URLs added (after any maxFrontier eviction).
       */
      addSeeds(entries) {
        return this.serial(async () => {
          const plan = this.newPlan();
          await this.loadSeen(plan, entries.map((e) => e.url));
          for (const e of entries) plan.enqueue(e);
          await plan.evict(this.maxFrontier);
          await this.apply(plan);
          return plan.count("added");
        });
      }
      /**
       * Best-first frontier entries (highest score, then discovery order), from a
       * snapshot taken when iteration starts; `gt` resumes after a frontier key.
       * Never removes anything: only `commit` does.
       */
      async *frontier(opts = {}) {
        const range = opts.gt === void 0 ? {} : { gt: opts.gt };
        await this.settled();
        for await (const [key, entry] of this.frontierDb.iterator(range)) {
          yield { key, entry };
        }
      }
      /**
       * Whether a canonical URL is queued, done, or unknown (null). Answered
       * like a commit's seen reads (cache, unwritten groups, filter, LevelDB),
       * so the fetch stage's check of each redirect hop never waits for
       * LevelDB to catch up.
       */
      async status(url) {
        if (this.failed !== null) throw this.failed;
        const uk = urlKey(url);
        let v = this.knownSeen(uk);
        if (v === void 0) v = await this.seenDb.get(uk) ?? null;
        if (v === null) return null;
        return v.s === "q" ? "queued" : "done";
      }
      /**
       * Record one fetched page in ONE atomic batch: remove the entry's URL (at
       * its current frontier key) and every `alsoDone` URL from the frontier and
       * mark them done; append `record` to the log; enqueue each link never seen
       * (new seq), raise a queued link whose score is lower (new score and link
       * fields, original seq), skip done ones; evict the lowest-priority entries
       * beyond maxFrontier (their seen marks are dropped so they can be
       * rediscovered); update counters (`errors` counts records with
       * type 'error'). Returns how many links were added and raised (evicted ones
       * not counted). Overlapping calls are serialised. On failure nothing of the
       * commit is written and a StoreError is thrown (TypeError for a NaN score).
       */
      commit(c, hooks = {}) {
        return this.serial(async () => {
          const plan = this.newPlan();
          const done = [c.entry.url, ...c.alsoDone ?? []];
          await this.loadSeen(plan, [...done, ...c.links.map((l) => l.url)]);
          for (const url of done) plan.markDone(urlKey(url));
          if (c.retryLater === true) plan.put(this.parkedDb, urlKey(c.entry.url), parkedEntry(c.entry));
          const keepText = c.keepText !== false;
          for (const l of c.links) plan.enqueue(l, keepText);
          await plan.evict(this.maxFrontier);
          const n = ++plan.c.committed;
          if (c.countsAsPage) plan.c.pages++;
          if (c.record.type === "error") plan.c.errors++;
          await this.apply(plan, [{ type: "put", sublevel: this.logDb, key: logKey(n), value: c.record }], hooks.beforeBatch);
          return { added: plan.count("added"), raised: plan.count("raised") };
        });
      }
      /**
       * Put a URL taken from the frontier back for another attempt (its fetch
       * failed transiently; see src/frontier/retry.ts) in ONE atomic batch: its frontier
       * entry is rewritten with `entry.attempts`, keeping the stored score, seq
       * and link fields, so a resumed crawl keeps the count. Nothing is logged
       * or counted and redirect hops are not marked done. A URL that is done
       * by now (another page's redirect hop) is left alone; one evicted
       * meanwhile (maxFrontier) is queued again under a new seq.
       */
      retry(entry) {
        return this.serial(async () => {
          const plan = this.newPlan();
          const uk = urlKey(entry.url);
          await this.loadSeen(plan, [entry.url]);
          const s = plan.seen.get(uk);
          if (s?.s === "d") return;
          if (s?.s === "q") {
            await this.settled();
            const stored = await this.frontierDb.get(s.k) ?? entry;
            plan.unqueue(uk);
            plan.place(uk, { ...stored, attempts: entry.attempts, seq: seqOf(s.k) });
          } else {
            plan.place(uk, { ...entry, seq: ++plan.c.seq });
          }
          await plan.evict(this.maxFrontier);
          await this.apply(plan);
        });
      }
      /**
       * Queue again every URL parked by a commit with `retryLater` (a fetch that
       * got no answer in an earlier run), with its score, depth, parent and link
       * fields and no attempts, unless something else made it done for good
       * since; then forget the parked set. Batches of {@link REQUEUE_BATCH}
       * URLs, each atomic (a crash between two leaves the rest parked). Returns
       * how many URLs were queued (before any maxFrontier eviction).
       */
      requeueParked() {
        return this.serial(async () => {
          await this.settled();
          let queued = 0;
          for (; ; ) {
            const rows = await this.parkedDb.iterator({ limit: REQUEUE_BATCH }).all();
            if (rows.length === 0) return queued;
            const plan = this.newPlan();
            await this.loadSeen(plan, rows.map(([, e]) => e.url));
            for (const [uk, e] of rows) {
              plan.del(this.parkedDb, uk);
              if (plan.seen.get(uk)?.s === "q") continue;
              plan.place(uk, { ...parkedEntry(e), seq: ++plan.c.seq });
              queued++;
            }
            await plan.evict(this.maxFrontier);
            await this.apply(plan);
            await this.settled();
          }
        });
      }
      /**
       * Give queued URLs new priorities, up or down (a strategy re-scored them,
       * e.g. after a HITS round), keeping their discovery seq. URLs that are not
       * queued, and non-finite scores, are ignored. One atomic batch; returns
       * how many entries moved.
       */
      reprioritise(updates) {
        return this.serial(async () => {
          const wanted = /* @__PURE__ */ new Map();
          for (const u of updates) if (Number.isFinite(u.score)) wanted.set(u.url, u.score);
          const plan = this.newPlan();
          await this.loadSeen(plan, [...wanted.keys()]);
          const moves = [];
          for (const [url, score] of wanted) {
            const uk = urlKey(url);
            const s = plan.seen.get(uk);
            if (s?.s === "q" && s.score !== score) moves.push({ uk, k: s.k, score });
          }
          if (moves.length === 0) return 0;
          await this.settled();
          const entries = await this.frontierDb.getMany(moves.map((m) => m.k));
          let moved = 0;
          moves.forEach((m, i) => {
            const old = entries[i];
            if (old === void 0) return;
            plan.unqueue(m.uk);
            plan.place(m.uk, { ...old, score: m.score, seq: seqOf(m.k) });
            moved++;
          });
          await this.apply(plan);
          return moved;
        });
      }
      /** Committed records in commit order; `gt` is a log key (see logKey) to resume after. */
      async *log(opts = {}) {
        const range = opts.gt === void 0 ? {} : { gt: opts.gt };
        await this.settled();
        for await (const value of this.logDb.values(range)) yield value;
      }
      /** A JSON value stored with putMeta, or undefined. Throws StoreError (FC_STORE) when the read fails. */
      async getMeta(key) {
        const k = this.metaKey(key);
        try {
          return await this.metaDb.get(k);
        } catch (err) {
          throw new StoreError(`cannot read store ${this.name}: ${reason(err)}`, { cause: err });
        }
      }
      /**
       * Store a JSON value under `key` (the key '_counters' is reserved; not
       * journaled). Throws StoreError (FC_STORE) when the write fails (disk full).
       */
      async putMeta(key, value) {
        const k = this.metaKey(key);
        try {
          await this.metaDb.put(k, value);
        } catch (err) {
          throw new StoreError(`cannot write store ${this.name}: ${reason(err)}`, { cause: err });
        }
      }
      metaKey(key) {
        if (key === COUNTERS_KEY) throw new TypeError(`meta key ${COUNTERS_KEY} is reserved`);
        return key;
      }
      /**
       * Wait for pending mutations and their LevelDB writes, then close the
       * database; rejects with the StoreError of a failed write-behind group
       * after closing (the journal keeps the group for the next open).
       */
      async close() {
        await this.queue;
        const failure = await this.settled().then(() => null, (err) => err);
        this.journal?.close();
        await this.db.close();
        if (failure !== null) throw failure;
      }
    };
  }
});

// src/store/types.ts
function isRedisStore(location) {
  return /^rediss?:\/\//i.test(location);
}
var init_types = __esm({
  "src/store/types.ts"() {
    "use strict";
  }
});

// src/crawl/config.ts
function resolveConfig(cfg) {
  const canon2 = { dropIndex: cfg.dropIndex, stripSessionIds: cfg.stripSessionIds };
  const inScope = compileScope(cfg.scope ?? {});
  const skipExtension = compileSkipExtensions(cfg.skipExtensions);
  const seedEntries = [];
  for (const s of cfg.seeds) {
    const url = canonicalize(s, void 0, canon2);
    if (url === null) throw new UsageError(`seed is not an http(s) URL: ${JSON.stringify(s)}`);
    seedEntries.push({ url, score: SEED_SCORE, depth: 0, parent: null });
  }
  const model = cfg.model ?? null;
  const params = { ...cfg.topic?.params, ...cfg.params };
  const focused = cfg.topic !== null || model !== null;
  const scorer = cfg.scorer ?? (focused ? createScorer(cfg.strategy, cfg.topic, { model, params, segmenter: cfg.segmenter, explore: cfg.strategy === "bfs" ? 0 : cfg.explore ?? DEFAULT_EXPLORE }) : UNFOCUSED);
  const threshold = focused || cfg.scorer !== void 0 ? relevanceThreshold(cfg.topic, model, params) : Infinity;
  const roundSize = cfg.strategy === "best-n-first" ? Number(params.roundSize ?? DEFAULT_ROUND_SIZE) : void 0;
  const holdBack = cfg.holdBack ?? DEFAULT_HOLD_BACK;
  const maxLinks = cfg.maxLinksPerPage ?? DEFAULT_MAX_LINKS;
  if (!(Number.isInteger(maxLinks) && maxLinks >= 1)) throw new UsageError(`maxLinksPerPage must be a positive integer, got ${JSON.stringify(cfg.maxLinksPerPage)}`);
  if (!(holdBack >= 0 && holdBack <= 1)) throw new UsageError(`holdBack must be a number from 0 to 1, got ${JSON.stringify(cfg.holdBack)}`);
  if (roundSize !== void 0 && !(Number.isInteger(roundSize) && roundSize >= 1)) {
    throw new UsageError(`roundSize must be a positive integer, got ${JSON.stringify(params.roundSize)}`);
  }
  return {
    ...cfg,
    canon: canon2,
    redirectCanon: { ...canon2, stripSessionIds: false },
    inScope,
    skipExtension,
    seedEntries,
    scorer,
    threshold,
    roundSize,
    holdBack,
    maxLinks,
    retryPolicy: { ...DEFAULT_RETRY_POLICY, ...cfg.retry },
    trapLimits: { ...DEFAULT_TRAP_LIMITS, ...cfg.traps },
    shared: isRedisStore(cfg.storeDir),
    maxPagesPerHostResolved: cfg.maxPagesPerHost ?? DEFAULT_MAX_PAGES_PER_HOST,
    nearDup: cfg.nearDupDistance ?? DEFAULT_NEAR_DUP_DISTANCE,
    maxTime: cfg.maxTimeMs ?? Infinity
  };
}
var SEED_SCORE, UNFOCUSED;
var init_config = __esm({
  "src/crawl/config.ts"() {
    "use strict";
    init_errors();
    init_host_budget();
    init_retry();
    init_page_parser();
    init_best_n_first();
    init_explore();
    init_scorers();
    init_simhash();
    init_frontier_source();
    init_types();
    init_canonical();
    init_extensions();
    init_scope();
    init_traps();
    SEED_SCORE = 1e6;
    UNFOCUSED = { name: "bfs", pageRelevance: () => 0, linkScore: () => 0 };
  }
});

// src/crawl/context.ts
import { setTimeout as sleep } from "node:timers/promises";
var Ticket, CrawlContext;
var init_context = __esm({
  "src/crawl/context.ts"() {
    "use strict";
    init_retry();
    init_canonical();
    Ticket = class {
      #released = false;
      #settled = false;
      #ctx;
      #item;
      constructor(ctx, item) {
        this.#ctx = ctx;
        this.#item = item;
      }
      get released() {
        return this.#released;
      }
      get settled() {
        return this.#settled;
      }
      release(requested) {
        if (this.#released) return;
        this.#released = true;
        const item = this.#item;
        const host = hostOfCanonical(item.entry.url);
        this.#ctx.scheduler.finish(host, item.entry.url, item.fetch?.replay ?? false, requested, item.fetch?.ms ?? 0);
        this.#ctx.scheduler.backoff(host, hostBackoffMs(item, this.#ctx.retry));
        this.#ctx.inflight.wake();
      }
      settle() {
        if (this.#settled) return;
        this.#settled = true;
        this.release(this.#item.fetch !== void 0);
        this.#ctx.inflight.delete(this.#item.entry.url);
      }
    };
    CrawlContext = class {
      #o;
      constructor(opts) {
        this.#o = opts;
      }
      /** the frontier source took the item: its URL is in flight, its host slot held */
      issue = (item) => new Ticket(this.#o, item);
      /** an item taken without a ticket (a caller's own source) gets one on first use */
      #ticket(item) {
        return item.ticket ??= this.issue(item);
      }
      /** fetch stage: the item settled, its host slot is free */
      onFetched = (item, requested) => this.#ticket(item).release(requested);
      /** sink: the item goes back to the frontier for another attempt */
      onRetry = (item) => this.#ticket(item).settle();
      /** sink: the item's record is committed */
      onCommitted = (item, record) => {
        const { budget, dedup, summary } = this.#o;
        budget?.committed(record);
        dedup?.committed(item, this.#o.committedCount?.() ?? 0);
        if (record.type === "page" && record.duplicateOf !== void 0) summary.nearDuplicates = (summary.nearDuplicates ?? 0) + 1;
        this.#ticket(item).settle();
        this.#o.observe?.(record);
        if (record.type === "error") summary.errors++;
        else {
          summary.pages++;
          if (record.relevant) summary.relevant++;
        }
      };
      /** sink: a link was not queued */
      onDrop = (_url, reason3) => {
        const { dropped } = this.#o.summary;
        dropped[reason3] = (dropped[reason3] ?? 0) + 1;
      };
      /** sink: a page's links past the cap were cut */
      onCapped = (n) => {
        const { dropped } = this.#o.summary;
        dropped["links-per-page"] = (dropped["links-per-page"] ?? 0) + n;
      };
      /**
       * fetch stage, before a redirect hop: a followed redirect is polite too. A
       * hop waits its host's delay, and a hop to another host takes a slot there,
       * given back by the callback returned (once the hop is answered).
       */
      beforeHop = async (url, hop) => {
        const { scheduler, inflight } = this.#o;
        const host = hostOfCanonical(url);
        const held = host === hostOfCanonical(hop.origin);
        const wait = scheduler.hopDelayMs(host, url, held, hop.replay, hop.elapsedMs);
        if (wait > 0) await sleep(wait, void 0, { signal: hop.signal });
        if (held) return void 0;
        scheduler.start(host);
        const hopStarted = Date.now();
        let done = false;
        return (replay) => {
          if (done) return;
          done = true;
          scheduler.finish(host, url, replay, true, Date.now() - hopStarted);
          inflight.wake();
        };
      };
    };
  }
});

// src/crawl/summary.ts
function dropLine(dropped) {
  const parts = Object.entries(dropped).map(([reason3, n]) => `${reason3} ${n}`);
  return parts.length === 0 ? "" : `; links dropped: ${parts.join(", ")}`;
}
function noAnswerError(client, proxy, fromSeeds) {
  const { answered, failed, firstFailure } = client.outcomes;
  if (answered > 0 || failed === 0 || firstFailure === null) return null;
  const what = fromSeeds ? "any seed" : "any queued URL";
  return new NetworkError(
    `could not reach ${what} (${describeFailure(firstFailure, proxy)}); ${failed} requests, none answered. Their URLs are kept for the next run: rerun with the same --store once the network is back`,
    { cause: firstFailure }
  );
}
function describeFailure(err, proxy) {
  if (proxy !== void 0) {
    let proxyHost = proxy;
    let proxyPort = "";
    try {
      const u = new URL(proxy);
      proxyHost = u.host;
      proxyPort = u.port || (u.protocol === "https:" ? "443" : "80");
    } catch {
    }
    for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
      const x = e;
      if (x.code === "ECONNREFUSED" && (x.port === void 0 || String(x.port) === proxyPort)) return `proxy ${proxyHost} refused the connection`;
    }
    return `through proxy ${proxyHost}: ${err.code}: ${err.message}`;
  }
  return `${err.code}: ${err.message}`;
}
var init_summary = __esm({
  "src/crawl/summary.ts"() {
    "use strict";
    init_errors();
  }
});

// src/store/redis-scripts.ts
var PRELUDE, CLAIM_FN, ADD_SEEDS, COMMIT, RETRY, REQUEUE_PARKED, REPRIORITISE, CLAIM, RENEW, RELEASE, REAP, PAGE, COUNTS;
var init_redis_scripts = __esm({
  "src/store/redis-scripts.ts"() {
    "use strict";
    PRELUDE = `
local KQ, KE, KS, KL, KC, KLEASE, KLW, KHA, KHN, KMETA, KCT, KPK = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11], KEYS[12]
-- ARGV[1] is the crawl's epoch as the client read it at open: if the crawl's
-- keys were lost since (a restart without persistence, FLUSHDB, --fresh),
-- refuse before writing anything rather than rebuild a partial crawl
local EPOCH = table.remove(ARGV, 1)
if redis.call('HGET', KMETA, '_epoch') ~= EPOCH then
  return redis.error_reply('FC_EPOCH the crawl state in Redis is gone or was reset (a restart without persistence, FLUSHDB or --fresh)')
end

local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- the frontier key of src/store/level.ts frontierKey(score, seq)
local function fkey(score, seq)
  local x = 0
  if score ~= 0 then x = -score end
  local b = { string.byte(struct.pack('>d', x), 1, 8) }
  if b[1] >= 128 then
    for i = 1, 8 do b[i] = 255 - b[i] end
  else
    b[1] = b[1] + 128
  end
  local hex = {}
  for i = 1, 8 do hex[i] = string.format('%02x', b[i]) end
  return table.concat(hex) .. '!' .. string.format('%014x', seq)
end

local function seqOf(k)
  return tonumber(string.sub(k, 18), 16)
end

-- "uk\\thost\\tscore\\tjson" -> uk, host, score string, json
local function splitEntry(v)
  local uk, host, s, j = string.match(v, '^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t(.*)$')
  return uk, host, s, j
end

-- "q\\tkey\\tscore" -> key, score string (nil for "d")
local function splitSeen(sv)
  local k, s = string.match(sv, '^q\\t([^\\t]+)\\t(.*)$')
  return k, s
end

local function counts()
  local c = redis.call('HMGET', KC, 'pages', 'errors', 'committed')
  return { tonumber(c[1] or '0'), tonumber(c[2] or '0'), tonumber(c[3] or '0'), redis.call('ZCARD', KQ) + redis.call('ZCARD', KLEASE) }
end

local function place(uk, host, s, j, seq)
  local k = fkey(tonumber(s), seq)
  redis.call('ZADD', KQ, 0, k)
  redis.call('HSET', KE, k, uk .. '\\t' .. host .. '\\t' .. s .. '\\t' .. j)
  redis.call('HSET', KS, uk, 'q\\t' .. k .. '\\t' .. s)
  return k
end

-- queue a URL never seen; raise a queued one with a lower score (keeping
-- its seq) unless a worker holds it; skip done ones
local function enqueue(L, outcome)
  local sv = redis.call('HGET', KS, L.uk)
  local seq
  if sv then
    if sv == 'd' then return end
    local k, s = splitSeen(sv)
    if tonumber(s) >= tonumber(L.s) then return end
    if redis.call('ZSCORE', KLEASE, k) then return end
    seq = seqOf(k)
    redis.call('ZREM', KQ, k)
    redis.call('HDEL', KE, k)
    if not outcome[L.uk] then outcome[L.uk] = 'raised' end
  else
    seq = redis.call('HINCRBY', KC, 'seq', 1)
    outcome[L.uk] = 'added'
  end
  place(L.uk, L.host, L.s, L.j, seq)
end

-- evict the lowest-priority queued (not leased) entries beyond max (0: no limit)
local function evict(max, outcome)
  if max <= 0 then return end
  local n = redis.call('ZCARD', KQ) + redis.call('ZCARD', KLEASE)
  while n > max do
    local worst = redis.call('ZRANGE', KQ, '+', '-', 'BYLEX', 'REV', 'LIMIT', 0, 1)[1]
    if not worst then break end
    local v = redis.call('HGET', KE, worst)
    redis.call('ZREM', KQ, worst)
    redis.call('HDEL', KE, worst)
    if v then
      local uk = splitEntry(v)
      redis.call('HDEL', KS, uk)
      outcome[uk] = nil
    end
    n = n - 1
  end
end

local function markDone(uk)
  local sv = redis.call('HGET', KS, uk)
  if sv and sv ~= 'd' then
    local k = splitSeen(sv)
    redis.call('ZREM', KQ, k)
    -- a lease held by another worker stays: its owner's commit, or the reaper, clears it
    if not redis.call('ZSCORE', KLEASE, k) then redis.call('HDEL', KE, k) end
  end
  redis.call('HSET', KS, uk, 'd')
end

-- end the lease on key k: the host's slot is freed and its next request
-- waits delay ms from now; true when there was a lease
local function endLease(k, delay, now)
  if redis.call('ZREM', KLEASE, k) == 0 then return false end
  redis.call('HDEL', KLW, k)
  local v = redis.call('HGET', KE, k)
  if v then
    local _, host = splitEntry(v)
    if redis.call('HINCRBY', KHA, host, -1) <= 0 then redis.call('HDEL', KHA, host) end
    if delay > 0 then
      local nx = tonumber(redis.call('HGET', KHN, host) or '0')
      if now + delay > nx then redis.call('HSET', KHN, host, now + delay) end
    end
  end
  return true
end

-- a lease that ends without a commit: back to the frontier, unless the URL
-- is done by now (another page's redirect hop) or queued under another key
local function returnLease(k, now)
  endLease(k, 0, now)
  local v = redis.call('HGET', KE, k)
  if not v then return end
  local uk = splitEntry(v)
  local sv = redis.call('HGET', KS, uk)
  if sv and splitSeen(sv) == k then
    redis.call('ZADD', KQ, 0, k)
  else
    redis.call('HDEL', KE, k)
  end
end

local function reap(now)
  local expired = redis.call('ZRANGEBYSCORE', KLEASE, '-inf', now, 'LIMIT', 0, 256)
  for _, k in ipairs(expired) do returnLease(k, now) end
  return #expired
end

local function countOutcome(outcome, kind)
  local n = 0
  for _, o in pairs(outcome) do if o == kind then n = n + 1 end end
  return n
end
`;
    CLAIM_FN = `
local function claimUpTo(w, n, leaseMs, perHost, maxPages, scan, poll, now)
  local leased = redis.call('ZCARD', KLEASE)
  if maxPages > 0 then
    local pages = tonumber(redis.call('HGET', KC, 'pages') or '0')
    if pages >= maxPages then return 'done', 0, {} end
    if maxPages - pages - leased < n then n = maxPages - pages - leased end
    if n <= 0 then return 'wait', poll, {} end
  end
  if redis.call('ZCARD', KQ) == 0 then
    if leased == 0 then return 'done', 0, {} end
    return 'wait', poll, {}
  end
  local got = {}
  local taken = 0
  -- how long until a claim may succeed: the nearest politeness delay, or the
  -- poll interval when a host is busy in a worker or the scan did not see all
  local wait = nil
  local busy = false
  local active = {}
  local keys = redis.call('ZRANGE', KQ, '-', '+', 'BYLEX', 'LIMIT', 0, scan)
  if #keys >= scan then busy = true end
  for _, k in ipairs(keys) do
    local v = redis.call('HGET', KE, k)
    local host = nil
    if v then
      local _, h = splitEntry(v)
      host = h
    else
      redis.call('ZREM', KQ, k) -- no entry: not takeable (cannot happen in a consistent store)
    end
    local a = perHost
    if host then a = active[host] end
    if host and a == nil then a = tonumber(redis.call('HGET', KHA, host) or '0') end
    if host then active[host] = a end
    local nx = 0
    if host then nx = tonumber(redis.call('HGET', KHN, host) or '0') end
    if a < perHost and nx <= now then
      if nx > 0 then redis.call('HDEL', KHN, host) end
      redis.call('ZREM', KQ, k)
      redis.call('ZADD', KLEASE, now + leaseMs, k)
      redis.call('HSET', KLW, k, w)
      redis.call('HINCRBY', KHA, host, 1)
      active[host] = a + 1
      got[#got + 1] = k
      got[#got + 1] = v
      taken = taken + 1
      if taken >= n then break end
    elseif a < perHost then
      if wait == nil or nx - now < wait then wait = nx - now end
    else
      busy = true
    end
  end
  if taken > 0 then return 'ok', 0, got end
  if wait == nil or (busy and poll < wait) then wait = poll end
  return 'wait', wait, got
end
`;
    ADD_SEEDS = `${PRELUDE}
local a = cjson.decode(ARGV[1])
local outcome = {}
for _, L in ipairs(a.links) do enqueue(L, outcome) end
evict(a.max, outcome)
local r = { countOutcome(outcome, 'added') }
for _, x in ipairs(counts()) do r[#r + 1] = x end
return r
`;
    COMMIT = `${PRELUDE}${CLAIM_FN}
local a = cjson.decode(ARGV[1])
local now = nowMs()
if a.lk ~= '' and redis.call('HGET', KLW, a.lk) == a.w then endLease(a.lk, a.delay, now) end
if redis.call('HGET', KS, a.done[1]) == 'd' then
  if a.lk ~= '' and not redis.call('ZSCORE', KLEASE, a.lk) then redis.call('HDEL', KE, a.lk) end
  local ct = redis.call('HGET', KCT, a.done[1])
  local mine = ct and string.sub(ct, 1, #a.t + 1) == a.t .. '	'
  local r = { 0, 0 }
  if mine then
    local added, raised = string.match(ct, '	(%d+)	(%d+)$')
    r = { tonumber(added), tonumber(raised) }
  end
  for _, x in ipairs(counts()) do r[#r + 1] = x end
  local status, waitMs, got = 'none', 0, {}
  if mine then
    r[#r + 1] = 0
    -- the first application's reply was lost, and with it the URLs it claimed
    -- (their leases expire); claim again what the worker asks for now
    if a.claim and not a.replay then
      reap(now)
      status, waitMs, got = claimUpTo(a.w, a.claim.n, a.claim.leaseMs, a.claim.perHost, a.claim.maxPages, a.claim.scan, a.claim.poll, now)
    end
  elseif a.replay then
    r[#r + 1] = 2
  else
    r[#r + 1] = 1
  end
  r[#r + 1] = status
  r[#r + 1] = waitMs
  for _, x in ipairs(got) do r[#r + 1] = x end
  return r
end
for _, uk in ipairs(a.done) do markDone(uk) end
if a.park then redis.call('HSET', KPK, a.done[1], a.park.host .. '	' .. a.park.s .. '	' .. a.park.j) end
if a.lk ~= '' and not redis.call('ZSCORE', KLEASE, a.lk) then redis.call('HDEL', KE, a.lk) end
local outcome = {}
for _, L in ipairs(a.links) do enqueue(L, outcome) end
evict(a.max, outcome)
redis.call('RPUSH', KL, ARGV[2])
redis.call('HINCRBY', KC, 'committed', 1)
if a.page == 1 then redis.call('HINCRBY', KC, 'pages', 1) end
if a.err == 1 then redis.call('HINCRBY', KC, 'errors', 1) end
local added, raised = countOutcome(outcome, 'added'), countOutcome(outcome, 'raised')
redis.call('HSET', KCT, a.done[1], a.t .. '	' .. added .. '	' .. raised)
-- claim the worker's next URLs in the same round-trip
local status, waitMs, got = 'none', 0, {}
if a.claim and not a.replay then
  reap(now)
  status, waitMs, got = claimUpTo(a.w, a.claim.n, a.claim.leaseMs, a.claim.perHost, a.claim.maxPages, a.claim.scan, a.claim.poll, now)
end
local r = { added, raised }
for _, x in ipairs(counts()) do r[#r + 1] = x end
r[#r + 1] = 0
r[#r + 1] = status
r[#r + 1] = waitMs
for _, x in ipairs(got) do r[#r + 1] = x end
return r
`;
    RETRY = `${PRELUDE}
local a = cjson.decode(ARGV[1])
local now = nowMs()
local mine = a.lk ~= '' and redis.call('HGET', KLW, a.lk) == a.w
if mine then endLease(a.lk, a.delay, now) end
local sv = redis.call('HGET', KS, a.uk)
local outcome = {}
if sv == 'd' then
  if mine then redis.call('HDEL', KE, a.lk) end
elseif sv then
  local k, s = splitSeen(sv)
  local v = redis.call('HGET', KE, k)
  if v and not redis.call('ZSCORE', KLEASE, k) then
    local uk, host, vs, j = splitEntry(v)
    local e = cjson.decode(j)
    if a.attempts > 0 then e.attempts = a.attempts else e.attempts = nil end
    redis.call('HSET', KE, k, uk .. '\\t' .. host .. '\\t' .. vs .. '\\t' .. cjson.encode(e))
    redis.call('ZADD', KQ, 0, k)
  end
else
  place(a.uk, a.host, a.s, a.j, redis.call('HINCRBY', KC, 'seq', 1))
end
evict(a.max, outcome)
return counts()
`;
    REQUEUE_PARKED = `${PRELUDE}
local a = cjson.decode(ARGV[1])
local all = redis.call('HGETALL', KPK)
local queued = 0
for i = 1, #all, 2 do
  local uk, v = all[i], all[i + 1]
  local host, s, j = string.match(v, '^([^	]*)	([^	]*)	(.*)$')
  if host and redis.call('HGET', KS, uk) == 'd' then
    place(uk, host, s, j, redis.call('HINCRBY', KC, 'seq', 1))
    queued = queued + 1
  end
end
redis.call('DEL', KPK)
evict(a.max, {})
local r = { queued }
for _, x in ipairs(counts()) do r[#r + 1] = x end
return r
`;
    REPRIORITISE = `${PRELUDE}
local a = cjson.decode(ARGV[1])
local moved = 0
for _, u in ipairs(a.ups) do
  local sv = redis.call('HGET', KS, u.uk)
  if sv and sv ~= 'd' then
    local k, s = splitSeen(sv)
    if tonumber(s) ~= tonumber(u.s) and not redis.call('ZSCORE', KLEASE, k) then
      local v = redis.call('HGET', KE, k)
      if v then
        local uk, host, _, j = splitEntry(v)
        redis.call('ZREM', KQ, k)
        redis.call('HDEL', KE, k)
        place(uk, host, u.s, j, seqOf(k))
        moved = moved + 1
      end
    end
  end
end
local r = { moved }
for _, x in ipairs(counts()) do r[#r + 1] = x end
return r
`;
    CLAIM = `${PRELUDE}${CLAIM_FN}
local w, n, leaseMs, perHost, maxPages, scan, poll = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local now = nowMs()
reap(now)
local status, waitMs, got = claimUpTo(w, n, leaseMs, perHost, maxPages, scan, poll, now)
local r = { status, waitMs }
for _, x in ipairs(counts()) do r[#r + 1] = x end
for _, x in ipairs(got) do r[#r + 1] = x end
return r
`;
    RENEW = `${PRELUDE}
local now = nowMs()
local held = 0
for i = 3, #ARGV do
  local k = ARGV[i]
  if redis.call('HGET', KLW, k) == ARGV[1] and redis.call('ZSCORE', KLEASE, k) then
    redis.call('ZADD', KLEASE, 'XX', now + tonumber(ARGV[2]), k)
    held = held + 1
  end
end
return held
`;
    RELEASE = `${PRELUDE}
local now = nowMs()
for i = 2, #ARGV do
  local k = ARGV[i]
  if redis.call('HGET', KLW, k) == ARGV[1] then returnLease(k, now) end
end
return counts()
`;
    REAP = `${PRELUDE}
local r = { reap(nowMs()) }
for _, x in ipairs(counts()) do r[#r + 1] = x end
return r
`;
    PAGE = `${PRELUDE}
local from = '-'
if ARGV[1] ~= '' then from = '(' .. ARGV[1] end
local keys = redis.call('ZRANGE', KQ, from, '+', 'BYLEX', 'LIMIT', 0, tonumber(ARGV[2]))
local r = {}
for _, k in ipairs(keys) do
  r[#r + 1] = k
  r[#r + 1] = redis.call('HGET', KE, k) or ''
end
return r
`;
    COUNTS = `${PRELUDE}
return counts()
`;
  }
});

// src/store/redis.ts
var redis_exports = {};
__export(redis_exports, {
  ClaimHead: () => ClaimHead,
  DEFAULT_LEASE_MS: () => DEFAULT_LEASE_MS,
  REPLAY_MS: () => REPLAY_MS,
  RedisStore: () => RedisStore,
  crawlKeys: () => crawlKeys,
  parseRedisLocation: () => parseRedisLocation
});
import { randomBytes as randomBytes2 } from "node:crypto";
import { hostname } from "node:os";
import { Redis } from "ioredis";
function parseRedisLocation(location) {
  let u;
  try {
    u = new URL(location);
  } catch {
    throw new StoreError(`--store ${location} is not a redis:// URL`);
  }
  const crawl2 = u.searchParams.get("crawl") ?? "default";
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(crawl2)) throw new StoreError(`--store ${location}: crawl name must be 1-100 of A-Z a-z 0-9 . _ -`);
  u.searchParams.delete("crawl");
  return { url: u.toString(), crawl: crawl2 };
}
function crawlKeys(crawl2) {
  return KEY_NAMES.map((n) => `fc:{${crawl2}}:${n}`);
}
function reason2(err) {
  return err?.message ?? String(err);
}
function restJson(e, keepText = true) {
  const { score: _score, seq: _seq, ...rest } = e;
  if (rest.anchor === "" || !keepText) delete rest.anchor;
  if (rest.context === "" || !keepText) delete rest.context;
  return JSON.stringify(rest);
}
function wire(e, keepText = true) {
  if (typeof e.score !== "number" || Number.isNaN(e.score)) throw new TypeError(`bad frontier score: ${e.score}`);
  return { uk: urlKey(e.url), host: hostOfCanonical(e.url), s: String(e.score), j: restJson(e, keepText) };
}
function parkWire(e) {
  const { attempts: _attempts, ...rest } = e;
  const w = wire(rest);
  return { host: w.host, s: w.s, j: w.j };
}
function parseEntry(k, v) {
  const a = v.indexOf("	");
  const b = v.indexOf("	", a + 1);
  const c = v.indexOf("	", b + 1);
  const rest = JSON.parse(v.slice(c + 1));
  return { ...rest, score: Number(v.slice(b + 1, c)), seq: parseInt(k.slice(17), 16) };
}
function connect(url) {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5e3,
    // after a connection loss: reconnect for about 30 s, then fail the commands waiting
    maxRetriesPerRequest: 20,
    retryStrategy: (times) => times > 20 ? null : Math.min(times * 100, 2e3)
  });
  const scripts = [
    ["fcAddSeeds", ADD_SEEDS],
    ["fcCommit", COMMIT],
    ["fcRetry", RETRY],
    ["fcReprioritise", REPRIORITISE],
    ["fcClaim", CLAIM],
    ["fcRenew", RENEW],
    ["fcRelease", RELEASE],
    ["fcReap", REAP],
    ["fcPage", PAGE],
    ["fcCounts", COUNTS],
    ["fcRequeueParked", REQUEUE_PARKED]
  ];
  for (const [name, lua] of scripts) redis.defineCommand(name, { numberOfKeys: KEY_NAMES.length, lua });
  redis.on("error", () => {
  });
  return redis;
}
var DEFAULT_LEASE_MS, COUNTERS_KEY2, EPOCH_KEY, POLL_MS, KEY_NAMES, REPLAY_MS, RedisStore, ClaimHead;
var init_redis = __esm({
  "src/store/redis.ts"() {
    "use strict";
    init_errors();
    init_canonical();
    init_redis_scripts();
    DEFAULT_LEASE_MS = 3e4;
    COUNTERS_KEY2 = "_counters";
    EPOCH_KEY = "_epoch";
    POLL_MS = 50;
    KEY_NAMES = ["q", "e", "seen", "log", "c", "lease", "lw", "ha", "hn", "meta", "ct", "pk"];
    REPLAY_MS = 5e3;
    RedisStore = class _RedisStore {
      #redis;
      #keys;
      #name;
      #maxFrontier;
      #leaseMs;
      #perHost;
      #maxPages;
      #scan;
      workerId;
      #counts = [0, 0, 0, 0];
      /** url -> frontier key of the lease this worker holds on it */
      #claimed = /* @__PURE__ */ new Map();
      #renewTimer;
      #roundTrips = 0;
      #commits = 0;
      #closed = false;
      /** meta _epoch as read at open (see the scripts' prelude) */
      #epoch = "";
      /** the claim head: how many URLs to claim with a commit, and where they go */
      #head;
      /** commit attempts made: with the worker id, the token of the next one */
      #attempts = 0;
      /** commits Redis answered in the last REPLAY_MS, oldest first: sent again after a reconnect */
      #recent = [];
      /** when the connection was lost (Date.now()), 0 while it is up */
      #lostAt = 0;
      #replays = { sent: 0, conflicts: 0 };
      constructor(redis, crawl2, name, opts) {
        this.#redis = redis;
        this.#keys = crawlKeys(crawl2);
        this.#name = name;
        this.#maxFrontier = opts.maxFrontier ?? Infinity;
        this.#leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
        this.#perHost = opts.perHost ?? 1;
        this.#maxPages = opts.maxPages ?? Infinity;
        this.#scan = opts.scan ?? 1e3;
        this.workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomBytes2(4).toString("hex")}`;
        redis.on("close", () => {
          if (this.#lostAt === 0) this.#lostAt = Date.now();
        });
        redis.on("ready", () => {
          const lostAt = this.#lostAt;
          this.#lostAt = 0;
          if (lostAt > 0) void this.#replay(lostAt);
        });
      }
      /**
       * Connect to the Redis server of `location` (redis://HOST:PORT/DB, optional
       * `?crawl=NAME`). Throws StoreError (FC_STORE) when it does not answer.
       */
      static async open(location, opts = {}) {
        const maxFrontier = opts.maxFrontier ?? Infinity;
        if (!(maxFrontier === Infinity || Number.isSafeInteger(maxFrontier) && maxFrontier >= 1)) {
          throw new TypeError(`maxFrontier must be a positive integer, got ${maxFrontier}`);
        }
        const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
        if (!(Number.isSafeInteger(leaseMs) && leaseMs >= 100)) throw new TypeError(`leaseMs must be an integer >= 100, got ${leaseMs}`);
        const { url, crawl: crawl2 } = parseRedisLocation(location);
        const redis = connect(url);
        const store = new _RedisStore(redis, crawl2, location, opts);
        try {
          await redis.connect();
          const meta = crawlKeys(crawl2)[9];
          await redis.hsetnx(meta, EPOCH_KEY, randomBytes2(8).toString("hex"));
          store.#epoch = await redis.hget(meta, EPOCH_KEY) ?? "";
          store.#setCounts(await store.#call("fcCounts"));
        } catch (err) {
          redis.disconnect();
          if (err instanceof StoreError) throw err;
          throw new StoreError(`cannot open store ${location}: ${reason2(err)}`, { cause: err });
        }
        store.#renewTimer = setInterval(() => void store.#renew(), Math.max(50, Math.floor(leaseMs / 3)));
        store.#renewTimer.unref();
        return store;
      }
      /** Delete every key of the crawl at `location` (`--fresh`). */
      static async destroy(location) {
        const { url, crawl: crawl2 } = parseRedisLocation(location);
        const redis = connect(url);
        try {
          await redis.connect();
          await redis.del(...crawlKeys(crawl2));
        } catch (err) {
          throw new StoreError(`cannot reset store ${location}: ${reason2(err)}`, { cause: err });
        } finally {
          redis.disconnect();
        }
      }
      get frontierSize() {
        return this.#counts[3];
      }
      get pages() {
        return this.#counts[0];
      }
      get errors() {
        return this.#counts[1];
      }
      get committed() {
        return this.#counts[2];
      }
      /** Commands this client sent (each one round-trip). */
      get roundTrips() {
        return this.#roundTrips;
      }
      /** Commits and retries made through this client (a claim after one may find a freed host). */
      get localCommits() {
        return this.#commits;
      }
      /** URLs this worker holds a lease on. */
      get claimedCount() {
        return this.#claimed.size;
      }
      #setCounts(r, from = 0) {
        this.#counts = [Number(r[from]), Number(r[from + 1]), Number(r[from + 2]), Number(r[from + 3])];
      }
      async #call(name, ...args) {
        if (this.#closed) throw new StoreError(`cannot use store ${this.#name}: it is closed`);
        this.#roundTrips++;
        try {
          return await this.#redis[name](...this.#keys, this.#epoch, ...args);
        } catch (err) {
          if (/FC_EPOCH/.test(reason2(err))) {
            throw new StoreError(`store ${this.#name}: the crawl state in Redis is gone or was reset since this worker started (Redis restarted without persistence, FLUSHDB, or --fresh); nothing was written`, { cause: err });
          }
          throw new StoreError(`store ${this.#name} failed: ${reason2(err)}`, { cause: err });
        }
      }
      #max() {
        return this.#maxFrontier === Infinity ? 0 : this.#maxFrontier;
      }
      async addSeeds(entries) {
        const links = entries.map((e) => wire(e));
        const r = await this.#call("fcAddSeeds", JSON.stringify({ links, max: this.#max() }));
        this.#setCounts(r, 1);
        return Number(r[0]);
      }
      async *frontier(opts = {}) {
        let gt = opts.gt ?? "";
        for (; ; ) {
          const r = await this.#call("fcPage", gt, 256);
          for (let i = 0; i < r.length; i += 2) {
            if (r[i + 1] === "") continue;
            yield { key: r[i], entry: parseEntry(r[i], r[i + 1]) };
          }
          if (r.length < 512) return;
          gt = r[r.length - 2];
        }
      }
      async status(url) {
        this.#roundTrips++;
        let v;
        try {
          v = await this.#redis.hget(this.#keys[2], urlKey(url));
        } catch (err) {
          throw new StoreError(`store ${this.#name} failed: ${reason2(err)}`, { cause: err });
        }
        if (v === null) return null;
        return v === "d" ? "done" : "queued";
      }
      /**
       * One page in one script call (see CrawlStore.commit for what it writes),
       * unless its URL is done already (another worker fetched it after this
       * worker's lease expired, or it was a redirect hop of another page): then
       * nothing is written and `beforeBatch` is not called, so no record goes out.
       * When this worker claimed the URL, its lease ends and the host's next
       * request waits `hostDelayMs`. `hooks.beforeBatch` runs right after the
       * script answered: the instant the page is committed is on the server.
       * Each call carries a token (worker id, commit number): applied twice (a
       * re-sent call after a reconnect, or a replay, see #replay) it answers
       * "committed" again, so its record is printed once (RELIABILITY.md).
       */
      async commit(c, hooks = {}) {
        let args;
        let record;
        const lk = this.#claimed.get(c.entry.url) ?? "";
        try {
          const done = [...new Set([c.entry.url, ...c.alsoDone ?? []].map(urlKey))];
          const links = c.links.map((l) => wire(l, c.keepText !== false));
          record = JSON.stringify(c.record);
          const isError = c.record.type === "error";
          const n = this.#head?.prefetch() ?? 0;
          const claim = n > 0 ? this.#claimArgs(n) : void 0;
          const t = `${this.workerId}#${++this.#attempts}`;
          const park = c.retryLater === true ? parkWire(c.entry) : void 0;
          args = JSON.stringify({ w: this.workerId, t, lk, delay: Math.max(0, Math.round(c.hostDelayMs ?? 0)), done, links, page: c.countsAsPage ? 1 : 0, err: isError ? 1 : 0, max: this.#max(), claim, park });
        } catch (err) {
          if (err instanceof TypeError && /bad frontier score/.test(err.message)) throw err;
          throw new StoreError(`cannot write store ${this.#name}: ${reason2(err)}`, { cause: err });
        }
        const r = await this.#call("fcCommit", args, record);
        this.#remember(args, record);
        this.#commits++;
        if (lk !== "") this.#claimed.delete(c.entry.url);
        this.#setCounts(r, 2);
        if (r[7] !== "none") this.#head?.claimed(this.#claimResult(r, 7));
        if (Number(r[6]) === 0) hooks.beforeBatch?.();
        return { added: Number(r[0]), raised: Number(r[1]) };
      }
      /** Keep an answered commit for REPLAY_MS (see #replay); forget older ones. */
      #remember(args, record) {
        const now = Date.now();
        let drop = 0;
        while (drop < this.#recent.length && now - this.#recent[drop].at > REPLAY_MS) drop++;
        if (drop > 0) this.#recent.splice(0, drop);
        this.#recent.push({ at: now, args, record });
      }
      /**
       * After a reconnect: send again, in order, the commits Redis answered in
       * the REPLAY_MS before the connection was lost. Their records are printed
       * already; a Redis whose machine crashed may have lost them (appendfsync
       * everysec). Each is idempotent by
       * its token: one Redis kept is not applied again, one it lost is applied
       * now (without a claim), so the store's log holds every printed record.
       * Sent on the `ready` event: after the commands ioredis held while the
       * server was away, before any this worker sends later (one connection is
       * in order), so a URL it claims again meanwhile is a duplicate, not printed.
       */
      async #replay(lostAt) {
        const batch = this.#recent.filter((c) => lostAt - c.at <= REPLAY_MS);
        await Promise.all(
          batch.map(async (c) => {
            const a = JSON.parse(c.args);
            delete a.claim;
            a.replay = 1;
            this.#replays.sent++;
            try {
              const r = await this.#call("fcCommit", JSON.stringify(a), c.record);
              this.#setCounts(r, 2);
              if (Number(r[6]) === 2) this.#replays.conflicts++;
            } catch {
            }
          })
        );
      }
      /**
       * Commits sent again after reconnects (see #replay), and of those how many
       * found their URL committed by another worker meanwhile (its record is
       * then printed twice: RELIABILITY.md says when that can happen).
       */
      get replays() {
        return { sent: this.#replays.sent, conflicts: this.#replays.conflicts };
      }
      /** See CrawlStore.requeueParked; one script call (the parked set is read whole). */
      async requeueParked() {
        const r = await this.#call("fcRequeueParked", JSON.stringify({ max: this.#max() }));
        this.#setCounts(r, 1);
        return Number(r[0]);
      }
      async retry(entry, opts = {}) {
        const lk = this.#claimed.get(entry.url) ?? "";
        const w = wire(entry);
        const args = JSON.stringify({ w: this.workerId, lk, delay: Math.max(0, Math.round(opts.hostDelayMs ?? 0)), ...w, attempts: entry.attempts ?? 0, max: this.#max() });
        const r = await this.#call("fcRetry", args);
        this.#commits++;
        if (lk !== "") this.#claimed.delete(entry.url);
        this.#setCounts(r);
      }
      async reprioritise(updates) {
        const wanted = /* @__PURE__ */ new Map();
        for (const u of updates) if (Number.isFinite(u.score)) wanted.set(u.url, u.score);
        if (wanted.size === 0) return 0;
        const ups = [...wanted].map(([url, score]) => ({ uk: urlKey(url), s: String(score) }));
        const r = await this.#call("fcReprioritise", JSON.stringify({ ups }));
        this.#setCounts(r, 1);
        return Number(r[0]);
      }
      /**
       * Lease up to `n` URLs for this worker (see the CLAIM script): best first,
       * only on hosts that are free across all workers, within maxPages.
       */
      async claim(n) {
        const c = this.#claimArgs(n);
        const r = await this.#call("fcClaim", this.workerId, c.n, c.leaseMs, c.perHost, c.maxPages, c.scan, c.poll);
        this.#setCounts(r.slice(2));
        return this.#claimResult(r, 0);
      }
      #claimArgs(n) {
        return { n: Math.max(1, n), leaseMs: this.#leaseMs, perHost: this.#perHost, maxPages: this.#maxPages === Infinity ? 0 : this.#maxPages, scan: this.#scan, poll: POLL_MS };
      }
      /** A claim's answer from r[at]: status, waitMs, then (after the counts when at = 0) key, value pairs. */
      #claimResult(r, at) {
        const entries = [];
        for (let i = at === 0 ? 6 : at + 2; i < r.length; i += 2) {
          const key = String(r[i]);
          const entry = parseEntry(key, String(r[i + 1]));
          entries.push({ key, entry });
          this.#claimed.set(entry.url, key);
        }
        return { status: String(r[at]), waitMs: Number(r[at + 1]), entries };
      }
      /** Let a claim head receive URLs claimed along with commits (see ClaimHead). */
      attachHead(head) {
        this.#head = head;
      }
      /** URLs leased by any worker right now (expired leases of dead workers included until reaped). */
      async leases() {
        this.#roundTrips++;
        try {
          return await this.#redis.zcard(this.#keys[5]);
        } catch (err) {
          throw new StoreError(`cannot read store ${this.#name}: ${reason2(err)}`, { cause: err });
        }
      }
      /** Return expired leases (of dead workers) to the frontier now; the number returned. */
      async reap() {
        const r = await this.#call("fcReap");
        this.#setCounts(r, 1);
        return Number(r[0]);
      }
      /** Return this worker's leases to the frontier (a stopping worker). */
      async releaseClaims() {
        if (this.#claimed.size === 0) return;
        const keys = [...this.#claimed.values()];
        this.#claimed.clear();
        this.#setCounts(await this.#call("fcRelease", this.workerId, ...keys));
      }
      async #renew() {
        if (this.#claimed.size === 0 || this.#closed) return;
        try {
          await this.#call("fcRenew", this.workerId, this.#leaseMs, ...this.#claimed.values());
        } catch {
        }
      }
      async *log(opts = {}) {
        let i = opts.gt === void 0 ? 0 : Number(opts.gt);
        if (!Number.isSafeInteger(i) || i < 0) throw new TypeError(`bad log key ${opts.gt}`);
        for (; ; ) {
          this.#roundTrips++;
          let rows;
          try {
            rows = await this.#redis.lrange(this.#keys[3], i, i + 999);
          } catch (err) {
            throw new StoreError(`store ${this.#name} failed: ${reason2(err)}`, { cause: err });
          }
          for (const row of rows) yield JSON.parse(row);
          if (rows.length < 1e3) return;
          i += rows.length;
        }
      }
      async getMeta(key) {
        if (key === COUNTERS_KEY2 || key === EPOCH_KEY) throw new TypeError(`meta key ${key} is reserved`);
        this.#roundTrips++;
        try {
          const v = await this.#redis.hget(this.#keys[9], key);
          return v === null ? void 0 : JSON.parse(v);
        } catch (err) {
          throw new StoreError(`cannot read store ${this.#name}: ${reason2(err)}`, { cause: err });
        }
      }
      async putMeta(key, value) {
        if (key === COUNTERS_KEY2 || key === EPOCH_KEY) throw new TypeError(`meta key ${key} is reserved`);
        this.#roundTrips++;
        try {
          await this.#redis.hset(this.#keys[9], key, JSON.stringify(value));
        } catch (err) {
          throw new StoreError(`cannot write store ${this.#name}: ${reason2(err)}`, { cause: err });
        }
      }
      /** A head for the frontier source that claims from Redis (see ClaimHead). */
      claimHead(want) {
        return new ClaimHead(this, want);
      }
      /** Return this worker's leases, then disconnect. */
      async close() {
        if (this.#closed) return;
        clearInterval(this.#renewTimer);
        try {
          await this.releaseClaims();
        } finally {
          this.#closed = true;
          await this.#redis.quit().catch(() => this.#redis.disconnect());
        }
      }
    };
    ClaimHead = class {
      #store;
      #want;
      #buf = [];
      #status = "ok";
      #retryAt = 0;
      #commitsAtClaim = -1;
      constructor(store, want) {
        this.#store = store;
        this.#want = want;
        store.attachHead({ prefetch: () => Math.max(0, this.#want() + 1 - this.#buf.length), claimed: (r) => this.#took(r) });
      }
      #took(r) {
        this.#buf.push(...r.entries);
        this.#status = r.status;
        this.#retryAt = Date.now() + r.waitMs;
        this.#commitsAtClaim = this.#store.localCommits;
      }
      get size() {
        return this.#buf.length;
      }
      /** The crawl is over: nothing queued and nothing leased by any worker, or --max-pages reached. */
      get complete() {
        return this.#status === "done";
      }
      async refill() {
        if (this.#buf.length > 0) return;
        if (this.#status === "wait" && Date.now() < this.#retryAt && this.#store.localCommits === this.#commitsAtClaim) return;
        this.#commitsAtClaim = this.#store.localCommits;
        this.#took(await this.#store.claim(this.#want()));
      }
      take(verdict) {
        let fallback = -1;
        for (let i = 0; i < this.#buf.length; i++) {
          const v = verdict(this.#buf[i]);
          if (v === "take") return this.#buf.splice(i, 1)[0];
          if (v === "fallback" && fallback < 0) fallback = i;
        }
        return fallback >= 0 ? this.#buf.splice(fallback, 1)[0] : null;
      }
      async grow() {
        return false;
      }
      async scanBeyond() {
        return null;
      }
      /** How long the source may sleep before claiming again (Infinity: until woken). */
      waitMs() {
        if (this.#buf.length > 0 || this.#status !== "wait") return Infinity;
        return Math.max(1, this.#retryAt - Date.now());
      }
    };
  }
});

// src/seeds/sitemap.ts
var sitemap_exports = {};
__export(sitemap_exports, {
  DEFAULT_SITEMAP_MAX_URLS: () => DEFAULT_SITEMAP_MAX_URLS,
  MAX_LOC_CHARS: () => MAX_LOC_CHARS,
  MAX_NESTING: () => MAX_NESTING2,
  MAX_SITEMAPS: () => MAX_SITEMAPS,
  SITEMAP_MAX_BYTES: () => SITEMAP_MAX_BYTES,
  SITEMAP_MAX_URLS: () => SITEMAP_MAX_URLS,
  SitemapParser: () => SitemapParser,
  loadSitemaps: () => loadSitemaps,
  parseSitemapText: () => parseSitemapText,
  readSitemapBytes: () => readSitemapBytes,
  seedFromSitemaps: () => seedFromSitemaps,
  sitemapLogLines: () => sitemapLogLines,
  sitemapsFromRobots: () => sitemapsFromRobots,
  urlWords: () => urlWords
});
import { createReadStream as createReadStream2 } from "node:fs";
import { Readable } from "node:stream";
import { setTimeout as sleep2 } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import zlib2 from "node:zlib";
import { Parser as Parser2 } from "htmlparser2";
function localName(name) {
  const i = name.indexOf(":");
  return (i < 0 ? name : name.slice(i + 1)).toLowerCase();
}
function parseSitemapText(text, opts = {}) {
  const p = new SitemapParser(opts);
  p.write(text);
  return p.end();
}
async function readSitemapBytes(chunks, opts = {}) {
  const maxBytes = opts.maxBytes ?? SITEMAP_MAX_BYTES;
  const name = opts.name ?? "sitemap";
  const parser = new SitemapParser(opts);
  const decoder = new TextDecoder("utf-8");
  let total = 0;
  const feed = (b) => {
    total += b.length;
    if (total > maxBytes) throw new CapExceededError(`${name}: decompressed sitemap`, maxBytes);
    parser.write(decoder.decode(b, { stream: true }));
  };
  const source = Symbol.asyncIterator in chunks ? chunks : Readable.from(chunks);
  const it = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  let done = false;
  while (head.length < 2) {
    const r = await it.next();
    if (r.done === true) {
      done = true;
      break;
    }
    head = Buffer.concat([head, r.value]);
  }
  const gzip2 = head.length >= 2 && head[0] === 31 && head[1] === 139;
  async function* rest() {
    if (head.length > 0) yield head;
    while (!done) {
      const r = await it.next();
      if (r.done === true) return;
      yield r.value;
    }
  }
  if (!gzip2) {
    for await (const b of rest()) feed(b);
  } else {
    const gunzip = zlib2.createGunzip();
    const input = Readable.from(rest());
    input.on("error", (err) => gunzip.destroy(err));
    input.pipe(gunzip);
    try {
      for await (const b of gunzip) feed(b);
    } catch (err) {
      if (err instanceof FocuscrawlError) throw err;
      throw new SitemapError(`${name}: corrupt gzip stream (${err.message})`, { cause: err });
    } finally {
      input.unpipe(gunzip);
      input.destroy();
      gunzip.destroy();
    }
  }
  parser.write(decoder.decode());
  return parser.end();
}
function isUrl(s) {
  return /^https?:\/\//i.test(s);
}
function hostOfUrl(url) {
  return new URL(url).host.toLowerCase();
}
async function loadSitemaps(sources, opts) {
  const report = { sitemaps: 0, urls: 0, crossHost: 0, invalid: 0, overCap: 0, failed: [] };
  const maxUrls = opts.maxUrls ?? DEFAULT_SITEMAP_MAX_URLS;
  const maxSitemaps = opts.maxSitemaps ?? MAX_SITEMAPS;
  const maxNesting = opts.maxNesting ?? MAX_NESTING2;
  const maxBytes = opts.maxBytes ?? SITEMAP_MAX_BYTES;
  const queue = sources.map((source) => ({
    source,
    level: 1,
    granted: new Set(opts.granted?.get(source) ?? [])
  }));
  const visited = /* @__PURE__ */ new Set();
  const lastRequest = /* @__PURE__ */ new Map();
  const fetchUrl = async (url) => {
    let current = url;
    for (let hop = 0; ; hop++) {
      opts.signal?.throwIfAborted();
      const refused = await opts.check?.(current) ?? null;
      if (refused !== null) throw new SitemapError(`${refused.code}: ${refused.message}`);
      const host = hostOfUrl(current);
      const last = lastRequest.get(host);
      const delay = opts.delayMs ?? 0;
      if (last !== void 0 && delay > 0 && (!last.replay || opts.delayExplicit === true)) {
        const wait = last.at + delay - Date.now();
        if (wait > 0) await sleep2(wait, void 0, { signal: opts.signal });
      }
      const res = await opts.fetch(current, maxBytes, opts.signal);
      lastRequest.set(host, { at: Date.now(), replay: res.replay === true });
      if (res.status >= 300 && res.status < 400 && res.location !== null) {
        if (hop >= MAX_REDIRECTS) throw new SitemapError(`more than ${MAX_REDIRECTS} redirects from ${url}`);
        const next = new URL(res.location, current);
        if (next.protocol !== "http:" && next.protocol !== "https:") throw new SitemapError(`${current} redirects to a non-http(s) URL`);
        next.hash = "";
        current = next.href;
        continue;
      }
      if (res.status < 200 || res.status >= 300) throw new SitemapError(`HTTP ${res.status} for ${current}`);
      if (res.truncated) throw new CapExceededError(`${current}: sitemap body`, maxBytes);
      return res.body ?? Buffer.alloc(0);
    }
  };
  const aborted = () => opts.signal?.aborted === true;
  while (queue.length > 0 && !aborted()) {
    const { source, level, granted } = queue.shift();
    if (visited.has(source)) continue;
    visited.add(source);
    if (report.sitemaps >= maxSitemaps) {
      report.overCap++;
      continue;
    }
    report.sitemaps++;
    const remote = isUrl(source);
    const name = remote ? source : pathToFileURL(source).href;
    let parsed;
    try {
      const parserOpts = { maxBytes, name: source, base: remote ? source : void 0, maxUrls: Math.min(SITEMAP_MAX_URLS, Math.max(0, maxUrls - report.urls)) };
      if (remote) parsed = await readSitemapBytes([await fetchUrl(source)], parserOpts);
      else parsed = await readSitemapBytes(openFile(source), parserOpts);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      if (aborted()) break;
      report.failed.push({ sitemap: source, ...toItemError(err) });
      continue;
    }
    report.invalid += parsed.invalid;
    report.overCap += parsed.overCap;
    const hosts = remote ? /* @__PURE__ */ new Set([hostOfUrl(source), ...granted]) : null;
    const onHost = (url) => hosts === null || hosts.has(hostOfUrl(url));
    for (const child of parsed.sitemaps) {
      if (!onHost(child)) report.crossHost++;
      else if (level >= maxNesting) report.overCap++;
      else queue.push({ source: child, level: level + 1, granted: /* @__PURE__ */ new Set([...granted, ...opts.granted?.get(child) ?? []]) });
    }
    const urls = [];
    for (const e of parsed.urls) {
      if (!onHost(e.url)) report.crossHost++;
      else urls.push({ ...e, sitemap: name });
    }
    if (urls.length > 0) {
      report.urls += urls.length;
      await opts.onUrls(urls);
    }
  }
  return report;
}
async function* openFile(file) {
  const stream = createReadStream2(file);
  try {
    for await (const chunk of stream) yield chunk;
  } catch (err) {
    const code = err.code;
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") {
      throw new UsageError(`--sitemap ${file}: ${err.message}`, { cause: err });
    }
    throw err;
  } finally {
    stream.destroy();
  }
}
async function sitemapsFromRobots(origins, getText, onError) {
  const { default: robotsParserModule2 } = await import("robots-parser");
  const robotsParser2 = robotsParserModule2;
  const found = /* @__PURE__ */ new Map();
  for (const origin of new Set(origins)) {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const res = await getText(robotsUrl);
      if (res.status < 200 || res.status >= 300) continue;
      for (const s of robotsParser2(robotsUrl, res.body).getSitemaps()) {
        let url;
        try {
          url = new URL(s, robotsUrl).href;
        } catch {
          continue;
        }
        if (!isUrl(url)) continue;
        let hosts = found.get(url);
        if (hosts === void 0) found.set(url, hosts = /* @__PURE__ */ new Set());
        hosts.add(hostOfUrl(robotsUrl));
      }
    } catch (err) {
      onError?.(origin, toItemError(err));
    }
  }
  return found;
}
function urlWords(url) {
  try {
    const u = new URL(url);
    let raw = `${u.pathname} ${u.search}`;
    try {
      raw = decodeURIComponent(raw);
    } catch {
    }
    return raw.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "").join(" ");
  } catch {
    return "";
  }
}
function virtualRoot(sitemap) {
  return {
    title: "",
    charset: "utf-8",
    blocks: { title: "", heading: "", content: "", navigation: "", anchor: "", other: "" },
    links: [],
    base: sitemap,
    noindex: false,
    nofollow: false,
    lang: null
  };
}
async function seedFromSitemaps(opts) {
  let granted = /* @__PURE__ */ new Map();
  const robotsFailures = [];
  if (opts.robotsOrigins.length > 0) {
    granted = await sitemapsFromRobots(
      opts.robotsOrigins,
      (url) => opts.client.getText(url, { maxBytes: ROBOTS_MAX_BYTES, signal: opts.signal }),
      (origin, err) => robotsFailures.push({ sitemap: `${origin}/robots.txt`, ...err })
    );
  }
  const sources = [.../* @__PURE__ */ new Set([...opts.sources, ...granted.keys()])];
  let queued = 0;
  let trapped = 0;
  let outOfScope = 0;
  let skippedExtension = 0;
  const report = await loadSitemaps(sources, {
    granted,
    maxUrls: opts.maxUrls,
    delayMs: opts.delayMs,
    delayExplicit: opts.delayExplicit,
    signal: opts.signal,
    fetch: async (url, maxBytes, signal) => {
      const hop = await opts.client.get(url, { maxBytes, accept: "any", signal });
      return { status: hop.status, location: hop.location, body: hop.body, truncated: hop.truncated, replay: hop.replay };
    },
    check: async (url) => {
      const refused = await opts.client.checkAddress(url);
      if (refused !== null) return toItemError(refused);
      return robotsAllows(opts.robots, url);
    },
    onUrls: async (urls) => {
      const depth = 1;
      if (depth > opts.maxDepth) {
        trapped += urls.length;
        return;
      }
      const root = virtualRoot(urls[0].sitemap);
      const entries = [];
      for (const e of urls) {
        const url = canonicalize(e.url, void 0, opts.canon);
        if (url === null || trapReason(url, opts.traps) !== null) {
          trapped++;
          continue;
        }
        if (opts.inScope != null && !opts.inScope(url)) {
          outOfScope++;
          continue;
        }
        if (opts.skipExtension != null && opts.skipExtension(url)) {
          skippedExtension++;
          continue;
        }
        const link2 = { url, anchor: urlWords(url), context: "", tag: "sitemap", nofollow: false, block: "content" };
        let score = 0;
        try {
          score = opts.scorer.linkScore(link2, root, SITEMAP_RELEVANCE);
        } catch {
          score = 0;
        }
        entries.push({ url, score: Number.isFinite(score) ? Math.max(0, score) : 0, depth, parent: e.sitemap, anchor: "", offTopicHops: 0 });
      }
      for (let i = 0; i < entries.length; i += 1e4) queued += await opts.store.addSeeds(entries.slice(i, i + 1e4));
    }
  });
  return { ...report, failed: [...robotsFailures, ...report.failed], queued, trapped, outOfScope, skippedExtension, fromRobots: granted.size };
}
function sitemapLogLines(r) {
  const parts = [`${r.sitemaps} sitemap${r.sitemaps === 1 ? "" : "s"} read`, `${r.urls} URLs listed`, `${r.queued} queued`];
  if (r.fromRobots > 0) parts.push(`${r.fromRobots} found in robots.txt`);
  if (r.crossHost > 0) parts.push(`${r.crossHost} cross-host dropped`);
  if (r.trapped > 0) parts.push(`${r.trapped} dropped by trap rules or --max-depth`);
  if (r.outOfScope > 0) parts.push(`${r.outOfScope} out of scope`);
  if (r.skippedExtension > 0) parts.push(`${r.skippedExtension} not pages by their extension`);
  if (r.invalid > 0) parts.push(`${r.invalid} invalid`);
  if (r.overCap > 0) parts.push(`${r.overCap} over a cap`);
  const lines2 = [`focuscrawl: sitemaps: ${parts.join(", ")}`];
  for (const f of r.failed.slice(0, 5)) lines2.push(`focuscrawl: sitemap ${f.sitemap}: ${f.code}: ${f.message}`);
  if (r.failed.length > 5) lines2.push(`focuscrawl: ... and ${r.failed.length - 5} more sitemaps failed`);
  return lines2;
}
var SITEMAP_MAX_URLS, SITEMAP_MAX_BYTES, MAX_LOC_CHARS, MAX_LINE_CHARS, MAX_NESTING2, MAX_SITEMAPS, DEFAULT_SITEMAP_MAX_URLS, MAX_REDIRECTS, SitemapParser, ROBOTS_MAX_BYTES, SITEMAP_RELEVANCE;
var init_sitemap = __esm({
  "src/seeds/sitemap.ts"() {
    "use strict";
    init_errors();
    init_robots();
    init_traps();
    init_canonical();
    SITEMAP_MAX_URLS = 5e4;
    SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
    MAX_LOC_CHARS = 4096;
    MAX_LINE_CHARS = 8192;
    MAX_NESTING2 = 3;
    MAX_SITEMAPS = 1e3;
    DEFAULT_SITEMAP_MAX_URLS = 1e6;
    MAX_REDIRECTS = 5;
    SitemapParser = class {
      base;
      maxUrls;
      mode = "unknown";
      xml = null;
      root = null;
      /** element depth and the local names of the first three levels */
      depth = 0;
      names = [];
      /** current field being read (inside urlset>url or sitemapindex>sitemap) */
      field = null;
      buf = "";
      overlong = false;
      entry = null;
      line = "";
      lineOverlong = false;
      result = { kind: "text", urls: [], sitemaps: [], invalid: 0, overCap: 0 };
      constructor(opts = {}) {
        this.base = opts.base;
        this.maxUrls = opts.maxUrls ?? SITEMAP_MAX_URLS;
      }
      write(chunk) {
        if (this.mode === "unknown") {
          const m = /[^\s\uFEFF]/.exec(chunk);
          if (m === null) return;
          chunk = chunk.slice(m.index);
          this.mode = chunk[0] === "<" ? "xml" : "text";
          if (this.mode === "xml") this.xml = this.newXmlParser();
        }
        if (this.xml !== null) this.xml.write(chunk);
        else this.writeText(chunk);
      }
      /** Finish; throws SitemapError (FC_SITEMAP) when the document is not a sitemap. */
      end() {
        if (this.xml !== null) {
          this.xml.end();
          if (this.root !== "urlset" && this.root !== "sitemapindex") {
            throw new SitemapError(`not a sitemap: the root element is ${this.root === null ? "missing" : `<${this.root}>`}, not <urlset> or <sitemapindex>`);
          }
          this.result.kind = this.root;
        } else if (this.mode === "text") {
          this.endLine();
        }
        return this.result;
      }
      newXmlParser() {
        return new Parser2(
          {
            onopentag: (name) => this.open(localName(name)),
            ontext: (text) => {
              if (this.field === null || this.depth !== 3) return;
              if (this.buf.length + text.length > MAX_LOC_CHARS) this.overlong = true;
              else this.buf += text;
            },
            onclosetag: (name, implied) => this.close(localName(name), implied)
          },
          { xmlMode: true }
        );
      }
      open(name) {
        this.depth++;
        if (this.depth <= 3) this.names[this.depth - 1] = name;
        if (this.depth === 1 && this.root === null) this.root = name;
        const [root, item] = this.names;
        const inItem = root === "urlset" && item === "url" || root === "sitemapindex" && item === "sitemap";
        if (this.depth === 2 && inItem) this.entry = {};
        if (this.depth === 3 && inItem && this.entry !== null && (name === "loc" || name === "lastmod" || name === "priority")) {
          this.field = name;
          this.buf = "";
          this.overlong = false;
        }
      }
      close(_name, implied) {
        if (this.depth === 3 && this.field !== null && this.entry !== null) {
          const value = this.buf.trim();
          if (implied || this.overlong) {
            if (this.field === "loc") this.entry.bad = true;
          } else if (this.field === "loc") this.entry.loc = value;
          else if (this.field === "lastmod") this.entry.lastmod = value.slice(0, 64);
          else {
            const p = Number(value);
            if (value !== "" && Number.isFinite(p) && p >= 0 && p <= 1) this.entry.priority = p;
          }
          this.field = null;
          this.buf = "";
        }
        if (this.depth === 2 && this.entry !== null) {
          if (!implied) this.finishEntry(this.entry);
          else if (this.entry.loc !== void 0 || this.entry.bad === true) this.result.invalid++;
          this.entry = null;
        }
        if (this.depth > 0) this.depth--;
      }
      finishEntry(e) {
        const url = e.bad === true || e.loc === void 0 ? null : this.resolve(e.loc);
        if (url === null) {
          this.result.invalid++;
          return;
        }
        if (this.names[0] === "sitemapindex") this.push(this.result.sitemaps, url);
        else {
          const entry = { url };
          if (e.lastmod !== void 0 && e.lastmod !== "") entry.lastmod = e.lastmod;
          if (e.priority !== void 0) entry.priority = e.priority;
          this.push(this.result.urls, entry);
        }
      }
      push(list, v) {
        if (this.result.urls.length + this.result.sitemaps.length >= this.maxUrls) this.result.overCap++;
        else list.push(v);
      }
      /** An absolute http(s) URL, or null. */
      resolve(loc) {
        if (loc === "" || loc.length > MAX_LOC_CHARS) return null;
        try {
          const u = new URL(loc, this.base);
          return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
        } catch {
          return null;
        }
      }
      writeText(chunk) {
        let start2 = 0;
        for (; ; ) {
          const nl = chunk.indexOf("\n", start2);
          const piece = chunk.slice(start2, nl < 0 ? chunk.length : nl);
          if (this.line.length + piece.length > MAX_LINE_CHARS) this.lineOverlong = true;
          else this.line += piece;
          if (nl < 0) return;
          this.endLine();
          start2 = nl + 1;
        }
      }
      endLine() {
        const s = this.line.trim();
        const overlong = this.lineOverlong;
        this.line = "";
        this.lineOverlong = false;
        if (overlong) {
          this.result.invalid++;
          return;
        }
        if (s === "" || s.startsWith("#")) return;
        const url = /\s/.test(s) ? null : this.resolve(s);
        if (url === null) this.result.invalid++;
        else this.push(this.result.urls, { url });
      }
    };
    ROBOTS_MAX_BYTES = 512 * 1024;
    SITEMAP_RELEVANCE = 1;
  }
});

// src/output/warc.ts
var warc_exports = {};
__export(warc_exports, {
  CRAWLER_HEADER_PREFIX: () => CRAWLER_HEADER_PREFIX,
  DEFAULT_WARC_MAX_SIZE: () => DEFAULT_WARC_MAX_SIZE,
  WarcWriter: () => WarcWriter,
  archivedResponseHeaders: () => archivedResponseHeaders
});
import { createHash, randomUUID } from "node:crypto";
import { link, mkdir as mkdir2, open as open2, rename as rename3, stat as stat3, unlink } from "node:fs/promises";
import { STATUS_CODES } from "node:http";
import path5 from "node:path";
import { promisify } from "node:util";
import { gzip as gzipCb, gzipSync } from "node:zlib";
import { WARCRecord, WARCSerializer, WARC_1_1 } from "warcio";
function gzip(record) {
  return record.length <= SYNC_GZIP_MAX ? gzipSync(record) : gzipAsync(record);
}
function timestamp17(d) {
  return d.toISOString().replace(/[-:T.Z]/g, "").slice(0, 17);
}
function recordId() {
  return `<urn:uuid:${randomUUID()}>`;
}
function sha256(...parts) {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return `sha256:${h.digest("hex")}`;
}
function titleCase(name) {
  return name.replace(/(^|-)([a-z])/g, (_m, dash, c) => dash + c.toUpperCase());
}
function wireValue(value) {
  if (!/[^\x00-\x7f]/.test(value)) return value;
  const raw = Buffer.from(value, "latin1");
  const utf8 = raw.toString("utf8");
  return Buffer.from(utf8, "utf8").equals(raw) ? utf8 : value;
}
function archivedResponseHeaders(headers, storedLength) {
  const out = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const shown = titleCase(lower);
    out.push([WIRE_HEADERS.has(lower) ? CRAWLER_HEADER_PREFIX + shown : shown, wireValue(value)]);
  }
  out.push(["Content-Length", String(storedLength)]);
  return out;
}
function warcFields(fields) {
  let text = "";
  for (const [name, value] of Object.entries(fields)) {
    if (value === void 0 || value === null) continue;
    text += `${name}: ${String(value).replace(/[\r\n]+/g, " ")}\r
`;
  }
  return Buffer.from(text, "utf8");
}
async function serialize(record, block, payload) {
  const head = record.httpHeaders === null ? new Uint8Array(0) : Buffer.from(record.httpHeaders.toString() + "\r\n", "utf8");
  if (record.warcType !== "warcinfo") {
    record.warcHeaders.headers.set("WARC-Block-Digest", sha256(head, block));
    record.warcHeaders.headers.set("WARC-Payload-Digest", sha256(payload ?? block));
  }
  return WARCSerializer.serialize(record, { gzip: false });
}
async function exchangeRecords(ex, warcinfoId) {
  const responseId = recordId();
  const u = new URL(ex.url);
  const body = ex.body ?? EMPTY2;
  const request = WARCRecord.create(
    {
      url: ex.url,
      date: ex.date,
      type: "request",
      warcVersion: WARC_1_1,
      statusline: `GET ${u.pathname}${u.search} HTTP/1.1`,
      httpHeaders: Object.fromEntries(Object.entries(ex.requestHeaders).map(([k, v]) => [titleCase(k.toLowerCase()), v])),
      warcHeaders: { "WARC-Record-ID": recordId(), "WARC-Warcinfo-ID": warcinfoId, "WARC-Concurrent-To": responseId }
    },
    []
  );
  const warcHeaders = { "WARC-Record-ID": responseId, "WARC-Warcinfo-ID": warcinfoId };
  if (ex.truncated) warcHeaders["WARC-Truncated"] = ex.truncated;
  const reason3 = (ex.statusText ?? STATUS_CODES[ex.status] ?? "").replace(/[^\t\x20-\x7e]/g, "");
  const response = WARCRecord.create(
    {
      url: ex.url,
      date: ex.date,
      type: "response",
      warcVersion: WARC_1_1,
      statusline: `HTTP/1.1 ${ex.status}${reason3 === "" ? "" : " " + reason3}`,
      // an array keeps every header (warcio takes [name, value] pairs)
      httpHeaders: archivedResponseHeaders(ex.headers, body.length),
      warcHeaders
    },
    body.length === 0 ? [] : [new Uint8Array(body.buffer, body.byteOffset, body.length)]
  );
  return { records: [await serialize(request, EMPTY2, EMPTY2), await serialize(response, body, body)], responseId };
}
async function exists(p) {
  try {
    await stat3(p);
    return true;
  } catch {
    return false;
  }
}
async function publish(tmp, target) {
  try {
    await link(tmp, target);
  } catch (err) {
    const code = err.code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw err;
    if (await exists(target)) throw Object.assign(new Error(`${target} exists`), { code: "EEXIST" });
    await rename3(tmp, target);
  }
}
async function writeAll(fh, buf, name) {
  let off = 0;
  try {
    while (off < buf.length) {
      const { bytesWritten } = await fh.write(buf, off, buf.length - off);
      if (bytesWritten <= 0) throw new Error("write wrote nothing");
      off += bytesWritten;
    }
  } catch (err) {
    throw new WarcError(`cannot write ${name}.open: ${err.message}`, { cause: err });
  }
}
var gzipAsync, SYNC_GZIP_MAX, DEFAULT_WARC_MAX_SIZE, CRAWLER_HEADER_PREFIX, WIRE_HEADERS, EMPTY2, WarcWriter;
var init_warc = __esm({
  "src/output/warc.ts"() {
    "use strict";
    init_errors();
    gzipAsync = promisify(gzipCb);
    SYNC_GZIP_MAX = 256 * 1024;
    DEFAULT_WARC_MAX_SIZE = 1e9;
    CRAWLER_HEADER_PREFIX = "X-Crawler-";
    WIRE_HEADERS = /* @__PURE__ */ new Set(["content-encoding", "transfer-encoding", "content-length"]);
    EMPTY2 = Buffer.alloc(0);
    WarcWriter = class _WarcWriter {
      dir;
      maxSize;
      prefix;
      info;
      now;
      file = null;
      serial = 0;
      queue = Promise.resolve();
      failed = null;
      closed = false;
      /** finished files (renamed), in order */
      files = [];
      /** compressed bytes written to all files */
      bytes = 0;
      /** pages written */
      pages = 0;
      constructor(opts) {
        this.dir = path5.resolve(opts.dir);
        this.maxSize = opts.maxSize ?? DEFAULT_WARC_MAX_SIZE;
        if (!(Number.isFinite(this.maxSize) && this.maxSize >= 1)) throw new TypeError(`maxSize must be a positive number, got ${this.maxSize}`);
        this.prefix = opts.prefix ?? "focuscrawl";
        this.info = opts.info ?? {};
        this.now = opts.now ?? (() => /* @__PURE__ */ new Date());
      }
      /** A writer for `opts.dir`, which is created now (WarcError when it cannot be). */
      static async create(opts) {
        const w = new _WarcWriter(opts);
        try {
          await mkdir2(w.dir, { recursive: true });
          if (!(await stat3(w.dir)).isDirectory()) throw new Error("not a directory");
        } catch (err) {
          throw new WarcError(`cannot use --warc-out ${w.dir}: ${err.message}`, { cause: err });
        }
        return w;
      }
      /** The file being written (its final name; on disk it ends in `.open`), or null. */
      get current() {
        return this.file?.path ?? null;
      }
      /**
       * Write one page's records as one write; resolves once they are written
       * (handed to the kernel). Returns the compressed bytes written.
       */
      writePage(page) {
        return this.serialised(() => this.doWritePage(page));
      }
      /**
       * Close the current file: fsync, then rename `.open` away. Idempotent.
       * After a failed write the file is closed but keeps its `.open` name (its
       * last record may be incomplete) and this resolves: the write threw already.
       */
      close() {
        const run = async () => {
          this.closed = true;
          if (this.failed !== null) {
            await this.file?.fh.close().catch(() => {
            });
            this.file = null;
            return;
          }
          try {
            await this.closeFile();
          } catch (err) {
            this.failed = err;
            throw err;
          }
        };
        const p = this.queue.then(run, run);
        this.queue = p.catch(() => {
        });
        return p;
      }
      serialised(fn) {
        const run = async () => {
          if (this.failed !== null) throw this.failed;
          try {
            return await fn();
          } catch (err) {
            this.failed = err instanceof WarcError ? err : new WarcError(`cannot write WARC in ${this.dir}: ${err.message}`, { cause: err });
            throw this.failed;
          }
        };
        const p = this.queue.then(run, run);
        this.queue = p.catch(() => {
        });
        return p;
      }
      async doWritePage(page) {
        if (this.closed) throw new TypeError("WarcWriter is closed");
        if (page.exchanges.length === 0) return 0;
        let file = this.file ?? await this.openFile();
        let batch = await this.pageBytes(page, file.warcinfoId);
        if (file.pages > 0 && file.size + batch.length > this.maxSize) {
          await this.closeFile();
          file = await this.openFile();
          batch = await this.pageBytes(page, file.warcinfoId);
        }
        await writeAll(file.fh, batch, file.path);
        file.size += batch.length;
        file.pages++;
        this.bytes += batch.length;
        this.pages++;
        return batch.length;
      }
      /** The page's records, each its own gzip member, concatenated. */
      async pageBytes(page, warcinfoId) {
        const members = [];
        let lastResponse = "";
        for (const ex of page.exchanges) {
          const { records, responseId } = await exchangeRecords(ex, warcinfoId);
          for (const r of records) members.push(await gzip(r));
          lastResponse = responseId;
        }
        if (page.metadata !== void 0) {
          const last = page.exchanges[page.exchanges.length - 1];
          const block = warcFields(page.metadata);
          const meta = WARCRecord.create(
            {
              url: last.url,
              date: last.date,
              type: "metadata",
              warcVersion: WARC_1_1,
              warcHeaders: {
                "WARC-Record-ID": recordId(),
                "WARC-Warcinfo-ID": warcinfoId,
                "WARC-Concurrent-To": lastResponse,
                "WARC-Refers-To": lastResponse,
                "Content-Type": "application/warc-fields"
              }
            },
            [new Uint8Array(block.buffer, block.byteOffset, block.length)]
          );
          members.push(await gzip(await serialize(meta, block, null)));
        }
        return Buffer.concat(members);
      }
      /**
       * Create the next file. Its warcinfo record is built first and written
       * to `<name>.open.tmp`, which is then hard-linked to `<name>.open` (that
       * fails rather than clobber another crawl's file) and unlinked: a
       * `*.warc.gz.open` file never exists without its whole warcinfo record,
       * so a kill at any moment leaves a valid file or none. A kill between
       * creating the temporary file and linking it can leave that `.tmp`
       * file, which no WARC reader takes for a WARC file.
       */
      async openFile() {
        const stamp2 = timestamp17(this.now());
        for (let tries = 0; ; tries++) {
          const name = `${this.prefix}-${stamp2}-${String(this.serial++).padStart(5, "0")}.warc.gz`;
          const final = path5.join(this.dir, name);
          const warcinfoId = recordId();
          const bytes = await this.warcinfoBytes(name, warcinfoId);
          if (await exists(final)) continue;
          const tmp = `${final}.open.tmp`;
          let fh;
          try {
            fh = await open2(tmp, "wx");
          } catch (err) {
            if (err.code === "EEXIST" && tries < 1e3) continue;
            throw new WarcError(`cannot create ${tmp}: ${err.message}`, { cause: err });
          }
          try {
            await writeAll(fh, bytes, tmp);
            await publish(tmp, final + ".open");
          } catch (err) {
            await fh.close().catch(() => {
            });
            await unlink(tmp).catch(() => {
            });
            if (err.code === "EEXIST" && tries < 1e3) continue;
            throw err instanceof WarcError ? err : new WarcError(`cannot create ${final}.open: ${err.message}`, { cause: err });
          }
          await unlink(tmp).catch(() => {
          });
          const file = { path: final, fh, size: bytes.length, warcinfoId, pages: 0 };
          this.file = file;
          this.bytes += bytes.length;
          return file;
        }
      }
      /** The gzipped warcinfo record of file `name`. */
      async warcinfoBytes(name, warcinfoId) {
        const block = warcFields({
          software: this.info.software ?? "focuscrawl",
          format: "WARC File Format 1.1",
          conformsTo: "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/",
          ...this.info
        });
        const record = WARCRecord.create(
          {
            date: this.now().toISOString(),
            type: "warcinfo",
            warcVersion: WARC_1_1,
            filename: name,
            warcHeaders: { "WARC-Record-ID": warcinfoId, "Content-Type": "application/warc-fields" }
          },
          [new Uint8Array(block.buffer, block.byteOffset, block.length)]
        );
        return gzip(await serialize(record, block, null));
      }
      async closeFile() {
        const file = this.file;
        if (file === null) return;
        this.file = null;
        try {
          await file.fh.sync();
          await file.fh.close();
          await rename3(file.path + ".open", file.path);
        } catch (err) {
          await file.fh.close().catch(() => {
          });
          throw new WarcError(`cannot finish ${file.path}: ${err.message}`, { cause: err });
        }
        this.files.push(file.path);
      }
    };
  }
});

// src/stages/pages-out.ts
var pages_out_exports = {};
__export(pages_out_exports, {
  PageStore: () => PageStore,
  pageFileName: () => pageFileName,
  pageFilePath: () => pageFilePath,
  pagesOutStage: () => pagesOutStage
});
import { createHash as createHash2 } from "node:crypto";
import { mkdir as mkdir3, rename as rename4, rm as rm3, stat as stat4, writeFile as writeFile4 } from "node:fs/promises";
import path6 from "node:path";
function pageFileName(url) {
  return createHash2("md5").update(url, "utf8").digest("hex");
}
function pageFilePath(dir, url) {
  const name = pageFileName(url);
  return path6.join(dir, name.slice(0, 2), name);
}
async function* pagesOutStage(source, opts) {
  const dropBody = opts.dropBody !== false;
  for await (const item of source) {
    const f = item.fetch;
    if (f !== void 0 && f.body !== null) {
      await opts.store.save(item.entry.url, f.body);
      if (dropBody) f.body = null;
    }
    yield item;
  }
}
var PageStore;
var init_pages_out = __esm({
  "src/stages/pages-out.ts"() {
    "use strict";
    init_errors();
    PageStore = class _PageStore {
      dir;
      made = /* @__PURE__ */ new Set();
      seq = 0;
      /** files written and bytes in them */
      pages = 0;
      bytes = 0;
      constructor(dir) {
        this.dir = dir;
      }
      /** A store in `dir`, which is created now (PagesOutError when it cannot be). */
      static async create(dir) {
        const abs = path6.resolve(dir);
        try {
          await mkdir3(abs, { recursive: true });
          if (!(await stat4(abs)).isDirectory()) throw new Error("not a directory");
        } catch (err) {
          throw new PagesOutError(`cannot use --pages-out ${abs}: ${err.message}`, { cause: err });
        }
        return new _PageStore(abs);
      }
      /** Save `body` as the page of `url` (temp file, then rename); returns its path. */
      async save(url, body) {
        const file = pageFilePath(this.dir, url);
        const sub = path6.dirname(file);
        const tmp = path6.join(sub, `.${path6.basename(file)}.${process.pid}.${this.seq++}.tmp`);
        try {
          if (!this.made.has(sub)) {
            await mkdir3(sub, { recursive: true });
            this.made.add(sub);
          }
          await writeFile4(tmp, body);
          await rename4(tmp, file);
        } catch (err) {
          await rm3(tmp, { force: true }).catch(() => {
          });
          throw new PagesOutError(`cannot write ${file}: ${err.message}`, { cause: err });
        }
        this.pages++;
        this.bytes += body.length;
        return file;
      }
    };
  }
});

// src/stages/warc-out.ts
var warc_out_exports = {};
__export(warc_out_exports, {
  exchangesOf: () => exchangesOf,
  warcOutStage: () => warcOutStage,
  warcPageOf: () => warcPageOf
});
function requestHeaders(url, userAgent) {
  return { Host: new URL(url).host, "User-Agent": userAgent, Accept: ACCEPT, "Accept-Encoding": ACCEPT_ENCODING };
}
function hadBody(status, headers) {
  if (status < 200 || status === 204 || status === 304) return false;
  return (headers["content-length"] ?? "").trim() !== "0";
}
function hopExchanges(hops, ua) {
  return hops.map((h) => ({
    url: h.url,
    date: h.fetchedAt,
    requestHeaders: requestHeaders(h.url, ua),
    status: h.status,
    headers: h.headers,
    body: null,
    truncated: hadBody(h.status, h.headers) ? "length" : null
  }));
}
function exchangesOf(f, opts) {
  const ua = opts.userAgent ?? DEFAULT_USER_AGENT;
  const hops = f.hops ?? [];
  const out = hopExchanges(hops.slice(0, -1), ua);
  let truncated = null;
  if (f.body === null) truncated = hadBody(f.status, f.headers) ? "length" : null;
  else if (f.truncated) truncated = f.bytes >= opts.maxBytes ? "length" : "unspecified";
  out.push({
    url: f.finalUrl,
    date: hops.length > 0 ? hops[hops.length - 1].fetchedAt : f.fetchedAt,
    requestHeaders: requestHeaders(f.finalUrl, ua),
    status: f.status,
    headers: f.headers,
    body: f.body,
    truncated
  });
  return out;
}
function warcPageOf(item, opts) {
  const f = item.fetch;
  const exchanges = f !== void 0 ? exchangesOf(f, opts) : hopExchanges(item.refusedHops ?? [], opts.userAgent ?? DEFAULT_USER_AGENT);
  if (exchanges.length === 0) return null;
  return {
    exchanges,
    metadata: {
      url: item.entry.url,
      score: item.entry.score,
      relevance: item.relevance ?? 0,
      relevant: item.relevant ?? false,
      depth: item.entry.depth,
      parent: item.entry.parent,
      strategy: opts.strategy,
      title: item.page?.title || null,
      error: item.error?.code ?? null
    }
  };
}
async function* warcOutStage(source, opts) {
  const dropBody = opts.dropBody !== false;
  for await (const item of source) {
    const page = warcPageOf(item, opts);
    if (page !== null) await opts.writer.writePage(page);
    if (dropBody && item.fetch !== void 0) item.fetch.body = null;
    yield item;
  }
}
var ACCEPT, ACCEPT_ENCODING;
var init_warc_out = __esm({
  "src/stages/warc-out.ts"() {
    "use strict";
    init_http();
    ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";
    ACCEPT_ENCODING = "gzip, deflate, br";
  }
});

// src/pipeline.ts
var pipeline_exports = {};
__export(pipeline_exports, {
  runCrawl: () => runCrawl
});
import { setMaxListeners as setMaxListeners2 } from "node:events";
import path7 from "node:path";
import { pipeline as pipeline2 } from "node:stream/promises";
async function removeStore(dir) {
  const kind = await inspectStoreDir(dir);
  if (kind === "missing" || kind === "empty") return;
  if (kind === "foreign") throw notAStore(dir);
  try {
    await (await CrawlStore.open(dir)).close();
  } catch (err) {
    if (err instanceof StoreLockedError || err instanceof UsageError || kind === "leveldb") throw err;
  }
  await writeStoreMarker(dir);
  await removeStoreFiles(dir);
}
async function runCrawl(cfg) {
  const started = Date.now();
  const r = resolveConfig(cfg);
  const Redis2 = await prepareStore(r);
  const crawl2 = await openCrawl(r, Redis2, started);
  try {
    await seedStore(r, crawl2);
    const outputStages = await openOutputs(r, crawl2);
    const dedup = await openDedup(r, crawl2);
    await runStages(r, crawl2, dedup, outputStages);
  } finally {
    await closeCrawl(r, crawl2);
  }
  return finishCrawl(r, crawl2);
}
async function prepareStore(r) {
  const Redis2 = r.shared ? (await Promise.resolve().then(() => (init_redis(), redis_exports))).RedisStore : null;
  const seedless = r.seedEntries.length === 0 && (r.sitemaps?.length ?? 0) === 0;
  if (seedless && (r.fresh || !r.shared && ["missing", "empty"].includes(await inspectStoreDir(r.storeDir)))) throw new UsageError(NO_SEEDS);
  if (r.fresh) await (Redis2 !== null ? Redis2.destroy(r.storeDir) : removeStore(path7.resolve(r.storeDir)));
  return Redis2;
}
async function openCrawl(r, Redis2, started) {
  const head = new FrontierHead({
    load: (gt, limit) => firstN(store.frontier({ gt }), limit)
  });
  const redis = Redis2 === null ? null : await Redis2.open(r.storeDir, { maxFrontier: r.maxFrontier, maxPages: r.maxPages, perHost: r.perHost, leaseMs: r.leaseMs });
  const store = redis ?? await CrawlStore.open(r.storeDir, {
    maxFrontier: r.maxFrontier,
    onFrontierChange: (change) => head.apply(change)
  });
  const timeouts = r.timeouts ?? {};
  const client = new HttpClient({
    proxy: r.proxy,
    proxyConnections: r.concurrency,
    allowPrivate: r.allowPrivate,
    userAgent: r.userAgent,
    auth: r.auth,
    connectTimeoutMs: timeouts.connectMs,
    headersTimeoutMs: timeouts.headersMs,
    bodyTimeoutMs: timeouts.bodyMs,
    fetchTimeoutMs: timeouts.fetchMs,
    lookup: r.lookup
  });
  const committedBefore = store.committed;
  const summary = { pages: 0, relevant: 0, errors: 0, totalPages: 0, frontier: 0, ms: 0, stopped: "done", dropped: {} };
  const budget = new HostBudget({
    max: r.maxPagesPerHostResolved,
    onFull: (host) => {
      if (!r.quiet) r.log(`focuscrawl: ${host} has given its ${budget.max} pages (--max-pages-per-host); its other URLs are skipped (FC_HOST_BUDGET)`);
    }
  });
  const robots = new RobotsCache({
    userAgent: "focuscrawl",
    fetchRobots: (url, signal) => client.getText(url, { maxBytes: ROBOTS_MAX_BYTES2, signal })
  });
  return { started, store, redis, head, client, budget, summary, committedBefore, robots, warc: null, pageStore: null };
}
async function seedStore(r, c) {
  const { store } = c;
  const requeued = await store.requeueParked();
  if (requeued > 0 && !r.quiet) r.log(`focuscrawl: ${requeued === 1 ? "1 URL" : `${requeued} URLs`} that got no answer in an earlier run ${requeued === 1 ? "is" : "are"} queued again`);
  await store.addSeeds(r.seedEntries);
  if ((r.sitemaps?.length ?? 0) > 0 || r.sitemapsFromRobots === true) {
    const { seedFromSitemaps: seedFromSitemaps2, sitemapLogLines: sitemapLogLines2 } = await Promise.resolve().then(() => (init_sitemap(), sitemap_exports));
    const report = await seedFromSitemaps2({
      sources: r.sitemaps ?? [],
      robotsOrigins: r.sitemapsFromRobots === true ? r.seedEntries.map((e) => originOf(e.url)) : [],
      client: c.client,
      robots: c.robots,
      store,
      scorer: r.scorer,
      canon: r.canon,
      traps: r.trapLimits,
      inScope: r.inScope,
      skipExtension: r.skipExtension,
      maxDepth: r.maxDepth,
      maxUrls: r.sitemapMaxUrls,
      delayMs: r.delayMs,
      delayExplicit: r.delayExplicit,
      signal: r.signal
    });
    if (!r.quiet) for (const line of sitemapLogLines2(report)) r.log(line);
  }
  if (store.frontierSize === 0 && store.committed === 0) {
    throw new UsageError(NO_SEEDS);
  }
  await c.budget.restore(store);
}
async function openOutputs(r, c) {
  if (r.warcOut !== void 0) {
    const { WarcWriter: WarcWriter2 } = await Promise.resolve().then(() => (init_warc(), warc_exports));
    const { VERSION: VERSION3 } = await Promise.resolve().then(() => (init_version(), version_exports));
    c.warc = await WarcWriter2.create({
      dir: r.warcOut,
      maxSize: r.warcMaxSize,
      info: { software: `focuscrawl/${VERSION3}`, robots: "obey", "http-header-user-agent": r.userAgent ?? DEFAULT_USER_AGENT, description: `focuscrawl crawl, strategy ${r.scorer.name}` }
    });
  }
  if (r.pagesOut !== void 0) c.pageStore = await (await Promise.resolve().then(() => (init_pages_out(), pages_out_exports))).PageStore.create(r.pagesOut);
  const { warcOutStage: warcOutStage2 } = c.warc === null ? { warcOutStage: null } : await Promise.resolve().then(() => (init_warc_out(), warc_out_exports));
  const { pagesOutStage: pagesOutStage2 } = c.pageStore === null ? { pagesOutStage: null } : await Promise.resolve().then(() => (init_pages_out(), pages_out_exports));
  return { warcOutStage: warcOutStage2, pagesOutStage: pagesOutStage2 };
}
async function openDedup(r, c) {
  if (r.nearDup === 0) return null;
  const dedup = new NearDuplicates({ maxDistance: r.nearDup, minTokens: r.nearDupMinTokens, urlOfCommit: urlOfCommitIn(c.store, logKey), segmenter: r.segmenter });
  if (c.store.committed > 0) await dedup.restore(c.store.log());
  return dedup;
}
async function openStats(r, c, scheduler) {
  const { store } = c;
  const loaded = await loadCrawlStats(r.shared ? { getMeta: async () => void 0, log: (o) => store.log(o), committed: store.committed } : store);
  return new StatsReporter({
    stats: loaded.stats,
    previous: loaded.replayed === 0 ? loaded.saved : null,
    store,
    dir: r.shared ? null : r.storeDir,
    intervalMs: r.statsIntervalMs ?? DEFAULT_STATS_INTERVAL_MS,
    sample: () => ({ frontier: store.frontierSize, activeHosts: scheduler.activeHosts, maxPages: r.maxPages }),
    onStats: r.logStats,
    onProgress: r.progress,
    onWarning: r.quiet ? void 0 : r.log
  });
}
async function runStages(r, c, dedup, outputStages) {
  const { store, robots, summary } = c;
  const scheduler = new HostScheduler({
    perHost: r.perHost,
    delayMs: r.delayMs,
    delayExplicit: r.delayExplicit,
    delayFactor: r.delayFactor,
    hostDiversity: r.hostDiversity,
    crawlDelayMs: (url) => robots.crawlDelayMs(url)
  });
  const inflight = new Inflight();
  const live = await openStats(r, c, scheduler);
  const ctx = new CrawlContext({
    scheduler,
    inflight,
    retry: r.retryPolicy,
    summary,
    budget: c.budget,
    dedup,
    committedCount: () => store.committed,
    observe: (record) => live.observe(record)
  });
  const ac = new AbortController();
  setMaxListeners2(r.concurrency + 16, ac.signal);
  const output = new LineOutput(r.output, () => ac.abort(OUTPUT_CLOSED));
  const onAbort = () => ac.abort();
  r.signal?.addEventListener("abort", onAbort, { once: true });
  if (r.signal?.aborted === true) ac.abort();
  const timeLimit = Number.isFinite(r.maxTime) ? setTimeout(() => ac.abort(TIME_LIMIT), Math.max(0, c.started + r.maxTime - Date.now())) : void 0;
  live.start();
  c.reporter = live;
  const run = { scheduler, inflight, ctx, dedup, live, output, signal: ac.signal, outputStages };
  const watchdog = watchStall(r, c, run, (err) => ac.abort(err));
  process.on("beforeExit", watchdog.onIdle);
  try {
    await runPipeline(...stagesOf(r, c, run), { signal: ac.signal });
    if (watchdog.stalled() !== null) throw watchdog.stalled();
  } catch (err) {
    if (watchdog.stalled() !== null) throw watchdog.stalled();
    if (output.closed) summary.stopped = "output-closed";
    else if (ac.signal.aborted) summary.stopped = ac.signal.reason === TIME_LIMIT ? "time-limit" : "aborted";
    else throw err;
  } finally {
    clearTimeout(timeLimit);
    process.off("beforeExit", watchdog.onIdle);
    output.detach();
    r.signal?.removeEventListener("abort", onAbort);
  }
}
function watchStall(r, c, run, abort) {
  const { store, head, redis } = c;
  const { scheduler, inflight } = run;
  let stalled = null;
  const onIdle = stallWatchdog({
    progress: () => store.committed,
    wake: () => inflight.wake(),
    fail: (err) => {
      stalled = err;
      abort(err);
    },
    describe: () => {
      const next = scheduler.msUntilNextReady();
      const buffered = redis !== null ? "" : `${head.size} buffered${head.complete ? " (all of them)" : ""}, `;
      return `${inflight.size} URLs in flight, ${store.frontierSize} queued, ${buffered}${scheduler.activeHosts} hosts busy, next host ready ${Number.isFinite(next) ? `in ${Math.round(next)} ms` : "when one is released"}`;
    },
    log: r.quiet ? void 0 : r.log,
    // longer than one request may take: an answer on an unreferenced socket still arrives
    giveUpMs: (r.timeouts?.fetchMs ?? 6e4) + 3e4
  });
  return { onIdle, stalled: () => stalled };
}
function stagesOf(r, c, run) {
  const { client, robots, store, redis, head, budget } = c;
  const { ctx, inflight, scheduler, dedup, signal } = run;
  const { warcOutStage: warcOutStage2, pagesOutStage: pagesOutStage2 } = run.outputStages;
  const { warc, pageStore } = c;
  return [
    frontierSource({
      head: redis !== null ? redis.claimHead(() => r.concurrency - inflight.size) : head,
      scheduler,
      inflight,
      pagesDone: () => store.pages,
      maxPages: r.maxPages,
      roundSize: r.roundSize,
      holdBack: r.holdBack,
      issue: ctx.issue,
      signal
    }),
    (src) => hostBudgetStage(src, { budget }),
    (src) => addressGuardStage(src, { check: (url) => client.checkAddress(url), concurrency: r.concurrency }),
    (src) => robotsStage(src, { robots, concurrency: r.concurrency }),
    (src) => fetchStage(src, {
      client,
      concurrency: r.concurrency,
      maxBytes: r.maxBytes,
      canonOptions: r.redirectCanon,
      checkHop: hopChecker(r, c),
      beforeHop: ctx.beforeHop,
      onFetched: ctx.onFetched,
      signal
    }),
    // with --warc-out / --pages-out the body travels on to their stages, which drop it
    (src) => parseStage(src, { contextChars: r.contextChars, maxLinks: r.maxLinks, mainTextChars: r.textChars, keepBody: warc !== null || pageStore !== null }),
    (src) => classifyStage(src, { scorer: r.scorer, threshold: r.threshold, canonOptions: r.canon, maxOutlinks: r.maxLinks }),
    ...dedup === null ? [] : [(src) => dedupStage(src, { dedup })],
    // written before the sink commits the page (see src/stages/warc-out.ts)
    ...warcOutStage2 === null ? [] : [(src) => warcOutStage2(src, { writer: warc, strategy: r.scorer.name, maxBytes: r.maxBytes, userAgent: r.userAgent, dropBody: pageStore === null })],
    ...pagesOutStage2 === null ? [] : [(src) => pagesOutStage2(src, { store: pageStore })],
    (src) => sinkStage(src, {
      store,
      strategy: r.scorer.name,
      outlinks: r.outlinks,
      maxDepth: r.maxDepth,
      canonOptions: r.canon,
      emit: (line) => run.output.write(line),
      tunnel: r.tunnel,
      scorer: r.scorer,
      // with Redis, URLs are leased from the shared store: no local head to spare moves for
      ...redis === null ? { rescoreFloor: () => head.floor } : {},
      linkGuard: {
        traps: r.trapLimits,
        ...r.inScope === null ? {} : { inScope: r.inScope },
        ...r.skipExtension === null ? {} : { skipExtension: r.skipExtension },
        hostFull: (host) => budget.isFull(host),
        onDrop: ctx.onDrop,
        onCapped: ctx.onCapped
      },
      retry: r.retryPolicy,
      hostDelayMs: r.shared ? hostDelay(r, c) : void 0,
      log: r.quiet ? void 0 : r.log,
      onRetry: ctx.onRetry,
      onCommitted: ctx.onCommitted
    })
  ];
}
function hopChecker(r, c) {
  const { client, robots, store } = c;
  return async (url) => {
    if (r.inScope !== null && !r.inScope(url)) return { code: "FC_OUT_OF_SCOPE", message: `redirect leaves the crawl's scope (--allow-domain, --include, --exclude): ${url}` };
    const privateAddress = await client.checkAddress(url);
    if (privateAddress !== null) return toItemError(privateAddress);
    const refused = await robotsAllows(robots, url);
    if (refused !== null) return refused;
    if (await store.status(url) === "done") return { code: "FC_REDIRECT_SEEN", message: `redirect to a URL already fetched: ${url}` };
    return null;
  };
}
function hostDelay(r, c) {
  const replayHosts = /* @__PURE__ */ new Set();
  return (item) => {
    const host = hostOfCanonical(item.entry.url);
    if (item.fetch?.replay === true) replayHosts.add(host);
    const polite = replayHosts.has(host) && !r.delayExplicit ? 0 : politeDelayMs(r.delayMs, c.robots.crawlDelayMs(item.entry.url), r.delayFactor ?? 0, item.fetch?.ms ?? 0);
    return Math.max(polite, hostBackoffMs(item, r.retryPolicy));
  };
}
async function closeCrawl(r, c) {
  const { summary, store, redis } = c;
  summary.totalPages = store.pages;
  if (redis !== null) summary.storeRoundTrips = redis.roundTrips;
  if (redis !== null && redis.replays.sent > 0) summary.storeReplays = redis.replays;
  summary.frontier = store.frontierSize;
  summary.ms = Date.now() - c.started;
  await c.reporter?.stop().catch((err) => {
    if (!r.quiet) r.log(`focuscrawl: cannot save the final stats: ${err?.message ?? err}`);
  });
  await c.budget.save(store);
  await c.client.close().catch(() => {
  });
  const warcClosed = c.warc === null ? null : await c.warc.close().then(() => null, (err) => err);
  await store.close();
  if (warcClosed !== null) throw warcClosed;
}
function finishCrawl(r, c) {
  const { summary } = c;
  const unreachable = summary.stopped === "done" ? noAnswerError(c.client, r.proxy, c.committedBefore === 0) : null;
  if (!r.quiet) r.log(summaryLine(summary, r.logFormat));
  if (unreachable !== null) throw unreachable;
  return summary;
}
function summaryLine(summary, format) {
  const harvest = summary.pages === 0 ? 0 : summary.relevant / summary.pages;
  const rate = summary.pages / Math.max(summary.ms / 1e3, 1e-3);
  if (format === "json") {
    return JSON.stringify({ type: "summary", ...summary, harvest: Math.round(harvest * 1e4) / 1e4, pagesPerSec: Math.round(rate * 100) / 100 });
  }
  return `focuscrawl: ${summary.pages} pages (${summary.relevant} relevant, harvest ${(harvest * 100).toFixed(1)}%), ${summary.errors} errors, ${(summary.ms / 1e3).toFixed(1)} s, ${rate.toFixed(1)} pages/s; store: ${summary.totalPages} pages, ${summary.frontier} queued (${summary.stopped})` + dropLine(summary.dropped) + (summary.nearDuplicates ? `; near-duplicates ${summary.nearDuplicates}` : "");
}
var NO_SEEDS, ROBOTS_MAX_BYTES2, runPipeline, OUTPUT_CLOSED, TIME_LIMIT;
var init_pipeline = __esm({
  "src/pipeline.ts"() {
    "use strict";
    init_errors();
    init_head();
    init_host_budget();
    init_http();
    init_inflight();
    init_iter();
    init_stall();
    init_ndjson();
    init_politeness();
    init_retry();
    init_robots();
    init_address_guard2();
    init_classify();
    init_dedup();
    init_fetch();
    init_frontier_source();
    init_host_budget2();
    init_parse();
    init_robots2();
    init_sink();
    init_stats_live();
    init_level();
    init_keys();
    init_dir();
    init_canonical();
    init_config();
    init_context();
    init_summary();
    NO_SEEDS = "no seeds: give --seed URL or --seeds FILE (or --store of a crawl to resume)";
    ROBOTS_MAX_BYTES2 = 512 * 1024;
    runPipeline = pipeline2;
    OUTPUT_CLOSED = new Error("output closed");
    TIME_LIMIT = new Error("--max-time reached");
  }
});

// src/output/crawl-log.ts
var crawl_log_exports = {};
__export(crawl_log_exports, {
  CrawlLog: () => CrawlLog,
  PROGRESS_MIN_MS: () => PROGRESS_MIN_MS
});
function isJsonObject(line) {
  if (!line.startsWith("{")) return false;
  try {
    const v = JSON.parse(line);
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}
var PROGRESS_MIN_MS, CLEAR_LINE, CrawlLog;
var init_crawl_log = __esm({
  "src/output/crawl-log.ts"() {
    "use strict";
    init_stats();
    init_terminal();
    PROGRESS_MIN_MS = 250;
    CLEAR_LINE = "\r\x1B[2K";
    CrawlLog = class {
      #stream;
      #format;
      #progress;
      #now;
      /** a progress line is on screen */
      #drawn = false;
      #lastDraw = -Infinity;
      constructor(stream, opts) {
        this.#stream = stream;
        this.#format = opts.format;
        this.#progress = opts.progress && stream.isTTY === true;
        this.#now = opts.now ?? Date.now;
      }
      /**
       * One log line. Text: sanitised and written. JSON: a line that is already
       * a JSON object is written as is, any other becomes {"type":"log","message"}.
       */
      line(text) {
        if (this.#format === "json") this.#write(isJsonObject(text) ? text : JSON.stringify({ type: "log", message: sanitizeForTerminal(text, LOG_LINE_MAX) }));
        else this.#write(sanitizeForTerminal(text, LOG_LINE_MAX));
      }
      /** A stats record: formatStatsLine, or the snapshot as JSON. */
      stats(snapshot) {
        this.#write(this.#format === "json" ? JSON.stringify(snapshot) : formatStatsLine(snapshot));
      }
      /** A failure that ends the command, with its code (JSON: {"type":"fatal","code","message"}). */
      fatal(code, message) {
        const text = sanitizeForTerminal(message, LOG_LINE_MAX);
        this.#write(this.#format === "json" ? JSON.stringify({ type: "fatal", code, message: text }) : `focuscrawl: ${code}: ${text}`);
      }
      /** Redraw the progress line (skipped when disabled or drawn less than PROGRESS_MIN_MS ago). */
      progress(snapshot) {
        if (!this.#progress) return;
        const now = this.#now();
        if (now - this.#lastDraw < PROGRESS_MIN_MS) return;
        this.#lastDraw = now;
        this.#stream.write(`${CLEAR_LINE}${formatProgress(snapshot)}`);
        this.#drawn = true;
      }
      /** Erase the progress line, if one is on screen. */
      clear() {
        if (!this.#drawn) return;
        this.#stream.write(CLEAR_LINE);
        this.#drawn = false;
      }
      #write(line) {
        this.clear();
        this.#stream.write(`${line}
`);
      }
    };
  }
});

// src/commands/crawl.ts
var crawl_exports = {};
__export(crawl_exports, {
  CRAWL_SPEC: () => CRAWL_SPEC,
  MAX_TIMER_MS: () => MAX_TIMER_MS,
  parseParams: () => parseParams2,
  runCrawlCommand: () => runCrawlCommand
});
function parseParams2(values) {
  const params = {};
  for (const v of values) {
    const m = /^([A-Za-z][\w.-]*)=(.*)$/.exec(v);
    if (m === null) throw flagError("crawl", "param", `wants KEY=VALUE, got ${JSON.stringify(v)}`);
    const n = Number(m[2]);
    params[m[1]] = m[2].trim() !== "" && Number.isFinite(n) ? n : m[2];
  }
  return params;
}
function parseAuth(values) {
  const auth = {};
  for (const v of values) {
    const m = /^([^=]+)=([^:]*):(.*)$/.exec(v);
    if (m === null) throw flagError("crawl", "auth", `wants HOST=USER:PASS, got ${JSON.stringify(v)}`);
    auth[m[1].toLowerCase()] = { user: m[2], pass: m[3] };
  }
  return auth;
}
async function loadModules() {
  const [{ canonicalize: canonicalize2 }, { readSeedsFile: readSeedsFile2 }, { loadTopic: loadTopic2 }, { needsModel: needsModel2 }, { loadModel: loadModel2 }, { getSegmenter: getSegmenter2 }, { runCrawl: runCrawl2 }, { CrawlLog: CrawlLog2 }] = await Promise.all([
    Promise.resolve().then(() => (init_canonical(), canonical_exports)),
    Promise.resolve().then(() => (init_file(), file_exports)),
    Promise.resolve().then(() => (init_topic(), topic_exports)),
    Promise.resolve().then(() => (init_scorers(), scorers_exports)),
    Promise.resolve().then(() => (init_model(), model_exports)),
    Promise.resolve().then(() => (init_segmenter(), segmenter_exports)),
    Promise.resolve().then(() => (init_pipeline(), pipeline_exports)),
    Promise.resolve().then(() => (init_crawl_log(), crawl_log_exports))
  ]);
  return { canonicalize: canonicalize2, readSeedsFile: readSeedsFile2, loadTopic: loadTopic2, needsModel: needsModel2, loadModel: loadModel2, getSegmenter: getSegmenter2, runCrawl: runCrawl2, CrawlLog: CrawlLog2 };
}
async function runCrawlCommand(argv) {
  const { help, args } = parseCommand(CRAWL_SPEC, argv);
  if (help) {
    process.stdout.write(helpText(CRAWL_SPEC));
    return 0;
  }
  const m = await loadModules();
  const { config, log } = await crawlConfigOf(args, m);
  return runWithSignals(m, config, log);
}
async function crawlConfigOf(args, m) {
  let seeds = args.strings("seed");
  for (const s of seeds) if (m.canonicalize(s) === null) throw flagError(CRAWL_SPEC, "seed", `not an http(s) URL: ${JSON.stringify(s)}`);
  const store = args.string("store");
  if (args.has("lease-ms") && !/^rediss?:\/\//i.test(store)) throw flagError(CRAWL_SPEC, "lease-ms", "needs --store redis://HOST:PORT/DB");
  const proxy = args.string("proxy");
  if (proxy !== void 0) checkProxy(proxy);
  const params = parseParams2(args.strings("param"));
  const auth = parseAuth(args.strings("auth"));
  const skipExtensions = args.has("skip-extensions") ? parseSkipExtensions(args.string("skip-extensions")) : void 0;
  const scope = {
    domains: args.strings("allow-domain").map(parseDomain),
    include: args.strings("include").map((v) => parsePattern("include", v)),
    exclude: args.strings("exclude").map((v) => parsePattern("exclude", v))
  };
  const seedsFile = args.string("seeds");
  if (seedsFile !== void 0) seeds = seeds.concat(await m.readSeedsFile(seedsFile));
  const focus = await focusOf(args, m, params);
  const logFormat = args.string("log-format");
  const quiet = args.bool("quiet") === true;
  const progress = !quiet && logFormat === "text" && process.stderr.isTTY === true && process.stdout.isTTY !== true;
  const log = new m.CrawlLog(process.stderr, { format: logFormat, progress });
  const config = {
    seeds,
    ...focus,
    params,
    storeDir: store,
    scope,
    skipExtensions,
    proxy,
    auth,
    ...limitsOf(args),
    quiet,
    logFormat,
    logStats: quiet ? void 0 : (snapshot) => log.stats(snapshot),
    progress: progress ? (snapshot) => log.progress(snapshot) : void 0,
    output: process.stdout,
    log: (line) => log.line(line)
  };
  return { config, log };
}
function checkProxy(proxy) {
  let proto = "";
  try {
    proto = new URL(proxy).protocol;
  } catch {
  }
  if (proto !== "http:" && proto !== "https:") throw flagError(CRAWL_SPEC, "proxy", `not an http(s) URL: ${JSON.stringify(proxy)}`);
}
async function focusOf(args, m, params) {
  const topicFile = args.string("topic");
  const topic = topicFile === void 0 ? null : await m.loadTopic(topicFile);
  const segmenter = m.getSegmenter(args.string("segmenter"));
  const modelFile = args.string("model");
  const model = modelFile === void 0 ? null : await m.loadModel(modelFile, segmenter);
  const strategy = args.string("strategy") ?? (model !== null ? "nb-link" : topic !== null ? "best-first" : "bfs");
  if (m.needsModel(strategy) && model === null) throw flagError(CRAWL_SPEC, "strategy", `${strategy} needs --model FILE (focuscrawl train)`);
  if (strategy !== "bfs" && topic === null && model === null) throw flagError(CRAWL_SPEC, "strategy", `${strategy} needs --topic FILE`);
  const density = args.string("density");
  if (density !== void 0) params.density = density;
  if (strategy === "etfl" && topicFile !== void 0) params.libraryPath ??= topicFile;
  return { topic, model, strategy, segmenter };
}
function limitsOf(args) {
  const num2 = (name) => args.number(name);
  const opt = (name) => args.number(name);
  const statsIntervalS = opt("stats-interval");
  const maxTimeS = opt("max-time");
  const timeout = opt("timeout-ms");
  return {
    tunnel: opt("tunnel") ?? Infinity,
    explore: opt("explore"),
    fresh: args.bool("fresh") === true,
    leaseMs: opt("lease-ms"),
    maxPages: opt("max-pages") ?? Infinity,
    maxTimeMs: maxTimeS === void 0 ? void 0 : maxTimeS * 1e3,
    maxDepth: opt("max-depth") ?? Infinity,
    maxFrontier: opt("max-frontier") ?? Infinity,
    dropIndex: args.bool("keep-index-html") !== true,
    stripSessionIds: args.bool("keep-session-ids") !== true,
    maxPagesPerHost: num2("max-pages-per-host"),
    traps: { maxRepeat: num2("max-path-repeat"), maxSegments: num2("max-path-segments"), maxUrlLength: num2("max-url-length") },
    sitemaps: args.strings("sitemap"),
    sitemapsFromRobots: args.bool("sitemaps-from-robots") === true,
    sitemapMaxUrls: num2("sitemap-max-urls"),
    nearDupDistance: num2("near-dup-distance"),
    nearDupMinTokens: num2("near-dup-min-tokens"),
    allowPrivate: args.bool("allow-private") === true,
    warcOut: args.string("warc-out"),
    warcMaxSize: opt("warc-max-size"),
    pagesOut: args.string("pages-out"),
    textChars: opt("text-max-chars") ?? (args.bool("text") === true ? DEFAULT_TEXT_CHARS : 0),
    outlinks: args.bool("outlinks") === true,
    concurrency: num2("concurrency"),
    perHost: num2("per-host"),
    delayMs: num2("delay-ms"),
    delayExplicit: args.has("delay-ms"),
    delayFactor: num2("delay-factor"),
    hostDiversity: num2("host-diversity"),
    holdBack: num2("hold-back"),
    maxBytes: num2("max-bytes"),
    maxLinksPerPage: num2("max-links-per-page"),
    userAgent: args.string("user-agent"),
    timeouts: { connectMs: timeout, headersMs: timeout, bodyMs: timeout, fetchMs: num2("fetch-timeout-ms") },
    retry: { retries: num2("retries"), baseMs: num2("retry-base-ms"), maxRetryAfterMs: num2("max-retry-after") * 1e3 },
    statsIntervalMs: statsIntervalS === void 0 ? void 0 : Math.round(statsIntervalS * 1e3)
  };
}
async function runWithSignals(m, config, log) {
  const ac = new AbortController();
  let signalCode = 0;
  const onSignal = (sig) => {
    signalCode = sig === "SIGINT" ? 130 : 143;
    ac.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await m.runCrawl({ ...config, signal: ac.signal });
  } catch (err) {
    if (!(err instanceof FocuscrawlError)) throw err;
    log.fatal(err.code, err.message);
    return exitStatusOf(err);
  } finally {
    log.clear();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  return signalCode;
}
var MAX_TIMER_MS, MAX_COUNT, SEEDS, TOPIC, SCOPE, TRAPS, POLITE, HTTP, RETRIES, RECORDS, FILES, STATE, LOGGING, FLAGS, CRAWL_SPEC, DEFAULT_TEXT_CHARS;
var init_crawl = __esm({
  "src/commands/crawl.ts"() {
    "use strict";
    init_args();
    init_errors();
    init_extensions();
    init_scope();
    init_host_budget();
    init_retry();
    init_scorers();
    init_frontier_source();
    init_traps();
    init_page_parser();
    init_explore();
    MAX_TIMER_MS = 2 ** 31 - 1;
    MAX_COUNT = 1e12;
    SEEDS = "Seeds";
    TOPIC = "Topic and strategy";
    SCOPE = "Scope";
    TRAPS = "Crawler traps";
    POLITE = "Politeness";
    HTTP = "HTTP";
    RETRIES = "Retries";
    RECORDS = "Records (stdout)";
    FILES = "Output files (records still go to stdout)";
    STATE = "State";
    LOGGING = "Logging (stderr)";
    FLAGS = [
      { group: SEEDS, name: "seed", type: "string", value: "URL", multiple: true, help: "a start URL" },
      { group: SEEDS, name: "seeds", type: "string", value: "FILE", help: "start URLs, one a line (# comments, blank lines); - reads them from stdin: ... | focuscrawl crawl --seeds - ..." },
      { group: TOPIC, name: "topic", type: "string", value: "FILE", help: 'topic.json: {"name": "...", "terms": ["..."], "threshold": 0.2} (docs/topic-format.md)' },
      { group: TOPIC, name: "strategy", type: "choice", value: "NAME", choices: knownStrategies(), defaultText: "nb-link with a model, best-first with a topic, else bfs", help: `how the frontier is ordered: ${knownStrategies().join(", ")}` },
      { group: TOPIC, name: "model", type: "string", value: "FILE", help: "a model from `focuscrawl train`: judges page relevance, scores links for nb-link and bayes-kde (docs/model-format.md)" },
      { group: TOPIC, name: "param", type: "string", value: "KEY=VALUE", multiple: true, help: `a strategy parameter, e.g. roundSize=10; overrides the topic file's "params"` },
      { group: TOPIC, name: "density", type: "choice", choices: ["kernel", "gaussian"], defaultText: "kernel", help: "the bayes-kde density (the same as --param density=NAME)" },
      { group: TOPIC, name: "explore", type: "number", value: "X", min: 0, max: 1, default: DEFAULT_EXPLORE, help: "share of fetches at the start taken in breadth-first order or next to the targets found, adapted as the crawl goes (docs/explore.md: 0.2 shrinks the worst cases of the keyword strategies); 0 = the strategy alone, as its paper defines it" },
      { group: TOPIC, name: "tunnel", type: "int", value: "K", min: 0, max: 1e6, defaultText: "no limit", help: "follow at most K consecutive off-topic hops (0 = hard focus)" },
      { group: TOPIC, name: "segmenter", type: "string", value: "NAME", default: "node-rs", help: "Chinese word segmentation: node-rs (@node-rs/jieba) or nodejieba (an optional package, if installed)" },
      { group: SCOPE, name: "max-pages", type: "int", min: 1, max: MAX_COUNT, zeroIsNoLimit: true, defaultText: "no limit", help: "stop after N pages (counted across resumed runs)" },
      { group: SCOPE, name: "max-time", type: "number", value: "S", min: 1e-3, max: Math.floor(MAX_TIMER_MS / 1e3), defaultText: "no limit", help: "stop after S seconds of this run (decimals allowed); requests in flight go back to the frontier, rerun to go on (exit 0)" },
      { group: SCOPE, name: "max-depth", type: "int", min: 0, max: 1e6, defaultText: "no limit", help: "do not queue links more than N hops from a seed (0: the seeds only)" },
      { group: SCOPE, name: "max-frontier", type: "int", min: 1, max: MAX_COUNT, zeroIsNoLimit: true, defaultText: "no limit", help: "keep at most the N best queued URLs" },
      { group: SCOPE, name: "allow-domain", type: "string", value: "D", multiple: true, help: "queue only URLs on D or its subdomains (any of them; cornell.edu allows www.cs.cornell.edu; also for redirects: FC_OUT_OF_SCOPE); seeds are always fetched" },
      { group: SCOPE, name: "include", type: "string", value: "REGEX", multiple: true, help: "queue only URLs that match one of these (JavaScript regular expression, unanchored, tested on the canonical URL)" },
      { group: SCOPE, name: "exclude", type: "string", value: "REGEX", multiple: true, help: "never queue URLs that match one of these" },
      { group: SCOPE, name: "skip-extensions", type: "string", value: "LIST", defaultText: 'pdf, ps, gz, zip, images, audio, video, office files, ... (docs/crawling.md, "Files that are not pages")', help: "do not queue links or sitemap entries whose path ends in one of these extensions (comma-separated; none = queue them all)" },
      { group: SCOPE, name: "sitemap", type: "string", value: "URL|FILE", multiple: true, help: "queue the URLs of a sitemap (urlset, sitemapindex, text, .gz) at depth 1, scored like links; entries on another host than the sitemap are dropped unless its robots.txt lists it" },
      { group: SCOPE, name: "sitemaps-from-robots", type: "boolean", help: "also read the sitemaps named by each seed host's robots.txt" },
      { group: SCOPE, name: "sitemap-max-urls", type: "int", min: 1, max: 1e9, default: 1e6, help: "URLs taken from all sitemaps together" },
      { group: SCOPE, name: "near-dup-distance", type: "int", value: "K", min: 0, max: 10, default: 3, help: `a page within Hamming distance K of an earlier page's SimHash is a near-duplicate: "duplicateOf" in its record, its links are not queued (0 = off)` },
      { group: SCOPE, name: "near-dup-min-tokens", type: "int", min: 0, max: 1e6, default: 30, help: "pages with fewer tokens are never near-duplicates" },
      { group: SCOPE, name: "keep-index-html", type: "boolean", help: "do not treat /dir/index.html and /dir/ as one URL" },
      { group: SCOPE, name: "keep-session-ids", type: "boolean", help: "do not strip session ids from URLs (;jsessionid=, PHPSESSID=, sessionid=, session_id=, osCsid=, CFID=, CFTOKEN=, ASPSESSIONID*=, and sid= when its value is a 16+ character token)" },
      { group: TRAPS, name: "max-pages-per-host", type: "int", min: 1, max: MAX_COUNT, zeroIsNoLimit: true, default: DEFAULT_MAX_PAGES_PER_HOST, help: "at most N pages per host (counted across resumed runs); then its queued URLs become FC_HOST_BUDGET records (no request) and links to it are dropped" },
      { group: TRAPS, name: "max-path-repeat", type: "int", min: 1, max: 1e6, zeroIsNoLimit: true, default: DEFAULT_TRAP_LIMITS.maxRepeat, help: "drop links whose path has a segment or group of segments more than N times in a row: /a/a/a/, /a/b/a/b/a/b/" },
      { group: TRAPS, name: "max-path-segments", type: "int", min: 1, max: 1e6, zeroIsNoLimit: true, default: DEFAULT_TRAP_LIMITS.maxSegments, help: "drop links with more than N path segments" },
      { group: TRAPS, name: "max-url-length", type: "int", min: 1, max: 1e8, zeroIsNoLimit: true, default: DEFAULT_TRAP_LIMITS.maxUrlLength, help: "drop links longer than N characters" },
      { group: POLITE, name: "concurrency", type: "int", min: 1, max: 1e4, default: 8, help: "requests in flight in all" },
      { group: POLITE, name: "per-host", type: "int", min: 1, max: 1e3, default: 1, help: "requests in flight per host" },
      { group: POLITE, name: "delay-ms", type: "int", min: 0, max: MAX_TIMER_MS, default: 1e3, help: "pause between requests to one host (robots.txt Crawl-delay wins when larger; not applied to replay-proxy answers unless given explicitly)" },
      { group: POLITE, name: "delay-factor", type: "number", value: "F", min: 0, max: 1e3, default: 0, help: "also pause F times as long as the host's last request took (at most 30 s; 0 = off): a slow server is asked less often, as Heritrix's delay factor (its default is 5)" },
      { group: POLITE, name: "host-diversity", type: "int", value: "K", min: 0, max: 1e4, default: 0, help: "every K consecutive fetches from K different hosts when possible (0 = off)" },
      { group: POLITE, name: "hold-back", type: "number", value: "Q", min: 0, max: 1, default: DEFAULT_HOLD_BACK, help: "while a request is in flight and the best queued URL's host is about one request from free, leave a slot empty rather than fill it with a URL in the bottom Q of the queue by score (0.5: at most the median; 0 = fill every free slot)" },
      { group: POLITE, name: "user-agent", type: "string", value: "STRING", defaultText: "names focuscrawl and its version", help: "the User-Agent header" },
      { group: HTTP, name: "proxy", type: "string", value: "URL", help: "send every request through this HTTP forward proxy (e.g. focuscrawl replay)" },
      { group: HTTP, name: "allow-private", type: "boolean", help: "also fetch loopback, private, link-local and cloud-metadata addresses (refused by default: FC_PRIVATE_ADDRESS; not checked with --proxy, which resolves names itself)" },
      { group: HTTP, name: "max-bytes", type: "int", min: 1, max: 2 ** 30, default: 1024 * 1024, help: "body cap per page (the record says truncated)" },
      { group: HTTP, name: "max-links-per-page", type: "int", min: 1, max: 1e7, default: DEFAULT_MAX_LINKS, help: 'links read per HTML page; more are dropped: the record says "caps": ["links"], the summary counts them as links-per-page' },
      { group: HTTP, name: "auth", type: "string", value: "HOST=USER:PASS", multiple: true, help: "basic credentials sent only to HOST" },
      { group: HTTP, name: "timeout-ms", type: "int", min: 1, max: MAX_TIMER_MS, defaultText: "10000, 20000, 30000", help: "connect, response-headers and body-gap timeout, each: FC_TIMEOUT" },
      { group: HTTP, name: "fetch-timeout-ms", type: "int", min: 1, max: MAX_TIMER_MS, default: 6e4, help: "cap on one whole request, body included: FC_TIMEOUT" },
      { group: RETRIES, name: "retries", type: "int", min: 0, max: 100, default: DEFAULT_RETRY_POLICY.retries, help: 'fetch a URL again after FC_NETWORK, FC_TIMEOUT or HTTP 429, 500, 502, 503, 504, at most N more times; the record of the last attempt says "attempts"' },
      { group: RETRIES, name: "retry-base-ms", type: "int", min: 0, max: MAX_TIMER_MS, default: DEFAULT_RETRY_POLICY.baseMs, help: "after such a failure its host waits N * 2^(attempt-1) ms, +-25%, or the answer's Retry-After" },
      { group: RETRIES, name: "max-retry-after", type: "int", value: "S", min: 0, max: Math.floor(MAX_TIMER_MS / 1e3), default: DEFAULT_RETRY_POLICY.maxRetryAfterMs / 1e3, help: "cap on any host wait, seconds; an answer with a longer Retry-After is not retried" },
      { group: RECORDS, name: "text", type: "boolean", help: `each HTML page's record carries its main text as "text": the visible text in document order, one line per block, navigation (menus, headers, footers, link lists) left out; the title is "title"` },
      { group: RECORDS, name: "text-max-chars", type: "int", min: 1, max: 1e9, defaultText: "100000", help: 'cap of "text", characters (implies --text); a cut text has "textTruncated": true' },
      { group: RECORDS, name: "outlinks", type: "boolean", help: 'each page record lists its followable links as "outlinks": [{"url", "anchor", "score"}], each canonical URL once' },
      { group: FILES, name: "warc-out", type: "string", value: "DIR", help: "also archive every fetched response in DIR as WARC/1.1, gzip per record: request + response records (redirect hops too) and a metadata record with score, relevance, depth, parent, strategy; written before the page is committed; the file being written ends in .open. `focuscrawl replay --warc FILE ...` serves them" },
      { group: FILES, name: "warc-max-size", type: "bytes", min: 1, max: 2 ** 50, defaultText: "1G", help: "roll over to a new WARC file at N bytes" },
      { group: FILES, name: "pages-out", type: "string", value: "DIR", help: "save each kept page body as DIR/ab/<md5 of its URL> (Zou et al.'s page repository, docs/algorithms.md#page-repository; ab = the hash's first two hex digits)" },
      { group: STATE, name: "store", type: "string", value: "DIR|redis://HOST:PORT/DB[?crawl=NAME]", default: "./focuscrawl-store", help: "crawl state: a LevelDB directory (rerunning with the same store resumes; seeds are optional then), or a Redis server shared by several crawl workers (each URL is fetched by one worker; --per-host, --delay-ms and --max-pages hold across them)" },
      { group: STATE, name: "fresh", type: "boolean", help: "delete the store's own files first, nothing else (refused if DIR is not a focuscrawl store: docs/store-directory.md; with Redis, deletes the crawl's keys)" },
      { group: STATE, name: "lease-ms", type: "int", min: 100, max: MAX_TIMER_MS, defaultText: "30000", help: "with a Redis store: a worker's claimed URLs return to the frontier N ms after it dies" },
      { group: LOGGING, name: "stats-interval", type: "number", value: "S", min: 0, max: Math.floor(MAX_TIMER_MS / 1e3), default: 10, help: "a stats record every S seconds (0 = none): pages, pages/s, harvest, frontier, hosts, errors by code, fetch latency p50/p95/p99, bytes; a final one at exit (also kept in the store)" },
      { group: LOGGING, name: "log-format", type: "choice", choices: ["text", "json"], default: "text", help: "json: every stderr line is one JSON object" },
      { group: LOGGING, name: "quiet", type: "boolean", help: "no stats, progress line or summary on stderr" }
    ];
    CRAWL_SPEC = {
      name: "crawl",
      usage: ["crawl --seed URL [--seed URL ...] | --seeds FILE [options]"],
      summary: "Fetch the pages most likely on topic first; one NDJSON record per URL (a page or an error) on stdout, logs on stderr.",
      flags: FLAGS,
      exitCodes: [
        [0, "done, a limit was reached, or stdout was closed early (| head); also --help"],
        [1, "runtime failure: the store is locked (FC_STORE_LOCKED) or cannot be opened or written (FC_STORE), a --warc-out or --pages-out file cannot be written, the crawl stalled (FC_STALLED), an internal error"],
        [2, "bad input: FC_USAGE (unknown flag, bad or missing value, bad seeds), FC_BAD_TOPIC, FC_BAD_MODEL; FC_CAP_EXCEEDED (a store batch over its cap)"],
        [130, "interrupted by SIGINT (Ctrl-C); the store is consistent, rerun with the same --store to resume"],
        [143, "interrupted by SIGTERM; as for 130"]
      ]
    };
    DEFAULT_TEXT_CHARS = 1e5;
  }
});

// src/replay/warc-index.ts
import { createReadStream as createReadStream3, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { open as open3 } from "node:fs/promises";
import os from "node:os";
import path8 from "node:path";
import { pipeline as pipeline3 } from "node:stream";
import { pipeline as pipelinePromise } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { validateHeaderName, validateHeaderValue } from "node:http";
import { AsyncIterReader, HeadersMultiMap, WARCParser } from "warcio";
async function isGzipFile(file) {
  const fh = await open3(file, "r");
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 31 && buffer[1] === 139;
  } finally {
    await fh.close();
  }
}
async function* scanRecords(source) {
  const { file, read, gzip: gzip2 } = source;
  const parser = new WARCParser(createReadStream3(read), { parseHttp: false });
  let lastOffset = -1;
  let records = 0;
  try {
    for await (const record of parser) {
      const version = record.warcHeaders.protocol ?? "";
      if (records++ === 0 && !/^WARC\/\d+\.\d+$/.test(version)) {
        throw new BadWarcError(`${file}: not a WARC file (it starts with ${JSON.stringify(version.slice(0, 40))}, not a WARC/1.x version line)`);
      }
      await record.skipFully();
      const offset = parser.offset;
      if (gzip2) {
        if (offset <= lastOffset) throw new NotPerRecordGzip();
        lastOffset = offset;
      }
      const type = record.warcType;
      if (type !== "response" && type !== "revisit") continue;
      const target = record.warcTargetURI;
      const url = target ? canonicalize(target) : null;
      if (url === null) continue;
      const refersTo = type === "revisit" ? record.warcRefersToTargetURI : null;
      yield {
        type,
        url,
        digest: record.warcPayloadDigest ?? null,
        refersTo: refersTo ? canonicalize(refersTo) : null,
        loc: { file: read, offset, length: parser.recordLength, gzip: gzip2 }
      };
    }
  } catch (err) {
    if (err instanceof FocuscrawlError || err instanceof NotPerRecordGzip) throw err;
    throw new UsageError(`${file}: not a readable WARC file (${err.message})`, { cause: err });
  }
  if (records === 0) throw new BadWarcError(`${file}: not a WARC file (no WARC record in it)`);
}
async function indexRecords(source, found) {
  let responses = 0;
  for await (const r of scanRecords(source)) {
    if (r.type === "revisit") found.revisits.push(r);
    else {
      responses++;
      if (!found.entries.has(r.url)) found.entries.set(r.url, r.loc);
    }
  }
  found.sources.push(source);
  return responses;
}
async function indexFile(file, found) {
  const gzip2 = await isGzipFile(file);
  if (!gzip2) return indexRecords({ file, read: file, gzip: false }, found);
  const staged = { entries: /* @__PURE__ */ new Map(), revisits: [], sources: [] };
  try {
    const n = await indexRecords({ file, read: file, gzip: true }, staged);
    for (const [url, loc] of staged.entries) if (!found.entries.has(url)) found.entries.set(url, loc);
    found.revisits.push(...staged.revisits);
    found.sources.push(...staged.sources);
    return n;
  } catch (err) {
    if (!(err instanceof NotPerRecordGzip)) throw err;
  }
  return indexRecords({ file, read: await inflatedCopy(file), gzip: false }, found);
}
async function inflatedCopy(file) {
  const known = inflated.get(file);
  if (known !== void 0) return known;
  const dir = mkdtempSync(path8.join(os.tmpdir(), "focuscrawl-warc-"));
  const copy = path8.join(dir, `${path8.basename(file).replace(/\.gz$/i, "")}`);
  try {
    await pipelinePromise(createReadStream3(file), createGunzip(), createWriteStream(copy));
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new UsageError(`${file}: not a readable gzip file (${err.message})`, { cause: err });
  }
  inflated.set(file, copy);
  if (!cleanupHooked) {
    cleanupHooked = true;
    process.once("exit", () => {
      for (const c of inflated.values()) rmSync(path8.dirname(c), { recursive: true, force: true });
    });
  }
  return copy;
}
async function buildIndex(files) {
  const found = { entries: /* @__PURE__ */ new Map(), revisits: [], sources: [] };
  let responseRecords = 0;
  for (const file of files) responseRecords += await indexFile(file, found);
  const { entries } = found;
  const byUrl = (r) => r.refersTo === null ? void 0 : entries.get(r.refersTo);
  const pending = found.revisits.filter((r) => !entries.has(r.url));
  const wanted = new Set(pending.filter((r) => byUrl(r) === void 0 && r.digest !== null).map((r) => r.digest));
  const byDigest = /* @__PURE__ */ new Map();
  for (const source of wanted.size > 0 ? found.sources : []) {
    for await (const r of scanRecords(source)) {
      if (r.type === "response" && r.digest !== null && wanted.has(r.digest) && !byDigest.has(r.digest)) byDigest.set(r.digest, r.loc);
    }
  }
  let revisitsResolved = 0;
  for (const r of pending) {
    if (entries.has(r.url)) continue;
    const original = byUrl(r) ?? (r.digest === null ? void 0 : byDigest.get(r.digest));
    if (original === void 0) continue;
    entries.set(r.url, original);
    revisitsResolved++;
  }
  return { files: [...files], entries, responseRecords, revisitsResolved };
}
async function* recordBytes(loc, limit) {
  const raw = createReadStream3(loc.file, { start: loc.offset, end: loc.offset + loc.length - 1 });
  const stream = loc.gzip ? pipeline3(raw, createGunzip(), () => {
  }) : raw;
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      if (total > limit) throw new CapExceededError(`archived record for ${loc.file}@${loc.offset}`, limit);
      yield chunk;
    }
  } finally {
    raw.destroy();
    if (stream !== raw) stream.destroy();
  }
}
function headerPairs(headers) {
  const out = [];
  const push = (name, value) => {
    if (name.toLowerCase() === "transfer-encoding") return;
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      return;
    }
    out.push([name, value]);
  };
  if (headers instanceof HeadersMultiMap) {
    for (const name of headers.keys()) {
      for (const value of headers.getMultiple(name) ?? []) push(name, value);
    }
  } else {
    for (const [name, value] of headers) push(name, value);
  }
  return out;
}
async function readResponse(index, canonicalUrl, maxBodyBytes = MAX_BODY_BYTES) {
  const loc = index.entries.get(canonicalUrl);
  if (loc === void 0) return null;
  const source = recordBytes(loc, maxBodyBytes + HEADER_ROOM);
  try {
    const parser = new WARCParser(new AsyncIterReader(source, null), { keepHeadersCase: true });
    const record = await parser.parse();
    const http = record?.httpHeaders;
    if (!record || !http) throw new BadWarcError(`no HTTP response in record for ${canonicalUrl}`);
    const status = Number(http.statusCode);
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new BadWarcError(`bad archived status line "${http.statusline}" for ${canonicalUrl}`);
    }
    const headers = headerPairs(http.headers);
    let chunked = false;
    for (const [name, value] of http.headers) {
      if (name.toLowerCase() === "transfer-encoding" && /chunked/i.test(value)) chunked = true;
    }
    const chunks = [];
    let size = 0;
    for await (const chunk of new AsyncIterReader(record.reader, null, chunked)) {
      size += chunk.length;
      if (size > maxBodyBytes) throw new CapExceededError(`archived body of ${canonicalUrl}`, maxBodyBytes);
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
    return { status, statusText: http.statusText ?? "", headers, body: Buffer.concat(chunks, size) };
  } finally {
    await source.return(void 0);
  }
}
var MAX_BODY_BYTES, HEADER_ROOM, NotPerRecordGzip, inflated, cleanupHooked;
var init_warc_index = __esm({
  "src/replay/warc-index.ts"() {
    "use strict";
    init_canonical();
    init_errors();
    MAX_BODY_BYTES = 20 * 1024 * 1024;
    HEADER_ROOM = 1024 * 1024;
    NotPerRecordGzip = class extends Error {
    };
    inflated = /* @__PURE__ */ new Map();
    cleanupHooked = false;
  }
});

// src/replay/server.ts
import { createServer } from "node:http";
function sendText(res, tag, status, text, extra = []) {
  const body = Buffer.from(text + "\n", "utf8");
  const head = [
    REPLAY_HEADER,
    tag,
    "content-type",
    "text/plain; charset=utf-8",
    "content-length",
    String(body.length)
  ];
  for (const [k, v] of extra) head.push(k, v);
  res.writeHead(status, head);
  res.end(res.req.method === "HEAD" ? void 0 : body);
}
function targetOf(req) {
  const raw = req.url ?? "";
  if (raw.startsWith("/")) {
    const host = req.headers.host;
    return host ? `http://${host}${raw}` : null;
  }
  return /^https?:\/\//i.test(raw) ? raw : null;
}
function bodiless(status) {
  return status === 204 || status === 304;
}
async function handle(lookup, tag, req, res) {
  req.resume();
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendText(res, tag, 405, `method ${req.method} not supported by the replay proxy`, [["allow", "GET, HEAD"]]);
    return;
  }
  const target = targetOf(req);
  const canon2 = target === null ? null : canonicalize(target);
  if (canon2 === null) {
    sendText(res, tag, 400, `not an http(s) URL: ${req.url}`);
    return;
  }
  let archived;
  try {
    archived = await lookup(canon2);
  } catch (err) {
    const { code, message } = toItemError(err);
    sendText(res, tag, 502, `${code}: ${message}`);
    return;
  }
  if (archived === null) {
    sendText(res, tag, 404, `not in archive: ${canon2}`);
    return;
  }
  const connectionTokens = /* @__PURE__ */ new Set();
  for (const [name, value] of archived.headers) {
    if (name.toLowerCase() === "connection") {
      for (const t of value.split(",")) connectionTokens.add(t.trim().toLowerCase());
    }
  }
  const head = [];
  for (const [name, value] of archived.headers) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || connectionTokens.has(lower) || lower === REPLAY_HEADER) continue;
    head.push(name, value);
  }
  head.push(REPLAY_HEADER, tag);
  const noBody = bodiless(archived.status);
  if (!noBody) head.push("content-length", String(archived.body.length));
  const reason3 = /^[\t\x20-\x7e\x80-\xff]*$/.test(archived.statusText) && archived.statusText !== "" ? archived.statusText : void 0;
  res.writeHead(archived.status, reason3, head);
  res.end(req.method === "HEAD" || noBody ? void 0 : archived.body);
}
function refuseConnect(tag, socket) {
  const body = "CONNECT (https tunnelling) is not supported by the replay proxy\n";
  socket.on("error", () => {
  });
  socket.end(
    `HTTP/1.1 501 Not Implemented\r
${REPLAY_HEADER}: ${tag}\r
content-type: text/plain; charset=utf-8\r
content-length: ${Buffer.byteLength(body)}\r
connection: close\r
\r
${body}`
  );
}
async function createReplayServer(opts) {
  const index = await buildIndex(opts.warcs);
  const proxy = await createProxyServer({ lookup: (canon2) => readResponse(index, canon2), port: opts.port, host: opts.host });
  return { ...proxy, records: index.entries.size, index };
}
async function createProxyServer(opts) {
  const { lookup } = opts;
  const tag = opts.tag ?? "1";
  const host = opts.host ?? "127.0.0.1";
  const server = createServer((req, res) => {
    handle(lookup, tag, req, res).catch((err) => {
      if (!res.headersSent) sendText(res, tag, 500, toItemError(err).message);
      else res.destroy();
    });
  });
  server.on("connect", (_req, socket) => refuseConnect(tag, socket));
  server.on("clientError", (err, socket) => {
    socket.on("error", () => {
    });
    const status = err.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : "400 Bad Request";
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r
${REPLAY_HEADER}: ${tag}\r
content-length: 0\r
connection: close\r
\r
`);
  });
  await new Promise((resolve2, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve2();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("replay server has no TCP address");
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    close: () => new Promise((resolve2, reject) => {
      server.close((err) => err ? reject(err) : resolve2());
      server.closeAllConnections();
    })
  };
}
var REPLAY_HEADER, HOP_BY_HOP;
var init_server = __esm({
  "src/replay/server.ts"() {
    "use strict";
    init_canonical();
    init_errors();
    init_warc_index();
    REPLAY_HEADER = "x-focuscrawl-replay";
    HOP_BY_HOP = /* @__PURE__ */ new Set([
      "connection",
      "keep-alive",
      "proxy-connection",
      "proxy-authenticate",
      "proxy-authorization",
      "te",
      "trailer",
      "trailers",
      "transfer-encoding",
      "upgrade",
      "content-length"
    ]);
  }
});

// src/commands/replay.ts
var replay_exports = {};
__export(replay_exports, {
  REPLAY_SPEC: () => REPLAY_SPEC,
  runReplay: () => runReplay
});
import { constants } from "node:fs";
import { access, readdir as readdir2, stat as stat5 } from "node:fs/promises";
import path9 from "node:path";
async function unreadable2(file) {
  try {
    await access(file, constants.R_OK);
    if (!(await stat5(file)).isFile()) return `${file} is not a file`;
    return null;
  } catch (err) {
    return `cannot read ${file} (${err.code ?? "error"})`;
  }
}
async function expandWarcArgs(args) {
  const files = [];
  for (const arg of args) {
    let isDir = false;
    try {
      isDir = (await stat5(arg)).isDirectory();
    } catch {
    }
    if (!isDir) {
      files.push(arg);
      continue;
    }
    let names;
    try {
      names = (await readdir2(arg)).filter((n) => WARC_NAME.test(n)).sort();
    } catch (err) {
      return `cannot read ${arg} (${err.code ?? "error"})`;
    }
    if (names.length === 0) return `${arg} holds no .warc or .warc.gz file`;
    files.push(...names.map((n) => path9.join(arg, n)));
  }
  return files;
}
function untilStopped(signal) {
  return new Promise((resolve2) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      signal?.removeEventListener("abort", stop);
      resolve2();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener("abort", stop);
  });
}
async function runReplay(argv, io = {}) {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const fail = (code, message) => {
    stderr.write(`focuscrawl replay: ${sanitizeForTerminal(message, LOG_LINE_MAX)}
`);
    return code;
  };
  let parsed;
  try {
    parsed = parseCommand(REPLAY_SPEC, argv);
  } catch (err) {
    return fail(ERROR_CODES.FC_USAGE.exit, `FC_USAGE: ${ownMessage(REPLAY_SPEC, err)}`);
  }
  if (parsed.help) {
    stdout.write(helpText(REPLAY_SPEC));
    return 0;
  }
  const { args } = parsed;
  if (args.strings("warc").length === 0) return fail(ERROR_CODES.FC_USAGE.exit, "FC_USAGE: --warc: at least one FILE is required (see --help)");
  const warcs = await expandWarcArgs(args.strings("warc"));
  if (typeof warcs === "string") return fail(ERROR_CODES.FC_USAGE.exit, warcs);
  const port = args.number("port");
  for (const file of warcs) {
    const problem = await unreadable2(file);
    if (problem !== null) return fail(ERROR_CODES.FC_USAGE.exit, problem);
  }
  let server;
  try {
    server = await createReplayServer({ warcs, port, host: "127.0.0.1" });
  } catch (err) {
    const code = err instanceof FocuscrawlError ? err.code : null;
    return fail(exitStatusOf(err), code === "FC_BAD_WARC" ? `${code}: ${err.message}` : err.message);
  }
  const stopped = untilStopped(io.signal);
  stdout.write(JSON.stringify({ listening: server.url }) + "\n");
  const revisits = server.index.revisitsResolved;
  stderr.write(`replay: ${server.records} records from ${warcs.length} files${revisits > 0 ? ` (${revisits} of them revisits of an earlier response)` : ""}
`);
  await stopped;
  await server.close();
  return 0;
}
var REPLAY_SPEC, WARC_NAME;
var init_replay = __esm({
  "src/commands/replay.ts"() {
    "use strict";
    init_args();
    init_errors();
    init_terminal();
    init_server();
    REPLAY_SPEC = {
      name: "replay",
      usage: ["replay --warc FILE|DIR [--warc FILE|DIR...] [--port N]"],
      summary: "Serve the response records of WARC files (.warc, or .warc.gz: one gzip member per record, or the whole file gzipped, which is inflated once into a temporary copy) as an HTTP forward proxy on 127.0.0.1. URLs are matched in canonical form; the first record for a URL wins; unknown URLs answer 404.",
      flags: [
        { group: "Options", name: "warc", type: "string", value: "FILE|DIR", multiple: true, help: "a WARC file to serve (at least one); a directory serves the .warc/.warc.gz files in it (e.g. crawl --warc-out's)" },
        { group: "Options", name: "port", type: "int", min: 0, max: 65535, default: 0, help: "port to listen on (0: any free port)" }
      ],
      notes: `The first stdout line is {"listening":"http://127.0.0.1:PORT"}.
Stops on SIGINT or SIGTERM.`,
      exitCodes: [
        [0, "stopped by SIGINT or SIGTERM; also --help"],
        [1, "cannot listen on the port, an internal error"],
        [2, "bad input: FC_USAGE (a bad flag, a WARC file that cannot be read or parsed), FC_BAD_WARC (a file that is not a WARC file)"]
      ]
    };
    WARC_NAME = /\.warc(\.gz)?$/i;
  }
});

// src/relevance/train/from-texts.ts
function textPage(text, body = "") {
  return {
    title: text,
    charset: "utf-8",
    blocks: { title: text, heading: "", content: body, navigation: "", anchor: "", other: "" },
    links: [],
    base: "",
    noindex: false,
    nofollow: false,
    lang: null
  };
}
function rowOf(line, opts) {
  let v;
  try {
    v = JSON.parse(line);
  } catch {
    return "not JSON";
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "not a JSON object";
  const o = v;
  const text = o[opts.textField];
  if (typeof text !== "string" || text.trim() === "") return `no non-empty string field "${opts.textField}"`;
  const raw = o[opts.labelField];
  let label;
  if (typeof raw === "string") label = raw;
  else if (typeof raw === "number" && Number.isFinite(raw)) label = String(raw);
  else return `no string or number field "${opts.labelField}"`;
  let context = "";
  if (opts.contextField !== void 0) {
    const c = o[opts.contextField];
    if (typeof c === "string") context = c;
    else if (Array.isArray(c) && c.every((x) => typeof x === "string")) context = c.join(" ");
    else if (c !== void 0 && c !== null) return `field "${opts.contextField}" is not a string`;
  }
  return { text, context, label: label === opts.target ? 1 : 0 };
}
async function readTexts(opts) {
  const started = performance.now();
  const log = opts.log ?? (() => {
  });
  const sample = new Reservoir(opts.maxExamples ?? DEFAULT_MAX_EXAMPLES);
  let lines2 = 0;
  let malformed = 0;
  let firstProblem = "";
  for (const file of opts.files) {
    let no = 0;
    for await (const line of readLines(file)) {
      no++;
      if (line !== null && line.trim() === "") continue;
      lines2++;
      const row = line === null ? `longer than ${MAX_LINE_BYTES} bytes` : rowOf(line, opts);
      if (typeof row === "string") {
        malformed++;
        if (firstProblem === "") firstProblem = `${file}:${no}: ${row}`;
        continue;
      }
      sample.add(row);
    }
  }
  if (malformed > 0) log(`texts: skipped ${malformed} malformed of ${lines2} lines (first: ${firstProblem})`);
  if (sample.seen === 0) {
    throw new UsageError(`no usable line in ${opts.files.join(", ")} (${lines2} lines, ${malformed} malformed${firstProblem ? `; first: ${firstProblem}` : ""})`);
  }
  if (sample.seen > sample.capacity) log(`texts: ${sample.seen} usable lines, training on a uniform sample of ${sample.capacity}`);
  const positives = sample.items.reduce((n, r) => n + r.label, 0);
  if (positives === 0) {
    throw new UsageError(`target ${JSON.stringify(opts.target)} matches no usable line of ${opts.files.join(", ")} (field "${opts.labelField}")`);
  }
  const pages = [];
  const links = [];
  for (const r of sample.items) {
    links.push({ anchor: r.text, context: r.context, label: r.label });
    pages.push({ features: pageFeatures(textPage(r.text), { segmenter: opts.segmenter }), label: r.label, grams: pageGrams(textPage(r.text, r.context)) });
  }
  return {
    source: "texts",
    files: [...opts.files],
    pages,
    links,
    counts: { lines: lines2, malformed, usable: sample.seen, sampled: sample.items.length },
    options: {
      target: opts.target,
      textField: opts.textField,
      labelField: opts.labelField,
      ...opts.contextField === void 0 ? {} : { contextField: opts.contextField },
      maxExamples: sample.capacity
    },
    seconds: (performance.now() - started) / 1e3
  };
}
var DEFAULT_MAX_EXAMPLES, Reservoir;
var init_from_texts = __esm({
  "src/relevance/train/from-texts.ts"() {
    "use strict";
    init_read_lines();
    init_errors();
    init_features();
    init_metrics();
    init_model();
    DEFAULT_MAX_EXAMPLES = 5e5;
    Reservoir = class {
      capacity;
      items = [];
      /** items offered so far */
      seen = 0;
      #random;
      constructor(capacity, seed = 1) {
        if (!Number.isInteger(capacity) || capacity < 1) throw new TypeError(`Reservoir capacity must be a positive integer, got ${capacity}`);
        this.capacity = capacity;
        this.#random = seededRandom(seed);
      }
      add(item) {
        this.seen++;
        if (this.items.length < this.capacity) {
          this.items.push(item);
          return;
        }
        const j = Math.floor(this.#random() * this.seen);
        if (j < this.capacity) this.items[j] = item;
      }
    };
  }
});

// src/relevance/learn/layers.ts
function graphLayers(out, targets, top = DEFAULT_TOP_LAYER) {
  if (!Number.isInteger(top) || top < 1 || top > 255) throw new RangeError(`top layer must be an integer 1..255, got ${top}`);
  const into = out.map(() => []);
  out.forEach((links, from) => {
    for (const t of links) into[t]?.push(from);
  });
  const layer = new Uint8Array(out.length).fill(top);
  const queue = [];
  for (const g of targets) {
    if (g < 0 || g >= out.length || layer[g] === 0) continue;
    layer[g] = 0;
    queue.push(g);
  }
  const seen = new Uint8Array(out.length);
  for (const g of queue) seen[g] = 1;
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    const next = layer[v] + 1;
    if (next >= top) continue;
    for (const u of into[v]) {
      if (seen[u] === 1) continue;
      seen[u] = 1;
      layer[u] = next;
      queue.push(u);
    }
  }
  return layer;
}
function linkLayer(out, layers, from, to, top = DEFAULT_TOP_LAYER) {
  if (layers[to] === 0) return 0;
  let best = top;
  for (const w of out[to] ?? []) if (w !== from && layers[w] + 1 < best) best = layers[w] + 1;
  return best;
}
var DEFAULT_TOP_LAYER;
var init_layers = __esm({
  "src/relevance/learn/layers.ts"() {
    "use strict";
    DEFAULT_TOP_LAYER = 3;
  }
});

// src/relevance/train/where.ts
function whereText(w) {
  return `${w.column}${w.negate === true ? "!=" : "="}${w.value}`;
}
function parseWhere(values) {
  return values.map((v) => {
    const m = /^([^=!]+)(!?)=(.*)$/.exec(v);
    if (m === null || m[1].trim() === "") throw new UsageError(`--where wants COLUMN=VALUE or COLUMN!=VALUE, got ${JSON.stringify(v)}`);
    return { column: m[1].trim(), value: m[3].trim(), ...m[2] === "!" ? { negate: true } : {} };
  });
}
function whereColumns(where, header2, file) {
  return where.map((w) => {
    const i = header2.indexOf(w.column);
    if (i === -1) throw new UsageError(`--where ${whereText(w)}: ${file} has no column ${JSON.stringify(w.column)} (columns: ${header2.join(", ")})`);
    return [i, w];
  });
}
function rowMatches(fields, filters) {
  return filters.every(([i, w]) => (fields[i] ?? "").trim() === w.value !== (w.negate === true));
}
var init_where = __esm({
  "src/relevance/train/where.ts"() {
    "use strict";
    init_errors();
  }
});

// src/relevance/train/from-warc.ts
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
async function readLabels(path13, where = []) {
  let columns = null;
  let urlCol = 0;
  let labelCol = 1;
  let filterCols = [];
  const table = { columns: [], labels: /* @__PURE__ */ new Map(), rows: 0, skipped: 0, filteredOut: 0, duplicates: 0 };
  for await (const line of readLines(path13)) {
    if (line !== null && line.trim() === "") continue;
    if (columns === null) {
      if (line === null) throw new UsageError(`${path13}: header row is too long`);
      columns = line.split("	").map((c) => c.trim());
      if (columns.length < 2) throw new UsageError(`${path13}: expected a tab-separated header row with at least url and label columns, got ${JSON.stringify(line.slice(0, 100))}`);
      const lower = columns.map((c) => c.toLowerCase());
      if (lower.includes("url")) urlCol = lower.indexOf("url");
      if (lower.includes("label")) labelCol = lower.indexOf("label");
      filterCols = whereColumns(where, columns, path13);
      table.columns = columns;
      continue;
    }
    table.rows++;
    const fields = line?.split("	");
    const url = fields === void 0 ? null : canonicalize((fields[urlCol] ?? "").trim());
    const label = fields?.[labelCol]?.trim() ?? "";
    if (fields === void 0 || url === null || label === "") {
      table.skipped++;
      continue;
    }
    if (!rowMatches(fields, filterCols)) {
      table.filteredOut++;
      continue;
    }
    if (table.labels.has(url)) table.duplicates++;
    else table.labels.set(url, label);
  }
  if (columns === null) throw new UsageError(`${path13}: empty labels file`);
  return table;
}
async function readHosts(path13) {
  const hosts = /* @__PURE__ */ new Set();
  let no = 0;
  for await (const line of readLines(path13)) {
    no++;
    const s = (line ?? "").replace(/#.*/, "").trim();
    if (line !== null && s === "") continue;
    const url = line === null ? null : canonicalize(s.includes("://") ? s : `http://${s}/`);
    if (url === null) throw new UsageError(`${path13}:${no}: not a host name: ${JSON.stringify((line ?? "").slice(0, 100))}`);
    hosts.add(hostOf(url));
  }
  return hosts;
}
function header(res, name) {
  for (const [k, v] of res.headers) if (k.toLowerCase() === name) return v;
  return null;
}
function decodedBody(res) {
  const enc = (header(res, "content-encoding") ?? "identity").trim().toLowerCase();
  const cap = { maxOutputLength: MAX_BODY_BYTES };
  try {
    if (enc === "identity" || enc === "") return res.body;
    if (enc === "gzip" || enc === "x-gzip") return gunzipSync(res.body, cap);
    if (enc === "deflate") return inflateSync(res.body, cap);
    if (enc === "br") return brotliDecompressSync(res.body, cap);
  } catch {
    return null;
  }
  return null;
}
async function readWarc(opts) {
  const started = performance.now();
  const log = opts.log ?? (() => {
  });
  const table = opts.labels === void 0 ? null : await readLabels(opts.labels, opts.where ?? []);
  const labels = table?.labels ?? null;
  const positiveHosts = opts.positiveHosts === void 0 ? /* @__PURE__ */ new Set() : await readHosts(opts.positiveHosts);
  const negativeHosts = opts.negativeHosts === void 0 ? /* @__PURE__ */ new Set() : await readHosts(opts.negativeHosts);
  for (const h of positiveHosts) {
    if (negativeHosts.has(h)) throw new UsageError(`host ${h} is in both --positive-hosts and --negative-hosts`);
  }
  if (table !== null) {
    log(`labels: ${table.rows} rows, ${table.labels.size} used, ${table.filteredOut} filtered out, ${table.skipped} skipped, ${table.duplicates} duplicate URLs`);
    const targetRows = [...table.labels.values()].filter((l) => l === opts.target).length;
    if (targetRows === 0 && positiveHosts.size === 0) {
      const seen = [...new Set(table.labels.values())].slice(0, 20);
      throw new UsageError(`target ${JSON.stringify(opts.target)} is not a label of any used row of ${opts.labels} (labels: ${seen.join(", ") || "none"})`);
    }
  }
  const labelOf = (url) => {
    const l = labels?.get(url);
    if (l !== void 0) return l === opts.target ? 1 : 0;
    if (positiveHosts.size === 0 && negativeHosts.size === 0) return void 0;
    const host = hostOf(url);
    if (positiveHosts.has(host)) return 1;
    if (negativeHosts.has(host)) return 0;
    return void 0;
  };
  const index = await buildIndex(opts.warcs);
  const sources = labels === null ? [...index.entries.keys()] : [...labels.keys()].filter((u) => index.entries.has(u));
  const cap = opts.maxExamples ?? DEFAULT_MAX_EXAMPLES;
  const pageSample = new Reservoir(cap, 1);
  const linkSample = new Reservoir(cap, 2);
  const hubs = /* @__PURE__ */ new Map();
  const pageLinks = /* @__PURE__ */ new Map();
  const layerSample = new Reservoir(cap, 3);
  const counts = {
    warcResponses: index.responseRecords,
    labelRows: table?.rows ?? 0,
    labelRowsUsed: labels?.size ?? 0,
    labelRowsFilteredOut: table?.filteredOut ?? 0,
    labelledNotInWarc: labels === null ? 0 : labels.size - sources.length,
    sourcePages: sources.length,
    parsedPages: 0,
    skippedNotOk: 0,
    skippedNotHtml: 0,
    skippedUnreadable: 0,
    linksSeen: 0,
    linksFromLabels: 0,
    linksFromHosts: 0
  };
  let done = 0;
  for (const url of sources) {
    if (++done % PROGRESS_EVERY === 0) log(`warc: ${done}/${sources.length} pages read`);
    let res;
    try {
      res = await readResponse(index, url);
    } catch (err) {
      if (!(err instanceof FocuscrawlError)) throw err;
      counts.skippedUnreadable++;
      continue;
    }
    if (res === null || res.status < 200 || res.status > 299) {
      counts.skippedNotOk++;
      continue;
    }
    const contentType = header(res, "content-type");
    const mediaType = contentType?.split(";")[0].trim().toLowerCase() ?? "";
    if (mediaType !== "" && !HTML_TYPES.has(mediaType)) {
      counts.skippedNotHtml++;
      continue;
    }
    const body = decodedBody(res);
    if (body === null) {
      counts.skippedUnreadable++;
      continue;
    }
    const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1]?.toLowerCase() ?? null;
    const page = parseBody(body, url, charset);
    counts.parsedPages++;
    const pageLabel = labelOf(url);
    if (pageLabel !== void 0) pageSample.add({ features: pageFeatures(page, { segmenter: opts.segmenter }), label: pageLabel, grams: pageGrams(page) });
    const outLinks = opts.layers === true ? /* @__PURE__ */ new Set() : null;
    for (const link2 of page.links) {
      counts.linksSeen++;
      const target = canonicalize(link2.url);
      if (target === null || target === url) continue;
      const label = labelOf(target);
      if (outLinks !== null) {
        if (!(label === 1 && isBelow(url, target))) outLinks.add(target);
        layerSample.add({ anchor: link2.anchor, context: link2.context, url: target, parentUrl: url, parentTitle: page.title, parentRelevant: pageLabel === 1 });
      }
      if (label === 1 && !isBelow(url, target)) {
        const found = hubs.get(url);
        if (found === void 0) hubs.set(url, [target]);
        else if (found.length < 2 && !found.includes(target)) found.push(target);
      }
      if (label === void 0) continue;
      if (labels?.has(target)) counts.linksFromLabels++;
      else counts.linksFromHosts++;
      linkSample.add({ anchor: link2.anchor, context: link2.context, label, target, parentUrl: url, parentTitle: page.title, parentRelevant: pageLabel === 1 });
    }
    if (outLinks !== null) pageLinks.set(url, [...outLinks]);
  }
  let layerLinks;
  const top = opts.topLayer ?? DEFAULT_TOP_LAYER;
  if (opts.layers === true) {
    const ids = /* @__PURE__ */ new Map();
    for (const u of pageLinks.keys()) ids.set(u, ids.size);
    const out = [...pageLinks.values()].map((targets) => targets.map((t) => ids.get(t)).filter((t) => t !== void 0));
    const goals = [...ids].filter(([u]) => labelOf(u) === 1).map(([, id]) => id);
    const layers = graphLayers(out, goals, top);
    layerLinks = [];
    for (const { url: target, ...link2 } of layerSample.items) {
      const to = ids.get(target);
      let layer;
      if (to !== void 0) layer = linkLayer(out, layers, ids.get(link2.parentUrl), to, top);
      else if (!index.entries.has(target)) layer = top;
      else continue;
      layerLinks.push({ ...link2, url: target, layer });
    }
    const perLayer = Array.from({ length: top + 1 }, (_, k) => layerLinks.filter((l) => l.layer === k).length);
    log(`warc: ${layerLinks.length} layer examples (links by their target's layer 0..${top}: ${perLayer.join(", ")}) from ${ids.size} pages, ${goals.length} targets`);
  }
  let hubPositives = 0;
  const links = linkSample.items.map(({ target, ...example }) => {
    if (example.label === 0 && opts.hubLinks === true && (hubs.get(target) ?? []).some((t) => t !== example.parentUrl)) {
      hubPositives++;
      return { ...example, label: 1, url: target };
    }
    return { ...example, url: target };
  });
  if (opts.hubLinks === true) log(`warc: ${hubPositives} links to hub pages (pages linking to another target) relabelled positive`);
  if (pageSample.seen > cap || linkSample.seen > cap) {
    log(`warc: ${pageSample.seen} page and ${linkSample.seen} link examples, training on uniform samples of at most ${cap} each`);
  }
  return {
    source: "warc",
    files: [...opts.warcs, ...[opts.labels, opts.positiveHosts, opts.negativeHosts].filter((f) => f !== void 0)],
    pages: pageSample.items,
    links,
    counts,
    ...layerLinks === void 0 ? {} : { layerLinks, layerTop: top },
    options: {
      target: opts.target,
      ...opts.where && opts.where.length > 0 ? { where: opts.where.map(whereText) } : {},
      maxExamples: cap,
      ...opts.hubLinks === true ? { hubLinks: true } : {},
      ...opts.layers === true ? { layers: top } : {}
    },
    seconds: (performance.now() - started) / 1e3
  };
}
function isBelow(url, ancestor) {
  let u;
  let a;
  try {
    u = new URL(url);
    a = new URL(ancestor);
  } catch {
    return false;
  }
  if (u.host !== a.host) return false;
  const path13 = a.pathname;
  const last = path13.slice(path13.lastIndexOf("/") + 1);
  let dir;
  if (last === "") dir = path13;
  else if (/^(index|default|welcome|home)\.[a-z0-9]+$/i.test(last)) dir = path13.slice(0, path13.length - last.length);
  else if (last.startsWith("~") && !last.includes(".")) dir = `${path13}/`;
  else return false;
  return u.pathname.startsWith(dir) && u.pathname !== dir && u.pathname !== path13;
}
var HTML_TYPES, PROGRESS_EVERY;
var init_from_warc = __esm({
  "src/relevance/train/from-warc.ts"() {
    "use strict";
    init_errors();
    init_canonical();
    init_warc_index();
    init_body();
    init_features();
    init_model();
    init_layers();
    init_from_texts();
    init_where();
    HTML_TYPES = /* @__PURE__ */ new Set(["text/html", "application/xhtml+xml"]);
    PROGRESS_EVERY = 1e3;
  }
});

// src/commands/train.ts
var train_exports = {};
__export(train_exports, {
  TRAIN_SPEC: () => TRAIN_SPEC,
  runTrain: () => runTrain
});
function metricsLine(name, m) {
  if (m === void 0) return "";
  const auc2 = m.auc === null ? "" : `, AUC ${m.auc.toFixed(3)}`;
  return `${name} ${m.accuracy.toFixed(3)} (P ${m.precision.toFixed(2)} R ${m.recall.toFixed(2)}${auc2}, n ${m.n})`;
}
async function runTrain(argv, io = {}) {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const log = (line) => {
    stderr.write(`train: ${sanitizeForTerminal(line, LOG_LINE_MAX)}
`);
  };
  try {
    return await train(argv, stdout, log);
  } catch (err) {
    const code = err?.code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      stderr.write(`focuscrawl: FC_USAGE: ${sanitizeForTerminal(err.message.replace(/\s*\n\s*/g, " "), LOG_LINE_MAX)} (see focuscrawl train --help)
`);
      return exitStatusOf(err);
    }
    if (err instanceof FocuscrawlError) {
      stderr.write(`focuscrawl: ${err.code}: ${sanitizeForTerminal(err.message.replace(/\s*\n\s*/g, " "), LOG_LINE_MAX)}
`);
      return exitStatusOf(err);
    }
    stderr.write(`focuscrawl: internal error: ${err?.stack ?? String(err)}
`);
    return exitStatusOf(err);
  }
}
async function train(argv, stdout, log) {
  const { help, args } = parseCommand(TRAIN_SPEC, argv);
  if (help) {
    stdout.write(helpText(TRAIN_SPEC));
    return 0;
  }
  const values = {
    warc: args.strings("warc"),
    labels: args.string("labels"),
    where: args.has("where") ? args.strings("where") : void 0,
    "positive-hosts": args.string("positive-hosts"),
    "negative-hosts": args.string("negative-hosts"),
    "hub-links": args.bool("hub-links"),
    layers: args.bool("layers"),
    texts: args.strings("texts"),
    "text-field": args.string("text-field"),
    "label-field": args.string("label-field"),
    "context-field": args.string("context-field"),
    target: args.string("target"),
    out: args.string("out"),
    "feature-group": args.string("feature-group"),
    "balanced-links": args.bool("balanced-links")
  };
  const warcs = values.warc ?? [];
  const texts = values.texts ?? [];
  if (warcs.length > 0 === texts.length > 0) throw new UsageError("give either --warc FILE... or --texts FILE... (see --help)");
  const target = values.target?.trim();
  if (!target) throw new UsageError("--target LABEL is required (see --help)");
  if (!values.out) throw new UsageError("--out FILE is required (see --help)");
  const fromWarc = warcs.length > 0;
  const groupValue = values["feature-group"] ?? (fromWarc ? "4" : "2");
  const group = Number(groupValue);
  if (!/^[1-4]$/.test(groupValue) || !isFeatureGroup(group)) throw new UsageError(`--feature-group must be 1, 2, 3 or 4, got ${JSON.stringify(groupValue)}`);
  const balancedLinks = values["balanced-links"] ?? fromWarc;
  const domainTerms = args.number("domain-terms");
  const terms = args.number("terms");
  const maxExamples = args.number("max-examples");
  const classifier = args.string("classifier") ?? (fromWarc ? "nb" : "linear");
  let data;
  if (warcs.length > 0) {
    for (const f of ["text-field", "label-field", "context-field"]) {
      if (values[f] !== void 0) throw new UsageError(`--${f} applies to --texts, not --warc`);
    }
    const where = parseWhere(values.where ?? []);
    if (values.labels === void 0 && where.length > 0) throw new UsageError("--where filters the --labels file; give --labels FILE");
    if (values.labels === void 0 && values["positive-hosts"] === void 0 && values["negative-hosts"] === void 0) {
      throw new UsageError("--warc needs --labels FILE and/or --positive-hosts/--negative-hosts FILE (see --help)");
    }
    data = await readWarc({
      warcs,
      labels: values.labels,
      target,
      where,
      positiveHosts: values["positive-hosts"],
      negativeHosts: values["negative-hosts"],
      hubLinks: values["hub-links"] !== false,
      layers: values.layers === true,
      maxExamples,
      log
    });
  } else {
    for (const f of ["labels", "where", "positive-hosts", "negative-hosts", "hub-links", "layers"]) {
      if (values[f] !== void 0) throw new UsageError(`--${f} applies to --warc, not --texts`);
    }
    if (!values["text-field"] || !values["label-field"]) throw new UsageError("--texts needs --text-field F and --label-field F (see --help)");
    data = await readTexts({
      files: texts,
      textField: values["text-field"],
      labelField: values["label-field"],
      contextField: values["context-field"],
      target,
      maxExamples,
      log
    });
  }
  const { json } = fitModel(data, { target, group, domainTerms, terms, balancedLinks, classifier });
  await saveModel(values.out, json);
  const c = json.training.counts;
  const s = json.training.inSample;
  log(`target ${JSON.stringify(target)} from ${json.training.source}: ${c.pages} page examples (${c.pagePositives} positive), ${c.links} link examples (${c.linkPositives} positive), ${json.training.seconds.toFixed(1)} s`);
  log(`in-sample accuracy: ${[metricsLine("page", s.page), metricsLine("link", s.link), metricsLine("gaussian", s.gaussian), metricsLine("kernel", s.kernel), metricsLine("linear page", s.linearPage), metricsLine("linear link", s.linearLink)].filter((x) => x !== "").join("; ")}`);
  if (json.layers !== void 0) log(`layers: 0..${json.layers.top}, ${Object.keys(json.layers.classifier.features).length} features, links per layer ${json.layers.classifier.classCounts.join(", ")}`);
  log(`terms: ${json.terms.slice(0, 15).join(" ")}${json.terms.length > 15 ? " \u2026" : ""}`);
  log(`wrote ${values.out}`);
  return 0;
}
var WARC, TEXTS, COMMON, TRAIN_SPEC;
var init_train = __esm({
  "src/commands/train.ts"() {
    "use strict";
    init_args();
    init_errors();
    init_terminal();
    init_model();
    init_from_texts();
    init_from_warc();
    init_where();
    init_features();
    WARC = "From a WARC (pages parsed as the crawler parses them)";
    TEXTS = "From labelled texts (NDJSON, one object a line; malformed lines are skipped)";
    COMMON = "Common";
    TRAIN_SPEC = {
      name: "train",
      usage: [
        "train --warc FILE... --labels FILE --target LABEL [--where COL[!]=VAL]... [--positive-hosts FILE] [--negative-hosts FILE] --out MODEL.json [options]",
        "train --texts FILE.ndjson... --text-field F --label-field F --target LABEL [--context-field F] --out MODEL.json [options]"
      ],
      summary: "Fit a model for --model strategies: a page classifier (relevance judge), a Bernoulli Naive Bayes link-context classifier (Han et al. 2010, docs/algorithms.md#nb-link) and TF-IDF Naive Bayes link classifiers with Gaussian and kernel densities (Zou et al. 2009, docs/algorithms.md#bayes-kde).",
      flags: [
        { group: WARC, name: "warc", type: "string", value: "FILE", multiple: true, help: "WARC file (.warc or .warc.gz)" },
        { group: WARC, name: "labels", type: "string", value: "FILE", help: "TSV with a header row: url<TAB>label<TAB>...; labelled pages are page examples, links to labelled URLs link examples" },
        { group: WARC, name: "where", type: "string", value: "COL=VAL", multiple: true, help: "use only label rows whose column COL is VAL (COL!=VAL: is not VAL; all must hold); other rows are not used at all (keeps them unseen)" },
        { group: WARC, name: "positive-hosts", type: "string", value: "FILE", help: "links to these hosts (one a line) are positive examples (Han et al. 2010, algorithm 2: docs/algorithms.md#automatic-link-labels); pages on them are page examples when the labels file has no row" },
        { group: WARC, name: "negative-hosts", type: "string", value: "FILE", help: "links to these hosts are negative examples" },
        { group: WARC, name: "hub-links", type: "boolean", negatable: true, defaultText: "on", help: "also count as positive a link to a page that links to a target page other than the link's own page (a hub one step away; context-graph level 1); off: only links to target pages" },
        { group: WARC, name: "layers", type: "boolean", help: "also fit a layered link classifier (context graph, Diligenti et al. 2000): links labelled with their target's distance to a target page (0, 1, 2, 3+) in the WARC's link graph; needed by --strategy context-graph" },
        { group: TEXTS, name: "texts", type: "string", value: "FILE", multiple: true, help: "NDJSON file" },
        { group: TEXTS, name: "text-field", type: "string", value: "F", help: "field with the text: the anchor of a link example and the text of a page example" },
        { group: TEXTS, name: "label-field", type: "string", value: "F", help: "field with the label" },
        { group: TEXTS, name: "context-field", type: "string", value: "F", help: "optional field with the link context" },
        { group: COMMON, name: "target", type: "string", value: "LABEL", help: "the label to find (positive class)" },
        { group: COMMON, name: "out", type: "string", value: "FILE", help: "where to write the model (atomically)" },
        { group: COMMON, name: "feature-group", type: "choice", value: "1|2|3|4", choices: ["1", "2", "3", "4"], defaultText: "4 with --warc, 2 with --texts, whose examples have no URL or page", help: "link features: 1 anchor words, 2 anchor + context words + domain flags (Han et al. 2010, docs/algorithms.md#nb-link), 3 group 2 + the link's URL (path words, same-host, depth, extension flags), 4 group 3 + words of the title of the page it is on" },
        { group: COMMON, name: "balanced-links", type: "boolean", negatable: true, defaultText: "on with --warc, off with --texts", help: "class-balanced link classifier: each class's counts scaled to half the examples before smoothing (as if trained on a balanced set, like Han et al.'s, docs/algorithms.md#nb-link); off: the classes' own counts" },
        { group: COMMON, name: "domain-terms", type: "int", min: 0, max: 1e6, default: DEFAULT_DOMAIN_TERMS, help: "size of the mined domain dictionary" },
        { group: COMMON, name: "terms", type: "int", min: 1, max: 1e6, default: DEFAULT_TOPIC_TERMS, help: "discriminative terms stored as the model's topic" },
        { group: COMMON, name: "classifier", type: "choice", value: "nb|linear", choices: ["nb", "linear"], defaultText: "linear with --texts, nb with --warc", help: "page judge and nb-link/online link classifier: Bernoulli NB, or calibrated logistic regression on TF-IDF of character 1-3-grams (L2 by cross-validation, Platt scaling; the judge reads title, headings and content, calls a page of link density > 0.8 a hub, and the model's threshold is its held-out precision = recall point)" },
        { group: COMMON, name: "max-examples", type: "int", min: 1, max: 1e9, default: DEFAULT_MAX_EXAMPLES, help: "train on a uniform sample of at most N page and N link examples" }
      ],
      exitCodes: [
        [0, "written; also --help"],
        [1, "an internal error"],
        [2, "bad input: FC_USAGE (a bad flag, unreadable input, an --out that cannot be written), FC_BAD_MODEL, FC_BAD_WARC (a --warc file that is not a WARC file)"]
      ]
    };
  }
});

// src/tools/eval/metrics.ts
function parseLabels(tsv, where = [], file = "labels") {
  const lines2 = tsv.split(/\r?\n/);
  const rawHeader = (lines2[0] ?? "").replace(/^\uFEFF/, "").split("	").map((h) => h.trim());
  const header2 = rawHeader.map((h) => h.toLowerCase());
  const filters = whereColumns(where, rawHeader, file);
  const ui = header2.indexOf("url");
  const li = header2.indexOf("label");
  if (ui < 0 || li < 0) throw new TypeError(`labels header must name the columns url and label, got ${JSON.stringify(lines2[0]?.slice(0, 200) ?? "")}`);
  const labels = /* @__PURE__ */ new Map();
  let badRows = 0;
  let duplicates = 0;
  let filteredOut = 0;
  for (let i = 1; i < lines2.length; i++) {
    if (lines2[i].trim() === "") continue;
    const cols = lines2[i].split("	");
    if (!rowMatches(cols, filters)) {
      filteredOut++;
      continue;
    }
    const url = canonicalize((cols[ui] ?? "").trim());
    const label = (cols[li] ?? "").trim();
    if (url === null || label === "") {
      badRows++;
    } else if (labels.has(url)) {
      duplicates++;
    } else {
      labels.set(url, label);
    }
  }
  return { labels, badRows, duplicates, filteredOut };
}
function canon(v) {
  return typeof v === "string" ? canonicalize(v) : null;
}
var DEFAULT_AT, RECALL_LEVELS, Evaluator, CurveSampler;
var init_metrics2 = __esm({
  "src/tools/eval/metrics.ts"() {
    "use strict";
    init_where();
    init_canonical();
    DEFAULT_AT = [100, 200, 500, 1e3, 2e3];
    RECALL_LEVELS = [50, 80, 90];
    Evaluator = class {
      #labels;
      #target;
      #status;
      #targets;
      #at;
      #seen = /* @__PURE__ */ new Set();
      #found = /* @__PURE__ */ new Set();
      #pagesTo = /* @__PURE__ */ new Map();
      #harvestAt = /* @__PURE__ */ new Map();
      #pages = 0;
      #relevant = 0;
      #errors = 0;
      #duplicates = 0;
      #skippedStatus = 0;
      #unlabelled = 0;
      constructor(labels, opts) {
        this.#labels = labels;
        this.#target = opts.target;
        this.#status = opts.status ?? null;
        this.#at = [...opts.at ?? DEFAULT_AT].sort((a, b) => a - b);
        let reach = null;
        if (opts.reachable) {
          reach = /* @__PURE__ */ new Set();
          for (const u of opts.reachable) {
            const c = canonicalize(u);
            if (c !== null) reach.add(c);
          }
        }
        this.#targets = /* @__PURE__ */ new Set();
        for (const [url, label] of labels) if (label === opts.target && (reach === null || reach.has(url))) this.#targets.add(url);
      }
      /** The recall denominator. */
      get targets() {
        return this.#targets.size;
      }
      /** Account for one record; returns the curve point when it counted as a page. */
      add(record) {
        if (record === null || typeof record !== "object") return null;
        const r = record;
        if (r.type === "error") {
          this.#errors++;
          return null;
        }
        if (r.type !== "page") return null;
        const url = canon(r.url);
        const finalUrl = canon(r.finalUrl) ?? url;
        if (finalUrl === null) return null;
        if (this.#status !== null && r.status !== this.#status) {
          this.#skippedStatus++;
          return null;
        }
        if (this.#seen.has(finalUrl) || url !== null && this.#seen.has(url)) {
          this.#duplicates++;
          return null;
        }
        this.#seen.add(finalUrl);
        if (url !== null) this.#seen.add(url);
        this.#pages++;
        const labelled = this.#labels.has(finalUrl) ? finalUrl : url !== null && this.#labels.has(url) ? url : null;
        if (labelled === null) {
          this.#unlabelled++;
        } else if (this.#labels.get(labelled) === this.#target) {
          this.#relevant++;
          if (this.#targets.has(labelled)) this.#found.add(labelled);
        }
        const point = this.point();
        for (const level of RECALL_LEVELS) {
          if (!this.#pagesTo.has(level) && this.#targets.size > 0 && point.found * 100 >= level * this.#targets.size) this.#pagesTo.set(level, point.n);
        }
        if (this.#at.includes(point.n)) this.#harvestAt.set(point.n, point.harvest);
        return point;
      }
      /** The curve point at the current N (N = 0 gives harvest 0). */
      point() {
        const n = this.#pages;
        const found = this.#found.size;
        return {
          n,
          relevant: this.#relevant,
          found,
          harvest: n === 0 ? 0 : this.#relevant / n,
          recall: this.#targets.size === 0 ? 0 : found / this.#targets.size
        };
      }
      /** The summary so far. */
      summary() {
        const p = this.point();
        const harvestAt = {};
        for (const k of this.#at) harvestAt[String(k)] = this.#harvestAt.get(k) ?? null;
        return {
          target: this.#target,
          status: this.#status,
          pages: p.n,
          relevant: p.relevant,
          found: p.found,
          targets: this.#targets.size,
          harvest: p.harvest,
          recall: p.recall,
          f1: p.harvest + p.recall === 0 ? 0 : 2 * p.harvest * p.recall / (p.harvest + p.recall),
          pagesTo50: this.#pagesTo.get(50) ?? null,
          pagesTo80: this.#pagesTo.get(80) ?? null,
          pagesTo90: this.#pagesTo.get(90) ?? null,
          harvestAt,
          errors: this.#errors,
          duplicates: this.#duplicates,
          skippedStatus: this.#skippedStatus,
          unlabelled: this.#unlabelled
        };
      }
    };
    CurveSampler = class {
      #max;
      #stride = 1;
      #kept = [];
      #last = null;
      constructor(max) {
        if (!Number.isInteger(max) || max < 2) throw new TypeError(`CurveSampler max must be an integer >= 2, got ${max}`);
        this.#max = max;
      }
      /** Offer the next point (points arrive with increasing n). */
      add(p) {
        this.#last = p;
        if (p.n % this.#stride !== 0) return;
        this.#kept.push(p);
        if (this.#kept.length > this.#max) {
          this.#stride *= 2;
          this.#kept = this.#kept.filter((q) => q.n % this.#stride === 0);
        }
      }
      /** The kept points in order, ending with the latest one. */
      points() {
        const out = [...this.#kept];
        if (this.#last !== null && out[out.length - 1] !== this.#last) out.push(this.#last);
        return out;
      }
    };
  }
});

// src/tools/eval/plot.ts
import * as vega from "vega";
function downsample(points, max) {
  if (points.length <= max) return points;
  if (max < 2) return points.slice(-1);
  const out = [];
  const step = (points.length - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(points[Math.round(i * step)]);
  return out;
}
function panel(field, title, axisTitle, width, height) {
  return {
    type: "group",
    name: `${field}-panel`,
    title: { text: title, anchor: "start" },
    encode: { update: { width: { value: width }, height: { value: height } } },
    scales: [{ name: "y", type: "linear", domain: [0, 1], range: [height, 0], zero: true }],
    axes: [
      { orient: "bottom", scale: "x", title: "pages fetched", grid: true, tickCount: 6 },
      { orient: "left", scale: "y", title: axisTitle, format: ".0%", grid: true, tickCount: 5 }
    ],
    marks: [
      {
        type: "group",
        from: { facet: { name: `${field}-series`, data: "points", groupby: "run" } },
        marks: [
          {
            type: "line",
            from: { data: `${field}-series` },
            sort: { field: "datum.n" },
            encode: {
              enter: {
                x: { scale: "x", field: "n" },
                y: { scale: "y", field },
                stroke: { scale: "color", field: "run" },
                strokeWidth: { value: 2 }
              }
            }
          }
        ]
      }
    ]
  };
}
async function plotCurves(series, opts = {}) {
  const maxPoints = opts.maxPoints ?? 500;
  const width = opts.width ?? 360;
  const height = opts.height ?? 260;
  const values = [];
  for (const s of series) {
    for (const p of downsample(s.points, maxPoints)) values.push({ run: s.name, n: p.n, harvest: p.harvest, recall: p.recall });
  }
  const spec = {
    $schema: "https://vega.github.io/schema/vega/v6.json",
    background: "white",
    padding: 12,
    autosize: "pad",
    ...opts.title ? { title: { text: opts.title } } : {},
    layout: { columns: 2, padding: 36, bounds: "full", align: "each" },
    data: [{ name: "points", values }],
    scales: [
      { name: "x", type: "linear", domain: { data: "points", field: "n" }, range: [0, width], zero: true, nice: true },
      { name: "color", type: "ordinal", domain: series.map((s) => s.name), range: "category" }
    ],
    legends: [{ stroke: "color", title: "run", orient: "right", symbolType: "stroke" }],
    marks: [
      panel("harvest", "Harvest rate", "harvest rate (relevant / pages)", width, height),
      panel("recall", "Target recall", "recall (targets found / all)", width, height)
    ]
  };
  const view = new vega.View(vega.parse(spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
var init_plot = __esm({
  "src/tools/eval/plot.ts"() {
    "use strict";
  }
});

// src/commands/eval.ts
var eval_exports = {};
__export(eval_exports, {
  CURVE_POINTS: () => CURVE_POINTS,
  EVAL_SPEC: () => EVAL_SPEC,
  MAX_LINE: () => MAX_LINE,
  PLOT_POINTS: () => PLOT_POINTS,
  atFlag: () => atFlag,
  curveLine: () => curveLine,
  emit: () => emit,
  intFlag: () => intFlag,
  loadLabels: () => loadLabels,
  loadReachable: () => loadReachable,
  readRecords: () => readRecords,
  reportError: () => reportError,
  runEval: () => runEval,
  scoreRun: () => scoreRun,
  seriesName: () => seriesName,
  summaryLine: () => summaryLine2,
  writePlot: () => writePlot
});
import { constants as constants2, createReadStream as createReadStream4 } from "node:fs";
import { access as access2, readFile as readFile4, stat as stat6, writeFile as writeFile5 } from "node:fs/promises";
import path10 from "node:path";
import ndjson from "ndjson";
function settle(emitter, event) {
  return new Promise((resolve2) => {
    const done = () => {
      emitter.off(event, done);
      emitter.off("close", done);
      emitter.off("error", done);
      resolve2();
    };
    emitter.on(event, done);
    emitter.on("close", done);
    emitter.on("error", done);
  });
}
async function readRecords(input, onRecord, onMalformed, maxLine = MAX_LINE) {
  const parser = ndjson.parse({ strict: true, maxLength: maxLine, skipOverflow: true });
  parser.on("data", (v) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) onRecord(v);
    else onMalformed(`not a JSON object: ${JSON.stringify(v).slice(0, 50)}`);
  });
  parser.on("error", (err) => {
    onMalformed(err.message === "stream.push() after EOF" ? "line after a `null` line (the parser stopped there)" : err.message);
  });
  let overflowing = false;
  const checkOverflow = () => {
    const now = parser.overflow === true;
    if (now && !overflowing) onMalformed(`a line longer than ${maxLine} characters (skipped)`);
    overflowing = now;
  };
  const ended = settle(parser, "end");
  for await (const chunk of input) {
    const more = parser.write(chunk);
    checkOverflow();
    if (!more) {
      await settle(parser, "drain");
      checkOverflow();
    }
  }
  parser.end();
  await ended;
}
async function scoreRun(name, input, cfg, warn, onCurve) {
  const statuses = cfg.status === null ? [null] : [null, cfg.status];
  const views = statuses.map((status) => ({
    status,
    ev: new Evaluator(cfg.labels, { target: cfg.target, status, reachable: cfg.reachable, at: cfg.at }),
    grid: cfg.every === null ? new CurveSampler(CURVE_POINTS) : null,
    plot: new CurveSampler(PLOT_POINTS),
    last: null
  }));
  let malformed = 0;
  await readRecords(
    input,
    (rec) => {
      for (const v of views) {
        const p = v.ev.add(rec);
        if (p === null) continue;
        v.last = p;
        v.plot.add(p);
        if (v.grid !== null) v.grid.add(p);
        else if (p.n % cfg.every === 0) onCurve?.(v.status, p);
      }
    },
    (why) => {
      malformed++;
      if (malformed <= REPORT_MALFORMED) warn(`${name}: skipped a malformed line: ${why}`);
    }
  );
  if (malformed > REPORT_MALFORMED) warn(`${name}: ${malformed} malformed lines skipped in all`);
  return {
    name,
    malformed,
    views: views.map((v) => {
      if (v.grid === null && v.last !== null && v.last.n % cfg.every !== 0) onCurve?.(v.status, v.last);
      return { summary: v.ev.summary(), curve: v.grid?.points() ?? [], plot: v.plot.points() };
    })
  };
}
function curveLine(run, status, p) {
  return `${JSON.stringify({ type: "curve", run, status, n: p.n, harvest: p.harvest, recall: p.recall, relevant: p.relevant, found: p.found })}
`;
}
function summaryLine2(run, malformed, s) {
  return `${JSON.stringify({ type: "summary", run, ...s, malformed })}
`;
}
function seriesName(run, status) {
  return status === null ? run : `${run} [status ${status}]`;
}
async function writePlot(file, runs, title) {
  const series = [];
  for (const r of runs) {
    const filtered = r.views.filter((v) => v.summary.status !== null);
    if (filtered.length > 0) for (const v of filtered) series.push({ name: r.name, points: v.plot });
    else for (const v of r.views) series.push({ name: seriesName(r.name, v.summary.status), points: v.plot });
  }
  const status = runs.flatMap((r) => r.views).find((v) => v.summary.status !== null)?.summary.status;
  await writeFile5(file, await plotCurves(series, { title: status === void 0 ? title : `${title} (pages with status ${status})` }));
}
async function emit(out, text) {
  if (!out.write(text)) await settle(out, "drain");
}
function intFlag(name, value, min = 0) {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}
function atFlag(value) {
  if (value === void 0) return DEFAULT_AT;
  return [...new Set(value.split(",").map((k) => intFlag("at", k.trim(), 1)))].sort((a, b) => a - b);
}
async function loadLabels(file, target, warn, where = []) {
  let text;
  try {
    text = await readFile4(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read labels ${file}: ${err.code ?? err.message}`, { cause: err });
  }
  let parsed;
  try {
    parsed = parseLabels(text, where, file);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${file}: ${err.message}`, { cause: err });
  }
  const known = new Set(parsed.labels.values());
  if (!known.has(target)) {
    throw new UsageError(`no URL in ${file} has the label ${JSON.stringify(target)} (labels: ${[...known].slice(0, 20).join(", ")})`);
  }
  if (parsed.badRows > 0) warn(`${file}: ${parsed.badRows} rows without an http(s) URL or a label skipped`);
  if (parsed.duplicates > 0) warn(`${file}: ${parsed.duplicates} repeated URLs (the first label counts)`);
  if (where.length > 0) warn(`${file}: ${parsed.labels.size} labelled URLs kept by ${where.map((w) => `--where ${whereText(w)}`).join(" ")}, ${parsed.filteredOut} rows left out`);
  return parsed.labels;
}
async function loadReachable(file) {
  if (file === void 0) return null;
  try {
    const text = await readFile4(file, "utf8");
    return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
  } catch (err) {
    throw new UsageError(`cannot read --reachable ${file}: ${err.code ?? err.message}`, { cause: err });
  }
}
async function checkInput(file) {
  try {
    await access2(file, constants2.R_OK);
    if (!(await stat6(file)).isFile()) throw Object.assign(new Error("not a file"), { code: "not a file" });
  } catch (err) {
    throw new UsageError(`cannot read --input ${file}: ${err.code ?? err.message}`, { cause: err });
  }
}
function reportError(err, cmd, stderr) {
  const e = err;
  const oneLine = (s) => sanitizeForTerminal(String(s).replace(/\s*\n\s*/g, " "), LOG_LINE_MAX);
  if (typeof e?.code === "string" && e.code.startsWith("ERR_PARSE_ARGS")) {
    stderr.write(`focuscrawl ${cmd}: ${oneLine(e.message)} (try focuscrawl ${cmd} --help)
`);
    return exitStatusOf(err);
  }
  if (err instanceof FocuscrawlError) {
    stderr.write(`focuscrawl ${cmd}: ${err.code}: ${oneLine(err.message)}
`);
    return exitStatusOf(err);
  }
  stderr.write(`focuscrawl ${cmd}: ${oneLine(e?.stack ?? err)}
`);
  return exitStatusOf(err);
}
async function runEval(argv, io = {}) {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const warn = (line) => void stderr.write(`focuscrawl eval: ${sanitizeForTerminal(line, LOG_LINE_MAX)}
`);
  try {
    const { help, args } = parseCommand(EVAL_SPEC, argv);
    if (help) {
      await emit(stdout, helpText(EVAL_SPEC));
      return 0;
    }
    const values = {
      labels: args.string("labels"),
      where: args.strings("where"),
      target: args.string("target"),
      input: args.strings("input"),
      name: args.strings("name"),
      reachable: args.string("reachable"),
      plot: args.string("plot"),
      title: args.string("title")
    };
    if (values.labels === void 0) throw new UsageError("--labels FILE is required");
    if (values.target === void 0 || values.target === "") throw new UsageError("--target LABEL is required");
    const inputs = values.input ?? [];
    const names = values.name ?? [];
    if (names.length > Math.max(1, inputs.length) || inputs.length > 1 && names.length > 0 && names.length !== inputs.length) {
      throw new UsageError(`give one --name per --input (${inputs.length} inputs, ${names.length} names)`);
    }
    const runNames = inputs.length === 0 ? [names[0] ?? "run"] : inputs.map((f, i) => names[i] ?? path10.basename(f).replace(/\.(nd)?jsonl?$/i, ""));
    if (new Set(runNames).size !== runNames.length) throw new UsageError(`run names must differ: ${runNames.join(", ")}`);
    if (inputs.length === 0 && stdin.isTTY === true) throw new UsageError("no input: pipe crawl NDJSON to stdin or give --input FILE");
    const status = args.number("status") ?? null;
    const at = atFlag(args.string("at"));
    const every = args.number("every") ?? null;
    for (const f of inputs) await checkInput(f);
    const reachable = await loadReachable(values.reachable);
    const where = parseWhere(values.where ?? []);
    const cfg = { labels: await loadLabels(values.labels, values.target, warn, where), target: values.target, status, reachable, at, every };
    const runs = [];
    for (let i = 0; i < runNames.length; i++) {
      const name = runNames[i];
      const input = inputs.length === 0 ? stdin : createReadStream4(inputs[i]);
      const run = await scoreRun(name, input, cfg, warn, (status2, p) => void stdout.write(curveLine(name, status2, p)));
      for (const v of run.views) for (const p of v.curve) await emit(stdout, curveLine(name, v.summary.status, p));
      for (const v of run.views) await emit(stdout, summaryLine2(name, run.malformed, v.summary));
      runs.push(run);
    }
    if (values.plot !== void 0) await writePlot(values.plot, runs, values.title ?? `target: ${values.target}`);
    return 0;
  } catch (err) {
    return reportError(err, "eval", stderr);
  }
}
var EVAL_SPEC, CURVE_POINTS, PLOT_POINTS, MAX_LINE, REPORT_MALFORMED;
var init_eval = __esm({
  "src/commands/eval.ts"() {
    "use strict";
    init_args();
    init_errors();
    init_where();
    init_terminal();
    init_metrics2();
    init_plot();
    EVAL_SPEC = {
      name: "eval",
      usage: ["eval --labels FILE --target LABEL [options] < pages.ndjson"],
      summary: "Score crawl output against labels: harvest rate and target recall after every N pages, pages needed to reach 50/80/90 % of the targets, harvest@K.",
      flags: [
        { group: "Options", name: "labels", type: "string", value: "FILE", help: "labels TSV with a header row: url<TAB>label[<TAB>...]" },
        { group: "Options", name: "where", type: "string", value: "COL=VAL", multiple: true, help: "score against the rows whose column COL is VAL only (COL!=VAL: is not VAL); other rows' URLs count as unlabelled" },
        { group: "Options", name: "target", type: "string", value: "LABEL", help: "the label of on-topic pages" },
        { group: "Options", name: "input", type: "string", value: "FILE", multiple: true, defaultText: "stdin", help: "crawl NDJSON to score (several: several runs)" },
        { group: "Options", name: "name", type: "string", value: "RUN", multiple: true, defaultText: "the file name", help: "the run's name, one per --input" },
        { group: "Options", name: "status", type: "int", min: 100, max: 599, help: "also score counting only pages with HTTP status N (both views are printed)" },
        { group: "Options", name: "reachable", type: "string", value: "FILE", help: "recall counts only target URLs listed in FILE (one URL a line)" },
        { group: "Options", name: "at", type: "string", value: "K,K,...", default: DEFAULT_AT.join(","), help: "harvest@K checkpoints" },
        { group: "Options", name: "every", type: "int", min: 1, max: 1e12, defaultText: "25 to 50 evenly spaced lines per run", help: "a curve line every N pages" },
        { group: "Options", name: "plot", type: "string", value: "FILE", help: "write an SVG of harvest and recall against pages" },
        { group: "Options", name: "title", type: "string", value: "TEXT", help: "title of the plot" }
      ],
      notes: `Pages: every {"type":"page"} record, any status, each URL once (first
occurrence); error records are not pages. Output: {"type":"curve",...}
lines, then one {"type":"summary",...} line per run and view.`,
      exitCodes: [
        [0, "done (malformed input lines included); also --help"],
        [1, "the plot cannot be written, an internal error"],
        [2, "bad input: FC_USAGE (a bad flag, unreadable labels or input)"]
      ]
    };
    CURVE_POINTS = 50;
    PLOT_POINTS = 500;
    MAX_LINE = 64 * 1024 * 1024;
    REPORT_MALFORMED = 5;
  }
});

// src/tools/eval/oracle.ts
async function readLinkGraph(warcs, opts = {}) {
  const index = await buildIndex(warcs);
  const skipExtension = compileSkipExtensions(opts.skipExtensions);
  const robots = new RobotsCache({
    userAgent: "focuscrawl",
    capacity: 1e5,
    fetchRobots: async (robotsUrl) => {
      const key = canonicalize(robotsUrl);
      const res = key === null || !index.entries.has(key) ? null : await readResponse(index, key).catch(() => null);
      return res === null ? { status: 404, body: "" } : { status: res.status, body: (decodedBody(res) ?? Buffer.alloc(0)).toString("utf8") };
    }
  });
  const ids = /* @__PURE__ */ new Map();
  const urls = [];
  const idOf = (url) => {
    let id = ids.get(url);
    if (id === void 0) {
      id = urls.length;
      ids.set(url, id);
      urls.push(url);
    }
    return id;
  };
  const out = [];
  const status = [];
  const pages = [];
  const edgeLinks = [];
  let htmlPages = 0;
  for (const url of index.entries.keys()) {
    let res;
    try {
      res = await readResponse(index, url);
    } catch (err) {
      if (err instanceof FocuscrawlError) continue;
      throw err;
    }
    const from0 = idOf(url);
    status[from0] = res?.status ?? 0;
    if (res !== null && res.status >= 300 && res.status < 400) {
      const location = header(res, "location");
      let target = null;
      try {
        target = location === null ? null : canonicalize(new URL(location, url).href);
      } catch {
        target = null;
      }
      out[from0] = target !== null && target !== url && index.entries.has(target) && (await robots.check(target)).allowed ? [idOf(target)] : [];
      if (opts.keepPages === true) edgeLinks[from0] = out[from0].map(() => []);
      continue;
    }
    if (res === null || res.status < 200 || res.status > 299) continue;
    const { type, charset } = parseContentType(header(res, "content-type"));
    if (type !== null && !HTML_TYPES2.has(type)) continue;
    const body = decodedBody(res);
    if (body === null) continue;
    const page = parseBody(body, url, charset);
    const from = from0;
    htmlPages++;
    const edges = /* @__PURE__ */ new Map();
    if (!page.nofollow) {
      for (const link2 of page.links) {
        if (link2.nofollow) continue;
        const target = canonicalize(link2.url);
        if (target === null || target === url || opts.missing !== true && !index.entries.has(target)) continue;
        if (skipExtension !== null && skipExtension(target)) continue;
        if (!edges.has(idOf(target)) && !(await robots.check(target)).allowed) continue;
        const to = idOf(target);
        const links = edges.get(to);
        if (links === void 0) edges.set(to, [link2]);
        else links.push(link2);
      }
    }
    out[from] = [...edges.keys()];
    if (opts.keepPages === true) {
      pages[from] = page;
      edgeLinks[from] = [...edges.values()];
    }
  }
  for (let i = 0; i < urls.length; i++) {
    out[i] ??= [];
    status[i] ??= index.entries.has(urls[i]) ? 0 : NOT_ARCHIVED;
  }
  return { urls, ids, out, status, htmlPages, ...opts.keepPages === true ? { pages, edgeLinks } : {} };
}
function seedIds(graph, urls) {
  return [...new Set(urls.map((u) => canonicalize(u)).filter((u) => u !== null))].map((u) => graph.ids.get(u)).filter((id) => id !== void 0);
}
function less(a, b) {
  return a[0] < b[0] || a[0] === b[0] && a[1] < b[1];
}
function simulateCrawl(out, seeds, policy) {
  const order = [];
  const seq = /* @__PURE__ */ new Map();
  const heap = new KeyedHeap();
  const discover = (v) => {
    if (seq.has(v)) return;
    seq.set(v, seq.size);
    heap.push([policy.key(v), seq.get(v), v]);
  };
  for (const s of seeds) discover(s);
  for (let e = heap.pop(); e !== void 0; e = heap.pop()) {
    const [key, n, v] = e;
    const now = policy.key(v);
    if (now > key) {
      heap.push([now, n, v]);
      continue;
    }
    order.push(v);
    policy.fetched?.(v);
    for (const t of out[v] ?? []) discover(t);
  }
  return order;
}
function distanceTo(into, goals) {
  const dist = new Float64Array(into.length).fill(Infinity);
  const queue = [];
  for (const g of goals) {
    dist[g] = 0;
    queue.push(g);
  }
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    for (const u of into[v] ?? []) {
      if (dist[u] === Infinity) {
        dist[u] = dist[v] + 1;
        queue.push(u);
      }
    }
  }
  return dist;
}
function reversed(out) {
  const into = out.map(() => []);
  out.forEach((links, from) => {
    for (const t of links) into[t].push(from);
  });
  return into;
}
function linkOracle(isTarget) {
  return { key: (v) => isTarget(v) ? 0 : 1 };
}
function layerOracle(out, targets, layers) {
  const dist = distanceTo(reversed(out), targets);
  return { key: (v) => dist[v] <= layers ? dist[v] : layers + 1 };
}
function graphOracle(out, targets) {
  const into = reversed(out);
  const remaining = new Set(targets);
  let dist = distanceTo(into, remaining);
  return {
    key: (v) => dist[v],
    fetched: (v) => {
      if (remaining.delete(v)) dist = distanceTo(into, remaining);
    }
  };
}
var HTML_TYPES2, NOT_ARCHIVED, KeyedHeap;
var init_oracle = __esm({
  "src/tools/eval/oracle.ts"() {
    "use strict";
    init_errors();
    init_extensions();
    init_http();
    init_warc_index();
    init_robots();
    init_body();
    init_from_warc();
    init_canonical();
    HTML_TYPES2 = /* @__PURE__ */ new Set(["text/html", "application/xhtml+xml"]);
    NOT_ARCHIVED = -1;
    KeyedHeap = class {
      #h = [];
      get size() {
        return this.#h.length;
      }
      push(e) {
        const h = this.#h;
        h.push(e);
        for (let i = h.length - 1; i > 0; ) {
          const up = i - 1 >> 1;
          if (!less(h[i], h[up])) break;
          [h[i], h[up]] = [h[up], h[i]];
          i = up;
        }
      }
      pop() {
        const h = this.#h;
        const top = h[0];
        const last = h.pop();
        if (h.length > 0 && last !== void 0) {
          h[0] = last;
          for (let i = 0; ; ) {
            const l = 2 * i + 1;
            const r = l + 1;
            let m = i;
            if (l < h.length && less(h[l], h[m])) m = l;
            if (r < h.length && less(h[r], h[m])) m = r;
            if (m === i) break;
            [h[i], h[m]] = [h[m], h[i]];
            i = m;
          }
        }
        return top;
      }
    };
  }
});

// src/commands/compare.ts
var compare_exports = {};
__export(compare_exports, {
  COMPARE_SPEC: () => COMPARE_SPEC,
  GRAPH_ORACLE_MAX_WORK: () => GRAPH_ORACLE_MAX_WORK,
  markdownTable: () => markdownTable,
  runCompare: () => runCompare
});
import { spawn } from "node:child_process";
import { createReadStream as createReadStream5, createWriteStream as createWriteStream2 } from "node:fs";
import { mkdir as mkdir4, mkdtemp, rm as rm4 } from "node:fs/promises";
import os2 from "node:os";
import path11 from "node:path";
import { Readable as Readable2 } from "node:stream";
import { pipeline as pipeline4 } from "node:stream/promises";
import { fileURLToPath } from "node:url";
async function crawl(args, outFile) {
  const child = spawn(process.execPath, [BIN, "crawl", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d) => {
    stderr = (stderr + d).slice(-STDERR_CAP);
  });
  const exited = new Promise((resolve2) => {
    child.on("error", (err) => {
      stderr += `cannot start the crawler: ${err.message}`;
      resolve2(1);
    });
    child.on("close", (code, signal) => resolve2(code ?? (signal === null ? 1 : 128)));
  });
  await pipeline4(child.stdout, createWriteStream2(outFile));
  return { code: await exited, stderr };
}
function fmtPct(x) {
  return x === null ? "\u2014" : `${(100 * x).toFixed(1)}%`;
}
function fmtInt(x) {
  return x === null ? "\u2014" : String(x);
}
function markdownTable(rows, at) {
  const reached = at.filter((k) => rows.some((r) => r.summary.pages >= k));
  const base = rows[0]?.summary.pagesTo80 ?? null;
  const baseName = rows[0]?.run ?? "";
  const head = ["run", "pages", "relevant", "to 50%", "to 80%", "to 90%", ...reached.map((k) => `harvest@${k}`), "harvest", "recall", "F1", `to 80% vs ${baseName}`];
  const lines2 = [`| ${head.join(" | ")} |`, `|${head.map((_, i) => i === 0 ? "---" : "---:").join("|")}|`];
  for (const { run, summary: s } of rows) {
    const ratio = base === null || s.pagesTo80 === null ? "\u2014" : `${(s.pagesTo80 / base).toFixed(2)}\xD7`;
    const cells = [
      run,
      String(s.pages),
      String(s.relevant),
      fmtInt(s.pagesTo50),
      fmtInt(s.pagesTo80),
      fmtInt(s.pagesTo90),
      ...reached.map((k) => fmtPct(s.harvestAt[String(k)] ?? null)),
      fmtPct(s.harvest),
      fmtPct(s.recall),
      s.f1.toFixed(3),
      ratio
    ];
    lines2.push(`| ${cells.join(" | ")} |`);
  }
  return `${lines2.join("\n")}
`;
}
async function oracleRuns(warcs, seedUrls, cfg, maxPages, warn) {
  const t0 = Date.now();
  const graph = await readLinkGraph(warcs);
  const seeds = seedIds(graph, seedUrls);
  if (seeds.length === 0) {
    warn("--oracle: no seed is an archived page; no oracle runs");
    return [];
  }
  const targets = graph.urls.flatMap((u, id) => cfg.labels.get(u) === cfg.target ? [id] : []);
  const isTarget = new Set(targets);
  const edges = graph.out.reduce((n, e) => n + e.length, 0);
  const policies = [
    ["oracle-link", linkOracle((v) => isTarget.has(v))],
    ["oracle-layer1", layerOracle(graph.out, targets, 1)],
    ["oracle-layer2", layerOracle(graph.out, targets, 2)]
  ];
  if (targets.length * (graph.urls.length + edges) <= GRAPH_ORACLE_MAX_WORK) policies.push(["oracle-graph", graphOracle(graph.out, targets)]);
  else warn(`--oracle: oracle-graph left out: ${targets.length} targets \xD7 ${graph.urls.length + edges} pages and links is too much work`);
  const runs = [];
  for (const [name, policy] of policies) {
    const order = simulateCrawl(graph.out, seeds, policy).slice(0, maxPages);
    const records = order.map((v) => `${JSON.stringify({ type: "page", url: graph.urls[v], finalUrl: graph.urls[v], status: graph.status[v] })}
`);
    runs.push(await scoreRun(name, Readable2.from(records), cfg, warn));
  }
  warn(`oracles: ${graph.htmlPages} archived HTML pages, ${edges} links between archived pages, ${targets.length} ${cfg.target} pages; ${((Date.now() - t0) / 1e3).toFixed(1)} s`);
  return runs;
}
async function runCompare(argv, io = {}) {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const warn = (text) => void stderr.write(`focuscrawl compare: ${text.split("\n").map((line) => sanitizeForTerminal(line, LOG_LINE_MAX)).join("\n")}
`);
  let tmp = null;
  let replay = null;
  try {
    const { help, args } = parseCommand(COMPARE_SPEC, argv);
    if (help) {
      await emit(stdout, helpText(COMPARE_SPEC));
      return 0;
    }
    const positionals = args.positionals;
    const maxPages = args.number("max-pages");
    const concurrency = args.number("concurrency");
    const values = {
      warc: args.strings("warc"),
      labels: args.string("labels"),
      where: args.strings("where"),
      target: args.string("target"),
      seed: args.strings("seed"),
      seeds: args.string("seeds"),
      strategies: args.string("strategies"),
      topic: args.string("topic"),
      model: args.string("model"),
      "max-pages": maxPages === void 0 ? void 0 : String(Number.isFinite(maxPages) ? maxPages : 0),
      concurrency: concurrency === void 0 ? void 0 : String(concurrency),
      reachable: args.string("reachable"),
      "out-dir": args.string("out-dir"),
      plot: args.string("plot"),
      oracle: args.bool("oracle")
    };
    const dashDash = argv.indexOf("--");
    if (positionals.length > 0 && (dashDash < 0 || argv.length - dashDash - 1 !== positionals.length)) {
      throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (crawl flags go after --)`);
    }
    const warcs = values.warc ?? [];
    if (warcs.length === 0) throw new UsageError("--warc FILE is required");
    if (values.labels === void 0) throw new UsageError("--labels FILE is required");
    if (values.target === void 0 || values.target === "") throw new UsageError("--target LABEL is required");
    if ((values.seed ?? []).length === 0 && values.seeds === void 0) throw new UsageError("give --seed URL or --seeds FILE");
    const strategies = (values.strategies ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
    if (strategies.length === 0) throw new UsageError("--strategies S,S,... is required");
    if (new Set(strategies).size !== strategies.length) throw new UsageError(`--strategies repeats a name: ${strategies.join(",")}`);
    const status = args.number("status") ?? null;
    const at = atFlag(args.string("at"));
    const reachable = await loadReachable(values.reachable);
    const cfg = { labels: await loadLabels(values.labels, values.target, warn, parseWhere(values.where ?? [])), target: values.target, status, reachable, at, every: null };
    const outDir = values["out-dir"];
    if (outDir !== void 0) await mkdir4(outDir, { recursive: true });
    const plotFile = values.plot ?? (outDir === void 0 ? void 0 : path11.join(outDir, "compare.svg"));
    const common = [];
    for (const s of values.seed ?? []) common.push("--seed", s);
    if (values.seeds !== void 0) common.push("--seeds", values.seeds);
    if (values.topic !== void 0) common.push("--topic", values.topic);
    if (values.model !== void 0) common.push("--model", values.model);
    if (values["max-pages"] !== void 0) common.push("--max-pages", values["max-pages"]);
    if (values.concurrency !== void 0) common.push("--concurrency", values.concurrency);
    common.push(...positionals);
    try {
      replay = await createReplayServer({ warcs });
    } catch (err) {
      throw new UsageError(`cannot replay ${warcs.join(", ")}: ${err.message}`, { cause: err });
    }
    tmp = await mkdtemp(path11.join(os2.tmpdir(), "focuscrawl-compare-"));
    warn(`replaying ${replay.records} archived URLs at ${replay.url}`);
    const runs = [];
    let failed = 0;
    for (const strategy of strategies) {
      const file = path11.join(outDir ?? tmp, `${strategy.replace(/[^A-Za-z0-9._-]/g, "_")}.ndjson`);
      const store = path11.join(tmp, `store-${runs.length + failed}`);
      const t0 = Date.now();
      const out = await crawl([...common, "--strategy", strategy, "--proxy", replay.url, "--store", store, "--fresh", "--quiet"], file);
      await rm4(store, { recursive: true, force: true });
      if (out.code !== 0) {
        failed++;
        warn(`${strategy}: the crawl failed (exit ${out.code}):
${out.stderr.trimEnd()}`);
        continue;
      }
      const run = await scoreRun(strategy, createReadStream5(file), cfg, warn);
      warn(`${strategy}: ${run.views[0].summary.pages} pages in ${((Date.now() - t0) / 1e3).toFixed(1)} s${outDir === void 0 ? "" : ` -> ${file}`}`);
      for (const v of run.views) await emit(stdout, summaryLine2(strategy, run.malformed, v.summary));
      runs.push(run);
    }
    if (values.oracle === true) {
      const seeds = [...values.seed ?? [], ...values.seeds === void 0 ? [] : await readSeedsFile(values.seeds)];
      for (const run of await oracleRuns(warcs, seeds, cfg, maxPages ?? Infinity, warn)) {
        for (const v of run.views) await emit(stdout, summaryLine2(run.name, run.malformed, v.summary));
        runs.push(run);
      }
    }
    if (runs.length > 0) {
      const views = runs[0].views.length;
      for (let i = 0; i < views; i++) {
        const status2 = runs[0].views[i].summary.status;
        const caption = status2 === null ? "all pages" : `pages with status ${status2}`;
        stderr.write(`
${cfg.target}, ${caption}:

${markdownTable(runs.map((r) => ({ run: r.name, summary: r.views[i].summary })), cfg.at)}
`);
      }
      if (plotFile !== void 0) {
        await writePlot(plotFile, runs, `${cfg.target}: ${runs.map((r) => r.name).join(" vs ")}`);
        warn(`plot -> ${plotFile}`);
      }
    }
    return failed === 0 ? 0 : 1;
  } catch (err) {
    return reportError(err, "compare", stderr);
  } finally {
    await replay?.close();
    if (tmp !== null) await rm4(tmp, { recursive: true, force: true });
  }
}
var BIN, COMPARE_SPEC, STDERR_CAP, GRAPH_ORACLE_MAX_WORK;
var init_compare = __esm({
  "src/commands/compare.ts"() {
    "use strict";
    init_args();
    init_errors();
    init_where();
    init_terminal();
    init_server();
    init_eval();
    init_oracle();
    init_file();
    BIN = fileURLToPath(new URL("../../bin/focuscrawl", import.meta.url));
    COMPARE_SPEC = {
      name: "compare",
      usage: ["compare --warc FILE... --labels FILE --target LABEL (--seed URL... | --seeds FILE) --strategies S,S,... [options] [-- CRAWL-FLAGS]"],
      summary: "Crawl a WARC web once per strategy through one replay proxy, score each run against the labels (as focuscrawl eval does) and compare. The first strategy is the baseline.",
      positionals: true,
      flags: [
        { group: "Options", name: "warc", type: "string", value: "FILE", multiple: true, help: "WARC file to replay (at least one)" },
        { group: "Options", name: "labels", type: "string", value: "FILE", help: "labels TSV with a header row: url<TAB>label[<TAB>...]" },
        { group: "Options", name: "where", type: "string", value: "COL=VAL", multiple: true, help: "score against the rows whose column COL is VAL only (COL!=VAL: is not VAL); other rows' URLs count as unlabelled" },
        { group: "Options", name: "target", type: "string", value: "LABEL", help: "the label of on-topic pages" },
        { group: "Options", name: "seed", type: "string", value: "URL", multiple: true, help: "a start URL" },
        { group: "Options", name: "seeds", type: "string", value: "FILE", help: "start URLs, one a line" },
        { group: "Options", name: "strategies", type: "string", value: "LIST", help: "comma-separated strategy names, e.g. bfs,best-first" },
        { group: "Options", name: "topic", type: "string", value: "FILE", help: "passed to every crawl" },
        { group: "Options", name: "model", type: "string", value: "FILE", help: "passed to every crawl" },
        { group: "Options", name: "max-pages", type: "int", min: 1, max: 1e12, zeroIsNoLimit: true, help: "passed to every crawl" },
        { group: "Options", name: "concurrency", type: "int", min: 1, max: 1e4, help: "passed to every crawl" },
        { group: "Options", name: "status", type: "int", min: 100, max: 599, help: "also score counting only pages with HTTP status N" },
        { group: "Options", name: "reachable", type: "string", value: "FILE", help: "recall counts only target URLs listed in FILE" },
        { group: "Options", name: "at", type: "string", value: "K,K,...", default: "100,200,500,1000,2000", help: "harvest@K checkpoints" },
        { group: "Options", name: "out-dir", type: "string", value: "DIR", help: "keep each run's NDJSON as DIR/<strategy>.ndjson (and the plot as DIR/compare.svg)" },
        { group: "Options", name: "plot", type: "string", value: "FILE", help: "write the SVG of all runs here" },
        { group: "Options", name: "oracle", type: "boolean", help: "also score simulated crawls that know the answers, on the archive's link graph, from the same seeds: oracle-link (a perfect judge of whether a link's target is on topic), oracle-layer1 and oracle-layer2 (also knows the pages one or two links from an on-topic page), oracle-graph (knows the whole graph). They obey the archived robots.txt but fetch only archived pages (no 404s): compare them with the crawls in the --status 200 view" }
      ],
      notes: `Flags after \`--\` go to every crawl as they are (e.g. -- --max-depth 6).

stdout: one {"type":"summary",...} line per run (and view). stderr: the table.
Exit 0 when every crawl succeeded, 1 when one failed (its stderr is shown),
2 for bad usage.`,
      exitCodes: [
        [0, "every crawl succeeded; also --help"],
        [1, "a crawl failed (its stderr is shown), an internal error"],
        [2, "bad input: FC_USAGE"]
      ]
    };
    STDERR_CAP = 16 * 1024;
    GRAPH_ORACLE_MAX_WORK = 5e8;
  }
});

// src/tools/etfl/expand.ts
import { createReadStream as createReadStream6 } from "node:fs";
import { readFile as readFile5, stat as stat7 } from "node:fs/promises";
import { brotliDecompressSync as brotliDecompressSync2, gunzipSync as gunzipSync2, inflateSync as inflateSync2 } from "node:zlib";
async function loadLabels2(file) {
  let text;
  try {
    const size = (await stat7(file)).size;
    if (size > MAX_LABELS_BYTES) throw new UsageError(`${file}: ${size} bytes, more than ${MAX_LABELS_BYTES}`);
    text = await readFile5(file, "utf8");
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read labels file ${file}: ${err.message}`, { cause: err });
  }
  const out = /* @__PURE__ */ new Map();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "" || i === 0 && /^url\t/i.test(line)) return;
    const [url, label] = line.split("	");
    const canon2 = canonicalize(url?.trim() ?? "");
    if (canon2 === null || !label || label.trim() === "") throw new UsageError(`${file}:${i + 1}: expected "url<TAB>label"`);
    if (!out.has(canon2)) out.set(canon2, label.trim());
  });
  return out;
}
function decodeBody(body, encoding) {
  const enc = encoding.trim().toLowerCase();
  try {
    if (enc === "" || enc === "identity") return body;
    if (enc === "gzip" || enc === "x-gzip") return gunzipSync2(body);
    if (enc === "deflate") return inflateSync2(body);
    if (enc === "br") return brotliDecompressSync2(body);
  } catch {
    return null;
  }
  return null;
}
async function* warcPages(files, labels) {
  const index = await buildIndex(files);
  for (const url of index.entries.keys()) {
    let res;
    try {
      res = await readResponse(index, url);
    } catch {
      continue;
    }
    if (res === null || res.status < 200 || res.status > 299) continue;
    const header2 = (name) => res.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? "";
    const ctype = header2("content-type");
    const media = ctype.split(";")[0].trim().toLowerCase();
    const body = decodeBody(res.body, header2("content-encoding"));
    if (body === null) continue;
    if (media === "" ? !/^\s*</.test(body.subarray(0, 512).toString("latin1")) : !HTML_TYPES3.has(media)) continue;
    const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(ctype)?.[1]?.toLowerCase() ?? null;
    const page = parseBody(body, url, charset);
    const label = labels?.get(url);
    yield { url, page, labels: label === void 0 ? [] : [label] };
  }
}
async function* lines(file) {
  let buf = "";
  for await (const chunk of createReadStream6(file, { encoding: "utf8" })) {
    buf += chunk;
    let start2 = 0;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n", start2)) {
      yield buf.slice(start2, i);
      start2 = i + 1;
    }
    buf = buf.slice(start2);
    if (buf.length > MAX_LINE_CHARS2) throw new CapExceededError(`a line of ${file}`, MAX_LINE_CHARS2);
  }
  if (buf !== "") yield buf;
}
async function* ndjsonPages(file, labels) {
  let n = 0;
  for await (const line of lines(file)) {
    n++;
    if (line.trim() === "") continue;
    let o;
    try {
      o = JSON.parse(line);
    } catch (err) {
      throw new UsageError(`${file}:${n}: invalid JSON: ${err.message}`, { cause: err });
    }
    if (typeof o !== "object" || o === null || Array.isArray(o)) throw new UsageError(`${file}:${n}: expected a JSON object`);
    const str = (v) => typeof v === "string" ? v : "";
    const given = typeof o.blocks === "object" && o.blocks !== null ? o.blocks : {};
    const blocks = Object.fromEntries(TEXT_BLOCKS.map((b) => [b, str(given[b])]));
    const title = str(o.title) || blocks.title;
    blocks.title = title;
    if (blocks.content === "") blocks.content = str(o.text) || [str(o.sentence), str(o.keywords).replace(/,/g, " ")].join(" ").trim();
    const url = str(o.url);
    const canon2 = url === "" ? null : canonicalize(url);
    const found = [o.label, o.label_desc].filter((v) => typeof v === "string" || typeof v === "number").map(String);
    const fromFile = canon2 === null ? void 0 : labels?.get(canon2);
    if (fromFile !== void 0) found.push(fromFile);
    const page = { title, charset: "utf-8", blocks, links: [], base: url, noindex: false, nofollow: false, lang: null };
    yield { url: canon2 ?? url, page, labels: found };
  }
}
async function expandTopic(lib, source, opts) {
  const lambda = opts.lambda ?? DEFAULT_LAMBDA;
  const eta = opts.eta ?? lib.library.threshold;
  const miner = new TermMiner(lib.staticTokens(), { topL: opts.topL });
  let pages = 0;
  let topicPages = 0;
  for await (const doc of source) {
    pages++;
    const scored = scoreBlocks(doc.page, lib, lambda);
    lib.docFreq.addDistinct(scored.tf.keys());
    const about = opts.target !== null ? doc.labels.includes(opts.target) : scored.relevance >= eta;
    if (!about) continue;
    topicPages++;
    miner.offer(scored.tf);
  }
  return { candidates: miner.mine(lib.docFreq, lib.libraryTokens, opts.topN ?? 20), pages, topicPages };
}
var MAX_LINE_CHARS2, MAX_LABELS_BYTES, HTML_TYPES3, TEXT_BLOCKS;
var init_expand = __esm({
  "src/tools/etfl/expand.ts"() {
    "use strict";
    init_errors();
    init_warc_index();
    init_body();
    init_canonical();
    init_blocks();
    init_miner();
    MAX_LINE_CHARS2 = 16 * 1024 * 1024;
    MAX_LABELS_BYTES = 256 * 1024 * 1024;
    HTML_TYPES3 = /* @__PURE__ */ new Set(["text/html", "application/xhtml+xml"]);
    TEXT_BLOCKS = ["title", "heading", "content", "navigation", "anchor", "other"];
  }
});

// src/commands/expand-topic.ts
var expand_topic_exports = {};
__export(expand_topic_exports, {
  EXPAND_TOPIC_SPEC: () => EXPAND_TOPIC_SPEC,
  runExpandTopic: () => runExpandTopic
});
import { constants as constants3 } from "node:fs";
import { access as access3, readFile as readFile6, stat as stat8, writeFile as writeFile6 } from "node:fs/promises";
import path12 from "node:path";
async function readable(file, what) {
  try {
    await access3(file, constants3.R_OK);
    if (!(await stat8(file)).isFile()) throw new UsageError(`${what} ${file} is not a file`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${what} ${file} (${err.code ?? "error"})`, { cause: err });
  }
}
function expandedJson(raw, topicFile, out, terms) {
  const copy = { ...raw };
  if (typeof raw.synonyms === "string" && !path12.isAbsolute(raw.synonyms)) {
    const abs = path12.resolve(path12.dirname(topicFile), raw.synonyms);
    copy.synonyms = path12.relative(path12.dirname(path12.resolve(out)), abs).split(path12.sep).join("/");
  }
  const old = Array.isArray(raw.mined) ? raw.mined : [];
  const have = new Set(old.map((m) => typeof m === "string" ? m : m?.term));
  copy.mined = [...old, ...terms.filter((t) => !have.has(t))];
  return copy;
}
async function runExpandTopic(argv, io = {}) {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const fail = (code, message) => {
    stderr.write(`focuscrawl expand-topic: ${message}
`);
    return code;
  };
  let parsed;
  try {
    parsed = parseCommand(EXPAND_TOPIC_SPEC, argv);
  } catch (err) {
    return fail(ERROR_CODES.FC_USAGE.exit, `FC_USAGE: ${ownMessage(EXPAND_TOPIC_SPEC, err)}`);
  }
  if (parsed.help) {
    stdout.write(helpText(EXPAND_TOPIC_SPEC));
    return 0;
  }
  const { args } = parsed;
  try {
    const topicFile = args.string("topic");
    const pagesFile = args.string("pages");
    const warcs = args.strings("warc");
    const labelsFile = args.string("labels");
    const target = args.string("target") ?? null;
    const out = args.string("out");
    if (topicFile === void 0) throw new UsageError("--topic FILE is required (see --help)");
    if (out === void 0) throw new UsageError("--out FILE is required (see --help)");
    if (pagesFile === void 0 === (warcs.length === 0)) throw new UsageError("give either --pages FILE or --warc FILE... (see --help)");
    if (labelsFile !== void 0 && target === null) throw new UsageError("--labels needs --target LABEL");
    if (target !== null && target.trim() === "") throw new UsageError("--target must not be empty");
    if (target !== null && warcs.length > 0 && labelsFile === void 0) throw new UsageError("--target with --warc needs --labels FILE");
    const topN = args.number("top-n");
    const topL = args.number("top-l");
    const eta = args.number("eta");
    for (const f of [pagesFile, labelsFile].filter((x) => x !== void 0)) await readable(f, "file");
    for (const f of warcs) await readable(f, "WARC file");
    const library = await loadTopicLibrary(topicFile);
    const raw = JSON.parse((await readFile6(topicFile, "utf8")).replace(/^\uFEFF/, ""));
    const lib = new FeatureLibrary(library);
    const labels = labelsFile === void 0 ? null : await loadLabels2(labelsFile);
    const source = pagesFile !== void 0 ? ndjsonPages(pagesFile, labels) : warcPages(warcs, labels);
    const result = await expandTopic(lib, source, { target, topN, topL, eta });
    for (const c of result.candidates) stdout.write(JSON.stringify({ term: c.term, w: Math.round(c.w * 1e4) / 1e4, from: c.from }) + "\n");
    const json = expandedJson(raw, topicFile, out, result.candidates.map((c) => c.term));
    await writeFile6(out, JSON.stringify(json, null, 2) + "\n");
    const about = target !== null ? `labelled ${target}` : `with R(p) >= ${eta ?? library.threshold}`;
    stderr.write(`expand-topic: ${result.pages} pages, ${result.topicPages} ${about}, ${result.candidates.length} candidates -> ${out}
`);
    if (result.topicPages === 0) stderr.write(`expand-topic: warning: no page about the topic, nothing mined
`);
    return 0;
  } catch (err) {
    return fail(exitStatusOf(err), err.message);
  }
}
var EXPAND_TOPIC_SPEC;
var init_expand_topic = __esm({
  "src/commands/expand-topic.ts"() {
    "use strict";
    init_args();
    init_errors();
    init_expand();
    init_library();
    EXPAND_TOPIC_SPEC = {
      name: "expand-topic",
      usage: ["expand-topic --topic FILE (--pages FILE | --warc FILE...) [--labels FILE --target LABEL] [--top-n N] [--top-l L] [--eta X] --out FILE"],
      summary: "Mine candidate topic terms (Wu & Li 2015, docs/algorithms.md#term-miner): for each static term of the topic, the top-L pages about it; every other term e scores W = (f(e)/f_max) * ln(N/n_e) (f: frequency in those pages, N: pages read, n_e: pages holding e). The N best become candidates.",
      flags: [
        { group: "Options", name: "topic", type: "string", value: "FILE", help: "topic.json (plain, or extended: kinds, synonyms, mined)" },
        { group: "Options", name: "pages", type: "string", value: "FILE", help: 'NDJSON pages: {"url","title","blocks"|"text"|"sentence","label"}' },
        { group: "Options", name: "warc", type: "string", value: "FILE", multiple: true, help: "WARC file of crawled pages; HTML responses are parsed" },
        { group: "Options", name: "labels", type: "string", value: "FILE", help: "url<TAB>label lines (e.g. a corpus' labels.tsv)" },
        { group: "Options", name: "target", type: "string", value: "LABEL", defaultText: "pages whose tag-block relevance R(p) >= eta", help: 'pages with this label are "about the topic"' },
        { group: "Options", name: "top-n", type: "int", min: 1, max: 1e6, default: 20, help: "candidates kept" },
        { group: "Options", name: "top-l", type: "int", value: "L", min: 1, max: 1e6, default: 50, help: "pages per static term" },
        { group: "Options", name: "eta", type: "number", min: 0, max: 1, defaultText: "the topic's threshold", help: "page threshold without --target" },
        { group: "Options", name: "out", type: "string", value: "FILE", help: 'the topic again, with the candidates under "mined" (review them)' }
      ],
      notes: 'stdout: one {"term","w","from"} line per candidate, best first; a summary on stderr.',
      exitCodes: [
        [0, "written; also --help"],
        [1, "an output that cannot be written, an internal error"],
        [2, "bad input: FC_USAGE (a bad flag, unreadable input), FC_BAD_TOPIC, FC_BAD_WARC (a --warc file that is not a WARC file), FC_CAP_EXCEEDED (an input line over its cap)"]
      ]
    };
  }
});

// src/tools/genweb/portal.ts
function tables() {
  if (gbTables !== null) return gbTables;
  const dec = new TextDecoder("gb18030", { fatal: true });
  const two = /* @__PURE__ */ new Map();
  const four = /* @__PURE__ */ new Map();
  const decode = (bytes) => {
    try {
      const s = dec.decode(bytes);
      return s.length === 1 ? s.charCodeAt(0) : null;
    } catch {
      return null;
    }
  };
  for (let a = 129; a <= 254; a++) {
    for (let b = 64; b <= 254; b++) {
      if (b === 127) continue;
      const cp = decode(Uint8Array.of(a, b));
      if (cp !== null && cp >= 128 && !two.has(cp)) two.set(cp, a << 8 | b);
    }
  }
  for (let a = 129; a <= 132; a++) {
    for (let b = 48; b <= 57; b++) {
      for (let c = 129; c <= 254; c++) {
        if (a === 132 && (b > 49 || b === 49 && c > 164)) break;
        for (let d = 48; d <= 57; d++) {
          const cp = decode(Uint8Array.of(a, b, c, d));
          if (cp !== null && cp >= 128 && !two.has(cp) && !four.has(cp)) four.set(cp, (a << 24 | b << 16 | c << 8 | d) >>> 0);
        }
      }
    }
  }
  gbTables = { two, four };
  return gbTables;
}
function gbEncode(text, enc) {
  const { two, four } = tables();
  const out = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (cp < 128) {
      out.push(cp);
      continue;
    }
    const t = two.get(cp);
    if (t !== void 0) {
      out.push(t >> 8, t & 255);
      continue;
    }
    if (enc === "gbk") return null;
    const f = four.get(cp);
    if (f !== void 0) {
      out.push(f >>> 24, f >>> 16 & 255, f >>> 8 & 255, f & 255);
    } else if (cp >= 65536 && cp <= 1114111) {
      let p = cp - 65536 + 189e3;
      const d = 48 + p % 10;
      p = Math.floor(p / 10);
      const c = 129 + p % 126;
      p = Math.floor(p / 126);
      out.push(129 + Math.floor(p / 10), 48 + p % 10, c, d);
    } else {
      return null;
    }
  }
  const buf = Buffer.from(out);
  return new TextDecoder("gb18030").decode(buf) === text ? buf : null;
}
function slugOf(label, i, used) {
  let s = label.toLowerCase().replace(/^news[_-]/, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40);
  if (s === "" || /^\d/.test(s) || s === "www" || s === "bbs" || s === "ad") s = `c${i}${s === "" ? "" : `-${s}`}`;
  let out = s;
  for (let n = 2; used.has(out); n++) out = `${s}-${n}`;
  used.add(out);
  return out;
}
function splitKeywords(kw) {
  if (!kw) return [];
  return kw.split(/[,，、;；\s]+/).filter((w) => w.length > 0 && w.length <= 12);
}
function poolOf(headlines, rng) {
  const pool = headlines.flatMap((h) => splitKeywords(h.keywords));
  if (new Set(pool).size >= 8) return pool;
  for (const h of headlines) {
    for (const run of h.sentence.match(/[\u3400-\u9fff]+/g) ?? []) {
      for (let i = 0; i + 2 <= run.length; ) {
        const n = Math.min(run.length - i, rng.range(2, 4));
        if (n >= 2) pool.push(run.slice(i, i + n));
        i += n;
      }
    }
  }
  return pool.length > 0 ? pool : ["\u65B0\u95FB"];
}
function sentence(rng, own, pool) {
  const word = () => own.length > 0 && rng.chance(0.5) ? rng.pick(own) : rng.pick(pool);
  return rng.pick(SENTENCES).replace("{a}", word()).replace("{b}", word()).replace("{c}", word());
}
function paragraphs(rng, own, pool, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const k = rng.range(2, 4);
    let p = "";
    for (let j = 0; j < k; j++) p += sentence(rng, own, pool);
    out.push(p);
  }
  return out;
}
function mostFrequent(pool) {
  const counts = /* @__PURE__ */ new Map();
  let best = pool[0];
  for (const w of pool) {
    const c = (counts.get(w) ?? 0) + 1;
    counts.set(w, c);
    if (c > (counts.get(best) ?? 0)) best = w;
  }
  return best;
}
function checkOptions(headlines, opts) {
  const o = { seed: opts.seed, hosts: opts.hosts ?? 3, pageSize: opts.pageSize ?? 20, hiddenShare: opts.hiddenShare ?? 0.08 };
  if (!Number.isInteger(o.seed) || o.seed < 0 || o.seed > 4294967295) throw new UsageError(`seed must be an integer 0-4294967295, got ${o.seed}`);
  if (!Number.isInteger(o.hosts) || o.hosts < 1 || o.hosts > 50) throw new UsageError(`hosts must be an integer 1-50, got ${o.hosts}`);
  if (!Number.isInteger(o.pageSize) || o.pageSize < 5 || o.pageSize > 200) throw new UsageError(`pageSize must be an integer 5-200, got ${o.pageSize}`);
  if (!(o.hiddenShare >= 0 && o.hiddenShare <= 0.5)) throw new UsageError(`hiddenShare must be 0-0.5, got ${o.hiddenShare}`);
  if (headlines.length === 0) throw new UsageError("no headlines to generate a web from");
  for (const h of headlines) {
    if (typeof h.sentence !== "string" || h.sentence.trim() === "" || typeof h.label !== "string" || h.label === "" || /[\t\r\n]/.test(h.label)) {
      throw new UsageError(`bad headline ${JSON.stringify(h).slice(0, 200)}: needs a non-empty sentence and a label without tabs or newlines`);
    }
    if (h.label === "home" || /^(hub|forum):/.test(h.label)) throw new UsageError(`headline label ${JSON.stringify(h.label)} is reserved for generated pages`);
  }
  return o;
}
function generatePortalWeb(headlines, opts) {
  const o = checkOptions(headlines, opts);
  const rng = new Rng(o.seed ^ 1592614637);
  const sites = [];
  const newSite = (host, name) => {
    const s = { host, name, enc: "utf-8", decl: "header", metaLabel: "utf-8", home: `http://${host}/`, logo: `http://${host}/`, nav: [], footer: [], pages: [], gone: [] };
    sites.push(s);
    return s;
  };
  const newPage = (site, url, label, title) => {
    const p = { url, site, label, title, h1: title, info: null, paras: [], inline: [], keywords: [], blocks: [], pager: [] };
    site.pages.push(p);
    return p;
  };
  const block = (p, cls, heading) => {
    let b = p.blocks.find((x) => x.cls === cls);
    if (b === void 0) {
      b = { cls, heading, links: [] };
      p.blocks.push(b);
    }
    return b;
  };
  const homePage = (p) => {
    const found = p.site.pages.find((x) => x.url === p.site.home);
    if (found !== void 0) return found;
    const home = newPage(p.site, p.site.home, "home", `${p.name} - \u65B0\u95FB\u8D44\u8BAF\u95E8\u6237`);
    home.h1 = p.name;
    return home;
  };
  const aLink = (a) => ({ to: a.url, anchor: a.h.sentence, note: mmdd(a.time) });
  const byLabel = /* @__PURE__ */ new Map();
  for (const h of headlines) {
    const list = byLabel.get(h.label) ?? [];
    list.push(h);
    byLabel.set(h.label, list);
  }
  const slugs = /* @__PURE__ */ new Set();
  const cats = [...byLabel.keys()].sort().map((label, i) => {
    const hs = byLabel.get(label);
    return { label, slug: slugOf(label, i, slugs), name: CHANNEL_NAMES[label] ?? label, pool: poolOf(hs, rng), headlines: hs };
  });
  const portals = [];
  const names = /* @__PURE__ */ new Set();
  for (let k = 1; k <= o.hosts; k++) {
    let name = `${rng.pick(PORTAL_A)}${rng.pick(PORTAL_B)}`;
    while (names.has(name)) name = `${rng.pick(PORTAL_A)}${rng.pick(PORTAL_B)}${k}`;
    names.add(name);
    const site = newSite(`www.portal${k}.example.cn`, name);
    portals.push({ k, name, site, channels: [], bbs: newSite(`bbs.portal${k}.example.cn`, `${name}\u8BBA\u575B`), threads: 1e3, ads: false });
  }
  let nextId = 100001;
  const newArticle = (h, cat, url) => {
    const id = nextId++;
    const time = LATEST - rng.int(90 * 24 * 60) * 6e4;
    return { h, cat, id, url: url(id, time), time, kws: splitKeywords(h.keywords), dead: false };
  };
  const byTime = (a, b) => b.time - a.time || a.id - b.id;
  const clusters = [];
  for (const cat of cats) {
    const hs = rng.shuffle(cat.headlines.slice());
    const hiddenN = o.hiddenShare > 0 && hs.length >= 8 ? Math.max(2, Math.round(hs.length * o.hiddenShare)) : 0;
    const nClusters = hiddenN === 0 ? 0 : Math.max(1, Math.round(hiddenN / 9));
    for (let c = 0; c < nClusters; c++) {
      const j = clusters.length + 1;
      const host = `www.zmt${j}.example.cn`;
      const site = newSite(host, `${mostFrequent(cat.pool)}${rng.pick(SITE_SUFFIX)}`);
      const part = hs.slice(Math.floor(c * hiddenN / nClusters), Math.floor((c + 1) * hiddenN / nClusters));
      const articles = part.map((h) => newArticle(h, cat, (id) => `http://${host}/p/${id}.html`)).sort(byTime);
      clusters.push({ cat, site, articles, index: null });
    }
    let carriers = portals.filter(() => rng.chance(0.8));
    if (carriers.length === 0) carriers = [rng.pick(portals)];
    const perPortal = /* @__PURE__ */ new Map();
    for (const h of hs.slice(hiddenN)) {
      const p = rng.pick(carriers);
      const list = perPortal.get(p) ?? [];
      list.push(newArticle(h, cat, (id, t) => {
        const d = new Date(t);
        return `http://${cat.slug}.portal${p.k}.example.cn/${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}/n${id}.html`;
      }));
      perPortal.set(p, list);
    }
    for (const p of portals) {
      const list = perPortal.get(p);
      if (list === void 0) continue;
      const site = newSite(`${cat.slug}.portal${p.k}.example.cn`, `${p.name}${cat.name}\u9891\u9053`);
      list.sort(byTime);
      p.channels.push({ cat, portal: p, site, articles: list, live: list, hubs: [] });
    }
  }
  const dead = [];
  for (const p of portals) {
    const all = p.channels.flatMap((c) => c.articles);
    if (all.length < 3) continue;
    const n = Math.max(1, Math.round(all.length * 0.01));
    for (const a of rng.shuffle(all.slice()).slice(0, n)) a.dead = true;
    for (const ch of p.channels) {
      ch.live = ch.articles.filter((a) => !a.dead);
      for (const a of ch.articles) if (a.dead) {
        ch.site.gone.push(a.url);
        dead.push(a.url);
      }
    }
    p.ads = true;
    for (let i = 1; i <= 2; i++) dead.push(`http://ad.portal${p.k}.example.cn/click?id=${i}`);
  }
  for (const p of portals) {
    const nav = [{ to: p.site.home, anchor: "\u9996\u9875" }, ...p.channels.map((c) => ({ to: c.site.home, anchor: c.cat.name }))];
    const footer = portals.filter((q) => q !== p).map((q) => ({ to: q.site.home, anchor: q.name }));
    for (const s of [p.site, p.bbs, ...p.channels.map((c) => c.site)]) {
      s.nav = nav;
      s.footer = footer;
    }
    p.bbs.logo = p.site.home;
  }
  for (const p of portals) {
    for (const ch of p.channels) {
      const nPages = Math.max(1, Math.ceil(ch.articles.length / o.pageSize));
      const url = (n) => n === 1 ? ch.site.home : `${ch.site.home}list_${n}.html`;
      for (let n = 1; n <= nPages; n++) {
        const hub = newPage(ch.site, url(n), `hub:${ch.cat.label}`, n === 1 ? `${ch.cat.name}\u9891\u9053_${p.name}` : `${ch.cat.name}\u9891\u9053_\u7B2C${n}\u9875_${p.name}`);
        hub.h1 = `${ch.cat.name}\u9891\u9053`;
        block(hub, "list", n === 1 ? "\u6700\u65B0\u6587\u7AE0" : `\u6587\u7AE0\u5217\u8868 \u7B2C${n}\u9875`).links.push(...ch.articles.slice((n - 1) * o.pageSize, n * o.pageSize).map(aLink));
        if (nPages > 1) {
          if (n > 1) hub.pager.push({ to: url(1), anchor: "\u7B2C\u4E00\u9875" }, { to: url(n - 1), anchor: "\u4E0A\u4E00\u9875" });
          for (let m = Math.max(1, n - 2); m <= Math.min(nPages, n + 2); m++) if (m !== n) hub.pager.push({ to: url(m), anchor: String(m) });
          if (n < nPages) hub.pager.push({ to: url(n + 1), anchor: "\u4E0B\u4E00\u9875" }, { to: url(nPages), anchor: "\u672B\u9875" });
        }
        ch.hubs.push(hub);
      }
    }
  }
  const newThread = (p, cat) => {
    const n = ++p.threads;
    const topic = rng.pick(THREAD_TITLES).replace("{a}", rng.pick(cat.pool)).replace("{b}", rng.pick(cat.pool));
    const t = newPage(p.bbs, `${p.bbs.home}thread-${n}-1-1.html`, `forum:${cat.label}`, `${topic}_${cat.name}\u8BBA\u575B_${p.name}`);
    t.h1 = topic;
    t.info = `\u697C\u4E3B\uFF1A\u7F51\u53CB${rng.range(1e3, 9999)}\u3000\u53D1\u8868\u4E8E ${stamp(LATEST - rng.int(60) * DAY)}`;
    const replies = rng.range(3, 6);
    for (let i = 0; i < replies; i++) t.paras.push(`${i === 0 ? "\u697C\u4E3B" : `${i + 1}\u697C \u7F51\u53CB${rng.range(1e3, 9999)}`}\uFF1A${paragraphs(rng, [], cat.pool, 1)[0]}`);
    return t;
  };
  const hotThreads = (hub) => block(hub, "sidebar bbs-hot", "\u8BBA\u575B\u70ED\u5E16");
  for (const p of portals) {
    for (const ch of p.channels) {
      for (const hub of ch.hubs) {
        if (!rng.chance(0.12)) continue;
        const k = rng.range(1, 2);
        for (let i = 0; i < k; i++) {
          const t = newThread(p, ch.cat);
          hotThreads(hub).links.push({ to: t.url, anchor: t.h1 });
        }
      }
    }
  }
  let tunnels = 0;
  const clusterPortal = /* @__PURE__ */ new Map();
  for (const cl of clusters) {
    const starts = portals.flatMap((p) => p.channels.filter((c) => c.cat !== cl.cat).flatMap((c) => c.hubs.map((hub) => ({ hub, p, cat: c.cat }))));
    const others = cats.filter((c) => c !== cl.cat);
    const entries = rng.range(1, 2);
    const index = newPage(cl.site, cl.site.home, `hub:${cl.cat.label}`, `${cl.site.name} - \u6700\u65B0\u6587\u7AE0`);
    index.h1 = cl.site.name;
    index.paras = paragraphs(rng, [], cl.cat.pool, 1);
    cl.index = index;
    for (let e = 0; e < entries; e++) {
      const start2 = starts.length > 0 ? rng.pick(starts) : null;
      const portal = start2?.p ?? rng.pick(portals);
      const from = start2?.hub ?? homePage(portal);
      const fromCat = start2?.cat ?? rng.pick(cats);
      if (!clusterPortal.has(cl)) clusterPortal.set(cl, portal);
      const len = rng.range(1, 3);
      let prev = null;
      for (let i = 0; i < len; i++) {
        const t = newThread(portal, i === 0 ? fromCat : rng.pick(others.length > 0 ? others : cats));
        if (prev === null) hotThreads(from).links.push({ to: t.url, anchor: t.h1 });
        else prev.inline.push({ before: "\u697C\u4E3B\u8865\u5145\u4E00\u4E0B\uFF0C\u4E4B\u524D\u770B\u5230\u8FC7\u8FD9\u4E2A\u5E16\u5B50\uFF1A", link: { to: t.url, anchor: t.h1 }, after: "\uFF0C\u53EF\u4EE5\u4E00\u8D77\u770B\u770B\u3002" });
        prev = t;
      }
      const last = prev;
      last.inline.push({ before: "\u987A\u4FBF\u63A8\u8350\u4E00\u4E2A\u7F51\u7AD9\uFF1A", link: { to: cl.site.home, anchor: cl.site.name }, after: "\uFF0C\u5185\u5BB9\u633A\u591A\u7684\u3002" });
      for (const a of rng.shuffle(cl.articles.slice()).slice(0, rng.range(1, 2))) {
        last.inline.push({ before: "\u6BD4\u5982\u8FD9\u7BC7\uFF1A", link: { to: a.url, anchor: a.h.sentence }, after: "\u3002" });
      }
      tunnels++;
    }
  }
  const articlePage = (site, a, info) => {
    const pg = newPage(site, a.url, a.cat.label, a.h.sentence);
    pg.info = info;
    pg.keywords = a.kws;
    pg.paras = paragraphs(rng, a.kws, a.cat.pool, rng.range(3, 5));
    return pg;
  };
  const prevNext = (pg, list, i) => {
    const b = block(pg, "prevnext", "\u4E0A\u4E00\u7BC7 / \u4E0B\u4E00\u7BC7");
    if (i > 0) b.links.push({ to: list[i - 1].url, anchor: list[i - 1].h.sentence });
    if (i + 1 < list.length) b.links.push({ to: list[i + 1].url, anchor: list[i + 1].h.sentence });
    if (b.links.length === 0) pg.blocks.splice(pg.blocks.indexOf(b), 1);
  };
  for (const p of portals) {
    const portalLive = p.channels.flatMap((c) => c.live);
    for (const ch of p.channels) {
      const sameCat = portals.flatMap((q) => q === p ? [] : q.channels.filter((c) => c.cat === ch.cat).flatMap((c) => c.live));
      const otherCat = p.channels.flatMap((c) => c === ch ? [] : c.live);
      ch.live.forEach((a, i) => {
        const pg = articlePage(ch.site, a, `${stamp(a.time)}\u3000\u6765\u6E90\uFF1A${p.name}${ch.cat.name}\u9891\u9053`);
        const rel = /* @__PURE__ */ new Set([a]);
        const want = rng.range(4, 6);
        for (let tries = 0; rel.size <= want && tries < 30; tries++) {
          const r = rng.next();
          if (r < 0.6 || r < 0.75 && sameCat.length === 0 || r >= 0.75 && otherCat.length === 0) {
            const j = Math.min(ch.live.length - 1, Math.max(0, i + rng.range(-8, 8)));
            rel.add(ch.live[j]);
          } else {
            rel.add(rng.pick(r < 0.75 ? sameCat : otherCat));
          }
        }
        rel.delete(a);
        if (rel.size > 0) block(pg, "related", "\u76F8\u5173\u9605\u8BFB").links.push(...[...rel].map(aLink));
        const hot = /* @__PURE__ */ new Set();
        for (let tries = 0; hot.size < 3 && tries < 10; tries++) {
          const b = rng.pick(portalLive);
          if (b !== a) hot.add(b);
        }
        if (hot.size > 0) block(pg, "sidebar hot", "\u70ED\u70B9\u63A8\u8350").links.push(...[...hot].map(aLink));
        prevNext(pg, ch.live, i);
      });
    }
    const home = homePage(p);
    const top = block(home, "focus", "\u8981\u95FB");
    for (const ch of p.channels) top.links.push(...ch.live.slice(0, 2).map(aLink));
    const picks = /* @__PURE__ */ new Set();
    for (let tries = 0; picks.size < 6 && tries < 30 && portalLive.length > 0; tries++) picks.add(rng.pick(portalLive));
    if (picks.size > 0) block(home, "recommend", "\u7F16\u8F91\u63A8\u8350").links.push(...[...picks].map(aLink));
    if (p.ads) block(home, "ads", "\u63A8\u5E7F").links.push({ to: `http://ad.portal${p.k}.example.cn/click?id=1`, anchor: "\u5E7F\u544A\uFF1A\u9650\u65F6\u4F18\u60E0" }, { to: `http://ad.portal${p.k}.example.cn/click?id=2`, anchor: "\u5E7F\u544A\uFF1A\u70B9\u51FB\u9886\u53D6" });
  }
  for (const cl of clusters) {
    const portal = clusterPortal.get(cl);
    cl.site.nav = [{ to: cl.site.home, anchor: "\u9996\u9875" }];
    cl.site.footer = [{ to: portal.site.home, anchor: `\u8FD4\u56DE${portal.name}` }];
    const index = cl.index;
    block(index, "list", "\u6700\u65B0\u6587\u7AE0").links.push(...cl.articles.map(aLink));
    cl.articles.forEach((a, i) => {
      const pg = articlePage(cl.site, a, `${stamp(a.time)}\u3000\u4F5C\u8005\uFF1A${cl.site.name}`);
      const rel = cl.articles.filter((b, j) => b !== a && Math.abs(i - j) <= 4).slice(0, 6);
      if (rel.length > 0) block(pg, "related", "\u76F8\u5173\u9605\u8BFB").links.push(...rel.map(aLink));
      prevNext(pg, cl.articles, i);
    });
  }
  assignEncodings(sites, rng);
  return assemble(sites, portals, dead, tunnels, clusters, o.seed);
}
function assignEncodings(sites, rng) {
  for (const s of sites) {
    const r = rng.next();
    s.enc = r < 0.55 ? "utf-8" : r < 0.8 ? "gbk" : "gb18030";
  }
  const used = sites.filter((s) => s.pages.length > 0);
  if (used.length >= 3) {
    for (const enc of ["gbk", "gb18030"]) {
      if (!used.some((s) => s.enc === enc)) {
        const utf = used.filter((s) => s.enc === "utf-8");
        (utf.length > 0 ? rng.pick(utf) : rng.pick(used)).enc = enc;
      }
    }
  }
  for (const s of sites) {
    const r = rng.next();
    if (s.enc === "utf-8") {
      s.decl = r < 0.7 ? "header" : r < 0.9 ? "header+meta" : "meta";
      s.metaLabel = "utf-8";
    } else {
      s.decl = r < 0.4 ? "header" : r < 0.6 ? "header+meta" : r < 0.8 ? "meta" : "http-equiv";
      s.metaLabel = s.enc === "gbk" && s.decl === "http-equiv" && rng.chance(0.5) ? "gb2312" : s.enc;
    }
  }
}
function hrefFor(base, to, rng) {
  const b = new URL(base);
  const t = new URL(to);
  let href = to;
  if (b.host === t.host && rng.chance(0.6)) href = t.pathname + t.search;
  if (t.pathname === "/" && t.search === "" && rng.chance(0.1)) href += "index.html";
  if (canonicalize(href, base) !== to) throw new Error(`internal: href ${href} on ${base} does not resolve to ${to}`);
  return href;
}
function render(pg, enc, decl, metaLabel, seed) {
  const rng = new Rng(fnv1a(`${seed}/${pg.url}`));
  const a = (l) => `<a href="${esc(hrefFor(pg.url, l.to, rng))}">${esc(l.anchor)}</a>`;
  const head = [];
  if (decl === "meta" || decl === "header+meta") head.push(`<meta charset="${metaLabel}">`);
  if (decl === "http-equiv") head.push(`<meta http-equiv="Content-Type" content="text/html; charset=${metaLabel}">`);
  head.push(`<title>${esc(pg.title)}</title>`);
  if (pg.keywords.length > 0) head.push(`<meta name="keywords" content="${esc(pg.keywords.join(","))}">`);
  head.push('<meta name="generator" content="focuscrawl gen-web (synthetic)">');
  const s = pg.site;
  const body = [SYNTHETIC_COMMENT];
  body.push(`<div class="header"><a class="logo" href="${esc(hrefFor(pg.url, s.logo, rng))}">${esc(s.name)}</a></div>`);
  if (s.nav.length > 0) body.push(`<div class="nav">${s.nav.map(a).join(" ")}</div>`);
  body.push('<div id="main">', `<h1>${esc(pg.h1)}</h1>`);
  if (pg.info !== null) body.push(`<p class="info">${esc(pg.info)}</p>`);
  if (pg.paras.length > 0 || pg.inline.length > 0) {
    body.push('<div class="text">');
    pg.paras.forEach((p, i) => {
      body.push(`<p>${esc(p)}</p>`);
      if (i === 0) for (const l of pg.inline) body.push(`<p>${esc(l.before)}${a(l.link)}${esc(l.after)}</p>`);
    });
    body.push("</div>");
  }
  if (pg.keywords.length > 0) body.push(`<p class="tags">\u5173\u952E\u8BCD\uFF1A${pg.keywords.map(esc).join(" ")}</p>`);
  for (const b of pg.blocks) {
    if (b.links.length === 0) continue;
    body.push(`<div class="${b.cls}"><h3>${esc(b.heading)}</h3><ul>`);
    for (const l of b.links) body.push(`<li>${a(l)}${l.note ? ` <span class="time">${l.note}</span>` : ""}</li>`);
    body.push("</ul></div>");
  }
  if (pg.pager.length > 0) body.push(`<div class="pages">${pg.pager.map(a).join(" ")}</div>`);
  body.push("</div>");
  const foot = s.footer.length > 0 ? `\u53CB\u60C5\u94FE\u63A5\uFF1A${s.footer.map(a).join(" ")}<br>` : "";
  body.push(`<div class="footer">${foot}\u7248\u6743\u6240\u6709 2024 ${esc(s.name)}\uFF08\u5408\u6210\u6D4B\u8BD5\u7F51\u9875\uFF09</div>`);
  return `<!DOCTYPE html>
<html lang="zh-CN">
<head>
${head.join("\n")}
</head>
<body>
${body.join("\n")}
</body>
</html>
`;
}
function notFound(site) {
  return `<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>404 \u9875\u9762\u4E0D\u5B58\u5728</title>
</head>
<body>
${SYNTHETIC_COMMENT}
<h1>404 \u9875\u9762\u4E0D\u5B58\u5728</h1>
<p>\u60A8\u8BBF\u95EE\u7684\u6587\u7AE0\u5DF2\u5220\u9664\u3002<a href="${esc(site.nav[0]?.to ?? site.home)}">\u8FD4\u56DE\u9996\u9875</a></p>
</body>
</html>
`;
}
function assemble(sites, portals, dead, tunnels, clusters, seed) {
  const records = [];
  const labels = [];
  const encodings = { "utf-8": 0, gbk: 0, gb18030: 0 };
  let fallbacks = 0;
  const headers = (ct, body) => [
    ["Date", HTTP_DATE2],
    ["Server", "portal-httpd/1.0"],
    ["Content-Type", ct],
    ["Content-Length", String(body.length)],
    SYNTHETIC_HEADER
  ];
  const pageUrls = /* @__PURE__ */ new Set();
  for (const s of sites) for (const p of s.pages) pageUrls.add(p.url);
  const deadSet = new Set(dead);
  let hosts = 0;
  for (const s of sites) {
    if (s.pages.length === 0 && s.gone.length === 0) continue;
    hosts++;
    const robots = Buffer.from("# synthetic robots.txt generated by focuscrawl gen-web; links are synthetic\nUser-agent: *\nDisallow: /admin/\n");
    records.push({ url: `http://${s.host}/robots.txt`, status: 200, statusText: "OK", headers: headers("text/plain; charset=utf-8", robots), body: robots });
    for (const p of s.pages) {
      for (const l of [{ to: s.logo, anchor: "" }, ...s.nav, ...s.footer, ...p.blocks.flatMap((b) => b.links), ...p.pager, ...p.inline.map((x) => x.link)]) {
        if (!pageUrls.has(l.to) && !deadSet.has(l.to)) throw new Error(`internal: ${p.url} links to missing ${l.to}`);
      }
      let enc = s.enc;
      let decl = s.decl;
      let metaLabel = s.metaLabel;
      let body = null;
      while (body === null) {
        const html = render(p, enc, decl, metaLabel, seed);
        body = enc === "utf-8" ? Buffer.from(html, "utf8") : gbEncode(html, enc);
        if (body === null) {
          fallbacks++;
          if (enc === "gbk") {
            enc = "gb18030";
            if (metaLabel !== "utf-8") metaLabel = "gb18030";
          } else {
            enc = "utf-8";
            decl = "header";
          }
        }
      }
      encodings[enc]++;
      const ct = decl === "header" || decl === "header+meta" ? `text/html; charset=${HEADER_LABEL[enc]}` : "text/html";
      records.push({ url: p.url, status: 200, statusText: "OK", headers: headers(ct, body), body });
      labels.push({ url: p.url, label: p.label, site: s.host });
    }
    for (const url of s.gone) {
      const body = Buffer.from(notFound(s), "utf8");
      encodings["utf-8"]++;
      records.push({ url, status: 404, statusText: "Not Found", headers: headers("text/html; charset=utf-8", body), body });
    }
  }
  for (const r of records) if (canonicalize(r.url) !== r.url) throw new Error(`internal: ${r.url} is not canonical`);
  const articlesByLabel = {};
  let hubs = 0;
  let homes = 0;
  let forum = 0;
  for (const l of labels) {
    if (l.label.startsWith("hub:")) hubs++;
    else if (l.label.startsWith("forum:")) forum++;
    else if (l.label === "home") homes++;
    else articlesByLabel[l.label] = (articlesByLabel[l.label] ?? 0) + 1;
  }
  return {
    records,
    labels,
    seeds: portals.map((p) => p.site.home),
    deadLinks: [...deadSet].sort(),
    stats: {
      portals: portals.length,
      hosts,
      pages: labels.length,
      articles: Object.values(articlesByLabel).reduce((x, y) => x + y, 0),
      articlesByLabel,
      hubs,
      homes,
      forum,
      hiddenArticles: clusters.reduce((n, c) => n + c.articles.length, 0),
      tunnels,
      deadLinks: deadSet.size,
      encodings,
      encodingFallbacks: fallbacks
    }
  };
}
var SYNTHETIC_COMMENT, WARCINFO_DESCRIPTION, SYNTHETIC_HEADER, HTTP_DATE2, gbTables, CHANNEL_NAMES, PORTAL_A, PORTAL_B, SITE_SUFFIX, SENTENCES, THREAD_TITLES, DAY, LATEST, esc, pad, mmdd, stamp, HEADER_LABEL;
var init_portal = __esm({
  "src/tools/genweb/portal.ts"() {
    "use strict";
    init_canonical();
    init_errors();
    init_random();
    SYNTHETIC_COMMENT = "<!-- synthetic page generated by focuscrawl gen-web; links are synthetic -->";
    WARCINFO_DESCRIPTION = "synthetic portal web generated from labelled headlines; all links are synthetic";
    SYNTHETIC_HEADER = ["X-Focuscrawl-Synthetic", "generated by focuscrawl gen-web; links are synthetic"];
    HTTP_DATE2 = "Sat, 01 Jun 2024 08:00:00 GMT";
    gbTables = null;
    CHANNEL_NAMES = {
      news_story: "\u6545\u4E8B",
      news_culture: "\u6587\u5316",
      news_entertainment: "\u5A31\u4E50",
      news_sports: "\u4F53\u80B2",
      news_finance: "\u8D22\u7ECF",
      news_house: "\u623F\u4EA7",
      news_car: "\u6C7D\u8F66",
      news_edu: "\u6559\u80B2",
      news_tech: "\u79D1\u6280",
      news_military: "\u519B\u4E8B",
      news_travel: "\u65C5\u6E38",
      news_world: "\u56FD\u9645",
      news_stock: "\u80A1\u7968",
      news_agriculture: "\u4E09\u519C",
      news_game: "\u6E38\u620F"
    };
    PORTAL_A = ["\u4E1C\u65B9", "\u5357\u65B9", "\u534E\u590F", "\u4E5D\u5DDE", "\u795E\u5DDE", "\u957F\u6C5F", "\u5929\u4E0B", "\u65B0\u89C6\u754C", "\u4ECA\u65E5", "\u73AF\u7403", "\u661F\u7A7A", "\u4E2D\u539F"];
    PORTAL_B = ["\u65B0\u95FB\u7F51", "\u8D44\u8BAF\u7F51", "\u5728\u7EBF", "\u95E8\u6237", "\u70ED\u70B9\u7F51", "\u5FEB\u8BAF"];
    SITE_SUFFIX = ["\u89C2\u5BDF", "\u5708", "\u5934\u6761", "\u6742\u8C08", "\u7B14\u8BB0", "\u89C6\u70B9"];
    SENTENCES = [
      "{a}\u518D\u6B21\u5F15\u53D1\u5173\u6CE8\uFF0C\u4E0D\u5C11\u4EBA\u5F00\u59CB\u8BA8\u8BBA{b}\u3002",
      "\u636E\u4E86\u89E3\uFF0C{a}\u4E0E{b}\u4E4B\u95F4\u7684\u8054\u7CFB\u8D8A\u6765\u8D8A\u7D27\u5BC6\u3002",
      "\u6709\u89C2\u70B9\u8BA4\u4E3A\uFF0C{a}\u7684\u53D8\u5316\u5C06\u76F4\u63A5\u5F71\u54CD{b}\u3002",
      "\u8BF4\u5230{a}\uFF0C\u5F88\u591A\u4EBA\u9996\u5148\u60F3\u5230\u7684\u662F{b}\u3002",
      "\u8BB0\u8005\u6CE8\u610F\u5230\uFF0C{a}\u548C{b}\u7684\u8BDD\u9898\u8FD1\u65E5\u70ED\u5EA6\u4E0D\u51CF\u3002",
      "\u5BF9\u4E8E{a}\uFF0C\u76F8\u5173\u4EBA\u58EB\u8868\u793A\u8FD8\u9700\u8981\u8FDB\u4E00\u6B65\u89C2\u5BDF\u3002",
      "{a}\u3001{b}\u548C{c}\u662F\u8FD9\u6BB5\u65F6\u95F4\u8BA8\u8BBA\u6700\u591A\u7684\u51E0\u4E2A\u8BCD\u3002",
      "\u603B\u7684\u6765\u770B\uFF0C{a}\u4ECD\u7136\u503C\u5F97\u6301\u7EED\u5173\u6CE8\u3002",
      "\u4E0D\u5C11\u7F51\u53CB\u8868\u793A\uFF0C{a}\u8BA9\u4EBA\u5370\u8C61\u6DF1\u523B\u3002",
      "\u6B64\u5916\uFF0C{a}\u65B9\u9762\u4E5F\u51FA\u73B0\u4E86\u65B0\u7684\u60C5\u51B5\u3002",
      "\u76F8\u5173\u8D1F\u8D23\u4EBA\u4ECB\u7ECD\uFF0C{a}\u7684\u5DE5\u4F5C\u6B63\u5728\u6709\u5E8F\u63A8\u8FDB\u3002",
      "\u4ECE\u76EE\u524D\u60C5\u51B5\u770B\uFF0C{a}\u8FD8\u6709\u4E0D\u5C11\u503C\u5F97\u671F\u5F85\u7684\u5730\u65B9\u3002",
      "\u56F4\u7ED5{a}\uFF0C\u5404\u65B9\u7684\u770B\u6CD5\u5E76\u4E0D\u4E00\u81F4\uFF0C{b}\u4E5F\u88AB\u53CD\u590D\u63D0\u8D77\u3002",
      "\u8FD9\u5DF2\u7ECF\u4E0D\u662F{a}\u7B2C\u4E00\u6B21\u6210\u4E3A\u8BDD\u9898\u4E86\u3002",
      "\u56DE\u987E\u8FC7\u53BB\u4E00\u6BB5\u65F6\u95F4\uFF0C{a}\u548C{b}\u7684\u8868\u73B0\u90FD\u6709\u8D77\u4F0F\u3002"
    ];
    THREAD_TITLES = ["{a}\u548C{b}\uFF0C\u5927\u5BB6\u600E\u4E48\u770B\uFF1F", "\u804A\u804A{a}\uFF1A{b}\u503C\u4E0D\u503C\u5F97\u5173\u6CE8", "\u6C42\u52A9\uFF1A\u5173\u4E8E{a}\u7684\u51E0\u4E2A\u95EE\u9898", "{a}\u5410\u69FD\u5E16", "\u6709\u6CA1\u6709\u4EBA\u5173\u6CE8{a}\uFF1F", "\u8BF4\u8BF4\u6211\u5BF9{a}\u7684\u770B\u6CD5"];
    DAY = 864e5;
    LATEST = Date.UTC(2024, 4, 31, 23, 0, 0);
    esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    pad = (n) => String(n).padStart(2, "0");
    mmdd = (t) => {
      const d = new Date(t);
      return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    };
    stamp = (t) => new Date(t).toISOString().slice(0, 16).replace("T", " ");
    HEADER_LABEL = { "utf-8": "utf-8", gbk: "GBK", gb18030: "GB18030" };
  }
});

// src/commands/gen-web.ts
var gen_web_exports = {};
__export(gen_web_exports, {
  GENWEB_SPEC: () => GENWEB_SPEC,
  MAX_HEADLINES: () => MAX_HEADLINES,
  MAX_LINE_CHARS: () => MAX_LINE_CHARS3,
  labelsTsv: () => labelsTsv,
  portalWarc: () => portalWarc,
  readHeadlines: () => readHeadlines,
  runGenWeb: () => runGenWeb
});
import { createHash as createHash3 } from "node:crypto";
import { createReadStream as createReadStream7 } from "node:fs";
import { mkdir as mkdir5, writeFile as writeFile7 } from "node:fs/promises";
import { dirname as dirname2, resolve } from "node:path";
import { fileURLToPath as fileURLToPath2 } from "node:url";
import { WARCRecord as WARCRecord2, WARCSerializer as WARCSerializer2, WARC_1_1 as WARC_1_12 } from "warcio";
function toHeadline(value, fields) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const o = value;
  const text = o[fields.text];
  const label = typeof o[fields.label] === "number" ? String(o[fields.label]) : o[fields.label];
  if (typeof text !== "string" || text.trim() === "" || typeof label !== "string" || label === "" || /[\t\r\n]/.test(label)) return null;
  if (label === "home" || /^(hub|forum):/.test(label)) return null;
  const kw = o[fields.keywords];
  return typeof kw === "string" && kw !== "" ? { sentence: text, label, keywords: kw } : { sentence: text, label };
}
async function readHeadlines(file, fields, limit = Infinity) {
  const headlines = [];
  let malformed = 0;
  let line = "";
  let tooLong = false;
  let first = true;
  const take = (raw) => {
    let text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (first) {
      first = false;
      if (text.startsWith("\uFEFF")) text = text.slice(1);
    }
    if (text.trim() === "") return;
    let h = null;
    try {
      h = toHeadline(JSON.parse(text), fields);
    } catch {
      h = null;
    }
    if (h === null) malformed++;
    else headlines.push(h);
  };
  const stream = createReadStream7(file, { encoding: "utf8" });
  try {
    for await (const chunk of stream) {
      let start2 = 0;
      for (let nl = chunk.indexOf("\n"); nl >= 0; nl = chunk.indexOf("\n", start2)) {
        const piece = chunk.slice(start2, nl);
        if (tooLong || line.length + piece.length > MAX_LINE_CHARS3) malformed++;
        else take(line + piece);
        line = "";
        tooLong = false;
        start2 = nl + 1;
        if (headlines.length >= limit) return { headlines, malformed };
      }
      const rest = chunk.slice(start2);
      if (!tooLong && line.length + rest.length > MAX_LINE_CHARS3) {
        tooLong = true;
        line = "";
      } else if (!tooLong) {
        line += rest;
      }
      if (headlines.length > MAX_HEADLINES) throw new UsageError(`${file} has more than ${MAX_HEADLINES} headlines; use --limit`);
    }
  } catch (err) {
    if (err instanceof FocuscrawlError) throw err;
    throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`, { cause: err });
  } finally {
    stream.destroy();
  }
  if (tooLong) malformed++;
  else if (line !== "" && headlines.length < limit) take(line);
  return { headlines, malformed };
}
function uuid(key) {
  const h = createHash3("sha1").update(`focuscrawl-gen-web:${key}`).digest("hex");
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
async function portalWarc(web, seed) {
  const infoId = `<${uuid(`${seed}/warcinfo`)}>`;
  const parts = [];
  const push = async (r) => {
    parts.push(await WARCSerializer2.serialize(r, { gzip: true, preferPako: true }));
  };
  await push(
    WARCRecord2.createWARCInfo(
      { warcVersion: WARC_1_12, date: warcDate(0), warcHeaders: { "WARC-Record-ID": infoId } },
      {
        software: "focuscrawl gen-web (src/genweb)",
        format: "WARC File Format 1.1",
        description: WARCINFO_DESCRIPTION,
        isPartOf: `focuscrawl generated portal web, seed ${seed}`
      }
    )
  );
  for (let i = 0; i < web.records.length; i++) {
    const r = web.records[i];
    const headers = {};
    for (const [k, v] of r.headers) headers[k] = v;
    const statusline = `HTTP/1.1 ${r.status} ${r.statusText}`;
    const head = Buffer.from(`${[statusline, ...r.headers.map(([k, v]) => `${k}: ${v}`)].join("\r\n")}\r
\r
`, "utf8");
    const payloadDigest = `sha256:${createHash3("sha256").update(r.body).digest("hex")}`;
    const blockDigest = `sha256:${createHash3("sha256").update(head).update(r.body).digest("hex")}`;
    await push(
      WARCRecord2.create(
        {
          url: r.url,
          date: warcDate(i + 1),
          type: "response",
          warcVersion: WARC_1_12,
          statusline,
          httpHeaders: headers,
          warcHeaders: {
            "WARC-Record-ID": `<${uuid(`${seed}/response ${r.url}`)}>`,
            "WARC-Warcinfo-ID": infoId,
            "WARC-Payload-Digest": payloadDigest,
            "WARC-Block-Digest": blockDigest
          }
        },
        [new Uint8Array(r.body.buffer, r.body.byteOffset, r.body.length)]
      )
    );
  }
  return Buffer.concat(parts);
}
function labelsTsv(web) {
  return `url	label	site
${web.labels.map((l) => `${l.url}	${l.label}	${l.site}
`).join("")}`;
}
function beside(out, suffix) {
  return out.replace(/(\.warc)?(\.gz)?$/i, "") + suffix;
}
async function runGenWeb(argv, io = {}) {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const fail = (code, message) => {
    stderr.write(`focuscrawl gen-web: ${sanitizeForTerminal(message.replace(/\s*\n\s*/g, " "), LOG_LINE_MAX)}
`);
    return code;
  };
  let parsed;
  try {
    parsed = parseCommand(GENWEB_SPEC, argv);
  } catch (err) {
    return fail(ERROR_CODES.FC_USAGE.exit, `FC_USAGE: ${ownMessage(GENWEB_SPEC, err)}`);
  }
  if (parsed.help) {
    stdout.write(helpText(GENWEB_SPEC));
    return 0;
  }
  const { args } = parsed;
  const headlines = args.string("headlines");
  const outFile = args.string("out");
  let web;
  let read;
  let seed;
  const started = performance.now();
  try {
    if (headlines === void 0) throw new UsageError("--headlines FILE is required (see --help)");
    if (outFile === void 0) throw new UsageError("--out FILE is required (see --help)");
    seed = args.number("seed");
    const limit = args.number("limit") ?? Infinity;
    const hosts = args.number("hosts");
    const pageSize = args.number("page-size");
    const share = args.number("hidden-share");
    const fields = { text: args.string("text-field"), label: args.string("label-field"), keywords: args.string("keywords-field") };
    read = await readHeadlines(headlines, fields, limit);
    if (read.headlines.length === 0) throw new UsageError(`no usable headlines in ${headlines} (${read.malformed} malformed lines; fields ${fields.text} / ${fields.label})`);
    web = generatePortalWeb(read.headlines, { seed, hosts, pageSize, hiddenShare: share });
  } catch (err) {
    if (err instanceof FocuscrawlError) return fail(exitStatusOf(err), err.code === "FC_USAGE" ? err.message : `${err.code}: ${err.message}`);
    throw err;
  }
  const out = resolve(outFile);
  const labelsOut = resolve(args.string("labels-out") ?? beside(out, "-labels.tsv"));
  const seedsOut = resolve(args.string("seeds-out") ?? beside(out, "-seeds.txt"));
  const warc = await portalWarc(web, seed);
  try {
    for (const f of [out, labelsOut, seedsOut]) await mkdir5(dirname2(f), { recursive: true });
    await writeFile7(out, warc);
    await writeFile7(labelsOut, labelsTsv(web));
    await writeFile7(seedsOut, web.seeds.join("\n") + "\n");
  } catch (err) {
    return fail(exitStatusOf(err), `cannot write output: ${err.message}`);
  }
  const ms = Math.round(performance.now() - started);
  stdout.write(JSON.stringify({ out, labels: labelsOut, seeds: seedsOut, headlines: read.headlines.length, malformed: read.malformed, records: web.records.length + 1, bytes: warc.length, ms, ...web.stats }) + "\n");
  stderr.write(
    `gen-web: ${read.headlines.length} headlines (${read.malformed} malformed lines skipped) -> ${web.stats.pages} pages on ${web.stats.hosts} hosts (${web.stats.articles} articles, ${web.stats.hubs} hubs, ${web.stats.forum} forum threads, ${web.stats.tunnels} tunnels), ${warc.length} bytes in ${ms} ms
`
  );
  return 0;
}
var MAX_HEADLINES, GENWEB_SPEC, MAX_LINE_CHARS3, WARC_DATE0, warcDate;
var init_gen_web = __esm({
  async "src/commands/gen-web.ts"() {
    "use strict";
    init_args();
    init_errors();
    init_terminal();
    init_portal();
    MAX_HEADLINES = 5e5;
    GENWEB_SPEC = {
      name: "gen-web",
      usage: ["gen-web --headlines FILE.ndjson --out web.warc.gz [options]"],
      summary: "Build a synthetic portal-style Chinese web from labelled headlines: portal homes, per-category channel hosts with paginated hubs, one article page per headline (the headline is its title and anchor text), related-article links, forum threads that tunnel to small single-topic sites, dead links, robots.txt, GBK / GB18030 / UTF-8 pages. Every record says its links are synthetic.",
      flags: [
        { group: "Options", name: "headlines", type: "string", value: "FILE", help: "NDJSON, one headline object a line (required)" },
        { group: "Options", name: "text-field", type: "string", value: "NAME", default: "sentence", help: "field with the headline text" },
        { group: "Options", name: "label-field", type: "string", value: "NAME", default: "label_desc", help: "field with the label" },
        { group: "Options", name: "keywords-field", type: "string", value: "NAME", default: "keywords", help: "field with comma-separated keywords (optional per line)" },
        { group: "Options", name: "seed", type: "int", min: 0, max: 4294967295, default: 1, help: "PRNG seed" },
        { group: "Options", name: "limit", type: "int", min: 1, max: MAX_HEADLINES, defaultText: `all, at most ${MAX_HEADLINES}`, help: "use only the first N valid headlines" },
        { group: "Options", name: "hosts", type: "int", min: 1, max: 50, default: 3, help: "number of portals" },
        { group: "Options", name: "page-size", type: "int", min: 5, max: 200, default: 20, help: "article links per hub page" },
        { group: "Options", name: "hidden-share", type: "number", min: 0, max: 0.5, default: 0.08, help: "share of each label's headlines reachable only through tunnels" },
        { group: "Options", name: "out", type: "string", value: "FILE", help: "WARC to write (.warc.gz, required)" },
        { group: "Options", name: "labels-out", type: "string", value: "FILE", defaultText: "beside --out, <name>-labels.tsv", help: "labels TSV url, label, site" },
        { group: "Options", name: "seeds-out", type: "string", value: "FILE", defaultText: "beside --out, <name>-seeds.txt", help: "seed URLs, one a line" }
      ],
      notes: `Lines that are not JSON objects with a non-empty text and label are skipped
and counted. stdout gets one JSON summary line; stderr a human one.`,
      exitCodes: [
        [0, "written; also --help"],
        [1, "an output cannot be written, an internal error"],
        [2, "bad input: FC_USAGE (a bad flag, an unreadable or empty headline file)"]
      ]
    };
    MAX_LINE_CHARS3 = 64 * 1024;
    WARC_DATE0 = Date.UTC(2024, 5, 1, 8, 0, 0);
    warcDate = (i) => new Date(WARC_DATE0 + i * 1e3).toISOString().replace(".000Z", "Z");
    if (process.argv[1] !== void 0 && resolve(process.argv[1]) === fileURLToPath2(import.meta.url)) {
      process.exitCode = await runGenWeb(process.argv.slice(2));
    }
  }
});

// src/commands/stats.ts
var stats_exports = {};
__export(stats_exports, {
  STATS_SPEC: () => STATS_SPEC,
  openRedisStore: () => openRedisStore,
  requireStore: () => requireStore,
  runStats: () => runStats,
  storeStats: () => storeStats
});
import { readdir as readdir3, stat as stat9 } from "node:fs/promises";
async function requireStore(dir) {
  let names;
  try {
    if (!(await stat9(dir)).isDirectory()) throw new UsageError(`--store ${dir} is not a directory`);
    names = await readdir3(dir);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--store ${dir}: ${err.code ?? err.message}`, { cause: err });
  }
  if (!names.includes("CURRENT")) throw new UsageError(`--store ${dir} is not a focuscrawl store`);
}
async function openRedisStore(location) {
  const { RedisStore: RedisStore2 } = await Promise.resolve().then(() => (init_redis(), redis_exports));
  return RedisStore2.open(location);
}
async function storeStats(dir) {
  if (isRedisStore(dir)) {
    const store2 = await openRedisStore(dir);
    const running = await store2.leases().catch(async (err) => {
      await store2.close();
      throw err;
    }) > 0;
    return { ...await statsOf(store2, true), state: running ? "running" : "finished" };
  }
  await requireStore(dir);
  let store;
  try {
    store = await CrawlStore.open(dir);
  } catch (err) {
    if (!(err instanceof StoreLockedError)) throw err;
    const live = await readLiveStats(dir);
    if (live === null) throw err;
    return { ...live, state: "running" };
  }
  return statsOf(store);
}
async function statsOf(store, shared = false) {
  try {
    const { stats, saved, replayed } = await loadCrawlStats(shared ? { getMeta: async () => void 0, log: (o) => store.log(o), committed: store.committed } : store);
    if (saved !== null && replayed === 0) {
      const { digest: _digest, ...snapshot } = saved;
      return { ...snapshot, state: saved.final ? "finished" : "interrupted" };
    }
    const rebuilt = stats.snapshot({ frontier: store.frontierSize, activeHosts: 0, maxPages: saved?.maxPages ?? void 0 });
    return {
      ...rebuilt,
      elapsed: saved?.elapsed ?? 0,
      runPages: saved?.runPages ?? 0,
      pagesPerSec: saved?.pagesPerSec ?? { recent: 0, overall: 0 },
      state: "interrupted"
    };
  } finally {
    await store.close();
  }
}
async function runStats(argv, io = {}) {
  const stdout = io.stdout ?? process.stdout;
  const { help, args } = parseCommand(STATS_SPEC, argv);
  if (help) {
    stdout.write(helpText(STATS_SPEC));
    return 0;
  }
  const format = args.string("log-format");
  const stats = await storeStats(args.string("store"));
  stdout.write(format === "json" ? `${JSON.stringify(stats)}
` : `${formatStatsLine(stats, `stats (${stats.state})`)}
`);
  return 0;
}
var STATS_SPEC;
var init_stats2 = __esm({
  "src/commands/stats.ts"() {
    "use strict";
    init_args();
    init_errors();
    init_stats();
    init_stats_live();
    init_level();
    init_types();
    STATS_SPEC = {
      name: "stats",
      usage: ["stats --store DIR [--log-format text|json]"],
      summary: "Print the statistics of a crawl store: pages, harvest rate, errors by code, fetch latency percentiles, bytes, frontier size. A running crawl's numbers come from DIR/stats.json, which it rewrites every --stats-interval.",
      flags: [
        { group: "Options", name: "store", type: "string", value: "DIR", default: "./focuscrawl-store", help: "the crawl store, or redis://HOST:PORT/DB?crawl=NAME for a Redis store (totals from its log; running while a worker holds a URL)" },
        { group: "Options", name: "log-format", type: "choice", choices: ["text", "json"], default: "text", help: "text: one readable line; json: one JSON object" }
      ],
      notes: `"state" says where the numbers come from: running (the crawl holds the store),
finished (the final stats of the last run), interrupted (the last run did not
save final stats; totals rebuilt from the store's log).`,
      exitCodes: [
        [0, "printed; also --help"],
        [1, "the store cannot be opened (FC_STORE), an internal error"],
        [2, "bad input: FC_USAGE (a bad flag, a --store that is not a store)"]
      ]
    };
  }
});

// src/commands/records.ts
var records_exports = {};
__export(records_exports, {
  RECORDS_SPEC: () => RECORDS_SPEC,
  runRecords: () => runRecords
});
async function openStore(location) {
  if (isRedisStore(location)) return openRedisStore(location);
  await requireStore(location);
  return CrawlStore.open(location);
}
async function runRecords(argv, io = {}) {
  const stdout = io.stdout ?? process.stdout;
  const { help, args } = parseCommand(RECORDS_SPEC, argv);
  if (help) {
    stdout.write(helpText(RECORDS_SPEC));
    return 0;
  }
  const after = args.number("after");
  const type = args.string("type");
  const store = await openStore(args.string("store"));
  let closed = false;
  const out = new LineOutput(stdout, () => closed = true);
  try {
    for await (const record of store.log(after > 0 ? { gt: logKey(after) } : {})) {
      if (closed) break;
      if (type !== void 0 && record.type !== type) continue;
      const wait = out.write(`${stringifyForTerminal(record)}
`);
      if (wait !== void 0) await wait;
    }
  } finally {
    out.detach();
    await store.close();
  }
  return 0;
}
var RECORDS_SPEC;
var init_records = __esm({
  "src/commands/records.ts"() {
    "use strict";
    init_args();
    init_ndjson();
    init_stats2();
    init_level();
    init_keys();
    init_types();
    init_terminal();
    RECORDS_SPEC = {
      name: "records",
      usage: ["records --store DIR [--after N] [--type page|error]"],
      summary: "Print the records a crawl committed (its store's log), in commit order, one JSON object a line, as the crawl printed them: a lost or cut-short stdout recovered, or a finished crawl read again without crawling.",
      flags: [
        { group: "Options", name: "store", type: "string", value: "DIR", default: "./focuscrawl-store", help: "the crawl store, or redis://HOST:PORT/DB?crawl=NAME for a Redis store" },
        { group: "Options", name: "after", type: "int", min: 0, max: Number.MAX_SAFE_INTEGER, default: 0, help: "skip the first N records (N = the lines already saved: the stdout of all runs on a store is its log in order)" },
        { group: "Options", name: "type", type: "choice", value: "T", choices: ["page", "error"], help: "only records of this type" }
      ],
      notes: `A store a running crawl holds is locked (FC_STORE_LOCKED, exit 1); a Redis
store can be read while workers crawl.`,
      exitCodes: [
        [0, "printed, or stdout was closed early; also --help"],
        [1, "the store is locked (FC_STORE_LOCKED) or cannot be opened (FC_STORE), an internal error"],
        [2, "bad input: FC_USAGE"]
      ]
    };
  }
});

// src/cli.ts
init_args();
init_errors();
init_terminal();
init_version();
var MAIN_HELP = `focuscrawl ${VERSION}: a focused web crawler that streams NDJSON

Usage:
  focuscrawl crawl --seed URL [--seed URL ...] | --seeds FILE [options]
  focuscrawl replay --warc FILE... [--port N]
  focuscrawl stats --store DIR [--log-format text|json]
  focuscrawl records --store DIR [--after N] [--type page|error]
  focuscrawl train | eval | compare | expand-topic | gen-web ...
  focuscrawl -h | --help | help [COMMAND]
  focuscrawl -V | --version | version
  focuscrawl COMMAND -h | --help

From a git checkout: ./bin/focuscrawl ... or npx focuscrawl ... (docs/cli.md).

Commands:
  crawl         fetch the pages most likely on topic first; one NDJSON record per URL on stdout
  replay        serve WARC files as an HTTP forward proxy on 127.0.0.1 (offline crawling)
  train         learn a model (page and link-context classifiers) from labelled pages or texts
  eval          harvest rate and target recall of a crawl's records against labels (+ SVG plot)
  compare       crawl one archive with several strategies and compare them (table + plot)
  expand-topic  mine extension terms for a topic (docs/algorithms.md#etfl)
  gen-web       build a synthetic Chinese portal web (WARC) from labelled headlines
  stats         pages, harvest, errors, latency of a crawl store, finished or running
  records       the records a crawl committed, from its store, as it printed them

Exit codes:
  0     done; also --help and --version
  1     runtime failure (store locked or unwritable, output unwritable, internal error)
  2     bad input: FC_USAGE (unknown command or flag, bad or missing value),
        FC_BAD_TOPIC, FC_BAD_MODEL; one line \`focuscrawl: CODE: message\` each
  130   crawl interrupted by SIGINT; 143: by SIGTERM (the store stays consistent)
`;
var COMMAND_SPECS = {
  crawl: async () => (await Promise.resolve().then(() => (init_crawl(), crawl_exports))).CRAWL_SPEC,
  replay: async () => (await Promise.resolve().then(() => (init_replay(), replay_exports))).REPLAY_SPEC,
  train: async () => (await Promise.resolve().then(() => (init_train(), train_exports))).TRAIN_SPEC,
  eval: async () => (await Promise.resolve().then(() => (init_eval(), eval_exports))).EVAL_SPEC,
  compare: async () => (await Promise.resolve().then(() => (init_compare(), compare_exports))).COMPARE_SPEC,
  "expand-topic": async () => (await Promise.resolve().then(() => (init_expand_topic(), expand_topic_exports))).EXPAND_TOPIC_SPEC,
  "gen-web": async () => (await init_gen_web().then(() => gen_web_exports)).GENWEB_SPEC,
  stats: async () => (await Promise.resolve().then(() => (init_stats2(), stats_exports))).STATS_SPEC,
  records: async () => (await Promise.resolve().then(() => (init_records(), records_exports))).RECORDS_SPEC
};
var mainHelp = () => MAIN_HELP;
async function main(argv) {
  const [cmd, ...rest] = argv;
  process.stdout.on("error", () => {
  });
  try {
    if (cmd === void 0 || cmd === "--help" || cmd === "-h" || cmd === "help" && rest.length === 0) {
      process.stdout.write(MAIN_HELP);
      return 0;
    }
    if (cmd === "--version" || cmd === "-V" || cmd === "-v" || cmd === "version") {
      process.stdout.write(`${VERSION}
`);
      return 0;
    }
    if (cmd === "help") {
      const spec = Object.hasOwn(COMMAND_SPECS, rest[0]) ? await COMMAND_SPECS[rest[0]]() : void 0;
      if (spec === void 0) throw new UsageError(`help: unknown command ${JSON.stringify(rest[0])} (try focuscrawl --help)`);
      process.stdout.write(helpText(spec));
      return 0;
    }
    if (Object.hasOwn(COMMAND_SPECS, cmd)) {
      const problems = usageProblems(await COMMAND_SPECS[cmd](), rest);
      if (problems.length > 0) {
        for (const p of problems) process.stderr.write(`focuscrawl: FC_USAGE: ${sanitizeForTerminal(p, LOG_LINE_MAX)}
`);
        return 2;
      }
    }
    if (cmd === "crawl") return await (await Promise.resolve().then(() => (init_crawl(), crawl_exports))).runCrawlCommand(rest);
    if (cmd === "replay") return await (await Promise.resolve().then(() => (init_replay(), replay_exports))).runReplay(rest);
    if (cmd === "train") return await (await Promise.resolve().then(() => (init_train(), train_exports))).runTrain(rest);
    if (cmd === "eval") return await (await Promise.resolve().then(() => (init_eval(), eval_exports))).runEval(rest);
    if (cmd === "compare") return await (await Promise.resolve().then(() => (init_compare(), compare_exports))).runCompare(rest);
    if (cmd === "expand-topic") return await (await Promise.resolve().then(() => (init_expand_topic(), expand_topic_exports))).runExpandTopic(rest);
    if (cmd === "gen-web") return await (await init_gen_web().then(() => gen_web_exports)).runGenWeb(rest);
    if (cmd === "stats") return await (await Promise.resolve().then(() => (init_stats2(), stats_exports))).runStats(rest);
    if (cmd === "records") return await (await Promise.resolve().then(() => (init_records(), records_exports))).runRecords(rest);
    throw new UsageError(`unknown command ${JSON.stringify(cmd)} (try focuscrawl --help)`);
  } catch (err) {
    const code = err.code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      const oneLine = err.message.replace(/\s*\n\s*/g, " ");
      process.stderr.write(`focuscrawl: ${sanitizeForTerminal(oneLine, LOG_LINE_MAX)} (try focuscrawl ${sanitizeForTerminal(String(cmd), 100)} --help)
`);
      return exitStatusOf(err);
    }
    if (err instanceof FocuscrawlError) {
      process.stderr.write(`focuscrawl: ${err.code}: ${sanitizeForTerminal(err.message, LOG_LINE_MAX)}
`);
      return exitStatusOf(err);
    }
    const stack = (err?.stack ?? String(err)).split("\n").map((line) => sanitizeForTerminal(line, LOG_LINE_MAX));
    process.stderr.write(`focuscrawl: internal error: ${stack.join("\n")}
`);
    return exitStatusOf(err);
  }
}
export {
  COMMAND_SPECS,
  main,
  mainHelp
};
