package temporal

import (
	"context"

	"go.temporal.io/sdk/workflow"
)

// group is an agent.Group of workflow coroutines: functions start in
// order, at most limit at a time, and their messages queue for the
// reader, which waits with workflow.Await (deterministic, unlike a
// channel of the Go runtime).
type group struct {
	e       *engine
	ctx     context.Context
	limit   int
	waiting []func(send func(any) bool)
	running int
	msgs    []any
	closed  bool
}

func (g *group) Go(fn func(send func(any) bool)) {
	g.waiting = append(g.waiting, fn)
	g.pump()
}

// pump starts the waiting functions the limit allows.
func (g *group) pump() {
	for len(g.waiting) > 0 && (g.limit < 1 || g.running < g.limit) {
		fn := g.waiting[0]
		g.waiting = g.waiting[1:]
		g.running++
		workflow.Go(g.e.cur, func(ctx workflow.Context) {
			g.e.cur = ctx
			defer func() {
				g.running--
				g.pump()
			}()
			if g.ctx.Err() == nil {
				fn(g.send)
			}
		})
	}
}

func (g *group) send(msg any) bool {
	if g.closed {
		return false
	}
	g.msgs = append(g.msgs, msg)
	return true
}

func (g *group) Next(watch bool) (any, bool) {
	stopped := func() bool { return watch && g.ctx.Err() != nil }
	done := func() bool { return g.running == 0 && len(g.waiting) == 0 }
	err := g.e.block(func(ctx workflow.Context) error {
		return workflow.Await(ctx, func() bool { return len(g.msgs) > 0 || done() || stopped() })
	})
	if err != nil || stopped() || len(g.msgs) == 0 {
		return nil, false
	}
	msg := g.msgs[0]
	g.msgs = g.msgs[1:]
	return msg, true
}

func (g *group) Close() { g.closed = true }
