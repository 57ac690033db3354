package storage

import (
	"context"
	"net/url"
	"slices"
	"strings"
)

// A Driver opens stores from URLs: what an app's -storage flag names
// (package serve). Each backend exports one — sqlite.Driver for file
// paths and ":memory:", postgres.Driver for postgres:// URLs — so a
// program links only the backends it names, as database/sql programs
// link only the drivers they import.
type Driver struct {
	// Name names the backend in messages ("PostgreSQL").
	Name string
	// Schemes are the URL schemes the driver opens ("postgres",
	// "postgresql"). A driver without schemes opens whatever no other
	// driver claims (SQLite's file paths).
	Schemes []string
	// Open opens the store url names, applying the migrations it lacks.
	Open func(ctx context.Context, url string) (Store, error)
}

// Scheme is the scheme of a storage URL ("postgres" for
// "postgres://…"), or "" for a file path or ":memory:".
func Scheme(rawURL string) string {
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok || rest == "" {
		return ""
	}
	if u, err := url.Parse(rawURL); err != nil || u.Scheme == "" {
		return ""
	}
	return strings.ToLower(scheme)
}

// Opens tells whether d opens URLs of scheme ("" for a path).
func (d Driver) Opens(scheme string) bool {
	if scheme == "" {
		return len(d.Schemes) == 0
	}
	return slices.Contains(d.Schemes, scheme)
}
