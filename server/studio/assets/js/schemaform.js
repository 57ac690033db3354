// Forms generated from JSON Schema: a control per field for strings,
// numbers, integers, booleans, enums and nested objects; a raw-JSON box
// for anything else (arrays, unions, maps, references). Validation is the
// server's: the form only reports what it cannot even send (invalid JSON,
// a number it cannot read) and shows the server's field errors in place.

import {h, uid} from './dom.js';
import {describeSchema} from './schemakind.js';
import {InputField, CheckboxField, SelectField, ConstField, RawField, ObjectField} from './fields.js';

export {describeSchema};

// SchemaForm is the generated form for one schema.
export class SchemaForm {
  // schema: the JSON Schema (null: any JSON value); idPrefix makes the
  // control ids unique in the page.
  constructor(schema, {idPrefix} = {}) {
    this.prefix = idPrefix || uid('form');
    this.fields = new Map();
    const d = describeSchema(schema);
    this.rawMode = false;
    if (d.kind === 'object') {
      this.root = new ObjectField(this, '', '', true, d.schema, true);
      this.fields.set('', this.root);
    } else {
      this.root = this.field('', 'Input', true, schema || {});
      if (this.root instanceof RawField) this.root.area.rows = 6;
    }
    this.summary = h('div', {class: 'form-errors', role: 'alert', hidden: true});
    this.jsonArea = h('textarea', {class: 'code', rows: 10, spellcheck: 'false', id: `${this.prefix}-json`,
      'aria-label': 'Input as JSON'});
    this.jsonField = h('div', {class: 'field', hidden: true}, h('label', {for: this.jsonArea.id}, 'Input as JSON'), this.jsonArea);
    this.toggle = h('button', {type: 'button', class: 'button small ghost', 'aria-pressed': 'false', onclick: () => this.setRawMode(!this.rawMode)}, 'Edit as JSON');
    this.element = h('div', {class: 'schema-form'}, h('div', {class: 'row end'}, this.toggle), this.summary, this.root.element, this.jsonField);
  }

  idFor(path) {
    return `${this.prefix}-${path.replace(/[^A-Za-z0-9_-]/g, '_') || 'root'}`;
  }

  // field builds the control for one property.
  field(path, name, required, schema) {
    const d = describeSchema(schema);
    const s = d.schema;
    const req = required && !d.nullable;
    let f;
    switch (d.kind) {
      case 'string':
      case 'number':
      case 'integer':
        f = new InputField(this, path, name, req, d.kind, s);
        break;
      case 'boolean':
        f = req ? new CheckboxField(this, path, name, req, s) : new SelectField(this, path, name, req, 'boolean', s, [true, false]);
        break;
      case 'enum':
        f = new SelectField(this, path, name, req, 'enum', s, s.enum);
        break;
      case 'const':
        f = new ConstField(this, path, name, req, s);
        break;
      case 'object':
        f = new ObjectField(this, path, name, req, s, false);
        break;
      default:
        f = new RawField(this, path, name, req, s);
    }
    this.fields.set(path, f);
    return f;
  }

  // setRawMode switches between the fields and one JSON box, carrying
  // the value over (a box that is not valid JSON stays open).
  setRawMode(on) {
    if (on === this.rawMode) return;
    if (on) {
      const r = this.readFields();
      this.jsonArea.value = r.value === undefined ? '' : JSON.stringify(r.value, null, 2);
    } else {
      const text = this.jsonArea.value.trim();
      if (text !== '') {
        try {
          this.root.setValue(JSON.parse(text));
        } catch (e) {
          this.showErrors([{path: '', message: `Not valid JSON: ${e.message}`}]);
          return;
        }
      }
    }
    this.rawMode = on;
    this.root.element.hidden = on;
    this.jsonField.hidden = !on;
    this.toggle.setAttribute('aria-pressed', String(on));
    this.toggle.textContent = on ? 'Edit as form' : 'Edit as JSON';
  }

  readFields() {
    let failed = null;
    const walk = (f) => {
      const r = f.read();
      if (r.error && !failed) failed = {path: f.path, message: r.error};
      return r;
    };
    // Read every field so each one's own problem is found.
    for (const f of this.fields.values()) if (!(f instanceof ObjectField)) walk(f);
    if (failed) return {ok: false, errors: [failed]};
    const r = this.root.read();
    return {ok: true, value: r.present ? r.value : this.root instanceof ObjectField ? {} : undefined};
  }

  // read returns {ok: true, value} or {ok: false, errors: [{path, message}]}.
  read() {
    this.clearErrors();
    let r;
    if (this.rawMode) {
      const text = this.jsonArea.value.trim();
      if (text === '') r = {ok: true, value: undefined};
      else {
        try {
          r = {ok: true, value: JSON.parse(text)};
        } catch (e) {
          r = {ok: false, errors: [{path: '', message: `Not valid JSON: ${e.message}`}]};
        }
      }
    } else {
      r = this.readFields();
    }
    if (!r.ok) this.showErrors(r.errors);
    return r;
  }

  clearErrors() {
    for (const f of this.fields.values()) f.setError('');
    this.summary.hidden = true;
    this.summary.replaceChildren();
  }

  // showErrors puts each {path, message} by its field (the closest
  // ancestor the form has; paths use dots, array indexes included), and
  // lists them all in the summary. It focuses the first field in error.
  showErrors(errors) {
    const byField = new Map();
    for (const e of errors) {
      let p = e.path || '';
      while (p !== '' && !this.fields.has(p)) p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '';
      const f = this.rawMode ? null : this.fields.get(p);
      if (f && p !== '') byField.set(f, [...(byField.get(f) || []), e.message]);
    }
    for (const [f, msgs] of byField) f.setError(msgs.join('; '));
    this.summary.replaceChildren(
      h('p', {}, errors.length === 1 ? 'Please fix this problem:' : `Please fix these ${errors.length} problems:`),
      h('ul', {}, errors.map((e) => h('li', {}, e.path ? h('code', {}, e.path) : null, e.path ? ': ' : '', e.message))));
    this.summary.hidden = false;
    const first = [...byField.keys()][0];
    if (first && first.control()) first.control().focus();
  }
}

// validationErrorPaths flattens a Mastra ValidationError's
// validationErrors tree ({errors, fields: {name: {errors, fields}}}) into
// [{path, message}].
export function validationErrorPaths(tree, prefix) {
  const out = [];
  if (!tree || typeof tree !== 'object') return out;
  for (const m of Array.isArray(tree.errors) ? tree.errors : []) out.push({path: prefix || '', message: String(m)});
  const fields = tree.fields && typeof tree.fields === 'object' ? tree.fields : {};
  for (const [name, sub] of Object.entries(fields)) {
    out.push(...validationErrorPaths(sub, prefix ? `${prefix}.${name}` : name));
  }
  return out;
}

// isValidationError tells Mastra's ValidationError result ({error: true,
// message, validationErrors?}) from a tool's ordinary result.
export function isValidationError(v) {
  return !!v && typeof v === 'object' && v.error === true && typeof v.message === 'string';
}
