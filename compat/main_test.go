package compat

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain gives the package's Node processes one compile cache and
// checks that no goroutine outlives the tests.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "compat-node-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "compat: no compile cache:", err)
	} else {
		compileCache = dir
	}
	code := m.Run()
	if dir != "" {
		_ = os.RemoveAll(dir)
	}
	// The servers the tests started must be gone with them.
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "compat: goroutines left behind:", err)
			code = 1
		}
	}
	os.Exit(code)
}
