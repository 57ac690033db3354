// The running background tasks, in the sidebar: the API's stream of task
// events (GET /background-tasks/stream) keeps a list of the tasks that
// run or wait (suspended), each with a button that cancels it. The
// stream is opened again after it ends or fails; a server without
// background tasks keeps it open and empty.

import {h, clear} from './dom.js';
import {apiPrefix, apiPath, post, describeError} from './api.js';
import {readSSE} from './sse.js';
import {getToken} from './settings.js';

// live are the tasks shown, by id: {toolName, agentId, status}.
const live = new Map();

// watchTasks keeps ul listing the running tasks while the page lives.
export function watchTasks(ul) {
  render(ul);
  (async () => {
    for (;;) {
      await follow(ul);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
}

// follow reads the event stream until it ends; the list starts again
// from the stream's snapshot of the running tasks.
async function follow(ul) {
  const headers = {Accept: 'text/event-stream'};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const res = await fetch(apiPrefix + '/background-tasks/stream', {headers});
    if (!res.ok) return;
    live.clear();
    render(ul);
    for await (const event of readSSE(res)) {
      if (apply(event)) render(ul);
    }
  } catch {
    // the server went away: try again later
  }
}

// apply notes what an event says of its task; false when nothing shown
// changed.
export function apply(event) {
  const p = (event && event.payload) || {};
  if (!p.taskId) return false;
  switch (event.type) {
    case 'background-task-running':
    case 'background-task-resumed':
    case 'background-task-output':
      live.set(p.taskId, {toolName: p.toolName, agentId: p.agentId, status: 'running'});
      return true;
    case 'background-task-suspended':
      live.set(p.taskId, {toolName: p.toolName, agentId: p.agentId, status: 'suspended'});
      return true;
    case 'background-task-completed':
    case 'background-task-failed':
    case 'background-task-cancelled':
      return live.delete(p.taskId);
  }
  return false;
}

function render(ul) {
  clear(ul);
  if (!live.size) {
    ul.append(h('li', {class: 'muted'}, 'None running'));
    return;
  }
  for (const [id, t] of live) {
    const cancel = h('button', {type: 'button', class: 'button ghost small', 'data-action': 'cancel', 'aria-label': `Cancel ${t.toolName}`}, 'Cancel');
    cancel.addEventListener('click', async () => {
      cancel.disabled = true;
      try {
        await post(apiPath('background-tasks', id, 'cancel'), {});
      } catch (err) {
        cancel.disabled = false;
        cancel.title = describeError(err.status, err.body);
      }
    });
    ul.append(h('li', {class: 'task', 'data-task-id': id, 'data-status': t.status},
      h('span', {class: 'task-name', title: `${t.agentId || ''} · ${id}`}, t.toolName || id),
      t.status === 'suspended' ? h('span', {class: 'task-status'}, ' (waiting)') : null,
      ' ', cancel));
  }
}
