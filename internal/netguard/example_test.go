package netguard_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"

	"github.com/gomastra/mastra/internal/netguard"
)

// Every notation of an address is an address.
func ExampleParseHost() {
	for _, s := range []string{"0x7f.1", "2130706433", "１２７。0。0。1", "[::ffff:127.0.0.1]", "Example.COM"} {
		h, err := netguard.ParseHost(s)
		if err != nil {
			panic(err)
		}
		fmt.Println(h, h.IsIP())
	}
	// Output:
	// 127.0.0.1 true
	// 127.0.0.1 true
	// 127.0.0.1 true
	// [::ffff:7f00:1] true
	// example.com false
}

func ExampleClassify() {
	for _, s := range []string{"169.254.169.254", "64:ff9b::a00:1", "8.8.8.8"} {
		r, blocked := netguard.Classify(netip.MustParseAddr(s))
		fmt.Println(s, blocked, r.Name)
	}
	// Output:
	// 169.254.169.254 true link-local
	// 64:ff9b::a00:1 true NAT64 well-known prefix (IPv4-embedded)
	// 8.8.8.8 false
}

func ExamplePolicy_CheckAddrPort() {
	test := netguard.Policy{Allow: []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:8080")}}
	fmt.Println(test.CheckAddrPort(netip.MustParseAddrPort("127.0.0.1:8080")))
	fmt.Println(test.CheckAddrPort(netip.MustParseAddrPort("127.0.0.1:9090")))
	fmt.Println(netguard.Policy{}.CheckAddrPort(netip.MustParseAddrPort("127.0.0.1:8080")))
	// Output:
	// <nil>
	// netguard: 127.0.0.1 is a blocked address: loopback 127.0.0.0/8
	// netguard: 127.0.0.1 is a blocked address: loopback 127.0.0.0/8
}

type staticResolver map[string][]netip.Addr

func (r staticResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return r[host], nil
}

// A Dialer in an http.Transport, with proxies off. The resolver here
// pretends that intranet.example is a private address.
func ExampleDialer() {
	d := &netguard.Dialer{Resolver: staticResolver{"intranet.example": {netip.MustParseAddr("10.1.2.3")}}}
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: d.DialContext}}
	_, err := client.Get("http://intranet.example/")
	fmt.Println(errors.Is(err, netguard.ErrBlocked))
	fmt.Println(err)

	_, err = d.DialContext(context.Background(), "tcp", net.JoinHostPort("0x7f.1", "80"))
	fmt.Println(err)
	// Output:
	// true
	// Get "http://intranet.example/": netguard: intranet.example (10.1.2.3) is a blocked address: private-use 10.0.0.0/8
	// netguard: 127.0.0.1 is a blocked address: loopback 127.0.0.0/8
}
