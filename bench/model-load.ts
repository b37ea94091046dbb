/**
 * The CPU of loading model files (issue 24): `loadModel` (read,
 * JSON.parse, validate, compile) of each file in this process, one
 * unmeasured load then 5 measured, user + sys CPU (process.cpuUsage),
 * median (min–max) in ms; also Model.fromJSON alone of the parsed file
 * (no read, no parse). Prints one line per file to stdout.
 *
 *   node --import tsx bench/model-load.ts MODEL.json...
 */
import { readFile, stat } from 'node:fs/promises';
import { loadModel, Model } from '../src/relevance/model.ts';

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: node --import tsx bench/model-load.ts MODEL.json...\n');
  process.exit(2);
}
const median = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[Math.floor(s.length / 2)].toFixed(0)} (${s[0].toFixed(0)}–${s[s.length - 1].toFixed(0)})`;
};
const cpuMs = async (f: () => unknown): Promise<number> => {
  const before = process.cpuUsage();
  await f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
for (const file of files) {
  const bytes = (await stat(file)).size;
  await loadModel(file);
  const load: number[] = [];
  for (let k = 0; k < 5; k++) load.push(await cpuMs(() => loadModel(file)));
  const parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
  Model.fromJSON(parsed, file);
  const fromJson: number[] = [];
  for (let k = 0; k < 5; k++) fromJson.push(await cpuMs(() => Model.fromJSON(parsed, file)));
  process.stdout.write(`${file}\t${(bytes / 2 ** 20).toFixed(1)} MiB\tloadModel CPU ms ${median(load)}\tModel.fromJSON CPU ms ${median(fromJson)}\n`);
}
