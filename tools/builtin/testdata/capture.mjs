// capture.mjs — records what the REAL Mastra 1.71 built-in tools (ask_user,
// submit_plan, task_write/task_update/task_complete/task_check) and the task
// state processor do, as JSON fixtures for github.com/gomastra/mastra/tools/builtin.
//
// Run from a scratch copy of the anchor (see /work/shared/anchor-mastra/README.md);
// nothing here touches the network:
//
//   cd "$ANCHOR" && source ./env.sh
//   MASTRA_TELEMETRY_DISABLED=1 node /path/to/capture.mjs > mastra.json
//
// Packages are resolved from node_modules of the CURRENT WORKING DIRECTORY (the
// anchor folder) through each package.json "exports" -> "import" entry.
//
// Output: one JSON object (2-space indent) with these sections:
//   tools        per tool: id, description, and z.toJSONSchema(...) of its input
//                (io: input), output (io: output), suspend and resume schemas
//   modelTools   the tool definitions (name, description, inputSchema) a model is
//                given by an Agent that has the tools (Mastra's draft-07 conversion)
//   assignIds    assignTaskIds(tasks, previous) cases: {name, tasks, previous, result}
//   askUser      ask_user executions: {name, input, context, result, suspended}
//   submitPlan   submit_plan executions, same shape
//   taskOps      sequences of task-tool executions on one thread of an InMemoryStore:
//                each op {tool, input, context, result, stored, rcTasks, events};
//                context is "memory" (agent {threadId: 'thread-1', resourceId:
//                'user-1'} and a Mastra with the store), "memory-no-store" (the
//                same without a Mastra instance, so no threadState store), "none"
//                (execute(input) with no context) or the JSON of the agent object;
//                stored is the thread's 'task' state after the op, rcTasks the
//                request context's 'mastra:tasks', events what a 'controller'
//                object's emitEvent received
//   signals      task state processor sequences: each step gives the task list the
//                task tools surfaced this turn and what the processor emitted
//                (mode, attributes, exact model-facing text) under Mastra's own
//                state-signal bookkeeping (resolveStateSignalHistory re-created,
//                see runSignals)
//   agentRuns    full Agent runs with memory and TaskSignalProvider driven by a
//                scripted MockLanguageModelV3: the script (per run, per model call
//                a tool call {tool, args} or a text answer {text}), and per run the
//                text, the tool results and every prompt the model received
//                (compacted, see strip below)
//   streamSignal the data-signal chunk an Agent.stream run emits for a snapshot,
//                and the chunk types of that run (for wiring; not replayed)
// Values that are undefined inside results are written as {"$undefined": true}.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const req = createRequire(path.join(process.cwd(), 'noop.js'));
async function importFromCwd(pkg, subpath = '.') {
  const pkgJsonPath = req.resolve(`${pkg}/package.json`);
  const pj = JSON.parse(readFileSync(pkgJsonPath, 'utf8'));
  let entry = pj.exports[subpath];
  entry = entry.import ?? entry;
  if (typeof entry === 'object') entry = entry.default;
  return import(pathToFileURL(path.join(path.dirname(pkgJsonPath), entry)).href);
}
const { askUserTool, submitPlanTool } = await importFromCwd('@mastra/core', './tools');
const { TaskSignalProvider, assignTaskIds, createSignal } = await importFromCwd('@mastra/core', './signals');
const { RequestContext } = await importFromCwd('@mastra/core', './request-context');
const { Mastra } = await importFromCwd('@mastra/core', './mastra');
const { Agent } = await importFromCwd('@mastra/core', './agent');
const { InMemoryStore } = await importFromCwd('@mastra/core', './storage');
const { MockMemory } = await importFromCwd('@mastra/core', './memory');
const { z } = await importFromCwd('zod');
const { MockLanguageModelV3 } = await importFromCwd('ai', './test');

function marked(v) {
  if (v === undefined) return { $undefined: true };
  if (Array.isArray(v)) return v.map(marked);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = marked(x);
    return o;
  }
  return v;
}
const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

const provider = new TaskSignalProvider();
const taskTools = provider.getTools();
const processor = provider.getInputProcessors()[0];
const allTools = { ask_user: askUserTool, submit_plan: submitPlanTool, ...taskTools };

const out = {};

// ---------------------------------------------------------------- schemas
out.tools = Object.entries(allTools).map(([key, t]) => {
  const js = (s, io) => (s ? z.toJSONSchema(s, { io }) : null);
  return {
    key, id: t.id, description: t.description,
    inputSchema: js(t.inputSchema, 'input'),
    outputSchema: js(t.outputSchema, 'output'),
    suspendSchema: js(t.suspendSchema, 'input'),
    resumeSchema: js(t.resumeSchema, 'input'),
  };
});

// ---------------------------------------------------------------- assignTaskIds
const T = (content, extra = {}) => ({ content, status: 'pending', activeForm: 'Doing', ...extra });
const P = (id, content, status = 'pending') => ({ id, content, status, activeForm: 'Doing' });
const idCases = [
  ['simple', [T('Fix the bug')]],
  ['punctuation and case', [T('  Fix: the BUG (now)!  ')]],
  ['underscores and dashes', [T('foo_bar-baz  qux')]],
  ['digits', [T('Step 2: run 10 tests')]],
  ['non-ascii letters are separators', [T('Café crème brûlée')]],
  ['dotted capital I lowercases to i plus a combining dot', [T('İstanbul trip')]],
  ['dotted capital I alone', [T('İ')]],
  ['kelvin sign lowercases to k', [T('\u212Aelvin')]],
  ['emoji', [T('Ship it 🚀 now')]],
  ['only symbols gives item', [T('!!! ???')]],
  ['only non-ascii gives item', [T('日本語')]],
  ['two item contents', [T('!!!'), T('???')]],
  ['exactly 48 letters', [T('a'.repeat(48))]],
  ['49 letters cut at 48', [T('a'.repeat(49))]],
  ['47 letters then a word: trailing underscore', [T('a'.repeat(47) + ' bc')]],
  ['46 letters then a word', [T('a'.repeat(46) + ' bc')]],
  ['48 letters then a word', [T('a'.repeat(48) + ' bc')]],
  ['long sentence', [T('Implement the authentication middleware for the public REST API endpoints')]],
  ['repeated content gets _2 _3', [T('Test'), T('Test'), T('Test')]],
  ['explicit ids kept', [T('A', { id: 'alpha' }), T('B', { id: 'beta' })]],
  ['duplicate explicit id gets a fallback', [T('A', { id: 'same' }), T('B', { id: 'same' })]],
  ['duplicate explicit id equal to its slug', [T('A', { id: 'task_b' }), T('B', { id: 'task_b' })]],
  ['explicit id reserves a generated one', [T('Fix bug'), T('Other', { id: 'task_fix_bug' })]],
  ['explicit id reserves _2 too', [T('Fix bug'), T('Other', { id: 'task_fix_bug' }), T('Third', { id: 'task_fix_bug_2' })]],
  ['mixed explicit and generated collisions', [T('X', { id: 'task_x_2' }), T('X'), T('X')]],
  ['empty explicit id is treated as absent', [T('Fix bug', { id: '' })]],
];
const idCasesPrev = [
  ['reuse by unambiguous content', [T('Fix bug'), T('New one')], [P('custom_1', 'Fix bug', 'in_progress')]],
  ['no reuse when two previous tasks match', [T('Fix bug')], [P('a1', 'Fix bug'), P('a2', 'Fix bug')]],
  ['no reuse when content repeats in the write', [T('Fix bug'), T('Fix bug')], [P('custom_1', 'Fix bug')]],
  ['no reuse of an id claimed explicitly', [T('Fix bug'), T('Other', { id: 'custom_1' })], [P('custom_1', 'Fix bug')]],
  ['reuse when content matches a different previous', [T('Old'), T('Fix bug')], [P('keep_me', 'Fix bug'), P('task_old', 'Old')]],
  ['reused id reserved against generated', [T('Zed'), T('Fix bug')], [P('task_zed', 'Fix bug')]],
  ['reused id already used explicitly earlier', [T('A', { id: 'r1' }), T('Fix bug')], [P('r1', 'Fix bug')]],
  ['previous content differs in case: no reuse', [T('fix bug')], [P('custom_1', 'Fix bug')]],
  ['explicit id plus reuse', [T('Fix bug'), T('Write tests', { id: 'tests' })], [P('old_fix', 'Fix bug'), P('tests', 'Write tests')]],
];
out.assignIds = [
  ...idCases.map(([name, tasks]) => ({ name, tasks, previous: [], result: assignTaskIds(tasks, []) })),
  ...idCasesPrev.map(([name, tasks, previous]) => ({ name, tasks, previous, result: assignTaskIds(tasks, previous) })),
];

// ---------------------------------------------------------------- ask_user / submit_plan
async function runSuspendable(tool, cases) {
  const res = [];
  for (const c of cases) {
    let suspended;
    let context;
    if (c.context === 'none') context = undefined;
    else if (c.context === 'empty') context = {};
    else {
      context = { agent: { toolCallId: 'c1', messages: [], suspend: async (p) => { suspended = clone(p); } } };
      if (c.resume !== undefined) context.agent.resumeData = c.resume;
      if (c.context === 'throwing') context.agent.suspend = async () => { throw new Error('suspend failed'); };
    }
    let result;
    try {
      result = await tool.execute(c.input, context);
    } catch (e) {
      result = { $threw: e.message };
    }
    res.push({ name: c.name, input: c.input, context: c.context, resume: c.resume, result: marked(clone(result)), suspended: marked(suspended) });
  }
  return res;
}
out.askUser = await runSuspendable(askUserTool, [
  { name: 'no agent: free text', input: { question: 'What is your name?' }, context: 'none' },
  { name: 'no agent (empty context): free text', input: { question: 'Q?' }, context: 'empty' },
  { name: 'no agent: options default single_select', input: { question: 'Pick one', options: [{ label: 'Red' }, { label: 'Blue', description: 'The sea' }] }, context: 'none' },
  { name: 'no agent: multi_select', input: { question: 'Pick some', options: [{ label: 'A' }, { label: 'B' }, { label: 'C' }], selectionMode: 'multi_select' }, context: 'none' },
  { name: 'no agent: explicit single_select', input: { question: 'Pick', options: [{ label: 'A' }], selectionMode: 'single_select' }, context: 'none' },
  { name: 'no agent: empty options, no mode', input: { question: 'Q', options: [] }, context: 'none' },
  { name: 'selectionMode without options', input: { question: 'Q', selectionMode: 'multi_select' }, context: 'agent' },
  { name: 'selectionMode with empty options', input: { question: 'Q', options: [], selectionMode: 'single_select' }, context: 'none' },
  { name: 'agent: suspends free text', input: { question: 'What now?' }, context: 'agent' },
  { name: 'agent: suspends with options', input: { question: 'Pick', options: [{ label: 'A', description: 'first' }, { label: 'B' }] }, context: 'agent' },
  { name: 'agent: suspends multi', input: { question: 'Pick', options: [{ label: 'A' }, { label: 'B' }], selectionMode: 'multi_select' }, context: 'agent' },
  { name: 'agent: suspends with empty options', input: { question: 'Pick', options: [] }, context: 'agent' },
  { name: 'resume with a string', input: { question: 'Q' }, context: 'agent', resume: 'Blue' },
  { name: 'resume with an array', input: { question: 'Q', options: [{ label: 'A' }, { label: 'B' }], selectionMode: 'multi_select' }, context: 'agent', resume: ['A', 'B'] },
  { name: 'resume with an empty array', input: { question: 'Q' }, context: 'agent', resume: [] },
  { name: 'resume with an empty string', input: { question: 'Q' }, context: 'agent', resume: '' },
  { name: 'resume, selectionMode without options', input: { question: 'Q', selectionMode: 'single_select' }, context: 'agent', resume: 'x' },
  { name: 'suspend throws', input: { question: 'Q' }, context: 'throwing' },
  { name: 'invalid: empty question', input: { question: '' }, context: 'none' },
  { name: 'invalid: bad selectionMode', input: { question: 'Q', options: [{ label: 'a' }], selectionMode: 'many' }, context: 'none' },
  { name: 'invalid resume (number)', input: { question: 'Q' }, context: 'agent', resume: 5 },
]);
out.submitPlan = await runSuspendable(submitPlanTool, [
  { name: 'no agent', input: { path: '.mastracode/plans/x.md' }, context: 'none' },
  { name: 'agent: suspends', input: { path: 'plans/a.md' }, context: 'agent' },
  { name: 'approved', input: { path: 'plans/a.md' }, context: 'agent', resume: { action: 'approved', path: 'plans/a.md', title: 'Plan A', plan: '# A' } },
  { name: 'approved, bare', input: { path: 'plans/a.md' }, context: 'agent', resume: { action: 'approved' } },
  { name: 'approved with feedback', input: { path: 'p.md' }, context: 'agent', resume: { action: 'approved', feedback: 'nice' } },
  { name: 'rejected with feedback', input: { path: 'p.md' }, context: 'agent', resume: { action: 'rejected', feedback: 'Add tests', path: 'p.md', title: 'T', plan: 'body' } },
  { name: 'rejected with empty feedback', input: { path: 'p.md' }, context: 'agent', resume: { action: 'rejected', feedback: '', title: '' } },
  { name: 'rejected without feedback', input: { path: 'p.md' }, context: 'agent', resume: { action: 'rejected', plan: 'body' } },
  { name: 'suspend throws', input: { path: 'p.md' }, context: 'throwing' },
  { name: 'invalid resume action', input: { path: 'p.md' }, context: 'agent', resume: { action: 'maybe' } },
  { name: 'invalid: missing path', input: {}, context: 'none' },
]);

// ---------------------------------------------------------------- task tools
function failingStore(inner, failGet, failSet) {
  return {
    getStore: async (name) => {
      const s = await inner.getStore(name);
      if (name !== 'threadState') return s;
      return {
        getState: async (a) => { if (failGet) throw new Error('get exploded'); return s.getState(a); },
        setState: async (a) => { if (failSet) throw new Error('set exploded'); return s.setState(a); },
      };
    },
  };
}
async function runTaskOps(name, ops, opts = {}) {
  const storage = new InMemoryStore();
  const mastra = { getStorage: () => (opts.failGet || opts.failSet ? failingStore(storage, opts.failGet, opts.failSet) : storage) };
  const rc = new RequestContext();
  const events = [];
  if (opts.controller) rc.set('controller', { emitEvent: (e) => events.push(clone(e)) });
  const records = [];
  for (const op of ops) {
    const agentCtx = op.agent === undefined ? { threadId: 'thread-1', resourceId: 'user-1' } : op.agent;
    const context = op.noContext ? undefined : { agent: agentCtx ?? undefined, requestContext: rc, mastra: op.noMastra ? undefined : mastra };
    rc.delete('mastra:tasks');
    events.length = 0;
    let result;
    try {
      result = await taskTools[op.tool].execute(op.input, context);
    } catch (e) {
      result = { $threw: e.message };
    }
    const ts = await storage.getStore('threadState');
    const stored = await ts.getState({ threadId: 'thread-1', type: 'task' });
    records.push({
      tool: op.tool, input: op.input,
      context: op.noContext ? 'none' : op.noMastra ? 'memory-no-store' : op.agent === undefined ? 'memory' : JSON.stringify(op.agent ?? null),
      result: marked(clone(result)), stored: marked(clone(stored)),
      rcTasks: marked(clone(rc.get('mastra:tasks'))), events: clone(events),
    });
  }
  return { name, controller: Boolean(opts.controller), failGet: Boolean(opts.failGet), failSet: Boolean(opts.failSet), ops: records };
}
const W = (...tasks) => ({ tasks });
out.taskOps = [
  await runTaskOps('no memory', [
    { tool: 'task_write', input: W(T('A')), noContext: true },
    { tool: 'task_write', input: W(T('A')), agent: null },
    { tool: 'task_write', input: W(T('A')), agent: { threadId: 'thread-1' } },
    { tool: 'task_update', input: { id: 'x', status: 'completed' }, agent: { resourceId: 'user-1' } },
    { tool: 'task_complete', input: { id: 'x' }, agent: { threadId: '', resourceId: 'user-1' } },
    { tool: 'task_check', input: {}, agent: { threadId: 'thread-1' } },
    { tool: 'task_check', input: {}, noContext: true },
    { tool: 'task_write', input: W(T('A')), noMastra: true },
    { tool: 'task_check', input: {}, noMastra: true },
  ]),
  await runTaskOps('lifecycle', [
    { tool: 'task_check', input: {} },
    { tool: 'task_update', input: { id: 'nope', status: 'completed' } },
    { tool: 'task_complete', input: { id: 'nope' } },
    { tool: 'task_write', input: W(
      { content: 'Read the code', status: 'completed', activeForm: 'Reading the code' },
      { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
      { content: 'Write tests', status: 'pending', activeForm: 'Writing tests' },
      { id: 'docs', content: 'Update docs', status: 'pending', activeForm: 'Updating docs' }) },
    { tool: 'task_check', input: {} },
    { tool: 'task_update', input: { id: 'task_write_tests', status: 'in_progress' } },
    { tool: 'task_update', input: { id: 'docs', content: 'Update the README', activeForm: 'Updating the README' } },
    { tool: 'task_update', input: { id: 'missing', content: 'x' } },
    { tool: 'task_complete', input: { id: 'task_fix_the_bug' } },
    { tool: 'task_complete', input: { id: 'unknown' } },
    { tool: 'task_write', input: W(
      { content: 'A', status: 'in_progress', activeForm: 'Aing' },
      { content: 'B', status: 'in_progress', activeForm: 'Bing' }) },
    { tool: 'task_check', input: {} },
    { tool: 'task_write', input: W(
      { content: 'Read the code', status: 'completed', activeForm: 'Reading the code' },
      { content: 'Fix the bug', status: 'completed', activeForm: 'Fixing the bug' },
      { content: 'Write tests', status: 'completed', activeForm: 'Writing tests' }) },
    { tool: 'task_check', input: {} },
    { tool: 'task_update', input: { id: 'task_read_the_code', status: 'pending' } },
    { tool: 'task_check', input: {} },
    { tool: 'task_write', input: W() },
    { tool: 'task_check', input: {} },
    { tool: 'task_update', input: { id: 'task_read_the_code', status: 'pending' } },
  ], { controller: true }),
  await runTaskOps('update demotes others', [
    { tool: 'task_write', input: W(
      { id: 'a', content: 'A', status: 'in_progress', activeForm: 'Aing' },
      { id: 'b', content: 'B', status: 'pending', activeForm: 'Bing' },
      { id: 'c', content: 'C', status: 'pending', activeForm: 'Cing' }) },
    { tool: 'task_update', input: { id: 'c', status: 'in_progress' } },
    { tool: 'task_update', input: { id: 'b', content: 'B2' } },
    { tool: 'task_complete', input: { id: 'c' } },
    { tool: 'task_update', input: { id: 'c', status: 'in_progress', content: 'C again' } },
    { tool: 'task_check', input: {} },
  ]),
  await runTaskOps('validation', [
    { tool: 'task_update', input: { id: 'a' } },
    { tool: 'task_update', input: { id: '' } },
    { tool: 'task_update', input: { id: 'a', content: '' } },
    { tool: 'task_update', input: { id: 'a', status: 'done' } },
    { tool: 'task_update', input: { id: 5 } },
    { tool: 'task_update', input: {} },
    { tool: 'task_update', input: { id: 'a', content: 5 } },
    { tool: 'task_update', input: { id: 'a', extra: 'x' } },
    { tool: 'task_write', input: W({ content: 'A', status: 'pending' }) },
    { tool: 'task_write', input: W({ id: '', content: 'A', status: 'pending', activeForm: 'x' }) },
    { tool: 'task_write', input: {} },
    { tool: 'task_complete', input: {} },
    { tool: 'task_check', input: { extra: 1 } },
    { tool: 'task_write', input: W({ content: 'A', status: 'pending', activeForm: 'x', extra: true }) },
  ]),
  await runTaskOps('store get fails', [
    { tool: 'task_write', input: W(T('A')) },
    { tool: 'task_update', input: { id: 'a', status: 'completed' } },
    { tool: 'task_complete', input: { id: 'a' } },
    { tool: 'task_check', input: {} },
  ], { failGet: true }),
  await runTaskOps('store set fails', [
    { tool: 'task_write', input: W(T('A')) },
    { tool: 'task_check', input: {} },
  ], { failSet: true }),
];

// ---------------------------------------------------------------- state processor
// Re-creates the state-signal bookkeeping of the agent runtime around the real
// processor's computeStateSignal, and renders each emitted signal the way the
// model sees it (createSignal(...).toLLMMessage()).
// Window model: `window` holds the signals the model still sees (emptied by a
// step with dropWindow, as when observational memory truncates the context);
// `history` holds every signal emitted. As resolveStateSignalHistory does, the
// base comes from the window when it holds a snapshot; otherwise the last stored
// snapshot and the deltas after it are loaded from history, with
// contextWindow.hasSnapshot false.
async function runSignals(name, steps) {
  let window = []; // {mode, metadata}
  const history = [];
  const derive = (list) => {
    const idx = list.map((x) => x.mode).lastIndexOf('snapshot');
    return {
      lastSnapshot: idx >= 0 ? { metadata: list[idx].metadata } : undefined,
      deltas: list.slice(idx + 1).filter((x) => x.mode === 'delta').map((x) => ({ metadata: x.metadata })),
    };
  };
  const rec = [];
  for (const step of steps) {
    if (step.dropWindow) window = [];
    const rc = new RequestContext();
    if (step.tasks !== undefined) rc.set('mastra:tasks', step.tasks);
    const local = derive(window);
    const hasSnapshot = Boolean(local.lastSnapshot);
    const h = hasSnapshot || !history.some((x) => x.mode === 'snapshot') ? local : derive(history);
    const result = await processor.computeStateSignal({
      requestContext: rc, threadId: 'thread-1', resourceId: 'user-1',
      lastSnapshot: h.lastSnapshot, deltasSinceSnapshot: h.deltas, contextWindow: { hasSnapshot },
    });
    let emitted = null;
    if (result) {
      const sig = createSignal({
        type: 'state', tagName: result.tagName, contents: result.contents, attributes: result.attributes,
        metadata: { ...result.metadata, state: { id: result.id, cacheKey: result.cacheKey, mode: result.mode } },
      });
      const llm = sig.toLLMMessage();
      emitted = { mode: result.mode, cacheKey: result.cacheKey, attributes: result.attributes, role: llm.role, text: llm.content, ops: result.delta?.ops };
      window.push({ mode: result.mode, metadata: result.metadata });
      history.push({ mode: result.mode, metadata: result.metadata });
    }
    rec.push({ tasks: step.tasks, dropWindow: Boolean(step.dropWindow), emitted });
  }
  return { name, steps: rec };
}
const K = (id, content, status = 'pending', activeForm = 'Doing it') => ({ id, content, status, activeForm });
const seq = [];
let cur = [K('t1', 'Task one')];
seq.push({ tasks: cur });
for (let i = 2; i <= 13; i++) { cur = [...cur, K('t' + i, 'Task ' + i)]; seq.push({ tasks: cur }); }
out.signals = [
  await runSignals('no tasks at all', [{}, { tasks: [] }]),
  await runSignals('snapshot then deltas', [
    { tasks: [K('a', 'Alpha', 'completed'), K('b', 'Beta', 'in_progress'), K('c', 'Gamma')] },
    {},
    { tasks: [K('a', 'Alpha', 'completed'), K('b', 'Beta', 'in_progress'), K('c', 'Gamma')] },
    { tasks: [K('a', 'Alpha', 'completed'), K('b', 'Beta', 'completed'), K('c', 'Gamma', 'in_progress')] },
    { tasks: [K('b', 'Beta', 'completed'), K('c', 'Gamma', 'in_progress'), K('d', 'Delta')] },
    { tasks: [K('b', 'Beta', 'completed'), K('c', 'Gamma', 'in_progress', 'Other form'), K('d', 'Delta')] },
    { tasks: [] },
    { tasks: [K('e', 'Epsilon')] },
  ]),
  await runSignals('escaping and odd content', [
    { tasks: [K('x<1>', 'Use <b> & "quotes" \'single\''), K('nl', 'Line one\nLine two'), K('u', 'Ünïcödé — ✓ 🚀')] },
    { tasks: [K('x<1>', 'Use <b> & "quotes" \'single\'', 'completed'), K('nl', 'Line one\nLine two')] },
  ]),
  await runSignals('ten deltas then a snapshot', seq),
  await runSignals('window dropped', [
    { tasks: [K('a', 'Alpha')] },
    { tasks: [K('a', 'Alpha', 'in_progress')] },
    { dropWindow: true },
    { tasks: [K('a', 'Alpha', 'completed')], dropWindow: true },
  ]),
  await runSignals('empty list after tasks with the window dropped', [
    { tasks: [K('a', 'Alpha')] },
    { tasks: [], dropWindow: true },
    { tasks: [] },
  ]),
  await runSignals('window dropped after deltas, unchanged', [
    { tasks: [K('a', 'Alpha')] },
    { tasks: [K('a', 'Alpha'), K('b', 'Beta')] },
    { tasks: [K('a', 'Alpha'), K('b', 'Beta')], dropWindow: true },
    { tasks: [K('a', 'Alpha', 'completed'), K('b', 'Beta')] },
  ]),
];

// ---------------------------------------------------------------- agent runs
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
async function agentRuns(name, runs, extraTools = {}) {
  let i = 0;
  const calls = [];
  const script = runs.flat();
  const m = new MockLanguageModelV3({
    provider: 'mock', modelId: 'm',
    doGenerate: async (opts) => {
      calls.push({ prompt: clone(opts.prompt), tools: clone(opts.tools) });
      const s = script[i++] ?? { text: 'done' };
      const content = s.tool
        ? [{ type: 'tool-call', toolCallId: 'call-' + i, toolName: s.tool, input: JSON.stringify(s.args) }]
        : [{ type: 'text', text: s.text }];
      return { content, finishReason: { unified: s.tool ? 'tool-calls' : 'stop' }, usage, warnings: [] };
    },
  });
  const storage = new InMemoryStore();
  const memory = new MockMemory({ storage });
  const agent = new Agent({ id: 'a', name: 'a', instructions: 'You are helpful.', model: m, memory, tools: extraTools, signals: [new TaskSignalProvider()] });
  const mastra = new Mastra({ storage, agents: { a: agent }, logger: false });
  const ag = mastra.getAgent('a');
  const res = [];
  for (const [ri, run] of runs.entries()) {
    const before = calls.length;
    const r = await ag.generate(run.input ?? `run ${ri}`, { memory: { thread: 'thread-1', resource: 'user-1' }, maxSteps: 20 });
    // Compact form of each prompt message: system and user messages with their
    // text (text parts joined with "\n"), assistant messages with their text and
    // tool-call names, tool messages with the tool-result names.
    const strip = (p) => p.map((msg) => {
      const parts = typeof msg.content === 'string' ? [{ type: 'text', text: msg.content }] : msg.content;
      const text = parts.filter((x) => x.type === 'text').map((x) => x.text).join('\n');
      const calls = parts.filter((x) => x.type === 'tool-call').map((x) => x.toolName);
      const results = parts.filter((x) => x.type === 'tool-result').map((x) => x.toolName);
      const m = { role: msg.role };
      if (text || msg.role === 'system' || msg.role === 'user') m.text = text;
      if (calls.length) m.toolCalls = calls;
      if (results.length) m.toolResults = results;
      return m;
    });
    res.push({
      text: r.text,
      toolResults: r.toolResults.map((x) => ({ toolName: x.payload.toolName, result: x.payload.result })),
      prompts: calls.slice(before).map((c) => strip(c.prompt)),
    });
  }
  return { name, script: runs, runs: res, modelTools: calls[0]?.tools };
}
const tw = (...tasks) => ({ tool: 'task_write', args: { tasks } });
const TT = (content, status, activeForm) => ({ content, status, activeForm });
const e2e = await agentRuns('write, complete, answer; then a second run', [
  [
    tw(TT('Read the code', 'completed', 'Reading the code'), TT('Fix the bug', 'in_progress', 'Fixing the bug'), TT('Write tests', 'pending', 'Writing tests')),
    { tool: 'task_complete', args: { id: 'task_fix_the_bug' } },
    { tool: 'task_update', args: { id: 'task_write_tests', status: 'in_progress' } },
    { tool: 'task_check', args: {} },
    { text: 'ok' },
  ],
  [{ text: 'second' }],
], { ask_user: askUserTool, submit_plan: submitPlanTool });
out.modelTools = e2e.modelTools;
delete e2e.modelTools;
const many = [];
for (let k = 1; k <= 12; k++) {
  const tasks = [];
  for (let j = 1; j <= k; j++) tasks.push(TT('Task ' + j, 'pending', 'Doing ' + j));
  many.push(tw(...tasks));
}
many.push({ text: 'done' });
const e2eMany = await agentRuns('twelve writes in one run', [many]);
delete e2eMany.modelTools;
out.agentRuns = [e2e, e2eMany];

// ---------------------------------------------------------------- stream chunk
// The data-signal chunk Mastra's agent streams when the processor adds a
// signal (between the step-finish of the step whose tool changed the list
// and the next step-start). Its random id and createdAt are replaced by
// "<id>" and "<createdAt>"; the chunk types around it are listed.
{
  let n = 0;
  const m = new MockLanguageModelV3({
    provider: 'mock', modelId: 'm',
    doStream: async () => {
      n++;
      const chunks = n === 1
        ? [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'task_write', input: JSON.stringify({ tasks: [{ content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' }] }) },
          { type: 'finish', finishReason: { unified: 'tool-calls' }, usage }]
        : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'ok' }, { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop' }, usage }];
      return { stream: new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } }) };
    },
  });
  const storage = new InMemoryStore();
  const agent = new Agent({ id: 'a', name: 'a', instructions: 'I', model: m, memory: new MockMemory({ storage }), signals: [new TaskSignalProvider()] });
  const mastra = new Mastra({ storage, agents: { a: agent }, logger: false });
  const s = await mastra.getAgent('a').stream('hi', { memory: { thread: 'thread-1', resource: 'user-1' } });
  const types = [];
  let chunk;
  for await (const c of s.fullStream) {
    types.push(c.type);
    if (c.type === 'data-signal') chunk = { ...c, data: { ...c.data, id: '<id>', createdAt: '<createdAt>' } };
  }
  out.streamSignal = { chunkTypes: types, chunk };
}

process.stdout.write(JSON.stringify(out, null, 2) + '\n');
