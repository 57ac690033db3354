package builtin

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/internal/netguard"
)

// The expected URLs are Node.js 22's (Mastra's runtime): new URL(s).href.
func TestParseWebURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://ex.com", "http://ex.com/"},
		{"HTTP://EX.COM:80/ok", "http://ex.com/ok"},
		{"  http://ex.com/ok  ", "http://ex.com/ok"},
		{"http:ex.com/ok", "http://ex.com/ok"},
		{`http:\\ex.com\ok`, "http://ex.com/ok"},
		{"http:///ex.com", "http://ex.com/"},
		{"http://ex.com/a/./b/../../ok?q= x#f g", "http://ex.com/ok?q=%20x#f%20g"},
		{"http://ex.com/p|^`{}", "http://ex.com/p|^%60%7B%7D"},
		{"http://ex.com/?a`b{}|^", "http://ex.com/?a`b{}|^"},
		{"http://ex.com/?a b\"<>'", "http://ex.com/?a%20b%22%3C%3E%27"},
		{"http://ex.com/#a`b{}\"", "http://ex.com/#a%60b{}%22"},
		{"http://a:b:c@ex.com/", "http://a:b%3Ac@ex.com/"},
		{"http://a@b@ex.com/", "http://a%40b@ex.com/"},
		{"http://ü:ö@ex.com/", "http://%C3%BC:%C3%B6@ex.com/"},
		{"http://ex.com/ü?ü#ü", "http://ex.com/%C3%BC?%C3%BC#%C3%BC"},
		{"http://ex.com:/", "http://ex.com/"},
		{"http://ex.com:0/", "http://ex.com:0/"},
		{"http://ex.com:00080/", "http://ex.com/"},
		{"http://ex.com:000000000000000000000000000000000000080/", "http://ex.com/"},
		{"https://ex.com:443", "https://ex.com/"},
		{"https://ex.com:80/", "https://ex.com:80/"},
		{"http://ex.com/a/..", "http://ex.com/"},
		{"http://ex.com/a/.", "http://ex.com/a/"},
		{"http://ex.com/a/%2e", "http://ex.com/a/"},
		{"http://example.com/a/%2e%2E/b", "http://example.com/b"},
		{"http://ex.com//x", "http://ex.com//x"},
		{"http://@ex.com/", "http://ex.com/"},
		{"http://:@ex.com/", "http://ex.com/"},
		{"http://user:@ex.com/", "http://user@ex.com/"},
		{"http://:pw@ex.com/", "http://:pw@ex.com/"},
		{"http://ex.com?x", "http://ex.com/?x"},
		{"http://ex.com#y", "http://ex.com/#y"},
		{"http://ex.com/\x01x", "http://ex.com/%01x"},
		{"http://ex.com/a%zz", "http://ex.com/a%zz"},
		{"http://e\tx.c\nom/", "http://ex.com/"},
		{"http://0x7f.1/", "http://127.0.0.1/"},
		{"http://[::ffff:127.0.0.1]:8080/", "http://[::ffff:7f00:1]:8080/"},
		{"http://ΑΒΓ.com/", "http://xn--mxacd.com/"},
	} {
		u, err := parseWebURL(c.in)
		if err != nil {
			t.Errorf("parseWebURL(%q): %v", c.in, err)
			continue
		}
		if got := u.String(); got != c.want {
			t.Errorf("parseWebURL(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want error
	}{
		{"ftp://ex.com/", errNotHTTP}, {"file:///etc/passwd", errNotHTTP}, {"javascript:alert(1)", errNotHTTP},
		{"ex.com/ok", errNotHTTP}, {"//ex.com/", errNotHTTP}, {"", errNotHTTP}, {"1http://ex.com", errNotHTTP},
		{"http://", errBadURL}, {"http://ex.com:99999/", errBadURL}, {"http://ex.com:8x/", errBadURL},
		{"http://a b.com/", errBadURL}, {"http://user@/", errBadURL}, {"http://[::1/", errBadURL},
		{"http://1.2.3.4.5/", errBadURL}, {"http://ex.com:65536/", errBadURL}, {"http://ex.com:+80/", errBadURL},
	} {
		if _, err := parseWebURL(c.in); !errors.Is(err, c.want) {
			t.Errorf("parseWebURL(%q): %v, want %v", c.in, err, c.want)
		}
	}
}

// Node.js's new URL(ref, "http://u:p@ex.com:8080/a/b/c?q=1#f").href.
func TestWebURLResolve(t *testing.T) {
	base, err := parseWebURL("http://u:p@ex.com:8080/a/b/c?q=1#f")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ ref, want string }{
		{"d", "http://u:p@ex.com:8080/a/b/d"},
		{"./d", "http://u:p@ex.com:8080/a/b/d"},
		{"../d", "http://u:p@ex.com:8080/a/d"},
		{"../../../../d", "http://u:p@ex.com:8080/d"},
		{"/d", "http://u:p@ex.com:8080/d"},
		{"//other.org/x", "http://other.org/x"},
		{`\\other.org\x`, "http://other.org/x"},
		{"?z=2", "http://u:p@ex.com:8080/a/b/c?z=2"},
		{"#g", "http://u:p@ex.com:8080/a/b/c?q=1#g"},
		{"", "http://u:p@ex.com:8080/a/b/c?q=1"},
		{"http:d", "http://u:p@ex.com:8080/a/b/d"},
		{"http:/d", "http://u:p@ex.com:8080/d"},
		{"http://h2/", "http://h2/"},
		{"https:h3/p", "https://h3/p"},
		{"HTTPS://H4", "https://h4/"},
		{"d e", "http://u:p@ex.com:8080/a/b/d%20e"},
		{" /trim ", "http://u:p@ex.com:8080/trim"},
		{"/a%zz", "http://u:p@ex.com:8080/a%zz"},
		{"/%2e%2E/x", "http://u:p@ex.com:8080/x"},
		{"x\ty", "http://u:p@ex.com:8080/a/b/xy"},
		{`http:\\h5\p`, "http://h5/p"},
	} {
		u, err := base.resolve(c.ref)
		if err != nil {
			t.Errorf("resolve(%q): %v", c.ref, err)
			continue
		}
		if got := u.String(); got != c.want {
			t.Errorf("resolve(%q) = %s, want %s", c.ref, got, c.want)
		}
	}
	for _, c := range []struct {
		ref  string
		want error
	}{{"ftp://x", errNotHTTP}, {"mailto:a@b", errNotHTTP}, {"javascript:alert(1)", errNotHTTP}, {"//", errBadURL}, {"http://[::1", errBadURL}} {
		if _, err := base.resolve(c.ref); !errors.Is(err, c.want) {
			t.Errorf("resolve(%q): %v, want %v", c.ref, err, c.want)
		}
	}
}

// net/http is handed exactly the checked host and the serialized target.
func TestWebURLRequestURL(t *testing.T) {
	for _, c := range []struct{ in, host, target, user string }{
		{"http://ex.com/a|b?x`y#frag", "ex.com", "/a|b?x`y", ""},
		{"http://u:p%40ss@ex.com:8080//x?", "ex.com:8080", "http://ex.com:8080//x?", "u:p@ss"},
		{"https://[::ffff:1.2.3.4]/", "[::ffff:102:304]", "/", ""},
	} {
		u, err := parseWebURL(c.in)
		if err != nil {
			t.Fatal(err)
		}
		r := u.requestURL()
		var user string
		if r.User != nil {
			p, _ := r.User.Password()
			user = r.User.Username() + ":" + p
		}
		if r.Host != c.host || r.RequestURI() != c.target || user != c.user {
			t.Errorf("%s: host %q target %q user %q", c.in, r.Host, r.RequestURI(), r.User)
		}
		if r.Fragment != "" {
			t.Errorf("%s: fragment sent", c.in)
		}
	}
}

func TestTruncateUTF16(t *testing.T) {
	for _, c := range []struct {
		in        string
		max       int
		want      string
		truncated bool
	}{
		{"abc", 3, "abc", false},
		{"abcd", 3, "abc", true},
		{"ééé", 3, "ééé", false},
		{"éééé", 3, "ééé", true},
		{"a😀", 3, "a😀", false},
		{"a😀b", 3, "a😀", true},
		{"ab😀", 3, "ab", true}, // no half a pair
		{"😀😀", 3, "😀", true},
		{"", 0, "", false},
	} {
		got, truncated := truncateUTF16(c.in, c.max)
		if got != c.want || truncated != c.truncated {
			t.Errorf("truncateUTF16(%q, %d) = %q, %v; want %q, %v", c.in, c.max, got, truncated, c.want, c.truncated)
		}
	}
}

func TestWebFetcherDefaults(t *testing.T) {
	f, err := newWebFetcher(WebFetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.timeout != 15*time.Second || f.maxBytes != 5<<20 || f.raw {
		t.Errorf("defaults: %v %d %v", f.timeout, f.maxBytes, f.raw)
	}
	if len(f.dialer.Policy.Allow) != 0 || f.dialer.Resolver != nil || f.dialer.Dial != nil {
		t.Errorf("the default policy is not the strict one: %+v", f.dialer)
	}
	tr := f.newTransport()
	if tr.Proxy != nil {
		t.Error("the transport uses a proxy")
	}
	if tr.DialContext == nil || tr.DialTLSContext != nil {
		t.Error("the transport does not dial through the guarded dialer only")
	}
	r := fetchTimeoutReason(t, f)
	if r != "Request timed out after 15000ms." {
		t.Errorf("timeout message %q", r)
	}
}

func fetchTimeoutReason(t *testing.T, f *webFetcher) string {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errTimedOut)
	return f.reason(ctx, errors.New("x"))
}

// countingBody records how much of a body was read.
type countingBody struct {
	r    io.Reader
	read int
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += n
	return n, err
}

func (b *countingBody) Close() error { return nil }

// Text is read only as far as the character cap needs; HTML as far as
// MaxBytes.
func TestReadBodyStopsEarly(t *testing.T) {
	f, err := newWebFetcher(WebFetchOptions{MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := parseWebURL("http://ex.com/")
	const slack = 512 // the reader's buffer
	for _, c := range []struct {
		contentType string
		body        []byte
		maxRead     int
		wantUnits   int
		truncated   bool
	}{
		{"text/plain", bytes.Repeat([]byte("a"), 10<<20), 4*WebFetchMaxChars + 5 + slack, WebFetchMaxChars, true},
		{"application/json", bytes.Repeat([]byte("é"), 5<<20), 4*WebFetchMaxChars + 5 + slack, WebFetchMaxChars, true},
		{"text/html", bytes.Repeat([]byte("<p>a</p>"), 1<<20), 1<<20 + 1 + slack, WebFetchMaxChars, true},
		{"text/plain", []byte("short"), 5, 5, false},
	} {
		body := &countingBody{r: bytes.NewReader(c.body)}
		resp := &http.Response{Header: http.Header{"Content-Type": {c.contentType}}, Body: body}
		content, truncated, err := f.readBody(resp, u)
		if err != nil {
			t.Fatal(err)
		}
		if body.read > c.maxRead {
			t.Errorf("%s: read %d bytes, want at most %d", c.contentType, body.read, c.maxRead)
		}
		if n := len([]rune(content)); n != c.wantUnits || truncated != c.truncated {
			t.Errorf("%s: %d characters, truncated %v", c.contentType, n, truncated)
		}
	}
}

func TestNewWebFetchToolOptionErrors(t *testing.T) {
	for _, opts := range []WebFetchOptions{
		{Timeout: -time.Second},
		{MaxBytes: -1},
		{AllowAddrs: []netip.AddrPort{{}}},
		{AllowAddrs: []netip.AddrPort{netip.AddrPortFrom(netip.MustParseAddr("fe80::1%eth0"), 80)}},
	} {
		if _, err := NewWebFetchTool(opts); err == nil || !strings.HasPrefix(err.Error(), "builtin: web_fetch: ") {
			t.Errorf("%+v: %v", opts, err)
		}
	}
}

// FuzzWebURL: a parsed URL serializes to a fixed point, and net/http is
// handed the very host the policy checks.
func FuzzWebURL(f *testing.F) {
	for _, s := range []string{
		"http://ex.com/a/../b?c#d", "http:\\\\0x7f.1\\x", "https://u:p@[::1]:8443//x?", "http://ＬＯＣＡＬＨＯＳＴ/",
		"http://a@b@c/", "http://%31%32%37.1/", "HTTP://EX.COM:00080", "http:/x/y/%2e%2e/z", "http://ex.com/ü?ü#ü",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := parseWebURL(s)
		if err != nil {
			return
		}
		again, err := parseWebURL(u.String())
		if err != nil || again.String() != u.String() {
			t.Fatalf("%q -> %q -> %v %v", s, u.String(), again, err)
		}
		r := u.requestURL()
		host := r.Hostname()
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		h, err := netguard.ParseHost(host)
		if err != nil || h != u.host {
			t.Fatalf("%q: net/http would dial %q (%+v, %v), the policy checks %+v", s, r.Host, h, err, u.host)
		}
		if p := r.Port(); p != "" && p != strconv.Itoa(int(u.effectivePort())) {
			t.Fatalf("%q: port %s, checked %d", s, p, u.effectivePort())
		}
	})
}
