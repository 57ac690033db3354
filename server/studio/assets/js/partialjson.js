// Partial JSON: the arguments of a tool call arrive as text deltas
// (tool-call-delta argsTextDelta); parsePartialJSON shows what has come
// so far as a value. Semantics of the AI SDK's parsePartialJson: a strict
// parse first; else the text is repaired by closing the open string,
// arrays and objects and dropping what cannot be completed (a dangling
// key, a trailing comma, half a number or literal).

// parsePartialJSON returns {value, state}: state is "undefined-input"
// (text undefined or null), "successful-parse", "repaired-parse" or
// "failed-parse" (value undefined).
export function parsePartialJSON(text) {
  if (text === undefined || text === null) {
    return {value: undefined, state: 'undefined-input'};
  }
  try {
    return {value: JSON.parse(text), state: 'successful-parse'};
  } catch {
    // repair below
  }
  const repaired = repairJSON(text);
  if (repaired !== undefined) return {value: repaired, state: 'repaired-parse'};
  return {value: undefined, state: 'failed-parse'};
}

const closer = {'{': '}', '[': ']'};

function closeWith(stack) {
  let s = '';
  for (let i = stack.length - 1; i >= 0; i--) s += closer[stack[i]];
  return s;
}

function tryParse(text) {
  try {
    return {ok: true, value: JSON.parse(text)};
  } catch {
    return {ok: false};
  }
}

// repairJSON scans the text once, noting the places where it could be
// cut and closed (after an opening bracket, before a comma, after a
// closed container), then tries the whole text closed, then each cut from
// the last back: the first that parses is the value.
function repairJSON(text) {
  const stack = [];
  const cuts = []; // {at, stack}
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        break;
      case '{':
      case '[':
        stack.push(c);
        cuts.push({at: i + 1, stack: stack.slice()});
        break;
      case '}':
      case ']':
        if (stack.length === 0 || closer[stack[stack.length - 1]] !== c) return undefined;
        stack.pop();
        cuts.push({at: i + 1, stack: stack.slice()});
        break;
      case ',':
        cuts.push({at: i, stack: stack.slice()});
        break;
      default:
        break;
    }
  }
  // The whole text, completed.
  let tail = text;
  if (inString) {
    tail = tail.replace(/\\u[0-9a-fA-F]{0,3}$/, '');
    if (escaped || /(^|[^\\])(\\\\)*\\$/.test(tail)) tail = tail.slice(0, -1);
    tail += '"';
  } else {
    tail = completeLiteral(tail.replace(/\s+$/, ''));
  }
  let r = tryParse(tail + closeWith(stack));
  if (r.ok) return r.value;
  for (let k = cuts.length - 1; k >= 0; k--) {
    const cut = cuts[k];
    r = tryParse(text.slice(0, cut.at) + closeWith(cut.stack));
    if (r.ok) return r.value;
  }
  return undefined;
}

// completeLiteral finishes a literal cut short (tru → true, nul → null)
// and cuts an unfinished number back to its longest valid start (1. → 1,
// 2.5e+ → 2.5, - → nothing).
function completeLiteral(text) {
  const lit = /(?:^|[\s,:[{])(t|tr|tru|f|fa|fal|fals|n|nu|nul)$/.exec(text);
  if (lit) {
    const word = lit[1];
    const full = word[0] === 't' ? 'true' : word[0] === 'f' ? 'false' : 'null';
    return text + full.slice(word.length);
  }
  const num = /(?:^|[\s,:[{])(-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?)$/.exec(text);
  if (num && num[1] !== '') {
    const valid = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(num[1]);
    return text.slice(0, text.length - num[1].length) + (valid ? valid[0] : '');
  }
  return text;
}
