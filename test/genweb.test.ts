/**
 * The generated portal web (src/genweb): deterministic bytes, labels match
 * records, every link resolves inside the web or to a declared dead link,
 * GBK / GB18030 pages are really encoded and hold their headline unaltered,
 * the warcinfo record and the synthetic comment are present, finance articles
 * are reachable from the seeds and some only through off-topic forum pages
 * (tunnels), and the replay proxy serves the web. The inline headlines below
 * were written for this test (synthetic, not from any data set).
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import iconv from 'iconv-lite';
import { ProxyAgent, request } from 'undici';
import { WARCParser } from 'warcio';
import { canonicalize, hostOf } from '../src/urls/canonical.ts';
import { parseBody } from '../src/parse/body.ts';
import { createReplayServer } from '../src/replay/server.ts';
import { generatePortalWeb, SYNTHETIC_COMMENT, WARCINFO_DESCRIPTION, type Headline, type PortalWeb, type WebRecord } from '../src/tools/genweb/portal.ts';
import { labelsTsv, portalWarc, readHeadlines, runGenWeb } from '../src/commands/gen-web.ts';

const TNEWS = fileURLToPath(new URL('../../shared/corpora/tnews/tnews-dev.ndjson', import.meta.url));

/** [headline, keywords] per class; written for this test. */
const RAW: Record<string, Array<[string, string]>> = {
  news_finance: [
    ['央行宣布下调存款准备金率0.25个百分点', '央行,存款准备金率,降准'],
    ['多家银行下调大额存单利率，储户该怎么理财？', '银行,大额存单,利率,理财'],
    ['上半年社会消费品零售总额同比增长', '消费,零售,同比增长'],
    ['人民币汇率连续三日走强，出口企业如何应对', '人民币,汇率,出口企业'],
    ['新能源产业链融资规模创新高', '融资,产业链,新能源'],
    ['专家解读：房贷利率下行对家庭资产配置的影响', '房贷利率,资产配置,家庭'],
    ['基金公司二季度规模排名出炉', '基金公司,规模,排名'],
    ['国债收益率小幅回落，债市情绪回暖', '国债,收益率,债市'],
    ['小微企业贷款余额同比增长两成', '小微企业,贷款,余额'],
    ['黄金价格震荡上行，投资者还能入场吗？', '黄金,价格,投资者'],
    ['保险业上半年保费收入稳步增长', '保险,保费收入'],
    ['信用卡分期手续费到底有多高？一文算清楚', '信用卡,分期,手续费'],
    ['地方政府专项债发行提速', '专项债,地方政府,发行'],
    ['外资机构持续增持中国债券', '外资,债券,增持'],
    ['居民储蓄意愿上升，银行存款再创新高', '储蓄,银行存款'],
    ['财政部公布前五个月税收收入情况', '财政部,税收'],
    ['跨境支付便利化措施落地，外贸企业受益', '跨境支付,外贸企业'],
    ['消费金融公司加快数字化转型', '消费金融,数字化'],
    ['通胀数据公布，物价总体保持平稳', '通胀,物价,CPI'],
    ['数字人民币试点范围再扩大', '数字人民币,试点'],
  ],
  news_sports: [
    ['联赛第十五轮：主队补时绝杀客队', '联赛,绝杀,补时'],
    ['女排联赛总决赛门票开售即告罄', '女排,总决赛,门票'],
    ['城市马拉松报名人数创纪录', '马拉松,报名'],
    ['男篮热身赛大胜对手，新秀表现抢眼', '男篮,热身赛,新秀'],
    ['乒乓球世界杯：包揽男女单打冠军', '乒乓球,世界杯,冠军'],
    ['游泳冠军赛多项纪录被刷新', '游泳,冠军赛,纪录'],
    ['足协公布新赛季裁判名单', '足协,裁判,新赛季'],
    ['羽毛球公开赛：混双组合逆转晋级', '羽毛球,混双,晋级'],
    ['田径锦标赛男子百米决赛结果揭晓', '田径,百米,决赛'],
    ['网球名将宣布伤愈复出', '网球,复出'],
    ['冰雪项目训练营在北方开营', '冰雪,训练营'],
    ['篮球联赛季后赛对阵出炉', '篮球,季后赛,对阵'],
    ['亚洲杯小组赛出线形势分析', '亚洲杯,小组赛,出线'],
    ['体操队新老队员同场竞技', '体操,队员'],
    ['自行车环湖赛首站冲刺激烈', '自行车,环湖赛,冲刺'],
    ['拳击手卫冕金腰带成功', '拳击,金腰带,卫冕'],
    ['高尔夫球公开赛首轮领先者出炉', '高尔夫,公开赛'],
    ['跳水世界杯：双人十米台摘金', '跳水,十米台,金牌'],
    ['俱乐部官宣引进外援前锋', '俱乐部,外援,前锋'],
    ['全民健身日各地举办群众体育活动', '全民健身,群众体育'],
  ],
  news_tech: [
    ['国产手机芯片实现新突破', '芯片,手机,国产'],
    ['人工智能大模型进入应用落地阶段', '人工智能,大模型'],
    ['5G基站数量突破新关口', '5G,基站'],
    ['量子计算原型机完成关键实验', '量子计算,原型机'],
    ['新款笔记本电脑续航测试结果公布', '笔记本电脑,续航'],
    ['开源操作系统社区发布新版本', '开源,操作系统'],
    ['卫星互联网星座组网进展顺利', '卫星互联网,组网'],
    ['智能家居设备互联标准发布', '智能家居,互联标准'],
    ['自动驾驶出租车在多地试运营', '自动驾驶,出租车'],
    ['云计算厂商推出新一代服务器', '云计算,服务器'],
    ['新一代处理器性能实测🚀', '处理器,性能'],
    ['固态电池研发取得阶段性成果', '固态电池,研发'],
    ['机器人公司展示最新人形机器人', '机器人,人形机器人'],
    ['网络安全漏洞预警：请及时更新系统', '网络安全,漏洞'],
    ['可穿戴设备健康监测功能升级', '可穿戴设备,健康监测'],
    ['编程语言排行榜出炉：C++ & Rust <排名上升>', '编程语言,排行榜'],
    ['虚拟现实头显销量增长', '虚拟现实,头显'],
    ['光刻机技术路线之争', '光刻机,技术'],
    ['数据中心节能改造方案发布', '数据中心,节能'],
    ['短视频平台上线AI创作工具', '短视频,AI,创作工具'],
  ],
};

const HEADLINES: Headline[] = [];
for (let i = 0; i < 20; i++) {
  for (const [label, rows] of Object.entries(RAW)) HEADLINES.push({ sentence: rows[i][0], label, keywords: rows[i][1] });
}
const OPTS = { seed: 7, hosts: 2, pageSize: 5, hiddenShare: 0.15 };

const contentType = (r: WebRecord): string => r.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
const headerCharset = (r: WebRecord): string | null => /charset=([^;\s]+)/i.exec(contentType(r))?.[1] ?? null;
const isHtml = (r: WebRecord): boolean => contentType(r).startsWith('text/html');

/** Canonical link targets of an HTML record (hrefs are ASCII; entities are only &amp;). */
function linksOf(r: WebRecord): string[] {
  const out: string[] = [];
  for (const m of r.body.toString('latin1').matchAll(/<a [^>]*href="([^"]*)"/g)) {
    const url = canonicalize(m[1].replace(/&amp;/g, '&'), r.url);
    if (url !== null) out.push(url);
  }
  return out;
}

/** Breadth-first order of the URLs reachable from the seeds; pages for which `expand` is false are visited but not followed. */
function bfs(web: PortalWeb, expand: (url: string) => boolean = () => true): string[] {
  const byUrl = new Map(web.records.map((r) => [r.url, r]));
  const seen = new Set<string>(web.seeds);
  const order: string[] = [];
  const queue = [...web.seeds];
  for (let i = 0; i < queue.length; i++) {
    const url = queue[i];
    order.push(url);
    const r = byUrl.get(url);
    if (r === undefined || r.status !== 200 || !isHtml(r) || !expand(url)) continue;
    for (const l of linksOf(r)) {
      if (!seen.has(l)) {
        seen.add(l);
        queue.push(l);
      }
    }
  }
  return order;
}

describe('generatePortalWeb on inline headlines', () => {
  let web: PortalWeb;
  let labelOf: Map<string, string>;
  before(() => {
    web = generatePortalWeb(HEADLINES, OPTS);
    labelOf = new Map(web.labels.map((l) => [l.url, l.label]));
  });

  test('deterministic: same input and seed give the same WARC bytes; another seed does not', async () => {
    const a = await portalWarc(web, OPTS.seed);
    const b = await portalWarc(generatePortalWeb(HEADLINES, OPTS), OPTS.seed);
    assert.ok(a.equals(b));
    const c = await portalWarc(generatePortalWeb(HEADLINES, { ...OPTS, seed: 8 }), 8);
    assert.ok(!a.equals(c));
  });

  test('structure: portals, channel hosts, hubs with pagination, articles for every live headline', () => {
    assert.deepEqual(web.seeds, ['http://www.portal1.example.cn/', 'http://www.portal2.example.cn/']);
    const s = web.stats;
    assert.equal(s.pages, web.labels.length);
    assert.equal(s.homes, 2);
    assert.ok(s.hubs >= 6, `hubs ${s.hubs}`);
    assert.ok(web.labels.some((l) => /\/list_2\.html$/.test(l.url)), 'a second hub page');
    assert.ok(s.tunnels >= 3 && s.forum >= s.tunnels && s.hiddenArticles >= 6, JSON.stringify(s));
    // every headline is an article page, except the deleted ones (their URL is a dead link answering 404)
    const gone = web.records.filter((r) => r.status === 404).map((r) => r.url);
    assert.ok(gone.length >= 1);
    assert.equal(s.articles + gone.length, HEADLINES.length);
    for (const g of gone) assert.ok(web.deadLinks.includes(g));
    // channel hosts are single-topic
    const topicsByHost = new Map<string, Set<string>>();
    for (const l of web.labels) {
      if (!/^news_/.test(l.label)) continue;
      const set = topicsByHost.get(l.site) ?? new Set();
      set.add(l.label);
      topicsByHost.set(l.site, set);
    }
    for (const [host, set] of topicsByHost) assert.equal(set.size, 1, host);
  });

  test('every label row has a 200 HTML record, every page says it is synthetic', () => {
    const byUrl = new Map(web.records.map((r) => [r.url, r]));
    for (const l of web.labels) {
      const r = byUrl.get(l.url);
      assert.ok(r, l.url);
      assert.equal(r.status, 200);
      assert.ok(isHtml(r));
      assert.equal(l.site, hostOf(l.url));
    }
    for (const r of web.records) {
      assert.ok(r.headers.some(([k]) => k === 'X-Focuscrawl-Synthetic'), r.url);
      if (isHtml(r)) assert.ok(r.body.toString('latin1').includes(SYNTHETIC_COMMENT), r.url);
      assert.equal(canonicalize(r.url), r.url);
    }
    const hosts = new Set(web.records.map((r) => hostOf(r.url)));
    for (const h of hosts) assert.ok(byUrl.has(`http://${h}/robots.txt`), h);
    const tsv = labelsTsv(web).split('\n');
    assert.equal(tsv[0], 'url\tlabel\tsite');
    assert.equal(tsv.length, web.labels.length + 2);
  });

  test('every link resolves to a record or to a declared dead link, and dead links are used', () => {
    const have = new Set(web.records.map((r) => r.url));
    const dead = new Set(web.deadLinks);
    const used = new Set<string>();
    for (const r of web.records) {
      if (r.status !== 200 || !isHtml(r)) continue;
      const page = parseBody(r.body, r.url, headerCharset(r));
      for (const l of page.links) {
        const url = canonicalize(l.url) as string;
        if (have.has(url) && !dead.has(url)) continue;
        assert.ok(dead.has(url), `${r.url} -> ${url}`);
        used.add(url);
      }
    }
    assert.deepEqual([...used].sort(), web.deadLinks);
    for (const d of web.deadLinks) {
      const rec = web.records.find((r) => r.url === d);
      assert.ok(rec === undefined || rec.status === 404, d);
    }
  });

  test('article pages carry their headline unaltered as title and h1; GBK and GB18030 pages are really encoded', () => {
    const sentences = new Map(HEADLINES.map((h) => [h.sentence, h.label]));
    const encs = new Set<string>();
    let gb = 0;
    for (const r of web.records) {
      if (r.status !== 200 || !isHtml(r)) continue;
      const page = parseBody(r.body, r.url, headerCharset(r));
      const label = labelOf.get(r.url) as string;
      if (/^news_/.test(label)) {
        assert.equal(sentences.get(page.title), label, `${r.url}: title ${page.title}`);
        assert.ok(page.blocks.heading.includes(page.title));
      }
      encs.add(page.charset);
      if (page.charset !== 'gbk' && page.charset !== 'gb18030') continue;
      gb++;
      const text = new TextDecoder('gb18030').decode(r.body);
      assert.ok(!r.body.equals(Buffer.from(text, 'utf8')), `${r.url} is not UTF-8`);
      assert.ok(text.includes(SYNTHETIC_COMMENT));
      if (/^news_/.test(label)) {
        const esc = page.title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        assert.ok(text.includes(`<title>${esc}</title>`), r.url);
      }
      // a GBK page is plain GBK: an independent decoder agrees
      if (page.charset === 'gbk') assert.equal(iconv.decode(r.body, 'gbk'), text, r.url);
    }
    assert.ok(encs.has('gbk') && encs.has('gb18030') && encs.has('utf-8'), [...encs].join());
    assert.ok(gb >= 5);
    const declared = { header: 0, meta: 0 };
    for (const r of web.records) {
      if (!isHtml(r) || r.status !== 200) continue;
      const cs = headerCharset(r);
      if (cs !== null && /gb/i.test(cs)) declared.header++;
      if (cs === null) declared.meta++;
    }
    assert.ok(declared.header > 0 && declared.meta > 0, JSON.stringify(declared));
    // the emoji headline cannot be GBK: its page is UTF-8 or GB18030, and it keeps the emoji
    const rocket = web.records.filter((r) => labelOf.get(r.url) === 'news_tech').map((r) => parseBody(r.body, r.url, headerCharset(r))).find((p) => p.title === '新一代处理器性能实测🚀');
    assert.ok(rocket === undefined || rocket.charset !== 'gbk');
  });

  test('finance articles are reachable from the seeds; some only through off-topic forum pages', () => {
    const finance = new Set(web.labels.filter((l) => l.label === 'news_finance').map((l) => l.url));
    const all = new Set(bfs(web));
    for (const f of finance) assert.ok(all.has(f), `unreachable ${f}`);
    const noForum = new Set(bfs(web, (url) => !(labelOf.get(url) ?? '').startsWith('forum:')));
    const tunnelled = [...finance].filter((f) => !noForum.has(f));
    assert.ok(tunnelled.length >= 2, `tunnelled finance articles: ${tunnelled.length}`);
    for (const f of tunnelled) assert.match(f, /^http:\/\/www\.zmt\d+\.example\.cn\/p\//);
    // a tunnel starts at a hub of another category
    const byUrl = new Map(web.records.map((r) => [r.url, r]));
    const starts = web.labels.filter((l) => l.label.startsWith('hub:') && l.label !== 'hub:news_finance' && !l.site.startsWith('www.zmt'))
      .filter((l) => linksOf(byUrl.get(l.url) as WebRecord).some((u) => (labelOf.get(u) ?? '').startsWith('forum:')));
    assert.ok(starts.length >= 1);
  });
});

describe('WARC, replay and the command', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genweb-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const sink = (f: (s: string) => void): Writable => new Writable({ write(c, _e, cb) { f(String(c)); cb(); } });
    const code = await runGenWeb(argv, { stdout: sink((s) => { out += s; }), stderr: sink((s) => { err += s; }) });
    return { code, out, err };
  }

  test('gen-web writes WARC, labels and seeds; warcinfo first; replay serves a page with its headline', async () => {
    const ndjson = join(dir, 'h.ndjson');
    const lines = HEADLINES.map((h) => JSON.stringify({ title: h.sentence, cls: h.label, kw: h.keywords }));
    lines.splice(3, 0, 'not json', '{"title": "", "cls": "x"}', '[1,2]', '');
    await writeFile(ndjson, '\ufeff' + lines.join('\n'));
    const out = join(dir, 'web.warc.gz');
    const res = await run(['--headlines', ndjson, '--text-field', 'title', '--label-field', 'cls', '--keywords-field', 'kw',
      '--seed', '7', '--hosts', '2', '--page-size', '5', '--hidden-share', '0.15', '--out', out]);
    assert.equal(res.code, 0, res.err);
    const summary = JSON.parse(res.out);
    assert.equal(summary.headlines, 60);
    assert.equal(summary.malformed, 3);
    assert.match(res.err, /^gen-web: 60 headlines/);
    const warc = await readFile(out);
    const web = generatePortalWeb(HEADLINES, OPTS);
    assert.ok(warc.equals(await portalWarc(web, 7)), 'same bytes as the library call');
    assert.equal(await readFile(join(dir, 'web-labels.tsv'), 'utf8'), labelsTsv(web));
    assert.equal(await readFile(join(dir, 'web-seeds.txt'), 'utf8'), web.seeds.join('\n') + '\n');

    // warcinfo first, then one response per record
    const types: string[] = [];
    let info = '';
    for await (const rec of new WARCParser((async function* () { yield warc; })())) {
      types.push(rec.warcType ?? '');
      if (rec.warcType === 'warcinfo') info = await rec.contentText();
      else await rec.skipFully();
    }
    assert.equal(types[0], 'warcinfo');
    assert.ok(info.includes(`description: ${WARCINFO_DESCRIPTION}`));
    assert.equal(types.length, web.records.length + 1);
    assert.ok(types.slice(1).every((t) => t === 'response'));

    const server = await createReplayServer({ warcs: [out] });
    const agent = new ProxyAgent({ uri: server.url, proxyTunnel: false });
    try {
      const sentences = new Set(HEADLINES.map((h) => h.sentence));
      const labelOf = new Map(web.labels.map((l) => [l.url, l.label]));
      // one GB-encoded finance article and one UTF-8 one, when present
      const pick = web.records.filter((r) => labelOf.get(r.url) === 'news_finance');
      const gbArticle = pick.find((r) => /gb/i.test(headerCharset(r) ?? '') || (headerCharset(r) === null && /charset=["']?gb/i.test(r.body.toString('latin1'))));
      assert.ok(gbArticle, 'a GB-encoded finance article');
      for (const r of [gbArticle, pick.find((x) => headerCharset(x) === 'utf-8')].filter((x) => x !== undefined)) {
        const resp = await request(r.url, { dispatcher: agent });
        assert.equal(resp.statusCode, 200);
        const body = Buffer.from(await resp.body.arrayBuffer());
        const ct = String(resp.headers['content-type'] ?? '');
        const page = parseBody(body, r.url, /charset=([^;\s]+)/i.exec(ct)?.[1] ?? null);
        assert.ok(sentences.has(page.title), page.title);
        assert.equal(page.title, parseBody(r.body, r.url, headerCharset(r)).title);
      }
      const gone = web.records.find((r) => r.status === 404) as WebRecord;
      const resp = await request(gone.url, { dispatcher: agent });
      assert.equal(resp.statusCode, 404);
      await resp.body.dump();
      const robots = await request(web.seeds[0] + 'robots.txt', { dispatcher: agent });
      assert.match(await robots.body.text(), /synthetic/);
    } finally {
      await agent.close();
      await server.close();
    }
  });

  test('usage errors exit 2 with one line; --help exits 0', async () => {
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: focuscrawl gen-web/);
    for (const argv of [
      ['--out', join(dir, 'x.warc.gz')],
      ['--headlines', join(dir, 'missing.ndjson'), '--out', join(dir, 'x.warc.gz')],
      ['--headlines', join(dir, 'h.ndjson')],
      ['--bogus'],
      ['--headlines', join(dir, 'h.ndjson'), '--out', join(dir, 'x.warc.gz'), '--seed', '-1'],
      ['--headlines', join(dir, 'h.ndjson'), '--out', join(dir, 'x.warc.gz'), '--hidden-share', '0.9'],
    ]) {
      const r = await run(argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.out, '');
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
      assert.match(r.err, /^focuscrawl gen-web: /);
    }
    const empty = join(dir, 'empty.ndjson');
    await writeFile(empty, 'nope\n{"a":1}\n');
    const r = await run(['--headlines', empty, '--out', join(dir, 'x.warc.gz')]);
    assert.equal(r.code, 2);
    assert.match(r.err, /no usable headlines .*2 malformed/);
    assert.ok(!existsSync(join(dir, 'x.warc.gz')));
  });

  test('readHeadlines: --limit, CRLF, numeric labels, over-long lines', async () => {
    const f = join(dir, 'r.ndjson');
    await writeFile(f, `{"s":"甲","l":1}\r\n{"s":"${'长'.repeat(70_000)}","l":"a"}\n{"s":"乙","l":"b","k":"x,y"}\n{"s":"丙","l":"c"}`);
    const all = await readHeadlines(f, { text: 's', label: 'l', keywords: 'k' });
    assert.deepEqual(all.headlines, [{ sentence: '甲', label: '1' }, { sentence: '乙', label: 'b', keywords: 'x,y' }, { sentence: '丙', label: 'c' }]);
    assert.equal(all.malformed, 1);
    const two = await readHeadlines(f, { text: 's', label: 'l', keywords: 'k' }, 2);
    assert.equal(two.headlines.length, 2);
  });
});

describe('generated from the real TNEWS dev set', () => {
  const present = existsSync(TNEWS);
  test('counts and breadth-first harvest of news_finance', { skip: present ? false : `no ${TNEWS} (../shared/corpora absent)` }, async (t) => {
    const fields = { text: 'sentence', label: 'label_desc', keywords: 'keywords' };
    const { headlines, malformed } = await readHeadlines(TNEWS, fields);
    assert.equal(malformed, 0);
    const started = performance.now();
    const web = generatePortalWeb(headlines, { seed: 1 });
    const ms = Math.round(performance.now() - started);
    const s = web.stats;
    const gone = web.records.filter((r) => r.status === 404).length;
    assert.equal(s.articles + gone, headlines.length);
    const financeIn = headlines.filter((h) => h.label === 'news_finance').length;
    const finance = new Set(web.labels.filter((l) => l.label === 'news_finance').map((l) => l.url));
    assert.equal(s.articlesByLabel.news_finance, finance.size);
    assert.ok(finance.size <= financeIn && finance.size >= financeIn * 0.97);
    assert.equal(s.portals, 3);
    assert.ok(s.hosts > 40 && s.hubs > 100 && s.tunnels > 15 && s.encodingFallbacks < s.pages * 0.01, JSON.stringify(s));
    const order = bfs(web);
    const found = (n: number): number => order.slice(0, n).filter((u) => finance.has(u)).length;
    const reachable = order.filter((u) => finance.has(u)).length;
    let last = 0;
    order.forEach((u, i) => { if (finance.has(u)) last = i + 1; });
    assert.equal(reachable, finance.size);
    t.diagnostic(`tnews-dev: ${headlines.length} headlines -> ${s.pages} pages on ${s.hosts} hosts, ${s.articles} articles ` +
      `(${finance.size} news_finance, ${s.hiddenArticles} behind ${s.tunnels} tunnels), ${s.hubs} hubs, ${s.forum} forum threads, ` +
      `${s.deadLinks} dead links, encodings ${JSON.stringify(s.encodings)}, generated in ${ms} ms`);
    t.diagnostic(`BFS from the seeds: news_finance in the first 200/500/1000 pages: ${found(200)}/${found(500)}/${found(1000)}; ` +
      `all ${reachable} after ${last} of ${order.length}`);
  });
});
