package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
)

// messagePage is GET /memory/threads/{threadId}/messages's answer.
type messagePage struct {
	Messages   []json.RawMessage `json:"messages"`
	Total      int               `json:"total"`
	Page       int               `json:"page"`
	PerPage    any               `json:"perPage"`
	HasMore    bool              `json:"hasMore"`
	UIMessages []any             `json:"uiMessages"`
}

// GET /memory/threads/{threadId}/messages?agentId=&resourceId=&page=&perPage=&orderBy=
// -> messagePage: the thread's messages in Mastra's stored format (see
// mastraMessages), oldest first unless orderBy says otherwise, 40 a page;
// uiMessages is null, as Mastra's local memory answers. Without any
// memory to read, {"messages": [], "uiMessages": []}.
func (s *Server) listThreadMessages(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, err := readPageQuery(q, 40, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	named := s.namedAgent(r)
	reader := s.memoryReader(named)
	if reader == nil {
		wire.WriteJSON(w, http.StatusOK, []byte(`{"messages":[],"uiMessages":[]}`))
		return
	}
	threadID := r.PathValue("threadId")
	if _, err := ownedThread(r, reader, threadID, q.Get("resourceId")); err != nil {
		s.writeError(w, r, err)
		return
	}
	stored, err := reader.Storage().ListMessages(r.Context(), threadID, 0)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	msgs, err := mastraMessages(stored, stepModel(r, named))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if page.Descending {
		slices.Reverse(msgs)
	}
	start, end, more := page.window(len(msgs))
	s.writeJSON(w, r, http.StatusOK, messagePage{Messages: append([]json.RawMessage{}, msgs[start:end]...),
		Total: len(msgs), Page: page.Page, PerPage: page.perPageJSON(), HasMore: more})
}

// POST /memory/save-messages?agentId= with {messages: [...]} ->
// {messages: [...]}: each message (Mastra's stored format, a model
// message or a UI message, as agent inputs are read) saved to its thread,
// which must exist and belong to the message's resource. Every message
// names its threadId and resourceId; one thread's messages name one
// resource. The answer repeats the messages given, each with its id (a
// new one when missing) and createdAt (now when missing).
func (s *Server) saveMessages(w http.ResponseWriter, r *http.Request) {
	a, err := s.memoryWriter(r)
	var batch savedBatch
	if err == nil {
		batch, err = s.readSavedMessages(r)
	}
	if err == nil {
		err = checkSavedThreads(r, a, batch.resources)
	}
	if err == nil {
		err = a.Storage().SaveMessages(r.Context(), batch.stored)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body := append([]byte(`{"messages":[`), bytes.Join(batch.echo, []byte(","))...)
	wire.WriteJSON(w, http.StatusOK, append(body, "]}"...))
}

// checkSavedThreads fails unless every thread exists (404) and belongs to
// the resource its messages name (403), which, with Options.Auth, must be
// the authenticated one.
func checkSavedThreads(r *http.Request, a *agent.Agent, resources map[string]string) error {
	auth := authResource(r)
	for _, threadID := range slices.Sorted(maps.Keys(resources)) {
		if auth != "" && resources[threadID] != auth {
			return errorf(http.StatusForbidden, "Access denied: cannot save messages for a different resource")
		}
		if _, err := ownedThread(r, a, threadID, resources[threadID]); err != nil {
			return err
		}
	}
	return nil
}

// POST /memory/messages/delete?agentId=&resourceId= with {messageIds: id
// | [ids] | {id} | [{id}]} -> {success: true, message: "N messages
// deleted successfully"}. Each message's thread must exist and belong
// to the caller's resource (403 otherwise); ids with no message are
// skipped.
func (s *Server) deleteMessages(w http.ResponseWriter, r *http.Request) {
	named, err := s.memoryAgent(r)
	var ids []string
	if err == nil {
		ids, err = s.readMessageIDs(r)
	}
	reader := s.memoryReader(named)
	if err == nil && reader == nil {
		err = errMemoryNotInitialized
	}
	if err == nil {
		err = checkDeletableMessages(r, reader, ids)
	}
	switch {
	case err != nil:
	case reader == named:
		err = named.DeleteMessages(r.Context(), ids) // its embeddings too
	default:
		err = reader.Storage().DeleteMessages(r.Context(), ids)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	plural := "s"
	if len(ids) == 1 {
		plural = ""
	}
	s.writeJSON(w, r, http.StatusOK, struct {
		Success bool   `json:"success"`
		Message string `json:"message"`
	}{true, fmt.Sprintf("%d message%s deleted successfully", len(ids), plural)})
}

var errUnverifiedMessages = errorf(http.StatusForbidden, "Access denied: unable to verify message thread access")

// checkDeletableMessages checks the threads of the messages about to be
// deleted against the caller's resource.
func checkDeletableMessages(r *http.Request, a *agent.Agent, ids []string) error {
	msgs, err := a.Storage().GetMessages(r.Context(), ids)
	if err != nil {
		return err
	}
	resource := r.URL.Query().Get("resourceId")
	checked := map[string]bool{}
	for _, m := range msgs {
		if m.ThreadID == "" {
			return errUnverifiedMessages
		}
		if checked[m.ThreadID] {
			continue
		}
		checked[m.ThreadID] = true
		_, err := ownedThread(r, a, m.ThreadID, resource)
		var he *httpError
		if errors.As(err, &he) && he.status == http.StatusNotFound {
			return errUnverifiedMessages
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readMessageIDs reads deleteMessages's messageIds in any of its forms.
func (s *Server) readMessageIDs(r *http.Request) ([]string, error) {
	f, err := s.readFields(r)
	if err != nil {
		return nil, err
	}
	raw, ok := f["messageIds"]
	if !ok {
		return nil, invalidBody(wire.Issue{Field: "messageIds", Message: zodmsg.Expected("string", nil)})
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var obj struct {
		ID *string `json:"id"`
	}
	if zodmsg.TypeOf(raw) == "object" && json.Unmarshal(raw, &obj) == nil && obj.ID != nil {
		return []string{*obj.ID}, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		ids := make([]string, 0, len(list))
		for _, el := range list {
			if json.Unmarshal(el, &one) == nil {
				ids = append(ids, one)
			} else if zodmsg.TypeOf(el) == "object" && json.Unmarshal(el, &obj) == nil && obj.ID != nil {
				ids = append(ids, *obj.ID)
			} else {
				return nil, invalidBody(wire.Issue{Field: "messageIds", Message: "Invalid input"})
			}
		}
		return ids, nil
	}
	return nil, invalidBody(wire.Issue{Field: "messageIds", Message: "Invalid input"})
}

// metadataFilter reads ?metadata=, a JSON object ("" is none).
func metadataFilter(raw string) (map[string]any, error) {
	if raw == "" {
		return nil, nil
	}
	var m map[string]any
	if zodmsg.TypeOf(json.RawMessage(raw)) != "object" || json.Unmarshal([]byte(raw), &m) != nil {
		return nil, invalidQuery(wire.Issue{Field: "metadata", Message: "Invalid input: expected record, received string"})
	}
	return m, nil
}

// metadataMatches reports whether meta holds every member of filter
// with an equal value.
func metadataMatches(meta, filter map[string]any) bool {
	for k, want := range filter {
		got, ok := meta[k]
		if !ok || !reflect.DeepEqual(jsonValue(got), jsonValue(want)) {
			return false
		}
	}
	return true
}

// jsonValue is v as encoding/json decodes it (numbers as float64), so
// that values from different sources compare equal.
func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
