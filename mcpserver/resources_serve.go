package mcpserver

// ServeConfig adds to the MCP server ServeOption builds from the app's
// registry what the registry does not hold.
type ServeConfig func(*Config)

// WithResources serves r as the app's MCP resources (Config.Resources).
func WithResources(r *Resources) ServeConfig { return func(c *Config) { c.Resources = r } }

// WithPrompts serves p as the app's MCP prompts (Config.Prompts).
func WithPrompts(p *Prompts) ServeConfig { return func(c *Config) { c.Prompts = p } }

// WithCompletions answers completion requests with f (Config.Complete).
func WithCompletions(f CompleteFunc) ServeConfig { return func(c *Config) { c.Complete = f } }
