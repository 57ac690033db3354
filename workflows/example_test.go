package workflows_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/workflows"
)

type Topic struct {
	Topic string `json:"topic"`
}

type Notes struct {
	Notes []string `json:"notes"`
}

type Summary struct {
	Summary string `json:"summary"`
}

// A research workflow: two searches at once, then a summary of both.
func Example() {
	search := func(id, source string) *workflows.Step {
		return workflows.NewStep(workflows.StepConfig[Topic, Notes]{ID: id,
			Execute: func(ctx workflows.StepContext, in Topic) (Notes, error) {
				return Notes{Notes: []string{source + " on " + in.Topic}}, nil
			}})
	}
	type found struct {
		Web  Notes `json:"web"`
		Docs Notes `json:"docs"`
	}
	summarise := workflows.NewStep(workflows.StepConfig[found, Summary]{ID: "summarise",
		Execute: func(ctx workflows.StepContext, in found) (Summary, error) {
			return Summary{Summary: strings.Join(append(in.Web.Notes, in.Docs.Notes...), "; ")}, nil
		}})
	research := workflows.New(workflows.Config{ID: "research", Description: "Researches a topic"}).
		Parallel(search("web", "the web"), search("docs", "the docs")).
		Then(summarise)
	if err := research.Commit(); err != nil {
		panic(err)
	}
	res, err := research.CreateRun().Start(context.Background(), Topic{Topic: "Go"}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, string(res.Result))
	// Output:
	// success {"summary":"the web on Go; the docs on Go"}
}

type Approval struct {
	Approved bool `json:"approved"`
}

// A step that waits for a person: the run suspends, and resuming the step
// with the person's answer finishes it.
func ExampleRun_Resume() {
	publish := workflows.NewStep(workflows.StepConfig[Topic, Summary]{ID: "publish",
		ResumeSchema: workflows.MustSchemaFor[Approval](),
		Execute: func(ctx workflows.StepContext, in Topic) (Summary, error) {
			var answer Approval
			if ctx.ResumeData() == nil {
				return Summary{}, ctx.Suspend(map[string]string{"question": "Publish " + in.Topic + "?"})
			}
			if err := workflows.DecodeResumeData(ctx, &answer); err != nil {
				return Summary{}, err
			}
			if !answer.Approved {
				return Summary{Summary: "not published"}, nil
			}
			return Summary{Summary: "published " + in.Topic}, nil
		}})
	wf := workflows.New(workflows.Config{ID: "publishing"}).Then(publish)
	if err := wf.Commit(); err != nil {
		panic(err)
	}
	run := wf.CreateRun()
	res, _ := run.Start(context.Background(), Topic{Topic: "the post"}, nil)
	fmt.Println(res.Status, res.Suspended, string(res.SuspendPayload["publish"]))
	res, _ = run.Resume(context.Background(), workflows.ResumeOptions{Step: []string{"publish"}, Data: Approval{Approved: true}})
	fmt.Println(res.Status, string(res.Result))
	// Output:
	// suspended [[publish]] {"question":"Publish the post?"}
	// success {"summary":"published the post"}
}

type Order struct {
	Amount int `json:"amount"`
}

type Decision struct {
	Route string `json:"route"`
}

// Branch runs the steps whose conditions hold on the previous output;
// the next step gets their outputs keyed by step id.
func ExampleWorkflow_Branch() {
	route := func(id string) *workflows.Step {
		return workflows.NewStep(workflows.StepConfig[Order, Decision]{ID: id,
			Execute: func(ctx workflows.StepContext, in Order) (Decision, error) {
				return Decision{Route: id}, nil
			}})
	}
	amount := func(c workflows.ConditionInput) int {
		var o Order
		_ = json.Unmarshal(c.Output, &o)
		return o.Amount
	}
	large := func(ctx context.Context, c workflows.ConditionInput) (bool, error) { return amount(c) >= 100, nil }
	small := func(ctx context.Context, c workflows.ConditionInput) (bool, error) { return amount(c) < 100, nil }
	orders := workflows.New(workflows.Config{ID: "orders"}).
		Branch(
			workflows.When(large, route("review")),
			workflows.When(small, route("ship")),
		)
	if err := orders.Commit(); err != nil {
		panic(err)
	}
	for _, amount := range []int{20, 500} {
		res, err := orders.CreateRun().Start(context.Background(), Order{Amount: amount}, nil)
		if err != nil {
			panic(err)
		}
		fmt.Println(amount, string(res.Result))
	}
	// Output:
	// 20 {"ship":{"route":"ship"}}
	// 500 {"review":{"route":"review"}}
}

type Count struct {
	N int `json:"n"`
}

// DoUntil runs a step again on its own output until the condition holds.
func ExampleWorkflow_DoUntil() {
	increment := workflows.NewStep(workflows.StepConfig[Count, Count]{ID: "increment",
		Execute: func(ctx workflows.StepContext, in Count) (Count, error) {
			return Count{N: in.N + 1}, nil
		}})
	atLeast3 := func(ctx context.Context, c workflows.ConditionInput) (bool, error) {
		var n Count
		err := json.Unmarshal(c.Output, &n)
		return n.N >= 3, err
	}
	counter := workflows.New(workflows.Config{ID: "counter"}).DoUntil(increment, atLeast3)
	if err := counter.Commit(); err != nil {
		panic(err)
	}
	res, err := counter.CreateRun().Start(context.Background(), Count{N: 0}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(res.Result))
	// Output:
	// {"n":3}
}

type Word struct {
	Word string `json:"word"`
}

// Map reshapes the previous output (here a Topic into a list of words),
// and Foreach runs a step on each element of a list, at most concurrency
// at a time, keeping the list's order.
func ExampleWorkflow_Foreach() {
	upper := workflows.NewStep(workflows.StepConfig[Word, Word]{ID: "upper",
		Execute: func(ctx workflows.StepContext, in Word) (Word, error) {
			return Word{Word: strings.ToUpper(in.Word)}, nil
		}})
	shout := workflows.New(workflows.Config{ID: "shout", InputSchema: workflows.MustSchemaFor[Topic]()}).
		Map(func(ctx context.Context, m workflows.MapInput) (any, error) {
			var in Topic
			if err := json.Unmarshal(m.Output, &in); err != nil {
				return nil, err
			}
			var words []Word
			for _, w := range strings.Fields(in.Topic) {
				words = append(words, Word{Word: w})
			}
			return words, nil
		}).
		Foreach(upper, 2)
	if err := shout.Commit(); err != nil {
		panic(err)
	}
	res, err := shout.CreateRun().Start(context.Background(), Topic{Topic: "go is fun"}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(res.Result))
	// Output:
	// [{"word":"GO"},{"word":"IS"},{"word":"FUN"}]
}

// Commit checks that each step accepts what comes before it, by their
// schemas, before anything runs.
func ExampleWorkflow_Commit() {
	count := workflows.NewStep(workflows.StepConfig[Count, Count]{ID: "count",
		Execute: func(ctx workflows.StepContext, in Count) (Count, error) { return in, nil }})
	summarise := workflows.NewStep(workflows.StepConfig[Notes, Summary]{ID: "summarise",
		Execute: func(ctx workflows.StepContext, in Notes) (Summary, error) { return Summary{}, nil }})
	wf := workflows.New(workflows.Config{ID: "mismatch"}).Then(count).Then(summarise)
	fmt.Println(wf.Commit())
	// Output:
	// workflows: mismatch: step "summarise" cannot take the output of step "count": missing required property "notes"
}

// Stream is Start yielding Mastra's workflow chunks as the run goes.
func ExampleRun_Stream() {
	increment := workflows.NewStep(workflows.StepConfig[Count, Count]{ID: "increment",
		Execute: func(ctx workflows.StepContext, in Count) (Count, error) {
			return Count{N: in.N + 1}, nil
		}})
	wf := workflows.New(workflows.Config{ID: "one-step"}).Then(increment)
	if err := wf.Commit(); err != nil {
		panic(err)
	}
	for chunk, err := range wf.CreateRun().Stream(context.Background(), Count{N: 1}, nil) {
		if err != nil {
			panic(err)
		}
		fmt.Println(chunk.Type)
	}
	// Output:
	// workflow-start
	// workflow-step-start
	// workflow-step-result
	// workflow-finish
}

// A committed workflow is a step of another one with AsStep: it runs as
// a run of its own, and its result is the step's output.
func ExampleWorkflow_AsStep() {
	increment := workflows.NewStep(workflows.StepConfig[Count, Count]{ID: "increment",
		Execute: func(ctx workflows.StepContext, in Count) (Count, error) {
			return Count{N: in.N + 1}, nil
		}})
	inner := workflows.New(workflows.Config{ID: "inner",
		InputSchema: workflows.MustSchemaFor[Count](), OutputSchema: workflows.MustSchemaFor[Count]()}).Then(increment)
	if err := inner.Commit(); err != nil {
		panic(err)
	}
	double := workflows.NewStep(workflows.StepConfig[Count, Count]{ID: "double",
		Execute: func(ctx workflows.StepContext, in Count) (Count, error) {
			return Count{N: in.N * 2}, nil
		}})
	outer := workflows.New(workflows.Config{ID: "outer"}).Then(inner.AsStep()).Then(double)
	if err := outer.Commit(); err != nil {
		panic(err)
	}
	res, err := outer.CreateRun().Start(context.Background(), Count{N: 1}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.StepExecutionPath, string(res.Result))
	// Output:
	// [inner double] {"n":4}
}

// With Storage, a suspended run's snapshot outlives the process: after a
// restart, LoadRun finds the run by id and Resume finishes it.
func ExampleWorkflow_LoadRun() {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		panic(err)
	}
	defer store.Close()
	// build is the program's workflow, made the same way by every process.
	build := func() *workflows.Workflow {
		publish := workflows.NewStep(workflows.StepConfig[Topic, Summary]{ID: "publish",
			ResumeSchema: workflows.MustSchemaFor[Approval](),
			Execute: func(ctx workflows.StepContext, in Topic) (Summary, error) {
				var answer Approval
				if ctx.ResumeData() == nil {
					return Summary{}, ctx.Suspend(map[string]string{"question": "Publish " + in.Topic + "?"})
				}
				if err := workflows.DecodeResumeData(ctx, &answer); err != nil {
					return Summary{}, err
				}
				return Summary{Summary: fmt.Sprintf("published %s: %v", in.Topic, answer.Approved)}, nil
			}})
		wf := workflows.New(workflows.Config{ID: "publishing", Storage: store}).Then(publish)
		if err := wf.Commit(); err != nil {
			panic(err)
		}
		return wf
	}

	run := build().CreateRun()
	res, err := run.Start(ctx, Topic{Topic: "the post"}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status)
	runID := run.ID()

	// Later, in a new process sharing the storage.
	loaded, err := build().LoadRun(ctx, runID)
	if err != nil {
		panic(err)
	}
	res, err = loaded.Resume(ctx, workflows.ResumeOptions{Step: []string{"publish"}, Data: Approval{Approved: true}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, string(res.Result))
	// Output:
	// suspended
	// success {"summary":"published the post: true"}
}

// Tool turns a workflow into a tool ("workflow-<key>", as an agent's
// Config.Workflows offers it): its input is {inputData, initialState?}
// and its result {runId, result}.
func ExampleTool() {
	increment := workflows.NewStep(workflows.StepConfig[Count, Count]{ID: "increment",
		Execute: func(ctx workflows.StepContext, in Count) (Count, error) {
			return Count{N: in.N + 1}, nil
		}})
	counter := workflows.New(workflows.Config{ID: "counter", Description: "Adds one"}).Then(increment)
	if err := counter.Commit(); err != nil {
		panic(err)
	}
	t := workflows.Tool("counter", counter)
	fmt.Println(t.ID(), "-", t.Description())
	res, err := t.Execute(context.Background(), json.RawMessage(`{"inputData":{"n":41}}`), nil)
	if err != nil {
		panic(err)
	}
	out := res.Output.(workflows.ToolResult)
	fmt.Println(string(out.Result))
	// Output:
	// workflow-counter - Adds one
	// {"n":42}
}

// A workflow keeps its finished runs in its storage: StoredRuns lists
// them (here the successes, a page of 10), and a restarted process or
// another replica over the same storage sees the same list.
func ExampleWorkflow_StoredRuns() {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		panic(err)
	}
	defer store.Close()
	double := workflows.NewStep(workflows.StepConfig[Count, Count]{ID: "double",
		Execute: func(_ workflows.StepContext, in Count) (Count, error) { return Count{N: in.N * 2}, nil }})
	w := workflows.New(workflows.Config{ID: "double", Storage: store}).Then(double)
	if err := w.Commit(); err != nil {
		panic(err)
	}
	for i := 1; i <= 3; i++ {
		if _, err := w.CreateRun(workflows.WithRunID(fmt.Sprint("run-", i))).Start(ctx, Count{N: i}, nil); err != nil {
			panic(err)
		}
	}
	runs, total, err := w.StoredRuns(ctx, workflows.RunQuery{Status: workflows.StatusSuccess, PerPage: 10})
	if err != nil {
		panic(err)
	}
	results := map[string]string{}
	for i := range runs {
		snap, err := w.StoredSnapshot(&runs[i])
		if err != nil {
			panic(err)
		}
		results[snap.RunID] = snap.Status + " " + string(snap.Result())
	}
	fmt.Println(total, results["run-3"])
	// Output: 3 success {"n":6}
}

// A workflow runs, nests or becomes an agent's tool only once committed.
func ExampleWorkflow_Committed() {
	w := workflows.New(workflows.Config{ID: "notes"}).Then(workflows.NewStep(workflows.StepConfig[Topic, Notes]{ID: "take",
		Execute: func(ctx workflows.StepContext, in Topic) (Notes, error) { return Notes{Notes: []string{in.Topic}}, nil }}))
	fmt.Println(w.Committed())
	if err := w.Commit(); err != nil {
		panic(err)
	}
	fmt.Println(w.Committed())
	// Output:
	// false
	// true
}

// A run made with CreateStoredRun is stored pending: another process
// over the same storage (here a second workflow value) loads it and
// starts it; the run starts once.
func ExampleWorkflow_CreateStoredRun() {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		panic(err)
	}
	defer store.Close()
	replica := func() *workflows.Workflow {
		double := workflows.NewStep(workflows.StepConfig[Count, Count]{ID: "double",
			Execute: func(_ workflows.StepContext, in Count) (Count, error) { return Count{N: in.N * 2}, nil }})
		w := workflows.New(workflows.Config{ID: "double", Storage: store}).Then(double)
		if err := w.Commit(); err != nil {
			panic(err)
		}
		return w
	}
	if _, err := replica().CreateStoredRun(ctx, workflows.WithRunID("later")); err != nil {
		panic(err)
	}
	other := replica()
	run, err := other.LoadRun(ctx, "later")
	if err != nil {
		panic(err)
	}
	fmt.Println(run.Snapshot().Status)
	res, err := run.Start(ctx, Count{N: 21}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, string(res.Result))
	_, err = run.Start(ctx, Count{N: 1}, nil)
	fmt.Println(errors.Is(err, workflows.ErrAlreadyStarted))
	// Output:
	// pending
	// success {"n":42}
	// true
}
