package mcpserver

import (
	"net/http"
	"strings"
	"testing"
)

// Hosts and origins outside the allow-lists are refused 403 with a
// JSON-RPC error before anything else runs; the listed ones are served.
func TestAllowedHostsAndOrigins(t *testing.T) {
	cfg := whoamiConfig("hosts")
	cfg.HTTP.AllowedHosts = []string{"localhost", "127.0.0.1:1"}
	cfg.HTTP.AllowedOrigins = []string{"http://app.example/"}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	ts := serveHTTP(t, s.HTTPHandler())
	port := ts.URL[strings.LastIndex(ts.URL, ":"):]
	cases := []struct {
		name    string
		headers []string
		status  int
		message string
	}{
		{"listed name, any port", []string{"Host", "localhost" + port}, 200, ""},
		{"unlisted host", []string{"Host", "127.0.0.1" + port}, 403, "Invalid Host header: 127.0.0.1" + port},
		{"listed host, other port", []string{"Host", "127.0.0.1:2"}, 403, "Invalid Host header: 127.0.0.1:2"},
		{"rebinding name", []string{"Host", "evil.example" + port}, 403, "Invalid Host header: evil.example" + port},
		{"listed origin", []string{"Host", "localhost" + port, "Origin", "http://app.example"}, 200, ""},
		{"unlisted origin", []string{"Host", "localhost" + port, "Origin", "http://evil.example"}, 403, "Invalid Origin header: http://evil.example"},
	}
	for _, c := range cases {
		resp, body := post(t, ts.URL, "", c.headers...)
		if resp.StatusCode != c.status {
			t.Errorf("%s: %d %v", c.name, resp.StatusCode, body)
			continue
		}
		if c.status == 403 {
			e, _ := body["error"].(map[string]any)
			if body["jsonrpc"] != "2.0" || e["code"] != float64(-32000) || e["message"] != c.message {
				t.Errorf("%s: body %v", c.name, body)
			}
		}
	}
}

func TestHostAllowed(t *testing.T) {
	allowed := []string{"example.com", "api.example.com:8443", "[::1]", "10.0.0.1"}
	for host, want := range map[string]bool{
		"example.com":          true,
		"example.com:80":       true,
		"Example.COM:9":        true,
		"api.example.com:8443": true,
		"api.example.com":      false,
		"api.example.com:443":  false,
		"[::1]:3000":           true,
		"[::1]":                true,
		"10.0.0.1:1":           true,
		"10.0.0.2":             false,
		"":                     false,
		"example.com.evil":     false,
	} {
		if got := hostAllowed(allowed, host); got != want {
			t.Errorf("hostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
}

// Without lists nothing changes: the SDK's own localhost protection
// still refuses a foreign Host on a loopback address.
func TestNoAllowListsKeepsSDKProtection(t *testing.T) {
	s := whoamiServer(t, "open")
	ts := serveHTTP(t, s.HTTPHandler())
	if resp, _ := post(t, ts.URL, ""); resp.StatusCode != http.StatusOK {
		t.Errorf("plain request: %d", resp.StatusCode)
	}
	if resp, _ := post(t, ts.URL, "", "Host", "evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign host: %d", resp.StatusCode)
	}
}
