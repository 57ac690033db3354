//go:build !unix

package pgtest

import "fmt"

// cluster is not available off Unix.
type cluster struct{}

func startCluster() (*cluster, error) {
	return nil, fmt.Errorf("%w (scratch clusters need a Unix system)", errNoPostgres)
}

func (c *cluster) dsn(string) string { return "" }

func (c *cluster) stop() error { return nil }
