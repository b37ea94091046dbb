/**
 * The parts of undici the HTTP client uses, loaded alone. undici's index
 * loads all of undici (fetch, WebSocket, EventSource, caches, mocks): about
 * 130 ms and 8 MB of RSS at start on the bench machine, against 50 ms for
 * the three dispatchers and the error classes (BENCHMARKS.md, start-up).
 * undici has no "exports" map, so these files are reachable; if a release
 * moves them, the index is loaded instead, and test/undici.test.ts
 * (which checks that these are the very classes `undici` exports) fails.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

export type { Dispatcher } from 'undici';

interface Parts {
  Agent: typeof Undici.Agent;
  Pool: typeof Undici.Pool;
  ProxyAgent: typeof Undici.ProxyAgent;
  errors: typeof Undici.errors;
  /** false when the files were not where expected and the index was loaded */
  deep: boolean;
}

function load(): Parts {
  const require = createRequire(import.meta.url);
  try {
    // undici's index gives every dispatcher its request/stream/... methods
    // this way (Object.assign(Dispatcher.prototype, api)); done here only
    // when nothing in the process has loaded the index yet
    const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: Record<string, unknown> };
    if (typeof Dispatcher.prototype.request !== 'function') Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));
    return {
      Agent: require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent,
      Pool: require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool,
      ProxyAgent: require('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent,
      errors: require('undici/lib/core/errors.js') as typeof Undici.errors,
      deep: true,
    };
  } catch {
    const all = require('undici') as typeof Undici;
    return { Agent: all.Agent, Pool: all.Pool, ProxyAgent: all.ProxyAgent, errors: all.errors, deep: false };
  }
}

export const undici: Readonly<Parts> = load();
