package netguard

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
)

// The default dial function checks the socket address in Control, after
// the policy check in DialContext: a dial to an address that was never
// checked (127.0.0.2 is on this machine, whatever happens) is refused
// before connect(2).
func TestDefaultDialControlHook(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ap := netip.MustParseAddrPort(ln.Addr().String())
	d := &Dialer{Policy: Policy{Allow: []netip.AddrPort{ap}}}
	conn, err := d.dial(context.Background(), "tcp", ap.String())
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	other := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.2"), ap.Port())
	if _, err := d.dial(context.Background(), "tcp", other.String()); !errors.Is(err, ErrBlocked) {
		t.Fatalf("dial %s: %v, want blocked by the Control hook", other, err)
	}
}
