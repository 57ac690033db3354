// Reads UI message streams written by gomastra's server/aisdk tests with
// the AI SDK's own client code: DefaultChatTransport (its SSE parsing and
// the uiMessageChunkSchema validation of every part) and
// readUIMessageStream (the message useChat builds from the parts). Run by
// hand:
//
//   AISDK_DUMP_DIR=$(mktemp -d) go test ./server/aisdk/
//   node verify.mjs "$AISDK_DUMP_DIR"
//
// Streams are read in name order; a stream that resumes a run (its first
// part is not a start part, or a start part naming the message before)
// continues the message of the stream before it, as useChat continues its
// last assistant message. An error part is
// reported (useChat shows it); a part the client rejects fails the stream.
// It prints one line per stream and exits 1 when one does not read.
import fs from 'node:fs';
import path from 'node:path';
import { DefaultChatTransport, readUIMessageStream } from 'ai';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node verify.mjs <dump dir>');
  process.exit(2);
}
const files = fs.readdirSync(dir).filter(f => f.endsWith('.sse')).sort();

let failed = 0;
let previous;
for (const file of files) {
  const body = fs.readFileSync(path.join(dir, file));
  const transport = new DefaultChatTransport({
    api: 'http://127.0.0.1/chat/agent',
    // No request leaves the process: the recorded body is the answer.
    fetch: async () =>
      new Response(body, {
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
      }),
  });
  const first = JSON.parse(body.toString().split('\n\n')[0].replace(/^data: /, '') || '{}');
  const continues = previous && (first.type !== 'start' || first.messageId === previous.id);
  const errors = [];
  try {
    const chunks = await transport.sendMessages({
      chatId: 'chat-1',
      messages: [{ id: 'msg-1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    let message;
    for await (const m of readUIMessageStream({
      message: continues ? structuredClone(previous) : undefined,
      stream: chunks,
      onError: e => errors.push(e),
    })) {
      message = m;
    }
    const rejected = errors.find(e => /TypeValidation|JSONParse|InvalidStreamPart/.test(e?.name ?? '') || /No tool invocation/.test(e?.message));
    if (rejected) throw rejected;
    const parts = (message?.parts ?? []).map(p => p.type + (p.state ? `(${p.state})` : ''));
    const note = errors.length ? `  [error part: ${errors.map(e => e.message).join('; ')}]` : '';
    console.log('ok  ', file, parts.join(' ') + note);
    previous = message;
  } catch (err) {
    failed++;
    console.log('FAIL', file, String(err?.message ?? err).split('\n')[0]);
  }
}
process.exit(failed ? 1 : 0);
