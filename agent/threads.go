package agent

import (
	"context"
	"errors"

	"github.com/gomastra/mastra/storage"
)

// ErrThreadOfAnotherResource is CheckThreadResource's answer for a
// memory thread that belongs to another resource.
var ErrThreadOfAnotherResource = errors.New("agent: the thread belongs to a different resource")

// CheckThreadResource tells whether resource may use the memory thread
// threadID: nil when the thread is resource's, has no resource, or does
// not exist yet (the caller's to create, and nil too when the agent has
// no storage); ErrThreadOfAnotherResource when it is another resource's.
// Servers call it before a run on behalf of an authenticated resource.
func (a *Agent) CheckThreadResource(ctx context.Context, threadID, resource string) error {
	st := a.cfg.Storage
	if st == nil {
		return nil
	}
	th, err := st.GetThread(ctx, threadID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if th.ResourceID != "" && th.ResourceID != resource {
		return ErrThreadOfAnotherResource
	}
	return nil
}
