package wire

// Issue is one problem of a request Mastra's HTTP API refuses, as its 400
// answers list them (Zod's issues): the field's dotted path ("root" for
// the body itself, "body" for a body that is not JSON) and the message.
type Issue struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// AppendError appends Mastra's error body: {"error":msg} or, when issues
// is not nil, {"error":msg,"issues":[{"field":...,"message":...},...]},
// every string escaped e's way. With StringifyGo it is what Marshal
// writes for those values; with StringifyReplaced what JSON.stringify
// writes for them after encoding/json.
func AppendError(b []byte, msg string, issues []Issue, e Escaping) []byte {
	b = append(b, `{"error":`...)
	b = AppendString(b, msg, e)
	if issues != nil {
		b = append(b, `,"issues":[`...)
		for i, is := range issues {
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
