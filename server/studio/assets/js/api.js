// Calls to the Mastra API of the server that serves the page: JSON
// requests and SSE streams, with the saved bearer token.

import {readSSE} from './sse.js';
import {getToken} from './settings.js';

// apiPrefix is where the API lives, from <meta name="mastra-api-prefix">.
export const apiPrefix = (() => {
  const meta = document.querySelector('meta[name="mastra-api-prefix"]');
  const p = meta ? meta.content : '/api';
  return p === '/' ? '' : p.replace(/\/+$/, '');
})();

// APIError is a non-2xx answer: status, the body (parsed JSON when it is
// JSON) and a readable message.
export class APIError extends Error {
  constructor(status, body) {
    super(describeError(status, body));
    this.name = 'APIError';
    this.status = status;
    this.body = body;
  }
}

// describeError renders an error answer: Mastra's {error} and its body
// validation issues ({error, issues: [{field, message}]}) as text.
export function describeError(status, body) {
  let msg = '';
  if (body && typeof body === 'object') {
    if (typeof body.error === 'string') msg = body.error;
    else if (body.error && typeof body.error.message === 'string') msg = body.error.message;
    else if (typeof body.message === 'string') msg = body.message;
    if (Array.isArray(body.issues) && body.issues.length) {
      msg += (msg ? ': ' : '') + body.issues.map((i) => (i.field && i.field !== 'root' ? `${i.field}: ` : '') + i.message).join('; ');
    }
  } else if (typeof body === 'string') {
    msg = body.trim();
  }
  if (!msg) msg = 'Request failed';
  if (status === 401) msg += ' (set the bearer token in Settings)';
  return status ? `${status} ${msg}` : msg;
}

function headers(json) {
  const hd = {Accept: json ? 'application/json' : 'text/event-stream'};
  hd['Content-Type'] = 'application/json';
  const token = getToken();
  if (token) hd.Authorization = `Bearer ${token}`;
  return hd;
}

async function readBody(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// request sends method path (under the prefix) with a JSON body and
// returns {status, ok, body, ms}; it throws only when the request could
// not be made (network, abort).
export async function request(method, path, body, {signal} = {}) {
  const started = performance.now();
  const init = {method, headers: headers(true), signal};
  if (body !== undefined) init.body = JSON.stringify(body);
  if (method === 'GET') delete init.headers['Content-Type'];
  const res = await fetch(apiPrefix + path, init);
  const parsed = await readBody(res);
  return {status: res.status, ok: res.ok, body: parsed, ms: Math.round(performance.now() - started)};
}

// get returns the JSON of GET path, or throws APIError.
export async function get(path, opts) {
  const r = await request('GET', path, undefined, opts);
  if (!r.ok) throw new APIError(r.status, r.body);
  return r.body;
}

// post returns the JSON answer to POST path, or throws APIError.
export async function post(path, body, opts) {
  const r = await request('POST', path, body, opts);
  if (!r.ok) throw new APIError(r.status, r.body);
  return r.body;
}

// stream POSTs body to an SSE route and returns an async iterator of its
// chunks; an error answer (before the stream starts) throws APIError.
export async function stream(path, body, {signal} = {}) {
  const res = await fetch(apiPrefix + path, {method: 'POST', headers: headers(false), body: JSON.stringify(body), signal});
  if (!res.ok) throw new APIError(res.status, await readBody(res));
  const type = res.headers.get('Content-Type') || '';
  if (!type.includes('text/event-stream')) {
    throw new APIError(res.status, `expected an event stream, got ${type || 'no content type'}`);
  }
  return readSSE(res);
}

// path joins segments into an API path, each one URL-encoded.
export function apiPath(...segments) {
  return '/' + segments.map((s) => encodeURIComponent(s)).join('/');
}

// parseSchemaString reads a serialized schema field: a JSON string of
// superjson's {"json": <JSON Schema>} (or a bare schema), or an object.
export function parseSchemaString(value) {
  if (value === undefined || value === null || value === '') return null;
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (v && typeof v === 'object' && !Array.isArray(v) && v.json && typeof v.json === 'object' && !('type' in v)) v = v.json;
  return v && typeof v === 'object' ? v : null;
}
