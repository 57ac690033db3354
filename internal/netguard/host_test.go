package netguard_test

import (
	"errors"
	"testing"

	"github.com/gomastra/mastra/internal/netguard"
)

// The expected forms are what Node.js 22's URL parser (Mastra's runtime)
// makes of the same hosts: new URL("http://" + host + "/").host.
func TestParseHost(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// inet_aton notations of 127.0.0.1.
		{"127.0.0.1", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"0X7F.0X0.0X0.0X1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"017700000001", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0177.0.0.01", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"127.0.0.1.", "127.0.0.1"},
		{"0", "0.0.0.0"},
		{"0x", "0.0.0.0"},
		{"1.2.3.0x", "1.2.3.0"},
		{"4294967295", "255.255.255.255"},
		{"000000000000000000000000000177.1", "127.0.0.1"},
		// Unicode and percent-encoded forms.
		{"１２７.０.０.１", "127.0.0.1"},
		{"127。0。0。1", "127.0.0.1"},
		{"127．0．0．1", "127.0.0.1"},
		{"127｡0｡0｡1", "127.0.0.1"},
		{"%31%32%37.0.0.1", "127.0.0.1"},
		{"⑦.com", "7.com"},
		// Names.
		{"LOCALHOST", "localhost"},
		{"localhost.", "localhost."},
		{"ｌｏｃａｌｈｏｓｔ", "localhost"},
		{"local\u00adhost", "localhost"},
		{"\u200blocalhost", "localhost"},
		{"local%C2%ADhost", "localhost"},
		{"Example.COM", "example.com"},
		{"ΑΒΓ.com", "xn--mxacd.com"},
		{"faß.de", "xn--fa-hia.de"},
		{"foo.0x1g", "foo.0x1g"},
		{"ex_am*ple.com", "ex_am*ple.com"},
		// IPv6.
		{"[::1]", "[::1]"},
		{"[0:0:0:0:0:0:0:1]", "[::1]"},
		{"[::ffff:127.0.0.1]", "[::ffff:7f00:1]"},
		{"[::127.0.0.1]", "[::7f00:1]"},
		{"[64:ff9b::10.0.0.1]", "[64:ff9b::a00:1]"},
		{"[2001:DB8:0:0:1:0:0:1]", "[2001:db8::1:0:0:1]"},
		{"[1:0:0:2:0:0:0:3]", "[1:0:0:2::3]"},
	} {
		h, err := netguard.ParseHost(c.in)
		if err != nil {
			t.Errorf("ParseHost(%q): %v", c.in, err)
			continue
		}
		if got := h.String(); got != c.want {
			t.Errorf("ParseHost(%q) = %s, want %s", c.in, got, c.want)
		}
		if h.IsIP() == (h.Name != "") {
			t.Errorf("ParseHost(%q) = %+v: exactly one of Name and Addr must be set", c.in, h)
		}
	}
}

func TestParseHostInvalid(t *testing.T) {
	for _, in := range []string{
		"", "1.2.3.4.5", "08.1.1.1", "1.1.1.08", "1.256.1.1", "4294967296", "256.0.0.1",
		"a.b.c.1", "1..2", "0x1g.1", "99999999999999999999999999",
		"[::1", "[fe80::1%25eth0]", "[1.2.3.4]", "[::1]x", "[1::2::3]",
		"ex ample", "a%b", "a%zzb", "xn--zz", "⒈.com", "a<b", "a^b", "a|b", "a\\b", "a\x00b", "%00",
		"exa%20mple", "%",
		// Empty labels: valid for the URL standard, but no DNS name.
		"a..b", "localhost..", "127.0.0.1..", ".a", ".", "..",
	} {
		h, err := netguard.ParseHost(in)
		if err == nil {
			t.Errorf("ParseHost(%q) = %s, want an error", in, h)
			continue
		}
		if !errors.Is(err, netguard.ErrInvalidHost) {
			t.Errorf("ParseHost(%q) error %v does not wrap ErrInvalidHost", in, err)
		}
	}
}

// A parsed host, written out and parsed again, is the same host.
func TestParseHostRoundTrip(t *testing.T) {
	for _, in := range []string{"0x7f.1", "[::ffff:1.2.3.4]", "ΑΒΓ.com", "localhost.", "[fe80::]", "8.8.8.8"} {
		h, err := netguard.ParseHost(in)
		if err != nil {
			t.Fatal(err)
		}
		again, err := netguard.ParseHost(h.String())
		if err != nil || again != h {
			t.Errorf("%q: %+v, reparsed %+v (%v)", in, h, again, err)
		}
	}
}
