package aisdk

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/loopback"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

// The Go twin of testdata/capture/capture.mjs's application: the same
// agents, tools and scripted models (ids, texts, argument deltas), so that
// the chat route's answers can be compared with the recorded ones.

var stepUsage = model.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}

// toolStep is a model answer calling one tool, its input streamed in the
// given deltas.
func toolStep(modelID, id, name string, deltas ...string) mock.Step {
	parts := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "resp-" + modelID, Timestamp: time.Unix(0, 0).UTC(), ModelID: modelID}},
		{Type: model.PartToolInputStart, ID: id, ToolName: name},
	}
	input := ""
	for _, d := range deltas {
		parts = append(parts, model.StreamPart{Type: model.PartToolInputDelta, ID: id, Delta: d})
		input += d
	}
	parts = append(parts,
		model.StreamPart{Type: model.PartToolInputEnd, ID: id},
		model.StreamPart{Type: model.PartToolCall, ToolCallID: id, ToolName: name, Input: input},
		model.StreamPart{Type: model.PartFinish, FinishReason: model.FinishToolCalls, Usage: stepUsage})
	return mock.Step{Parts: parts}
}

func textStep(modelID, text string) mock.Step {
	return mock.Step{Text: text, Usage: stepUsage,
		Response: &model.ResponseMetadata{ID: "resp-" + modelID, Timestamp: time.Unix(0, 0).UTC(), ModelID: modelID}}
}

// hasToolResult reports whether the prompt holds a tool result.
func hasToolResult(req *model.Request) bool {
	for _, m := range req.Messages {
		if m.Role == model.RoleTool {
			return true
		}
	}
	return false
}

// toolThenText calls the tool until the prompt holds a result, then
// answers text.
func toolThenText(modelID, callID, name string, deltas []string, text string) *mock.Model {
	return mock.NewFunc(func(req *model.Request) mock.Step {
		if hasToolResult(req) {
			return textStep(modelID, text)
		}
		return toolStep(modelID, callID, name, deltas...)
	}).WithID("mock-provider", modelID)
}

type weatherIn struct {
	Location string `json:"location"`
}

type weatherOut struct {
	Location           string  `json:"location"`
	TemperatureCelsius float64 `json:"temperatureCelsius"`
	Conditions         string  `json:"conditions"`
}

type deleteIn struct {
	Path string `json:"path"`
}

type deleteOut struct {
	Deleted string `json:"deleted"`
}

type bookIn struct {
	Date string `json:"date"`
}

type bookOut struct {
	Booked string `json:"booked"`
}

type bookQuestion struct {
	Question string `json:"question"`
}

type bookAnswer struct {
	City string `json:"city"`
}

func mustSchema(t testing.TB, s string) *schema.Compiled {
	t.Helper()
	c, err := schema.FromJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var weatherDeltas = []string{`{"loca`, `tion":"Pa`, `ris"}`}

// newTestApp builds the capture's agents on scripted models, with
// storage for suspended runs.
func newTestApp(t testing.TB) *mastra.Mastra {
	t.Helper()
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return newTestAppWith(t, st)
}

func newTestAppWith(t testing.TB, st storage.Store) *mastra.Mastra {
	t.Helper()
	weatherTool := tools.New(tools.Config[weatherIn, weatherOut]{
		ID: "weather-tool", Description: "Fetches weather for a location",
		Execute: func(_ tools.Context, in weatherIn) (weatherOut, error) {
			return weatherOut{Location: in.Location, TemperatureCelsius: 18, Conditions: "Sunny"}, nil
		},
	})
	forecastTool := tools.New(tools.Config[weatherIn, any]{
		ID: "forecast-tool", Description: "Fetches a forecast",
		Execute: func(tools.Context, weatherIn) (any, error) {
			return nil, errors.New("Forecast service unavailable")
		},
	})
	deleteTool := tools.New(tools.Config[deleteIn, deleteOut]{
		ID: "delete-file", Description: "Deletes a file", RequireApproval: true,
		Execute: func(_ tools.Context, in deleteIn) (deleteOut, error) { return deleteOut{Deleted: in.Path}, nil },
	})
	bookTool := tools.New(tools.Config[bookIn, bookOut]{
		ID: "book-trip", Description: "Books a trip; asks which city first",
		SuspendSchema: mustSchema(t, `{"type":"object","properties":{"question":{"type":"string"}},"required":["question"]}`),
		ResumeSchema:  mustSchema(t, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`),
		Execute: func(ctx tools.Context, in bookIn) (bookOut, error) {
			answer, ok, err := tools.ResumeDataAs[bookAnswer](ctx)
			if err != nil {
				return bookOut{}, err
			}
			if !ok {
				return bookOut{}, ctx.Suspend(bookQuestion{Question: "Which city?"})
			}
			return bookOut{Booked: answer.City + " on " + in.Date}, nil
		},
	})
	newAgent := func(cfg agent.Config) *agent.Agent {
		t.Helper()
		cfg.Storage = st
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	weatherAgent := newAgent(agent.Config{
		ID: "weather-agent", Name: "Weather Agent", Description: "Answers weather questions",
		Instructions: "You are a helpful weather assistant. Use the weatherTool to fetch current weather data.",
		Model:        toolThenText("weather-model", "call-1", "weatherTool", weatherDeltas, "It is 18°C and sunny in Paris."),
		Tools:        tools.Set{"weatherTool": weatherTool},
	})
	agents := map[string]*agent.Agent{
		"textAgent": newAgent(agent.Config{ID: "text-agent", Name: "Text Agent", Instructions: "You greet people.",
			Model: mock.NewFunc(func(*model.Request) mock.Step {
				return textStep("text-model", "Hello! How can I help you today?")
			}).WithID("mock-provider", "text-model")}),
		"weatherAgent": weatherAgent,
		"forecastAgent": newAgent(agent.Config{ID: "forecast-agent", Name: "Forecast Agent", Instructions: "You forecast.",
			Model: toolThenText("forecast-model", "call-1", "forecastTool", weatherDeltas, "Sorry, the forecast is unavailable."),
			Tools: tools.Set{"forecastTool": forecastTool}}),
		"supervisor": newAgent(agent.Config{ID: "supervisor", Name: "Supervisor", Instructions: "Delegate weather questions to the weather agent.",
			Model:  toolThenText("supervisor-model", "call-sup", "agent-weather", []string{`{"prompt":"Weather in Paris?"}`}, "The weather agent says it is sunny."),
			Agents: map[string]*agent.Agent{"weather": weatherAgent}}),
		"fileAgent": newAgent(agent.Config{ID: "file-agent", Name: "File Agent", Instructions: "You delete files when asked.",
			Model: toolThenText("file-model", "call-del", "deleteFile", []string{`{"path":"/tmp/a.txt"}`}, "Deleted /tmp/a.txt."),
			Tools: tools.Set{"deleteFile": deleteTool}}),
		"travelAgent": newAgent(agent.Config{ID: "travel-agent", Name: "Travel Agent", Instructions: "You book trips.",
			Model: toolThenText("travel-model", "call-book", "bookTrip", []string{`{"date":"2026-05-01"}`}, "Your trip is booked."),
			Tools: tools.Set{"bookTrip": bookTool}}),
		"brokenAgent": newAgent(agent.Config{ID: "broken-agent", Name: "Broken Agent", Instructions: "You fail.",
			Model: mock.NewFunc(func(*model.Request) mock.Step {
				return mock.Step{ErrorPart: errors.New("Rate limit exceeded")}
			}).WithID("mock-provider", "broken-model")}),
	}
	return mastra.New(mastra.Config{Agents: agents})
}

// testRoutes are the capture's chat routes.
func testRoutes(m *mastra.Mastra) []server.Route {
	return []server.Route{
		ChatRoute(m, ChatRouteOptions{}),
		ChatRoute(m, ChatRouteOptions{Path: "/chat-v6/:agentId", Chat: ChatOptions{Stream: StreamOptions{Version: V6}}}),
		ChatRoute(m, ChatRouteOptions{Path: "/support-chat", Agent: "text-agent"}),
	}
}

// startServer serves m's API with opts on 127.0.0.1 (httptest's
// default) and returns it with a client that reaches loopback addresses
// only.
func startServer(t testing.TB, m *mastra.Mastra, opts server.Options) (*httptest.Server, *http.Client) {
	t.Helper()
	h := server.New(m, opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		_ = h.Shutdown(context.Background())
	})
	return ts, &http.Client{Transport: loopback.Only(http.DefaultTransport)}
}

func storageThread(id, resource string) storage.Thread {
	return storage.Thread{ID: id, ResourceID: resource}
}
