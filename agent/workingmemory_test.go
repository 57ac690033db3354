package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// The golden files in testdata/workingmemory are what Mastra (core
// 1.71.0, memory 1.31.0) sent its model: the working memory system
// message and the updateWorkingMemory tool, recorded from real runs on
// a scripted model.

func golden(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile("testdata/workingmemory/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// recorder is a scripted model that makes calls (in order, one a step)
// and then answers "ok", keeping every request.
type recorder struct {
	mu    sync.Mutex
	reqs  []*model.Request
	calls []string // the memory argument of each call, as JSON
}

func (r *recorder) model() *mock.Model {
	return mock.NewFunc(func(req *model.Request) mock.Step {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.reqs = append(r.reqs, req)
		if n := toolTurns(req.Messages); n < len(r.calls) {
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: fmt.Sprintf("call-%d", n), Name: WorkingMemoryToolName, Args: `{"memory":` + r.calls[n] + `}`}}}
		}
		return mock.Step{Text: "ok"}
	})
}

// toolTurns counts the tool messages after the last user message.
func toolTurns(msgs []model.Message) int {
	n := 0
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role != model.RoleUser; i-- {
		if msgs[i].Role == model.RoleTool {
			n++
		}
	}
	return n
}

// systemOf is the working memory system message of req ("" when none).
func systemOf(req *model.Request) string {
	for _, m := range req.Messages {
		if m.Role == model.RoleSystem && strings.HasPrefix(m.TextContent(), "WORKING_MEMORY_SYSTEM_INSTRUCTION") {
			return m.TextContent()
		}
	}
	return ""
}

// toolOf is the updateWorkingMemory tool offered in req, or nil.
func toolOf(req *model.Request) *model.ToolDefinition {
	for i := range req.Tools {
		if req.Tools[i].Name == WorkingMemoryToolName {
			return &req.Tools[i]
		}
	}
	return nil
}

func wmAgent(t *testing.T, rec *recorder, store storage.Store, mem *MemoryOptions) *Agent {
	t.Helper()
	a, err := New(Config{ID: "wm", Instructions: "You are a test agent.", Model: rec.model(), Storage: store, Memory: mem})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func generateOn(t *testing.T, a *Agent, prompt, thread string, opts ...Option) *Output {
	t.Helper()
	out, err := a.Generate(context.Background(), prompt, append([]Option{WithMemory(thread, "res-1")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Markdown mode, resource scope, as Mastra: the first run is shown the
// template and no data, its call stores the document; a run on another
// thread of the resource is shown the document; the tool and both
// system messages are Mastra's, byte for byte; the calls stay out of
// the thread's history.
func TestWorkingMemoryMarkdown(t *testing.T) {
	store := memoryStore(t)
	rec := &recorder{calls: []string{`"# User Information\n- **First Name**: Alice\n"`}}
	a := wmAgent(t, rec, store, &MemoryOptions{WorkingMemory: &WorkingMemory{}})
	out := generateOn(t, a, "hello 0", "thread-1")
	if out.Text != "ok" || len(out.ToolResults) != 1 || wmResult(out.ToolResults[0]) != `{"success":true}` {
		t.Fatalf("first run: %q, results %+v", out.Text, out.ToolResults)
	}
	if got := systemOf(rec.reqs[0]); got != golden(t, "markdown-empty.txt") {
		t.Errorf("system message with no data:\n%s\nwant Mastra's:\n%s", got, golden(t, "markdown-empty.txt"))
	}
	checkToolDefinition(t, toolOf(rec.reqs[0]), golden(t, "tool-markdown.json"))
	doc, err := a.WorkingMemory(context.Background(), "thread-1", "res-1")
	if err != nil || doc != "# User Information\n- **First Name**: Alice\n" {
		t.Fatalf("stored document %q, %v", doc, err)
	}
	res, err := store.GetResource(context.Background(), "res-1")
	if err != nil || res.WorkingMemory != doc {
		t.Fatalf("the resource record: %+v, %v", res, err)
	}

	rec.calls = nil
	generateOn(t, a, "hello 1", "thread-2")
	if got := systemOf(rec.reqs[len(rec.reqs)-1]); got != golden(t, "markdown-data.txt") {
		t.Errorf("system message with the document:\n%s\nwant Mastra's:\n%s", got, golden(t, "markdown-data.txt"))
	}
	msgs, err := store.ListMessages(context.Background(), "thread-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if strings.Contains(string(m.Content), WorkingMemoryToolName) {
			t.Errorf("the thread's history keeps a working memory call: %s", m.Content)
		}
	}
	if len(msgs) != 2 {
		t.Errorf("the thread holds %d messages, want the user's and the answer", len(msgs))
	}
}

// wmResult is the result of a tool-result chunk, as JSON.
func wmResult(c stream.Chunk) string {
	p, _ := c.Payload.(stream.ToolResultPayload)
	return asJSONText(p.Result)
}

// asJSONText is v as compact JSON.
func asJSONText(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// checkToolDefinition compares the tool offered with Mastra's (its
// "$schema" aside, which providers add).
func checkToolDefinition(t *testing.T, got *model.ToolDefinition, want string) {
	t.Helper()
	if got == nil {
		t.Fatal("updateWorkingMemory was not offered")
	}
	var g, w map[string]any
	raw, _ := json.Marshal(got)
	_ = json.Unmarshal(raw, &g)
	_ = json.Unmarshal([]byte(want), &w)
	for _, m := range []map[string]any{g, w} {
		if in, ok := m["inputSchema"].(map[string]any); ok {
			delete(in, "$schema")
		}
	}
	if !reflect.DeepEqual(g, w) {
		gj, _ := json.MarshalIndent(g, "", "  ")
		t.Errorf("tool offered:\n%s\nwant Mastra's:\n%s", gj, want)
	}
}

// docSchema is the document schema of Mastra's recorded schema-mode
// run: {name?, prefs?: {color?, food?}, tags?: [string]}.
func docSchema(t *testing.T) schema.Schema {
	t.Helper()
	var tool struct {
		InputSchema struct {
			Properties struct {
				Memory json.RawMessage `json:"memory"`
			} `json:"properties"`
		} `json:"inputSchema"`
	}
	if err := json.Unmarshal([]byte(golden(t, "tool-schema.json")), &tool); err != nil {
		t.Fatal(err)
	}
	s, err := schema.FromJSON(tool.InputSchema.Properties.Memory)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Schema mode, as Mastra: updates merge into the document (a nested
// object merged, an array replaced, a null for an optional key dropped
// before validation, a JSON string refused by the schema); the system
// messages show the empty object and then the document.
func TestWorkingMemorySchema(t *testing.T) {
	store := memoryStore(t)
	rec := &recorder{calls: []string{
		`{"name":"Alice","prefs":{"color":"red"},"tags":["a","b"]}`,
		`{"name":null,"prefs":{"food":"pizza"},"tags":["c"]}`,
		`"{\"prefs\":{\"color\":\"blue\"}}"`,
	}}
	a := wmAgent(t, rec, store, &MemoryOptions{WorkingMemory: &WorkingMemory{Schema: docSchema(t)}})
	out := generateOn(t, a, "hello 0", "thread-1")
	if len(out.ToolResults) != 3 || wmResult(out.ToolResults[0]) != `{"success":true}` || wmResult(out.ToolResults[1]) != `{"success":true}` {
		t.Fatalf("results %+v", out.ToolResults)
	}
	if !strings.Contains(wmResult(out.ToolResults[2]), "Tool input validation failed for updateWorkingMemory") {
		t.Errorf("a JSON string for the object: %s, want a validation error", wmResult(out.ToolResults[2]))
	}
	doc, err := a.WorkingMemory(context.Background(), "thread-1", "res-1")
	if err != nil || doc != `{"name":"Alice","prefs":{"color":"red","food":"pizza"},"tags":["c"]}` {
		t.Fatalf("document %s, %v", doc, err)
	}
	if got := systemOf(rec.reqs[0]); got != golden(t, "schema-empty.txt") {
		t.Errorf("system message with no data:\n%s\nwant Mastra's:\n%s", got, golden(t, "schema-empty.txt"))
	}
	checkToolDefinition(t, toolOf(rec.reqs[0]), golden(t, "tool-schema.json"))
	rec.calls = nil
	generateOn(t, a, "hello 1", "thread-1")
	if got := systemOf(rec.reqs[len(rec.reqs)-1]); got != golden(t, "schema-data.txt") {
		t.Errorf("system message with the document:\n%s\nwant Mastra's:\n%s", got, golden(t, "schema-data.txt"))
	}
}

// A null for a key the schema requires (and allows null) deletes it.
func TestWorkingMemoryRequiredNullDeletes(t *testing.T) {
	s, err := schema.FromJSON([]byte(`{"type":"object","properties":{"name":{"type":["string","null"]},"city":{"type":"string"}},"required":["name"]}`))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{calls: []string{`{"name":"Alice","city":"Paris"}`, `{"name":null}`}}
	a := wmAgent(t, rec, memoryStore(t), &MemoryOptions{WorkingMemory: &WorkingMemory{Schema: s}})
	generateOn(t, a, "hello", "thread-1")
	if doc, _ := a.WorkingMemory(context.Background(), "thread-1", "res-1"); doc != `{"city":"Paris"}` {
		t.Errorf("document %s, want {\"city\":\"Paris\"}", doc)
	}
	if got := a.cfg.Memory.WorkingMemory.emptyObject(); got != `{"name":null,"city":""}` {
		t.Errorf("empty object %s", got)
	}
}

// A read-only run is shown the document as read-only context and is not
// offered the tool; so is every run of a read-only memory.
func TestWorkingMemoryReadOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		mem  *MemoryOptions
		opts []Option
	}{
		{"per run", &MemoryOptions{WorkingMemory: &WorkingMemory{}}, []Option{WithMemoryReadOnly()}},
		{"memory", &MemoryOptions{ReadOnly: true, WorkingMemory: &WorkingMemory{}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			a := wmAgent(t, rec, memoryStore(t), tc.mem)
			generateOn(t, a, "hello", "thread-1", tc.opts...)
			if toolOf(rec.reqs[0]) != nil {
				t.Error("updateWorkingMemory offered to a read-only run")
			}
			if got := systemOf(rec.reqs[0]); got != golden(t, "readonly-empty.txt") {
				t.Errorf("system message:\n%s\nwant Mastra's:\n%s", got, golden(t, "readonly-empty.txt"))
			}
		})
	}
}

// The bare template written over a document is refused, as Mastra
// refuses it; thread scope keeps the document in the thread's metadata.
func TestWorkingMemoryTemplateGuardAndThreadScope(t *testing.T) {
	store := memoryStore(t)
	bare, _ := json.Marshal(DefaultWorkingMemoryTemplate)
	rec := &recorder{calls: []string{`"Alice"`, string(bare)}}
	a := wmAgent(t, rec, store, &MemoryOptions{WorkingMemory: &WorkingMemory{Scope: ScopeThread}})
	out := generateOn(t, a, "hello", "thread-1")
	if len(out.ToolResults) != 2 || wmResult(out.ToolResults[1]) != `{"success":false,"message":"`+emptyTemplateRefusal+`"}` {
		t.Fatalf("results %+v", out.ToolResults)
	}
	th, err := store.GetThread(context.Background(), "thread-1")
	if err != nil || th.Metadata["workingMemory"] != "Alice" {
		t.Fatalf("thread %+v, %v", th, err)
	}
	if _, err := store.GetResource(context.Background(), "res-1"); err == nil {
		t.Error("a thread-scoped document reached the resource")
	}
}

// The document merge: objects merged, arrays and values replaced, null
// deleting, the inputs left as they were.
func TestMergeDocument(t *testing.T) {
	existing := map[string]any{"a": map[string]any{"x": 1.0, "y": 2.0}, "list": []any{1.0}, "gone": "v", "keep": true}
	update := map[string]any{"a": map[string]any{"y": nil, "z": 3.0}, "list": []any{2.0, 3.0}, "gone": nil, "missing": nil, "new": map[string]any{"n": nil}}
	got := mergeDocument(existing, update)
	want := map[string]any{"a": map[string]any{"x": 1.0, "z": 3.0}, "list": []any{2.0, 3.0}, "keep": true, "new": map[string]any{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged %v, want %v", got, want)
	}
	if existing["gone"] != "v" || len(existing["a"].(map[string]any)) != 2 {
		t.Errorf("the existing document changed: %v", existing)
	}
}
