package netguard

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

// ErrBlocked is wrapped by every *BlockedError.
var ErrBlocked = errors.New("blocked address")

// BlockedError reports a host or address the policy refuses.
type BlockedError struct {
	// Host is the host as the caller named it (may be empty).
	Host string
	// Addr is the refused address; invalid when the name itself is
	// refused (localhost).
	Addr netip.Addr
	// Reason names the blocked range or rule.
	Reason string
}

func (e *BlockedError) Error() string {
	var b strings.Builder
	b.WriteString("netguard: ")
	if e.Host != "" {
		b.WriteString(e.Host)
		if e.Addr.IsValid() && e.Host != e.Addr.String() {
			fmt.Fprintf(&b, " (%s)", e.Addr)
		}
	} else {
		b.WriteString(e.Addr.String())
	}
	b.WriteString(" is a blocked address: ")
	b.WriteString(e.Reason)
	return b.String()
}

// Unwrap returns [ErrBlocked].
func (e *BlockedError) Unwrap() error { return ErrBlocked }

// Policy decides which endpoints may be dialled. The zero value is the
// strict policy: every address [Classify] blocks is refused, and so are
// the names "localhost" and "*.localhost" (RFC 6761), with or without
// trailing dots. A Policy is a value; it is safe for concurrent use as
// long as Allow is not modified.
type Policy struct {
	// Allow lists exact endpoints (address and port) that may be dialled
	// even though their address is blocked: the test seam for a server on
	// 127.0.0.1, or one known intranet service. An entry matches only the
	// very same address (an IPv4-mapped form of an allowed IPv4 address
	// does not match) and port. Names are never allowed this way.
	Allow []netip.AddrPort
}

// CheckAddrPort returns nil if ap may be dialled, else a *BlockedError.
func (p Policy) CheckAddrPort(ap netip.AddrPort) error {
	r, blocked := Classify(ap.Addr())
	if !blocked || slices.Contains(p.Allow, ap) {
		return nil
	}
	return &BlockedError{Addr: ap.Addr(), Reason: r.Name + rangeSuffix(r)}
}

// CheckHost is the early check on a URL's literal host: an address is
// checked with its port as [Policy.CheckAddrPort] does, a name only
// against the localhost rule (its addresses are checked when it is
// dialled).
func (p Policy) CheckHost(h Host, port uint16) error {
	if h.IsIP() {
		if err := p.CheckAddrPort(netip.AddrPortFrom(h.Addr, port)); err != nil {
			err.(*BlockedError).Host = h.String()
			return err
		}
		return nil
	}
	if BlockedName(h.Name) {
		return &BlockedError{Host: h.Name, Reason: "localhost name"}
	}
	return nil
}

// BlockedName reports whether name (canonical ASCII, as [ParseHost]
// returns it) is "localhost" or ends in ".localhost", ignoring trailing
// dots.
func BlockedName(name string) bool {
	name = strings.TrimRight(strings.ToLower(name), ".")
	return name == "localhost" || strings.HasSuffix(name, ".localhost")
}

func rangeSuffix(r Range) string {
	if !r.Prefix.IsValid() || r.Prefix.Bits() == 0 {
		return ""
	}
	return " " + r.Prefix.String()
}
