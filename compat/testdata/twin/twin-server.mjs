// The compatibility gate's test apps, in TypeScript-Mastra form: the twins of
// compat/app_test.go, used only to record what real Mastra answers
// (testdata/mastra-client.json). Run from a scratch copy of
// shared/anchor-mastra (see testdata/README.md):
//   node server/twin-server.mjs anchor 4500   # calc-agent + add + double-wf, approve-wf
//   node server/twin-server.mjs flows 4501    # approval, suspension and client-tool agents
// Binds 127.0.0.1 only; the models are the anchor's scripted mock.
import { Mastra } from '@mastra/core/mastra';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createWorkflow, createStep } from '@mastra/core/workflows';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { createNodeServer } from '@mastra/deployer/server';
import { z } from 'zod';
import { addTool } from '../lib/tools.mjs';
import { makeScriptedModel } from '../lib/mock-model.mjs';

const [which, portArg] = process.argv.slice(2);
const port = Number(portArg || 4500);
const model = (toolName) =>
  makeScriptedModel({ toolSteps: 1, toolName, argsFor: () => ({ a: 2, b: 3 }), finalText: 'The sum is 5.' });

function anchorApp() {
  const calcAgent = new Agent({
    id: 'calc-agent', name: 'calc-agent',
    description: 'Adds numbers with the add tool (mock model).',
    instructions: 'You add numbers using the add tool.',
    model: model('add'),
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
  return { agents: { calcAgent }, tools: { add: addTool }, workflows: { doubleWf, approveWf } };
}

function flowsApp() {
  const pair = z.object({ a: z.number().int(), b: z.number().int() });
  const sum = z.object({ sum: z.number().int() });
  const guardedAdd = createTool({
    id: 'guarded-add',
    description: 'Add two integers once a person approves',
    inputSchema: pair, outputSchema: sum,
    requireApproval: true,
    execute: async (input) => ({ sum: input.a + input.b }),
  });
  const confirmAdd = createTool({
    id: 'confirm-add',
    description: 'Add two integers after asking the user to confirm',
    inputSchema: pair, outputSchema: sum,
    suspendSchema: z.object({ question: z.string() }),
    resumeSchema: z.object({ confirmed: z.boolean() }),
    execute: async (input, ctx) => {
      const resumeData = ctx?.agent?.resumeData;
      if (!resumeData) return await ctx.agent.suspend({ question: `Add ${input.a} and ${input.b}?` });
      return { sum: resumeData.confirmed ? input.a + input.b : 0 };
    },
  });
  const agent = (id, description, toolName, tools) =>
    new Agent({ id, name: id, description, instructions: 'You add numbers.', model: model(toolName), tools });
  return {
    agents: {
      approvalAgent: agent('approval-agent', 'Adds with a tool that needs approval.', 'guarded-add', { 'guarded-add': guardedAdd }),
      suspendAgent: agent('suspend-agent', 'Adds with a tool that asks for confirmation.', 'confirm-add', { 'confirm-add': confirmAdd }),
      browserAgent: agent('browser-agent', 'Adds with the caller\'s own browserAdd tool.', 'browserAdd', {}),
    },
  };
}

// memoryApp: memory-agent keeps threads (Mastra's Memory, its defaults, on
// the server's storage); plain-agent keeps none; om-agent keeps threads and
// observational memory (its defaults; the scripted model observes).
function memoryApp() {
  const agent = (id, description, memory) => new Agent({
    id, name: id, description, instructions: 'You add numbers using the add tool.',
    model: model('add'), tools: { add: addTool }, ...(memory ? { memory } : {}),
  });
  return {
    agents: {
      memoryAgent: agent('memory-agent', 'Adds numbers and remembers the conversation.', new Memory()),
      plainAgent: agent('plain-agent', 'Adds numbers and keeps no memory.'),
      omAgent: agent('om-agent', 'Adds numbers and keeps observational memory.',
        new Memory({ options: { observationalMemory: { model: model('add') } } })),
    },
  };
}

const apps = { anchor: anchorApp, flows: flowsApp, memory: memoryApp };
const app = (apps[which] ?? anchorApp)();
export const mastra = new Mastra({
  ...app,
  storage: new InMemoryStore(),
  server: { host: '127.0.0.1', port, build: { openAPIDocs: false, swaggerUI: false, apiReqLogs: false } },
});
await createNodeServer(mastra, { tools: app.tools ?? {}, isDev: false, studio: false });
console.log(JSON.stringify({ ready: true, which, url: `http://127.0.0.1:${port}` }));
