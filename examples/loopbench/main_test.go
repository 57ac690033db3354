package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"-k", "3", "-n", "2"}, &out); code != 0 || !strings.Contains(out.String(), "2 runs of 3 tool steps") {
		t.Fatalf("exit %d: %s", code, out.String())
	}
}
