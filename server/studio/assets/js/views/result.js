// Showing the answer of a run: a result, Mastra's ValidationError, or an
// error answer, readably, with the raw JSON one click away.

import {h, jsonBlock, pretty} from '../dom.js';
import {describeError} from '../api.js';
import {isValidationError, validationErrorPaths} from '../schemaform.js';

// renderAnswer fills panel with the answer r ({status, ok, body, ms}) and
// returns the field errors to show on the form ([{path, message}]).
// okTitle names a successful answer ("Result", or '' for none); renderOK,
// when given,
// shows its body (the raw JSON then folds away).
export function renderAnswer(panel, r, okTitle, renderOK) {
  const meta = h('p', {class: 'answer-meta'}, `HTTP ${r.status} · ${r.ms} ms`);
  let fieldErrors = [];
  if (r.ok && isValidationError(r.body)) {
    fieldErrors = validationErrorPaths(r.body.validationErrors);
    panel.replaceChildren(
      h('div', {class: 'answer error', 'data-answer': 'validation-error'},
        h('h3', {}, 'Input validation failed'),
        meta,
        fieldErrors.length
          ? h('ul', {class: 'issues'}, fieldErrors.map((e) => h('li', {}, e.path ? h('code', {}, e.path) : null, e.path ? ': ' : '', e.message)))
          : null,
        h('details', {}, h('summary', {}, 'Message sent back (as the model sees it)'), h('pre', {class: 'json'}, r.body.message)),
        rawJSON(r.body)));
  } else if (r.ok) {
    const shown = renderOK ? [renderOK(r.body), rawJSON(r.body)] : jsonBlock(r.body, 'result');
    panel.replaceChildren(h('div', {class: 'answer ok', 'data-answer': 'ok'}, okTitle ? h('h3', {}, okTitle) : null, meta, shown));
  } else {
    const body = r.body;
    if (body && Array.isArray(body.issues)) {
      fieldErrors = body.issues.map((i) => ({path: String(i.field || '').replace(/^(data|inputData)\.?/, ''), message: i.message}));
    }
    panel.replaceChildren(h('div', {class: 'answer error', 'data-answer': 'error'},
      h('h3', {}, 'Error'), meta, h('p', {class: 'error-text'}, describeError(r.status, body)), rawJSON(body)));
  }
  return fieldErrors;
}

// renderFailure shows a request that could not be made at all.
export function renderFailure(panel, err) {
  panel.replaceChildren(h('div', {class: 'answer error', 'data-answer': 'error'},
    h('h3', {}, 'Request failed'), h('p', {class: 'error-text'}, err && err.message ? err.message : String(err))));
}

function rawJSON(body) {
  return h('details', {}, h('summary', {}, 'Raw answer'), h('pre', {class: 'json'}, pretty(body)));
}
