// gen.mjs: captures the texts of @mastra/memory 1.31.0's observational memory that
// the Go package embeds (../prompts) and tests against (this directory).
// Run it in a scratch directory holding a node_modules link to an install of
// @mastra/memory 1.31.0 and chunk.mjs, a copy of its dist/src-zTE4189S.js with
// this line appended (the builders the package does not export):
//   export { formatToolResultForObserver as __ftr, formatToolArgumentsForObserver as __fta, ObservationStrategy as __os, stripThreadTags as __stt, addRelativeTimeToObservations as __art, buildReflectorSystemPrompt as __brs, buildObserverTaskPrompt as __botp, buildReflectorPrompt as __brp, buildObserverHistoryMessage as __bohm, parseMemorySectionXml as __pmsx, optimizeObservationsForContext as __oofc };
// then: TZ=UTC node gen.mjs (offline), and copy out/* here and prompts/* to ../prompts.
import * as c from './chunk.mjs';
import { InMemoryStore } from '@mastra/core/storage';
import fs from 'fs';
const om = new c.u({ storage: new InMemoryStore(), scope: 'thread', model: 'openai/gpt-4o', observation: { bufferTokens: false }, reflection: {} });
const oex = om.observationConfig.extractors, rex = om.reflectionConfig.extractors;
console.error('obs extractors', oex.map(e => e.slug + ':' + e.mode), 'ref', rex.map(e=>e.slug+':'+e.mode));
console.error('defaults', JSON.stringify(c.L));
fs.mkdirSync('out', {recursive:true});
fs.writeFileSync('out/observer-system.txt', c.O(false, undefined, om.observationConfig.threadTitle, oex));
fs.writeFileSync('out/reflector-system.txt', c.__brs(undefined, rex));
fs.writeFileSync('out/observer-task-first.txt', c.__botp(undefined, {extractors: oex}));
fs.writeFileSync('out/observer-task-next.txt', c.__botp('Date: Jan 2, 2026\n* 🔴 (10:00) User likes tea', {extractors: oex, priorCurrentTask: 'Answer about tea', priorSuggestedResponse: 'Ask which tea'}));
for (const l of [0,1,2,3,4]) fs.writeFileSync(`out/reflector-prompt-${l}.txt`, c.__brp('Date: Jan 2, 2026\n* 🔴 (10:00) User likes tea', undefined, l, false, rex));
const msgs = [
 {id:'m1', role:'user', createdAt:new Date('2026-01-02T10:00:00Z'), content:{format:2, parts:[{type:'text', text:'I like green tea.'}]}},
 {id:'m2', role:'assistant', createdAt:new Date('2026-01-02T10:00:05Z'), content:{format:2, parts:[{type:'text', text:'Noted!'},{type:'tool-invocation', toolInvocation:{state:'result', toolCallId:'c1', toolName:'weather', args:{city:'Paris'}, result:{temp:21}}}]}},
 {id:'m3', role:'user', createdAt:new Date('2026-01-03T09:30:00Z'), content:{format:2, parts:[{type:'text', text:'And coffee?'}]}},
];
fs.writeFileSync('out/observer-history.json', JSON.stringify(c.__bohm(msgs, {}), null, 1));
fs.writeFileSync('out/context-prompt.txt', c.z + '\n\n' + c.R);
fs.writeFileSync('out/continuation-hint.txt', c.B ?? '');
console.error(Object.keys(om.observationConfig), om.observationConfig.threadTitle, om.reflectionConfig.observationTokens, om.observationConfig.messageTokens);
// Pieces the Go package embeds (each a Mastra text, cut from its own builders' output).
fs.mkdirSync('prompts', {recursive:true});
const p0 = c.__brp('OBS', undefined, 0, false, rex);
const marker = '\n\n## Additional Output Sections\n\n';
fs.writeFileSync('prompts/observer-system.txt', c.O(false, undefined, om.observationConfig.threadTitle, oex));
fs.writeFileSync('prompts/reflector-system.txt', c.__brs(undefined, rex));
fs.writeFileSync('prompts/extractor-sections.txt', p0.slice(p0.indexOf(marker) + marker.length));
for (const l of [1,2,3,4]) { const p = c.__brp('OBS', undefined, l, false, rex); const head = p0.slice(0, p0.indexOf(marker)); fs.writeFileSync(`prompts/compression-${l}.txt`, p.slice(head.length + 2, p.indexOf(marker))); }
fs.writeFileSync('prompts/context.txt', c.z + '\n\n' + c.R);
fs.writeFileSync('prompts/continuation-hint.txt', c.B);
// Parsing cases: the observer's output as Mastra parses it, and observations as Mastra shows them.
const outputs = [
  '<observations>\nDate: Jan 2, 2026\n* 🔴 (10:00) User likes green tea\n* 🟡 (10:01) Assistant noted it [preference, drink]\n  * -> asked about coffee\n</observations>\n\n<current-task>\nAnswer about coffee\n</current-task>\n\n<suggested-response>\nAsk which coffee\n</suggested-response>',
  'Sure! Here are my notes:\n* 🔴 (10:00) User likes tea\n- 🟡 second\n1. numbered\nnot a list line',
  'I could not find anything worth noting.',
  '  <observations>\nA\n  </observations>\ntext <observations>inline</observations>\n<observations>\nB\n</observations>',
];
fs.writeFileSync('out/parse.json', JSON.stringify(outputs.map(o => ({ output: o, parsed: c.N(o, oex), optimized: c.M(c.N(o, oex).observations) })), null, 1));
// Relative dates as the actor is shown them (addRelativeTimeToObservations), now = Mar 10, 2026 15:00 UTC.
const now = new Date('2026-03-10T15:00:00Z');
const relObs = [
  'Date: Mar 10, 2026\n* 🔴 (10:00) today',
  'Date: Jan 2, 2026\n* 🔴 (10:00) User will visit parents this weekend. (meaning Jan 3-4, 2026)\n* 🔴 User went to Rome. (estimated late December 2025)\n\nDate: Jan 3, 2026\n* x\n\nDate: Jan 9, 2026\n* y (meaning Mar 20, 2026)\n\nDate: Feb 20, 2026\n* z (estimated mid-to-late March 2026)\n\nDate: March 9, 2026\n* User plans to travel (meaning Jan 12 to early Feb 2026)\nDate: Sept 1, 2024\nDate: Foo 1, 2024\n* (meaning Marchxx 5, 2027) (estimated 2025)',
  'no dates (meaning May 30, 2025) here; needs to go (meaning Mar 11, 2026) and wants to (estimated early Apr 2027) and (meaning Dec 25, 2026)',
];
fs.writeFileSync('out/relative.json', JSON.stringify(relObs.map(o => ({ observations: o, now: now.toISOString(), annotated: c.__art(o, now) })), null, 1));
// Resource scope: how a thread's new section joins the observations (replaceOrAppendThreadSection, stripThreadTags).
const at = new Date('2026-01-02T10:00:05Z');
const merge = (existing, section) => c.__os.prototype.replaceOrAppendThreadSection.call({}, existing, 't', section, at);
const mergeCases = [
  ['', '<thread id="t1">\nDate: Jan 2, 2026\n* a\n</thread>'],
  ['<thread id="t1">\nDate: Jan 2, 2026\n* a\n</thread>', '<thread id="t1">\nDate: Jan 2, 2026\n* b\n</thread>'],
  ['<thread id="t1">\nDate: Jan 1, 2026\n* a\n</thread>', '<thread id="t1">\nDate: Jan 2, 2026\n* b\n</thread>'],
  ['<thread id="t0">\nDate: Jan 2, 2026\n* z\n</thread>\n\n<thread id="t1">\nDate: Jan 2, 2026\n* a\n  \n</thread>\n\nmore', '<thread id="t1">\nDate: Jan 2, 2026\n* b\n* c\n</thread>'],
  ['<thread id="t1">\nDate: Jan 2, 2026\n* a\n</thread>', '<thread id="t1">\nDate: Jan 2, 2026\n</thread>'],
  ['<thread id="t1">\nDate: Jan 2, 2026\n* a\n</thread>', '<thread id="t2">\n* no date\n</thread>'],
];
fs.writeFileSync('out/merge.json', JSON.stringify({
  merges: mergeCases.map(([e, s]) => ({ existing: e, section: s, merged: merge(e, s) })),
  strips: ['<thread id="x">\n* a\n</thread>', ' <THREAD>b</Thread >  ', '<threads>c</threads>', '<thread' + ' x'.repeat(600) + '>d'].map(o => ({ in: o, out: c.__stt(o) })),
}, null, 1));
// Tool arguments as the observer is shown them (formatToolArgumentsForObserver), from their JSON text.
const argTexts = [
  '{"a":1,"b":"x","c":true,"d":null,"e":2.5,"f":-0,"g":1e21,"h":100}',
  '{"user":{"name":"Ada","tags":["x","y"]},"n":[1,2,{"z":1}]}',
  '{}', '[]', '"short"', '42', 'null',
  '"' + 'long '.repeat(40) + '"',
  '{"s":"' + 'x'.repeat(300) + '","t":"' + 'line\\n'.repeat(50) + '"}',
  '{"e":[],"o":{},"2":"two","b":1,"1":"one","with space":true,"$ok_1":0}',
  JSON.stringify({many: Array.from({length: 25}, (_, i) => i)}),
  JSON.stringify(Object.fromEntries(Array.from({length: 30}, (_, i) => ['k' + i, i]))),
  JSON.stringify({a:{b:{c:{d:{e:{f:{g:1}}}}}}}),
  JSON.stringify(Object.fromEntries(Array.from({length: 8}, (_, i) => ['k' + i, Array.from({length: 20}, (_, j) => j)]))),
  JSON.stringify({big: Array.from({length: 20}, (_, i) => 'word '.repeat(30)), p: 'y'.repeat(9000)}),
  JSON.stringify({['k'.repeat(200)]: {['j'.repeat(100)]: 1}}),
  JSON.stringify({p1: 'a'.repeat(5000), p2: 'b'.repeat(5000), p3: 'c'.repeat(5000)}),
  JSON.stringify({s165: 'a'.repeat(165), s160: 'b'.repeat(160)}),
  JSON.stringify({a: 1, ...Object.fromEntries(Array.from({length: 5}, (_, k) => ['k' + k, Array.from({length: 20}, (_, j) => Array.from({length: 14 + (j * 7 + k) % 9}, (_, w) => 'w' + w + j).join(' '))])), z: 'end'}),
];
fs.writeFileSync('out/arguments.json', JSON.stringify(argTexts.map(a => ({ json: a, text: c.__fta(JSON.parse(a), {}) })), null, 1));
// Tool results as the observer is shown them (formatToolResultForObserver), from their JSON text.
const resTexts = [
  '{"temp":21,"city":"Paris","2":"two","1":"one"}',
  '{"b":1,"a":[1,{"x":"<&>\\u2028é"}],"e":{},"f":[],"n":null,"t":true,"d":2.50,"z":-0,"g":1e21}',
  JSON.stringify({encryptedContent: 'q'.repeat(300), nested: [{encryptedContent: 'short'}, {encryptedContent: 'r'.repeat(257)}]}),
  JSON.stringify({log: Array.from({length: 3000}, (_, i) => 'line ' + i).join('\n')}),
  JSON.stringify('w'.repeat(30000)),
  '[1,[2,[3,[]]]]',
  JSON.stringify(Array.from({length: 3000}, (_, i) => 'line ' + i).join('\n')),
];
fs.writeFileSync('out/results.json', JSON.stringify(resTexts.map(a => ({ json: a, text: c.__ftr(JSON.parse(a)) })), null, 1));
// Attachments: the placeholders the observer's history shows for them (its text parts only).
const attMsgs = [{id:'a1', role:'user', createdAt:new Date('2026-01-02T10:00:00Z'), content:{format:2, parts:[
  {type:'text', text:'See these.'},
  {type:'image', image:'https://x.test/a/cat%20pic.png', mimeType:'image/png'},
  {type:'file', data:'data:image/png;base64,AAAA', mimeType:'image/png'},
  {type:'file', data:'JVBERi0xLjQ=', mimeType:'application/pdf', filename:' report.pdf '},
  {type:'file', data:'https://x.test/docs/', mimeType:'text/plain'},
  {type:'file', data:'Zm9v', mimeType:'application/octet-stream'},
  {type:'file', data:'https://x.test/photo.JPG?x=1', mimeType:'application/octet-stream'},
  {type:'image', image:'iVBORw0KGgo=', mimeType:'image/jpeg', filename:'me.jpg'},
]}}];
fs.writeFileSync('out/attachments.json', JSON.stringify(c.__bohm(attMsgs, {}).content.filter(p => p.type === 'text').map(p => p.text), null, 1));
