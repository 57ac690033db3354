package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The checks below are the argument rules both backends of this module
// apply before they write (see storagetest for the choices they make
// beyond the interfaces' contracts). Their errors read as the failing
// call's, without the backend's prefix: a backend wraps them with its own
// ("sqlite: ", "postgres: ").

// CheckID returns an error when id cannot be a run, thread, resource or
// message id in every storage: when it holds a NUL character (U+0000),
// which PostgreSQL's text cannot store and SQLite's can, or is not valid
// UTF-8. Servers check the ids a client sends with it, so that an id is
// refused the same way whatever the storage. An empty id passes: whether
// one is required is the caller's rule.
func CheckID(id string) error {
	if strings.IndexByte(id, 0) >= 0 {
		return errors.New("must not contain a NUL character (U+0000)")
	}
	if !utf8.ValidString(id) {
		return errors.New("must be valid UTF-8")
	}
	return nil
}

// CheckJSON returns an error when raw is neither empty nor valid JSON. An
// empty value is allowed: backends store it as NULL.
func CheckJSON(raw []byte) error {
	if len(raw) > 0 && !json.Valid(raw) {
		return errors.New("invalid JSON")
	}
	return nil
}

// CheckThread checks t for SaveThread: its ID must not be empty.
func CheckThread(t Thread) error {
	if t.ID == "" {
		return errors.New("save thread: empty id")
	}
	return nil
}

// CheckResource checks a resource to save: its ID must not be empty.
func CheckResource(r Resource) error {
	if r.ID == "" {
		return errors.New("save resource: empty id")
	}
	return nil
}

// CheckMessage checks one message of a SaveMessages batch: its ID and
// ThreadID must not be empty, and Content and Metadata must be empty or
// valid JSON. The error names the message; the backend adds the call
// and the message's place in the batch.
func CheckMessage(m Message) error {
	switch {
	case m.ID == "":
		return errors.New("empty id")
	case m.ThreadID == "":
		return fmt.Errorf("message %s: empty thread id", m.ID)
	}
	if err := CheckJSON(m.Content); err != nil {
		return fmt.Errorf("message %s: content: %w", m.ID, err)
	}
	if err := CheckJSON(m.Metadata); err != nil {
		return fmt.Errorf("message %s: metadata: %w", m.ID, err)
	}
	return nil
}

// CheckRun checks r for SaveRun: its RunID must not be empty, its Version
// must not be negative, and Snapshot must be empty or valid JSON.
func CheckRun(r Run) error {
	if r.RunID == "" {
		return errors.New("save run: empty run id")
	}
	if r.Version < 0 {
		return fmt.Errorf("save run %s: negative version %d", r.RunID, r.Version)
	}
	if err := CheckJSON(r.Snapshot); err != nil {
		return fmt.Errorf("save run %s: snapshot: %w", r.RunID, err)
	}
	return nil
}

// CheckAppend checks the arguments of AppendRun: runID must not be
// empty, version must be a stored one (1 or more), and delta must be
// valid JSON (an empty delta is refused too: it would change nothing).
func CheckAppend(runID string, version int64, delta []byte) error {
	switch {
	case runID == "":
		return errors.New("append run: empty run id")
	case version < 1:
		return fmt.Errorf("append run %s: version %d, want 1 or more", runID, version)
	case len(delta) == 0:
		return fmt.Errorf("append run %s: empty delta", runID)
	}
	if err := CheckJSON(delta); err != nil {
		return fmt.Errorf("append run %s: delta: %w", runID, err)
	}
	return nil
}
