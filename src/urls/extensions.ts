/**
 * Links to files that are not web pages (`--skip-extensions`): a link whose
 * URL path ends in `.pdf`, `.ps`, `.jpg`, `.zip`, ... is not queued. The
 * crawler reads only HTML, so such a request fetches nothing it can judge
 * or follow; on an academic web they are many (a course page links to
 * every handout: on WebKB, 20-26% of a learned course crawl's first 1,000
 * requests went to `.ps` and `.pdf` links, RESULTS.md). Every crawler users compare with
 * does this: Scrapy's link extractors skip IGNORED_EXTENSIONS, Nutch's
 * default URL filter drops image, archive and office suffixes. The list
 * below holds Scrapy's and Nutch's, plus the compressed files (`.gz`, `.Z`)
 * papers came in and a few more document, font and video types. Source
 * code and text files (`.c`, `.tex`, `.txt`) are not on it: neither
 * Scrapy nor Nutch skips them, and `.pl` or `.cgi` may well be pages.
 *
 * The extension is the part of the URL path's last segment after a dot,
 * case-insensitive; a multi-part one (`tar.gz`) matches as a suffix. The
 * query string is not looked at: `download.php?file=a.pdf` is a page of
 * the site as far as the URL says. Seeds are fetched whatever they end in,
 * and redirects are followed (the server chose the target); links and
 * sitemap entries are what this drops, counted as `file-extension`.
 */
import { UsageError } from '../errors.ts';

/** The built-in list (lower case, without the dot). */
export const DEFAULT_SKIP_EXTENSIONS: readonly string[] = Object.freeze([
  // archives and compressed files
  '7z', '7zip', 'bz2', 'gz', 'rar', 'rpm', 'sit', 'tar', 'tgz', 'xz', 'z', 'zip',
  // images (PostScript among them, as Scrapy has it)
  'ai', 'bmp', 'cdr', 'drw', 'dxf', 'eps', 'gif', 'ico', 'jpeg', 'jpg', 'mng', 'pct', 'png', 'ps', 'psd', 'psp', 'pst', 'svg', 'tif', 'tiff', 'webp', 'wmf',
  // audio
  'aac', 'aiff', 'au', 'flac', 'm4a', 'mid', 'mp3', 'ogg', 'ra', 'wav', 'wma',
  // video
  '3gp', 'asf', 'asx', 'avi', 'flv', 'm4v', 'mkv', 'mov', 'mp4', 'mpeg', 'mpg', 'qt', 'rm', 'swf', 'webm', 'wmv',
  // documents
  'doc', 'docx', 'dvi', 'odg', 'odp', 'ods', 'odt', 'pdf', 'pps', 'ppt', 'pptx', 'rtf', 'xls', 'xlsx',
  // other
  'apk', 'bin', 'css', 'dmg', 'exe', 'hqx', 'iso', 'jar', 'js', 'msi', 'rss', 'ttf', 'woff', 'woff2',
]);

const EXTENSION = /^[a-z0-9]+(\.[a-z0-9]+)*$/;

/**
 * `--skip-extensions LIST`: comma-separated extensions (a leading dot and
 * any case allowed), or `none` for no list. Throws UsageError (FC_USAGE)
 * for an empty list or an entry that is not letters and digits.
 */
export function parseSkipExtensions(value: string): string[] {
  if (value.trim().toLowerCase() === 'none') return [];
  return normaliseExtensions(value.split(','), `--skip-extensions wants extensions separated by commas (pdf,ps,zip) or none, got ${JSON.stringify(value)}`);
}

/**
 * Extensions lower-cased, without a leading dot, each once; throws
 * UsageError (FC_USAGE, `message` or one naming the list) for one that is
 * not a string of letters and digits (dots between: `tar.gz`).
 */
export function normaliseExtensions(list: readonly unknown[], message?: string): string[] {
  const out = new Set<string>();
  for (const v of list) {
    const ext = typeof v === 'string' ? v.trim().replace(/^\./, '').toLowerCase() : '';
    if (!EXTENSION.test(ext)) throw new UsageError(message ?? `skipExtensions wants extensions such as "pdf", got ${JSON.stringify(list)}`);
    out.add(ext);
  }
  return [...out];
}

/** The last segment of a URL's path, lower-cased ('' for no path or a path ending in '/'). */
function lastSegment(url: string): string {
  const authority = url.indexOf('//');
  let end = url.length;
  for (const c of ['?', '#']) {
    const i = url.indexOf(c, authority < 0 ? 0 : authority + 2);
    if (i >= 0 && i < end) end = i;
  }
  const pathStart = url.indexOf('/', authority < 0 ? 0 : authority + 2);
  if (pathStart < 0 || pathStart >= end) return ''; // the host is not a path (http://example.zip)
  return url.slice(url.lastIndexOf('/', end - 1) + 1, end).toLowerCase();
}

/**
 * True for a URL to skip: its path ends in `.EXT` for an extension of
 * `list` (undefined or null: DEFAULT_SKIP_EXTENSIONS, so the default is
 * stated here only). Null when the list is empty.
 */
export function compileSkipExtensions(list?: readonly string[] | null): ((url: string) => boolean) | null {
  list ??= DEFAULT_SKIP_EXTENSIONS;
  if (!Array.isArray(list)) throw new UsageError(`skipExtensions wants an array of extensions such as ["pdf"], got ${JSON.stringify(list)}`);
  const set = new Set(normaliseExtensions(list));
  if (set.size === 0) return null;
  return (url) => {
    const last = lastSegment(url);
    // every suffix after a dot: 'a.tar.gz' tries 'tar.gz', then 'gz'
    for (let dot = last.indexOf('.'); dot >= 0; dot = last.indexOf('.', dot + 1)) {
      if (set.has(last.slice(dot + 1))) return true;
    }
    return false;
  };
}
