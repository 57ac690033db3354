// Drives gomastra's MCP server with the official TypeScript SDK
// (@modelcontextprotocol/sdk 1.x: protocol 2025-11-25, initialize,
// sessions, server-to-client elicitation). Usage:
//   node client-sdk.mjs --http <url>
//   node client-sdk.mjs --stdio <command> [args...]   (environment passed on)
// With --features it runs checks-features.mjs (resources, prompts,
// completions) instead of checks.mjs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { runChecks, transportArgs, report } from './checks.mjs';
import { runFeatureChecks } from './checks-features.mjs';

const t = transportArgs(process.argv);
const client = new Client({ name: 'gomastra-interop-sdk', version: '1.0.0' }, { capabilities: { elicitation: {} } });
let answer = { action: 'cancel' };
client.setRequestHandler(ElicitRequestSchema, async () => answer);
const transport = t.http
  ? new StreamableHTTPClientTransport(new URL(t.http))
  : new StdioClientTransport({ command: t.command, args: t.args, env: process.env, stderr: 'inherit' });
await client.connect(transport);
const checks = process.argv.includes('--features')
  ? await runFeatureChecks({
      client,
      onUpdated: fn => client.setNotificationHandler(ResourceUpdatedNotificationSchema, fn),
      setAnswer: a => (answer = a),
    })
  : await runChecks({
      listTools: () => client.listTools(),
      call: (name, args) => client.callTool({ name, arguments: args }),
      setAnswer: a => (answer = a),
    });
await client.close();
report('@modelcontextprotocol/sdk', checks);
