package workflows_test

import (
	"context"
	"fmt"
	"strings"

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
