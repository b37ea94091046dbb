/** Test helpers: checks on output records, and the fixture web's labels. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { canonicalize } from '../../src/urls/canonical.ts';
import { CrawlStore } from '../../src/store/level.ts';
import { ROOT } from './cli.ts';

const PAGE_FIELDS: Record<string, string[]> = {
  string: ['url', 'finalUrl', 'fetchedAt', 'host', 'strategy'],
  number: ['status', 'depth', 'bytes', 'score', 'relevance', 'links', 'ms'],
  boolean: ['truncated', 'relevant'],
};

export function checkPageRecord(r: Record<string, unknown>): void {
  for (const [type, names] of Object.entries(PAGE_FIELDS)) {
    for (const n of names) assert.equal(typeof r[n], type, `${n} of ${JSON.stringify(r)}`);
  }
  for (const n of ['parent', 'contentType', 'charset', 'title']) {
    assert.ok(r[n] === null || typeof r[n] === 'string', `${n} of ${JSON.stringify(r)}`);
  }
  assert.ok(!Number.isNaN(Date.parse(r.fetchedAt as string)));
  assert.equal(canonicalize(r.url as string), r.url, 'record URLs are canonical');
}

export function fixtureLabels(): Map<string, string> {
  const rows = readFileSync(path.join(ROOT, 'fixtures', 'web-labels.tsv'), 'utf8').trim().split('\n').slice(1);
  return new Map(rows.map((l) => l.split('\t') as [string, string]));
}

/**
 * The LevelDB store in `dir`, of a crawl that has stopped, opens and agrees
 * with itself: at least `atLeast` commits, each a page or an error, as many
 * log records as commits, as many frontier entries as its count says.
 */
export async function checkStoreCounts(dir: string, atLeast: number): Promise<void> {
  const s = await CrawlStore.open(dir);
  try {
    assert.ok(s.committed >= atLeast, `${s.committed} committed, expected at least ${atLeast}`);
    assert.equal(s.committed, s.pages + s.errors);
    let logged = 0;
    for await (const _ of s.log()) logged++;
    assert.equal(logged, s.committed);
    let queued = 0;
    for await (const _ of s.frontier()) queued++;
    assert.equal(queued, s.frontierSize);
  } finally {
    await s.close();
  }
}
