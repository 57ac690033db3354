// Command dev serves the weather example as Mastra's dev server does, on
// 127.0.0.1:4111 with SQLite storage in .mastra/mastra.db: the guide's
// tools, its weather agent, the supervisor and writer, and the activity
// workflow, behind Mastra's HTTP API (so `mastra api tool execute
// weather-tool '{"location":"San Francisco"}'` works against it).
//
//	go run ./examples/dev                         # serve
//	MASTRA_MODEL=ollama/llama3.1 go run ./examples/dev
//
// The agents' model is MASTRA_MODEL ("provider/model", default
// openai/gpt-5.6-sol), resolved from the environment (OPENAI_API_KEY,
// OLLAMA_BASE_URL, ...; see package providers): without its key, agent
// calls answer with an error naming the variable, and the tools and the
// workflow still work. WEATHER_BASE_URL replaces https://wttr.in. See
// package serve for the flags (-host, -port, -storage, -token).
//
// It links every provider (providers.Default), PostgreSQL besides SQLite
// (-storage postgres://…) and the MCP server (/api/mcp/mastra/mcp, and
// `dev mcp` over stdio, with a resource, a prompt and completions from
// mcp.go); an app of your own names only what it uses.
package main

import (
	"cmp"
	"context"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/model/providers"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/storage/postgres"
)

func main() { serve.Main(build, options()...) }

// options are what the example app links besides SQLite: PostgreSQL and
// the MCP server.
func options() []serve.Option {
	return []serve.Option{serve.WithStorage(postgres.Driver), mcpserver.ServeOption(mcpFeatures()...)} // mcp.go
}

// build is the example app on the server's storage.
func build(_ context.Context, env serve.Env) (*mastra.Mastra, error) {
	cfg := weather.AppConfig{
		Model:   providers.Default(env.Getenv).Model(cmp.Or(env.Getenv("MASTRA_MODEL"), "openai/gpt-5.6-sol")),
		Storage: env.Storage,
	}
	if base := env.Getenv("WEATHER_BASE_URL"); base != "" {
		cfg.WeatherTool, cfg.HazardsTool = weather.NewWeatherTool(base, nil), weather.NewHazardsTool(base, nil)
	}
	return weather.NewMastra(cfg)
}
