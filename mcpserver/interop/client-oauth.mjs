// Drives an OAuth-protected gomastra MCP server with the official
// TypeScript SDK client (@modelcontextprotocol/sdk 1.x) and its
// OAuthClientProvider: on the server's 401 the SDK discovers the
// protected resource metadata and the authorization server's metadata,
// registers dynamically, and starts the authorization-code flow with
// PKCE; this script plays the browser (follows the authorize URL without
// following its redirect, checks state and iss) and hands the code back
// (finishAuth). It then calls whoami, and once more after its access
// token is spoiled, which the SDK repairs with the refresh token. Usage:
//   node client-oauth.mjs --http <mcp url> --auth none|client_secret_basic|client_secret_post
// Every request must go to 127.0.0.1: anything else is refused here.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { transportArgs, report } from './checks.mjs';

const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.hostname !== '127.0.0.1') return Promise.reject(new Error(`refusing ${url.host}: tests stay on 127.0.0.1`));
  return realFetch(input, init);
};

const t = transportArgs(process.argv);
const authMethod = process.argv[process.argv.indexOf('--auth') + 1] ?? 'none';
const redirectUrl = 'http://127.0.0.1:9/oauth/callback'; // never requested: the script takes the redirect itself

// provider keeps everything in memory; authorizeUrl is where the SDK
// sent the user.
class Provider {
  constructor() {
    this.info = undefined;
    this.saved = undefined;
    this.verifier = undefined;
    this.authorizeUrl = undefined;
    this.lastState = undefined;
  }
  get redirectUrl() { return redirectUrl; }
  get clientMetadata() {
    return { client_name: 'gomastra-interop-oauth', redirect_uris: [redirectUrl], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: authMethod };
  }
  state() { this.lastState = 'st-' + Math.random().toString(36).slice(2); return this.lastState; }
  clientInformation() { return this.info; }
  saveClientInformation(info) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens) { this.saved = tokens; }
  redirectToAuthorization(url) { this.authorizeUrl = url; }
  saveCodeVerifier(v) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
}

const provider = new Provider();
const checks = [];
const check = async (name, fn) => {
  try {
    checks.push({ name, ok: true, detail: await fn() });
  } catch (e) {
    checks.push({ name, ok: false, detail: e instanceof Error ? e.message : String(e) });
  }
};
const expect = (cond, msg) => { if (!cond) throw new Error(msg); };
const transport = () => new StreamableHTTPClientTransport(new URL(t.http), { authProvider: provider });
const connect = async tr => {
  const client = new Client({ name: 'gomastra-interop-oauth', version: '1.0.0' });
  await client.connect(tr);
  return client;
};
const whoami = async client => (await client.callTool({ name: 'whoami', arguments: {} })).content?.[0]?.text;

let first;
await check('401 starts the authorization-code flow', async () => {
  first = transport();
  try {
    await connect(first);
  } catch (e) {
    expect(e instanceof UnauthorizedError, `not UnauthorizedError: ${e}`);
    const u = provider.authorizeUrl;
    expect(u, 'the SDK did not send the user to the authorization server');
    expect(u.searchParams.get('code_challenge_method') === 'S256', 'no PKCE S256');
    expect(u.searchParams.get('resource') === t.http, `resource ${u.searchParams.get('resource')}`);
    expect(provider.info?.client_id, 'no dynamic registration');
    return `authorize ${u.origin}${u.pathname} scope=${u.searchParams.get('scope')}`;
  }
  throw new Error('connected without a token');
});

let code;
await check('the user approves (state and iss come back)', async () => {
  const res = await fetch(provider.authorizeUrl, { redirect: 'manual' });
  expect(res.status === 302, `authorize answered ${res.status}`);
  const back = new URL(res.headers.get('location'));
  expect(back.origin + back.pathname === redirectUrl, `redirected to ${back.origin}${back.pathname}`);
  expect(back.searchParams.get('state') === provider.lastState, 'state mismatch');
  expect(back.searchParams.get('iss') === provider.authorizeUrl.origin, `iss ${back.searchParams.get('iss')}`);
  code = back.searchParams.get('code');
  expect(code, `no code: ${back.searchParams.get('error')}`);
  return 'code received';
});

await check('finishAuth exchanges the code', async () => {
  await first.finishAuth(code);
  expect(provider.saved?.access_token, 'no access token');
  expect(provider.saved?.refresh_token, 'no refresh token');
  return `token_type ${provider.saved.token_type}`;
});

await check('the tool sees the user', async () => {
  const client = await connect(transport());
  const text = await whoami(client);
  await client.close();
  expect(text === 'resource=alice', `whoami: ${text}`);
  return text;
});

await check('a spoiled access token is refreshed', async () => {
  const refresh = provider.saved.refresh_token;
  provider.saved = { ...provider.saved, access_token: 'spoiled' };
  const client = await connect(transport());
  const text = await whoami(client);
  await client.close();
  expect(text === 'resource=alice', `whoami: ${text}`);
  expect(provider.saved.access_token !== 'spoiled' && provider.saved.refresh_token !== refresh, 'tokens were not refreshed and rotated');
  return text;
});

report('@modelcontextprotocol/sdk OAuth', checks);
