// The registry as the API lists it: agents, tools and workflows.

import * as api from './api.js';

// loadCatalog fetches the three lists; each is {items, error} so one
// failing list (say, 401) does not hide the others. items are
// [{key, id, name, description, data}] sorted by name.
export async function loadCatalog() {
  const [agents, tools, workflows] = await Promise.all([
    list('/agents', (key, a) => ({key, id: key, name: a.name || key, description: a.description || '', data: a})),
    list('/tools', (key, t) => ({key, id: t.id || key, name: t.id || key, description: t.description || '', data: t})),
    list('/workflows', (key, w) => ({key, id: key, name: w.name || key, description: w.description || '', data: w})),
  ]);
  return {agents, tools, workflows};
}

async function list(path, make) {
  try {
    const body = await api.get(path);
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return {items: [], error: `unexpected answer from ${api.apiPrefix}${path}`};
    }
    const items = Object.entries(body).map(([k, v]) => make(k, v || {}));
    items.sort((a, b) => a.name.localeCompare(b.name));
    return {items, error: ''};
  } catch (e) {
    return {items: [], error: e.message};
  }
}

// find returns the item of a list whose id or key is id.
export function find(listResult, id) {
  if (!listResult) return null;
  return listResult.items.find((i) => i.id === id) || listResult.items.find((i) => i.key === id) || null;
}
