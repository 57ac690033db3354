package enginetest

import (
	"context"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
)

func init() {
	Cases = append(Cases, Case{"SlowRecordedRead", slowRecordedRead})
}

// slowRead is how long slowProcessor's recorded read takes: longer than
// the second a Temporal workflow coroutine may run without yielding.
const slowRead = 1500 * time.Millisecond

// slowProcessor records a read as slow as a model or embedder call.
type slowProcessor struct{}

func (slowProcessor) ID() string { return "slow" }

func (slowProcessor) ProcessStep(ctx context.Context, s *agent.StepInput) error {
	got, err := s.Record(ctx, func(ctx context.Context) ([]byte, error) {
		select {
		case <-time.After(slowRead):
			return []byte("the slow read's answer"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	if err != nil {
		return err
	}
	s.Messages = append(s.Messages, model.UserText(string(got)))
	return nil
}

// slowRecordedRead: a recorded read that takes seconds (an observer's
// model call) holds up the run, not the engine: the run ends with the
// read's answer in its prompt.
func slowRecordedRead(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		if prompted(req, "the slow read's answer") {
			return mock.Step{Text: "Read."}
		}
		return mock.Step{Text: "Not read."}
	})
	reg := registry(t, agent.Config{ID: "slow", Model: m, Processors: []agent.StepProcessor{slowProcessor{}}})
	wantText(t, run(t, newRunner(t, reg), "slow", Input{Prompt: "Go."}), "Read.")
}
