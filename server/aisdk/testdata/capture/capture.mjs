// Records what the real @mastra/ai-sdk (1.10.4, on @mastra/core 1.71) emits,
// as fixtures for gomastra's server/aisdk tests. Offline: every model is a
// scripted MockLanguageModelV3 and the server listens on 127.0.0.1 only.
// Needs Node >= 22.13 and the packages package.json pins:
//
//   npm install && MASTRA_TELEMETRY_DISABLED=1 node capture.mjs [outdir]
//
// outdir defaults to this script's parent directory (server/aisdk/testdata).
// It writes
//   http/<scenario>.json     a request to chatRoute and the exact response
//                            (status, headers, SSE body), plus the prompts
//                            the scripted models received;
//   convert/<scenario>.json  the Mastra chunks of one agent run (as
//                            JSON.stringify renders them) and the UI message
//                            stream parts toAISdkStream made of them.
import fs from 'node:fs';
import path from 'node:path';
import { Mastra } from '@mastra/core/mastra';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createWorkflow, createStep } from '@mastra/core/workflows';
import { createNodeServer } from '@mastra/deployer/server';
import { chatRoute, toAISdkStream } from '@mastra/ai-sdk';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

process.env.MASTRA_TELEMETRY_DISABLED = '1';
const outDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
fs.mkdirSync(path.join(outDir, 'http'), { recursive: true });
fs.mkdirSync(path.join(outDir, 'convert'), { recursive: true });
const port = Number(process.env.PORT || 4199);

// ---- scripted models ------------------------------------------------------

const usage = (i, o) => ({
  inputTokens: { total: i, noCache: i, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: o, text: o, reasoning: undefined },
});

// The prompts every model received, by model id.
const prompts = new Map();

function toolResultsIn(prompt) {
  let n = 0;
  for (const m of prompt) if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result') n++;
  return n;
}

// scripted(modelId, plan): plan(prompt) answers one call with
// {tool: {id, name, deltas}} | {error} | {text, reasoning?, sources?, files?}.
function scripted(modelId, plan) {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId,
    doStream: async ({ prompt }) => {
      if (!prompts.has(modelId)) prompts.set(modelId, []);
      prompts.get(modelId).push(prompt);
      const p = plan(prompt);
      const chunks = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: 'resp-' + modelId, modelId, timestamp: new Date(0) },
      ];
      if (p.tool) {
        const { id, name, deltas } = p.tool;
        chunks.push({ type: 'tool-input-start', id, toolName: name });
        for (const d of deltas) chunks.push({ type: 'tool-input-delta', id, delta: d });
        chunks.push(
          { type: 'tool-input-end', id },
          { type: 'tool-call', toolCallId: id, toolName: name, input: deltas.join('') },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: usage(10, 5) },
        );
      } else if (p.error) {
        chunks.push({ type: 'error', error: p.error });
      } else {
        if (p.reasoning) {
          chunks.push(
            { type: 'reasoning-start', id: 'r1' },
            { type: 'reasoning-delta', id: 'r1', delta: p.reasoning },
            { type: 'reasoning-end', id: 'r1' },
          );
        }
        for (const src of p.sources ?? []) chunks.push({ type: 'source', ...src });
        for (const f of p.files ?? []) chunks.push({ type: 'file', ...f });
        chunks.push({ type: 'text-start', id: 't1' });
        for (const w of p.text.split(/(?<= )/)) chunks.push({ type: 'text-delta', id: 't1', delta: w });
        chunks.push(
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: usage(10, 5) },
        );
      }
      return {
        stream: new ReadableStream({
          start(c) {
            for (const ch of chunks) c.enqueue(ch);
            c.close();
          },
        }),
      };
    },
  });
}

// One tool call while the prompt holds no tool result, then text.
const toolThenText = (modelId, tool, text) =>
  scripted(modelId, prompt => (toolResultsIn(prompt) < 1 ? { tool } : { text }));

// ---- tools ----------------------------------------------------------------

const weatherTool = createTool({
  id: 'weather-tool',
  description: 'Fetches weather for a location',
  inputSchema: z.object({ location: z.string() }),
  outputSchema: z.object({ location: z.string(), temperatureCelsius: z.number(), conditions: z.string() }),
  execute: async ({ location }) => ({ location, temperatureCelsius: 18, conditions: 'Sunny' }),
});

const forecastTool = createTool({
  id: 'forecast-tool',
  description: 'Fetches a forecast',
  inputSchema: z.object({ location: z.string() }),
  execute: async () => {
    throw new Error('Forecast service unavailable');
  },
});

const deleteTool = createTool({
  id: 'delete-file',
  description: 'Deletes a file',
  inputSchema: z.object({ path: z.string() }),
  outputSchema: z.object({ deleted: z.string() }),
  requireApproval: true,
  execute: async ({ path }) => ({ deleted: path }),
});

const bookingTool = createTool({
  id: 'book-trip',
  description: 'Books a trip; asks which city first',
  inputSchema: z.object({ date: z.string() }),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ booked: z.string() }),
  execute: async ({ date }, context) => {
    const resumeData = context?.agent?.resumeData;
    if (!resumeData) return await context.agent.suspend({ question: 'Which city?' });
    return { booked: `${resumeData.city} on ${date}` };
  },
});

const progressTool = createTool({
  id: 'progress-tool',
  description: 'Reports progress while it works',
  inputSchema: z.object({ job: z.string() }),
  outputSchema: z.object({ done: z.boolean() }),
  execute: async ({ job }, context) => {
    await context.writer?.custom({ type: 'data-progress', id: 'p1', data: { job, percent: 50 } });
    await context.writer?.write({ percent: 75 });
    await context.writer?.custom({ type: 'data-progress', id: 'p1', data: { job, percent: 100 } });
    return { done: true };
  },
});

const secretTool = createTool({
  id: 'secret-tool',
  description: 'Looks up an account (display hides the details)',
  inputSchema: z.object({ account: z.string() }),
  outputSchema: z.object({ balance: z.number(), owner: z.string() }),
  transform: {
    display: {
      input: ({ input }) => ({ account: '••••' + String(input?.account ?? '').slice(-2) }),
      output: ({ output }) => ({ summary: `balance ${output?.balance}` }),
    },
  },
  execute: async () => ({ balance: 42, owner: 'Ada' }),
});

const tripStep = createStep({
  id: 'plan-trip',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ plan: z.string() }),
  execute: async ({ inputData }) => ({ plan: `Visit ${inputData.city}` }),
});
const tripWorkflow = createWorkflow({
  id: 'trip-workflow',
  description: 'Plans a trip',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ plan: z.string() }),
})
  .then(tripStep)
  .commit();

// ---- agents ---------------------------------------------------------------

const weatherDeltas = ['{"loca', 'tion":"Pa', 'ris"}'];

const weatherAgent = new Agent({
  id: 'weather-agent',
  name: 'Weather Agent',
  description: 'Answers weather questions',
  instructions: 'You are a helpful weather assistant. Use the weatherTool to fetch current weather data.',
  model: toolThenText('weather-model', { id: 'call-1', name: 'weatherTool', deltas: weatherDeltas }, 'It is 18°C and sunny in Paris.'),
  tools: { weatherTool },
});

const agents = {
  textAgent: new Agent({
    id: 'text-agent',
    name: 'Text Agent',
    instructions: 'You greet people.',
    model: scripted('text-model', () => ({ text: 'Hello! How can I help you today?' })),
  }),
  reasoningAgent: new Agent({
    id: 'reasoning-agent',
    name: 'Reasoning Agent',
    instructions: 'You think first.',
    model: scripted('reasoning-model', () => ({ reasoning: 'The user says hi.', text: 'Hi there!' })),
  }),
  mediaAgent: new Agent({
    id: 'media-agent',
    name: 'Media Agent',
    instructions: 'You cite sources and draw.',
    model: scripted('media-model', () => ({
      sources: [
        { sourceType: 'url', id: 'src-1', url: 'https://example.com/paris', title: 'Paris weather' },
        { sourceType: 'document', id: 'src-2', mediaType: 'application/pdf', title: 'Report', filename: 'report.pdf' },
      ],
      files: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }],
      text: 'See the sources.',
    })),
  }),
  weatherAgent,
  forecastAgent: new Agent({
    id: 'forecast-agent',
    name: 'Forecast Agent',
    instructions: 'You forecast.',
    model: toolThenText('forecast-model', { id: 'call-1', name: 'forecastTool', deltas: weatherDeltas }, 'Sorry, the forecast is unavailable.'),
    tools: { forecastTool },
  }),
  supervisor: new Agent({
    id: 'supervisor',
    name: 'Supervisor',
    instructions: 'Delegate weather questions to the weather agent.',
    model: toolThenText('supervisor-model', { id: 'call-sup', name: 'agent-weather', deltas: ['{"prompt":"Weather in Paris?"}'] }, 'The weather agent says it is sunny.'),
    agents: { weather: weatherAgent },
  }),
  fileAgent: new Agent({
    id: 'file-agent',
    name: 'File Agent',
    instructions: 'You delete files when asked.',
    model: toolThenText('file-model', { id: 'call-del', name: 'deleteFile', deltas: ['{"path":"/tmp/a.txt"}'] }, 'Deleted /tmp/a.txt.'),
    tools: { deleteFile: deleteTool },
  }),
  travelAgent: new Agent({
    id: 'travel-agent',
    name: 'Travel Agent',
    instructions: 'You book trips.',
    model: toolThenText('travel-model', { id: 'call-book', name: 'bookTrip', deltas: ['{"date":"2026-05-01"}'] }, 'Your trip is booked.'),
    tools: { bookTrip: bookingTool },
  }),
  progressAgent: new Agent({
    id: 'progress-agent',
    name: 'Progress Agent',
    instructions: 'You run jobs.',
    model: toolThenText('progress-model', { id: 'call-job', name: 'progressTool', deltas: ['{"job":"backup"}'] }, 'The backup is done.'),
    tools: { progressTool },
  }),
  bankAgent: new Agent({
    id: 'bank-agent',
    name: 'Bank Agent',
    instructions: 'You look up accounts.',
    model: toolThenText('bank-model', { id: 'call-acct', name: 'secretTool', deltas: ['{"account":', '"DE123456"}'] }, 'Found it.'),
    tools: { secretTool },
  }),
  plannerAgent: new Agent({
    id: 'planner-agent',
    name: 'Planner Agent',
    instructions: 'You plan trips with the trip workflow.',
    model: toolThenText('planner-model', { id: 'call-wf', name: 'workflow-trip', deltas: ['{"inputData":{"city":"Paris"}}'] }, 'Here is your plan.'),
    workflows: { trip: tripWorkflow },
  }),
  objectAgent: new Agent({
    id: 'object-agent',
    name: 'Object Agent',
    instructions: 'You answer in JSON.',
    model: scripted('object-model', () => ({ text: '{"city":"Paris"}' })),
  }),
  brokenAgent: new Agent({
    id: 'broken-agent',
    name: 'Broken Agent',
    instructions: 'You fail.',
    model: scripted('broken-model', () => ({ error: { message: 'Rate limit exceeded', statusCode: 429 } })),
  }),
};

const mastra = new Mastra({
  agents,
  workflows: { tripWorkflow },
  server: {
    host: '127.0.0.1',
    port,
    apiRoutes: [
      chatRoute({ path: '/chat/:agentId' }),
      chatRoute({ path: '/chat-v6/:agentId', version: 'v6' }),
      chatRoute({ path: '/support-chat', agent: 'text-agent' }),
    ],
  },
});

// writeFixture writes obj as indented JSON whose arrays of chunks and parts
// hold one compact element per line (readable diffs, small files).
function writeFixture(file, obj) {
  const lines = ['{'];
  const keys = Object.keys(obj).filter(k => obj[k] !== undefined);
  keys.forEach((k, i) => {
    const v = obj[k];
    const comma = i < keys.length - 1 ? ',' : '';
    if (Array.isArray(v) && (k === 'chunks' || k === 'parts')) {
      lines.push(`  ${JSON.stringify(k)}: [`);
      v.forEach((e, j) => lines.push(`    ${JSON.stringify(e)}${j < v.length - 1 ? ',' : ''}`));
      lines.push(`  ]${comma}`);
    } else {
      lines.push(`  ${JSON.stringify(k)}: ${JSON.stringify(v, null, 2).replace(/\n/g, '\n  ')}${comma}`);
    }
  });
  lines.push('}');
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

const userMsg = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const chat = (messages, extra = {}) => ({ id: 'chat-1', messages, trigger: 'submit-message', ...extra });

function sseFrames(text) {
  return text
    .split('\n\n')
    .filter(f => f.startsWith('data: '))
    .map(f => f.slice(6))
    .filter(f => f !== '[DONE]')
    .map(f => JSON.parse(f));
}

// ---- converter-level recordings -------------------------------------------

async function recordConvert(name, agentId, run, options, note) {
  prompts.clear();
  const agent = mastra.getAgentById(agentId);
  const result = await run(agent);
  const chunks = [];
  for await (const c of result.fullStream) chunks.push(JSON.parse(JSON.stringify(c)));
  const parts = [];
  for await (const p of toAISdkStream(result, { from: 'agent', ...options })) parts.push(JSON.stringify(p));
  writeFixture(path.join(outDir, 'convert', name + '.json'), { note, agentId, options, chunks, parts });
  console.log('convert', name, chunks.length, 'chunks', parts.length, 'parts');
  return { chunks, parts: parts.map(p => JSON.parse(p)) };
}

const say = text => agent => agent.stream(text);

await recordConvert('text', 'text-agent', say('Hello!'), {});
await recordConvert('reasoning-hidden', 'reasoning-agent', say('Hi'), {});
await recordConvert('reasoning', 'reasoning-agent', say('Hi'), { sendReasoning: true });
await recordConvert('media', 'media-agent', say('Sources?'), { sendSources: true });
await recordConvert('media-no-sources', 'media-agent', say('Sources?'), {});
await recordConvert('tool', 'weather-agent', say('Weather in Paris?'), {});
await recordConvert('tool-v6', 'weather-agent', say('Weather in Paris?'), { version: 'v6' });
await recordConvert('tool-error', 'forecast-agent', say('Forecast?'), {});
await recordConvert('tool-error-v6', 'forecast-agent', say('Forecast?'), { version: 'v6' });
await recordConvert('sub-agent', 'supervisor', say('Weather in Paris?'), {});
await recordConvert('sub-agent-metadata', 'supervisor', say('Weather in Paris?'), { includeSubAgentMetadata: true });
await recordConvert('data-parts', 'progress-agent', say('Back up'), {});
await recordConvert('display-transform', 'bank-agent', say('Balance of DE123456?'), {});
await recordConvert('workflow-tool', 'planner-agent', say('Plan Paris'), {});
await recordConvert('model-error', 'broken-agent', say('Hello?'), {});
await recordConvert('model-error-v6', 'broken-agent', say('Hello?'), { version: 'v6' });
await recordConvert(
  'structured-output',
  'object-agent',
  agent => agent.stream('City?', { structuredOutput: { schema: z.object({ city: z.string() }) } }),
  {},
);
await recordConvert('start-hidden', 'text-agent', say('Hello!'), { sendStart: false, sendFinish: false });
await recordConvert('last-message-id', 'text-agent', say('Hello!'), { lastMessageId: 'msg-2' });

for (const v of ['v5', 'v6']) {
  const suffix = v === 'v6' ? '-v6' : '';
  const { chunks } = await recordConvert('approval' + suffix, 'file-agent', say('Delete /tmp/a.txt'), { version: v });
  const runId = chunks.find(c => c.type === 'tool-call-approval').runId;
  await recordConvert('approval-resume' + suffix, 'file-agent', agent => agent.resumeStream({ approved: true }, { runId }), { version: v });
  const again = await recordConvert('approval-decline' + suffix, 'file-agent', say('Delete /tmp/a.txt'), { version: v });
  const runId2 = again.chunks.find(c => c.type === 'tool-call-approval').runId;
  await recordConvert(
    'approval-decline-resume' + suffix,
    'file-agent',
    agent => agent.resumeStream({ approved: false, reason: 'Not that file' }, { runId: runId2 }),
    { version: v },
  );
}
{
  const { chunks } = await recordConvert('suspend', 'travel-agent', say('Book a trip on 2026-05-01'), {});
  const runId = chunks.find(c => c.type === 'tool-call-suspended').runId;
  await recordConvert('suspend-resume', 'travel-agent', agent => agent.resumeStream({ city: 'Paris' }, { runId }), {});
}

// ---- HTTP recordings --------------------------------------------------------

const server = await createNodeServer(mastra, { isDev: false, studio: false });
const base = `http://127.0.0.1:${port}`;
const KEEP_HEADERS = ['content-type', 'cache-control', 'connection', 'x-vercel-ai-ui-message-stream', 'x-accel-buffering', 'transfer-encoding'];

async function record(name, route, body, { raw, note } = {}) {
  prompts.clear();
  const res = await fetch(base + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ?? JSON.stringify(body),
  });
  const headers = {};
  for (const h of KEEP_HEADERS) if (res.headers.get(h) != null) headers[h] = res.headers.get(h);
  const response = { status: res.status, headers, body: await res.text() };
  const out = { note, request: { method: 'POST', path: route, body: raw ?? body }, response, prompts: Object.fromEntries(prompts) };
  fs.writeFileSync(path.join(outDir, 'http', name + '.json'), JSON.stringify(out, null, 2) + '\n');
  console.log('http', name, response.status, response.body.length, 'bytes');
  return response;
}

try {
  await record('text', '/chat/text-agent', chat([userMsg('msg-1', 'Hello!')]));
  await record('fixed-agent', '/support-chat', chat([userMsg('msg-1', 'Hello!')]));
  await record('tool', '/chat/weather-agent', chat([userMsg('msg-1', 'What is the weather in Paris?')]));
  await record('tool-error', '/chat/forecast-agent', chat([userMsg('msg-1', 'Forecast for Paris?')]));
  await record('sub-agent', '/chat/supervisor', chat([userMsg('msg-1', 'Weather in Paris?')]));
  await record('model-error', '/chat/broken-agent', chat([userMsg('msg-1', 'Hello?')]));

  // Approval: the run stops on data-tool-call-approval; the client resumes
  // it with resumeData and the run id.
  const ask = await record('approval', '/chat/file-agent', chat([userMsg('msg-1', 'Delete /tmp/a.txt')]));
  const approval = sseFrames(ask.body).find(f => f.type === 'data-tool-call-approval');
  await record(
    'approval-resume',
    '/chat/file-agent',
    chat([userMsg('msg-1', 'Delete /tmp/a.txt')], { runId: approval.data.runId, resumeData: { approved: true } }),
  );

  // v6: a native tool-approval-request, answered by the tool part's
  // approval-responded state in the next request.
  const ask6 = await record('approval-v6', '/chat-v6/file-agent', chat([userMsg('msg-1', 'Delete /tmp/a.txt')]));
  const req6 = sseFrames(ask6.body).find(f => f.type === 'tool-approval-request');
  const start6 = sseFrames(ask6.body).find(f => f.type === 'start');
  await record(
    'approval-v6-resume',
    '/chat-v6/file-agent',
    chat([
      userMsg('msg-1', 'Delete /tmp/a.txt'),
      {
        id: start6.messageId,
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          {
            type: 'tool-deleteFile',
            toolCallId: req6.toolCallId,
            state: 'approval-responded',
            input: { path: '/tmp/a.txt' },
            approval: { id: req6.approvalId, approved: true },
          },
        ],
      },
    ]),
  );

  // Suspension: the tool asks a question; the client answers with resumeData.
  const sus = await record('suspend', '/chat/travel-agent', chat([userMsg('msg-1', 'Book a trip on 2026-05-01')]));
  const suspended = sseFrames(sus.body).find(f => f.type === 'data-tool-call-suspended');
  await record(
    'suspend-resume',
    '/chat/travel-agent',
    chat([userMsg('msg-1', 'Book a trip on 2026-05-01')], { runId: suspended.data.runId, resumeData: { city: 'Paris' } }),
  );

  // Multi-turn: the history holds an earlier tool call (UI tool parts), a
  // failed one, a file and reasoning; the prompt the model got is recorded.
  await record(
    'multi-turn',
    '/chat/text-agent',
    chat([
      {
        id: 'msg-1',
        role: 'user',
        parts: [
          { type: 'text', text: 'What is the weather in Paris?' },
          { type: 'file', mediaType: 'image/png', filename: 'sky.png', url: 'data:image/png;base64,iVBORw0KGgo=' },
          { type: 'file', mediaType: 'text/plain', filename: 'notes.txt', url: 'data:text/plain;base64,aGVsbG8=' },
        ],
      },
      {
        id: 'msg-2',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'reasoning', text: 'I should look it up.', state: 'done' },
          {
            type: 'tool-weatherTool',
            toolCallId: 'call-1',
            state: 'output-available',
            input: { location: 'Paris' },
            output: { location: 'Paris', temperatureCelsius: 18, conditions: 'Sunny' },
          },
          {
            type: 'tool-forecastTool',
            toolCallId: 'call-2',
            state: 'output-error',
            input: { location: 'Paris' },
            errorText: 'Forecast service unavailable',
          },
          { type: 'step-start' },
          {
            type: 'dynamic-tool',
            toolName: 'lookupCity',
            toolCallId: 'call-3',
            state: 'output-available',
            input: { q: 'Paris' },
            output: 'Paris, France',
          },
          { type: 'step-start' },
          { type: 'text', text: 'It is 18°C and sunny in Paris.', state: 'done' },
          { type: 'data-weather', id: 'w1', data: { city: 'Paris' } },
        ],
      },
      userMsg('msg-3', 'Thanks! And tomorrow?'),
    ]),
  );

  // Regenerate: the last assistant message is dropped and its id reused.
  await record(
    'regenerate',
    '/chat/text-agent',
    chat([userMsg('msg-1', 'Hello!'), { id: 'msg-2', role: 'assistant', parts: [{ type: 'text', text: 'Old answer' }] }], {
      trigger: 'regenerate-message',
      messageId: 'msg-2',
    }),
  );

  // Bad input.
  await record('error-unknown-agent', '/chat/no-such-agent', chat([userMsg('msg-1', 'Hello!')]));
  await record('error-malformed-body', '/chat/text-agent', null, { raw: '{"messages": [' });
  await record('error-messages-not-array', '/chat/text-agent', { messages: 'Hello!' });
  await record('error-no-messages', '/chat/text-agent', { id: 'chat-1' });
  await record('error-empty-messages', '/chat/text-agent', chat([]));
  await record('error-resume-without-run', '/chat/text-agent', chat([userMsg('msg-1', 'Hello!')], { resumeData: { approved: true } }));
} finally {
  server.close();
}
