package workflows

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// nestedResume is the resume data an outer step passes to its nested
// workflow: the inner step's path and its data.
type nestedResume struct {
	Step []string        `json:"__step"`
	Data json.RawMessage `json:"__data"`
}

// nestedSuspension is what a nested workflow's step suspends with.
type nestedSuspension struct {
	Suspended [][]string                 `json:"suspended"`
	Payloads  map[string]json.RawMessage `json:"payloads,omitempty"`
}

// AsStep makes the workflow a step of another one (Mastra's nested
// workflows): its id is the workflow's, it runs a run of its own (whose
// id is the outer run's id, "/", the step id), and a suspension inside
// it suspends the outer step, whose path is then [this id, inner path...].
// w must be committed: the step of an uncommitted workflow fails when it
// runs.
func (w *Workflow) AsStep() *Step {
	in, out := w.cfg.InputSchema, w.cfg.OutputSchema
	if in == nil {
		in = anySchema()
	}
	if out == nil {
		out = anySchema()
	}
	t := tools.New(tools.DynamicConfig{
		ID: w.cfg.ID, Description: w.cfg.Description, InputSchema: in, OutputSchema: out,
		Execute: func(tc tools.Context, v any) (any, error) {
			sc := stepContextOf(tc)
			f := sc.(*stepContext).f
			childID := f.run.id + "/" + w.cfg.ID
			var res *Result
			var err error
			if data := tc.ResumeData(); data != nil {
				var nr nestedResume
				if err := json.Unmarshal(data, &nr); err != nil || len(nr.Step) == 0 {
					return nil, fmt.Errorf("workflows: nested workflow %s: resume it by an inner step's path", w.cfg.ID)
				}
				child, lerr := w.LoadRun(tc, childID, WithRequestContext(tc.RequestContext()), withoutLog())
				if lerr != nil {
					return nil, lerr
				}
				res, err = child.Resume(tc, ResumeOptions{Step: nr.Step, Data: nr.Data})
			} else {
				child := w.CreateRun(WithRunID(childID), WithRequestContext(tc.RequestContext()), withoutLog())
				res, err = child.Start(tc, v, nil)
			}
			if err != nil {
				return nil, err
			}
			switch res.Status {
			case StatusSuccess:
				var out any
				err := json.Unmarshal(res.Result, &out)
				return out, err
			case StatusSuspended:
				payloads := map[string]json.RawMessage{}
				for _, p := range res.Suspended {
					if rec := res.Steps[p[0]]; rec != nil {
						payloads[p[0]] = rec.SuspendPayload
					}
				}
				return nil, tc.Suspend(nestedSuspension{Suspended: res.Suspended, Payloads: payloads}, tools.WithRunID(childID))
			}
			return nil, fmt.Errorf("workflows: nested workflow %s %s: %s", w.cfg.ID, res.Status, res.Error)
		},
	})
	return &Step{tool: t, nested: w}
}

// nestedPath is the inner path of a nested workflow's suspension.
func nestedPath(payload json.RawMessage) []string {
	var ns nestedSuspension
	if json.Unmarshal(payload, &ns) != nil || len(ns.Suspended) == 0 {
		return nil
	}
	return ns.Suspended[0]
}

func anySchema() schema.Schema { return schema.MustCompile(&jsonschema.Schema{}) }
