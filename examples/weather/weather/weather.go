// Package weather is the weather example of Mastra's Tools guide, in Go.
//
// The guide's TypeScript
//
//	export const weatherTool = createTool({
//	  id: 'weather-tool',
//	  description: 'Fetches weather for a location',
//	  inputSchema: z.object({ location: z.string() }),
//	  outputSchema: z.object({
//	    location: z.string(),
//	    temperatureCelsius: z.number(),
//	    conditions: z.string(),
//	  }),
//	  execute: async ({ location }, { abortSignal }) => {
//	    const response = await fetch(`https://wttr.in/${location}?format=j1`, { signal: abortSignal })
//	    ...
//
// becomes [WeatherTool]: the schemas are inferred from [Input] and [Output],
// the abort signal is the tool context (it is the HTTP request's context),
// and a thrown error is a returned error. Unlike the guide, Execute also
// escapes the location, bounds the request with a client timeout, checks
// the status and the shape of the response, and says what went wrong.
//
// The package grows with the guide: [HazardsTool] (its "multiple tools"
// section) reads the same wttr.in answer through the same code and lists
// potential hazards; [NewAgent] is the weather agent with both tools;
// [NewSupervisor] and [NewWriter] are the guide's supervisor and its
// writer sub-agent, offered as the tool "agent-writer"; and
// [UserLocationTool] is a client tool, one without Execute, which ends a
// run until the client sends its result back.
package weather

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gomastra/mastra/tools"
)

// ID is the tool's id, as in the guide.
const ID = "weather-tool"

// DefaultBaseURL is the wttr.in service [WeatherTool] queries.
const DefaultBaseURL = "https://wttr.in"

// DefaultTimeout bounds a whole request (connect, headers and body) when
// [NewWeatherTool] is given no client.
const DefaultTimeout = 10 * time.Second

// maxBody bounds how much of a response is read; wttr.in's j1 answers are
// tens of kilobytes.
const maxBody = 1 << 20

// Input is the tool's input; its JSON Schema is inferred from the tags.
type Input struct {
	Location string `json:"location" jsonschema:"City name, e.g. San Francisco"`
}

// Output is the tool's output, the fields of the guide's outputSchema.
type Output struct {
	// Location is the location asked for, as given.
	Location string `json:"location"`
	// TemperatureCelsius is wttr.in's current_condition[0].temp_C.
	TemperatureCelsius float64 `json:"temperatureCelsius"`
	// Conditions is wttr.in's current_condition[0].weatherDesc[0].value.
	Conditions string `json:"conditions"`
}

// ErrMalformedResponse is wrapped by the error a call returns when the
// service answered 2xx with something that is not the expected j1 JSON.
var ErrMalformedResponse = errors.New("malformed weather response")

// StatusError is the error a call returns when the service answered with a
// non-2xx status.
type StatusError struct {
	StatusCode int
	Status     string
	// Body is the start of the response body, trimmed (it often says why,
	// e.g. "Unknown location").
	Body string
}

func (e *StatusError) Error() string {
	if e.Body == "" {
		return "weather service answered " + e.Status
	}
	return fmt.Sprintf("weather service answered %s: %s", e.Status, e.Body)
}

// WeatherTool is the guide's weatherTool, querying [DefaultBaseURL] with a
// client whose timeout is [DefaultTimeout]. It is safe for concurrent use.
var WeatherTool = NewWeatherTool(DefaultBaseURL, nil)

// NewWeatherTool returns the weather tool querying baseURL (a wttr.in
// compatible service: GET <baseURL>/<escaped location>?format=j1) with
// client; a nil client means one with a [DefaultTimeout] timeout.
//
// Input validation is the tools package's: an input that is not
// {"location": string} is a *tools.ValidationError result and Execute is
// not called. Everything else that goes wrong is a tool error (a returned
// error, which the model sees as a tool-error): an empty location, a
// cancelled or timed-out call (the error wraps the context's error), a
// network failure, a non-2xx status (a *[StatusError]) and a 2xx response
// that is not j1 JSON with a numeric current temperature and a weather
// description (wrapping [ErrMalformedResponse]).
func NewWeatherTool(baseURL string, client *http.Client) *tools.Tool {
	svc := newService(baseURL, client)
	return tools.New(tools.Config[Input, Output]{
		ID:          ID,
		Description: "Fetches weather for a location",
		Execute: func(ctx tools.Context, in Input) (Output, error) {
			obs, err := svc.current(ctx, in.Location)
			if err != nil {
				return Output{}, err
			}
			return Output{
				Location:           in.Location,
				TemperatureCelsius: obs.tempC,
				Conditions:         obs.conditions,
			}, nil
		},
	})
}

// service is a wttr.in compatible service. It is the one place that
// fetches and checks j1 answers: [WeatherTool] and [HazardsTool] both read
// the current conditions through it.
type service struct {
	client *http.Client
	base   string
}

// newService returns the service at baseURL queried with client; a nil
// client means one with a [DefaultTimeout] timeout.
func newService(baseURL string, client *http.Client) service {
	if client == nil {
		client = &http.Client{Timeout: DefaultTimeout}
	}
	return service{client: client, base: strings.TrimRight(baseURL, "/")}
}

// j1 is the part of wttr.in's ?format=j1 answer the tools read. All its
// values are strings, numbers included.
type j1 struct {
	CurrentCondition []currentCondition `json:"current_condition"`
}

// currentCondition is one element of j1's current_condition, as served.
// Units are wttr.in's metric ones: °C, km/h, km, mm.
type currentCondition struct {
	TempC         string `json:"temp_C"`
	FeelsLikeC    string `json:"FeelsLikeC"`
	WindspeedKmph string `json:"windspeedKmph"`
	UVIndex       string `json:"uvIndex"`
	Visibility    string `json:"visibility"`
	PrecipMM      string `json:"precipMM"`
	WeatherDesc   []struct {
		Value string `json:"value"`
	} `json:"weatherDesc"`
}

// observation is current_condition[0] of an answer, checked: the
// temperature is a finite number and there is a weather description. The
// other fields are left as served; [observation.number] reads them.
type observation struct {
	location   string
	tempC      float64
	conditions string
	raw        currentCondition
}

// current fetches GET <base>/<escaped location>?format=j1 and returns its
// current conditions. Every error says which location it was for; see
// [NewWeatherTool] for what counts as one.
func (s service) current(ctx context.Context, location string) (observation, error) {
	if strings.TrimSpace(location) == "" {
		return observation{}, errors.New("location is empty: name a city, e.g. San Francisco")
	}
	u := s.base + "/" + url.PathEscape(location) + "?format=j1"
	// The tool context is the request's: cancelling the call (Mastra's
	// abortSignal) aborts the request.
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return observation{}, fmt.Errorf("weather for %q: building request: %w", location, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return observation{}, fmt.Errorf("weather for %q: %w", location, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		return observation{}, fmt.Errorf("weather for %q: %w", location, &StatusError{
			StatusCode: resp.StatusCode,
			Status:     resp.Status,
			Body:       strings.TrimSpace(strings.ToValidUTF8(string(b), "")),
		})
	}
	var data j1
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(&data); err != nil {
		return observation{}, fmt.Errorf("weather for %q: %w: %w", location, ErrMalformedResponse, err)
	}
	if len(data.CurrentCondition) == 0 {
		return observation{}, fmt.Errorf("weather for %q: %w: no current_condition", location, ErrMalformedResponse)
	}
	cur := data.CurrentCondition[0]
	obs := observation{location: location, raw: cur}
	temp, ok, err := obs.number("temp_C", cur.TempC)
	if err != nil || !ok {
		return observation{}, fmt.Errorf("weather for %q: %w: temp_C %q is not a number", location, ErrMalformedResponse, cur.TempC)
	}
	if len(cur.WeatherDesc) == 0 {
		return observation{}, fmt.Errorf("weather for %q: %w: no weatherDesc", location, ErrMalformedResponse)
	}
	obs.tempC, obs.conditions = temp, cur.WeatherDesc[0].Value
	return obs, nil
}

// number parses the numeric string value of field. An absent (empty)
// value is ok == false; one that is not a finite number is an error
// wrapping [ErrMalformedResponse].
func (o observation) number(field, value string) (v float64, ok bool, err error) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false, nil
	}
	v, err = strconv.ParseFloat(value, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, fmt.Errorf("weather for %q: %w: %s %q is not a number", o.location, ErrMalformedResponse, field, value)
	}
	return v, true, nil
}
