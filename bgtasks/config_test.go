package bgtasks

import (
	"testing"
	"time"
)

func TestRetryDelays(t *testing.T) {
	r := Config{}.withDefaults().DefaultRetries
	var got []time.Duration
	for n := 1; n <= 7; n++ {
		got = append(got, r.retryDelay(n))
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("default delays %v, want %v", got, want)
			break
		}
	}
	none := Config{DefaultRetries: RetryConfig{RetryDelay: -1}}.withDefaults().DefaultRetries
	if d := none.retryDelay(3); d != 0 {
		t.Errorf("negative RetryDelay: delay %v, want none", d)
	}
}
