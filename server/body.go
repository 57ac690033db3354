package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/tools"
)

// errTooLarge is Mastra's answer to a body over the limit.
var errTooLarge = errorf(http.StatusRequestEntityTooLarge, "Request body too large")

// readBody reads the request body, at most s.maxBody bytes.
func (s *Server) readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength > s.maxBody {
		return nil, errTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, s.maxBody+1))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, errTooLarge
		}
		if isBodyTimeout(err) {
			return nil, errBodyTimeout
		}
		return nil, errorf(http.StatusBadRequest, "Failed to read request body")
	}
	if int64(len(b)) > s.maxBody {
		return nil, errTooLarge
	}
	return b, nil
}

// fields is a request body: an object's members as raw JSON.
type fields map[string]json.RawMessage

// readFields reads and decodes a JSON object body. An empty body is {}.
// Invalid JSON is Mastra's 400 with the parser's message (V8's text) on
// the field "body"; a body that is not an object fails on "root"; an id
// no storage may hold (wire.BodyIDIssues) fails on its field.
func (s *Server) readFields(r *http.Request) (fields, error) {
	b, err := s.readBody(r)
	if err != nil {
		return nil, err
	}
	f, err := parseFields(b)
	if err != nil {
		return nil, err
	}
	if issues := wire.BodyIDIssues(f); len(issues) > 0 {
		return nil, invalidBody(issues...)
	}
	return f, nil
}

func parseFields(b []byte) (fields, error) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return fields{}, nil
	}
	var f fields
	if err := json.Unmarshal(t, &f); err != nil {
		if msg := wire.SyntaxErrorText(b); msg != "" {
			return nil, invalidBody(wire.Issue{Field: "body", Message: msg})
		}
		return nil, invalidBody(wire.Issue{Field: "root", Message: "Invalid input: expected object, received " + zodmsg.TypeOf(t)})
	}
	if t[0] != '{' {
		return nil, invalidBody(wire.Issue{Field: "root", Message: "Invalid input: expected object, received " + zodmsg.TypeOf(t)})
	}
	return f, nil
}

// validator collects the issues of one body.
type validator struct {
	f      fields
	issues wire.Issues
	// fatal is an error found while reading the body that is not a body
	// issue (a thread of another resource: 403); issues take precedence.
	fatal error
}

// add records an issue; past wire.MaxIssues issues it records nothing
// (loops over a body's elements stop once v.full()).
func (v *validator) add(field, msg string) { v.issues.Add(field, msg) }

// full reports whether v holds as many issues as an answer lists.
func (v *validator) full() bool { return v.issues.Full() }

func (v *validator) err() error {
	if len(v.issues) == 0 {
		return nil
	}
	return invalidBody(v.issues...)
}

// str reads an optional string field; required makes absence an issue.
func (v *validator) str(key string, required bool) (string, bool) {
	raw, ok := v.f[key]
	if !ok {
		if required {
			v.add(key, zodmsg.Expected("string", nil))
		}
		return "", false
	}
	var s string
	if zodmsg.TypeOf(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		v.add(key, zodmsg.Expected("string", raw))
		return "", false
	}
	return s, true
}

// boolean reads an optional boolean field.
func (v *validator) boolean(key string, required bool) (bool, bool) {
	raw, ok := v.f[key]
	if !ok {
		if required {
			v.add(key, zodmsg.Expected("boolean", nil))
		}
		return false, false
	}
	var b bool
	if zodmsg.TypeOf(raw) != "boolean" || json.Unmarshal(raw, &b) != nil {
		v.add(key, zodmsg.Expected("boolean", raw))
		return false, false
	}
	return b, true
}

// number reads an optional number field.
func (v *validator) number(key string) (float64, bool) {
	raw, ok := v.f[key]
	if !ok {
		return 0, false
	}
	var n float64
	if zodmsg.TypeOf(raw) != "number" || json.Unmarshal(raw, &n) != nil {
		v.add(key, zodmsg.Expected("number", raw))
		return 0, false
	}
	return n, true
}

// record reads an optional object field as a map.
func (v *validator) record(key string) (map[string]any, bool) {
	raw, ok := v.f[key]
	if !ok {
		return nil, false
	}
	var m map[string]any
	if zodmsg.TypeOf(raw) != "object" || json.Unmarshal(raw, &m) != nil {
		v.add(key, zodmsg.Expected("record", raw))
		return nil, false
	}
	return m, true
}

// object reads an optional object field as raw members.
func (v *validator) object(key string) (fields, bool) {
	raw, ok := v.f[key]
	if !ok {
		return nil, false
	}
	var m fields
	if zodmsg.TypeOf(raw) != "object" || json.Unmarshal(raw, &m) != nil {
		v.add(key, zodmsg.Expected("object", raw))
		return nil, false
	}
	return m, true
}

// members yields the members of an optional object field in the order
// written, one at a time, until v is full; a field that is not an object
// is an issue.
func (v *validator) members(key string) iter.Seq2[string, json.RawMessage] {
	return func(yield func(string, json.RawMessage) bool) {
		raw, ok := v.f[key]
		if !ok {
			return
		}
		if zodmsg.TypeOf(raw) != "object" {
			v.add(key, zodmsg.Expected("object", raw))
			return
		}
		err := wire.EachMember(raw, func(k string, val json.RawMessage) bool {
			return !v.full() && yield(k, val)
		})
		if err != nil {
			v.add(key, zodmsg.Expected("object", raw))
		}
	}
}

// strings reads an optional array of strings.
func (v *validator) strings(key string) ([]string, bool) {
	raw, ok := v.f[key]
	if !ok {
		return nil, false
	}
	if zodmsg.TypeOf(raw) != "array" {
		v.add(key, zodmsg.Expected("array", raw))
		return nil, false
	}
	var out []string
	good := true
	err := wire.EachElement(raw, func(i int, it json.RawMessage) bool {
		var s string
		if zodmsg.TypeOf(it) != "string" || json.Unmarshal(it, &s) != nil {
			v.add(key+"."+strconv.Itoa(i), zodmsg.Expected("string", it))
			good = false
			return !v.full()
		}
		out = append(out, s)
		return true
	})
	if err != nil {
		v.add(key, zodmsg.Expected("array", raw))
		return nil, false
	}
	if out == nil {
		out = []string{}
	}
	return out, good
}

// reservedKeys are request-context keys the server never takes from a
// client: the memory thread and resource are set from the body's
// memory (and the auth hook), never from requestContext.
var reservedKeys = []string{tools.ResourceIDKey, tools.ThreadIDKey}

// requestContext builds a run's request context from a client's entries,
// without the reserved keys, plus the authenticated resource when there
// is one (Mastra's auth middleware sets mastra__resourceId).
func requestContext(entries map[string]any, authResource string) *tools.RequestContext {
	for _, k := range reservedKeys {
		delete(entries, k)
	}
	rc := tools.NewRequestContext(entries)
	if authResource != "" {
		_ = rc.Set(tools.ResourceIDKey, authResource)
	}
	return rc
}

// bodyRequestContext reads the body's requestContext object.
func (v *validator) requestContext(authResource string) *tools.RequestContext {
	m, _ := v.record("requestContext")
	return requestContext(m, authResource)
}

// queryRequestContext reads ?requestContext=<base64 JSON object> (standard
// or URL-safe alphabet, padding optional).
func queryRequestContext(r *http.Request, authResource string) (*tools.RequestContext, error) {
	q := r.URL.Query().Get("requestContext")
	if q == "" {
		return requestContext(nil, authResource), nil
	}
	var raw []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if raw, err = enc.DecodeString(q); err == nil {
			break
		}
	}
	var m map[string]any
	if err != nil || json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, invalidQuery(wire.Issue{Field: "requestContext", Message: "Invalid request context: expected base64-encoded JSON object"})
	}
	return requestContext(m, authResource), nil
}

// queryInt reads a non-negative integer query parameter (min is the
// smallest value allowed).
func queryInt(r *http.Request, key string, min int) (int, bool, *wire.Issue) {
	s := r.URL.Query().Get(key)
	if s == "" {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) {
		return 0, false, &wire.Issue{Field: key, Message: "Invalid input: expected number, received NaN"}
	}
	if f != math.Trunc(f) {
		return 0, false, &wire.Issue{Field: key, Message: "Invalid input: expected int, received number"}
	}
	if int(f) < min {
		op := ">="
		if min > 0 {
			op = ">"
			min--
		}
		return 0, false, &wire.Issue{Field: key, Message: "Too small: expected number to be " + op + strconv.Itoa(min)}
	}
	return int(f), true, nil
}

// normalisePrefix normalises an API prefix: a leading slash, none at
// the end ("" for the root).
func normalisePrefix(p string) string {
	if p == "" {
		return ""
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return strings.TrimRight(p, "/")
}

// decodeIssue turns an error of decoding a field's JSON into Go into
// a Zod-like issue message ("Invalid input: expected number, received
// string", with the inner path when there is one) instead of Go's type
// names.
func decodeIssue(field string, err error) wire.Issue {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			field += "." + te.Field
		}
		received := te.Value
		if received == "bool" {
			received = "boolean"
		}
		return wire.Issue{Field: field, Message: "Invalid input: expected " + jsKind(te.Type) + ", received " + received}
	}
	return wire.Issue{Field: field, Message: "Invalid input"}
}

// jsKind names a Go type's JSON kind as Zod does.
func jsKind(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "value"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16,
		reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return "value"
}
