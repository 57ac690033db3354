package workflows

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/storagetest"
	"github.com/gomastra/mastra/stream"
)

// TestChunkLogKeepsTheEventLogContract: the workflow's own in-memory
// log passes the storage.RunEvents conformance suite.
func TestChunkLogKeepsTheEventLogContract(t *testing.T) {
	storagetest.RunEventLog(t, func(*testing.T) storage.RunEvents { return newChunkLog() })
}

// TestChunkLogReadsTheBytesOfTheAppend: each chunk appended reads back
// as the bytes encodeChunk gave at the append, also when a payload the
// run does not own changes afterwards; a chunk that does not encode is
// left out.
func TestChunkLogReadsTheBytesOfTheAppend(t *testing.T) {
	user := map[string]any{"k": "<v>"}
	chunks := []stream.Chunk{
		{Type: stream.TypeWorkflowStart, Payload: map[string]any{"workflowId": "w"}},
		{Type: stream.TypeWorkflowStepStart, Payload: stepPayload{StepName: "s", ID: "s", Payload: json.RawMessage(`{"a": "<b>"}`), StartedAt: 1, Status: "running"}},
		{Type: stream.TypeWorkflowStepOutput, From: stream.FromUser, Payload: outputPayload{StepName: "s", Output: user, RunID: "r"}},
		{Type: stream.TypeWorkflowStepStart, Payload: stepPayload{StepName: "bad", ID: "bad", Payload: json.RawMessage(`{bad`), Status: "running"}},
		{Type: stream.TypeWorkflowStepResult, Payload: stepPayload{StepName: "s", ID: "s", Status: StatusFailed, Error: &ErrorInfo{Message: "m", Name: "Error"}, EndedAt: 2}},
		{Type: stream.TypeWorkflowStepSuspended, Payload: stepPayload{StepName: "s", ID: "s", Status: StatusSuspended, SuspendPayload: json.RawMessage(`[1,2]`)}},
		{Type: stream.TypeWorkflowStepProgress, Payload: progressPayload{StepName: "f", ID: "f", CompletedCount: 1, TotalCount: 2, IterationStatus: StatusSuccess, IterationOutput: json.RawMessage(`3`)}},
		{Type: stream.TypeWorkflowFinish, Payload: finishPayload{WorkflowStatus: StatusSuccess, Metadata: map[string]any{}, FinalWorkflowResult: json.RawMessage(`{"n":1}`)}},
	}
	log := newChunkLog()
	var checked validRaws
	var want []string
	for _, c := range chunks {
		c.RunID = "r"
		if c.From == "" {
			c.From = stream.FromWorkflow
		}
		if b, err := encodeChunk(c); err == nil {
			want = append(want, string(b))
		}
		log.appendChunk("r", c, &checked)
	}
	user["k"] = "changed"
	got, err := log.ReadEvents(context.Background(), "r", 0, 0)
	if err != nil || len(got) != len(want) {
		t.Fatalf("read %d events (%v), want %d", len(got), err, len(want))
	}
	for i, e := range got {
		if string(e.Data) != want[i] || e.Index != int64(i) || e.CreatedAt.IsZero() {
			t.Errorf("event %d: %d %s at %v, want %s", i, e.Index, e.Data, e.CreatedAt, want[i])
		}
	}
}

// TestOwnLogHoldsTheBytesOfAStoreLog: a run's chunks, through a
// suspension and its resume, read back from the workflow's own log are
// byte for byte (times and step call ids aside) those a storage.RunEvents holds for the
// same run.
func TestOwnLogHoldsTheBytesOfAStoreLog(t *testing.T) {
	store := eventStore{storage.NewMemoryRuns(), storage.NewMemoryEvents()}
	own, stored := approveWf(t, nil), approveWf(t, store)
	ctx := context.Background()
	for _, w := range []*Workflow{own, stored} {
		run := w.CreateRun(WithRunID("run-bytes"))
		if res, err := run.Start(ctx, num{N: 4}, nil); err != nil || res.Status != StatusSuspended {
			t.Fatalf("start: %v %+v", err, res)
		}
		if res, err := run.Resume(ctx, ResumeOptions{Step: []string{"approve"}, Data: approvedIn{Approved: true}}); err != nil || res.Status != StatusSuccess {
			t.Fatalf("resume: %v %+v", err, res)
		}
	}
	got, err := own.localEvents.ReadEvents(ctx, "run-bytes", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := store.ReadEvents(ctx, "run-bytes", 0, 0)
	if err != nil || len(got) != len(want) || len(want) < 10 {
		t.Fatalf("own log: %d events, store: %d (%v)", len(got), len(want), err)
	}
	for i := range want {
		if got[i].Type != want[i].Type || masked(got[i].Data) != masked(want[i].Data) {
			t.Errorf("event %d: %s %s, want %s %s", i, got[i].Type, got[i].Data, want[i].Type, want[i].Data)
		}
	}
}

// callIDRE matches a chunk's step call id.
var callIDRE = regexp.MustCompile(`"stepCallId":"[^"]*"`)

// masked is b with its times and step call ids zeroed.
func masked(b []byte) string { return callIDRE.ReplaceAllString(zeroTimes(b), `"stepCallId":""`) }

// TestChunkLogReadsAcrossBlocks: reads from any offset, with any limit,
// return the events in order across the log's blocks.
func TestChunkLogReadsAcrossBlocks(t *testing.T) {
	ctx := context.Background()
	log := newChunkLog()
	const n = 2500
	for i := range n {
		if _, err := log.AppendEvents(ctx, "r", storage.Event{Type: "t", Data: json.RawMessage(itoa(i))}); err != nil {
			t.Fatal(err)
		}
	}
	for _, from := range []int64{0, 1, 31, 32, 33, 95, 96, 500, 1000, n - 1} {
		for _, limit := range []int{0, 1, 40, 256, 5000} {
			got, err := log.ReadEvents(ctx, "r", from, limit)
			want := int(n - from)
			if limit > 0 {
				want = min(want, limit)
			}
			if err != nil || len(got) != want {
				t.Fatalf("from %d limit %d: %d events (%v), want %d", from, limit, len(got), err, want)
			}
			for i, e := range got {
				if e.Index != from+int64(i) || string(e.Data) != itoa(int(from)+i) {
					t.Fatalf("from %d limit %d: event %d is %d %s", from, limit, i, e.Index, e.Data)
				}
			}
		}
	}
}
