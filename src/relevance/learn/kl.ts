/**
 * Kullback-Leibler divergence of word distributions given as counts
 * (Han et al. 2010 §3.2.1, docs/algorithms.md#kl-divergence: are page words and link-context words one
 * distribution?). Natural logarithm: the result is in nats.
 */

function total(counts: Map<string, number>, name: string): number {
  let s = 0;
  for (const [w, c] of counts) {
    if (!Number.isFinite(c) || c < 0) throw new TypeError(`klDivergence: count of ${JSON.stringify(w)} in ${name} must be a finite number >= 0, got ${c}`);
    s += c;
  }
  return s;
}

/**
 * KL(P || Q) = Σ_w P(w) ln(P(w) / Q(w)) over the union vocabulary V of
 * the two count maps, with additive smoothing:
 * P(w) = (p(w) + α) / (Σp + α|V|), likewise Q; α = `smoothing` (default 1,
 * Laplace). 0 when the distributions are equal (e.g. p = q), and 0 for two
 * empty maps. With α = 0 a word counted in p but not in q gives Infinity.
 * Throws TypeError for a negative or non-finite count or smoothing, or for
 * α = 0 with an empty side.
 */
export function klDivergence(p: Map<string, number>, q: Map<string, number>, smoothing = 1): number {
  if (!Number.isFinite(smoothing) || smoothing < 0) throw new TypeError(`klDivergence: smoothing must be a finite number >= 0, got ${smoothing}`);
  const tp = total(p, 'p');
  const tq = total(q, 'q');
  const vocab = new Set([...p.keys(), ...q.keys()]);
  if (vocab.size === 0) return 0;
  const zp = tp + smoothing * vocab.size;
  const zq = tq + smoothing * vocab.size;
  if (zp === 0 || zq === 0) throw new TypeError('klDivergence: a distribution without counts needs smoothing > 0');
  let kl = 0;
  for (const w of vocab) {
    const pw = ((p.get(w) ?? 0) + smoothing) / zp;
    if (pw === 0) continue;
    const qw = ((q.get(w) ?? 0) + smoothing) / zq;
    kl += pw * Math.log(pw / qw);
  }
  return Math.max(0, kl);
}

/**
 * Han et al.'s estimator (eqs. 3–5, docs/algorithms.md#kl-divergence): keep only the words counted in both
 * maps, renormalise each side over those words, then KL(P || Q) without
 * smoothing. Returns NaN when the two maps share no word.
 */
export function klDivergenceShared(p: Map<string, number>, q: Map<string, number>): number {
  total(p, 'p');
  total(q, 'q');
  const shared = new Map<string, number>();
  const sharedQ = new Map<string, number>();
  for (const [w, c] of p) {
    const d = q.get(w);
    if (c > 0 && d !== undefined && d > 0) {
      shared.set(w, c);
      sharedQ.set(w, d);
    }
  }
  if (shared.size === 0) return NaN;
  return klDivergence(shared, sharedQ, 0);
}
