/**
 * The body of one parse worker thread (src/parse/pool.ts starts it): each
 * message is one page to parse with parseBody (src/parse/body.ts, unchanged);
 * the answer is its ParsedPage or the ItemError toItemError makes of what it
 * threw, exactly what the in-thread parse stage would have set; and, when
 * asked, the page's near-duplicate SimHash (pageFingerprint, src/stages/dedup.ts).
 *
 * Test hooks (workerData.faults, never set by the CLI): a page whose URL
 * contains `throw` makes the parse throw; one containing `crash` ends the
 * thread with process.exit, as an out-of-memory abort would.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toItemError } from '../errors.ts';
import { pageFingerprint } from '../stages/dedup.ts';
import { fingerprintToHex } from '../relevance/simhash.ts';
import { getSegmenter } from '../relevance/text/segmenter.ts';
import { parseBody } from './body.ts';
import type { ParseRequest, ParseAnswer } from './pool.ts';

const faults = (workerData as { faults?: boolean } | null)?.faults === true;

parentPort!.on('message', (req: ParseRequest) => {
  let answer: ParseAnswer;
  try {
    if (faults && req.url.includes('crash')) process.exit(70);
    if (faults && req.url.includes('throw')) throw new Error(`parse fault injected for ${req.url}`);
    const body = Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
    const page = parseBody(body, req.url, req.headerCharset, req.opts);
    answer = { id: req.id, page };
    if (req.fingerprint !== undefined) {
      // what the dedup stage would compute (src/stages/dedup.ts), here off the main thread
      const fp = pageFingerprint(page, req.fingerprint.minTokens, getSegmenter(req.fingerprint.segmenter));
      answer.simhash = fp === null ? null : fingerprintToHex(fp);
    }
  } catch (err) {
    answer = { id: req.id, error: toItemError(err) };
  }
  parentPort!.postMessage(answer);
});
