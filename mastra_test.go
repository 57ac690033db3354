package mastra_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOut struct {
	Sum int `json:"sum"`
}

func newTool(t testing.TB, id string) *tools.Tool {
	t.Helper()
	return tools.New(tools.Config[addIn, addOut]{
		ID:          id,
		Description: "adds two numbers",
		Execute: func(_ tools.Context, in addIn) (addOut, error) {
			return addOut{Sum: in.A + in.B}, nil
		},
	})
}

// ids maps registry keys to tool ids, for comparing registries.
func ids(m map[string]*tools.Tool) map[string]string {
	out := make(map[string]string, len(m))
	for k, t := range m {
		out[k] = t.ID()
	}
	return out
}

func TestNew(t *testing.T) {
	a, b, c := newTool(t, "tool-a"), newTool(t, "tool-b"), newTool(t, "tool-c")
	tests := []struct {
		name     string
		cfg      mastra.Config
		wantKeys []string
		wantIDs  map[string]string
	}{
		{
			name:     "empty",
			cfg:      mastra.Config{},
			wantKeys: []string{},
			wantIDs:  map[string]string{},
		},
		{
			name:     "sorted key order",
			cfg:      mastra.Config{Tools: tools.Set{"zeta": a, "alpha": b, "mid": c}},
			wantKeys: []string{"alpha", "mid", "zeta"},
			wantIDs:  map[string]string{"alpha": "tool-b", "mid": "tool-c", "zeta": "tool-a"},
		},
		{
			name:     "nil entries skipped",
			cfg:      mastra.Config{Tools: tools.Set{"a": a, "nothing": nil}},
			wantKeys: []string{"a"},
			wantIDs:  map[string]string{"a": "tool-a"},
		},
		{
			name:     "empty key falls back to the id",
			cfg:      mastra.Config{Tools: tools.Set{"": a, "b": b}},
			wantKeys: []string{"tool-a", "b"},
			wantIDs:  map[string]string{"tool-a": "tool-a", "b": "tool-b"},
		},
		{
			name: "first key wins in sorted order",
			// "" sorts first and defaults to "b", so the entry under "b"
			// is the duplicate.
			cfg:      mastra.Config{Tools: tools.Set{"": newTool(t, "b"), "b": b}},
			wantKeys: []string{"b"},
			wantIDs:  map[string]string{"b": "b"},
		},
		{
			name:     "array-index keys first, as in JavaScript",
			cfg:      mastra.Config{Tools: tools.Set{"b": a, "10": b, "2": c}},
			wantKeys: []string{"2", "10", "b"},
			wantIDs:  map[string]string{"2": "tool-c", "10": "tool-b", "b": "tool-a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mastra.New(tt.cfg)
			if diff := cmp.Diff(tt.wantKeys, m.ToolKeys()); diff != "" {
				t.Errorf("ToolKeys() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantIDs, ids(m.ListTools())); diff != "" {
				t.Errorf("ListTools() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAddTool(t *testing.T) {
	first, second := newTool(t, "first"), newTool(t, "second")
	type add struct {
		tool *tools.Tool
		key  string
		dup  bool // the key is taken: ErrDuplicateKey
	}
	tests := []struct {
		name     string
		adds     []add
		wantKeys []string
		wantIDs  map[string]string
	}{
		{
			name:     "key defaults to id",
			adds:     []add{{first, "", false}},
			wantKeys: []string{"first"},
			wantIDs:  map[string]string{"first": "first"},
		},
		{
			name:     "explicit key",
			adds:     []add{{first, "calc", false}},
			wantKeys: []string{"calc"},
			wantIDs:  map[string]string{"calc": "first"},
		},
		{
			name:     "first key wins",
			adds:     []add{{first, "k", false}, {second, "k", true}},
			wantKeys: []string{"k"},
			wantIDs:  map[string]string{"k": "first"},
		},
		{
			name:     "first wins against a defaulted key",
			adds:     []add{{first, "second", false}, {second, "", true}},
			wantKeys: []string{"second"},
			wantIDs:  map[string]string{"second": "first"},
		},
		{
			name:     "same tool under two keys",
			adds:     []add{{first, "x", false}, {first, "", false}},
			wantKeys: []string{"x", "first"},
			wantIDs:  map[string]string{"x": "first", "first": "first"},
		},
		{
			name:     "insertion order",
			adds:     []add{{first, "z", false}, {second, "a", false}, {first, "m", false}},
			wantKeys: []string{"z", "a", "m"},
			wantIDs:  map[string]string{"z": "first", "a": "second", "m": "first"},
		},
		{
			name:     "array-index keys ordered numerically before others",
			adds:     []add{{first, "b", false}, {first, "2", false}, {first, "a", false}, {first, "10", false}, {first, "02", false}, {first, "4294967295", false}, {first, "4294967294", false}, {first, "0", false}},
			wantKeys: []string{"0", "2", "10", "4294967294", "b", "a", "02", "4294967295"},
			wantIDs: map[string]string{
				"0": "first", "2": "first", "10": "first", "4294967294": "first",
				"b": "first", "a": "first", "02": "first", "4294967295": "first",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m mastra.Mastra // the zero value is usable
			for _, a := range tt.adds {
				err := m.AddTool(a.tool, a.key)
				if a.dup != errors.Is(err, mastra.ErrDuplicateKey) || (!a.dup && err != nil) {
					t.Fatalf("AddTool(%q, %q) = %v, want duplicate %v", a.tool.ID(), a.key, err, a.dup)
				}
			}
			if diff := cmp.Diff(tt.wantKeys, m.ToolKeys()); diff != "" {
				t.Errorf("ToolKeys() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantIDs, ids(m.ListTools())); diff != "" {
				t.Errorf("ListTools() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAddToolNil(t *testing.T) {
	const text = "Cannot add tool: tool is null. This may occur if config was spread ({ ...config }) and the original object had getters or non-enumerable properties."
	tests := []struct {
		name        string
		key         string
		wantDetails map[string]any
		wantJSON    string
	}{
		{
			name:        "with key",
			key:         "k",
			wantDetails: map[string]any{"status": 400, "key": "k"},
			wantJSON:    `{"message":"` + text + `","domain":"MASTRA","category":"USER","code":"MASTRA_ADD_TOOL_UNDEFINED","details":{"key":"k","status":400}}`,
		},
		{
			name:        "without key",
			wantDetails: map[string]any{"status": 400},
			wantJSON:    `{"message":"` + text + `","domain":"MASTRA","category":"USER","code":"MASTRA_ADD_TOOL_UNDEFINED","details":{"status":400}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mastra.New(mastra.Config{})
			err := m.AddTool(nil, tt.key)
			if !errors.Is(err, mastra.ErrNilTool) {
				t.Fatalf("AddTool(nil) = %v, want ErrNilTool", err)
			}
			if errors.Is(err, mastra.ErrToolNotFound) {
				t.Errorf("AddTool(nil) error matches ErrToolNotFound")
			}
			var merr *mastra.Error
			if !errors.As(err, &merr) {
				t.Fatalf("AddTool(nil) error is %T, want *mastra.Error", err)
			}
			want := &mastra.Error{
				ID: mastra.IDAddToolUndefined, Domain: mastra.DomainMastra, Category: mastra.CategoryUser,
				Message: text, Details: tt.wantDetails,
			}
			if diff := cmp.Diff(want, merr); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			b, jerr := merr.MarshalMastra()
			if jerr != nil {
				t.Fatal(jerr)
			}
			if string(b) != tt.wantJSON {
				t.Errorf("json = %s\nwant   %s", b, tt.wantJSON)
			}
			if got := m.ToolKeys(); len(got) != 0 {
				t.Errorf("ToolKeys() = %q after failed add", got)
			}
		})
	}
}

func TestRemoveTool(t *testing.T) {
	m := mastra.New(mastra.Config{Tools: tools.Set{
		"a": newTool(t, "tool-a"), "b": newTool(t, "tool-b"), "c": newTool(t, "tool-c"),
	}})
	steps := []struct {
		remove   string
		want     bool
		wantKeys []string
	}{
		{remove: "missing", want: false, wantKeys: []string{"a", "b", "c"}},
		{remove: "tool-b", want: false, wantKeys: []string{"a", "b", "c"}}, // by key, not id
		{remove: "b", want: true, wantKeys: []string{"a", "c"}},
		{remove: "b", want: false, wantKeys: []string{"a", "c"}},
		{remove: "a", want: true, wantKeys: []string{"c"}},
		{remove: "c", want: true, wantKeys: []string{}},
	}
	for _, s := range steps {
		if got := m.RemoveTool(s.remove); got != s.want {
			t.Errorf("RemoveTool(%q) = %v, want %v", s.remove, got, s.want)
		}
		if diff := cmp.Diff(s.wantKeys, m.ToolKeys()); diff != "" {
			t.Errorf("after RemoveTool(%q): ToolKeys() mismatch (-want +got):\n%s", s.remove, diff)
		}
		if _, err := m.GetTool(s.remove); err == nil {
			t.Errorf("GetTool(%q) after removal succeeded", s.remove)
		}
	}

	// A removed key can be added again; it moves to the end, as a deleted
	// and re-added JavaScript property does.
	m2 := mastra.New(mastra.Config{Tools: tools.Set{"a": newTool(t, "old"), "b": newTool(t, "tool-b")}})
	m2.RemoveTool("a")
	if err := m2.AddTool(newTool(t, "new"), "a"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b", "a"}, m2.ToolKeys()); diff != "" {
		t.Errorf("ToolKeys() after re-add mismatch (-want +got):\n%s", diff)
	}
	if got, err := m2.GetTool("a"); err != nil || got.ID() != "new" {
		t.Errorf("GetTool(a) = %v, %v; want the re-added tool", got, err)
	}
}

func TestGetTool(t *testing.T) {
	calc := newTool(t, "calculator-tool")
	m := mastra.New(mastra.Config{})
	for _, a := range []struct {
		tool *tools.Tool
		key  string
	}{{calc, "calculator"}, {newTool(t, "weather-tool"), "weather"}, {newTool(t, "x"), "2"}} {
		if err := m.AddTool(a.tool, a.key); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		key     string
		wantID  string
		wantErr *mastra.Error
	}{
		{name: "by key", key: "calculator", wantID: "calculator-tool"},
		{name: "array-index key", key: "2", wantID: "x"},
		{
			name: "id is not a key",
			key:  "calculator-tool",
			wantErr: &mastra.Error{
				ID: "MASTRA_GET_TOOL_BY_NAME_NOT_FOUND", Domain: "MASTRA", Category: "USER",
				Message: "Tool with name calculator-tool not found",
				Details: map[string]any{"status": 404, "toolName": "calculator-tool", "tools": "2, calculator, weather"},
			},
		},
		{
			name: "empty name",
			key:  "",
			wantErr: &mastra.Error{
				ID: "MASTRA_GET_TOOL_BY_NAME_NOT_FOUND", Domain: "MASTRA", Category: "USER",
				Message: "Tool with name  not found",
				Details: map[string]any{"status": 404, "toolName": "", "tools": "2, calculator, weather"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := m.GetTool(tt.key)
			checkLookup(t, got, err, tt.wantID, tt.wantErr)
		})
	}
}

func TestGetToolByID(t *testing.T) {
	// Key "alpha" holds a tool whose id is "beta", and key "beta" holds a
	// tool whose id is "alpha": an id match is preferred over a key match.
	m := mastra.New(mastra.Config{})
	for _, a := range []struct{ id, key string }{
		{"beta", "alpha"},
		{"alpha", "beta"},
		{"dup-id", "first"},
		{"dup-id", "second"},
		{"gamma", "only-key"},
	} {
		if err := m.AddTool(newTool(t, a.id), a.key); err != nil {
			t.Fatal(err)
		}
	}
	byKey := func(key string) *tools.Tool {
		tool, err := m.GetTool(key)
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	const keys = "alpha, beta, first, second, only-key"
	tests := []struct {
		name    string
		id      string
		want    *tools.Tool
		wantErr *mastra.Error
	}{
		{name: "id match preferred over key match", id: "alpha", want: byKey("beta")},
		{name: "id match preferred over key match (reverse)", id: "beta", want: byKey("alpha")},
		{name: "first id match in insertion order", id: "dup-id", want: byKey("first")},
		{name: "plain id", id: "gamma", want: byKey("only-key")},
		{name: "falls back to key", id: "only-key", want: byKey("only-key")},
		{name: "falls back to key (second)", id: "second", want: byKey("second")},
		{
			name: "not found",
			id:   "nope",
			wantErr: &mastra.Error{
				ID: "MASTRA_GET_TOOL_BY_ID_NOT_FOUND", Domain: "MASTRA", Category: "USER",
				Message: "Tool with id nope not found",
				Details: map[string]any{"status": 404, "toolId": "nope", "tools": keys},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := m.GetToolByID(tt.id)
			if tt.wantErr != nil {
				checkLookup(t, got, err, "", tt.wantErr)
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("GetToolByID(%q) = %p (%v), %v; want %p (%s)", tt.id, got, idOf(got), err, tt.want, tt.want.ID())
			}
		})
	}
}

func idOf(t *tools.Tool) string {
	if t == nil {
		return "<nil>"
	}
	return t.ID()
}

func checkLookup(t *testing.T, got *tools.Tool, err error, wantID string, wantErr *mastra.Error) {
	t.Helper()
	if wantErr == nil {
		if err != nil {
			t.Fatalf("err = %v", err)
		}
		if got.ID() != wantID {
			t.Errorf("tool id = %q, want %q", got.ID(), wantID)
		}
		return
	}
	if got != nil {
		t.Errorf("tool = %s, want nil", got.ID())
	}
	if !errors.Is(err, mastra.ErrToolNotFound) {
		t.Errorf("errors.Is(%v, ErrToolNotFound) = false", err)
	}
	if errors.Is(err, mastra.ErrNilTool) {
		t.Errorf("errors.Is(%v, ErrNilTool) = true", err)
	}
	if !errors.Is(err, &mastra.Error{ID: wantErr.ID}) {
		t.Errorf("errors.Is(%v, &Error{ID: %q}) = false", err, wantErr.ID)
	}
	var merr *mastra.Error
	if !errors.As(err, &merr) {
		t.Fatalf("err is %T, want *mastra.Error", err)
	}
	if diff := cmp.Diff(wantErr, merr); diff != "" {
		t.Errorf("error mismatch (-want +got):\n%s", diff)
	}
	if err.Error() != wantErr.Message {
		t.Errorf("Error() = %q, want %q", err.Error(), wantErr.Message)
	}
}

func TestNotFoundEmptyRegistry(t *testing.T) {
	// Mastra 1.71 on an empty registry:
	// {"message":"Tool with name x not found","domain":"MASTRA","category":"USER","code":"MASTRA_GET_TOOL_BY_NAME_NOT_FOUND","details":{"status":404,"toolName":"x","tools":""}}
	// {"message":"Tool with id x not found","domain":"MASTRA","category":"USER","code":"MASTRA_GET_TOOL_BY_ID_NOT_FOUND","details":{"status":404,"toolId":"x","tools":""}}
	m := mastra.New(mastra.Config{})
	_, err := m.GetTool("x")
	wantJSON(t, err, `{"message":"Tool with name x not found","domain":"MASTRA","category":"USER","code":"MASTRA_GET_TOOL_BY_NAME_NOT_FOUND","details":{"status":404,"toolName":"x","tools":""}}`)
	_, err = m.GetToolByID("x")
	wantJSON(t, err, `{"message":"Tool with id x not found","domain":"MASTRA","category":"USER","code":"MASTRA_GET_TOOL_BY_ID_NOT_FOUND","details":{"status":404,"toolId":"x","tools":""}}`)
}

func TestNotFoundToolsList(t *testing.T) {
	// Mastra 1.71, new Mastra({tools: {b, a, '2'}}): tools "2, b, a".
	m := mastra.New(mastra.Config{})
	for _, k := range []string{"b", "a", "2"} {
		if err := m.AddTool(newTool(t, "t"+k), k); err != nil {
			t.Fatal(err)
		}
	}
	_, err := m.GetTool("zz")
	wantJSON(t, err, `{"message":"Tool with name zz not found","domain":"MASTRA","category":"USER","code":"MASTRA_GET_TOOL_BY_NAME_NOT_FOUND","details":{"status":404,"toolName":"zz","tools":"2, b, a"}}`)
	_, err = m.GetToolByID("zz")
	wantJSON(t, err, `{"message":"Tool with id zz not found","domain":"MASTRA","category":"USER","code":"MASTRA_GET_TOOL_BY_ID_NOT_FOUND","details":{"status":404,"toolId":"zz","tools":"2, b, a"}}`)
}

// wantJSON checks err's MastraError.toJSON() form.
func wantJSON(t *testing.T, err error, want string) {
	t.Helper()
	var merr *mastra.Error
	if !errors.As(err, &merr) {
		t.Fatalf("err is %T, want *mastra.Error", err)
	}
	b, jerr := merr.MarshalMastra()
	if jerr != nil {
		t.Fatal(jerr)
	}
	if string(b) != want {
		t.Errorf("json = %s\nwant   %s", b, want)
	}
}

func TestErrorIs(t *testing.T) {
	cause := errors.New("boom")
	tests := []struct {
		name   string
		err    error
		target error
		want   bool
	}{
		{"by name matches sentinel", &mastra.Error{ID: mastra.IDGetToolByNameNotFound}, mastra.ErrToolNotFound, true},
		{"by id matches sentinel", &mastra.Error{ID: mastra.IDGetToolByIDNotFound}, mastra.ErrToolNotFound, true},
		{"wrapped", fmt.Errorf("lookup: %w", &mastra.Error{ID: mastra.IDGetToolByIDNotFound}), mastra.ErrToolNotFound, true},
		{"other id", &mastra.Error{ID: "SOMETHING_ELSE"}, mastra.ErrToolNotFound, false},
		{"nil tool", &mastra.Error{ID: mastra.IDAddToolUndefined}, mastra.ErrNilTool, true},
		{"same id", &mastra.Error{ID: "X", Message: "a"}, &mastra.Error{ID: "X"}, true},
		{"different id", &mastra.Error{ID: "X"}, &mastra.Error{ID: "Y"}, false},
		{"empty target id", &mastra.Error{ID: ""}, &mastra.Error{}, false},
		{"cause", &mastra.Error{ID: "X", Cause: cause}, cause, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errors.Is(tt.err, tt.target); got != tt.want {
				t.Errorf("errors.Is = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestErrorJSONCause(t *testing.T) {
	tests := []struct {
		name string
		err  *mastra.Error
		want string
	}{
		{
			name: "nil details encode as {}",
			err:  &mastra.Error{ID: "X", Domain: mastra.DomainTool, Category: mastra.CategorySystem, Message: "t"},
			want: `{"message":"t","domain":"TOOL","category":"SYSTEM","code":"X","details":{}}`,
		},
		{
			name: "plain cause",
			err:  &mastra.Error{ID: "X", Message: "t", Cause: errors.New("boom")},
			want: `{"message":"t","domain":"","category":"","code":"X","details":{},"cause":{"message":"boom","name":"Error"}}`,
		},
		{
			name: "mastra cause",
			err:  &mastra.Error{ID: "X", Message: "t", Cause: &mastra.Error{ID: "Y", Domain: mastra.DomainMCP, Message: "inner"}},
			want: `{"message":"t","domain":"","category":"","code":"X","details":{},"cause":{"message":"inner","domain":"MCP","category":"","code":"Y","details":{}}}`,
		},
		{
			// An *Error without a domain stands for a plain Error (the
			// agent's and the workflows' errors of no Mastra domain).
			name: "plain-error cause with an id",
			err:  &mastra.Error{ID: "X", Message: "t", Cause: &mastra.Error{ID: "WORKFLOW_RESUME_NOT_SUSPENDED", Message: "inner"}},
			want: `{"message":"t","domain":"","category":"","code":"X","details":{},"cause":{"message":"inner","name":"Error"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { wantJSON(t, tt.err, tt.want) })
	}
}

func TestListToolsCopy(t *testing.T) {
	a := newTool(t, "a")
	m := mastra.New(mastra.Config{Tools: tools.Set{"a": a}})

	got := m.ListTools()
	got["b"] = newTool(t, "b")
	delete(got, "a")
	got2 := m.ListTools()
	if diff := cmp.Diff(map[string]string{"a": "a"}, ids(got2)); diff != "" {
		t.Errorf("registry changed through ListTools' map (-want +got):\n%s", diff)
	}
	if got2["a"] != a {
		t.Errorf("ListTools()[a] is not the registered tool")
	}
	if _, err := m.GetTool("b"); err == nil {
		t.Errorf("GetTool(b) found a tool added to the copy")
	}

	keys := m.ToolKeys()
	keys[0] = "changed"
	if diff := cmp.Diff([]string{"a"}, m.ToolKeys()); diff != "" {
		t.Errorf("registry changed through ToolKeys' slice (-want +got):\n%s", diff)
	}

	// Mastra's listTools() returns {} for an empty registry.
	empty := mastra.New(mastra.Config{}).ListTools()
	if empty == nil {
		t.Fatal("ListTools() on an empty registry = nil, want an empty map")
	}
	if b, _ := json.Marshal(empty); string(b) != "{}" {
		t.Errorf("json of empty ListTools() = %s, want {}", b)
	}
}

func TestLogger(t *testing.T) {
	var zero mastra.Mastra
	if zero.Logger() == nil {
		t.Error("zero Mastra: Logger() = nil")
	}
	if mastra.New(mastra.Config{}).Logger() == nil {
		t.Error("Logger() = nil without Config.Logger")
	}
}

func TestConcurrent(t *testing.T) {
	m := mastra.New(mastra.Config{Tools: tools.Set{"base": newTool(t, "base")}})
	const workers, perWorker = 8, 50
	toolsByWorker := make([][]*tools.Tool, workers)
	for w := range workers {
		for i := range perWorker {
			toolsByWorker[w] = append(toolsByWorker[w], newTool(t, fmt.Sprintf("w%d-t%d", w, i)))
		}
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i, tool := range toolsByWorker[w] {
				if err := m.AddTool(tool, ""); err != nil {
					t.Error(err)
					return
				}
				// Every worker also races for the same shared key.
				_ = m.AddTool(tool, "shared")
				if _, err := m.GetTool("base"); err != nil {
					t.Error(err)
				}
				if _, err := m.GetToolByID(tool.ID()); err != nil {
					t.Error(err)
				}
				if _, err := m.GetToolByID("missing"); !errors.Is(err, mastra.ErrToolNotFound) {
					t.Errorf("GetToolByID(missing) = %v", err)
				}
				_ = m.ListTools()
				_ = m.ToolKeys()
				if i%2 == 1 {
					if !m.RemoveTool(tool.ID()) {
						t.Errorf("RemoveTool(%q) = false", tool.ID())
					}
				}
			}
		})
	}
	wg.Wait()

	want := map[string]bool{"base": true, "shared": true}
	for w := range workers {
		for i := 0; i < perWorker; i += 2 {
			want[fmt.Sprintf("w%d-t%d", w, i)] = true
		}
	}
	got := map[string]bool{}
	for _, k := range m.ToolKeys() {
		if got[k] {
			t.Errorf("duplicate key %q", k)
		}
		got[k] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keys after concurrent use mismatch (-want +got):\n%s", diff)
	}
	if n := len(m.ListTools()); n != len(want) {
		t.Errorf("len(ListTools()) = %d, want %d", n, len(want))
	}
}

// The registry satisfies tools.Registry, which tools reach through their
// Context.
func TestRegistryInterface(t *testing.T) {
	var r tools.Registry = mastra.New(mastra.Config{Tools: tools.Set{"k": newTool(t, "id")}})
	if got, err := r.GetTool("k"); err != nil || got.ID() != "id" {
		t.Errorf("GetTool(k) = %v, %v", idOf(got), err)
	}
	if got, err := r.GetToolByID("id"); err != nil || got.ID() != "id" {
		t.Errorf("GetToolByID(id) = %v, %v", idOf(got), err)
	}
}

func TestWorkflowsInTheRegistry(t *testing.T) {
	w := workflows.New(workflows.Config{ID: "research"}).Then(workflows.NewStep(workflows.StepConfig[addIn, addOut]{ID: "add",
		Execute: func(_ workflows.StepContext, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil }}))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Workflows: map[string]*workflows.Workflow{"researchWorkflow": w}})
	if got, err := m.GetWorkflow("researchWorkflow"); err != nil || got != w {
		t.Fatalf("GetWorkflow: %v", err)
	}
	_, err := m.GetWorkflow("nope")
	if !errors.Is(err, mastra.ErrWorkflowNotFound) || err.Error() != "Workflow with ID nope not found" {
		t.Errorf("missing workflow: %v", err)
	}
	if len(m.ListWorkflows()) != 1 {
		t.Errorf("ListWorkflows: %v", m.ListWorkflows())
	}
}
