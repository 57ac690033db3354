package anthropic

import (
	"testing"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
)

// TestAPIErrorsSayWhetherTheyAreTransient: a rate limit or server error
// may pass if the call is made again, a bad request may not.
func TestAPIErrorsSayWhetherTheyAreTransient(t *testing.T) {
	providertest.CheckTransientStatuses(t, func(status int) error { return &APIError{StatusCode: status, Type: "error"} })
}

// TestStreamErrorEventsAreTransientByType: an error event in a stream
// (status 200) is transient when Anthropic's type says overload, rate
// limit or a server error.
func TestStreamErrorEventsAreTransientByType(t *testing.T) {
	for typ, want := range map[string]bool{"overloaded_error": true, "rate_limit_error": true, "api_error": true, "invalid_request_error": false, "": false} {
		if got := model.IsTransient(&APIError{StatusCode: 200, Type: typ}); got != want {
			t.Errorf("stream error %q: transient %v, want %v", typ, got, want)
		}
	}
}
