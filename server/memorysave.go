package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/storage"
)

// savedBatch is a save-messages body read: the messages to store, the
// answer's echo of each, and the resource each thread's messages name.
type savedBatch struct {
	stored    []storage.Message
	echo      [][]byte
	resources map[string]string
}

// savedHeader is what save-messages reads of a message besides its
// content.
type savedHeader struct {
	ID         string          `json:"id"`
	ThreadID   string          `json:"threadId"`
	ResourceID string          `json:"resourceId"`
	Type       string          `json:"type"`
	Content    json.RawMessage `json:"content"`
	CreatedAt  json.RawMessage `json:"createdAt"`
}

// readSavedMessages reads and checks save-messages's body.
func (s *Server) readSavedMessages(r *http.Request) (savedBatch, error) {
	b := savedBatch{resources: map[string]string{}}
	f, err := s.readFields(r)
	if err != nil {
		return b, err
	}
	raw, ok := f["messages"]
	if !ok || zodmsg.TypeOf(raw) != "array" {
		return b, invalidBody(wire.Issue{Field: "messages", Message: zodmsg.Expected("array", raw)})
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return b, invalidBody(wire.Issue{Field: "messages", Message: "Invalid input"})
	}
	invalid := 0
	for _, el := range elems {
		var h savedHeader
		if zodmsg.TypeOf(el) != "object" || json.Unmarshal(el, &h) != nil || h.ThreadID == "" || h.ResourceID == "" {
			invalid++
			continue
		}
		if prev, ok := b.resources[h.ThreadID]; ok && prev != h.ResourceID {
			return b, errorf(http.StatusBadRequest, "All messages for the same threadId must use the same resourceId.")
		}
		b.resources[h.ThreadID] = h.ResourceID
	}
	if invalid > 0 {
		return b, errorf(http.StatusBadRequest, fmt.Sprintf("All messages must have threadId and resourceId fields. Found %d invalid message(s).", invalid))
	}
	for i, el := range elems {
		if err := b.add(el, i); err != nil {
			return b, err
		}
	}
	return b, nil
}

// add reads one message of the body (element i).
func (b *savedBatch) add(el json.RawMessage, i int) error {
	var h savedHeader
	_ = json.Unmarshal(el, &h)
	field := "messages." + strconv.Itoa(i)
	msgs, err := parseMessage(el)
	if err != nil {
		return invalidBody(wire.Issue{Field: field, Message: err.Error()})
	}
	created := time.Now().UTC()
	if len(h.CreatedAt) > 0 {
		var at string
		if json.Unmarshal(h.CreatedAt, &at) != nil {
			return invalidBody(wire.Issue{Field: field + ".createdAt", Message: zodmsg.Expected("string", h.CreatedAt)})
		}
		if created, err = parseDate(at); err != nil {
			return invalidBody(wire.Issue{Field: field + ".createdAt", Message: "Invalid date"})
		}
	}
	if h.ID == "" {
		h.ID = uuid.New()
	}
	var form json.RawMessage
	if len(msgs) == 1 && zodmsg.TypeOf(h.Content) == "object" {
		form, _ = json.Marshal(map[string]storedForm{storedFormKey: {Type: h.Type, Content: h.Content}})
	}
	for k, m := range msgs {
		content, err := json.Marshal(m)
		if err != nil {
			return invalidBody(wire.Issue{Field: field, Message: err.Error()})
		}
		id := h.ID
		if k > 0 {
			id = uuid.Derived(h.ID, strconv.Itoa(k))
		}
		b.stored = append(b.stored, storage.Message{ID: id, ThreadID: h.ThreadID, ResourceID: h.ResourceID,
			Role: string(m.Role), Content: content, Metadata: form, CreatedAt: created.Add(time.Duration(k) * time.Microsecond)})
	}
	echo, err := echoSaved(el, h.ID, created)
	if err != nil {
		return invalidBody(wire.Issue{Field: field, Message: err.Error()})
	}
	b.echo = append(b.echo, echo)
	return nil
}

// echoSaved is the message given, members in their order, with its id
// and createdAt (an ISO string) set, appended when it had none: what
// Mastra answers for it.
func echoSaved(el json.RawMessage, id string, created time.Time) (json.RawMessage, error) {
	out := []byte{'{'}
	seen := map[string]bool{}
	member := func(key string, val []byte) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = wire.AppendString(out, key, wire.StringifyGo)
		out = append(out, ':')
		out = append(out, val...)
	}
	str := func(s string) []byte { return wire.AppendString(nil, s, wire.StringifyGo) }
	err := wire.EachMember(el, func(key string, val json.RawMessage) bool {
		seen[key] = true
		switch key {
		case "id":
			member(key, str(id))
		case "createdAt":
			member(key, str(isoTime(created)))
		default:
			member(key, val)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	if !seen["id"] {
		member("id", str(id))
	}
	if !seen["createdAt"] {
		member("createdAt", str(isoTime(created)))
	}
	return append(out, '}'), nil
}
