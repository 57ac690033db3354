// Scratch server for capturing `mastra api` CLI outputs: the anchor's server
// (calc-agent + add tool) plus one workflow that can suspend, with in-memory storage.
import { Mastra } from '@mastra/core/mastra';
import { Agent } from '@mastra/core/agent';
import { createWorkflow, createStep } from '@mastra/core/workflows';
import { InMemoryStore } from '@mastra/core/storage';
import { createNodeServer } from '@mastra/deployer/server';
import { z } from 'zod';
import { addTool } from '/tmp/tmp.hGL0kEJ7xh/anchor-mastra/lib/tools.mjs';
import { makeScriptedModel } from '/tmp/tmp.hGL0kEJ7xh/anchor-mastra/lib/mock-model.mjs';

const port = Number(process.env.PORT || 4111);

const calcAgent = new Agent({
  id: 'calc-agent', name: 'calc-agent',
  description: 'Adds numbers with the add tool (mock model).',
  instructions: 'You add numbers using the add tool.',
  model: makeScriptedModel({ toolSteps: 1, argsFor: () => ({ a: 2, b: 3 }), finalText: 'The sum is 5.' }),
  tools: { add: addTool },
});

const double = createStep({
  id: 'double',
  inputSchema: z.object({ n: z.number() }),
  outputSchema: z.object({ n: z.number() }),
  execute: async ({ inputData }) => ({ n: inputData.n * 2 }),
});
const approve = createStep({
  id: 'approve',
  inputSchema: z.object({ n: z.number() }),
  outputSchema: z.object({ n: z.number(), approved: z.boolean() }),
  resumeSchema: z.object({ approved: z.boolean() }),
  suspendSchema: z.object({ ask: z.string() }),
  execute: async ({ inputData, resumeData, suspend }) => {
    if (!resumeData) return await suspend({ ask: 'approve ' + inputData.n + '?' });
    return { n: inputData.n, approved: resumeData.approved };
  },
});
const doubleWf = createWorkflow({
  id: 'double-wf', description: 'Doubles a number',
  inputSchema: z.object({ n: z.number() }), outputSchema: z.object({ n: z.number() }),
}).then(double).commit();
const approveWf = createWorkflow({
  id: 'approve-wf', description: 'Doubles then waits for approval',
  inputSchema: z.object({ n: z.number() }), outputSchema: z.object({ n: z.number(), approved: z.boolean() }),
}).then(double).then(approve).commit();

export const mastra = new Mastra({
  agents: { calcAgent },
  tools: { add: addTool },
  workflows: { doubleWf, approveWf },
  storage: new InMemoryStore(),
  server: { host: '127.0.0.1', port, build: { openAPIDocs: false, swaggerUI: false, apiReqLogs: false } },
});
await createNodeServer(mastra, { tools: { add: addTool }, isDev: false, studio: false });
console.log(JSON.stringify({ ready: true, pid: process.pid, url: `http://127.0.0.1:${port}/api` }));
