/**
 * URL shapes for the site lane's shape units (`--param siteShape=L`, issue
 * 22 item 3, the tail; beyond the papers). On one web, pages of one kind
 * are made from one template and their URLs share a shape: the course
 * pages of a department under `/education/courses/467/`,
 * `/education/courses/322/`, the home pages of its people under
 * `/homes/jdoe/` or `/~jdoe/`, a portal's articles under
 * `/2019/0612/n123.html`. The site lane (site-lane.ts) keeps a Beta
 * posterior of the judged harvest per shape as it does per host, so once a
 * few pages of one shape were judged relevant, the queued links of that
 * shape can be taken ahead of the strategy's order when the crawl's recent
 * harvest falls.
 *
 * Two levels, each a general rule, nothing about one web:
 * - **fine** (level 1): host and path, lower-cased, every run of digits
 *   `#`, a segment starting with `~` (a user's directory) `~*`, query
 *   values digit-abstracted too: `h/education/courses/#/`,
 *   `h/~*\/pubs.html`, `h/#/#/n#.html`;
 * - **coarse** (level 2): the fine shape with its file name and its last
 *   directory wildcards (a file keeps its extension; `~*` stays) and the
 *   query's values dropped: `h/homes/*\/` for every `/homes/NAME/`,
 *   `h/people/*\/*.html` for every `/people/NAME/NAME.html`,
 *   `h/education/courses/*\/*.html` for every page of a course directory.
 *   The last directory and the file are where a template's variable part
 *   (a name, an id) most often sits; a variable part higher up is what
 *   the digit and `~` rules catch.
 *
 * Pure functions of the URL (canonical form, src/urls/canonical.ts); O(length).
 */

/** The prefix of a shape unit's key, so that it never equals a host or directory unit of the site lane. */
export const SHAPE_PREFIX = 'shape ';

/** The fine shape of one path segment (or query): lower case, digit runs '#', '~name' '~*'. */
function segmentShape(segment: string): string {
  if (segment.startsWith('~')) return '~*';
  return segment.toLowerCase().replace(/[0-9]+/g, '#');
}

/**
 * The shape of canonical URL `url` at `level` 1 (fine) or 2 (coarse), as
 * in the module doc, without the scheme: `urlShape('http://h/homes/jdoe/', 2)`
 * is 'h/homes/*\/', `urlShape('http://h/education/courses/467/hw1.html', 1)`
 * is 'h/education/courses/#/hw#.html'. The root page's shape is 'h/' at both.
 */
export function urlShape(url: string, level: 1 | 2): string {
  const hostStart = url.indexOf('//') + 2;
  const pathStart = url.indexOf('/', hostStart);
  const host = url.slice(hostStart, pathStart < 0 ? undefined : pathStart).toLowerCase();
  if (pathStart < 0) return `${host}/`;
  let end = url.length;
  const hashAt = url.indexOf('#', pathStart);
  if (hashAt >= 0) end = hashAt;
  const queryAt = url.indexOf('?', pathStart);
  const pathEnd = queryAt >= 0 && queryAt < end ? queryAt : end;
  const segments = url.slice(pathStart + 1, pathEnd).split('/').map(segmentShape);
  const query = pathEnd < end ? url.slice(pathEnd + 1, end) : null;
  // segments' last element: the file name ('' for a directory URL)
  if (level === 2) {
    // the file name (a directory URL has none) and the last directory: wildcards
    const last = segments.length - 1;
    if (segments[last] !== '') {
      const dot = segments[last]!.lastIndexOf('.');
      segments[last] = dot > 0 ? `*${segments[last]!.slice(dot)}` : '*';
    }
    if (last > 0 && segments[last - 1] !== '~*') segments[last - 1] = '*';
  }
  let shape = `${host}/${segments.join('/')}`;
  if (query !== null) {
    const q = level === 2
      ? query.split('&').map((kv) => kv.split('=', 1)[0]!.toLowerCase()).join('&')
      : segmentShape(query);
    shape += `?${q}`;
  }
  return shape;
}

/**
 * The shape units of `url` for the site lane at `levels` (1: the fine
 * shape; 2: the fine and the coarse), finest first, each prefixed with
 * SHAPE_PREFIX; a coarse shape equal to the fine one is given once.
 * Levels 0 (or less) give none.
 */
export function shapeUnitsOf(url: string, levels: number): string[] {
  if (levels <= 0) return [];
  const fine = SHAPE_PREFIX + urlShape(url, 1);
  if (levels < 2) return [fine];
  const coarse = SHAPE_PREFIX + urlShape(url, 2);
  return coarse === fine ? [fine] : [fine, coarse];
}
