// Mastra app used for the observe/abort captures: two durable agents and one workflow, all
// driven by the anchor's scripted mock model (no network, no API key). Runs inside the anchor
// folder (see run.sh), so @mastra/* resolve from its node_modules.
import { Mastra } from '@mastra/core/mastra';
import { Agent } from '@mastra/core/agent';
import { createDurableAgent } from '@mastra/core/agent/durable';
import { createTool } from '@mastra/core/tools';
import { MockMemory } from '@mastra/core/memory';
import { InMemoryStore } from '@mastra/core/storage';
import { createWorkflow, createStep } from '@mastra/core/workflows';
import { z } from 'zod';
import { addTool } from '../lib/tools.mjs';
import { makeScriptedModel } from '../lib/mock-model.mjs';

export const SLOW_MS = Number(process.env.SLOW_MS || 1500);
export const toolLog = []; // one entry per slow-tool execution start/end, for case 5

// slow_add sleeps SLOW_MS before answering, so a run is still going while we abort/disconnect.
const slowAddTool = createTool({
  id: 'slow_add',
  description: 'Add two integers, slowly',
  inputSchema: z.object({ a: z.number().int(), b: z.number().int() }),
  outputSchema: z.object({ sum: z.number().int() }),
  execute: async (input, ctx) => {
    toolLog.push({ ev: 'start', at: Date.now(), input });
    await new Promise((r) => setTimeout(r, SLOW_MS));
    toolLog.push({ ev: 'end', at: Date.now(), aborted: !!ctx?.abortSignal?.aborted });
    return { sum: input.a + input.b };
  },
});

const storage = new InMemoryStore();
export const memory = new MockMemory({ storage });

export const durableCalc = createDurableAgent({
  agent: new Agent({
    id: 'durable-calc',
    name: 'durable-calc',
    description: 'Adds numbers with the add tool (scripted mock model), durable.',
    instructions: 'You add numbers using the add tool.',
    model: makeScriptedModel({ toolSteps: 1, argsFor: () => ({ a: 2, b: 3 }), finalText: 'The sum is 5.' }),
    tools: { add: addTool },
    memory,
  }),
});

export const durableSlow = createDurableAgent({
  agent: new Agent({
    id: 'durable-slow',
    name: 'durable-slow',
    description: 'Like durable-calc but its tool sleeps SLOW_MS.',
    instructions: 'You add numbers using the slow_add tool.',
    model: makeScriptedModel({ toolSteps: 2, toolName: 'slow_add', argsFor: (i) => ({ a: i, b: 1 }), finalText: 'Done adding.' }),
    tools: { slow_add: slowAddTool },
    memory,
  }),
});

const double = createStep({
  id: 'double',
  inputSchema: z.object({ n: z.number() }),
  outputSchema: z.object({ n: z.number() }),
  execute: async ({ inputData }) => ({ n: inputData.n * 2 }),
});
export const doubleWorkflow = createWorkflow({
  id: 'double-workflow',
  inputSchema: z.object({ n: z.number() }),
  outputSchema: z.object({ n: z.number() }),
}).then(double).commit();

export function makeMastra(port) {
  return new Mastra({
    agents: { durableCalc, durableSlow },
    workflows: { doubleWorkflow },
    storage,
    server: { host: '127.0.0.1', port, build: { openAPIDocs: false, swaggerUI: false, apiReqLogs: false } },
  });
}
