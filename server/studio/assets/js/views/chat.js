// The chat with an agent: POST /agents/:id/stream with the user's
// message and the conversation's memory thread, the streamed answer shown
// as it comes, and the continuations a waiting run needs
// (approve-tool-call, decline-tool-call, resume-stream). When the chat
// opens it shows the thread's earlier messages (the memory API), follows
// again an answer a reload cut off (POST /agents/:id/observe, from its
// first event) and offers the decisions the thread's calls still wait
// for (GET /agents/:id/suspended-runs). The thread list switches between
// the chat's threads.

import {h, uuid, uid} from '../dom.js';
import * as api from '../api.js';
import {AssistantTurn} from './turn.js';
import {ToolCard} from './toolcard.js';
import {activeRun, eventChunk, forgetRun, rememberRun} from '../activerun.js';
import {dropActiveTurn, listThreads, showHistory, threadMessages, userMessage} from './history.js';

const threadKey = (agentId) => `gomastra.studio.thread.${agentId}`;

function storedThread(agentId) {
  try {
    return localStorage.getItem(threadKey(agentId)) || '';
  } catch {
    return '';
  }
}

function storeThread(agentId, id) {
  try {
    localStorage.setItem(threadKey(agentId), id);
  } catch {
    // storage disabled: the thread lasts as long as the page
  }
}

// cardKey identifies a tool call: its id within its run.
function cardKey(runId, toolCallId) {
  return `${runId || ''}\u0000${toolCallId}`;
}

export class ChatView {
  // item is the agent's catalog entry.
  constructor(item) {
    this.item = item;
    this.agent = item.data || {};
    this.agentName = item.name;
    // An agent with storage keeps the conversation in a memory thread;
    // without, the page sends the conversation's text with each message.
    this.memory = this.agent.supportsMemory === true;
    this.resourceId = item.id;
    this.threadId = (this.memory && storedThread(item.id)) || this.newThreadId();
    this.history = [];
    this.cards = new Map();
    this.busy = false;
    this.controller = null;
    this.stopping = false;
    this.checkedPending = false;
    this.build();
  }

  newThreadId() {
    const id = uuid();
    if (this.memory) storeThread(this.item.id, id);
    return id;
  }

  build() {
    const a = this.agent;
    const toolEntries = Object.entries(a.tools || {});
    const inputId = uid('chat-input');
    this.threadCode = h('code', {class: 'thread-id'}, this.threadId);
    this.log = h('div', {class: 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-label': `Conversation with ${this.agentName}`, tabindex: '0'},
      h('p', {class: 'chat-empty muted'}, 'Send a message to start.'));
    this.pinned = true;
    this.followFrame = 0;
    this.log.addEventListener('scroll', () => {
      this.pinned = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 80;
    }, {passive: true});
    this.input = h('textarea', {id: inputId, class: 'chat-input', rows: 2, placeholder: `Message ${this.agentName}…`,
      'aria-describedby': `${inputId}-help`});
    this.sendButton = h('button', {type: 'submit', class: 'button primary'}, 'Send');
    this.stopButton = h('button', {type: 'button', class: 'button', hidden: true, onclick: () => this.stop()}, 'Stop');
    const form = h('form', {class: 'composer', novalidate: true},
      h('label', {for: inputId, class: 'visually-hidden'}, `Message to ${this.agentName}`),
      this.input,
      h('div', {class: 'composer-actions'}, this.sendButton, this.stopButton),
      h('p', {id: `${inputId}-help`, class: 'help composer-help'}, 'Enter sends; Shift+Enter starts a new line.'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send();
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.send();
      }
    });
    this.element = h('section', {class: 'view chat', 'data-agent-id': this.item.id, 'data-busy': 'false'},
      h('header', {class: 'view-head chat-head'},
        h('div', {},
          h('p', {class: 'kicker'}, 'Agent'),
          h('h1', {}, this.agentName),
          a.description ? h('p', {class: 'description'}, a.description) : null,
          h('p', {class: 'badges'},
            a.provider || a.modelId ? h('span', {class: 'badge'}, [a.provider, a.modelId].filter(Boolean).join('/')) : null,
            toolEntries.map(([key, t]) => h('span', {class: 'badge tool', title: t.description || null}, key,
              t.requireApproval ? h('span', {class: 'needs-approval'}, ' · approval') : null)))),
        h('div', {class: 'thread'},
          h('p', {class: 'muted'}, this.memory ? 'Thread ' : 'Conversation ', this.threadCode),
          h('button', {type: 'button', class: 'button small', onclick: () => this.newConversation()}, 'New conversation'),
          this.memory ? this.threadPicker() : null)),
      this.log, form);
  }

  // threadPicker is the list of the chat's threads (loaded when opened).
  threadPicker() {
    this.threadList = h('ul', {class: 'thread-list', 'aria-label': 'Threads'});
    const box = h('details', {class: 'threads'}, h('summary', {}, 'Threads'), this.threadList);
    box.addEventListener('toggle', () => {
      if (box.open) this.loadThreads();
    });
    return box;
  }

  // loadThreads lists the resource's threads, newest first.
  async loadThreads() {
    let threads;
    try {
      threads = await listThreads(this.item.id, this.resourceId);
    } catch (e) {
      this.threadList.replaceChildren(h('li', {class: 'muted'}, e && e.message ? e.message : String(e)));
      return;
    }
    if (!threads.length) {
      this.threadList.replaceChildren(h('li', {class: 'muted'}, 'No threads yet.'));
      return;
    }
    this.threadList.replaceChildren(...threads.map((t) => h('li', {},
      h('button', {type: 'button', class: 'thread-pick', 'data-thread-id': t.id, 'aria-current': t.id === this.threadId ? 'true' : null,
        onclick: () => this.openThread(t.id)}, t.title || t.id),
      h('span', {class: 'muted thread-when'}, new Date(t.updatedAt).toLocaleString()))));
  }

  // openThread shows another of the chat's threads.
  openThread(id) {
    if (this.busy || id === this.threadId) return;
    this.threadId = id;
    storeThread(this.item.id, id);
    this.threadCode.textContent = id;
    this.cards.clear();
    this.element.dataset.loaded = 'false';
    this.log.replaceChildren();
    this.load();
    if (this.threadList) this.loadThreads();
  }

  // attached runs each time the chat is shown.
  attached() {
    if (!this.checkedPending) {
      this.checkedPending = true;
      this.load();
    }
    this.follow(true);
  }

  // load shows the thread: its earlier messages, the answer a reload cut
  // off, and the decisions its calls wait for.
  async load() {
    await this.loadHistory();
    await this.reconnect();
    await this.loadPending();
    if (!this.log.childElementCount) this.log.append(h('p', {class: 'chat-empty muted'}, 'Send a message to start.'));
    this.element.dataset.loaded = 'true';
  }

  // loadHistory shows the thread's earlier messages, but those of a run
  // that reconnect follows again.
  async loadHistory() {
    if (!this.memory) return;
    let messages;
    try {
      // A thread the resource does not have yet (a new conversation) has
      // no messages to ask for.
      const threads = await listThreads(this.item.id, this.resourceId);
      if (!threads.some((t) => t.id === this.threadId)) return;
      messages = await threadMessages(this.item.id, this.threadId, this.resourceId);
    } catch {
      return; // not allowed, or no memory API: start empty
    }
    const run = activeRun(this.item.id);
    if (run && run.threadId === this.threadId && run.text) messages = dropActiveTurn(messages, run.text);
    showHistory(this, messages);
  }

  // loadPending shows the calls the thread's suspended runs still wait
  // for (left by an earlier visit).
  async loadPending() {
    if (!this.memory) return;
    const q = new URLSearchParams({threadId: this.threadId, resourceId: this.resourceId});
    let res;
    try {
      res = await api.get(`${api.apiPath('agents', this.item.id, 'suspended-runs')}?${q}`);
    } catch {
      return; // no storage, or not allowed: nothing to show
    }
    const runs = res && Array.isArray(res.runs) ? res.runs : [];
    const calls = runs.flatMap((run) => (run.toolCalls || []).map((c) => ({run, c}))).filter(({c}) => c.toolCallId);
    // A call the history shows gets its decision in place; the others,
    // in a message of their own.
    let turn = null;
    for (const {run, c} of calls) {
      let card = this.cards.get(cardKey(run.runId, c.toolCallId));
      if (card && card.element.dataset.status !== 'unfinished') continue; // shown live already
      if (!card) {
        if (!turn) {
          turn = new AssistantTurn(this, {label: `${this.agentName} (waiting from before)`});
          this.addMessage(turn.element);
        }
        card = this.cardFor(run.runId, c.toolCallId, c.toolName, turn.parts);
      }
      const args = c.args !== undefined ? {args: c.args} : {}; // else the history's
      if (c.requiresApproval) card.needsApproval(run.runId, args);
      else card.suspended(run.runId, {...args, suspendPayload: c.suspendPayload});
    }
    if (turn) turn.end('');
  }

  // cardFor returns the card of a run's tool call, made in parts when
  // new (a continuation of the run finds the card shown before).
  cardFor(runId, toolCallId, toolName, parts) {
    const id = toolCallId || uid('call');
    const key = cardKey(runId, id);
    let card = this.cards.get(key);
    if (!card) {
      card = new ToolCard(this, {runId, toolCallId: id, toolName});
      this.cards.set(key, card);
      parts.append(card.element);
    }
    return card;
  }

  addMessage(el) {
    const empty = this.log.querySelector('.chat-empty');
    if (empty) empty.remove();
    this.log.append(el);
    this.follow(true);
  }

  // follow keeps the newest message in view, unless the user scrolled
  // up to read: at once when forced, else once per frame.
  follow(force) {
    if (force) {
      this.pinned = true;
      this.log.scrollTop = this.log.scrollHeight;
      return;
    }
    if (!this.pinned || this.followFrame) return;
    this.followFrame = requestAnimationFrame(() => {
      this.followFrame = 0;
      if (this.pinned) this.log.scrollTop = this.log.scrollHeight;
    });
  }

  setBusy(busy) {
    this.busy = busy;
    this.sendButton.disabled = busy;
    this.stopButton.hidden = !busy;
    this.element.dataset.busy = String(busy);
    this.syncIdle();
  }

  // syncIdle enables the decision buttons that wait for no stream to run
  // and have not been used.
  syncIdle() {
    for (const b of this.element.querySelectorAll('[data-needs-idle]')) {
      b.disabled = this.busy || b.dataset.used === 'true';
    }
  }

  // stop ends the answer streaming now: the page stops reading it, and
  // the run, which would go on without a reader, is aborted.
  stop() {
    if (!this.controller) return;
    this.stopping = true;
    this.controller.abort();
    const run = activeRun(this.item.id);
    if (!run) return;
    forgetRun(this.item.id, run.runId);
    if (this.memory && run.threadId) {
      api.post(api.apiPath('agents', this.item.id, 'threads', 'abort'),
        {threadId: run.threadId, resourceId: this.resourceId, expectedRunId: run.runId}).catch(() => {});
    }
  }

  newConversation() {
    this.stop();
    this.threadId = this.newThreadId();
    this.threadCode.textContent = this.threadId;
    this.history = [];
    this.cards.clear();
    this.log.replaceChildren(h('p', {class: 'chat-empty muted'}, 'Send a message to start.'));
    this.input.focus();
  }

  async send() {
    const text = this.input.value.trim();
    if (!text || this.busy) return;
    this.input.value = '';
    this.addMessage(userMessage(text));
    const message = {role: 'user', content: text};
    const body = {messages: this.memory ? [message] : [...this.history, message]};
    if (this.memory) body.memory = {thread: this.threadId, resource: this.resourceId};
    this.history.push(message);
    body.runId = uuid();
    rememberRun(this.item.id, {runId: body.runId, threadId: this.memory ? this.threadId : '', text});
    await this.run('stream', body);
    this.input.focus();
  }

  // reconnect follows the answer a reload cut off, when the page had
  // one streaming in this thread: the user's message again, then the
  // run's events from the first (the run went on meanwhile), live until
  // it ends. A run the server no longer knows is forgotten.
  async reconnect() {
    const run = activeRun(this.item.id);
    if (!run || this.busy || (this.memory && run.threadId !== this.threadId)) return;
    if (run.text) this.addMessage(userMessage(run.text));
    const events = (async function* observe(view, signal) {
      for await (const event of await api.stream(api.apiPath('agents', view.item.id, 'observe'), {runId: run.runId, offset: 0}, {signal})) {
        const chunk = eventChunk(event);
        if (chunk) yield chunk;
      }
    })(this, (this.controller = new AbortController()).signal);
    const refused = await this.showStream(events, new AssistantTurn(this), run.runId, true);
    if (!refused) return;
    if (run.text) this.log.lastElementChild?.remove(); // the user message of a run that is gone
  }

  // resume continues a waiting run (path: approve-tool-call,
  // decline-tool-call or resume-stream) in a new message. It returns ''
  // or, when the server refused before streaming, the error.
  async resume(path, body) {
    if (this.busy) return 'Another answer is still streaming.';
    return this.run(path, body);
  }

  // run streams POST /agents/:id/<path> into a new assistant message.
  // It returns '' when the stream started, else the error.
  async run(path, body) {
    const controller = (this.controller = new AbortController());
    const chunks = (async function* post(view) {
      yield* await api.stream(api.apiPath('agents', view.item.id, path), body, {signal: controller.signal});
    })(this);
    return this.showStream(chunks, new AssistantTurn(this), path === 'stream' ? body.runId : '', path !== 'stream');
  }

  // showStream shows chunks (this.controller stops them) in turn, a new
  // assistant message, and forgets the active run runId once its answer
  // is over (not when the page is going away). It returns '' when the
  // stream started, else the error; a refused continuation (dropTurn)
  // leaves no message, the card that asked shows the error.
  async showStream(chunks, turn, runId, dropTurn) {
    this.setBusy(true);
    this.stopping = false;
    this.addMessage(turn.element);
    let refused = '';
    let over = true;
    try {
      for await (const chunk of chunks) {
        turn.handle(chunk);
        this.follow(false);
      }
      turn.end('');
    } catch (e) {
      if (e && e.name === 'AbortError') {
        over = this.stopping;
        turn.note('Stopped.');
        turn.end('');
      } else {
        const msg = e && e.message ? e.message : String(e);
        if (e instanceof api.APIError) refused = msg;
        if (refused && dropTurn) turn.element.remove();
        else turn.end(msg);
      }
    } finally {
      if (runId && over) forgetRun(this.item.id, runId);
      this.controller = null;
      this.setBusy(false);
      const said = turn.text();
      if (!this.memory && said) this.history.push({role: 'assistant', content: said});
      this.follow(false);
    }
    return refused;
  }
}
