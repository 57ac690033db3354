package aisdk

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"log/slog"
	"net/http"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// ChatRoutes returns the chat route (ChatRoute) and, when opts.Resumable
// is set, the GET route a useChat({resume: true}) front end reconnects
// through: "<path>/{chatId}/stream", the URL the AI SDK's
// DefaultChatTransport builds from the chat route's. Mount them all:
//
//	server.Options{Routes: aisdk.ChatRoutes(m, aisdk.ChatRouteOptions{Resumable: true})}
//
// The GET route answers the chat's active run (the one its last POST
// started, while it runs) with the run's whole UI message stream, from
// its first part, then live until it ends: the bytes the POST streamed,
// which the AI SDK's transport replays in place of the partial message.
// It answers 204 No Content when the chat has no active run (never had
// one, its run ended, or its run's event log is gone), 403 for a chat
// whose run belongs to another resource than the caller's
// (server.AuthResource), and 404 for an unknown agent.
func ChatRoutes(m *mastra.Mastra, opts ChatRouteOptions) []server.Route {
	rt, err := NewChatRoute(m, opts)
	if err != nil {
		return []server.Route{ChatRoute(m, opts)}
	}
	routes := []server.Route{rt}
	if h, ok := rt.Handler.(*chatHandler); ok && opts.Resumable {
		routes = append(routes, server.Route{Method: http.MethodGet, Path: rt.Path + "/{chatId}/stream", Handler: &chatStreamHandler{chat: h}})
	}
	return routes
}

// detachedRun starts chat chatID's runs with agent.Start: a run goes on
// when its reader stops (the client went away). While it runs, it is
// the chat's active stream.
func (h *chatHandler) detachedRun(chatID string) newRunFunc {
	return func(ctx context.Context, a *agent.Agent, input []model.Message, opts []agent.Option, chat activeStream) iter.Seq2[stream.Chunk, error] {
		return func(yield func(stream.Chunk, error) bool) {
			run, err := a.Start(ctx, input, opts...)
			if err != nil {
				yield(stream.Chunk{}, err)
				return
			}
			if chatID != "" {
				chat.RunID = run.RunID()
				h.remember(context.WithoutCancel(ctx), a, chatID, chat, run.Done())
			}
			for c, err := range run.Chunks(ctx) {
				if !yield(c, err) || err != nil {
					return
				}
			}
		}
	}
}

// detachedResume resumes the run detached from the request
// (agent.Agent.Detach): it finishes when its reader stops.
func detachedResume(ctx context.Context, a *agent.Agent, runID string, data json.RawMessage, opts []agent.Option) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		run, err := a.Detach(ctx, func(ctx context.Context) iter.Seq2[stream.Chunk, error] {
			return a.ResumeStream(ctx, runID, data, opts...)
		})
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		for c, err := range run.Chunks(ctx) {
			if !yield(c, err) || err != nil {
				return
			}
		}
	}
}

// forgetTimeout bounds clearing a chat's active stream once its run
// ended.
const forgetTimeout = 10 * time.Second

// remember records chat as chatID's active stream until done is closed.
// A failure to record is logged: the run goes on, only a reconnect will
// not find it.
func (h *chatHandler) remember(ctx context.Context, a *agent.Agent, chatID string, chat activeStream, done <-chan struct{}) {
	if err := h.streams.put(ctx, a, chatID, chat); err != nil {
		h.log.WarnContext(ctx, "chat stream cannot be resumed", "chat", chatID, "runId", chat.RunID, "error", storage.ErrorDetail(err))
		return
	}
	go func() {
		<-done
		fctx, cancel := context.WithTimeout(ctx, forgetTimeout)
		defer cancel()
		if err := h.streams.clear(fctx, a, chatID, chat.RunID); err != nil {
			h.log.WarnContext(fctx, "forgetting a chat's ended stream failed", "chat", chatID, "runId", chat.RunID, "error", storage.ErrorDetail(err))
		}
	}()
}

// chatStreamHandler serves GET <chat path>/{chatId}/stream.
type chatStreamHandler struct{ chat *chatHandler }

func (g *chatStreamHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := g.chat
	a, ok := h.agentOf(w, r)
	if !ok {
		return
	}
	chatID := r.PathValue("chatId")
	rec, found, err := h.streams.get(r.Context(), a, chatID)
	if err != nil {
		h.log.ErrorContext(r.Context(), "chat stream lookup failed", "path", r.URL.Path, "error", storage.ErrorDetail(err))
		writeJSONError(w, err)
		return
	}
	if !found {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if err := checkStreamOwner(r.Context(), a, rec, server.AuthResource(r)); err != nil {
		writeJSONError(w, err)
		return
	}
	chunks, ok := firstObserved(r.Context(), a, rec.RunID)
	if !ok {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	sopts := h.opts.Chat.Stream
	if sopts.LastMessageID == "" {
		sopts.LastMessageID = rec.MessageID
	}
	writeUIStream(w, r, h.log, h.opts.Heartbeat, h.opts.Chat.Stream.OnError, func(context.Context) iter.Seq2[Part, error] {
		return ToUIStream(chunks, sopts)
	})
}

// checkStreamOwner refuses (403) a caller with a resource other than the
// one the run was started for, or whose resource does not own the run's
// thread. Without a caller resource (no authentication) every chat is
// open, as the chat route is.
func checkStreamOwner(ctx context.Context, a *agent.Agent, rec activeStream, resource string) error {
	if resource == "" {
		return nil
	}
	if rec.ResourceID != resource {
		return errForbiddenThread
	}
	if rec.ThreadID != "" {
		return checkThreadOwner(ctx, a, rec.ThreadID, resource)
	}
	return nil
}

// firstObserved reads the run's events until its first chunk, so that a
// run whose log is gone is known before anything is answered; ok is
// false then. The chunks it returns start with that first one and go on
// live (iteration summaries left out, as a stream has none); they are
// read with ctx, and must be read to their end or stopped.
func firstObserved(ctx context.Context, a *agent.Agent, runID string) (iter.Seq2[stream.Chunk, error], bool) {
	next, stop := iter.Pull2(a.Observe(ctx, runID, 0))
	first, err, more := next()
	if !more || errors.Is(err, agent.ErrRunNotFound) {
		stop()
		return nil, false
	}
	return func(yield func(stream.Chunk, error) bool) {
		defer stop()
		for ev := first; more; ev, err, more = next() {
			if err != nil {
				yield(stream.Chunk{}, err)
				return
			}
			if ev.Type == agent.RunEventIterationComplete {
				continue
			}
			if !yield(ev.Chunk, nil) {
				return
			}
		}
	}, true
}

// chatLogger is the logger a chat route logs with.
func chatLogger(m *mastra.Mastra, opts ChatRouteOptions) *slog.Logger {
	if opts.Logger != nil {
		return opts.Logger
	}
	return m.Logger()
}
