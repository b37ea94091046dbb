// Preload (`node --import bench/lib/heap-sample.mjs ...`, with
// FOCUSCRAWL_HEAP_PROFILE=FILE): a sampling heap profile of the whole
// process run, written to FILE at exit (Chrome DevTools' .heapprofile
// format). It keeps the samples of objects that scavenges and mark-compacts
// collected (Node 20's V8 honours both flags), so each sample's selfSize,
// summed, is what was allocated, short-lived garbage included: bytes
// allocated per HTML page by call site (docs/results/cpu-per-page.md).
// FOCUSCRAWL_HEAP_INTERVAL: mean bytes between samples (default 16384).
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const file = process.env.FOCUSCRAWL_HEAP_PROFILE;
if (file === undefined || file === '') throw new Error('heap-sample.mjs: set FOCUSCRAWL_HEAP_PROFILE to the file to write');
const session = new Session();
session.connect();
session.post('HeapProfiler.enable');
session.post('HeapProfiler.startSampling', {
  samplingInterval: Number(process.env.FOCUSCRAWL_HEAP_INTERVAL ?? 16384),
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
process.on('exit', () => {
  // (a session on the process's own thread answers synchronously)
  session.post('HeapProfiler.getSamplingProfile', (err, r) => {
    if (err) process.stderr.write(`heap-sample: ${err.message}\n`);
    else writeFileSync(file, JSON.stringify(r.profile));
  });
});
