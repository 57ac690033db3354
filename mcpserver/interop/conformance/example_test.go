package conformance_test

import (
	"fmt"
	"io"
	"log/slog"
	"slices"

	"github.com/gomastra/mastra/mcpserver/interop/conformance"
)

func ExampleNew() {
	srv, err := conformance.New(conformance.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	fmt.Println(srv.ID(), slices.Contains(srv.ToolNames(), "test_simple_text"))
	// Output: conformance true
}
