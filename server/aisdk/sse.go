package aisdk

import (
	"context"
	"iter"
	"log/slog"
	"net/http"
	"time"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/storage"
)

// streamErrorText is what a stream that fails after it began says, unless
// the route's OnError says otherwise (the AI SDK's createUIMessageStream
// default).
const streamErrorText = "An error occurred."

// sseWriter writes a UI message stream response: the headers of the AI
// SDK's createUIMessageStreamResponse, then one flushed frame per part.
// Nothing is sent before start (f is nil until then).
type sseWriter struct {
	w http.ResponseWriter
	r *http.Request
	f *wire.Framer
}

func (s *sseWriter) started() bool { return s.f != nil }

func (s *sseWriter) start() {
	s.f = wire.StartSSE(s.w, s.r, "X-Vercel-Ai-Ui-Message-Stream", "v1")
}

// part writes p's frame; ok is false when p cannot be encoded (nothing
// is written then).
func (s *sseWriter) part(p Part) (ok bool, err error) { return s.f.AppendData(p.AppendJSON) }

// writeUIStream answers a request with the parts run makes: an error
// before the first part as a JSON error, then the stream. run gets a
// context that ends with the request or when writing fails, and so does
// the run behind the parts. With a heartbeat, an idle stream sends SSE
// comments.
func writeUIStream(w http.ResponseWriter, r *http.Request, log *slog.Logger, heartbeat time.Duration, onError func(any) string, run func(context.Context) iter.Seq2[Part, error]) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	s := &sseWriter{w: w, r: r}
	// handle writes one part or error; false ends the response.
	handle := func(p Part, err error) bool {
		if err != nil {
			if ctx.Err() != nil {
				return false // the client went away: nobody to tell
			}
			if !s.started() {
				if status, _, _ := statusOf(err); status >= 500 {
					log.ErrorContext(r.Context(), "chat request failed", "path", r.URL.Path, "error", storage.ErrorDetail(err))
				}
				writeJSONError(w, err)
				return false
			}
			log.ErrorContext(r.Context(), "chat stream failed", "path", r.URL.Path, "error", storage.ErrorDetail(err))
			text := streamErrorText
			if onError != nil {
				text = onError(err)
			}
			if _, werr := s.part(Part{Type: PartError, ErrorText: text}); werr == nil {
				_ = s.f.Done()
			}
			return false
		}
		if !s.started() {
			s.start()
		}
		ok, werr := s.part(p)
		if !ok {
			log.WarnContext(r.Context(), "skipping a part that cannot be encoded", "type", p.Type, "error", werr)
			return true
		}
		return werr == nil
	}
	finished := true
	if heartbeat > 0 {
		finished = pumpWithHeartbeat(ctx, cancel, run(ctx), heartbeat, handle, s)
	} else {
		for p, err := range run(ctx) {
			if !handle(p, err) {
				finished = false
				break
			}
		}
	}
	if !finished {
		return
	}
	if !s.started() {
		s.start()
	}
	_ = s.f.Done()
}

type partEvent struct {
	part Part
	err  error
}

// pumpWithHeartbeat consumes parts on a goroutine of its own so that the
// writer can send ": heartbeat" comments while it waits. It returns
// whether the parts ended by themselves; the goroutine has exited when it
// returns (ending early cancels the run and waits for it).
func pumpWithHeartbeat(ctx context.Context, cancel context.CancelFunc, parts iter.Seq2[Part, error], every time.Duration, handle func(Part, error) bool, s *sseWriter) bool {
	events := make(chan partEvent)
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		defer close(events)
		for p, err := range parts {
			select {
			case events <- partEvent{p, err}:
			case <-ctx.Done():
				return
			}
		}
	}()
	stop := func() {
		cancel()
		for range events {
		}
		<-exited
	}
	timer := time.NewTimer(every)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				<-exited
				return true
			}
			if !handle(ev.part, ev.err) {
				stop()
				return false
			}
		case <-timer.C:
			if !s.started() {
				s.start()
			}
			if s.f.Comment("heartbeat") != nil {
				stop()
				return false
			}
		}
		timer.Reset(every)
	}
}
