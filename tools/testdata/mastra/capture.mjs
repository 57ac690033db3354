// capture.mjs — records the REAL validation behaviour of Mastra's tool wrapper
// (@mastra/core 1.71.0 createTool + tool.execute, zod 4.6.7) as JSON fixtures
// for the Go port (github.com/gomastra/mastra/tools).
//
// Provenance / how to regenerate (run from a scratch copy of the anchor, see
// /work/shared/anchor-mastra/README.md; nothing here touches the network):
//
//   d=$(mktemp -d) && cp -r /work/shared/anchor-mastra "$d" && chmod -R u+w "$d" \
//     && cd "$d/anchor-mastra" && ./setup.sh && source ./env.sh
//   MASTRA_TELEMETRY_DISABLED=1 node /work/main/tools/testdata/mastra/capture.mjs \
//     > /work/main/tools/testdata/mastra/validation.json
//
// The script may live anywhere: bare ESM specifiers would resolve relative to
// this file, so the packages ('@mastra/core/tools', '@mastra/core/request-context',
// 'zod') are resolved by hand from node_modules of the CURRENT WORKING DIRECTORY
// (the anchor folder), using each package.json "exports" -> "import" entry, i.e.
// exactly the ESM files `import '@mastra/core/tools'` would load from there.
//
// Record format (one object per case, printed as a 2-space pretty JSON array):
//   name      case name
//   kind      "input" | "output" | "requestContext" | "suspend" | "resume"
//   toolId    the tool id (appears in the "... failed for <toolId>" header)
//   zod       zod source text of the schema under test (evaluated verbatim to build it)
//   schema    z.toJSONSchema(schema, {io: 'input'}) ({io: 'output'} for kind "output"),
//             exactly as zod returns it ({"$threw": msg} if zod throws)
//   input     input: the inputData passed to execute (key absent = execute(undefined))
//             output: the value the user's execute returned (absent = returned undefined)
//             requestContext: the RequestContext entries object
//             suspend: the payload passed to suspend()
//             resume: the resumeData
//   toolInput (non-input kinds) the inputData passed to tool.execute
//   toolZod   (non-input kinds, when the tool also has an inputSchema) its zod source text
//   contextShape (suspend/resume/requestContext) how the context argument was built
//   result    what tool.execute returned, JSON-serialised; {"$undefined": true} when it
//             returned undefined; {"$threw": msg} when it threw
//   received  the inputData the user's execute function received (only when it ran)
//   read      (requestContext/suspend/resume) values the user's execute read from its context
// Anywhere inside result/received/read, a property whose value is undefined is written as
// {"$undefined": true} (JSON.stringify would silently drop it).
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
const { createTool } = await importFromCwd('@mastra/core', './tools');
const { RequestContext } = await importFromCwd('@mastra/core', './request-context');
const { z } = await importFromCwd('zod');

const mk = (src) => new Function('z', `return (${src});`)(z);

function jsonSchemaOf(schema, io) {
  try {
    return z.toJSONSchema(schema, { io });
  } catch (e) {
    return { $threw: String(e?.message ?? e) };
  }
}

// Deep copy to JSON-safe values, marking undefined explicitly.
function ser(v) {
  if (v === undefined) return { $undefined: true };
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number' && !Number.isFinite(v)) return { $nonfinite: String(v) };
    if (typeof v === 'bigint') return { $bigint: v.toString() };
    if (typeof v === 'function') return { $function: true };
    return v;
  }
  if (Array.isArray(v)) return v.map(ser);
  if (v instanceof RequestContext) return { $requestContext: ser(v.all) };
  if (v instanceof Date) return { $date: v.toISOString() };
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return { $instance: proto?.constructor?.name ?? 'unknown' };
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = ser(x);
  return out;
}

const records = [];
const ABSENT = Symbol('absent');
let seq = 0;
const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

async function callTool(tool, input, context) {
  try {
    const r = context === ABSENT ? await tool.execute(input) : await tool.execute(input, context);
    return ser(r);
  } catch (e) {
    return { $threw: String(e?.message ?? e) };
  }
}

// ---------------------------------------------------------------- input kind
async function inputCase(name, zodSrc, input = ABSENT, { toolId, outputZod, execute } = {}) {
  const schema = mk(zodSrc);
  let ran = false;
  let received;
  const tool = createTool({
    id: toolId ?? `t${++seq}-${slug(name)}`.slice(0, 48),
    description: name,
    inputSchema: schema,
    ...(outputZod ? { outputSchema: mk(outputZod) } : {}),
    execute: async (inputData, ctx) => {
      ran = true;
      received = ser(inputData);
      return execute ? execute(inputData, ctx) : { ok: true };
    },
  });
  const result = await callTool(tool, input === ABSENT ? undefined : input, ABSENT);
  const rec = { name, kind: 'input', toolId: tool.id, zod: zodSrc, schema: jsonSchemaOf(schema, 'input') };
  if (input !== ABSENT) rec.input = input;
  rec.result = result;
  if (ran) rec.received = received;
  records.push(rec);
}

// The anchor's add tool (lib/tools.mjs), rebuilt identically so we can observe what execute receives.
const ADD_IN = 'z.object({ a: z.number().int(), b: z.number().int() })';
const ADD_OUT = 'z.object({ sum: z.number().int() })';
const add = (name, input = ABSENT) =>
  inputCase(name, ADD_IN, input, { toolId: 'add', outputZod: ADD_OUT, execute: (i) => ({ sum: i.a + i.b }) });

await add('add: valid', { a: 1, b: 2 });
await add('add: a is a non-numeric string', { a: 'x', b: 2 });
await add('add: b missing', { a: 1 });
await add('add: a is a float', { a: 1.5, b: 2 });
await add('add: a is null', { a: null, b: 2 });
await add('add: input null', null);
await add('add: input undefined');
await add('add: input is a string', 'hello');
await add('add: input is an array', [1, 2]);
await add('add: extra key is stripped', { a: 1, b: 2, c: 3 });
await add('add: a is a numeric string', { a: '5', b: 2 });
await add('add: a is a boolean', { a: true, b: 2 });
await add('add: a is 1e300 (beyond safe int)', { a: 1e300, b: 2 });
await add('add: a is 2^53 (just beyond safe int)', { a: 9007199254740992, b: 0 });
await add('add: a is -2^53', { a: -9007199254740992, b: 0 });
await add('add: a is an object', { a: { v: 1 }, b: 2 });
await add('add: both wrong', { a: 'x', b: 'y' });
await add('add: key order preserved in footer', { b: 'y', a: 'x' });
await add('add: input is empty object', {});
await add('add: input is a number', 42);
await add('add: input is true', true);

// strings
const S = (src) => `z.object({ s: ${src} })`;
await inputCase('string: min(3) too short', S('z.string().min(3)'), { s: 'ab' });
await inputCase('string: min(3) ok', S('z.string().min(3)'), { s: 'abc' });
await inputCase('string: max(5) too long', S('z.string().max(5)'), { s: 'abcdef' });
await inputCase('string: length(4) wrong', S('z.string().length(4)'), { s: 'abc' });
await inputCase('string: length(4) too long', S('z.string().length(4)'), { s: 'abcde' });
await inputCase('string: min(1) empty', S('z.string().min(1)'), { s: '' });
await inputCase('string: nonempty empty', S('z.string().nonempty()'), { s: '' });
await inputCase('string: min(2) with one emoji (lengths count code points)', S('z.string().min(2)'), { s: '😀' });
await inputCase('string: max(1) with one emoji', S('z.string().max(1)'), { s: '😀' });
await inputCase('string: length(1) with one emoji', S('z.string().length(1)'), { s: '😀' });
await inputCase('string: max(2) with three emoji', S('z.string().max(2)'), { s: '😀😀😀' });
await inputCase('string: max(1) with e + combining accent (2 code points)', S('z.string().max(1)'), { s: 'e\u0301' });
await inputCase('string: email bad', S('z.email()'), { s: 'not-an-email' });
await inputCase('string: string().email() bad', S('z.string().email()'), { s: 'a@b' });
await inputCase('string: email ok', S('z.email()'), { s: 'a@example.com' });
await inputCase('string: url bad', S('z.url()'), { s: 'not a url' });
await inputCase('string: url ok', S('z.url()'), { s: 'https://example.com/x?y=1' });
await inputCase('string: uuid bad', S('z.uuid()'), { s: '1234' });
await inputCase('string: uuid ok', S('z.uuid()'), { s: '123e4567-e89b-12d3-a456-426614174000' });
await inputCase('string: regex bad', S('z.string().regex(/^[a-z]+$/)'), { s: 'ABC' });
await inputCase('string: iso.datetime bad', S('z.iso.datetime()'), { s: '2024-13-01' });
await inputCase('string: iso.datetime ok', S('z.iso.datetime()'), { s: '2024-01-02T03:04:05Z' });
await inputCase('string: iso.date bad', S('z.iso.date()'), { s: '2024/01/02' });
await inputCase('string: iso.time bad', S('z.iso.time()'), { s: '25:00' });
await inputCase('string: startsWith bad', S('z.string().startsWith("x")'), { s: 'abc' });
await inputCase('string: endsWith bad', S('z.string().endsWith("z")'), { s: 'abc' });
await inputCase('string: includes bad', S('z.string().includes("q")'), { s: 'abc' });
await inputCase('string: lowercase bad', S('z.string().lowercase()'), { s: 'ABC' });
await inputCase('string: uppercase bad', S('z.string().uppercase()'), { s: 'abc' });
await inputCase('string: ipv4 bad', S('z.ipv4()'), { s: '999.1.1.1' });
await inputCase('string: ipv6 bad', S('z.ipv6()'), { s: 'zz::1' });
await inputCase('string: cidrv4 bad', S('z.cidrv4()'), { s: '1.2.3.4' });
await inputCase('string: base64 bad', S('z.base64()'), { s: '***' });
await inputCase('string: e164 bad', S('z.e164()'), { s: '12345' });
await inputCase('string: jwt bad', S('z.jwt()'), { s: 'abc' });
await inputCase('string: emoji bad', S('z.emoji()'), { s: 'abc' });
await inputCase('string: cuid bad', S('z.cuid()'), { s: '!!' });
await inputCase('string: ulid bad', S('z.ulid()'), { s: '!!' });
await inputCase('string: nanoid bad', S('z.nanoid()'), { s: '!!' });
await inputCase('string: guid bad', S('z.guid()'), { s: '1234' });
await inputCase('string: hostname bad', S('z.hostname()'), { s: 'bad host!' });
await inputCase('string: min+max both fail? (max) ', S('z.string().min(2).max(3)'), { s: 'abcdef' });
await inputCase('string: min(3) and regex both fail', S('z.string().min(3).regex(/^[a-z]+$/)'), { s: 'A' });
await inputCase('string: email and max both fail', S('z.email().max(5)'), { s: 'not-an-email' });
await inputCase('string: custom message', S('z.string().min(3, "name too short")'), { s: 'a' });
await inputCase('string: custom message object form', S('z.string().min(3, { message: "at least 3" })'), { s: 'a' });
await inputCase('string: custom error option', S('z.string({ error: "must be text" })'), { s: 5 });
await inputCase('string: non-string value (number)', S('z.string()'), { s: 5 });
await inputCase('string: non-string value (object)', S('z.string()'), { s: { x: 1 } });
await inputCase('string: non-string value (array)', S('z.string()'), { s: ['a'] });
await inputCase('string: non-string value (boolean)', S('z.string()'), { s: false });
await inputCase('string: trim transform', S('z.string().trim().min(2)'), { s: '  a  ' });
await inputCase('string: trim transform ok (received)', S('z.string().trim()'), { s: '  ab  ' });
await inputCase('string: root z.string() with number', 'z.string()', 5);
await inputCase('string: root z.string() ok', 'z.string()', 'hi');
await inputCase('string: root z.string() with null', 'z.string()', null);
await inputCase('string: root z.string() undefined', 'z.string()');

// numbers
const N = (src) => `z.object({ n: ${src} })`;
await inputCase('number: min(0) with -1', N('z.number().min(0)'), { n: -1 });
await inputCase('number: max(10) with 11', N('z.number().max(10)'), { n: 11 });
await inputCase('number: gt(0) with 0', N('z.number().gt(0)'), { n: 0 });
await inputCase('number: lt(10) with 10', N('z.number().lt(10)'), { n: 10 });
await inputCase('number: gte(1) with 0', N('z.number().gte(1)'), { n: 0 });
await inputCase('number: lte(1) with 2', N('z.number().lte(1)'), { n: 2 });
await inputCase('number: positive with 0', N('z.number().positive()'), { n: 0 });
await inputCase('number: negative with 0', N('z.number().negative()'), { n: 0 });
await inputCase('number: nonnegative with -1', N('z.number().nonnegative()'), { n: -1 });
await inputCase('number: nonpositive with 1', N('z.number().nonpositive()'), { n: 1 });
await inputCase('number: multipleOf(5) with 7', N('z.number().multipleOf(5)'), { n: 7 });
await inputCase('number: multipleOf(0.1) with 0.3 ok', N('z.number().multipleOf(0.1)'), { n: 0.3 });
await inputCase('number: multipleOf(0.5) with 0.3', N('z.number().multipleOf(0.5)'), { n: 0.3 });
await inputCase('number: int with 2.5', N('z.number().int()'), { n: 2.5 });
await inputCase('number: z.int() with 2.5', N('z.int()'), { n: 2.5 });
await inputCase('number: int min(1) with 0.5', N('z.number().int().min(1)'), { n: 0.5 });
await inputCase('number: int min(1) with 0', N('z.number().int().min(1)'), { n: 0 });
await inputCase('number: z.int().max(5) with 6', N('z.int().max(5)'), { n: 6 });
await inputCase('number: z.int32() with 1.5', N('z.int32()'), { n: 1.5 });
await inputCase('number: z.int32() too big', N('z.int32()'), { n: 3000000000 });
await inputCase('number: z.uint32() negative', N('z.uint32()'), { n: -1 });
await inputCase('number: min(0) max(10) with float 10.5', N('z.number().min(0).max(10)'), { n: 10.5 });
await inputCase('number: max(1.5) with 2', N('z.number().max(1.5)'), { n: 2 });
await inputCase('number: min(-3) with -4', N('z.number().min(-3)'), { n: -4 });
await inputCase('number: max(1e21) with 1e22', N('z.number().max(1e21)'), { n: 1e22 });
await inputCase('number: max(1e-7) with 1', N('z.number().max(0.0000001)'), { n: 1 });
await inputCase('number: string value', N('z.number()'), { n: '5' });
await inputCase('number: coerce string', N('z.coerce.number()'), { n: '5' });
await inputCase('number: coerce bad string', N('z.coerce.number()'), { n: 'abc' });
await inputCase('number: custom message', N('z.number().min(5, "need 5+")'), { n: 1 });

// enums / literals
await inputCase('enum: kelvin', 'z.object({ unit: z.enum(["celsius", "fahrenheit"]) })', { unit: 'kelvin' });
await inputCase('enum: number 3', 'z.object({ unit: z.enum(["celsius", "fahrenheit"]) })', { unit: 3 });
await inputCase('enum: single value', 'z.object({ unit: z.enum(["only"]) })', { unit: 'x' });
await inputCase('enum: three values', 'z.object({ unit: z.enum(["a", "b", "c"]) })', { unit: 'x' });
await inputCase('enum: missing', 'z.object({ unit: z.enum(["celsius", "fahrenheit"]) })', {});
await inputCase('literal: x vs y', 'z.object({ v: z.literal("x") })', { v: 'y' });
await inputCase('literal: 5 vs 6', 'z.object({ v: z.literal(5) })', { v: 6 });
await inputCase('literal: true vs false', 'z.object({ v: z.literal(true) })', { v: false });
await inputCase('literal: null vs 1', 'z.object({ v: z.literal(null) })', { v: 1 });
await inputCase('literal: multi ["a","b"] vs c', 'z.object({ v: z.literal(["a", "b"]) })', { v: 'c' });
await inputCase('literal: x vs number', 'z.object({ v: z.literal("x") })', { v: 1 });
await inputCase('nativeEnum-like: z.enum(object)', 'z.object({ v: z.enum({ A: "a", B: "b" }) })', { v: 'c' });

// booleans
await inputCase('boolean: "true"', 'z.object({ flag: z.boolean() })', { flag: 'true' });
await inputCase('boolean: 1', 'z.object({ flag: z.boolean() })', { flag: 1 });
await inputCase('boolean: null (required)', 'z.object({ flag: z.boolean() })', { flag: null });

// null / misc types
await inputCase('null type: z.null() with 0', 'z.object({ v: z.null() })', { v: 0 });
await inputCase('null type: z.null() ok', 'z.object({ v: z.null() })', { v: null });
await inputCase('any: accepts null', 'z.object({ v: z.any() })', { v: null });
await inputCase('unknown: accepts object', 'z.object({ v: z.unknown() })', { v: { x: 1 } });
await inputCase('never: any value', 'z.object({ v: z.never() })', { v: 1 });
await inputCase('date: string into z.date()', 'z.object({ d: z.date() })', { d: '2024-01-01' });
await inputCase('date: coerce.date ok', 'z.object({ d: z.coerce.date() })', { d: '2024-01-01T00:00:00Z' });

// arrays
await inputCase('array: strings with numbers', 'z.object({ items: z.array(z.string()) })', { items: [1, 'a', 2] });
await inputCase('array: min(2) with one', 'z.object({ items: z.array(z.string()).min(2) })', { items: ['a'] });
await inputCase('array: max(1) with two', 'z.object({ items: z.array(z.string()).max(1) })', { items: ['a', 'b'] });
await inputCase('array: length(2) with three', 'z.object({ items: z.array(z.string()).length(2) })', { items: ['a', 'b', 'c'] });
await inputCase('array: nonempty with []', 'z.object({ items: z.array(z.string()).nonempty() })', { items: [] });
await inputCase('array: objects with bad qty', 'z.object({ items: z.array(z.object({ qty: z.number() })) })', { items: [{ qty: 1 }, { qty: 'x' }] });
await inputCase('array: not an array', 'z.object({ items: z.array(z.string()) })', { items: 'a' });
await inputCase('array: object instead of array', 'z.object({ items: z.array(z.string()) })', { items: { 0: 'a' } });
await inputCase('array: null element', 'z.object({ items: z.array(z.string()) })', { items: ['a', null] });
await inputCase('array: null element with optional items', 'z.object({ items: z.array(z.string().optional()) })', { items: ['a', null] });
await inputCase('array: null object field inside array (optional)', 'z.object({ items: z.array(z.object({ q: z.number().optional() })) })', { items: [{ q: null }] });
await inputCase('tuple: ["a","b"]', 'z.object({ t: z.tuple([z.string(), z.number()]) })', { t: ['a', 'b'] });
await inputCase('tuple: ["a"]', 'z.object({ t: z.tuple([z.string(), z.number()]) })', { t: ['a'] });
await inputCase('tuple: too long', 'z.object({ t: z.tuple([z.string(), z.number()]) })', { t: ['a', 1, 2] });
await inputCase('tuple: root', 'z.tuple([z.string(), z.number()])', ['a', 'b']);
await inputCase('array: root z.array with null input', 'z.array(z.string())', null);
await inputCase('array: root z.array with undefined input', 'z.array(z.string())');
await inputCase('array: root z.array min(1) with null input', 'z.array(z.string()).min(1)', null);
await inputCase('array: root z.array with object', 'z.array(z.string())', { a: 1 });

// nested
const NESTED = 'z.object({ user: z.object({ name: z.string(), address: z.object({ zip: z.string() }) }) })';
await inputCase('nested: wrong deep value', NESTED, { user: { name: 'Ann', address: { zip: 12345 } } });
await inputCase('nested: user missing', NESTED, {});
await inputCase('nested: user null', NESTED, { user: null });
await inputCase('nested: address wrong type', NESTED, { user: { name: 1, address: 'x' } });
await inputCase(
  'nested: 6 levels bad leaf',
  'z.object({ l1: z.object({ l2: z.object({ l3: z.object({ l4: z.object({ l5: z.object({ l6: z.number() }) }) }) }) }) })',
  { l1: { l2: { l3: { l4: { l5: { l6: 'deep' } } } } } },
);
await inputCase(
  'nested: arrays in objects in arrays',
  'z.object({ a: z.array(z.object({ b: z.array(z.object({ c: z.boolean() })) })) })',
  { a: [{ b: [{ c: true }, { c: 'no' }] }, { b: 'x' }] },
);
await inputCase(
  'nested: two issues at same leaf path and sibling paths',
  'z.object({ p: z.object({ s: z.string().min(3).regex(/^[0-9]+$/), t: z.number() }) })',
  { p: { s: 'a', t: 'x' } },
);

// optional / nullable / default
await inputCase('optional: x null is stripped', 'z.object({ x: z.string().optional() })', { x: null });
await inputCase('optional: x absent', 'z.object({ x: z.string().optional() })', {});
await inputCase('optional: object all-optional with null input', 'z.object({ x: z.string().optional() })', null);
await inputCase('optional: object all-optional with undefined input', 'z.object({ x: z.string().optional() })');
await inputCase('optional: x wrong type', 'z.object({ x: z.string().optional() })', { x: 1 });
await inputCase('nullable: x missing', 'z.object({ x: z.string().nullable() })', {});
await inputCase('nullable: x null ok', 'z.object({ x: z.string().nullable() })', { x: null });
await inputCase('nullable: x number', 'z.object({ x: z.string().nullable() })', { x: 1 });
await inputCase('nullish: x null', 'z.object({ x: z.string().nullish() })', { x: null });
await inputCase('default: x null', 'z.object({ x: z.string().default("d") })', { x: null });
await inputCase('default: x missing', 'z.object({ x: z.string().default("d") })', {});
await inputCase('default: x wrong type', 'z.object({ x: z.string().default("d") })', { x: 1 });
await inputCase('optional+required: a null b null', 'z.object({ a: z.string(), b: z.string().optional() })', { a: null, b: null });
await inputCase('optional+required: a wrong b null (message from first pass)', 'z.object({ a: z.string(), b: z.string().optional() })', { a: 1, b: null });
await inputCase('optional+required: a ok b null', 'z.object({ a: z.string(), b: z.string().optional() })', { a: 'x', b: null });
await inputCase('nullable+optional mix: n null kept, o null stripped', 'z.object({ n: z.string().nullable(), o: z.string().optional(), r: z.number() })', { n: null, o: null, r: 'x' });
await inputCase('nullable kept when another field fails', 'z.object({ n: z.string().nullable(), o: z.string().optional() })', { n: null, o: null });
await inputCase('optional nested null stripped', 'z.object({ outer: z.object({ x: z.string().optional(), y: z.number() }) })', { outer: { x: null, y: 1 } });
await inputCase('optional object null', 'z.object({ o: z.object({ x: z.string() }).optional() })', { o: null });

// stringified JSON coercion
await inputCase('coerce: tags stringified array', 'z.object({ tags: z.array(z.string()) })', { tags: '["x","y"]' });
await inputCase('coerce: tags stringified numbers', 'z.object({ tags: z.array(z.string()) })', { tags: '[1,2]' });
await inputCase('coerce: tags not json', 'z.object({ tags: z.array(z.string()) })', { tags: 'not json' });
await inputCase('coerce: tags whitespace-padded', 'z.object({ tags: z.array(z.string()) })', { tags: '  ["x"]  ' });
await inputCase('coerce: tags broken json', 'z.object({ tags: z.array(z.string()) })', { tags: '["x",' });
await inputCase('coerce: opts stringified object', 'z.object({ opts: z.object({ n: z.number() }) })', { opts: '{"n":1}' });
await inputCase('coerce: opts stringified array for object', 'z.object({ opts: z.object({ n: z.number() }) })', { opts: '[1]' });
await inputCase('coerce: optional array field', 'z.object({ tags: z.array(z.string()).optional() })', { tags: '["x"]' });
await inputCase('coerce: nested field not coerced', 'z.object({ o: z.object({ tags: z.array(z.string()) }) })', { o: { tags: '["x"]' } });
await inputCase('coerce: number field not coerced', 'z.object({ n: z.number() })', { n: '5' });
await inputCase('coerce: coerced + other error', 'z.object({ tags: z.array(z.string()), n: z.number() })', { tags: '["x"]', n: 'bad' });
await inputCase('coerce: stringified object valid but other field null optional', 'z.object({ opts: z.object({ n: z.number() }), o: z.string().optional() })', { opts: '{"n":1}', o: null });

// prompt alias
const P = 'z.object({ prompt: z.string() })';
await inputCase('prompt alias: query', P, { query: 'hi' });
await inputCase('prompt alias: message', P, { message: 'hi' });
await inputCase('prompt alias: input 5 message m', P, { input: 5, message: 'm' });
await inputCase('prompt alias: prompt null query q', P, { prompt: null, query: 'q' });
await inputCase('prompt alias: input string', P, { input: 'i' });
await inputCase('prompt alias: query number', P, { query: 5 });
await inputCase('prompt alias: prompt wrong type not replaced', P, { prompt: 5, query: 'q' });
await inputCase('prompt alias: with other required field', 'z.object({ prompt: z.string(), n: z.number() })', { query: 'q', n: 1 });
await inputCase('prompt alias: strictObject rejects alias key', 'z.strictObject({ prompt: z.string() })', { query: 'q' });

// unions
await inputCase('union: string|number with true', 'z.object({ v: z.union([z.string(), z.number()]) })', { v: true });
await inputCase('union: root string|number with true', 'z.union([z.string(), z.number()])', true);
await inputCase('union: string.min|number.min', 'z.object({ v: z.union([z.string().min(5), z.number().min(5)]) })', { v: 'ab' });
await inputCase('union: objects', 'z.object({ v: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]) })', { v: { c: 1 } });
const DU = 'z.object({ v: z.discriminatedUnion("kind", [z.object({ kind: z.literal("a"), x: z.string() }), z.object({ kind: z.literal("b"), y: z.number() })]) })';
await inputCase('discriminatedUnion: kind c', DU, { v: { kind: 'c' } });
await inputCase('discriminatedUnion: kind a x 1', DU, { v: { kind: 'a', x: 1 } });
await inputCase('discriminatedUnion: no kind', DU, { v: {} });
const DUR = 'z.discriminatedUnion("kind", [z.object({ kind: z.literal("a"), x: z.string() }), z.object({ kind: z.literal("b"), y: z.number() })])';
await inputCase('discriminatedUnion root: kind c', DUR, { kind: 'c' });
await inputCase('discriminatedUnion root: kind a x 1', DUR, { kind: 'a', x: 1 });
await inputCase('discriminatedUnion root: null input', DUR, null);
await inputCase('xor-like: nullable union', 'z.object({ v: z.union([z.string(), z.null()]) })', { v: 1 });
await inputCase('intersection: bad', 'z.object({ v: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })) })', { v: { a: 1, b: 'x' } });

// objects: unknown keys
await inputCase('strictObject: two unknown keys', 'z.strictObject({ a: z.string() })', { a: 'x', b: 1, c: 2 });
await inputCase('strictObject: one unknown key', 'z.strictObject({ a: z.string() })', { a: 'x', b: 1 });
await inputCase('strictObject: nested unknown key', 'z.object({ o: z.strictObject({ a: z.string() }) })', { o: { a: 'x', zz: 1 } });
await inputCase('strictObject: unknown key null', 'z.strictObject({ a: z.string() })', { a: 'x', b: null });
await inputCase('object().strict(): unknown key', 'z.object({ a: z.string() }).strict()', { a: 'x', b: 1 });
await inputCase('looseObject: passes unknown', 'z.looseObject({ a: z.string() })', { a: 'x', b: 1 });
await inputCase('object().passthrough(): unknown', 'z.object({ a: z.string() }).passthrough()', { a: 'x', b: 1 });
await inputCase('object catchall number', 'z.object({ a: z.string() }).catchall(z.number())', { a: 'x', b: 'y' });
await inputCase('record: string->number with string', 'z.object({ r: z.record(z.string(), z.number()) })', { r: { k: 'v' } });
await inputCase('record: root', 'z.record(z.string(), z.number())', { k: 'v' });
await inputCase('record: enum keys missing key', 'z.object({ r: z.record(z.enum(["a", "b"]), z.number()) })', { r: { a: 1 } });
await inputCase('record: enum keys unknown key', 'z.object({ r: z.record(z.enum(["a", "b"]), z.number()) })', { r: { a: 1, b: 2, c: 3 } });
await inputCase('record: key min length', 'z.object({ r: z.record(z.string().min(2), z.number()) })', { r: { k: 1 } });
await inputCase('record: partialRecord', 'z.object({ r: z.partialRecord(z.enum(["a", "b"]), z.number()) })', { r: { a: 'x' } });

// refinements
await inputCase('refine: root refine on object', 'z.object({ min: z.number(), max: z.number() }).refine((o) => o.min <= o.max, { message: "min must be <= max" })', { min: 5, max: 1 });
await inputCase('refine: root refine default message', 'z.object({ min: z.number(), max: z.number() }).refine((o) => o.min <= o.max)', { min: 5, max: 1 });
await inputCase('refine: refine with path', 'z.object({ min: z.number(), max: z.number() }).refine((o) => o.min <= o.max, { message: "max too small", path: ["max"] })', { min: 5, max: 1 });
await inputCase('refine: field refine', 'z.object({ s: z.string().refine((v) => v.includes("@"), "needs @") })', { s: 'abc' });
await inputCase('refine: skipped when fields fail', 'z.object({ min: z.number(), max: z.number() }).refine((o) => o.min <= o.max, { message: "min must be <= max" })', { min: 'x', max: 1 });

// several errors at once
await inputCase(
  'multi: 3 fields wrong + root unknown keys',
  'z.strictObject({ a: z.string(), b: z.number(), c: z.boolean() })',
  { a: 1, b: 'x', c: 'y', extra: 1 },
);
await inputCase(
  'multi: nested + top-level, order follows schema',
  'z.object({ z1: z.number(), a1: z.object({ q: z.string() }), m1: z.array(z.number()) })',
  { m1: [1, 'x'], a1: { q: 2 }, z1: 'n' },
);
await inputCase('multi: all fields missing', 'z.object({ a: z.string(), b: z.number(), c: z.boolean() })', {});

// footer
await inputCase('footer: 500-char string truncated', 'z.object({ s: z.string().max(10) })', { s: 'a'.repeat(500) });
await inputCase('footer: exactly around 200 chars', 'z.object({ s: z.number() })', { s: 'b'.repeat(189) });
await inputCase('footer: one over 200 chars', 'z.object({ s: z.number() })', { s: 'b'.repeat(190) });
await inputCase('footer: unicode and emoji', 'z.object({ s: z.number() })', { s: 'héllo wörld 😀 日本語 🎉' });
await inputCase('footer: emoji split by truncation at 200 UTF-16 units', 'z.object({ s: z.number() })', { s: 'c'.repeat(189) + '😀😀😀😀😀' });
await inputCase('footer: emoji not split (boundary)', 'z.object({ s: z.number() })', { s: 'c'.repeat(188) + '😀😀😀😀😀' });
await inputCase('footer: escapes in strings', 'z.object({ s: z.number() })', { s: 'quote " backslash \\ newline \n tab \t ctrl \u0001 slash / <>&' });
await inputCase('footer: nested object and array pretty-print', 'z.object({ s: z.number() })', { s: 'x', o: { a: [1, 2, { b: null }], e: {}, f: [] } });
await inputCase('footer: numbers formatting', 'z.object({ s: z.string() })', { s: 1, f: 1.5, big: 1e21, small: 1e-7, neg: -0.0, i: 123456789012 });
await inputCase('footer: long key names', 'z.object({ s: z.string() })', { ['k'.repeat(300)]: 1 });

// ---------------------------------------------------------------- output kind
async function outputCase(name, outZod, returned = ABSENT, { toolInput = {}, inputZod } = {}) {
  const schema = mk(outZod);
  let ran = false;
  let received;
  const tool = createTool({
    id: `t${++seq}-${slug(name)}`.slice(0, 48),
    description: name,
    ...(inputZod ? { inputSchema: mk(inputZod) } : {}),
    outputSchema: schema,
    execute: async (inputData) => {
      ran = true;
      received = ser(inputData);
      return returned === ABSENT ? undefined : returned;
    },
  });
  const result = await callTool(tool, toolInput, ABSENT);
  const rec = { name, kind: 'output', toolId: tool.id, zod: outZod, schema: jsonSchemaOf(schema, 'output') };
  if (returned !== ABSENT) rec.input = returned;
  rec.toolInput = toolInput;
  if (inputZod) rec.toolZod = inputZod;
  rec.result = result;
  if (ran) rec.received = received;
  records.push(rec);
}
await outputCase('output: sum is a string', 'z.object({ sum: z.number() })', { sum: 'x' });
await outputCase('output: returned undefined (no suspend)', 'z.object({ sum: z.number() })');
await outputCase('output: returned null', 'z.object({ sum: z.number() })', null);
await outputCase('output: valid', 'z.object({ sum: z.number() })', { sum: 3 });
await outputCase('output: extra keys stripped', 'z.object({ sum: z.number() })', { sum: 3, extra: true });
await outputCase('output: add tool int with 1.5', ADD_OUT, { sum: 1.5 }, { toolInput: { a: 1, b: 2 }, inputZod: ADD_IN });
await outputCase('output: sum missing', 'z.object({ sum: z.number() })', {});
await outputCase('output: returned string for object schema', 'z.object({ sum: z.number() })', 'three');
await outputCase('output: returned array', 'z.object({ sum: z.number() })', [1]);
await outputCase('output: root string schema with number', 'z.string()', 5);
await outputCase('output: optional field null (no null stripping on output)', 'z.object({ sum: z.number(), note: z.string().optional() })', { sum: 1, note: null });
await outputCase('output: transform applied to result', 'z.object({ s: z.string().transform((v) => v.toUpperCase()) })', { s: 'abc' });
await outputCase('output: default applied', 'z.object({ s: z.string().default("d") })', {});
await outputCase('output: stringified json not coerced', 'z.object({ tags: z.array(z.string()) })', { tags: '["x"]' });
await outputCase('output: nested multiple errors', 'z.object({ a: z.object({ b: z.number() }), c: z.array(z.string()) })', { a: { b: 'x' }, c: [1] });
await outputCase('output: long output truncated', 'z.object({ sum: z.number() })', { sum: 'z'.repeat(300) });
await outputCase('output: strictObject unknown keys', 'z.strictObject({ sum: z.number() })', { sum: 1, x: 1, y: 2 });

// ---------------------------------------------------------------- requestContext kind
async function requestContextCase(name, rcZod, entries = ABSENT, { reads = [], toolInput = {}, inputZod, noContext = false } = {}) {
  const schema = mk(rcZod);
  let ran = false;
  let received;
  let read;
  const tool = createTool({
    id: `t${++seq}-${slug(name)}`.slice(0, 48),
    description: name,
    ...(inputZod ? { inputSchema: mk(inputZod) } : {}),
    requestContextSchema: schema,
    execute: async (inputData, ctx) => {
      ran = true;
      received = ser(inputData);
      read = {};
      for (const k of reads) read[k] = ser(ctx.requestContext.get(k));
      read.$all = ser(ctx.requestContext.all);
      return { ok: true };
    },
  });
  let contextShape;
  let result;
  if (noContext) {
    contextShape = 'none (execute(input))';
    result = await callTool(tool, toolInput, ABSENT);
  } else if (entries === ABSENT) {
    contextShape = '{} (no requestContext)';
    result = await callTool(tool, toolInput, {});
  } else {
    contextShape = '{ requestContext: new RequestContext(Object.entries(input)) }';
    result = await callTool(tool, toolInput, { requestContext: new RequestContext(Object.entries(entries)) });
  }
  const rec = { name, kind: 'requestContext', toolId: tool.id, zod: rcZod, schema: jsonSchemaOf(schema, 'input') };
  if (entries !== ABSENT) rec.input = entries;
  rec.toolInput = toolInput;
  if (inputZod) rec.toolZod = inputZod;
  rec.contextShape = contextShape;
  rec.result = result;
  if (ran) {
    rec.received = received;
    rec.read = read;
  }
  records.push(rec);
}
const RC = 'z.object({ userId: z.string(), apiKey: z.string(), tier: z.enum(["free", "pro"]) })';
await requestContextCase('requestContext: invalid, redaction in footer', RC, { userId: 5, apiKey: 'sk-secret', authToken: 'abc', password: 'p', tier: 'gold' });
await requestContextCase('requestContext: valid, unknown keys kept', RC, { userId: 'u1', apiKey: 'sk-secret', tier: 'pro', extra: 'kept' }, { reads: ['userId', 'apiKey', 'tier', 'extra'] });
await requestContextCase(
  'requestContext: valid with coerce + transform',
  'z.object({ userId: z.string(), limit: z.coerce.number(), region: z.string().transform((s) => s.toUpperCase()) })',
  { userId: 'u1', limit: '42', region: 'eu', other: 'x' },
  { reads: ['userId', 'limit', 'region', 'other'] },
);
await requestContextCase('requestContext: no requestContext in context', RC, ABSENT);
await requestContextCase('requestContext: execute called without context', RC, ABSENT, { noContext: true });
await requestContextCase('requestContext: missing keys', RC, { userId: 'u1' });
await requestContextCase(
  'requestContext: nested sensitive keys redacted',
  'z.object({ cfg: z.object({ n: z.number() }) })',
  { cfg: { n: 'x', secretValue: 's', Authorization: 'Bearer t', inner: { API_KEY: 'k', credentials: ['c'], tokens: [{ token: 't' }] } }, myPassword: 'pw', AUTH: 'a', list: [{ password: 'x' }] },
);
await requestContextCase(
  'requestContext: redaction rules visible (short)',
  'z.object({ n: z.number() })',
  { n: 'x', author: 'bob', AUTH: 'a', myPassword: 'pw', list: [{ password: 'x' }, 'plain'], o: { Secret: 1, ok: 2 } },
);
await requestContextCase('requestContext: long context truncated', 'z.object({ n: z.number() })', { n: 'x', filler: 'f'.repeat(300) });
await requestContextCase('requestContext: null value not stripped', 'z.object({ userId: z.string().optional() })', { userId: null });
await requestContextCase('requestContext: default applied and readable', 'z.object({ tier: z.string().default("free") })', {}, { reads: ['tier'] });
await requestContextCase('requestContext: strictObject rejects extra entries', 'z.strictObject({ userId: z.string() })', { userId: 'u', other: 1 });
await requestContextCase(
  'requestContext: input invalid AND requestContext invalid (input wins)',
  RC,
  { userId: 5 },
  { toolInput: { a: 'x' }, inputZod: 'z.object({ a: z.number() })' },
);

// ---------------------------------------------------------------- suspend kind
async function suspendCase(name, suspendZod, payload, { shape = 'agent', outputZod, returnAfter, toolInput = {} } = {}) {
  const schema = mk(suspendZod);
  let ran = false;
  let received;
  const suspendCalls = [];
  const userSuspend = async (args, opts) => {
    suspendCalls.push(ser(args));
    return undefined;
  };
  const tool = createTool({
    id: `t${++seq}-${slug(name)}`.slice(0, 48),
    description: name,
    inputSchema: z.object({}),
    suspendSchema: schema,
    ...(outputZod ? { outputSchema: mk(outputZod) } : {}),
    execute: async (inputData, ctx) => {
      ran = true;
      received = ser(inputData);
      const s = ctx.agent?.suspend ?? ctx.workflow?.suspend ?? ctx.suspend;
      const r = await s(payload);
      return returnAfter === undefined ? r : returnAfter;
    },
  });
  let context;
  let contextShape;
  if (shape === 'agent') {
    context = { agent: { toolCallId: 'c1', messages: [], suspend: userSuspend } };
    contextShape = "{ agent: { toolCallId: 'c1', messages: [], suspend } } (execute calls context.agent.suspend(input))";
  } else if (shape === 'flat') {
    context = { toolCallId: 'c1', messages: [], suspend: userSuspend };
    contextShape = "{ toolCallId: 'c1', messages: [], suspend } (flat agent form; execute calls context.agent.suspend(input))";
  } else {
    context = { workflow: { workflowId: 'w1', runId: 'r1', suspend: userSuspend } };
    contextShape = "{ workflow: { workflowId: 'w1', runId: 'r1', suspend } } (execute calls context.workflow.suspend(input))";
  }
  const result = await callTool(tool, toolInput, context);
  const rec = { name, kind: 'suspend', toolId: tool.id, zod: suspendZod, schema: jsonSchemaOf(schema, 'input'), input: payload, toolInput, toolZod: 'z.object({})' };
  rec.contextShape = contextShape;
  rec.result = result;
  if (ran) {
    rec.received = received;
    rec.read = { suspendCalls, ...(outputZod ? { outputZod } : {}), ...(returnAfter !== undefined ? { executeReturned: returnAfter } : {}) };
  }
  records.push(rec);
}
const SUS = 'z.object({ reason: z.string() })';
await suspendCase('suspend: invalid payload (agent.suspend)', SUS, { reason: 5 });
await suspendCase('suspend: invalid payload (flat context)', SUS, { reason: 5 }, { shape: 'flat' });
await suspendCase('suspend: invalid payload (workflow.suspend)', SUS, { reason: 5 }, { shape: 'workflow' });
await suspendCase('suspend: valid payload, output validation skipped', SUS, { reason: 'need approval' }, { outputZod: 'z.object({ sum: z.number() })' });
await suspendCase('suspend: valid payload but execute returns bad output', SUS, { reason: 'ok' }, { outputZod: 'z.object({ sum: z.number() })', returnAfter: { sum: 'x' } });
await suspendCase('suspend: invalid payload missing field', SUS, {});
await suspendCase('suspend: null-ish field not stripped', 'z.object({ reason: z.string(), note: z.string().optional() })', { reason: 'r', note: null });

// ---------------------------------------------------------------- resume kind
async function resumeCase(name, resumeZod, resumeData, { shape = 'agent', toolInput = { a: 'not-a-number' }, inputZod = 'z.object({ a: z.number() })' } = {}) {
  const schema = mk(resumeZod);
  let ran = false;
  let received;
  let read;
  const tool = createTool({
    id: `t${++seq}-${slug(name)}`.slice(0, 48),
    description: name,
    inputSchema: mk(inputZod),
    resumeSchema: schema,
    execute: async (inputData, ctx) => {
      ran = true;
      received = ser(inputData);
      read = { resumeData: ser(ctx.agent?.resumeData ?? ctx.workflow?.resumeData ?? ctx.resumeData) };
      return { ok: true };
    },
  });
  let context;
  let contextShape;
  if (shape === 'agent') {
    context = { agent: { toolCallId: 'c1', messages: [], suspend: async () => {}, resumeData } };
    contextShape = "{ agent: { toolCallId: 'c1', messages: [], suspend, resumeData: input } }";
  } else if (shape === 'flat') {
    context = { toolCallId: 'c1', messages: [], suspend: async () => {}, resumeData };
    contextShape = "{ toolCallId: 'c1', messages: [], suspend, resumeData: input } (flat agent form)";
  } else if (shape === 'top') {
    context = { resumeData };
    contextShape = '{ resumeData: input }';
  } else {
    context = { workflow: { workflowId: 'w1', runId: 'r1', resumeData } };
    contextShape = "{ workflow: { workflowId: 'w1', runId: 'r1', resumeData: input } }";
  }
  const result = await callTool(tool, toolInput, context);
  const rec = { name, kind: 'resume', toolId: tool.id, zod: resumeZod, schema: jsonSchemaOf(schema, 'input'), input: resumeData, toolInput, toolZod: inputZod };
  rec.contextShape = contextShape;
  rec.result = result;
  if (ran) {
    rec.received = received;
    rec.read = read;
  }
  records.push(rec);
}
const RES = 'z.object({ approved: z.boolean() })';
await resumeCase('resume: approved "yes" (invalid), invalid input', RES, { approved: 'yes' });
await resumeCase('resume: valid resumeData, invalid input (input validation skipped)', RES, { approved: true });
await resumeCase('resume: invalid resumeData (flat context)', RES, { approved: 'yes' }, { shape: 'flat' });
await resumeCase('resume: invalid resumeData (top-level resumeData)', RES, { approved: 'yes' }, { shape: 'top' });
await resumeCase('resume: invalid resumeData (workflow)', RES, { approved: 'yes' }, { shape: 'workflow' });
await resumeCase('resume: resumeData missing field', RES, {});
await resumeCase('resume: resumeData optional field null is stripped', 'z.object({ approved: z.boolean(), note: z.string().optional() })', { approved: true, note: null });
await resumeCase('resume: resumeData stringified array coerced', 'z.object({ ids: z.array(z.number()) })', { ids: '[1,2]' });
await resumeCase('resume: resumeData with prompt alias', 'z.object({ prompt: z.string() })', { query: 'q' });
await resumeCase('resume: resumeData transform not passed to execute', 'z.object({ approved: z.string().transform((s) => s === "yes") })', { approved: 'yes' });
await resumeCase('resume: resumeData is a string (invalid)', RES, 'yes');

process.stdout.write(JSON.stringify(records, null, 2) + '\n');
