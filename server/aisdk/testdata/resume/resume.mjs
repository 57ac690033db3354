// Reconnects to a resumable gomastra chat route with the AI SDK's own
// client (DefaultChatTransport: its reconnect URL, its handling of 204,
// its SSE parsing; readUIMessageStream: the message useChat builds). Run
// by TestResumableWithAISDKClient (see there), inside a loopback-only
// network namespace:
//
//   node resume.mjs http://127.0.0.1:PORT
//
// It sends a message, drops the connection after the tool's input, then
// reconnects and reads the whole answer, then reconnects again once the
// run is over; it prints one JSON line with what it saw.
import { DefaultChatTransport, readUIMessageStream } from 'ai';

const base = process.argv[2];
const chatId = 'chat-node';
const transport = new DefaultChatTransport({ api: `${base}/chat/gated-agent` });

const before = await transport.reconnectToStream({ chatId });

const ac = new AbortController();
const messages = [{ id: 'msg-1', role: 'user', parts: [{ type: 'text', text: 'wait for it' }] }];
const first = await transport.sendMessages({ chatId, messages, abortSignal: ac.signal, trigger: 'submit-message', messageId: undefined });
const sent = [];
const reader = first.getReader();
for (;;) {
  const { value, done } = await reader.read();
  if (done) break;
  sent.push(value.type);
  if (value.type === 'tool-input-available') break;
}
ac.abort();
await reader.cancel().catch(() => {});

const again = await transport.reconnectToStream({ chatId });
if (!again) {
  console.log(JSON.stringify({ error: 'no stream to reconnect to' }));
  process.exit(1);
}
let message;
for await (const m of readUIMessageStream({ stream: again })) message = m;

let afterEnd = false;
for (let i = 0; i < 100 && !afterEnd; i++) {
  const s = await transport.reconnectToStream({ chatId });
  if (s === null) afterEnd = true;
  else {
    await s.cancel();
    await new Promise(r => setTimeout(r, 50));
  }
}
console.log(JSON.stringify({ before: before === null, sent, message, afterEnd }));
