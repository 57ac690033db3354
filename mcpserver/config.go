package mcpserver

import (
	"log/slog"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// Config describes an MCP server: Mastra's `new MCPServer({...})` options.
// Name and Version are required; everything else is optional. Construct it
// with field names: fields will be added.
type Config struct {
	// ID names the server in the HTTP routes (/api/mcp/<id>/...) and the
	// registry routes. It is slugified as Mastra does ("My Server" becomes
	// "my-server"). Empty: the slug of Name (Mastra uses its registry key
	// or a random UUID).
	ID string
	// Name and Version are what the server reports to clients
	// (serverInfo) and in the registry routes.
	Name    string
	Version string
	// Description is shown by the registry routes.
	Description string
	// Instructions are sent to clients that connect (how to use the
	// server).
	Instructions string
	// Repository, ReleaseDate, IsLatest, PackageCanonical, Packages and
	// Remotes are registry metadata (MCP registry's server schema), shown
	// by GET /api/mcp/v0/servers[/:id]. ReleaseDate defaults to the time
	// New ran (ISO 8601, as JavaScript's toISOString prints it); IsLatest
	// defaults to true.
	Repository       *Repository
	ReleaseDate      string
	IsLatest         *bool
	PackageCanonical string
	Packages         []any
	Remotes          []any

	// Tools are exposed under their keys (the key, not the tool's ID,
	// is the MCP tool name). Tools without Execute (client tools) are
	// skipped with a warning.
	Tools tools.Set
	// Agents are exposed as "ask_<key>" tools: input {message}, the
	// answer is the agent's Generate output. Every agent needs a
	// description.
	Agents map[string]*agent.Agent
	// Workflows are exposed as "run_<key>" tools: input is the
	// workflow's input, the answer is the run's result. Every workflow
	// needs a description.
	Workflows map[string]*workflows.Workflow

	// Order, when set, is the order tools are listed in: tool keys, then
	// agent keys, then workflow keys, each kind in its own list. Keys
	// not listed follow in sorted order. FromMastra fills it from the
	// registry's order.
	Order Order

	// Registry is what tools reach as ctx.Mastra() (FromMastra sets it).
	Registry tools.Registry
	// Logger defaults to slog.Default().
	Logger *slog.Logger

	// RequestStateKey signs the continuation state of suspended tool
	// calls (the requestState of an input_required result). Set it to the
	// same secret (at least 32 bytes) on every instance that may receive
	// the answer; without it a random per-process key is used and a
	// warning is logged, as Mastra does.
	RequestStateKey []byte
	// RequestStateTTL bounds how long a suspended call can be answered
	// (default 10 minutes, Mastra's).
	RequestStateTTL time.Duration

	// SkipUnservable skips (Server.Skipped lists them) a tool, agent or
	// workflow the server cannot expose (a resume schema MCP cannot present as an
	// input request, an agent or workflow without a description) instead
	// of failing New as Mastra does: for serving a whole registry, as the
	// dev server does, where one such tool must not hide the others.
	SkipUnservable bool

	// HTTP configures HTTPHandler and the routes.
	HTTP HTTPOptions

	// Resources, Prompts and Complete: resources (static and
	// templates, with subscriptions), prompts and completions, Mastra's
	// `resources` and `prompts` options (resources.go, prompts.go,
	// completion.go). Each declares its capability when set.
	Resources *Resources
	Prompts   *Prompts
	// Complete suggests values for prompt arguments and resource
	// template variables (completion/complete).
	Complete CompleteFunc

	// OAuth, when set, makes the HTTP transport an OAuth protected
	// resource: bearer tokens checked by OAuth.ValidateToken, 401 answers
	// naming the protected resource metadata, which Routes serves (see
	// OAuthOptions). Mastra's MCPServerOAuthConfig. Stdio is unaffected.
	OAuth *OAuthOptions

	// Tasks runs the calls of the tools it names as MCP tasks (answered
	// with a task id at once, polled with tasks/get): Mastra's MCP tasks.
	Tasks TasksOptions
}

// Order lists keys in the order tools are exposed.
type Order struct {
	Tools, Agents, Workflows []string
}

// Repository is the source repository of a server (MCP registry schema).
type Repository struct {
	URL    string `json:"url"`
	Source string `json:"source"`
	ID     string `json:"id,omitempty"`
}

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Stateless serves every request on its own, without sessions
	// (Mcp-Session-Id is neither issued nor read; GET and DELETE are
	// 405). The default is stateful sessions. Clients of protocol
	// 2026-07-28 and later send self-contained requests either way.
	Stateless bool
	// SessionTimeout closes sessions idle for this long (default 30
	// minutes; negative: never).
	SessionTimeout time.Duration
	// JSONResponse answers POSTs with application/json instead of an
	// event stream.
	JSONResponse bool
	// MaxRequestBodyBytes bounds request bodies (default 4 MiB, the SDK's).
	MaxRequestBodyBytes int64
	// DisableLocalhostProtection turns off the SDK's DNS-rebinding guard
	// (a request reaching a loopback address with a non-loopback Host is
	// refused 403). Leave it on unless a proxy rewrites Host.
	DisableLocalhostProtection bool

	// AllowedHosts, when set, are the only Host header values the
	// transport serves: "name" allows that name on any port,
	// "name:port" that port only. Other requests are answered 403 with
	// a JSON-RPC error. The TypeScript SDK transport's allowedHosts
	// (with enableDnsRebindingProtection), which Mastra's MCPServer
	// passes through.
	AllowedHosts []string
	// AllowedOrigins, when set, are the only Origin header values
	// ("https://app.example.com") the transport serves; requests
	// without an Origin (not from a browser) are not affected. Others
	// are answered 403 with a JSON-RPC error.
	AllowedOrigins []string
}

// defaultSessionTimeout closes idle HTTP sessions.
const defaultSessionTimeout = 30 * time.Minute

// defaultRequestStateTTL is Mastra's continuation lifetime.
const defaultRequestStateTTL = 10 * time.Minute
