// scratch: the order a simulated crawl fetches one held-out university's pages
import { NOT_ARCHIVED, fifo, readLinkGraph, seedIds, simulateCrawl } from '../src/eval/oracle.ts';
import { fitModel } from '../src/model.ts';
import { compileScope } from '../src/scope.ts';
import { readLabels, readWarc } from '../src/train/from-warc.ts';
import { parseTrainFlags, scopeGraph, simulateStrategy } from '../bench/lib/simulate.ts';
import { WEBKB_LABELS, WEBKB_TRAIN_FLAGS, WEBKB_UNIVERSITIES, WEBKB_WARC } from '../bench/lib/webkb.ts';
const [u, target, strategy, nStr] = process.argv.slice(2);
const N = Number(nStr ?? 200);
const web = await readLinkGraph([WEBKB_WARC], { keepPages: true, missing: true });
const { seed, domain } = WEBKB_UNIVERSITIES[u]!;
const inDomain = compileScope({ domains: [domain] })!;
const graph = scopeGraph(web, (v) => inDomain(web.urls[v]!));
const seeds = seedIds(graph, [seed]);
const labels = (await readLabels(WEBKB_LABELS)).labels;
const flags = parseTrainFlags(WEBKB_TRAIN_FLAGS);
const data = await readWarc({ warcs: [WEBKB_WARC], labels: WEBKB_LABELS, target, where: [{ column: 'university', value: u, negate: true }], hubLinks: flags.hubLinks });
const model = fitModel(data, { target, group: flags.group, balancedLinks: flags.balancedLinks }).model;
const order = strategy === 'bfs' ? simulateCrawl(graph.out, seeds, fifo) : await simulateStrategy(graph, seeds, strategy, model, {}, 16);
let archived = 0; let found = 0;
for (const v of order) {
  if (web.status[v] === NOT_ARCHIVED) continue;
  archived++;
  const l = labels.get(web.urls[v]!) ?? '-';
  if (l === target) found++;
  if (archived <= N) console.log(String(archived).padStart(4), l === target ? '*' : ' ', l.padEnd(10), web.urls[v]);
}
