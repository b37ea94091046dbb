/**
 * The body of one parse worker thread (src/parse/pool.ts starts it): each
 * page is parsed with parseBody (src/parse/body.ts, unchanged, with the
 * pool's options from workerData); its answer is its ParsedPage or the ItemError toItemError makes of what it
 * threw, exactly what the in-thread parse stage would have set; and, when
 * asked, the page's near-duplicate SimHash (pageFingerprint, src/stages/dedup.ts)
 * and the relevance judge's term counts of the page (pageTermCounts,
 * src/relevance/topic.ts).
 *
 * Pages come in batches (an array of ParseRequest); each answer goes back in
 * a message of its own as soon as its page is parsed, in the batch's order.
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
import { pageTermCounts } from '../relevance/topic.ts';
import { parseBody } from './body.ts';
import type { ParseRequest, ParseAnswer, WorkerSetup } from './pool.ts';

const setup = (workerData ?? {}) as Partial<WorkerSetup>;
const faults = setup.faults === true;
const opts = setup.parse ?? {};
const fingerprint = setup.fingerprint;
const termCounts = setup.termCounts;

function parseOne(req: ParseRequest): ParseAnswer {
  try {
    if (faults && req.url.includes('crash')) process.exit(70);
    if (faults && req.url.includes('throw')) throw new Error(`parse fault injected for ${req.url}`);
    const body = Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
    const page = parseBody(body, req.url, req.headerCharset, opts);
    const answer: ParseAnswer = { id: req.id, page };
    if (req.fingerprint && fingerprint !== undefined) {
      // what the dedup stage would compute (src/stages/dedup.ts), here off the main thread
      const fp = pageFingerprint(page, fingerprint.minTokens, getSegmenter(fingerprint.segmenter));
      answer.simhash = fp === null ? null : fingerprintToHex(fp);
    }
    // the relevance judge's term counts (TopicModel.pageTermFreq), from the split the SimHash just made
    if (termCounts !== undefined) answer.terms = pageTermCounts(page, termCounts);
    return answer;
  } catch (err) {
    return { id: req.id, error: toItemError(err) };
  }
}

// pages come in batches (a message that wakes this thread costs the main thread ~0.2–0.7 ms of CPU,
// src/parse/pool.ts); each answer leaves as soon as its page is parsed, so the crawl never waits for a whole batch
parentPort!.on('message', (batch: ParseRequest[]) => {
  for (const req of batch) parentPort!.postMessage(parseOne(req));
});
