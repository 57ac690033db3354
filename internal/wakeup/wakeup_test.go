package wakeup

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestNotifyWakesWaitersOfItsKey(t *testing.T) {
	var h Hub
	var ready atomic.Bool
	done := make(chan error, 1)
	go func() {
		done <- h.Wait(context.Background(), "a", 0, func() (bool, error) { return ready.Load(), nil })
	}()
	time.Sleep(10 * time.Millisecond) // let it wait (the test passes either way)
	ready.Store(true)
	h.Notify("a")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(h.keys) != 0 {
		t.Errorf("keys left after the wait: %v (a waiter's entry leaks)", h.keys)
	}
}

func TestWaitEndsWithItsContext(t *testing.T) {
	var h Hub
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Wait(ctx, "a", 0, func() (bool, error) { return false, nil }) }()
	h.Notify("b") // another key: no wake-up that matters
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want context.Canceled", err)
	}
	if len(h.keys) != 0 {
		t.Errorf("keys left after a canceled wait: %v", h.keys)
	}
}

func TestNotifyAllAndPollWake(t *testing.T) {
	for _, c := range []struct {
		name string
		poll time.Duration
		wake func(h *Hub)
	}{
		{"NotifyAll", 0, func(h *Hub) { h.NotifyAll() }},
		{"poll", time.Millisecond, func(*Hub) {}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var h Hub
			var ready atomic.Bool
			done := make(chan error, 1)
			go func() {
				done <- h.Wait(context.Background(), "a", c.poll, func() (bool, error) { return ready.Load(), nil })
			}()
			time.Sleep(10 * time.Millisecond)
			ready.Store(true)
			c.wake(&h)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}
