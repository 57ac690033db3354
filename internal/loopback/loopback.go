// Package loopback keeps tests on this machine: Only wraps an HTTP
// transport so that any request to a host that is not a loopback IP
// address fails before a connection is attempted.
package loopback

import (
	"fmt"
	"net"
	"net/http"
)

// Only returns next restricted to loopback hosts (127.0.0.0/8, ::1).
// Names, even "localhost", are refused: a test uses the httptest server's
// address.
func Only(next http.RoundTripper) http.RoundTripper { return only{next} }

type only struct{ next http.RoundTripper }

func (l only) RoundTrip(r *http.Request) (*http.Response, error) {
	if ip := net.ParseIP(r.URL.Hostname()); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("test guard: refusing %s (tests must not reach the internet)", r.URL.Host)
	}
	return l.next.RoundTrip(r)
}
