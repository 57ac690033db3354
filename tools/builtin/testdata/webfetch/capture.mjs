// capture.mjs — records what the REAL Mastra 1.71 webFetchTool (id web_fetch) does,
// as JSON fixtures for github.com/gomastra/mastra/tools/builtin (webfetch_fixtures_test.go).
//
// Run from the anchor folder (see README.md here):
//
//   cd "$ANCHOR" && source ./env.sh
//   MASTRA_TELEMETRY_DISABLED=1 node /path/to/capture.mjs /path/to/scenarios.json > mastra.json
//
// Nothing leaves this machine. Before @mastra/core is loaded:
//   - dns.lookup is replaced by a fake resolver answering from scenarios.json "dns"
//     (an IP address: itself; every other name: ENOTFOUND), published to ES module importers with
//     module.syncBuiltinESMExports();
//   - http.request is wrapped so that every connection goes to the fixture server on
//     127.0.0.1 whatever the URL says, and net.Socket.prototype.connect refuses any
//     other destination (checked at start-up), so a routing mistake cannot send traffic. Mastra's own checks still run: its literal host
//     check before the request, and its lookup hook (given the fake answers) for names;
//     only after its hook accepted an answer is the socket pointed at 127.0.0.1.
//   - https.request fails ("capture: https is not routed").
// So a URL Mastra refuses is refused as it would be, and a URL Mastra would fetch
// reaches the fixture server (its path answers as scenarios.json "responses" says).
//
// Output: one JSON object (2-space indent):
//   tool        id, description, z.toJSONSchema of the input (io: input) and output
//               (io: output) schemas
//   modelTool   the tool definition an Agent gives its model (name, description,
//               inputSchema)
//   fetches     [{url, result}] for scenarios.json "fetches": the tool's result
//   hostile     [{url, result}] for scenarios.json "hostile"
// A content longer than 300 UTF-16 code units is recorded as {"$units": length,
// "$tail": [last 4 code units as numbers]} (so lone surrogates survive).
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const dns = require('node:dns');
const http = require('node:http');
const https = require('node:https');
const net = require('node:net');

const scenarios = JSON.parse(readFileSync(process.argv[2] ?? new URL('./scenarios.json', import.meta.url), 'utf8'));

// ---------------------------------------------------------------- fake DNS
dns.lookup = (hostname, options, callback) => {
  if (typeof options === 'function') [options, callback] = [{}, options];
  if (typeof options === 'number') options = { family: options };
  const answers = net.isIP(hostname) ? [hostname] : scenarios.dns[hostname.toLowerCase()];
  if (!answers) {
    const err = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    Object.assign(err, { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });
    process.nextTick(callback, err);
    return;
  }
  const all = answers.map((address) => ({ address, family: net.isIP(address) }));
  if (options.all) process.nextTick(callback, null, all);
  else process.nextTick(callback, null, all[0].address, all[0].family);
};
syncBuiltinESMExports();

// ---------------------------------------------------------------- fixture server
function bodyOf(spec) {
  if (!spec) return Buffer.alloc(0);
  if (spec.hex !== undefined) return Buffer.from(spec.hex, 'hex');
  if (spec.text !== undefined) return Buffer.from(spec.text, 'utf8');
  return Buffer.from((spec.prefix ?? '') + spec.repeat.repeat(spec.count), 'utf8');
}
const server = http.createServer((req, res) => {
  let p = new URL(req.url, 'http://x').pathname;
  const hops = /^\/hops\/(\d+)(\/.*)$/.exec(p);
  if (hops) {
    const n = Number(hops[1]);
    if (n > 0) {
      res.writeHead(302, 'Found', ['Location', `/hops/${n - 1}${hops[2]}`]);
      res.end();
      return;
    }
    p = hops[2];
  }
  const r = scenarios.responses[p];
  if (!r) {
    res.writeHead(404, 'Not Found', ['Content-Type', 'text/plain']);
    res.end('no scenario ' + p);
    return;
  }
  const headers = r.headers.flat();
  if (r.echo) {
    const h = (k) => req.headers[k] ?? '(none)';
    const text = [`${req.method} ${req.url}`, `host: ${h('host')}`, `user-agent: ${h('user-agent')}`,
      `accept: ${h('accept')}`, `accept-encoding: ${h('accept-encoding')}`, `authorization: ${h('authorization')}`].join('\n');
    res.writeHead(r.status, r.reason, headers);
    res.end(text);
    return;
  }
  res.writeHead(r.status, r.reason, headers);
  res.end(bodyOf(r.body));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const fixturePort = server.address().port;

// ---------------------------------------------------------------- routing
// Every socket must go to the fixture server: connect() refuses anything else
// (a host other than 127.0.0.1 without our lookup, or another port), so a
// mistake in the routing below fails the capture instead of sending traffic.
const ours = Symbol('fixture lookup');
const socketConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const o = Array.isArray(args[0]) ? args[0][0] : typeof args[0] === 'object' ? args[0] : { port: args[0], host: args[1] };
  const host = o.host ?? 'localhost';
  if (o.path !== undefined || Number(o.port) !== fixturePort || (host !== '127.0.0.1' && !o.lookup?.[ours])) {
    throw new Error(`capture: refusing to connect to ${JSON.stringify({ host, port: o.port, path: o.path })}`);
  }
  return socketConnect.apply(this, args);
};
try {
  net.connect({ host: '93.184.216.34', port: 80 });
  throw new Error('capture: the connect guard does not work');
} catch (e) {
  if (!String(e.message).startsWith('capture: refusing')) throw e;
}

const toFixture = (lookup) => (opts) => {
  const host = opts.hostname ?? opts.host;
  if (net.isIP(host)) return net.connect({ host: '127.0.0.1', port: fixturePort });
  const fixtureLookup = (h, o, cb) => lookup(h, o, (err, address, family) => {
    if (err) return cb(err);
    if (o.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
    else cb(null, '127.0.0.1', 4);
  });
  fixtureLookup[ours] = true;
  return net.connect({ host, port: fixturePort, lookup: fixtureLookup });
};
// No agent: ClientRequest then calls createConnection (with agent: false it
// would build a fresh Agent and ignore createConnection). defaultPort is what
// the global agent would have supplied (it keeps ":80" out of the Host header).
const httpRequest = http.request;
http.request = (url, options, callback) => {
  if (options.agent !== undefined) throw new Error('capture: unexpected agent option');
  return httpRequest(url, { ...options, defaultPort: 80, createConnection: toFixture(options.lookup) }, callback);
};
https.request = () => { throw new Error('capture: https is not routed'); };

// ---------------------------------------------------------------- Mastra
const req = createRequire(path.join(process.cwd(), 'noop.js'));
async function importFromCwd(pkg, subpath = '.') {
  const pkgJsonPath = req.resolve(`${pkg}/package.json`);
  const pj = JSON.parse(readFileSync(pkgJsonPath, 'utf8'));
  let entry = pj.exports[subpath];
  entry = entry.import ?? entry;
  if (typeof entry === 'object') entry = entry.default;
  return import(pathToFileURL(path.join(path.dirname(pkgJsonPath), entry)).href);
}
const { webFetchTool } = await importFromCwd('@mastra/core', './tools');
const { Agent } = await importFromCwd('@mastra/core', './agent');
const { z } = await importFromCwd('zod');
const { MockLanguageModelV3 } = await importFromCwd('ai', './test');

const out = {};
out.tool = {
  id: webFetchTool.id,
  description: webFetchTool.description,
  inputSchema: z.toJSONSchema(webFetchTool.inputSchema, { io: 'input' }),
  outputSchema: z.toJSONSchema(webFetchTool.outputSchema, { io: 'output' }),
};

{
  let tools;
  const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
  const m = new MockLanguageModelV3({
    provider: 'mock', modelId: 'm',
    doGenerate: async (opts) => {
      tools = JSON.parse(JSON.stringify(opts.tools));
      return { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop' }, usage, warnings: [] };
    },
  });
  const agent = new Agent({ id: 'a', name: 'a', instructions: 'I', model: m, tools: { web_fetch: webFetchTool } });
  await agent.generate('hi');
  out.modelTool = tools[0];
}

function summarize(result) {
  if (result && typeof result.content === 'string' && result.content.length > 300) {
    const c = result.content;
    const tail = [];
    for (let i = Math.max(0, c.length - 4); i < c.length; i++) tail.push(c.charCodeAt(i));
    return { ...result, content: { $units: c.length, $tail: tail } };
  }
  return result;
}
async function run(urls) {
  const res = [];
  for (const url of urls) res.push({ url, result: summarize(await webFetchTool.execute({ url }, {})) });
  return res;
}
out.fetches = await run(scenarios.fetches);
out.fetches.push(...await run(['']));
out.hostile = await run(scenarios.hostile);

server.close();
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
