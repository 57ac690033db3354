package model

import (
	"errors"
	"net/http"
)

// TransientError is an error of a model call that may not happen again
// if the same call is made later: the provider's rate limit, overload or
// server error. Provider errors implement it (the OpenAI, Anthropic and
// Google models' API errors); an engine that retries model calls
// retries those and no others.
type TransientError interface {
	error
	Transient() bool
}

// IsTransient reports whether err, or an error it wraps, is a
// TransientError that says it is transient.
func IsTransient(err error) bool {
	var t TransientError
	return errors.As(err, &t) && t.Transient()
}

// TransientStatus reports whether an HTTP status of a provider's answer
// is a transient failure: 408 (request timeout), 409 (conflict, which
// providers answer to a lock they will release), 429 (rate limit) or
// any 5xx.
func TransientStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return status >= 500 && status <= 599
}
