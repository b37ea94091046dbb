// Preload (`node --import bench/lib/thread-cpu.mjs ...`): at exit, reads the
// CPU (utime + stime, 100 ticks a second) of each of the process's threads
// from Linux /proc/self/task/TID/stat and prints one line
// `thread-cpu: {"main":s,"v8":s,"aux":s,"libuv":s,"other":s,"threads":n}`
// to stderr. bench/politeness-cpu.ts --threads reads the line.
//
// Node 20 names no thread (all are `node`), so they are told apart by the
// order Node creates them, which sorted thread ids follow: the main thread;
// the platform's delayed-task thread, then its `--v8-pool-size` (default 4)
// V8 worker threads (concurrent and parallel GC, concurrent TurboFan); the
// inspector's signal thread; then libuv's pool of UV_THREADPOOL_SIZE
// (default 4; fs, DNS, LevelDB's operations through N-API); anything later
// ("other": LevelDB's own compaction thread). `aux` is the two idle ones.
// Checked on Node 20.20 by changing each pool's size and by GC-heavy loads.
// Threads that ended before the exit are not counted.
import { readdirSync, readFileSync } from 'node:fs';

const flag = process.execArgv.map((a) => /^--v8-pool-size=(\d+)$/.exec(a)).find(Boolean);
const v8Pool = flag ? Number(flag[1]) : 4;
const uvPool = Number(process.env.UV_THREADPOOL_SIZE ?? 4);

process.on('exit', () => {
  const tids = readdirSync('/proc/self/task').map(Number).sort((a, b) => a - b);
  const out = { main: 0, v8: 0, aux: 0, libuv: 0, other: 0, threads: tids.length, v8Pool, uvPool };
  for (const [i, tid] of tids.entries()) {
    let stat;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // fields after the `(comm)`: [0] is field 3 (state), so utime and stime (14, 15) are [11] and [12]
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const s = (Number(fields[11]) + Number(fields[12])) / 100;
    const kind = tid === process.pid ? 'main'
      : i === 1 || i === v8Pool + 2 ? 'aux'
      : i <= v8Pool + 1 ? 'v8'
      : i <= v8Pool + 2 + uvPool ? 'libuv'
      : 'other';
    out[kind] = Math.round((out[kind] + s) * 100) / 100;
  }
  process.stderr.write(`thread-cpu: ${JSON.stringify(out)}\n`);
});
