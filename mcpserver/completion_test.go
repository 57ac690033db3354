package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Completion requests reach Config.Complete with the prompt or template,
// the argument, what was typed and the resolved arguments; answers carry
// at most 100 values with the total and hasMore.
func TestCompletion(t *testing.T) {
	ctx := context.Background()
	var seen []CompletionRequest
	s, err := New(Config{Name: "x", Version: "1", Logger: discardLogger(),
		Complete: func(_ context.Context, req CompletionRequest) ([]string, error) {
			seen = append(seen, req)
			switch {
			case req.Argument == "city":
				var out []string
				for _, c := range []string{"Paris", "Perth", "Oslo"} {
					if strings.HasPrefix(c, req.Value) {
						out = append(out, c)
					}
				}
				return out, nil
			case req.Argument == "n":
				out := make([]string, 150)
				for i := range out {
					out[i] = fmt.Sprint(i)
				}
				return out, nil
			}
			return nil, errors.New("cannot complete " + req.Argument)
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs := connect(t, s, clientOptions{})
	if cs.InitializeResult().Capabilities.Completions == nil {
		t.Fatal("no completions capability")
	}
	complete := func(ref *mcp.CompleteReference, arg, value string) (*mcp.CompleteResult, error) {
		return cs.Complete(ctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value},
			Context: &mcp.CompleteContext{Arguments: map[string]string{"country": "FR"}}})
	}
	res, err := complete(&mcp.CompleteReference{Type: "ref/prompt", Name: "trip"}, "city", "P")
	if err != nil || strings.Join(res.Completion.Values, ",") != "Paris,Perth" || res.Completion.Total != 2 || res.Completion.HasMore {
		t.Fatalf("city: %+v, %v", res, err)
	}
	if got := seen[0]; got.Prompt != "trip" || got.URITemplate != "" || got.Value != "P" || got.Resolved["country"] != "FR" {
		t.Errorf("request %+v", got)
	}
	res, err = complete(&mcp.CompleteReference{Type: "ref/resource", URI: "doc://{n}"}, "n", "")
	if err != nil || len(res.Completion.Values) != 100 || res.Completion.Total != 150 || !res.Completion.HasMore {
		t.Fatalf("n: %d values, total %d, hasMore %v, %v", len(res.Completion.Values), res.Completion.Total, res.Completion.HasMore, err)
	}
	if got := seen[1]; got.URITemplate != "doc://{n}" || got.Prompt != "" {
		t.Errorf("request %+v", got)
	}
	res, err = complete(&mcp.CompleteReference{Type: "ref/prompt", Name: "trip"}, "city", "Z")
	if err != nil || res.Completion.Values == nil || len(res.Completion.Values) != 0 {
		t.Errorf("no match: %+v, %v", res, err)
	}
	if _, err := complete(&mcp.CompleteReference{Type: "ref/prompt", Name: "trip"}, "other", ""); err == nil || !strings.Contains(err.Error(), "cannot complete other") {
		t.Errorf("failing Complete: %v", err)
	}
}
