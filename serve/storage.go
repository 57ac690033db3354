package serve

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
)

// Open opens the store url names with the first driver that opens its
// scheme: drivers in order, then SQLite (sqlite.Driver), which opens file
// paths and ":memory:". A URL whose scheme no driver opens is an error
// saying which driver to link.
func Open(ctx context.Context, url string, drivers ...storage.Driver) (storage.Store, error) {
	d, err := driverFor(url, drivers)
	if err != nil {
		return nil, err
	}
	return d.Open(ctx, url)
}

// driverFor picks the driver of url's scheme.
func driverFor(url string, drivers []storage.Driver) (storage.Driver, error) {
	scheme := storage.Scheme(url)
	for _, d := range append(drivers, sqlite.Driver) {
		if d.Opens(scheme) {
			return d, nil
		}
	}
	if scheme == "postgres" || scheme == "postgresql" {
		return storage.Driver{}, fmt.Errorf("storage %s: this app does not link PostgreSQL: import github.com/gomastra/mastra/storage/postgres and pass serve.WithStorage(postgres.Driver) to serve.Main", redactURL(url))
	}
	return storage.Driver{}, fmt.Errorf("storage %s: no driver for %s:// URLs in this app (a SQLite file path, or a URL of a driver given with serve.WithStorage)", redactURL(url), scheme)
}

// redactURL hides a URL's password in messages.
func redactURL(url string) string {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok {
		return url
	}
	userinfo, host, ok := strings.Cut(rest, "@")
	if !ok {
		return url
	}
	user, _, hasPassword := strings.Cut(userinfo, ":")
	if !hasPassword {
		return url
	}
	return scheme + "://" + user + ":***@" + host
}
