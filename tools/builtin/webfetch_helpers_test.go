package builtin_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

// The web_fetch tests never reach the network. Names resolve through
// wfFakeDNS; connections go through a wfGuardDialer, which connects only to
// servers of the test on 127.0.0.1 and fails the test on any other
// address before a socket exists. A broken address rule therefore shows
// up as a failed test, never as traffic.

// wfScenarios is testdata/webfetch/scenarios.json, shared with the
// capture script that recorded the real Mastra.
type wfScenarios struct {
	DNS       map[string][]string `json:"dns"`
	Responses map[string]struct {
		Status  int         `json:"status"`
		Reason  string      `json:"reason"`
		Headers [][2]string `json:"headers"`
		Echo    bool        `json:"echo"`
		Body    *struct {
			Text   *string `json:"text"`
			Hex    *string `json:"hex"`
			Prefix string  `json:"prefix"`
			Repeat string  `json:"repeat"`
			Count  int     `json:"count"`
		} `json:"body"`
	} `json:"responses"`
	Fetches []string `json:"fetches"`
	Hostile []string `json:"hostile"`
}

func loadWFScenarios(t *testing.T) *wfScenarios {
	t.Helper()
	raw, err := os.ReadFile("testdata/webfetch/scenarios.json")
	if err != nil {
		t.Fatal(err)
	}
	var s wfScenarios
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// wfFakeDNS answers from a table; a name with several answer lists gives
// them in turn, one per lookup (the last repeats), like a rebinding
// attacker's server. Unknown names are not found.
type wfFakeDNS struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	lookups []string
}

func newWFFakeDNS(table map[string][]string) *wfFakeDNS {
	d := &wfFakeDNS{answers: map[string][][]netip.Addr{}}
	for name, addrs := range table {
		d.add(name, addrs...)
	}
	return d
}

// add queues one more answer for name.
func (d *wfFakeDNS) add(name string, addrs ...string) {
	list := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		list[i] = netip.MustParseAddr(a)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.answers[name] = append(d.answers[name], list)
}

func (d *wfFakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lookups = append(d.lookups, host)
	seq := d.answers[strings.ToLower(host)]
	if len(seq) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	if len(seq) > 1 {
		d.answers[strings.ToLower(host)] = seq[1:]
	}
	return seq[0], nil
}

// wfGuardDialer is the tools' DialContext in tests. route maps the
// addresses the tool may dial (already checked by its policy) to the
// loopback servers standing in for them; an address of 127.0.0.1 itself
// is dialled as it is. Anything else fails the test and is not dialled.
type wfGuardDialer struct {
	t      *testing.T
	mu     sync.Mutex
	route  map[string]string
	dialed []string
}

func newWFGuardDialer(t *testing.T, route map[string]string) *wfGuardDialer {
	return &wfGuardDialer{t: t, route: route}
}

func (g *wfGuardDialer) dial(ctx context.Context, network, address string) (net.Conn, error) {
	g.mu.Lock()
	g.dialed = append(g.dialed, address)
	target, ok := g.route[address]
	g.mu.Unlock()
	if !ok {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || ap.Addr() != netip.MustParseAddr("127.0.0.1") {
			g.t.Errorf("web_fetch tried to dial %s, which is not a server of this test", address)
			return nil, errors.New("test guard: refused to dial " + address)
		}
		target = address
	}
	var d net.Dialer
	return d.DialContext(ctx, network, target)
}

func (g *wfGuardDialer) dials() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.dialed...)
}

// wfScenarioServer serves wfScenarios.Responses byte for byte (reason
// phrases, repeated or empty headers), as capture.mjs's server does.
func wfScenarioServer(t *testing.T, s *wfScenarios) *httptest.Server {
	hops := regexp.MustCompile(`^/hops/(\d+)(/.*)$`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		status, reason, headers, body := 404, "Not Found", [][2]string{{"Content-Type", "text/plain"}}, []byte("no scenario "+path)
		if m := hops.FindStringSubmatch(path); m != nil {
			n, _ := strconv.Atoi(m[1])
			if n > 0 {
				wfWriteRaw(t, w, 302, "Found", [][2]string{{"Location", fmt.Sprintf("/hops/%d%s", n-1, m[2])}}, nil)
				return
			}
			path = m[2]
		}
		if sc, ok := s.Responses[path]; ok {
			status, reason, headers, body = sc.Status, sc.Reason, sc.Headers, nil
			switch b := sc.Body; {
			case sc.Echo:
				h := func(k string) string {
					if v := r.Header.Get(k); v != "" {
						return v
					}
					return "(none)"
				}
				body = []byte(strings.Join([]string{
					r.Method + " " + r.RequestURI, "host: " + r.Host, "user-agent: " + h("User-Agent"),
					"accept: " + h("Accept"), "accept-encoding: " + h("Accept-Encoding"), "authorization: " + h("Authorization"),
				}, "\n"))
			case b == nil:
			case b.Text != nil:
				body = []byte(*b.Text)
			case b.Hex != nil:
				body, _ = hex.DecodeString(*b.Hex)
			default:
				body = []byte(b.Prefix + strings.Repeat(b.Repeat, b.Count))
			}
		}
		wfWriteRaw(t, w, status, reason, headers, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// wfWriteRaw writes a whole HTTP/1.1 response on the hijacked connection.
func wfWriteRaw(t *testing.T, w http.ResponseWriter, status int, reason string, headers [][2]string, body []byte) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\n", status, reason)
	for _, h := range headers {
		fmt.Fprintf(buf, "%s: %s\r\n", h[0], h[1])
	}
	if status != 204 && status != 304 {
		fmt.Fprintf(buf, "Content-Length: %d\r\n", len(body))
	}
	fmt.Fprintf(buf, "Connection: close\r\n\r\n")
	_, _ = buf.Write(body)
	_ = buf.Flush()
}

// wfFetch runs the tool on url and returns its result.
func wfFetch(t *testing.T, tool *tools.Tool, url string) builtin.WebFetchResult {
	t.Helper()
	res, err := wfFetchRaw(t, tool, url)
	if err != nil {
		t.Fatalf("%s: Go error %v", url, err)
	}
	out, ok := res.Output.(builtin.WebFetchResult)
	if !ok {
		t.Fatalf("%s: output %#v", url, res.Output)
	}
	return out
}

func wfFetchRaw(t *testing.T, tool *tools.Tool, url string) (*tools.Result, error) {
	t.Helper()
	args, err := json.Marshal(builtin.WebFetchInput{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	return tool.Execute(context.Background(), args, nil)
}

// newWFTool builds the tool for a test, failing it on bad options.
func newWFTool(t *testing.T, opts builtin.WebFetchOptions) *tools.Tool {
	t.Helper()
	tool, err := builtin.NewWebFetchTool(opts)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// wfServerAddr is the 127.0.0.1:port of a test server.
func wfServerAddr(t *testing.T, srv *httptest.Server) netip.AddrPort {
	t.Helper()
	return netip.MustParseAddrPort(srv.Listener.Addr().String())
}

const wfBlocked = "Failed to fetch URL: URL resolves to a private or reserved address."
