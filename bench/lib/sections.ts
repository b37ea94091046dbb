/**
 * Benchmarks write their results into marked sections of a markdown file
 * (BENCHMARKS.md, RESULTS.md): `<!-- NAME:start -->` ... `<!-- NAME:end -->`.
 * A missing section is appended; a missing file is created with `heading`.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';

export async function writeSection(file: string, name: string, section: string, heading = '# Results'): Promise<void> {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const doc = existsSync(file) ? await readFile(file, 'utf8') : `${heading}\n`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  const block = `${start}\n${section}\n${end}`;
  await writeFile(file, i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n${block}\n`);
}
