// Training on the real WebKB archive (moved out of test/train.test.ts for
// issue 25: reading the 12 MB archive takes ~30 s on a loaded machine; the
// fast suite trains on small generated archives in test/train.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadModel } from '../../src/relevance/model.ts';
import { runTrain } from '../../src/commands/train.ts';
import { SHARED, tempDir, WEBKB_WARC } from '../helpers/cli.ts';
import { sink } from '../helpers/sink.ts';

const WEBKB_LABELS = path.join(SHARED, 'webkb', 'labels.tsv');


const skip = existsSync(WEBKB_WARC) && existsSync(WEBKB_LABELS) ? false : `needs ${WEBKB_WARC} and labels.tsv (../shared/corpora is not beside this clone)`;

test('WebKB (real data): trains course on the misc universities only', { skip, timeout: 60_000 }, async (t) => {
  const { dir, cleanup } = await tempDir('fc-train-webkb-');
  t.after(cleanup);
  const out = path.join(dir, 'webkb-course.json');
  const stdout = sink();
  const stderr = sink();
  const code = await runTrain(['--warc', WEBKB_WARC, '--labels', WEBKB_LABELS, '--target', 'course', '--where', 'university=misc', '--out', out], { stdout, stderr });
  assert.equal(code, 0, stderr.text());
  const model = await loadModel(out);
  const c = model.json.training.counts;
  assert.ok(c.pagePositives > 0 && c.linkPositives > 0, JSON.stringify(c));
  assert.ok(c.labelRowsFilteredOut > 0, 'cornell/texas/washington rows are filtered out');
  assert.ok(model.json.training.inSample.page.auc! > 0.8, JSON.stringify(model.json.training.inSample));
});
