package mcpserver

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if os.Getenv(stdioChildEnv) != "" {
		os.Exit(serveStdioChild())
	}
	goleak.VerifyTestMain(m)
}
