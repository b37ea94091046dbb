/** Test helpers: checks on output records, and the fixture web's labels. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { canonicalize } from '../../src/urls/canonical.ts';
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
