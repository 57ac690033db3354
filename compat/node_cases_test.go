package compat

import (
	"path/filepath"
	"testing"
)

func TestFindToolchain(t *testing.T) {
	if _, err := findToolchain(t.TempDir()); err == nil {
		t.Error("an empty directory passed for an installed toolchain")
	}
	tc, err := findToolchain(".")
	if err != nil {
		t.Skipf("not installed here: %v", err)
	}
	if !filepath.IsAbs(tc.dir) || filepath.Base(tc.mastra) != "mastra" {
		t.Errorf("toolchain %+v", tc)
	}
}
