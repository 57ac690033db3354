package weather_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gomastra/mastra/internal/loopback"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/tools"
)

// TestMain makes the default transport refuse every host but loopback, so
// that no test (nor the Example) can reach wttr.in or anything else on the
// internet, even by mistake.
func TestMain(m *testing.M) {
	http.DefaultTransport = loopback.Only(http.DefaultTransport)
	os.Exit(m.Run())
}

func fixture(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/san-francisco.j1.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// server is an httptest server on 127.0.0.1 recording the requests it got.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
}

func (s *server) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...)
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, r.Clone(context.Background()))
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// serveJSON answers every request with body as JSON.
func serveJSON(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}
}

func execute(t *testing.T, ctx context.Context, tool *tools.Tool, args string) (*tools.Result, error) {
	t.Helper()
	return tool.Execute(ctx, json.RawMessage(args), &tools.Invocation{ToolCallID: "call-1"})
}

// call executes tool and returns its output, failing the test on anything
// else.
func call(t *testing.T, ctx context.Context, tool *tools.Tool, args string) weather.Output {
	t.Helper()
	res, err := execute(t, ctx, tool, args)
	return decoded[weather.Output](t, res, err)
}

// output decodes a successful weather result's JSON.
func output(t *testing.T, res *tools.Result, err error) weather.Output {
	t.Helper()
	return decoded[weather.Output](t, res, err)
}

// decoded decodes a successful result's JSON into a T, failing the test on
// a tool error or a validation error.
func decoded[T any](t *testing.T, res *tools.Result, err error) T {
	t.Helper()
	if err != nil {
		t.Fatalf("Execute: unexpected tool error: %v", err)
	}
	if ve := res.ValidationError(); ve != nil {
		t.Fatalf("Execute: unexpected validation error: %s", ve.Message)
	}
	b, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("result JSON %s: %v", b, err)
	}
	return out
}

func TestExecuteFixture(t *testing.T) {
	srv := newServer(t, serveJSON(fixture(t)))
	tool := weather.NewWeatherTool(srv.URL, srv.Client())

	res, err := execute(t, context.Background(), tool, `{"location":"San Francisco"}`)
	got := output(t, res, err)
	want := weather.Output{Location: "San Francisco", TemperatureCelsius: 14, Conditions: "Partly cloudy"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	b, _ := res.JSON()
	if want := `{"location":"San Francisco","temperatureCelsius":14,"conditions":"Partly cloudy"}`; string(b) != want {
		t.Errorf("result JSON = %s, want %s", b, want)
	}

	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("server got %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodGet || r.RequestURI != "/San%20Francisco?format=j1" {
		t.Errorf("request = %s %s, want GET /San%%20Francisco?format=j1", r.Method, r.RequestURI)
	}
	if got := r.Header.Get("Accept"); got != "application/json" {
		t.Errorf("Accept = %q, want application/json", got)
	}
}

func TestExecuteEscapesLocation(t *testing.T) {
	tests := []struct {
		location string
		wantURI  string
	}{
		{"São Paulo", "/S%C3%A3o%20Paulo?format=j1"},
		{"Paris", "/Paris?format=j1"},
		// Characters that would change the URL's meaning stay in the path
		// segment.
		{"a/b?format=png#x", "/a%2Fb%3Fformat=png%23x?format=j1"},
		{"~Eiffel Tower", "/~Eiffel%20Tower?format=j1"},
		{"東京", "/%E6%9D%B1%E4%BA%AC?format=j1"},
	}
	for _, tt := range tests {
		t.Run(tt.location, func(t *testing.T) {
			srv := newServer(t, serveJSON(fixture(t)))
			tool := weather.NewWeatherTool(srv.URL, srv.Client())
			args, _ := json.Marshal(weather.Input{Location: tt.location})

			got := call(t, context.Background(), tool, string(args))
			if got.Location != tt.location {
				t.Errorf("output location = %q, want %q (as given)", got.Location, tt.location)
			}
			reqs := srv.requests()
			if len(reqs) != 1 {
				t.Fatalf("server got %d requests, want 1", len(reqs))
			}
			if reqs[0].RequestURI != tt.wantURI {
				t.Errorf("request URI = %s, want %s", reqs[0].RequestURI, tt.wantURI)
			}
			if reqs[0].URL.Path != "/"+tt.location {
				t.Errorf("decoded path = %q, want %q", reqs[0].URL.Path, "/"+tt.location)
			}
		})
	}
}

func TestExecuteBaseURL(t *testing.T) {
	for _, suffix := range []string{"/proxy", "/proxy/", "/proxy//"} {
		t.Run(suffix, func(t *testing.T) {
			srv := newServer(t, serveJSON(fixture(t)))
			tool := weather.NewWeatherTool(srv.URL+suffix, srv.Client())
			call(t, context.Background(), tool, `{"location":"Paris"}`)
			if got := srv.requests()[0].RequestURI; got != "/proxy/Paris?format=j1" {
				t.Errorf("request URI = %s, want /proxy/Paris?format=j1", got)
			}
		})
	}
}

// TestExecuteDefaultClient covers NewWeatherTool(baseURL, nil).
func TestExecuteDefaultClient(t *testing.T) {
	srv := newServer(t, serveJSON(fixture(t)))
	got := call(t, context.Background(), weather.NewWeatherTool(srv.URL, nil), `{"location":"San Francisco"}`)
	if got.TemperatureCelsius != 14 {
		t.Errorf("temperatureCelsius = %v, want 14", got.TemperatureCelsius)
	}
}

func TestExecuteTemperatures(t *testing.T) {
	for _, tt := range []struct {
		tempC string
		want  float64
	}{
		{"14", 14}, {"-7", -7}, {"0", 0}, {"21.5", 21.5}, {" 3 ", 3},
	} {
		t.Run(tt.tempC, func(t *testing.T) {
			body := fmt.Sprintf(`{"current_condition":[{"temp_C":%q,"weatherDesc":[{"value":"Light snow"}]}]}`, tt.tempC)
			srv := newServer(t, serveJSON([]byte(body)))
			got := call(t, context.Background(), weather.NewWeatherTool(srv.URL, srv.Client()), `{"location":"Oslo"}`)
			want := weather.Output{Location: "Oslo", TemperatureCelsius: tt.want, Conditions: "Light snow"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExecuteToolErrors(t *testing.T) {
	status := func(code int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { http.Error(w, body, code) }
	}
	tests := []struct {
		name     string
		handler  http.HandlerFunc
		location string
		// check inspects the error; wantMsg must be in its message.
		check   func(error) bool
		wantMsg string
		noCall  bool
	}{
		{
			name:    "500",
			handler: status(http.StatusInternalServerError, "Internal Server Error"),
			check: func(err error) bool {
				var se *weather.StatusError
				return errors.As(err, &se) && se.StatusCode == 500 && se.Body == "Internal Server Error"
			},
			wantMsg: `weather for "San Francisco": weather service answered 500 Internal Server Error: Internal Server Error`,
		},
		{
			name:    "404 unknown location",
			handler: status(http.StatusNotFound, "Unknown location; please try ~San Francisco"),
			check: func(err error) bool {
				var se *weather.StatusError
				return errors.As(err, &se) && se.StatusCode == 404
			},
			wantMsg: "404 Not Found: Unknown location",
		},
		{
			name:    "malformed JSON",
			handler: serveJSON([]byte(`{"current_condition":[{"temp_C":"14",`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: "malformed weather response: unexpected EOF",
		},
		{
			name:    "HTML instead of JSON",
			handler: func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html><body>Sorry</body></html>") },
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: "malformed weather response: invalid character '<'",
		},
		{
			name:    "no current_condition",
			handler: serveJSON([]byte(`{"current_condition":[],"weather":[]}`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: "no current_condition",
		},
		{
			name:    "temp_C not a number",
			handler: serveJSON([]byte(`{"current_condition":[{"temp_C":"n/a","weatherDesc":[{"value":"Sunny"}]}]}`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: `temp_C "n/a" is not a number`,
		},
		{
			name:    "temp_C NaN",
			handler: serveJSON([]byte(`{"current_condition":[{"temp_C":"NaN","weatherDesc":[{"value":"Sunny"}]}]}`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: `temp_C "NaN" is not a number`,
		},
		{
			name:    "temp_C missing",
			handler: serveJSON([]byte(`{"current_condition":[{"weatherDesc":[{"value":"Sunny"}]}]}`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: `temp_C "" is not a number`,
		},
		{
			name:    "no weatherDesc",
			handler: serveJSON([]byte(`{"current_condition":[{"temp_C":"14"}]}`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: "no weatherDesc",
		},
		{
			name:     "empty location",
			handler:  serveJSON(nil),
			location: "  ",
			check:    func(err error) bool { return err != nil },
			wantMsg:  "location is empty",
			noCall:   true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.handler)
			tool := weather.NewWeatherTool(srv.URL, srv.Client())
			loc := tt.location
			if loc == "" {
				loc = "San Francisco"
			}
			args, _ := json.Marshal(weather.Input{Location: loc})
			res, err := execute(t, context.Background(), tool, string(args))
			if err == nil {
				b, _ := res.JSON()
				t.Fatalf("Execute = %s, want a tool error", b)
			}
			if res != nil {
				t.Errorf("Execute returned a result with its error: %+v", res)
			}
			if !tt.check(err) {
				t.Errorf("error %q (%T) fails the check", err, err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not contain %q", err, tt.wantMsg)
			}
			if n := len(srv.requests()); tt.noCall && n != 0 {
				t.Errorf("server got %d requests, want none", n)
			}
		})
	}
}

// blockingServer answers no request: its handler waits until the request's
// context is done (the client went away) and reports that on done.
func blockingServer(t *testing.T) (srv *server, started <-chan struct{}, done <-chan error) {
	t.Helper()
	startedc := make(chan struct{}, 1)
	donec := make(chan error, 1)
	release := make(chan struct{})
	srv = newServer(t, func(w http.ResponseWriter, r *http.Request) {
		startedc <- struct{}{}
		select {
		case <-r.Context().Done():
			donec <- r.Context().Err()
		case <-release:
		}
	})
	// Cleanups run last-in first-out: release the handler, then close.
	t.Cleanup(func() { close(release) })
	return srv, startedc, donec
}

// TestExecuteCancel: cancelling the call's context (Mastra's abortSignal)
// aborts the request in flight.
func TestExecuteCancel(t *testing.T) {
	srv, started, done := blockingServer(t)
	client := srv.Client()
	client.Timeout = time.Minute // far beyond the test's deadline: only ctx can stop it
	tool := weather.NewWeatherTool(srv.URL, client)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type ret struct {
		res *tools.Result
		err error
	}
	rc := make(chan ret, 1)
	go func() {
		res, err := execute(t, ctx, tool, `{"location":"Reykjavík"}`)
		rc <- ret{res, err}
	}()

	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the request never reached the server")
	}
	cancelled := time.Now()
	cancel()

	select {
	case r := <-rc:
		if elapsed := time.Since(cancelled); elapsed > 2*time.Second {
			t.Errorf("Execute returned %v after cancel, want promptly", elapsed)
		}
		if r.err == nil || !errors.Is(r.err, context.Canceled) {
			t.Errorf("Execute = (%v, %v), want an error wrapping context.Canceled", r.res, r.err)
		}
		if r.err != nil && !strings.Contains(r.err.Error(), `weather for "Reykjavík"`) {
			t.Errorf("error %q does not say which location", r.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Execute did not return after its context was cancelled")
	}
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("server request context ended with %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the server never saw the request go away")
	}
}

// TestExecuteCancelledBeforeCall: an already cancelled call sends nothing.
func TestExecuteCancelledBeforeCall(t *testing.T) {
	srv := newServer(t, serveJSON(fixture(t)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := execute(t, ctx, weather.NewWeatherTool(srv.URL, srv.Client()), `{"location":"Paris"}`)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("server got %d requests, want none", n)
	}
}

func TestExecuteClientTimeout(t *testing.T) {
	srv, _, _ := blockingServer(t)
	client := srv.Client()
	client.Timeout = 50 * time.Millisecond
	start := time.Now()
	_, err := execute(t, context.Background(), weather.NewWeatherTool(srv.URL, client), `{"location":"Lima"}`)
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("error = %v, want a timeout", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("timed out after %v, want about 50ms", elapsed)
	}
}

func TestExecuteInvalidInput(t *testing.T) {
	tests := []struct {
		args string
		want string // one issue line of the message
	}{
		{`{"location": 5}`, "- location: Invalid input: expected string, received number"},
		{`{}`, "- location: Invalid input: expected string, received undefined"},
		{`{"location": null}`, "- location: Invalid input: expected string, received "},
		{`["Paris"]`, "- root: Invalid input: expected object, received array"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			srv := newServer(t, serveJSON(fixture(t)))
			res, err := execute(t, context.Background(), weather.NewWeatherTool(srv.URL, srv.Client()), tt.args)
			if err != nil {
				t.Fatalf("Execute: tool error %v, want a validation error result", err)
			}
			ve := res.ValidationError()
			if ve == nil {
				b, _ := res.JSON()
				t.Fatalf("Execute = %s, want a validation error", b)
			}
			const prefix = "Tool input validation failed for weather-tool"
			if !strings.HasPrefix(ve.Message, prefix) {
				t.Errorf("message %q does not start with %q", ve.Message, prefix)
			}
			if !strings.Contains(ve.Message, tt.want) {
				t.Errorf("message %q does not contain %q", ve.Message, tt.want)
			}
			b, err := res.JSON()
			if err != nil {
				t.Fatal(err)
			}
			var decoded map[string]any
			if err := json.Unmarshal(b, &decoded); err != nil || !tools.IsValidationError(decoded) {
				t.Errorf("result JSON %s is not Mastra's validation error shape (%v)", b, err)
			}
			if n := len(srv.requests()); n != 0 {
				t.Errorf("server got %d requests, want none", n)
			}
		})
	}
}

func TestExecuteConcurrent(t *testing.T) {
	srv := newServer(t, serveJSON(fixture(t)))
	tool := weather.NewWeatherTool(srv.URL, srv.Client())
	var wg sync.WaitGroup
	var failures atomic.Int32
	for i := range 8 {
		wg.Go(func() {
			args, _ := json.Marshal(weather.Input{Location: fmt.Sprintf("City %d", i)})
			res, err := tool.Execute(context.Background(), args, nil)
			if err != nil || res.ValidationError() != nil {
				failures.Add(1)
				return
			}
			if out, ok := res.Output.(weather.Output); !ok || out.Location != fmt.Sprintf("City %d", i) {
				failures.Add(1)
			}
		})
	}
	wg.Wait()
	if n := failures.Load(); n != 0 {
		t.Errorf("%d of 8 concurrent calls failed", n)
	}
}

func TestWeatherTool(t *testing.T) {
	tool := weather.WeatherTool
	if tool.ID() != "weather-tool" || tool.Description() != "Fetches weather for a location" {
		t.Errorf("id, description = %q, %q", tool.ID(), tool.Description())
	}
	if tool.IsClientTool() {
		t.Error("WeatherTool is a client tool, want an executing tool")
	}

	schemaJSON := func(v any) map[string]any {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	wantIn := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"location": map[string]any{"type": "string", "description": "City name, e.g. San Francisco"},
		},
		"required":             []any{"location"},
		"additionalProperties": false,
	}
	if diff := cmp.Diff(wantIn, schemaJSON(tool.InputSchema().JSONSchema())); diff != "" {
		t.Errorf("input schema (-want +got):\n%s", diff)
	}
	wantOut := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"location":           map[string]any{"type": "string"},
			"temperatureCelsius": map[string]any{"type": "number"},
			"conditions":         map[string]any{"type": "string"},
		},
		"required":             []any{"location", "temperatureCelsius", "conditions"},
		"additionalProperties": false,
	}
	if diff := cmp.Diff(wantOut, schemaJSON(tool.OutputSchema().JSONSchema())); diff != "" {
		t.Errorf("output schema (-want +got):\n%s", diff)
	}
}

// TestWeatherToolTargetsWttrIn checks the default tool's URL without
// reaching it: TestMain's guard refuses the request and the error names it.
func TestWeatherToolTargetsWttrIn(t *testing.T) {
	_, err := execute(t, context.Background(), weather.WeatherTool, `{"location":"São Paulo"}`)
	if err == nil {
		t.Fatal("WeatherTool reached the network in a test")
	}
	if want := `"https://wttr.in/S%C3%A3o%20Paulo?format=j1"`; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %s", err, want)
	}
	if !strings.Contains(err.Error(), "test guard") {
		t.Errorf("error %q did not come from the test guard", err)
	}
}
