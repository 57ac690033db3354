package postgres

import (
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/gomastra/mastra/internal/badidtest"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/aisdk"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
)

// TestBadIDsAreRefusedAtTheEdge: ids PostgreSQL's text cannot hold (a
// NUL) are the 400 naming the field that SQLite's server answers too
// (server's test of the same name), never a 500 with PostgreSQL's error.
func TestBadIDsAreRefusedAtTheEdge(t *testing.T) {
	st, err := Open(t.Context(), pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	m := badidtest.BadIDApp(st)
	badidtest.CheckBadIDs(t, server.New(m, server.Options{Routes: []server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{})}}))
}

// TestDatabaseErrorsStayInTheLog: a statement PostgreSQL refuses (here
// on a table gone from under the server) is answered a generic 500; the
// database's text is logged, not sent.
func TestDatabaseErrorsStayInTheLog(t *testing.T) {
	dsn := pgtest.DSN(t)
	st, err := Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	if _, err := conn.Exec(t.Context(), `ALTER TABLE mastra_runs RENAME TO mastra_runs_gone`); err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	h := server.New(badidtest.BadIDApp(st), server.Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	for _, target := range []string{"/api/workflows/one-step/runs", "/api/agents/mem-agent/suspended-runs"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		if rec.Code != 500 || rec.Body.String() != `{"error":"Internal Server Error"}` {
			t.Errorf("%s: %d %s", target, rec.Code, rec.Body)
		}
	}
	if !strings.Contains(logged.String(), "SQLSTATE") {
		t.Errorf("the database's error is not logged: %s", logged.String())
	}
}
