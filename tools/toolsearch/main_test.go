package toolsearch_test

import (
	"testing"

	"go.uber.org/goleak"
)

// The processor starts no goroutine (the in-memory store expires state as
// it is used), and the agent runs in the tests end theirs.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
