package processors_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/processors"
)

// mastraFixture is testdata/mastra.json: prompts in the AI SDK's message
// shape and what Mastra 1.71's TokenLimiterProcessor and ToolCallFilter
// (their processLLMRequest, which runs before each model call) made of
// them. See testdata/README.md.
type mastraFixture struct {
	Counts []struct {
		Message model.Message `json:"message"`
		Tokens  float64       `json:"tokens"`
	} `json:"counts"`
	Limits []struct {
		Name     string          `json:"name"`
		Prompt   []model.Message `json:"prompt"`
		Limit    int             `json:"limit"`
		TrimMode string          `json:"trimMode"`
		Kept     []int           `json:"kept"`
		Error    string          `json:"error"`
		Metadata map[string]any  `json:"metadata"`
	} `json:"limits"`
	Filters []struct {
		Name                 string            `json:"name"`
		Exclude              []string          `json:"exclude"`
		FilterAfterToolSteps *int              `json:"filterAfterToolSteps"`
		Steps                [][]model.Message `json:"steps"`
		Want                 []json.RawMessage `json:"want"`
	} `json:"filters"`
}

func loadMastra(t testing.TB) mastraFixture {
	t.Helper()
	b, err := os.ReadFile("testdata/mastra.json")
	if err != nil {
		t.Fatal(err)
	}
	var f mastraFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestMessageTokensMatchMastra: each message costs exactly what Mastra
// counts for it (fractions included: 3.8 a message, -12 a JSON value).
func TestMessageTokensMatchMastra(t *testing.T) {
	tl := processors.NewTokenLimiter(1000)
	for _, c := range loadMastra(t).Counts {
		if got := tl.MessageTokens(c.Message); got != c.Tokens {
			b, _ := json.Marshal(c.Message)
			t.Errorf("MessageTokens(%s) = %v, Mastra counts %v", b, got, c.Tokens)
		}
	}
}

// TestTokenLimiterMatchesMastra: the messages kept, or the tripwire, for
// each limit and trim mode are Mastra's.
func TestTokenLimiterMatchesMastra(t *testing.T) {
	for _, c := range loadMastra(t).Limits {
		t.Run(c.Name, func(t *testing.T) {
			tl := &processors.TokenLimiter{Limit: c.Limit, TrimMode: processors.TrimMode(c.TrimMode)}
			s := &agent.StepInput{Messages: c.Prompt}
			err := tl.ProcessStep(context.Background(), s)
			if c.Error != "" {
				var tw *processors.TripWire
				if !errors.As(err, &tw) {
					t.Fatalf("err = %v, want the tripwire %q", err, c.Error)
				}
				if tw.Reason != c.Error || tw.ProcessorID != "token-limiter" || tw.Retry {
					t.Errorf("tripwire %+v, want reason %q", tw, c.Error)
				}
				if diff := cmp.Diff(c.Metadata, roundTrip(t, tw.Metadata)); c.Metadata != nil && diff != "" {
					t.Errorf("metadata (-Mastra +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []model.Message
			for _, i := range c.Kept {
				want = append(want, c.Prompt[i])
			}
			if diff := cmp.Diff(asJSON(t, want), asJSON(t, s.Messages)); diff != "" {
				t.Errorf("kept (-Mastra +got):\n%s", diff)
			}
		})
	}
}

// TestToolCallFilterMatchesMastra: each step of a run (history, then the
// run's own tool steps) is filtered as Mastra filters it.
func TestToolCallFilterMatchesMastra(t *testing.T) {
	for _, c := range loadMastra(t).Filters {
		t.Run(c.Name, func(t *testing.T) {
			f := &processors.ToolCallFilter{Exclude: c.Exclude, FilterAfterToolSteps: c.FilterAfterToolSteps}
			if c.Exclude == nil && c.Name == "exclude nothing" {
				t.Fatal("fixture lost exclude: []")
			}
			for step, prompt := range c.Steps {
				s := &agent.StepInput{StepNumber: step, Messages: prompt}
				if err := f.ProcessStep(context.Background(), s); err != nil {
					t.Fatal(err)
				}
				var want any
				if err := json.Unmarshal(c.Want[step], &want); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, asJSON(t, s.Messages)); diff != "" {
					t.Errorf("step %d (-Mastra +got):\n%s", step, diff)
				}
			}
		})
	}
}

// asJSON is v's JSON, decoded.
func asJSON(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func roundTrip(t testing.TB, m map[string]any) map[string]any {
	out, _ := asJSON(t, m).(map[string]any)
	return out
}
