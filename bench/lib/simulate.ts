/**
 * What the simulated-crawl benches share (bench/webkb-oracle.ts,
 * bench/webkb-holdout.ts): how they read `--train-flags`, how they run a
 * strategy's own scorer over an archive's link graph, and their medians.
 */
import { parseArgs } from 'node:util';
import { isFeatureGroup, type FeatureGroup } from '../../src/relevance/learn/features.ts';
import type { Model } from '../../src/relevance/model.ts';
import { simulateLearning, simulateScored, type LinkGraph } from '../../src/tools/eval/oracle.ts';
import { scorerSimulation } from '../../src/tools/eval/sim-scorer.ts';
import { createScorer } from '../../src/relevance/scorers/index.ts';
import { defaultSiteLane } from '../../src/relevance/scorers/site-lane.ts';

/** The training options `--train-flags` may carry (those of `focuscrawl train` that change a model). */
export interface TrainFlags {
  group: FeatureGroup;
  balancedLinks: boolean;
  hubLinks: boolean;
}

/**
 * Reads `--train-flags` ("--feature-group 2 --no-balanced-links") with the
 * defaults `focuscrawl train --warc` has (group 4, class-balanced, hub
 * links); throws on a flag it does not know.
 */
export function parseTrainFlags(text: string): TrainFlags {
  const flags = parseArgs({
    args: text.split(/\s+/).filter(Boolean),
    allowNegative: true,
    options: {
      'feature-group': { type: 'string', default: '4' },
      'balanced-links': { type: 'boolean', default: true },
      'hub-links': { type: 'boolean', default: true },
    },
  }).values;
  const group = Number(flags['feature-group']);
  if (!isFeatureGroup(group)) throw new Error(`--train-flags: --feature-group must be 1 to 4, got ${flags['feature-group']}`);
  return { group, balancedLinks: flags['balanced-links'] !== false, hubLinks: flags['hub-links'] !== false };
}

/**
 * The simulated crawl of `strategy` on `graph` (read with keepPages and
 * missing) from `seeds`: its own scorer scores the links and, for a strategy
 * that learns as it crawls (online, hits, ipagerank), is told each page's
 * commit and asked for re-scores (src/tools/eval/sim-scorer.ts). `model` goes to
 * the scorer as `crawl --model` passes it; `explore` as `crawl --explore`
 * (default 0: the strategy alone); the parameter `siteLane` (not passed
 * on to the strategy) as `crawl --site-lane`, by default what a crawl with
 * a model gets (defaultSiteLane: 0.5 for nb-link and online). Returns the
 * fetch order.
 */
export async function simulateStrategy(
  graph: LinkGraph,
  seeds: readonly number[],
  strategy: string,
  model: Model,
  params: Record<string, number | string>,
  inFlight: number,
  explore = 0,
): Promise<number[]> {
  const { siteLane, ...rest } = params;
  const scorer = createScorer(strategy, null, { model, params: rest, explore, siteLane: siteLane === undefined ? defaultSiteLane(strategy, true) : Number(siteLane) });
  const { score, learn } = scorerSimulation(graph, scorer, seeds);
  return learn === null ? simulateScored(graph.out, seeds, score, { inFlight }) : simulateLearning(graph.out, seeds, score, learn, { inFlight });
}

/**
 * `graph` with only the edges into nodes `keep` accepts: a crawl that queues
 * no link outside its scope (`crawl --allow-domain`, src/urls/scope.ts). The
 * links behind each edge stay paired with it.
 */
export function scopeGraph(graph: LinkGraph, keep: (v: number) => boolean): LinkGraph {
  const out: number[][] = [];
  const edgeLinks: LinkGraph['edgeLinks'] = graph.edgeLinks === undefined ? undefined : [];
  graph.out.forEach((targets, v) => {
    const idx = targets.map((_, i) => i).filter((i) => keep(targets[i]!));
    out[v] = idx.map((i) => targets[i]!);
    if (edgeLinks !== undefined) edgeLinks[v] = idx.map((i) => graph.edgeLinks![v]![i]!);
  });
  return { ...graph, out, ...(edgeLinks === undefined ? {} : { edgeLinks }) };
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The median, rounded up to whole pages; null when any run never reached the share. */
export function medianOrNull(values: readonly (number | null)[]): number | null {
  return values.some((v) => v === null) ? null : Math.ceil(median(values as number[]));
}
