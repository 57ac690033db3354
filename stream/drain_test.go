package stream

import (
	"errors"
	"testing"
)

// TestDrainAfterStopDrainsWhatTheReaderLeft: a reader that stops after
// two chunks gets two; the sequence is drained to its end, and left is
// called once.
func TestDrainAfterStopDrainsWhatTheReaderLeft(t *testing.T) {
	produced, lefts := 0, 0
	seq := func(yield func(Chunk, error) bool) {
		for range 5 {
			produced++
			if !yield(Chunk{Type: TypeTextDelta}, nil) {
				return
			}
		}
		yield(Chunk{}, errors.New("the end"))
	}
	read := 0
	for range DrainAfterStop(seq, func() { lefts++ }) {
		if read++; read == 2 {
			break
		}
	}
	if read != 2 || produced != 5 || lefts != 1 {
		t.Fatalf("read %d, produced %d, left called %d times; want 2, 5, 1", read, produced, lefts)
	}
	read = 0
	for range DrainAfterStop(seq, nil) {
		read++
	}
	if read != 6 {
		t.Fatalf("a reader that reads all: %d items, want 6", read)
	}
}
