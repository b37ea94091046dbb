/**
 * Issue 24's "link-classifier AUC above Naive Bayes's for course, student
 * and faculty" read two ways over leave-one-university-out cells
 * (bench/webkb-holdout.ts --section classifier): per target, the mean of
 * the held-out universities' AUCs, and the AUC of their links pooled (each
 * link scored by the model that did not see its university, so the pooled
 * ranking also mixes the models' score levels).
 */
import { binaryMetrics } from '../../src/relevance/learn/metrics.ts';

/** One cell's held-out link examples: labels as a string of '0'/'1', and each model's score per link. */
export interface HeldOutLinks {
  u: string;
  target: string;
  links: { labels: string; scores: Partial<Record<string, number[]>> };
}

export interface LinkAucReadings {
  /** per cell: its links, positives and each model's AUC (in the order of `models`) */
  cells: { u: string; target: string; links: number; positives: number; auc: number[] }[];
  /** per target (in order of first appearance): the mean of its cells' AUCs and the AUC of their links pooled */
  targets: { target: string; universities: string[]; links: number; mean: number[]; pooled: number[] }[];
}

const labelsOf = (s: string): (0 | 1)[] => [...s].map((y) => (y === '1' ? 1 : 0));

function scoresOf(c: HeldOutLinks, model: string): number[] {
  const s = c.links.scores[model];
  if (s === undefined || s.length !== c.links.labels.length) throw new TypeError(`${c.u} ${c.target}: model ${model} scored ${s?.length ?? 'no'} of ${c.links.labels.length} links`);
  return s;
}

/** AUC per cell, and per target the mean over its cells and the pooled AUC, for each of `models`. */
export function linkAucReadings(cells: readonly HeldOutLinks[], models: readonly string[]): LinkAucReadings {
  const auc = (scores: readonly number[], labels: string): number => binaryMetrics(scores, labelsOf(labels)).auc;
  const perCell = cells.map((c) => ({
    u: c.u,
    target: c.target,
    links: c.links.labels.length,
    positives: [...c.links.labels].filter((y) => y === '1').length,
    auc: models.map((m) => auc(scoresOf(c, m), c.links.labels)),
  }));
  const targets = [...new Set(cells.map((c) => c.target))].map((target) => {
    const of = cells.filter((c) => c.target === target);
    const rows = perCell.filter((c) => c.target === target);
    return {
      target,
      universities: of.map((c) => c.u),
      links: rows.reduce((n, c) => n + c.links, 0),
      mean: models.map((_, k) => rows.reduce((s, c) => s + c.auc[k]!, 0) / rows.length),
      pooled: models.map((m) => auc(of.flatMap((c) => scoresOf(c, m)), of.map((c) => c.links.labels).join(''))),
    };
  });
  return { cells: perCell, targets };
}
