package serve

import (
	"context"
	"log/slog"
	"strings"
	"testing"
)

// An engine URL runs only with the extension that runs that engine.
func TestEngineNeedsItsExtension(t *testing.T) {
	for _, tc := range []struct{ engine, want string }{
		{"temporal://127.0.0.1:7233/default", "links no temporal engine"},
		{"127.0.0.1:7233", "want a URL"},
	} {
		err := Run(context.Background(), Config{Engine: tc.engine, StorageURL: ":memory:"}, func(string) string { return "" }, slog.New(slog.DiscardHandler), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("engine %q: %v, want an error saying %q", tc.engine, err, tc.want)
		}
	}
	if err := checkEngine(Config{Engine: "temporal://h:1/ns", Extensions: []Extension{{Engine: "temporal"}}}); err != nil {
		t.Errorf("an extension runs temporal://: %v", err)
	}
}
