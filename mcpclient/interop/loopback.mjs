// Preloaded (node --import) into the Node peers the Go interop tests start: every server the
// process opens listens on 127.0.0.1 only (the peers listen on all interfaces by default), and
// each bound address is announced on stderr as "GOMASTRA_LISTENING 127.0.0.1:<port>", so a
// test can start a peer on port 0 and learn its port without racing for a free one.
import dns from 'node:dns';
import net from 'node:net';

// Node resolves a listen host with dns.lookup, asynchronously, even for an IP address; peers
// that call server.address() right after listen(0) need the bind to happen at once, as it does
// without a host. Answer the loopback address synchronously.
const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  if (hostname === '127.0.0.1') {
    const cb = typeof options === 'function' ? options : callback;
    const all = typeof options === 'object' && options !== null && options.all;
    if (all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
    else cb(null, '127.0.0.1', 4);
    return {};
  }
  return lookup.apply(this, arguments);
};

const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function (...args) {
  const callback = typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
  let options;
  if (args[0] !== null && typeof args[0] === 'object') {
    options = { ...args[0] };
  } else {
    options = { port: args[0] === undefined ? 0 : Number(args[0]) };
  }
  if (options.path === undefined) {
    options.host = '127.0.0.1';
    this.once('listening', () => {
      const address = this.address();
      process.stderr.write(`GOMASTRA_LISTENING ${address.address}:${address.port}\n`);
    });
  }
  return callback ? listen.call(this, options, callback) : listen.call(this, options);
};
