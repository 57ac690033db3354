package netguard_test

import (
	"net/netip"
	"testing"

	"github.com/gomastra/mastra/internal/netguard"
)

// Every blocked block at both edges, with its allowed neighbours.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		addr    string
		blocked bool
		reason  string
	}{
		{"0.0.0.0", true, "this network"},
		{"0.255.255.255", true, "this network"},
		{"1.0.0.0", false, ""},
		{"9.255.255.255", false, ""},
		{"10.0.0.0", true, "private-use"},
		{"10.255.255.255", true, "private-use"},
		{"11.0.0.0", false, ""},
		{"100.63.255.255", false, ""},
		{"100.64.0.0", true, "shared address space (CGNAT)"},
		{"100.127.255.255", true, "shared address space (CGNAT)"},
		{"100.128.0.0", false, ""},
		{"126.255.255.255", false, ""},
		{"127.0.0.1", true, "loopback"},
		{"127.255.255.254", true, "loopback"},
		{"128.0.0.0", false, ""},
		{"169.253.255.255", false, ""},
		{"169.254.169.254", true, "link-local"},
		{"169.255.0.0", false, ""},
		{"172.15.255.255", false, ""},
		{"172.16.0.0", true, "private-use"},
		{"172.31.255.255", true, "private-use"},
		{"172.32.0.0", false, ""},
		{"191.255.255.255", false, ""},
		{"192.0.0.0", true, "IETF protocol assignments"},
		{"192.0.0.255", true, "IETF protocol assignments"},
		{"192.0.1.0", false, ""},
		{"192.0.2.0", true, "documentation (TEST-NET-1)"},
		{"192.0.2.255", true, "documentation (TEST-NET-1)"},
		{"192.0.3.0", false, ""},
		{"192.31.196.1", false, ""},
		{"192.52.193.1", false, ""},
		{"192.88.98.255", false, ""},
		{"192.88.99.1", true, "6to4 relay anycast (deprecated)"},
		{"192.88.100.0", false, ""},
		{"192.167.255.255", false, ""},
		{"192.168.0.0", true, "private-use"},
		{"192.168.255.255", true, "private-use"},
		{"192.169.0.0", false, ""},
		{"192.175.48.1", false, ""},
		{"198.17.255.255", false, ""},
		{"198.18.0.0", true, "benchmarking"},
		{"198.19.255.255", true, "benchmarking"},
		{"198.20.0.0", false, ""},
		{"198.51.99.255", false, ""},
		{"198.51.100.0", true, "documentation (TEST-NET-2)"},
		{"198.51.101.0", false, ""},
		{"203.0.112.255", false, ""},
		{"203.0.113.255", true, "documentation (TEST-NET-3)"},
		{"203.0.114.0", false, ""},
		{"223.255.255.255", false, ""},
		{"224.0.0.0", true, "multicast"},
		{"239.255.255.255", true, "multicast"},
		{"240.0.0.0", true, "reserved"},
		{"255.255.255.254", true, "reserved"},
		{"255.255.255.255", true, "limited broadcast"},
		{"8.8.8.8", false, ""},
		{"93.184.216.34", false, ""},

		{"::", true, "unspecified"},
		{"::1", true, "loopback"},
		{"::2", true, "IPv4-compatible (deprecated)"},
		{"::7f00:1", true, "IPv4-compatible (deprecated)"},
		{"::ffff:8.8.8.8", true, "IPv4-mapped"},
		{"::ffff:127.0.0.1", true, "IPv4-mapped"},
		{"::1:0:0:0", true, "not global unicast (outside 2000::/3)"},
		{"64:ff9b::8.8.8.8", true, "NAT64 well-known prefix (IPv4-embedded)"},
		{"64:ff9b:1::a00:1", true, "NAT64 local-use prefix (IPv4-embedded)"},
		{"100::1", true, "discard-only"},
		{"100:0:0:1::1", true, "dummy prefix"},
		{"1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", true, "not global unicast (outside 2000::/3)"},
		{"2000::", false, ""},
		{"2001::", true, "Teredo (IPv4-embedded)"},
		{"2001:0:ffff:ffff:ffff:ffff:ffff:ffff", true, "Teredo (IPv4-embedded)"},
		{"2001:1::1", true, "IETF protocol assignments"},
		{"2001:2::1", true, "benchmarking"},
		{"2001:10::1", true, "ORCHID (deprecated)"},
		{"2001:20::1", true, "ORCHIDv2"},
		{"2001:1ff:ffff::", true, "IETF protocol assignments"},
		{"2001:200::1", false, ""},
		{"2001:db7:ffff::", false, ""},
		{"2001:db8::1", true, "documentation"},
		{"2001:db9::", false, ""},
		{"2001:4860:4860::8888", false, ""},
		{"2002::", true, "6to4 (IPv4-embedded)"},
		{"2002:7f00:1::1", true, "6to4 (IPv4-embedded)"},
		{"2003::", false, ""},
		{"2606:4700:4700::1111", false, ""},
		{"3ffe:ffff::", false, ""},
		{"3fff::1", true, "documentation"},
		{"3fff:fff:ffff::", true, "documentation"},
		{"3fff:1000::", false, ""},
		{"4000::1", true, "not global unicast (outside 2000::/3)"},
		{"5f00::1", true, "SRv6 SIDs"},
		{"fbff::1", true, "not global unicast (outside 2000::/3)"},
		{"fc00::1", true, "unique-local"},
		{"fdff:ffff::1", true, "unique-local"},
		{"fe80::1", true, "link-local"},
		{"fe80::1%eth0", true, "link-local"},
		{"febf::1", true, "link-local"},
		{"fec0::1", true, "site-local (deprecated)"},
		{"ff02::1", true, "multicast"},
	} {
		r, blocked := netguard.Classify(netip.MustParseAddr(c.addr))
		if blocked != c.blocked || r.Name != c.reason {
			t.Errorf("Classify(%s) = %q, %v; want %q, %v", c.addr, r.Name, blocked, c.reason, c.blocked)
		}
		if netguard.Blocked(netip.MustParseAddr(c.addr)) != c.blocked {
			t.Errorf("Blocked(%s) disagrees with Classify", c.addr)
		}
	}
	if !netguard.Blocked(netip.Addr{}) {
		t.Error("the invalid address is not blocked")
	}
}
