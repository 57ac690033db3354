// Scratch server for capturing what the `mastra api` CLI prints when a tool
// fails: broken-agent on the anchor's scripted model (one call to
// broken-add with {a: 2, b: 3}, then "The sum is 5."), whose tool always
// throws. Run from a scratch directory whose node_modules links to the
// anchor's; ANCHOR is the anchor install.
import { Mastra } from '@mastra/core/mastra';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createNodeServer } from '@mastra/deployer/server';
import { z } from 'zod';

const { makeScriptedModel } = await import(`${process.env.ANCHOR}/lib/mock-model.mjs`);
const port = Number(process.env.PORT || 4111);

const brokenAdd = createTool({
  id: 'broken-add',
  description: 'Add two integers (the adder is offline)',
  inputSchema: z.object({ a: z.number().int(), b: z.number().int() }),
  outputSchema: z.object({ sum: z.number().int() }),
  execute: async (input) => {
    throw new Error(`adder offline: cannot add ${input.a} and ${input.b}`);
  },
});
const brokenAgent = new Agent({
  id: 'broken-agent', name: 'broken-agent',
  description: 'Adds numbers with a tool that always fails (mock model).',
  instructions: 'You add numbers using the broken-add tool.',
  model: makeScriptedModel({ toolSteps: 1, toolName: 'broken-add', argsFor: () => ({ a: 2, b: 3 }), finalText: 'The sum is 5.' }),
  tools: { 'broken-add': brokenAdd },
});

export const mastra = new Mastra({
  agents: { brokenAgent },
  server: { host: '127.0.0.1', port, build: { openAPIDocs: false, swaggerUI: false, apiReqLogs: false } },
});
await createNodeServer(mastra, { tools: {}, isDev: false, studio: false });
console.log(JSON.stringify({ ready: true, pid: process.pid, url: `http://127.0.0.1:${port}/api` }));
