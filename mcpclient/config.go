package mcpclient

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// Defaults, as in Mastra's MCPClient.
const (
	// DefaultTimeout bounds every request to a server (Mastra's 60 000 ms).
	DefaultTimeout = 60 * time.Second
	// DefaultHTTPConnectTimeout bounds connecting to an HTTP server
	// (Mastra's connectTimeout, 3000 ms).
	DefaultHTTPConnectTimeout = 3 * time.Second
	// DefaultInstructionsMaxLength is how much of a server's instructions
	// is forwarded (Mastra's instructionsMaxLength, 512 characters).
	DefaultInstructionsMaxLength = tools.DefaultMCPInstructionsMaxLength
	// DefaultMaxMessageBytes bounds one message from a server (the SDK's
	// 16 MiB line and event limits). A larger result fails the call with
	// ErrMessageTooLarge; nothing larger is ever held in memory.
	DefaultMaxMessageBytes = 16 << 20
)

// Config configures a Client: Mastra's MCPClient options.
type Config struct {
	// ID names the client in logs (Mastra's id). Optional.
	ID string
	// Servers maps a server name to how to reach it. The name prefixes the
	// server's tool ids ("<name>_<tool>"). At least one is required.
	Servers map[string]ServerConfig
	// Timeout bounds each request (connect on stdio, list, call, read);
	// a server's own Timeout wins. Default DefaultTimeout.
	Timeout time.Duration
	// Logger receives connection, discovery and tool-call logs and the
	// servers' log notifications. Default slog.Default().
	Logger *slog.Logger
}

// ToolErrorMode selects what a call does with a result the server flagged
// isError (Mastra's onToolError).
type ToolErrorMode string

const (
	// ToolErrorThrow (the default) turns an isError result into a Go error
	// (a *mastra.Error with ID MCP_CLIENT_TOOL_EXECUTION_FAILED whose text
	// is the result's text content), which an agent reports to the model
	// as a tool error.
	ToolErrorThrow ToolErrorMode = "throw"
	// ToolErrorReturn returns the result as it is, ignoring isError.
	ToolErrorReturn ToolErrorMode = "return"
)

// ApprovalRequest is what a server's ToolApproval function sees for one
// call (Mastra's RequireToolApprovalContext).
type ApprovalRequest struct {
	// ToolName is the server's own name for the tool (not namespaced).
	ToolName string
	// Args are the call's arguments as the model sent them.
	Args map[string]any
	// RequestContext is the run's request context (never nil).
	RequestContext *tools.RequestContext
	// Annotations are the hints the server advertised in tools/list, nil
	// when it advertised none. They are hints from the server, not
	// guarantees: do not trust them for servers you do not control.
	Annotations *mcp.ToolAnnotations
}

// ServerConfig says how to reach one MCP server and how its tools behave.
// Exactly one of Command, URL and NewTransport must be set.
type ServerConfig struct {
	// Command starts a stdio server: the program (looked up in PATH), its
	// Args, and Env added to the default environment (HOME, LOGNAME, PATH,
	// SHELL, TERM, USER from this process, as the MCP SDKs'
	// getDefaultEnvironment; NoDefaultEnv drops those). Dir is the working
	// directory (default: this process's). The child's stderr goes to
	// Stderr (default os.Stderr, Mastra's "inherit").
	Command      string
	Args         []string
	Env          map[string]string
	NoDefaultEnv bool
	Dir          string
	Stderr       io.Writer

	// URL reaches a streamable HTTP server. When the server answers the
	// first POST with a 4xx status, the client falls back to the HTTP+SSE
	// transport of 2024-11-05 at the same URL, as Mastra does. Headers are
	// sent with every request; HTTPClient (default http.DefaultClient) is
	// not modified.
	URL        string
	Headers    http.Header
	HTTPClient *http.Client

	// NewTransport, when set, makes the transport of each connection
	// attempt: an in-process server (mcp.NewInMemoryTransports) or a
	// transport of your own.
	NewTransport func() (mcp.Transport, error)

	// Timeout bounds each request to this server (default: Config.Timeout).
	Timeout time.Duration
	// ConnectTimeout bounds connecting (default DefaultHTTPConnectTimeout
	// for URL servers, Timeout otherwise).
	ConnectTimeout time.Duration

	// RequireToolApproval makes every call of this server's tools wait for
	// a person's approval.
	RequireToolApproval bool
	// ToolApproval, when set, decides per call whether approval is needed,
	// seeing the tool's annotations; its answer is authoritative (an error
	// counts as "required"). It is evaluated by the agent loop.
	ToolApproval func(ctx context.Context, req ApprovalRequest) (bool, error)
	// OnToolError is ToolErrorThrow (default) or ToolErrorReturn.
	OnToolError ToolErrorMode

	// ForwardInstructions sends this server's instructions to the model
	// of every agent offering one of its tools, as a system message after
	// the agent's instructions (Mastra's forwardInstructions; the text is
	// Client.Guidance's). Off by default: only enable it for servers you
	// trust.
	ForwardInstructions bool
	// InstructionsMaxLength bounds the forwarded instructions, in
	// characters: 0 means DefaultInstructionsMaxLength, negative means
	// nothing is forwarded.
	InstructionsMaxLength int

	// EnableProgressTracking sends a progress token with every tool call.
	// The server's progress notifications for the call are then written to
	// the tool's writer (an agent streams them as tool-output chunks whose
	// output is a Progress) and passed to OnProgress. Over stdio and HTTP
	// they are handled in stream order, so all of them reach the writer
	// before the call returns; over a NewTransport transport the SDK handles
	// them on its own goroutine, and one handled after the call returned
	// reaches only OnProgress.
	EnableProgressTracking bool
	// OnProgress receives every progress notification of this server.
	OnProgress func(Progress)

	// MaxMessageBytes bounds one message from the server (default
	// DefaultMaxMessageBytes).
	MaxMessageBytes int

	// --- Elicitation (elicit.go) ---

	// ElicitationHandler answers the server's elicitation requests (Mastra's
	// client.elicitation.onRequest; Client.OnElicitationRequest replaces it
	// at run time). Without one, a tool call the server elicits during
	// suspends with an ElicitationSuspension payload and is resumed with
	// the person's ElicitationResponse. Accepted content is validated
	// against the requested schema and gets its defaults for the fields it
	// leaves out. The time a handler takes counts against Timeout; the
	// time a call spends suspended does not.
	ElicitationHandler ElicitationHandler
	// DisableElicitation stops the client from declaring the elicitation
	// capability to this server; the SDK then refuses its elicitation
	// requests with an error.
	DisableElicitation bool
	// ElicitationTimeout bounds how long a call suspended on an in-flight
	// elicitation/create waits for its answer, in memory (default
	// DefaultElicitationTimeout). Calls suspended on a multi-round-trip
	// input request keep nothing in memory and have no such bound.
	ElicitationTimeout time.Duration
	// MaxSuspendedElicitations bounds the calls of this server suspended
	// at once (default DefaultMaxSuspendedElicitations); past it, new
	// elicitations are answered "cancel".
	MaxSuspendedElicitations int

	// --- OAuth (oauth.go, credentials.go) ---

	// OAuth authorizes this URL server with OAuth 2.1 (Mastra's
	// authProvider); see OAuthConfig. Optional.
	OAuth *OAuthConfig
	// Credentials, when set, gives each HTTP request to this URL server
	// the credentials of the caller it is made for (a multi-tenant server
	// calling MCP on behalf of each user); they replace the OAuth token
	// and the configured Headers of the same names. See CredentialsFunc.
	Credentials CredentialsFunc

	// --- MCP tasks (tasks*.go) ---

	// Tasks declares the MCP tasks extension to this server, which may
	// then answer long-running tool calls with a task that the call polls
	// until it ends; see TasksConfig. Nil: tasks are not declared.
	Tasks *TasksConfig
}

// Progress is one progress notification of a tool call.
type Progress struct {
	// Server and Tool name the call (Tool is the server's own name; empty
	// for notifications that match no running call of this client).
	Server string `json:"-"`
	Tool   string `json:"-"`
	// Token is the progress token the call was sent with.
	Token    any     `json:"progressToken"`
	Progress float64 `json:"progress"`
	// Total is 0 when unknown.
	Total   float64 `json:"total,omitempty"`
	Message string  `json:"message,omitempty"`
}

type transportKind int

const (
	kindStdio transportKind = iota
	kindHTTP
	kindCustom
)

// resolved is a ServerConfig with its defaults applied.
type resolved struct {
	ServerConfig
	name            string
	kind            transportKind
	timeout         time.Duration
	connectTimeout  time.Duration
	maxMessageBytes int
	// oauth is the OAuth handler of a URL server with OAuth set.
	oauth *oauthHandler
}

func resolve(name string, sc ServerConfig, clientTimeout time.Duration) (*resolved, error) {
	if name == "" {
		return nil, fmt.Errorf("mcpclient: a server needs a name")
	}
	r := &resolved{ServerConfig: sc, name: name}
	set := 0
	if sc.Command != "" {
		set++
		r.kind = kindStdio
	}
	if sc.URL != "" {
		set++
		r.kind = kindHTTP
		u, err := url.Parse(sc.URL)
		if err != nil {
			return nil, fmt.Errorf("mcpclient: server %q: invalid URL: %w", name, err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("mcpclient: server %q: URL %q is not an absolute http(s) URL", name, sc.URL)
		}
	}
	if sc.NewTransport != nil {
		set++
		r.kind = kindCustom
	}
	switch {
	case set == 0:
		return nil, fmt.Errorf("mcpclient: server %q: configuration must include either a Command, a URL or a NewTransport", name)
	case set > 1:
		return nil, fmt.Errorf("mcpclient: server %q: set only one of Command, URL and NewTransport", name)
	}
	if r.kind != kindStdio && (len(sc.Args) > 0 || len(sc.Env) > 0 || sc.Dir != "" || sc.NoDefaultEnv || sc.Stderr != nil) {
		return nil, fmt.Errorf("mcpclient: server %q: Args, Env, NoDefaultEnv, Dir and Stderr apply to Command servers only", name)
	}
	if r.kind != kindHTTP && (len(sc.Headers) > 0 || sc.HTTPClient != nil) {
		return nil, fmt.Errorf("mcpclient: server %q: Headers and HTTPClient apply to URL servers only", name)
	}
	switch sc.OnToolError {
	case "":
		r.OnToolError = ToolErrorThrow
	case ToolErrorThrow, ToolErrorReturn:
	default:
		return nil, fmt.Errorf("mcpclient: server %q: OnToolError must be %q or %q, not %q", name, ToolErrorThrow, ToolErrorReturn, sc.OnToolError)
	}
	if sc.Timeout < 0 || sc.ConnectTimeout < 0 || sc.MaxMessageBytes < 0 {
		return nil, fmt.Errorf("mcpclient: server %q: Timeout, ConnectTimeout and MaxMessageBytes must not be negative", name)
	}
	r.timeout = sc.Timeout
	if r.timeout == 0 {
		r.timeout = clientTimeout
	}
	r.connectTimeout = sc.ConnectTimeout
	if r.connectTimeout == 0 {
		r.connectTimeout = r.timeout
		if r.kind == kindHTTP {
			r.connectTimeout = DefaultHTTPConnectTimeout
		}
	}
	if err := checkElicitationConfig(name, sc); err != nil { // elicit.go
		return nil, err
	}
	if err := resolveOAuth(r); err != nil { // OAuth: oauth.go
		return nil, err
	}
	r.maxMessageBytes = sc.MaxMessageBytes
	if r.maxMessageBytes == 0 {
		r.maxMessageBytes = DefaultMaxMessageBytes
	}
	return r, nil
}
