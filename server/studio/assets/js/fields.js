// The controls of a generated form, one class per kind of field. Each
// reads its value as the JSON the tool gets ({present, value}, or
// {present: false, error} when it cannot), takes a value back, and shows
// the server's error for its field.

import {h, pretty} from './dom.js';
import {constraintText, isBound} from './schemakind.js';

// Field is one control of the form (or a group of them).
export class Field {
  constructor(form, path, name, required) {
    this.form = form;
    this.path = path; // "a.b" ('' for the root)
    this.name = name;
    this.required = required;
    this.id = form.idFor(path);
    this.errorEl = h('p', {class: 'field-error', id: `${this.id}-error`, hidden: true});
  }

  // read returns {present, value} or {present: false, error}.
  read() {
    return {present: false};
  }

  setValue() {}

  // control is the element that takes focus and aria-invalid.
  control() {
    return null;
  }

  setError(message) {
    this.errorEl.textContent = message || '';
    this.errorEl.hidden = !message;
    const c = this.control();
    if (c) {
      if (message) c.setAttribute('aria-invalid', 'true');
      else c.removeAttribute('aria-invalid');
    }
  }

  labelFor(s) {
    const label = h('label', {for: this.id}, s.title || this.name || 'Input');
    if (this.required) label.append(h('span', {class: 'required', 'aria-hidden': 'true'}, ' *'));
    return label;
  }

  help(kind, s) {
    const bits = [s.description, constraintText(kind, s)].filter(Boolean);
    if (this.required) bits.push('required');
    if (!bits.length) return null;
    return h('p', {class: 'help', id: `${this.id}-help`}, bits.join(' · '));
  }

  describedBy(help) {
    return [help ? help.id : null, this.errorEl.id].filter(Boolean).join(' ');
  }
}

export class InputField extends Field {
  constructor(form, path, name, required, kind, s) {
    super(form, path, name, required);
    this.kind = kind;
    const help = this.help(kind, s);
    let type = 'text';
    if (kind === 'number' || kind === 'integer') type = 'number';
    else if (s.format === 'email') type = 'email';
    else if (s.format === 'uri' || s.format === 'url') type = 'url';
    else if (s.format === 'date') type = 'date';
    this.input = h('input', {
      id: this.id, name: path, type,
      step: kind === 'integer' ? '1' : kind === 'number' ? 'any' : null,
      min: type === 'number' && isBound(s.minimum) ? s.minimum : null,
      max: type === 'number' && isBound(s.maximum) ? s.maximum : null,
      inputmode: kind === 'integer' ? 'numeric' : kind === 'number' ? 'decimal' : null,
      spellcheck: kind === 'string' ? 'false' : null,
      autocomplete: 'off',
      'aria-describedby': this.describedBy(help),
      'aria-required': required ? 'true' : null,
    });
    if (s.default !== undefined) this.setValue(s.default);
    this.element = h('div', {class: 'field'}, this.labelFor(s), this.input, help, this.errorEl);
  }

  control() {
    return this.input;
  }

  read() {
    if (this.kind === 'string') {
      return this.input.value === '' ? {present: false} : {present: true, value: this.input.value};
    }
    if (this.input.validity && this.input.validity.badInput) return {present: false, error: 'Enter a number'};
    const raw = this.input.value.trim();
    if (raw === '') return {present: false};
    const n = Number(raw);
    if (!Number.isFinite(n)) return {present: false, error: 'Enter a number'};
    return {present: true, value: n};
  }

  setValue(v) {
    this.input.value = v === undefined || v === null ? '' : String(v);
  }
}

export class CheckboxField extends Field {
  constructor(form, path, name, required, s) {
    super(form, path, name, required);
    const help = this.help('boolean', s);
    this.input = h('input', {id: this.id, name: path, type: 'checkbox', 'aria-describedby': this.describedBy(help)});
    if (s.default === true) this.input.checked = true;
    const label = this.labelFor(s);
    label.classList.add('inline');
    this.element = h('div', {class: 'field checkbox'}, h('div', {class: 'row'}, this.input, label), help, this.errorEl);
  }

  control() {
    return this.input;
  }

  read() {
    return {present: true, value: this.input.checked};
  }

  setValue(v) {
    this.input.checked = v === true;
  }
}

// SelectField serves enums and optional booleans: each option's value is
// the JSON of the value it sends; '' sends nothing.
export class SelectField extends Field {
  constructor(form, path, name, required, kind, s, values) {
    super(form, path, name, required);
    const help = this.help(kind, s);
    this.select = h('select', {id: this.id, name: path, 'aria-describedby': this.describedBy(help), 'aria-required': required ? 'true' : null},
      h('option', {value: ''}, required ? '— choose —' : '(not set)'),
      values.map((v) => h('option', {value: JSON.stringify(v)}, typeof v === 'string' ? v : JSON.stringify(v))));
    if (s.default !== undefined) this.setValue(s.default);
    this.element = h('div', {class: 'field'}, this.labelFor(s), this.select, help, this.errorEl);
  }

  control() {
    return this.select;
  }

  read() {
    if (this.select.value === '') return {present: false};
    return {present: true, value: JSON.parse(this.select.value)};
  }

  setValue(v) {
    const want = v === undefined ? '' : JSON.stringify(v);
    this.select.value = [...this.select.options].some((o) => o.value === want) ? want : '';
  }
}

export class ConstField extends Field {
  constructor(form, path, name, required, s) {
    super(form, path, name, required);
    this.value = s.const;
    const help = this.help('const', s);
    this.output = h('output', {id: this.id, class: 'const'}, pretty(s.const));
    this.element = h('div', {class: 'field'}, this.labelFor(s), this.output, help, this.errorEl);
  }

  read() {
    return this.required ? {present: true, value: this.value} : {present: false};
  }
}

export class RawField extends Field {
  constructor(form, path, name, required, s, rows) {
    super(form, path, name, required);
    const help = this.help('raw', s);
    this.area = h('textarea', {id: this.id, name: path, rows: rows || 3, class: 'code', spellcheck: 'false',
      placeholder: placeholderFor(s), 'aria-describedby': this.describedBy(help)});
    if (s.default !== undefined) this.setValue(s.default);
    this.element = h('div', {class: 'field'}, this.labelFor(s), this.area, help, this.errorEl);
  }

  control() {
    return this.area;
  }

  read() {
    const text = this.area.value.trim();
    if (text === '') return {present: false};
    try {
      return {present: true, value: JSON.parse(text)};
    } catch (e) {
      return {present: false, error: `Not valid JSON: ${e.message}`};
    }
  }

  setValue(v) {
    this.area.value = v === undefined ? '' : JSON.stringify(v, null, 2);
  }
}

function placeholderFor(s) {
  const t = [].concat(s.type || []);
  if (t.includes('array')) return '[ ]';
  if (t.includes('object')) return '{ }';
  return 'JSON value';
}

export class ObjectField extends Field {
  constructor(form, path, name, required, s, root) {
    super(form, path, name, required);
    const req = new Set(Array.isArray(s.required) ? s.required : []);
    this.children = Object.entries(s.properties).map(([key, sub]) => form.field(path ? `${path}.${key}` : key, key, req.has(key), sub));
    const kids = this.children.map((c) => c.element);
    if (root) {
      this.element = h('div', {class: 'fields'}, kids, this.errorEl);
    } else {
      const help = this.help('object', s);
      this.element = h('fieldset', {class: 'fieldset', id: this.id},
        h('legend', {}, s.title || name, required ? h('span', {class: 'required', 'aria-hidden': 'true'}, ' *') : null),
        help, kids, this.errorEl);
    }
  }

  read() {
    const value = {};
    let any = false;
    for (const c of this.children) {
      const r = c.read();
      if (r.error) return r;
      if (r.present) {
        value[c.name] = r.value;
        any = true;
      }
    }
    if (!any && !this.required && this.path !== '') return {present: false};
    return {present: true, value};
  }

  setValue(v) {
    const obj = v && typeof v === 'object' && !Array.isArray(v) ? v : {};
    for (const c of this.children) c.setValue(obj[c.name]);
  }
}

