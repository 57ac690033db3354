// Drives the Go server's resumable agent runs with Mastra's own client
// (@mastra/client-js, pinned in package.json): agent.observe({runId,
// offset}) and agent.abortThread(...). Prints one JSON document:
//
//   {"steps":[{"name", "ok", "error"?, "value"}...]}
//
// Usage: node observe.mjs <baseURL>
//
// baseURL serves calc-agent (one add call, then "The sum is 5.") and
// slow-agent (the same, whose tool runs until its run is aborted); see
// observe_test.go. Every step runs, even after another failed; the script
// exits 0 once it has printed its report, 2 on bad usage.
import { MastraClient } from '@mastra/client-js';
import assert from 'node:assert/strict';

const [baseURL] = process.argv.slice(2);
if (!baseURL) {
  process.stderr.write('usage: node observe.mjs <baseURL>\n');
  process.exit(2);
}

const STEP_TIMEOUT_MS = Number(process.env.COMPAT_STEP_TIMEOUT_MS || 30000);
const client = new MastraClient({ baseUrl: baseURL, retries: 0 });
const steps = [];

async function step(name, fn) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
  });
  const observed = {};
  try {
    await Promise.race([fn(observed), timeout]);
    steps.push({ name, ok: true, value: observed });
  } catch (err) {
    steps.push({ name, ok: false, error: String(err?.stack || err), value: observed });
  } finally {
    clearTimeout(timer);
  }
}

async function collect(response) {
  const chunks = [];
  await response.processDataStream({ onChunk: async (chunk) => { chunks.push(chunk); } });
  return chunks;
}

// label is an observe event's type, or its chunk's for "chunk" events.
const label = (e) => (e.type === 'chunk' ? e.data?.type : e.type);

const RUN = [
  'start', 'step-start', 'tool-call-input-streaming-start', 'tool-call-delta', 'tool-call-input-streaming-end',
  'tool-call', 'tool-result', 'step-finish', 'iteration-complete', 'step-start', 'text-start', 'text-delta',
  'text-delta', 'text-delta', 'text-delta', 'text-end', 'step-finish', 'iteration-complete', 'finish',
];

const calc = client.getAgent('calc-agent');
const slow = client.getAgent('slow-agent');

await step('observe.replay', async (o) => {
  const streamed = await collect(await calc.stream('What is 2+3?', {
    runId: 'obs-1', memory: { thread: 'thread-obs', resource: 'user-1' },
  }));
  assert.equal(streamed.at(-1).type, 'finish');
  o.events = await collect(await calc.observe({ runId: 'obs-1' }));
  assert.deepEqual(o.events.map(label), RUN);
  o.events.forEach((e, i) => {
    assert.equal(e.index, i, 'contiguous indexes');
    assert.equal(e.runId, 'obs-1');
    assert.deepEqual(Object.keys(e), ['type', 'runId', 'data', 'id', 'createdAt', 'index']);
  });
  assert.equal(o.events.at(-1).data.stepResult.reason, 'stop');
  assert.equal(o.events[8].data.iteration, 1);
});

await step('observe.offset', async (o) => {
  o.events = await collect(await calc.observe({ runId: 'obs-1', offset: 10 }));
  assert.deepEqual(o.events.map((e) => e.index), [10, 11, 12, 13, 14, 15, 16, 17, 18]);
  o.atEnd = await collect(await calc.observe({ runId: 'obs-1', offset: 19 }));
  assert.deepEqual(o.atEnd, [], 'an offset at the end of an ended run ends at once');
});

await step('observe.errors', async (o) => {
  await assert.rejects(calc.observe({ runId: 'no-such-run' }), (err) => { o.unknown = err.message; return true; });
  assert.match(o.unknown, /404/);
  await assert.rejects(calc.observe({ runId: 'obs-1', offset: 99 }), (err) => { o.past = err.message; return true; });
  assert.match(o.past, /400/);
  assert.match(o.past, /has 19 events/);
});

await step('abortThread', async (o) => {
  const response = await slow.stream('add slowly', {
    runId: 'abort-1', memory: { thread: 'thread-abort', resource: 'user-1' },
  });
  let toolStarted;
  const started = new Promise((resolve) => { toolStarted = resolve; });
  const chunks = [];
  const done = response.processDataStream({
    onChunk: async (chunk) => { chunks.push(chunk); if (chunk.type === 'tool-call') toolStarted(); },
  });
  await started;
  // The live observer joins mid-run.
  const live = slow.observe({ runId: 'abort-1' }).then(collect);
  o.other = await slow.abortThread({ threadId: 'thread-abort', resourceId: 'user-1', expectedRunId: 'other-run' });
  o.idle = await slow.abortThread({ threadId: 'thread-idle', resourceId: 'user-1' });
  o.own = await slow.abortThread({ threadId: 'thread-abort', resourceId: 'user-1', expectedRunId: 'abort-1' });
  assert.deepEqual(o.other, { aborted: false });
  assert.deepEqual(o.idle, { aborted: false });
  assert.deepEqual(o.own, { aborted: true });
  await done;
  o.streamTail = chunks.slice(-3).map((c) => c.type);
  assert.deepEqual(o.streamTail, ['tool-result', 'step-finish', 'finish']);
  assert.equal(chunks.at(-1).payload.stepResult.reason, 'abort');
  const observed = await live;
  o.liveTail = observed.slice(-2).map(label);
  assert.deepEqual(o.liveTail, ['step-finish', 'finish']);
  assert.equal(observed.at(-1).data.stepResult.reason, 'abort');
  assert.equal(observed.at(-1).deliveryAttempt, 1, 'a live event carries deliveryAttempt');
});

process.stdout.write(JSON.stringify({ steps }) + '\n', () => process.exit(0));
