package serve

import (
	"fmt"
	"io"
	"net"
	"strings"
)

// writeSummary tells, once the server listens, what is served where: the
// studio, the API (with what the registry holds), the chat route and what
// the extensions mount.
func writeSummary(w io.Writer, app App, addr net.Addr, mounts []*Mount) {
	base := baseURL(addr)
	m := app.Mastra
	fmt.Fprintf(w, "mastra: serving on %s (storage %s)\n", base, redactURL(app.Config.StorageURL))
	if !app.Config.NoStudio {
		fmt.Fprintf(w, "  studio  %s/\n", base)
	}
	fmt.Fprintf(w, "  API     %s/api  (%s, %s, %s)\n", base,
		count(len(m.ListTools()), "tool"), count(len(m.ListAgents()), "agent"), count(len(m.ListWorkflows()), "workflow"))
	fmt.Fprintf(w, "  chat    %s/chat/{agentId}  (AI SDK useChat)\n", base)
	for _, mount := range mounts {
		if mount.Summary != nil {
			fmt.Fprintf(w, "  %s\n", mount.Summary(base))
		}
	}
	if app.Config.Token != "" {
		fmt.Fprintln(w, "  the API requires the bearer token (-token / MASTRA_AUTH_TOKEN)")
	}
}

// baseURL is the URL clients reach the server at: an unspecified address
// (0.0.0.0, ::) shows as localhost.
func baseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// count is "1 tool", "3 tools".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// IsLoopback tells whether host (a -host value) only accepts connections
// from this machine: a loopback IP or "localhost".
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
