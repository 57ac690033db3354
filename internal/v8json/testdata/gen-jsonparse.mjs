// Writes jsonparse-v8.json: [{in, out}|{in, err}] from Node 22's JSON.parse
// (out = JSON.stringify(JSON.parse(in)), err = the SyntaxError message),
// for hand-picked inputs plus seeded random mutations of valid JSON texts.
import fs from 'node:fs';
const base = [
  '', ' ', 'notjson', 'n', 'nul', 'nulx', 'nul1', 'nul"', 'tru', 'tru ', 'truex', '{', '{"a"', '{"a":', '{"a":1', '{"a":1,', '{a:1}',
  '{"a" 1}', '[1,]', '[1 2]', '{"a":1}x', '{"a":1} {}', '-', '-a', '1.', '1.e3', '1e', '1e+', '01', '00', '-01', '"abc',
  '"a\\x"', '"\\u12g4"', '"a\tb"', '{"a":"b\n"}', '{"a":[1,2,{"b":tru}]}', '"\\', '"\\u1', '"\\uZ', '"\\u12', '"abc\\"',
  '{\r\n"a":1}x', '{\r"a":1}x', '{\n\r"a":1}x', 'undefined', 'NaN', 'Infinity', '-Infinity', '[object Object]',
  '{"a":undefined}', '0x10', '1.5.3', '[01]', '{"a":01}', '1e5x', '"\\u00e9"x', '["\ud83d\ude00", x]', '\ud83d\ude00',
  'é', '{"é": x}', '\u00a0{}', '\ufeff{}', '{"a":1}\u2028', '{}}', ']', '}', '{,}', '{"a":1,}', '[,1]', ':', '"abc"x',
  '{"a":-}', '{"a":+1}', '{"a":.5}', '{"a":NaN}', "{'a':1}", '[[[[', '{"a":{"b":{', '12345678901234567890123x',
  'xaaaaaaaaaaaaaaaaaaa', 'xaaaaaaaaaaaaaaaaaaaa', '{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": x}',
  '{"b":1,"2":"two","1":"one","a":[1e21,1e-7,0.1,-0,1.0,1E400,123456789012345678901234],"s":"<&>\u2028\\ud800","b":2}',
  '{"a":1,"a":2}', '"\\ud83d\\ude00"', '"\\ud83d"', '"\\udc00\\ud800"', '{"__proto__":1,"x":[]}', '[1e-400, -1e400, 5e-324]',
  '{"n":0.000001,"m":1e-7,"k":123e-20,"j":1.7976931348623157e308}', '\t\n\r {} \t', '{"a" :\t1 , "b" : [ ] }',
  '{"k":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\\u007f"}', '"\u0000"', '"\u007f"',
];
const valid = [
  '{"messages":"What is 2+3?","memory":{"thread":"t1","resource":"u"}}',
  '{"data":{"location":"San Francisco","days":[1,2,3],"ok":true,"x":null}}',
  '[{"a":[{"b":{"c":[1.5,-2e3,"x\\ny"]}}]},false,null,"\\u00e9"]',
  '{"inputData":{"source":"s3://bucket/data.csv"},"runId":"run_123"}',
];
let seed = 42;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', '\r', '\t', '-', '+', '.', 'e', 'E', '0', '1', '9', 't', 'f', 'n', 'u', 'x', 'é', '\ud83d\ude00', '\u0001'];
const cases = [...base];
for (let i = 0; i < 600; i++) {
  let s = valid[rnd(valid.length)];
  const edits = 1 + rnd(3);
  for (let e = 0; e < edits; e++) {
    const at = rnd(s.length + 1);
    switch (rnd(3)) {
      case 0: s = s.slice(0, at) + s.slice(at + 1); break;
      case 1: s = s.slice(0, at) + alphabet[rnd(alphabet.length)] + s.slice(at); break;
      default: s = s.slice(0, at) + alphabet[rnd(alphabet.length)] + s.slice(at + 1);
    }
  }
  if (rnd(4) === 0) s = s.slice(0, rnd(s.length + 1));
  cases.push(s);
}
const out = [];
const seen = new Set();
for (const c of cases) {
  if (seen.has(c)) continue;
  seen.add(c);
  try { out.push({ in: c, out: JSON.stringify(JSON.parse(c)) }); } catch (e) { out.push({ in: c, err: e.message }); }
}
fs.writeFileSync('jsonparse-v8.json', JSON.stringify(out, null, 1) + '\n');
console.log(out.length, out.filter((x) => x.err).length, 'errors');
