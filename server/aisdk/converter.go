package aisdk

import (
	"iter"

	"github.com/gomastra/mastra/stream"
)

// Converter turns the chunks of one agent run (package stream, as
// agent.Stream yields them) into UI message stream parts, as Mastra's
// toAISdkStream does. It keeps the state a run's conversion needs: the
// start part is held until the first step starts (so it announces the
// message id the response is stored under), and sub-agent and workflow
// snapshots are built up chunk by chunk.
//
// A Converter is for one stream and is not safe for concurrent use.
type Converter struct {
	opts StreamOptions

	held          []stream.Chunk
	holding       bool
	startResolved bool
	tripwire      bool
	finished      bool

	agents    map[string]*agentRun
	workflows map[string]*workflowRun

	out []Part
}

// NewConverter returns a converter with the given options.
func NewConverter(opts StreamOptions) *Converter {
	return &Converter{opts: opts}
}

// Convert converts one chunk. It returns the parts it produces: none for
// chunks a UI stream does not show (tool-input-end, raw, object, hidden
// reasoning and sources, sub-agent chunks without IncludeSubAgentMetadata)
// or while the start part is held. The slice is reused by the next call.
func (c *Converter) Convert(ch stream.Chunk) []Part {
	c.out = c.out[:0]
	if !c.startResolved {
		switch {
		case ch.Type == stream.TypeStart && !c.opts.OmitStart:
			c.held, c.holding = append(c.held[:0], ch), true
			return nil
		case c.holding && ch.IsData():
			c.held = append(c.held, ch)
			return nil
		}
		c.startResolved = true
		if c.holding {
			held := c.held
			c.held, c.holding = nil, false
			if ch.Type == stream.TypeStepStart {
				held[0] = withStepMessageID(held[0], ch)
			}
			for _, h := range held {
				c.process(h)
			}
		}
	}
	c.process(ch)
	return c.out
}

// Flush ends the stream: it returns what is still held and, after a
// tripwire that stopped the run before its finish chunk, a finish part
// (reason "other").
func (c *Converter) Flush() []Part {
	c.out = c.out[:0]
	held := c.held
	c.held, c.holding = nil, false
	for _, h := range held {
		c.process(h)
	}
	if c.tripwire && !c.finished && !c.opts.OmitFinish {
		c.out = append(c.out, Part{Type: PartFinish, FinishReason: "other"})
	}
	return c.out
}

// withStepMessageID gives the held start chunk the message id of the
// first step when a processor changed it in between (both must be set).
func withStepMessageID(start, step stream.Chunk) stream.Chunk {
	sp, ok := start.Payload.(stream.StartPayload)
	if !ok || sp.MessageID == "" {
		return start
	}
	st, ok := step.Payload.(stream.StepStartPayload)
	if !ok || st.MessageID == "" || st.MessageID == sp.MessageID {
		return start
	}
	sp.MessageID = st.MessageID
	start.Payload = sp
	return start
}

// ToUIStream converts a run's chunks into UI message stream parts (Mastra's
// toAISdkStream for agent streams). An error of the chunk stream is
// yielded and ends the parts (nothing is flushed after it). Stopping the
// iteration stops the chunk stream, and so the run.
func ToUIStream(chunks iter.Seq2[stream.Chunk, error], opts StreamOptions) iter.Seq2[Part, error] {
	return func(yield func(Part, error) bool) {
		c := NewConverter(opts)
		for ch, err := range chunks {
			if err != nil {
				yield(Part{}, err)
				return
			}
			for _, p := range c.Convert(ch) {
				if !yield(p, nil) {
					return
				}
			}
		}
		for _, p := range c.Flush() {
			if !yield(p, nil) {
				return
			}
		}
	}
}
