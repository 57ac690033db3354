// capture.mjs — records what the REAL Mastra 1.71 ToolSearchProcessor does, as
// JSON fixtures for github.com/gomastra/mastra/tools/toolsearch.
//
// Run from the anchor folder (Node 22; nothing here touches the network):
//
//   cd "$ANCHOR" && source ./env.sh
//   MASTRA_TELEMETRY_DISABLED=1 node /path/to/capture.mjs > /path/to/mastra.json
//
// Packages are resolved from node_modules of the CURRENT WORKING DIRECTORY (the
// anchor folder) through each package.json "exports" -> "import" entry.
//
// Output: one JSON object (1-space indent):
//   meta        the meta-tools as createTool built them: id, description (plain and
//               autoLoad variants), z.toJSONSchema of input (io input) and output
//               (io output)
//   system      the system messages processInputStep adds (guidance with and
//               without autoLoad, catalog messages with and without autoLoad)
//   catalogs    named catalogues: ordered [{key, id, description}]; "generated" is
//               1,000 synthetic tools (the Go benchmark uses it too)
//   search      search_tools executions: {name, catalog, options, query, output}
//   load        sequences on one processor instance: each case gives options and
//               steps; a step is one processInputStep on a thread (or none) followed
//               by meta-tool calls {tool, input, output}; every step records the tool
//               names processInputStep returned, in order, and the system messages
//   catalogText injectCatalog system messages per options (filter included)
//   agentRuns   real Agent runs driven by a scripted MockLanguageModelV3: per model
//               call the prompt's system messages, the offered tool definitions
//               (name, description, inputSchema) and the tool results it ends with
//               (errors included, as the model sees them); the run's tool results,
//               finishReason, and the chunk types of a stream run
// Filters are described as data, {deny: {search|load|active: [ids]}, throw: [ids]},
// and turned into functions here and in the Go tests alike.
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
const { ToolSearchProcessor } = await importFromCwd('@mastra/core', './processors');
const { Agent } = await importFromCwd('@mastra/core', './agent');
const { createTool } = await importFromCwd('@mastra/core', './tools');
const { RequestContext } = await importFromCwd('@mastra/core', './request-context');
const { z } = await importFromCwd('zod');
const { MockLanguageModelV3 } = await importFromCwd('ai', './test');

const out = {};

// ---------------------------------------------------------------- catalogues
// Catalogues are in key order (the Go processor orders a tools.Set by key).
const byKey = (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const entries = (list) => list.map(([key, id, description]) => ({ key, id, description })).sort(byKey);
const long = 'Create a new issue in a GitHub repository with a title, a body, labels, assignees and a milestone; ' +
  'the issue is opened on behalf of the authenticated user and returned with its number.';
const catalogs = {
  small: entries([
    ['calendarCreate', 'calendar_create_event', 'Create a calendar event with a title, start time and attendees'],
    ['dbQuery', 'database_query', 'Run a read-only SQL query against the analytics database'],
    ['emailSend', 'send_email', 'Send an email message to one or more recipients'],
    ['githubIssue', 'github_create_issue', long],
    ['githubList', 'github_list_issues', 'List open issues of a GitHub repository, newest first'],
    ['githubPR', 'github-create-pull-request', 'Open a pull request (PR) from a branch'],
    ['slackPost', 'slack.post_message', 'Post a message to a Slack channel'],
    ['weather', 'weather', 'Get the current weather for a city'],
    ['weatherForecast', 'weather_forecast', 'Get a 7-day weather forecast for a city; weather weather'],
  ]),
  unicode: entries([
    ['cafe', 'café_menu', 'Liste le MENU du café: crème brûlée, thé'],
    ['greek', 'greek_words', 'ΟΔΟΣ ΣΟΦΟΣ λόγος Σ'],
    ['istanbul', 'istanbul_guide', 'İstanbul travel guide'],
    ['emoji', 'rocket_launch', 'Launch 🚀 rockets 🚀🚀 into space'],
    ['cjk', 'cjk_search', '日本語 検索 テスト x 中文'],
    ['long_emoji', 'long_emoji', 'a'.repeat(146) + '🚀 tail'],
    ['long_exact', 'long_exact', 'b'.repeat(150)],
    ['long_151', 'long_151', 'c'.repeat(151)],
    ['empty', 'empty_description', ''],
    ['spaces', 'odd_spaces', 'tab\there nbsp\u00a0here bom\ufeffhere nel\u0085here ideo\u3000here'],
  ]),
  dupes: entries([
    ['a1', 'dup', 'first alpha tool'],
    ['a2', 'dup', 'second beta tool'],
    ['b', 'other', 'alpha beta gamma'],
    ['c', 'dup_helper', 'helps the dup tools'],
  ]),
};
// 1,000 synthetic tools: domain x verb x object, descriptions from a fixed vocabulary
// picked by a 32-bit LCG (deterministic).
{
  const domains = ['github', 'gitlab', 'slack', 'jira', 'email', 'calendar', 'weather', 'database', 'stripe', 'shopify',
    'notion', 'drive', 'zoom', 'twilio', 'hubspot', 'salesforce', 'linear', 'figma', 'aws', 'kubernetes'];
  const verbs = ['create', 'list', 'get', 'update', 'delete', 'search', 'send', 'archive', 'export', 'sync'];
  const objects = ['issue', 'message', 'event', 'record', 'file', 'user', 'invoice', 'order', 'page', 'report'];
  const vocab = ['quickly', 'securely', 'records', 'items', 'with', 'filters', 'pagination', 'the', 'workspace', 'project',
    'team', 'account', 'status', 'metadata', 'labels', 'owner', 'history', 'batch', 'async', 'webhook', 'query',
    'results', 'summary', 'priority', 'deadline', 'comments', 'attachments', 'permissions', 'audit', 'log'];
  let seed = 12345;
  const next = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed; };
  const list = [];
  for (let i = 0; i < 1000; i++) {
    const d = domains[i % 20], v = verbs[Math.floor(i / 20) % 10], o = objects[Math.floor(i / 200) % 10];
    const suffix = Math.floor(i / 200) > 0 ? `_${Math.floor(i / 200)}` : '';
    const words = [];
    const n = 4 + (next() % 12);
    for (let k = 0; k < n; k++) words.push(vocab[next() % vocab.length]);
    const key = `t${String(i).padStart(4, '0')}`;
    list.push([key, `${d}_${v}_${o}${suffix}`, `${v[0].toUpperCase()}${v.slice(1)} ${o} in ${d}: ${words.join(' ')}.`]);
  }
  catalogs.generated = entries(list);
}
out.catalogs = catalogs;

function toolsOf(catalog, extra = {}) {
  const tools = {};
  for (const { key, id, description } of catalogs[catalog]) {
    tools[key] = createTool({
      id, description, inputSchema: z.object({ value: z.string().optional() }),
      ...(extra[key] ?? {}),
      execute: async (input) => ({ ran: id, input }),
    });
  }
  return tools;
}
function filterOf(spec) {
  if (!spec) return undefined;
  return ({ toolName, phase }) => {
    if ((spec.throw ?? []).includes(toolName)) throw new Error('filter failed');
    return !((spec.deny?.[phase] ?? []).includes(toolName));
  };
}
function processorOf(catalog, options = {}) {
  const { filter, ...rest } = options;
  return new ToolSearchProcessor({ tools: toolsOf(catalog), filter: filterOf(filter), ...rest });
}
async function step(p, { threadId, tools = {}, messages = [] } = {}) {
  const system = [];
  const requestContext = new RequestContext();
  if (threadId) requestContext.set('mastra__threadId', threadId);
  const res = await p.processInputStep({
    tools, messages, requestContext, stepNumber: 0,
    messageList: { addSystem: (m) => system.push(typeof m === 'string' ? m : m.content) },
  });
  return { res, system };
}
const clone = (v) => (v === undefined ? null : JSON.parse(JSON.stringify(v)));

// ---------------------------------------------------------------- meta-tools and system messages
{
  const { res, system } = await step(processorOf('small'));
  const auto = await step(processorOf('small', { search: { autoLoad: true } }));
  const js = (s, io) => z.toJSONSchema(s, { io });
  const meta = (t, tAuto) => ({
    id: t.id, description: t.description, descriptionAutoLoad: tAuto?.description ?? null,
    inputSchema: js(t.inputSchema, 'input'), outputSchema: js(t.outputSchema, 'output'),
  });
  out.meta = {
    search_tools: meta(res.tools.search_tools, auto.res.tools.search_tools),
    load_tool: meta(res.tools.load_tool),
    autoLoadToolNames: Object.keys(auto.res.tools),
  };
  const cat = await step(processorOf('small', { injectCatalog: true }));
  const catAuto = await step(processorOf('small', { injectCatalog: true, search: { autoLoad: true } }));
  out.system = { guidance: system[0], guidanceAutoLoad: auto.system[0], catalog: cat.system[1], catalogAutoLoad: catAuto.system[1] };
}

// ---------------------------------------------------------------- search_tools
const searchCases = [
  ['weather', 'small', {}, 'weather'],
  ['weather forecast', 'small', {}, 'weather forecast'],
  ['github issue', 'small', {}, 'github issue'],
  ['punctuation query', 'small', {}, 'GitHub: create-issue!'],
  ['repeated query word counts twice', 'small', {}, 'issue issue'],
  ['name substring boost', 'small', {}, 'git'],
  ['dotted id', 'small', {}, 'slack post'],
  ['one-letter words are ignored', 'small', {}, 'a b c'],
  ['no match', 'small', {}, 'kubernetes'],
  ['empty query', 'small', {}, ''],
  ['topK 2', 'small', { search: { topK: 2 } }, 'github issue list create'],
  ['topK 1 with boost reordering', 'small', { search: { topK: 1 } }, 'weather city'],
  ['minScore drops low scores', 'small', { search: { minScore: 3 } }, 'github issue'],
  ['minScore equal is dropped', 'small', { search: { minScore: 100 } }, 'weather'],
  ['filter hides in search', 'small', { filter: { deny: { search: ['github_create_issue'] } } }, 'github issue'],
  ['throwing filter hides', 'small', { filter: { throw: ['weather'] } }, 'weather'],
  ['filter search limit is the whole index', 'small', { search: { topK: 1 }, filter: { deny: { search: ['weather', 'weather_forecast'] } } }, 'weather city'],
  ['autoLoad', 'small', { search: { autoLoad: true } }, 'github'],
  ['autoLoad no match', 'small', { search: { autoLoad: true } }, 'zzz'],
  ['unicode café', 'unicode', {}, 'CAFÉ menu'],
  ['unicode greek final sigma', 'unicode', {}, 'οδος σοφος'],
  ['unicode greek capital query', 'unicode', {}, 'ΟΔΟΣ'],
  ['unicode istanbul', 'unicode', {}, 'İstanbul'],
  ['unicode istanbul lower', 'unicode', {}, 'istanbul'],
  ['emoji', 'unicode', {}, '🚀 rockets'],
  ['cjk', 'unicode', {}, '日本語 中文'],
  ['long descriptions truncated', 'unicode', { search: { topK: 10 } }, 'long'],
  ['odd spaces', 'unicode', {}, 'here nbsp'],
  ['nel is not a js space', 'unicode', {}, 'nel\u0085here'],
  ['duplicate ids: last description, last position', 'dupes', {}, 'alpha beta dup'],
  ['duplicate ids: first text is gone', 'dupes', {}, 'first'],
  ['generated: github issue', 'generated', {}, 'github issue'],
  ['generated: create invoice stripe', 'generated', {}, 'create invoice stripe'],
  ['generated: send slack message', 'generated', { search: { topK: 10 } }, 'send slack message'],
  ['generated: webhook audit', 'generated', { search: { topK: 10 } }, 'webhook audit log'],
  ['generated: ties', 'generated', { search: { topK: 10 } }, 'quickly'],
  ['generated: exact id', 'generated', {}, 'weather_get_issue'],
  ['generated: many words', 'generated', { search: { topK: 8 } }, 'list the records of the team workspace with pagination and filters'],
];
out.search = [];
for (const [name, catalog, options, query] of searchCases) {
  const { res } = await step(processorOf(catalog, options));
  const output = await res.tools.search_tools.execute({ query }, {});
  out.search.push({ name, catalog, options, query, output: clone(output) });
}

// ---------------------------------------------------------------- load_tool sequences
const names = (tools) => Object.keys(tools);
async function loadCase(name, catalog, options, steps, extra = {}) {
  const p = processorOf(catalog, options);
  const recorded = [];
  for (const s of steps) {
    const { res, system } = await step(p, { threadId: s.threadId, tools: extra.stepTools ? extra.stepTools() : {} });
    const calls = [];
    for (const c of s.calls ?? []) {
      const output = await res.tools[c.tool].execute(c.input, {});
      calls.push({ tool: c.tool, input: c.input, output: clone(output) });
    }
    recorded.push({ threadId: s.threadId ?? null, tools: names(res.tools), system, calls });
  }
  out.load.push({ name, catalog, options, stepTools: extra.stepToolKeys ?? [], steps: recorded });
}
out.load = [];
const call = (tool, input) => ({ tool, input });
await loadCase('single load, again, then visible next step', 'small', {}, [
  { calls: [call('load_tool', { toolName: 'weather' }), call('load_tool', { toolName: 'weather' })] },
  { calls: [call('load_tool', { toolName: 'weather' })] },
]);
await loadCase('load by key and by id', 'small', {}, [
  { calls: [call('load_tool', { toolName: 'emailSend' }), call('load_tool', { toolName: 'send_email' })] },
  {},
]);
await loadCase('not found with suggestions', 'small', {}, [
  { calls: [call('load_tool', { toolName: 'github' }), call('load_tool', { toolName: 'Weather' }), call('load_tool', { toolName: 'nothing_like_it' }), call('load_tool', { toolName: 'g' })] },
]);
await loadCase('multi form', 'small', {}, [
  { calls: [
    call('load_tool', { toolNames: ['weather', 'weather', 'nope'] }),
    call('load_tool', { toolNames: ['weather', 'database_query'], toolName: 'slack.post_message' }),
    call('load_tool', { toolNames: ['weather'] }),
    call('load_tool', { toolNames: ['nope1', 'nope2'] }),
    call('load_tool', { toolNames: [], toolName: 'github_list_issues' }),
  ] },
  {},
]);
await loadCase('empty array and neither', 'small', {}, [
  { calls: [call('load_tool', { toolNames: [] }), call('load_tool', {})] },
]);
await loadCase('duplicate ids load the first tool with the id', 'dupes', {}, [
  { calls: [call('load_tool', { toolName: 'dup' }), call('load_tool', { toolName: 'a2' }), call('load_tool', { toolName: 'du' })] },
  {},
]);
await loadCase('per-thread isolation and default thread', 'small', {}, [
  { threadId: 'thread-a', calls: [call('load_tool', { toolName: 'weather' })] },
  { threadId: 'thread-b', calls: [call('load_tool', { toolName: 'send_email' })] },
  { threadId: 'thread-a' },
  { threadId: 'thread-b' },
  { calls: [call('load_tool', { toolName: 'database_query' })] },
  {},
  { threadId: 'thread-c' },
]);
await loadCase('filter on load and active', 'small', { filter: { deny: { load: ['send_email'], active: ['weather'] } } }, [
  { calls: [
    call('load_tool', { toolName: 'send_email' }), call('load_tool', { toolName: 'emailSend' }),
    call('load_tool', { toolName: 'weather' }), call('load_tool', { toolName: 'weather_forecast' }),
    call('load_tool', { toolName: 'weather_x' }),
  ] },
  {},
]);
await loadCase('filter suggestions stop at three allowed', 'generated', { filter: { deny: { load: ['github_create_issue'] } } }, [
  { calls: [call('load_tool', { toolName: 't00' }), call('load_tool', { toolName: 'github_create_issue' })] },
]);
await loadCase('autoLoad search loads', 'small', { search: { autoLoad: true, topK: 2 } }, [
  { calls: [call('search_tools', { query: 'weather' }), call('search_tools', { query: 'weather forecast' })] },
  { calls: [call('search_tools', { query: 'weather' })] },
  {},
]);
await loadCase('search then load', 'small', {}, [
  { calls: [call('search_tools', { query: 'github issue' }), call('load_tool', { toolNames: ['github_create_issue', 'github_list_issues'] })] },
  {},
]);
await loadCase('context storage with a thread keeps same-process loads', 'small', { storage: 'context' }, [
  { threadId: 't1', calls: [call('load_tool', { toolName: 'weather' })] },
  { threadId: 't1' },
]);
await loadCase('context storage anonymous forgets', 'small', { storage: 'context' }, [
  { calls: [call('load_tool', { toolName: 'weather' })] },
  {},
]);
{
  const resolved = () => ({
    search_tools: createTool({ id: 'my_search', description: 'user search tool', inputSchema: z.object({}), execute: async () => ({}) }),
    resolvedCrm: createTool({ id: 'crm_lookup', description: 'Look up a CRM contact', inputSchema: z.object({}), execute: async () => ({}) }),
    weather: createTool({ id: 'weather_override', description: 'Resolved weather', inputSchema: z.object({}), execute: async () => ({}) }),
  });
  const stepToolKeys = ['search_tools', 'resolvedCrm', 'weather'];
  await loadCase('step tools kept in order', 'small', {}, [
    { calls: [call('load_tool', { toolName: 'emailSend' }), call('load_tool', { toolName: 'weather' })] },
    {},
  ], { stepTools: resolved, stepToolKeys });
  await loadCase('includeResolvedTools indexes and withholds', 'small', { includeResolvedTools: true }, [
    { calls: [call('search_tools', { query: 'crm contact' }), call('load_tool', { toolName: 'resolvedCrm' }), call('load_tool', { toolName: 'crm_lookup' })] },
    {},
  ], { stepTools: resolved, stepToolKeys });
}

// ---------------------------------------------------------------- injectCatalog text
out.catalogText = [];
for (const [name, catalog, options] of [
  ['small', 'small', {}],
  ['unicode', 'unicode', {}],
  ['filtered', 'small', { filter: { deny: { search: ['weather'], load: ['send_email'] }, throw: ['database_query'] } }],
  ['all filtered', 'small', { filter: { throw: catalogs.small.map((t) => t.id) } }],
]) {
  const { system } = await step(processorOf(catalog, { ...options, injectCatalog: true }));
  out.catalogText.push({ name, catalog, options, system });
}

// ---------------------------------------------------------------- agent runs
function scriptedModel(script, prompts) {
  let i = 0;
  const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
  const record = (opts) => prompts.push({
    system: opts.prompt.filter((m) => m.role === 'system').map((m) => m.content),
    tools: (opts.tools ?? []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    lastToolResults: opts.prompt.at(-1).role === 'tool'
      ? opts.prompt.at(-1).content.map((p) => ({ toolName: p.toolName, output: p.output }))
      : [],
  });
  const next = () => script[Math.min(i++, script.length - 1)];
  return new MockLanguageModelV3({
    doGenerate: async (opts) => {
      record(opts);
      const s = next();
      if (s.tool) return { content: [{ type: 'tool-call', toolCallId: `call-${i}`, toolName: s.tool, input: JSON.stringify(s.args) }], finishReason: { unified: 'tool-calls' }, usage, warnings: [] };
      return { content: [{ type: 'text', text: s.text }], finishReason: { unified: 'stop' }, usage, warnings: [] };
    },
    doStream: async (opts) => {
      record(opts);
      const s = next();
      const chunks = [{ type: 'stream-start', warnings: [] }];
      if (s.tool) chunks.push({ type: 'tool-call', toolCallId: `call-${i}`, toolName: s.tool, input: JSON.stringify(s.args) }, { type: 'finish', finishReason: { unified: 'tool-calls' }, usage });
      else chunks.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: s.text }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop' }, usage });
      return { stream: new ReadableStream({ start(c) { for (const ch of chunks) c.enqueue(ch); c.close(); } }) };
    },
  });
}
out.agentRuns = [];
async function agentRun(name, { options = {}, script, approval = [], stream = false, injectCatalog = false }) {
  const prompts = [];
  const extra = Object.fromEntries(approval.map((k) => [k, { requireApproval: true }]));
  const ts = new ToolSearchProcessor({ tools: toolsOf('small', extra), injectCatalog, ...options });
  const calc = createTool({ id: 'calc', description: 'Calculator', inputSchema: z.object({ x: z.number() }), execute: async ({ x }) => ({ x }) });
  const agent = new Agent({ id: 'a', name: 'a', instructions: 'You are helpful.', model: scriptedModel(script, prompts), tools: { calc }, inputProcessors: [ts] });
  const rec = { name, options, injectCatalog, approval, script };
  if (stream) {
    const s = await agent.stream('go', { maxSteps: 10 });
    const types = [];
    for await (const c of s.fullStream) types.push(c.type);
    rec.chunkTypes = types;
    rec.finishReason = await s.finishReason;
  } else {
    const res = await agent.generate('go', { maxSteps: 10 });
    rec.finishReason = res.finishReason;
    rec.toolResults = res.steps.flatMap((s) => s.toolResults.map((r) => ({ toolName: r.payload?.toolName ?? r.toolName, result: clone(r.payload?.result ?? r.result) })));
    rec.text = res.text;
  }
  rec.prompts = prompts;
  out.agentRuns.push(rec);
}
await agentRun('search, load, call', { script: [
  { tool: 'search_tools', args: { query: 'weather' } },
  { tool: 'load_tool', args: { toolName: 'weather' } },
  { tool: 'weather', args: { value: 'Paris' } },
  { text: 'done' },
] });
await agentRun('autoLoad search then call', { options: { search: { autoLoad: true, topK: 1 } }, script: [
  { tool: 'search_tools', args: { query: 'email' } },
  { tool: 'send_email', args: { value: 'hi' } },
  { text: 'sent' },
] });
await agentRun('calling an unloaded tool', { script: [
  { tool: 'weather', args: { value: 'Paris' } },
  { text: 'oops' },
] });
await agentRun('injectCatalog load then call', { injectCatalog: true, script: [
  { tool: 'load_tool', args: { toolNames: ['weather', 'send_email'] } },
  { tool: 'weather', args: {} },
  { text: 'ok' },
] });
await agentRun('approval kept on a loaded tool', { approval: ['emailSend'], stream: true, script: [
  { tool: 'load_tool', args: { toolName: 'send_email' } },
  { tool: 'send_email', args: { value: 'hi' } },
  { text: 'sent' },
] });

process.stdout.write(JSON.stringify(out, null, 1) + '\n');
