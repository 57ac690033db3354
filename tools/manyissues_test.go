package tools

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra/schema"
	"github.com/google/jsonschema-go/jsonschema"
)

// wrongList is {"list":[...]} with n strings where numbers are wanted.
func wrongList(n int) []byte {
	return []byte(`{"list":[` + strings.TrimSuffix(strings.Repeat(`"x",`, n), ",") + `]}`)
}

// issueLinesOf returns the "- path: message" lines of a validation
// message and whether the list ends with the left-out line.
func issueLinesOf(t *testing.T, msg string) (lines []string, leftOut bool) {
	t.Helper()
	head, _, ok := strings.Cut(msg, "\n\nProvided arguments: ")
	if !ok {
		t.Fatalf("no footer: %.300s", msg)
	}
	lines = strings.Split(head, "\n")[1:]
	if n := len(lines); n > 0 && lines[n-1] == "- … more issues left out" {
		return lines[:n-1], true
	}
	return lines, false
}

// TestValidationErrorListsTheFirstIssues: an input with more than
// schema.MaxIssues issues gets a validation error with the first
// MaxIssues of them and a line saying more were left out; one with
// MaxIssues gets them all and no such line.
func TestValidationErrorListsTheFirstIssues(t *testing.T) {
	for _, c := range []struct {
		wrong   int
		leftOut bool
	}{{50, false}, {schema.MaxIssues, false}, {schema.MaxIssues + 1, true}, {200_000, true}} {
		t.Run(strconv.Itoa(c.wrong), func(t *testing.T) {
			res, err := benchListTool.Execute(context.Background(), wrongList(c.wrong), nil)
			if err != nil {
				t.Fatal(err)
			}
			ve := res.ValidationError()
			if ve == nil {
				t.Fatalf("no validation error: %v", res.Output)
			}
			shown := min(c.wrong, schema.MaxIssues)
			lines, leftOut := issueLinesOf(t, ve.Message)
			if len(lines) != shown || leftOut != c.leftOut || ve.Truncated != c.leftOut {
				t.Errorf("%d lines, left-out line %v, Truncated %v: %.300s", len(lines), leftOut, ve.Truncated, ve.Message)
			}
			if want := "- list." + strconv.Itoa(shown-1) + ": Invalid input: expected number, received string"; lines[len(lines)-1] != want {
				t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
			}
			if len(ve.Issues) != shown || len(ve.Errors.Field("list").Fields) != shown {
				t.Errorf("%d issues, %d fields", len(ve.Issues), len(ve.Errors.Field("list").Fields))
			}
			if b, _ := json.Marshal(ve); len(b) > 32<<10 {
				t.Errorf("%d bytes of JSON", len(b))
			}
		})
	}
}

// manyIssues is a Schema of its own that finds n issues in any value.
type manyIssues int

func (manyIssues) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "object"} }

func (n manyIssues) Validate(any) (any, []schema.Issue) {
	issues := make([]schema.Issue, n)
	for i := range issues {
		issues[i] = schema.Issue{Code: "custom", Path: []string{"k" + strconv.Itoa(i)}, Message: "Bad"}
	}
	return nil, issues
}

// TestValidationErrorOfAnySchemaIsCapped: a schema of one's own reporting
// more than MaxIssues issues gets the same error as a compiled one.
func TestValidationErrorOfAnySchemaIsCapped(t *testing.T) {
	tool := New(Config[map[string]any, int]{ID: "own", Description: "Own schema.", InputSchema: manyIssues(5000),
		Execute: func(Context, map[string]any) (int, error) { return 0, nil }})
	res, err := tool.Execute(context.Background(), []byte(`{}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	ve := res.ValidationError()
	if ve == nil {
		t.Fatalf("no validation error: %v", res.Output)
	}
	lines, leftOut := issueLinesOf(t, ve.Message)
	if len(lines) != schema.MaxIssues || !leftOut || !ve.Truncated || len(ve.Issues) != schema.MaxIssues || len(ve.Errors.Fields) != schema.MaxIssues {
		t.Errorf("%d lines, left-out line %v, %d issues, %d fields", len(lines), leftOut, len(ve.Issues), len(ve.Errors.Fields))
	}
}
