package agent

import (
	"context"
	"iter"
	"sync"

	"github.com/gomastra/mastra/stream"
)

// chunkBuffer keeps a detached stream's chunks for its handle's readers:
// each reads them all, from the first, and waits for more until the
// stream has ended.
type chunkBuffer struct {
	mu     sync.Mutex
	chunks []stream.Chunk
	ended  bool
	err    error
	wake   chan struct{} // closed on the next add or end; nil when no one waits
}

func (b *chunkBuffer) add(c stream.Chunk) {
	b.mu.Lock()
	if b.chunks == nil {
		b.chunks = make([]stream.Chunk, 0, 32)
	}
	b.chunks = append(b.chunks, c)
	b.signal()
	b.mu.Unlock()
}

// end ends the stream, with the error it ended on (or nil).
func (b *chunkBuffer) end(err error) {
	b.mu.Lock()
	b.ended, b.err = true, err
	b.signal()
	b.mu.Unlock()
}

// signal wakes the waiting readers (b.mu held).
func (b *chunkBuffer) signal() {
	if b.wake != nil {
		close(b.wake)
		b.wake = nil
	}
}

// next returns the chunks from index from on, whether the stream has
// ended, when there is nothing to read yet the channel to wait on, and
// the error the stream ended on.
func (b *chunkBuffer) next(from int) (chunks []stream.Chunk, ended bool, wait <-chan struct{}, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if from < len(b.chunks) {
		return b.chunks[from:len(b.chunks):len(b.chunks)], false, nil, nil
	}
	if b.ended {
		return nil, true, nil, b.err
	}
	if b.wake == nil {
		b.wake = make(chan struct{})
	}
	return nil, false, b.wake, nil
}

func (b *chunkBuffer) read(ctx context.Context) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		from := 0
		for {
			chunks, ended, wait, err := b.next(from)
			for _, c := range chunks {
				if !yield(c, nil) {
					return
				}
			}
			from += len(chunks)
			switch {
			case ended:
				if err != nil {
					yield(stream.Chunk{}, err)
				}
				return
			case wait != nil:
				select {
				case <-wait:
				case <-ctx.Done():
					yield(stream.Chunk{}, ctx.Err())
					return
				}
			}
		}
	}
}
