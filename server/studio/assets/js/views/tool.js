// A tool's page: its description and schemas, a form made from its input
// schema that runs it (POST /tools/:id/execute {data}), and the answer.

import {h, jsonBlock, uid} from '../dom.js';
import * as api from '../api.js';
import {SchemaForm} from '../schemaform.js';
import {renderAnswer, renderFailure} from './result.js';

// renderTool returns the page of one tool (a catalog item).
export function renderTool(item) {
  const t = item.data;
  const inputSchema = api.parseSchemaString(t.inputSchema);
  const outputSchema = api.parseSchemaString(t.outputSchema);
  const form = new SchemaForm(inputSchema, {idPrefix: uid('tool')});
  const answer = h('div', {class: 'answer-panel', 'aria-live': 'polite'});
  const run = h('button', {type: 'submit', class: 'button primary'}, 'Run tool');
  const formEl = h('form', {class: 'panel', novalidate: true, 'aria-labelledby': 'tool-input-heading'},
    h('h2', {id: 'tool-input-heading'}, 'Input'), form.element, h('div', {class: 'row'}, run));

  formEl.addEventListener('submit', async (e) => {
    e.preventDefault();
    const read = form.read();
    if (!read.ok) return;
    run.disabled = true;
    run.textContent = 'Running…';
    answer.replaceChildren(h('p', {class: 'muted'}, 'Running…'));
    try {
      const r = await api.request('POST', api.apiPath('tools', item.id, 'execute'), {data: read.value});
      const fieldErrors = renderAnswer(answer, r, 'Result');
      if (fieldErrors.length) form.showErrors(fieldErrors);
    } catch (err) {
      renderFailure(answer, err);
    } finally {
      run.disabled = false;
      run.textContent = 'Run tool';
    }
  });

  return h('section', {class: 'view tool'},
    h('header', {class: 'view-head'},
      h('p', {class: 'kicker'}, 'Tool'),
      h('h1', {}, t.title || item.name),
      t.description ? h('p', {class: 'description'}, t.description) : null,
      h('p', {class: 'badges'}, h('code', {}, item.id),
        t.requireApproval ? h('span', {class: 'badge warn'}, 'needs approval') : null)),
    h('div', {class: 'split'},
      formEl,
      h('section', {class: 'panel', 'aria-labelledby': 'tool-answer-heading'}, h('h2', {id: 'tool-answer-heading'}, 'Answer'), answer)),
    h('details', {class: 'panel schemas'}, h('summary', {}, 'Schemas'),
      h('h3', {}, 'Input'), jsonBlock(inputSchema || 'none'),
      h('h3', {}, 'Output'), jsonBlock(outputSchema || 'none')));
}
