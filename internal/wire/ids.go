package wire

import (
	"encoding/json"

	"github.com/gomastra/mastra/storage"
)

// IDIssue is the issue of an id a client sent as field, or nil when
// storage.CheckID accepts it.
func IDIssue(field, id string) *Issue {
	if err := storage.CheckID(id); err != nil {
		return &Issue{Field: field, Message: "Invalid id: " + err.Error()}
	}
	return nil
}

// bodyIDFields are the top-level body fields holding an id.
var bodyIDFields = []string{"runId", "threadId", "resourceId"}

// BodyIDIssues checks the ids of a request body, given as its members'
// JSON: runId, threadId and resourceId, and memory's thread (a string or
// {id}) and resource. Members that are not strings are left to the
// route's own validation.
func BodyIDIssues(f map[string]json.RawMessage) Issues {
	var out Issues
	check := func(field string, raw json.RawMessage) {
		var id string
		if json.Unmarshal(raw, &id) == nil {
			if is := IDIssue(field, id); is != nil {
				out.Add(is.Field, is.Message)
			}
		}
	}
	for _, k := range bodyIDFields {
		check(k, f[k])
	}
	var memory struct {
		Thread   json.RawMessage `json:"thread"`
		Resource json.RawMessage `json:"resource"`
	}
	if json.Unmarshal(f["memory"], &memory) == nil {
		var thread struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(memory.Thread, &thread) == nil {
			memory.Thread = thread.ID
		}
		check("memory.thread", memory.Thread)
		check("memory.resource", memory.Resource)
	}
	return out
}
