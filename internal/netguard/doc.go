// Package netguard keeps outgoing connections away from internal networks
// (server-side request forgery protection): a URL host parser that sees
// every notation of an address, an address policy, and a dialer that
// applies the policy to the addresses it actually dials.
//
// # Hosts
//
// [ParseHost] reads a URL host the way the WHATWG URL standard (browsers,
// Node.js) does: percent-decoding, IDNA mapping (case, fullwidth forms,
// ideographic full stops, ignored code points), and inet_aton IPv4 forms
// ("0x7f.1", "2130706433", "017700000001", "127.1", a trailing dot). A
// host whose last label is numeric is an address or an error, never a
// name, so no resolver can interpret it on its own.
//
// # Blocked addresses
//
// Decided from the IANA IPv4 and IPv6 Special-Purpose Address Registries
// and the IPv6 Address Space registry ([Classify]):
//
// IPv4: 0.0.0.0/8 (this network, incl. 0.0.0.0), 10.0.0.0/8, 172.16.0.0/12,
// 192.168.0.0/16 (private-use), 100.64.0.0/10 (CGNAT), 127.0.0.0/8
// (loopback), 169.254.0.0/16 (link-local), 192.0.0.0/24 (IETF protocol
// assignments), 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24
// (documentation), 192.88.99.0/24 (deprecated 6to4 relay anycast),
// 198.18.0.0/15 (benchmarking), 224.0.0.0/4 (multicast), 240.0.0.0/4
// (reserved, incl. 255.255.255.255).
//
// IPv6: everything outside global unicast 2000::/3, which covers ::/128
// (unspecified), ::1/128 (loopback), ::ffff:0:0/96 (IPv4-mapped, whatever
// IPv4 address it carries), ::/96 (IPv4-compatible), 64:ff9b::/96 and
// 64:ff9b:1::/48 (NAT64), 100::/64 (discard-only), 100:0:0:1::/64
// (dummy), 5f00::/16 (SRv6), fc00::/7 (unique-local), fe80::/10
// (link-local), fec0::/10 (deprecated site-local) and ff00::/8
// (multicast); and inside 2000::/3: 2001::/23 (IETF protocol assignments:
// Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID 2001:10::/28 and
// 2001:20::/28, and the rest, none of which serves web content),
// 2001:db8::/32 and 3fff::/20 (documentation), 2002::/16 (6to4).
//
// Every IPv6 form that embeds or routes to an IPv4 address (mapped,
// compatible, NAT64, 6to4, Teredo) is refused outright rather than
// decoded. One gap is inherent: a network-specific NAT64 prefix (a DNS64
// resolver synthesising addresses inside an operator's own global
// prefix) cannot be told apart from a real global address.
//
// Names: "localhost" and "*.localhost" are refused without resolving
// them; every other name is resolved and all its addresses are checked.
//
// # Dialling
//
// [Dialer] resolves once, refuses the connection if any answer is
// blocked, and dials the checked addresses, so DNS rebinding cannot pass;
// its default dial function checks the socket address once more before
// connect. [Policy.Allow] lists exact address:port endpoints that are
// allowed anyway (for tests against a server on 127.0.0.1); the zero
// Policy is the strict one.
package netguard
