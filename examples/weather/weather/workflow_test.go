package weather_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/workflows"
)

func TestActivityWorkflow(t *testing.T) {
	srv := newServer(t, serveJSON(fixture(t)))
	wf, err := weather.NewActivityWorkflow(weather.NewWeatherTool(srv.URL, srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	res, err := wf.CreateRun().Start(context.Background(), weather.Input{Location: "San Francisco"}, nil)
	if err != nil || res.Status != workflows.StatusSuccess {
		t.Fatalf("run: %v %+v", err, res)
	}
	var plan weather.Plan
	if err := json.Unmarshal(res.Result, &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Location != "San Francisco" || plan.Conditions != "Partly cloudy" || len(plan.Activities) == 0 || plan.Activities[0] != "walk in a park" {
		t.Errorf("plan %+v", plan)
	}
	if _, err := wf.CreateRun().Start(context.Background(), map[string]any{"location": 5}, nil); err == nil {
		t.Error("an invalid location was accepted")
	}
}

func TestNewMastraRegistersTheApp(t *testing.T) {
	srv := newServer(t, serveJSON(fixture(t)))
	m, err := weather.NewMastra(weather.AppConfig{
		Model:       mock.New(mock.Step{Text: "hi"}).RepeatLast(),
		WeatherTool: weather.NewWeatherTool(srv.URL, srv.Client()), HazardsTool: weather.NewHazardsTool(srv.URL, srv.Client()),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"weather-tool", "hazards-tool", "ask_user", "submit_plan"} {
		if _, err := m.GetToolByID(id); err != nil {
			t.Errorf("tool %s: %v", id, err)
		}
	}
	a, err := m.GetAgent("weatherAgent")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := a.Tools(context.Background(), nil)
	if err != nil || ts["workflow-activityPlanning"] == nil || ts["weatherTool"] == nil {
		t.Errorf("the weather agent's tools: %v %v", err, ts)
	}
	if _, err := m.GetWorkflow("activityPlanning"); err != nil {
		t.Error(err)
	}
	if _, err := m.GetAgent("supervisor"); err != nil {
		t.Error(err)
	}
}
