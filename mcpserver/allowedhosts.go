package mcpserver

import (
	"net"
	"net/http"
	"slices"
	"strings"
)

// allowHosts refuses, 403 with a JSON-RPC error as the TypeScript SDK's
// DNS-rebinding protection answers, a request whose Host is not in
// AllowedHosts or whose Origin (when sent) is not in AllowedOrigins.
// Empty lists allow everything.
func (o HTTPOptions) allowHosts(next http.Handler) http.Handler {
	if len(o.AllowedHosts) == 0 && len(o.AllowedOrigins) == 0 {
		return next
	}
	hosts := make([]string, len(o.AllowedHosts))
	for i, h := range o.AllowedHosts {
		hosts[i] = strings.ToLower(h)
	}
	origins := make([]string, len(o.AllowedOrigins))
	for i, h := range o.AllowedOrigins {
		origins[i] = strings.ToLower(strings.TrimRight(h, "/"))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(hosts) > 0 && !hostAllowed(hosts, r.Host) {
			refuseHost(w, "Invalid Host header: "+r.Host)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && len(origins) > 0 && !slices.Contains(origins, strings.ToLower(origin)) {
			refuseHost(w, "Invalid Origin header: "+origin)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed tells whether host (a Host header, "name[:port]") is
// allowed: an entry with a port must match it exactly, an entry without
// one matches the name on any port.
func hostAllowed(allowed []string, host string) bool {
	host = strings.ToLower(host)
	if host == "" {
		return false
	}
	if slices.Contains(allowed, host) {
		return true
	}
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
		if strings.Contains(h, ":") {
			name = "[" + h + "]"
		}
	}
	return slices.Contains(allowed, name) || slices.Contains(allowed, strings.Trim(name, "[]"))
}

// refuseHost answers 403 with a JSON-RPC error (code -32000, id null).
func refuseHost(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusForbidden, map[string]any{
		"jsonrpc": "2.0",
		"error":   map[string]any{"code": -32000, "message": msg},
		"id":      nil,
	})
}
