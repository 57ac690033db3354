package sqlstore

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

func TestJSONArg(t *testing.T) {
	if got := JSONArg(nil); got != nil {
		t.Errorf("JSONArg(nil) = %#v, want nil", got)
	}
	if got := JSONArg([]byte{}); got != nil {
		t.Errorf("JSONArg(empty) = %#v, want nil", got)
	}
	if got := JSONArg([]byte(`{"a": 1}`)); got != `{"a": 1}` {
		t.Errorf("JSONArg = %#v, want the text byte for byte", got)
	}
}

func TestMetadataArg(t *testing.T) {
	if got, err := MetadataArg(nil); got != nil || err != nil {
		t.Errorf("MetadataArg(nil) = %#v, %v; want nil, nil", got, err)
	}
	if got, err := MetadataArg(map[string]any{}); got != `{}` || err != nil {
		t.Errorf("MetadataArg(empty map) = %#v, %v; want {}", got, err)
	}
	if got, err := MetadataArg(map[string]any{"k": "v"}); got != `{"k":"v"}` || err != nil {
		t.Errorf("MetadataArg = %#v, %v", got, err)
	}
	if _, err := MetadataArg(map[string]any{"c": make(chan int)}); err == nil {
		t.Error("MetadataArg of an unencodable value succeeded")
	}
}

func TestRunFilter(t *testing.T) {
	from := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	to := from.Add(time.Hour)
	mark := func(tag string) func(time.Time) string {
		return func(t time.Time) string { return tag + t.Format(time.RFC3339Nano) }
	}
	for _, tc := range []struct {
		name  string
		f     storage.RunFilter
		p     Placeholders
		where string
		args  []any
	}{
		{name: "all", f: storage.RunFilter{Page: 2, PerPage: 5}, p: Dollar},
		{
			name:  "question",
			f:     storage.RunFilter{Kind: "agent", Status: "suspended", From: from},
			p:     Question,
			where: " WHERE kind = ? AND status = ? AND updated_at >= ?",
			args:  []any{"agent", "suspended", "from:" + from.Format(time.RFC3339Nano)},
		},
		{
			name: "dollar",
			f: storage.RunFilter{Kind: "agent", Name: "n", ThreadID: "t", ResourceID: "r", Status: "running",
				From: from, To: to},
			p: Dollar,
			where: " WHERE kind = $1 AND name = $2 AND thread_id = $3 AND resource_id = $4 AND status = $5" +
				" AND updated_at >= $6 AND updated_at <= $7",
			args: []any{"agent", "n", "t", "r", "running",
				"from:" + from.Format(time.RFC3339Nano), "to:" + to.Format(time.RFC3339Nano)},
		},
		{
			name:  "to only",
			f:     storage.RunFilter{To: to},
			p:     Dollar,
			where: " WHERE updated_at <= $1",
			args:  []any{"to:" + to.Format(time.RFC3339Nano)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			where, args := RunFilter(tc.f, tc.p, mark("from:"), mark("to:"))
			if where != tc.where {
				t.Errorf("where = %q, want %q", where, tc.where)
			}
			if !reflect.DeepEqual(args, tc.args) {
				t.Errorf("args = %v, want %v", args, tc.args)
			}
		})
	}
}

func TestMigrate(t *testing.T) {
	migrations := [][]string{{"a1", "a2"}, {"b1"}, {"c1"}}
	var log []string
	exec := func(stmt string) error { log = append(log, stmt); return nil }
	record := func(v int) error { log = append(log, "v"+strconv.Itoa(v)); return nil }

	if err := Migrate(1, migrations, exec, record); err != nil {
		t.Fatal(err)
	}
	if want := []string{"b1", "v2", "c1", "v3"}; !reflect.DeepEqual(log, want) {
		t.Errorf("from version 1: ran %v, want %v", log, want)
	}

	log = nil
	if err := Migrate(len(migrations), migrations, exec, record); err != nil || len(log) != 0 {
		t.Errorf("at the newest version: ran %v, err %v; want nothing", log, err)
	}

	err := Migrate(len(migrations)+1, migrations, exec, record)
	if err == nil || !strings.Contains(err.Error(), "newer than this build") {
		t.Errorf("newer schema: err = %v, want one saying the schema is newer", err)
	}

	boom := errors.New("boom")
	err = Migrate(0, migrations, func(stmt string) error {
		if stmt == "b1" {
			return boom
		}
		return nil
	}, func(int) error { return nil })
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "version 2: ") {
		t.Errorf("failing statement: err = %v, want version 2 wrapping it", err)
	}
	err = Migrate(0, migrations, func(string) error { return nil }, func(v int) error {
		if v == 1 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "version 1: ") {
		t.Errorf("failing record: err = %v, want version 1 wrapping it", err)
	}
}
