// Preload (`node --import bench/lib/gc-count.mjs ...`): counts the process's
// garbage collections by kind with a PerformanceObserver and prints one line
// `gc-count: {"minor":N,"major":N,"other":N,"ms":N,"minorMs":N,"majorMs":N,"otherMs":N}`
// to stderr at exit: counts by kind, all pauses' ms, and the pause ms by kind
// (minor: scavenges; major: mark-compacts' final pauses; other: incremental
// marking steps and weak callbacks). Counts are robust to machine load where
// CPU seconds and pause ms are not. bench/politeness-cpu.ts --gc reads the line.
import { PerformanceObserver, constants } from 'node:perf_hooks';

const counts = { minor: 0, major: 0, other: 0, ms: 0, minorMs: 0, majorMs: 0, otherMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = e.detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      counts.minor++;
      counts.minorMs += e.duration;
    } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      counts.major++;
      counts.majorMs += e.duration;
    } else {
      counts.other++;
      counts.otherMs += e.duration;
    }
    counts.ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });
process.on('exit', () => {
  for (const k of ['ms', 'minorMs', 'majorMs', 'otherMs']) counts[k] = Math.round(counts[k]);
  process.stderr.write(`gc-count: ${JSON.stringify(counts)}\n`);
});
