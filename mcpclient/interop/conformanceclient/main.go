// Command conformanceclient is the MCP client that the official conformance
// suite (@modelcontextprotocol/conformance, "conformance client") drives: it
// runs the scenario named by MCP_CONFORMANCE_SCENARIO against the server URL
// given as its last argument, through package mcpclient, and exits non-zero
// when the scenario's calls fail. It dials loopback addresses only.
//
//	conformance client --command "conformanceclient" --suite all
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/gomastra/mastra/mcpclient"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: conformanceclient <server-url>  (scenario in MCP_CONFORMANCE_SCENARIO)")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := run(ctx, os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Args[len(os.Args)-1]); err != nil {
		fmt.Fprintln(os.Stderr, "conformanceclient:", err)
		os.Exit(1)
	}
}

// toolArgs are the arguments the scenarios' tools expect; other tools get
// none.
var toolArgs = map[string]string{
	"add_numbers": `{"a":5,"b":3}`,
}

// scenarioSetups adjust the client's configuration for a scenario before it
// connects (OAuth, elicitation answers); the other files of this command
// add to it from init functions.
var scenarioSetups []func(scenario string, cfg *mcpclient.Config, server *mcpclient.ServerConfig) error

// run connects, lists the server's tools and, except for the initialize
// scenario, calls each of them once.
func run(ctx context.Context, scenario, url string) error {
	server := mcpclient.ServerConfig{URL: url, HTTPClient: loopbackOnly(), ConnectTimeout: 10 * time.Second}
	cfg := mcpclient.Config{
		ID:      "gomastra-conformance",
		Timeout: 20 * time.Second,
		Logger:  slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	for _, setup := range scenarioSetups {
		if err := setup(scenario, &cfg, &server); err != nil {
			return err
		}
	}
	cfg.Servers = map[string]mcpclient.ServerConfig{"server": server}
	c, err := mcpclient.New(cfg)
	if err != nil {
		return err
	}
	defer c.Close()
	set, err := c.ServerTools(ctx, "server")
	if err != nil {
		return err
	}
	fmt.Printf("scenario %q: %d tools\n", scenario, len(set))
	if scenario == "initialize" {
		return nil
	}
	var errs []error
	for name, t := range set {
		args := toolArgs[name]
		if args == "" {
			args = "{}"
		}
		res, err := t.Execute(ctx, json.RawMessage(args), nil)
		if err != nil {
			errs = append(errs, fmt.Errorf("calling %s: %w", name, err))
			continue
		}
		out, _ := res.JSON()
		fmt.Printf("%s -> %s\n", name, out)
	}
	return errors.Join(errs...)
}

// loopbackOnly is an HTTP client that refuses to dial anything but a
// loopback address, checked before dialing.
func loopbackOnly() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, err
		}
		for _, ip := range ips {
			if ip.IP.IsLoopback() {
				return dialer.DialContext(ctx, network, net.JoinHostPort(ip.IP.String(), port))
			}
		}
		return nil, fmt.Errorf("refusing to dial %s: not a loopback address", addr)
	}
	return &http.Client{Transport: tr}
}
