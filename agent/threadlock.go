package agent

import (
	"context"
	"sync"
)

// threadLocks serialises runs on one memory thread within a process: a
// run takes its thread's lock before it reads the thread's history and
// gives it back when it ends, so that two runs on the thread see each
// other's messages in order. The zero value is ready to use.
type threadLocks struct {
	mu   sync.Mutex
	held map[string]*threadLock
}

type threadLock struct {
	token chan struct{} // holds one value while the thread is free
	users int           // holders and waiters, to drop the entry at 0
}

// lock waits until thread is free or ctx ends; unlock gives it back. The
// error is ctx's.
func (l *threadLocks) lock(ctx context.Context, thread string) (unlock func(), err error) {
	l.mu.Lock()
	if l.held == nil {
		l.held = map[string]*threadLock{}
	}
	tl := l.held[thread]
	if tl == nil {
		tl = &threadLock{token: make(chan struct{}, 1)}
		tl.token <- struct{}{}
		l.held[thread] = tl
	}
	tl.users++
	l.mu.Unlock()
	release := func() {
		l.mu.Lock()
		if tl.users--; tl.users == 0 {
			delete(l.held, thread)
		}
		l.mu.Unlock()
	}
	select {
	case <-tl.token:
		return func() { tl.token <- struct{}{}; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}
