/**
 * A portal-style Chinese test web generated from labelled headlines (pure:
 * headlines in, HTTP responses out; no I/O). SYNTHETIC: every host, page and
 * link is made up here (hosts use the reserved `.example.cn` names); every
 * HTML page carries SYNTHETIC_COMMENT and every response the
 * `X-Focuscrawl-Synthetic` header. Output is a function of (headlines, opts)
 * alone: one seeded PRNG for the structure, one per-URL PRNG for rendering.
 *
 * Structure (K = opts.hosts portals, each category C of the input labels):
 *
 * - Portal home `http://www.portalK.example.cn/` (label `home`, a seed): the
 *   nav bar, a "要闻" block with the newest two articles of every channel, an
 *   "编辑推荐" block of random articles, a footer with the other portals'
 *   homes and two ad links to a host that is not archived (dead).
 * - Channel host `http://<slug>.portalK.example.cn/` per category the portal
 *   carries (each portal carries each category with p = 0.8, every category
 *   is on at least one portal): single-topic, so site topic holds. Paginated
 *   hubs `/`, `/list_2.html`, ... (label `hub:<C>`, opts.pageSize articles
 *   each, newest first, headline as anchor text, a window of page links).
 * - Article `/<yyyy>/<mmdd>/n<id>.html` (label: the headline's own label):
 *   the headline, unaltered, as <title> and <h1>; a dateline; a body of 3-5
 *   paragraphs of category-neutral sentence templates filled with the
 *   headline's keywords and the keyword pool of its category (so the text is
 *   topical but no copy); a keyword line; "相关阅读" (4-6 links: ~60% same
 *   channel near it in the list, ~15% same category on another portal, ~25%
 *   another category: sibling locality with noise); "热点推荐" (3 random
 *   articles of the portal, any category); previous / next article.
 * - Nav bar on every portal page (home, hubs, articles, forum threads): the
 *   home and page 1 of every channel hub of that portal, anchors are the
 *   channel names (财经, 体育, ...). Footer: the other portals' homes.
 * - Forum `http://bbs.portalK.example.cn/thread-<n>-1-1.html` (label
 *   `forum:<C>`, C = the category of its text): ~12% of hub pages list one
 *   or two threads in a "论坛热帖" block (dead ends).
 * - Tunnels: a share (opts.hiddenShare) of every category's headlines is
 *   left out of the portals and published on small single-topic sites
 *   `http://www.zmtJ.example.cn/` (index page label `hub:<C>`, articles
 *   `/p/<id>.html` linking to each other and out to a portal home). Such a
 *   site is linked only from the last thread of 1-2 chains of 1-3 forum
 *   threads whose text is about other categories, each chain starting from
 *   the "论坛热帖" block of a hub of another category: those articles are
 *   reachable only through off-topic pages.
 * - Dead links: ~1% of each portal's articles (at least one) are listed on
 *   their hub but answer 404 (an archived 404 page, no label); the ad links
 *   are not archived at all. All are in `deadLinks`.
 * - `/robots.txt` on every host: `Disallow: /admin/` (nothing links there).
 *
 * Encodings, per host: ~55% UTF-8, ~25% GBK, ~20% GB18030 (at least one
 * host of each when there are three or more hosts); the charset is declared
 * in the Content-Type header, in <meta charset>, in both, or (GB only) in
 * <meta http-equiv> (GBK sometimes labelled gb2312). Bytes are made with an
 * encoder inverted from `new TextDecoder('gb18030')`, so every page decodes
 * back exactly; a page whose text GBK cannot hold is sent as GB18030, one
 * that GB18030 cannot hold (a few private-use characters) as UTF-8
 * (counted in stats.encodingFallbacks).
 */
import { canonicalize } from '../../urls/canonical.ts';
import { UsageError } from '../../errors.ts';
import { Rng, fnv1a } from '../../util/random.ts';

/** One labelled headline. */
export interface Headline {
  sentence: string;
  label: string;
  /** comma-separated keywords (TNEWS style), optional */
  keywords?: string;
}

/** Options of generatePortalWeb. */
export interface PortalWebOptions {
  /** PRNG seed (an unsigned 32-bit integer) */
  seed: number;
  /** number of portals (default 3, 1-50) */
  hosts?: number;
  /** article links per hub page (default 20, 5-200) */
  pageSize?: number;
  /** share of each category's headlines published only behind tunnels (default 0.08, 0-0.5) */
  hiddenShare?: number;
}

/** One archived HTTP response. */
export interface WebRecord {
  /** canonical URL (canonicalize() of itself) */
  url: string;
  status: number;
  statusText: string;
  /** HTTP headers in order */
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Ground truth for one HTML page answered with 200. */
export interface PageLabel {
  url: string;
  /** the headline label for articles; `hub:<label>`, `forum:<label>` or `home` otherwise */
  label: string;
  /** host of the page */
  site: string;
}

/** Counts describing a generated web. */
export interface PortalWebStats {
  portals: number;
  /** hosts with at least one record */
  hosts: number;
  /** HTML pages answered with 200 (= labels.length) */
  pages: number;
  /** article pages (labelled with a headline label) */
  articles: number;
  /** article pages per headline label */
  articlesByLabel: Record<string, number>;
  /** hub pages (`hub:*`: channel list pages and tunnel-site index pages) */
  hubs: number;
  homes: number;
  /** forum threads (`forum:*`) */
  forum: number;
  /** articles published only on tunnel sites */
  hiddenArticles: number;
  /** forum-thread chains leading to tunnel sites */
  tunnels: number;
  /** link targets that answer 404 or are not archived */
  deadLinks: number;
  /** HTML pages (200 and 404) by body encoding */
  encodings: Record<'utf-8' | 'gbk' | 'gb18030', number>;
  /** pages sent in another encoding than their host's (text not representable) */
  encodingFallbacks: number;
}

/** A generated web: responses, ground truth, seeds. */
export interface PortalWeb {
  /** robots.txt, HTML 200 pages and archived 404 pages, grouped by host */
  records: WebRecord[];
  /** one row per HTML page answered with 200, in record order */
  labels: PageLabel[];
  /** the portal home pages */
  seeds: string[];
  /** link targets that are deliberately dead (archived 404 or not archived), sorted */
  deadLinks: string[];
  stats: PortalWebStats;
}

/** HTML comment in every generated page. */
export const SYNTHETIC_COMMENT = '<!-- synthetic page generated by focuscrawl gen-web; links are synthetic -->';

/** Description for the warcinfo record of a generated web. */
export const WARCINFO_DESCRIPTION = 'synthetic portal web generated from labelled headlines; all links are synthetic';

/** Header on every generated response. */
export const SYNTHETIC_HEADER: [string, string] = ['X-Focuscrawl-Synthetic', 'generated by focuscrawl gen-web; links are synthetic'];

/** HTTP Date of every response (fixed, for byte-identical output). */
export const HTTP_DATE = 'Sat, 01 Jun 2024 08:00:00 GMT';

// ---------------------------------------------------------------- PRNG



// ---------------------------------------------------------------- GBK / GB18030 encoder

type Enc = 'utf-8' | 'gbk' | 'gb18030';

interface GbTables {
  /** BMP code point -> two-byte code (lead << 8 | trail) */
  two: Map<number, number>;
  /** BMP code point -> four-byte code */
  four: Map<number, number>;
}

let gbTables: GbTables | null = null;

/** Inverse of `new TextDecoder('gb18030')` on the BMP, built once (~0.1 s). */
function tables(): GbTables {
  if (gbTables !== null) return gbTables;
  const dec = new TextDecoder('gb18030', { fatal: true });
  const two = new Map<number, number>();
  const four = new Map<number, number>();
  const decode = (bytes: Uint8Array): number | null => {
    try {
      const s = dec.decode(bytes);
      return s.length === 1 ? s.charCodeAt(0) : null;
    } catch {
      return null;
    }
  };
  for (let a = 0x81; a <= 0xfe; a++) {
    for (let b = 0x40; b <= 0xfe; b++) {
      if (b === 0x7f) continue;
      const cp = decode(Uint8Array.of(a, b));
      if (cp !== null && cp >= 0x80 && !two.has(cp)) two.set(cp, (a << 8) | b);
    }
  }
  // four-byte codes of the BMP end at 84 31 A4 39
  for (let a = 0x81; a <= 0x84; a++) {
    for (let b = 0x30; b <= 0x39; b++) {
      for (let c = 0x81; c <= 0xfe; c++) {
        if (a === 0x84 && (b > 0x31 || (b === 0x31 && c > 0xa4))) break;
        for (let d = 0x30; d <= 0x39; d++) {
          const cp = decode(Uint8Array.of(a, b, c, d));
          if (cp !== null && cp >= 0x80 && !two.has(cp) && !four.has(cp)) four.set(cp, ((a << 24) | (b << 16) | (c << 8) | d) >>> 0);
        }
      }
    }
  }
  gbTables = { two, four };
  return gbTables;
}

/** `text` in GBK (two-byte codes only) or GB18030, or null when a character has no code. */
function gbEncode(text: string, enc: 'gbk' | 'gb18030'): Buffer | null {
  const { two, four } = tables();
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) {
      out.push(cp);
      continue;
    }
    const t = two.get(cp);
    if (t !== undefined) {
      out.push(t >> 8, t & 0xff);
      continue;
    }
    if (enc === 'gbk') return null;
    const f = four.get(cp);
    if (f !== undefined) {
      out.push(f >>> 24, (f >>> 16) & 0xff, (f >>> 8) & 0xff, f & 0xff);
    } else if (cp >= 0x10000 && cp <= 0x10ffff) {
      let p = cp - 0x10000 + 189000;
      const d = 0x30 + (p % 10);
      p = Math.floor(p / 10);
      const c = 0x81 + (p % 126);
      p = Math.floor(p / 126);
      out.push(0x81 + Math.floor(p / 10), 0x30 + (p % 10), c, d);
    } else {
      return null;
    }
  }
  const buf = Buffer.from(out);
  return new TextDecoder('gb18030').decode(buf) === text ? buf : null;
}

// ---------------------------------------------------------------- model

interface Link {
  to: string;
  anchor: string;
  /** shown after the link (MM-DD on lists) */
  note?: string;
}

interface Block {
  cls: string;
  heading: string;
  links: Link[];
}

/** A link inside a forum post: text before, the link, text after. */
interface Inline {
  before: string;
  link: Link;
  after: string;
}

type Decl = 'header' | 'header+meta' | 'meta' | 'http-equiv';

interface Site {
  host: string;
  name: string;
  enc: Enc;
  decl: Decl;
  /** charset label written in <meta> (GBK hosts sometimes say gb2312) */
  metaLabel: string;
  home: string;
  /** target of the logo link (the portal home for a forum host) */
  logo: string;
  nav: Link[];
  footer: Link[];
  pages: Page[];
  /** archived 404 answers */
  gone: string[];
}

interface Page {
  url: string;
  site: Site;
  label: string;
  title: string;
  h1: string;
  info: string | null;
  paras: string[];
  inline: Inline[];
  keywords: string[];
  blocks: Block[];
  pager: Link[];
}

interface Category {
  label: string;
  slug: string;
  name: string;
  /** keyword pool (with repetitions: frequent words come up more often) */
  pool: string[];
  headlines: Headline[];
}

interface Article {
  h: Headline;
  cat: Category;
  id: number;
  url: string;
  time: number;
  kws: string[];
  dead: boolean;
}

interface Channel {
  cat: Category;
  portal: Portal;
  site: Site;
  /** newest first, dead ones included */
  articles: Article[];
  live: Article[];
  hubs: Page[];
}

interface Portal {
  k: number;
  name: string;
  site: Site;
  channels: Channel[];
  bbs: Site;
  threads: number;
  /** the home page has two ad links (dead: the ad host is not archived) */
  ads: boolean;
}

interface Cluster {
  cat: Category;
  site: Site;
  articles: Article[];
  index: Page | null;
}

/** Display names of the TNEWS classes; other labels are shown as they are. */
const CHANNEL_NAMES: Record<string, string> = {
  news_story: '故事', news_culture: '文化', news_entertainment: '娱乐', news_sports: '体育',
  news_finance: '财经', news_house: '房产', news_car: '汽车', news_edu: '教育', news_tech: '科技',
  news_military: '军事', news_travel: '旅游', news_world: '国际', news_stock: '股票',
  news_agriculture: '三农', news_game: '游戏',
};

const PORTAL_A = ['东方', '南方', '华夏', '九州', '神州', '长江', '天下', '新视界', '今日', '环球', '星空', '中原'];
const PORTAL_B = ['新闻网', '资讯网', '在线', '门户', '热点网', '快讯'];
const SITE_SUFFIX = ['观察', '圈', '头条', '杂谈', '笔记', '视点'];

/** Category-neutral sentence templates; {a} {b} {c} are keywords. */
const SENTENCES = [
  '{a}再次引发关注，不少人开始讨论{b}。',
  '据了解，{a}与{b}之间的联系越来越紧密。',
  '有观点认为，{a}的变化将直接影响{b}。',
  '说到{a}，很多人首先想到的是{b}。',
  '记者注意到，{a}和{b}的话题近日热度不减。',
  '对于{a}，相关人士表示还需要进一步观察。',
  '{a}、{b}和{c}是这段时间讨论最多的几个词。',
  '总的来看，{a}仍然值得持续关注。',
  '不少网友表示，{a}让人印象深刻。',
  '此外，{a}方面也出现了新的情况。',
  '相关负责人介绍，{a}的工作正在有序推进。',
  '从目前情况看，{a}还有不少值得期待的地方。',
  '围绕{a}，各方的看法并不一致，{b}也被反复提起。',
  '这已经不是{a}第一次成为话题了。',
  '回顾过去一段时间，{a}和{b}的表现都有起伏。',
];

const THREAD_TITLES = ['{a}和{b}，大家怎么看？', '聊聊{a}：{b}值不值得关注', '求助：关于{a}的几个问题', '{a}吐槽帖', '有没有人关注{a}？', '说说我对{a}的看法'];

const DAY = 86_400_000;
const LATEST = Date.UTC(2024, 4, 31, 23, 0, 0);

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pad = (n: number): string => String(n).padStart(2, '0');
const mmdd = (t: number): string => { const d = new Date(t); return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`; };
const stamp = (t: number): string => new Date(t).toISOString().slice(0, 16).replace('T', ' ');

function slugOf(label: string, i: number, used: Set<string>): string {
  let s = label.toLowerCase().replace(/^news[_-]/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  if (s === '' || /^\d/.test(s) || s === 'www' || s === 'bbs' || s === 'ad') s = `c${i}${s === '' ? '' : `-${s}`}`;
  let out = s;
  for (let n = 2; used.has(out); n++) out = `${s}-${n}`;
  used.add(out);
  return out;
}

function splitKeywords(kw: string | undefined): string[] {
  if (!kw) return [];
  return kw.split(/[,，、;；\s]+/).filter((w) => w.length > 0 && w.length <= 12);
}

/** Keyword pool of a category: its keywords, topped up with 2-4 character pieces of Han runs of its headlines. */
function poolOf(headlines: Headline[], rng: Rng): string[] {
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
  return pool.length > 0 ? pool : ['新闻'];
}

function sentence(rng: Rng, own: string[], pool: string[]): string {
  const word = (): string => (own.length > 0 && rng.chance(0.5) ? rng.pick(own) : rng.pick(pool));
  return rng.pick(SENTENCES).replace('{a}', word()).replace('{b}', word()).replace('{c}', word());
}

function paragraphs(rng: Rng, own: string[], pool: string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = rng.range(2, 4);
    let p = '';
    for (let j = 0; j < k; j++) p += sentence(rng, own, pool);
    out.push(p);
  }
  return out;
}

function mostFrequent(pool: string[]): string {
  const counts = new Map<string, number>();
  let best = pool[0];
  for (const w of pool) {
    const c = (counts.get(w) ?? 0) + 1;
    counts.set(w, c);
    if (c > (counts.get(best) ?? 0)) best = w;
  }
  return best;
}

// ---------------------------------------------------------------- generator

function checkOptions(headlines: Headline[], opts: PortalWebOptions): Required<PortalWebOptions> {
  const o = { seed: opts.seed, hosts: opts.hosts ?? 3, pageSize: opts.pageSize ?? 20, hiddenShare: opts.hiddenShare ?? 0.08 };
  if (!Number.isInteger(o.seed) || o.seed < 0 || o.seed > 0xffffffff) throw new UsageError(`seed must be an integer 0-4294967295, got ${o.seed}`);
  if (!Number.isInteger(o.hosts) || o.hosts < 1 || o.hosts > 50) throw new UsageError(`hosts must be an integer 1-50, got ${o.hosts}`);
  if (!Number.isInteger(o.pageSize) || o.pageSize < 5 || o.pageSize > 200) throw new UsageError(`pageSize must be an integer 5-200, got ${o.pageSize}`);
  if (!(o.hiddenShare >= 0 && o.hiddenShare <= 0.5)) throw new UsageError(`hiddenShare must be 0-0.5, got ${o.hiddenShare}`);
  if (headlines.length === 0) throw new UsageError('no headlines to generate a web from');
  for (const h of headlines) {
    if (typeof h.sentence !== 'string' || h.sentence.trim() === '' || typeof h.label !== 'string' || h.label === '' || /[\t\r\n]/.test(h.label)) {
      throw new UsageError(`bad headline ${JSON.stringify(h).slice(0, 200)}: needs a non-empty sentence and a label without tabs or newlines`);
    }
    if (h.label === 'home' || /^(hub|forum):/.test(h.label)) throw new UsageError(`headline label ${JSON.stringify(h.label)} is reserved for generated pages`);
  }
  return o;
}

/**
 * Generate the portal web of `headlines` (see the header comment for the
 * structure). Deterministic in (headlines, opts). Throws UsageError for bad
 * options or an empty / malformed headline list.
 */
export function generatePortalWeb(headlines: Headline[], opts: PortalWebOptions): PortalWeb {
  const o = checkOptions(headlines, opts);
  const rng = new Rng(o.seed ^ 0x5eed5eed);
  const sites: Site[] = [];
  const newSite = (host: string, name: string): Site => {
    const s: Site = { host, name, enc: 'utf-8', decl: 'header', metaLabel: 'utf-8', home: `http://${host}/`, logo: `http://${host}/`, nav: [], footer: [], pages: [], gone: [] };
    sites.push(s);
    return s;
  };
  const newPage = (site: Site, url: string, label: string, title: string): Page => {
    const p: Page = { url, site, label, title, h1: title, info: null, paras: [], inline: [], keywords: [], blocks: [], pager: [] };
    site.pages.push(p);
    return p;
  };
  const block = (p: Page, cls: string, heading: string): Block => {
    let b = p.blocks.find((x) => x.cls === cls);
    if (b === undefined) {
      b = { cls, heading, links: [] };
      p.blocks.push(b);
    }
    return b;
  };
  const homePage = (p: Portal): Page => {
    const found = p.site.pages.find((x) => x.url === p.site.home);
    if (found !== undefined) return found;
    const home = newPage(p.site, p.site.home, 'home', `${p.name} - 新闻资讯门户`);
    home.h1 = p.name;
    return home;
  };
  const aLink = (a: Article): Link => ({ to: a.url, anchor: a.h.sentence, note: mmdd(a.time) });

  // categories, in label order
  const byLabel = new Map<string, Headline[]>();
  for (const h of headlines) {
    const list = byLabel.get(h.label) ?? [];
    list.push(h);
    byLabel.set(h.label, list);
  }
  const slugs = new Set<string>();
  const cats: Category[] = [...byLabel.keys()].sort().map((label, i) => {
    const hs = byLabel.get(label) as Headline[];
    return { label, slug: slugOf(label, i, slugs), name: CHANNEL_NAMES[label] ?? label, pool: poolOf(hs, rng), headlines: hs };
  });

  // portals and the categories they carry
  const portals: Portal[] = [];
  const names = new Set<string>();
  for (let k = 1; k <= o.hosts; k++) {
    let name = `${rng.pick(PORTAL_A)}${rng.pick(PORTAL_B)}`;
    while (names.has(name)) name = `${rng.pick(PORTAL_A)}${rng.pick(PORTAL_B)}${k}`;
    names.add(name);
    const site = newSite(`www.portal${k}.example.cn`, name);
    portals.push({ k, name, site, channels: [], bbs: newSite(`bbs.portal${k}.example.cn`, `${name}论坛`), threads: 1000, ads: false });
  }

  let nextId = 100001;
  const newArticle = (h: Headline, cat: Category, url: (id: number, time: number) => string): Article => {
    const id = nextId++;
    const time = LATEST - rng.int(90 * 24 * 60) * 60_000;
    return { h, cat, id, url: url(id, time), time, kws: splitKeywords(h.keywords), dead: false };
  };
  const byTime = (a: Article, b: Article): number => b.time - a.time || a.id - b.id;

  // headlines: hidden share to tunnel clusters, the rest to the portals carrying the category
  const clusters: Cluster[] = [];
  for (const cat of cats) {
    const hs = rng.shuffle(cat.headlines.slice());
    const hiddenN = o.hiddenShare > 0 && hs.length >= 8 ? Math.max(2, Math.round(hs.length * o.hiddenShare)) : 0;
    const nClusters = hiddenN === 0 ? 0 : Math.max(1, Math.round(hiddenN / 9));
    for (let c = 0; c < nClusters; c++) {
      const j = clusters.length + 1;
      const host = `www.zmt${j}.example.cn`;
      const site = newSite(host, `${mostFrequent(cat.pool)}${rng.pick(SITE_SUFFIX)}`);
      const part = hs.slice(Math.floor((c * hiddenN) / nClusters), Math.floor(((c + 1) * hiddenN) / nClusters));
      const articles = part.map((h) => newArticle(h, cat, (id) => `http://${host}/p/${id}.html`)).sort(byTime);
      clusters.push({ cat, site, articles, index: null });
    }
    let carriers = portals.filter(() => rng.chance(0.8));
    if (carriers.length === 0) carriers = [rng.pick(portals)];
    const perPortal = new Map<Portal, Article[]>();
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
      if (list === undefined) continue;
      const site = newSite(`${cat.slug}.portal${p.k}.example.cn`, `${p.name}${cat.name}频道`);
      list.sort(byTime);
      p.channels.push({ cat, portal: p, site, articles: list, live: list, hubs: [] });
    }
  }

  // dead articles: listed on their hub, answered with 404
  const dead: string[] = [];
  for (const p of portals) {
    const all = p.channels.flatMap((c) => c.articles);
    if (all.length < 3) continue;
    const n = Math.max(1, Math.round(all.length * 0.01));
    for (const a of rng.shuffle(all.slice()).slice(0, n)) a.dead = true;
    for (const ch of p.channels) {
      ch.live = ch.articles.filter((a) => !a.dead);
      for (const a of ch.articles) if (a.dead) { ch.site.gone.push(a.url); dead.push(a.url); }
    }
    p.ads = true;
    for (let i = 1; i <= 2; i++) dead.push(`http://ad.portal${p.k}.example.cn/click?id=${i}`);
  }

  // nav bars and footers
  for (const p of portals) {
    const nav: Link[] = [{ to: p.site.home, anchor: '首页' }, ...p.channels.map((c) => ({ to: c.site.home, anchor: c.cat.name }))];
    const footer = portals.filter((q) => q !== p).map((q) => ({ to: q.site.home, anchor: q.name }));
    for (const s of [p.site, p.bbs, ...p.channels.map((c) => c.site)]) {
      s.nav = nav;
      s.footer = footer;
    }
    p.bbs.logo = p.site.home;
  }

  // hub pages
  for (const p of portals) {
    for (const ch of p.channels) {
      const nPages = Math.max(1, Math.ceil(ch.articles.length / o.pageSize));
      const url = (n: number): string => (n === 1 ? ch.site.home : `${ch.site.home}list_${n}.html`);
      for (let n = 1; n <= nPages; n++) {
        const hub = newPage(ch.site, url(n), `hub:${ch.cat.label}`, n === 1 ? `${ch.cat.name}频道_${p.name}` : `${ch.cat.name}频道_第${n}页_${p.name}`);
        hub.h1 = `${ch.cat.name}频道`;
        block(hub, 'list', n === 1 ? '最新文章' : `文章列表 第${n}页`).links.push(...ch.articles.slice((n - 1) * o.pageSize, n * o.pageSize).map(aLink));
        if (nPages > 1) {
          if (n > 1) hub.pager.push({ to: url(1), anchor: '第一页' }, { to: url(n - 1), anchor: '上一页' });
          for (let m = Math.max(1, n - 2); m <= Math.min(nPages, n + 2); m++) if (m !== n) hub.pager.push({ to: url(m), anchor: String(m) });
          if (n < nPages) hub.pager.push({ to: url(n + 1), anchor: '下一页' }, { to: url(nPages), anchor: '末页' });
        }
        ch.hubs.push(hub);
      }
    }
  }

  // forum threads
  const newThread = (p: Portal, cat: Category): Page => {
    const n = ++p.threads;
    const topic = rng.pick(THREAD_TITLES).replace('{a}', rng.pick(cat.pool)).replace('{b}', rng.pick(cat.pool));
    const t = newPage(p.bbs, `${p.bbs.home}thread-${n}-1-1.html`, `forum:${cat.label}`, `${topic}_${cat.name}论坛_${p.name}`);
    t.h1 = topic;
    t.info = `楼主：网友${rng.range(1000, 9999)}　发表于 ${stamp(LATEST - rng.int(60) * DAY)}`;
    const replies = rng.range(3, 6);
    for (let i = 0; i < replies; i++) t.paras.push(`${i === 0 ? '楼主' : `${i + 1}楼 网友${rng.range(1000, 9999)}`}：${paragraphs(rng, [], cat.pool, 1)[0]}`);
    return t;
  };
  const hotThreads = (hub: Page): Block => block(hub, 'sidebar bbs-hot', '论坛热帖');
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

  // tunnels into the clusters
  let tunnels = 0;
  const clusterPortal = new Map<Cluster, Portal>();
  for (const cl of clusters) {
    const starts = portals.flatMap((p) => p.channels.filter((c) => c.cat !== cl.cat).flatMap((c) => c.hubs.map((hub) => ({ hub, p, cat: c.cat }))));
    const others = cats.filter((c) => c !== cl.cat);
    const entries = rng.range(1, 2);
    const index = newPage(cl.site, cl.site.home, `hub:${cl.cat.label}`, `${cl.site.name} - 最新文章`);
    index.h1 = cl.site.name;
    index.paras = paragraphs(rng, [], cl.cat.pool, 1);
    cl.index = index;
    for (let e = 0; e < entries; e++) {
      // a hub of another category; with a single category, a portal home
      const start = starts.length > 0 ? rng.pick(starts) : null;
      const portal = start?.p ?? rng.pick(portals);
      const from = start?.hub ?? homePage(portal);
      const fromCat = start?.cat ?? rng.pick(cats);
      if (!clusterPortal.has(cl)) clusterPortal.set(cl, portal);
      const len = rng.range(1, 3);
      let prev: Page | null = null;
      for (let i = 0; i < len; i++) {
        const t = newThread(portal, i === 0 ? fromCat : rng.pick(others.length > 0 ? others : cats));
        if (prev === null) hotThreads(from).links.push({ to: t.url, anchor: t.h1 });
        else prev.inline.push({ before: '楼主补充一下，之前看到过这个帖子：', link: { to: t.url, anchor: t.h1 }, after: '，可以一起看看。' });
        prev = t;
      }
      const last = prev as Page;
      last.inline.push({ before: '顺便推荐一个网站：', link: { to: cl.site.home, anchor: cl.site.name }, after: '，内容挺多的。' });
      for (const a of rng.shuffle(cl.articles.slice()).slice(0, rng.range(1, 2))) {
        last.inline.push({ before: '比如这篇：', link: { to: a.url, anchor: a.h.sentence }, after: '。' });
      }
      tunnels++;
    }
  }

  // article pages
  const articlePage = (site: Site, a: Article, info: string): Page => {
    const pg = newPage(site, a.url, a.cat.label, a.h.sentence);
    pg.info = info;
    pg.keywords = a.kws;
    pg.paras = paragraphs(rng, a.kws, a.cat.pool, rng.range(3, 5));
    return pg;
  };
  const prevNext = (pg: Page, list: Article[], i: number): void => {
    const b = block(pg, 'prevnext', '上一篇 / 下一篇');
    if (i > 0) b.links.push({ to: list[i - 1].url, anchor: list[i - 1].h.sentence });
    if (i + 1 < list.length) b.links.push({ to: list[i + 1].url, anchor: list[i + 1].h.sentence });
    if (b.links.length === 0) pg.blocks.splice(pg.blocks.indexOf(b), 1);
  };
  for (const p of portals) {
    const portalLive = p.channels.flatMap((c) => c.live);
    for (const ch of p.channels) {
      const sameCat = portals.flatMap((q) => (q === p ? [] : q.channels.filter((c) => c.cat === ch.cat).flatMap((c) => c.live)));
      const otherCat = p.channels.flatMap((c) => (c === ch ? [] : c.live));
      ch.live.forEach((a, i) => {
        const pg = articlePage(ch.site, a, `${stamp(a.time)}　来源：${p.name}${ch.cat.name}频道`);
        const rel = new Set<Article>([a]);
        const want = rng.range(4, 6);
        for (let tries = 0; rel.size <= want && tries < 30; tries++) {
          const r = rng.next();
          if (r < 0.6 || (r < 0.75 && sameCat.length === 0) || (r >= 0.75 && otherCat.length === 0)) {
            const j = Math.min(ch.live.length - 1, Math.max(0, i + rng.range(-8, 8)));
            rel.add(ch.live[j]);
          } else {
            rel.add(rng.pick(r < 0.75 ? sameCat : otherCat));
          }
        }
        rel.delete(a);
        if (rel.size > 0) block(pg, 'related', '相关阅读').links.push(...[...rel].map(aLink));
        const hot = new Set<Article>();
        for (let tries = 0; hot.size < 3 && tries < 10; tries++) {
          const b = rng.pick(portalLive);
          if (b !== a) hot.add(b);
        }
        if (hot.size > 0) block(pg, 'sidebar hot', '热点推荐').links.push(...[...hot].map(aLink));
        prevNext(pg, ch.live, i);
      });
    }
    // home page
    const home = homePage(p);
    const top = block(home, 'focus', '要闻');
    for (const ch of p.channels) top.links.push(...ch.live.slice(0, 2).map(aLink));
    const picks = new Set<Article>();
    for (let tries = 0; picks.size < 6 && tries < 30 && portalLive.length > 0; tries++) picks.add(rng.pick(portalLive));
    if (picks.size > 0) block(home, 'recommend', '编辑推荐').links.push(...[...picks].map(aLink));
    if (p.ads) block(home, 'ads', '推广').links.push({ to: `http://ad.portal${p.k}.example.cn/click?id=1`, anchor: '广告：限时优惠' }, { to: `http://ad.portal${p.k}.example.cn/click?id=2`, anchor: '广告：点击领取' });
  }
  for (const cl of clusters) {
    const portal = clusterPortal.get(cl) as Portal;
    cl.site.nav = [{ to: cl.site.home, anchor: '首页' }];
    cl.site.footer = [{ to: portal.site.home, anchor: `返回${portal.name}` }];
    const index = cl.index as Page;
    block(index, 'list', '最新文章').links.push(...cl.articles.map(aLink));
    cl.articles.forEach((a, i) => {
      const pg = articlePage(cl.site, a, `${stamp(a.time)}　作者：${cl.site.name}`);
      const rel = cl.articles.filter((b, j) => b !== a && Math.abs(i - j) <= 4).slice(0, 6);
      if (rel.length > 0) block(pg, 'related', '相关阅读').links.push(...rel.map(aLink));
      prevNext(pg, cl.articles, i);
    });
  }

  assignEncodings(sites, rng);
  return assemble(sites, portals, dead, tunnels, clusters, o.seed);
}

function assignEncodings(sites: Site[], rng: Rng): void {
  for (const s of sites) {
    const r = rng.next();
    s.enc = r < 0.55 ? 'utf-8' : r < 0.8 ? 'gbk' : 'gb18030';
  }
  const used = sites.filter((s) => s.pages.length > 0);
  if (used.length >= 3) {
    for (const enc of ['gbk', 'gb18030'] as const) {
      if (!used.some((s) => s.enc === enc)) {
        const utf = used.filter((s) => s.enc === 'utf-8');
        (utf.length > 0 ? rng.pick(utf) : rng.pick(used)).enc = enc;
      }
    }
  }
  for (const s of sites) {
    const r = rng.next();
    if (s.enc === 'utf-8') {
      s.decl = r < 0.7 ? 'header' : r < 0.9 ? 'header+meta' : 'meta';
      s.metaLabel = 'utf-8';
    } else {
      s.decl = r < 0.4 ? 'header' : r < 0.6 ? 'header+meta' : r < 0.8 ? 'meta' : 'http-equiv';
      s.metaLabel = s.enc === 'gbk' && s.decl === 'http-equiv' && rng.chance(0.5) ? 'gb2312' : s.enc;
    }
  }
}

// ---------------------------------------------------------------- rendering

/** An href for `to` as an author might write it on page `base`; always resolves back to `to`. */
function hrefFor(base: string, to: string, rng: Rng): string {
  const b = new URL(base);
  const t = new URL(to);
  let href = to;
  if (b.host === t.host && rng.chance(0.6)) href = t.pathname + t.search;
  if (t.pathname === '/' && t.search === '' && rng.chance(0.1)) href += 'index.html';
  if (canonicalize(href, base) !== to) throw new Error(`internal: href ${href} on ${base} does not resolve to ${to}`);
  return href;
}

function render(pg: Page, enc: Enc, decl: Decl, metaLabel: string, seed: number): string {
  const rng = new Rng(fnv1a(`${seed}/${pg.url}`));
  const a = (l: Link): string => `<a href="${esc(hrefFor(pg.url, l.to, rng))}">${esc(l.anchor)}</a>`;
  const head: string[] = [];
  if (decl === 'meta' || decl === 'header+meta') head.push(`<meta charset="${metaLabel}">`);
  if (decl === 'http-equiv') head.push(`<meta http-equiv="Content-Type" content="text/html; charset=${metaLabel}">`);
  head.push(`<title>${esc(pg.title)}</title>`);
  if (pg.keywords.length > 0) head.push(`<meta name="keywords" content="${esc(pg.keywords.join(','))}">`);
  head.push('<meta name="generator" content="focuscrawl gen-web (synthetic)">');
  const s = pg.site;
  const body: string[] = [SYNTHETIC_COMMENT];
  body.push(`<div class="header"><a class="logo" href="${esc(hrefFor(pg.url, s.logo, rng))}">${esc(s.name)}</a></div>`);
  if (s.nav.length > 0) body.push(`<div class="nav">${s.nav.map(a).join(' ')}</div>`);
  body.push('<div id="main">', `<h1>${esc(pg.h1)}</h1>`);
  if (pg.info !== null) body.push(`<p class="info">${esc(pg.info)}</p>`);
  if (pg.paras.length > 0 || pg.inline.length > 0) {
    body.push('<div class="text">');
    pg.paras.forEach((p, i) => {
      body.push(`<p>${esc(p)}</p>`);
      if (i === 0) for (const l of pg.inline) body.push(`<p>${esc(l.before)}${a(l.link)}${esc(l.after)}</p>`);
    });
    body.push('</div>');
  }
  if (pg.keywords.length > 0) body.push(`<p class="tags">关键词：${pg.keywords.map(esc).join(' ')}</p>`);
  for (const b of pg.blocks) {
    if (b.links.length === 0) continue;
    body.push(`<div class="${b.cls}"><h3>${esc(b.heading)}</h3><ul>`);
    for (const l of b.links) body.push(`<li>${a(l)}${l.note ? ` <span class="time">${l.note}</span>` : ''}</li>`);
    body.push('</ul></div>');
  }
  if (pg.pager.length > 0) body.push(`<div class="pages">${pg.pager.map(a).join(' ')}</div>`);
  body.push('</div>');
  const foot = s.footer.length > 0 ? `友情链接：${s.footer.map(a).join(' ')}<br>` : '';
  body.push(`<div class="footer">${foot}版权所有 2024 ${esc(s.name)}（合成测试网页）</div>`);
  return `<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n${head.join('\n')}\n</head>\n<body>\n${body.join('\n')}\n</body>\n</html>\n`;
}

function notFound(site: Site): string {
  return `<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n<title>404 页面不存在</title>\n</head>\n<body>\n${SYNTHETIC_COMMENT}\n<h1>404 页面不存在</h1>\n<p>您访问的文章已删除。<a href="${esc(site.nav[0]?.to ?? site.home)}">返回首页</a></p>\n</body>\n</html>\n`;
}

const HEADER_LABEL: Record<Enc, string> = { 'utf-8': 'utf-8', gbk: 'GBK', gb18030: 'GB18030' };

function assemble(sites: Site[], portals: Portal[], dead: string[], tunnels: number, clusters: Cluster[], seed: number): PortalWeb {
  const records: WebRecord[] = [];
  const labels: PageLabel[] = [];
  const encodings: PortalWebStats['encodings'] = { 'utf-8': 0, gbk: 0, gb18030: 0 };
  let fallbacks = 0;
  const headers = (ct: string, body: Buffer): Array<[string, string]> => [
    ['Date', HTTP_DATE], ['Server', 'portal-httpd/1.0'], ['Content-Type', ct], ['Content-Length', String(body.length)], SYNTHETIC_HEADER,
  ];
  const pageUrls = new Set<string>();
  for (const s of sites) for (const p of s.pages) pageUrls.add(p.url);
  const deadSet = new Set(dead);
  let hosts = 0;
  for (const s of sites) {
    if (s.pages.length === 0 && s.gone.length === 0) continue;
    hosts++;
    const robots = Buffer.from('# synthetic robots.txt generated by focuscrawl gen-web; links are synthetic\nUser-agent: *\nDisallow: /admin/\n');
    records.push({ url: `http://${s.host}/robots.txt`, status: 200, statusText: 'OK', headers: headers('text/plain; charset=utf-8', robots), body: robots });
    for (const p of s.pages) {
      for (const l of [{ to: s.logo, anchor: '' }, ...s.nav, ...s.footer, ...p.blocks.flatMap((b) => b.links), ...p.pager, ...p.inline.map((x) => x.link)]) {
        if (!pageUrls.has(l.to) && !deadSet.has(l.to)) throw new Error(`internal: ${p.url} links to missing ${l.to}`);
      }
      let enc = s.enc;
      let decl = s.decl;
      let metaLabel = s.metaLabel;
      let body: Buffer | null = null;
      while (body === null) {
        const html = render(p, enc, decl, metaLabel, seed);
        body = enc === 'utf-8' ? Buffer.from(html, 'utf8') : gbEncode(html, enc);
        if (body === null) {
          fallbacks++;
          if (enc === 'gbk') {
            enc = 'gb18030';
            if (metaLabel !== 'utf-8') metaLabel = 'gb18030';
          } else {
            enc = 'utf-8';
            decl = 'header';
          }
        }
      }
      encodings[enc]++;
      const ct = decl === 'header' || decl === 'header+meta' ? `text/html; charset=${HEADER_LABEL[enc]}` : 'text/html';
      records.push({ url: p.url, status: 200, statusText: 'OK', headers: headers(ct, body), body });
      labels.push({ url: p.url, label: p.label, site: s.host });
    }
    for (const url of s.gone) {
      const body = Buffer.from(notFound(s), 'utf8');
      encodings['utf-8']++;
      records.push({ url, status: 404, statusText: 'Not Found', headers: headers('text/html; charset=utf-8', body), body });
    }
  }
  for (const r of records) if (canonicalize(r.url) !== r.url) throw new Error(`internal: ${r.url} is not canonical`);
  const articlesByLabel: Record<string, number> = {};
  let hubs = 0;
  let homes = 0;
  let forum = 0;
  for (const l of labels) {
    if (l.label.startsWith('hub:')) hubs++;
    else if (l.label.startsWith('forum:')) forum++;
    else if (l.label === 'home') homes++;
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
      encodingFallbacks: fallbacks,
    },
  };
}
