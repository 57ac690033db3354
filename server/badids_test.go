package server_test

import (
	"context"
	"testing"

	"github.com/gomastra/mastra/internal/badidtest"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/aisdk"
	"github.com/gomastra/mastra/storage/sqlite"
)

// TestBadIDsAreRefusedAtTheEdge: an id no storage may hold (a NUL in a
// run, thread or resource id) is a 400 naming the field, on SQLite as on
// PostgreSQL (storage/postgres runs the same requests).
func TestBadIDsAreRefusedAtTheEdge(t *testing.T) {
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := badidtest.BadIDApp(st)
	badidtest.CheckBadIDs(t, server.New(m, server.Options{Routes: []server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{})}}))
}
