package google

import (
	"testing"

	"github.com/gomastra/mastra/internal/providertest"
)

// TestAPIErrorsSayWhetherTheyAreTransient: a rate limit or server error
// may pass if the call is made again, a bad request may not.
func TestAPIErrorsSayWhetherTheyAreTransient(t *testing.T) {
	providertest.CheckTransientStatuses(t, func(status int) error { return &APIError{StatusCode: status} })
}
