// Preload (`node --import bench/lib/gc-count.mjs ...`): counts the process's
// garbage collections by kind with a PerformanceObserver and prints one line
// `gc-count: {"minor":N,"major":N,"other":N,"ms":N}` to stderr at exit.
// Counts are robust to machine load where CPU seconds are not.
// bench/politeness-cpu.ts --gc reads the line.
import { PerformanceObserver, constants } from 'node:perf_hooks';

const counts = { minor: 0, major: 0, other: 0, ms: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = e.detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) counts.minor++;
    else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) counts.major++;
    else counts.other++;
    counts.ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });
process.on('exit', () => {
  counts.ms = Math.round(counts.ms);
  process.stderr.write(`gc-count: ${JSON.stringify(counts)}\n`);
});
