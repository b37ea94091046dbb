// Preloaded (--import) into every CLI child the tests spawn (test/helpers/cli.ts):
// dns.lookup answers IP literals and localhost only, and fails every other
// name with ENOTFOUND without asking the system resolver, so no name lookup
// leaves the machine even where .ci/loopback-only cannot make a network
// namespace. The crawler's default lookup (src/net/lookup.ts systemLookup)
// calls dns.lookup at call time, so it gets this one. In-process tests pass
// loopbackLookup() from src/net/lookup.ts instead.
import dns from 'node:dns';
import net from 'node:net';

function answer(hostname) {
  const bare = String(hostname).replace(/^\[(.*)\]$/, '$1');
  const family = net.isIP(bare);
  if (family !== 0) return [{ address: bare, family }];
  const h = bare.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }];
  return null;
}

function loopbackOnly(hostname, options, callback) {
  if (typeof options === 'function') [callback, options] = [options, {}];
  const opts = typeof options === 'number' ? { family: options } : (options ?? {});
  const found = answer(hostname)?.filter((a) => opts.family !== 4 && opts.family !== 6 ? true : a.family === opts.family) ?? [];
  process.nextTick(() => {
    if (found.length === 0) {
      const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (tests resolve only IP literals and localhost)`), {
        code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname,
      });
      return callback(err);
    }
    if (opts.all === true) return callback(null, found);
    return callback(null, found[0].address, found[0].family);
  });
}

dns.lookup = loopbackOnly;
dns.promises.lookup = (hostname, options) =>
  new Promise((resolve, reject) =>
    loopbackOnly(hostname, options, (err, address, family) => (err ? reject(err) : resolve(Array.isArray(address) ? address : { address, family }))),
  );
