// The overview: every agent, tool and workflow with its description.

import {h, href} from '../dom.js';

const groups = [
  {kind: 'agents', title: 'Agents', base: '/agents/', blurb: 'Chat with an agent: streamed text, tool calls, approvals and questions.'},
  {kind: 'tools', title: 'Tools', base: '/tools/', blurb: 'Run a tool from a form made from its input schema.'},
  {kind: 'workflows', title: 'Workflows', base: '/workflows/', blurb: 'Start a workflow run and see each step.'},
];

// renderHome returns the overview of the catalog.
export function renderHome(catalog) {
  return h('section', {class: 'view home'},
    h('h1', {}, 'Overview'),
    groups.map((g) => {
      const r = catalog[g.kind];
      const headingId = `home-${g.kind}`;
      return h('section', {class: 'home-group', 'aria-labelledby': headingId},
        h('h2', {id: headingId}, g.title, ' ', h('span', {class: 'count'}, r.error ? '' : `(${r.items.length})`)),
        h('p', {class: 'muted'}, g.blurb),
        r.error ? h('p', {class: 'notice error', role: 'alert'}, `Could not list ${g.kind}: ${r.error}`) : null,
        !r.error && !r.items.length ? h('p', {class: 'muted'}, `No ${g.kind} registered.`) : null,
        r.items.length ? h('ul', {class: 'cards'}, r.items.map((i) => h('li', {class: 'card'},
          h('a', {href: href(g.base, i.id), 'data-link': true}, i.name),
          i.description ? h('p', {}, i.description) : null))) : null);
    }));
}
