// The chat's active run, remembered across page loads: a stream the page
// starts is recorded ({runId, threadId, text}) until it ends, so that a
// reload in the middle finds the run again and follows it through the
// agent's observe route, which replays the run's events from the first
// and then follows it live.

const activeKey = (agentId) => `gomastra.studio.activeRun.${agentId}`;

// rememberRun records the run a message started.
export function rememberRun(agentId, run) {
  try {
    localStorage.setItem(activeKey(agentId), JSON.stringify(run));
  } catch {
    // storage disabled: a reload cannot reconnect
  }
}

// activeRun returns the recorded run of the agent's chat, or null.
export function activeRun(agentId) {
  try {
    const run = JSON.parse(localStorage.getItem(activeKey(agentId)) || 'null');
    return run && typeof run.runId === 'string' && run.runId ? run : null;
  } catch {
    return null;
  }
}

// forgetRun drops the record when it is still run runId's.
export function forgetRun(agentId, runId) {
  const run = activeRun(agentId);
  if (!run || run.runId !== runId) return;
  try {
    localStorage.removeItem(activeKey(agentId));
  } catch {
    // nothing to drop
  }
}

// eventChunk turns an observe event ({type, runId, data, index, ...})
// into the stream chunk it carries, in the shape /stream sends: chunk and
// step-start events carry the chunk itself; a finish event carries
// {output, stepResult} and an error event the error. Iteration summaries
// are not chunks (null).
export function eventChunk(event) {
  if (!event || typeof event !== 'object') return null;
  const data = event.data && typeof event.data === 'object' ? event.data : {};
  switch (event.type) {
    case 'chunk':
    case 'step-start':
      return data;
    case 'finish':
      return data.type === 'finish' ? data : {type: 'finish', runId: event.runId, payload: data};
    case 'error':
      return data.type === 'error' ? data : {type: 'error', runId: event.runId, payload: {error: data.error !== undefined ? data.error : data}};
    default:
      return null;
  }
}
