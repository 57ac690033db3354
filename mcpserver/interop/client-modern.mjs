// Drives gomastra's MCP server with the official TypeScript client of the
// 2026-07-28 protocol (@modelcontextprotocol/client 2.x, the one Mastra's
// MCPClient uses): self-contained requests, input_required results
// answered through the elicitation handler. Usage as client-sdk.mjs
// (--features included).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runChecks, transportArgs, report } from './checks.mjs';
import { runFeatureChecks } from './checks-features.mjs';

const t = transportArgs(process.argv);
const client = new Client(
  { name: 'gomastra-interop-modern', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
);
let answer = { action: 'cancel' };
client.setRequestHandler('elicitation/create', async () => answer);
const transport = t.http
  ? new StreamableHTTPClientTransport(new URL(t.http))
  : new StdioClientTransport({ command: t.command, args: t.args, env: process.env, stderr: 'inherit' });
await client.connect(transport);
const checks = process.argv.includes('--features')
  ? await runFeatureChecks({ client, setAnswer: a => (answer = a) })
  : await runChecks({
      listTools: () => client.listTools(),
      call: (name, args) => client.callTool({ name, arguments: args }),
      setAnswer: a => (answer = a),
    });
await client.close();
report('@modelcontextprotocol/client', checks);
