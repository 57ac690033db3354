package workflows

// Committed reports whether Commit has succeeded on the workflow: only a
// committed workflow can run (CreateRun), be nested (AsStep) or be given
// to an agent as a tool.
func (w *Workflow) Committed() bool { return w.committed }
