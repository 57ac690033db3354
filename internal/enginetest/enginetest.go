// Package enginetest is the behaviour suite every engine that runs agent
// runs passes: the in-process engine (agent.LocalEngine) and a durable
// execution engine (package temporal) run the same runs of the same
// agents and must stream the same chunks. An engine's tests call Run
// with a function that returns its Runner for a registry:
//
//	func TestEngine(t *testing.T) {
//		enginetest.Run(t, func(t *testing.T, m *mastra.Mastra) enginetest.Runner {
//			return enginetest.Local(m)
//		})
//	}
//
// The agents of the suite use scripted models and count each tool
// execution, so that every case also checks that no call ran twice.
package enginetest

import (
	"context"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/stream"
)

// Runner runs agent runs on one engine.
type Runner interface {
	// Run starts a run of the registry's agent and returns its chunks up
	// to its end, or up to the point where its calls wait for a person
	// (the waiting calls' chunks included).
	Run(ctx context.Context, agentKey string, in Input) (Outcome, error)
	// Answer answers a waiting call of the run and returns the chunks
	// that follow, up to the run's end or its next wait.
	Answer(ctx context.Context, agentKey, runID string, a agent.Answer) (Outcome, error)
}

// Input is a run's input.
type Input struct {
	Prompt               string
	ThreadID, ResourceID string
	// Output, when set, asks for a structured answer.
	Output *agent.StructuredOutput
}

// Outcome is what a Runner returns of a run: its id and chunks.
type Outcome struct {
	RunID  string
	Chunks []stream.Chunk
}

// Case is one behaviour of the suite.
type Case struct {
	Name string
	Test func(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner)
}

// Cases are the suite's behaviours, in order.
var Cases = []Case{
	{"ToolLoop", toolLoop},
	{"ParallelCalls", parallelCalls},
	{"Approval", approval},
	{"Decline", decline},
	{"SuspendAndResume", suspendAndResume},
	{"ToolErrorAndUnknownTool", toolErrors},
	{"ModelError", modelError},
	{"SubAgent", subAgent},
	{"Memory", memory},
	{"WorkflowTool", workflowTool},
	{"StructuredOutput", structuredOutput},
	{"ToolRetries", toolRetries},
	{"HooksAndModelOutput", hooksAndModelOutput},
	{"BackgroundTask", backgroundTask},
	{"WorkingMemory", workingMemory},
	{"SemanticRecall", semanticRecall},
}

// Run runs every case with the runners newRunner returns.
func Run(t *testing.T, newRunner func(*testing.T, *mastra.Mastra) Runner) {
	for _, c := range Cases {
		t.Run(c.Name, func(t *testing.T) { c.Test(t, newRunner) })
	}
}
