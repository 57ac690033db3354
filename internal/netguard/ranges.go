package netguard

import "net/netip"

// Range is one blocked address block: its prefix and what IANA (or the
// RFC that retired it) calls it.
type Range struct {
	Prefix netip.Prefix
	Name   string
}

// blockedV4 are the IPv4 blocks that are refused, from the IANA IPv4
// Special-Purpose Address Registry plus multicast and the reserved class E
// space. Blocks the registry marks globally reachable and that serve real
// traffic (AS112 192.31.196.0/24 and 192.175.48.0/24, AMT 192.52.193.0/24)
// are allowed. The limited broadcast address comes before 240.0.0.0/4 so
// that it gets its own name.
var blockedV4 = []Range{
	{netip.MustParsePrefix("0.0.0.0/8"), "this network"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private-use"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared address space (CGNAT)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private-use"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation (TEST-NET-1)"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast (deprecated)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private-use"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation (TEST-NET-2)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation (TEST-NET-3)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("255.255.255.255/32"), "limited broadcast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
}

// globalUnicastV6 is the only IPv6 space that may be dialled (IANA IPv6
// Address Space: everything else is reserved by the IETF, unique-local,
// link-local, site-local or multicast).
var globalUnicastV6 = netip.MustParsePrefix("2000::/3")

// namedV6 names the well-known IPv6 blocks outside 2000::/3 (all of that
// space is refused; these only give a clearer reason) and lists the
// blocks inside 2000::/3 that are refused. Order matters: the first match
// names the reason.
var namedV6 = []Range{
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("::ffff:0:0/96"), "IPv4-mapped"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible (deprecated)"},
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64 well-known prefix (IPv4-embedded)"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "NAT64 local-use prefix (IPv4-embedded)"},
	{netip.MustParsePrefix("100::/64"), "discard-only"},
	{netip.MustParsePrefix("100:0:0:1::/64"), "dummy prefix"},
	{netip.MustParsePrefix("5f00::/16"), "SRv6 SIDs"},
	{netip.MustParsePrefix("fc00::/7"), "unique-local"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "site-local (deprecated)"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
	// Inside 2000::/3.
	{netip.MustParsePrefix("2001::/32"), "Teredo (IPv4-embedded)"},
	{netip.MustParsePrefix("2001:2::/48"), "benchmarking"},
	{netip.MustParsePrefix("2001:10::/28"), "ORCHID (deprecated)"},
	{netip.MustParsePrefix("2001:20::/28"), "ORCHIDv2"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignments"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("2002::/16"), "6to4 (IPv4-embedded)"},
	{netip.MustParsePrefix("3fff::/20"), "documentation"},
}

// notGlobalV6 is the reason for IPv6 outside 2000::/3 without a name.
var notGlobalV6 = Range{Prefix: netip.MustParsePrefix("::/0"), Name: "not global unicast (outside 2000::/3)"}

// Classify reports whether addr is in a blocked range, and which. It looks
// at addr exactly as given: an IPv4-mapped IPv6 address (::ffff:a.b.c.d)
// is blocked as IPv4-mapped whatever IPv4 address it carries, the zone of
// an IPv6 address is ignored, and the invalid Addr is blocked (as
// "invalid"). It is a pure function, safe for concurrent use.
func Classify(addr netip.Addr) (Range, bool) {
	switch {
	case !addr.IsValid():
		return Range{Name: "invalid"}, true
	case addr.Is4():
		for _, r := range blockedV4 {
			if r.Prefix.Contains(addr) {
				return r, true
			}
		}
		return Range{}, false
	}
	addr = addr.WithZone("")
	for _, r := range namedV6 {
		if r.Prefix.Contains(addr) {
			return r, true
		}
	}
	if !globalUnicastV6.Contains(addr) {
		return notGlobalV6, true
	}
	return Range{}, false
}

// Blocked reports whether addr is in a blocked range (see [Classify]).
func Blocked(addr netip.Addr) bool {
	_, blocked := Classify(addr)
	return blocked
}
