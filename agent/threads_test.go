package agent

import (
	"context"
	"errors"
	"testing"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
)

func TestCheckThreadResource(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := newAgent(t, mock.New(mock.Step{Text: "hi"}), nil, func(c *Config) { c.Storage, c.Memory = st, &MemoryOptions{} })
	if _, err := a.Generate(ctx, "hello", WithMemory("t-alice", "alice")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		thread, resource string
		want             error
	}{
		{"t-alice", "alice", nil},
		{"t-alice", "bob", ErrThreadOfAnotherResource},
		{"t-new", "bob", nil},
	} {
		if err := a.CheckThreadResource(ctx, c.thread, c.resource); !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("%s as %s: %v, want %v", c.thread, c.resource, err, c.want)
		}
	}
}
