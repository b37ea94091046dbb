/** A Writable that keeps what is written to it, for commands run in-process (stdout, stderr). */
import { Writable } from 'node:stream';

export function sink(): { stream: Writable; text: () => string } {
  let buf = '';
  const stream = new Writable({
    write(chunk, _enc, cb) {
      buf += chunk.toString();
      cb();
    },
  });
  return { stream, text: () => buf };
}
