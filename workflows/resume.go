package workflows

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// ResumeOptions say which suspended step a resume is for and with what.
type ResumeOptions struct {
	// Step is the suspended step's path: its id, or for a step of a
	// nested workflow [nested workflow's step id, inner step id, ...].
	// Empty: the first suspended step.
	Step []string
	// ForEachIndex picks a suspended foreach iteration (nil: the first).
	ForEachIndex *int
	// Data is the resume data, validated against the step's resume
	// schema.
	Data any
}

// Resume resumes a suspended run at one step (Mastra's run.resume): the
// step runs again from the top with the resume data, the run goes on
// from there. A run loaded from storage (LoadRun) resumes the same way,
// after a restart or in another process; of concurrent resumes of one
// run, exactly one goes through. A run left running by a process that
// died resumes with zero ResumeOptions: the steps that had ended are not
// run again.
func (r *Run) Resume(ctx context.Context, opts ResumeOptions) (*Result, error) {
	return r.drain(r.ResumeStream(ctx, opts))
}

// ResumeStream is Resume yielding the run's chunks.
func (r *Run) ResumeStream(ctx context.Context, opts ResumeOptions) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		if l := r.launcherOf(); l != nil {
			r.resumeLaunched(ctx, l, opts, yield)
			return
		}
		if err := r.prepareResume(ctx, opts); err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		r.execute(ctx, yield)
	}
}

// prepareResume checks that the step is suspended and the resume data
// valid, claims the run and arms the resume. The errors are Mastra's.
func (r *Run) prepareResume(ctx context.Context, opts ResumeOptions) error {
	r.mu.Lock()
	status := r.state.Status
	paths := r.state.Suspended
	r.mu.Unlock()
	var target *resumeTarget
	switch status {
	case StatusSuspended:
		var err error
		if target, err = r.resumeTarget(opts, paths); err != nil {
			return err
		}
	case StatusRunning:
		if len(opts.Step) > 0 {
			return errNotSuspended
		}
		// Only a recovery (no data) takes up a run stored as running: a
		// resume with data lost the race to the resume under way, which
		// may still be alive.
		if opts.Data != nil {
			return fmt.Errorf("workflows: %s: resuming run %s: it is being resumed: %w", r.wf.cfg.ID, r.id, storage.ErrConflict)
		}
	default:
		return errNotSuspended
	}
	if err := r.claim(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	if target != nil {
		r.state.Resume = target
	}
	r.state.Status, r.state.Suspended = StatusRunning, nil
	r.mu.Unlock()
	// Saved at once: a new version, so that if this process dies during
	// the resumed step, the run is found running and resumed again (with
	// the same data) under a claim of its own.
	return r.persistClaimed(ctx)
}

// resumeTarget is the resume opts ask for of a run suspended at paths,
// once it is checked: the step is suspended (the first one when opts
// name none, and there is one) and the data valid. The errors are
// Mastra's.
func (r *Run) resumeTarget(opts ResumeOptions, paths [][]string) (*resumeTarget, error) {
	path := opts.Step
	if len(path) == 0 {
		if len(paths) > 1 {
			return nil, newError(mastraerror.IDWorkflowResumeAmbiguous, "Multiple suspended steps found: "+listPaths(paths)+`. Please specify which step to resume using the "step" parameter.`)
		}
		path = paths[0]
	}
	if !hasPath(paths, path) {
		return nil, newError(mastraerror.IDWorkflowResumeStepNotSuspended, `This workflow step "`+path[0]+`" was not suspended. Available suspended steps: [`+strings.Join(suspendedIDs(paths), ", ")+`]`)
	}
	data, err := marshal(opts.Data)
	if err != nil {
		return nil, fmt.Errorf("workflows: resume data: %w", err)
	}
	if s := r.wf.step(path[0]); s != nil && s.ResumeSchema() != nil && len(path) == 1 {
		if err := validate(s.ResumeSchema(), data, "resume data"); err != nil {
			return nil, err
		}
	}
	index := -1
	if opts.ForEachIndex != nil {
		index = *opts.ForEachIndex
	}
	// A nested workflow's step is resumed through its outer step, which
	// passes the inner path on.
	if len(path) > 1 {
		data, _ = json.Marshal(nestedResume{Step: path[1:], Data: data})
	}
	return &resumeTarget{Step: path[0], Index: index, Data: data}, nil
}

// errNotSuspended is Mastra's error for resuming a run that is not
// suspended.
var errNotSuspended = newError(mastraerror.IDWorkflowResumeNotSuspended, "This workflow run was not suspended")

// listPaths renders suspended paths as Mastra does: [a], [b, c].
func listPaths(paths [][]string) string {
	parts := make([]string, len(paths))
	for i, p := range paths {
		parts[i] = "[" + strings.Join(p, ", ") + "]"
	}
	return strings.Join(parts, ", ")
}

// suspendedIDs are the top-level ids of suspended paths, once each.
func suspendedIDs(paths [][]string) []string {
	var ids []string
	for _, p := range paths {
		if !slices.Contains(ids, p[0]) {
			ids = append(ids, p[0])
		}
	}
	return ids
}

func hasPath(paths [][]string, p []string) bool {
	for _, q := range paths {
		if len(q) < len(p) {
			continue
		}
		match := true
		for i := range p {
			if q[i] != p[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
