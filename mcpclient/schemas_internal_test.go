package mcpclient

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// TestOutputValidationErrorListsTheFirstIssues: structured content with
// more issues than schema.MaxIssues gets the first ones and a line saying
// the rest were left out.
func TestOutputValidationErrorListsTheFirstIssues(t *testing.T) {
	issues := make([]schema.Issue, 150)
	for i := range issues {
		issues[i] = schema.Issue{Code: "invalid_type", Path: []string{"list", fmt.Sprint(i)}, Message: "Invalid input: expected number, received string"}
	}
	ve := outputValidationError("t", issues, map[string]any{"list": "…"})
	lines := strings.Split(strings.SplitN(ve.Message, "\n\n", 2)[0], "\n")
	if len(lines) != 1+schema.MaxIssues+1 || lines[len(lines)-1] != tools.LeftOutLine || !ve.Truncated || len(ve.Issues) != schema.MaxIssues {
		t.Errorf("%d lines, last %q, truncated %v, %d issues", len(lines), lines[len(lines)-1], ve.Truncated, len(ve.Issues))
	}
}
