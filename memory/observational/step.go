package observational

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/processors"
)

// ProcessStep observes and reflects when their thresholds are reached,
// then leaves the observed messages out of s.Messages and puts the
// observations in after its system messages. A step without a thread is
// left alone; a read-only step (s.ReadOnly) is given the observations
// but neither observes, reflects, buffers nor saves, as in Mastra.
//
// What the step reads and does to the record (observer and reflector
// calls included) runs in one s.Record: a replayed step does not call
// the models again and is given the prompt the first execution built.
// A failed observer call fails the step, as Mastra's synchronous
// observation does, and stores nothing; a failed synchronous reflector
// call fails it after the observation is stored. A failed buffered
// observation or reflection, which runs in the background, is dropped.
func (p *Processor) ProcessStep(ctx context.Context, s *agent.StepInput) error {
	if s.ThreadID == "" || (p.cfg.Scope == ScopeResource && s.ResourceID == "") {
		return nil
	}
	raw, err := s.Record(ctx, func(ctx context.Context) ([]byte, error) {
		v, err := p.step(ctx, s.ThreadID, s.ResourceID, len(s.Messages), s.ReadOnly)
		if err != nil {
			return nil, err
		}
		return json.Marshal(v)
	})
	if err != nil {
		return err
	}
	var v view
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("observational memory: %w", err)
	}
	s.Messages = p.prompt(s.Messages, v)
	return nil
}

// view is what a step's prompt is built from: the observations, the
// thread's hints, the other threads' unobserved messages (resource
// scope), the fingerprints of the thread's observed messages and the
// time of the step.
type view struct {
	Observations string      `json:"observations,omitempty"`
	Others       string      `json:"others,omitempty"`
	Hints        ThreadHints `json:"hints"`
	Observed     []string    `json:"observed,omitempty"`
	Now          time.Time   `json:"now"`
}

// step brings the record up to date with the thread (unless readOnly)
// and returns the step's view. window is the prompt's size.
func (p *Processor) step(ctx context.Context, threadID, resourceID string, window int, readOnly bool) (view, error) {
	key := p.key(threadID, resourceID)
	for {
		unlock := p.lock(key)
		rec, err := p.Load(ctx, threadID, resourceID)
		if err != nil {
			unlock()
			return view{}, err
		}
		observed := setOf(rec.ObservedMessageIDs)
		msgs, err := p.threadMessages(ctx, threadID, observed, window)
		if err != nil {
			unlock()
			return view{}, err
		}
		var others []threadPending
		if p.cfg.Scope == ScopeResource {
			if others, err = p.otherPending(ctx, rec.ResourceID, threadID, observed); err != nil {
				unlock()
				return view{}, err
			}
		}
		if !readOnly {
			var wait <-chan struct{}
			wait, err = p.advance(ctx, key, &rec, threadID, msgs, others, observed)
			if wait != nil {
				// At MessageTokens with a buffered observation in
				// flight: Mastra waits for it, then activates.
				unlock()
				if p.waiting != nil {
					p.waiting(key)
				}
				select {
				case <-wait:
					continue
				case <-ctx.Done():
					return view{}, ctx.Err()
				}
			}
		}
		unlock()
		if err != nil {
			return view{}, err
		}
		v := p.viewOf(rec, threadID, msgs, observed)
		if v.Observations != "" {
			v.Others = p.otherConversations(others, observed)
		}
		return v, nil
	}
}

// viewOf is the step's view of rec and the thread's messages msgs.
func (p *Processor) viewOf(rec Record, threadID string, msgs []stored, observed map[string]bool) view {
	v := view{Observations: rec.ActiveObservations, Hints: rec.Threads[threadID], Now: p.cfg.Now()}
	if v.Observations == "" {
		return v
	}
	for _, m := range msgs {
		if observed[m.ID] {
			f := fingerprint(m.Msg)
			v.Observed = append(v.Observed, hex.EncodeToString(f[:]))
		}
	}
	return v
}

// pendingOf returns the messages of msgs not observed and their size,
// counted as Mastra's TokenCounter.countMessages: each message rounded,
// and 24 for the conversation.
func pendingOf(msgs []stored, observed map[string]bool) ([]stored, int) {
	var pending []stored
	tokens := 0.0
	for _, m := range msgs {
		if !observed[m.ID] {
			pending = append(pending, m)
			tokens += math.Round(counter.MessageTokens(m.Msg))
		}
	}
	if len(pending) > 0 {
		tokens += processors.TokensPerConversation
	}
	return pending, int(tokens)
}

// prompt leaves out of msgs the observed messages at the start of the
// conversation and puts the observations' system messages and the
// continuation reminder after msgs' system messages.
func (p *Processor) prompt(msgs []model.Message, v view) []model.Message {
	if v.Observations == "" {
		return msgs
	}
	gone := map[string]int{}
	for _, f := range v.Observed {
		gone[f]++
	}
	n := 0
	for n < len(msgs) && msgs[n].Role == model.RoleSystem {
		n++
	}
	rest := msgs[n:]
	for len(rest) > 0 {
		b := fingerprint(rest[0])
		f := hex.EncodeToString(b[:])
		if gone[f] == 0 {
			break
		}
		gone[f]--
		rest = rest[1:]
	}
	ctxMsgs := contextMessages(v.Observations, v.Others, v.Hints.CurrentTask, v.Hints.SuggestedResponse, v.Now, p.cfg.Location)
	out := make([]model.Message, 0, n+len(ctxMsgs)+1+len(rest))
	out = append(out, msgs[:n]...)
	for _, t := range ctxMsgs {
		out = append(out, model.System(t))
	}
	out = append(out, model.UserText("<system-reminder>"+continuationHint+"</system-reminder>"))
	return append(out, rest...)
}

// fingerprint identifies a message by its stored form.
func fingerprint(m model.Message) [32]byte {
	b, err := json.Marshal(m)
	if err != nil {
		return [32]byte{}
	}
	return sha256.Sum256(b)
}
