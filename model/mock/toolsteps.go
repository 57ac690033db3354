package mock

import (
	"strconv"

	"github.com/gomastra/mastra/model"
)

// ToolSteps is an answer for NewFunc: while the prompt holds fewer than
// k tool messages it calls call (its ID numbered "call-0", "call-1", ...
// by the tool messages already there), then it answers final. The steps
// depend on the prompt only, so one model serves any number of runs,
// concurrent ones included.
func ToolSteps(k int, call ToolCall, final Step) func(req *model.Request) Step {
	return func(req *model.Request) Step {
		n := 0
		for _, m := range req.Messages {
			if m.Role == model.RoleTool {
				n++
			}
		}
		if n >= k {
			return final
		}
		c := call
		c.ID = "call-" + strconv.Itoa(n)
		return Step{ToolCalls: []ToolCall{c}}
	}
}
