package netguard_test

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/gomastra/mastra/internal/netguard"
)

func TestPolicyCheckAddrPort(t *testing.T) {
	allowed := netip.MustParseAddrPort("127.0.0.1:8080")
	p := netguard.Policy{Allow: []netip.AddrPort{allowed}}
	for _, c := range []struct {
		ap     string
		strict bool // allowed by the zero Policy
		seam   bool // allowed by p
	}{
		{"127.0.0.1:8080", false, true},
		{"127.0.0.1:8081", false, false},
		{"127.0.0.2:8080", false, false},
		{"[::ffff:127.0.0.1]:8080", false, false},
		{"[::1]:8080", false, false},
		{"10.0.0.1:80", false, false},
		{"8.8.8.8:443", true, true},
		{"[2606:4700:4700::1111]:443", true, true},
	} {
		ap := netip.MustParseAddrPort(c.ap)
		if err := (netguard.Policy{}).CheckAddrPort(ap); (err == nil) != c.strict {
			t.Errorf("strict policy on %s: %v", ap, err)
		}
		err := p.CheckAddrPort(ap)
		if (err == nil) != c.seam {
			t.Errorf("allow-127.0.0.1:8080 policy on %s: %v", ap, err)
		}
		if err != nil && !errors.Is(err, netguard.ErrBlocked) {
			t.Errorf("%s: %v does not wrap ErrBlocked", ap, err)
		}
	}
}

func TestPolicyCheckHost(t *testing.T) {
	for _, c := range []struct {
		host    string
		blocked bool
	}{
		{"localhost", true},
		{"LOCALHOST", true},
		{"localhost.", true},
		{"ｌｏｃａｌｈｏｓｔ", true},
		{"api.localhost", true},
		{"a.b.LOCALHOST.", true},
		{"localhost.com", false},
		{"mylocalhost", false},
		{"example.com", false},
		{"0x7f.1", true},
		{"[::ffff:7f00:1]", true},
		{"[::7f00:1]", true},
		{"[64:ff9b::7f00:1]", true},
		{"[2002:7f00:1::]", true},
		{"[2001:0:4136:e378:8000:63bf:80ff:fffe]", true},
		{"[fec0::1]", true},
		{"8.8.8.8", false},
	} {
		h, err := netguard.ParseHost(c.host)
		if err != nil {
			t.Fatal(err)
		}
		err = netguard.Policy{}.CheckHost(h, 80)
		if (err != nil) != c.blocked {
			t.Errorf("CheckHost(%s) = %v, want blocked %v", c.host, err, c.blocked)
		}
	}
}

func TestBlockedErrorText(t *testing.T) {
	h, _ := netguard.ParseHost("0x7f.1")
	err := netguard.Policy{}.CheckHost(h, 80)
	if got, want := err.Error(), "netguard: 127.0.0.1 is a blocked address: loopback 127.0.0.0/8"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	h, _ = netguard.ParseHost("[::2]")
	err = netguard.Policy{}.CheckHost(h, 80)
	if !strings.Contains(err.Error(), "IPv4-compatible") {
		t.Errorf("got %q", err)
	}
	var be *netguard.BlockedError
	if !errors.As(err, &be) || be.Addr != netip.MustParseAddr("::2") {
		t.Errorf("BlockedError %+v", be)
	}
}
