// Odd responses for CLI captures: /api/tools hangs; other paths by ?mode.
import http from 'node:http';
http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  const p = u.pathname;
  if (p.startsWith('/hang')) return; // never answers
  if (p === '/text/api/tools') { res.writeHead(500, {'content-type':'text/plain'}); return res.end('boom'); }
  if (p === '/empty/api/tools/x') { res.writeHead(404); return res.end(); }
  if (p === '/empty200/api/tools/x') { res.writeHead(200); return res.end(); }
  if (p === '/nums/api/tools/x') { res.writeHead(200, {'content-type':'application/json'}); return res.end('{"b":1,"2":"two","1":"one","a":[1e21,1e-7,0.1,-0,1.0,1E400,123456789012345678901234],"s":"<&>\u2028\u00e9\\ud800","b":2}'); }
  if (p === '/list/api/agents') { res.writeHead(200, {'content-type':'application/json'}); return res.end('{"page":{"total":10,"page":2,"perPage":3,"hasMore":true},"x":[1,2],"y":{"z":1}}'); }
  if (p === '/runs/api/workflows/w/runs') { res.writeHead(200, {'content-type':'application/json'}); return res.end('{"runs":[{"status":"completed","x":[{"status":"WAITING"}]},{"status":"constructor"},{"status":"__proto__"},{"status":"weird"}],"total":7}'); }
  if (p === '/schema/api/system/api-schema') { res.writeHead(200, {'content-type':'application/json'}); return res.end('{"routes":[]}'); }
  if (p === '/badschema/api/system/api-schema') { res.writeHead(200, {'content-type':'application/json'}); return res.end('{"x":1}'); }
  res.writeHead(404, {'content-type':'application/json'}); res.end(JSON.stringify({error:'nf', path: req.url, method: req.method, headers: req.headers}));
}).listen(4400, '127.0.0.1', () => console.log('odd ready'));
