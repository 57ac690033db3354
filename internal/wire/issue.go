package wire

import "github.com/gomastra/mastra/schema"

// Issue is one problem of a request Mastra's HTTP API refuses, as its 400
// answers list them (Zod's issues): the field's dotted path ("root" for
// the body itself, "body" for a body that is not JSON) and the message.
type Issue struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// MaxIssues is the most issues an error answer lists. A body with more
// problems (an array of a million wrong elements) is answered with its
// first MaxIssues, so that the answer, and the memory spent finding and
// writing its issues, stay small whatever the body; a body with
// MaxIssues or fewer problems is answered with all of them. It is the
// schema package's limit, so a body and the input in it are capped alike.
const MaxIssues = schema.MaxIssues

// Issues collects the issues of one request, keeping the first
// MaxIssues. Validators stop looking once Full says so.
type Issues []Issue

// Add appends the issue field: msg unless the list is full.
func (l *Issues) Add(field, msg string) {
	if !l.Full() {
		*l = append(*l, Issue{Field: field, Message: msg})
	}
}

// Full reports whether the list holds MaxIssues issues.
func (l Issues) Full() bool { return len(l) >= MaxIssues }

// Capped is issues without those past the first MaxIssues.
func Capped(issues []Issue) []Issue {
	if len(issues) > MaxIssues {
		return issues[:MaxIssues]
	}
	return issues
}

// AppendError appends Mastra's error body: {"error":msg} or, when issues
// is not nil, {"error":msg,"issues":[{"field":...,"message":...},...]}
// with the first MaxIssues issues,
// every string escaped e's way. With StringifyGo it is what Marshal
// writes for those values; with StringifyReplaced what JSON.stringify
// writes for them after encoding/json.
func AppendError(b []byte, msg string, issues []Issue, e Escaping) []byte {
	b = append(b, `{"error":`...)
	b = AppendString(b, msg, e)
	if issues != nil {
		b = append(b, `,"issues":[`...)
		for i, is := range Capped(issues) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"field":`...)
			b = AppendString(b, is.Field, e)
			b = append(b, `,"message":`...)
			b = AppendString(b, is.Message, e)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
