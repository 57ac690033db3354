package mcpserver

import "strings"

// Environment variables ServeOption reads to protect an app's MCP
// server (see ServeOption).
const (
	EnvOAuthResource         = "MASTRA_MCP_OAUTH_RESOURCE"
	EnvOAuthServers          = "MASTRA_MCP_OAUTH_AUTHORIZATION_SERVERS"
	EnvOAuthIntrospectionURL = "MASTRA_MCP_OAUTH_INTROSPECTION_URL"
	EnvOAuthClientID         = "MASTRA_MCP_OAUTH_CLIENT_ID"
	EnvOAuthClientSecret     = "MASTRA_MCP_OAUTH_CLIENT_SECRET"
	EnvOAuthScopes           = "MASTRA_MCP_OAUTH_SCOPES"
	EnvAllowedHosts          = "MASTRA_MCP_ALLOWED_HOSTS"
	EnvAllowedOrigins        = "MASTRA_MCP_ALLOWED_ORIGINS"
)

// securityFromEnv sets cfg's OAuth (when EnvOAuthResource is set) and
// allow-lists from the environment; lists are comma- or space-separated.
// An OAuth setting that is incomplete or invalid is an error, so that an
// app never starts unprotected by mistake.
func securityFromEnv(cfg *Config, getenv func(string) string) error {
	cfg.HTTP.AllowedHosts = fields(getenv(EnvAllowedHosts))
	cfg.HTTP.AllowedOrigins = fields(getenv(EnvAllowedOrigins))
	resource := getenv(EnvOAuthResource)
	if resource == "" {
		for _, k := range []string{EnvOAuthServers, EnvOAuthIntrospectionURL, EnvOAuthScopes} {
			if getenv(k) != "" {
				return configError("%s is set but %s is not", k, EnvOAuthResource)
			}
		}
		return nil
	}
	endpoint := getenv(EnvOAuthIntrospectionURL)
	if endpoint == "" {
		return configError("%s needs %s (the authorization server's token introspection endpoint)", EnvOAuthResource, EnvOAuthIntrospectionURL)
	}
	cfg.OAuth = &OAuthOptions{
		Resource:             resource,
		AuthorizationServers: fields(getenv(EnvOAuthServers)),
		RequiredScopes:       fields(getenv(EnvOAuthScopes)),
		ValidateToken: IntrospectionValidator(endpoint, IntrospectionOptions{
			ClientID: getenv(EnvOAuthClientID), ClientSecret: getenv(EnvOAuthClientSecret)}),
	}
	if err := cfg.OAuth.check(); err != nil {
		return configError("%v", err)
	}
	return nil
}

// fields splits a comma- or space-separated list.
func fields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}
