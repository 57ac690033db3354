package workflows

import (
	"encoding/json"
	"slices"
)

// runChange is one change of a run's state, as a save appends it after
// the snapshot it follows: a save appends the changes made since the save
// before it, in one delta (a JSON array of runChange, see journal).
// Exactly one field is set. apply folds a change into a state; changes
// carry values as runState encodes them (the same JSON tags), so that
// the snapshot with its deltas folded (decodeRun) is the state the whole
// snapshot would have held.
type runChange struct {
	// Step: step Key's record is Record (nil: it has none).
	Step *stepChange `json:"step,omitempty"`
	// Item: iteration Index of foreach step Key has the record Record.
	Item *itemChange `json:"item,omitempty"`
	// Order: steps that ran for the first time, appended to the order.
	Order []string `json:"order,omitempty"`
	// Path: sequential steps appended to the execution path.
	Path []string `json:"path,omitempty"`
	// At: the run moved on to another node, or a loop's next iteration.
	At *position `json:"at,omitempty"`
	// State: the workflow state was set.
	State *stateValue `json:"state,omitempty"`
	// Resume: the resume under way was armed, or its step took it.
	Resume *resumeChange `json:"resume,omitempty"`
	// Status: the run's status changed: a suspension (with the suspended
	// steps' paths) or a resume (running).
	Status *statusChange `json:"status,omitempty"`
	// End: the run ended with a result (a success) or an error (a
	// failure).
	End *endChange `json:"end,omitempty"`
}

// stepChange is a step's new record.
type stepChange struct {
	Key    string      `json:"key"`
	Record *StepResult `json:"record"`
	// KeepItems says the record keeps the iterations the stored one has
	// (Record has none: the changed ones follow as Item changes).
	KeepItems bool `json:"keepItems,omitempty"`
}

// itemChange is a foreach iteration's new record.
type itemChange struct {
	Key    string      `json:"key"`
	Index  int         `json:"index"`
	Record *StepResult `json:"record"`
}

// position is where a run is: runState's fields of the same names.
type position struct {
	Position  int             `json:"position"`
	Prev      json.RawMessage `json:"prev"`
	Iteration int             `json:"iteration,omitempty"`
	LoopInput json.RawMessage `json:"loopInput,omitempty"`
	LogNext   int64           `json:"logNext,omitempty"`
}

// stateValue is the workflow state (runState.State).
type stateValue struct {
	Value json.RawMessage `json:"value,omitempty"`
}

// resumeChange is the resume under way (runState.Resume; nil: none).
type resumeChange struct {
	Target *resumeTarget `json:"target,omitempty"`
}

// statusChange is the run's status and suspended paths.
type statusChange struct {
	Status    string     `json:"status"`
	Suspended [][]string `json:"suspended,omitempty"`
}

// endChange is a finished run's result and error (runState's fields of
// the same names).
type endChange struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *ErrorInfo      `json:"error,omitempty"`
}

// apply changes s as c says. An Item change for a step without that
// iteration changes nothing.
func (s *runState) apply(c runChange) {
	switch {
	case c.Step != nil:
		s.applyStep(c.Step)
	case c.Item != nil:
		if rec := s.Steps[c.Item.Key]; rec != nil && c.Item.Index >= 0 && c.Item.Index < len(rec.Items) {
			rec.Items[c.Item.Index] = c.Item.Record
		}
	case c.Order != nil:
		s.Order = append(s.Order, c.Order...)
	case c.Path != nil:
		s.Path = append(s.Path, c.Path...)
	case c.At != nil:
		s.Position, s.Prev, s.Iteration, s.LoopInput, s.LogNext = c.At.Position, c.At.Prev, c.At.Iteration, c.At.LoopInput, c.At.LogNext
	case c.State != nil:
		s.State = c.State.Value
	case c.Resume != nil:
		s.Resume = c.Resume.Target
	case c.Status != nil:
		s.Status, s.Suspended = c.Status.Status, c.Status.Suspended
	case c.End != nil:
		s.Result, s.Error = c.End.Result, c.End.Error
	}
}

// applyStep sets a step's record (or removes it).
func (s *runState) applyStep(c *stepChange) {
	if c.Record == nil {
		delete(s.Steps, c.Key)
		return
	}
	if old := s.Steps[c.Key]; c.KeepItems && old != nil {
		c.Record.Items = old.Items
	}
	s.Steps[c.Key] = c.Record
}

// decodeRun folds a saved run (its snapshot, then its deltas, each a
// JSON array of changes) back into its state.
func decodeRun(snapshot json.RawMessage, deltas []json.RawMessage) (*runState, error) {
	var s runState
	if err := json.Unmarshal(snapshot, &s); err != nil {
		return nil, err
	}
	if s.Steps == nil {
		s.Steps = map[string]*StepResult{}
	}
	for _, d := range deltas {
		var cs []runChange
		if err := json.Unmarshal(d, &cs); err != nil {
			return nil, err
		}
		for _, c := range cs {
			s.apply(c)
		}
	}
	return &s, nil
}

// changeSet is what changed in a run's state since its last save: the
// step records changed (tracked as they change, see Run.touch), and what
// was saved of the rest, to compare with. A run's mu guards it.
type changeSet struct {
	keys  []string // step keys, in the order they first changed
	steps map[string]*stepMarks
	saved savedFields
}

// stepMarks say how a step's record changed.
type stepMarks struct {
	// record: replaced or removed (saved whole); fields: its own fields
	// changed in place; items: the iterations whose records changed.
	record, fields bool
	items          []int
}

// savedFields are what the last save stored of a run's fields other
// than its step records (Order and Path by length: they only grow).
type savedFields struct {
	status            string
	suspended         [][]string
	resume            *resumeTarget
	position, iter    int
	logNext           int64
	prev, loop, state json.RawMessage
	order, path       int
	result            json.RawMessage
	err               *ErrorInfo
}

// mark notes a change of step key's record: whole (replaced or removed),
// its own fields, or iteration item (>= 0).
func (cs *changeSet) mark(key string, whole bool, item int) {
	m := cs.steps[key]
	if m == nil {
		if cs.steps == nil {
			cs.steps = map[string]*stepMarks{}
		}
		m = &stepMarks{}
		cs.steps[key] = m
		cs.keys = append(cs.keys, key)
	}
	switch {
	case whole:
		m.record = true
	case item >= 0:
		if !slices.Contains(m.items, item) {
			m.items = append(m.items, item)
		}
	default:
		m.fields = true
	}
}

// reset makes s what is saved: nothing has changed since.
func (cs *changeSet) reset(s *runState) {
	cs.keys, cs.steps = cs.keys[:0], nil
	cs.saved = savedFields{status: s.Status, suspended: s.Suspended, resume: s.Resume, position: s.Position,
		iter: s.Iteration, logNext: s.LogNext, prev: s.Prev, loop: s.LoopInput, state: s.State, order: len(s.Order), path: len(s.Path),
		result: s.Result, err: s.Error}
}

// changes lists the changes that make what is saved s, in an order apply
// takes them in: the steps' first, in the order they changed.
func (cs *changeSet) changes(s *runState) []runChange {
	var out []runChange
	for _, key := range cs.keys {
		out = cs.stepChanges(out, s, key)
	}
	sv := cs.saved
	if len(s.Order) > sv.order {
		out = append(out, runChange{Order: slices.Clone(s.Order[sv.order:])})
	}
	if len(s.Path) > sv.path {
		out = append(out, runChange{Path: slices.Clone(s.Path[sv.path:])})
	}
	if s.Position != sv.position || s.Iteration != sv.iter || s.LogNext != sv.logNext || !sameJSON(s.Prev, sv.prev) || !sameJSON(s.LoopInput, sv.loop) {
		out = append(out, runChange{At: &position{Position: s.Position, Prev: s.Prev, Iteration: s.Iteration, LoopInput: s.LoopInput, LogNext: s.LogNext}})
	}
	if !sameJSON(s.State, sv.state) {
		out = append(out, runChange{State: &stateValue{Value: s.State}})
	}
	if s.Resume != sv.resume {
		out = append(out, runChange{Resume: &resumeChange{Target: s.Resume}})
	}
	if s.Status != sv.status || !slices.EqualFunc(s.Suspended, sv.suspended, slices.Equal) {
		out = append(out, runChange{Status: &statusChange{Status: s.Status, Suspended: s.Suspended}})
	}
	if !sameJSON(s.Result, sv.result) || s.Error != sv.err {
		out = append(out, runChange{End: &endChange{Result: s.Result, Error: s.Error}})
	}
	return out
}

// stepChanges appends the changes of step key's record to out.
func (cs *changeSet) stepChanges(out []runChange, s *runState, key string) []runChange {
	m, rec := cs.steps[key], s.Steps[key]
	if m.record || rec == nil || len(rec.Items) == 0 {
		return append(out, runChange{Step: &stepChange{Key: key, Record: rec}})
	}
	if m.fields {
		own := *rec
		own.Items = nil
		out = append(out, runChange{Step: &stepChange{Key: key, Record: &own, KeepItems: true}})
	}
	slices.Sort(m.items)
	for _, i := range m.items {
		if i < len(rec.Items) {
			out = append(out, runChange{Item: &itemChange{Key: key, Index: i, Record: rec.Items[i]}})
		}
	}
	return out
}

// sameJSON reports whether two JSON texts are the same bytes.
func sameJSON(a, b json.RawMessage) bool { return string(a) == string(b) }
