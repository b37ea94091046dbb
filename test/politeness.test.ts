import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HostScheduler, MAX_ADAPTIVE_DELAY_MS, politeDelayMs, type SchedulerOptions } from '../src/frontier/politeness.ts';
import { seededRandom } from '../src/util/random.ts';

/** A scheduler on a fake clock the test moves by hand. */
function sched(opts: Partial<SchedulerOptions> = {}) {
  const clock = { t: 1_000_000 };
  const s = new HostScheduler({ perHost: 1, delayMs: 0, now: () => clock.t, ...opts });
  return { s, clock };
}

const A = 'a.test';
const B = 'b.test';
const C = 'c.test';
const D = 'd.test';
const u = (host: string, p = 'x') => `http://${host}/${p}`;

describe('HostScheduler: options', () => {
  it('rejects perHost < 1 and a negative or NaN delay', () => {
    assert.throws(() => new HostScheduler({ perHost: 0, delayMs: 0 }), TypeError);
    assert.throws(() => new HostScheduler({ perHost: NaN, delayMs: 0 }), TypeError);
    assert.throws(() => new HostScheduler({ perHost: 1, delayMs: -1 }), TypeError);
    assert.throws(() => new HostScheduler({ perHost: 1, delayMs: NaN }), TypeError);
  });

  it('works without an injected clock', () => {
    const s = new HostScheduler({ perHost: 1, delayMs: 0 });
    s.start(A);
    assert.equal(s.ready(A), false);
    s.finish(A, u(A), false);
    assert.equal(s.ready(A), true);
  });

  // Regression: `{ ...defaults, ...opts }` let `now: undefined` replace
  // Date.now, and finish() threw a TypeError.
  it(
    'an explicitly undefined optional field keeps its default',
    () => {
      const s = new HostScheduler({ perHost: 1, delayMs: 10, now: undefined, hostDiversity: undefined, delayExplicit: undefined });
      s.start(A);
      assert.doesNotThrow(() => s.finish(A, u(A), false));
      assert.equal(s.ready(A), false);
    },
  );
});

describe('HostScheduler: per-host concurrency', () => {
  it('allows at most perHost requests in flight to one host; other hosts are independent', () => {
    const { s } = sched({ perHost: 2 });
    assert.equal(s.ready(A), true);
    s.start(A);
    assert.equal(s.ready(A), true);
    s.start(A);
    assert.equal(s.ready(A), false);
    assert.equal(s.ready(B), true);
    s.start(B);
    assert.equal(s.activeHosts, 2);
    s.finish(A, u(A), false);
    assert.equal(s.ready(A), true, 'a slot is free again (no delay)');
    s.finish(A, u(A), false);
    assert.equal(s.activeHosts, 1);
  });

  it('perHost 1: a host is busy until its request finishes', () => {
    const { s } = sched({ perHost: 1 });
    s.start(A);
    assert.equal(s.ready(A), false);
    assert.equal(s.msUntilNextReady(), Infinity, 'a busy host is not waiting on a delay');
    s.finish(A, u(A), false);
    assert.equal(s.ready(A), true);
  });

  it('finish without start throws, also after the host went idle', () => {
    const { s } = sched({ perHost: 2, delayMs: 100 });
    assert.throws(() => s.finish(A, u(A), false), /finish\(\) without start\(\) for a\.test/);
    s.start(A);
    s.finish(A, u(A), false);
    // the host is still known (delayed) but has nothing in flight
    assert.throws(() => s.finish(A, u(A), false), /without start/);
    assert.equal(s.activeHosts, 0);
  });
});

describe('HostScheduler: delay between requests', () => {
  it('applies delayMs after finish, and msUntilNextReady reports the wait', () => {
    const { s, clock } = sched({ delayMs: 500 });
    s.start(A);
    clock.t += 200; // request takes 200 ms: the delay counts from its end
    s.finish(A, u(A), false);
    assert.equal(s.ready(A), false);
    assert.equal(s.msUntilNextReady(), 500);
    clock.t += 499;
    assert.equal(s.ready(A), false);
    assert.equal(s.msUntilNextReady(), 1);
    clock.t += 1;
    assert.equal(s.ready(A), true);
    assert.equal(s.msUntilNextReady(), Infinity);
    assert.equal(s.ready(B), true, 'other hosts are not delayed');
  });

  it('msUntilNextReady reports the soonest of several delayed hosts', () => {
    const { s, clock } = sched({ delayMs: 300 });
    s.start(A);
    s.start(B);
    s.finish(A, u(A), false);
    clock.t += 100;
    s.finish(B, u(B), false);
    assert.equal(s.msUntilNextReady(), 200);
    clock.t += 200;
    assert.equal(s.ready(A), true);
    assert.equal(s.msUntilNextReady(), 100);
  });

  it('a delayed host with a free slot (perHost 2) is reported; a full one is not', () => {
    const { s, clock } = sched({ perHost: 2, delayMs: 100 });
    s.start(A);
    s.start(A);
    s.finish(A, u(A), false);
    assert.equal(s.ready(A), false, 'one slot free but delayed');
    assert.equal(s.msUntilNextReady(), 100);
    s.start(B);
    s.start(B);
    assert.equal(s.msUntilNextReady(), 100, 'B is full, not delayed');
    clock.t += 100;
    assert.equal(s.ready(A), true);
    // full AND delayed: only a finish() can free it, so it is not "waiting on a delay"
    const { s: s2 } = sched({ perHost: 2, delayMs: 100 });
    s2.start(A);
    s2.start(A);
    s2.finish(A, u(A), false);
    s2.start(A);
    assert.equal(s2.ready(A), false);
    assert.equal(s2.msUntilNextReady(), Infinity);
  });

  it('a robots Crawl-delay larger than delayMs wins; a smaller one does not shorten it', () => {
    const delays: Record<string, number | null> = { [A]: 2000, [B]: 50, [C]: null };
    const asked: string[] = [];
    const { s } = sched({
      delayMs: 300,
      crawlDelayMs: (url) => {
        asked.push(url);
        return delays[new URL(url).host];
      },
    });
    for (const h of [A, B, C]) {
      s.start(h);
      s.finish(h, u(h, 'page'), false);
    }
    assert.deepEqual(asked, [u(A, 'page'), u(B, 'page'), u(C, 'page')], 'Crawl-delay is looked up by the finished URL');
    assert.equal(s.msUntilNextReady(), 300);
    const { s: s2 } = sched({ delayMs: 300, crawlDelayMs: () => 2000 });
    s2.start(A);
    s2.finish(A, u(A), false);
    assert.equal(s2.msUntilNextReady(), 2000);
  });

  it('Crawl-delay applies even when delayMs is 0', () => {
    const { s, clock } = sched({ delayMs: 0, crawlDelayMs: () => 1000 });
    s.start(A);
    s.finish(A, u(A), false);
    assert.equal(s.ready(A), false);
    clock.t += 1000;
    assert.equal(s.ready(A), true);
  });

  it('a later finish never shortens an earlier, longer delay', () => {
    const delays = [1000, 0];
    const { s } = sched({ perHost: 2, delayMs: 0, crawlDelayMs: () => delays.shift() ?? 0 });
    s.start(A);
    s.start(A);
    s.finish(A, u(A), false); // nextAt = now + 1000
    s.finish(A, u(A), false); // now + 0 must not pull it earlier
    assert.equal(s.msUntilNextReady(), 1000);
    assert.equal(s.ready(A), false);
  });
});

describe('HostScheduler: replayed answers', () => {
  it('get no delay (nor Crawl-delay) unless the delay was given explicitly', () => {
    const { s } = sched({ delayMs: 1000, crawlDelayMs: () => 5000 });
    s.start(A);
    s.finish(A, u(A), true);
    assert.equal(s.ready(A), true);
    assert.equal(s.msUntilNextReady(), Infinity);
    s.start(B);
    s.finish(B, u(B), false);
    assert.equal(s.ready(B), false, 'a live host still waits');
    assert.equal(s.msUntilNextReady(), 5000);
  });

  it('with delayExplicit the delay (and a larger Crawl-delay) applies to replayed answers too', () => {
    const { s, clock } = sched({ delayMs: 1000, delayExplicit: true });
    s.start(A);
    s.finish(A, u(A), true);
    assert.equal(s.ready(A), false);
    assert.equal(s.msUntilNextReady(), 1000);
    clock.t += 1000;
    assert.equal(s.ready(A), true);
    const { s: s2 } = sched({ delayMs: 1000, delayExplicit: true, crawlDelayMs: () => 3000 });
    s2.start(A);
    s2.finish(A, u(A), true);
    assert.equal(s2.msUntilNextReady(), 3000);
  });

  it('a host known to answer through replay skips the delay for a later answer without the flag (e.g. an error)', () => {
    const { s } = sched({ perHost: 2, delayMs: 1000 });
    s.start(A);
    s.start(A);
    s.finish(A, u(A), true);
    s.finish(A, u(A), false); // same host, still tracked: it is a replayed host
    assert.equal(s.ready(A), true);
  });
});

describe('HostScheduler: host diversity (docs/algorithms.md#host-diversity)', () => {
  it('K=3: a host among the last K-1 started is not diverse; it is again after K-1 other hosts', () => {
    const { s } = sched({ perHost: 10, hostDiversity: 3 });
    assert.equal(s.diverse(A), true);
    s.start(A);
    assert.equal(s.diverse(A), false);
    assert.equal(s.diverse(B), true);
    s.start(B);
    assert.equal(s.diverse(A), false, 'A is still among the last 2');
    assert.equal(s.diverse(B), false);
    s.start(C);
    assert.equal(s.diverse(A), true, 'two other hosts started since A');
    assert.equal(s.diverse(B), false);
    assert.equal(s.diverse(C), false);
    s.start(D);
    assert.equal(s.diverse(B), true);
  });

  it('counts starts, not finishes: finishing does not make a host diverse', () => {
    const { s } = sched({ perHost: 10, hostDiversity: 2 });
    s.start(A);
    s.finish(A, u(A), false);
    assert.equal(s.diverse(A), false);
    s.start(B);
    assert.equal(s.diverse(A), true);
    assert.equal(s.diverse(B), false);
  });

  it('repeated starts of one host push older hosts out of the window', () => {
    const { s } = sched({ perHost: 10, hostDiversity: 3 });
    s.start(A);
    s.start(B);
    s.start(B);
    assert.equal(s.diverse(A), true);
    assert.equal(s.diverse(B), false);
  });

  it('K of 0 or 1 disables it; diversity does not affect ready()', () => {
    for (const k of [0, 1]) {
      const { s } = sched({ perHost: 10, hostDiversity: k });
      s.start(A);
      assert.equal(s.diverse(A), true, `K=${k}`);
    }
    const { s } = sched({ perHost: 10, hostDiversity: 5 });
    s.start(A);
    assert.equal(s.diverse(A), false);
    assert.equal(s.ready(A), true);
  });
});

describe('HostScheduler: idle hosts', () => {
  it('activeHosts counts hosts with a request in flight', () => {
    const { s } = sched({ perHost: 3, delayMs: 100 });
    assert.equal(s.activeHosts, 0);
    s.start(A);
    s.start(A);
    s.start(B);
    assert.equal(s.activeHosts, 2);
    s.finish(B, u(B), false);
    assert.equal(s.activeHosts, 1, 'B is delayed but idle');
    s.finish(A, u(A), false);
    assert.equal(s.activeHosts, 1, 'A still has one in flight');
    s.finish(A, u(A), false);
    assert.equal(s.activeHosts, 0);
  });

  it('an idle host whose delay has passed is forgotten: it starts afresh (replay flag reset)', () => {
    const { s, clock } = sched({ delayMs: 100 });
    s.start(A);
    s.finish(A, u(A), true); // replayed: no delay, idle and ready -> forgotten at once
    s.start(A);
    s.finish(A, u(A), false); // a fresh state: this live answer is delayed
    assert.equal(s.ready(A), false);
    clock.t += 100;
    assert.equal(s.msUntilNextReady(), Infinity, 'ready and idle: dropped');
    s.start(A);
    assert.equal(s.activeHosts, 1);
    s.finish(A, u(A), false);
    assert.equal(s.msUntilNextReady(), 100, 'delay counted from the new finish');
  });
});

// Regression: a URL refused by robots.txt (no request made) still started
// the host's politeness delay.
it('finish without a request (robots refusal) frees the slot without a delay', () => {
  let t = 1000;
  const s = new HostScheduler({ perHost: 1, delayMs: 500, now: () => t });
  s.start('a.test');
  s.finish('a.test', 'http://a.test/x', false, false);
  assert.equal(s.ready('a.test'), true);
  s.start('a.test');
  s.finish('a.test', 'http://a.test/y', false);
  assert.equal(s.ready('a.test'), false);
  t += 500;
  assert.equal(s.ready('a.test'), true);
});

describe('HostScheduler: redirect hops', () => {
  it('a same-host hop waits the delay (robots Crawl-delay when larger); a replayed answer waits none', () => {
    const { s } = sched({ delayMs: 300, crawlDelayMs: (url) => (new URL(url).host === B ? 1000 : null) });
    s.start(A);
    assert.equal(s.hopDelayMs(A, u(A, 'moved'), true, false), 300);
    assert.equal(s.hopDelayMs(A, u(A, 'moved'), true, true), 0);
    s.start(B);
    assert.equal(s.hopDelayMs(B, u(B, 'moved'), true, false), 1000);
  });

  it('a hop to another host waits for that host\'s next allowed start, not for a free slot', () => {
    const { s, clock } = sched({ delayMs: 500 });
    assert.equal(s.hopDelayMs(B, u(B), false, false), 0, 'unknown host: at once');
    s.start(B);
    s.finish(B, u(B), false);
    clock.t += 200;
    assert.equal(s.hopDelayMs(B, u(B), false, false), 300);
    s.start(B); // B busy: a hop there does not wait for the slot (no deadlock between two hosts)
    clock.t += 300;
    assert.equal(s.hopDelayMs(B, u(B, 'y'), false, false), 0);
  });
});

describe('HostScheduler: delayFactor (a slow answer earns its host a longer pause)', () => {
  it('politeDelayMs: the largest of --delay-ms, Crawl-delay and factor × request time (capped)', () => {
    assert.equal(politeDelayMs(100, null, 0, 5000), 100, 'factor 0: off');
    assert.equal(politeDelayMs(100, null, 2, 30), 100, 'a fast answer: the fixed delay');
    assert.equal(politeDelayMs(100, null, 2, 300), 600);
    assert.equal(politeDelayMs(100, 2000, 2, 300), 2000, 'Crawl-delay when larger');
    assert.equal(politeDelayMs(0, null, 5, 1e7), MAX_ADAPTIVE_DELAY_MS, 'capped');
    assert.equal(politeDelayMs(40_000, null, 5, 1e7), 40_000, 'the cap bounds the adaptive part only');
  });

  it('finish() with the request time: the host waits factor × that time; replayed answers none', () => {
    const { s, clock } = sched({ delayMs: 100, delayFactor: 2 });
    s.start(A);
    s.finish(A, u(A), false, true, 300);
    clock.t += 599;
    assert.equal(s.ready(A), false);
    clock.t += 1;
    assert.equal(s.ready(A), true);
    s.start(B);
    s.finish(B, u(B), true, true, 300); // a replay proxy's answer
    assert.equal(s.ready(B), true);
  });

  it('a same-host redirect hop after a slow answer waits factor × that answer\'s time', () => {
    const { s } = sched({ delayMs: 100, delayFactor: 3 });
    s.start(A);
    assert.equal(s.hopDelayMs(A, u(A, 'moved'), true, false, 400), 1200);
    assert.equal(s.hopDelayMs(A, u(A, 'moved'), true, false, 10), 100);
    assert.equal(s.hopDelayMs(A, u(A, 'moved'), true, true, 400), 0, 'replayed: none');
  });

  it('rejects a negative or NaN factor', () => {
    assert.throws(() => new HostScheduler({ perHost: 1, delayMs: 0, delayFactor: -1 }), TypeError);
    assert.throws(() => new HostScheduler({ perHost: 1, delayMs: 0, delayFactor: NaN }), TypeError);
  });
});

describe('HostScheduler: wait estimates (for the frontier source\'s hold-back)', () => {
  it('typicalRequestMs: 0 before any request ended, then a moving average of request times', () => {
    const { s } = sched();
    assert.equal(s.typicalRequestMs, 0);
    s.start(A);
    s.finish(A, u(A), false, true, 100);
    assert.equal(s.typicalRequestMs, 100, 'the first request sets it');
    s.start(A);
    s.finish(A, u(A), false, true, 260);
    assert.equal(s.typicalRequestMs, 110, 'each later one moves it 1/16 of the way');
    s.start(A);
    s.finish(A, u(A), false, false, 5000); // robots refused it: no request was made
    assert.equal(s.typicalRequestMs, 110);
  });

  it('waitEstimateMs: 0 for a free host, the rest of a delay, and for a busy host the delay owed after its request', () => {
    const { s, clock } = sched({ delayMs: 300 });
    assert.equal(s.waitEstimateMs(A, u(A)), 0, 'never seen');
    s.start(A);
    assert.equal(s.waitEstimateMs(A, u(A)), 300, 'busy: its request must end, then 300 ms');
    s.finish(A, u(A), false, true, 10);
    clock.t += 100;
    assert.equal(s.waitEstimateMs(A, u(A)), 200, 'delayed: the rest of the delay');
    clock.t += 200;
    assert.equal(s.waitEstimateMs(A, u(A)), 0);
  });

  it('waitEstimateMs of a busy host not yet answered guesses from the last answer whether a replay proxy serves it', () => {
    const { s } = sched({ delayMs: 300 });
    s.start(B);
    s.finish(B, u(B), true, true, 10); // a replayed answer: no delay
    s.start(A);
    assert.equal(s.waitEstimateMs(A, u(A)), 0);
    s.start(C);
    s.finish(C, u(C), false, true, 10); // a live answer
    assert.equal(s.waitEstimateMs(A, u(A)), 300);
  });
});

describe('HostScheduler: readyAt and onRelease (the frontier head parks busy hosts by them)', () => {
  it('readyAt: 0 for an unknown host, Infinity while its slots are full, then the end of its delay; ready() agrees', () => {
    const { s, clock } = sched({ perHost: 1, delayMs: 300 });
    assert.equal(s.readyAt(A), 0);
    assert.equal(s.now(), clock.t);
    s.start(A);
    assert.equal(s.readyAt(A), Infinity);
    assert.equal(s.ready(A), false);
    s.finish(A, `http://${A}/`, false);
    assert.equal(s.readyAt(A), clock.t + 300);
    assert.equal(s.ready(A), false);
    clock.t += 300;
    assert.ok(s.readyAt(A) <= s.now());
    assert.equal(s.ready(A), true);
  });

  it('onRelease hears every finish(), requested or not, until unsubscribed', () => {
    const { s } = sched({ perHost: 2 });
    const heard: string[] = [];
    const off = s.onRelease((h) => heard.push(h));
    s.start(A);
    s.start(A);
    s.finish(A, `http://${A}/1`, false);
    s.finish(A, `http://${A}/2`, false, false);
    off();
    s.start(A);
    s.finish(A, `http://${A}/3`, false);
    assert.deepEqual(heard, [A, A]);
  });
});

describe('HostScheduler: msUntilNextReady over a crawl (issue 23 item 2)', () => {
  // msUntilNextReady used to walk every known host on each call; with
  // --delay-ms 1000 the frontier source asks after nearly every commit
  // (~10,000 calls in a 6,000-page crawl). It now keeps the hosts by their
  // next start. The wait it names must be exactly the soonest host's: a
  // later one would leave a free host idle (the source sleeps past it), and
  // no host may start before its delay has passed.
  it('names the soonest free host, and a crawl driven by it starts no host before its delay', () => {
    const rnd = seededRandom(23);
    let wakes = 0;
    for (let trial = 0; trial < 20; trial++) {
      const perHost = 1 + Math.floor(rnd() * 2);
      const delayMs = [0, 10, 1000][Math.floor(rnd() * 3)];
      const { s, clock } = sched({ perHost, delayMs });
      const hosts = Array.from({ length: 2 + Math.floor(rnd() * 12) }, (_, i) => `h${i}.test`);
      const brute = (): number => {
        let best = Infinity;
        for (const h of hosts) {
          const at = s.readyAt(h);
          if (at > clock.t && at < Infinity) best = Math.min(best, at - clock.t);
        }
        return best;
      };
      /** requests in flight: host and when it ends */
      const flying: { host: string; endsAt: number }[] = [];
      /** when each host may start again, as the test computes it */
      const earliest = new Map<string, number>();
      for (let step = 0; step < 300; step++) {
        const hint = s.msUntilNextReady();
        assert.equal(hint, brute(), `trial ${trial}, step ${step}`);
        const ready = hosts.filter((h) => s.ready(h));
        if (ready.length > 0 && rnd() < 0.6) {
          const host = ready[Math.floor(rnd() * ready.length)];
          assert.ok(clock.t >= (earliest.get(host) ?? 0), `${host} started ${(earliest.get(host) ?? 0) - clock.t} ms before its delay`);
          s.start(host);
          flying.push({ host, endsAt: clock.t + Math.floor(rnd() * 50) });
        } else if (rnd() < 0.1) {
          const host = hosts[Math.floor(rnd() * hosts.length)];
          const ms = 1 + Math.floor(rnd() * 2000);
          s.backoff(host, ms);
          earliest.set(host, Math.max(earliest.get(host) ?? 0, clock.t + ms));
        } else {
          // time passes to the next event: a request ends, or (as the source sleeps) the hint
          flying.sort((a, b) => a.endsAt - b.endsAt);
          const next = Math.min(flying[0]?.endsAt ?? Infinity, clock.t + hint);
          if (!Number.isFinite(next)) continue;
          clock.t = Math.max(clock.t, next);
          if (flying[0] !== undefined && flying[0].endsAt <= clock.t) {
            const { host } = flying.shift()!;
            const requested = rnd() < 0.9; // else robots.txt refused it: no delay
            s.finish(host, u(host), false, requested);
            if (requested) earliest.set(host, Math.max(earliest.get(host) ?? 0, clock.t + delayMs));
            if (flying.every((f) => f.host !== host) || perHost > 1) assert.equal(s.ready(host), clock.t >= (earliest.get(host) ?? 0));
          } else {
            wakes++;
            assert.ok(hosts.some((h) => s.ready(h)), 'woken by the hint, a host is free');
          }
        }
      }
    }
    assert.ok(wakes > 50, `${wakes} wakes by the hint`);
  });
});
