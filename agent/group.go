package agent

import (
	"context"
	"sync"
)

// Group runs functions side by side for one reader, which receives
// what they send: the calls of one step, run by the driver. Each
// function's sends arrive in the order it sent them.
type Group interface {
	// Go runs fn once fewer than the group's limit of functions run
	// (functions start in the order Go was called); a function not yet
	// started when the group's context ends does not start. send
	// reports false once the reader has closed the group.
	Go(fn func(send func(msg any) bool))
	// Next returns the next message. It returns false when every
	// function has returned and every message has been read, or, when
	// watch is set, as soon as the group's context has ended.
	Next(watch bool) (msg any, ok bool)
	// Close tells the functions still running that nothing more is
	// read. The reader calls it once it has stopped reading.
	Close()
}

// newGroup returns a group of the run's engine, or one of goroutines.
func (r *run) newGroup(limit int) Group {
	if re, ok := r.engine.(ReplayingEngine); ok {
		return re.NewGroup(r.ctx, limit)
	}
	return newGoGroup(r.ctx, limit)
}

// goGroup is a Group of goroutines.
type goGroup struct {
	ctx context.Context
	sem chan struct{} // nil: no limit
	// last is closed when the function Go started last has returned:
	// with a limit of one, each waits for the one before it, so they run
	// in order.
	last   chan struct{}
	limit  int
	msgs   chan any
	closed chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
	// started is closed by the first Next: goroutines are waited for
	// (and msgs closed) only once every Go has been called.
	started sync.Once
}

func newGoGroup(ctx context.Context, limit int) *goGroup {
	g := &goGroup{ctx: ctx, msgs: make(chan any, 16), closed: make(chan struct{}), limit: limit}
	if limit > 1 {
		g.sem = make(chan struct{}, limit)
	}
	return g
}

func (g *goGroup) Go(fn func(send func(any) bool)) {
	if g.limit == 1 {
		prev, done := g.last, make(chan struct{})
		g.last = done
		g.wg.Go(func() {
			defer close(done)
			if prev != nil {
				select {
				case <-prev:
				case <-g.ctx.Done():
					return
				}
			}
			if g.ctx.Err() == nil {
				fn(g.send)
			}
		})
		return
	}
	g.wg.Go(func() {
		if g.sem != nil {
			select {
			case g.sem <- struct{}{}:
			case <-g.ctx.Done():
				return
			}
			defer func() { <-g.sem }()
		}
		if g.ctx.Err() != nil {
			return
		}
		fn(g.send)
	})
}

func (g *goGroup) send(msg any) bool {
	select {
	case g.msgs <- msg:
		return true
	case <-g.closed:
		return false
	}
}

func (g *goGroup) Next(watch bool) (any, bool) {
	g.started.Do(func() {
		go func() {
			g.wg.Wait()
			close(g.msgs)
		}()
	})
	var stop <-chan struct{}
	if watch {
		stop = g.ctx.Done()
	}
	select {
	case msg, ok := <-g.msgs:
		return msg, ok
	case <-stop:
		return nil, false
	}
}

func (g *goGroup) Close() { g.once.Do(func() { close(g.closed) }) }
