package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
)

// Resolver resolves a host name to addresses; *net.Resolver satisfies it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DialFunc connects to address ("ip:port") on network, as
// net.Dialer.DialContext does.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// Dialer dials TCP connections only to endpoints its Policy allows. It is
// meant as http.Transport.DialContext (with Proxy nil: a proxy would
// connect on the dialer's behalf and bypass it).
//
// For each connection it parses the host with [ParseHost] (so every
// notation of an address is an address), refuses localhost names,
// resolves a name once with Resolver, refuses the whole connection if any
// resolved address is blocked, and dials the checked addresses (never the
// name again), one after the other until one connects. DNS rebinding
// cannot slip through: the addresses checked are the addresses dialled.
// The default Dial checks once more in net.Dialer.Control, on the socket
// address handed to connect(2).
//
// A Dialer is safe for concurrent use; its fields must not change while
// it is in use.
type Dialer struct {
	// Policy decides what may be dialled; the zero value is strict.
	Policy Policy
	// Resolver resolves names; nil means net.DefaultResolver.
	Resolver Resolver
	// Dial connects to an address the policy has already allowed; nil
	// means a net.Dialer whose Control hook re-checks the address. A
	// custom Dial is trusted to connect where it is told.
	Dial DialFunc
}

// DialContext connects to address ("host:port") on network "tcp", "tcp4"
// or "tcp6". A refused endpoint is a *BlockedError (errors.Is ErrBlocked);
// resolver errors (such as a *net.DNSError) are returned wrapped.
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	var lookupNetwork string
	switch network {
	case "tcp":
		lookupNetwork = "ip"
	case "tcp4":
		lookupNetwork = "ip4"
	case "tcp6":
		lookupNetwork = "ip6"
	default:
		return nil, fmt.Errorf("netguard: network %q not supported", network)
	}
	hostText, portText, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("netguard: %w", err)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("netguard: invalid port in %q", address)
	}
	if strings.Contains(hostText, ":") {
		hostText = "[" + hostText + "]" // SplitHostPort removed the brackets
	}
	host, err := ParseHost(hostText)
	if err != nil {
		return nil, fmt.Errorf("netguard: %w", err)
	}
	addrs, err := d.addresses(ctx, lookupNetwork, host)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a, uint16(port))
		if err := d.Policy.CheckAddrPort(ap); err != nil {
			err.(*BlockedError).Host = host.String()
			return nil, err
		}
	}
	for _, a := range addrs {
		conn, err := d.dial(ctx, network, netip.AddrPortFrom(a, uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// addresses returns the candidate addresses of host: the address itself,
// or the resolver's answers with IPv4-in-IPv6 answers unmapped (a
// resolver returning 16-byte forms of IPv4 answers means IPv4).
func (d *Dialer) addresses(ctx context.Context, network string, host Host) ([]netip.Addr, error) {
	if host.IsIP() {
		return []netip.Addr{host.Addr}, nil
	}
	if BlockedName(host.Name) {
		return nil, &BlockedError{Host: host.Name, Reason: "localhost name"}
	}
	r := d.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, network, host.Name)
	if err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, &net.DNSError{Err: "no addresses", Name: host.Name, IsNotFound: true}
	}
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		out[i] = a.Unmap()
	}
	return out, nil
}

func (d *Dialer) dial(ctx context.Context, network, address string) (net.Conn, error) {
	if d.Dial != nil {
		return d.Dial(ctx, network, address)
	}
	nd := net.Dialer{Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("netguard: unexpected socket address %q", address)
		}
		return d.Policy.CheckAddrPort(netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()))
	}}
	return nd.DialContext(ctx, network, address)
}
