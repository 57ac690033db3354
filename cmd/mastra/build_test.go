package main

import (
	"strings"
	"sync/atomic"
	"testing"
)

// `go build -v` output: package lines are counted, diagnostics kept.
func TestReadBuildOutput(t *testing.T) {
	out := "internal/goarch\nnet/http\nexample.com/app/tools\n# example.com/app\n./main.go:3:2: undefined: x\n"
	var n atomic.Int64
	problems := readBuildOutput(strings.NewReader(out), &n)
	if n.Load() != 3 || problems != "# example.com/app\n./main.go:3:2: undefined: x\n" {
		t.Errorf("counted %d, problems %q", n.Load(), problems)
	}
}
