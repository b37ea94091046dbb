/**
 * What the page-judge benches share (bench/page-judge.ts,
 * bench/page-judge-curve.ts): the labelled pages of a generated portal web,
 * parsed as the crawler parses them, and precision / recall at a cut taken
 * the way the crawler takes `relevant` (score ≥ threshold).
 */
import { generatePortalWeb, type Headline } from '../../src/tools/genweb/portal.ts';
import { parseBody } from '../../src/parse/body.ts';
import { normaliseCharset } from '../../src/parse/charset.ts';
import type { ParsedPage } from '../../src/types.ts';

/** A page of a generated web answered 200 that the web labels, parsed with its declared charset. */
export interface LabelledPage {
  page: ParsedPage;
  label: string;
}

/** The labelled pages answered 200 of `generatePortalWeb(headlines, { seed })` (the web `focuscrawl gen-web --seed` builds), in record order. */
export function labelledPages(headlines: Headline[], seed: number): LabelledPage[] {
  const web = generatePortalWeb(headlines, { seed });
  const labelOf = new Map(web.labels.map((l) => [l.url, l.label]));
  const pages: LabelledPage[] = [];
  for (const rec of web.records) {
    const label = labelOf.get(rec.url);
    if (label === undefined || rec.status !== 200) continue;
    const ct = rec.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    pages.push({ page: parseBody(rec.body, rec.url, normaliseCharset(/charset=([^;\s]+)/i.exec(ct)?.[1])), label });
  }
  return pages;
}

/** Precision and recall when a score ≥ `t` is called positive (0 where nothing is predicted or nothing is positive). */
export function precisionRecallAt(scores: readonly number[], labels: readonly (0 | 1)[], t: number): { p: number; r: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  scores.forEach((s, i) => {
    if (s >= t) {
      if (labels[i]) tp++;
      else fp++;
    } else if (labels[i]) fn++;
  });
  return { p: tp + fp === 0 ? 0 : tp / (tp + fp), r: tp + fn === 0 ? 0 : tp / (tp + fn) };
}
