package mcpclient_test

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/oauth2"

	"github.com/gomastra/mastra/mcpclient"
	"github.com/gomastra/mastra/storage/sqlite"
)

// A CLI reaching an OAuth-protected MCP server: the user authorizes once
// in the browser (through a listener on 127.0.0.1), and the tokens are
// kept in a file for the next runs.
func ExampleOAuthConfig() {
	cb, err := mcpclient.NewLocalCallback(mcpclient.LocalCallbackOptions{Port: 8765})
	if err != nil {
		log.Fatal(err)
	}
	defer cb.Close()
	home, _ := os.UserHomeDir()
	client, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{
		"linear": {
			URL: "https://mcp.linear.app/mcp",
			OAuth: &mcpclient.OAuthConfig{
				Authorize:   cb.Authorize,
				RedirectURL: cb.RedirectURL(),
				ClientName:  "my-agent",
				Store:       mcpclient.NewFileTokenStore(filepath.Join(home, ".my-agent-tokens.json")),
			},
		},
	}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}

// A service account: the client-credentials grant, no user involved.
func ExampleOAuthConfig_clientCredentials() {
	client, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{
		"billing": {
			URL: "https://billing.internal.example/mcp",
			OAuth: &mcpclient.OAuthConfig{
				ClientCredentials: true,
				ClientID:          "reporting-agent",
				ClientSecret:      os.Getenv("BILLING_CLIENT_SECRET"),
			},
		},
	}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}

// Tokens saved for a server and tenant are found again, in a file only
// its owner can read.
func ExampleFileTokenStore() {
	dir, _ := os.MkdirTemp("", "tokens")
	defer os.RemoveAll(dir)
	store := mcpclient.NewFileTokenStore(filepath.Join(dir, "tokens.json"))
	ctx := context.Background()
	key := mcpclient.TokenKey{Server: "linear", Tenant: "alice"}
	_ = store.Save(ctx, key, &mcpclient.StoredTokens{
		Token:  &oauth2.Token{AccessToken: "at", RefreshToken: "rt"},
		Client: mcpclient.StoredClient{ClientID: "client-1", TokenURL: "https://auth.example/token"},
	})
	t, err := store.Load(ctx, key)
	fmt.Println(t.Client.ClientID, t.Token.RefreshToken, err)
	info, _ := os.Stat(filepath.Join(dir, "tokens.json"))
	fmt.Println(info.Mode().Perm())
	// Output:
	// client-1 rt <nil>
	// -rw-------
}

// The tokens of every tenant in the application's database.
func ExampleNewStorageTokenStore() {
	db, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	store := mcpclient.NewStorageTokenStore(db)
	ctx := context.Background()
	key := mcpclient.TokenKey{Server: "crm", Tenant: "acme"}
	_ = store.Save(ctx, key, &mcpclient.StoredTokens{Token: &oauth2.Token{AccessToken: "at"}})
	_ = store.Delete(ctx, key)
	_, err = store.Load(ctx, key)
	fmt.Println(err)
	// Output: mcpclient: no stored OAuth tokens for server "crm"
}

// The local callback as the browser meets it: the authorization server
// redirects to RedirectURL with the code and the state of the request.
func ExampleLocalCallback() {
	var cb *mcpclient.LocalCallback
	cb, err := mcpclient.NewLocalCallback(mcpclient.LocalCallbackOptions{
		Open: func(ctx context.Context, authURL string) error {
			// A real Open starts a browser on authURL; here the
			// "authorization server" redirects at once.
			go func() {
				resp, err := http.Get(cb.RedirectURL() + "?code=c0de&state=xyz")
				if err == nil {
					resp.Body.Close()
				}
			}()
			return nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer cb.Close()
	res, err := cb.Authorize(context.Background(), &auth.AuthorizationArgs{URL: "https://auth.example/authorize?state=xyz"})
	fmt.Println(res.Code, err)
	// Output: c0de <nil>
}

type userKey struct{}

// A multi-tenant server calling MCP on behalf of each signed-in user: the
// user travels in the context given to the agent (or the tool), and each
// request carries that user's token.
func ExampleCredentialsFunc() {
	tokens := map[string]string{"alice": "token-a"} // your session store
	creds := func(ctx context.Context) (*mcpclient.Credentials, error) {
		user, ok := ctx.Value(userKey{}).(string)
		if !ok {
			return nil, nil // the connection's own requests
		}
		tok, ok := tokens[user]
		if !ok {
			return nil, fmt.Errorf("user %q has not connected the CRM", user)
		}
		return &mcpclient.Credentials{AccessToken: tok}, nil
	}
	_, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{
		"crm": {URL: "https://crm.example/mcp", Credentials: creds},
	}})
	fmt.Println(err)
	// Output: <nil>
}

// A service account authenticating with a signed JWT instead of a secret
// (private_key_jwt).
func ExampleOAuthConfig_clientAssertion() {
	pemBytes, err := os.ReadFile("/etc/my-agent/client-key.pem")
	if err != nil {
		log.Fatal(err)
	}
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		log.Fatal("no PEM block")
	}
	key, err := x509.ParseECPrivateKey(block.Bytes)
	if err != nil {
		log.Fatal(err)
	}
	client, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{
		"billing": {
			URL:   "https://billing.internal.example/mcp",
			OAuth: &mcpclient.OAuthConfig{ClientCredentials: true, ClientID: "reporting-agent", ClientAssertionKey: key},
		},
	}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}

// Enterprise-managed authorization: the user signed in with the company's
// identity provider, whose ID token gets the MCP server's access token
// without a consent screen.
func ExampleEnterpriseConfig() {
	idToken := func(ctx context.Context) (string, error) {
		return "", fmt.Errorf("return the signed-in user's ID token here")
	}
	client, err := mcpclient.New(mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{
		"wiki": {
			URL: "https://wiki.example/mcp",
			OAuth: &mcpclient.OAuthConfig{
				ClientID:     "my-agent",
				ClientSecret: os.Getenv("WIKI_CLIENT_SECRET"),
				Enterprise: &mcpclient.EnterpriseConfig{
					IdPIssuerURL: "https://acme.okta.com",
					IdPClientID:  "my-agent-at-okta",
					IDToken:      idToken,
				},
			},
		},
	}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
}

// One Client per signed-in user, for servers that bind their MCP sessions
// to the user: each tenant authorizes once (its tokens stored under its
// own key) and its tool calls run as itself.
func ExampleTenantClients() {
	db, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	store := mcpclient.NewStorageTokenStore(db)
	tenants := mcpclient.NewTenantClients(100, func(user string) (mcpclient.Config, error) {
		return mcpclient.Config{Servers: map[string]mcpclient.ServerConfig{
			"crm": {URL: "https://crm.example/mcp", OAuth: &mcpclient.OAuthConfig{
				Store: store, Tenant: user, // tokens your web app's OAuth flow saved for the user
			}},
		}}, nil
	})
	defer tenants.Close()

	// In a request handler, for the signed-in user:
	client, release, err := tenants.Acquire("alice")
	if err != nil {
		log.Fatal(err)
	}
	defer release()
	fmt.Println(client.Servers())
	// Output: [crm]
}
