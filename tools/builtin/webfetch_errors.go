package builtin

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strconv"
	"syscall"

	"github.com/gomastra/mastra/internal/netguard"
)

// reason words a failed request as Mastra (Node.js) would: its own
// messages for a blocked address and the timeout, Node's for the common
// network errors ("getaddrinfo ENOTFOUND <host>", "connect ECONNREFUSED
// <ip>:<port>"), Go's text for the rest, without net/http's
// `Get "<url>": ` prefix.
func (f *webFetcher) reason(ctx context.Context, err error) string {
	if ctx.Err() != nil {
		if errors.Is(context.Cause(ctx), errTimedOut) {
			return "Request timed out after " + strconv.FormatInt(f.timeout.Milliseconds(), 10) + "ms."
		}
		return "This operation was aborted"
	}
	if errors.Is(err, netguard.ErrBlocked) {
		return "URL resolves to a private or reserved address."
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return "getaddrinfo ENOTFOUND " + dnsErr.Name
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && errors.Is(err, syscall.ECONNREFUSED) && opErr.Addr != nil {
		if tcp, ok := opErr.Addr.(*net.TCPAddr); ok {
			return "connect ECONNREFUSED " + tcp.AddrPort().Addr().Unmap().String() + ":" + strconv.Itoa(tcp.Port)
		}
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return err.Error()
}
