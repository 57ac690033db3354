package mcpserver

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// hangServer has a tool that blocks until its call is cancelled, reporting
// that it started and why it stopped.
func hangServer(t testing.TB, started chan<- struct{}, stopped chan<- error) *Server {
	t.Helper()
	s, err := New(Config{Name: "hang", Version: "1", Logger: discardLogger(), RequestStateKey: stateKey, Tools: tools.Set{
		"hang": tools.New(tools.Config[struct{}, string]{ID: "hang", Description: "Never answers",
			Execute: func(ctx tools.Context, _ struct{}) (string, error) {
				started <- struct{}{}
				<-ctx.Done()
				stopped <- ctx.Err()
				return "", ctx.Err()
			}}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// A client that gives up on a call (its context is cancelled) cancels the
// tool: the SDK client sends notifications/cancelled, the tool's context
// ends, nothing is left running.
func TestClientCancellationStopsTool(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		started, stopped := make(chan struct{}, 1), make(chan error, 1)
		cs := connect(t, hangServer(t, started, stopped), clientOptions{legacy: legacy})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hang"})
			done <- err
		}()
		waitFor(t, started, "the tool to start")
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("legacy=%v: CallTool returned %v", legacy, err)
		}
		select {
		case err := <-stopped:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("legacy=%v: the tool stopped with %v", legacy, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("legacy=%v: the tool was not cancelled", legacy)
		}
	}
}

// Closing the server cancels the calls in flight.
func TestCloseCancelsCalls(t *testing.T) {
	started, stopped := make(chan struct{}, 1), make(chan error, 1)
	s := hangServer(t, started, stopped)
	cs := connect(t, s, clientOptions{legacy: true})
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "hang"})
		done <- err
	}()
	waitFor(t, started, "the tool to start")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not cancel the call")
	}
	if err := <-done; err == nil {
		t.Error("the call succeeded after Close")
	}
}

func waitFor(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}
