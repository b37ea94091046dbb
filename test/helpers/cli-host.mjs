// The child side of runMain (test/helpers/cli.ts): one process per test file
// that loads the CLI once and runs main() for each request it is sent over
// IPC, one at a time, with process.stdout and process.stderr swapped for
// collectors while main() runs. Started with --import tsx and the loopback
// DNS preload, like the children spawnCli starts.
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const { main } = await import(process.env.FC_CLI);
const real = { stdout: Object.getOwnPropertyDescriptor(process, 'stdout'), stderr: Object.getOwnPropertyDescriptor(process, 'stderr') };

/** A Writable that appends what it is given to `sink` (callbacks, 'drain' and 'error' as a real stream's). */
function collector(sink) {
  const decoder = new StringDecoder('utf8');
  return new Writable({
    decodeStrings: false,
    write(chunk, _encoding, cb) {
      sink(typeof chunk === 'string' ? chunk : decoder.write(chunk));
      cb();
    },
  });
}

async function runOne({ id, args, cwd }) {
  const r = { code: null, signal: null, stdout: '', stderr: '' };
  const out = collector((s) => (r.stdout += s));
  const err = collector((s) => (r.stderr += s));
  Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => out });
  Object.defineProperty(process, 'stderr', { configurable: true, enumerable: true, get: () => err });
  try {
    process.chdir(cwd);
    r.code = await main(args);
  } catch (e) {
    r.stderr += `cli-host: main() threw: ${e?.stack ?? e}\n`;
  } finally {
    Object.defineProperty(process, 'stdout', real.stdout);
    Object.defineProperty(process, 'stderr', real.stderr);
  }
  process.send({ id, result: r });
}

let queue = Promise.resolve();
process.on('message', (msg) => {
  queue = queue.then(() => runOne(msg));
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
