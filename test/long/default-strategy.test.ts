// Moved from test/crawl-e2e.test.ts to the long suite (issue 25: it trains a
// model and runs three crawls; the fast suite keeps the fixture-web crawl
// and train.test.ts): which strategy a crawl runs when none is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { parseLines, runCli, fixtureReplay } from '../helpers/cli.ts';

test('fixture web: with a --model and no --strategy the crawl runs nb-link-layers (command and library), nb-link for a --no-layers model; with a topic, best-first', async (t) => {
  const { url: replayUrl, dir } = await fixtureReplay(t);
  const model = path.join(dir, 'solar.json');
  const trained = await runCli(['train', '--warc', 'fixtures/web.warc.gz', '--labels', 'fixtures/web-labels.tsv', '--target', 'solar', '--out', model]);
  assert.equal(trained.code, 0, trained.stderr);
  const strategies = async (focus: string[], store: string): Promise<Set<unknown>> => {
    const r = await runCli(['crawl', '--seeds', 'fixtures/demo-seeds.txt', ...focus, '--proxy', replayUrl, '--store', path.join(dir, store), '--max-pages', '10', '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    return new Set(parseLines(r.stdout).filter((x) => x.type === 'page').map((x) => x.strategy));
  };
  // train --warc fits layers by default (session 27), and a model with layers crawls with nb-link-layers
  assert.deepEqual(await strategies(['--model', model], 'm'), new Set(['nb-link-layers']));
  const plain = path.join(dir, 'solar-plain.json');
  const trainedPlain = await runCli(['train', '--warc', 'fixtures/web.warc.gz', '--labels', 'fixtures/web-labels.tsv', '--target', 'solar', '--no-layers', '--out', plain]);
  assert.equal(trainedPlain.code, 0, trainedPlain.stderr);
  assert.deepEqual(await strategies(['--model', plain], 'p'), new Set(['nb-link']));
  assert.deepEqual(await strategies(['--topic', 'fixtures/demo-topic.json'], 't'), new Set(['best-first']));
  assert.deepEqual(await strategies(['--model', model, '--strategy', 'best-first'], 'mb'), new Set(['best-first']));
  const api = await import('../../src/index.ts');
  const run = api.crawl({ seeds: ['http://www.webdir.example/'], model: await api.loadModel(model), proxy: replayUrl, maxPages: 3 });
  const seen = new Set<unknown>();
  for await (const record of run) if (record.type === 'page') seen.add(record.strategy);
  assert.deepEqual(seen, new Set(['nb-link-layers']));
});
