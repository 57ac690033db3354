// The studio's entry point: the navigation (agents, tools, workflows),
// the router (/, /agents/:id, /tools/:id, /workflows/:id) and the
// settings dialog.

import {h, clear, href} from './dom.js';
import {loadCatalog, find} from './catalog.js';
import {initSettings, getToken} from './settings.js';
import {renderHome} from './views/home.js';
import {renderTool} from './views/tool.js';
import {renderWorkflow} from './views/workflow.js';
import {ChatView} from './views/chat.js';
import {watchTasks} from './tasks.js';

const appTitle = document.getElementById('app-title').textContent;
const main = document.getElementById('main');
const connection = document.getElementById('connection');

const state = {
  catalog: null,
  chats: new Map(), // agent id → ChatView, kept while the page lives
};

const sections = [
  {kind: 'agents', list: 'nav-agents', base: '/agents/', empty: 'No agents'},
  {kind: 'tools', list: 'nav-tools', base: '/tools/', empty: 'No tools'},
  {kind: 'workflows', list: 'nav-workflows', base: '/workflows/', empty: 'No workflows'},
];

function renderNav() {
  for (const s of sections) {
    const ul = clear(document.getElementById(s.list));
    const r = state.catalog[s.kind];
    if (r.error) {
      ul.append(h('li', {class: 'nav-error'}, r.error));
      continue;
    }
    if (!r.items.length) ul.append(h('li', {class: 'muted'}, s.empty));
    for (const item of r.items) {
      ul.append(h('li', {}, h('a', {href: href(s.base, item.id), 'data-link': true, title: item.description || null}, item.name)));
    }
  }
  const failed = sections.filter((s) => state.catalog[s.kind].error);
  connection.textContent = failed.length ? 'API unreachable or refused' : getToken() ? 'Token set' : '';
  connection.classList.toggle('bad', failed.length > 0);
  markCurrent();
}

function markCurrent() {
  for (const a of document.querySelectorAll('.sidebar a[data-link]')) {
    if (a.pathname === location.pathname) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

async function refreshCatalog() {
  state.catalog = await loadCatalog();
  renderNav();
}

// route renders the view of the current path.
async function route({focus} = {}) {
  const parts = location.pathname.split('/').filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  markCurrent();
  let view;
  let title = '';
  const [kind, id] = parts;
  if (parts.length === 0) {
    view = renderHome(state.catalog);
  } else if (parts.length === 2 && kind === 'agents') {
    const item = find(state.catalog.agents, id);
    if (item) {
      let chat = state.chats.get(item.id);
      if (!chat) {
        chat = new ChatView(item);
        state.chats.set(item.id, chat);
      }
      view = chat.element;
      title = item.name;
      chat.attached();
    }
  } else if (parts.length === 2 && kind === 'tools') {
    const item = find(state.catalog.tools, id);
    if (item) {
      view = renderTool(item);
      title = item.name;
    }
  } else if (parts.length === 2 && kind === 'workflows') {
    const item = find(state.catalog.workflows, id);
    if (item) {
      view = renderWorkflow(item);
      title = item.name;
    }
  }
  const listError = ['agents', 'tools', 'workflows'].includes(kind) && state.catalog[kind].error;
  if (!view && listError) {
    view = h('section', {class: 'view'}, h('h1', {tabindex: '-1'}, `Could not load ${kind}`),
      h('p', {class: 'notice error', role: 'alert'}, listError));
    title = 'Error';
  } else if (!view) {
    view = h('section', {class: 'view'}, h('h1', {tabindex: '-1'}, 'Not found'),
      h('p', {}, 'Nothing here by that name. ', h('a', {href: '/', 'data-link': true}, 'Back to the overview'), '.'));
    title = 'Not found';
  }
  main.replaceChildren(view);
  document.title = title ? `${title} · ${appTitle}` : appTitle;
  if (focus) {
    const heading = main.querySelector('h1');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus();
    }
  }
}

// navigate follows an in-page link without reloading.
function navigate(path) {
  if (path !== location.pathname) history.pushState(null, '', path);
  route({focus: true});
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (a.origin !== location.origin) return;
  e.preventDefault();
  navigate(a.pathname);
});

window.addEventListener('popstate', () => route({focus: true}));

initSettings({
  button: document.getElementById('settings-button'),
  dialog: document.getElementById('settings-dialog'),
  form: document.getElementById('settings-form'),
  input: document.getElementById('settings-token'),
  onChange: async () => {
    await refreshCatalog();
    await route();
  },
});

await refreshCatalog();
await route();
watchTasks(document.getElementById('nav-tasks'));
document.body.dataset.ready = 'true';
