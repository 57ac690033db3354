package netguard_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/gomastra/mastra/internal/netguard"
)

// fakeDNS answers from a table; a name with several entries answers them
// in turn, one per lookup (the last one repeats), which is how a DNS
// rebinding attacker's server behaves. Unknown names are not found.
type fakeDNS struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	lookups []string
}

func (r *fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lookups = append(r.lookups, host)
	seq := r.answers[host]
	if len(seq) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	a := seq[0]
	if len(seq) > 1 {
		r.answers[host] = seq[1:]
	}
	return a, nil
}

func addrs(ss ...string) []netip.Addr {
	out := make([]netip.Addr, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParseAddr(s)
	}
	return out
}

// pipeDialer records every address it is asked to dial and connects to
// an in-memory pipe; nothing touches the network.
type pipeDialer struct {
	mu     sync.Mutex
	dialed []string
	fail   map[string]bool
}

func (d *pipeDialer) dial(_ context.Context, _, address string) (net.Conn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dialed = append(d.dialed, address)
	if d.fail[address] {
		return nil, errors.New("connection refused")
	}
	c1, c2 := net.Pipe()
	_ = c2.Close()
	return c1, nil
}

func TestDialerRefusesBlockedAnswers(t *testing.T) {
	dns := &fakeDNS{answers: map[string][][]netip.Addr{
		"private.test":     {addrs("10.0.0.1")},
		"mixed.test":       {addrs("93.184.216.34", "10.0.0.1")},
		"v6private.test":   {addrs("fd00::1")},
		"mapped.test":      {addrs("::ffff:127.0.0.1")},
		"nat64.test":       {addrs("64:ff9b::7f00:1")},
		"metadata.test":    {addrs("169.254.169.254")},
		"zoned.test":       {addrs("fe80::1%eth0")},
		"unspecified.test": {addrs("0.0.0.0")},
	}}
	pd := &pipeDialer{}
	d := &netguard.Dialer{Resolver: dns, Dial: pd.dial}
	for _, host := range []string{
		"private.test", "mixed.test", "v6private.test", "mapped.test", "nat64.test", "metadata.test",
		"zoned.test", "unspecified.test",
		"localhost", "LOCALHOST.", "x.localhost", "127.0.0.1", "0x7f.1", "2130706433", "::1", "::ffff:a00:1",
	} {
		_, err := d.DialContext(context.Background(), "tcp", net.JoinHostPort(host, "80"))
		if !errors.Is(err, netguard.ErrBlocked) {
			t.Errorf("%s: %v, want a blocked error", host, err)
		}
	}
	if len(pd.dialed) > 0 {
		t.Errorf("dialled %v", pd.dialed)
	}
	for _, name := range dns.lookups {
		if _, err := netip.ParseAddr(name); err == nil || name == "0x7f.1" || name == "2130706433" || name == "localhost" {
			t.Errorf("resolver was asked for %q", name)
		}
	}
}

func TestDialerDialsTheCheckedAddresses(t *testing.T) {
	dns := &fakeDNS{answers: map[string][][]netip.Addr{
		"public.test": {addrs("93.184.216.34", "2606:2800:220:1::1")},
		"v4in6.test":  {addrs("::ffff:93.184.216.34")},
	}}
	pd := &pipeDialer{fail: map[string]bool{"93.184.216.34:443": true}}
	d := &netguard.Dialer{Resolver: dns, Dial: pd.dial}
	conn, err := d.DialContext(context.Background(), "tcp", "public.test:443")
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	conn, err = d.DialContext(context.Background(), "tcp", "v4in6.test:80")
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	want := []string{"93.184.216.34:443", "[2606:2800:220:1::1]:443", "93.184.216.34:80"}
	if !slices.Equal(pd.dialed, want) {
		t.Errorf("dialled %v, want %v", pd.dialed, want)
	}
}

// A rebinding name answers a public address first and a private one
// next: every connection checks the answer it dials.
func TestDialerDNSRebinding(t *testing.T) {
	dns := &fakeDNS{answers: map[string][][]netip.Addr{
		"rebind.test": {addrs("93.184.216.34"), addrs("127.0.0.1")},
	}}
	pd := &pipeDialer{}
	d := &netguard.Dialer{Resolver: dns, Dial: pd.dial}
	conn, err := d.DialContext(context.Background(), "tcp", "rebind.test:80")
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	_, err = d.DialContext(context.Background(), "tcp", "rebind.test:80")
	if !errors.Is(err, netguard.ErrBlocked) {
		t.Fatalf("second dial: %v", err)
	}
	if !slices.Equal(pd.dialed, []string{"93.184.216.34:80"}) {
		t.Errorf("dialled %v", pd.dialed)
	}
}

func TestDialerErrors(t *testing.T) {
	dns := &fakeDNS{answers: map[string][][]netip.Addr{"empty.test": {{}}}}
	pd := &pipeDialer{}
	d := &netguard.Dialer{Resolver: dns, Dial: pd.dial}
	ctx := context.Background()
	var dnsErr *net.DNSError
	if _, err := d.DialContext(ctx, "tcp", "missing.test:80"); !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := d.DialContext(ctx, "tcp", "empty.test:80"); !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Errorf("no answers: %v", err)
	}
	for _, c := range []struct{ network, address string }{
		{"udp", "8.8.8.8:53"},
		{"unix", "/tmp/x"},
		{"tcp", "8.8.8.8"},
		{"tcp", "8.8.8.8:99999"},
		{"tcp", "1.2.3.4.5:80"},
		{"tcp", "[fe80::1%eth0]:80"},
		{"tcp", "a b:80"},
	} {
		if _, err := d.DialContext(ctx, c.network, c.address); err == nil || errors.Is(err, netguard.ErrBlocked) {
			t.Errorf("%s %s: %v, want an invalid-input error", c.network, c.address, err)
		}
	}
	if len(pd.dialed) > 0 {
		t.Errorf("dialled %v", pd.dialed)
	}
}

// The default dial function connects for real; with the test seam it may
// reach exactly the allowed endpoint on 127.0.0.1.
func TestDialerAllowSeam(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	ap := netip.MustParseAddrPort(ln.Addr().String())
	d := &netguard.Dialer{Policy: netguard.Policy{Allow: []netip.AddrPort{ap}}, Resolver: &fakeDNS{}}
	conn, err := d.DialContext(context.Background(), "tcp", ap.String())
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	for _, other := range []string{
		netip.AddrPortFrom(ap.Addr(), ap.Port()+1).String(),
		"[::ffff:127.0.0.1]:" + itoa(ap.Port()),
		"localhost:" + itoa(ap.Port()),
		"[::1]:" + itoa(ap.Port()),
	} {
		if _, err := (&netguard.Dialer{Policy: d.Policy, Resolver: &fakeDNS{}}).DialContext(context.Background(), "tcp", other); !errors.Is(err, netguard.ErrBlocked) {
			t.Errorf("%s: %v, want blocked", other, err)
		}
	}
}

func TestDialerCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := &netguard.Dialer{Resolver: &fakeDNS{}, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return nil, ctx.Err()
	}}
	if _, err := d.DialContext(ctx, "tcp", "8.8.8.8:80"); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}

func itoa(p uint16) string { return strconv.Itoa(int(p)) }
