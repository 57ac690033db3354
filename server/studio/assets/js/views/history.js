// A chat's memory, read back through the memory API: the threads of the
// chat's resource (GET /memory/threads) and a thread's earlier messages
// (GET /memory/threads/:id/messages, in Mastra's stored format), shown
// as the live chat shows them — user messages, and assistant turns
// rebuilt from their parts: text, reasoning, and tool-invocation parts
// as tool cards with their arguments and results. A call still waiting
// (state "call") gets the card of the run that waits (its runId is in the
// message's metadata), so that the chat's pending calls, loaded next,
// offer their decision on it.

import {h} from '../dom.js';
import * as api from '../api.js';
import {AssistantTurn} from './turn.js';

// userMessage is a message the user sent, as the chat shows it.
export function userMessage(text) {
  return h('article', {class: 'msg user', 'aria-label': 'You'}, h('div', {class: 'msg-role'}, 'You'), h('div', {class: 'msg-text'}, text));
}

// listThreads returns the resource's threads, newest first.
export async function listThreads(agentId, resourceId) {
  const q = new URLSearchParams({agentId, resourceId, perPage: 'false'});
  const res = await api.get(`${api.apiPath('memory', 'threads')}?${q}`);
  return Array.isArray(res && res.threads) ? res.threads : [];
}

// threadMessages returns a thread's messages, oldest first.
export async function threadMessages(agentId, threadId, resourceId) {
  const q = new URLSearchParams({agentId, resourceId, perPage: 'false'});
  const res = await api.get(`${api.apiPath('memory', 'threads', threadId, 'messages')}?${q}`);
  return Array.isArray(res && res.messages) ? res.messages : [];
}

// textOf is a stored message's text.
function textOf(m) {
  const c = m.content;
  if (typeof c === 'string') return c;
  const parts = c && Array.isArray(c.parts) ? c.parts : [];
  const text = parts.filter((p) => p && p.type === 'text').map((p) => p.text || '').join('');
  return text || (c && typeof c.content === 'string' ? c.content : '');
}

// dropActiveTurn removes the messages of the run a reload cut off, which
// the chat follows again from its first event: the last user message
// with that text and everything after it.
export function dropActiveTurn(messages, text) {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user' && textOf(messages[i]) === text) return messages.slice(0, i);
  }
  return messages;
}

// showHistory adds the messages to the chat's log.
export function showHistory(chat, messages) {
  for (const m of messages) {
    if (m.role === 'user') {
      chat.addMessage(userMessage(textOf(m)));
    } else if (m.role === 'assistant') {
      showTurn(chat, m);
    }
  }
}

function showTurn(chat, m) {
  const c = m.content && typeof m.content === 'object' ? m.content : {parts: [{type: 'text', text: textOf(m)}]};
  const meta = c.metadata || {};
  const waiting = {...(meta.suspendedTools || {}), ...(meta.pendingToolApprovals || {})};
  const turn = new AssistantTurn(chat, {label: chat.agentName});
  turn.element.dataset.history = 'true';
  chat.addMessage(turn.element);
  for (const p of Array.isArray(c.parts) ? c.parts : []) {
    switch (p && p.type) {
      case 'text':
        turn.addText(p.text || '');
        turn.textNode = null;
        break;
      case 'reasoning':
        turn.addReasoning(p.reasoning || (p.details || []).map((d) => d.text || '').join(''));
        turn.reasoningNode = null;
        break;
      case 'tool-invocation':
        showCall(chat, turn, p.toolInvocation || {}, waiting);
        break;
      default:
        break;
    }
  }
  turn.end('');
}

function showCall(chat, turn, inv, waiting) {
  const w = waiting[inv.toolCallId];
  const card = chat.cardFor(w && w.runId ? w.runId : '', inv.toolCallId, inv.toolName, turn.parts);
  card.setArgs(inv.args);
  if (inv.state === 'result') card.result({result: inv.result});
  else card.setStatus('unfinished');
}
