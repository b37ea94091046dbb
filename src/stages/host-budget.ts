/**
 * Host-budget stage, between the frontier source and robots: a URL whose
 * host has used its page budget (src/frontier/host-budget.ts) becomes an
 * FC_HOST_BUDGET error record without any request, not even for
 * robots.txt. Items already carrying an error pass through untouched.
 */
import { HostBudgetError, toItemError } from '../errors.ts';
import type { HostBudget } from '../frontier/host-budget.ts';
import type { CrawlItem } from '../types.ts';
import { hostOfCanonical } from '../urls/canonical.ts';

/** Sets FC_HOST_BUDGET on items the budget does not admit; yields every item in order. */
export async function* hostBudgetStage(source: AsyncIterable<CrawlItem>, opts: { budget: HostBudget }): AsyncGenerator<CrawlItem> {
  for await (const item of source) {
    if (item.error === undefined && !opts.budget.admit(item.entry.url)) {
      item.error = toItemError(new HostBudgetError(hostOfCanonical(item.entry.url), opts.budget.max));
    }
    yield item;
  }
}
