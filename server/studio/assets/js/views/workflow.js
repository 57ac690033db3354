// A workflow's page: its steps, a form made from its input schema that
// starts a run (POST /workflows/:id/start-async {inputData}), and how
// the run ended.

import {h, jsonBlock, uid} from '../dom.js';
import * as api from '../api.js';
import {SchemaForm} from '../schemaform.js';
import {renderAnswer, renderFailure} from './result.js';

// renderWorkflow returns the page of one workflow (a catalog item).
export function renderWorkflow(item) {
  const w = item.data;
  const inputSchema = api.parseSchemaString(w.inputSchema);
  const form = new SchemaForm(inputSchema, {idPrefix: uid('wf')});
  const answer = h('div', {class: 'answer-panel', 'aria-live': 'polite'});
  const run = h('button', {type: 'submit', class: 'button primary'}, 'Start run');
  const formEl = h('form', {class: 'panel', novalidate: true, 'aria-labelledby': 'wf-input-heading'},
    h('h2', {id: 'wf-input-heading'}, 'Input'), form.element, h('div', {class: 'row'}, run));
  const steps = Object.values(w.steps || {});

  formEl.addEventListener('submit', async (e) => {
    e.preventDefault();
    const read = form.read();
    if (!read.ok) return;
    run.disabled = true;
    answer.replaceChildren(h('p', {class: 'muted'}, 'Running…'));
    try {
      const r = await api.request('POST', api.apiPath('workflows', item.key, 'start-async'), {inputData: read.value});
      const fieldErrors = renderAnswer(answer, r, '', runSummary);
      if (fieldErrors.length) form.showErrors(fieldErrors);
    } catch (err) {
      renderFailure(answer, err);
    } finally {
      run.disabled = false;
    }
  });

  return h('section', {class: 'view workflow'},
    h('header', {class: 'view-head'},
      h('p', {class: 'kicker'}, 'Workflow'),
      h('h1', {}, item.name),
      w.description ? h('p', {class: 'description'}, w.description) : null,
      h('p', {class: 'badges'}, h('code', {}, item.key))),
    h('section', {class: 'panel', 'aria-labelledby': 'wf-steps-heading'},
      h('h2', {id: 'wf-steps-heading'}, `Steps (${steps.length})`),
      h('ol', {class: 'steps'}, steps.map((s) => h('li', {}, h('code', {}, s.id), s.description ? ` — ${s.description}` : '')))),
    h('div', {class: 'split'},
      formEl,
      h('section', {class: 'panel', 'aria-labelledby': 'wf-answer-heading'}, h('h2', {id: 'wf-answer-heading'}, 'Run'), answer)));
}

// runSummary shows how a run ended: its status, result or error, and
// each step's status.
function runSummary(res) {
  if (!res || typeof res !== 'object') return jsonBlock(res);
  const order = Array.isArray(res.stepExecutionPath) ? res.stepExecutionPath : Object.keys(res.steps || {}).filter((k) => k !== 'input');
  return h('div', {class: 'run-summary'},
    h('p', {}, 'Status: ', h('span', {class: `badge status-${res.status}`, 'data-run-status': res.status}, res.status || 'unknown')),
    order.length ? h('ol', {class: 'steps'}, order.map((id) => {
      const s = (res.steps || {})[id] || {};
      return h('li', {}, h('code', {}, id), ' ', h('span', {class: `badge status-${s.status}`}, s.status || '?'));
    })) : null,
    'result' in res ? h('div', {}, h('h3', {}, 'Result'), jsonBlock(res.result, 'result')) : null,
    res.error ? h('div', {}, h('h3', {}, 'Error'), jsonBlock(res.error)) : null,
    res.suspendPayload ? h('div', {}, h('h3', {}, 'Suspended with'), jsonBlock(res.suspendPayload)) : null);
}
