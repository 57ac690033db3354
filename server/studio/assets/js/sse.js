// Reading Mastra's SSE streams: frames "data: <json>\n\n", ending with
// "data: [DONE]". Comment lines (": connected") and frames that are not
// JSON are skipped, as Mastra's client does.

// readSSE yields the parsed JSON chunks of a fetch Response's body until
// "[DONE]" or the end of the body.
export async function* readSSE(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const {value, done} = await reader.read();
      buffer += decoder.decode(value || new Uint8Array(), {stream: !done});
      let cut;
      while ((cut = frameEnd(buffer)) !== null) {
        const frame = buffer.slice(0, cut.at);
        buffer = buffer.slice(cut.at + cut.length);
        const data = frameData(frame);
        if (data === null) continue;
        if (data === '[DONE]') return;
        const chunk = parseJSON(data);
        if (chunk !== undefined) yield chunk;
      }
      if (done) {
        const data = frameData(buffer);
        if (data !== null && data !== '[DONE]') {
          const chunk = parseJSON(data);
          if (chunk !== undefined) yield chunk;
        }
        return;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

// frameEnd finds the blank line that ends the first frame.
function frameEnd(buffer) {
  const m = /\r?\n\r?\n/.exec(buffer);
  return m ? {at: m.index, length: m[0].length} : null;
}

// frameData joins a frame's data lines (null when it has none).
export function frameData(frame) {
  const lines = [];
  for (const line of frame.split(/\r?\n/)) {
    if (line.startsWith('data:')) lines.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  return lines.length ? lines.join('\n') : null;
}

function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
