/**
 * Name lookups of the HTTP client. Every connection the client opens gets
 * its address from one injectable `lookup` (HttpClientOptions.lookup,
 * CrawlConfig.lookup, down to undici's `connect: { lookup }`), the system
 * resolver (dns.lookup) by default. Tests inject {@link loopbackLookup} so
 * no name lookup can leave the machine.
 *
 * {@link isValidHostname} is checked before any lookup: a malformed name
 * (`http://a..b/`, `http://-a-.test/`) is refused with FC_BAD_HOST and never
 * reaches a resolver.
 */
import dns from 'node:dns';
import net from 'node:net';
import { NetworkError } from '../errors.ts';
import type { Resolver } from './address-guard.ts';

export type { Resolver } from './address-guard.ts';

/** The system resolver (dns.lookup, i.e. getaddrinfo), looked up at call time. */
export const systemLookup: Resolver = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/** One DNS label: letters, digits, '_' and '-', not starting or ending with '-', 1 to 63 characters. */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;

/**
 * Whether a URL hostname (as in `URL.hostname`, already IDNA-encoded by URL
 * parsing) can be looked up: an IP literal, or a name of at most 253
 * characters (one trailing dot allowed) whose every label is LABEL.
 * `a..b` (empty label), `-a-.test` (a label starting or ending with '-'),
 * `a!b.test` are not.
 */
export function isValidHostname(hostname: string): boolean {
  if (net.isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0) return true;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name === '' || name.length > 253) return false;
  return name.split('.').every((label) => LABEL.test(label));
}

/**
 * A resolver that never leaves the machine, for tests: an IP literal
 * answers itself, `localhost` (and `*.localhost`) answer 127.0.0.1, and
 * every other name fails with a NetworkError (FC_NETWORK) without any
 * system lookup. `onLookup`, when given, is told every name asked for
 * (tests count calls).
 */
export function loopbackLookup(onLookup?: (hostname: string) => void): Resolver {
  return (hostname, options, callback) => {
    onLookup?.(hostname);
    const bare = hostname.replace(/^\[(.*)\]$/, '$1');
    const h = bare.toLowerCase().replace(/\.$/, '');
    const family = net.isIP(bare);
    const found: dns.LookupAddress[] =
      family !== 0 ? [{ address: bare, family }] : h === 'localhost' || h.endsWith('.localhost') ? [{ address: '127.0.0.1', family: 4 }] : [];
    const addresses = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
    process.nextTick(() => {
      if (addresses.length > 0) return callback(null, addresses);
      const err = new NetworkError(`getaddrinfo ENOTFOUND ${hostname} (loopback-only lookup: only IP literals and localhost resolve)`);
      callback(err as unknown as NodeJS.ErrnoException, []);
    });
  };
}

/**
 * A lookup for net.connect (undici's `connect: { lookup }`) from a
 * resolver, answering both forms of the call (with and without `all`).
 */
export function connectLookup(resolve: Resolver): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err !== null) return callback(err, []);
      if (options.all === true) return callback(null, addresses);
      if (addresses.length === 0) {
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      }
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
