/**
 * One-pass SAX page parser (no DOM): title, visible text grouped by block
 * type (Wu & Li's tag-block model, docs/algorithms.md#tag-block-relevance), links with
 * anchor text and Han et al.'s heuristic link-context window
 * (docs/algorithms.md#link-context-window). A pure state machine over htmlparser2's
 * `Parser`: feed decoded text with `write()` in pieces of any size, then
 * call `end()`. The result does not depend on how the input was split.
 *
 * Memory is bounded whatever the page: every text block is capped
 * (`maxTextChars`), anchors are capped (`maxAnchorChars`), links are capped
 * (`maxLinks`), the text kept for context windows is a ring of a few × N
 * characters, and text held back for the navigation decision (below) is
 * capped at `maxTextChars` in total (more is dropped).
 *
 * Rules, precisely:
 *
 * - Skipped: the contents (text and links) of script, style, noscript,
 *   template, noembed, noframes and iframe (the last three are raw text to
 *   htmlparser2).
 * - Whitespace: every run of whitespace (incl. &nbsp;) becomes one space;
 *   block-level elements (p, div, td, li, br, h1, ...) and img, input,
 *   button, label separate words.
 * - Block of a piece of text, first match wins: inside <title> → title;
 *   inside a link's <a> → anchor; inside a navigation region → navigation;
 *   inside h1–h6 → heading; inside label, button, select, option, textarea,
 *   legend (and img alt outside links) → other; else content.
 * - Navigation region: <nav>, <header>, <footer>, or any element whose id or
 *   class contains nav|menu|header|footer|sidebar|breadcrumb.
 * - Link lists: ul, ol, menu, dir, dl, tr, td and th (outside navigation
 *   regions) are judged when they close: a container holding ≥ 2 links whose
 *   anchor text has ≥ 2 × as many non-space characters as its other text is
 *   "mostly links", and all its non-anchor text and links become
 *   navigation. Text inside such containers is held back until the
 *   outermost one closes (innermost containers decide first; a container
 *   judged not navigation leaves the decision to the one around it).
 * - Links: a[href], area[href], frame[src], iframe[src], and the URL of
 *   <meta http-equiv=refresh content="N; url=..."> (refreshUrl in meta-refresh.ts; tag
 *   'meta', no anchor text: a moved page's pointer); resolved against the
 *   first <base href> seen before the link, else the page URL; only http(s)
 *   results are kept (javascript:, mailto:, data:, ... are dropped, as are
 *   empty and fragment-only hrefs); not canonicalised. A new link starting
 *   while an <a> is still open ends that <a> (as HTML does for nested <a>).
 *   Anchor text: the text inside <a> plus alt of <img> inside it; <area>:
 *   alt; frame/iframe: title, else name. Links past `maxLinks` are not kept:
 *   those with an http(s) URL and no rel=nofollow are counted
 *   (`linksDropped`, unless the page is nofollow) and `caps` says 'links'.
 * - nofollow: rel contains "nofollow", or <meta name=robots> says nofollow
 *   or none (then every link of the page is nofollow). noindex likewise.
 * - Title: the text of the first <title>. When it is missing or generic
 *   ("", untitled, home, index, welcome, document, new page, "index of …",
 *   see GENERIC_TITLES) SkyReach's heuristic (docs/algorithms.md#title-heuristic) replaces it: paragraphs (text
 *   between block boundaries) are looked at until the first one of
 *   ≥ BODY_PARAGRAPH_CHARS characters (the body starts there); among the
 *   earlier paragraphs of ≤ TITLE_MAX_CHARS characters the title is the
 *   first h1, else the first h2, else the first h3, else the first paragraph
 *   that is wholly emphasised (b, strong, big, center, font[size], h4–h6).
 *   If none qualifies the generic title stays. `blocks.title` is the title.
 *
 * Link-context window (docs/algorithms.md#link-context-window), computed in one pass. Let T be the page's
 * visible text (all blocks but the title, collapsed, in document order; img
 * alt counts as text) and N = contextChars. A link occupies [s, e) of T: its
 * anchor text, or an empty span for area/frame/iframe. Links dropped above
 * (javascript: ...) still occupy spans. For link L:
 *   - the previous link P is "in the window" when s(L) − e(P) < N;
 *   - the next link X is "in the window" when s(X) − e(L) < N.
 *   If P or X is in the window, context = anchor(P) (when P is in) + " " +
 *   anchor(X) (when X is in). Otherwise context = the N characters of T
 *   before s(L) + " " + the N characters after e(L), each cut back to a
 *   word boundary when the window cut a word and contains a space (text
 *   without spaces, e.g. Chinese, is cut at N). Result trimmed.
 * Lookahead: a link whose after-window is not complete waits in a short
 * pending list and is finished when N + 1 characters have followed it, when
 * the next link starts (outside) or ends (inside its window), or at end().
 *
 * Strings put into the result are copied with `(' ' + s).slice(1)` (see
 * `ownCopy`) or joined from such copies (a context of neighbour anchors
 * joins the anchors' copies), so they do not keep the page's decoded
 * chunks alive.
 */
import { Parser } from 'htmlparser2';
import type { BlockType, PageCap, PageLink, ParsedPage } from '../types.ts';
import { Collapser } from './collapse.ts';
import { MainText, type MainMark } from './main-text.ts';
import { refreshUrl } from './meta-refresh.ts';
import { headEnd, headOf, isHigh, isLow } from './utf16.ts';
import { isSimpleHttpUrl } from '../urls/canonical.ts';

/** Options of PageParser; all optional. */
export interface PageParserOptions {
  /** context window N, characters on each side of a link (default 100) */
  contextChars?: number;
  /** links kept per page (default DEFAULT_MAX_LINKS); more are counted in ParsedPage.linksDropped */
  maxLinks?: number;
  /** cap of each text block, characters (default 200,000) */
  maxTextChars?: number;
  /** cap of one anchor text, characters (default 500) */
  maxAnchorChars?: number;
  /** reported as ParsedPage.charset (default 'utf-8'); the parser sees decoded text */
  charset?: string;
  /**
   * keep the page's main text in document order, at most this many
   * characters, as ParsedPage.text (default 0: not kept). See main-text.ts.
   */
  mainTextChars?: number;
}

/** Links kept per page unless told otherwise (--max-links-per-page). */
export const DEFAULT_MAX_LINKS = 5000;

/** Titles that say nothing about the page (compared lower-cased, trimmed). */
export const GENERIC_TITLES: ReadonlySet<string> = new Set([
  '',
  'untitled',
  'untitled document',
  'untitled page',
  'no title',
  'home',
  'home page',
  'homepage',
  'index',
  'welcome',
  'document',
  'new page',
  'default',
]);
const GENERIC_TITLE_PATTERNS = [/^index of\b/, /^new page \d+$/, /^(index|default|home)\.s?html?$/];

/** A paragraph this long (characters) marks the start of the body. */
export const BODY_PARAGRAPH_CHARS = 200;
/** Longest paragraph the title heuristic accepts as a title. */
export const TITLE_MAX_CHARS = 150;
/**
 * Elements open at once, at most. htmlparser2 keeps its open-element stack
 * with unshift/shift, so each tag costs time proportional to the depth:
 * 100,000 nested <div>s (500 KB) took ~20 s of CPU, stalling every fetch.
 * An element that would open deeper is treated as closed at once (Chrome's
 * tree builder stops nesting at 512 too): it is not put on the stack, but
 * parsing goes on: its links and text are collected, an `<a>` among them
 * keeps its anchor text up to its `</a>` (or the next link), a skipped
 * element (noscript, template, ...) still hides its content up to its end
 * tag, and end tags close what is open. The page then says
 * `caps: ['nesting']`. Raw-text elements (script, style, title, textarea,
 * ...) may open one level deeper: they hold no elements.
 */
export const MAX_NESTING = 512;

/** True when `title` is missing or generic (see GENERIC_TITLES). */
export function isGenericTitle(title: string | null | undefined): boolean {
  const s = (title ?? '').trim();
  // every generic title starts with one of d h i n u w (the title heuristic asks for every short paragraph)
  const c = s.length === 0 ? 0 : s.charCodeAt(0) | 0x20;
  if (c !== 0 && c !== 0x64 && c !== 0x68 && c !== 0x69 && c !== 0x6e && c !== 0x75 && c !== 0x77) return false;
  const t = s.replace(/\s+/g, ' ').toLowerCase();
  return GENERIC_TITLES.has(t) || GENERIC_TITLE_PATTERNS.some((re) => re.test(t));
}

/**
 * A copy of `s` that shares no memory with the string it was cut from.
 * V8 keeps `slice()` results and concatenations as views into their
 * parents; `(' ' + s).slice(1)` flattens a fresh concatenation, so the
 * result refers at most to that fresh copy, never to a page chunk.
 */
export function ownCopy(s: string): string {
  return s.length === 0 ? '' : (' ' + s).slice(1);
}

const WS = /\s+/g;

/**
 * htmlparser2 12.0.0 ends input inside `<b/` (InSelfClosingTag) or `</b `
 * (AfterClosingTagName) with ontext(-1, end) from its handleTrailingData,
 * and getSlice(-1, end) then returns characters that depend on how the
 * input was chunked. WHATWG: end of input inside a tag emits nothing, so
 * text with no start is dropped. Every other text event has a start >= 0.
 */
class TrailingSafeParser extends Parser {
  override ontext(start: number, endIndex: number): void {
    if (start < 0) return;
    super.ontext(start, endIndex);
  }
}

/** The htmlparser2 12.0.0 internals CappedParser reaches (private in its types). */
interface ParserInternals {
  stack: string[];
  foreignContext: unknown[];
  tagname: string;
  cbs: { onclosetag?: (name: string, isImplied: boolean) => void };
  isInForeignContext(): boolean;
  readTagName(start: number, endIndex: number): string;
}

/** Elements whose content htmlparser2's tokenizer reads as text (outside svg/math). */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
/** Elements for which htmlparser2 pushes a foreign-context entry (its foreignContextElements and htmlIntegrationElements). */
const FOREIGN_PUSH = new Set(['svg', 'math', 'mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignObject', 'desc', 'title']);

/**
 * TrailingSafeParser whose open-element stack never grows past MAX_NESTING
 * (MAX_NESTING + 1 for a raw-text element): a deeper element is taken off
 * the stack right after htmlparser2 put it there, its `onopentag` runs
 * with `beyondCap` true and is followed at once by its `onclosetag`. An end
 * tag that matches no open element is reported to `onStrayClose`.
 */
class CappedParser extends TrailingSafeParser {
  /** the open tag being read lies beyond the cap (it is not on the stack) */
  private cappedTag: string | null = null;
  /** true while the `onopentag` callback of an element beyond the cap runs */
  beyondCap = false;
  /** elements opened beyond the cap so far */
  capped = 0;
  onStrayClose: ((name: string) => void) | null = null;

  /** the tag name htmlparser2 read last */
  private lastTagName = '';

  /** remembers the name htmlparser2's readTagName read (set on the prototype below: no closure per page) */
  static {
    const proto = this.prototype as unknown as ParserInternals & { lastTagName: string };
    const read = proto.readTagName;
    proto.readTagName = function (this: ParserInternals & { lastTagName: string }, start: number, endIndex: number): string {
      return (this.lastTagName = read.call(this, start, endIndex));
    };
  }

  private get internals(): ParserInternals {
    return this as unknown as ParserInternals;
  }

  override onopentagname(start: number, endIndex: number): void {
    const p = this.internals;
    // an element adds at most one entry to the stack: below the cap after it whatever it is (the common case)
    if (p.stack.length < MAX_NESTING) {
      super.onopentagname(start, endIndex);
      this.cappedTag = null;
      return;
    }
    const foreign = p.isInForeignContext();
    super.onopentagname(start, endIndex);
    this.cappedTag = null;
    // below the cap whatever the element (the common case: no more checks)
    if (p.stack.length <= MAX_NESTING) return;
    const name = p.tagname;
    // '' is a second <form> (ignored); void elements are never on the stack
    if (name === '' || this.isVoidElement(name) || p.stack[0] !== name) return;
    const limit = !foreign && RAW_TEXT.has(name) ? MAX_NESTING + 1 : MAX_NESTING;
    if (p.stack.length <= limit) return;
    p.stack.shift();
    if (FOREIGN_PUSH.has(name)) p.foreignContext.shift();
    this.cappedTag = name;
    this.capped++;
  }

  override onopentagend(endIndex: number): void {
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

  override onselfclosingtag(endIndex: number): void {
    // in svg/math htmlparser2 would pop the stack's top for a self-closing tag: not ours
    if (this.cappedTag !== null) this.onopentagend(endIndex);
    else super.onselfclosingtag(endIndex);
  }

  override onclosetag(start: number, endIndex: number): void {
    const p = this.internals;
    const depth = p.stack.length;
    super.onclosetag(start, endIndex);
    // the name as htmlparser2 read it (getSlice can be asked once only: it drops consumed buffers)
    const name = this.lastTagName;
    // an end tag that closes nothing leaves the stack as it was (a stray </p> opens and closes a <p>)
    if (p.stack.length === depth && !this.isVoidElement(name)) this.onStrayClose?.(name);
  }
}

/** Whitespace other than ' ', or two spaces in a row: `s` is not squeezed yet. */
const UNSQUEEZED = /[^\S ]| {2}/;
/** Whitespace alone. */
const ALL_SPACE = /^\s+$/;

/**
 * `s` with each whitespace run replaced by one space (input of
 * Collapser.add): `s.replace(/\s+/g, ' ')`. It runs on every text node, so
 * the two common cases allocate nothing: text already squeezed comes back
 * as it is (one regex scan, native, instead of a loop over the characters),
 * and whitespace alone (indentation between tags) as ' '.
 */
export function squeeze(s: string): string {
  if (s.length === 1) {
    // most text events between tags are one "\n"; a held-back ' ' comes back here too
    const c = s.charCodeAt(0);
    if (c === 32 || (c > 32 && c < 0xa0)) return s;
    // \n, \t, \r without the regex
    if (c === 10 || c === 9 || c === 13) return ' ';
    return ALL_SPACE.test(s) ? ' ' : s;
  }
  if (!UNSQUEEZED.test(s)) return s;
  if (ALL_SPACE.test(s)) return ' ';
  return s.replace(WS, ' ');
}

/** Non-space characters of a squeezed string. */
function visibleLength(sq: string): number {
  let n = sq.length;
  for (let i = sq.indexOf(' '); i !== -1; i = sq.indexOf(' ', i + 1)) n--;
  return n;
}

/** Counts the block boundaries (PageParser.blockBreak) the text blocks take lazily. */
interface BreakClock {
  n: number;
}

/**
 * Collapsed text (fed squeezed pieces) capped at `max` characters; more is
 * dropped. With a `clock`, a tick of it since the last add is a `brk()`
 * (a block boundary asks every text block for a space: one tick instead of
 * six calls; a separator only matters before the next text).
 */
class CappedText extends Collapser {
  text = '';
  /** the cap was reached (a cut before a surrogate pair leaves text one short of max) */
  private full = false;
  private seen = 0;

  constructor(
    readonly max: number,
    private readonly clock: BreakClock | null = null,
  ) {
    super();
  }

  /** Empty again, as new (the anchor text is reused: one anchor is open at a time). */
  override reset(): void {
    super.reset();
    this.text = '';
    this.full = false;
  }

  protected override emit(piece: string): void {
    const room = this.max - this.text.length;
    if (room <= 0 || this.full) return;
    this.text += piece.length <= room ? piece : headOf(piece, room);
    this.full = piece.length >= room;
  }

  /** `add(' ')`: a separator before the next text */
  space(): void {
    if (this.full) return;
    if (this.clock !== null) this.seen = this.clock.n;
    this.brk();
  }

  override add(sq: string): void {
    if (this.full) return;
    const clock = this.clock;
    if (clock !== null && this.seen !== clock.n) {
      this.seen = clock.n;
      this.brk();
    }
    super.add(sq);
  }
}

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'noembed', 'noframes', 'iframe']);
const BLOCK_LEVEL = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'dd', 'dir', 'div',
  'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frame', 'frameset', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hr', 'html', 'iframe', 'legend', 'li', 'main', 'menu',
  'nav', 'ol', 'option', 'p', 'pre', 'section', 'select', 'table', 'tbody', 'td', 'textarea', 'tfoot',
  'th', 'thead', 'title', 'tr', 'ul',
  // inline, but never part of a word with the text around them
  'button', 'img', 'input', 'label',
]);
const NAV_TAGS = new Set(['nav', 'header', 'footer']);
const NAV_ATTR = /nav|menu|header|footer|sidebar|breadcrumb/i;
const OTHER_TAGS = new Set(['label', 'button', 'select', 'option', 'textarea', 'legend']);
const EMPH_TAGS = new Set(['b', 'strong', 'big', 'center', 'h4', 'h5', 'h6']);
const LIST_CONTAINERS = new Set(['ul', 'ol', 'menu', 'dir', 'dl', 'tr', 'td', 'th']);
const HEADING_LEVEL: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

/** Bits of TAG_KIND: which of the sets above a tag is in (heading level in bits 6–8). */
const K_SKIP = 1;
const K_BLOCK = 2;
const K_NAV = 4;
const K_OTHER = 8;
const K_EMPH = 16;
const K_LIST = 32;
const K_LEVEL_SHIFT = 6;
/**
 * Tag → its TAG_KIND bits, one lookup per element instead of one per set
 * (a Map: `HEADING_LEVEL[tag]` also found `constructor` and `__proto__`).
 */
const TAG_KIND = new Map<string, number>();
for (const [set, bit] of [[SKIP, K_SKIP], [BLOCK_LEVEL, K_BLOCK], [NAV_TAGS, K_NAV], [OTHER_TAGS, K_OTHER], [EMPH_TAGS, K_EMPH], [LIST_CONTAINERS, K_LIST]] as const) {
  for (const tag of set) TAG_KIND.set(tag, (TAG_KIND.get(tag) ?? 0) | bit);
}
for (const [tag, level] of Object.entries(HEADING_LEVEL)) TAG_KIND.set(tag, (TAG_KIND.get(tag) ?? 0) | (level << K_LEVEL_SHIFT));

/** Bits of Frame.flags: the state an open element changed (undone when it closes). */
const F_SKIP = 1;
const F_TITLE = 2;
const F_HEADING = 4;
const F_NAV = 8;
const F_OTHER = 16;
const F_EMPH = 32;
const F_SEGMENT = 64;

/** An element open in the parser, with the state it changed (every field set: one object shape). */
interface Frame {
  tag: string;
  /** TAG_KIND of tag */
  kind: number;
  /** F_* bits */
  flags: number;
  /** the link whose <a> this element opened, while it is the open anchor */
  anchor: LinkSpan | null;
  /** opened beyond MAX_NESTING: closed at once, changed no state but an anchor or a skip */
  capped: boolean;
}

/** Text held back inside a link-list container: a text run or a break (t null). */
interface Fragment {
  t: BlockType | null;
  fixed: boolean;
  s: string;
}

/** The break fragment: every segment shares it (only fragments with a block type are ever changed). */
const BREAK: Fragment = { t: null, fixed: false, s: '' };

/** A link-list container waiting for its navigation decision. */
interface Segment {
  frags: Fragment[];
  /** MainText's state when the container opened: judged navigation, its main text is taken back */
  mainMark: MainMark | null;
  links: PageLink[];
  spans: number;
  anchorChars: number;
  plainChars: number;
}

/**
 * A link's place in the visible text and, for a kept link whose context is
 * not known yet, what its context needs (one object per link: the span, its
 * pending context and the open anchor are the same thing).
 */
interface LinkSpan {
  start: number;
  end: number;
  /** the final anchor text once the span ended; a copy (ownCopy) when `link` is kept */
  anchor: string;
  /** the kept link (null: dropped, the span only counts for its neighbours' windows) */
  link: PageLink | null;
  /** the previous link when it is in the window (its anchor is the context's first half) */
  prev: LinkSpan | null;
  /** up to N + 1 characters of text before the link ('' when prev is set: the context is anchors then) */
  before: string;
  /** up to N + 1 characters of text after the link, while `next` is null ('' when prev is set) */
  after: string;
  /** characters of text after the link seen so far, up to N + 1 */
  afterLen: number;
  /** the next link, when it starts inside this link's after-window */
  next: LinkSpan | null;
}

/** Title-heuristic state for the paragraph being read. */
interface Unit {
  text: string;
  /** heading level of all its text: undefined none yet, 0 none, -1 mixed */
  level: number | undefined;
  emph: boolean;
}

/**
 * SAX page parser; see the module comment for the exact rules.
 * `new PageParser(url, opts)`, then `write(text)` any number of times, then
 * `end()` once, which returns the ParsedPage.
 */
export class PageParser {
  private readonly n: number;
  private readonly maxLinks: number;
  private readonly maxText: number;
  private readonly maxAnchor: number;
  private readonly charset: string;
  private readonly parser: CappedParser;
  private ended = false;
  /** a high surrogate that ended the last write (see write) */
  private heldHigh = '';
  /** an <a> opened beyond MAX_NESTING is open: the frames below this index were open when it started (-1: none) */
  private looseAnchorDepth = -1;
  /** skipped elements opened beyond MAX_NESTING and not yet ended (they are in skipDepth too) */
  private looseSkips = 0;
  /** the frames below this index were open when the first of looseSkips started */
  private looseSkipDepth = -1;
  /** links past maxLinks (http(s), not rel=nofollow) */
  private linksDropped = 0;

  /** the open elements are frames[0 .. depth - 1]; a closed one's Frame is reused by the next element at its depth */
  private readonly frames: Frame[] = [];
  private depth = 0;
  private skipDepth = 0;
  private titleDepth = 0;
  private titleDone = false;
  private navDepth = 0;
  private otherDepth = 0;
  private emphDepth = 0;
  private readonly headings: number[] = [];

  private readonly blocks: Record<BlockType, CappedText>;
  /** ticks once per block boundary of the text blocks (see CappedText) */
  private readonly blockClock: BreakClock = { n: 0 };
  private readonly segments: Segment[] = [];
  private deferredChars = 0;
  /** the deferred text reached its cap (a cut before a surrogate pair can leave room that must stay unused) */
  private deferredFull = false;
  /** the main text, when kept (mainTextChars > 0) */
  private readonly main: MainText | null;

  private base: string;
  private baseSet = false;
  private lang: string | null = null;
  private noindex = false;
  private nofollow = false;
  private readonly links: PageLink[] = [];

  /** visible text stream for context windows */
  private readonly stream: Collapser;
  private pos = 0;
  private recent = '';
  private lastSpan: LinkSpan | null = null;
  /** the link of the open <a> (its text is anchorText) */
  private anchor: LinkSpan | null = null;
  /** the text of the open anchor, or of an area/frame link being made */
  private readonly anchorText: CappedText;
  /** kept links whose context is not known yet */
  private readonly awaiting: LinkSpan[] = [];
  /**
   * awaiting's first nAwaiting entries are the waiting links (a count, not
   * `length = j`: V8 drops an array's backing store when its length is set
   * to 0 and allocates a new one at the next push, once per link)
   */
  private nAwaiting = 0;
  /** href -> resolve() against the current base, for hrefs not absolute already (bounded: asked for kept links only, at most maxLinks) */
  private resolved: Map<string, string | null> | null = null;

  /** title heuristic */
  private readonly unitText: Collapser;
  private unit: Unit = { text: '', level: undefined, emph: true };
  private bodySeen = false;
  private bestHeading: { level: number; text: string } | null = null;
  private firstEmph: string | null = null;

  constructor(
    private readonly pageUrl: string,
    opts: PageParserOptions = {},
  ) {
    this.n = Math.max(0, Math.floor(opts.contextChars ?? 100));
    this.maxLinks = Math.max(0, Math.floor(opts.maxLinks ?? DEFAULT_MAX_LINKS));
    this.maxText = Math.max(0, Math.floor(opts.maxTextChars ?? 200_000));
    this.maxAnchor = Math.max(0, Math.floor(opts.maxAnchorChars ?? 500));
    this.charset = opts.charset ?? 'utf-8';
    this.base = pageUrl;
    const max = this.maxText;
    const clock = this.blockClock;
    this.blocks = {
      title: new CappedText(max, clock),
      heading: new CappedText(max, clock),
      content: new CappedText(max, clock),
      navigation: new CappedText(max, clock),
      anchor: new CappedText(max, clock),
      other: new CappedText(max, clock),
    };
    this.anchorText = new CappedText(this.maxAnchor);
    const mainChars = Math.max(0, Math.floor(opts.mainTextChars ?? 0));
    this.main = mainChars > 0 ? new MainText(mainChars) : null;
    this.stream = new Collapser((piece) => this.onStream(piece));
    this.unitText = new Collapser((piece) => {
      const room = BODY_PARAGRAPH_CHARS - this.unit.text.length;
      if (room > 0) this.unit.text += headOf(piece, room);
    });
    // the page parser is htmlparser2's handler itself (its onopentag, onclosetag and ontext): no closures per page
    this.parser = new CappedParser(
      this,
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
    );
    this.parser.onStrayClose = (name) => this.onStrayClose(name);
  }

  /**
   * Feed the next piece of decoded HTML. A high surrogate that ends a piece
   * is held until the next one: a pair cut between two writes parses as the
   * whole pair would (a cap falling between the halves must not keep one).
   */
  write(chunk: string): void {
    if (this.ended) throw new Error('PageParser.write() after end()');
    if (this.heldHigh !== '') {
      chunk = this.heldHigh + chunk;
      this.heldHigh = '';
    }
    if (chunk.length > 0 && isHigh(chunk.charCodeAt(chunk.length - 1))) {
      this.heldHigh = chunk.slice(-1);
      chunk = chunk.slice(0, -1);
    }
    if (chunk !== '') this.parser.write(chunk);
  }

  /** Finish parsing (closes every open element) and return the page. */
  end(): ParsedPage {
    if (this.ended) throw new Error('PageParser.end() called twice');
    // a lone high surrogate at the very end is text like any other
    if (this.heldHigh !== '') this.parser.write(this.heldHigh);
    this.heldHigh = '';
    this.parser.end();
    // an <a> opened beyond MAX_NESTING and never closed ends with the page
    if (this.looseAnchorDepth >= 0) this.endAnchor();
    this.ended = true;
    this.finishUnit();
    for (let i = 0; i < this.nAwaiting; i++) this.finish(this.awaiting[i], null);
    this.nAwaiting = 0;
    const rawTitle = this.blocks.title.text;
    let title = rawTitle;
    if (isGenericTitle(rawTitle)) title = this.bestHeading?.text ?? this.firstEmph ?? rawTitle;
    title = ownCopy(headOf(title, this.maxText));
    if (this.nofollow) for (const l of this.links) l.nofollow = true;
    const caps: PageCap[] = [];
    if (this.parser.capped > 0) caps.push('nesting');
    if (this.linksDropped > 0) caps.push('links');
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
        other: ownCopy(b.other.text),
      },
      ...(this.main !== null ? { text: ownCopy(this.main.text), textTruncated: this.main.truncated } : {}),
      links: this.links,
      base: this.base,
      noindex: this.noindex,
      nofollow: this.nofollow,
      lang: this.lang,
      ...(caps.length > 0 ? { caps } : {}),
      // with <meta name=robots content=nofollow> none of them would have been followed
      ...(this.linksDropped > 0 && !this.nofollow ? { linksDropped: this.linksDropped } : {}),
    };
  }

  // ---- elements -----------------------------------------------------------

  /** @internal htmlparser2's callback: an element opens */
  onopentag(tag: string, attr: Record<string, string>): void {
    const kind = TAG_KIND.get(tag) ?? 0;
    const capped = this.parser.beyondCap;
    let f = this.frames[this.depth];
    if (f === undefined) this.frames.push((f = { tag, kind, flags: 0, anchor: null, capped }));
    else {
      f.tag = tag;
      f.kind = kind;
      f.flags = 0;
      f.anchor = null;
      f.capped = capped;
    }
    this.depth++;
    if (this.skipDepth > 0 || (kind & K_SKIP) !== 0) {
      if ((kind & K_SKIP) !== 0) {
        f.flags |= F_SKIP;
        this.skipDepth++;
        if (capped) {
          // closed at once, but its content stays hidden up to its end tag
          if (this.looseSkips++ === 0) this.looseSkipDepth = this.depth - 1;
        }
      }
      // iframe is a link even though its content is skipped
      if (tag === 'iframe' && this.skipDepth === 1 && attr.src !== undefined) {
        this.visualBreak();
        this.zeroLengthLink('iframe', attr.src, attr.title || attr.name || '', attr.rel);
      }
      return;
    }
    if ((kind & K_BLOCK) !== 0) this.visualBreak();
    switch (tag) {
      case 'title':
        if (!this.titleDone && !capped) {
          f.flags |= F_TITLE;
          this.titleDepth++;
        }
        break;
      case 'html':
        if (this.lang === null && attr.lang !== undefined && attr.lang.trim() !== '') {
          this.lang = ownCopy(attr.lang.trim());
        }
        break;
      case 'base':
        if (!this.baseSet && attr.href !== undefined && attr.href.trim() !== '') {
          try {
            this.base = new URL(attr.href.trim(), this.pageUrl).href;
            this.baseSet = true;
            this.resolved = null;
          } catch {
            // an unusable <base> is ignored
          }
        }
        break;
      case 'meta':
        if ((attr['http-equiv'] ?? '').trim().toLowerCase() === 'refresh') {
          const target = refreshUrl(attr.content ?? '');
          if (target !== null) this.zeroLengthLink('meta', target, '', undefined);
        }
        if ((attr.name ?? '').trim().toLowerCase() === 'robots') {
          for (const d of (attr.content ?? '').toLowerCase().split(/[\s,;]+/)) {
            if (d === 'noindex' || d === 'none') this.noindex = true;
            if (d === 'nofollow' || d === 'none') this.nofollow = true;
          }
        }
        break;
      case 'a':
        if (attr.href !== undefined) {
          this.startAnchor(f, attr.href, attr.rel);
          // closed at once, but its anchor text runs to its </a> (or the next link)
          if (capped) this.looseAnchorDepth = this.depth - 1;
        }
        break;
      case 'area':
        if (attr.href !== undefined) this.zeroLengthLink('area', attr.href, attr.alt ?? '', attr.rel);
        break;
      case 'frame':
        if (attr.src !== undefined) this.zeroLengthLink('frame', attr.src, attr.title || attr.name || '', attr.rel);
        break;
      case 'img':
        if (attr.alt !== undefined && attr.alt.trim() !== '') {
          this.visibleText(squeeze(` ${attr.alt} `), this.anchor ? undefined : 'other');
        }
        break;
    }
    // an element closed at once has no region, heading, emphasis or list of its own
    if (capped) return;
    const level = kind >> K_LEVEL_SHIFT;
    if (level !== 0) {
      f.flags |= F_HEADING;
      this.headings.push(level);
    }
    if (tag !== 'html' && tag !== 'body' && ((kind & K_NAV) !== 0 || (attr.id !== undefined && NAV_ATTR.test(attr.id)) || (attr.class !== undefined && NAV_ATTR.test(attr.class)))) {
      f.flags |= F_NAV;
      this.navDepth++;
    }
    if ((kind & K_OTHER) !== 0) {
      f.flags |= F_OTHER;
      this.otherDepth++;
    }
    if ((kind & K_EMPH) !== 0 || (tag === 'font' && attr.size !== undefined)) {
      f.flags |= F_EMPH;
      this.emphDepth++;
    }
    if ((kind & K_LIST) !== 0 && this.navDepth === 0) {
      f.flags |= F_SEGMENT;
      this.segments.push({ frags: [], mainMark: this.main?.mark() ?? null, links: [], spans: 0, anchorChars: 0, plainChars: 0 });
    }
  }

  /** @internal htmlparser2's callback: an element closes */
  onclosetag(tag: string): void {
    let i = this.depth - 1;
    while (i >= 0 && this.frames[i].tag !== tag) i--;
    if (i < 0) return;
    // closing an element that was open when a loose anchor or skip began ends it first
    if (i < this.looseSkipDepth) this.endLooseSkips(this.looseSkips);
    if (i < this.looseAnchorDepth && this.anchor !== null) this.endAnchor();
    while (this.depth > i) this.pop(this.frames[--this.depth]);
  }

  /** An end tag that matches no open element: it may end what an element beyond MAX_NESTING began. */
  private onStrayClose(tag: string): void {
    if (this.looseSkips > 0) {
      if (SKIP.has(tag)) this.endLooseSkips(1);
      return;
    }
    if (this.skipDepth > 0) return;
    if (tag === 'a' && this.looseAnchorDepth >= 0 && this.anchor !== null) this.endAnchor();
    if (BLOCK_LEVEL.has(tag)) this.visualBreak();
  }

  private endLooseSkips(n: number): void {
    this.looseSkips -= n;
    this.skipDepth -= n;
    if (this.looseSkips === 0) this.looseSkipDepth = -1;
  }

  private pop(f: Frame): void {
    const flags = f.flags;
    if ((flags & F_SKIP) !== 0) {
      // one opened beyond MAX_NESTING is ended by endLooseSkips
      if (!f.capped) this.skipDepth--;
      return;
    }
    if (this.skipDepth > 0) return;
    if (f.anchor !== null && this.anchor === f.anchor && !f.capped) this.endAnchor();
    if (flags !== 0) {
      if ((flags & F_SEGMENT) !== 0) this.closeSegment();
      if ((flags & F_TITLE) !== 0) {
        this.titleDepth--;
        this.titleDone = true;
      }
      if ((flags & F_HEADING) !== 0) this.headings.pop();
      if ((flags & F_NAV) !== 0) this.navDepth--;
      if ((flags & F_OTHER) !== 0) this.otherDepth--;
      if ((flags & F_EMPH) !== 0) this.emphDepth--;
    }
    if ((f.kind & K_BLOCK) !== 0) this.visualBreak();
  }

  // ---- text ---------------------------------------------------------------

  /** @internal htmlparser2's callback: text */
  ontext(raw: string): void {
    if (this.skipDepth > 0) return;
    const text = squeeze(raw);
    if (this.titleDepth > 0) {
      this.blocks.title.add(text);
      return;
    }
    if (text === ' ') {
      this.space();
      return;
    }
    this.visibleText(text, undefined);
    this.unitAdd(text);
  }

  /**
   * `visibleText(' ', undefined)` and `unitAdd(' ')`, for whitespace alone
   * (most text events: the line breaks between tags). A space asks each
   * collapser for a separator and nothing more.
   */
  private space(): void {
    this.stream.brk();
    if (this.main !== null && this.navDepth === 0) this.main.add(' ');
    if (!this.bodySeen) this.unitText.brk();
    if (this.anchor !== null) {
      this.anchorText.space();
      this.blocks.anchor.space();
      return;
    }
    const type = this.baseType();
    const seg = this.segments[this.segments.length - 1];
    if (seg === undefined) this.blocks[type].space();
    else this.defer(seg, type, ' ');
  }

  /** Visible (squeezed) text: into the context stream, and into its block (or `forced`). */
  private visibleText(text: string, forced: BlockType | undefined): void {
    this.stream.add(text);
    const seg = this.segments[this.segments.length - 1];
    if (this.main !== null && this.navDepth === 0 && forced !== 'navigation') this.main.add(text);
    if (this.anchor !== null) {
      this.anchorText.add(text);
      this.blocks.anchor.add(text);
      if (seg) seg.anchorChars += visibleLength(text);
      return;
    }
    const type = forced ?? this.baseType();
    if (seg === undefined) {
      this.blocks[type].add(text);
      return;
    }
    seg.plainChars += visibleLength(text);
    this.defer(seg, type, text);
  }

  /** Text of a block held back in a link-list container (see closeSegment). */
  private defer(seg: Segment, type: BlockType, text: string): void {
    const fixed = type === 'navigation';
    const last = seg.frags[seg.frags.length - 1];
    const merge = last !== undefined && last.t === type && last.fixed === fixed;
    // one space where two pieces meet, as in one piece: the cap below must
    // count the same characters however the text was split
    if (merge && text.charCodeAt(0) === 32 && last.s.charCodeAt(last.s.length - 1) === 32) text = text.slice(1);
    if (text === '') return;
    const room = this.maxText - this.deferredChars;
    if (room <= 0 || this.deferredFull) return;
    const s = text.length <= room ? text : headOf(text, room);
    this.deferredChars += s.length;
    this.deferredFull = s.length < text.length;
    if (merge) last.s += s;
    else seg.frags.push({ t: type, fixed, s });
  }

  private baseType(): BlockType {
    if (this.navDepth > 0) return 'navigation';
    if (this.headings.length > 0) return 'heading';
    if (this.otherDepth > 0) return 'other';
    return 'content';
  }

  /** A block boundary between text runs of the blocks (not of the visible text). */
  private blockBreak(): void {
    this.blockClock.n++;
    const seg = this.segments[this.segments.length - 1];
    if (seg !== undefined) {
      const last = seg.frags[seg.frags.length - 1];
      if (last !== undefined && last.t !== null) seg.frags.push(BREAK);
    }
  }

  /** A block-level element boundary: separates words everywhere. */
  private visualBreak(): void {
    this.main?.brk();
    this.stream.brk();
    if (this.anchor !== null) this.anchorText.brk();
    this.blockBreak();
    this.finishUnit();
  }

  private closeSegment(): void {
    const seg = this.segments.pop()!;
    if (seg.spans >= 2 && seg.anchorChars >= 2 * seg.plainChars) {
      for (const fr of seg.frags) {
        if (fr.t !== null) {
          fr.t = 'navigation';
          fr.fixed = true;
        }
      }
      for (const l of seg.links) l.block = 'navigation';
      seg.links = [];
      if (seg.mainMark !== null) this.main!.restore(seg.mainMark);
    }
    const parent = this.segments[this.segments.length - 1];
    if (parent !== undefined) {
      for (const fr of seg.frags) parent.frags.push(fr);
      for (const l of seg.links) parent.links.push(l);
      parent.spans += seg.spans;
      parent.anchorChars += seg.anchorChars;
      parent.plainChars += seg.plainChars;
      return;
    }
    for (const fr of seg.frags) {
      if (fr.t === null) this.blockClock.n++;
      // fr.s is squeezed already: squeezed pieces, cut, joined without two spaces (defer)
      else this.blocks[fr.t].add(fr.s);
    }
    this.deferredChars = 0;
    this.deferredFull = false;
  }

  // ---- title heuristic ----------------------------------------------------

  private unitAdd(text: string): void {
    if (this.bodySeen) return;
    this.unitText.add(text);
    // squeezed text with no visible character is '' or ' '
    if (text.length === 0 || text === ' ') return;
    const level = this.headings.length > 0 ? this.headings[this.headings.length - 1] : 0;
    const u = this.unit;
    if (u.level === undefined) u.level = level;
    else if (u.level !== level) u.level = -1;
    u.emph = u.emph && this.emphDepth > 0;
  }

  private finishUnit(): void {
    const u = this.unit;
    if (u.level === undefined) return;
    const text = u.text;
    this.unit = { text: '', level: undefined, emph: true };
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

  /**
   * A link's absolute URL. An absolute URL already in WHATWG's form is
   * itself (checked in one pass, cheaper than a Map lookup); other hrefs go
   * through WHATWG `URL`, and pages repeat their links, so each distinct one
   * is resolved once per base.
   */
  private resolve(raw: string): string | null {
    const v = raw.trim();
    if (isSimpleHttpUrl(v)) return ownCopy(v);
    const cache = (this.resolved ??= new Map());
    let url = cache.get(raw);
    if (url === undefined) cache.set(raw, (url = this.resolveOnce(raw)));
    return url;
  }

  private resolveOnce(raw: string): string | null {
    const v = raw.trim();
    if (v === '' || v.startsWith('#')) return null;
    // an absolute URL already in WHATWG's form resolves to itself (a copy: v is cut from the page)
    if (isSimpleHttpUrl(v)) return ownCopy(v);
    try {
      const u = new URL(v, this.base);
      return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
    } catch {
      return null;
    }
  }

  /** Start a link span at the current text position (its `link` null when the link is not kept). */
  private startSpan(tag: string, href: string, rel: string | undefined): LinkSpan {
    if (this.anchor !== null) this.endAnchor();
    const start = this.pos;
    const span: LinkSpan = { start, end: start, anchor: '', link: null, prev: null, before: '', after: '', afterLen: 0, next: null };
    // the awaiting links this one starts within the after-window of wait for its anchor; the others are done
    const a = this.awaiting;
    const n = this.nAwaiting;
    let j = 0;
    for (let i = 0; i < n; i++) {
      const p = a[i];
      if (p.next === null) {
        if (start - p.end < this.n) p.next = span;
        else {
          this.finish(p, null);
          continue;
        }
      }
      a[j++] = p;
    }
    this.nAwaiting = j;
    const seg = this.segments[this.segments.length - 1];
    if (seg !== undefined) seg.spans++;
    if (this.links.length >= this.maxLinks) {
      // counted, not kept (resolved without the cache, which holds kept links only)
      if (this.resolveOnce(href) !== null && !isNofollow(rel)) this.linksDropped++;
      return span;
    }
    const url = this.resolve(href);
    if (url === null) return span;
    const block = this.baseType();
    const link: PageLink = {
      url,
      anchor: '',
      context: '',
      tag,
      nofollow: isNofollow(rel),
      block,
    };
    this.links.push(link);
    if (seg !== undefined && block !== 'navigation') seg.links.push(link);
    span.link = link;
    const prev = this.lastSpan;
    // with the previous link in the window the context is anchors: no text is cut for it
    if (prev !== null && start - prev.end < this.n) span.prev = prev;
    else span.before = this.recent.slice(-(this.n + 1));
    return span;
  }

  /** End a span at the current text position with its final anchor text. */
  private endSpan(span: LinkSpan, anchor: string): void {
    span.end = this.pos;
    // a kept link's anchor is copied once: its link and its neighbours' contexts share the copy
    span.anchor = span.link !== null ? ownCopy(anchor) : anchor;
    const a = this.awaiting;
    const n = this.nAwaiting;
    let j = 0;
    for (let i = 0; i < n; i++) {
      const p = a[i];
      if (p.next === span) this.finish(p, span);
      else a[j++] = p;
    }
    this.nAwaiting = j;
    this.lastSpan = span;
    if (span.link !== null) {
      span.link.anchor = span.anchor;
      this.awaiting[this.nAwaiting++] = span;
    }
  }

  private startAnchor(f: Frame, href: string, rel: string | undefined): void {
    const span = this.startSpan('a', href, rel);
    this.blockBreak();
    // a new link ends the open anchor first (startSpan), so one CappedText serves every anchor
    this.anchorText.reset();
    this.anchor = span;
    f.anchor = span;
  }

  private endAnchor(): void {
    const a = this.anchor!;
    this.anchor = null;
    this.looseAnchorDepth = -1;
    this.blockBreak();
    this.endSpan(a, this.anchorText.text);
  }

  /** area / frame / iframe: a link with an empty span and a given anchor text. */
  private zeroLengthLink(tag: string, href: string, anchorRaw: string, rel: string | undefined): void {
    const span = this.startSpan(tag, href, rel);
    const t = this.anchorText;
    t.reset();
    t.add(squeeze(anchorRaw));
    if (t.text !== '') {
      this.blockBreak();
      this.blocks.anchor.add(t.text);
      this.blockBreak();
      const seg = this.segments[this.segments.length - 1];
      if (seg !== undefined) seg.anchorChars += visibleLength(t.text);
    }
    this.endSpan(span, t.text);
  }

  /** A piece of the collapsed visible text: ring buffer and after-windows. */
  private onStream(piece: string): void {
    this.pos += piece.length;
    const keep = this.n + 1;
    // recent must end with the last `keep` characters of the text (startSpan takes them)
    if (piece.length >= keep) this.recent = piece;
    else {
      this.recent += piece;
      if (this.recent.length > 4 * keep) this.recent = this.recent.slice(-keep);
    }
    // the awaiting links' after-windows grow; a complete one finishes its link (loops, not closures: this runs for every text piece)
    const n = this.nAwaiting;
    if (n === 0) return;
    const a = this.awaiting;
    let j = 0;
    for (let i = 0; i < n; i++) {
      const p = a[i];
      if (p.next === null) {
        if (p.afterLen < keep) {
          const room = keep - p.afterLen;
          if (p.prev === null) p.after += piece.length > room ? piece.slice(0, room) : piece;
          p.afterLen += piece.length > room ? room : piece.length;
        }
        if (p.afterLen >= keep) {
          this.finish(p, null);
          continue;
        }
      }
      a[j++] = p;
    }
    this.nAwaiting = j;
  }

  /** Set the link's context: from neighbour anchors, or from plain text. */
  private finish(p: LinkSpan, next: LinkSpan | null): void {
    const prev = p.prev;
    if (prev !== null || next !== null) {
      // kept links' anchors are copies already: a context of them holds no page text
      const ctx = joinWords(prev !== null ? prev.anchor : '', next !== null ? next.anchor : '');
      const copied = (prev === null || prev.link !== null) && (next === null || next.link !== null);
      p.link!.context = copied ? ctx : ownCopy(ctx);
    } else {
      p.link!.context = ownCopy(joinWords(cutBefore(p.before, this.n), cutAfter(p.after, this.n)));
    }
  }
}

/**
 * `squeeze(a + ' ' + b).trim()` for collapsed text (anchors and the context
 * stream: ' ' the only whitespace, never two in a row; a piece may start or
 * end with one), without a regex scan of the whole window.
 */
function joinWords(a: string, b: string): string {
  const at = a.trim();
  const bt = b.trim();
  if (at === '') return bt;
  if (bt === '') return at;
  return at + ' ' + bt;
}

function isNofollow(rel: string | undefined): boolean {
  return rel !== undefined && rel.toLowerCase().split(/\s+/).includes('nofollow');
}

/** The last n characters of `b` (which holds up to n + 1), without a cut word. */
function cutBefore(b: string, n: number): string {
  if (b.length <= n) return b;
  // start after a pair's low half (and after a half left by the ring buffer's cut)
  const start = isLow(b.charCodeAt(b.length - n)) ? b.length - n + 1 : b.length - n;
  let w = b.slice(start);
  const cutWord = b.charCodeAt(start - 1) !== 32 && w.charCodeAt(0) !== 32;
  if (cutWord && w.includes(' ')) w = w.slice(w.indexOf(' ') + 1);
  return w;
}

/** The first n characters of `a` (which holds up to n + 1), without a cut word. */
function cutAfter(a: string, n: number): string {
  if (a.length <= n) return a;
  const end = headEnd(a, n);
  let w = a.slice(0, end);
  const cutWord = a.charCodeAt(end) !== 32 && w.charCodeAt(w.length - 1) !== 32;
  if (cutWord && w.includes(' ')) w = w.slice(0, w.lastIndexOf(' '));
  return w;
}
