package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/schema"
)

// ValidationError is the result a tool call returns when its input, output,
// suspend payload, resume data or request context fails validation. It is a
// result, never a Go error: in an agent run it is a normal tool-result the
// model reads and can correct. Its JSON is exactly Mastra's:
//
//	{"error":true,"message":"...","validationErrors":{"errors":[...],"fields":{...}}}
type ValidationError struct {
	// Message is the header, one "- <path>: <message>" line per issue and
	// the footer with the offending value (JSON, at most 200 characters).
	// When Truncated, the lines stop after the first schema.MaxIssues
	// issues with the line "- … more issues left out".
	Message string
	// Errors is the {errors, fields} tree of the issue messages.
	Errors FieldErrors
	// Issues are the issues the message was built from, the first
	// schema.MaxIssues at most.
	Issues []schema.Issue
	// Truncated reports that the value had more than schema.MaxIssues
	// issues: those past them are left out of Issues, Errors and Message
	// (and the validator stopped looking for them).
	Truncated bool
}

// LeftOutLine is the issue line that ends a ValidationError's list when
// more issues were found than it shows.
const LeftOutLine = "- … more issues left out"

// FieldErrors is one level of the validationErrors tree: the messages at
// this level and the nested levels by key. Fields keep the order Mastra's
// (JavaScript) objects have.
type FieldErrors struct {
	Errors []string
	Fields []FieldEntry

	index map[string]int // key -> position in Fields, kept by fieldOrNew
}

// FieldEntry is one key of FieldErrors.Fields.
type FieldEntry struct {
	Key    string
	Errors *FieldErrors
}

// Field returns the nested level under key, or nil.
func (f *FieldErrors) Field(key string) *FieldErrors {
	if i, ok := f.indexOf(key); ok {
		return f.Fields[i].Errors
	}
	return nil
}

// indexOf finds key in Fields through an index rebuilt whenever Fields
// was changed from outside.
func (f *FieldErrors) indexOf(key string) (int, bool) {
	if f.index == nil || len(f.index) != len(f.Fields) {
		f.index = make(map[string]int, len(f.Fields)+1)
		for i, e := range f.Fields {
			f.index[e.Key] = i
		}
	}
	i, ok := f.index[key]
	return i, ok
}

func (f *FieldErrors) fieldOrNew(key string) *FieldErrors {
	if i, ok := f.indexOf(key); ok {
		return f.Fields[i].Errors
	}
	e := &FieldErrors{}
	f.index[key] = len(f.Fields)
	f.Fields = append(f.Fields, FieldEntry{key, e})
	return e
}

// Error makes ValidationError usable where an error is wanted (it is never
// returned as one by this package).
func (e *ValidationError) Error() string { return e.Message }

// MarshalJSON encodes Mastra's shape.
func (e *ValidationError) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"error":true,"message":`)
	writeJSONString(&b, e.Message)
	b.WriteString(`,"validationErrors":`)
	e.Errors.writeJSON(&b)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalJSON encodes {errors, fields} with fields in JavaScript order.
func (f FieldErrors) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	f.writeJSON(&b)
	return b.Bytes(), nil
}

func (f *FieldErrors) writeJSON(b *bytes.Buffer) {
	b.WriteString(`{"errors":[`)
	for i, m := range f.Errors {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, m)
	}
	b.WriteString(`],"fields":{`)
	keys := make([]string, len(f.Fields))
	for i, e := range f.Fields {
		keys[i] = e.Key
	}
	for i, k := range jsjson.OrderKeys(keys) {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, k)
		b.WriteByte(':')
		f.Field(k).writeJSON(b)
	}
	b.WriteString("}}")
}

// UnmarshalJSON decodes Mastra's shape (for clients and tests).
func (e *ValidationError) UnmarshalJSON(data []byte) error {
	var w struct {
		Error            bool            `json:"error"`
		Message          string          `json:"message"`
		ValidationErrors json.RawMessage `json:"validationErrors"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if !w.Error || w.ValidationErrors == nil {
		return errors.New("tools: not a validation error")
	}
	e.Message = w.Message
	return json.Unmarshal(w.ValidationErrors, &e.Errors)
}

// UnmarshalJSON decodes {errors, fields}, keeping key order.
func (f *FieldErrors) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var w struct {
		Errors []string        `json:"errors"`
		Fields json.RawMessage `json:"fields"`
	}
	if err := dec.Decode(&w); err != nil {
		return err
	}
	f.Errors = w.Errors
	f.Fields = nil
	if len(w.Fields) == 0 || string(w.Fields) == "null" {
		return nil
	}
	fd := json.NewDecoder(bytes.NewReader(w.Fields))
	if _, err := fd.Token(); err != nil {
		return err
	}
	for fd.More() {
		kt, err := fd.Token()
		if err != nil {
			return err
		}
		var sub FieldErrors
		if err := fd.Decode(&sub); err != nil {
			return err
		}
		f.Fields = append(f.Fields, FieldEntry{kt.(string), &sub})
	}
	return nil
}

// IsValidationError reports whether v is a validation error result: a
// *ValidationError, or a decoded JSON object with "error": true and a
// "validationErrors" key (Mastra's isValidationError).
func IsValidationError(v any) bool {
	switch t := v.(type) {
	case *ValidationError:
		return t != nil
	case map[string]any:
		_, has := t["validationErrors"]
		return t["error"] == true && has
	}
	return false
}

// validationKind selects a header and footer.
type validationKind int

const (
	inputValidation validationKind = iota
	outputValidation
	suspendValidation
	requestContextValidation
)

func (k validationKind) texts(id string) (header, footer string) {
	forID := ""
	if id != "" {
		forID = " for " + id
	}
	switch k {
	case outputValidation:
		return "Tool output validation failed" + forID + ". The tool returned invalid output:", "Returned output: "
	case suspendValidation:
		return "Tool suspension data validation failed" + forID + ". Please fix the following errors and try again:", "Provided arguments: "
	case requestContextValidation:
		return "Request context validation failed" + forID + ". Please fix the following errors and try again:", "Provided request context: "
	}
	return "Tool input validation failed" + forID + ". Please fix the following errors and try again:", "Provided arguments: "
}

// newValidationError builds the error Mastra builds. raw is the JSON of
// the offending value; nil means the value was absent (undefined), which
// Mastra renders as "[Unable to serialize data]".
func newValidationError(kind validationKind, id string, issues []schema.Issue, raw []byte) *ValidationError {
	header, footer := kind.texts(id)
	var b strings.Builder
	b.WriteString(header)
	b.WriteByte('\n')
	b.WriteString(IssueList(issues))
	issues, truncated := schema.CapIssues(issues)
	b.WriteString("\n\n")
	b.WriteString(footer)
	b.WriteString(truncateForLogging(raw))
	return &ValidationError{Message: b.String(), Errors: buildFieldErrors(issues), Issues: issues, Truncated: truncated}
}

// IssueList is issues as Mastra's validation errors list them, a
// "- <path>: <message>" line each (the path as Issue.PathString gives it):
// the first schema.MaxIssues, then LeftOutLine when there were more.
func IssueList(issues []schema.Issue) string {
	shown, more := schema.CapIssues(issues)
	var b strings.Builder
	for i, is := range shown {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- ")
		b.WriteString(is.PathString())
		b.WriteString(": ")
		b.WriteString(is.Message)
	}
	if more {
		b.WriteString("\n" + LeftOutLine)
	}
	return b.String()
}

// footerLimit is Mastra's footer length, in UTF-16 code units.
const footerLimit = 200

// truncateForLogging is Mastra's footer value: JSON.stringify(v, null, 2),
// cut at 200 UTF-16 code units with "... (truncated)".
func truncateForLogging(raw []byte) string {
	if raw == nil {
		return "[Unable to serialize data]"
	}
	if len(raw) > sampleAbove && json.Valid(raw) {
		raw = footerSample(raw)
	}
	return footerText(raw)
}

// footerText is truncateForLogging of a present value.
func footerText(raw []byte) string {
	// 4 bytes per UTF-16 unit bounds the prefix that holds 200 units.
	s, err := jsjson.StringifyPrefix(raw, "  ", 4*footerLimit+4)
	if err != nil {
		return "[Unable to serialize data]"
	}
	if cut, truncated := jsjson.TruncateUTF16(s, footerLimit); truncated {
		return cut + "... (truncated)"
	}
	return s
}

func buildFieldErrors(issues []schema.Issue) FieldErrors {
	var root FieldErrors
	root.Errors = []string{}
	for _, is := range issues {
		if len(is.Path) == 0 {
			root.Errors = append(root.Errors, is.Message)
			continue
		}
		cur := &root
		for _, seg := range treePath(is.Path) {
			cur = cur.fieldOrNew(seg)
		}
		cur.Errors = append(cur.Errors, is.Message)
	}
	return root
}

// maxTreeDepth bounds the validationErrors tree: every path segment is two
// levels of JSON, and JSON decoders (encoding/json's included) refuse
// nesting beyond 10000 levels. Segments past it are joined with "." into
// the last key; the message lines keep the whole path.
const maxTreeDepth = 1000

func treePath(path []string) []string {
	if len(path) <= maxTreeDepth {
		return path
	}
	out := append([]string(nil), path[:maxTreeDepth-1]...)
	return append(out, strings.Join(path[maxTreeDepth-1:], "."))
}

// sensitiveKeys mark request-context keys whose values Mastra redacts
// ("[REDACTED]") before showing a request context: a key containing one of
// them, case-insensitively, at any depth.
var sensitiveKeys = []string{"password", "secret", "token", "apikey", "api_key", "auth", "credential"}

func isSensitiveKey(k string) bool {
	lk := strings.ToLower(k)
	for _, s := range sensitiveKeys {
		if strings.Contains(lk, s) {
			return true
		}
	}
	return false
}

// writeJSONString writes s as JSON without HTML escaping, as JavaScript
// does.
func writeJSONString(b *bytes.Buffer, s string) {
	var sb strings.Builder
	jsjson.WriteString(&sb, s)
	b.WriteString(sb.String())
}
