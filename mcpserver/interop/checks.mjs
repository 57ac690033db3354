// The checks both interop clients run against gomastra's MCP server
// serving the test fixture app (mcpserver's fixtureConfig: the tools,
// agents and workflows of testdata/mastra/capture.mjs). Each check calls
// the server through the client under test and compares what comes back.
//
// call(name, args) must resolve to the CallToolResult; listTools() to
// {tools}; setAnswer(answer) sets the elicitation answer for the next
// call that asks.

export const expectedTools = [
  'adder', 'echoText', 'echoObject', 'fail', 'annotated', 'noSchema', 'confirm', 'ask_calc',
  'ask_helper', 'run_double', 'run_approval',
];

function text(result) {
  return result?.content?.[0]?.type === 'text' ? result.content[0].text : undefined;
}

export async function runChecks({ listTools, call, setAnswer }) {
  const checks = [];
  const check = async (name, fn) => {
    try {
      const detail = await fn();
      checks.push({ name, ok: true, detail });
    } catch (e) {
      checks.push({ name, ok: false, detail: e instanceof Error ? e.message : String(e) });
    }
  };
  const expect = (cond, msg) => {
    if (!cond) throw new Error(msg);
  };

  await check('tools/list', async () => {
    const { tools } = await listTools();
    const names = tools.map(t => t.name);
    expect(JSON.stringify(names) === JSON.stringify(expectedTools), `names ${JSON.stringify(names)}`);
    const adder = tools.find(t => t.name === 'adder');
    expect(adder.inputSchema.type === 'object' && adder.inputSchema.required.join() === 'a,b', 'adder input schema');
    expect(adder.outputSchema?.properties?.sum?.type === 'integer', 'adder output schema');
    const annotated = tools.find(t => t.name === 'annotated');
    expect(annotated.annotations?.readOnlyHint === true && annotated._meta?.mastra?.strict === true, 'annotations and _meta');
    return `${names.length} tools`;
  });
  await check('structured result', async () => {
    const r = await call('adder', { a: 2, b: 3 });
    expect(!r.isError && r.structuredContent?.sum === 5 && text(r) === '{"sum":5}', JSON.stringify(r));
    return text(r);
  });
  await check('text result', async () => {
    const r = await call('echoText', { text: 'hi' });
    expect(!r.isError && text(r) === 'hi', JSON.stringify(r));
    return text(r);
  });
  await check('unknown tool', async () => {
    const r = await call('nope', {});
    expect(r.isError === true && text(r) === 'Unknown tool: nope', JSON.stringify(r));
    return text(r);
  });
  await check('invalid input', async () => {
    const r = await call('adder', { a: 'x' });
    expect(r.isError === true && text(r).startsWith('Tool input validation failed for adder.'), JSON.stringify(r));
    return text(r).split('\n')[1];
  });
  await check('tool error', async () => {
    const r = await call('fail', {});
    const err = JSON.parse(text(r));
    expect(r.isError === true && err.code === 'TOOL_EXECUTION_FAILED' && err.message === 'boom', JSON.stringify(r));
    return err.code;
  });
  await check('ask_<agent>', async () => {
    const r = await call('ask_helper', { message: 'Hello?' });
    const out = JSON.parse(text(r));
    expect(!r.isError && out.text === 'Happy to help.' && out.finishReason === 'stop', JSON.stringify(r).slice(0, 300));
    return out.text;
  });
  await check('run_<workflow>', async () => {
    const r = await call('run_double', { n: 21 });
    const out = JSON.parse(text(r));
    expect(!r.isError && out.status === 'success' && out.result?.doubled === 42, JSON.stringify(r).slice(0, 300));
    return `${out.status} ${JSON.stringify(out.result)}`;
  });
  await check('suspend, answered', async () => {
    setAnswer({ action: 'accept', content: { approved: true } });
    const r = await call('confirm', { action: 'deploy' });
    expect(!r.isError && text(r) === '{"action":"deploy","approved":true,"asked":"Approve deploy?"}', JSON.stringify(r));
    return text(r);
  });
  await check('suspend, declined', async () => {
    setAnswer({ action: 'decline' });
    const r = await call('confirm', { action: 'deploy' });
    expect(r.isError === true && text(r) === "Tool 'confirm' was declined", JSON.stringify(r));
    return text(r);
  });
  return checks;
}

// transportArgs parses --http <url> | --stdio <command> [args...].
export function transportArgs(argv) {
  const i = argv.indexOf('--http');
  if (i >= 0) return { http: argv[i + 1] };
  const j = argv.indexOf('--stdio');
  if (j >= 0) return { command: argv[j + 1], args: argv.slice(j + 2) };
  throw new Error('usage: --http <url> | --stdio <command> [args...]');
}

export function report(client, checks) {
  const failed = checks.filter(c => !c.ok);
  process.stdout.write(JSON.stringify({ client, passed: checks.length - failed.length, failed: failed.length, checks }) + '\n');
  process.exitCode = failed.length ? 1 : 0;
}
