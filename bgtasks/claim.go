package bgtasks

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// PickClaims chooses which of the pending tasks (oldest first) a claim
// takes, given how many tasks run now for each agent: those of the
// claim's IDs, due or not, or without IDs those due at now, while the
// global and per-agent limits leave a slot, that c.Accept accepts, at
// most c.Max. Stores call
// it inside the transaction that claims them.
func PickClaims(c Claim, running map[string]int, pending []Task, now time.Time) []Task {
	total := 0
	perAgent := map[string]int{}
	for agent, n := range running {
		perAgent[agent] = n
		total += n
	}
	var picked []Task
	for _, t := range pending {
		if c.Max > 0 && len(picked) >= c.Max || c.Global > 0 && total >= c.Global {
			break
		}
		if t.Status != Pending || !claimable(c, t, now) || c.Accept != nil && !c.Accept(t) {
			continue
		}
		if limit := c.AgentLimit(t.AgentID); limit > 0 && perAgent[t.AgentID] >= limit {
			continue
		}
		picked = append(picked, t)
		total++
		perAgent[t.AgentID]++
	}
	return picked
}

// FullAgents returns the agents (sorted) whose running tasks, counted in
// running, reach their limit in c: a claim takes none of their tasks,
// so a Store that reads a bounded number of pending tasks leaves theirs
// out, lest a long queue of one agent hide the tasks of the others.
func FullAgents(c Claim, running map[string]int) []string {
	var full []string
	for agent, n := range running {
		if limit := c.AgentLimit(agent); limit > 0 && n >= limit {
			full = append(full, agent)
		}
	}
	slices.Sort(full)
	return full
}

// claimable reports whether the claim may take the pending task t: one
// of its IDs (due or not), or, without IDs, a task due at now.
func claimable(c Claim, t Task, now time.Time) bool {
	if len(c.IDs) > 0 {
		return slices.Contains(c.IDs, t.ID)
	}
	return !t.NotBefore.After(now)
}

// Claimed is t as a claim makes it: Running for c.Owner until
// c.LeaseUntil, started at now, its Version one more.
func Claimed(t Task, c Claim, now time.Time) Task {
	t.Status, t.Owner, t.LeaseUntil, t.StartedAt = Running, c.Owner, c.LeaseUntil, now
	t.NotBefore = time.Time{}
	t.Version++
	return t
}

// KeepIdentity returns next with the fields no update changes (ID,
// CreatedAt and the call's identity) taken from old.
func KeepIdentity(old, next Task) Task {
	next.ID, next.CreatedAt = old.ID, old.CreatedAt
	next.ToolName, next.ToolCallID, next.Args = old.ToolName, old.ToolCallID, old.Args
	next.AgentID, next.ThreadID, next.ResourceID, next.RunID = old.AgentID, old.ThreadID, old.ResourceID, old.RunID
	next.Producer = old.Producer
	return next
}

// CheckNewTask checks the task a Store's CreateTask is given: it needs
// an ID and a Status, and Args must be empty or valid JSON.
func CheckNewTask(t Task) error {
	switch {
	case t.ID == "":
		return errors.New("create task: empty id")
	case t.Status == "":
		return fmt.Errorf("create task %s: empty status", t.ID)
	case len(t.Args) > 0 && !json.Valid(t.Args):
		return fmt.Errorf("create task %s: args are not valid JSON", t.ID)
	}
	return nil
}
