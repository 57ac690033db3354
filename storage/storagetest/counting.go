package storagetest

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/gomastra/mastra/storage"
)

// Counting is a store that counts the bytes handed to it for saving: run
// snapshots (SaveRun), run changes (AppendRun) and messages (SaveMessages:
// content and metadata). Benchmarks use it to show what a save costs.
type Counting struct {
	storage.Store
	bytes atomic.Int64
}

// Bytes is how many bytes have been handed to the store for saving.
func (c *Counting) Bytes() int64 { return c.bytes.Load() }

func (c *Counting) SaveRun(ctx context.Context, r storage.Run) (int64, error) {
	c.bytes.Add(int64(len(r.Snapshot)))
	return c.Store.SaveRun(ctx, r)
}

func (c *Counting) AppendRun(ctx context.Context, runID string, version int64, status string, delta json.RawMessage) (int64, error) {
	c.bytes.Add(int64(len(delta)))
	return c.Store.AppendRun(ctx, runID, version, status, delta)
}

func (c *Counting) SaveMessages(ctx context.Context, msgs []storage.Message) error {
	for _, m := range msgs {
		c.bytes.Add(int64(len(m.Content) + len(m.Metadata)))
	}
	return c.Store.SaveMessages(ctx, msgs)
}
