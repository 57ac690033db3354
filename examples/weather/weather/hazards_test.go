package weather_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// stormFixture is the hand-made thunderstorm answer (testdata/README.md).
func stormFixture(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/oklahoma-city-storm.j1.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hazards executes the hazards tool and returns its output, failing the
// test on anything else.
func hazards(t *testing.T, tool *tools.Tool, args string) weather.HazardsOutput {
	t.Helper()
	res, err := execute(t, context.Background(), tool, args)
	return decoded[weather.HazardsOutput](t, res, err)
}

func TestHazardsFound(t *testing.T) {
	srv := newServer(t, serveJSON(stormFixture(t)))
	tool := weather.NewHazardsTool(srv.URL, srv.Client())

	res, err := execute(t, context.Background(), tool, `{"location":"Oklahoma City"}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := res.JSON()
	want := `{"location":"Oklahoma City","hazards":[` +
		`{"type":"thunderstorm","severity":"severe","description":"Thunderstorms: Moderate or heavy rain with thunder"},` +
		`{"type":"wind","severity":"moderate","description":"Strong wind: 62 km/h"},` +
		`{"type":"precipitation","severity":"moderate","description":"Heavy precipitation: 12.4 mm"},` +
		`{"type":"heat","severity":"moderate","description":"Heat: feels like 36 °C"}]}`
	if string(b) != want {
		t.Errorf("result JSON:\n got %s\nwant %s", b, want)
	}
	// The same request as the weather tool's.
	reqs := srv.requests()
	if len(reqs) != 1 || reqs[0].RequestURI != "/Oklahoma%20City?format=j1" || reqs[0].Header.Get("Accept") != "application/json" {
		t.Errorf("requests: %d, first %s %v", len(reqs), reqs[0].RequestURI, reqs[0].Header)
	}
}

func TestHazardsNone(t *testing.T) {
	srv := newServer(t, serveJSON(fixture(t)))
	res, err := execute(t, context.Background(), weather.NewHazardsTool(srv.URL, srv.Client()), `{"location":"San Francisco"}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := res.JSON()
	// An empty list, never null: the model reads "no hazards".
	if want := `{"location":"San Francisco","hazards":[]}`; string(b) != want {
		t.Errorf("result JSON = %s, want %s", b, want)
	}
}

// TestHazardsThresholds checks each rule at its edges, one field at a time
// on top of calm conditions.
func TestHazardsThresholds(t *testing.T) {
	type h = weather.Hazard
	tests := []struct {
		name string
		cur  map[string]any // fields over calm
		want []h
	}{
		{"calm", nil, nil},
		{"wind below", map[string]any{"windspeedKmph": "49"}, nil},
		{"wind moderate", map[string]any{"windspeedKmph": "50"}, []h{{"wind", "moderate", "Strong wind: 50 km/h"}}},
		{"wind severe", map[string]any{"windspeedKmph": "75"}, []h{{"wind", "severe", "Strong wind: 75 km/h"}}},
		{"precip below", map[string]any{"precipMM": "7.5"}, nil},
		{"precip moderate", map[string]any{"precipMM": "7.6"}, []h{{"precipitation", "moderate", "Heavy precipitation: 7.6 mm"}}},
		{"precip severe", map[string]any{"precipMM": "50.0"}, []h{{"precipitation", "severe", "Heavy precipitation: 50 mm"}}},
		{"heat below", map[string]any{"FeelsLikeC": "31"}, nil},
		{"heat moderate", map[string]any{"FeelsLikeC": "32"}, []h{{"heat", "moderate", "Heat: feels like 32 °C"}}},
		{"heat severe", map[string]any{"FeelsLikeC": "39"}, []h{{"heat", "severe", "Heat: feels like 39 °C"}}},
		// Without FeelsLikeC the air temperature stands in.
		{"heat from temp_C", map[string]any{"FeelsLikeC": nil, "temp_C": "40"}, []h{{"heat", "severe", "Heat: feels like 40 °C"}}},
		{"cold above", map[string]any{"FeelsLikeC": "-9"}, nil},
		{"cold moderate", map[string]any{"FeelsLikeC": "-10"}, []h{{"cold", "moderate", "Cold: feels like -10 °C"}}},
		{"cold severe", map[string]any{"FeelsLikeC": "-28"}, []h{{"cold", "severe", "Cold: feels like -28 °C"}}},
		// Feels-like decides, not the air temperature.
		{"wind chill", map[string]any{"temp_C": "-5", "FeelsLikeC": "-12"}, []h{{"cold", "moderate", "Cold: feels like -12 °C"}}},
		{"uv below", map[string]any{"uvIndex": "5"}, nil},
		{"uv moderate", map[string]any{"uvIndex": "6"}, []h{{"uv", "moderate", "High UV index: 6"}}},
		{"uv severe", map[string]any{"uvIndex": "11"}, []h{{"uv", "severe", "High UV index: 11"}}},
		{"visibility fine", map[string]any{"visibility": "2"}, nil},
		{"visibility poor", map[string]any{"visibility": "1"}, []h{{"visibility", "moderate", "Poor visibility: 1 km"}}},
		{"fog", map[string]any{"visibility": "0", "weatherDesc": []any{map[string]any{"value": "Fog"}}}, []h{{"visibility", "moderate", "Poor visibility: 0 km"}}},
		{"thundery outbreaks", map[string]any{"weatherDesc": []any{map[string]any{"value": "Thundery outbreaks possible"}}},
			[]h{{"thunderstorm", "moderate", "Thunderstorms: Thundery outbreaks possible"}}},
		{"heavy thunder", map[string]any{"weatherDesc": []any{map[string]any{"value": "Moderate or heavy snow with thunder "}}},
			[]h{{"thunderstorm", "severe", "Thunderstorms: Moderate or heavy snow with thunder"}}},
		{"heavy rain without thunder", map[string]any{"weatherDesc": []any{map[string]any{"value": "Heavy rain"}}}, nil},
		// Fields the answer lacks are not checked.
		{"sparse", map[string]any{"FeelsLikeC": nil, "windspeedKmph": nil, "precipMM": nil, "uvIndex": nil, "visibility": nil}, nil},
		{"several, in order", map[string]any{"uvIndex": "9", "FeelsLikeC": "33", "windspeedKmph": "80"}, []h{
			{"wind", "severe", "Strong wind: 80 km/h"},
			{"uv", "severe", "High UV index: 9"},
			{"heat", "moderate", "Heat: feels like 33 °C"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := map[string]any{
				"temp_C": "20", "FeelsLikeC": "20", "windspeedKmph": "10", "precipMM": "0.0",
				"uvIndex": "3", "visibility": "10", "weatherDesc": []any{map[string]any{"value": "Sunny"}},
			}
			for k, v := range tt.cur {
				if v == nil {
					delete(cur, k)
				} else {
					cur[k] = v
				}
			}
			body, _ := json.Marshal(map[string]any{"current_condition": []any{cur}})
			srv := newServer(t, serveJSON(body))
			got := hazards(t, weather.NewHazardsTool(srv.URL, srv.Client()), `{"location":"Anywhere"}`)
			want := tt.want
			if want == nil {
				want = []h{}
			}
			if diff := cmp.Diff(weather.HazardsOutput{Location: "Anywhere", Hazards: want}, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHazardsUpstreamErrors(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		check   func(error) bool
		wantMsg string
	}{
		{
			name:    "500",
			handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "Internal Server Error", 500) },
			check: func(err error) bool {
				var se *weather.StatusError
				return errors.As(err, &se) && se.StatusCode == 500
			},
			wantMsg: `weather for "Oklahoma City": weather service answered 500 Internal Server Error`,
		},
		{
			name:    "malformed JSON",
			handler: serveJSON([]byte(`{"current_condition":`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: "malformed weather response: unexpected EOF",
		},
		{
			name:    "no current_condition",
			handler: serveJSON([]byte(`{"current_condition":[]}`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: "no current_condition",
		},
		{
			name:    "wind not a number",
			handler: serveJSON([]byte(`{"current_condition":[{"temp_C":"20","windspeedKmph":"calm","weatherDesc":[{"value":"Sunny"}]}]}`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: `weather for "Oklahoma City": malformed weather response: windspeedKmph "calm" is not a number`,
		},
		{
			name:    "uvIndex infinite",
			handler: serveJSON([]byte(`{"current_condition":[{"temp_C":"20","uvIndex":"Inf","weatherDesc":[{"value":"Sunny"}]}]}`)),
			check:   func(err error) bool { return errors.Is(err, weather.ErrMalformedResponse) },
			wantMsg: `uvIndex "Inf" is not a number`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.handler)
			res, err := execute(t, context.Background(), weather.NewHazardsTool(srv.URL, srv.Client()), `{"location":"Oklahoma City"}`)
			if err == nil {
				b, _ := res.JSON()
				t.Fatalf("Execute = %s, want a tool error", b)
			}
			if !tt.check(err) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q (%T), want one containing %q", err, err, tt.wantMsg)
			}
		})
	}
}

// The weather tool does not read the fields only hazards need: a bad
// uvIndex does not fail it.
func TestWeatherToolIgnoresHazardFields(t *testing.T) {
	srv := newServer(t, serveJSON([]byte(`{"current_condition":[{"temp_C":"20","uvIndex":"n/a","weatherDesc":[{"value":"Sunny"}]}]}`)))
	got := call(t, context.Background(), weather.NewWeatherTool(srv.URL, srv.Client()), `{"location":"Lima"}`)
	if got.TemperatureCelsius != 20 {
		t.Errorf("output %+v", got)
	}
}

func TestHazardsBadInput(t *testing.T) {
	for _, tt := range []struct{ args, want string }{
		{`{"location": 5}`, "- location: Invalid input: expected string, received number"},
		{`{}`, "- location: Invalid input: expected string, received undefined"},
		{`"Paris"`, "- root: Invalid input: expected object, received string"},
	} {
		t.Run(tt.args, func(t *testing.T) {
			srv := newServer(t, serveJSON(stormFixture(t)))
			res, err := execute(t, context.Background(), weather.NewHazardsTool(srv.URL, srv.Client()), tt.args)
			if err != nil {
				t.Fatalf("tool error %v, want a validation error result", err)
			}
			ve := res.ValidationError()
			if ve == nil {
				b, _ := res.JSON()
				t.Fatalf("Execute = %s, want a validation error", b)
			}
			if !strings.HasPrefix(ve.Message, "Tool input validation failed for hazards-tool") || !strings.Contains(ve.Message, tt.want) {
				t.Errorf("message %q", ve.Message)
			}
			if n := len(srv.requests()); n != 0 {
				t.Errorf("server got %d requests, want none", n)
			}
		})
	}
	// An empty location is a tool error, as for the weather tool.
	srv := newServer(t, serveJSON(stormFixture(t)))
	if _, err := execute(t, context.Background(), weather.NewHazardsTool(srv.URL, srv.Client()), `{"location":" "}`); err == nil || !strings.Contains(err.Error(), "location is empty") {
		t.Errorf("empty location: %v", err)
	}
}

func TestHazardsTool(t *testing.T) {
	tool := weather.HazardsTool
	if tool.ID() != "hazards-tool" || tool.IsClientTool() || !strings.Contains(tool.Description(), "hazards") {
		t.Errorf("id %q, client %v, description %q", tool.ID(), tool.IsClientTool(), tool.Description())
	}
	in, _ := json.Marshal(tool.InputSchema().JSONSchema())
	weatherIn, _ := json.Marshal(weather.WeatherTool.InputSchema().JSONSchema())
	if string(in) != string(weatherIn) {
		t.Errorf("input schema %s, want the weather tool's %s", in, weatherIn)
	}
	out, _ := json.Marshal(tool.OutputSchema().JSONSchema())
	for _, s := range []string{
		`"hazards":{"type":"array"`,
		`"enum":["thunderstorm","wind","precipitation","uv","heat","cold","visibility"]`,
		`"enum":["moderate","severe"]`,
		`"required":["location","hazards"]`,
	} {
		if !strings.Contains(string(out), s) {
			t.Errorf("output schema %s lacks %s", out, s)
		}
	}
	// The schema is HazardsOutput's own, from its struct tags: nothing
	// written out to keep in step with the struct.
	inferred, _ := json.Marshal(schema.MustFor[weather.HazardsOutput]().JSONSchema())
	if string(out) != string(inferred) {
		t.Errorf("output schema %s, want HazardsOutput's inferred %s", out, inferred)
	}
	if want := `{"type":"object","properties":{"location":{"type":"string"},"hazards":{"type":"array","items":{"type":"object","properties":{` +
		`"type":{"type":"string","enum":["thunderstorm","wind","precipitation","uv","heat","cold","visibility"]},` +
		`"severity":{"type":"string","enum":["moderate","severe"]},"description":{"type":"string"}},` +
		`"required":["type","severity","description"],"additionalProperties":false}}},"required":["location","hazards"],"additionalProperties":false}`; string(out) != want {
		t.Errorf("output schema\n got %s\nwant %s", out, want)
	}
	// The default tool queries wttr.in (refused here by TestMain's guard).
	_, err := execute(t, context.Background(), tool, `{"location":"Oslo"}`)
	if err == nil || !strings.Contains(err.Error(), `"https://wttr.in/Oslo?format=j1"`) || !strings.Contains(err.Error(), "test guard") {
		t.Errorf("default tool error %v", err)
	}
}
