// gen-multi.mjs: captures the texts of the multi-thread observer of @mastra/memory 1.31.0
// (resource scope) that the Go package embeds (../prompts/observer-system-multi.txt) and tests
// against (observer-task-multi-*.txt, observer-history-multi.json, parse-multi.json). Run it as
// gen.mjs is run, with this line appended to chunk.mjs too:
//   export { buildMultiThreadObserverTaskPrompt as __mtp, buildMultiThreadObserverHistoryMessage as __mth, parseMultiThreadObserverOutput as __mtparse };
import * as c from './chunk.mjs';
import { InMemoryStore } from '@mastra/core/storage';
import fs from 'fs';
const om = new c.u({ storage: new InMemoryStore(), scope: 'resource', model: 'openai/gpt-4o', reflection: {} });
const oex = om.observationConfig.extractors;
fs.mkdirSync('out', {recursive:true});
fs.writeFileSync('out/observer-system-multi.txt', c.O(true, undefined, om.observationConfig.threadTitle, oex));
const prior = new Map([['t1', {currentTask: 'Answer about tea', suggestedResponse: 'Ask which tea'}], ['t2', {}]]);
fs.writeFileSync('out/observer-task-multi-first.txt', c.__mtp(undefined, ['t1','t2'], new Map(), undefined, om.observationConfig.threadTitle, oex));
fs.writeFileSync('out/observer-task-multi-next.txt', c.__mtp('<thread id="t1">\nDate: Jan 2, 2026\n* 🔴 (10:00) User likes tea\n</thread>', ['t1','t2'], prior, undefined, om.observationConfig.threadTitle, oex));
const m = (id, role, at, text) => ({id, role, createdAt: new Date(at), content: {format: 2, parts: [{type: 'text', text}]}});
const by = new Map([
 ['t1', [m('a1','user','2026-01-02T10:00:00Z','I like green tea.'), m('a2','assistant','2026-01-02T10:00:05Z','Noted!')]],
 ['t2', [m('b1','user','2026-01-03T09:30:00Z','And coffee?')]],
]);
fs.writeFileSync('out/observer-history-multi.json', JSON.stringify(c.__mth(by, ['t1','t2'], {}), null, 1));
const outputs = [
 '<observations>\n<thread id="t1">\nDate: Jan 2, 2026\n* 🔴 (10:00) User likes green tea\n<current-task>Answer about tea</current-task>\n<suggested-response>Ask which tea</suggested-response>\n</thread>\n<thread id="t2">\nDate: Jan 3, 2026\n* 🔴 (09:30) User asked about coffee\n\n<current-task>\nCoffee\n</current-task>\n</thread>\n</observations>',
 'Notes:\n<thread id="t2">\n* 🔴 only t2\n</thread>\n<thread id="">\n* no id\n</thread>\n<thread id="t3"></thread>',
];
const parsed = outputs.map(o => { const r = c.__mtparse(o, oex); return {output: o, threads: Object.fromEntries([...r.threads].map(([k, v]) => [k, {observations: v.observations, currentTask: v.currentTask ?? '', suggestedResponse: v.suggestedContinuation ?? ''}]))}; });
fs.writeFileSync('out/parse-multi.json', JSON.stringify(parsed, null, 1));
console.error(om.observationConfig.maxTokensPerBatch, oex.map(e => e.slug + ':' + e.mode));
