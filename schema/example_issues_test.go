package schema_test

import (
	"fmt"
	"strings"

	"github.com/gomastra/mastra/schema"
)

// A value with more than MaxIssues problems: validation stops after
// MaxIssues+1 of them, and CapIssues says that more were left out.
func ExampleCapIssues() {
	s := schema.MustFromJSON([]byte(`{"type":"array","items":{"type":"number"}}`))
	list := make([]any, 5000)
	for i := range list {
		list[i] = "x"
	}
	_, issues := s.Validate(list)
	shown, more := schema.CapIssues(issues)
	var lines []string
	for _, is := range shown[:2] {
		lines = append(lines, "- "+is.PathString()+": "+is.Message)
	}
	fmt.Println(strings.Join(lines, "\n"))
	fmt.Println(len(issues), len(shown), more)
	// Output:
	// - 0: Invalid input: expected number, received string
	// - 1: Invalid input: expected number, received string
	// 101 100 true
}
