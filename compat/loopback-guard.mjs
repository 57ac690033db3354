// Preloaded into every Node process the compatibility tests start
// (NODE_OPTIONS=--import=<this file>): it refuses, before any dial, a TCP
// connection to anything but the loopback interface, so a client or CLI
// that tried to reach the network (telemetry, a platform probe, a stray
// URL) fails the test instead of leaving the machine.
//
// Every TCP client in Node (net.connect, http, https, fetch/undici, tls)
// ends in net.Socket.prototype.connect; it is wrapped here. A refused
// connection fails like a refused dial (an 'error' event with code
// ECOMPATGUARD) and is reported on stderr with the line
// "compat loopback guard: refused connection to <host>:<port>", which the
// Go tests look for.
import net from 'node:net';

const connect = net.Socket.prototype.connect;

function isLoopback(host) {
  if (host === undefined || host === null || host === '' || host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  if (net.isIPv6(host)) return host === '::1' || host === '0:0:0:0:0:0:0:1' || /^::ffff:127\./i.test(host);
  return false;
}

// target returns the host and port a connect call asks for, or null for a
// Unix socket or named pipe (local by nature).
function target(args) {
  let [first, second] = args;
  if (Array.isArray(first)) first = first[0]; // Node's internal normalized [options, cb] form
  if (first !== null && typeof first === 'object') {
    if (first.path) return null; // net connects to a pipe whenever path is set, host or not
    return { host: first.host, port: first.port };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return null; // a path
  return { host: typeof second === 'string' ? second : undefined, port: first };
}

net.Socket.prototype.connect = function guardedConnect(...args) {
  const t = target(args);
  if (t && !isLoopback(t.host)) {
    const msg = `compat loopback guard: refused connection to ${t.host}:${t.port}`;
    process.stderr.write(msg + '\n');
    const err = Object.assign(new Error(msg), { code: 'ECOMPATGUARD' });
    process.nextTick(() => this.destroy(err));
    return this;
  }
  return connect.apply(this, args);
};
