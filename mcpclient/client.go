package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
)

// Client is Mastra's MCPClient: a set of named MCP servers whose tools,
// resources and prompts it exposes. It is safe for concurrent use. Close it
// when done: that stops stdio server processes.
type Client struct {
	id      string
	logger  *slog.Logger
	servers map[string]*server
	names   []string // sorted
	closed  atomic.Bool
	once    sync.Once
}

// New validates cfg and returns a client. It connects to nothing: servers
// are connected on first use (or by Connect).
func New(cfg Config) (*Client, error) {
	if len(cfg.Servers) == 0 {
		return nil, errors.New("mcpclient: Config.Servers is empty")
	}
	if cfg.Timeout < 0 {
		return nil, errors.New("mcpclient: Config.Timeout must not be negative")
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	if cfg.ID != "" {
		logger = logger.With("mcpClient", cfg.ID)
	}
	c := &Client{id: cfg.ID, logger: logger, servers: make(map[string]*server, len(cfg.Servers))}
	for name, sc := range cfg.Servers {
		r, err := resolve(name, sc, timeout)
		if err != nil {
			return nil, err
		}
		c.servers[name] = newServer(r, logger)
		c.names = append(c.names, name)
	}
	sort.Strings(c.names)
	return c, nil
}

// ID returns Config.ID.
func (c *Client) ID() string { return c.id }

// Servers returns the configured server names, sorted.
func (c *Client) Servers() []string { return append([]string(nil), c.names...) }

// server returns the named server, or an error wrapping ErrUnknownServer
// or ErrClosed.
func (c *Client) server(name string) (*server, error) {
	if c.closed.Load() {
		return nil, ErrClosed
	}
	s, ok := c.servers[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	return s, nil
}

// Connect connects to every server that is not connected yet, in parallel,
// and returns the errors of those that failed (joined; nil when all
// connected). Calling it is optional: every other method connects on
// demand.
func (c *Client) Connect(ctx context.Context) error {
	errs := c.eachServer(ctx, func(ctx context.Context, s *server) error {
		_, err := s.get(ctx)
		return err
	})
	var all []error
	for _, name := range c.names {
		if err := errs[name]; err != nil {
			all = append(all, err)
		}
	}
	return errors.Join(all...)
}

// ReconnectServer drops the named server's connection, if any, and
// connects again (Mastra's reconnectServer).
func (c *Client) ReconnectServer(ctx context.Context, name string) error {
	s, err := c.server(name)
	if err != nil {
		return err
	}
	s.disconnect()
	_, err = s.get(ctx)
	return err
}

// Disconnect closes every server connection (stopping stdio servers) and
// keeps the client usable: the next use reconnects, as in Mastra.
func (c *Client) Disconnect() {
	var wg sync.WaitGroup
	for _, s := range c.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.disconnect()
		}()
	}
	wg.Wait()
}

// Close disconnects every server for good and waits until their
// connections, goroutines and processes are gone. Later calls of the
// client's methods, and of its tools, fail with ErrClosed. Close is
// idempotent and always returns nil.
func (c *Client) Close() error {
	c.once.Do(func() {
		c.closed.Store(true)
		var wg sync.WaitGroup
		for _, s := range c.servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.close()
			}()
		}
		wg.Wait()
	})
	return nil
}

// eachServer runs fn for every server in parallel and returns each
// server's error (nil entries for successes). After Close every server
// gets ErrClosed.
func (c *Client) eachServer(ctx context.Context, fn func(context.Context, *server) error) map[string]error {
	errs := make(map[string]error, len(c.servers))
	if c.closed.Load() {
		for _, name := range c.names {
			errs[name] = ErrClosed
		}
		return errs
	}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for name, s := range c.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := fn(ctx, s)
			mu.Lock()
			errs[name] = err
			mu.Unlock()
		}()
	}
	wg.Wait()
	return errs
}
