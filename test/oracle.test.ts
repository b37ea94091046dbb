// The simulated crawls behind bench/webkb-oracle.ts (RESULTS.md's oracle table).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distanceTo, fifo, graphOracle, linkOracle, pagesToShare, simulateCrawl, simulateScored } from '../bench/lib/oracle.ts';

// 0 is the seed; 4 and 6 are targets; 7 is not reachable; 3 leads only to 4
const OUT = [[1, 2], [3, 4], [5], [4], [], [6], [], [0]];
const TARGETS = new Set([4, 6]);
const isTarget = (v: number): boolean => TARGETS.has(v);

test('simulateCrawl: breadth-first fetches the reachable pages first in, first out', () => {
  assert.deepEqual(simulateCrawl(OUT, [0], fifo), [0, 1, 2, 3, 4, 5, 6]);
});

test('linkOracle: a discovered target page comes first, the rest in discovery order', () => {
  assert.deepEqual(simulateCrawl(OUT, [0], linkOracle(isTarget)), [0, 1, 4, 2, 3, 5, 6]);
});

test('graphOracle: the page nearest a target not yet fetched, distances renewed as targets are fetched', () => {
  // after 4 is fetched, 3 leads to no remaining target and waits until the end
  // (with the distances of the start, 3 would come right after 4)
  assert.deepEqual(simulateCrawl(OUT, [0], graphOracle(OUT, TARGETS)), [0, 1, 4, 2, 5, 6, 3]);
});

test('distanceTo: links to the nearest goal over the reversed graph; Infinity when none', () => {
  const into: number[][] = OUT.map(() => []);
  OUT.forEach((links, from) => links.forEach((t) => into[t]!.push(from)));
  assert.deepEqual([...distanceTo(into, TARGETS)], [2, 1, 2, 1, 0, 1, 0, 3]);
  assert.deepEqual([...distanceTo(into, [])], OUT.map(() => Infinity));
});

test('pagesToShare: pages fetched until a share of the targets is found, null when never', () => {
  const bfs = simulateCrawl(OUT, [0], fifo);
  const oracle = simulateCrawl(OUT, [0], graphOracle(OUT, TARGETS));
  assert.equal(pagesToShare(bfs, isTarget, 2, 0.5), 5);
  assert.equal(pagesToShare(oracle, isTarget, 2, 0.5), 3);
  assert.equal(pagesToShare(bfs, isTarget, 2, 1), 7);
  assert.equal(pagesToShare(oracle, isTarget, 2, 1), 6);
  assert.equal(pagesToShare(bfs, isTarget, 3, 1), null);
});

test('simulateScored: highest score first, raised when found again, first discovered among equals', () => {
  // 0 -> 1 (0.2), 2 (0.5); 2 -> 1 (0.9), 3 (0.5); 1 -> 4 (0.5)
  const out = [[1, 2], [4], [1, 3], [], []];
  const scores: Record<string, number> = { '0:0': 0.2, '0:1': 0.5, '2:0': 0.9, '2:1': 0.5, '1:0': 0.5 };
  const order = simulateScored(out, [0], (from, i) => scores[`${from}:${i}`]!);
  // 1 is raised to 0.9 by page 2; then 3 (0.5, found before 4) before 4 (0.5)
  assert.deepEqual(order, [0, 2, 1, 3, 4]);
  // a pruned link (null) does not queue its target: 3 is only reachable through one
  assert.deepEqual(simulateScored(out, [0], (from, i) => (from === 2 && i === 1 ? null : scores[`${from}:${i}`]!)), [0, 2, 1, 4]);
  // with equal scores it is breadth-first
  assert.deepEqual(simulateScored(OUT, [0], () => 1), simulateCrawl(OUT, [0], fifo));
});
