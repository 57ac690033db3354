package stream

import (
	"encoding/json"
	"strconv"
	"unsafe"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/model"
)

// Encoder encodes one run's chunks as a server streams them: the bytes
// of Marshal with JavaScript's escaping (what JSON.stringify writes).
// The step-finish and finish payloads of Mastra's stream repeat the
// conversation so far — in the record of every step, and in the message
// groups — so that a K-step run streams K² messages' worth of bytes; an
// Encoder encodes each message once and reuses its bytes wherever it
// recurs. It relies on a run's messages not changing once streamed.
//
// An Encoder is for one stream: it keeps the messages it has encoded
// until it is dropped. It is not safe for concurrent use.
type Encoder struct {
	msgs map[messageKey]encodedMessage
	// records are the step records encoded so far, by their messages
	// (each record lists the run's messages up to its step, a list of
	// its own length).
	records map[messageKey][]byte
	// buf is the chunk Encode returns, reused by the next.
	buf []byte
}

// messageKey names a message by its parts (their array, shared by every
// copy of the message) and role.
type messageKey struct {
	parts *model.Part
	n     int
	role  model.Role
}

// encodedMessage is a message's bytes; parts keeps the parts' array (the
// key's address) from being reused while the Encoder lives.
type encodedMessage struct {
	parts []model.Part
	raw   []byte
}

// NewEncoder returns an Encoder for one stream.
func NewEncoder() *Encoder {
	return &Encoder{msgs: map[messageKey]encodedMessage{}, records: map[messageKey][]byte{}}
}

// Encode returns c's bytes: wire.UnescapeJS(Marshal(c)), byte for byte.
// They are valid until the next Encode.
func (e *Encoder) Encode(c Chunk) ([]byte, error) {
	p, ok := c.Payload.(FinishPayload)
	if !ok || c.IsData() || c.IsObject() || (c.Type != TypeStepFinish && c.Type != TypeFinish) {
		b, err := Marshal(c)
		if err != nil {
			return nil, err
		}
		return wire.UnescapeJS(b), nil
	}
	b := append(e.buf[:0], `{"type":`...)
	b = appendString(b, c.Type)
	b = append(b, `,"runId":`...)
	b = appendString(b, c.RunID)
	b = append(b, `,"from":`...)
	b = appendString(b, string(c.From))
	b = append(b, `,"payload":`...)
	b, err := e.appendFinish(b, p)
	if err != nil {
		return nil, err
	}
	if len(c.Metadata) > 0 {
		if b, err = appendValue(append(b, `,"metadata":`...), c.Metadata); err != nil {
			return nil, err
		}
	}
	e.buf = append(b, '}')
	return e.buf, nil
}

// appendFinish appends a finish payload in its chunk's member order.
func (e *Encoder) appendFinish(b []byte, p FinishPayload) ([]byte, error) {
	b = append(b, '{')
	if p.MessageID != "" {
		b = appendString(append(b, `"messageId":`...), p.MessageID)
		b = append(b, ',')
	}
	b, err := appendValue(append(b, `"stepResult":`...), p.StepResult)
	if err == nil {
		b, err = appendValue(append(b, `,"metadata":`...), p.Metadata)
	}
	if err == nil {
		b, err = e.appendOutput(append(b, `,"output":`...), p.Output)
	}
	if err != nil {
		return nil, err
	}
	if p.Messages != nil && !p.Resumed {
		b = e.appendGroups(append(b, `,"messages":`...), p.Messages)
	}
	b = strconv.AppendInt(append(b, `,"processorRetryCount":`...), int64(p.ProcessorRetryCount), 10)
	if p.Messages != nil && p.Resumed {
		b = e.appendGroups(append(b, `,"messages":`...), p.Messages)
	}
	return append(b, '}'), nil
}

// appendOutput appends a payload's output: its steps' messages from the
// Encoder's cache.
func (e *Encoder) appendOutput(b []byte, o FinishOutput) ([]byte, error) {
	b = appendString(append(b, `{"text":`...), o.Text)
	b, err := appendValue(append(b, `,"toolCalls":`...), o.ToolCalls)
	if err == nil {
		b, err = appendValue(append(b, `,"usage":`...), o.Usage)
	}
	if err != nil {
		return nil, err
	}
	b = append(b, `,"steps":`...)
	if o.Steps == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range o.Steps {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = e.appendRecord(b, s); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if o.Object != nil {
		if b, err = appendValue(append(b, `,"object":`...), o.Object); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendRecord appends one step's record, encoded once: a record does not
// change once its step has ended (the finish payload repeats them all).
func (e *Encoder) appendRecord(b []byte, s StepRecord) ([]byte, error) {
	msgs := s.Response.Messages
	if len(msgs) == 0 || s.Request != nil {
		return e.encodeRecord(b, s)
	}
	k := messageKey{parts: unsafe.SliceData(msgs[0].Content), n: len(msgs), role: model.RoleUser}
	if raw, ok := e.records[k]; ok {
		return append(b, raw...), nil
	}
	start := len(b)
	b, err := e.encodeRecord(b, s)
	if err == nil {
		e.records[k] = append([]byte(nil), b[start:]...)
	}
	return b, err
}

// encodeRecord appends one step's record.
func (e *Encoder) encodeRecord(b []byte, s StepRecord) ([]byte, error) {
	b, err := appendValue(append(b, `{"content":`...), s.Content)
	if err == nil {
		b, err = appendValue(append(b, `,"usage":`...), s.Usage)
	}
	if err == nil {
		b, err = appendValue(append(b, `,"warnings":`...), s.Warnings)
	}
	if err == nil && s.Request != nil {
		b, err = appendValue(append(b, `,"request":`...), s.Request)
	}
	if err != nil {
		return nil, err
	}
	b = append(b, `,"response":{`...)
	r := s.Response
	if r.ID != "" {
		b = append(appendString(append(b, `"id":`...), r.ID), ',')
	}
	if r.Timestamp != "" {
		b = append(appendString(append(b, `"timestamp":`...), r.Timestamp), ',')
	}
	b = appendString(append(b, `"modelId":`...), r.ModelID)
	b = e.appendMessages(append(b, `,"messages":`...), r.Messages)
	return append(b, "}}"...), nil
}

// appendGroups appends the message groups.
func (e *Encoder) appendGroups(b []byte, g *MessageGroups) []byte {
	b = e.appendMessages(append(b, `{"all":`...), g.All)
	b = e.appendMessages(append(b, `,"user":`...), g.User)
	b = e.appendMessages(append(b, `,"nonUser":`...), g.NonUser)
	return append(b, '}')
}

// appendMessages appends a list of messages, each encoded once.
func (e *Encoder) appendMessages(b []byte, msgs []model.Message) []byte {
	if msgs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e.message(&msgs[i])...)
	}
	return append(b, ']')
}

// message is m's bytes, encoded the first time it is seen. Messages
// without parts, or with provider options, are cheap or rare: they are
// encoded each time rather than keyed.
func (e *Encoder) message(m *model.Message) []byte {
	if len(m.Content) == 0 || len(m.ProviderOptions) > 0 {
		return encodeMessage(m)
	}
	k := messageKey{parts: unsafe.SliceData(m.Content), n: len(m.Content), role: m.Role}
	if c, ok := e.msgs[k]; ok {
		return c.raw
	}
	raw := encodeMessage(m)
	e.msgs[k] = encodedMessage{parts: m.Content, raw: raw}
	return raw
}

// encodeMessage is m as Marshal writes it, with JavaScript's escaping.
func encodeMessage(m *model.Message) []byte {
	raw, err := m.MarshalJSON()
	if err != nil {
		// A message that cannot be encoded cannot be in a run's state.
		return []byte("null")
	}
	return wire.UnescapeJS(raw)
}

// appendString appends s as a JSON string with JavaScript's escaping.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, wire.UnescapeJS(q)...)
}

// appendValue appends v as Marshal encodes it, with JavaScript's
// escaping.
func appendValue(b []byte, v any) ([]byte, error) {
	raw, err := wire.MarshalNoHTML(v)
	if err != nil {
		return nil, err
	}
	return append(b, wire.UnescapeJS(raw)...), nil
}
