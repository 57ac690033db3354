package mcpserver

import (
	"errors"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

type skipIn struct {
	A int `json:"a"`
}

type skipOut struct {
	Sum int `json:"sum"`
}

// ask_user's resume schema (a string or a list of strings) is no MCP
// input request: New fails as Mastra's does, unless SkipUnservable
// leaves that tool out and serves the others.
func TestSkipUnservable(t *testing.T) {
	add := tools.New(tools.Config[skipIn, skipOut]{ID: "add", Execute: func(_ tools.Context, in skipIn) (skipOut, error) { return skipOut{Sum: in.A}, nil }})
	set := map[string]*tools.Tool{"add": add, "askUser": builtin.AskUserTool}
	var me *mastra.Error
	if _, err := New(Config{Name: "s", Version: "1", Tools: set}); !errors.As(err, &me) || me.ID != IDResumeSchemaNotRepresentable {
		t.Fatalf("without SkipUnservable: %v", err)
	}
	srv, err := New(Config{Name: "s", Version: "1", Tools: set, SkipUnservable: true})
	if err != nil {
		t.Fatal(err)
	}
	if names := srv.ToolNames(); len(names) != 1 || names[0] != "add" {
		t.Errorf("served %v, want [add]", names)
	}
	skipped := srv.Skipped()
	if len(skipped) != 1 || skipped[0].Name != "askUser" || !errors.As(skipped[0].Reason, &me) || me.ID != IDResumeSchemaNotRepresentable {
		t.Errorf("skipped %+v, want askUser with %s", skipped, IDResumeSchemaNotRepresentable)
	}
}
