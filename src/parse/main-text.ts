/**
 * A page's main text in document order, as PageParser keeps it with
 * `mainTextChars` (ParsedPage.text, `crawl --text`).
 */
import { headOf } from './utf16.ts';

/** MainText's state at a point, to go back to (MainText.restore). */
export interface MainMark {
  length: number;
  truncated: boolean;
  gap: boolean;
  line: boolean;
}

/**
 * The page's main text in document order (ParsedPage.text): the visible
 * text outside navigation regions (the title is separate), anchors and img
 * alt included, fed as squeezed pieces. A block-level boundary starts a new
 * line; other whitespace is one space; no line is empty. Capped at `max`
 * characters: the rest is dropped and `truncated` is set. A link list is
 * judged navigation only when it closes, and all its text came after it
 * opened: the parser marks the text there and takes it back (`restore`),
 * so nothing is held back meanwhile.
 */
export class MainText {
  text = '';
  truncated = false;
  private gap = false;
  private line = false;

  constructor(readonly max: number) {}

  mark(): MainMark {
    return { length: this.text.length, truncated: this.truncated, gap: this.gap, line: this.line };
  }

  restore(m: MainMark): void {
    if (this.text.length > m.length) this.text = this.text.slice(0, m.length);
    this.truncated = m.truncated;
    this.gap = m.gap;
    this.line = m.line;
  }

  brk(): void {
    this.line = true;
  }

  add(s: string): void {
    if (s.length === 0 || this.truncated) return;
    let i = 0;
    let j = s.length;
    if (s.charCodeAt(0) === 32) {
      this.gap = true;
      i = 1;
    }
    const trailing = j > i && s.charCodeAt(j - 1) === 32;
    if (trailing) j--;
    if (i < j) {
      const sep = this.text.length === 0 ? '' : this.line ? '\n' : this.gap ? ' ' : '';
      const piece = sep + (i === 0 && j === s.length ? s : s.slice(i, j));
      const room = this.max - this.text.length;
      if (piece.length <= room) {
        this.text += piece;
      } else {
        // a cut right after a separator would end the text in a space or line break
        this.text += headOf(piece, room).trimEnd();
        this.truncated = true;
      }
      this.gap = false;
      this.line = false;
    }
    if (trailing) this.gap = true;
  }
}
