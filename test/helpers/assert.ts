/** Assertions shared by tests. */
import assert from 'node:assert/strict';
import { FocuscrawlError } from '../../src/errors.ts';

/** `p` rejects with a FocuscrawlError whose code is `code`; resolves to that error. */
export async function rejectsWithCode(p: Promise<unknown>, code: string): Promise<FocuscrawlError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof FocuscrawlError, `expected a FocuscrawlError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected rejection with ${code}`);
}
