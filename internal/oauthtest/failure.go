package oauthtest

import (
	"cmp"
	"io"
	"net/http"
)

// Failure is how an endpoint misbehaves (FailToken, FailRegistration).
type Failure struct {
	// Status is the HTTP status (default 400).
	Status int
	// Code is the OAuth error code in the JSON body (default
	// "server_error" for a 5xx status, else "invalid_request").
	Code string
	// Description is the error_description.
	Description string
	// Malformed answers Status (default 200) with a body that is not
	// JSON, instead of an OAuth error.
	Malformed bool
	// Hang answers nothing until the client gives up (its request
	// context ends) or the server closes.
	Hang bool
}

// FailToken makes every following /token request fail as f says; nil
// makes the endpoint work again.
func (s *Server) FailToken(f *Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenErr = f
}

// FailRegistration makes every following /register request fail as f
// says; nil makes the endpoint work again.
func (s *Server) FailRegistration(f *Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.regErr = f
}

// failing answers the request with *f and reports true when f is set.
func failing(w http.ResponseWriter, r *http.Request, f *Failure) bool {
	switch {
	case f == nil:
		return false
	case f.Hang:
		// The server notices a client that went away (and cancels the
		// request's context) only once the body has been read.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	case f.Malformed:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(cmp.Or(f.Status, http.StatusOK))
		_, _ = w.Write([]byte(`{"access_token": <html>`))
	default:
		status := cmp.Or(f.Status, http.StatusBadRequest)
		code := f.Code
		if code == "" {
			code = "invalid_request"
			if status >= 500 {
				code = "server_error"
			}
		}
		writeOAuthError(w, status, code, f.Description)
	}
	return true
}
