package postgres_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage/postgres"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
	"github.com/gomastra/mastra/tools"
)

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOut struct {
	Sum int `json:"sum"`
}

// slowAdd adds once its run is aborted, or after a minute (reported on
// timedOut: the abort never reached it).
func slowAdd(timedOut chan<- struct{}) *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "slow-add", Description: "Add, slowly",
		Execute: func(ctx tools.Context, in addIn) (addOut, error) {
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute):
				timedOut <- struct{}{}
			}
			return addOut{Sum: in.A + in.B}, nil
		}})
}

// oneCallThenText calls slow-add once, then answers.
func oneCallThenText() model.LanguageModel {
	return mock.NewFunc(func(req *model.Request) mock.Step {
		for _, m := range req.Messages {
			if m.Role == model.RoleTool {
				return mock.Step{Text: "Done adding."}
			}
		}
		return mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "slow-add", Args: `{"a":2,"b":3}`}}}
	})
}

// agentReplica is one server process over the database dsn with the
// slow agent.
func agentReplica(t *testing.T, dsn string, timedOut chan<- struct{}) *httptest.Server {
	t.Helper()
	st, err := postgres.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	a, err := agent.New(agent.Config{ID: "slow-agent", Model: oneCallThenText(), Tools: tools.Set{"slow-add": slowAdd(timedOut)},
		Storage: st, Memory: &agent.MemoryOptions{}, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"slowAgent": a}, Logger: quiet}), server.Options{Logger: quiet})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		st.Close()
	})
	return ts
}

func postJSON(t *testing.T, ts *httptest.Server, path, body string) (*http.Response, error) {
	t.Helper()
	return http.Post(ts.URL+path, "application/json", strings.NewReader(body))
}

// TestAgentRunAcrossReplicas: a reader on replica B follows a run
// executing on replica A (history, then live, to the end), and an abort
// sent to B stops the run on A while its tool runs: A's stream and B's
// observe both end with finish reason "abort".
func TestAgentRunAcrossReplicas(t *testing.T) {
	dsn := pgtest.DSN(t)
	timedOut := make(chan struct{}, 2)
	a, b := agentReplica(t, dsn, timedOut), agentReplica(t, dsn, timedOut)
	resp, err := postJSON(t, a, "/api/agents/slow-agent/stream", `{"messages":"add","runId":"run-x","memory":{"thread":"thread-x","resource":"user-1"}}`)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("A's stream ended before the tool call: %v", err)
		}
		if strings.Contains(line, `"type":"tool-call"`) {
			break
		}
	}
	observed := make(chan string, 1)
	go func() {
		r, err := postJSON(t, b, "/api/agents/slow-agent/observe", `{"runId":"run-x"}`)
		if err != nil {
			observed <- err.Error()
			return
		}
		defer r.Body.Close()
		body, _ := io.ReadAll(r.Body)
		observed <- string(body)
	}()
	r, err := postJSON(t, b, "/api/agents/slow-agent/threads/abort", `{"threadId":"thread-x","resourceId":"user-1"}`)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if string(answer) != `{"aborted":true}` {
		t.Fatalf("abort on B: %d %s", r.StatusCode, answer)
	}
	rest, _ := io.ReadAll(br)
	select {
	case <-timedOut:
		t.Fatal("the tool on A ran to its end: B's abort did not reach it")
	default:
	}
	if !strings.Contains(string(rest), `"stepResult":{"reason":"abort"`) || !strings.HasSuffix(string(rest), "data: [DONE]\n\n") {
		t.Errorf("A's stream after the abort: %s", rest)
	}
	body := <-observed
	frames := strings.Split(strings.TrimSpace(body), "\n\n")
	if len(frames) < 3 || !strings.HasPrefix(frames[0], `data: {"type":"chunk","runId":"run-x","data":{"type":"start"`) ||
		!strings.HasPrefix(frames[len(frames)-2], `data: {"type":"finish"`) || !strings.Contains(frames[len(frames)-2], `"reason":"abort"`) ||
		frames[len(frames)-1] != "data: [DONE]" {
		t.Errorf("B's observe: %s", body)
	}
	if r, err := postJSON(t, b, "/api/agents/slow-agent/threads/abort", `{"threadId":"thread-x","resourceId":"user-1"}`); err == nil {
		answer, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if string(answer) != `{"aborted":false}` {
			t.Errorf("abort of the ended run: %s", answer)
		}
	}
}
