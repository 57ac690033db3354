package workflows

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

type numberList struct {
	List []float64 `json:"list"`
}

// wrongList is a numberList input with n strings where numbers are wanted.
func wrongList(n int) map[string]any {
	list := make([]any, n)
	for i := range list {
		list[i] = "x"
	}
	return map[string]any{"list": list}
}

// checkIssueLines checks msg, a header line and issue lines, for the
// first min(wrong, MaxIssues) issues of wrongList(wrong) and the
// left-out line when there were more.
func checkIssueLines(t *testing.T, msg, header string, wrong int) {
	t.Helper()
	lines := strings.Split(msg, "\n")
	if lines[0] != header {
		t.Fatalf("header %q: %.300s", lines[0], msg)
	}
	lines = lines[1:]
	if wrong > schema.MaxIssues {
		if lines[len(lines)-1] != tools.LeftOutLine {
			t.Errorf("no left-out line: %q", lines[len(lines)-1])
		}
		lines = lines[:len(lines)-1]
	}
	shown := min(wrong, schema.MaxIssues)
	if len(lines) != shown {
		t.Fatalf("%d issue lines, want %d: %.300s", len(lines), shown, msg)
	}
	for i, l := range lines {
		if want := "- list." + strconv.Itoa(i) + ": Invalid input: expected number, received string"; l != want {
			t.Fatalf("line %q, want %q", l, want)
		}
	}
}

// TestManyInputIssuesAreCapped: a workflow's input, and a step's, with
// more than schema.MaxIssues issues is refused with the first MaxIssues
// of them and a line saying more were left out.
func TestManyInputIssuesAreCapped(t *testing.T) {
	same := func(_ StepContext, in numberList) (numberList, error) { return in, nil }
	strict := mustCommit(t, New(Config{ID: "strict-list", InputSchema: schema.MustFor[numberList]()}).
		Then(NewStep(StepConfig[numberList, numberList]{ID: "same", Execute: same})))
	mapped := mustCommit(t, New(Config{ID: "mapped-list"}).
		Map(func(context.Context, MapInput) (any, error) { return wrongList(3000), nil }).
		Then(NewStep(StepConfig[numberList, numberList]{ID: "same", Execute: same})))
	for _, wrong := range []int{3, schema.MaxIssues, schema.MaxIssues + 1, 200_000} {
		_, err := strict.CreateRun().Start(context.Background(), wrongList(wrong), nil)
		var we *Error
		if !errors.As(err, &we) || we.ID != "WORKFLOW_SCHEMA_VALIDATION_FAILED" {
			t.Fatalf("%d wrong: %v", wrong, err)
		}
		checkIssueLines(t, we.Message, "Invalid input data: ", wrong)
	}
	res, err := mapped.CreateRun().Start(context.Background(), nil, nil)
	if err != nil || res.Status != StatusFailed || res.Error == nil {
		t.Fatalf("mapped: %v %+v", err, res)
	}
	checkIssueLines(t, res.Error.Message, "Step input validation failed: ", 3000)
}
