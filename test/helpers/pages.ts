/** ParsedPage values built in tests (without the HTML parser). */
import type { BlockType, PageLink, ParsedPage } from '../../src/types.ts';

/** A parsed page with `title` (also its title block), other blocks as given, and `links`. */
export function makePage(title: string, blocks: Partial<Record<BlockType, string>> = {}, links: PageLink[] = []): ParsedPage {
  return {
    title,
    charset: 'utf-8',
    blocks: { title, heading: '', content: '', navigation: '', anchor: '', other: '', ...blocks },
    links,
    base: 'http://127.0.0.1/',
    noindex: false,
    nofollow: false,
    lang: null,
  };
}
