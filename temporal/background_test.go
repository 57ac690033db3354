package temporal_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/tools"
)

type topic struct {
	Topic string `json:"topic"`
}

// backgroundApp is an agent with background tasks enabled, whose tool
// research counts its executions and waits for
// release, run by a Temporal worker of queue. The model calls it with
// args.
type backgroundApp struct {
	agent      *agent.Agent
	client     *temporal.Client
	temporal   client.Client
	registry   *mastra.Mastra
	store      *sqlite.Store
	executions atomic.Int32
	release    chan struct{}
	done       func() // releases the tool's calls
}

// payloadOf is the chunk's payload as a T (a chunk read from a run's
// log carries it as JSON).
func payloadOf[T any](t *testing.T, c stream.Chunk) T {
	t.Helper()
	var v T
	raw, err := json.Marshal(c.Payload)
	if err == nil {
		err = json.Unmarshal(raw, &v)
	}
	if err != nil {
		t.Fatalf("%s payload: %v", c.Type, err)
	}
	return v
}

func newBackgroundApp(t *testing.T, queue, args string) *backgroundApp {
	app := &backgroundApp{store: newStore(t), release: make(chan struct{})}
	app.done = sync.OnceFunc(func() { close(app.release) })
	t.Cleanup(app.done) // before the manager's shutdown, which waits for the tool
	research := tools.New(tools.Config[topic, string]{ID: "research", Description: "Researches a topic.",
		Background: &tools.BackgroundConfig{Enabled: true},
		Execute: func(ctx tools.Context, in topic) (string, error) {
			app.executions.Add(1)
			select {
			case <-app.release:
				return "all about " + in.Topic, nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "r1", Name: "research", Args: args}}}, mock.Step{Text: "On it."})
	a, err := agent.New(agent.Config{ID: "researcher", Name: "Researcher", Instructions: "Research.", Model: m,
		Tools: tools.Set{"research": research}, Storage: app.store, Memory: &agent.MemoryOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	app.agent = a
	reg := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"researcher": a}})
	mgr, err := reg.EnableBackgroundTasks(context.Background(), bgtasks.Config{Store: app.store, PollInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mgr.Shutdown(context.Background()) })
	ts := newServer(t)
	ts.NewWorkerWithOptions(queue, func(r worker.Registry) {
		temporal.Register(r, reg, temporal.Options{Heartbeat: 100 * time.Millisecond})
	}, worker.Options{})
	app.temporal, app.registry = ts.GetDefaultClient(), reg
	app.client = temporal.NewClient(ts.GetDefaultClient(), queue, reg)
	if err := app.client.UseLaunchers(); err != nil {
		t.Fatal(err)
	}
	return app
}

// stream runs the agent on the thread th-1 and returns its chunks.
func (app *backgroundApp) stream(t *testing.T, ctx context.Context) []stream.Chunk {
	var chunks []stream.Chunk
	for c, err := range app.agent.Stream(ctx, "Research owls.", agent.WithMemory("th-1", "user-1")) {
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, c)
	}
	return chunks
}

// taskAndResult is the id of the task the chunks start and the JSON of
// the tool result they carry.
func taskAndResult(t *testing.T, chunks []stream.Chunk) (taskID, result string) {
	t.Helper()
	for _, c := range chunks {
		switch c.Type {
		case "background-task-started":
			taskID = payloadOf[bgtasks.StartedPayload](t, c).TaskID
		case stream.TypeToolResult:
			raw, _ := json.Marshal(payloadOf[stream.ToolResultPayload](t, c).Result)
			result = string(raw)
		}
	}
	return taskID, result
}

// A deferred background call of a run on Temporal does not hold the run
// up: the run streams the task's start and the placeholder and finishes
// while the tool still runs; once the task ends, the run's workflow
// writes its result into memory in place of the placeholder, and ends.
func TestDeferredBackgroundTaskOnTemporal(t *testing.T) {
	app := newBackgroundApp(t, "background-deferred", `{"topic":"owls"}`)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	chunks := app.stream(t, ctx) // the tool has not been released: the stream ended anyway
	taskID, placeholder := taskAndResult(t, chunks)
	last := chunks[len(chunks)-1]
	if taskID == "" || !strings.Contains(placeholder, "Background task started") || last.Type != stream.TypeFinish {
		t.Fatalf("task %q, placeholder %s, last chunk %s", taskID, placeholder, last.Type)
	}
	app.done()
	if _, err := app.client.Result(ctx, last.RunID); err != nil {
		t.Fatal(err)
	}
	task, err := app.store.GetTask(ctx, taskID)
	if err != nil || task.Status != bgtasks.Completed || string(task.Result) != `"all about owls"` {
		t.Fatalf("task = %+v, %v", task, err)
	}
	msgs, err := app.store.ListMessages(ctx, "th-1", 10)
	if err != nil {
		t.Fatal(err)
	}
	var toolMsg string
	for _, m := range msgs {
		if m.Role == "tool" {
			toolMsg = string(m.Content) + " " + string(m.Metadata)
		}
	}
	if !strings.Contains(toolMsg, "all about owls") || strings.Contains(toolMsg, "Background task started") || !strings.Contains(toolMsg, taskID) {
		t.Errorf("the tool message in memory: %s", toolMsg)
	}
	if n := app.executions.Load(); n != 1 {
		t.Errorf("the tool ran %d times, want 1", n)
	}
	replay(t, app.temporal, app.registry, last.RunID)
}

// An awaited background call of a run on Temporal waits for its task,
// which runs in the background-task manager, and answers the call with
// the task's result.
func TestAwaitedBackgroundTaskOnTemporal(t *testing.T) {
	app := newBackgroundApp(t, "background-awaited", `{"topic":"owls","_background":{"disposition":"awaited"}}`)
	app.done()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	taskID, result := taskAndResult(t, app.stream(t, ctx))
	if taskID == "" || result != `"all about owls"` {
		t.Fatalf("task %q, result %s", taskID, result)
	}
	if task, err := app.store.GetTask(ctx, taskID); err != nil || task.Status != bgtasks.Completed {
		t.Fatalf("task = %+v, %v", task, err)
	}
	if n := app.executions.Load(); n != 1 {
		t.Errorf("the tool ran %d times, want 1", n)
	}
}
