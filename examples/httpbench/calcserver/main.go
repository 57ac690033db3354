// Command calcserver serves package app (the Mastra anchor's add tool
// and calc-agent) with Mastra's HTTP API; it is the Go server the
// httpbench program starts and measures.
//
//	go run ./examples/httpbench/calcserver -port 4111 -storage :memory:
//
// See package serve for the flags (-host, -port, -storage, -token). It
// is also an MCP server (`calcserver mcp`, what `mastra mcp` runs).
// HTTPBENCH_AGENT_STORAGE=1 keeps calc-agent's runs in that storage.
package main

import (
	"github.com/gomastra/mastra/examples/httpbench/app"
	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/serve"
)

func main() { serve.Main(app.Build, mcpserver.ServeOption()) }
