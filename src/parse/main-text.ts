/**
 * A page's main text in document order, as PageParser keeps it with
 * `mainTextChars` (ParsedPage.text, `crawl --text`).
 */
import { Collapser, type CollapserState } from './collapse.ts';
import { headOf } from './utf16.ts';

/** MainText's state at a point, to go back to (MainText.restore). */
export interface MainMark {
  length: number;
  truncated: boolean;
  collapser: CollapserState;
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
  private readonly c: Collapser;

  constructor(readonly max: number) {
    this.c = new Collapser((piece) => {
      const room = this.max - this.text.length;
      if (piece.length <= room) {
        this.text += piece;
      } else {
        // a cut right after a separator would end the text in a space or line break
        this.text += headOf(piece, room).trimEnd();
        this.truncated = true;
      }
    });
  }

  mark(): MainMark {
    return { length: this.text.length, truncated: this.truncated, collapser: this.c.state() };
  }

  restore(m: MainMark): void {
    if (this.text.length > m.length) this.text = this.text.slice(0, m.length);
    this.truncated = m.truncated;
    this.c.restore(m.collapser);
  }

  brk(): void {
    this.c.brk(true);
  }

  add(s: string): void {
    if (!this.truncated) this.c.add(s);
  }
}
