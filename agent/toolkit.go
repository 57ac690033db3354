package agent

import (
	"fmt"
	"sort"

	"github.com/gomastra/mastra/tools"
)

// toolkit is a run's tools: all of them by model-facing name, and the
// ones offered at the current step, in the order the model is given them.
type toolkit struct {
	all    map[string]*tools.Tool
	active map[string]*tools.Tool
	order  []string
	// byID finds an offered tool by its id (built when first needed).
	byID map[string]*tools.Tool
	// own is, when the request has client tools, the run's tools before
	// they were laid over (to find the agent's tool a client tool
	// shadows); else nil.
	own tools.Set
}

func newToolkit(all map[string]*tools.Tool, active []string) *toolkit {
	k := &toolkit{all: all}
	k.offer(active)
	return k
}

// offer offers the run's tools (the active ones of them, nil: all), in
// name order.
func (k *toolkit) offer(active []string) {
	k.active = activeSet(k.all, active)
	k.order = make([]string, 0, len(k.active))
	for name := range k.active {
		k.order = append(k.order, name)
	}
	sort.Strings(k.order)
	k.byID = nil
}

// offerList offers exactly list, in its order (a step processor's
// choice), names sanitised as Config.Tools keys are.
func (k *toolkit) offerList(list []StepTool) error {
	active := make(map[string]*tools.Tool, len(list))
	order := make([]string, 0, len(list))
	for _, st := range list {
		if st.Tool == nil {
			return fmt.Errorf("processor tool %q is nil", st.Name)
		}
		name := SanitizeToolName(st.Name)
		if _, dup := active[name]; dup {
			return fmt.Errorf("two step tools resolve to the name %q", name)
		}
		active[name] = st.Tool
		order = append(order, name)
	}
	k.active, k.order, k.byID = active, order, nil
	return nil
}

// lookup finds an offered tool by model-facing name, then by id (Mastra
// lets the model call a tool by its id).
func (k *toolkit) lookup(name string) *tools.Tool {
	if t, ok := k.active[name]; ok {
		return t
	}
	if k.byID == nil {
		k.byID = make(map[string]*tools.Tool, len(k.active))
		for _, n := range k.order {
			if t := k.active[n]; k.byID[t.ID()] == nil {
				k.byID[t.ID()] = t
			}
		}
	}
	return k.byID[name]
}
