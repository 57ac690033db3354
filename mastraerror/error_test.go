package mastraerror_test

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra/mastraerror"
)

func TestIs(t *testing.T) {
	notFound := mastraerror.Sentinel("not found", "A_NOT_FOUND", "B_NOT_FOUND")
	cause := errors.New("boom")
	tests := []struct {
		name   string
		err    error
		target error
		want   bool
	}{
		{"sentinel, first id", &mastraerror.Error{ID: "A_NOT_FOUND"}, notFound, true},
		{"sentinel, second id, wrapped", fmt.Errorf("x: %w", &mastraerror.Error{ID: "B_NOT_FOUND"}), notFound, true},
		{"sentinel, other id", &mastraerror.Error{ID: "C"}, notFound, false},
		{"sentinel, no id", &mastraerror.Error{}, mastraerror.Sentinel("empty", ""), false},
		{"sentinel is itself", notFound, notFound, true},
		{"same id", &mastraerror.Error{ID: "X", Message: "a"}, &mastraerror.Error{ID: "X"}, true},
		{"different id", &mastraerror.Error{ID: "X"}, &mastraerror.Error{ID: "Y"}, false},
		{"empty target id", &mastraerror.Error{}, &mastraerror.Error{}, false},
		{"cause", &mastraerror.Error{ID: "X", Cause: cause}, cause, true},
	}
	for _, tt := range tests {
		if got := errors.Is(tt.err, tt.target); got != tt.want {
			t.Errorf("%s: errors.Is = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestErrorTextAndName(t *testing.T) {
	cause := errors.New("provider down")
	e := &mastraerror.Error{Message: "model failed", Cause: cause}
	if e.Error() != "model failed" || !errors.Is(e, cause) || e.Name() != "Error" {
		t.Errorf("plain: %q %v %s", e.Error(), errors.Is(e, cause), e.Name())
	}
	if n := (&mastraerror.Error{Domain: mastraerror.DomainAgent}).Name(); n != "MastraError" {
		t.Errorf("with a domain: %s", n)
	}
}

func TestIDOfAndMessage(t *testing.T) {
	inner := &mastraerror.Error{ID: mastraerror.IDAgentResumeConflict, Message: "conflict"}
	wrapped := fmt.Errorf("resume: %w", inner)
	if got := mastraerror.IDOf(wrapped); got != mastraerror.IDAgentResumeConflict {
		t.Errorf("IDOf = %q", got)
	}
	if got := mastraerror.IDOf(errors.New("plain")); got != "" {
		t.Errorf("IDOf(plain) = %q", got)
	}
	if got := mastraerror.Message(wrapped); got != "conflict" {
		t.Errorf("Message = %q, want the *Error's", got)
	}
	if got := mastraerror.Message(fmt.Errorf("a: %w", errors.New("b"))); got != "a: b" {
		t.Errorf("Message(plain) = %q", got)
	}
}

// TestLeaf: the package imports nothing of gomastra's, so that every
// package of the project can import it.
func TestLeaf(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(path, "github.com/") || strings.Contains(path, ".") {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
