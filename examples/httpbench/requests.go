package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/examples/httpbench/app"
)

// request is one benchmarked request: it sends request i and checks the
// answer as the anchor's bench/http-tool-exec.mjs does.
type request struct {
	name string
	// maxN caps how many times it is timed (0: no cap); the anchor times
	// agent runs at most 300 times.
	maxN int
	do   func(ctx context.Context, c *http.Client, base string, i int) error
}

// requests are http-tool-exec.mjs's four requests, in its order.
var requests = []request{
	{name: "POST /api/tools/add/execute", do: toolExecute},
	{name: "GET /api/tools", do: listTools},
	{name: "POST /api/agents/calc-agent/generate (1 tool step)", maxN: 300, do: generate},
	{name: "POST /api/agents/calc-agent/stream (1 tool step, SSE drained)", maxN: 300, do: streamDrained},
}

// floor is GET /health ({"success":true}, no work behind it): the
// round trip of the HTTP stack and the client alone, timed after the
// four requests (it is not one of the anchor's).
var floor = request{name: "GET /health (round-trip floor)", do: health}

func health(ctx context.Context, c *http.Client, base string, _ int) error {
	body, err := send(ctx, c, http.MethodGet, base+"/health", "")
	if err == nil && string(body) != `{"success":true}` {
		err = fmt.Errorf("health: %s", body)
	}
	return err
}

// toolExecute: {"data":{"a":i,"b":1}} must give {"sum":i+1}.
func toolExecute(ctx context.Context, c *http.Client, base string, i int) error {
	body, err := send(ctx, c, http.MethodPost, base+"/api/tools/add/execute", `{"data":{"a":`+strconv.Itoa(i)+`,"b":1}}`)
	if err != nil {
		return err
	}
	var out app.AddOutput
	if err := json.Unmarshal(body, &out); err != nil || out.Sum != i+1 {
		return fmt.Errorf("tool execute %d: got %s, want sum %d", i, body, i+1)
	}
	return nil
}

// listTools: GET /api/tools, read to the end.
func listTools(ctx context.Context, c *http.Client, base string, _ int) error {
	_, err := send(ctx, c, http.MethodGet, base+"/api/tools", "")
	return err
}

// generate: {"messages":"hi"} must answer the scripted text.
func generate(ctx context.Context, c *http.Client, base string, _ int) error {
	body, err := send(ctx, c, http.MethodPost, base+"/api/agents/calc-agent/generate", `{"messages":"hi"}`)
	if err != nil {
		return err
	}
	var out struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.Text != app.FinalText {
		return fmt.Errorf("generate: text %q, want %q", out.Text, app.FinalText)
	}
	return nil
}

// streamDrained: {"messages":"hi"}, the SSE answer read to its final
// "data: [DONE]".
func streamDrained(ctx context.Context, c *http.Client, base string, _ int) error {
	body, err := send(ctx, c, http.MethodPost, base+"/api/agents/calc-agent/stream", `{"messages":"hi"}`)
	if err != nil {
		return err
	}
	if !bytes.HasSuffix(body, []byte("data: [DONE]\n\n")) {
		return fmt.Errorf("stream: no final [DONE] in %d bytes", len(body))
	}
	return nil
}

// send makes one request (a JSON body when body is not empty) and
// returns the answer's body; a status other than 200 is an error.
func send(ctx context.Context, c *http.Client, method, url, body string) ([]byte, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", method, url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	return b, nil
}
