package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

// ask_user suspends an agent's tool call until the user answers; the answer
// is the resume data.
func ExampleAskUserTool() {
	ctx := context.Background()
	args := json.RawMessage(`{"question":"Which database?","options":[{"label":"SQLite"},{"label":"PostgreSQL"}]}`)
	inAgent := &tools.AgentInfo{AgentID: "assistant"}

	// In an agent run the call suspends with the question for the host.
	res, err := builtin.AskUserTool.Execute(ctx, args, &tools.Invocation{ToolCallID: "call-1", Agent: inAgent})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(res.Suspension.Payload))

	// The host resumes it with the user's choice.
	res, err = builtin.AskUserTool.Execute(ctx, args, &tools.Invocation{
		ToolCallID: "call-1", Agent: inAgent, ResumeData: json.RawMessage(`"PostgreSQL"`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Output.(builtin.AskUserResult).Content)

	// Outside an agent run the question comes back as text.
	res, err = builtin.AskUserTool.Execute(ctx, args, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Output.(builtin.AskUserResult).Content)
	// Output:
	// {"question":"Which database?","options":[{"label":"SQLite"},{"label":"PostgreSQL"}],"selectionMode":"single_select"}
	// User answered: PostgreSQL
	// [Question for user]: Which database?
	// Options: SQLite, PostgreSQL
	// Selection mode: single_select
}

// submit_plan suspends until the plan is approved or rejected.
func ExampleSubmitPlanTool() {
	ctx := context.Background()
	args := json.RawMessage(`{"path":"plans/dark-mode.md"}`)
	inAgent := &tools.AgentInfo{AgentID: "assistant"}

	res, err := builtin.SubmitPlanTool.Execute(ctx, args, &tools.Invocation{Agent: inAgent})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(res.Suspension.Payload))

	res, err = builtin.SubmitPlanTool.Execute(ctx, args, &tools.Invocation{
		Agent: inAgent, ResumeData: json.RawMessage(`{"action":"rejected","feedback":"Cover the settings page too."}`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Output.(builtin.SubmitPlanResult).Content)
	// Output:
	// {"toolId":"submit_plan","path":"plans/dark-mode.md"}
	// Plan was not approved. The user wants revisions.
	//
	// User feedback: Cover the settings page too.
	//
	// Please revise the plan based on the feedback and submit again with submit_plan.
}

// An agent with the task tools and the task-list signal. The store is any
// storage.ThreadState (storage/sqlite, storage/postgres; an in-memory one
// here); the run needs a memory thread.
func ExampleNewTaskSignalProvider() {
	store := newMemStore()
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "task_write", Args: `{"tasks":[
			{"content":"Reproduce the bug","status":"in_progress","activeForm":"Reproducing the bug"},
			{"content":"Fix it","status":"pending","activeForm":"Fixing it"}]}`}}},
		mock.Step{Text: "On it."},
	)
	coder, err := agent.New(agent.Config{
		ID: "coder", Instructions: "You fix bugs.", Model: m,
		Signals: []agent.Signal{builtin.NewTaskSignalProvider(store)},
	})
	if err != nil {
		panic(err)
	}
	out, err := coder.Generate(context.Background(), "The login page crashes.", agent.WithMemory("thread-1", "user-1"))
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Text)

	// The model's second call ends with the task list.
	second := m.Calls()[1].Messages
	last := second[len(second)-1]
	fmt.Println(last.Role)
	fmt.Println(last.Content[0].Text)
	// Output:
	// On it.
	// user
	// <current-task-list count="2">
	//   ▸ [in_progress] {id: task_reproduce_the_bug} Reproduce the bug
	//   ○ [pending] {id: task_fix_it} Fix it
	// </current-task-list>
}

func ExampleAssignTaskIDs() {
	previous := []builtin.Task{{ID: "login", Content: "Fix login", Status: builtin.TaskInProgress, ActiveForm: "Fixing login"}}
	tasks := builtin.AssignTaskIDs([]builtin.TaskInput{
		{Content: "Fix login", Status: builtin.TaskCompleted, ActiveForm: "Fixing login"},
		{Content: "Write a regression test!", Status: builtin.TaskPending, ActiveForm: "Writing a test"},
		{Content: "Write a regression test!", Status: builtin.TaskPending, ActiveForm: "Writing a test"},
	}, previous)
	for _, t := range tasks {
		fmt.Println(t.ID)
	}
	// Output:
	// login
	// task_write_a_regression_test
	// task_write_a_regression_test_2
}
