// Package wakeup lets goroutines wait for news of a key (a run id)
// without polling: a writer calls Notify after its write is visible,
// and every waiter of the key checks again. The storage backends use it
// to wake the followers of a run's event log.
package wakeup

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Hub broadcasts news of keys to the goroutines waiting on them. The
// zero Hub is ready to use; a Hub is safe for concurrent use.
type Hub struct {
	mu    sync.Mutex
	keys  map[string]*waiters
	epoch chan struct{} // closed by NotifyAll; nil until a waiter needs it
	// watching counts the waiters registered, so that a Notify with none
	// takes no lock. A waiter registers before it checks for news, and a
	// notifier makes its news visible before it loads the count: either
	// the notifier sees the waiter or the waiter sees the news.
	watching atomic.Int64
}

type waiters struct {
	ch chan struct{} // closed by the key's next Notify
	n  int           // waiters holding ch
}

// Notify wakes the goroutines waiting on key; the news it announces must
// be visible to them before it is called. It costs one atomic load when
// none waits on any key.
func (h *Hub) Notify(key string) {
	if h.watching.Load() == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if w := h.keys[key]; w != nil {
		close(w.ch)
		w.ch = make(chan struct{})
	}
}

// NotifyAll wakes every waiting goroutine: news may have been missed
// (a listening connection was lost and is back).
func (h *Hub) NotifyAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.epoch != nil {
		close(h.epoch)
		h.epoch = nil
	}
}

// watch returns channels closed at key's next Notify and at the next
// NotifyAll, and the function that releases them.
func (h *Hub) watch(key string) (news, all <-chan struct{}, release func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.keys == nil {
		h.keys = map[string]*waiters{}
	}
	w := h.keys[key]
	if w == nil {
		w = &waiters{ch: make(chan struct{})}
		h.keys[key] = w
	}
	w.n++
	h.watching.Add(1)
	if h.epoch == nil {
		h.epoch = make(chan struct{})
	}
	return w.ch, h.epoch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.watching.Add(-1)
		if w.n--; w.n == 0 && h.keys[key] == w {
			delete(h.keys, key)
		}
	}
}

// Wait returns nil as soon as ready reports true, or ready's error, or
// ctx's error when ctx ends first. It calls ready once, then again after
// each Notify of key, each NotifyAll, and, when poll > 0, after poll
// without news (a safety net for news that comes from elsewhere). A
// Notify after a write that makes ready true is never missed: Wait
// starts watching before it calls ready.
func (h *Hub) Wait(ctx context.Context, key string, poll time.Duration, ready func() (bool, error)) error {
	for {
		news, all, release := h.watch(key)
		ok, err := ready()
		if err != nil || ok {
			release()
			return err
		}
		err = sleep(ctx, news, all, poll)
		release()
		if err != nil {
			return err
		}
	}
}

// sleep returns when news or all is closed, after poll (> 0), or with
// ctx's error when ctx ends.
func sleep(ctx context.Context, news, all <-chan struct{}, poll time.Duration) error {
	var tick <-chan time.Time
	if poll > 0 {
		t := time.NewTimer(poll)
		defer t.Stop()
		tick = t.C
	}
	select {
	case <-news:
	case <-all:
	case <-tick:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}
