package builtin_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

// The seam: a test may fetch exactly the 127.0.0.1:port it allows; the
// zero options refuse it, and nothing else is loosened.
func TestWebFetchAllowSeam(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "hello from "+r.URL.Path)
	}))
	defer srv.Close()
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	ap := wfServerAddr(t, srv)
	guard := newWFGuardDialer(t, nil)
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: []netip.AddrPort{ap}, DialContext: guard.dial, Resolver: newWFFakeDNS(nil)})

	got := wfFetch(t, tool, srv.URL+"/x")
	if got.IsError || got.Content != "hello from /x" || got.Status != 200 || !got.OK {
		t.Errorf("allowed server: %+v", got)
	}
	port := fmt.Sprint(ap.Port())
	for _, url := range []string{
		other.URL + "/",                     // another port
		"http://127.0.0.2:" + port + "/",    // another loopback address
		"http://localhost:" + port + "/",    // a name
		"http://[::ffff:127.0.0.1]:" + port, // another notation
		"http://[::1]:" + port + "/",        // IPv6 loopback
		"http://0x7f.1:" + port + "/",       // same address, other notation: allowed, it is 127.0.0.1
	} {
		got := wfFetch(t, tool, url)
		if url == "http://0x7f.1:"+port+"/" {
			if got.IsError {
				t.Errorf("%s is 127.0.0.1:%s: %+v", url, port, got)
			}
			continue
		}
		if got.Content != wfBlocked || !got.IsError {
			t.Errorf("%s: %+v", url, got)
		}
	}
	if d := guard.dials(); slices.ContainsFunc(d, func(a string) bool { return a != ap.String() }) {
		t.Errorf("dialled %v", d)
	}

	// The default tool refuses the same server before dialling.
	if got := wfFetch(t, builtin.WebFetchTool, srv.URL+"/x"); got.Content != wfBlocked || !got.IsError {
		t.Errorf("default tool: %+v", got)
	}
}

// Every rule of the policy, in every notation, with a dialer that fails
// the test on any dial at all: none of these may get as far as a socket.
func TestWebFetchHostileBattery(t *testing.T) {
	dns := newWFFakeDNS(map[string][]string{
		"private.test": {"192.168.0.10"}, "cgnat.test": {"100.100.100.100"}, "benchmark.test": {"198.19.0.1"},
		"doc6.test": {"2001:db8::5"}, "teredo.test": {"2001:0:4136:e378:8000:63bf:3fff:fdd2"}, "sixtofour.test": {"2002:a00:1::1"},
		"sitelocal.test": {"fec0::5"}, "multicast.test": {"239.1.1.1"}, "broadcast.test": {"255.255.255.255"},
		"compat.test": {"::10.0.0.1"}, "unspec6.test": {"::"}, "linklocal6.test": {"fe80::1234"}, "ula.test": {"fd00:ec2::254"},
		"reserved.test": {"250.1.2.3"}, "nat64local.test": {"64:ff9b:1::10.0.0.1"}, "discard.test": {"100::5"},
		"zero.test": {"0.1.2.3"}, "ietf.test": {"192.0.0.170"}, "orchid.test": {"2001:10::1"}, "orchid2.test": {"2001:20::1"},
		"some-public-some-not.test": {"8.8.8.8", "2001:4860:4860::8888", "fe80::1"},
	})
	var dialed []string
	var mu sync.Mutex
	noDial := func(_ context.Context, _, address string) (net.Conn, error) {
		mu.Lock()
		dialed = append(dialed, address)
		mu.Unlock()
		t.Errorf("dial %s: nothing may be dialled here", address)
		return nil, fmt.Errorf("test: no dialling")
	}
	tool := newWFTool(t, builtin.WebFetchOptions{Resolver: dns, DialContext: noDial})
	invalid := "Failed to fetch URL: only HTTP and HTTPS URLs are supported."
	for _, c := range []struct{ url, want string }{
		// localhost names
		{"http://localhost:8080/", wfBlocked}, {"http://LocalHost/", wfBlocked}, {"http://localhost./", wfBlocked},
		{"http://x.y.localhost/", wfBlocked}, {"http://ｌｏｃａｌｈｏｓｔ/", wfBlocked}, {"http://local\u00adhost/", wfBlocked},
		{"http://LOCALHOST%2E/", wfBlocked}, {"http://localhost\u3002/", wfBlocked},
		// IPv4 notations of 127.0.0.1 and 169.254.169.254
		{"http://127.0.0.1/", wfBlocked}, {"http://127.1/", wfBlocked}, {"http://127.0.1/", wfBlocked},
		{"http://0x7f.1/", wfBlocked}, {"http://0X7F.0.0.1/", wfBlocked}, {"http://0x7f000001/", wfBlocked},
		{"http://2130706433/", wfBlocked}, {"http://017700000001/", wfBlocked}, {"http://0177.0.0.01/", wfBlocked},
		{"http://127.0.0.1./", wfBlocked}, {"http://１２７.０.０.１/", wfBlocked}, {"http://127。0。0。1/", wfBlocked},
		{"http://127．0．0．1/", wfBlocked}, {"http://127｡0｡0｡1/", wfBlocked}, {"http://%31%32%37%2e0%2e0%2e1/", wfBlocked},
		{"http://2852039166/", wfBlocked}, {"http://0xa9fea9fe/", wfBlocked}, {"http://0251.0376.0251.0376/", wfBlocked},
		{"http://169.254.43518/", wfBlocked}, {"http://0x0a.0/", wfBlocked}, {"http://0/", wfBlocked},
		{"http://0x/", wfBlocked},
		// every blocked IPv4 range
		{"http://0.1.2.3/", wfBlocked}, {"http://10.255.255.255/", wfBlocked}, {"http://100.64.0.0/", wfBlocked},
		{"http://100.127.255.255/", wfBlocked}, {"http://172.16.0.0/", wfBlocked}, {"http://172.31.0.1/", wfBlocked},
		{"http://192.0.0.9/", wfBlocked}, {"http://192.0.2.200/", wfBlocked}, {"http://192.88.99.2/", wfBlocked},
		{"http://192.168.255.255/", wfBlocked}, {"http://198.18.0.0/", wfBlocked}, {"http://198.19.255.255/", wfBlocked},
		{"http://198.51.100.255/", wfBlocked}, {"http://203.0.113.0/", wfBlocked}, {"http://224.0.0.251/", wfBlocked},
		{"http://239.255.255.250/", wfBlocked}, {"http://240.0.0.0/", wfBlocked}, {"http://254.1.1.1/", wfBlocked},
		{"http://255.255.255.255/", wfBlocked},
		// IPv6, including every form embedding or routing to IPv4
		{"http://[::]/", wfBlocked}, {"http://[::1]/", wfBlocked}, {"http://[0::1]/", wfBlocked},
		{"http://[::ffff:127.0.0.1]/", wfBlocked}, {"http://[::ffff:7f00:1]/", wfBlocked},
		{"http://[::ffff:8.8.8.8]/", wfBlocked}, {"http://[0:0:0:0:0:ffff:a9fe:a9fe]/", wfBlocked},
		{"http://[::127.0.0.1]/", wfBlocked}, {"http://[::a00:1]/", wfBlocked},
		{"http://[64:ff9b::7f00:1]/", wfBlocked}, {"http://[64:ff9b::8.8.8.8]/", wfBlocked},
		{"http://[64:ff9b:1::a00:1]/", wfBlocked}, {"http://[2002:7f00:0001::]/", wfBlocked},
		{"http://[2002:c0a8:101::1]/", wfBlocked}, {"http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", wfBlocked},
		{"http://[2001:db8:85a3::8a2e:370:7334]/", wfBlocked}, {"http://[3fff::1]/", wfBlocked},
		{"http://[fc00::]/", wfBlocked}, {"http://[fdff:ffff::1]/", wfBlocked}, {"http://[fe80::1]/", wfBlocked},
		{"http://[febf::1]/", wfBlocked}, {"http://[fec0::1]/", wfBlocked}, {"http://[feff::1]/", wfBlocked},
		{"http://[ff02::1]/", wfBlocked}, {"http://[ff0e::1]/", wfBlocked}, {"http://[100::]/", wfBlocked},
		{"http://[2001:10::]/", wfBlocked}, {"http://[2001:2f::1]/", wfBlocked}, {"http://[5f00::1]/", wfBlocked},
		{"http://[4000::1]/", wfBlocked}, {"http://[1::1]/", wfBlocked},
		// names resolving to blocked addresses
		{"http://private.test/", wfBlocked}, {"http://cgnat.test/", wfBlocked}, {"http://benchmark.test/", wfBlocked},
		{"http://doc6.test/", wfBlocked}, {"http://teredo.test/", wfBlocked}, {"http://sixtofour.test/", wfBlocked},
		{"http://sitelocal.test/", wfBlocked}, {"http://multicast.test/", wfBlocked}, {"http://broadcast.test/", wfBlocked},
		{"http://compat.test/", wfBlocked}, {"http://unspec6.test/", wfBlocked}, {"http://linklocal6.test/", wfBlocked},
		{"http://ula.test/", wfBlocked}, {"http://reserved.test/", wfBlocked}, {"http://nat64local.test/", wfBlocked},
		{"http://discard.test/", wfBlocked}, {"http://zero.test/", wfBlocked}, {"http://ietf.test/", wfBlocked},
		{"http://orchid.test/", wfBlocked}, {"http://orchid2.test/", wfBlocked}, {"http://some-public-some-not.test/", wfBlocked},
		{"http://PRIVATE.test/", wfBlocked},
		// credentials, ports and schemes do not change the host
		{"http://user:pw@127.0.0.1/", wfBlocked}, {"http://example.com@10.0.0.1/", wfBlocked},
		{"http://example.com:80@10.0.0.1/", wfBlocked}, {"https://10.0.0.1:443/", wfBlocked},
		{"http:\\\\127.0.0.1\\x", wfBlocked}, {"http:127.0.0.1", wfBlocked}, {"http:///127.0.0.1/", wfBlocked},
		{" \thttp://127.0.0.1/ ", wfBlocked}, {"http://127.0.0.1:65535/", wfBlocked},
		// not parseable as http URLs at all
		{"http://1.2.3.4.5/", invalid}, {"http://256.0.0.1/", invalid}, {"http://08.0.0.1/", invalid}, {"http://127.0.0.1../", invalid},
		{"http://[::1%25lo]/", invalid}, {"http://[fe80::1%eth0]/", invalid}, {"http://[127.0.0.1]/", invalid}, {"http://127.0.0.1:99999/", invalid},
		{"file:///etc/passwd", invalid}, {"gopher://127.0.0.1:6379/_INFO", invalid}, {"dict://127.0.0.1:11211/", invalid},
		{"ftp://127.0.0.1/", invalid}, {"//127.0.0.1/", invalid}, {"127.0.0.1", invalid}, {"http://a\x00b/", invalid},
	} {
		got := wfFetch(t, tool, c.url)
		if got.Content != c.want || !got.IsError {
			t.Errorf("%q: %+v, want %q", c.url, got, c.want)
		}
	}
	if len(dialed) > 0 {
		t.Errorf("dialled %v", dialed)
	}
	for _, name := range dns.lookups {
		if _, err := netip.ParseAddr(strings.Trim(name, "[]")); err == nil || strings.Contains(name, "localhost") {
			t.Errorf("the resolver was asked for %q", name)
		}
	}
}

func TestWebFetchRedirects(t *testing.T) {
	var srv *httptest.Server
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other server was reached: %s", r.URL)
	}))
	defer other.Close()
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/chain/"):
			var n int
			fmt.Sscanf(r.URL.Path, "/chain/%d", &n)
			if n == 0 {
				fmt.Fprint(w, "end of chain")
				return
			}
			http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusFound)
		case r.URL.Path == "/to-other-port":
			http.Redirect(w, r, other.URL+"/", http.StatusFound)
		case r.URL.Path == "/to-localhost":
			http.Redirect(w, r, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)+"/chain/0", http.StatusFound)
		case r.URL.Path == "/to-mapped":
			http.Redirect(w, r, strings.Replace(srv.URL, "127.0.0.1", "[::ffff:127.0.0.1]", 1)+"/chain/0", http.StatusFound)
		case r.URL.Path == "/to-gopher":
			w.Header().Set("Location", "gopher://127.0.0.1:70/")
			w.WriteHeader(http.StatusMovedPermanently)
		case r.URL.Path == "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusTemporaryRedirect)
		case r.URL.Path == "/to-rebind":
			http.Redirect(w, r, "http://rebind.test/", http.StatusFound)
		}
	}))
	defer srv.Close()
	ap := wfServerAddr(t, srv)
	guard := newWFGuardDialer(t, nil)
	dns := newWFFakeDNS(map[string][]string{"rebind.test": {"10.9.8.7"}})
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: []netip.AddrPort{ap}, DialContext: guard.dial, Resolver: dns})
	for _, c := range []struct{ path, want string }{
		{"/chain/5", "end of chain"},
		{"/chain/6", "Failed to fetch URL: Too many redirects. Maximum is 5."},
		{"/to-other-port", wfBlocked},
		{"/to-localhost", wfBlocked},
		{"/to-mapped", wfBlocked},
		{"/to-gopher", "Failed to fetch URL: Redirect target must use HTTP or HTTPS."},
		{"/to-metadata", wfBlocked},
		{"/to-rebind", wfBlocked},
	} {
		got := wfFetch(t, tool, srv.URL+c.path)
		if got.Content != c.want {
			t.Errorf("%s: %+v, want %q", c.path, got, c.want)
		}
		if c.path == "/chain/5" && got.URL != srv.URL+"/chain/0" {
			t.Errorf("final URL %s", got.URL)
		}
	}
	for _, d := range guard.dials() {
		if d != ap.String() {
			t.Errorf("dialled %s", d)
		}
	}
}

// DNS rebinding: a name first answers an address the test routes to its
// server, then a private one. Each connection checks what it dials.
func TestWebFetchDNSRebinding(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close") // the redirect needs a new connection, so a new lookup
		if r.URL.Path == "/first" {
			http.Redirect(w, r, "/second", http.StatusFound)
			return
		}
		fmt.Fprint(w, "reached "+r.URL.Path)
	}))
	defer srv.Close()
	dns := newWFFakeDNS(nil)
	dns.add("rebind.test", "93.184.216.34")
	dns.add("rebind.test", "127.0.0.1")
	guard := newWFGuardDialer(t, map[string]string{"93.184.216.34:80": srv.Listener.Addr().String()})
	tool := newWFTool(t, builtin.WebFetchOptions{Resolver: dns, DialContext: guard.dial})

	if got := wfFetch(t, tool, "http://rebind.test/first"); got.Content != wfBlocked {
		t.Errorf("redirect after rebinding: %+v", got)
	}
	if got := wfFetch(t, tool, "http://rebind.test/again"); got.Content != wfBlocked {
		t.Errorf("second call after rebinding: %+v", got)
	}
	if d := guard.dials(); !slices.Equal(d, []string{"93.184.216.34:80"}) {
		t.Errorf("dialled %v", d)
	}
	if len(dns.lookups) != 3 {
		t.Errorf("lookups %v: every connection resolves once", dns.lookups)
	}
}

func TestWebFetchTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/drip" {
			w.Header().Set("Content-Type", "text/plain")
			for i := 0; i < 100; i++ {
				fmt.Fprint(w, "x")
				w.(http.Flusher).Flush()
				select {
				case <-time.After(50 * time.Millisecond):
				case <-r.Context().Done():
					return
				}
			}
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	tool := newWFTool(t, builtin.WebFetchOptions{Timeout: 300 * time.Millisecond, AllowAddrs: []netip.AddrPort{wfServerAddr(t, srv)}})
	for _, path := range []string{"/hang", "/drip"} {
		start := time.Now()
		got := wfFetch(t, tool, srv.URL+path)
		if got.Content != "Failed to fetch URL: Request timed out after 300ms." || !got.IsError {
			t.Errorf("%s: %+v", path, got)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: returned after %v", path, d)
		}
	}
}

func TestWebFetchCancelled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: []netip.AddrPort{wfServerAddr(t, srv)}})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	args, _ := json.Marshal(builtin.WebFetchInput{URL: srv.URL})
	res, err := tool.Execute(ctx, args, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Output.(builtin.WebFetchResult); got.Content != "Failed to fetch URL: This operation was aborted" {
		t.Errorf("%+v", got)
	}
}

func TestWebFetchConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ap := netip.MustParseAddrPort(ln.Addr().String())
	_ = ln.Close()
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: []netip.AddrPort{ap}})
	got := wfFetch(t, tool, "http://"+ap.String()+"/")
	if want := "Failed to fetch URL: connect ECONNREFUSED " + ap.String(); got.Content != want {
		t.Errorf("got %q, want %q", got.Content, want)
	}
	got = wfFetch(t, newWFTool(t, builtin.WebFetchOptions{Resolver: newWFFakeDNS(nil)}), "http://nowhere.test/")
	if got.Content != "Failed to fetch URL: getaddrinfo ENOTFOUND nowhere.test" {
		t.Errorf("got %q", got.Content)
	}
}

func TestWebFetchHTML(t *testing.T) {
	page := `<!doctype html><html><head><title>T</title><style>body{}</style></head><body>
		<header><nav><a href="/">Home</a></nav></header>
		<main><h1>Docs</h1><p>See <a href="guide">the guide</a> and <a href="/api?v=2">the API</a>.</p>
		<pre>go test ./...</pre><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></main>
		<footer>© 2026</footer><script>track()</script></body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/new/dir/page", http.StatusMovedPermanently)
		case "/sniffed":
			w.Header()["Content-Type"] = nil // no header: sniffed as HTML
			fmt.Fprint(w, page)
		case "/xhtml":
			w.Header().Set("Content-Type", "application/xhtml+xml")
			fmt.Fprint(w, page)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page)
		}
	}))
	defer srv.Close()
	allow := []netip.AddrPort{wfServerAddr(t, srv)}
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: allow})
	want := "# Docs\n\nSee [the guide](" + srv.URL + "/new/dir/guide) and [the API](" + srv.URL + "/api?v=2).\n\n" +
		"```\ngo test ./...\n```\n\n| k | v |\n| --- | --- |\n| a | 1 |"
	got := wfFetch(t, tool, srv.URL+"/old")
	if got.Content != want || got.URL != srv.URL+"/new/dir/page" || got.Truncated {
		t.Errorf("converted:\n%s\nwant:\n%s\n(%+v)", got.Content, want, got)
	}
	for _, path := range []string{"/sniffed", "/xhtml"} {
		if got := wfFetch(t, tool, srv.URL+path); !strings.HasPrefix(got.Content, "# Docs") {
			t.Errorf("%s: %q", path, got.Content)
		}
	}
	if got := wfFetch(t, builtin.WebFetchTool, srv.URL+"/sniffed"); got.ContentType != nil && !got.IsError {
		t.Errorf("content type %v", *got.ContentType)
	}
	raw := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: allow, Raw: true})
	if got := wfFetch(t, raw, srv.URL+"/old"); got.Content != page {
		t.Errorf("raw: %q", got.Content)
	}
}

func TestWebFetchCharsets(t *testing.T) {
	cases := []struct {
		name, contentType string
		body              []byte
		want              string
	}{
		{"shift_jis header", "text/plain; charset=shift_jis", []byte{0x93, 0xfa, 0x96, 0x7b}, "日本"},
		{"gb18030 header", "text/plain; charset=GB18030", []byte{0xd6, 0xd0, 0xce, 0xc4}, "中文"},
		{"koi8-r header", "text/plain; charset=koi8-r", []byte{0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4}, "Привет"},
		{"windows-1251 meta", "text/html", []byte("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\"><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>"), "Привет"},
		{"meta charset", "text/html", []byte("<meta charset=latin1><p>na\xefve</p>"), "naïve"},
		{"header beats meta", "text/html; charset=utf-8", []byte("<meta charset=latin1><p>naïve</p>"), "naïve"},
		{"utf-16le BOM", "text/plain", []byte{0xff, 0xfe, 'h', 0, 'i', 0}, "hi"},
		{"utf-16be BOM", "text/plain; charset=latin1", []byte{0xfe, 0xff, 0, 'h', 0, 'i'}, "hi"},
		{"utf-8 BOM beats header", "text/plain; charset=latin1", []byte("\xef\xbb\xbfnaïve"), "naïve"},
		{"undeclared latin1 text", "text/plain", []byte("caf\xe9"), "café"},
		{"undeclared latin1 html", "text/html", []byte("<p>caf\xe9</p>"), "café"},
		{"json stays utf-8", "application/json", []byte("\"caf\xe9\""), "\"caf\ufffd\""},
		{"unknown label", "text/plain; charset=x-nonsense", []byte("naïve"), "naïve"},
		{"utf-8 text", "text/plain", []byte("naïve 😀"), "naïve 😀"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := cases[len(r.URL.Path)-1] // path "/", "//", ...: the case index
		w.Header().Set("Content-Type", c.contentType)
		_, _ = w.Write(c.body)
	}))
	defer srv.Close()
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: []netip.AddrPort{wfServerAddr(t, srv)}})
	for i, c := range cases {
		got := wfFetch(t, tool, srv.URL+strings.Repeat("/", i+1))
		if got.Content != c.want {
			t.Errorf("%s: %q, want %q", c.name, got.Content, c.want)
		}
	}
}

func TestWebFetchLimits(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/huge-html": // 16 MiB of paragraphs
			w.Header().Set("Content-Type", "text/html")
			p := []byte(strings.Repeat("<p>word</p>", 1000))
			for i := 0; i < (16<<20)/len(p); i++ {
				if _, err := w.Write(p); err != nil {
					return
				}
			}
		case "/long-html": // converted text longer than the cap
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<p>"+strings.Repeat("ab ", 60_000)+"</p>")
		case "/small-html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<p>"+strings.Repeat("x", 2000)+"</p><p>tail</p>")
		}
	}))
	defer srv.Close()
	allow := []netip.AddrPort{wfServerAddr(t, srv)}
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: allow, MaxBytes: 1 << 20})
	got := wfFetch(t, tool, srv.URL+"/huge-html")
	if !got.Truncated || len(got.Content) != builtin.WebFetchMaxChars || !strings.HasPrefix(got.Content, "word\n\nword") {
		t.Errorf("huge HTML: truncated %v, %d bytes", got.Truncated, len(got.Content))
	}
	got = wfFetch(t, tool, srv.URL+"/long-html")
	if !got.Truncated || len(got.Content) != builtin.WebFetchMaxChars {
		t.Errorf("long HTML: truncated %v, %d bytes", got.Truncated, len(got.Content))
	}
	// The byte cap alone: the converted text is short, but the page was cut.
	small := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: allow, MaxBytes: 1000})
	got = wfFetch(t, small, srv.URL+"/small-html")
	if !got.Truncated || strings.Contains(got.Content, "tail") || len(got.Content) != 997 {
		t.Errorf("byte cap: truncated %v, %d bytes", got.Truncated, len(got.Content))
	}
}

func TestWebFetchHTTPS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "secure")
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	defer srv.Close()
	allow := []netip.AddrPort{wfServerAddr(t, srv)}
	pool := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: allow, TLSClientConfig: &tls.Config{RootCAs: pool}})
	if got := wfFetch(t, tool, srv.URL); got.Content != "secure" || !got.OK {
		t.Errorf("%+v", got)
	}
	untrusted := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: allow})
	if got := wfFetch(t, untrusted, srv.URL); !got.IsError || !strings.Contains(got.Content, "certificate") {
		t.Errorf("untrusted certificate: %+v", got)
	}
}

// Many calls at once share nothing but the tool, and leave nothing
// running behind them.
func TestWebFetchConcurrentNoLeaks(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
			return
		}
		fmt.Fprint(w, r.URL.Path)
	}))
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: []netip.AddrPort{wfServerAddr(t, srv)}, Timeout: 500 * time.Millisecond})
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			path := fmt.Sprintf("/p%d", i)
			if i%5 == 0 {
				path = "/slow"
			}
			got := wfFetch(t, tool, srv.URL+path)
			if path != "/slow" && got.Content != path || path == "/slow" && !got.IsError {
				t.Errorf("%s: %+v", path, got)
			}
		})
	}
	wg.Wait()
	srv.Close()
}

// In an agent run the model calls web_fetch, the result chunk carries
// Mastra's result object, and the next model call sees it.
func TestWebFetchInAgent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "It is sunny.")
	}))
	defer srv.Close()
	tool := newWFTool(t, builtin.WebFetchOptions{AllowAddrs: []netip.AddrPort{wfServerAddr(t, srv)}})
	args, _ := json.Marshal(builtin.WebFetchInput{URL: srv.URL + "/weather"})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "web_fetch", Args: string(args)}}},
		mock.Step{Text: "Sunny."},
	)
	a, err := agent.New(agent.Config{ID: "reader", Instructions: "Read the web.", Model: m, Tools: tools.Set{"web_fetch": tool}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(context.Background(), "Weather?")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.ToolResults) != 1 {
		t.Fatalf("%d tool results", len(out.ToolResults))
	}
	raw, err := json.Marshal(out.ToolResults[0].Payload.(stream.ToolResultPayload).Result)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"content":"It is sunny.","truncated":false,"status":200,"statusText":"OK","contentType":"text/plain",` +
		`"url":"` + srv.URL + `/weather","ok":true}`
	if string(raw) != want {
		t.Errorf("tool result\n got %s\nwant %s", raw, want)
	}
	calls := m.Calls()
	if len(calls) != 2 {
		t.Fatalf("%d model calls", len(calls))
	}
	prompt, err := json.Marshal(calls[1].Messages)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(prompt), `"tool-result"`) || !strings.Contains(string(prompt), "It is sunny.") {
		t.Errorf("the second model call does not see the result: %s", prompt)
	}
}
