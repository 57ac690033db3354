package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gomastra/mastra/internal/wakeup"
)

// eventChannel is the channel an append NOTIFYs, with the run id as
// payload.
const eventChannel = "mastra_run_events"

// listener holds a Store's one listening connection, which turns
// notifications of eventChannel into wakeups of the Store's followers.
// It starts with the first WaitEvents and stops with Close.
type listener struct {
	mu      sync.Mutex
	started bool
	closed  bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// start starts listening, on a connection of its own made as the pool's
// are, unless it has started or the Store is closed.
func (l *listener) start(cfg *pgx.ConnConfig, hub *wakeup.Hub) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started || l.closed {
		return
	}
	l.started = true
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel, l.done = cancel, make(chan struct{})
	go func() {
		defer close(l.done)
		listenLoop(ctx, cfg, hub)
	}()
}

// stop stops listening and waits for the connection to close.
func (l *listener) stop() {
	l.mu.Lock()
	l.closed = true
	cancel, done := l.cancel, l.done
	l.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// listenLoop listens until ctx ends, connecting again (after a pause
// that grows to a second) whenever the connection fails.
func listenLoop(ctx context.Context, cfg *pgx.ConnConfig, hub *wakeup.Hub) {
	pause := 10 * time.Millisecond
	for ctx.Err() == nil {
		if listenOnce(ctx, cfg, hub) {
			pause = 10 * time.Millisecond
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Second)
	}
}

// listenOnce connects, LISTENs and wakes the followers of each run
// notified, until the connection fails or ctx ends. Once it listens it
// wakes every follower, so that each checks again for what was appended
// while nothing listened. It reports whether it got to listen.
func listenOnce(ctx context.Context, cfg *pgx.ConnConfig, hub *wakeup.Hub) bool {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return false
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `LISTEN `+eventChannel); err != nil {
		return false
	}
	hub.NotifyAll()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true
		}
		hub.Notify(n.Payload)
	}
}
