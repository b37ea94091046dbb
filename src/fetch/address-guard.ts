/**
 * The private-address guard: which hosts and IP addresses a crawl of the
 * public web must never connect to (loopback, private networks, link-local,
 * cloud metadata, multicast, reserved), and a DNS lookup for net.connect that
 * refuses names resolving to one of them.
 *
 * Everything here is pure except {@link guardedLookup}, which wraps a
 * resolver (dns.lookup by default). URL hosts written as decimal
 * (http://2130706433/), octal (http://0177.0.0.1/), hex or short forms
 * (http://127.1/) need no handling: WHATWG URL parsing already turns them into
 * dotted IPv4.
 */
import dns from 'node:dns';
import net from 'node:net';
import { PrivateAddressError } from '../errors.ts';

/** The named ranges {@link addressRange} reports. */
export type AddressRange =
  | 'metadata'
  | 'broadcast'
  | 'loopback'
  | 'unspecified'
  | 'private'
  | 'cgnat'
  | 'link-local'
  | 'reserved'
  | 'benchmark'
  | 'multicast'
  | 'unique-local';

/** An IP address -> the forbidden range it falls in, or null when it may be fetched. */
export type AddressPolicy = (ip: string) => string | null;

/** Forbidden IPv4 subnets; the first matching name wins (metadata before link-local). */
const V4: ReadonlyArray<readonly [AddressRange, string, number]> = [
  ['metadata', '169.254.169.254', 32],
  ['broadcast', '255.255.255.255', 32],
  ['loopback', '127.0.0.0', 8],
  ['unspecified', '0.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['cgnat', '100.64.0.0', 10],
  ['link-local', '169.254.0.0', 16],
  ['reserved', '192.0.0.0', 24], // IETF protocol assignments
  ['benchmark', '198.18.0.0', 15],
  ['multicast', '224.0.0.0', 4],
  ['reserved', '240.0.0.0', 4],
];

/** Forbidden IPv6 subnets (native ones; IPv4 embedded in IPv6 comes from {@link EMBEDDINGS}). */
const V6: ReadonlyArray<readonly [AddressRange, string, number]> = [
  ['metadata', 'fd00:ec2::254', 128], // AWS IMDS over IPv6
  ['loopback', '::1', 128],
  ['unspecified', '::', 128],
  ['unique-local', 'fc00::', 7],
  ['link-local', 'fe80::', 10],
  ['multicast', 'ff00::', 8],
];

/**
 * IPv6 forms that carry an IPv4 address, as (v4 address in hex groups, v4
 * prefix length) -> (v6 subnet, v6 prefix length): an IPv4 subnet is
 * forbidden in each of these forms too.
 */
const EMBEDDINGS: ReadonlyArray<(hi: string, lo: string, prefix: number) => readonly [string, number]> = [
  (hi, lo, p) => [`::ffff:${hi}:${lo}`, 96 + p], // IPv4-mapped
  (hi, lo, p) => [`64:ff9b::${hi}:${lo}`, 96 + p], // NAT64 well-known prefix
  (hi, lo, p) => [`::${hi}:${lo}`, 96 + p], // IPv4-compatible (deprecated)
  (hi, lo, p) => [`2002:${hi}:${lo}::`, 16 + p], // 6to4
];

/** One BlockList per range name, in the order they are checked. */
const LISTS: ReadonlyArray<readonly [AddressRange, net.BlockList]> = (() => {
  const lists = new Map<AddressRange, net.BlockList>();
  const listOf = (name: AddressRange): net.BlockList => {
    let list = lists.get(name);
    if (list === undefined) lists.set(name, (list = new net.BlockList()));
    return list;
  };
  for (const [name, addr, prefix] of V4) {
    const list = listOf(name);
    list.addSubnet(addr, prefix, 'ipv4');
    const n = addr.split('.').map(Number);
    const hi = ((n[0] << 8) | n[1]).toString(16);
    const lo = ((n[2] << 8) | n[3]).toString(16);
    for (const embed of EMBEDDINGS) {
      const [v6, v6prefix] = embed(hi, lo, prefix);
      list.addSubnet(v6, v6prefix, 'ipv6');
    }
  }
  // loopback (::1) must be checked before unspecified (IPv4-compatible 0.0.0.0/8 covers ::1)
  const order: AddressRange[] = ['metadata', 'broadcast', 'loopback'];
  for (const [name, addr, prefix] of V6) {
    listOf(name).addSubnet(addr, prefix, 'ipv6');
    if (!order.includes(name)) order.push(name);
  }
  for (const name of lists.keys()) if (!order.includes(name)) order.push(name);
  return order.map((name) => [name, lists.get(name)!] as const);
})();

/**
 * The forbidden range an IP address (v4 dotted, or v6 with or without
 * brackets and zone id) falls in, or null for a public address.
 * Throws a TypeError when `ip` is not an IP address.
 */
export function addressRange(ip: string): AddressRange | null {
  const bare = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 0) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [name, list] of LISTS) if (list.check(bare, type)) return name;
  return null;
}

/** 'localhost' and '*.localhost' (RFC 6761: always loopback, refused without DNS). */
export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/**
 * Check a URL hostname (as in `URL.hostname`) before any request: a
 * localhost name, or an IP literal in a range the policy forbids, is a
 * PrivateAddressError; other names pass (their addresses are checked by
 * {@link guardedLookup} at connect time).
 */
export function checkHostname(hostname: string, policy: AddressPolicy = addressRange): PrivateAddressError | null {
  if (isLocalhostName(hostname)) return new PrivateAddressError(hostname, hostname, 'loopback');
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(bare) === 0) return null;
  const range = policy(bare);
  return range === null ? null : new PrivateAddressError(hostname, bare, range);
}

/** A dns.lookup-compatible resolver, as net.connect's `lookup` option takes. */
export type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/** A PrivateAddressError for the first address of `hostname` the policy forbids, or null. */
function firstForbidden(hostname: string, addresses: readonly dns.LookupAddress[], policy: AddressPolicy): PrivateAddressError | null {
  for (const a of addresses) {
    const range = policy(a.address);
    if (range !== null) return new PrivateAddressError(hostname, a.address, range);
  }
  return null;
}

/**
 * A `lookup` for net.connect/tls.connect (undici's `connect` options) that
 * resolves every address of the name and fails with a PrivateAddressError
 * when ANY of them is forbidden, so a DNS answer mixing public and private
 * addresses cannot steer the connection to the private one.
 */
export function guardedLookup(policy: AddressPolicy = addressRange, resolve: Resolver = dns.lookup): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err !== null) return callback(err, []);
      const refused = firstForbidden(hostname, addresses, policy);
      if (refused !== null) return callback(refused, []);
      if (options.all === true) return callback(null, addresses);
      if (addresses.length === 0) {
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      }
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * {@link checkHostname}, and for a name also its addresses (all of them,
 * through `resolve`): the PrivateAddressError a request to `hostname` would
 * meet, or null. A name that does not resolve gives null (the request
 * reports that failure itself).
 */
export async function checkHost(
  hostname: string,
  policy: AddressPolicy = addressRange,
  resolve: Resolver = dns.lookup,
): Promise<PrivateAddressError | null> {
  const refused = checkHostname(hostname, policy);
  if (refused !== null || net.isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0) return refused;
  const addresses = await new Promise<dns.LookupAddress[]>((done) => {
    try {
      resolve(hostname, { all: true }, (err, found) => done(err === null ? found : []));
    } catch {
      done([]); // e.g. a name dns.lookup rejects outright: the request reports it
    }
  });
  return firstForbidden(hostname, addresses, policy);
}
