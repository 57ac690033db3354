// The checks both interop clients run against the resources, prompts and
// completions of gomastra's MCP server (mcpserver's featuresConfig in
// interop_test.go): a listed resource, a binary one, a templated one, a
// subscription hearing an update (clients that subscribe with
// resources/subscribe), prompts (one with a required argument, one asking
// for input first) and completions.
//
// client is the connected client under test; onUpdated(fn) registers the
// resources/updated notification handler, or is undefined when the client
// does not subscribe with resources/subscribe; setAnswer as in checks.mjs.
export async function runFeatureChecks({ client, onUpdated, setAnswer }) {
  const checks = [];
  const check = async (name, fn) => {
    try {
      checks.push({ name, ok: true, detail: await fn() });
    } catch (e) {
      checks.push({ name, ok: false, detail: e instanceof Error ? e.message : String(e) });
    }
  };
  const expect = (cond, msg) => {
    if (!cond) throw new Error(msg);
  };

  await check('resources/list', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map(r => r.uri).sort();
    expect(JSON.stringify(uris) === '["docs://logo","docs://readme"]', `uris ${JSON.stringify(uris)}`);
    return uris.join(' ');
  });
  await check('resources/templates/list', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.length === 1 && resourceTemplates[0].uriTemplate === 'docs://pages/{name}', JSON.stringify(resourceTemplates));
    return resourceTemplates[0].uriTemplate;
  });
  await check('resources/read text', async () => {
    const { contents } = await client.readResource({ uri: 'docs://readme' });
    expect(contents[0].text === '# Readme' && contents[0].mimeType === 'text/markdown' && contents[0].uri === 'docs://readme', JSON.stringify(contents));
    return contents[0].text;
  });
  await check('resources/read blob', async () => {
    const { contents } = await client.readResource({ uri: 'docs://logo' });
    expect(contents[0].blob === Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') && contents[0].mimeType === 'image/png', JSON.stringify(contents));
    return contents[0].blob;
  });
  await check('resources/read template', async () => {
    const { contents } = await client.readResource({ uri: 'docs://pages/intro' });
    expect(contents[0].text === 'page intro', JSON.stringify(contents));
    return contents[0].text;
  });
  await check('resources/read unknown', async () => {
    try {
      await client.readResource({ uri: 'docs://nope' });
    } catch (e) {
      return e.message;
    }
    throw new Error('no error');
  });
  if (onUpdated) {
    await check('resources/subscribe and updated', async () => {
      let timer;
      const heard = new Promise((resolve, reject) => {
        onUpdated(n => resolve(n.params.uri));
        timer = setTimeout(() => reject(new Error('no notifications/resources/updated within 10s')), 10000);
      }).finally(() => clearTimeout(timer));
      await client.subscribeResource({ uri: 'docs://readme' });
      const r = await client.callTool({ name: 'touch', arguments: { uri: 'docs://readme' } });
      expect(!r.isError, JSON.stringify(r));
      const uri = await heard;
      expect(uri === 'docs://readme', uri);
      await client.unsubscribeResource({ uri: 'docs://readme' });
      return uri;
    });
  }
  await check('prompts/list', async () => {
    const { prompts } = await client.listPrompts();
    const names = prompts.map(p => p.name).sort();
    expect(JSON.stringify(names) === '["brief","review"]', JSON.stringify(names));
    return names.join(' ');
  });
  await check('prompts/get with arguments', async () => {
    const r = await client.getPrompt({ name: 'review', arguments: { language: 'Go' } });
    expect(r.messages[0].content.text === 'Review this Go code.' && r.messages[0].role === 'user', JSON.stringify(r));
    return r.messages[0].content.text;
  });
  await check('prompts/get missing argument', async () => {
    try {
      await client.getPrompt({ name: 'review', arguments: {} });
    } catch (e) {
      expect(e.message.includes('Missing required argument: language'), e.message);
      return e.message;
    }
    throw new Error('no error');
  });
  await check('prompts/get asking for input', async () => {
    setAnswer({ action: 'accept', content: { topic: 'Go' } });
    const r = await client.getPrompt({ name: 'brief' });
    expect(r.messages[0].content.text === 'Write a brief on Go', JSON.stringify(r));
    return r.messages[0].content.text;
  });
  await check('completion/complete', async () => {
    const r = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'G' } });
    expect(JSON.stringify(r.completion.values) === '["Go","Gleam"]' && r.completion.total === 2, JSON.stringify(r));
    return r.completion.values.join(' ');
  });
  return checks;
}
