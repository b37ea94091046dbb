/**
 * The synthetic web the throughput benches crawl (fixtures/serve-synthetic.ts
 * with its defaults: 1,000,000 pages on 10,000 hosts) and the topic they
 * crawl in it.
 */
export const SYNTH_SPEC = { seed: 1, pages: 1_000_000, hosts: 10_000 } as const;
export const SYNTH_TOPIC = 'astronomy';

/** fixtures/serve-synthetic.ts's argument for a web: `seed:pages:hosts`. */
export function synthSpecArg(spec: { seed: number; pages: number; hosts: number } = SYNTH_SPEC): string {
  return `${spec.seed}:${spec.pages}:${spec.hosts}`;
}
