package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// defaultTimeoutMs is the request timeout when --timeout is absent or not
// a positive number.
const defaultTimeoutMs = 30_000

// globalOptions are the flags of `mastra api`, shared by every subcommand.
type globalOptions struct {
	url       string
	prefix    string
	prefixSet bool // --server-api-prefix given (even empty, which overrides MASTRA_API_PREFIX)
	headers   []string
	timeout   string
	pretty    bool
	schema    bool // --schema on the leaf command
	// showToolErrors is --show-tool-errors on `agent run`: print the
	// failed tool calls too.
	showToolErrors bool
}

// customHeader is one --header, name as typed.
type customHeader struct{ name, value string }

// apiTarget is where and how requests go.
type apiTarget struct {
	baseURL   string
	headers   []customHeader
	timeoutMs float64
	apiPrefix string // "" means the default /api
}

// resolveTarget checks the global flags and picks the server: --url when
// given, else the local dev server when it answers the probe. Unlike the
// Mastra CLI, there is no fallback to a project deployed on the Mastra
// platform; an unreachable local server is SERVER_UNREACHABLE with a
// message saying what the probe found.
func (c *apiConfig) resolveTarget(ctx context.Context, o *globalOptions) (*apiTarget, error) {
	timeoutMs := parseTimeout(o.timeout)
	headers, err := parseHeaders(o.headers)
	if err != nil {
		return nil, err
	}
	raw := o.prefix
	if !o.prefixSet {
		raw = c.getenv("MASTRA_API_PREFIX")
	}
	apiPrefix := normalizeAPIPrefix(raw)
	if o.url != "" {
		return &apiTarget{baseURL: o.url, headers: headers, timeoutMs: timeoutMs, apiPrefix: apiPrefix}, nil
	}
	if err := c.probeLocal(ctx, timeoutMs, apiPrefix); err != nil {
		return nil, err
	}
	return &apiTarget{baseURL: c.localURL, headers: headers, timeoutMs: timeoutMs, apiPrefix: apiPrefix}, nil
}

// probeLocal asks the default server for its API schema, waiting at most
// one second (or the request timeout, when shorter), without the custom
// headers; any 2xx answer means a Mastra server is there.
func (c *apiConfig) probeLocal(ctx context.Context, timeoutMs float64, apiPrefix string) error {
	prefix := apiPrefix
	if prefix == "" {
		prefix = "/api"
	}
	probeURL := c.localURL + prefix + "/system/api-schema"
	wait := min(durationMs(timeoutMs), c.probeTimeout)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	const hint = "start a server with `mastra dev` (or `mastra start`), or pass --url <url>"
	fail := func(what string, kv ...any) error {
		return newAPIError(codeServerUnreachable, "Could not connect to target server: "+what+"; "+hint,
			append([]any{"url", c.localURL, "probe", probeURL}, kv...)...)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, probeURL, nil)
	if err != nil {
		return fail("the default URL " + c.localURL + " is not valid")
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fail(fmt.Sprintf("nothing answered at %s within %dms", c.localURL, wait.Milliseconds()))
		}
		return fail("nothing is listening at " + c.localURL)
	}
	_ = resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fail(fmt.Sprintf("%s answered GET %s/system/api-schema with status %d, so it is not a Mastra server with API prefix %s (see --server-api-prefix)",
			c.localURL, prefix, resp.StatusCode, prefix), "status", float64(resp.StatusCode))
	}
	return nil
}

// parseHeaders checks the --header values ("Key: Value"); a repeated key
// keeps its last value.
func parseHeaders(values []string) ([]customHeader, error) {
	var out []customHeader
	for _, v := range values {
		i := strings.IndexByte(v, ':')
		if i <= 0 {
			return nil, newAPIError(codeMalformedHeader, `Header must use "Key: Value" format`, "header", v)
		}
		name, value := jsTrimSpace(v[:i]), jsTrimSpace(v[i+1:])
		if name == "" || value == "" {
			return nil, newAPIError(codeMalformedHeader, `Header must use "Key: Value" format`, "header", v)
		}
		replaced := false
		for j := range out {
			if out[j].name == name {
				out[j].value, replaced = value, true
			}
		}
		if !replaced {
			out = append(out, customHeader{name, value})
		}
	}
	return out, nil
}

// normalizeAPIPrefix gives a prefix a leading slash and no trailing one;
// "" stands for the default /api.
func normalizeAPIPrefix(raw string) string {
	if raw == "" {
		return ""
	}
	v := jsTrimSpace(raw)
	if v == "" {
		return ""
	}
	if !strings.HasPrefix(v, "/") {
		v = "/" + v
	}
	v = strings.TrimRight(v, "/")
	if v == "" || v == "/api" {
		return ""
	}
	return v
}

// parseTimeout reads --timeout as JavaScript's Number() does ("1e3",
// "0x40" and " 250.5 " are numbers); anything that is not a positive finite
// number means the default.
func parseTimeout(s string) float64 {
	if s == "" {
		return defaultTimeoutMs
	}
	n := jsNumber(s)
	if math.IsNaN(n) || math.IsInf(n, 0) || n <= 0 {
		return defaultTimeoutMs
	}
	return n
}

var decimalLiteral = regexp.MustCompile(`^[+-]?(Infinity|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)$`)

// jsNumber is Number(string).
func jsNumber(s string) float64 {
	t := jsTrimSpace(s)
	if t == "" {
		return 0
	}
	if len(t) > 2 && t[0] == '0' {
		base := 0
		switch t[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			n, ok := new(big.Int).SetString(t[2:], base)
			if !ok || strings.ContainsAny(t[2:], "_+-") {
				return math.NaN()
			}
			f, _ := new(big.Float).SetInt(n).Float64()
			return f
		}
	}
	if !decimalLiteral.MatchString(t) {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(strings.TrimPrefix(t, "+"), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return math.NaN()
	}
	return f
}

// durationMs converts milliseconds to a duration.
func durationMs(ms float64) time.Duration {
	d := ms * float64(time.Millisecond)
	if d >= math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(d)
}
