// A tool call in the chat: its name and status, its arguments as they
// stream in, then its result or error; and, when the run waits on it, the
// decision it needs: Approve / Decline, an answer to an ask_user
// question, or resume data for any other suspended tool.

import {h, pretty, uid} from '../dom.js';
import {parsePartialJSON} from '../partialjson.js';
import {parseSchemaString} from '../api.js';
import {SchemaForm} from '../schemaform.js';

const statusText = {
  preparing: 'Writing arguments…',
  running: 'Running…',
  done: 'Done',
  error: 'Failed',
  approval: 'Waiting for approval',
  approved: 'Approved',
  declined: 'Declined',
  suspended: 'Waiting for your answer',
  answered: 'Answered',
  unfinished: 'No result',
};

// errorText renders a chunk's error: a string, or an object with a
// message.
export function errorText(err) {
  if (typeof err === 'string') return err;
  if (err && typeof err === 'object' && typeof err.message === 'string') return err.message;
  return pretty(err);
}

// show renders a value compactly when it fits on a line, else indented.
function show(v) {
  if (v === undefined) return '';
  try {
    const one = JSON.stringify(v);
    if (one !== undefined && one.length <= 72) return one;
  } catch {
    // not JSON: pretty copes
  }
  return pretty(v);
}

export class ToolCard {
  // chat is the ChatView (its resume(path, body) continues the run);
  // call is {runId, toolCallId, toolName}.
  constructor(chat, {runId, toolCallId, toolName}) {
    this.chat = chat;
    this.toolCallId = toolCallId;
    this.toolName = toolName || 'tool';
    this.argsText = '';
    this.frame = 0;
    this.status = h('span', {class: 'badge tool-status'});
    this.args = h('pre', {class: 'json tool-args', 'aria-label': `Arguments of ${this.toolName}`});
    this.outcome = h('div', {class: 'tool-outcome'});
    this.action = h('div', {class: 'tool-action'});
    this.progress = null;
    // actionGen counts the decisions shown: a continuation that asks
    // again replaces the decision, and the answer to the older one must
    // not touch the new one.
    this.actionGen = 0;
    this.element = h('div', {class: 'tool-card', 'data-run-id': runId || null, 'data-tool-call-id': toolCallId, 'data-tool-name': this.toolName},
      h('div', {class: 'tool-head'}, h('span', {class: 'tool-icon', 'aria-hidden': 'true'}, '⚙'),
        h('strong', {class: 'tool-name'}, this.toolName), this.status),
      this.argsBox = h('details', {class: 'tool-section tool-args-box', open: true}, h('summary', {class: 'tool-label'}, 'Arguments'), this.args),
      this.outcome, this.action);
    this.setStatus('preparing');
  }

  // settle marks a call its stream left without an outcome (the stream
  // stopped, or a client tool the page does not run).
  settle() {
    const s = this.element.dataset.status;
    if (s === 'preparing' || s === 'running') this.setStatus('unfinished');
  }

  setStatus(s) {
    this.element.dataset.status = s;
    this.status.textContent = statusText[s] || s;
  }

  // addArgsDelta appends streamed argument text; the display follows at
  // most once per frame, parsed as partial JSON.
  addArgsDelta(delta) {
    this.argsText += delta || '';
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const p = parsePartialJSON(this.argsText);
      this.args.dataset.state = p.state;
      this.args.textContent = p.value === undefined ? this.argsText : show(p.value);
    });
  }

  // setArgs shows the call's complete arguments.
  setArgs(args) {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.args.dataset.state = 'complete';
    this.args.textContent = args === undefined ? '{}' : show(args);
  }

  called(payload) {
    if ('args' in payload) this.setArgs(payload.args);
    if (this.element.dataset.status === 'preparing') this.setStatus('running');
  }

  result(payload) {
    if ('args' in payload && this.args.dataset.state !== 'complete') this.setArgs(payload.args);
    this.action.replaceChildren();
    const isError = payload.isError === true;
    this.setStatus(isError ? 'error' : 'done');
    this.outcome.replaceChildren(h('div', {class: 'tool-section'}, h('span', {class: 'tool-label'}, isError ? 'Error result' : 'Result'),
      h('pre', {class: 'json tool-result'}, show(payload.result))));
  }

  failed(payload) {
    this.action.replaceChildren();
    this.setStatus('error');
    this.outcome.replaceChildren(h('div', {class: 'tool-section'}, h('span', {class: 'tool-label'}, 'Error'),
      h('pre', {class: 'tool-error', role: 'alert'}, errorText(payload.error))));
  }

  denied(payload) {
    this.action.replaceChildren();
    this.setStatus('declined');
    const reason = payload.approval && payload.approval.reason;
    this.outcome.replaceChildren(h('p', {class: 'tool-denied'}, 'The call was declined' + (reason ? `: ${reason}` : '.')));
  }

  // output adds what the tool wrote while running (tool-output).
  output(payload) {
    if (!this.progress) {
      this.progressList = h('ol', {class: 'tool-progress'});
      this.progress = h('details', {class: 'tool-section'}, h('summary', {}, 'Progress'), this.progressList);
      this.outcome.before(this.progress);
    }
    this.progressList.append(h('li', {}, h('pre', {class: 'json'}, pretty(payload.output))));
  }

  // needsApproval shows Approve / Decline for run runId.
  needsApproval(runId, payload) {
    if (payload && 'args' in payload) this.setArgs(payload.args);
    this.setStatus('approval');
    const gen = ++this.actionGen;
    const reasonId = uid('reason');
    const reason = h('input', {id: reasonId, type: 'text', class: 'reason', autocomplete: 'off'});
    const approve = h('button', {type: 'button', class: 'button primary', 'data-action': 'approve', 'data-needs-idle': true}, 'Approve');
    const decline = h('button', {type: 'button', class: 'button danger', 'data-action': 'decline', 'data-needs-idle': true}, 'Decline');
    const problem = h('p', {class: 'action-error', role: 'alert', hidden: true});
    const decide = async (approved) => {
      for (const b of [approve, decline]) b.dataset.used = 'true';
      this.chat.syncIdle();
      problem.hidden = true;
      this.setStatus(approved ? 'approved' : 'declined');
      const body = {runId, toolCallId: this.toolCallId};
      if (!approved && reason.value.trim()) body.reason = reason.value.trim();
      const err = await this.chat.resume(approved ? 'approve-tool-call' : 'decline-tool-call', body);
      if (gen !== this.actionGen) return;
      if (err) {
        problem.textContent = err;
        problem.hidden = false;
        this.setStatus('approval');
        for (const b of [approve, decline]) delete b.dataset.used;
        this.chat.syncIdle();
      } else {
        this.action.replaceChildren(h('p', {class: 'muted'}, approved ? 'You approved this call.' : 'You declined this call.'));
      }
    };
    approve.addEventListener('click', () => decide(true));
    decline.addEventListener('click', () => decide(false));
    this.action.replaceChildren(h('div', {class: 'decision', role: 'group', 'aria-label': `Approve ${this.toolName}?`},
      h('p', {class: 'decision-title'}, `${this.toolName} needs your approval to run.`),
      h('div', {class: 'row'}, approve, decline,
        h('label', {for: reasonId, class: 'inline muted'}, 'Reason (optional)'), reason),
      problem));
    this.chat.syncIdle();
  }

  // suspended shows what the suspended call waits for: an answer to a
  // question (ask_user's payload {question, options?, selectionMode?}),
  // or resume data for the call's resumeSchema.
  suspended(runId, payload) {
    if (payload && 'args' in payload) this.setArgs(payload.args);
    this.setStatus('suspended');
    const gen = ++this.actionGen;
    const sp = payload ? payload.suspendPayload : undefined;
    const problem = h('p', {class: 'action-error', role: 'alert', hidden: true});
    const controls = [];
    const send = async (resumeData, shown) => {
      for (const c of controls) c.dataset.used = 'true';
      this.chat.syncIdle();
      problem.hidden = true;
      this.setStatus('answered');
      const err = await this.chat.resume('resume-stream', {runId, toolCallId: this.toolCallId, resumeData});
      if (gen !== this.actionGen) return;
      if (err) {
        problem.textContent = err;
        problem.hidden = false;
        this.setStatus('suspended');
        for (const c of controls) delete c.dataset.used;
        this.chat.syncIdle();
      } else {
        this.action.replaceChildren(h('p', {class: 'answered'}, 'You answered: ', h('strong', {}, shown)));
      }
    };
    let body;
    if (sp && typeof sp === 'object' && typeof sp.question === 'string') {
      this.argsBox.open = false; // the question says it all
      body = this.questionUI(sp, controls, send);
    } else {
      body = this.resumeUI(sp, payload ? payload.resumeSchema : undefined, controls, send);
    }
    this.action.replaceChildren(body, problem);
    this.chat.syncIdle();
  }

  questionUI(sp, controls, send) {
    const options = Array.isArray(sp.options) ? sp.options.filter((o) => o && typeof o.label === 'string') : [];
    const multi = sp.selectionMode === 'multi_select' && options.length > 0;
    const qid = uid('question');
    const parts = [h('p', {class: 'question', id: qid}, sp.question)];
    if (options.length && !multi) {
      parts.push(h('div', {class: 'options', role: 'group', 'aria-labelledby': qid}, options.map((o) => {
        const b = h('button', {type: 'button', class: 'button option', 'data-needs-idle': true, 'data-option': o.label,
          onclick: () => send(o.label, o.label)}, o.label,
          o.description ? h('span', {class: 'option-desc'}, o.description) : null);
        controls.push(b);
        return b;
      })));
    }
    if (multi) {
      const boxes = options.map((o) => {
        const id = uid('opt');
        const box = h('input', {type: 'checkbox', id, value: o.label});
        return {box, el: h('div', {class: 'row'}, box, h('label', {for: id, class: 'inline'}, o.label,
          o.description ? h('span', {class: 'option-desc'}, ` — ${o.description}`) : null))};
      });
      const sendChoices = h('button', {type: 'button', class: 'button primary', 'data-needs-idle': true,
        onclick: () => {
          const picked = boxes.filter((b) => b.box.checked).map((b) => b.box.value);
          if (picked.length) send(picked, picked.join(', '));
        }}, 'Send choices');
      controls.push(sendChoices);
      parts.push(h('fieldset', {class: 'options-multi'}, h('legend', {class: 'visually-hidden'}, sp.question), boxes.map((b) => b.el), sendChoices));
    }
    const inputId = uid('answer');
    const input = h('input', {id: inputId, type: 'text', class: 'answer-input', autocomplete: 'off'});
    const submit = h('button', {type: 'submit', class: 'button', 'data-needs-idle': true}, 'Answer');
    controls.push(submit);
    const form = h('form', {class: 'row answer-form', novalidate: true},
      h('label', {for: inputId, class: options.length ? 'inline muted' : 'inline'}, options.length ? 'Or type an answer' : 'Your answer'),
      input, submit);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text) send(text, text);
      else input.focus();
    });
    parts.push(form);
    return h('div', {class: 'decision ask-user', role: 'group', 'aria-labelledby': qid}, parts);
  }

  resumeUI(sp, resumeSchema, controls, send) {
    const schema = parseSchemaString(resumeSchema);
    const form = new SchemaForm(schema, {idPrefix: uid('resume')});
    const submit = h('button', {type: 'submit', class: 'button primary', 'data-needs-idle': true}, 'Resume');
    controls.push(submit);
    const el = h('form', {class: 'decision', novalidate: true},
      h('p', {class: 'decision-title'}, `${this.toolName} is waiting for data to continue.`),
      sp !== undefined ? h('div', {class: 'tool-section'}, h('span', {class: 'tool-label'}, 'It sent'), h('pre', {class: 'json'}, pretty(sp))) : null,
      form.element, h('div', {class: 'row'}, submit));
    el.addEventListener('submit', (e) => {
      e.preventDefault();
      const r = form.read();
      if (r.ok) send(r.value, pretty(r.value));
    });
    return el;
  }
}
