package observational

import (
	"context"
	"testing"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
)

// Buffering intervals halve near the threshold, as Mastra's
// shouldTriggerAsyncObservation's do.
func TestBufferingDue(t *testing.T) {
	b := buffering{tokens: 200, activation: 0.8, blockAfter: 1200}
	for _, c := range []struct {
		tokens, last int
		want         bool
	}{
		{399, 200, false}, {400, 200, true}, // intervals of 200
		{790, 700, false}, {900, 850, true}, // of 100 from 780 on
		{100, 0, false}, {200, 0, true},
	} {
		if got := b.due(c.tokens, c.last, 1000); got != c.want {
			t.Errorf("due(%d, last %d) = %v, want %v", c.tokens, c.last, got, c.want)
		}
	}
}

// Activation picks Mastra's chunk boundary.
func TestActivationCount(t *testing.T) {
	b := buffering{tokens: 200, activation: 0.8, blockAfter: 1200} // retention 200
	chunks := func(sizes ...int) []BufferedChunk {
		var out []BufferedChunk
		for _, s := range sizes {
			out = append(out, BufferedChunk{MessageTokens: s})
		}
		return out
	}
	for _, c := range []struct {
		name   string
		chunks []BufferedChunk
		tokens int
		want   int
	}{
		{"none", nil, 1000, 0},
		{"below the retention", chunks(100), 150, 0},
		{"all below the target", chunks(324, 310, 310), 1240, 3},
		{"the smallest prefix over the target", chunks(400, 500, 300), 1100, 2},
		{"over leaves too little: the prefix under", chunks(500, 500), 1100, 1},
	} {
		if got := b.activationCount(c.chunks, 1000, c.tokens, c.tokens >= b.blockAfter); got != c.want {
			t.Errorf("%s: %d chunks, want %d", c.name, got, c.want)
		}
	}
}

// A buffered reflection is not stored into a record a new generation
// replaced while it was made.
func TestBufferedReflectionOfAReplacedGeneration(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := New(Config{Model: mock.New(), Storage: st})
	if err != nil {
		t.Fatal(err)
	}
	rec := p.newRecord("thread-1", "user-1")
	rec.ActiveObservations = "* a"
	if err := p.save(ctx, rec); err != nil {
		t.Fatal(err)
	}
	key := p.key("thread-1", "user-1")
	stale := rec
	stale.ID = "an earlier generation"
	p.storeReflection(ctx, key, stale, bufferedReflection{"* stale", 1, 1, 1})
	if got, _, _ := p.load(ctx, "thread-1", "user-1"); got.BufferedReflection != "" {
		t.Errorf("stored a stale reflection: %q", got.BufferedReflection)
	}
	p.storeReflection(ctx, key, rec, bufferedReflection{"* fresh", 1, 1, 1})
	if got, _, _ := p.load(ctx, "thread-1", "user-1"); got.BufferedReflection != "* fresh" || got.ReflectedObservationLineCount != 1 {
		t.Errorf("buffered reflection %q, %d lines", got.BufferedReflection, got.ReflectedObservationLineCount)
	}
}
