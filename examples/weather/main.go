// Command weather runs the weather tool of Mastra's Tools guide directly,
// the way `npx mastra api tool execute weather-tool '{"location":"..."}'`
// does (the dev server that serves it over HTTP is still to come):
//
//	go run ./examples/weather                    # San Francisco
//	go run ./examples/weather São Paulo          # the arguments form the location
//	go run ./examples/weather -input '{"location":"Paris"}'
//	go run ./examples/weather -schema            # the input JSON Schema
//
// It prints the result JSON, indented. A validation error is a result too:
// its JSON ({"error":true,"message":...,"validationErrors":...}) is printed
// the same way, and the exit status is 1. A tool error (network failure,
// bad status, malformed answer) is printed on stderr, exit status 1. Usage
// errors exit with 2. Ctrl-C cancels the call, as Mastra's abortSignal
// does.
//
// WEATHER_BASE_URL, when set, replaces https://wttr.in (any service
// answering GET <base>/<location>?format=j1 the way wttr.in does).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/tools"
)

// defaultLocation is used when no location is given.
const defaultLocation = "San Francisco"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// run is the program: args are the command-line arguments without the
// program name, env looks up environment variables. It returns the exit
// status.
func run(args []string, stdout, stderr io.Writer, env func(string) string) int {
	fs := flag.NewFlagSet("weather", flag.ContinueOnError)
	fs.SetOutput(stderr)
	showSchema := fs.Bool("schema", false, "print the tool's input JSON Schema and exit")
	input := fs.String("input", "", `the tool's JSON arguments, e.g. '{"location":"Paris"}', instead of a location`)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: weather [-schema] [-input JSON | location...]\n\n"+
			"Runs the weather-tool once and prints its result as JSON (default location %q).\n"+
			"WEATHER_BASE_URL replaces %s.\n\n", defaultLocation, weather.DefaultBaseURL)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}

	tool := weather.WeatherTool
	if base := env("WEATHER_BASE_URL"); base != "" {
		tool = weather.NewWeatherTool(base, nil)
	}

	if *showSchema {
		if fs.NArg() > 0 || *input != "" {
			fmt.Fprintln(stderr, "weather: -schema takes no location or -input")
			return 2
		}
		b, err := json.MarshalIndent(tool.InputSchema().JSONSchema(), "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "weather: encoding the schema: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}

	var toolArgs json.RawMessage
	switch {
	case *input != "" && fs.NArg() > 0:
		fmt.Fprintln(stderr, "weather: give either -input or a location, not both")
		fs.Usage()
		return 2
	case *input != "":
		toolArgs = json.RawMessage(*input)
	default:
		location := strings.Join(fs.Args(), " ")
		if location == "" {
			location = defaultLocation
		}
		b, err := json.Marshal(weather.Input{Location: location})
		if err != nil {
			fmt.Fprintf(stderr, "weather: %v\n", err)
			return 1
		}
		toolArgs = b
	}

	// Ctrl-C cancels the call: the tool context is the HTTP request's.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	res, err := tool.Execute(ctx, toolArgs, &tools.Invocation{ToolCallID: "cli"})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", tool.ID(), err)
		return 1
	}
	out, err := res.JSON()
	if err != nil {
		fmt.Fprintf(stderr, "%s: encoding the result: %v\n", tool.ID(), err)
		return 1
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, out, "", "  "); err != nil {
		fmt.Fprintf(stderr, "%s: result is not JSON: %v\n", tool.ID(), err)
		return 1
	}
	pretty.WriteByte('\n')
	stdout.Write(pretty.Bytes())
	if res.ValidationError() != nil {
		return 1
	}
	return 0
}
