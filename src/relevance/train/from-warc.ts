/**
 * Training examples from WARC files plus labels: the labelled pages are
 * parsed as the crawler parses them, each becomes a page example, and each
 * link on them whose target's label is known becomes a link-context example
 * (Han et al.'s automatic link labelling, docs/algorithms.md#automatic-link-labels, generalised from host lists to any
 * labelled URL).
 *
 * Labels come from a TSV file (`url<TAB>label<TAB>...`, a header row naming
 * the columns) and/or host lists (Han et al. 2010, algorithm 2, docs/algorithms.md#automatic-link-labels: a link to a host of
 * the positive list is a positive example, to a host of the negative list a
 * negative one). `where` filters restrict the labels file to the rows whose
 * named columns have the given values; rows filtered out are not used at
 * all, neither as training pages nor as link targets, so the pages they
 * describe stay unseen.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { FocuscrawlError, UsageError } from '../../errors.ts';
import { canonicalize, hostOf } from '../../urls/canonical.ts';
import type { Segmenter } from '../text/segmenter.ts';
import { buildIndex, readResponse, MAX_BODY_BYTES, type ArchivedResponse } from '../../replay/warc-index.ts';
import { parseBody } from '../../parse/body.ts';
import { pageFeatures } from '../learn/features.ts';
import { pageGrams, type LayerLinkExample, type LayerPageExample, type LinkExample, type PageExample, type TrainingData } from '../model.ts';
import { DEFAULT_TOP_LAYER, graphLayers, linkLayer } from '../learn/layers.ts';
import { DEFAULT_MAX_EXAMPLES, Reservoir, readLines } from './from-texts.ts';
import { rowMatches, whereColumns, whereText, type WhereFilter } from './where.ts';

export type { WhereFilter } from './where.ts';

/** The labels file after filtering. */
export interface LabelsTable {
  /** column names from the header row */
  columns: string[];
  /** canonical URL -> label, rows that pass every filter (first row per URL wins) */
  labels: Map<string, string>;
  /** data rows read */
  rows: number;
  /** rows skipped: too few columns, not an http(s) URL, empty label, over-long line */
  skipped: number;
  /** rows filtered out by `where` */
  filteredOut: number;
  /** rows repeating a URL already labelled (the first label is kept) */
  duplicates: number;
}

/**
 * Reads a labels TSV. The first non-blank line is the header; the URL
 * column is the one named `url` (else the first), the label column the one
 * named `label` (else the second). URLs are canonicalised (src/urls/canonical.ts).
 * Throws UsageError (FC_USAGE) when the file is unreadable, has fewer than
 * two columns, or a filter names a column the header lacks.
 */
export async function readLabels(path: string, where: readonly WhereFilter[] = []): Promise<LabelsTable> {
  let columns: string[] | null = null;
  let urlCol = 0;
  let labelCol = 1;
  let filterCols: [number, WhereFilter][] = [];
  const table: LabelsTable = { columns: [], labels: new Map(), rows: 0, skipped: 0, filteredOut: 0, duplicates: 0 };
  for await (const line of readLines(path)) {
    if (line !== null && line.trim() === '') continue;
    if (columns === null) {
      if (line === null) throw new UsageError(`${path}: header row is too long`);
      columns = line.split('\t').map((c) => c.trim());
      if (columns.length < 2) throw new UsageError(`${path}: expected a tab-separated header row with at least url and label columns, got ${JSON.stringify(line.slice(0, 100))}`);
      const lower = columns.map((c) => c.toLowerCase());
      if (lower.includes('url')) urlCol = lower.indexOf('url');
      if (lower.includes('label')) labelCol = lower.indexOf('label');
      filterCols = whereColumns(where, columns, path);
      table.columns = columns;
      continue;
    }
    table.rows++;
    const fields = line?.split('\t');
    const url = fields === undefined ? null : canonicalize((fields[urlCol] ?? '').trim());
    const label = fields?.[labelCol]?.trim() ?? '';
    if (fields === undefined || url === null || label === '') {
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
  if (columns === null) throw new UsageError(`${path}: empty labels file`);
  return table;
}

/**
 * Reads a host list: one host (optionally with a port) a line, `#`
 * comments and blank lines allowed; a full URL stands for its host. Hosts
 * are normalised as URLs are (lower case, default port dropped). Throws
 * UsageError (FC_USAGE) for an unreadable file or a line that is no host.
 */
export async function readHosts(path: string): Promise<Set<string>> {
  const hosts = new Set<string>();
  let no = 0;
  for await (const line of readLines(path)) {
    no++;
    const s = (line ?? '').replace(/#.*/, '').trim();
    if (line !== null && s === '') continue;
    const url = line === null ? null : canonicalize(s.includes('://') ? s : `http://${s}/`);
    if (url === null) throw new UsageError(`${path}:${no}: not a host name: ${JSON.stringify((line ?? '').slice(0, 100))}`);
    hosts.add(hostOf(url));
  }
  return hosts;
}

/** Options of readWarc. */
export interface WarcOptions {
  /** WARC files (.warc or per-record .warc.gz) */
  warcs: string[];
  /** labels TSV; without it every HTML response of the WARCs is a source page */
  labels?: string;
  /** label value of the positive class */
  target: string;
  /** filters on the labels file's columns (all must match) */
  where?: readonly WhereFilter[];
  /** files of hosts whose pages/links are positive / negative examples */
  positiveHosts?: string;
  negativeHosts?: string;
  /**
   * Also count as positive a link whose target page links to a target page
   * other than the page the link is on (a hub one step from the targets:
   * SkyReach's hubs (docs/algorithms.md#topics-on-the-web), level 1 of a context graph; a page that only
   * links back, as a course's homework page to the course, is no hub from
   * there). A link up to a target above the page in its site (same host;
   * the target a directory, an index page or a `/~user` home, and the page
   * under it: a homework page's link to its course, two levels up) does not
   * make a hub either: it is the site's navigation, not a way to new
   * targets. Without it only links
   * straight to target pages are positive (Han et al. 2010, docs/algorithms.md#automatic-link-labels).
   */
  hubLinks?: boolean;
  /**
   * Also label links with the context-graph layer of their target (layer
   * examples for a layered link classifier, Diligenti et al. 2000; see
   * src/relevance/learn/layers.ts): the layers come from the link graph of the
   * parsed source pages, followed backwards from the target pages (a link
   * up to a target above the page in its site, as for `hubLinks`, is
   * navigation and left out). A link to a URL the WARCs have no record of
   * is a dead end: the last layer. Links to other pages without a layer
   * (archived but filtered out, unlabelled or unparsed) are not examples.
   */
  layers?: boolean;
  /** the last layer (default DEFAULT_TOP_LAYER: layers 0, 1, 2 and 3+) */
  topLayer?: number;
  /** cap on page and on link examples kept (default DEFAULT_MAX_EXAMPLES each; a uniform sample beyond it) */
  maxExamples?: number;
  segmenter?: Segmenter;
  /** progress and warnings, one line each (default: none) */
  log?: (line: string) => void;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** Progress is logged every this many source pages. */
const PROGRESS_EVERY = 1000;

export function header(res: ArchivedResponse, name: string): string | null {
  for (const [k, v] of res.headers) if (k.toLowerCase() === name) return v;
  return null;
}

/** The payload with its Content-Encoding undone, or null when it cannot be. */
export function decodedBody(res: ArchivedResponse): Buffer | null {
  const enc = (header(res, 'content-encoding') ?? 'identity').trim().toLowerCase();
  const cap = { maxOutputLength: MAX_BODY_BYTES };
  try {
    if (enc === 'identity' || enc === '') return res.body;
    if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(res.body, cap);
    if (enc === 'deflate') return inflateSync(res.body, cap);
    if (enc === 'br') return brotliDecompressSync(res.body, cap);
  } catch {
    return null;
  }
  return null;
}

/**
 * Reads training examples from WARC files.
 *
 * Source pages: the URLs of the (filtered) labels file that have a response
 * record, or every response record when no labels file is given. A source
 * page is parsed when its status is 2xx and its Content-Type is HTML or
 * absent (Content-Encoding undone).
 *
 * Label of a URL: its row in the labels file (positive iff the label equals
 * `target`), else its host's list (positive list: positive, negative list:
 * negative), else none.
 *
 * Examples: each parsed source page with a label is a page example
 * (pageFeatures). Each link on a parsed source page (nofollow included)
 * whose canonical target URL has a label and is not the page itself is a
 * link example with the link's anchor and context, its target URL, and the
 * page's URL, title and whether it is a target page (feature groups 3 and 4).
 *
 * Throws UsageError (FC_USAGE) for unreadable inputs, a host in both lists,
 * or a target label that occurs nowhere.
 */
export async function readWarc(opts: WarcOptions): Promise<TrainingData> {
  const started = performance.now();
  const log = opts.log ?? ((): void => {});
  const table = opts.labels === undefined ? null : await readLabels(opts.labels, opts.where ?? []);
  const labels = table?.labels ?? null;
  const positiveHosts = opts.positiveHosts === undefined ? new Set<string>() : await readHosts(opts.positiveHosts);
  const negativeHosts = opts.negativeHosts === undefined ? new Set<string>() : await readHosts(opts.negativeHosts);
  for (const h of positiveHosts) {
    if (negativeHosts.has(h)) throw new UsageError(`host ${h} is in both --positive-hosts and --negative-hosts`);
  }
  if (table !== null) {
    log(`labels: ${table.rows} rows, ${table.labels.size} used, ${table.filteredOut} filtered out, ${table.skipped} skipped, ${table.duplicates} duplicate URLs`);
    const targetRows = [...table.labels.values()].filter((l) => l === opts.target).length;
    if (targetRows === 0 && positiveHosts.size === 0) {
      const seen = [...new Set(table.labels.values())].slice(0, 20);
      throw new UsageError(`target ${JSON.stringify(opts.target)} is not a label of any used row of ${opts.labels} (labels: ${seen.join(', ') || 'none'})`);
    }
  }
  const labelOf = (url: string): 0 | 1 | undefined => {
    const l = labels?.get(url);
    if (l !== undefined) return l === opts.target ? 1 : 0;
    if (positiveHosts.size === 0 && negativeHosts.size === 0) return undefined;
    const host = hostOf(url);
    if (positiveHosts.has(host)) return 1;
    if (negativeHosts.has(host)) return 0;
    return undefined;
  };

  const index = await buildIndex(opts.warcs);
  const sources = labels === null ? [...index.entries.keys()] : [...labels.keys()].filter((u) => index.entries.has(u));
  const cap = opts.maxExamples ?? DEFAULT_MAX_EXAMPLES;
  const pageSample = new Reservoir<PageExample>(cap, 1);
  const linkSample = new Reservoir<LinkExample & { target: string }>(cap, 2);
  /**
   * pages (of the training set) that link to a target page: the first two
   * targets each links to (enough to tell whether it leads anywhere but
   * back to the page a link to it is on)
   */
  const hubs = new Map<string, string[]>();
  /** with `layers`: each parsed source page's links (canonical targets, distinct) and the candidate layer examples */
  const pageLinks = new Map<string, string[]>();
  const layerSample = new Reservoir<Omit<LayerLinkExample, 'layer'> & { url: string; parentUrl: string }>(cap, 3);
  /** with `layers`: every parsed source page's own features, for the page-layer classifier (its layer is known once the graph is) */
  const layerPageSample = new Reservoir<{ url: string; features: string[] }>(cap, 4);
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
    linksFromHosts: 0,
  };
  let done = 0;
  for (const url of sources) {
    if (++done % PROGRESS_EVERY === 0) log(`warc: ${done}/${sources.length} pages read`);
    let res: ArchivedResponse | null;
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
    const contentType = header(res, 'content-type');
    const mediaType = contentType?.split(';')[0].trim().toLowerCase() ?? '';
    if (mediaType !== '' && !HTML_TYPES.has(mediaType)) {
      counts.skippedNotHtml++;
      continue;
    }
    const body = decodedBody(res);
    if (body === null) {
      counts.skippedUnreadable++;
      continue;
    }
    const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase() ?? null;
    const page = parseBody(body, url, charset);
    counts.parsedPages++;
    const pageLabel = labelOf(url);
    const features = pageLabel !== undefined || opts.layers === true ? pageFeatures(page, { segmenter: opts.segmenter }) : null;
    if (pageLabel !== undefined) pageSample.add({ features: features!, label: pageLabel, grams: pageGrams(page) });
    if (opts.layers === true) layerPageSample.add({ url, features: features! });
    const outLinks = opts.layers === true ? new Set<string>() : null;
    for (const link of page.links) {
      counts.linksSeen++;
      const target = canonicalize(link.url);
      if (target === null || target === url) continue;
      const label = labelOf(target);
      if (outLinks !== null) {
        if (!(label === 1 && isBelow(url, target))) outLinks.add(target);
        layerSample.add({ anchor: link.anchor, context: link.context, url: target, parentUrl: url, parentTitle: page.title, parentRelevant: pageLabel === 1 });
      }
      if (label === 1 && !isBelow(url, target)) {
        const found = hubs.get(url);
        if (found === undefined) hubs.set(url, [target]);
        else if (found.length < 2 && !found.includes(target)) found.push(target);
      }
      if (label === undefined) continue;
      if (labels?.has(target)) counts.linksFromLabels++;
      else counts.linksFromHosts++;
      linkSample.add({ anchor: link.anchor, context: link.context, label, target, parentUrl: url, parentTitle: page.title, parentRelevant: pageLabel === 1 });
    }
    if (outLinks !== null) pageLinks.set(url, [...outLinks]);
  }
  let layerLinks: LayerLinkExample[] | undefined;
  let layerPages: LayerPageExample[] | undefined;
  const top = opts.topLayer ?? DEFAULT_TOP_LAYER;
  if (opts.layers === true) {
    const ids = new Map<string, number>();
    for (const u of pageLinks.keys()) ids.set(u, ids.size);
    const out = [...pageLinks.values()].map((targets) => targets.map((t) => ids.get(t)).filter((t): t is number => t !== undefined));
    const goals = [...ids].filter(([u]) => labelOf(u) === 1).map(([, id]) => id);
    const layers = graphLayers(out, goals, top);
    layerLinks = [];
    for (const { url: target, ...link } of layerSample.items) {
      const to = ids.get(target);
      let layer: number;
      if (to !== undefined) layer = linkLayer(out, layers, ids.get(link.parentUrl)!, to, top);
      else if (!index.entries.has(target)) layer = top; // a dead end: the replay answers 404
      else continue;
      layerLinks.push({ ...link, url: target, layer, parentLayer: layers[ids.get(link.parentUrl)!]! });
    }
    const perLayer = Array.from({ length: top + 1 }, (_, k) => layerLinks!.filter((l) => l.layer === k).length);
    log(`warc: ${layerLinks.length} layer examples (links by their target's layer 0..${top}: ${perLayer.join(', ')}) from ${ids.size} pages, ${goals.length} targets`);
    // a page's layer is a property of the page: one example per page, from its own text
    layerPages = layerPageSample.items.filter((p) => ids.has(p.url)).map((p) => ({ features: p.features, layer: layers[ids.get(p.url)!]! }));
    const pagesPerLayer = Array.from({ length: top + 1 }, (_, k) => layerPages!.filter((p) => p.layer === k).length);
    log(`warc: ${layerPages.length} pages by their own layer 0..${top}: ${pagesPerLayer.join(', ')}`);
  }
  let hubPositives = 0;
  const links: LinkExample[] = linkSample.items.map(({ target, ...example }) => {
    // a hub only when it leads to a target other than the page the link is
    // on: a course's homework page links back to the course, which the crawl
    // already has, and is no way to new targets
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
    source: 'warc',
    files: [...opts.warcs, ...[opts.labels, opts.positiveHosts, opts.negativeHosts].filter((f): f is string => f !== undefined)],
    pages: pageSample.items,
    links,
    counts,
    ...(layerLinks === undefined ? {} : { layerLinks, layerPages, layerTop: top }),
    options: {
      target: opts.target,
      ...(opts.where && opts.where.length > 0 ? { where: opts.where.map(whereText) } : {}),
      maxExamples: cap,
      ...(opts.hubLinks === true ? { hubLinks: true } : {}),
      ...(opts.layers === true ? { layers: top } : {}),
    },
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Whether `url` lies below `ancestor` in its site: the same host, and its
 * path under the ancestor's when the ancestor is a directory (its path ends
 * in '/', or in an index page such as `index.html`, or is a `/~user` home).
 * A page that is a file (`/cs101.html`) has nothing below it: its
 * neighbours in the same directory are siblings.
 */
function isBelow(url: string, ancestor: string): boolean {
  let u: URL;
  let a: URL;
  try {
    u = new URL(url);
    a = new URL(ancestor);
  } catch {
    return false;
  }
  if (u.host !== a.host) return false;
  const path = a.pathname;
  const last = path.slice(path.lastIndexOf('/') + 1);
  let dir: string;
  if (last === '') dir = path;
  else if (/^(index|default|welcome|home)\.[a-z0-9]+$/i.test(last)) dir = path.slice(0, path.length - last.length);
  else if (last.startsWith('~') && !last.includes('.')) dir = `${path}/`;
  else return false;
  return u.pathname.startsWith(dir) && u.pathname !== dir && u.pathname !== path;
}
