package mcpclient

import (
	"container/list"
	"errors"
	"fmt"
	"sync"
)

// TenantClients keeps one Client per tenant (the user or account a
// multi-tenant server calls MCP servers for), at most max of them: each
// tenant gets its own connections, so servers that bind their MCP
// sessions to the authenticated user accept it, and its own OAuth tokens
// (set OAuthConfig.Tenant in the configuration). The least recently used
// Client is closed when a new tenant would exceed max, once no caller
// holds it. Safe for concurrent use.
type TenantClients struct {
	newConfig func(tenant string) (Config, error)
	max       int

	mu     sync.Mutex
	byName map[string]*tenantEntry
	lru    *list.List // of *tenantEntry, most recent first
	closed bool
}

type tenantEntry struct {
	tenant  string
	client  *Client
	refs    int
	evicted bool
	elem    *list.Element
}

// NewTenantClients returns an empty set of at most max Clients (max < 1
// means 1), each made from newConfig's configuration for its tenant.
func NewTenantClients(limit int, newConfig func(tenant string) (Config, error)) *TenantClients {
	return &TenantClients{newConfig: newConfig, max: max(limit, 1), byName: map[string]*tenantEntry{}, lru: list.New()}
}

// Acquire returns tenant's Client, making it on first use, and the
// function to call once the caller is done with it (it may then be
// closed to make room; calling it again does nothing).
func (t *TenantClients) Acquire(tenant string) (*Client, func(), error) {
	var idle []*Client
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, nil, ErrClosed
	}
	e, ok := t.byName[tenant]
	if !ok {
		cfg, err := t.newConfig(tenant)
		if err != nil {
			return nil, nil, fmt.Errorf("mcpclient: configuration for tenant %q: %w", tenant, err)
		}
		c, err := New(cfg)
		if err != nil {
			return nil, nil, err
		}
		e = &tenantEntry{tenant: tenant, client: c}
		e.elem = t.lru.PushFront(e)
		t.byName[tenant] = e
		idle = t.evictLocked()
	} else {
		t.lru.MoveToFront(e.elem)
	}
	e.refs++
	var once sync.Once
	return e.client, func() { once.Do(func() { t.release(e) }) }, nil
}

// evictLocked drops the least recently used tenants beyond max and
// returns the Clients no one holds, to close.
func (t *TenantClients) evictLocked() []*Client {
	var idle []*Client
	for t.lru.Len() > t.max {
		e := t.lru.Remove(t.lru.Back()).(*tenantEntry)
		delete(t.byName, e.tenant)
		e.evicted = true
		if e.refs == 0 {
			idle = append(idle, e.client)
		}
	}
	return idle
}

func (t *TenantClients) release(e *tenantEntry) {
	t.mu.Lock()
	e.refs--
	closeNow := e.evicted && e.refs == 0
	t.mu.Unlock()
	if closeNow {
		e.client.Close()
	}
}

// Close closes every Client (also those still acquired) and refuses new
// acquisitions.
func (t *TenantClients) Close() error {
	t.mu.Lock()
	t.closed = true
	var clients []*Client
	for _, e := range t.byName {
		clients = append(clients, e.client)
	}
	t.byName, t.lru = map[string]*tenantEntry{}, list.New()
	t.mu.Unlock()
	var errs []error
	for _, c := range clients {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
