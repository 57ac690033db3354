// Small DOM helpers. Text always goes in as text (never as HTML), so
// nothing a tool, a model or a server returns can inject markup.

// h creates an element: h('button', {class: 'x', onclick: f}, 'Label', child).
// Attribute values: strings set attributes; functions on "on…" keys are
// listeners; true sets a boolean attribute; false, null and undefined skip
// it. Children: nodes, strings (as text), arrays of them; null is skipped.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'text') {
      el.textContent = String(value);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

// append adds children (nodes, strings, nested arrays; null skipped).
export function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// clear removes every child of el.
export function clear(el) {
  el.replaceChildren();
  return el;
}

// pretty renders a value as indented JSON (strings as they are).
export function pretty(value) {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

// jsonBlock is a <pre> of pretty(value).
export function jsonBlock(value, cls) {
  return h('pre', {class: 'json ' + (cls || '')}, pretty(value));
}

let counter = 0;

// uid returns an id unique in the page (for label/aria wiring).
export function uid(prefix) {
  counter += 1;
  return `${prefix || 'id'}-${counter}`;
}

// uuid is a random RFC 4122 v4 id; it works on plain http too, where
// crypto.randomUUID is not available.
export function uuid() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// href is the studio path of an item: base ("/agents/") and its id.
export function href(base, id) {
  return base + encodeURIComponent(id);
}
