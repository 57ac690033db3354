package workflows

import (
	"context"
	"time"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// events is where the workflow's runs log their chunks: Config.Events,
// else Config.Storage when it keeps run events, else the workflow's own
// in-memory log.
func (w *Workflow) events() storage.RunEvents {
	if w.cfg.Events != nil {
		return w.cfg.Events
	}
	if ev, ok := w.cfg.Storage.(storage.RunEvents); ok {
		return ev
	}
	return w.localEvents
}

// publish appends c to the run's log (see runLog), encoded as the
// /stream route sends it (see encodeChunk). A failed append leaves that
// chunk out of the log; the run goes on. Nested workflows' inner runs do
// not log: their parent's log is the one observed.
func (r *Run) publish(c stream.Chunk) {
	if r.log != nil {
		r.log.publish(c)
	}
}

// openLog starts logging an execution of the run (nothing for an
// unlogged run). The caller holds emitMu.
func (r *Run) openLog(ctx context.Context) {
	if r.unlogged {
		return
	}
	ev := r.wf.events()
	var local *chunkLog
	if ev == storage.RunEvents(r.wf.localEvents) && storage.CheckID(r.id) == nil && r.id != "" {
		local = r.wf.localEvents
	}
	r.log = newRunLog(context.WithoutCancel(ctx), ev, r.id, local)
	if a := r.advance; a != nil {
		r.log.placeAt(a.LogFrom, a.held)
	}
}

// flushLog waits until the execution's chunks are all in the run's log
// (before a suspension's stream ends).
func (r *Run) flushLog() {
	r.emitMu.Lock()
	defer r.emitMu.Unlock()
	if r.log != nil {
		r.log.flush()
	}
}

// endLog ends the run's log: the run has ended (not suspended).
func (r *Run) endLog() {
	r.emitMu.Lock()
	defer r.emitMu.Unlock()
	if r.log != nil && r.log.end() {
		r.wf.endedLogs.add(time.Now())
	}
}

// withoutLog makes a run that keeps no event log (a nested workflow's
// inner run).
func withoutLog() RunOption { return func(r *Run) { r.unlogged = true } }

// encodeChunk is c's bytes as a stream.Encoder writes them
// (wire.UnescapeJS of stream.Marshal): the chunk's own MarshalJSON, which
// stream.Marshal wraps in a second pass of encoding/json that only
// checks and copies it.
func encodeChunk(c stream.Chunk) ([]byte, error) {
	b, err := c.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return wire.UnescapeJS(b), nil
}
