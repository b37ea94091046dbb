// Preload (`node --import bench/lib/heap-sample.mjs ...`, with
// FOCUSCRAWL_HEAP_PROFILE=FILE): a sampling heap profile of the whole
// process run, written to FILE at exit (Chrome DevTools' .heapprofile
// format). It keeps the samples of objects that scavenges and mark-compacts
// collected (Node 20's V8 honours both flags), so each sample's selfSize,
// summed, is what was allocated, short-lived garbage included: bytes
// allocated per HTML page by call site (docs/results/cpu-per-page.md).
// FOCUSCRAWL_HEAP_INTERVAL: mean bytes between samples (default 16384).
// FOCUSCRAWL_HEAP_SURVIVORS=1: drop the samples that scavenges collected,
// keeping those that mark-compacts did: what is left survived the young
// generation, i.e. was promoted to the old generation (plus the little
// still in the 1 MB new space at exit): bytes promoted per HTML page by
// call site (docs/results/cpu-per-page.md, the seventh pass).
// FOCUSCRAWL_HEAP_SURVIVORS=live: drop both, keeping what is live at exit
// (with --expose-gc, after a full collection): what was meant to live (the
// frontier, the seen filter, caches). Promoted minus live is what was
// promoted and then died old, the young generation's waste.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const file = process.env.FOCUSCRAWL_HEAP_PROFILE;
if (file === undefined || file === '') throw new Error('heap-sample.mjs: set FOCUSCRAWL_HEAP_PROFILE to the file to write');
const keep = process.env.FOCUSCRAWL_HEAP_SURVIVORS;
if (keep !== undefined && keep !== '' && keep !== '1' && keep !== 'live') throw new Error(`heap-sample.mjs: FOCUSCRAWL_HEAP_SURVIVORS must be 1 or live, got ${keep}`);
const session = new Session();
session.connect();
session.post('HeapProfiler.enable');
session.post('HeapProfiler.startSampling', {
  samplingInterval: Number(process.env.FOCUSCRAWL_HEAP_INTERVAL ?? 16384),
  includeObjectsCollectedByMajorGC: keep !== 'live',
  includeObjectsCollectedByMinorGC: keep === undefined || keep === '',
});
process.on('exit', () => {
  if (keep === 'live') globalThis.gc?.();
  // (a session on the process's own thread answers synchronously)
  session.post('HeapProfiler.getSamplingProfile', (err, r) => {
    if (err) process.stderr.write(`heap-sample: ${err.message}\n`);
    else writeFileSync(file, JSON.stringify(r.profile));
  });
});
