/**
 * Benchmarks write their results into marked sections of a markdown file
 * (BENCHMARKS.md, RESULTS.md): `<!-- NAME:start -->` ... `<!-- NAME:end -->`.
 * A missing section is appended; a missing file is created with `heading`.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export async function writeSection(file: string, name: string, section: string, heading = '# Results'): Promise<void> {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const doc = existsSync(file) ? await readFile(file, 'utf8') : `${heading}\n`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  const block = `${start}\n${section}\n${end}`;
  await writeFile(file, i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n${block}\n`);
}

const REPO = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** docs/results/NAME.md: where a table too long for RESULTS.md or BENCHMARKS.md lives (issue 26 item 5: each stays ≤ 20 KB). */
export function resultsDoc(name: string): string {
  return path.join(REPO, 'docs', 'results', `${name}.md`);
}

/**
 * Write a long table's `full` section to docs/results/NAME.md and its `summary`
 * (with a link to the full one) to the same section NAME of `file`
 * (RESULTS.md or BENCHMARKS.md, relative to the repository).
 */
export async function writeSplitSection(file: string, name: string, full: string, summary: string, heading: string): Promise<void> {
  await writeSection(resultsDoc(name), name, full, heading);
  await writeSection(path.join(REPO, file), name, `${summary}\n\nEvery cell: [docs/results/${name}.md](docs/results/${name}.md).`);
}
