package aisdk

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/stream"
)

// convertFixture is a recording of testdata/capture/capture.mjs: the chunks
// of one real Mastra agent run and the UI stream parts @mastra/ai-sdk's
// toAISdkStream made of them.
type convertFixture struct {
	Note    string            `json:"note"`
	AgentID string            `json:"agentId"`
	Options fixtureOptions    `json:"options"`
	Chunks  []json.RawMessage `json:"chunks"`
	Parts   []string          `json:"parts"`
}

// fixtureOptions are toAISdkStream's options as the capture passed them.
type fixtureOptions struct {
	Version                 string `json:"version"`
	SendReasoning           bool   `json:"sendReasoning"`
	SendSources             bool   `json:"sendSources"`
	IncludeSubAgentMetadata bool   `json:"includeSubAgentMetadata"`
	SendStart               *bool  `json:"sendStart"`
	SendFinish              *bool  `json:"sendFinish"`
	LastMessageID           string `json:"lastMessageId"`
}

func (o fixtureOptions) streamOptions() StreamOptions {
	return StreamOptions{
		Version:                 Version(o.Version),
		SendReasoning:           o.SendReasoning,
		SendSources:             o.SendSources,
		IncludeSubAgentMetadata: o.IncludeSubAgentMetadata,
		OmitStart:               o.SendStart != nil && !*o.SendStart,
		OmitFinish:              o.SendFinish != nil && !*o.SendFinish,
		LastMessageID:           o.LastMessageID,
	}
}

// mastraArtifacts undo, in the recorded parts, what comes from Mastra's
// shared mutable objects rather than from the conversion: in
// sub-agent-metadata, the usage object of the sub-agent's last
// step-finish chunk is the very object Mastra later accumulates the run's
// total into, so by the time the converter serialises that step it reads
// the total (20/10/30) instead of the step's own usage (10/5/15) that the
// chunk carried when it was recorded. gomastra's payloads are values, so
// the step keeps its own usage; the run-level usage of the final snapshot
// (no "warnings" after it) keeps the total in both.
var mastraArtifacts = map[string]*strings.Replacer{
	"sub-agent-metadata": strings.NewReplacer(
		`"usage":{"inputTokens":20,"outputTokens":10,"totalTokens":30,"raw":{"inputTokens":{"total":10,"noCache":10},"outputTokens":{"total":5,"text":5}}},"warnings":[]`,
		`"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15,"raw":{"inputTokens":{"total":10,"noCache":10},"outputTokens":{"total":5,"text":5}}},"warnings":[]`,
	),
}

// nowTimestamp matches the times Mastra's converter takes from the clock
// (a sub-agent run's response timestamp); the model's own times are the
// Unix epoch in the recordings and are compared as they are.
var nowTimestamp = regexp.MustCompile(`"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\d\dZ"`)

func loadConvertFixture(t *testing.T, path string) convertFixture {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f convertFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// TestConvertMatchesMastra feeds the chunks of real Mastra runs to the
// converter and compares its parts, byte for byte, to what @mastra/ai-sdk
// made of the same chunks.
func TestConvertMatchesMastra(t *testing.T) {
	paths, err := filepath.Glob("testdata/convert/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			f := loadConvertFixture(t, path)
			c := NewConverter(f.Options.streamOptions())
			var got []string
			add := func(parts []Part) {
				for _, p := range parts {
					b, err := p.AppendJSON(nil)
					if err != nil {
						t.Fatalf("marshal %s: %v", p.Type, err)
					}
					got = append(got, nowTimestamp.ReplaceAllString(string(b), `"<now>"`))
				}
			}
			for i, raw := range f.Chunks {
				ch, err := decodeChunk(raw)
				if err != nil {
					t.Fatalf("chunk %d: %v", i, err)
				}
				add(c.Convert(ch))
			}
			add(c.Flush())
			want := make([]string, len(f.Parts))
			for i, p := range f.Parts {
				want[i] = nowTimestamp.ReplaceAllString(p, `"<now>"`)
				if fix := mastraArtifacts[name]; fix != nil {
					want[i] = fix.Replace(want[i])
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("parts differ from @mastra/ai-sdk's (-mastra +ours):\n%s", diff)
			}
		})
	}
}

// The fixtures must hold what the tests rely on, so that a re-capture
// that silently records less fails here.
func TestConvertFixturesCoverThePartTypes(t *testing.T) {
	seen := map[string]bool{}
	paths, _ := filepath.Glob("testdata/convert/*.json")
	for _, path := range paths {
		for _, p := range loadConvertFixture(t, path).Parts {
			var head struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal([]byte(p), &head); err != nil {
				t.Fatal(err)
			}
			seen[head.Type] = true
		}
	}
	for _, typ := range []string{
		PartStart, PartStartStep, PartTextStart, PartTextDelta, PartTextEnd, PartReasoningStart, PartReasoningDelta,
		PartReasoningEnd, PartFile, PartSourceURL, PartSourceDocument, PartToolInputStart, PartToolInputDelta,
		PartToolInputAvailable, PartToolOutputAvailable, PartToolOutputError, PartToolOutputDenied,
		PartToolApprovalRequest, PartToolCallApproval, PartToolCallSuspended, PartToolAgent, PartToolAgentStep,
		PartToolWorkflow, PartToolWorkflowStep, PartStructuredOutput, PartError, PartFinishStep, PartFinish,
		"data-progress",
	} {
		if !seen[typ] {
			t.Errorf("no fixture shows a %s part", typ)
		}
	}
	_ = stream.TypeStart
}
