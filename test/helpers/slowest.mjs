// node:test reporter: at the end of a run, the ten slowest tests, so the next
// person sees where the suite's time goes (issue 25: a slow test is a bug
// report). Used beside the spec reporter, which keeps printing every result
// and the closing "ℹ tests N / pass N / fail N" lines that CI reads:
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./test/helpers/slowest.mjs --test-reporter-destination=stderr
// Counts tests, not suites; a test with subtests is listed only through its
// subtests (its own duration is theirs summed). Plain JavaScript: the runner
// loads reporters itself, before tsx is registered in the test processes.
import path from 'node:path';

const TOP = Number(process.env.FC_SLOWEST ?? 10);

export default async function* slowest(source) {
  const tests = [];
  // per file, the nesting of the last test that finished: a test that
  // finishes right after one nested deeper is the parent of it
  const lastNesting = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, nesting, file, details } = event.data;
    const key = file ?? '';
    const parent = (lastNesting.get(key) ?? -1) > nesting;
    lastNesting.set(key, nesting);
    if (details?.type === 'suite' || parent || typeof details?.duration_ms !== 'number') continue;
    // the runner reports a whole file as a test named after its path when the
    // file fails as a whole (a timeout, a crash)
    const label = file !== undefined && name === file ? '(the whole file)' : name;
    tests.push({ name: label, file: file ? path.relative(process.cwd(), file) : '?', ms: details.duration_ms, failed: event.type === 'test:fail' });
  }
  if (tests.length === 0) return;
  tests.sort((a, b) => b.ms - a.ms);
  const shown = tests.slice(0, TOP);
  const total = tests.reduce((s, t) => s + t.ms, 0);
  let out = `\n# the ${shown.length} slowest tests (of ${tests.length} without subtests, ${(total / 1000).toFixed(1)} s summed):\n`;
  for (const t of shown) {
    out += `# ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.file}  ${t.name}${t.failed ? '  (failed)' : ''}\n`;
  }
  yield out;
}
