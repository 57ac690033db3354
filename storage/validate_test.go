package storage

import (
	"encoding/json"
	"testing"
)

func TestChecks(t *testing.T) {
	bad := json.RawMessage(`{"a":`)
	for _, tc := range []struct {
		name string
		err  error
		want string // "" for no error
	}{
		{"json empty", CheckJSON(nil), ""},
		{"json valid", CheckJSON([]byte(`[1]`)), ""},
		{"json invalid", CheckJSON(bad), "invalid JSON"},

		{"thread ok", CheckThread(Thread{ID: "t"}), ""},
		{"thread empty id", CheckThread(Thread{ResourceID: "r"}), "save thread: empty id"},

		{"message ok", CheckMessage(Message{ID: "m", ThreadID: "t", Content: []byte(`{}`)}), ""},
		{"message empty id", CheckMessage(Message{ThreadID: "t"}), "empty id"},
		{"message empty thread", CheckMessage(Message{ID: "m"}), "message m: empty thread id"},
		{"message content", CheckMessage(Message{ID: "m", ThreadID: "t", Content: bad}), "message m: content: invalid JSON"},
		{"message metadata", CheckMessage(Message{ID: "m", ThreadID: "t", Metadata: bad}), "message m: metadata: invalid JSON"},

		{"run ok", CheckRun(Run{RunID: "r", Version: 3, Snapshot: []byte(`{}`)}), ""},
		{"run empty id", CheckRun(Run{Version: -1}), "save run: empty run id"},
		{"run negative version", CheckRun(Run{RunID: "r", Version: -1, Snapshot: bad}), "save run r: negative version -1"},
		{"run snapshot", CheckRun(Run{RunID: "r", Snapshot: bad}), "save run r: snapshot: invalid JSON"},

		{"append ok", CheckAppend("r", 1, []byte(`{"step":2}`)), ""},
		{"append empty id", CheckAppend("", 1, []byte(`{}`)), "append run: empty run id"},
		{"append version 0", CheckAppend("r", 0, []byte(`{}`)), "append run r: version 0, want 1 or more"},
		{"append empty delta", CheckAppend("r", 2, nil), "append run r: empty delta"},
		{"append invalid delta", CheckAppend("r", 2, bad), "append run r: delta: invalid JSON"},
	} {
		got := ""
		if tc.err != nil {
			got = tc.err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: err = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCheckID(t *testing.T) {
	for id, ok := range map[string]bool{"": true, "run-1": true, "é✓": true, "a\x00b": false, "\xff": false} {
		if err := CheckID(id); (err == nil) != ok {
			t.Errorf("CheckID(%q) = %v", id, err)
		}
	}
}
