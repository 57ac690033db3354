package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/gomastra/mastra/internal/loopback"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMain makes the default transport, which run's tool uses, refuse every
// host but loopback: no test may reach wttr.in.
func TestMain(m *testing.M) {
	http.DefaultTransport = loopback.Only(http.DefaultTransport)
	os.Exit(m.Run())
}

// wttr is a stand-in for wttr.in on 127.0.0.1 recording the decoded paths
// it was asked for.
type wttr struct {
	*httptest.Server
	mu    sync.Mutex
	paths []string
}

func newWttr(t *testing.T, h http.HandlerFunc) *wttr {
	t.Helper()
	s := &wttr{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *wttr) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// env returns an environment with WEATHER_BASE_URL set to base.
func env(base string) func(string) string {
	return func(k string) string {
		if k == "WEATHER_BASE_URL" {
			return base
		}
		return ""
	}
}

func serveFixture(t *testing.T) http.HandlerFunc {
	body, err := os.ReadFile("weather/testdata/san-francisco.j1.json")
	if err != nil {
		t.Fatal(err)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}
}

func TestRun(t *testing.T) {
	const sanFrancisco = `{
  "location": "San Francisco",
  "temperatureCelsius": 14,
  "conditions": "Partly cloudy"
}
`
	tests := []struct {
		name       string
		args       []string
		handler    func(t *testing.T) http.HandlerFunc
		wantCode   int
		wantStdout string   // exact, when set
		wantOutHas []string // substrings of stdout
		wantErrHas []string // substrings of stderr; stderr must be empty when nil
		wantPaths  []string
	}{
		{
			name:       "default location",
			handler:    serveFixture,
			wantCode:   0,
			wantStdout: sanFrancisco,
			wantPaths:  []string{"/San Francisco"},
		},
		{
			name:       "location from the arguments",
			args:       []string{"São", "Paulo"},
			handler:    serveFixture,
			wantCode:   0,
			wantOutHas: []string{`"location": "São Paulo"`, `"temperatureCelsius": 14`},
			wantPaths:  []string{"/São Paulo"},
		},
		{
			name:       "-input",
			args:       []string{"-input", `{"location":"San Francisco"}`},
			handler:    serveFixture,
			wantCode:   0,
			wantStdout: sanFrancisco,
			wantPaths:  []string{"/San Francisco"},
		},
		{
			name:     "validation error",
			args:     []string{"-input", `{"location": 5}`},
			handler:  serveFixture,
			wantCode: 1,
			wantOutHas: []string{
				"{\n  \"error\": true,\n  \"message\": \"Tool input validation failed for weather-tool. ",
				`"validationErrors": {`,
			},
		},
		{
			name:       "malformed -input",
			args:       []string{"-input", `{"location":`},
			handler:    serveFixture,
			wantCode:   1,
			wantErrHas: []string{"weather-tool: tools: arguments are not valid JSON"},
		},
		{
			name: "server error",
			args: []string{"Paris"},
			handler: func(*testing.T) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					http.Error(w, "Internal Server Error", http.StatusInternalServerError)
				}
			},
			wantCode:   1,
			wantErrHas: []string{`weather-tool: weather for "Paris": weather service answered 500 Internal Server Error`},
			wantPaths:  []string{"/Paris"},
		},
		{
			name: "malformed answer",
			handler: func(*testing.T) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"current_condition":`) }
			},
			wantCode:   1,
			wantErrHas: []string{"malformed weather response"},
			wantPaths:  []string{"/San Francisco"},
		},
		{
			name:       "-input and a location",
			args:       []string{"-input", `{"location":"Paris"}`, "Rome"},
			handler:    serveFixture,
			wantCode:   2,
			wantErrHas: []string{"either -input or a location", "usage: weather"},
		},
		{
			name:       "unknown flag",
			args:       []string{"-verbose"},
			handler:    serveFixture,
			wantCode:   2,
			wantErrHas: []string{"flag provided but not defined: -verbose", "usage: weather"},
		},
		{
			name:       "-help",
			args:       []string{"-help"},
			handler:    serveFixture,
			wantCode:   0,
			wantErrHas: []string{"usage: weather", "-schema", "WEATHER_BASE_URL"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newWttr(t, tt.handler(t))
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr, env(srv.URL))

			if code != tt.wantCode {
				t.Errorf("exit status = %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, &stdout, &stderr)
			}
			if tt.wantStdout != "" {
				if diff := cmp.Diff(tt.wantStdout, stdout.String()); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			}
			for _, s := range tt.wantOutHas {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout %q does not contain %q", &stdout, s)
				}
			}
			if tt.wantErrHas == nil && stderr.Len() > 0 {
				t.Errorf("stderr = %q, want nothing", &stderr)
			}
			for _, s := range tt.wantErrHas {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr %q does not contain %q", &stderr, s)
				}
			}
			if stdout.Len() > 0 && !json.Valid(stdout.Bytes()) {
				t.Errorf("stdout is not JSON: %s", &stdout)
			}
			if diff := cmp.Diff(tt.wantPaths, srv.requested()); diff != "" {
				t.Errorf("requested paths (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunSchema(t *testing.T) {
	var stdout, stderr bytes.Buffer
	// No WEATHER_BASE_URL: -schema must not touch the network.
	if code := run([]string{"-schema"}, &stdout, &stderr, env("")); code != 0 {
		t.Fatalf("exit status = %d, stderr: %s", code, &stderr)
	}
	var got map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, &stdout)
	}
	want := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"location": map[string]any{"type": "string", "description": "City name, e.g. San Francisco"},
		},
		"required":             []any{"location"},
		"additionalProperties": false,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(stdout.String(), "{\n  \"type\": \"object\",") || !strings.HasSuffix(stdout.String(), "}\n") {
		t.Errorf("schema is not indented JSON ending in a newline:\n%s", &stdout)
	}
}
