// Captures Mastra's structuredOutput behaviour (@mastra/core 1.71) with
// scripted mock models: the chunk sequences, the prompts and response
// formats each model call received, and generate()'s FullOutput, one JSON
// file per scenario. agent/structured_test.go's expectations come from them.
//
// Run it from a scratch copy of the anchor (see
// /work/shared/anchor-mastra/README.md; nothing touches the network), so
// that its node_modules resolve the imports:
//
//   d=$(mktemp -d) && cp -r /work/shared/anchor-mastra "$d" && chmod -R u+w "$d" \
//     && cd "$d/anchor-mastra" && ./setup.sh && source ./env.sh \
//     && cp /work/main/agent/testdata/mastra/capture-structured.mjs . \
//     && MASTRA_TELEMETRY_DISABLED=1 OUT=/tmp/structured node capture-structured.mjs
import fs from 'node:fs';
import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV3 } from 'ai/test';
import { addTool } from './lib/tools.mjs';

const OUT = process.env.OUT || '/tmp/structured';
fs.mkdirSync(OUT, { recursive: true });

const usage = (i, o) => ({
  inputTokens: { total: i, noCache: i, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: o, text: o, reasoning: undefined },
});
const countToolResults = (prompt) =>
  prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content).filter((p) => p.type === 'tool-result').length;

// toolSteps tool calls then finalText. preambleText: text emitted in the tool-call step too.
function makeModel({ modelId, toolSteps = 1, finalText, preambleText, calls }) {
  function plan(prompt) {
    const done = countToolResults(prompt);
    if (done < toolSteps) return { kind: 'tool', id: `call-${done + 1}`, input: JSON.stringify({ a: 2, b: 3 }) };
    return { kind: 'text', text: finalText };
  }
  const record = (method, opts) =>
    calls.push({
      model: modelId,
      method,
      responseFormat: opts.responseFormat,
      tools: opts.tools?.map((t) => t.name),
      toolChoice: opts.toolChoice,
      providerOptions: opts.providerOptions,
      prompt: opts.prompt,
    });
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId,
    doGenerate: async (opts) => {
      record('doGenerate', opts);
      const p = plan(opts.prompt);
      const content = [];
      if (p.kind === 'tool') {
        if (preambleText) content.push({ type: 'text', text: preambleText });
        content.push({ type: 'tool-call', toolCallId: p.id, toolName: 'add', input: p.input });
      } else content.push({ type: 'text', text: p.text });
      return {
        content,
        finishReason: { unified: p.kind === 'tool' ? 'tool-calls' : 'stop', raw: undefined },
        usage: usage(10, 5),
        warnings: [],
      };
    },
    doStream: async (opts) => {
      record('doStream', opts);
      const p = plan(opts.prompt);
      const chunks = [{ type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: 'resp-' + modelId, modelId, timestamp: new Date(0) }];
      const pushText = (text, id) => {
        chunks.push({ type: 'text-start', id });
        for (const w of text.split(/(?<= )/)) chunks.push({ type: 'text-delta', id, delta: w });
        chunks.push({ type: 'text-end', id });
      };
      if (p.kind === 'tool') {
        if (preambleText) pushText(preambleText, 't0');
        chunks.push(
          { type: 'tool-input-start', id: p.id, toolName: 'add' },
          { type: 'tool-input-delta', id: p.id, delta: p.input },
          { type: 'tool-input-end', id: p.id },
          { type: 'tool-call', toolCallId: p.id, toolName: 'add', input: p.input },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: usage(10, 5) },
        );
      } else {
        pushText(p.text, 't1');
        chunks.push({ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: usage(10, 5) });
      }
      return { stream: new ReadableStream({ start(c) { for (const ch of chunks) c.enqueue(ch); c.close(); } }) };
    },
  });
}

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, temp: { type: 'number' } },
  required: ['city', 'temp'],
};

// Strip bulky fields from chunks for readability (keep everything but trim request bodies / messages).
function slim(chunk) {
  return JSON.parse(JSON.stringify(chunk, (k, v) => {
    if (k === 'request' || k === 'messages' || k === 'uiMessages' || k === 'dbMessages') return v && '[omitted]';
    if (v instanceof Error) return { name: v.name, message: v.message, id: v.id };
    return v;
  }));
}
function errInfo(e) {
  if (!e) return e;
  return { name: e?.name, message: e?.message, id: e?.id, domain: e?.domain, category: e?.category, details: e?.details, cause: e?.cause?.message };
}

async function runScenario(name, { main, structuring, structuredOutput, methods = ['stream', 'generate'], extra = {}, useZod = false }) {
  const result = { name, structuredOutput: { ...structuredOutput, model: structuredOutput.model ? '[structuring mock]' : undefined } };
  for (const method of methods) {
    const calls = [];
    const mainModel = makeModel({ modelId: 'main-mock', calls, ...main });
    const so = { schema: useZod ? zodSchema : schema, ...structuredOutput };
    if (structuring) so.model = makeModel({ modelId: 'structurer-mock', toolSteps: 0, calls, ...structuring });
    const agent = new Agent({
      id: 'weather-agent', name: 'weather-agent',
      instructions: 'You are a weather agent.',
      model: mainModel, tools: { add: addTool },
    });
    const r = { calls };
    const origWarn = console.warn, origErr = console.error;
    const logs = [];
    console.warn = (...a) => logs.push(['warn', a.map(String).join(' ')]);
    console.error = (...a) => logs.push(['error', a.map(String).join(' ')]);
    try {
      if (method === 'stream') {
        const s = await agent.stream('Weather in Paris?', { structuredOutput: so, ...extra });
        const chunks = [];
        for await (const c of s.fullStream) chunks.push(slim(c));
        r.chunkTypes = chunks.map((c) => c.type + (c.metadata?.from ? `(${c.metadata.from})` : ''));
        r.chunks = chunks;
        try { r.full = await s.getFullOutput(); } catch (e) { r.getFullOutputThrew = errInfo(e); }
        try { r.awaitObject = await s.object; } catch (e) { r.awaitObjectThrew = errInfo(e); }
        r.usedFallbackValueGetter = s.usedFallbackValue;
      } else {
        try { r.full = await agent.generate('Weather in Paris?', { structuredOutput: so, ...extra }); }
        catch (e) { r.generateThrew = errInfo(e); }
      }
    } catch (e) { r.threw = errInfo(e); }
    console.warn = origWarn; console.error = origErr;
    r.consoleLogs = logs;
    if (r.full) {
      const f = r.full;
      r.full = {
        text: f.text, object: f.object, usedFallbackValue: f.usedFallbackValue, finishReason: f.finishReason,
        error: errInfo(f.error), tripwire: f.tripwire, stepsText: f.steps?.map((s) => s.text), stepsFinish: f.steps?.map((s) => s.finishReason),
        assistantMetadata: f.response?.dbMessages ? undefined : undefined,
      };
    }
    result[method] = r;
  }
  fs.writeFileSync(`${OUT}/${name}.json`, JSON.stringify(result, null, 2));
  const s = result.stream, g = result.generate;
  console.log(`== ${name}`);
  if (s) console.log('  stream chunks:', s.chunkTypes?.join(' '), '\n  stream full:', JSON.stringify(s.full), s.getFullOutputThrew ? 'getFullOutputThrew ' + JSON.stringify(s.getFullOutputThrew) : '', s.awaitObjectThrew ? 'objThrew ' + s.awaitObjectThrew.message : '', 'logs:', JSON.stringify(s.consoleLogs));
  if (g) console.log('  generate:', JSON.stringify(g.full ?? g.generateThrew), 'logs:', JSON.stringify(g.consoleLogs));
}

import { z } from 'zod';
const zodSchema = z.object({ city: z.string(), temp: z.number() });
const GOOD = '{"city": "Paris", "temp": 21}';
const only = process.argv[2];
const scenarios = {
  'a-direct-valid': { main: { finalText: GOOD }, structuredOutput: {} },
  'a2-direct-fenced': { main: { finalText: 'Here you go:\n```json\n' + GOOD + '\n```' }, structuredOutput: {} },
  'a3-direct-preamble-in-tool-step': { main: { finalText: GOOD, preambleText: 'Let me check the tool.' }, structuredOutput: {} },
  'a4-direct-jsonPromptInjection-true': { main: { finalText: GOOD }, structuredOutput: { jsonPromptInjection: true } },
  'a5-direct-jsonPromptInjection-inline': { main: { finalText: GOOD }, structuredOutput: { jsonPromptInjection: 'inline' } },
  'a6-direct-jsonPromptInjection-true-instructions': { main: { finalText: GOOD }, structuredOutput: { jsonPromptInjection: true, instructions: 'Return {city, temp} JSON.' } },
  'b-invalidjson-strict': { main: { finalText: 'Sorry, no JSON here.' }, structuredOutput: {} },
  'b-invalidjson-strict-explicit': { main: { finalText: 'Sorry, no JSON here.' }, structuredOutput: { errorStrategy: 'strict' } },
  'b-invalidjson-warn': { main: { finalText: 'Sorry, no JSON here.' }, structuredOutput: { errorStrategy: 'warn' } },
  'b-invalidjson-fallback': { main: { finalText: 'Sorry, no JSON here.' }, structuredOutput: { errorStrategy: 'fallback', fallbackValue: { city: 'unknown', temp: 0 } } },
  'b-missingtemp-strict': { main: { finalText: '{"city": "Paris"}' }, structuredOutput: {} },
  'b-missingtemp-warn': { main: { finalText: '{"city": "Paris"}' }, structuredOutput: { errorStrategy: 'warn' } },
  'b-missingtemp-fallback': { main: { finalText: '{"city": "Paris"}' }, structuredOutput: { errorStrategy: 'fallback', fallbackValue: { city: 'unknown', temp: 0 } } },
  'c-model-valid': { main: { finalText: 'It is 21 degrees in Paris.' }, structuring: { finalText: GOOD }, structuredOutput: {} },
  'c-model-missingtemp-strict': { main: { finalText: 'It is warm in Paris.' }, structuring: { finalText: '{"city": "Paris"}' }, structuredOutput: {} },
  'c-model-missingtemp-warn': { main: { finalText: 'It is warm in Paris.' }, structuring: { finalText: '{"city": "Paris"}' }, structuredOutput: { errorStrategy: 'warn' } },
  'c-model-missingtemp-fallback': { main: { finalText: 'It is warm in Paris.' }, structuring: { finalText: '{"city": "Paris"}' }, structuredOutput: { errorStrategy: 'fallback', fallbackValue: { city: 'unknown', temp: 0 } } },
  'd-zod-missingtemp-strict': { main: { finalText: '{"city": "Paris"}' }, structuredOutput: {}, useZod: true },
  'd-zod-invalidjson-strict': { main: { finalText: 'Sorry, no JSON here.' }, structuredOutput: {}, useZod: true },
  'd-preamble-warn': { main: { finalText: GOOD, preambleText: 'Let me check the tool.' }, structuredOutput: { errorStrategy: 'warn' } },
  'd-preamble-fallback': { main: { finalText: GOOD, preambleText: 'Let me check the tool.' }, structuredOutput: { errorStrategy: 'fallback', fallbackValue: { city: 'unknown', temp: 0 } } },
  'd-model-strict-maxProcessorRetries1': { main: { finalText: 'It is warm in Paris.' }, structuring: { finalText: '{"city": "Paris"}' }, structuredOutput: {}, extra: { maxProcessorRetries: 1 } },
  'd-model-useAgent-nothread': { main: { finalText: 'It is 21 degrees in Paris.' }, structuring: { finalText: GOOD }, structuredOutput: { useAgent: true }, methods: ['stream'] },
  'c-model-custom-instructions': { main: { finalText: 'It is 21 degrees in Paris.' }, structuring: { finalText: GOOD }, structuredOutput: { instructions: 'CUSTOM STRUCTURER INSTRUCTIONS' }, methods: ['stream'] },
};
for (const [n, s] of Object.entries(scenarios)) {
  if (only && !n.startsWith(only)) continue;
  await runScenario(n, s);
}
