package builtin

import (
	"errors"

	"github.com/gomastra/mastra/tools"
)

// SubmitPlanToolID is submit_plan's id; it is also the toolId of its
// suspend payload and results.
const SubmitPlanToolID = "submit_plan"

// Plan review decisions a suspended submit_plan call is resumed with.
const (
	PlanApproved = "approved"
	PlanRejected = "rejected"
)

// SubmitPlanInput is submit_plan's input: the path of a markdown plan the
// model wrote earlier (never the plan itself).
type SubmitPlanInput struct {
	Path string `json:"path"`
}

// SubmitPlanSuspendPayload is what submit_plan suspends with. The tool sets
// ToolID and Path; a host may fill Title and Plan for its own records.
type SubmitPlanSuspendPayload struct {
	ToolID string  `json:"toolId,omitempty"`
	Path   string  `json:"path"`
	Title  *string `json:"title,omitempty"`
	Plan   *string `json:"plan,omitempty"`
}

// SubmitPlanResumeData is the decision a host resumes submit_plan with.
// Action is PlanApproved or PlanRejected; Feedback (when not empty) is
// shown to the model with a rejection; Path, Title and Plan are echoed in
// the result's SubmittedPlan.
type SubmitPlanResumeData struct {
	Action   string  `json:"action"`
	Feedback *string `json:"feedback,omitempty"`
	Path     *string `json:"path,omitempty"`
	Title    *string `json:"title,omitempty"`
	Plan     *string `json:"plan,omitempty"`
}

// SubmittedPlan is the plan a decision was about, as the host described it.
type SubmittedPlan struct {
	Title    *string `json:"title,omitempty"`
	Path     *string `json:"path,omitempty"`
	Plan     *string `json:"plan,omitempty"`
	Feedback *string `json:"feedback,omitempty"`
}

// SubmitPlanResult is what submit_plan returns to the model. ToolID and
// SubmittedPlan are set on results of a review decision only.
type SubmitPlanResult struct {
	ToolID        string         `json:"toolId,omitempty"`
	Content       string         `json:"content"`
	IsError       bool           `json:"isError"`
	SubmittedPlan *SubmittedPlan `json:"submittedPlan,omitempty"`
}

// SubmitPlanTool (id "submit_plan") submits a plan the model wrote to a
// markdown file for the user's review. In an agent run it suspends with
// {"toolId":"submit_plan","path":...}; the host reads the file, shows it,
// and resumes the call with a [SubmitPlanResumeData]. An approval tells the
// model to proceed; a rejection with feedback asks it to revise and submit
// again; a rejection without feedback tells it to stop and wait for the
// user. Without an agent (a direct call) it returns the path as readable
// text. Its Execute output is a [SubmitPlanResult] (nil when suspended);
// like Mastra's, the tool has no output schema.
var SubmitPlanTool = tools.New(tools.Config[SubmitPlanInput, any]{
	ID: SubmitPlanToolID,
	Description: "Submit a plan you wrote to a markdown file for review. Pass the `path` to that file " +
		"(e.g. `.mastracode/plans/add-dark-mode.md`). Write/edit the file first — do not paste the plan contents here. " +
		"Reuse the same file across revisions; only create a new file for a genuinely new plan. The user can approve, " +
		"reject, or request changes. On approval, the system automatically switches to the default mode so you can implement.",
	InputSchema:   mustSchema(submitPlanInputJSON),
	SuspendSchema: mustSchema(submitPlanSuspendJSON),
	ResumeSchema:  mustSchema(submitPlanResumeJSON),
	Execute:       submitPlan,
})

func submitPlan(ctx tools.Context, in SubmitPlanInput) (any, error) {
	if ctx.ResumeData() != nil {
		d, _, err := tools.ResumeDataAs[SubmitPlanResumeData](ctx)
		if err != nil {
			return submitPlanFailed(err.Error()), nil
		}
		plan := &SubmittedPlan{Title: d.Title, Path: d.Path, Plan: d.Plan}
		switch {
		case d.Action == PlanApproved:
			return SubmitPlanResult{
				ToolID: SubmitPlanToolID, SubmittedPlan: plan,
				Content: "Plan approved. Proceed with implementation following the approved plan.",
			}, nil
		case d.Feedback != nil && *d.Feedback != "":
			plan.Feedback = d.Feedback
			return SubmitPlanResult{
				ToolID: SubmitPlanToolID, SubmittedPlan: plan,
				Content: "Plan was not approved. The user wants revisions.\n\nUser feedback: " + *d.Feedback +
					"\n\nPlease revise the plan based on the feedback and submit again with submit_plan.",
			}, nil
		default:
			return SubmitPlanResult{
				ToolID: SubmitPlanToolID, SubmittedPlan: plan,
				Content: "Plan was not approved. The user will send revision instructions in their next message. " +
					"Stop now and wait for the user to provide feedback before revising the plan.",
			}, nil
		}
	}
	if ctx.Agent() != nil {
		err := ctx.Suspend(SubmitPlanSuspendPayload{ToolID: SubmitPlanToolID, Path: in.Path})
		if err != nil && !errors.Is(err, tools.ErrSuspended) {
			return submitPlanFailed(err.Error()), nil
		}
		return nil, err
	}
	return SubmitPlanResult{Content: "[Plan submitted for review]\n\nPath: " + in.Path}, nil
}

func submitPlanFailed(msg string) SubmitPlanResult {
	return SubmitPlanResult{Content: "Failed to submit plan: " + msg, IsError: true}
}
