package server_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomastra/mastra/internal/badidtest"
	"github.com/gomastra/mastra/internal/dberrtest"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/aisdk"
	"github.com/gomastra/mastra/storage/sqlite"
)

// sqliteLeaks are texts of SQLite's and database/sql's errors that no
// answer may carry.
var sqliteLeaks = []string{"no such table", "database is closed", "SQL logic error", "sqlite"}

// TestSQLiteErrorsStayInTheLog: on SQLite, tables gone from under a
// running server, and then the database closed, are answered Mastra's
// generic 500 on the server's routes, and with an error part without the
// driver's text on the chat route; the driver's text is logged.
func TestSQLiteErrorsStayInTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mastra.db")
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := badidtest.BadIDApp(st)
	var logged dberrtest.Log
	h := server.New(m, server.Options{Logger: logged.Logger(),
		Routes: []server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{Logger: logged.Logger()})}})

	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for _, table := range []string{"mastra_run_deltas", "mastra_run_claims", "mastra_run_snapshots", "mastra_runs", "mastra_messages"} {
		if _, err := other.Exec(`DROP TABLE ` + table); err != nil {
			t.Fatal(err)
		}
	}
	dberrtest.CheckGeneric500(t, h, dberrtest.BadIDAppRequests, sqliteLeaks)
	if !strings.Contains(logged.String(), "no such table") {
		t.Errorf("the database's error is not logged: %s", logged.String())
	}
	st.Close()
	dberrtest.CheckGeneric500(t, h, dberrtest.BadIDAppRequests, sqliteLeaks)
	if !strings.Contains(logged.String(), "database is closed") {
		t.Errorf("the closed database's error is not logged: %s", logged.String())
	}
}

// TestSQLiteFailureMidStream: the database closed while a run streams
// ends the agent's SSE stream with an error chunk, and the chat route's
// with an error part, whose text is not the driver's; the driver's text
// is logged.
func TestSQLiteFailureMidStream(t *testing.T) {
	for _, req := range dberrtest.MidStream {
		t.Run(req.Target, func(t *testing.T) {
			st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "mastra.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var logged dberrtest.Log
			m := dberrtest.BreakerApp(t, st, logged.Logger(), st.Close)
			h := server.New(m, server.Options{Logger: logged.Logger(),
				Routes: []server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{Logger: logged.Logger()})}})
			dberrtest.CheckErrorChunk(t, h, req, sqliteLeaks)
			if !strings.Contains(logged.String(), "database is closed") {
				t.Errorf("the database's error is not logged: %s", logged.String())
			}
		})
	}
}
