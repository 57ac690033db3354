package mcpclient

import (
	"context"
	"errors"
	"time"

	"golang.org/x/oauth2"
)

// TokenKey names one set of stored OAuth credentials: the configured
// server name and the tenant (the user or account the tokens act for; ""
// for a single-user client).
type TokenKey struct {
	Server string
	Tenant string
}

// StoredClient is the OAuth client a server's authorization server knows
// this client as: a registered (dynamic or pre-registered) client's id and
// secret, the token endpoint and authentication style it was used with
// (so that stored tokens can be refreshed without discovering again) and
// its redirect URL.
type StoredClient struct {
	ClientID     string           `json:"clientId"`
	ClientSecret string           `json:"clientSecret,omitempty"`
	TokenURL     string           `json:"tokenUrl"`
	AuthStyle    oauth2.AuthStyle `json:"authStyle,omitempty"`
	// RedirectURL is the redirect URL the client used; the client is
	// reused for a new authorization only with the same one.
	RedirectURL string `json:"redirectUrl,omitempty"`
}

// StoredTokens is what a TokenStore keeps for one key: the tokens and the
// client they were issued to.
type StoredTokens struct {
	Token  *oauth2.Token `json:"token"`
	Client StoredClient  `json:"client"`
	// Saved is when the tokens were saved.
	Saved time.Time `json:"saved"`
}

// ErrNoTokens is returned (wrapped) by TokenStore.Load when nothing is
// stored for the key.
var ErrNoTokens = errors.New("mcpclient: no stored OAuth tokens")

// TokenStore keeps OAuth tokens and the registered client per server and
// tenant, so a client authorizes once and refreshes afterwards. All
// methods must be safe for concurrent use. Implementations:
// FileTokenStore, StorageTokenStore, MemoryTokenStore.
type TokenStore interface {
	// Load returns the tokens stored for key, or an error wrapping
	// ErrNoTokens.
	Load(ctx context.Context, key TokenKey) (*StoredTokens, error)
	// Save replaces the tokens stored for key.
	Save(ctx context.Context, key TokenKey, t *StoredTokens) error
	// Delete removes what is stored for key; deleting nothing is not an
	// error.
	Delete(ctx context.Context, key TokenKey) error
}
