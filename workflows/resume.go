package workflows

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

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
		if err := r.prepareResume(ctx, opts); err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		r.execute(ctx, yield)
	}
}

// prepareResume checks that the step is suspended, claims the run and
// arms the resume.
func (r *Run) prepareResume(ctx context.Context, opts ResumeOptions) error {
	r.mu.Lock()
	status := r.state.Status
	paths := r.state.Suspended
	r.mu.Unlock()
	var target *resumeTarget
	switch status {
	case StatusSuspended:
		path := opts.Step
		if len(path) == 0 {
			if len(paths) == 0 {
				return fmt.Errorf("workflows: %s: run %s has no suspended step", r.wf.cfg.ID, r.id)
			}
			path = paths[0]
		}
		if !hasPath(paths, path) {
			return fmt.Errorf("workflows: %s: run %s: step %v is not suspended (suspended: %v)", r.wf.cfg.ID, r.id, path, paths)
		}
		data, err := marshal(opts.Data)
		if err != nil {
			return fmt.Errorf("workflows: resume data: %w", err)
		}
		index := -1
		if opts.ForEachIndex != nil {
			index = *opts.ForEachIndex
		}
		// A nested workflow's step is resumed through its outer step,
		// which passes the inner path on.
		key := path[0]
		if len(path) > 1 {
			data, _ = json.Marshal(nestedResume{Step: path[1:], Data: data})
		}
		target = &resumeTarget{path: []string{key}, index: index, data: data}
	case StatusRunning:
		if len(opts.Step) > 0 {
			return fmt.Errorf("workflows: %s: run %s is running, not suspended", r.wf.cfg.ID, r.id)
		}
	default:
		return fmt.Errorf("workflows: %s: run %s has ended (%s)", r.wf.cfg.ID, r.id, status)
	}
	if err := r.claim(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	r.resume, r.state.Status, r.state.Suspended = target, StatusRunning, nil
	r.mu.Unlock()
	return nil
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
