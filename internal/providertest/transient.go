package providertest

import (
	"testing"

	"github.com/gomastra/mastra/model"
)

// CheckTransientStatuses checks that the API error newErr makes for an
// HTTP status says it is transient (model.IsTransient) for a rate limit
// or a server error, and not for a bad request, an authentication
// failure or a missing model.
func CheckTransientStatuses(t *testing.T, newErr func(status int) error) {
	t.Helper()
	for status, want := range map[int]bool{429: true, 500: true, 503: true, 400: false, 401: false, 404: false} {
		if got := model.IsTransient(newErr(status)); got != want {
			t.Errorf("HTTP %d: transient %v, want %v", status, got, want)
		}
	}
}
