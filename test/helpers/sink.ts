/** A Writable that keeps what is written to it (`text()`), for commands run in-process (stdout, stderr). */
import { Writable } from 'node:stream';

export function sink(): Writable & { text: () => string } {
  let buf = '';
  const w = new Writable({
    write(chunk, _enc, cb) {
      buf += String(chunk);
      cb();
    },
  });
  return Object.assign(w, { text: () => buf });
}
