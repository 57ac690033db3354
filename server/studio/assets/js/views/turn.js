// One assistant message in the chat: the chunks of one stream (a run, or
// the continuation of a run after an approval or an answer) turned into
// text, reasoning, tool cards, errors and a closing line.

import {h} from '../dom.js';
import {errorText} from './toolcard.js';

export class AssistantTurn {
  // chat is the ChatView: it owns the tool cards (a continuation updates
  // a card shown in an earlier message) and follows the scroll.
  constructor(chat, {label} = {}) {
    this.chat = chat;
    this.runId = '';
    this.chunkRunId = '';
    this.cards = new Set(); // the cards this stream touched
    this.textParts = [];
    this.textNode = null;
    this.reasoningNode = null;
    this.finished = false;
    this.parts = h('div', {class: 'msg-parts'});
    this.footer = h('p', {class: 'msg-footer'});
    this.typing = h('span', {class: 'typing', 'aria-hidden': 'true'}, h('span'), h('span'), h('span'));
    this.element = h('article', {class: 'msg assistant', 'aria-label': label || 'Assistant', 'data-state': 'streaming'},
      h('div', {class: 'msg-role'}, label || chat.agentName), this.parts, this.typing, this.footer);
  }

  // text is the message's text so far (for chats without memory).
  text() {
    return this.textParts.join('');
  }

  // handle applies one chunk.
  handle(chunk) {
    if (!chunk || typeof chunk !== 'object') return;
    const p = chunk.payload && typeof chunk.payload === 'object' ? chunk.payload : {};
    if (chunk.runId && !this.runId) this.runId = chunk.runId;
    this.chunkRunId = chunk.runId || this.runId;
    switch (chunk.type) {
      case 'text-start':
        this.textNode = null;
        break;
      case 'text-delta':
        this.addText(typeof p.text === 'string' ? p.text : '');
        break;
      case 'text-end':
        this.textNode = null;
        break;
      case 'reasoning-start':
        this.reasoningNode = null;
        break;
      case 'reasoning-delta':
        this.addReasoning(typeof p.text === 'string' ? p.text : '');
        break;
      case 'reasoning-end':
        this.reasoningNode = null;
        break;
      case 'tool-call-input-streaming-start':
        this.card(p);
        break;
      case 'tool-call-delta':
        this.card(p).addArgsDelta(p.argsTextDelta);
        break;
      case 'tool-call':
        this.card(p).called(p);
        break;
      case 'tool-result':
        this.card(p).result(p);
        break;
      case 'tool-error':
        this.card(p).failed(p);
        break;
      case 'tool-output-denied':
        this.card(p).denied(p);
        break;
      case 'tool-output':
        this.card(p).output(p);
        break;
      case 'tool-call-approval':
        this.card(p).needsApproval(this.chunkRunId, p);
        break;
      case 'tool-call-suspended':
        this.card(p).suspended(this.chunkRunId, p);
        break;
      case 'error':
        this.addError(errorText(p.error !== undefined ? p.error : chunk.error));
        break;
      case 'tripwire':
        this.addError(`Stopped by a guardrail: ${p.reason || 'no reason given'}`);
        break;
      case 'abort':
        this.note('The run was aborted.');
        break;
      case 'finish':
        this.finishWith(p);
        break;
      default:
        break;
    }
  }

  card(p) {
    this.textNode = null;
    const card = this.chat.cardFor(this.chunkRunId, p.toolCallId, p.toolName, this.parts);
    this.cards.add(card);
    return card;
  }

  addText(delta) {
    if (!delta) return;
    if (!this.textNode) {
      this.textNode = document.createTextNode('');
      this.parts.append(h('div', {class: 'msg-text'}, this.textNode));
    }
    this.textNode.appendData(delta);
    this.textParts.push(delta);
  }

  addReasoning(delta) {
    if (!delta) return;
    if (!this.reasoningNode) {
      this.reasoningNode = document.createTextNode('');
      this.parts.append(h('details', {class: 'reasoning'}, h('summary', {}, 'Reasoning'), h('div', {class: 'reasoning-text'}, this.reasoningNode)));
    }
    this.reasoningNode.appendData(delta);
  }

  addError(message) {
    this.textNode = null;
    this.parts.append(h('p', {class: 'msg-error', role: 'alert'}, message));
  }

  note(message) {
    this.parts.append(h('p', {class: 'muted msg-note'}, message));
  }

  finishWith(p) {
    this.finished = true;
    const reason = p.stepResult && p.stepResult.reason;
    const usage = (p.output && p.output.usage) || p.totalUsage || null;
    const bits = [];
    if (reason) bits.push(reason === 'stop' ? 'finished' : `finished: ${reason}`);
    if (usage && typeof usage.totalTokens === 'number' && usage.totalTokens > 0) bits.push(`${usage.totalTokens} tokens`);
    this.footer.textContent = bits.join(' · ');
    if (reason === 'error') this.element.dataset.state = 'error';
  }

  // end closes the message when its stream is over (err: a failure).
  end(err) {
    this.typing.remove();
    for (const card of this.cards) card.settle();
    if (err) this.addError(err);
    if (this.element.dataset.state === 'streaming') {
      const waiting = this.element.querySelector('.tool-card[data-status="approval"], .tool-card[data-status="suspended"]');
      this.element.dataset.state = err ? 'error' : waiting ? 'waiting' : 'done';
    }
    if (this.runId) this.footer.title = `run ${this.runId}`;
    if (!this.parts.childElementCount && !err) this.note(this.finished ? 'No text.' : 'The stream ended without output.');
  }
}
