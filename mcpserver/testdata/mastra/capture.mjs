// Captures what the real Mastra MCPServer (@mastra/mcp 2.0.0 on @mastra/core 1.71) answers,
// for the Go tests of package mcpserver to compare against. Run it from a copy of the anchor
// (see README.md beside this file); it binds 127.0.0.1 only and calls no model.
//
// Output: one JSON document on stdout, {"rest": {...}, "mcp": {...}, "errors": {...}, "slugify": {...}}.
import http from 'node:http';
import { Mastra } from '@mastra/core/mastra';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createWorkflow, createStep } from '@mastra/core/workflows';
import { MCPServer } from '@mastra/mcp';
import { createNodeServer } from '@mastra/deployer/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { makeScriptedModel } from './lib/mock-model.mjs';

const logs = [];
const logger = {
  debug: () => {}, info: () => {}, trackException: () => {},
  warn: (msg, data) => logs.push({ level: 'warn', msg, data }),
  error: (msg, data) => logs.push({ level: 'error', msg: String(msg) }),
  child() { return this; }, getTransports() { return new Map(); }, listLogs: async () => ({ logs: [] }),
  listLogsByRunId: async () => ({ logs: [] }),
};

// The tool under a record key that differs from its id: the key is the MCP name.
const addTool = createTool({
  id: 'add',
  description: 'Add two integers',
  inputSchema: z.object({ a: z.number().int(), b: z.number().int() }),
  outputSchema: z.object({ sum: z.number().int() }),
  execute: async (input) => ({ sum: input.a + input.b }),
});
const echoText = createTool({
  id: 'echo-text',
  description: 'Echoes the text back',
  inputSchema: z.object({ text: z.string() }),
  execute: async (input) => input.text,
});
const echoObject = createTool({
  id: 'echo-object',
  description: 'Echoes an object back',
  inputSchema: z.object({ text: z.string(), count: z.number().optional() }),
  execute: async (input) => ({ echoed: input.text, count: input.count ?? 0 }),
});
const failTool = createTool({
  id: 'fail',
  description: 'Always fails',
  inputSchema: z.object({}),
  execute: async () => {
    throw new Error('boom');
  },
});
const clientOnly = createTool({
  id: 'client-only',
  description: 'Runs in the client',
  inputSchema: z.object({ q: z.string() }),
});
const annotated = createTool({
  id: 'annotated',
  description: 'Has MCP annotations and meta',
  inputSchema: z.object({ id: z.string().describe('The id') }),
  strict: true,
  mcp: {
    annotations: { title: 'Annotated tool', readOnlyHint: true, openWorldHint: false },
    _meta: { 'example.com/owner': 'team-a' },
  },
  execute: async (input) => ({ id: input.id }),
});
const noSchema = createTool({
  id: 'no-schema',
  description: 'Takes anything',
  execute: async (input) => ({ got: input ?? null }),
});
const confirmTool = createTool({
  id: 'confirm',
  description: 'Asks a person before acting',
  inputSchema: z.object({ action: z.string() }),
  suspendSchema: z.object({ message: z.string() }),
  resumeSchema: z.object({ approved: z.boolean().describe('Whether to go ahead') }),
  execute: async (input, ctx) => {
    if (!ctx.resumeData) {
      await ctx.suspend({ message: `Approve ${input.action}?` });
      return undefined;
    }
    return { action: input.action, approved: ctx.resumeData.approved, asked: ctx.suspendPayload?.message ?? null };
  },
});
// Clashes with the agent "calc" (ask_calc): the earlier entry, this tool, wins.
const clash = createTool({
  id: 'clash',
  description: 'Takes the name ask_calc first',
  inputSchema: z.object({}),
  execute: async () => 'tool wins',
});

const calcAgent = new Agent({
  id: 'calc-agent',
  name: 'Calc Agent',
  description: 'Answers arithmetic questions.',
  instructions: 'You answer arithmetic questions.',
  model: makeScriptedModel({ toolSteps: 0, finalText: 'The sum is 5.' }),
});
const helperAgent = new Agent({
  id: 'helper-agent',
  name: 'Helper',
  description: 'Helps with anything.',
  instructions: 'You help.',
  model: makeScriptedModel({ toolSteps: 0, finalText: 'Happy to help.' }),
});

const doubleStep = createStep({
  id: 'double-step',
  inputSchema: z.object({ n: z.number() }),
  outputSchema: z.object({ doubled: z.number() }),
  execute: async ({ inputData }) => ({ doubled: inputData.n * 2 }),
});
const doubleWorkflow = createWorkflow({
  id: 'double-workflow',
  description: 'Doubles a number',
  inputSchema: z.object({ n: z.number() }),
  outputSchema: z.object({ doubled: z.number() }),
})
  .then(doubleStep)
  .commit();

const approvalStep = createStep({
  id: 'approval-step',
  inputSchema: z.object({ item: z.string() }),
  outputSchema: z.object({ item: z.string(), approved: z.boolean() }),
  suspendSchema: z.object({ item: z.string() }),
  resumeSchema: z.object({ approved: z.boolean() }),
  execute: async ({ inputData, resumeData, suspend }) => {
    if (!resumeData) return await suspend({ item: inputData.item });
    return { item: inputData.item, approved: resumeData.approved };
  },
});
const approvalWorkflow = createWorkflow({
  id: 'approval-workflow',
  description: 'Waits for a person',
  inputSchema: z.object({ item: z.string() }),
  outputSchema: z.object({ item: z.string(), approved: z.boolean() }),
})
  .then(approvalStep)
  .commit();

const server = new MCPServer({
  id: 'my-server',
  name: 'My Server',
  version: '1.2.3',
  description: 'Tools, agents and workflows over MCP',
  releaseDate: '2026-01-02T03:04:05.000Z',
  tools: {
    adder: addTool,
    echoText,
    echoObject,
    fail: failTool,
    clientOnly,
    annotated,
    noSchema,
    confirm: confirmTool,
    ask_calc: clash,
  },
  agents: { calc: calcAgent, helper: helperAgent },
  workflows: { double: doubleWorkflow, approval: approvalWorkflow },
  requestState: { key: new Uint8Array(32).fill(7) },
});
server.__setLogger?.(logger);

const port = await freePort();
const mastra = new Mastra({
  mcpServers: { myServer: server },
  logger: false,
  server: { host: '127.0.0.1', port, build: { openAPIDocs: false, swaggerUI: false, apiReqLogs: false } },
});

const nodeServer = await createNodeServer(mastra, { isDev: false, studio: false });
const base = `http://127.0.0.1:${port}/api`;

async function rest(method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, body: json ?? text };
}

const out = { rest: {}, mcp: {}, errors: {}, slugify: {}, logs };
out.rest.listServers = await rest('GET', '/mcp/v0/servers');
out.rest.listServersPaged = await rest('GET', '/mcp/v0/servers?perPage=1&page=0');
out.rest.getServer = await rest('GET', '/mcp/v0/servers/my-server');
out.rest.getServerWrongVersion = await rest('GET', '/mcp/v0/servers/my-server?version=9.9.9');
out.rest.getServerMissing = await rest('GET', '/mcp/v0/servers/nope');
out.rest.listTools = await rest('GET', '/mcp/my-server/tools');
out.rest.listToolsMissing = await rest('GET', '/mcp/nope/tools');
out.rest.getTool = await rest('GET', '/mcp/my-server/tools/adder');
out.rest.getToolMissing = await rest('GET', '/mcp/my-server/tools/nope');
out.rest.executeTool = await rest('POST', '/mcp/my-server/tools/adder/execute', { data: { a: 2, b: 3 } });
out.rest.executeToolText = await rest('POST', '/mcp/my-server/tools/echoText/execute', { data: { text: 'hi' } });
out.rest.executeToolInvalid = await rest('POST', '/mcp/my-server/tools/adder/execute', { data: { a: 'x' } });
out.rest.executeToolThrows = await rest('POST', '/mcp/my-server/tools/fail/execute', { data: {} });
out.rest.executeToolMissing = await rest('POST', '/mcp/my-server/tools/nope/execute', { data: {} });
out.rest.executeToolSuspends = await rest('POST', '/mcp/my-server/tools/confirm/execute', { data: { action: 'deploy' } });
out.rest.executeToolResumes = await rest('POST', '/mcp/my-server/tools/confirm/execute', {
  data: { action: 'deploy' },
  resumeData: { approved: true },
  suspendPayload: { message: 'Approve deploy?' },
});
out.rest.executeWorkflow = await rest('POST', '/mcp/my-server/tools/run_double/execute', { data: { n: 21 } });
out.rest.executeToolBadBody = await rest('POST', '/mcp/my-server/tools/adder/execute', { data: {}, extra: 1 });

// The MCP protocol over streamable HTTP, every JSON-RPC exchange recorded raw.
const exchanges = [];
const recordingFetch = async (url, init) => {
  const res = await fetch(url, init);
  const text = await res.clone().text();
  exchanges.push({
    method: init?.method ?? 'GET',
    request: init?.body ? JSON.parse(init.body) : null,
    status: res.status,
    contentType: res.headers.get('content-type'),
    response: parseBody(text),
  });
  return res;
};
const answers = { accept: { action: 'accept', content: { approved: true } } };
let elicitAnswer = answers.accept;
const client = new Client(
  { name: 'capture', version: '1.0.0' },
  {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  },
);
client.setRequestHandler?.('elicitation/create', async (req) => {
  out.mcp.elicitRequest = req.params;
  return elicitAnswer;
});
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/my-server/mcp`), { fetch: recordingFetch }));
out.mcp.listTools = await client.listTools();
const call = async (name, args) => {
  try {
    return await client.callTool({ name, arguments: args });
  } catch (e) {
    return { thrown: { name: e.name, code: e.code, message: e.message } };
  }
};
out.mcp.callAdder = await call('adder', { a: 2, b: 3 });
out.mcp.callEchoText = await call('echoText', { text: 'hi' });
out.mcp.callEchoObject = await call('echoObject', { text: 'hi', count: 2 });
out.mcp.callInvalid = await call('adder', { a: 'x' });
out.mcp.callFail = await call('fail', {});
out.mcp.callUnknown = await call('nope', {});
out.mcp.callClientOnly = await call('clientOnly', { q: 'x' });
out.mcp.callAnnotated = await call('annotated', { id: 'x1' });
out.mcp.callNoSchema = await call('noSchema', { anything: [1, 2] });
out.mcp.callClash = await call('ask_calc', {});
out.mcp.callAgent = await call('ask_helper', { message: 'Hello?' });
out.mcp.callAgentBad = await call('ask_helper', { message: 3 });
out.mcp.callAgentMissing = await call('ask_helper', {});
out.mcp.callAgentExtra = await call('ask_helper', { message: 'x', extra: 1 });
out.mcp.callAgentTwoErrors = await call('ask_helper', { message: 3, extra: 1 });
out.mcp.callWorkflow = await call('run_double', { n: 21 });
out.mcp.callWorkflowInvalid = await call('run_double', { n: 'x' });
out.mcp.callWorkflowSuspends = await call('run_approval', { item: 'laptop' });
try {
  out.mcp.callNoArgs = await client.callTool({ name: 'noSchema' });
} catch (e) {
  out.mcp.callNoArgs = { thrown: { name: e.name, code: e.code, message: e.message } };
}
out.mcp.callConfirmAccept = await call('confirm', { action: 'deploy' });
elicitAnswer = { action: 'accept', content: { approved: 'yes' } };
out.mcp.callConfirmBadResume = await call('confirm', { action: 'deploy' });
elicitAnswer = { action: 'decline' };
out.mcp.callConfirmDecline = await call('confirm', { action: 'deploy' });
elicitAnswer = { action: 'cancel' };
out.mcp.callConfirmCancel = await call('confirm', { action: 'deploy' });
await client.close();
out.mcp.exchanges = exchanges;

// A legacy (2025-11-25) opening, as an older client sends it.
const legacy = await fetch(`${base}/mcp/my-server/mcp`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } } }),
});
out.mcp.legacyInitialize = { status: legacy.status, contentType: legacy.headers.get('content-type'), body: parseBody(await legacy.text()) };

// Construction errors.
const tryNew = (cfg) => {
  try {
    new MCPServer({ name: 'x', version: '1.0.0', tools: {}, ...cfg });
    return null;
  } catch (e) {
    return { message: e.message, id: e.id, domain: e.domain, category: e.category };
  }
};
out.errors.agentWithoutDescription = tryNew({ agents: { bare: new Agent({ id: 'bare', name: 'Bare', instructions: 'x', model: makeScriptedModel() }) } });
out.errors.workflowWithoutDescription = tryNew({ workflows: { bare: createWorkflow({ id: 'bare-wf', inputSchema: z.object({}), outputSchema: z.object({}) }).then(doubleStep).commit() } });
out.errors.nestedResumeSchema = tryNew({
  tools: {
    nested: createTool({ id: 'nested', description: 'x', inputSchema: z.object({}), resumeSchema: z.object({ a: z.object({ b: z.string() }) }), execute: async () => 1 }),
  },
});

for (const s of ['My Server', 'myServer', 'my_server', 'APIServer2', 'Café Tools', 'a--b', '  spaced  out ', 'HTTPServer', "Bob's tools", 'x&y',
  'Fußgängerübergänge', 'ÄÖÜ äöü', 'Ærø Œuvre', 'Đorđe Łódź', 'smörgåsbord', 'Crème brûlée', 'ÿ Ÿ', "it's fine", "don't stop", 'XMLHttpRequest', 'v2Server', 'ABC123def', 'I ♥ MCP']) {
  out.slugify[s] = new MCPServer({ id: s, name: 'x', version: '1', tools: {} }).id;
}

process.stdout.write(JSON.stringify(out, null, 2) + '\n');
await server.close();
nodeServer.close?.();
process.exit(0);

function parseBody(text) {
  if (!text) return null;
  try { return JSON.parse(text); } catch {}
  // SSE: collect the data lines as JSON.
  const events = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('data:')) {
      const d = line.slice(5).trim();
      try { events.push(JSON.parse(d)); } catch { events.push(d); }
    }
  }
  return events.length ? { sse: events } : text;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = http.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}
