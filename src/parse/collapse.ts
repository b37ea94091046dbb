/**
 * Whitespace collapsing for text given in arbitrary pieces (the parser's
 * text blocks, context stream and title paragraphs, and the main text).
 */

/** What Collapser must remember between pieces (saved and restored by MainText). */
export interface CollapserState {
  /** separator owed before the next text: none, a space, or a line break */
  sep: '' | ' ' | '\n';
  /** some text went out already */
  started: boolean;
}

/**
 * Collapses whitespace of text given in arbitrary pieces (already squeezed):
 * no leading space, a trailing one only once more text follows.
 * `brk()` asks for a space before the next text, `brk(true)` for a line
 * break (which wins over a space). Output goes to `out`.
 */
export class Collapser {
  private sep: CollapserState['sep'] = '';
  private started = false;

  /** `out` receives the collapsed pieces; a subclass may override `emit` instead (no closure per instance) */
  constructor(private readonly out: ((piece: string) => void) | null = null) {}

  protected emit(piece: string): void {
    this.out!(piece);
  }

  brk(line = false): void {
    if (line) this.sep = '\n';
    else if (this.sep === '') this.sep = ' ';
  }

  reset(): void {
    this.sep = '';
    this.started = false;
  }

  state(): CollapserState {
    return { sep: this.sep, started: this.started };
  }

  restore(s: CollapserState): void {
    this.sep = s.sep;
    this.started = s.started;
  }

  add(s: string): void {
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
      this.emit(this.started && this.sep !== '' ? this.sep + body : body);
      this.sep = '';
      this.started = true;
    }
    if (trailing) this.brk();
  }
}
