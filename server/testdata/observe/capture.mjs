// Captures the wire traffic of Mastra's durable-agent observe/abort routes (and workflow
// observe) from a real in-process Mastra server. Usage: node capture.mjs OUTDIR (via run.sh,
// inside the loopback-only namespace). One .jsonl per case, one JSON object per exchange:
// {case, seq, method, url, reqHeaders, reqBody, status, headersAt_ms, resHeaders, resBody,
//  resChunks:[{t_ms,data}],
//  clientAbort?} -- clientAbort says when this client cut the connection itself (for streams
// that never end on their own).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createNodeServer } from '@mastra/deployer/server';
import { makeMastra, memory, toolLog, SLOW_MS } from './app.mjs';

const outDir = process.argv[2] || 'out';
fs.mkdirSync(outDir, { recursive: true });
const PORT = Number(process.env.PORT || 4199);
const CLEANUP_WAIT_MS = Number(process.env.CLEANUP_WAIT_MS || 32000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let seq = 0;

// send makes one request. abortAfterMs / abortAfterChunks make this client drop the connection.
function send(method, urlPath, body, { abortAfterMs, abortAfterChunks } = {}) {
  return new Promise((resolve) => {
    const id = ++seq;
    const reqBody = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const reqHeaders = reqBody ? { 'content-type': 'application/json' } : {};
    const t0 = Date.now();
    const rec = { seq: id, method, url: urlPath, reqHeaders, reqBody };
    const chunks = [];
    let done = false;
    const finish = (extra) => {
      if (done) return;
      done = true;
      Object.assign(rec, extra, { resBody: chunks.map((c) => c.data).join(''), resChunks: chunks });
      resolve(rec);
    };
    const req = http.request({ host: '127.0.0.1', port: PORT, method, path: urlPath, headers: reqHeaders }, (res) => {
      rec.status = res.statusCode;
      rec.headersAt_ms = Date.now() - t0;
      rec.resHeaders = res.headers;
      res.on('data', (c) => {
        chunks.push({ t_ms: Date.now() - t0, data: c.toString('utf8') });
        if (abortAfterChunks && chunks.length >= abortAfterChunks) {
          req.destroy();
          finish({ clientAbort: `after ${chunks.length} chunks (${Date.now() - t0} ms)` });
        }
      });
      res.on('end', () => finish({}));
      res.on('error', () => finish({}));
      res.on('close', () => finish({}));
    });
    req.on('error', (e) => finish({ clientError: String(e) }));
    if (abortAfterMs) setTimeout(() => { if (!done) { req.destroy(); finish({ clientAbort: `after ${abortAfterMs} ms` }); } }, abortAfterMs);
    req.end(reqBody);
  });
}

const cases = {};
function save(name, rec) {
  (cases[name] ||= []).push({ case: name, ...rec });
  fs.appendFileSync(path.join(outDir, name + '.jsonl'), JSON.stringify({ case: name, ...rec }) + '\n');
}
async function run(name, ...args) { const r = await send(...args); save(name, r); return r; }
function sseEvents(body) {
  return body.split('\n\n').filter((f) => f.startsWith('data: ') && f !== 'data: [DONE]').map((f) => JSON.parse(f.slice(6)));
}

for (const f of fs.readdirSync(outDir)) if (f.endsWith('.jsonl')) fs.unlinkSync(path.join(outDir, f));
const mastra = makeMastra(PORT);
const server = await createNodeServer(mastra, { isDev: false, studio: false });
const A = '/api/agents';

// 1. durable stream, two steps, one tool call.
const streamRes = await run('01-stream-durable', 'POST', `${A}/durable-calc/stream`,
  { messages: 'add 2 and 3', runId: 'run-obs-1', memory: { thread: 'thread-calc', resource: 'user-1' } });
const streamed = sseEvents(streamRes.resBody);
const runId = streamed.find((e) => e.runId)?.runId || 'run-obs-1';

// 2. observe.
const replay = await run('02-observe-replay-all', 'POST', `${A}/durable-calc/observe`, { runId }, { abortAfterMs: 5000 });
const n = sseEvents(replay.resBody).length;
await run('03-observe-offset-mid', 'POST', `${A}/durable-calc/observe`, { runId, offset: Math.floor(n / 2) }, { abortAfterMs: 5000 });
await run('04-observe-offset-0', 'POST', `${A}/durable-calc/observe`, { runId, offset: 0 }, { abortAfterMs: 5000 });
await run('05-observe-offset-last', 'POST', `${A}/durable-calc/observe`, { runId, offset: n - 1 }, { abortAfterMs: 5000 });
await run('06-observe-offset-end', 'POST', `${A}/durable-calc/observe`, { runId, offset: n }, { abortAfterMs: 3000 });
await run('07-observe-offset-negative', 'POST', `${A}/durable-calc/observe`, { runId, offset: -1 }, { abortAfterMs: 3000 });
await run('08-observe-offset-huge', 'POST', `${A}/durable-calc/observe`, { runId, offset: 1000000 }, { abortAfterMs: 3000 });
await run('09-observe-offset-fraction', 'POST', `${A}/durable-calc/observe`, { runId, offset: 1.5 }, { abortAfterMs: 3000 });
await run('10-observe-offset-string', 'POST', `${A}/durable-calc/observe`, { runId, offset: '2' }, { abortAfterMs: 3000 });
await run('11-observe-unknown-run', 'POST', `${A}/durable-calc/observe`, { runId: 'no-such-run' }, { abortAfterMs: 3000 });
await run('12-observe-no-runid', 'POST', `${A}/durable-calc/observe`, {}, { abortAfterMs: 3000 });
await run('13-observe-unknown-agent', 'POST', `${A}/nope/observe`, { runId }, { abortAfterMs: 3000 });
await run('14-observe-bad-json', 'POST', `${A}/durable-calc/observe`, '{not json', { abortAfterMs: 3000 });

// 2b. observe while the run is live (slow tool): replay of the past + live tail.
{
  const live = send('POST', `${A}/durable-slow/stream`, { messages: 'add slowly', runId: 'run-live-1', memory: { thread: 'thread-live', resource: 'user-1' } });
  await sleep(300);
  const obs = send('POST', `${A}/durable-slow/observe`, { runId: 'run-live-1' }, { abortAfterMs: SLOW_MS * 4 + 3000 });
  await sleep(100);
  const obsOff = send('POST', `${A}/durable-slow/observe`, { runId: 'run-live-1', offset: 3 }, { abortAfterMs: SLOW_MS * 4 + 3000 });
  save('15-observe-live', await live);
  save('15-observe-live', await obs);
  save('15-observe-live', await obsOff);
}

// 3. thread abort.
{
  const s = send('POST', `${A}/durable-slow/stream`, { messages: 'add slowly', runId: 'run-abort-1', memory: { thread: 'thread-abort', resource: 'user-1' } });
  await sleep(400);
  const wrong = await send('POST', `${A}/durable-slow/threads/abort`, { threadId: 'thread-abort', resourceId: 'user-1', expectedRunId: 'other-run' });
  const ab = await send('POST', `${A}/durable-slow/threads/abort`, { threadId: 'thread-abort', resourceId: 'user-1', expectedRunId: 'run-abort-1' });
  const again = await send('POST', `${A}/durable-slow/threads/abort`, { threadId: 'thread-abort', resourceId: 'user-1' });
  const sr = await s;
  save('16-abort-running', sr);
  save('16-abort-running', wrong);
  save('16-abort-running', ab);
  save('16-abort-running', again);
  await sleep(SLOW_MS + 500);
  save('16-abort-running', await send('POST', `${A}/durable-slow/observe`, { runId: 'run-abort-1' }, { abortAfterMs: 3000 }));
}
{
  const s = send('POST', `${A}/durable-slow/stream`, { messages: 'add slowly', runId: 'run-abort-2', memory: { thread: 'thread-abort-2', resource: 'user-1' } });
  await sleep(400);
  const ab = await send('POST', `${A}/durable-slow/threads/abort`, { threadId: 'thread-abort-2' });
  save('17-abort-running-no-resource', await s);
  save('17-abort-running-no-resource', ab);
}
await run('18-abort-idle', 'POST', `${A}/durable-calc/threads/abort`, { threadId: 'thread-calc', resourceId: 'user-1' });
await run('19-abort-unknown-thread', 'POST', `${A}/durable-calc/threads/abort`, { threadId: 'no-such-thread' });
await run('20-abort-wrong-resource', 'POST', `${A}/durable-calc/threads/abort`, { threadId: 'thread-calc', resourceId: 'someone-else' });
await run('21-abort-no-threadid', 'POST', `${A}/durable-calc/threads/abort`, {});
await run('22-abort-unknown-agent', 'POST', `${A}/nope/threads/abort`, { threadId: 'thread-calc' });

// 4. workflow observe.
const W = '/api/workflows/double-workflow';
await run('23-workflow-stream', 'POST', `${W}/stream?runId=wf-run-1`, { inputData: { n: 21 } }, { abortAfterMs: 5000 });
await run('24-workflow-observe', 'POST', `${W}/observe?runId=wf-run-1`, undefined, { abortAfterMs: 3000 });
await run('25-workflow-observe-offset', 'POST', `${W}/observe?runId=wf-run-1&offset=2`, undefined, { abortAfterMs: 3000 });
await run('26-workflow-observe-unknown-run', 'POST', `${W}/observe?runId=nope`, undefined, { abortAfterMs: 3000 });
await run('27-workflow-observe-no-runid', 'POST', `${W}/observe`, undefined, { abortAfterMs: 3000 });
await run('28-workflow-observe-unknown-workflow', 'POST', '/api/workflows/nope/observe?runId=wf-run-1', undefined, { abortAfterMs: 3000 });

// 5. the only reader disconnects mid-stream.
{
  const before = toolLog.length;
  const cut = await send('POST', `${A}/durable-slow/stream`, { messages: 'add slowly', runId: 'run-dc-1', memory: { thread: 'thread-dc', resource: 'user-1' } }, { abortAfterChunks: 4 });
  save('29-disconnect-mid-stream', cut);
  await sleep(SLOW_MS * 3 + 1500);
  save('29-disconnect-mid-stream', await send('POST', `${A}/durable-slow/observe`, { runId: 'run-dc-1' }, { abortAfterMs: 3000 }));
  const recalled = await memory.recall({ threadId: 'thread-dc', resourceId: 'user-1' });
  const finding = {
    case: '29-disconnect-mid-stream', kind: 'finding',
    toolExecutions: toolLog.slice(before).map(({ ev, aborted, input }) => ({ ev, aborted, input })),
    storedMessages: recalled.messages.map((m) => ({ role: m.role, parts: m.content?.parts?.map((p) => p.type) })),
    threadCalc: (await memory.recall({ threadId: 'thread-calc', resourceId: 'user-1' })).messages.map((m) => ({ role: m.role, parts: m.content?.parts?.map((p) => p.type) })),
  };
  fs.appendFileSync(path.join(outDir, '29-disconnect-mid-stream.jsonl'), JSON.stringify(finding) + '\n');
  console.log(JSON.stringify(finding));
}

// 2c. observe after the durable stream state's cleanup timer (default 30 s) has run.
if (CLEANUP_WAIT_MS > 0) {
  await sleep(CLEANUP_WAIT_MS);
  await run('30-observe-after-cleanup', 'POST', `${A}/durable-calc/observe`, { runId }, { abortAfterMs: 3000 });
}

console.log(JSON.stringify({ done: true, cases: Object.keys(cases).length }));
server.close?.();
process.exit(0);
