/**
 * `npm run demo`: serve the bundled fixture web (fixtures/web.warc.gz) with
 * the replay proxy, crawl it focused on the demo topic with the real CLI,
 * stream the NDJSON records to stdout, then score the run against the
 * fixture's ground-truth labels on stderr and stop the proxy.
 *
 * Extra arguments are passed to `focuscrawl crawl` (e.g. `-- --strategy bfs`).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ndjson from 'ndjson';
import { createReplayServer } from '../replay/server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string): string => path.join(root, 'fixtures', name);

async function readLabels(): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const text = await readFile(fixture('web-labels.tsv'), 'utf8');
  for (const line of text.split('\n').slice(1)) {
    const [url, label] = line.split('\t');
    if (url) labels.set(url, label);
  }
  return labels;
}

async function main(): Promise<number> {
  const labels = await readLabels();
  const onTopic = [...labels.values()].filter((l) => l === 'solar').length;
  const replay = await createReplayServer({ warcs: [fixture('web.warc.gz')] });
  const store = await mkdtemp(path.join(os.tmpdir(), 'focuscrawl-demo-'));
  process.stderr.write(`demo: replaying ${replay.records} archived URLs at ${replay.url}\n`);
  const args = [
    path.join(root, 'bin', 'focuscrawl'), 'crawl',
    '--seeds', fixture('demo-seeds.txt'),
    '--topic', fixture('demo-topic.json'),
    '--proxy', replay.url,
    '--store', store,
    '--max-pages', '120',
    '--concurrency', '8',
    ...process.argv.slice(2),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let pages = 0;
  let trulyRelevant = 0;
  let stdoutClosed = false;
  process.stdout.on('error', () => {
    stdoutClosed = true; // `npm run demo | head`: stop quietly
    child.kill('SIGTERM');
  });
  child.stdout!.pipe(process.stdout, { end: false });
  const records = child.stdout!.pipe(ndjson.parse());
  for await (const rec of records as AsyncIterable<{ type: string; url: string; finalUrl?: string }>) {
    if (rec.type !== 'page') continue;
    pages++;
    if (labels.get(rec.finalUrl ?? rec.url) === 'solar') trulyRelevant++;
  }
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  await replay.close();
  await rm(store, { recursive: true, force: true });
  const harvest = pages === 0 ? 0 : (100 * trulyRelevant) / pages;
  process.stderr.write(
    `demo: by the fixture's labels, ${trulyRelevant} of ${pages} fetched pages are on topic ` +
      `(harvest ${harvest.toFixed(1)}%), ${trulyRelevant} of ${onTopic} on-topic pages found ` +
      `(recall ${((100 * trulyRelevant) / onTopic).toFixed(1)}%)\n`,
  );
  return stdoutClosed ? 0 : code;
}

process.exitCode = await main();
